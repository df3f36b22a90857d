"""The claim's reply, built and serialised inside the claim's transaction.

A lease is committed only together with a reply that holds it: the whole items are read
and turned into the JSON body (UTF-8 bytes) before the transaction commits. An item whose
stored document cannot be served (unreadable JSON, a lone surrogate that has no UTF-8, a
missing part) fails the claim's transaction, which rolls back whole; the service then
parks the item (``park_unservable``: state ``unservable``, an ``unservable`` entry in the
log, counted in the leads' queue figures and on /metrics) and claims again without it.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, or_, update

from reviewer_app.protocol import EventKind
from reviewer_app.server.domain.assembly import item_documents
from reviewer_app.server.domain.leasing import Claimed
from reviewer_app.server.domain.records import Principal, append_events, event_row, iso
from reviewer_app.server.storage.tables import items, leases

log = logging.getLogger("server")

# What a stored document that cannot be turned into the reply raises (json.loads of a
# broken payload: ValueError; a lone surrogate: UnicodeEncodeError, a ValueError; a part
# missing: KeyError). Database errors are not among them: they fail the claim as before.
DOCUMENT_ERRORS = (ValueError, TypeError, LookupError, AttributeError)


@dataclass(frozen=True)
class ClaimReply:
    body: bytes
    """A ``LeaseGrant`` as JSON (UTF-8)."""
    served: int
    """The items in it."""


class Unservable(Exception):
    """Items of the claim whose documents cannot be served, with why (an exception's type)."""

    def __init__(self, reasons: dict[str, str]) -> None:
        super().__init__(f"{len(reasons)} item(s) cannot be served")
        self.reasons = reasons


def reply(
    conn: Connection, queue_id: str, lease_seconds: int, held: int, claimed: list[Claimed]
) -> ClaimReply:
    """The reply to a claim as bytes, or ``Unservable`` naming the items that spoil it."""
    ids = [c.item_id for c in claimed]
    whole: dict[str, dict[str, Any]] | None
    try:
        whole = item_documents(conn, ids)
    except DOCUMENT_ERRORS:
        whole = None  # find the item(s) to blame one at a time
    parts: list[bytes] = []
    reasons: dict[str, str] = {}
    for c in claimed:
        try:
            document = whole[c.item_id] if whole is not None else _one(conn, c.item_id)
            entry = {
                "lease_token": c.token,
                "lease_expires_at": iso(c.expires_at),
                "item": document,
            }
            parts.append(json.dumps(entry, ensure_ascii=False).encode())
        except DOCUMENT_ERRORS as exc:
            reasons[c.item_id] = type(exc).__name__
            log.warning(
                "item %s of queue %s cannot be served (%s: %s); it is parked as unservable",
                c.item_id,
                queue_id,
                type(exc).__name__,
                exc,
            )
    if reasons:
        raise Unservable(reasons)
    head = json.dumps(
        {"queue_id": queue_id, "lease_seconds": lease_seconds, "leased_total": held + len(parts)}
    )
    body = head[:-1].encode() + b', "items": [' + b", ".join(parts) + b"]}"
    return ClaimReply(body, len(parts))


def _one(conn: Connection, item_id: str) -> dict[str, Any]:
    return item_documents(conn, [item_id])[item_id]


def park_unservable(
    conn: Connection, user: Principal, reasons: dict[str, str], now: float
) -> list[str]:
    """Take the items out of review (state ``unservable``) unless someone holds a live
    lease on them (they could not have been served it either: their claim parks them),
    with an ``unservable`` entry each in the log (the reviewer whose claim found it is
    its actor). The items parked."""
    waiting = or_(
        items.c.state == "pending",
        and_(items.c.state == "leased", items.c.lease_expires_at < now),
    )
    parked = conn.execute(
        update(items)
        .where(items.c.id.in_(sorted(reasons)), waiting)
        .values(state="unservable", lease_token=None, lease_user_id=None, lease_expires_at=None)
        .returning(items.c.id, items.c.queue_id)
    ).all()
    if not parked:
        return []
    ids = sorted(r.id for r in parked)
    conn.execute(
        update(leases)
        .where(leases.c.item_id.in_(ids), leases.c.ended_at.is_(None))
        .values(ended_at=now)
    )
    append_events(
        conn,
        [
            event_row(
                now,
                EventKind.unservable,
                user.username,
                item_id=r.id,
                queue_id=r.queue_id,
                error=reasons[r.id],
            )
            for r in sorted(parked, key=lambda r: r.id)
        ],
    )
    return ids
