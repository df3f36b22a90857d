"""Pages of the event log: the whole sealed log, and one item's history (sealed, then not
sealed yet)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from reviewer_app.protocol import Event, EventKind, EventPage
from reviewer_app.server.domain.records import encode_cursor, event_documents
from reviewer_app.server.storage.tables import events


def log_page(conn: Connection, kind: EventKind | None, after: int | None, limit: int) -> EventPage:
    """The sealed log in seq order after ``after``, of one kind or all."""
    condition = events.c.kind == kind.value if kind is not None else None
    rows = sealed_rows(conn, condition, after, limit + 1)
    if len(rows) > limit:
        return event_page(rows[:limit], rows[limit - 1]["seq"])
    return event_page(rows, None)


def item_page(conn: Connection, item_id: str, after: int | None, limit: int) -> EventPage:
    """The item's sealed entries in log order, then (on the last page) those not sealed
    yet: a decision just made shows at once, without a hash or seq."""
    sealed = sealed_rows(conn, events.c.item_id == item_id, after, limit + 1)
    if len(sealed) > limit:
        return event_page(sealed[:limit], sealed[limit - 1]["seq"])
    room = limit - len(sealed)
    tail = (
        conn.execute(
            select(events)
            .where(events.c.item_id == item_id, events.c.seq.is_(None))
            .order_by(events.c.id)
            .limit(room + 1)
        )
        .mappings()
        .all()
    )
    if len(tail) > room:  # more unsealed than fit: read on once they are sealed
        last = sealed[-1]["seq"] if sealed else (after or 0)
        return event_page([*sealed, *tail[:room]], last)
    return event_page([*sealed, *tail], None)


def sealed_rows(conn: Connection, condition: Any, after: int | None, limit: int) -> list[Any]:
    query = select(events).where(events.c.seq.is_not(None))
    if condition is not None:
        query = query.where(condition)
    if after is not None:
        query = query.where(events.c.seq > after)
    return list(conn.execute(query.order_by(events.c.seq).limit(limit)).mappings().all())


def event_page(rows: list[Any], next_after: int | None) -> EventPage:
    return EventPage(
        events=[Event.model_validate(doc) for doc in event_documents(rows)],
        next_cursor=encode_cursor(next_after) if next_after is not None else None,
    )
