"""Putting data into the service: the demo (through intake), and test data.

``seed_demo`` is the demo shift the way a platform brings it: queue file, then posts and
signals through intake (demo/replay.py). ``seed_dataset`` and ``seed_load_queue`` insert
test data straight into the tables (a synthetic queue of any size for load tests and
benchmarks, or a hand-made dataset in a test): fast, and no part of how posts come in.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, insert, select

from reviewer_app.protocol import (
    AccountSignals,
    ActionConfig,
    ActionKind,
    ClassifierScore,
    EventKind,
    PolicyConfig,
    Post,
    PriorityWeights,
    QueueConfig,
    QueueDefinition,
    QueueReason,
    QueueReasonKind,
    Reach,
    Reports,
    StatementCategory,
    Thread,
)
from reviewer_app.server.domain import account_links, queueapply, search_index
from reviewer_app.server.domain.priority import priority
from reviewer_app.server.domain.records import append_events, chunks, dumps, event_row
from reviewer_app.server.feeds.seed_types import Dataset, SeedAuthor, SeedItem, SeedQueue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import author_links, authors, items, queues, strikes, users

log = logging.getLogger("server")

ROW_CHUNK = 2_000


def seed_demo(service: Service, now: datetime | None = None) -> None:
    """The demo shift in an empty service, through the queue file and intake (as of
    ``now``, default the service's clock)."""
    from reviewer_app.server.demo.replay import seed_demo as replay

    replay(service, now)


def is_seeded(service: Service) -> bool:
    with service.db.read() as conn:
        return bool(conn.execute(select(func.count()).select_from(queues)).scalar())


def seed_dataset(service: Service, dataset: Dataset) -> None:
    """Insert every part of ``dataset`` in one transaction (all or nothing): test data,
    straight into the tables (posts with media come in through intake, not here)."""
    if any(item.media for item in dataset.items):
        raise ValueError("seed_dataset takes items without media (use intake for media)")
    password_hashes = {u.username: service.hasher.hash(u.password) for u in dataset.users}
    now = service.clock()
    with service.db.write() as conn:
        insert_queues(conn, dataset.queues, now)
        if dataset.users:
            conn.execute(
                insert(users),
                [
                    {
                        "username": u.username,
                        "display_name": u.display_name,
                        "password_hash": password_hashes[u.username],
                        "role": u.role.value,
                        "created_at": now,
                    }
                    for u in dataset.users
                ],
            )
        insert_authors(conn, dataset.authors)
        configs = {q.id: q.config for q in dataset.queues}
        configs.update(_stored_configs(conn))
        insert_items(conn, dataset.items, configs)
    service.forget_configs()
    service.db.analyze()
    log.info(
        "seeded %d queues, %d users, %d authors, %d items",
        len(dataset.queues),
        len(dataset.users),
        len(dataset.authors),
        len(dataset.items),
    )


def _stored_configs(conn: Connection) -> dict[str, QueueConfig]:
    return {
        r.id: QueueConfig.model_validate_json(r.config)
        for r in conn.execute(select(queues.c.id, queues.c.config))
    }


def insert_queues(
    conn: Connection, seed_queues: Iterable[SeedQueue], now: float | None = None
) -> None:
    """Add the queues (or replace those of the same id) as a new configuration version,
    after the running ones: the versioned way of ``queues apply``, without its rules (a
    synthetic queue may escalate with no escalation queue)."""
    definitions = [
        QueueDefinition(id=q.id, name=q.name, description=q.description, config=q.config)
        for q in seed_queues
    ]
    if definitions:
        queueapply.add_queues(
            conn, definitions, actor=None, now=time.time() if now is None else now
        )


def insert_authors(conn: Connection, seed_authors: Iterable[SeedAuthor]) -> None:
    author_rows: list[dict[str, Any]] = []
    strike_rows: list[dict[str, Any]] = []
    link_rows: list[dict[str, Any]] = []
    for a in seed_authors:
        payload = {
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
        author_rows.append({"id": a.id, "handle": a.handle, "payload": dumps(payload)})
        link_rows += account_links.link_rows(a.id, None, payload)
        strike_rows += [
            {"author_id": a.id, "policy": p, "at": at.timestamp(), "decision_id": None}
            for p, at in a.prior_strikes
        ]
    for batch in chunks(author_rows, ROW_CHUNK):
        conn.execute(insert(authors), batch)
    for batch in chunks(strike_rows, ROW_CHUNK):
        conn.execute(insert(strikes), batch)
    for batch in chunks(link_rows, ROW_CHUNK):
        conn.execute(insert(author_links), batch)


def insert_items(
    conn: Connection, seed_items: Iterable[SeedItem], configs: dict[str, QueueConfig]
) -> int:
    """Enqueue items (logged as ``enqueued``); returns how many."""
    total = 0
    for batch in chunks(seed_items, ROW_CHUNK):
        rows = []
        for it in batch:
            enqueued = it.enqueued_at.timestamp()
            payload = {
                "post": it.post.model_dump(mode="json"),
                "thread": it.thread.model_dump(mode="json"),
                "reach": it.reach.model_dump(mode="json"),
                "reports": it.reports.model_dump(mode="json"),
                "reasons": [r.model_dump(mode="json") for r in it.reasons],
                "scores": [s.model_dump(mode="json") for s in it.scores],
                "fact_checks": [f.model_dump(mode="json") for f in it.fact_checks],
            }
            rows.append(
                {
                    "id": it.id,
                    "queue_id": it.queue_id,
                    "origin_queue_id": it.queue_id,
                    "state": "pending",
                    "epoch": 0,
                    "enqueued_at": enqueued,
                    "author_id": it.author_id,
                    "priority": priority(
                        configs[it.queue_id].priority,
                        it.scores,
                        it.reports.total,
                        it.reach.views,
                        enqueued,
                    ),
                    "payload": json.dumps(payload, separators=(",", ":"), ensure_ascii=False),
                }
            )
        conn.execute(insert(items), rows)
        search_index.refresh(conn, [r["id"] for r in rows])
        append_events(
            conn,
            [
                event_row(
                    r["enqueued_at"],
                    EventKind.enqueued,
                    None,
                    item_id=r["id"],
                    queue_id=r["queue_id"],
                    reasons=[x["kind"] for x in json.loads(r["payload"])["reasons"]],
                )
                for r in rows
            ],
        )
        total += len(rows)
    return total


# -- a synthetic queue of any size, for load tests and benchmarks ----------------------

LOAD_QUEUE = SeedQueue(
    id="load-test",
    name="Load test",
    description="Synthetic items for concurrency tests and benchmarks",
    config=QueueConfig(
        actions=[
            ActionConfig(id="keep", label="No violation", kind=ActionKind.keep, key="1"),
            ActionConfig(
                id="remove",
                label="Remove",
                kind=ActionKind.remove,
                key="2",
                requires_policy=True,
                strike=True,
            ),
            ActionConfig(id="escalate", label="Escalate", kind=ActionKind.escalate, key="9"),
        ],
        policies=[
            PolicyConfig(
                code="SPAM.SCAM",
                label="Scam",
                terms_clause="Terms of Service 6.1 (Scams)",
                category=StatementCategory.scams_and_fraud,
            )
        ],
        priority=PriorityWeights(score=10, reports=1, reach=0.5, age=0.1),
    ),
)


def synthetic_items(
    count: int, queue_id: str, now: datetime, *, seed: int = 7, authors_count: int = 500
) -> tuple[list[SeedAuthor], Iterator[SeedItem]]:
    """``count`` plausible items spread over ``authors_count`` authors, made lazily."""
    rng = random.Random(seed)
    seed_authors = [
        SeedAuthor(
            id=f"load-author-{i}",
            handle=f"user{i}",
            display_name=f"User {i}",
            account_created_at=now - timedelta(days=rng.randint(1, 3000)),
            followers=rng.randint(0, 50_000),
            following=rng.randint(0, 2_000),
            verified=rng.random() < 0.02,
            signals=AccountSignals(posts_per_day=round(rng.uniform(0, 80), 1)),
        )
        for i in range(authors_count)
    ]

    def make() -> Iterator[SeedItem]:
        for i in range(count):
            created = now - timedelta(hours=rng.uniform(1, 48))
            score = round(rng.random(), 3)
            yield SeedItem(
                id=f"{queue_id}-{i:07d}",
                queue_id=queue_id,
                enqueued_at=created + timedelta(minutes=rng.uniform(1, 30)),
                author_id=f"load-author-{rng.randrange(authors_count)}",
                post=Post(
                    id=f"post-{i}",
                    text=f"Synthetic post number {i}: win a prize at "
                    f"https://prize-{i % 97}.example now!",
                    language="en",
                    created_at=created.astimezone(UTC),
                    url=f"https://social.example/p/{i}",
                ),
                thread=Thread(),
                reach=Reach(views=rng.randint(0, 1_000_000), shares=rng.randint(0, 5_000)),
                reports=Reports(total=rng.randint(0, 30)),
                reasons=(QueueReason(kind=QueueReasonKind.classifier, detail="spam-gbdt 14.0"),),
                scores=(
                    ClassifierScore(
                        model="spam-gbdt",
                        model_version="14.0",
                        label="scam",
                        score=score,
                        threshold=0.7,
                    ),
                ),
            )

    return seed_authors, make()


def seed_load_queue(service: Service, count: int, *, queue: SeedQueue = LOAD_QUEUE) -> None:
    """Add the synthetic queue with ``count`` items: test data for load tests and benchmarks,
    a bulk insert straight into the tables (not through intake: no posts, no signals)."""
    now = datetime.fromtimestamp(service.clock(), tz=UTC)
    seed_authors, seed_items = synthetic_items(count, queue.id, now)
    with service.db.write() as conn:
        existing = _stored_configs(conn)
        if queue.id not in existing:
            insert_queues(conn, [queue])
            existing[queue.id] = queue.config
        have = set(
            conn.execute(
                select(authors.c.id).where(authors.c.id.in_([a.id for a in seed_authors]))
            ).scalars()
        )
        insert_authors(conn, [a for a in seed_authors if a.id not in have])
        insert_items(conn, seed_items, existing)
    service.forget_configs()
    service.db.analyze()
