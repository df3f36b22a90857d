"""Ratings from a fact-checker's key: stored, read back by that fact-checker only, and put
on the posts they name (as a fact-check of the fact-checker's organisation) so routing and
the items see them."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import update

from reviewer_app.protocol import Role
from reviewer_app.server.storage.tables import users
from tests.support.api import ApiSession, expect_problem
from tests.support.intake import (
    MISINFO,
    NOW,
    apply_queues,
    classifier,
    key_session,
    post,
    send,
    statuses,
)
from tests.support.servers import LiveServer


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    apply_queues(live_server)
    return live_server


@pytest.fixture
def checker(server: LiveServer) -> ApiSession:
    session = key_session(server, "full-fact", Role.fact_checker)
    with server.service.db.write() as conn:
        conn.execute(
            update(users).where(users.c.username == "full-fact").values(display_name="Full Fact")
        )
    return session


def rating(rating_id: str, *post_ids: str, value: str = "false", **fields: Any) -> dict:
    body: dict[str, Any] = {
        "id": rating_id,
        "post_external_ids": list(post_ids),
        "rating": value,
        "claim": "Ballots posted after Friday are not counted",
        "url": f"https://fullfact.example/{rating_id}",
        "published_at": NOW.isoformat(),
    }
    body.update(fields)
    return body


def test_a_rating_goes_on_the_posts_it_names(server: LiveServer, checker: ApiSession) -> None:
    feed = key_session(server, "feed-bridge")
    backfill = key_session(server, "backfill")
    send(feed, "posts", [post("p1"), post("p2")])
    send(backfill, "posts", [post("p1")])  # the same platform post, through another feed
    [open_p2] = send(feed, "signals", [classifier("p2", 0.9)])

    [result] = send(checker, "fact-checks", [rating("fc-1", "p1", "p2", "not-here-yet")])
    assert result["status"] == "created"
    # p1 routed into misinfo twice (once per feed), p2's open item gained the rating
    assert len(result["item_ids"]) == 3 and open_p2["item_ids"][0] in result["item_ids"]
    assert set(result["queue_ids"]) == {MISINFO}

    lead = server.login("lena", Role.lead)
    for item_id in result["item_ids"]:
        item = lead.get(f"/items/{item_id}").json()
        assert [
            (f["organisation"], f["rating"], f["rating_label"]) for f in item["fact_checks"]
        ] == [("Full Fact", "false", "False")]
        assert item["fact_checks"][0]["claim"] == "Ballots posted after Friday are not counted"

    # with a source, only that feed's posts
    [only] = send(
        checker, "fact-checks", [rating("fc-2", "p1", value="partly_false", source="backfill")]
    )
    assert len(only["item_ids"]) == 1


def test_a_rating_sent_before_its_post_goes_on_the_post_when_it_arrives(
    server: LiveServer, checker: ApiSession
) -> None:
    """A fact-checker rates what it finds on the platform; the platform sends a post when
    it is flagged. The rating was stored and never applied, and a reviewer could not label
    the post for want of a fact-check."""
    feed = key_session(server, "feed-bridge")
    other = key_session(server, "other-feed")
    [early] = send(checker, "fact-checks", [rating("fc-early", "late-1", "late-2")])
    assert early["status"] == "created" and early["item_ids"] == []
    [only_feed] = send(
        checker,
        "fact-checks",
        [rating("fc-feed", "late-3", value="partly_false", source="feed-bridge")],
    )
    assert only_feed["item_ids"] == []

    [late_1, late_3] = send(feed, "posts", [post("late-1"), post("late-3")])
    assert late_1["status"] == late_3["status"] == "created"
    assert late_1["queue_ids"] == [MISINFO] and len(late_1["item_ids"]) == 1
    assert late_3["queue_ids"] == [MISINFO]
    # a rating that names a platform account goes on that account's posts only
    [elsewhere] = send(other, "posts", [post("late-3")])
    assert elsewhere["item_ids"] == []

    lead = server.login("lena", Role.lead)
    item = lead.get(f"/items/{late_1['item_ids'][0]}").json()
    assert [(f["organisation"], f["rating"]) for f in item["fact_checks"]] == [
        ("Full Fact", "false")
    ]
    # sent again, nothing is applied twice
    [again] = send(feed, "posts", [post("late-1")])
    assert again["status"] == "unchanged"
    assert len(lead.get(f"/items/{late_1['item_ids'][0]}").json()["fact_checks"]) == 1
    # and a rating of a post that is there already is not kept waiting for another copy
    [later] = send(feed, "posts", [post("late-2")])
    assert later["queue_ids"] == [MISINFO]


def test_ratings_are_idempotent_and_on_the_scale(server: LiveServer, checker: ApiSession) -> None:
    first = rating("fc-1")
    assert statuses(send(checker, "fact-checks", [first])) == ["created"]
    assert statuses(send(checker, "fact-checks", [first, first])) == ["unchanged", "unchanged"]
    results = send(
        checker,
        "fact-checks",
        [rating("fc-1", value="satire"), rating("fc-3", value="pants-on-fire")],
    )
    assert [r["reason"]["code"] for r in results] == ["id_reused", "unknown_rating"]


def test_a_fact_checker_reads_back_its_own_ratings_only(
    server: LiveServer, checker: ApiSession
) -> None:
    send(checker, "fact-checks", [rating(f"fc-{i}") for i in range(3)])
    other = key_session(server, "other-checker", Role.fact_checker)
    send(other, "fact-checks", [rating("theirs")])

    seen: list[dict[str, Any]] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = checker.get("/intake/fact-checks", params=params).json()
        seen += page["ratings"]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert [r["id"] for r in seen] == ["fc-0", "fc-1", "fc-2"]
    assert {r["organisation"] for r in seen} == {"Full Fact"}
    assert seen[0]["received_at"]
    expect_problem(checker.get("/intake/fact-checks", params={"cursor": "nope"}), 400)
    assert [r["id"] for r in other.get("/intake/fact-checks").json()["ratings"]] == ["theirs"]


def test_fact_checkers_and_platforms_keep_to_their_routes(
    server: LiveServer, checker: ApiSession
) -> None:
    feed = key_session(server, "feed-bridge")
    expect_problem(
        feed.post("/intake/fact-checks", json={"ratings": [rating("x")]}), 403, "fact_checker_only"
    )
    expect_problem(feed.get("/intake/fact-checks"), 403, "fact_checker_only")
    expect_problem(
        checker.post("/intake/posts", json={"posts": [post("p1")]}), 403, "platform_only"
    )
    for blank in ("   ", "\u200b\u200b", "\u202e\u2066 \u2069"):  # spaces, or invisible only
        bad = rating("x")
        bad["claim"] = blank
        body = expect_problem(checker.post("/intake/fact-checks", json={"ratings": [bad]}), 422)
        assert body["errors"][0]["loc"][:3] == ["body", "ratings", 0], body
    shown = rating("y")
    shown["claim"] = "\u2066Ballots\u2069 are counted"  # isolated, yet words
    assert send(checker, "fact-checks", [shown])[0]["status"] == "created"
