"""Claims are sent as built from stored parts: every one must still be a valid LeaseGrant."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, insert, select, update

from reviewer_app.protocol import ActionConfig, ActionKind, LeaseGrant, QueueList, Role
from reviewer_app.server.domain.assembly import _RECENT
from reviewer_app.server.feeds.seed import (
    LOAD_QUEUE,
    seed_dataset,
    seed_demo,
    seed_load_queue,
    synthetic_items,
)
from reviewer_app.server.feeds.seed_types import Dataset
from reviewer_app.server.storage import tables
from reviewer_app.server.storage.db import Database
from tests.support.api import claim, verdict
from tests.support.servers import LiveServer


def _verdict_for(leased: dict[str, Any], action: ActionConfig, policy: str) -> dict[str, Any]:
    fields: dict[str, Any] = {"note": "checked in test"} if action.requires_note else {}
    if (action.requires_policy or action.strike) and policy:
        fields["policies"] = [policy]
    if action.requires_rating:
        fields["rating"] = "false"
    return verdict(leased, action.id, **fields)


def test_every_demo_item_claims_as_a_valid_lease_grant(live_server: LiveServer) -> None:
    seed_demo(live_server.service)
    lead = live_server.login("lena", Role.lead)
    queues = QueueList.model_validate_json(lead.get("/queues").content).queues
    for queue in queues:
        config = queue.config
        if config.appeals:  # the demo's appeals: upheld and reversed in turn
            keep = next(a for a in config.actions if a.kind is ActionKind.reverse)
            strike = next(a for a in config.actions if a.kind is ActionKind.uphold)
        else:
            keep = next(a for a in config.actions if a.kind is ActionKind.keep)
            strike = next((a for a in config.actions if a.strike), keep)
        policy = config.policies[0].code if config.policies else ""
        claimed = 0
        while True:
            response = lead.post(f"/queues/{queue.id}/leases", json={"count": 50})
            assert response.status_code == 200, response.text
            grant = LeaseGrant.model_validate_json(response.content)  # the whole wire shape
            if not grant.items:
                break
            claimed += len(grant.items)
            # Every other item gets a strike, so later claims carry the authors' strikes and
            # recent decisions too.
            leased = response.json()["items"]
            bodies = [
                _verdict_for(one, strike if i % 2 else keep, policy) for i, one in enumerate(leased)
            ]
            assert {r["status"] for r in lead.decide(bodies)} == {"accepted"}
        # an author suspended or marked inauthentic here has their other waiting items
        # resolved by that account action: those are not claimed
        with live_server.service.db.read() as conn:
            resolved = conn.execute(
                select(func.count())
                .select_from(tables.items)
                .where(tables.items.c.queue_id == queue.id, tables.items.c.state == "resolved")
            ).scalar_one()
        assert claimed + resolved == queue.counts.pending, queue.id


def test_an_items_author_shows_their_five_newest_decisions_newest_first(
    live_server: LiveServer,
) -> None:
    """Each author's newest decisions are looked up per author (LIMIT 5 each): an author
    with more than five, one with fewer and one with none must each come out right."""
    authors, made = synthetic_items(14, LOAD_QUEUE.id, datetime.now(UTC), authors_count=1)
    prolific = authors[0]
    few = replace(prolific, id="few-decisions", handle="few")
    none = replace(prolific, id="no-decisions", handle="none")
    items = [
        replace(item, author_id=(few.id if i in (10, 11) else none.id) if i >= 10 else prolific.id)
        for i, item in enumerate(made)
    ]
    seed_dataset(
        live_server.service,
        Dataset(queues=(LOAD_QUEUE,), authors=(prolific, few, none), items=tuple(items)),
    )
    reviewer = live_server.login("rita")
    leased = {e["item"]["id"]: e for e in claim(reviewer, LOAD_QUEUE.id, 14)}
    # One batch each, in this order: decision ids rise with it.
    decided = [i.id for i in items[:10]] + [items[10].id]
    for item_id in decided:
        results = reviewer.decide([verdict(leased[item_id], "keep")])
        assert [r["status"] for r in results] == ["accepted"]

    def recent(item_id: str) -> list[str]:
        whole = reviewer.get(f"/items/{item_id}").json()
        return [d["item_id"] for d in whole["author"]["recent_decisions"]]

    assert recent(items[0].id) == list(reversed(decided[5:10]))
    assert recent(items[11].id) == [items[10].id]
    assert recent(items[12].id) == []


def test_recent_decisions_are_looked_up_per_author_not_scanned(database_url: str) -> None:
    """With a long history the lookup must read each author's newest rows by index: a
    plan that scans or filters every decision (as a correlated IN list does on
    PostgreSQL) makes every claim slower as decisions pile up."""
    db = Database(database_url)
    try:
        db.migrate()
        with db.write() as conn:
            conn.execute(
                insert(tables.authors),
                [{"id": f"a{n}", "handle": f"a{n}", "payload": "{}"} for n in range(50)],
            )
            # The authors asked about (a0-a9) wrote 10 decisions each, long ago; 40 others
            # wrote the 19,900 since: walking all decisions newest first would be slow.
            conn.execute(
                insert(tables.decisions),
                [
                    {
                        "item_id": f"i{n}",
                        "epoch": 0,
                        "queue_id": "q",
                        "user_id": 1,
                        "author_id": f"a{n % 10}" if n < 100 else f"a{10 + n % 40}",
                        "action": "keep",
                        "policies": "[]",
                        "time_spent_ms": 1,
                        "decided_at": float(n),
                        "client_decided_at": float(n),
                    }
                    for n in range(20_000)
                ],
            )
        # statistics (and on PostgreSQL the visibility map, as autovacuum would keep it)
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("ANALYZE" if db.is_sqlite else "VACUUM ANALYZE")
        statement = _RECENT[not db.is_sqlite]
        with db.read() as conn:
            compiled = statement.compile(conn)
            expanded = compiled.construct_expanded_state({"ids": [f"a{n}" for n in range(10)]})
            explain = "EXPLAIN QUERY PLAN " if db.is_sqlite else "EXPLAIN "
            rows = conn.exec_driver_sql(
                explain + expanded.statement,
                tuple(expanded.positional_parameters)
                if db.is_sqlite
                else dict(expanded.parameters),
            ).all()
            found = conn.execute(statement, {"ids": ["a3"]}).all()
        plan = "\n".join(str(row[-1]) for row in rows)
        assert "ix_decisions_author" in plan, plan
        # the LIMIT 5 per author: SQLite runs it as a list subquery per author (ranking
        # each author's whole history would also read ix_decisions_author)
        assert "CORRELATED LIST SUBQUERY" in plan if db.is_sqlite else "Limit" in plan, plan
        assert "SCAN decisions" not in plan and "Seq Scan on decisions" not in plan, plan
        assert "Join Filter" not in plan and "SubPlan" not in plan, plan
        assert [r.item_id for r in found] == [f"i{n}" for n in (93, 83, 73, 63, 53)]
    finally:
        db.dispose()


def test_an_item_that_cannot_be_served_is_left_out_and_parked(live_server: LiveServer) -> None:
    """A stored document that cannot be serialised (a lone surrogate written straight into
    the database) is left out of the claim, which answers the others; the item is parked
    (state ``unservable``: never leased, never offered again) and the leads are told (an
    ``unservable`` entry in the log, the queue's figures, /metrics). No lease on it is
    ever committed: no lease row, no ``claimed`` entry."""
    import requests
    from prometheus_client.parser import text_string_to_metric_families

    queue = LOAD_QUEUE.id
    seed_load_queue(live_server.service, 5)
    with live_server.service.db.write() as conn:
        bad_id, payload = conn.execute(
            select(tables.items.c.id, tables.items.c.payload)
            .where(tables.items.c.queue_id == queue)
            .order_by(tables.items.c.priority.desc())
            .limit(1)
        ).one()
        document = json.loads(payload)
        document["post"]["text"] = "broken \ud800 text"  # a lone surrogate: no UTF-8 for it
        conn.execute(
            update(tables.items)
            .where(tables.items.c.id == bad_id)
            .values(payload=json.dumps(document))  # ASCII JSON: "\ud800" stored as written
        )
    reviewer = live_server.login("rita")
    lead = live_server.login("lena", Role.lead)

    response = reviewer.post(f"/queues/{queue}/leases", json={"count": 5})
    assert response.status_code == 200, response.text
    grant = LeaseGrant.model_validate_json(response.content)
    served = [e.item.id for e in grant.items]
    assert len(served) == 4 and bad_id not in served, served
    assert grant.leased_total == 4
    assert reviewer.post(f"/queues/{queue}/leases", json={"count": 5}).json()["items"] == []

    with live_server.service.db.read() as conn:
        row = conn.execute(select(tables.items).where(tables.items.c.id == bad_id)).mappings().one()
        assert (row["state"], row["lease_token"], row["lease_user_id"]) == (
            "unservable",
            None,
            None,
        )
        assert not conn.execute(
            select(tables.leases).where(tables.leases.c.item_id == bad_id)
        ).all()
    events = lead.get("/events", params={"limit": 500}).json()["events"]
    mine = [(e["kind"], e["actor"]) for e in events if e["item_id"] == bad_id]
    assert mine == [("enqueued", None), ("unservable", "rita")], mine
    (parked,) = [e for e in events if e["kind"] == "unservable"]
    # the stored JSON names a character that is not Unicode: it does not parse
    assert parked["queue_id"] == queue and parked["data"]["error"] == "JSONDecodeError", parked

    figures = lead.get("/stats/queues", params={"queue_id": queue}).json()["queues"]
    assert [(q["unservable"], q["backlog"], q["leased"]) for q in figures] == [(1, 0, 4)], figures
    text = requests.get(f"{live_server.url}/metrics", timeout=30).text
    depth = {
        (s.labels["queue"], s.labels["state"]): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
        if s.name == "reviewdesk_queue_items"
    }
    assert depth[(queue, "unservable")] == 1, depth
