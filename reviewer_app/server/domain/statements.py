"""Statements of reasons: stored with the enforcement action of every restrictive decision.

``enforcement.derive`` and ``enforcement.account_action`` call ``record`` in the decision's
own transaction, so a statement exists exactly when its restrictive decision does. The
words come from ``protocol.statements.draft_statement`` (the client previews the same);
this module stores them and reads them back:

- ``record(conn, drafts)`` -> the stored ``Statement`` of each draft, ids given
  (``record_documents``: the same as JSON-ready dicts, what an action's payload carries);
- ``for_item(conn, item_id)`` -> an item's statements, oldest first (its history);
- ``rows_between(conn, since, until)`` -> the stored rows decided in [since, until), in
  id order, read in chunks (``server sor export``, sor_export.py).

A statement's id is its row id; its ``puid`` (its unique id in the DSA Transparency
Database) is ``PUID_PREFIX`` and the id. The payload stores the statement without its id,
puid and decision id, which the row holds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, bindparam, insert, select
from sqlalchemy.sql.expression import ColumnElement, Select

from reviewer_app.protocol import Statement
from reviewer_app.protocol.items import MAX_ITEM_STATEMENTS
from reviewer_app.server.domain.records import dumps
from reviewer_app.server.storage.bulk import InsertMany
from reviewer_app.server.storage.tables import statements

PUID_PREFIX = "review-desk-sor-"
_S = statements.c
_CHUNK = 1_000
_COLUMNS = (
    "created_at",
    "decision_id",
    "item_id",
    "post_id",
    "author_id",
    "source",
    "queue_id",
    "content_date",
    "context",
    "payload",
)
# One statement per batch: the ids matched back by decision id (unique, an index says so).
_INSERT_BY_DECISION = InsertMany(
    statements, _COLUMNS, returning="id", ignore_conflicts=False, key="decision_id"
)
_INSERT_ORDERED = insert(statements).returning(_S.id, sort_by_parameter_order=True)


@dataclass(frozen=True)
class Draft:
    """A statement to store, and what it is about."""

    statement: Statement  # draft_statement's (no id yet)
    created_at: float
    decision_id: int | None
    item_id: str | None
    post_id: str | None
    author_id: str | None
    source: str | None
    queue_id: str | None
    content_date: float | None
    context: Mapping[str, Any] | None = None  # ``context_of`` the item


@dataclass(frozen=True)
class Stored:
    """A stored statement and what it was about (to restate it: an upheld appeal)."""

    statement: Statement
    row: Mapping[Any, Any]

    def draft(self, statement: Statement, decision_id: int, created_at: float) -> Draft:
        """``statement`` about the same post and author, for decision ``decision_id``."""
        row = self.row
        return Draft(
            statement=statement,
            created_at=created_at,
            decision_id=decision_id,
            item_id=row["item_id"],
            post_id=row["post_id"],
            author_id=row["author_id"],
            source=row["source"],
            queue_id=row["queue_id"],
            content_date=row["content_date"],
            context=json.loads(row["context"] or "{}"),
        )


def by_decision(conn: Connection, decision_ids: set[int]) -> dict[int, Stored]:
    """The statements the decisions gave, by decision id (decisions without one left out)."""
    if not decision_ids:
        return {}
    rows = (
        conn.execute(select(statements).where(_S.decision_id.in_(sorted(decision_ids))))
        .mappings()
        .all()
    )
    return {int(r["decision_id"]): Stored(from_row(r), r) for r in rows}


def document_of(item_payload: str | Mapping[str, Any] | None) -> Mapping[str, Any]:
    """An item's document, parsed when it is still its stored text (parse it once and pass
    the document when several of the functions below need it)."""
    if item_payload is None:
        return {}
    return json.loads(item_payload) if isinstance(item_payload, str) else item_payload


def context_of(item_payload: str | Mapping[str, Any] | None) -> dict[str, Any]:
    """What the export needs of the item: its post's content types (text, image, video),
    its language, and whether user reports (notices) put it up for review."""
    document = document_of(item_payload)
    post = document.get("post") or {}
    kinds = ["text"] if post.get("text") else []
    for media in post.get("media") or ():
        kind = media.get("kind") if isinstance(media, Mapping) else None
        kind = "image" if kind == "gif" else kind
        if kind in ("image", "video") and kind not in kinds:
            kinds.append(kind)
    reasons = [r.get("kind") for r in document.get("reasons") or () if isinstance(r, Mapping)]
    reports = document.get("reports")
    reported = isinstance(reports, Mapping) and _number(reports.get("total")) > 0
    return {
        "content_types": kinds,
        "language": post.get("language") if isinstance(post.get("language"), str) else None,
        # whatever came first: the reasons name what routed the item, not all it had
        "notice": "user_reports" in reasons or reported,
    }


def automated_detection(item_payload: str | Mapping[str, Any] | None) -> bool:
    """Whether automated means flagged the item: a queue reason of kind ``classifier``, or
    any classifier score at or over its threshold (it arrived after reports had routed the
    item: the answer depended on which came first)."""
    document = document_of(item_payload)
    if any(
        isinstance(r, Mapping) and r.get("kind") == "classifier"
        for r in document.get("reasons") or ()
    ):
        return True
    return any(
        isinstance(s, Mapping) and _number(s.get("score")) >= _number(s.get("threshold"), 2.0)
        for s in document.get("scores") or ()
    )


def _number(value: Any, otherwise: float = 0.0) -> float:
    return (
        float(value)
        if isinstance(value, int | float) and not isinstance(value, bool)
        else otherwise
    )


def content_date(item_payload: str | Mapping[str, Any] | None) -> float | None:
    """When the item's post was made (None: no item or no date)."""
    made = (document_of(item_payload).get("post") or {}).get("created_at")
    if not isinstance(made, str):
        return None
    try:
        return datetime.fromisoformat(made.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def puid_of(statement_id: int) -> str:
    return f"{PUID_PREFIX}{statement_id}"


def _insert(conn: Connection, drafts: Sequence[Draft]) -> list[int]:
    """Store the drafts; their ids, in order. A statement several drafts share (a bulk
    decision's, drafted once) is encoded once."""
    payloads: dict[int, str] = {}
    rows = []
    for d in drafts:
        payload = payloads.get(id(d.statement))
        if payload is None:
            document = d.statement.model_dump(mode="json", exclude={"id", "puid"})
            payload = payloads[id(d.statement)] = dumps(document)
        rows.append(
            {
                "created_at": d.created_at,
                "decision_id": d.decision_id,
                "item_id": d.item_id,
                "post_id": d.post_id,
                "author_id": d.author_id,
                "source": d.source,
                "queue_id": d.queue_id,
                "content_date": d.content_date,
                "context": dumps(d.context or {}),
                "payload": payload,
            }
        )
    if all(d.decision_id is not None for d in drafts):
        ids = _INSERT_BY_DECISION(conn, rows, conn.dialect.name == "postgresql")
    else:  # a statement of no decision (an account action outside any queue)
        ids = list(conn.execute(_INSERT_ORDERED, rows).scalars())
    return [int(i) for i in ids]


def record(conn: Connection, drafts: Sequence[Draft]) -> list[Statement]:
    """Store the drafts (in this transaction); their statements with id and puid, in order."""
    if not drafts:
        return []
    return [
        d.statement.model_copy(update={"id": i, "puid": puid_of(i), "decision_id": d.decision_id})
        for d, i in zip(drafts, _insert(conn, drafts), strict=True)
    ]


def record_documents(conn: Connection, drafts: Sequence[Draft]) -> list[dict[str, Any]]:
    """``record``, each statement as ``model_dump(mode="json")`` gives it (an action's
    payload carries it): a statement several drafts share is dumped once."""
    if not drafts:
        return []
    dumped: dict[int, dict[str, Any]] = {}
    found = []
    for d, i in zip(drafts, _insert(conn, drafts), strict=True):
        document = dumped.get(id(d.statement))
        if document is None:
            document = dumped[id(d.statement)] = d.statement.model_dump(mode="json")
        found.append({**document, "id": i, "puid": puid_of(i), "decision_id": d.decision_id})
    return found


def from_row(row: Mapping[Any, Any]) -> Statement:
    """A stored row as its ``Statement`` (validated: it is read back from storage)."""
    document = json.loads(row["payload"])
    document.update(id=row["id"], puid=puid_of(row["id"]), decision_id=row["decision_id"])
    return Statement.model_validate(document)


def for_item(conn: Connection, item_id: str) -> list[Statement]:
    """The item's statements, oldest first."""
    rows = (
        conn.execute(
            select(_S.id, _S.decision_id, _S.payload)
            .where(_S.item_id == item_id)
            .order_by(_S.id)
            .limit(200)
        )
        .mappings()
        .all()
    )
    return [from_row(r) for r in rows]


def documents_query(among: Callable[[Any], ColumnElement[bool]]) -> Select:
    """The statements given on the posts ``among`` picks, by post and in id order."""
    return (
        select(_S.id, _S.post_id, _S.decision_id, _S.payload)
        .where(among(_S.post_id))
        .order_by(_S.post_id, _S.id)
    )


_DOCUMENTS = documents_query(lambda column: column.in_(bindparam("ids", expanding=True)))


def documents_for_posts(
    conn: Connection, post_ids: set[str], rows: Iterable[Mapping[Any, Any]] | None = None
) -> dict[str, list[dict[str, Any]]]:
    """The statements given on each post, oldest first (the newest ``MAX_ITEM_STATEMENTS``),
    as JSON-ready dicts in the shape of ``Statement`` (an item's ``statements``; stored
    statements were validated when they were made). ``rows``: ``documents_query``'s for
    these posts, already read."""
    if not post_ids:
        return {}
    found: dict[str, list[dict[str, Any]]] = {}
    if rows is None:
        rows = conn.execute(_DOCUMENTS, {"ids": sorted(post_ids)}).mappings().all()
    for row in rows:
        document = json.loads(row["payload"])
        document.update(id=row["id"], puid=puid_of(row["id"]), decision_id=row["decision_id"])
        found.setdefault(row["post_id"], []).append(document)
    return {p: docs[-MAX_ITEM_STATEMENTS:] for p, docs in found.items()}


def rows_between(conn: Connection, since: float, until: float) -> Iterator[Mapping[Any, Any]]:
    """The statements decided in [since, until), in id order, ``_CHUNK`` rows at a time
    (keyset paging: memory stays flat however many there are). ``created_at`` is taken at
    the decision's transaction start, so one may still commit into a window that ends
    now: ``sor export`` ends its windows a margin before now."""
    after = 0
    while True:
        chunk = (
            conn.execute(
                select(statements)
                .where(_S.created_at >= since, _S.created_at < until, _S.id > after)
                .order_by(_S.id)
                .limit(_CHUNK)
            )
            .mappings()
            .all()
        )
        yield from chunk
        if len(chunk) < _CHUNK:
            return
        after = chunk[-1]["id"]
