"""A database made at the first schema, with the demo shift and decisions in it, upgrades
to the newest schema and ends up as a fresh one: the same tables, a log that verifies,
rollups that match a recount, and a service that works on it."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import MetaData, Table, func, insert, select

from reviewer_app.protocol import LeaseClaim, Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.demo import build_demo_dataset
from reviewer_app.server.demo.queues import DEMO_QUEUES
from reviewer_app.server.domain import rollups
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.service import Service
from reviewer_app.server.storage import eventlog
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.tables import (
    SEARCH_INDEX_OBJECTS,
    decision_mix_rollups,
    decision_policies,
    decisions,
    events,
    handle_time_rollups,
    item_search,
    items,
    metadata,
    queue_hourly,
    reviewer_rollups,
)

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
DECIDED = 40  # items decided at the first schema (so the rollups and the chain have work)

#: the migrations run here, from an empty database
pytestmark = pytest.mark.empty_database


def _at_first_schema(url: str) -> None:
    """The demo shift written in the shape of revision 0001, with decisions, a conflict and
    their events, as a service of that time would have left it."""
    db = Database(url)
    try:
        db.migrate("0001")
        old = MetaData()
        old.reflect(db.engine)
        t: dict[str, Table] = old.tables  # type: ignore[assignment]
        dataset = build_demo_dataset(NOW)
        now = NOW.timestamp()
        with db.write() as conn:
            conn.execute(
                insert(t["users"]),
                [
                    {
                        "username": "rita",
                        "display_name": "Rita",
                        "password_hash": "x",
                        "role": "reviewer",
                        "created_at": now,
                    }
                ],
            )
            conn.execute(
                insert(t["queues"]),
                [
                    {
                        "id": q.id,
                        "name": q.name,
                        "description": q.description,
                        "position": i,
                        "config": q.config.model_dump_json(),
                    }
                    for i, q in enumerate(DEMO_QUEUES)
                ],
            )
            conn.execute(
                insert(t["authors"]),
                [
                    {
                        "id": a.id,
                        "handle": a.handle,
                        "payload": json.dumps(
                            {
                                "id": a.id,
                                "handle": a.handle,
                                "display_name": a.display_name,
                                "account_created_at": a.account_created_at.isoformat(),
                                "followers": a.followers,
                                "following": a.following,
                                "verified": a.verified,
                                "bio": a.bio,
                                "signals": a.signals.model_dump(mode="json"),
                            }
                        ),
                    }
                    for a in dataset.authors
                ],
            )
            rows, log = [], []
            for n, it in enumerate(dataset.items):
                decided = n < DECIDED
                rows.append(
                    {
                        "id": it.id,
                        "queue_id": it.queue_id,
                        "origin_queue_id": it.queue_id,
                        "state": "decided" if decided else "pending",
                        "priority": 1.0,
                        "enqueued_at": it.enqueued_at.timestamp(),
                        "author_id": it.author_id,
                        "payload": json.dumps(
                            {
                                "post": it.post.model_dump(mode="json"),
                                "thread": it.thread.model_dump(mode="json"),
                                "reach": it.reach.model_dump(mode="json"),
                                "reports": it.reports.model_dump(mode="json"),
                                "reasons": [r.model_dump(mode="json") for r in it.reasons],
                                "scores": [x.model_dump(mode="json") for x in it.scores],
                                "fact_checks": [f.model_dump(mode="json") for f in it.fact_checks],
                            }
                        ),
                        "epoch": 0,
                        "decision_id": n + 1 if decided else None,
                    }
                )
                log.append(
                    {
                        "at": it.enqueued_at.timestamp(),
                        "kind": "enqueued",
                        "actor": None,
                        "item_id": it.id,
                        "queue_id": it.queue_id,
                        "data": "{}",
                    }
                )
            conn.execute(insert(t["items"]), rows)
            decided_rows = [
                {
                    "item_id": r["id"],
                    "epoch": 0,
                    "queue_id": r["queue_id"],
                    "user_id": 1,
                    "author_id": r["author_id"],
                    "action": "no-violation" if n % 3 else "escalate",
                    "policies": "[]",
                    "time_spent_ms": 800 + 97 * n,
                    "decided_at": now - 3_600 * (n % 30),
                    "client_decided_at": now - 3_600 * (n % 30),
                }
                for n, r in enumerate(rows[:DECIDED])
            ]
            conn.execute(insert(t["decisions"]), decided_rows)
            log += [
                {
                    "at": d["decided_at"],
                    "kind": "decided",
                    "actor": "rita",
                    "item_id": d["item_id"],
                    "queue_id": d["queue_id"],
                    "data": json.dumps({"action": d["action"]}),
                }
                for d in decided_rows
            ]
            conn.execute(insert(t["events"]), log)
            conn.execute(
                insert(t["verdict_keys"]),
                [
                    {
                        "key": str(uuid.uuid4()),
                        "user_id": 1,
                        "body_hash": "0" * 64,
                        "result": json.dumps({"status": "conflict"}, separators=(",", ":")),
                        "created_at": now,
                    }
                ],
            )
    finally:
        db.dispose()


def _rollup_rows(conn: object) -> dict[str, list[tuple[object, ...]]]:
    return {
        t.name: sorted(tuple(r) for r in conn.execute(select(t)).all())  # type: ignore[attr-defined]
        for t in (queue_hourly, reviewer_rollups, handle_time_rollups, decision_mix_rollups)
    }


def test_a_first_schema_database_upgrades_to_what_a_fresh_one_is(database_url: str) -> None:
    _at_first_schema(database_url)
    db = Database(database_url)
    try:
        db.migrate()
        with db.engine.connect() as conn:
            context = MigrationContext.configure(
                conn,  # the search index's per-dialect objects (migration 0020) left out
                opts={"include_name": lambda name, *_: name not in SEARCH_INDEX_OBJECTS},
            )
            diff = compare_metadata(context, metadata)
        assert diff == [], f"an upgraded database differs from the declared schema: {diff}"
        assert db.schema_revision() == db.head_revision()
        with db.read() as conn:
            # every entry written before the chain existed is chained, in id order
            verification = eventlog.verify(conn)
            assert verification.intact, verification.describe()
            assert (
                verification.checked
                == conn.execute(select(func.count()).select_from(events)).scalar_one()
            )
            upgraded = _rollup_rows(conn)
            assert sum(n for *_k, n in upgraded["queue_hourly"]) == DECIDED
            # migration 0022 counted every decision into the mix rollup, by hour and by day
            assert sum(n for *_k, n in upgraded["decision_mix_rollups"]) == 2 * DECIDED
            counted = dict(
                conn.execute(select(items.c.state, func.count()).group_by(items.c.state)).all()
            )
            assert counted["decided"] == DECIDED
            assert conn.execute(select(func.count()).select_from(decisions)).scalar_one() == DECIDED
            # migration 0020 indexed the stored items and the stored decisions' policies
            indexed = conn.execute(select(item_search.c.item_id)).scalars().all()
            assert sorted(indexed) == sorted(conn.execute(select(items.c.id)).scalars())
            pairs = {
                (p, d.id)
                for d in conn.execute(select(decisions.c.id, decisions.c.policies))
                for p in json.loads(d.policies)
            }
            assert {tuple(r) for r in conn.execute(select(decision_policies))} == pairs
        with db.write() as conn:  # the rollups the migration counted equal a recount today
            rollups.rebuild(conn)
            assert _rollup_rows(conn) == upgraded
    finally:
        db.dispose()


def test_the_service_works_on_an_upgraded_database(database_url: str) -> None:
    _at_first_schema(database_url)
    service = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    service.start()
    try:
        user = service.create_user(UserCreate(username="lena", password="a-long-password"))
        grant = service.claim(
            Principal(user.id, user.username, user.display_name, Role.reviewer),
            DEMO_QUEUES[1].id,
            LeaseClaim(count=2, lease_seconds=60),
        )
        assert len(grant.items) == 2
        with service.db.read() as conn:
            assert eventlog.verify(conn).intact
    finally:
        service.close()


def test_migrations_import_nothing_of_the_running_service() -> None:
    """Migrations are snapshots: a later change to the service must not change them."""
    import ast
    from pathlib import Path

    import reviewer_app.server.storage.migrations as migrations

    versions = sorted((Path(migrations.__file__).parent / "versions").glob("*.py"))
    assert versions
    for path in versions:
        for node in ast.walk(ast.parse(path.read_text())):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(n.startswith("reviewer_app") for n in names), (path.name, names)
