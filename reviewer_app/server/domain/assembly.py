"""Whole items: the stored post and context joined with author history, media and events."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import BindParameter, Connection, bindparam, func, select, true
from sqlalchemy.sql.expression import Join, Select

from reviewer_app.protocol import Decision, Item
from reviewer_app.server.domain import accounts, escalations
from reviewer_app.server.domain.records import decision_from_row, event_documents, iso
from reviewer_app.server.domain.statements import documents_for_posts
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

# Statements are built once: building a SQLAlchemy statement costs several times more
# than running a prepared one, and these run for every claim.
_ids: BindParameter[Any] = bindparam("ids", expanding=True)
_USER_NAMES = select(users.c.id, users.c.username).where(users.c.id.in_(_ids))
_DECISIONS = select(decisions).where(decisions.c.id.in_(_ids))
_AUTHORS = select(
    authors.c.id, authors.c.handle, authors.c.source, authors.c.status, authors.c.payload
).where(authors.c.id.in_(_ids))
_STRIKES = (
    select(
        strikes.c.author_id,
        strikes.c.policy,
        func.count().label("n"),
        func.max(strikes.c.at).label("last_at"),
    )
    .where(strikes.c.author_id.in_(_ids))
    .group_by(strikes.c.author_id, strikes.c.policy)
    .order_by(strikes.c.author_id, strikes.c.policy)
)
# Each author's newest decisions by a lookup per author (ix_decisions_author), LIMIT 5
# each: ranking every decision of the authors costs in proportion to their whole history.
# PostgreSQL runs the lookup per author as a LATERAL subquery; SQLite (no LATERAL) as a
# correlated IN list, which on PostgreSQL would be a filter run for every decision row.
_RECENT_COLUMNS = ("item_id", "action", "policies", "decided_at")


def _recent_statement(postgres: bool) -> Select:
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
        .where(authors.c.id.in_(_ids))
        .order_by(decisions.c.author_id, decisions.c.id.desc())
    )


_RECENT = {pg: _recent_statement(pg) for pg in (False, True)}
_ITEMS = select(items).where(items.c.id.in_(_ids))
_MEDIA = (
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
    .where(media.c.item_id.in_(_ids))
    .order_by(media.c.item_id, media.c.position)
)
# in log order: the sealed entries by seq, then those not sealed yet (a decision just made)
_HISTORY = (
    select(events)
    .where(events.c.item_id.in_(_ids))
    .order_by(events.c.seq.is_(None), events.c.seq, events.c.id)
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


def item_appeals(conn: Connection, item_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The newest appeal of each of these items that has one, as ``ItemAppeal`` JSON (see
    appeals.py): the user's statement and the decision it contests."""
    if not item_ids:
        return {}
    newest = (
        select(func.max(appeals.c.id))
        .where(appeals.c.item_id.in_(list(item_ids)))
        .group_by(appeals.c.item_id)
    )
    rows = list(conn.execute(select(appeals).where(appeals.c.id.in_(newest))).mappings())
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
        }
        for r in rows
        if int(r["decision_id"]) in contested
    }


def _author_parts(conn: Connection, author_ids: set[str]) -> dict[str, dict[str, Any]]:
    ids = {"ids": list(author_ids)}
    result: dict[str, dict[str, Any]] = {}
    subjects: dict[str, tuple[str, str | None]] = {}
    for row in conn.execute(_AUTHORS, ids):
        payload = json.loads(row.payload)
        payload["strikes"] = []
        payload["recent_decisions"] = []
        payload["status"] = row.status
        result[row.id] = payload
        subjects[row.id] = (row.handle, row.source)
    for author_id, linked in accounts.linked_for_items(conn, subjects).items():
        result[author_id]["linked"] = linked
    for row in conn.execute(_STRIKES, ids):
        if row.author_id in result:
            result[row.author_id]["strikes"].append(
                {"policy": row.policy, "count": row.n, "last_at": iso(row.last_at)}
            )
    for recent in conn.execute(_RECENT[conn.dialect.name == "postgresql"], ids):
        if recent.author_id in result:
            result[recent.author_id]["recent_decisions"].append(
                {
                    "item_id": recent.item_id,
                    "action": recent.action,
                    "policies": json.loads(recent.policies),
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
    rows = conn.execute(_ITEMS, {"ids": list(item_ids)}).mappings().all()
    if not rows:
        return {}
    ids = [r["id"] for r in rows]
    author_parts = _author_parts(conn, {r["author_id"] for r in rows})

    media_by_item: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for m in conn.execute(_MEDIA, {"ids": ids}).mappings():
        entry = dict(m)
        entry["sensitive"] = bool(entry["sensitive"])
        media_by_item[entry.pop("item_id")].append(entry)

    history_rows: dict[str, list[Any]] = defaultdict(list)
    for e in conn.execute(_HISTORY, {"ids": ids}).mappings():
        history_rows[e["item_id"]].append(e)
    history = {item_id: event_documents(found) for item_id, found in history_rows.items()}

    decided = decisions_by_id(conn, {r["decision_id"] for r in rows if r["decision_id"]})
    appealed = item_appeals(conn, ids)
    given = documents_for_posts(conn, {r["post_id"] for r in rows if r["post_id"]})
    escalated = escalations.escalation_documents(
        conn, rows, labels=escalations.reason_labels(history)
    )

    result: dict[str, dict[str, Any]] = {}
    for r in rows:
        payload = json.loads(r["payload"])
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
