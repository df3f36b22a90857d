"""A post deleted or made private upstream: its open item leaves review.

During a lease the holder's renewal says ``withdrawn`` and its verdict is rejected with
reason ``withdrawn`` (never a conflict, never a server error); a verdict made offline
after the lease ran out is answered the same; a decision made before stands.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from reviewer_app.protocol import Role
from reviewer_app.server.storage.tables import items, leases
from tests.support.api import ApiSession, claim, verdict
from tests.support.clock import ManualClock
from tests.support.intake import (
    MISINFO,
    apply_queues,
    classifier,
    key_session,
    post,
    report,
    send,
    statuses,
)
from tests.support.servers import LiveServer


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Any:
    live = LiveServer(database_url, clock=clock).start()
    try:
        apply_queues(live)
        yield live
    finally:
        live.stop()


@pytest.fixture
def platform(server: LiveServer) -> ApiSession:
    return key_session(server, "feed-bridge")


def queued(platform: ApiSession, external_id: str) -> str:
    send(platform, "posts", [post(external_id)])
    [result] = send(platform, "signals", [classifier(external_id, 0.9)])
    [item_id] = result["item_ids"]
    return item_id


def withdraw(platform: ApiSession, external_id: str, reason: str = "deleted") -> dict[str, Any]:
    [result] = send(platform, "withdrawals", [{"post_external_id": external_id, "reason": reason}])
    return result


def counts(session: ApiSession) -> dict[str, Any]:
    queues = session.get("/queues").json()["queues"]
    found: dict[str, Any] = next(q for q in queues if q["id"] == MISINFO)["counts"]
    return found


def test_withdrawn_during_a_lease(server: LiveServer, platform: ApiSession) -> None:
    item_id = queued(platform, "p1")
    reviewer = server.login("rita")
    [leased] = claim(reviewer, MISINFO, 1)
    token = leased["lease_token"]

    result = withdraw(platform, "p1")
    assert result["status"] == "updated" and result["item_ids"] == [item_id], result
    assert withdraw(platform, "p1")["status"] == "unchanged"

    renewed = reviewer.post("/leases/renew", json={"tokens": [token]}).json()["results"]
    assert [r["status"] for r in renewed] == ["withdrawn"]
    released = reviewer.post("/leases/release", json={"tokens": [token]}).json()["results"]
    assert [r["status"] for r in released] == ["withdrawn"]

    [answer] = reviewer.decide([verdict(leased, "keep")])
    assert answer["status"] == "rejected", answer
    assert answer["reason"] == {
        "code": "withdrawn",
        "message": "withdrawn by the platform",
        "author_status": None,
        "held_until": None,
    }
    [again] = reviewer.decide([verdict(leased, "remove", policies=["MISINFO.CIVIC"])])
    assert again["reason"]["code"] == "withdrawn"

    item = reviewer.get(f"/items/{item_id}").json()
    assert item["state"] == "withdrawn" and item["decision"] is None
    assert [e["kind"] for e in item["history"]] == ["enqueued", "claimed", "withdrawn"]
    assert item["history"][-1]["data"]["reason"] == "deleted"
    assert counts(reviewer) == {**counts(reviewer), "pending": 0, "leased": 0}
    assert claim(reviewer, MISINFO, 5, exactly=False) == []
    with server.service.db.read() as conn:
        lease = conn.execute(select(leases.c.ended_at).where(leases.c.token == token)).one()
        row = conn.execute(
            select(items.c.lease_token, items.c.lease_user_id).where(items.c.id == item_id)
        ).one()
    assert lease.ended_at is not None
    assert tuple(row) == (None, None)


def test_withdrawn_while_a_verdict_was_made_offline(
    server: LiveServer, platform: ApiSession, clock: ManualClock
) -> None:
    item_id = queued(platform, "p1")
    offline = server.login("olga")
    [leased] = claim(offline, MISINFO, 1, lease_seconds=60)
    clock.advance(120)  # the lease runs out while olga works offline
    other = server.login("otto")
    # a claim puts the expired item back in the queue (pending); otto takes it
    [again] = claim(other, MISINFO, 1)
    assert again["item"]["id"] == item_id
    release = other.post("/leases/release", json={"tokens": [again["lease_token"]]})
    assert [r["status"] for r in release.json()["results"]] == ["released"]
    assert withdraw(platform, "p1", "private")["item_ids"] == [item_id]

    [answer] = offline.decide([verdict(leased, "keep")])
    assert answer["status"] == "rejected" and answer["reason"]["code"] == "withdrawn", answer
    item = offline.get(f"/items/{item_id}").json()
    assert item["state"] == "withdrawn" and item["decision"] is None


def test_withdrawn_after_a_decision(server: LiveServer, platform: ApiSession) -> None:
    item_id = queued(platform, "p1")
    reviewer = server.login("rita")
    [leased] = claim(reviewer, MISINFO, 1)
    [decided] = reviewer.decide([verdict(leased, "remove", policies=["MISINFO.CIVIC"])])
    assert decided["status"] == "accepted"

    result = withdraw(platform, "p1")
    assert result["status"] == "updated" and result["item_ids"] == [], result
    item = reviewer.get(f"/items/{item_id}").json()
    assert item["state"] == "decided" and item["decision"]["action"] == "remove"
    assert item["history"][-1]["kind"] == "decided"
    # a retry of the verdict still gets its stored answer
    [retry] = reviewer.decide([verdict(leased, "remove", policies=["MISINFO.CIVIC"])])
    assert retry["status"] in ("conflict", "accepted", "duplicate")
    assert retry["decision"]["id"] == decided["decision"]["id"]


def test_a_withdrawn_post_takes_no_signals_until_it_is_sent_again(
    server: LiveServer, platform: ApiSession, clock: ManualClock
) -> None:
    first = queued(platform, "p1")
    sent_before = report("p1", signal_id="before")
    send(platform, "signals", [sent_before])
    withdraw(platform, "p1", "private")
    results = send(platform, "signals", [report("p1"), sent_before])
    assert statuses(results) == ["rejected", "unchanged"]
    assert results[0]["reason"]["code"] == "post_withdrawn"

    # made public again (a change after the withdrawal): the post is live, its signals
    # route it to a new item
    clock.advance(60)
    again = post("p1") | {"updated_at": datetime.fromtimestamp(clock.now, UTC).isoformat()}
    [back] = send(platform, "posts", [again])
    assert back["status"] == "updated" and back["queue_ids"] == [MISINFO], back
    assert back["item_ids"] != [first]
    lead = server.login("lena", Role.lead)
    item = lead.get(f"/items/{back['item_ids'][0]}").json()
    assert item["state"] == "pending" and item["reports"]["total"] == 1


def test_withdrawals_of_unknown_posts_are_rejected(
    server: LiveServer, platform: ApiSession
) -> None:
    send(platform, "posts", [post("p1")])
    results = send(
        platform,
        "withdrawals",
        [
            {"post_external_id": "nope", "reason": "deleted"},
            {"post_external_id": "p1", "reason": "deleted"},
            {"post_external_id": "p1", "reason": "private"},
        ],
    )
    assert statuses(results) == ["rejected", "updated", "unchanged"]
    assert results[0]["reason"]["code"] == "unknown_post"
