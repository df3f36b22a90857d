"""Linked accounts: the handles an author's account signals name (``author_links``), the
accounts linked to an author either way, and their summaries for leads."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import Connection, delete, func, insert, or_, select
from sqlalchemy.sql.expression import ColumnElement

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
    ids_param,
    named_by_query,
)
from reviewer_app.server.domain.records import to_dt
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import author_links, authors, held_posts, items

_OPEN_BY_QUEUE = (
    select(items.c.author_id, items.c.queue_id, func.count().label("n"))
    .where(items.c.author_id.in_(ids_param), items.c.state.in_(OPEN_STATES))
    .group_by(items.c.author_id, items.c.queue_id)
)
_NAMED_BY = named_by_query(lambda column: column.in_(ids_param))
_NAMING = select(author_links.c.author_id, author_links.c.handle, author_links.c.source).where(
    author_links.c.handle.in_(ids_param)
)
_HANDLES = select(authors.c.id, authors.c.handle).where(authors.c.id.in_(ids_param))
_SPACES = " \t\n\r\v\f"


def link_key(handle: str) -> str:
    """A handle as links name it and find it: without its leading spaces and ``@``s (any
    number, in any order) and its trailing spaces. The one normalisation of both ends of a
    link: the handles an author names (``link_rows``) and an account's own handle
    (``linked_ids``), so ``@@dup``, `` @pad`` and ``@ x`` are
    found from either end; a key of a key is itself."""
    return handle.lstrip(_SPACES + "@").rstrip(_SPACES)


#: what may stand before a handle's key as an account's handle is stored: ``link_key``
#: trims any run of spaces and ``@``s; a lookup by index covers the runs of up to three
_LEADS = tuple("".join(run) for n in range(4) for run in itertools.product(" @", repeat=n))


def _stored_forms(keys: Iterable[str]) -> list[str]:
    """The handles an account whose ``link_key`` is one of ``keys`` may be stored as: looked
    up by the handle's index (the key itself has none), each found one checked by its
    key again."""
    return sorted({lead + k + tail for k in keys if k for lead in _LEADS for tail in ("", " ")})


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
    keys = {link_key(h) for h in signals.get("shared_signal_accounts") or () if link_key(h)}
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


def linked_ids(
    conn: Connection,
    subjects: Mapping[str, tuple[str, str | None]],
    links: Iterable[Any] | None = None,
) -> dict[str, list[str]]:
    """The accounts linked to each author (author id -> (handle, source)): those they name
    and those that name them, on the same platform, themselves left out (``links``: the
    links the subjects make, ``named_by_query``, when already read).

    Both ways compare ``link_key`` of the account's handle with the keys links keep
    (``link_rows``), so a link is found from either end whatever the handle's spaces and
    ``@``s. The accounts a handle names are found by the handle's index, among the forms a
    key is stored as (``_stored_forms``)."""
    if not subjects:
        return {}
    ids = sorted(subjects)
    named: dict[str, set[str]] = defaultdict(set)  # author -> handle keys they name
    if links is None:
        links = conn.execute(_NAMED_BY, {"ids": ids})
    for link in links:
        named[link.author_id].add(link.handle)
    found: dict[str, set[str]] = defaultdict(set)
    own_keys: dict[str, list[str]] = defaultdict(list)  # handle key -> the subjects with it
    for author_id, (handle, _) in subjects.items():
        if link_key(handle):
            own_keys[link_key(handle)].append(author_id)
    for namer in conn.execute(_NAMING, {"ids": sorted(own_keys)}):
        for subject in own_keys.get(namer.handle, ()):
            if namer.author_id != subject and namer.source == subjects[subject][1]:
                found[subject].add(namer.author_id)
    wanted = {k for keys in named.values() for k in keys}
    if wanted:
        sources = {source for _, source in subjects.values()}
        on_platform: ColumnElement[bool] = authors.c.source.in_(
            sorted(s for s in sources if s is not None)
        )
        if None in sources:
            on_platform = or_(on_platform, authors.c.source.is_(None))
        by_key: dict[tuple[str, str | None], list[str]] = defaultdict(list)
        candidates = select(authors.c.id, authors.c.handle, authors.c.source).where(
            authors.c.handle.in_(_stored_forms(wanted)), on_platform
        )
        for author in conn.execute(candidates):
            by_key[(link_key(author.handle), author.source)].append(author.id)
        for subject, keys in named.items():
            source = subjects[subject][1]
            for k in keys:
                found[subject].update(a for a in by_key.get((k, source), ()) if a != subject)
    return {subject: sorted(found[subject]) for subject in ids if found.get(subject)}


def linked_selection(
    conn: Connection,
    subjects: Mapping[str, tuple[str, str | None]],
    links: Iterable[Any] | None = None,
) -> dict[str, tuple[list[str], int]]:
    """The linked accounts leads see and act on, for each author (author id -> (handle,
    source)): the first ``MAX_LINKED`` by handle then author id, and how many are linked
    in all. The Author tab (``linked_for_items``, ``GET /authors/{id}/linked``) and a bulk
    decision on the linked accounts (``open-items?linked=true``) take these, the same."""
    linked = linked_ids(conn, subjects, links)
    every = sorted({a for ids in linked.values() for a in ids})
    if not every:
        return {}
    handles: dict[str, str] = {r.id: r.handle for r in conn.execute(_HANDLES, {"ids": every})}
    return {
        subject: (
            sorted((a for a in ids if a in handles), key=lambda a: (handles[a], a))[:MAX_LINKED],
            len(ids),
        )
        for subject, ids in linked.items()
    }


def linked_for_items(
    conn: Connection,
    subjects: Mapping[str, tuple[str, str | None]],
    links: Iterable[Any] | None = None,
) -> dict[str, list[dict[str, Any]]]:
    """Each author's linked accounts as ``Author.linked`` documents (for whole items)."""
    selected = linked_selection(conn, subjects, links)
    if not selected:
        return {}
    found = summaries(conn, {a for ids, _ in selected.values() for a in ids})
    return {
        subject: [
            LinkedAccount(
                author_id=found[a].author_id,
                handle=found[a].handle,
                status=found[a].status,
                open_items=found[a].open_items,
                queue_ids=found[a].queue_ids,
            ).model_dump(mode="json")
            for a in ids
            if a in found
        ]
        for subject, (ids, _) in selected.items()
    }


def linked_accounts(conn: Connection, author_id: str) -> LinkedAccounts:
    """``GET /authors/{author_id}/linked`` (the protocol's reply has no count of the
    accounts past the first ``MAX_LINKED``, nor room for one: its fields are closed)."""
    row = conn.execute(
        select(authors.c.id, authors.c.handle, authors.c.source).where(authors.c.id == author_id)
    ).first()
    if row is None:
        raise ApiError(404, "unknown_author", f"No author {author_id!r}.")
    linked, _ = linked_selection(conn, {row.id: (row.handle, row.source)}).get(row.id, ([], 0))
    found = summaries(conn, [row.id, *linked])
    return LinkedAccounts(author=found[row.id], linked=[found[a] for a in linked if a in found])
