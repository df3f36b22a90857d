"""The demo: five queues, three people, authors and a shift's worth of posts and signals.

What a service gets is the package data here: the queue file ``queues.toml``, the posts and
signals ``demo_posts.jsonl`` and the files in ``media/``, put in through the queue file
code and intake by ``replay.seed_demo``.

The JSONL is made (``export_jsonl``) from the deterministic generator:
``build_demo_dataset(now)`` gives the same ``Dataset`` for the same ``now`` and ``seed``:
every random choice comes from one ``random.Random(seed)``, and every timestamp is an
offset from ``now`` (never the clock).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

from reviewer_app.protocol import Role
from reviewer_app.server.demo.authors import build_authors
from reviewer_app.server.demo.items import build_items
from reviewer_app.server.demo.queues import DEMO_QUEUES, QUEUE_IDS
from reviewer_app.server.feeds.seed_types import Dataset, SeedUser

DEMO_SEED = 20261130

DEMO_USERS = (
    SeedUser(
        username="reviewer",
        display_name="Demo Reviewer",
        password="review-desk-demo",  # noqa: S106
        role=Role.reviewer,
    ),
    SeedUser(
        username="lead",
        display_name="Demo Lead",
        password="review-desk-lead",  # noqa: S106
        role=Role.lead,
    ),
    SeedUser(
        username="admin",
        display_name="Demo Admin",
        password="review-desk-admin",  # noqa: S106
        role=Role.admin,
    ),
)


def build_demo_dataset(now: datetime, seed: int = DEMO_SEED) -> Dataset:
    """The demo dataset as of ``now`` (a timezone-aware time; stored as UTC)."""
    if now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("build_demo_dataset needs a timezone-aware 'now'")
    now = now.astimezone(UTC).replace(microsecond=0)
    rng = random.Random(seed)
    pool = build_authors(rng, now)
    items = build_items(rng, now, pool)
    counts = {q: sum(1 for i in items if i.queue_id == q) for q in QUEUE_IDS}
    return Dataset(
        queues=DEMO_QUEUES,
        users=DEMO_USERS,
        authors=pool.authors,
        items=items,
        notes={
            "seed": str(seed),
            "now": now.isoformat(),
            "items": str(len(items)),
            **{f"items.{q}": str(n) for q, n in counts.items()},
        },
    )


__all__ = ["DEMO_SEED", "build_demo_dataset"]
