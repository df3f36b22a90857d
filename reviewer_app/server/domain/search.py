"""Decision search for leads: filters, keyset paging, and the streamed CSV export."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import partial
from typing import Any, Protocol, TypeVar

from sqlalchemy import ColumnElement, Connection, and_, exists, func, literal_column, select

from reviewer_app.protocol import DecisionPage
from reviewer_app.protocol.csvsafe import DECISION_COLUMNS, neutralise
from reviewer_app.protocol.csvsafe import writer as csv_writer
from reviewer_app.server.domain import accounts
from reviewer_app.server.domain.assembly import reviewer_names
from reviewer_app.server.domain.records import decision_from_row, encode_cursor, iso
from reviewer_app.server.storage.tables import (
    audit_items,
    authors,
    decision_policies,
    decisions,
    items,
    posts,
    users,
)

EXPORT_CHUNK = 5_000
_T = TypeVar("_T")


class Order(StrEnum):
    asc = "asc"
    desc = "desc"


@dataclass(frozen=True)
class DecisionFilter:
    queue_id: str | None = None
    reviewer: str | None = None
    action: str | None = None
    policy: str | None = None
    item_id: str | None = None
    since: float | None = None
    until: float | None = None
    audited: bool | None = None

    def conditions(self, conn: Connection) -> list[ColumnElement[bool]]:
        d = decisions.c
        found: list[ColumnElement[bool]] = []
        if self.queue_id is not None:
            found.append(d.queue_id == self.queue_id)
        if self.reviewer is not None:
            user_id = conn.execute(select(users.c.id).where(users.c.username == self.reviewer))
            found.append(d.user_id == (user_id.scalar() or -1))
        if self.action is not None:
            found.append(d.action == self.action)
        if self.policy is not None:
            # one row per decision and code, kept by a trigger (migration 0020): an index
            with_code = select(decision_policies.c.decision_id).where(
                decision_policies.c.policy == self.policy
            )
            found.append(d.id.in_(with_code))
        if self.item_id is not None:
            found.append(d.item_id == self.item_id)
        if self.since is not None:
            found.append(d.decided_at >= self.since)
        if self.until is not None:
            found.append(d.decided_at < self.until)
        if self.audited is not None:
            judged = exists().where(
                audit_items.c.decision_id == d.id, audit_items.c.result.is_not(None)
            )
            found.append(judged if self.audited else ~judged)
        return found


def _audit_results(conn: Connection, ids: list[int]) -> dict[int, str]:
    if not ids:
        return {}
    rows = conn.execute(
        select(audit_items.c.decision_id, audit_items.c.result).where(
            audit_items.c.decision_id >= min(ids),
            audit_items.c.decision_id <= max(ids),
            audit_items.c.result.is_not(None),
        )
    )
    return {r.decision_id: r.result for r in rows}


def _post_url(conn: Connection) -> ColumnElement[Any]:
    """The post's address, read from its stored JSON in the database (not parsed here: a
    post's text may be long)."""
    if conn.dialect.name == "postgresql":
        return literal_column("(posts.payload::json ->> 'url')")
    return func.json_extract(posts.c.payload, "$.url")


def _platform_ids(conn: Connection) -> Any:
    """The platform's ids of each decision's post and author, and the post's address: the
    columns, and the joins from ``decisions`` they need (outer: a post seeded before
    intake has none)."""
    columns = (
        posts.c.external_id.label("post_external_id"),
        authors.c.external_id.label("author_external_id"),
        _post_url(conn).label("post_url"),
    )
    joined = (
        decisions.outerjoin(items, items.c.id == decisions.c.item_id)
        .outerjoin(posts, posts.c.id == items.c.post_id)
        .outerjoin(authors, authors.c.id == decisions.c.author_id)
    )
    return columns, joined


def page(
    conn: Connection, found: DecisionFilter, after: int | None, limit: int, order: Order
) -> DecisionPage:
    platform, joined = _platform_ids(conn)
    key = decisions.c.id
    if found.policy is not None:
        # read from the policy's rows in id order (its primary key), joining each decision:
        # ``id IN (the policy's ids)`` first gathered every decision with the code
        with_code = decision_policies.c
        joined = joined.join(
            decision_policies, and_(with_code.decision_id == key, with_code.policy == found.policy)
        )
        key = with_code.decision_id
        found = replace(found, policy=None)
    query = select(decisions, *platform).select_from(joined).where(*found.conditions(conn))
    if order is Order.asc:
        if after is not None:
            query = query.where(key > after)
        query = query.order_by(key)
    else:
        if after is not None:
            query = query.where(key < after)
        query = query.order_by(key.desc())
    rows = conn.execute(query.limit(limit + 1)).mappings().all()
    more = len(rows) > limit
    rows = rows[:limit]
    names = reviewer_names(conn, {r["user_id"] for r in rows})
    judged = _audit_results(conn, [r["id"] for r in rows])
    status = accounts.statuses(conn, {r["author_id"] for r in rows})  # the authors' now
    return DecisionPage(
        decisions=[
            decision_from_row(
                r, names.get(r["user_id"], "unknown"), judged.get(r["id"])
            ).model_copy(
                update={
                    "author_status": status.get(r["author_id"]),
                    "post_external_id": r["post_external_id"],
                    "author_external_id": r["author_external_id"],
                    "post_url": r["post_url"],
                }
            )
            for r in rows
        ],
        next_cursor=encode_cursor(rows[-1]["id"]) if more and rows else None,
    )


_EXPORT_COLUMNS = (
    decisions.c.id,
    decisions.c.item_id,
    decisions.c.queue_id,
    decisions.c.user_id,
    decisions.c.action,
    decisions.c.policies,
    decisions.c.rating,
    decisions.c.author_action,
    decisions.c.note,
    decisions.c.time_spent_ms,
    decisions.c.decided_at,
    decisions.c.client_decided_at,
    decisions.c.kind,
    decisions.c.overturns_id,
    decisions.c.appeal_of,
)


class PageReads(Protocol):
    """Runs one read of a long job in a short transaction of its own (replica.Pages)."""

    def __call__(self, work: Callable[[Connection], _T], /) -> _T: ...


def export_csv(read: PageReads, found: DecisionFilter) -> Iterator[str]:
    """The matching decisions as CSV, oldest first, a chunk of rows per string.

    Each chunk is read in its own short transaction by keyset (id > last), so neither the
    rows nor a database connection are held while the client reads; decisions recorded
    after the export began are left out. The first chunk is read before this returns,
    before the response starts: a database that fails it fails the request with its
    status. One that fails a later chunk (``read`` having no other database to go to)
    ends the iterator with the error, never early as if the rows had run out, so the
    client sees the transfer broken off.
    """
    conditions, last = read(lambda conn: (found.conditions(conn), _last_id(conn)))
    names: dict[int, str] = {}
    first = read(partial(_chunk, conditions=conditions, after=0, last=last, names=names))
    return _chunks(read, first, conditions, last, names)


def _last_id(conn: Connection) -> int:
    return int(conn.execute(select(func.max(decisions.c.id))).scalar() or 0)


def _chunk(
    conn: Connection,
    *,
    conditions: list[ColumnElement[bool]],
    after: int,
    last: int,
    names: dict[int, str],
) -> tuple[Sequence[Any], dict[int, str]]:
    """Up to ``EXPORT_CHUNK`` rows after ``after``, with their audit results; the names of
    their reviewers are added to ``names``."""
    platform, joined = _platform_ids(conn)
    rows = conn.execute(
        select(*_EXPORT_COLUMNS, *platform)
        .select_from(joined)
        .where(*conditions, decisions.c.id > after, decisions.c.id <= last)
        .order_by(decisions.c.id)
        .limit(EXPORT_CHUNK)
    ).all()
    missing = {r.user_id for r in rows} - names.keys()
    if missing:
        names.update(reviewer_names(conn, missing))
    return rows, _audit_results(conn, [r.id for r in rows])


def _chunks(
    read: PageReads,
    first: tuple[Sequence[Any], dict[int, str]],
    conditions: list[ColumnElement[bool]],
    last: int,
    names: dict[int, str],
) -> Iterator[str]:
    """The header, ``first``'s rows, and the chunks after them, each read as it is due."""
    buffer = io.StringIO()
    writer = csv_writer(buffer)
    writer.writerow(DECISION_COLUMNS)
    yield buffer.getvalue()
    rows, judged = first
    del first  # one chunk's rows held at a time
    while rows:
        buffer.seek(0)
        buffer.truncate()
        writer.writerows(_cells(r, names, judged) for r in rows)
        yield buffer.getvalue()
        after = rows[-1].id
        if after >= last:
            return
        rows, judged = read(
            partial(_chunk, conditions=conditions, after=after, last=last, names=names)
        )


def _cells(row: Any, names: dict[int, str], judged: dict[int, str]) -> list[str]:
    """One row (of ``_EXPORT_COLUMNS``) as ``csvsafe.decision_row`` makes it from a Decision."""
    policies = row.policies
    return [
        str(row.id),
        neutralise(row.item_id),
        neutralise(row.queue_id),
        neutralise(names.get(row.user_id, "unknown")),
        neutralise(row.action),
        "" if policies == "[]" else neutralise(";".join(json.loads(policies))),
        neutralise(row.rating or ""),
        neutralise(row.author_action or ""),
        neutralise(row.note or ""),
        str(row.time_spent_ms),
        iso(row.decided_at),
        iso(row.client_decided_at),
        row.kind,
        "" if row.overturns_id is None else str(row.overturns_id),
        judged.get(row.id, ""),
        "" if row.appeal_of is None else str(row.appeal_of),
        neutralise(row.post_external_id or ""),
        neutralise(row.author_external_id or ""),
        neutralise(row.post_url or ""),
    ]
