"""The claim's reply, built and serialised inside the claim's transaction.

A lease is committed only together with a reply that holds it: the whole items are read
and turned into the JSON body (UTF-8 bytes) before the transaction commits. An item whose
stored document cannot be served (unreadable JSON, a lone surrogate that has no UTF-8, a
missing part) fails the claim's transaction, which rolls back whole; the service then
parks the item (``park_unservable``: state ``unservable``, an ``unservable`` entry in the
log, counted in the leads' queue figures and on /metrics) and claims again without it.

Who claims is looked up by the claim's own transaction (``Caller``): its first statement
finds the login token's user and (on PostgreSQL) locks the user's row, so a claim is one
transaction, not a read for the token and then a write. A revoked session, an expired one
or a changed role counts from the next claim on, in every process: nothing is cached.

On PostgreSQL that first statement also makes the claim's commit asynchronous
(``synchronous_commit = off`` for this transaction only): the commit returns without
waiting for its WAL to reach the disk, which under intake's load was most of a claim's
wait. What a crash of the database server (not of this service) can lose is the claims
of its last moments (``wal_writer_delay``, 0.2 s by default, at most three times that):
those items are pending again, as if the leases had expired, and a reviewer's verdict on
one is answered "lease lost", like one on an expired lease. Nothing anyone decided is
lost: verdicts, releases and everything else commit synchronously, and WAL is flushed in
order, so any transaction that commits after a claim (a verdict on its items, the
sequencer sealing its ``claimed`` entries) makes the claim durable first: the log never
seals an entry that a crash then takes away.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Connection, and_, bindparam, func, or_, select, update
from sqlalchemy.sql.expression import Select

from reviewer_app.protocol import EventKind, Role
from reviewer_app.server.domain.assembly import item_documents
from reviewer_app.server.domain.leasing import Claimed
from reviewer_app.server.domain.records import Principal, append_events, event_row, iso
from reviewer_app.server.domain.security import token_hash
from reviewer_app.server.problems import token_invalid
from reviewer_app.server.storage.tables import items, leases, sessions, users

log = logging.getLogger("server")

# What a stored document that cannot be turned into the reply raises (orjson.loads of a
# broken payload: JSONDecodeError, a ValueError; orjson.dumps of a lone surrogate:
# JSONEncodeError, a TypeError; a part missing: KeyError). Database errors are not among
# them: they fail the claim as before.
DOCUMENT_ERRORS = (ValueError, TypeError, LookupError, AttributeError)


def _caller_statement(postgres: bool, *, by_token: bool) -> Select:
    """The claiming user (by login token, or by id), their row locked and the commit made
    asynchronous on PostgreSQL (see the module doc)."""
    query = select(users.c.id, users.c.username, users.c.display_name, users.c.role)
    if by_token:  # as service.authenticate
        query = query.join(sessions, sessions.c.user_id == users.c.id).where(
            sessions.c.token_hash == bindparam("hash"),
            sessions.c.revoked_at.is_(None),
            sessions.c.expires_at > bindparam("now"),
        )
    else:
        query = query.where(users.c.id == bindparam("user"))
    if postgres:  # one claim at a time per reviewer, so the cap on leases held holds
        query = query.add_columns(
            func.set_config("synchronous_commit", "off", True).label("async_commit")
        ).with_for_update(of=users)
    return query


_CALLER = {
    (pg, by_token): _caller_statement(pg, by_token=by_token)
    for pg in (False, True)
    for by_token in (False, True)
}


class Caller:
    """Who claims: a user already authenticated, or a login token (``rd1_...``) that the
    claim's transaction looks up itself."""

    def __init__(self, who: Principal | str) -> None:
        self.token = who if isinstance(who, str) else None
        self.user = who if isinstance(who, Principal) else None

    def resolve(self, conn: Connection, now: float, *, postgres: bool) -> Principal:
        """The claiming user, locked (the claim's first statement); 401 for a token that
        stands for nobody now."""
        if self.token is None:
            assert self.user is not None
            if postgres:
                conn.execute(_CALLER[(True, False)], {"user": self.user.id}).all()
            return self.user
        found = conn.execute(
            _CALLER[(postgres, True)], {"hash": token_hash(self.token), "now": now}
        ).first()
        if found is None:
            raise token_invalid()
        self.user = Principal(found.id, found.username, found.display_name, Role(found.role))
        return self.user


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
            parts.append(orjson.dumps(entry, option=orjson.OPT_NON_STR_KEYS))
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
    head = orjson.dumps(
        {"queue_id": queue_id, "lease_seconds": lease_seconds, "leased_total": held + len(parts)}
    )
    body = head[:-1] + b', "items": [' + b", ".join(parts) + b"]}"
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
