"""Linked accounts: the handles an author's account signals name (``author_links``), the
accounts linked to an author either way, and their summaries for leads."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select

from reviewer_app.protocol.accounts import (
    MAX_LINKED,
    AccountSummary,
    AuthorStatus,
    LinkedAccount,
    LinkedAccounts,
)
from reviewer_app.server.domain.accounts import (
    MAX_QUEUES_SHOWN,
    OPEN_STATES,
    handle_key,
    ids_param,
    linked_ids,
)
from reviewer_app.server.domain.records import to_dt
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import author_links, authors, held_posts, items

_OPEN_BY_QUEUE = (
    select(items.c.author_id, items.c.queue_id, func.count().label("n"))
    .where(items.c.author_id.in_(ids_param), items.c.state.in_(OPEN_STATES))
    .group_by(items.c.author_id, items.c.queue_id)
)
_SUMMARY_COLUMNS = (
    authors.c.id,
    authors.c.handle,
    authors.c.source,
    authors.c.status,
    authors.c.status_at,
    authors.c.payload,
)


def link_rows(
    author_id: str, source: str | None, payload: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """The ``author_links`` rows of an author document (its account signals' handles)."""
    signals = payload.get("signals") or {}
    keys = {handle_key(h) for h in signals.get("shared_signal_accounts") or () if handle_key(h)}
    return [{"author_id": author_id, "handle": k[:200], "source": source} for k in sorted(keys)]


def replace_links(
    conn: Connection, documents: Mapping[str, tuple[str | None, Mapping[str, Any]]]
) -> None:
    """Make ``author_links`` say what these authors' documents (author id -> (source,
    document)) name now."""
    if not documents:
        return
    conn.execute(delete(author_links).where(author_links.c.author_id.in_(sorted(documents))))
    rows = [
        row
        for author_id, (source, doc) in sorted(documents.items())
        for row in link_rows(author_id, source, doc)
    ]
    if rows:
        conn.execute(insert(author_links), rows)


def summaries(conn: Connection, author_ids: Iterable[str]) -> dict[str, AccountSummary]:
    """Accounts as a lead sees them: status, open items and their queues, held-back posts."""
    ids = sorted(set(author_ids))
    if not ids:
        return {}
    open_items: dict[str, dict[str, int]] = defaultdict(dict)
    for r in conn.execute(_OPEN_BY_QUEUE, {"ids": ids}):
        open_items[r.author_id][r.queue_id] = r.n
    held: dict[str, int] = dict(
        conn.execute(
            select(held_posts.c.author_id, func.count())
            .where(held_posts.c.author_id.in_(ids))
            .group_by(held_posts.c.author_id)
        ).all()
    )
    found = {}
    for r in conn.execute(select(*_SUMMARY_COLUMNS).where(authors.c.id.in_(ids))):
        per_queue = open_items.get(r.id, {})
        found[r.id] = AccountSummary(
            author_id=r.id,
            handle=r.handle,
            display_name=str(json.loads(r.payload).get("display_name") or "")[:200],
            status=AuthorStatus(r.status),
            status_changed_at=to_dt(r.status_at) if r.status_at is not None else None,
            open_items=sum(per_queue.values()),
            queue_ids=sorted(per_queue)[:MAX_QUEUES_SHOWN],
            held_posts=held.get(r.id, 0),
        )
    return found


def linked_for_items(
    conn: Connection,
    subjects: Mapping[str, tuple[str, str | None]],
    links: Iterable[Any] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Each author's linked accounts as ``Author.linked`` documents (for whole items)."""
    linked = linked_ids(conn, subjects, links)
    if not linked:
        return {}
    found = summaries(conn, {a for ids in linked.values() for a in ids})
    result: dict[str, list[dict[str, Any]]] = {}
    for subject, ids in linked.items():
        accounts = sorted(
            (found[a] for a in ids if a in found), key=lambda s: (s.handle, s.author_id)
        )
        result[subject] = [
            LinkedAccount(
                author_id=s.author_id,
                handle=s.handle,
                status=s.status,
                open_items=s.open_items,
                queue_ids=s.queue_ids,
            ).model_dump(mode="json")
            for s in accounts[:MAX_LINKED]
        ]
    return result


def linked_accounts(conn: Connection, author_id: str) -> LinkedAccounts:
    """``GET /authors/{author_id}/linked``."""
    row = conn.execute(
        select(authors.c.id, authors.c.handle, authors.c.source).where(authors.c.id == author_id)
    ).first()
    if row is None:
        raise ApiError(404, "unknown_author", f"No author {author_id!r}.")
    linked = linked_ids(conn, {row.id: (row.handle, row.source)}).get(row.id, [])
    found = summaries(conn, [row.id, *linked])
    accounts = sorted(
        (found[a] for a in linked if a in found), key=lambda s: (s.handle, s.author_id)
    )
    return LinkedAccounts(author=found[row.id], linked=accounts[:MAX_LINKED])
