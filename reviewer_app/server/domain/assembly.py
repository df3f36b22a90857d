"""Whole items: the stored post and context joined with author history, media and events."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import (
    BindParameter,
    Connection,
    String,
    any_,
    bindparam,
    func,
    literal_column,
    select,
    true,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.sql.expression import ColumnElement, Join, Select

from reviewer_app.protocol import Decision, Item
from reviewer_app.protocol.accounts import STATUS_RANK, AuthorStatus
from reviewer_app.server.domain import account_links, accounts, escalations
from reviewer_app.server.domain.records import decision_from_row, event_documents, iso
from reviewer_app.server.domain.statements import documents_for_posts, documents_query
from reviewer_app.server.storage.tables import (
    appeals,
    authors,
    decisions,
    events,
    items,
    media,
    strikes,
    users,
)

RECENT_AUTHOR_DECISIONS = 5
HISTORY_IN_ITEM = 200
#: the most strike policies an item's author carries (``Author.strikes``): the most recent
#: ones (newest strike first), the older ones left out (the protocol has no count of them)
STRIKES_IN_ITEM = 64

# Statements are built once: building a SQLAlchemy statement costs several times more
# than running a prepared one, and these run for every claim.
_ids: BindParameter[Any] = bindparam("ids", expanding=True)
_USER_NAMES = select(users.c.id, users.c.username).where(users.c.id.in_(_ids))
_DECISIONS = select(decisions).where(decisions.c.id.in_(_ids))

Among = Callable[[ColumnElement[Any]], ColumnElement[bool]]
"""Which rows a statement reads: a condition on its key column (a list of ids, or on
PostgreSQL the claimed items' ids and a subquery of their authors: ``_BUNDLE``)."""


def _in_ids(column: ColumnElement[Any]) -> ColumnElement[bool]:
    return column.in_(_ids)


def _authors_query(among: Among) -> Select:
    return select(
        authors.c.id, authors.c.handle, authors.c.source, authors.c.status, authors.c.payload
    ).where(among(authors.c.id))


def _strikes_query(among: Among) -> Select:
    return (
        select(
            strikes.c.author_id,
            strikes.c.policy,
            func.count().label("n"),
            func.max(strikes.c.at).label("last_at"),
        )
        .where(among(strikes.c.author_id))
        .group_by(strikes.c.author_id, strikes.c.policy)
        .order_by(strikes.c.author_id, func.max(strikes.c.at).desc(), strikes.c.policy)
    )


_AUTHORS = _authors_query(_in_ids)
_STRIKES = _strikes_query(_in_ids)
# Each author's newest decisions by a lookup per author (ix_decisions_author), LIMIT 5
# each: ranking every decision of the authors costs in proportion to their whole history.
# PostgreSQL runs the lookup per author as a LATERAL subquery; SQLite (no LATERAL) as a
# correlated IN list, which on PostgreSQL would be a filter run for every decision row.
_RECENT_COLUMNS = ("item_id", "action", "policies", "decided_at")


def _recent_statement(postgres: bool, among: Among = _in_ids) -> Select:
    newest = decisions.alias("newest")
    # the author's five newest decision ids: ids only, so the lookup reads (author_id, id)
    # alone, backwards (with more columns PostgreSQL may walk the primary key instead)
    five = (
        select(newest.c.id)
        .where(newest.c.author_id == authors.c.id)
        .order_by(newest.c.id.desc())
        .limit(RECENT_AUTHOR_DECISIONS)
    )
    joined: Join
    if postgres:
        lookup = five.lateral("newest_ids")
        joined = authors.join(lookup, true()).join(decisions, decisions.c.id == lookup.c.id)
    else:
        newest_ids = five.correlate(authors).scalar_subquery()
        joined = authors.join(decisions, decisions.c.id.in_(newest_ids))
    return (
        select(decisions.c.author_id, *(decisions.c[n] for n in _RECENT_COLUMNS))
        .select_from(joined)
        .where(among(authors.c.id))
        .order_by(decisions.c.author_id, decisions.c.id.desc())
    )


def _media_query(among: Among) -> Select:
    return (
        select(
            media.c.id,
            media.c.item_id,
            media.c.kind,
            media.c.mime_type,
            media.c.size_bytes,
            media.c.width,
            media.c.height,
            media.c.alt_text,
            media.c.sensitive,
        )
        .where(among(media.c.item_id))
        .order_by(media.c.item_id, media.c.position)
    )


def _history_query(among: Among) -> Select:
    # in log order: the sealed entries by seq, then those not sealed yet (a decision just made)
    return (
        select(events)
        .where(among(events.c.item_id))
        .order_by(events.c.seq.is_(None), events.c.seq, events.c.id)
    )


def _appeals_query(among: Among) -> Select:
    """The newest appeal of each item that has one."""
    newest = select(func.max(appeals.c.id)).where(among(appeals.c.item_id))
    return select(appeals).where(appeals.c.id.in_(newest.group_by(appeals.c.item_id)))


_RECENT = {pg: _recent_statement(pg) for pg in (False, True)}
_ITEMS = select(items).where(items.c.id.in_(_ids))
_MEDIA = _media_query(_in_ids)
_HISTORY = _history_query(_in_ids)
_APPEALS = _appeals_query(_in_ids)

# On PostgreSQL the parts of whole items that depend only on the items' and their authors'
# ids are read by one statement, each part a JSON array of its rows (one round trip for
# what were eight; a claim waits for every round trip in turn). The ids go as one array
# (``= ANY``): the statement's text is the same for any number of items, so psycopg
# prepares it once.
_claimed_ids: BindParameter[Any] = bindparam("item_ids", type_=postgresql.ARRAY(String()))


def _claimed(column: ColumnElement[Any]) -> ColumnElement[bool]:
    return column == any_(_claimed_ids)


def _their_authors(column: ColumnElement[Any]) -> ColumnElement[bool]:
    return column.in_(select(items.c.author_id).where(_claimed(items.c.id)))


def _json_rows(query: Select) -> Any:
    """The query's rows as one JSON array of objects (column name: value), in its order."""
    rows = query.subquery()
    return (
        select(func.coalesce(func.json_agg(rows.table_valued()), literal_column("'[]'::json")))
        .select_from(rows)
        .scalar_subquery()
    )


_BUNDLE = select(
    _json_rows(select(items).where(_claimed(items.c.id))).label("items"),
    _json_rows(_authors_query(_their_authors)).label("authors"),
    _json_rows(accounts.named_by_query(_their_authors)).label("named"),
    _json_rows(_strikes_query(_their_authors)).label("strikes"),
    _json_rows(_recent_statement(True, _their_authors)).label("recent"),
    _json_rows(_media_query(_claimed)).label("media"),
    _json_rows(_history_query(_claimed)).label("history"),
    _json_rows(_appeals_query(_claimed)).label("appeals"),
    _json_rows(
        documents_query(lambda c: c.in_(select(items.c.post_id).where(_claimed(items.c.id))))
    ).label("statements"),
)


class JsonRow(dict[str, Any]):
    """A row read as JSON (``_BUNDLE``), by key or by attribute like SQLAlchemy's rows."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError as exc:
            raise AttributeError(name) from exc


@dataclass
class _Parts:
    """What whole items are made of, read for a set of items."""

    items: Sequence[Mapping[Any, Any]]
    authors: Iterable[Any] = ()
    named: Iterable[Any] | None = None  # None: account_links.linked_ids reads them itself
    strikes: Iterable[Any] = ()
    recent: Iterable[Any] = ()
    media: Iterable[Mapping[Any, Any]] = ()
    history: Iterable[Mapping[Any, Any]] = ()
    appeals: Sequence[Mapping[Any, Any]] | None = None  # None: item_appeals reads them
    statements: Iterable[Mapping[Any, Any]] | None = None  # None: read by statements.py


def _read_bundle(conn: Connection, item_ids: Sequence[str]) -> _Parts:
    found = conn.execute(_BUNDLE, {"item_ids": list(item_ids)}).one()

    def rows(name: str) -> list[JsonRow]:
        return [JsonRow(r) for r in getattr(found, name)]

    return _Parts(
        items=rows("items"),
        authors=rows("authors"),
        named=rows("named"),
        strikes=rows("strikes"),
        recent=rows("recent"),
        media=rows("media"),
        history=rows("history"),
        appeals=rows("appeals"),
        statements=rows("statements"),
    )


def _read_parts(conn: Connection, item_ids: Sequence[str]) -> _Parts:
    """The parts statement by statement (SQLite: in process, no round trips)."""
    rows = conn.execute(_ITEMS, {"ids": list(item_ids)}).mappings().all()
    if not rows:
        return _Parts(items=[])
    ids = {"ids": [r["id"] for r in rows]}
    author_ids = {"ids": list({r["author_id"] for r in rows})}
    return _Parts(
        items=rows,
        authors=conn.execute(_AUTHORS, author_ids).all(),
        strikes=conn.execute(_STRIKES, author_ids).all(),
        recent=conn.execute(_RECENT[conn.dialect.name == "postgresql"], author_ids).all(),
        media=conn.execute(_MEDIA, ids).mappings().all(),
        history=conn.execute(_HISTORY, ids).mappings().all(),
    )


def reviewer_names(conn: Connection, user_ids: set[int]) -> dict[int, str]:
    if not user_ids:
        return {}
    rows = conn.execute(_USER_NAMES, {"ids": list(user_ids)})
    return {r.id: r.username for r in rows}


def decisions_by_id(conn: Connection, decision_ids: set[int]) -> dict[int, Decision]:
    if not decision_ids:
        return {}
    rows = conn.execute(_DECISIONS, {"ids": list(decision_ids)}).mappings().all()
    names = reviewer_names(conn, {r["user_id"] for r in rows})
    return {r["id"]: decision_from_row(r, names.get(r["user_id"], "unknown")) for r in rows}


def reversal_leaves(conn: Connection, decision_id: int) -> str | None:
    """What overturning the decision would leave its author's account with, as
    ``statements.lift`` takes it (``account_stays``), read as ``reinstatement`` decides it
    but without locks (a preview): None, put back (or not acted on); "", it stays; else
    the status another standing decision imposes."""
    overturned = conn.execute(
        select(decisions.c.author_id, decisions.c.author_action, authors.c.status)
        .join(authors, authors.c.id == decisions.c.author_id)
        .where(decisions.c.id == decision_id)
    ).first()
    if overturned is None or overturned.author_action is None:
        return None
    left = accounts.strongest(
        accounts.standing(conn, str(overturned.author_id), leaving_out=decision_id)
    )
    if STATUS_RANK[left] >= STATUS_RANK[AuthorStatus(overturned.status)]:
        return ""
    return None if left is AuthorStatus.active else left.value


def item_appeals(
    conn: Connection, item_ids: Sequence[str], rows: Sequence[Mapping[Any, Any]] | None = None
) -> dict[str, dict[str, Any]]:
    """The newest appeal of each of these items that has one, as ``ItemAppeal`` JSON (see
    appeals.py): the user's statement and the decision it contests (``rows``: those
    appeals, already read)."""
    if not item_ids:
        return {}
    if rows is None:
        rows = conn.execute(_APPEALS, {"ids": list(item_ids)}).mappings().all()
    if not rows:
        return {}
    contested = decisions_by_id(conn, {int(r["decision_id"]) for r in rows})
    return {
        r["item_id"]: {
            "id": r["external_id"],
            "statement": r["statement"],
            "submitted_at": iso(r["submitted_at"]),
            "received_at": iso(r["received_at"]),
            "subject": r["subject"],
            "contested": contested[int(r["decision_id"])].model_dump(mode="json"),
            "outcome": r["outcome"],
            "outcome_decision_id": r["outcome_decision_id"],
            # for the preview of a reversal: an appeal decided already has no more
            "account_stays": (
                reversal_leaves(conn, int(r["decision_id"])) if r["outcome"] is None else None
            ),
        }
        for r in rows
        if int(r["decision_id"]) in contested
    }


def _author_parts(conn: Connection, parts: _Parts) -> dict[str, dict[str, Any]]:
    result: dict[str, dict[str, Any]] = {}
    subjects: dict[str, tuple[str, str | None]] = {}
    for row in parts.authors:
        payload = orjson.loads(row.payload)
        payload["strikes"] = []
        payload["recent_decisions"] = []
        payload["status"] = row.status
        result[row.id] = payload
        subjects[row.id] = (row.handle, row.source)
    for author_id, linked in account_links.linked_for_items(conn, subjects, parts.named).items():
        result[author_id]["linked"] = linked
    # the most recent policies first (by their newest strike), at most STRIKES_IN_ITEM
    newest_first = sorted(parts.strikes, key=lambda r: (r.author_id, -r.last_at, r.policy))
    for row in newest_first:
        kept = result[row.author_id]["strikes"] if row.author_id in result else None
        if kept is not None and len(kept) < STRIKES_IN_ITEM:
            kept.append({"policy": row.policy, "count": row.n, "last_at": iso(row.last_at)})
    for recent in parts.recent:
        if recent.author_id in result:
            result[recent.author_id]["recent_decisions"].append(
                {
                    "item_id": recent.item_id,
                    "action": recent.action,
                    "policies": orjson.loads(recent.policies),
                    "decided_at": iso(recent.decided_at),
                }
            )
    return result


def load_items(conn: Connection, item_ids: Sequence[str]) -> dict[str, Item]:
    """Whole items by id (ids that do not exist are left out)."""
    return {k: Item.model_validate(v) for k, v in item_documents(conn, item_ids).items()}


def item_documents(conn: Connection, item_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Whole items by id as JSON-ready dicts in the shape of ``Item``.

    Every stored part was validated when it was enqueued, so the claim (the busiest
    route) sends these as they are instead of building models and dumping them again.
    """
    if not item_ids:
        return {}
    postgres = conn.dialect.name == "postgresql"
    parts = _read_bundle(conn, item_ids) if postgres else _read_parts(conn, item_ids)
    rows = parts.items
    if not rows:
        return {}
    ids = [r["id"] for r in rows]
    author_parts = _author_parts(conn, parts)

    media_by_item: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for m in parts.media:
        entry = dict(m)
        entry["sensitive"] = bool(entry["sensitive"])
        media_by_item[entry.pop("item_id")].append(entry)

    history_rows: dict[str, list[Any]] = defaultdict(list)
    for e in parts.history:
        history_rows[e["item_id"]].append(e)
    history = {item_id: event_documents(found) for item_id, found in history_rows.items()}

    decided = decisions_by_id(conn, {r["decision_id"] for r in rows if r["decision_id"]})
    appealed = item_appeals(conn, ids, parts.appeals)
    given = documents_for_posts(
        conn, {r["post_id"] for r in rows if r["post_id"]}, parts.statements
    )
    escalated = escalations.escalation_documents(
        conn, rows, labels=escalations.reason_labels(history)
    )

    result: dict[str, dict[str, Any]] = {}
    for r in rows:
        payload = orjson.loads(r["payload"])
        # seeded items have their media rows; intake items carry theirs in the payload
        # (uploads belong to a post, not to one item: see intake.py)
        payload["post"]["media"] = media_by_item.get(r["id"]) or payload["post"].get("media", [])
        decision = decided.get(r["decision_id"]) if r["decision_id"] else None
        result[r["id"]] = {
            **payload,
            "id": r["id"],
            "queue_id": r["queue_id"],
            "origin_queue_id": r["origin_queue_id"],
            "state": r["state"],
            "enqueued_at": iso(r["enqueued_at"]),
            "author": author_parts[r["author_id"]],
            "history": history.get(r["id"], [])[-HISTORY_IN_ITEM:],
            "decision": decision.model_dump(mode="json") if decision else None,
            "appeal": appealed.get(r["id"]),
            "escalation": escalated.get(r["id"]),
            "statements": given.get(r["post_id"], []) if r["post_id"] else [],
        }
    return result
