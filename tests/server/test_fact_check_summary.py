"""The fact-checks a post's item shows and what re-review counts as new (routing.Summary and
intake/items.py), over the small queue configuration of tests/support/intake.py: misinfo
takes a post on a ``civic``/``claim`` score or a false rating, and takes a kept post back on
3 new reports or a new false rating.

- a platform's relay never replaces the rating an organisation sent with its own key;
- one organisation's many ratings cannot push another's off the item;
- the same rating sent again is nothing new: a kept post stays kept;
- what reached the item while a reviewer held it was not in the copy they kept: it counts
  as new.
"""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.domain.routing import MAX_FACT_CHECKS, Summary
from tests.support.api import ApiSession, claim, verdict
from tests.support.intake import (
    MISINFO,
    NOW,
    apply_queues,
    classifier,
    fact_check,
    key_session,
    post,
    report,
    send,
)
from tests.support.servers import LiveServer

ARTICLE = "https://verifact.example/check-1"


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    apply_queues(live_server)
    return live_server


@pytest.fixture
def platform(server: LiveServer) -> ApiSession:
    return key_session(server, "feed-bridge")


@pytest.fixture
def lead(server: LiveServer) -> ApiSession:
    return server.login("lena", Role.lead)


def rating(rating_id: str, post_id: str, value: str, url: str = ARTICLE) -> dict[str, Any]:
    """A rating as a fact-checker's key sends it."""
    return {
        "id": rating_id,
        "post_external_ids": [post_id],
        "rating": value,
        "claim": "The election was moved to Thursday",
        "url": url,
        "published_at": NOW.isoformat(),
    }


def shown(lead: ApiSession, item_id: str) -> list[tuple[str, str, str]]:
    item = lead.get(f"/items/{item_id}").json()
    return [(f["organisation"], f["rating"], f["url"]) for f in item["fact_checks"]]


def test_a_relay_never_replaces_the_organisations_own_rating(
    server: LiveServer, platform: ApiSession, lead: ApiSession
) -> None:
    checker = key_session(server, "verifact", Role.fact_checker)
    send(platform, "posts", [post("own")])
    [own] = send(checker, "fact-checks", [rating("vf-1", "own", "false")])
    [item_id] = own["item_ids"]
    [(organisation, _, _)] = shown(lead, item_id)

    relayed = fact_check("own", "satire", organisation=organisation, url=ARTICLE)
    [result] = send(platform, "signals", [relayed])
    assert result["status"] == "created"
    assert shown(lead, item_id) == [(organisation, "false", ARTICLE)]

    # the organisation's own correction replaces its rating, relayed or its own
    [corrected] = send(checker, "fact-checks", [rating("vf-2", "own", "partly_false")])
    assert corrected["item_ids"] == [item_id]
    assert shown(lead, item_id) == [(organisation, "partly_false", ARTICLE)]


def test_the_own_rating_replaces_a_relay_of_it() -> None:
    summary = Summary()
    check = {
        "organisation": "Verifact",
        "rating": "true",
        "claim": "Relayed",
        "url": ARTICLE,
        "published_at": NOW.isoformat(),
    }
    summary.add_fact_check(check, 1.0)
    summary.add_fact_check({**check, "rating": "false"}, 2.0, own=True)
    summary.add_fact_check({**check, "rating": "satire"}, 3.0)  # a relay again: ignored
    [kept] = Summary.load(summary.dump()).fact_checks
    assert (kept["rating"], kept["received_at"], kept["own"]) == ("false", 2.0, True)
    # a summary stored before ``own`` was recorded loads, its entries taken as relays
    older = Summary.load(orjson.dumps({"fact_checks": [{**check, "received_at": 1.0}]}).decode())
    older.add_fact_check({**check, "rating": "false"}, 2.0)
    assert [f["rating"] for f in older.fact_checks] == ["false"]


def test_many_ratings_of_one_organisation_leave_anothers_on_the_item(
    server: LiveServer, platform: ApiSession, lead: ApiSession
) -> None:
    send(platform, "posts", [post("many")])
    other = fact_check("many", "false", organisation="ClaimCheck", url="https://cc.example/1")
    [first] = send(platform, "signals", [other])
    [item_id] = first["item_ids"]
    flood = [
        fact_check("many", "satire", organisation="Verifact", url=f"https://vf.example/{n}")
        for n in range(MAX_FACT_CHECKS)
    ]
    send(platform, "signals", flood)

    checks = shown(lead, item_id)
    assert len(checks) == MAX_FACT_CHECKS
    assert ("ClaimCheck", "false", "https://cc.example/1") in checks
    # Verifact lost its oldest article, not its newest
    assert ("Verifact", "satire", f"https://vf.example/{MAX_FACT_CHECKS - 1}") in checks
    assert ("Verifact", "satire", "https://vf.example/0") not in checks
    # the reviewer may label it with the rating the item gives as its reason
    reviewer = server.login("rita")
    [leased] = claim(reviewer, MISINFO, 1)
    assert leased["item"]["id"] == item_id
    [decided] = reviewer.decide([verdict(leased, "label-reduce", rating="false")])
    assert decided["status"] == "accepted", decided


def _keep(server: LiveServer, item_id: str) -> None:
    reviewer = server.login(f"rev-{item_id[-8:]}")
    [leased] = claim(reviewer, MISINFO, 1)
    assert leased["item"]["id"] == item_id
    [result] = reviewer.decide([verdict(leased, "keep")])
    assert result["status"] == "accepted", result


def test_the_same_rating_sent_again_does_not_bring_a_kept_post_back(
    server: LiveServer, platform: ApiSession
) -> None:
    send(platform, "posts", [post("again")])
    [first] = send(platform, "signals", [fact_check("again", "false")])
    [item_id] = first["item_ids"]
    _keep(server, item_id)

    [again] = send(platform, "signals", [fact_check("again", "false")])  # a new signal id
    assert again["status"] == "created" and again["item_ids"] == [], again
    # a report (under the rule's 3) routes the post again: the rating is still not new
    [one] = send(platform, "signals", [report("again", "spam")])
    assert one["item_ids"] == [], one
    # a changed rating of the same article is new
    [changed] = send(platform, "signals", [{**fact_check("again", "false"), "claim": "Other"}])
    assert changed["queue_ids"] == [MISINFO] and changed["item_ids"] != [item_id], changed


def test_a_rating_that_came_while_the_reviewer_held_the_item_is_new_after_a_keep(
    server: LiveServer, platform: ApiSession, lead: ApiSession
) -> None:
    send(platform, "posts", [post("held")])
    [first] = send(platform, "signals", [classifier("held", 0.9)])
    [item_id] = first["item_ids"]
    reviewer = server.login("rita")
    [leased] = claim(reviewer, MISINFO, 1)
    assert leased["item"]["fact_checks"] == []
    # while the reviewer holds it: a false rating and two reports reach the item
    during = [fact_check("held", "false"), report("held", "spam"), report("held", "spam")]
    assert {r["item_ids"][0] for r in send(platform, "signals", during)} == {item_id}
    [kept] = reviewer.decide([verdict(leased, "keep")])
    assert kept["status"] == "accepted", kept

    # the next signal routes the post: the rating and reports its reviewer never saw are new
    [one] = send(platform, "signals", [report("held", "spam")])
    assert one["queue_ids"] == [MISINFO] and one["item_ids"] != [item_id], one
    [again] = one["item_ids"]
    reasons = [r["detail"] for r in lead.get(f"/items/{again}").json()["reasons"]]
    assert reasons == ["3 new reports since kept", "new rating False (Check Desk) since kept"]


def test_what_came_before_the_claim_is_not_new_after_a_keep(
    server: LiveServer, platform: ApiSession
) -> None:
    send(platform, "posts", [post("seen")])
    [first] = send(platform, "signals", [fact_check("seen", "false")])
    [item_id] = first["item_ids"]
    send(platform, "signals", [report("seen", "spam"), report("seen", "spam")])
    _keep(server, item_id)
    [one] = send(platform, "signals", [report("seen", "spam")])
    assert one["item_ids"] == [], one
