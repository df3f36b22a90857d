"""Posts held back from the queues: intake stores a post of a suspended or inauthentic author
and opens no item for it; ``held_posts`` counts them for the leads' figures."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, select
from sqlalchemy.dialects import postgresql, sqlite

from reviewer_app.protocol import EventKind
from reviewer_app.protocol.accounts import CLOSING_STATUSES, AuthorStatus, HeldBack
from reviewer_app.server.domain.records import event_row
from reviewer_app.server.storage.tables import authors, held_posts


@dataclass(frozen=True)
class Held:
    post_id: str
    post_external_id: str
    author_id: str
    source: str
    queue_id: str
    rule: str
    status: AuthorStatus


def hold_back(
    conn: Connection, held: Sequence[Held], now: float, actor: str, *, postgres: bool
) -> list[dict[str, Any]]:
    """Record posts that met a routing rule while their author is suspended or inauthentic
    (once per post); the events to append (``held_back``, one per newly held post)."""
    if not held:
        return []
    statement = (postgresql.insert if postgres else sqlite.insert)(held_posts)
    new = set(
        conn.execute(
            statement.on_conflict_do_nothing().returning(held_posts.c.post_id),
            [
                {
                    "post_id": h.post_id,
                    "author_id": h.author_id,
                    "source": h.source,
                    "queue_id": h.queue_id,
                    "author_status": h.status.value,
                    "held_at": now,
                }
                for h in held
            ],
        ).scalars()
    )
    return [
        event_row(
            now,
            EventKind.held_back,
            actor,
            queue_id=h.queue_id,
            post=h.post_external_id,
            source=h.source,
            author_id=h.author_id,
            status=h.status.value,
            rule=h.rule,
        )
        for h in held
        if h.post_id in new
    ]


def held_back(conn: Connection, since: float, until: float) -> HeldBack:
    """Held-back posts (all, and within the window) and the accounts they belong to."""
    total = conn.execute(select(func.count()).select_from(held_posts)).scalar() or 0
    window = (
        conn.execute(
            select(func.count())
            .select_from(held_posts)
            .where(held_posts.c.held_at >= since, held_posts.c.held_at < until)
        ).scalar()
        or 0
    )
    actioned = (
        conn.execute(
            select(func.count())
            .select_from(authors)
            .where(authors.c.status.in_([s.value for s in CLOSING_STATUSES]))
        ).scalar()
        or 0
    )
    return HeldBack(posts=total, posts_in_window=window, accounts=actioned)
