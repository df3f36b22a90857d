"""Lead search over items and their decisions: the index rows, kept by item writers, and
the queries.

Each item has one ``item_search`` row (its id orders results: newest indexed first; a
changed item's row keeps its id, so paging by it neither skips nor repeats a match) with
folded text for substring search (author: handle, platform id, display name; body: the
post's text) and ``item_search_keys`` for exact lookups (the post's platform id or URL, the
domains its links name, its report reasons).

Substring search means the same on both databases: the query and the stored text are
folded to lower case here, and a row matches when its text contains the query. On SQLite
an FTS5 trigram table answers: the rows holding the query's rarest trigrams, checked with
``instr`` (a phrase query reads every row of each trigram, and some, such as the ``use``
of every ``@user...`` handle, are in all rows), or the phrase when every trigram is
common; on PostgreSQL a ``LIKE '%query%'`` that pg_trgm's GIN indexes answer. Either reads
the matching rows newest first and stops at a page.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import orjson
from sqlalchemy import Connection, bindparam, delete, select, text, update

from reviewer_app.protocol import SearchHit, SearchKind, SearchPage
from reviewer_app.server.domain.assembly import reviewer_names
from reviewer_app.server.domain.records import encode_cursor, iso
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.bulk import InsertMany, any_of
from reviewer_app.server.storage.tables import (
    authors,
    decisions,
    item_search,
    item_search_keys,
    items,
)

MIN_SUBSTRING = 3
"""Substring queries (author, text) need three characters: a trigram index has nothing
to look up for fewer."""

EXCERPT = 200
_LINK = re.compile(r"https?://([^/\s?#<>\"']+)", re.IGNORECASE)
# the new ids matched to their rows by item (neither database promises RETURNING's order)
_INSERT_DOCS = InsertMany(
    item_search,
    ("item_id", "author", "body"),
    returning="id",
    ignore_conflicts=False,
    key="item_id",
)
_INSERT_KEYS = InsertMany(item_search_keys, ("kind", "value", "doc_id"))
_UPDATE_TEXT = (
    update(item_search)
    .where(item_search.c.id == bindparam("b_id"))
    .values(author=bindparam("b_author"), body=bindparam("b_body"))
)


def fold(value: str) -> str:
    """An exact key's case (a post's platform id, a report reason)."""
    return value.lower()


def fold_text(value: str) -> str:
    """Text searched for a part of it (names, a post's text), and the query: Unicode's case
    folding, so "οδοσ" finds "ΟΔΟΣ" (lower case gives "οδος", with the final sigma) and
    "strasse" finds "Straße", alike on both databases (migration 0025 folded the rows
    written before this way)."""
    return value.casefold()


def normal_domain(host: str) -> str | None:
    """A host as the index keeps it: lower case, no port, user or trailing dot, no ``www.``;
    None for what is not a domain (no dot, or too long)."""
    host = host.strip().lower().rsplit("@", 1)[-1]
    if host.startswith("["):  # an IPv6 literal
        return None
    host = host.split(":", 1)[0].rstrip(".")
    host = host.removeprefix("www.")
    if "." not in host or len(host) > 190 or not host:
        return None
    return host


def domain_keys(host: str) -> set[str]:
    """The domain and its parents of two labels or more (``a.b.example`` gives itself,
    ``b.example``): searching ``example.com`` finds links to ``news.example.com``."""
    found = normal_domain(host)
    if found is None:
        return set()
    labels = found.split(".")
    return {".".join(labels[i:]) for i in range(len(labels) - 1)}


def url_key(url: str) -> str:
    """A post URL as a key: lower case, no trailing slash, hashed (URLs run to 2,040)."""
    normal = url.strip().lower().rstrip("/")
    return "url:" + hashlib.sha256(normal.encode()).hexdigest()[:40]


def post_id_key(external_id: str) -> str | None:
    value = "id:" + fold(external_id.strip())
    return value if len(value) <= 200 else None


@dataclass(frozen=True)
class Doc:
    item_id: str
    author: str
    body: str
    keys: frozenset[tuple[str, str]]


def doc_for(item_id: str, payload: Mapping[str, Any], author: Any | None) -> Doc:
    """What an item is searched by (``author``: its authors row, or None)."""
    post = payload.get("post") or {}
    names: list[str] = []
    if author is not None:
        details = orjson.loads(author.payload)
        names = [
            author.handle or "",
            author.external_id or "",
            str(details.get("display_name") or ""),
            author.id,
        ]
    keys: set[tuple[str, str]] = set()
    if post.get("id") and (key := post_id_key(str(post["id"]))):
        keys.add(("post", key))
    if post.get("url"):
        keys.add(("post", url_key(str(post["url"]))))
    hosts = [m.group(1) for m in _LINK.finditer(str(post.get("text") or ""))]
    preview = post.get("link_preview") or {}
    if preview.get("domain"):
        hosts.append(str(preview["domain"]))
    if preview.get("url"):
        hosts.append(urlsplit(str(preview["url"])).netloc)
    for host in hosts:
        keys |= {("domain", d) for d in domain_keys(host)}
    for reason in (payload.get("reports") or {}).get("by_reason") or []:
        if reason.get("reason"):
            keys.add(("reason", fold(str(reason["reason"]))[:200]))
    return Doc(
        item_id=item_id,
        author=fold_text("\n".join(n for n in names if n)),
        body=fold_text(str(post.get("text") or "")),
        keys=frozenset(keys),
    )


def write_docs(conn: Connection, docs: Sequence[Doc], postgres: bool) -> None:
    """Insert the rows of items that have none (new items)."""
    if not docs:
        return
    ids = _INSERT_DOCS(
        conn,
        [{"item_id": d.item_id, "author": d.author, "body": d.body} for d in docs],
        postgres,
    )
    _INSERT_KEYS(
        conn,
        [
            {"kind": kind, "value": value, "doc_id": doc_id}
            for doc_id, d in zip(ids, docs, strict=True)
            for kind, value in sorted(d.keys)
        ],
        postgres,
    )


def add_new(
    conn: Connection, new: Mapping[str, tuple[Mapping[str, Any], str]], postgres: bool
) -> None:
    """Write the search rows of items opened in this transaction (item id -> its payload
    and author id): what ``refresh`` does for them, without reading back what the caller
    has just written (a new item has no rows to compare with)."""
    if not new:
        return
    found = _authors(conn, {author_id for _, author_id in new.values()}, postgres)
    write_docs(
        conn,
        [
            doc_for(item_id, payload, found.get(author_id))
            for item_id, (payload, author_id) in sorted(new.items())
        ],
        postgres,
    )


def _authors(conn: Connection, author_ids: Iterable[str], postgres: bool) -> dict[str, Any]:
    """The authors' rows that ``doc_for`` reads, by id."""
    return {
        a.id: a
        for a in conn.execute(
            select(authors.c.id, authors.c.handle, authors.c.external_id, authors.c.payload).where(
                any_of(authors.c.id, postgres)
            ),
            {"ids": sorted(author_ids)},
        )
    }


def refresh(conn: Connection, item_ids: Iterable[str], postgres: bool | None = None) -> None:
    """Write the search rows of these items as they are now (new or changed items). A row
    that changed is rewritten in place, keeping its id (the FTS5 table follows by trigger),
    so a lead paging through the hits by id neither skips nor repeats it; an unchanged one
    stays; an item without one gets a new row, newest."""
    ids = sorted(set(item_ids))
    if not ids:
        return
    if postgres is None:
        postgres = conn.dialect.name == "postgresql"
    rows = conn.execute(
        select(items.c.id, items.c.author_id, items.c.payload).where(any_of(items.c.id, postgres)),
        {"ids": ids},
    ).all()
    found = _authors(conn, {r.author_id for r in rows}, postgres)
    new = {r.id: doc_for(r.id, orjson.loads(r.payload), found.get(r.author_id)) for r in rows}
    old = {
        r.item_id: r
        for r in conn.execute(
            select(
                item_search.c.id, item_search.c.item_id, item_search.c.author, item_search.c.body
            ).where(any_of(item_search.c.item_id, postgres)),
            {"ids": ids},
        )
    }
    old_keys: dict[int, set[tuple[str, str]]] = {}
    if old:
        k = item_search_keys.c
        for r in conn.execute(
            select(k.doc_id, k.kind, k.value).where(any_of(k.doc_id, postgres)),
            {"ids": [r.id for r in old.values()]},
        ):
            old_keys.setdefault(r.doc_id, set()).add((r.kind, r.value))
    gone = [o.id for item_id, o in old.items() if item_id not in new]
    texts = [
        {"b_id": o.id, "b_author": d.author, "b_body": d.body}
        for item_id, o in old.items()
        if (d := new.get(item_id)) is not None and (o.author, o.body) != (d.author, d.body)
    ]
    rekeyed = {
        o.id: d
        for item_id, o in old.items()
        if (d := new.get(item_id)) is not None and old_keys.get(o.id, set()) != d.keys
    }
    if gone or rekeyed:
        conn.execute(
            delete(item_search_keys).where(any_of(item_search_keys.c.doc_id, postgres)),
            {"ids": sorted({*gone, *rekeyed})},
        )
    if gone:
        conn.execute(delete(item_search).where(any_of(item_search.c.id, postgres)), {"ids": gone})
    if texts:
        conn.execute(_UPDATE_TEXT, texts)
    _INSERT_KEYS(
        conn,
        [
            {"kind": kind, "value": value, "doc_id": doc_id}
            for doc_id, d in sorted(rekeyed.items())
            for kind, value in sorted(d.keys)
        ],
        postgres,
    )
    write_docs(conn, [d for item_id, d in new.items() if item_id not in old], postgres)


# -- queries ------------------------------------------------------------------------------------


def _problem(detail: str) -> ApiError:
    return ApiError(422, "invalid_search", detail)


_NO_CURSOR = 2**62
PROBE = 500
"""Rows read to sample a trigram's frequency (its newest rows, by rowid)."""
RARE_TERMS = 3
COMMON = 0.05
"""A trigram in more than this share of rows is not worth reading when rarer ones are."""
_PG_SUBSTRING = {
    column: text(
        f"SELECT id FROM item_search WHERE {column} LIKE :pattern ESCAPE '\\' "  # noqa: S608
        "AND id < :after ORDER BY id DESC LIMIT :limit"
    )
    for column in ("author", "body")
}
# a phrase of trigrams in one column: the rows whose text holds the query
_FTS_PHRASE = text(
    "SELECT rowid FROM item_search_fts WHERE item_search_fts MATCH :match "
    "AND rowid < :after ORDER BY rowid DESC LIMIT :limit"
)
# the rows holding each of the rare trigrams (a superset), kept when their text holds the query
_FTS_RARE = {
    column: text(
        "SELECT f.rowid FROM item_search_fts f JOIN item_search s ON s.id = f.rowid "  # noqa: S608
        "WHERE item_search_fts MATCH :match AND f.rowid < :after "
        f"AND instr(s.{column}, :query) > 0 ORDER BY f.rowid DESC LIMIT :limit"
    )
    for column in ("author", "body")
}
_FTS_PROBE = text(
    "SELECT count(*), min(rowid) FROM (SELECT rowid FROM item_search_fts "
    "WHERE item_search_fts MATCH :match ORDER BY rowid DESC LIMIT :probe)"
)


def _quoted(value: str) -> str:
    return '"' + value.replace('"', '""') + '"'


def _rare_trigrams(conn: Connection, column: str, query: str) -> list[str]:
    """The query's rarest trigrams in this column (at most ``RARE_TERMS``) when some of its
    trigrams are in more than ``COMMON`` of the rows and some in fewer; none otherwise (the
    phrase is as quick) or when the query has one trigram.

    An FTS5 phrase reads every row of each of its trigrams: for ``@user001234`` among
    100,000 handles, all of ``@us``, ``use`` and ``ser`` (a million rows each). A trigram's
    share is sampled from its newest ``PROBE`` rows: how many there are over the span of
    rowids they cover.
    """
    grams = list(dict.fromkeys(query[i : i + 3] for i in range(len(query) - 2)))
    if len(grams) < 2:
        return []
    newest = conn.execute(text("SELECT max(id) FROM item_search")).scalar() or 0
    shares = []
    for gram in grams:
        match = f"{column} : {_quoted(gram)}"
        count, oldest = conn.execute(_FTS_PROBE, {"match": match, "probe": PROBE}).one()
        if count == 0:
            return [gram]  # no row holds it: neither the query
        share = count / (newest - oldest + 1) if count == PROBE else count / max(newest, 1)
        shares.append((share, gram))
    shares.sort()
    if shares[0][0] > COMMON or shares[-1][0] <= COMMON:
        return []  # all common (many rows hold the query), or none (the phrase reads few)
    return [gram for share, gram in shares[:RARE_TERMS] if share <= COMMON]


def _substring_ids(
    conn: Connection, column: str, query: str, after: int | None, limit: int, postgres: bool
) -> list[int]:
    """The rows whose folded text in ``column`` holds ``query``, newest first.

    PostgreSQL: ``LIKE '%query%'``, pg_trgm's GIN index choosing the rows. SQLite: when
    some of the query's trigrams are rare, the rows holding all of those (an FTS5 AND,
    each term's rows read by rowid) are checked with ``instr``: a row holding the query
    holds each of its trigrams, so none is lost, and ``instr`` keeps just those holding
    the query (what the phrase matched). When every trigram is common the phrase itself
    answers: its rows are many, and the newest page comes early.
    """
    params: dict[str, Any] = {"after": _NO_CURSOR if after is None else after, "limit": limit}
    if postgres:
        escaped = query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        params["pattern"] = f"%{escaped}%"
        return [int(r[0]) for r in conn.execute(_PG_SUBSTRING[column], params)]
    rare = _rare_trigrams(conn, column, query)
    if not rare:
        params["match"] = f"{column} : {_quoted(query)}"
        return [int(r[0]) for r in conn.execute(_FTS_PHRASE, params)]
    params["match"] = f"{column} : (" + " AND ".join(_quoted(g) for g in rare) + ")"
    params["query"] = query
    return [int(r[0]) for r in conn.execute(_FTS_RARE[column], params)]


def _key_ids(
    conn: Connection, kind: str, values: Sequence[str], after: int | None, limit: int
) -> list[int]:
    k = item_search_keys.c
    query = select(k.doc_id).where(k.kind == kind, k.value.in_(values))
    if after is not None:
        query = query.where(k.doc_id < after)
    return [int(r) for r in conn.execute(query.order_by(k.doc_id.desc()).limit(limit)).scalars()]


def matching_ids(
    conn: Connection, kind: SearchKind, q: str, after: int | None, limit: int, postgres: bool
) -> list[int]:
    """The ids of the search rows matching, newest first, after the keyset ``after``."""
    query = q.strip()
    if not query:
        raise _problem("Type something to search for.")
    if kind in (SearchKind.author, SearchKind.text):
        folded = fold_text(query)
        if len(folded) < MIN_SUBSTRING:
            raise _problem(f"Search for at least {MIN_SUBSTRING} characters.")
        column = "author" if kind is SearchKind.author else "body"
        return _substring_ids(conn, column, folded, after, limit, postgres)
    if kind is SearchKind.post:
        if query.lower().startswith(("http://", "https://")):
            values = [url_key(query)]
        else:
            key = post_id_key(query)
            if key is None:
                raise _problem("A post's platform id is at most 197 characters.")
            values = [key]
        return _key_ids(conn, "post", values, after, limit)
    if kind is SearchKind.domain:
        host = urlsplit(query).netloc if "://" in query else query.split("/", 1)[0]
        domain = normal_domain(host)
        if domain is None:
            raise _problem("Give a domain such as example.com.")
        return _key_ids(conn, "domain", [domain], after, limit)
    return _key_ids(conn, "reason", [fold(query)[:200]], after, limit)


def search(
    conn: Connection, kind: SearchKind, q: str, after: int | None, limit: int, postgres: bool
) -> SearchPage:
    """A page of the items matching, newest indexed first, each with its decision."""
    found = matching_ids(conn, kind, q, after, limit + 1, postgres)
    more = len(found) > limit
    found = found[:limit]
    if not found:
        return SearchPage(hits=[], next_cursor=None)
    d = decisions.c
    rows = conn.execute(
        select(
            item_search.c.id.label("doc_id"),
            items.c.id,
            items.c.queue_id,
            items.c.state,
            items.c.enqueued_at,
            items.c.payload,
            authors.c.handle,
            authors.c.external_id.label("author_external_id"),
            authors.c.payload.label("author_payload"),
            items.c.author_id,
            d.id.label("decision_id"),
            d.action,
            d.user_id,
            d.decided_at,
        )
        .join(items, items.c.id == item_search.c.item_id)
        .outerjoin(authors, authors.c.id == items.c.author_id)
        .outerjoin(decisions, d.id == items.c.decision_id)
        .where(any_of(item_search.c.id, postgres))
        .order_by(item_search.c.id.desc()),
        {"ids": found},
    ).all()
    names = reviewer_names(conn, {r.user_id for r in rows if r.user_id is not None})
    hits = []
    for r in rows:
        post = orjson.loads(r.payload).get("post") or {}
        author = orjson.loads(r.author_payload) if r.author_payload else {}
        hits.append(
            SearchHit(
                item_id=r.id,
                queue_id=r.queue_id,
                state=r.state,
                enqueued_at=iso(r.enqueued_at),
                post_id=str(post.get("id") or "")[:200],
                post_url=post.get("url"),
                excerpt=str(post.get("text") or "")[:EXCERPT],
                author_id=str(r.author_external_id or r.author_id)[:200],
                author_handle=str(r.handle or "")[:200],
                author_name=str(author.get("display_name") or "")[:200],
                decision_id=r.decision_id,
                action=r.action,
                reviewer=names.get(r.user_id) if r.user_id is not None else None,
                decided_at=iso(r.decided_at) if r.decided_at is not None else None,
            )
        )
    return SearchPage(hits=hits, next_cursor=encode_cursor(found[-1]) if more else None)


__all__ = ["Doc", "doc_for", "matching_ids", "refresh", "search", "write_docs"]
