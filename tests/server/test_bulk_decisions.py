"""Bulk decisions (both databases, over HTTP): one action on many items, each its own
decision, event and enforcement action, all in one transaction or none.

The lead lists 500 open items and decides them together; a reviewer decided one of them
meanwhile, so the whole request refuses (409 ``bulk_refused`` naming that item, who decided
it and how) and nothing of it was written: no decision, no event, no enforcement action,
no key, no lease. Without that item the same action goes through, one decision per item;
the same request again returns the same decisions (``duplicate``) and writes nothing more.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import func, select

from reviewer_app.protocol import ActionConfig, ActionKind, QueueConfig, Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.storage.tables import (
    decisions,
    enforcement_actions,
    events,
    items,
    leases,
    verdict_keys,
)
from tests.support.api import ApiSession, claim, verdict
from tests.support.servers import LiveServer

NOW = datetime.now(tz=UTC).isoformat()


def written(server: LiveServer) -> dict[str, int]:
    """How many rows each table a decision writes holds now."""
    with server.service.db.read() as conn:
        counts = {
            "decisions": conn.execute(select(func.count()).select_from(decisions)).scalar_one(),
            "decided events": conn.execute(
                select(func.count()).select_from(events).where(events.c.kind == "decided")
            ).scalar_one(),
            "enforcement actions": conn.execute(
                select(func.count()).select_from(enforcement_actions)
            ).scalar_one(),
            "verdict keys": conn.execute(
                select(func.count()).select_from(verdict_keys)
            ).scalar_one(),
            "leases": conn.execute(select(func.count()).select_from(leases)).scalar_one(),
        }
    return counts


def item_states(server: LiveServer, ids: list[str]) -> dict[str, str]:
    with server.service.db.read() as conn:
        return dict(
            conn.execute(select(items.c.id, items.c.state).where(items.c.id.in_(ids))).all()
        )


def bulk_body(ids: list[str], keys: dict[str, str], **fields: Any) -> dict[str, Any]:
    return {
        "items": [
            {"item_id": i, "idempotency_key": keys[i], "queue_id": LOAD_QUEUE.id} for i in ids
        ],
        "action": "remove",
        "policies": ["SPAM.SCAM"],
        "note": "spam wave, one network",
        "decided_at": NOW,
        **fields,
    }


def pending_ids(server: LiveServer) -> list[str]:
    with server.service.db.read() as conn:
        return list(
            conn.execute(
                select(items.c.id).where(items.c.state == "pending").order_by(items.c.id)
            ).scalars()
        )


@pytest.fixture
def floor(live_server: LiveServer) -> tuple[LiveServer, ApiSession, ApiSession]:
    seed_load_queue(live_server.service, 520)
    lead = live_server.login("wave-lead", Role.lead)
    reviewer = live_server.login("wave-reviewer", Role.reviewer)
    return live_server, lead, reviewer


def test_bulk_of_500_is_all_or_nothing(
    floor: tuple[LiveServer, ApiSession, ApiSession],
) -> None:
    server, lead, reviewer = floor
    # the reviewer decides one item: it is among those the lead listed
    [mine] = reviewer.claim(LOAD_QUEUE.id, count=1)
    wanted = [*pending_ids(server)[:499], mine["item"]["id"]]
    assert len(wanted) == 500
    keys = {i: str(uuid.uuid4()) for i in wanted}
    assert [r["status"] for r in reviewer.decide([verdict(mine, "keep")])] == ["accepted"]
    before = written(server)

    refused = lead.post("/decisions/bulk", json=bulk_body(wanted, keys))
    assert refused.status_code == 409, refused.text
    assert refused.headers["content-type"].startswith("application/problem+json")
    problem = refused.json()
    assert problem["code"] == "bulk_refused"
    assert problem["detail"] == "1 of 500 items cannot be decided now; nothing was recorded."
    assert problem["errors"] == [
        {
            "loc": ["items", 499, mine["item"]["id"]],
            "code": "already_decided",
            "message": "Decided meanwhile by wave-reviewer: keep.",
        }
    ]
    assert written(server) == before  # no decision, event, action, key or lease
    assert set(item_states(server, wanted[:499]).values()) == {"pending"}

    # without it the same action goes through: one decision, event and action per item
    accepted = lead.post("/decisions/bulk", json=bulk_body(wanted[:499], keys))
    assert accepted.status_code == 200, accepted.text
    results = accepted.json()["results"]
    assert [r["item_id"] for r in results] == wanted[:499]
    assert {r["status"] for r in results} == {"accepted"}
    assert [r["idempotency_key"] for r in results] == [keys[i] for i in wanted[:499]]
    assert {r["decision"]["reviewer"] for r in results} == {"wave-lead"}
    assert {r["decision"]["note"] for r in results} == {"spam wave, one network"}
    assert accepted.json()["queue_ids"] == [LOAD_QUEUE.id]
    after = written(server)
    assert after["decisions"] == before["decisions"] + 499
    assert after["decided events"] == before["decided events"] + 499
    assert after["enforcement actions"] == before["enforcement actions"] + 499
    assert after["verdict keys"] == before["verdict keys"] + 499
    assert set(item_states(server, wanted[:499]).values()) == {"decided"}
    with server.service.db.read() as conn:
        open_leases = conn.execute(
            select(func.count()).select_from(leases).where(leases.c.ended_at.is_(None))
        ).scalar_one()
    assert open_leases == 0  # the internal leases ended with their verdicts

    # a retry of the same bulk: the same decisions, duplicate, nothing written again
    again = lead.post("/decisions/bulk", json=bulk_body(wanted[:499], keys))
    assert again.status_code == 200, again.text
    replayed = again.json()["results"]
    assert {r["status"] for r in replayed} == {"duplicate"}
    assert [r["decision"]["id"] for r in replayed] == [r["decision"]["id"] for r in results]
    assert written(server) == after

    # the same keys with another body: refused, nothing written
    changed = lead.post("/decisions/bulk", json=bulk_body(wanted[:499], keys, note="other"))
    assert changed.status_code == 422, changed.text
    assert changed.json()["code"] == "idempotency_key_reused"
    assert written(server) == after


def test_items_held_withdrawn_or_moved_refuse_by_name(
    floor: tuple[LiveServer, ApiSession, ApiSession],
) -> None:
    server, lead, reviewer = floor
    [held] = reviewer.claim(LOAD_QUEUE.id, count=1)
    free = pending_ids(server)[:4]
    moved = free.pop()  # the lead saw it in another queue (e.g. before an escalation)
    wanted = [free[0], held["item"]["id"], free[1], moved, free[2], "nope"]
    keys = {i: str(uuid.uuid4()) for i in wanted}
    before = written(server)
    body = bulk_body(wanted, keys)
    body["items"][3]["queue_id"] = "escalations"
    refused = lead.post("/decisions/bulk", json=body)
    assert refused.status_code == 409, refused.text
    named = [(e["loc"], e["code"]) for e in refused.json()["errors"]]
    assert named == [
        (["items", 1, held["item"]["id"]], "leased_to_other"),
        (["items", 3, moved], "moved"),
        (["items", 5, "nope"], "unknown_item"),
    ]
    assert "Someone else holds it until" in refused.json()["errors"][0]["message"]
    assert written(server) == before

    # an action that does not fit the queue (remove needs a policy): 422 naming items
    invalid = lead.post("/decisions/bulk", json=bulk_body(free, keys, policies=[]))
    assert invalid.status_code == 422, invalid.text
    assert invalid.json()["code"] == "verdict_invalid"
    assert [e["loc"] for e in invalid.json()["errors"]] == [
        ["items", n, i] for n, i in enumerate(free)
    ]
    assert {e["code"] for e in invalid.json()["errors"]} == {"policy_required"}
    assert written(server) == before

    # an item named twice: 422, naming it
    twice = bulk_body(free[:2], keys)
    twice["items"].append({**twice["items"][0], "idempotency_key": str(uuid.uuid4())})
    repeated = lead.post("/decisions/bulk", json=twice)
    assert repeated.status_code == 422, repeated.text
    assert repeated.json()["code"] == "duplicate_items"
    assert [e["loc"] for e in repeated.json()["errors"]] == [["items", 2, free[0]]]
    assert written(server) == before

    # the lead's own lease does not stand in the way
    [own] = lead.claim(LOAD_QUEUE.id, count=1)
    own_id = own["item"]["id"]
    done = lead.post("/decisions/bulk", json=bulk_body([own_id], {own_id: str(uuid.uuid4())}))
    assert done.status_code == 200, done.text
    assert done.json()["results"][0]["status"] == "accepted"


def test_open_items_of_an_author(floor: tuple[LiveServer, ApiSession, ApiSession]) -> None:
    server, lead, reviewer = floor
    with server.service.db.read() as conn:
        author, count = conn.execute(
            select(items.c.author_id, func.count())
            .group_by(items.c.author_id)
            .order_by(func.count().desc(), items.c.author_id)
            .limit(1)
        ).one()
        theirs = list(
            conn.execute(
                select(items.c.id)
                .where(items.c.author_id == author)
                .order_by(items.c.enqueued_at, items.c.id)
            ).scalars()
        )
    assert count >= 2
    listed = lead.get(f"/authors/{author}/open-items")
    assert listed.status_code == 200, listed.text
    body = listed.json()
    assert [i["item_id"] for i in body["items"]] == theirs
    assert body["author_ids"] == [author] and body["more"] == 0
    assert all(i["excerpt"] and i["queue_id"] == LOAD_QUEUE.id for i in body["items"])
    assert reviewer.get(f"/authors/{author}/open-items").status_code == 403
    assert lead.get("/authors/no-such-author/open-items").status_code == 404

    # decided together, the author has none open left
    keys = {i: str(uuid.uuid4()) for i in theirs}
    assert lead.post("/decisions/bulk", json=bulk_body(theirs, keys)).status_code == 200
    assert lead.get(f"/authors/{author}/open-items").json()["items"] == []


ESCALATIONS = SeedQueue(
    id="escalations",
    name="Escalations",
    description="Hard cases for leads",
    config=QueueConfig(
        actions=[
            ActionConfig(
                id="no-violation",
                label="No violation",
                kind=ActionKind.keep,
                key="1",
                requires_note=True,
            )
        ],
        lead_only=True,
    ),
)


def test_an_escalation_assigned_to_another_lead_refuses(
    floor: tuple[LiveServer, ApiSession, ApiSession],
) -> None:
    server, lead, reviewer = floor
    with server.service.db.write() as conn:
        insert_queues(conn, [ESCALATIONS])
    server.service.forget_configs()
    other = server.login("wave-lead2", Role.lead)
    leased = claim(reviewer, LOAD_QUEUE.id, 2)
    escalated = reviewer.decide([verdict(e, "escalate") for e in leased])
    assert {r["status"] for r in escalated} == {"accepted"}
    theirs, free = (e["item"]["id"] for e in leased)
    assigned = other.request(
        "PUT", f"/escalations/{theirs}/assignee", json={"assignee": "wave-lead2"}
    )
    assert assigned.status_code == 200, assigned.text
    before = written(server)

    def body(ids: list[str]) -> dict[str, Any]:
        return {
            "items": [
                {"item_id": i, "idempotency_key": str(uuid.uuid4()), "queue_id": ESCALATIONS.id}
                for i in ids
            ],
            "action": "no-violation",
            "note": "not a scam after all",
            "decided_at": NOW,
        }

    # only ever leased to its assignee: another lead's bulk decision refuses, naming it
    refused = lead.post("/decisions/bulk", json=body([free, theirs]))
    assert refused.status_code == 409, refused.text
    assert refused.json()["code"] == "bulk_refused"
    assert refused.json()["errors"] == [
        {
            "loc": ["items", 1, theirs],
            "code": "assigned_to_other",
            "message": "Assigned to another lead.",
        }
    ]
    assert written(server) == before
    assert item_states(server, [free, theirs]) == {free: "pending", theirs: "pending"}

    # the unassigned one goes through; the assignee decides theirs
    assert lead.post("/decisions/bulk", json=body([free])).status_code == 200
    done = other.post("/decisions/bulk", json=body([theirs]))
    assert done.status_code == 200, done.text
    assert done.json()["results"][0]["status"] == "accepted"
