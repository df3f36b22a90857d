"""Leases: atomic claims, renewals, releases and expiry. No item is leased to two reviewers.

The claim is one ``UPDATE ... RETURNING`` over the queue's highest-priority pending
items. Items the reviewer skipped (a release marked ``skipped``) are remembered for them
for ``skip_memory_seconds`` (table ``skips``): their claims in that queue take every other
item first, and the skipped ones only when nothing else is left for them (a second
statement in the same transaction), so a queue with one reviewer on shift still empties.
In the escalation queue (``assigned``) an item a lead assigned to someone is claimed by
that lead only, and a lead's claim takes the items assigned to them first.
On PostgreSQL the candidate rows are picked with ``FOR UPDATE SKIP LOCKED`` so concurrent
claims never wait on each other; on SQLite the write transaction (``BEGIN IMMEDIATE``)
makes the statement the only writer.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Connection,
    String,
    bindparam,
    case,
    delete,
    exists,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.sql.expression import Select

from reviewer_app.protocol import EventKind, LeaseStatus
from reviewer_app.protocol.leases import LeaseOutcome
from reviewer_app.server.domain.records import Principal, append_events, event_row, to_dt
from reviewer_app.server.storage.bulk import recordset, rows_json
from reviewer_app.server.storage.eventlog import LOG_NAME
from reviewer_app.server.storage.sequencer import mark_appended
from reviewer_app.server.storage.tables import (
    authors,
    config_versions,
    decisions,
    events,
    items,
    leases,
    skips,
    users,
)

#: at most this many of a reviewer's skips in a queue are avoided by a claim (the newest)
MAX_AVOIDED = 500


@dataclass(frozen=True)
class Claimed:
    item_id: str
    token: str
    expires_at: float


def _candidates(
    postgres: bool, recuse: bool = False, avoiding: bool = False, assigned: bool = False
) -> Select:
    """The queue's highest-priority pending items (on PostgreSQL: locked, skipping locked);
    with ``recuse`` (an appeals queue: appeals.py) none that the claiming user decided
    before; ``avoiding`` none of the ids in ``b_avoid`` (the reviewer's skips); ``assigned``
    (the escalation queue) none assigned to another lead, and those assigned to the
    claiming lead first."""
    conditions = [items.c.queue_id == bindparam("b_queue"), items.c.state == "pending"]
    mine = items.c.assigned_user_id == bindparam("b_user")
    if assigned:
        conditions.append(or_(items.c.assigned_user_id.is_(None), mine))
    if avoiding:
        conditions.append(items.c.id.not_in(bindparam("b_avoid", expanding=True)))
    if recuse:
        conditions.append(
            ~exists().where(
                decisions.c.item_id == items.c.id, decisions.c.user_id == bindparam("b_user")
            )
        )
    query = (
        select(items.c.id)
        .where(*conditions)
        .order_by(*((case((mine, 0), else_=1),) if assigned else ()), items.c.priority.desc())
        .limit(bindparam("b_limit"))
        # Without statistics SQLite may pick another index and sort the whole queue.
        .with_hint(items, "INDEXED BY ix_items_claim", "sqlite")
    )
    if postgres:
        query = query.with_for_update(skip_locked=True)
    return query


def _claim_statement(
    postgres: bool, recuse: bool = False, avoiding: bool = False, assigned: bool = False
) -> Any:
    found = _candidates(postgres, recuse, avoiding, assigned)
    if postgres:
        # A CTE is evaluated once: the LIMIT holds for the whole statement (an IN subquery
        # with SKIP LOCKED may be re-run by the planner and lease more than asked).
        picked = found.cte("picked")
        target = update(items).where(items.c.id == picked.c.id, items.c.state == "pending")
    else:
        # The write transaction is the only writer, so the subquery's rows are still
        # pending; a second state filter here would make SQLite scan by state instead of id.
        target = update(items).where(items.c.id.in_(found))
    return target.values(
        state="leased",
        lease_token=bindparam("b_prefix", type_=String()) + items.c.id,
        lease_user_id=bindparam("b_user"),
        lease_expires_at=bindparam("b_expires"),
    ).returning(
        items.c.id, items.c.lease_token, items.c.epoch, items.c.priority, items.c.assigned_user_id
    )


def _expired_statement(postgres: bool) -> Select:
    query = (
        select(items.c.id, users.c.username)
        .join(users, users.c.id == items.c.lease_user_id)
        .where(
            items.c.queue_id == bindparam("b_queue"),
            items.c.state == "leased",
            items.c.lease_expires_at < bindparam("b_now"),
        )
        .limit(1_000)
    )
    if postgres:
        query = query.with_for_update(of=items, skip_locked=True)
    return query


# Statements are built once per database kind: building a SQLAlchemy statement costs
# several times more than running one, and these run on every claim.
_VARIANTS = [
    (pg, recuse, assigned)
    for pg in (False, True)
    for recuse in (False, True)
    for assigned in (False, True)
]
_CLAIM = {
    (pg, recuse, assigned): _claim_statement(pg, recuse, assigned=assigned)
    for pg, recuse, assigned in _VARIANTS
}
_CLAIM_AVOIDING = {
    (pg, recuse, assigned): _claim_statement(pg, recuse, avoiding=True, assigned=assigned)
    for pg, recuse, assigned in _VARIANTS
}
_SKIPPED = (
    select(skips.c.item_id)
    .where(
        skips.c.user_id == bindparam("b_user"),
        skips.c.queue_id == bindparam("b_queue"),
        skips.c.until > bindparam("b_now"),
    )
    .order_by(skips.c.until.desc())
    .limit(MAX_AVOIDED)
)
_EXPIRED = {pg: _expired_statement(pg) for pg in (False, True)}
_HELD = (
    select(func.count())
    .select_from(items)
    .where(
        items.c.lease_user_id == bindparam("b_user"),
        items.c.state == "leased",
        items.c.lease_expires_at >= bindparam("b_now"),
    )
)
_skipped_ids = _SKIPPED.subquery("skipped_ids")
_HELD_AND_SKIPPED = select(
    _HELD.scalar_subquery().label("held"),
    select(func.array_agg(_skipped_ids.c.item_id)).scalar_subquery().label("skipped"),
)
_RETURN_TO_QUEUE = (
    update(items)
    .where(items.c.id.in_(bindparam("b_ids", expanding=True)))
    .values(state="pending", lease_token=None, lease_user_id=None, lease_expires_at=None)
)
# A lease records the configuration version in force when it was claimed (the newest
# applied, read by the statement itself: no extra round trip, and never an older one
# cached by this process): verdicts valid under it stay valid while the lease lives.
_INSERT_LEASES = insert(leases).values(
    config_version=select(func.max(config_versions.c.version)).scalar_subquery()
)
_LEASE_COLUMNS = ("token", "item_id", "queue_id", "user_id", "epoch", "claimed_at", "expires_at")
_EVENT_COLUMNS = ("at", "kind", "actor", "item_id", "queue_id", "data")
# On PostgreSQL the leases and their ``claimed`` entries in the log are one statement (one
# round trip; see bulk.py on json_to_recordset). Names from the tables' metadata only.
_GRANT = text(
    f"WITH granted AS (INSERT INTO leases ({', '.join(_LEASE_COLUMNS)}, config_version) "  # noqa: S608
    f"SELECT {', '.join(_LEASE_COLUMNS)}, (SELECT max(version) FROM config_versions) "
    f"FROM {recordset(leases, _LEASE_COLUMNS, 'leases')}) "
    f"INSERT INTO events ({', '.join(_EVENT_COLUMNS)}) SELECT {', '.join(_EVENT_COLUMNS)} "
    f"FROM {recordset(events, _EVENT_COLUMNS, 'events')}"
)


def return_expired(conn: Connection, queue_id: str, now: float, *, postgres: bool) -> int:
    """Put the queue's items whose lease ran out back in the queue (logged as ``expired``)."""
    expired = conn.execute(_EXPIRED[postgres], {"b_queue": queue_id, "b_now": now}).all()
    if not expired:
        return 0
    conn.execute(_RETURN_TO_QUEUE, {"b_ids": [r.id for r in expired]})
    append_events(
        conn,
        [
            event_row(now, EventKind.expired, r.username, item_id=r.id, queue_id=queue_id)
            for r in expired
        ],
    )
    return len(expired)


def held_count(conn: Connection, user_id: int, now: float) -> int:
    count: int = conn.execute(_HELD, {"b_user": user_id, "b_now": now}).scalar_one()
    return count


def held_and_skipped(
    conn: Connection, user_id: int, queue_id: str, now: float, *, postgres: bool
) -> tuple[int, list[str]]:
    """The live leases ``user_id`` holds, and the items they skipped in the queue that a
    claim avoids (newest first, at most ``MAX_AVOIDED``): one statement on PostgreSQL."""
    values = {"b_user": user_id, "b_queue": queue_id, "b_now": now}
    if postgres:
        row = conn.execute(_HELD_AND_SKIPPED, values).one()
        return row.held, list(row.skipped or ())
    return held_count(conn, user_id, now), [r[0] for r in conn.execute(_SKIPPED, values)]


def claim(
    conn: Connection,
    user: Principal,
    queue_id: str,
    count: int,
    lease_seconds: int,
    now: float,
    *,
    postgres: bool,
    recuse: bool = False,
    assigned: bool = False,
    skipped: list[str] | None = None,
) -> list[Claimed]:
    """Lease up to ``count`` of the queue's highest-priority pending items to ``user``
    (``recuse``: an appeals queue, none the user decided before; ``assigned``: the
    escalation queue, none assigned to another lead and the user's own first; ``skipped``:
    the user's skips in the queue when already read, see ``held_and_skipped``)."""
    return_expired(conn, queue_id, now, postgres=postgres)
    expires = now + lease_seconds
    parameters = {
        "b_queue": queue_id,
        "b_limit": count,
        "b_prefix": secrets.token_urlsafe(12) + ".",
        "b_user": user.id,
        "b_expires": expires,
    }
    variant = (postgres, recuse, assigned)
    if skipped is None:
        skipped = [r[0] for r in conn.execute(_SKIPPED, {**parameters, "b_now": now})]
    if skipped:
        avoiding = {**parameters, "b_avoid": skipped}
        found = list(conn.execute(_CLAIM_AVOIDING[variant], avoiding))
        if len(found) < count:  # nothing else left for this reviewer: their skips after all
            more = {**parameters, "b_limit": count - len(found)}
            found += conn.execute(_CLAIM[variant], more).all()
        # what they skipped comes last, whatever its priority
        avoided = set(skipped)
        rows = sorted(
            found, key=lambda r: (r.id in avoided, r.assigned_user_id != user.id, -r.priority)
        )
    else:
        rows = sorted(
            conn.execute(_CLAIM[variant], parameters).all(),
            key=lambda r: (r.assigned_user_id != user.id, -r.priority),
        )
    if not rows:
        return []
    _grant(conn, user, queue_id, rows, now, expires, postgres=postgres)
    return [Claimed(r.id, r.lease_token, expires) for r in rows]


def _grant(
    conn: Connection,
    user: Principal,
    queue_id: str,
    rows: list[Any],
    now: float,
    expires: float,
    *,
    postgres: bool,
) -> None:
    """The leases of the claimed ``rows`` and their ``claimed`` entries in the log."""
    granted = [
        {
            "token": r.lease_token,
            "item_id": r.id,
            "queue_id": queue_id,
            "user_id": user.id,
            "epoch": r.epoch,
            "claimed_at": now,
            "expires_at": expires,
        }
        for r in rows
    ]
    logged = [
        event_row(
            now,
            EventKind.claimed,
            user.username,
            item_id=r.id,
            queue_id=queue_id,
            lease_expires_at=to_dt(expires).isoformat(),
        )
        for r in rows
    ]
    if postgres:
        conn.execute(
            _GRANT,
            {
                **rows_json("leases", _LEASE_COLUMNS, granted),
                **rows_json("events", _EVENT_COLUMNS, logged),
            },
        )
        mark_appended(conn, LOG_NAME)
    else:
        conn.execute(_INSERT_LEASES, granted)
        append_events(conn, logged)


_GONE: dict[str, LeaseOutcome] = {"withdrawn": "withdrawn", "resolved": "author_actioned"}


def _owned_leases(conn: Connection, user: Principal, tokens: list[str]) -> dict[str, LeaseStatus]:
    """The user's leases among ``tokens``, each with what it became: ``withdrawn`` when its
    item was withdrawn upstream (intake), ``author_actioned`` when an account action closed
    it (with the author's status: accounts.py), else ``lost``."""
    rows = conn.execute(
        select(leases.c.token, items.c.state, authors.c.status)
        .join(items, items.c.id == leases.c.item_id)
        .outerjoin(authors, authors.c.id == items.c.author_id)
        .where(leases.c.token.in_(tokens), leases.c.user_id == user.id)
    )
    return {
        r.token: LeaseStatus(
            token=r.token,
            status=_GONE.get(r.state, "lost"),
            author_status=r.status if r.state == "resolved" else None,
        )
        for r in rows
    }


def _lock_in_id_order(conn: Connection, user: Principal, tokens: list[str]) -> None:
    """Lock the items of these leases in id order, as verdict batches do (no deadlocks)."""
    conn.execute(
        select(items.c.id)
        .where(items.c.lease_token.in_(tokens), items.c.lease_user_id == user.id)
        .order_by(items.c.id)
        .with_for_update()
    ).all()


def renew(
    conn: Connection,
    user: Principal,
    tokens: list[str],
    lease_seconds: int,
    now: float,
    *,
    postgres: bool,
) -> list[LeaseStatus]:
    """Extend the user's current leases; a lease that already ran out is renewed only if
    nobody else took the item meanwhile."""
    expires = now + lease_seconds
    if postgres:
        _lock_in_id_order(conn, user, tokens)
    rows = conn.execute(
        update(items)
        .where(
            items.c.lease_token.in_(tokens),
            items.c.lease_user_id == user.id,
            items.c.state == "leased",
        )
        .values(lease_expires_at=expires)
        .returning(items.c.lease_token, items.c.id, items.c.queue_id)
    ).all()
    renewed = {r.lease_token for r in rows}
    if renewed:
        conn.execute(update(leases).where(leases.c.token.in_(renewed)).values(expires_at=expires))
        # Logged in batches: one entry per call and queue naming the items (a client renews
        # its whole worklist at once; an entry per item would multiply the log's growth).
        by_queue: dict[str, list[str]] = {}
        for r in rows:
            by_queue.setdefault(r.queue_id, []).append(r.id)
        append_events(
            conn,
            [
                event_row(
                    now,
                    EventKind.renewed,
                    user.username,
                    queue_id=queue_id,
                    item_ids=sorted(ids),
                    lease_expires_at=to_dt(expires).isoformat(),
                )
                for queue_id, ids in sorted(by_queue.items())
            ],
        )
    owned = _owned_leases(conn, user, tokens)
    return [
        LeaseStatus(token=t, status="renewed", expires_at=to_dt(expires))
        if t in renewed
        else owned.get(t) or LeaseStatus(token=t, status="unknown")
        for t in tokens
    ]


def release(
    conn: Connection,
    user: Principal,
    tokens: list[str],
    now: float,
    *,
    postgres: bool,
    skipped_for: float = 0.0,
) -> list[LeaseStatus]:
    """Give leases back: the items return to their queue at once. ``skipped_for`` > 0: the
    reviewer skipped them, remembered for that many seconds (see the module doc)."""
    query = (
        select(items.c.id, items.c.queue_id, items.c.lease_token)
        .where(
            items.c.lease_token.in_(tokens),
            items.c.lease_user_id == user.id,
            items.c.state == "leased",
        )
        .order_by(items.c.id)  # the lock order of verdict batches: no deadlocks
    )
    held = conn.execute(query.with_for_update() if postgres else query).all()
    if held:
        conn.execute(
            update(items)
            .where(items.c.id.in_([r.id for r in held]))
            .values(state="pending", lease_token=None, lease_user_id=None, lease_expires_at=None)
        )
        conn.execute(
            update(leases)
            .where(leases.c.token.in_([r.lease_token for r in held]))
            .values(ended_at=now)
        )
        append_events(
            conn,
            [
                event_row(now, EventKind.released, user.username, item_id=r.id, queue_id=r.queue_id)
                for r in held
            ],
        )
        if skipped_for > 0:
            _remember_skips(conn, user, [(r.id, r.queue_id) for r in held], now, skipped_for)
    released = {r.lease_token for r in held}
    owned = _owned_leases(conn, user, tokens)
    return [
        LeaseStatus(token=t, status="released")
        if t in released
        else owned.get(t) or LeaseStatus(token=t, status="unknown")
        for t in tokens
    ]


def _remember_skips(
    conn: Connection, user: Principal, skipped: list[tuple[str, str]], now: float, seconds: float
) -> None:
    """Remember the reviewer's skips for ``seconds`` (again from now for an item skipped
    before); their skips that ran out are forgotten here too."""
    ids = [item_id for item_id, _ in skipped]
    until = now + seconds
    conn.execute(
        delete(skips).where(
            skips.c.user_id == user.id, skips.c.item_id.in_(ids) | (skips.c.until <= now)
        )
    )
    conn.execute(
        insert(skips),
        [
            {"user_id": user.id, "item_id": item_id, "queue_id": queue_id, "until": until}
            for item_id, queue_id in skipped
        ],
    )
