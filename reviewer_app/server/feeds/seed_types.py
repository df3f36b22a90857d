"""Plain data the service can be seeded with (the demo seed builds these)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from reviewer_app.protocol import (
    AccountSignals,
    ClassifierScore,
    FactCheck,
    MediaKind,
    Post,
    QueueConfig,
    QueueReason,
    Reach,
    Reports,
    Role,
    Thread,
)


@dataclass(frozen=True)
class SeedMedia:
    """A media file of the demo, ``server/demo/media/<file>`` (package data)."""

    file: str
    kind: MediaKind
    mime_type: str
    alt_text: str = ""
    sensitive: bool = False
    width: int | None = None
    height: int | None = None


@dataclass(frozen=True)
class SeedAuthor:
    id: str
    handle: str
    display_name: str
    account_created_at: datetime
    followers: int
    following: int
    verified: bool
    signals: AccountSignals
    bio: str = ""
    prior_strikes: tuple[tuple[str, datetime], ...] = ()
    """(policy code, when) of strikes from before the seed."""


@dataclass(frozen=True)
class SeedItem:
    id: str
    queue_id: str
    enqueued_at: datetime
    author_id: str
    post: Post
    """``post.media`` stays empty: media are given in ``media`` and stored by the service."""
    thread: Thread
    reach: Reach
    reports: Reports
    reasons: tuple[QueueReason, ...]
    scores: tuple[ClassifierScore, ...] = ()
    fact_checks: tuple[FactCheck, ...] = ()
    media: tuple[SeedMedia, ...] = ()


@dataclass(frozen=True)
class SeedQueue:
    id: str
    name: str
    description: str
    config: QueueConfig


@dataclass(frozen=True)
class SeedUser:
    username: str
    display_name: str
    password: str
    role: Role


@dataclass(frozen=True)
class Dataset:
    queues: tuple[SeedQueue, ...] = ()
    users: tuple[SeedUser, ...] = ()
    authors: tuple[SeedAuthor, ...] = ()
    items: tuple[SeedItem, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)
