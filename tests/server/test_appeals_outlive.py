"""A waiting appeal outlives what happens to its author and its post, over real HTTP on
SQLite and PostgreSQL: an account action on the author leaves it waiting for an appeal
reviewer (its outcome reaches the platform), and a withdrawal of the post ends it
undecided with a ``withdrawn`` action that names it. Escalations the service no longer
holds open stop counting as open in the queue figures."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.domain.intake.rows import author_id_for
from tests.support.api import ApiSession, claim, verdict
from tests.support.appeals import APPEALS, SOURCE, appeal, appeals_server, feed, platform_of
from tests.support.clock import ManualClock
from tests.support.enforcement import queue_posts
from tests.support.intake import MISINFO, classifier, post, send
from tests.support.servers import LiveServer

CIVIC = ["MISINFO.CIVIC"]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Any:
    srv = appeals_server(database_url, clock)
    try:
        yield srv
    finally:
        srv.stop()


def _removed_and_appealed(server: LiveServer, platform: ApiSession) -> tuple[str, ApiSession]:
    """p-1 removed by rita, and appealed (ap-1): the appeal's item id, and rita."""
    [item_id] = queue_posts(platform, ["p-1"])
    rita = server.login("rita")
    [leased] = claim(rita, MISINFO, 1)
    [removed] = rita.decide([verdict(leased, "remove", policies=CIVIC)])
    assert removed["status"] == "accepted", removed
    [sent] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-1")])
    assert sent["status"] == "created" and sent["queue_ids"] == [APPEALS], sent
    return item_id, rita


def test_an_appeal_waiting_when_its_author_is_suspended_is_still_decided(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    item_id, _ = _removed_and_appealed(server, platform)
    lead = server.login("lena", Role.lead)
    suspended = lead.post(
        "/authors/actions",
        json={
            "author_ids": [author_id_for(SOURCE, "author-1")],
            "action": "suspend",
            "policies": CIVIC,
            "note": "a network",
        },
    )
    assert suspended.status_code == 200, suspended.text
    [applied] = suspended.json()["results"]
    assert item_id not in applied["closed_item_ids"], "the appeal was closed with the account"

    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 5, exactly=False)
    assert held["item"]["id"] == item_id
    [upheld] = sam.decide([verdict(held, "uphold", note="The removal stands.")])
    assert upheld["status"] == "accepted", upheld
    actions = feed(server, platform)
    assert [a["kind"] for a in actions] == ["remove", "author:suspend", "appeal_upheld"]
    assert actions[-1]["appeal_id"] == "ap-1"


def test_a_withdrawal_ends_a_waiting_appeal_and_names_it(
    server: LiveServer, clock: ManualClock
) -> None:
    platform = platform_of(server)
    item_id, rita = _removed_and_appealed(server, platform)
    [gone] = send(platform, "withdrawals", [{"post_external_id": "p-1", "reason": "deleted"}])
    assert gone["item_ids"] == [item_id], gone

    actions = feed(server, platform)
    assert [(a["kind"], a["appeal_id"]) for a in actions] == [
        ("remove", None),
        ("withdrawn", "ap-1"),
    ]
    item = rita.get(f"/items/{item_id}").json()
    assert item["state"] == "withdrawn"
    assert item["appeal"]["outcome"] == "withdrawn"
    assert item["decision"]["action"] == "remove", "the appealed decision stands"
    clock.advance(1)  # the window ends now, exclusive
    [mine] = rita.get("/me/decisions").json()["decisions"]
    assert mine["outcome"] == "accepted", "no appeal waits on it any more"
    assert claim(server.login("sam"), APPEALS, 5, exactly=False) == []


def test_a_post_back_after_its_appeal_ended_withdrawn_is_not_reviewed_again(
    server: LiveServer, clock: ManualClock
) -> None:
    """Removed, appealed, made private (which ends the appeal: the removal stands), then
    public again: the post is not routed for review anew, as a removed post never is
    (it was: a second removal struck its author twice for one post)."""
    platform = platform_of(server)
    item_id, rita = _removed_and_appealed(server, platform)
    [gone] = send(platform, "withdrawals", [{"post_external_id": "p-1", "reason": "private"}])
    assert gone["item_ids"] == [item_id], gone
    clock.advance(60)
    back_at = datetime.fromtimestamp(clock.now, UTC).isoformat()
    [back] = send(platform, "posts", [post("p-1", updated_at=back_at)])
    assert back["status"] == "updated" and back["item_ids"] == [], back
    [signal] = send(platform, "signals", [classifier("p-1", 0.95)])
    assert signal["item_ids"] == [], signal
    assert claim(server.login("otto"), MISINFO, 5, exactly=False) == []
    assert [a["kind"] for a in feed(server, platform)] == ["remove", "withdrawn"]
    item = rita.get(f"/items/{item_id}").json()
    assert item["decision"]["action"] == "remove", "the appealed decision stands"


def test_an_appeal_shows_what_was_decided_not_what_came_in_since(server: LiveServer) -> None:
    """A new version of the post (edited upstream) while its appeal waits: the appeal
    reviewer sees the text that was removed, and the decided item keeps it after the
    appeal (the edit had rewritten the decision's record for good)."""
    platform = platform_of(server)
    item_id, rita = _removed_and_appealed(server, platform)
    decided = rita.get(f"/items/{item_id}").json()["post"]["text"]
    edited = post("p-1", "Edited after the removal: harmless now.")
    [v2] = send(platform, "posts", [edited])
    assert v2["status"] == "updated", v2
    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 5, exactly=False)
    assert held["item"]["id"] == item_id and held["item"]["post"]["text"] == decided
    [upheld] = sam.decide([verdict(held, "uphold", note="The removal stands.")])
    assert upheld["status"] == "accepted", upheld
    assert rita.get(f"/items/{item_id}").json()["post"]["text"] == decided


def _escalated_open(lead: ApiSession) -> int:
    response = lead.get("/stats/queues")
    assert response.status_code == 200, response.text
    return next(q for q in response.json()["queues"] if q["queue_id"] == MISINFO)[
        "escalations_open"
    ]


def test_escalations_count_open_only_while_the_service_holds_them_open(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["e-1", "e-2"])
    rita = server.login("rita")
    leased = claim(rita, MISINFO, 2)
    made = rita.decide([verdict(x, "escalate") for x in leased])
    assert [r["status"] for r in made] == ["accepted"] * 2, made
    lead = server.login("lena", Role.lead)
    assert _escalated_open(lead) == 2

    send(platform, "withdrawals", [{"post_external_id": "e-1", "reason": "private"}])
    assert _escalated_open(lead) == 1
    acted = lead.post(
        "/authors/actions",
        json={"author_ids": [author_id_for(SOURCE, "author-1")], "action": "suspend"},
    )
    assert acted.status_code == 200, acted.text
    assert _escalated_open(lead) == 0
