"""The demo queues (five, and the appeals queue): declared in ``queues.toml`` (shipped
with the package), read here.

The queue file is the one place their actions, policies, rating scale, priority, SLA,
routing and re-review rules are written; ``server seed --demo`` applies it like any other
queue file, and the demo generator takes the policy codes and ratings it draws from it.
"""

from __future__ import annotations

import tomllib
from functools import cache

from reviewer_app.protocol import (
    ESCALATION_QUEUE,
    PolicyConfig,
    QueueConfig,
    QueueFile,
    RatingConfig,
)
from reviewer_app.server.demo.files import QUEUE_FILE, demo_file
from reviewer_app.server.feeds.seed_types import SeedQueue

ESCALATIONS = ESCALATION_QUEUE
MISINFORMATION = "misinformation"
HATE = "hate-harassment"
SPAM = "spam-scams"
INAUTHENTIC = "inauthentic-accounts"
APPEALS = "appeals"

QUEUE_IDS = (MISINFORMATION, HATE, SPAM, INAUTHENTIC, ESCALATIONS)


@cache
def demo_queue_file() -> QueueFile:
    """The parsed and validated ``queues.toml``."""
    return QueueFile.model_validate(tomllib.loads(demo_file(QUEUE_FILE).read_text("utf-8")))


def demo_config(queue_id: str) -> QueueConfig:
    return next(q.config for q in demo_queue_file().queues if q.id == queue_id)


DEMO_QUEUES = tuple(
    SeedQueue(id=q.id, name=q.name, description=q.description, config=q.config)
    for q in demo_queue_file().queues
)
"""The queues in the file's order (the order routing tries them)."""

MISINFO_POLICIES: tuple[PolicyConfig, ...] = tuple(demo_config(MISINFORMATION).policies)
HATE_POLICIES: tuple[PolicyConfig, ...] = tuple(demo_config(HATE).policies)
SPAM_POLICIES: tuple[PolicyConfig, ...] = tuple(demo_config(SPAM).policies)
INAUTH_POLICIES: tuple[PolicyConfig, ...] = tuple(demo_config(INAUTHENTIC).policies)

RATINGS: tuple[RatingConfig, ...] = tuple(demo_config(MISINFORMATION).ratings)
RATING_LABELS = {r.id: r.label for r in RATINGS}

QUEUE_POLICIES = {
    MISINFORMATION: MISINFO_POLICIES,
    HATE: HATE_POLICIES,
    SPAM: SPAM_POLICIES,
    INAUTHENTIC: INAUTH_POLICIES,
}
