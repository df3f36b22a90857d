"""``GET /queues`` per caller: of an appeals queue's pending items, those the caller decided
or escalated before (four eyes) are ``not_for_you``; of the escalation queue's, those
assigned to another lead. The counts match what the caller's claim gets. Over real HTTP,
on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from reviewer_app.protocol import Role
from tests.support.api import ApiSession, claim, verdict
from tests.support.appeals import APPEALS, appeal, appeals_server, platform_of
from tests.support.clock import ManualClock
from tests.support.enforcement import ESCALATIONS, queue_posts
from tests.support.intake import MISINFO, send
from tests.support.servers import LiveServer

CIVIC = ["MISINFO.CIVIC"]
NOTE = "Satire or a real claim? The account posts both."


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    srv = appeals_server(database_url, ManualClock())
    try:
        yield srv
    finally:
        srv.stop()


def counts(session: ApiSession) -> dict[str, dict[str, Any]]:
    response = session.get("/queues")
    assert response.status_code == 200, response.text
    return {q["id"]: q["counts"] for q in response.json()["queues"]}


def waiting(session: ApiSession, queue_id: str) -> tuple[int, int]:
    """(pending, not_for_you) of the queue as ``session`` sees it."""
    found = counts(session)[queue_id]
    return found["pending"], found["not_for_you"]


def remove_one(session: ApiSession) -> None:
    [leased] = claim(session, MISINFO, 1)
    [result] = session.decide([verdict(leased, "remove", policies=CIVIC)])
    assert result["status"] == "accepted", result


def test_an_appeal_is_not_for_whoever_decided_it_and_the_counts_say_so(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-1"])
    rita = server.login("rita")
    remove_one(rita)
    queue_posts(platform, ["p-2"])
    sam = server.login("sam")
    remove_one(sam)
    results = send(platform, "appeals", [appeal("p-1"), appeal("p-2")])
    assert [r["status"] for r in results] == ["created", "created"], results
    tom = server.login("tom")

    assert waiting(rita, APPEALS) == (2, 1)
    assert waiting(sam, APPEALS) == (2, 1)
    assert waiting(tom, APPEALS) == (2, 0)
    # queues without recusal or assignment say 0
    assert all(c["not_for_you"] == 0 for q, c in counts(tom).items() if q != APPEALS)

    # what the counts promise is what the claim gets
    [mine] = claim(rita, APPEALS, 5, exactly=False)
    assert waiting(rita, APPEALS) == (1, 1)  # left: her own decision's appeal
    assert waiting(sam, APPEALS) == (1, 0)  # left: rita's, which sam may take
    assert claim(rita, APPEALS, 5, exactly=False) == []
    rita.post("/leases/release", json={"tokens": [mine["lease_token"]]}).raise_for_status()
    assert waiting(rita, APPEALS) == (2, 1)


def test_an_escalation_held_for_another_lead_and_an_appeal_after_one(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    first, second = queue_posts(platform, ["p-1", "p-2"])
    rita = server.login("rita")
    for leased in claim(rita, MISINFO, 2):
        [result] = rita.decide(
            [verdict(leased, "escalate", escalation_reason="policy_unclear", note=NOTE)]
        )
        assert result["status"] == "accepted", result
    lena = server.login("lena", Role.lead)
    lars = server.login("lars", Role.lead)
    assigned = lars.request("PUT", f"/escalations/{first}/assignee", json={"assignee": "lars"})
    assert assigned.status_code == 200, assigned.text

    assert waiting(lena, ESCALATIONS) == (2, 1)
    assert waiting(lars, ESCALATIONS) == (2, 0)
    assert ESCALATIONS not in counts(rita)  # a lead-only queue: not listed for her

    [taken] = claim(lena, ESCALATIONS, 5, exactly=False)
    assert taken["item"]["id"] == second
    assert waiting(lena, ESCALATIONS) == (1, 1)
    [result] = lena.decide([verdict(taken, "remove", policies=CIVIC)])
    assert result["status"] == "accepted", result

    # the appeal of the decision lena took on rita's escalation: neither of them may take it
    [appealed] = send(platform, "appeals", [appeal("p-2")])
    assert appealed["status"] == "created", appealed
    assert waiting(rita, APPEALS) == (1, 1)
    assert waiting(lena, APPEALS) == (1, 1)
    assert waiting(lars, APPEALS) == (1, 0)


def test_whoever_decides_the_appeal_reads_the_escalating_reviewers_note(
    server: LiveServer,
) -> None:
    """The appeal's item is in the appeals queue now, not the escalation queue (so no
    ``item.escalation``): its history's ``escalated`` entry carries the note."""
    platform = platform_of(server)
    [item_id] = queue_posts(platform, ["p-1"])
    rita = server.login("rita")
    [leased] = claim(rita, MISINFO, 1)
    [result] = rita.decide(
        [verdict(leased, "escalate", escalation_reason="policy_unclear", note=NOTE)]
    )
    assert result["status"] == "accepted", result
    lena = server.login("lena", Role.lead)
    [taken] = claim(lena, ESCALATIONS, 1)
    [result] = lena.decide([verdict(taken, "remove", policies=CIVIC)])
    assert result["status"] == "accepted", result
    [appealed] = send(platform, "appeals", [appeal("p-1")])
    assert appealed["status"] == "created", appealed

    [held] = claim(server.login("tom"), APPEALS, 1)
    item = held["item"]
    assert item["id"] == item_id and item["escalation"] is None
    [escalated] = [e for e in item["history"] if e["kind"] == "escalated"]
    assert escalated["actor"] == "rita"
    assert escalated["data"]["reason_label"] == "Policy unclear"
    assert escalated["data"]["note"] == NOTE
