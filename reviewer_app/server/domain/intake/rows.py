"""The intake's shared pieces: ids derived from the platform's ids, the write helpers, and
the set-based statements every kind of intake runs (one statement per batch, not per row)."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

import orjson
from sqlalchemy import BindParameter, Connection, bindparam, insert, select, text, union, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.expression import Select

from reviewer_app.server.storage.bulk import InsertMany, UpdateMany, any_of
from reviewer_app.server.storage.tables import (
    authors,
    decisions,
    fact_check_ratings,
    fact_check_targets,
    items,
    leases,
    media,
    post_media,
    posts,
    server_secrets,
    signals,
    strikes,
    users,
)

T = TypeVar("T")
R = TypeVar("R")
LIVE = "live"
OPEN_STATES = ("pending", "leased")
OPEN_ITEM = "items.state IN ('pending', 'leased')"
REPORTER_SECRET = "reporter_hmac_key"  # noqa: S105 - the secret's name, not a secret
MAX_RESULT_IDS = 8  # IntakeResult.item_ids / queue_ids
SQLITE_PART = 50
"""Elements of a batch per write transaction on SQLite while claims are served (see
IntakeDesk._parts), and how recent a claim must be for that."""
CLAIMS_WITHIN_SECONDS = 5.0
AUTHOR_FIELDS = (
    "handle",
    "display_name",
    "account_created_at",
    "followers",
    "following",
    "verified",
    "bio",
    "signals",
)
NO_ACCOUNT_SIGNALS = {
    "posts_per_day": 0.0,
    "shared_signal_accounts": [],
    "signals": [],
    "inauthenticity_score": 0.0,
}


class Writer(Protocol):
    """Runs work in a write transaction, again if it lost a race (Service._write_retrying)."""

    def __call__(self, work: Callable[[Connection], T]) -> T: ...


def _digest(*parts: str) -> str:
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


def post_id_for(source: str, external_id: str) -> str:
    return "p-" + _digest("post", source, external_id)[:30]


def author_id_for(source: str, external_id: str) -> str:
    return "a-" + _digest("author", source, external_id)[:30]


def media_id_for(source: str, sha256: str) -> str:
    return "m-" + _digest("media", source, sha256)[:40]


def rating_signal_id(rating_id: str, post_id: str) -> str:
    """The signal a fact-checker's rating becomes on one post (its id, per fact-checker)."""
    return "fc-" + _digest("rating", rating_id, post_id)[:40]


TARGET_LOCK = 7_304_225
"""The first key of the advisory locks on platform post ids (see LOCK_EXTERNAL_IDS)."""
TARGET_BUCKETS = 128
"""How many such locks there are: ids share them by their hash, so a batch that names
thousands of posts takes at most this many. Each takes a slot of PostgreSQL's shared lock
table (max_locks_per_transaction x max_connections in all: 6,400 by default), which every
transaction's locks share: with 1,024, eight rating batches at once could fill it, and a
full table fails any statement that needs a lock then. Two batches of ids that share one
only take turns where they need not."""


def external_id_lock_key(external_id: str) -> int:
    """The second key of the advisory lock on a platform post id (the first: TARGET_LOCK)."""
    return int(_digest("target", external_id)[:8], 16) % TARGET_BUCKETS


def new_item_id() -> str:
    return "i-" + secrets.token_hex(10)


def compact_json(value: Any) -> str:
    """A stored document's text, compact, its keys in their order (orjson: the standard
    module took a tenth of a signal batch's time; nothing hashes this text, and the wire
    refuses what orjson cannot write: a lone surrogate, a number out of range)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def canonical_hash(value: Any) -> str:
    """The hash of a document's canonical JSON (the standard module's form, keys sorted:
    stored hashes stay comparable with those of earlier versions)."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


_ids: BindParameter[Any] = bindparam("ids", expanding=True)


def _ignoring(table: Any, postgres: bool) -> Any:
    """INSERT ... ON CONFLICT DO NOTHING (a conflict is a replay: read back as one)."""
    return (postgresql.insert(table) if postgres else sqlite.insert(table)).on_conflict_do_nothing()


def _locking(query: Select, postgres: bool) -> Select:
    return query.with_for_update() if postgres else query


_PG = (False, True)
# The hot path's writes: one statement a batch on PostgreSQL (bulk.py)
INSERT_POSTS = InsertMany(
    posts,
    (
        "id",
        "source",
        "external_id",
        "author_id",
        "version",
        "content_hash",
        "payload",
        "state",
        "received_at",
        "updated_at",
        "signal_summary",
    ),
    returning="id",
)
INSERT_AUTHORS = InsertMany(
    authors, ("id", "handle", "payload", "source", "external_id"), returning="id"
)
INSERT_SIGNALS = InsertMany(
    signals,
    ("source", "external_id", "post_id", "kind", "body_hash", "payload", "received_at"),
    returning="external_id",
)
INSERT_POST_MEDIA = {pg: _ignoring(post_media, pg) for pg in _PG}
INSERT_RATINGS = {
    pg: _ignoring(fact_check_ratings, pg).returning(fact_check_ratings.c.external_id) for pg in _PG
}
INSERT_RATING_TARGETS = {pg: _ignoring(fact_check_targets, pg) for pg in _PG}
INSERT_MEDIA = {pg: _ignoring(media, pg).returning(media.c.id) for pg in _PG}
INSERT_SECRET = {pg: _ignoring(server_secrets, pg) for pg in _PG}
_POST_COLUMNS = (
    posts.c.id,
    posts.c.source,
    posts.c.external_id,
    posts.c.author_id,
    posts.c.version,
    posts.c.content_hash,
    posts.c.payload,
    posts.c.state,
    posts.c.signal_summary,
)
# Posts are locked in id order: two batches on the same posts take turns without deadlocks.
POSTS_BY_ID = {
    pg: _locking(select(*_POST_COLUMNS).where(any_of(posts.c.id, pg)).order_by(posts.c.id), pg)
    for pg in _PG
}
# The same, with when each post last changed here (``updated_at``: for a withdrawn post, its
# withdrawal's time, see WITHDRAW_POST), for a post batch: a withdrawn post sent again comes
# back only when the platform says it changed after that (posts.py).
POSTS_WITH_TIMES_BY_ID = {
    pg: _locking(
        select(*_POST_COLUMNS, posts.c.updated_at)
        .where(any_of(posts.c.id, pg))
        .order_by(posts.c.id),
        pg,
    )
    for pg in _PG
}
# The posts' authors, locked FOR SHARE in id order before the posts (PostgreSQL): every path
# takes an author before the author's posts (a post batch locks its authors FOR UPDATE
# first, an account action locks them FOR UPDATE before closing their items), so a signal
# batch that routes a post (reading its author's status) never waits in a circle with them.
SHARE_AUTHORS_OF_POSTS = (
    select(authors.c.id)
    .where(authors.c.id.in_(select(posts.c.author_id).where(any_of(posts.c.id, True))))
    .order_by(authors.c.id)
    .with_for_update(read=True, of=authors)
)  # PostgreSQL only: = ANY(:ids), one statement text whatever the batch size (bulk.py)
SHARE_AUTHORS_OF_EXTERNAL_IDS = (
    select(authors.c.id)
    .where(authors.c.id.in_(select(posts.c.author_id).where(posts.c.external_id.in_(_ids))))
    .order_by(authors.c.id)
    .with_for_update(read=True, of=authors)
)
POSTS_BY_EXTERNAL_ID = {
    pg: _locking(
        select(*_POST_COLUMNS).where(posts.c.external_id.in_(_ids)).order_by(posts.c.id), pg
    )
    for pg in _PG
}
UPDATE_POST = UpdateMany(
    posts, "id", ("version", "content_hash", "payload", "author_id", "state", "updated_at")
)
UPDATE_SUMMARY = UpdateMany(posts, "id", ("signal_summary",))
# A post withdrawn: ``b_now`` is when (the withdrawal's ``at`` when it gave one, no later
# than now, else when the service received it), kept as the post's ``updated_at`` until it
# is live again; ``b_at`` is the withdrawal's own ``at``, kept as ``withdrawn_at`` after
# that too (the same withdrawal sent again is a replay: signals.py).
WITHDRAW_POST = (
    update(posts)
    .where(posts.c.id == bindparam("b_id"))
    .values(
        state=bindparam("b_state"), updated_at=bindparam("b_now"), withdrawn_at=bindparam("b_at")
    )
)
# How far ahead of the service's clock a withdrawal's ``at`` is kept as ``withdrawn_at``.
WITHDRAWN_AHEAD = 86_400.0
WITHDRAWN_AT = select(posts.c.id, posts.c.withdrawn_at).where(posts.c.id.in_(_ids))
AUTHORS_BY_ID = {
    pg: _locking(
        select(authors.c.id, authors.c.payload)
        .where(any_of(authors.c.id, pg))
        .order_by(authors.c.id),
        pg,
    )
    for pg in _PG
}
# Routing reads the authors' account signals and status at once; FOR SHARE on PostgreSQL:
# an account action on one of them waits until this batch (which may open an item of
# theirs) commits (see accounts.statuses_for_routing).
AUTHORS_FOR_ROUTING = {
    pg: select(authors.c.id, authors.c.payload, authors.c.status)
    .where(any_of(authors.c.id, pg))
    .order_by(authors.c.id)
    .with_for_update(read=True)
    if pg
    else select(authors.c.id, authors.c.payload, authors.c.status).where(any_of(authors.c.id, pg))
    for pg in _PG
}
UPDATE_AUTHOR = UpdateMany(authors, "id", ("handle", "payload"))
ITEMS_OF_AUTHORS = {
    pg: union(
        # the index of open items by author (its condition as written: the databases use
        # a partial index only for a query that names its condition)
        select(items.c.id).where(any_of(items.c.author_id, pg), text(OPEN_ITEM)),
        select(decisions.c.item_id).where(any_of(decisions.c.author_id, pg, "ids2")),
    )
    for pg in _PG
}
"""The open and the decided items of these authors (their search rows name them), each by
an index: ``ids`` and ``ids2`` are the same authors."""
PRIOR_STRIKES = select(strikes.c.author_id, strikes.c.policy, strikes.c.at).where(
    strikes.c.author_id.in_(_ids), strikes.c.decision_id.is_(None)
)
MEDIA_OF_SOURCE = select(
    media.c.id, media.c.kind, media.c.mime_type, media.c.size_bytes, media.c.width, media.c.height
).where(media.c.id.in_(_ids), media.c.source == bindparam("source"))
STORED_SIGNALS = select(signals.c.external_id, signals.c.body_hash).where(
    signals.c.source == bindparam("source"), signals.c.external_id.in_(_ids)
)
# The ratings that name any of the posts ``ids`` (by the platform's id), each with its
# fact-checker's user name (the source of the signals it becomes), oldest first.
RATINGS_OF_EXTERNAL_IDS = (
    select(
        fact_check_targets.c.post_external_id,
        fact_check_targets.c.source,
        fact_check_ratings.c.payload,
        users.c.username,
    )
    .join(
        fact_check_ratings,
        (fact_check_ratings.c.user_id == fact_check_targets.c.user_id)
        & (fact_check_ratings.c.external_id == fact_check_targets.c.rating_external_id),
    )
    .join(users, users.c.id == fact_check_targets.c.user_id)
    .where(fact_check_targets.c.post_external_id.in_(_ids))
    .order_by(fact_check_ratings.c.id)
)
# PostgreSQL: a transaction-scoped advisory lock on (TARGET_LOCK, external_id_lock_key(x))
# for each platform post id x, in key order (so two batches that lock several never wait in
# a circle). A rating batch takes it exclusive, for the ids its ratings name, after writing
# where the ratings wait (fact_check_targets) and locking the posts named, and before
# looking for those posts again; a post batch takes it shared, for the posts it created,
# after writing them and before reading the waiting ratings. So of a rating batch and a
# post batch on one id, the one that takes it second reads what the first wrote and
# committed (READ COMMITTED: each statement sees what has committed by its start): without
# it, a rating and its post sent at the same moment each missed the other and the rating
# was never applied. Post batches (the busy path) do not wait for each other. SQLite: one
# writer at a time, nothing to take. (The key space of two 32-bit keys is apart from that
# of the single 64-bit keys of the sealers, the roller and migrations.)
_HELD_KEYS = " FROM (SELECT DISTINCT unnest(CAST(:keys AS integer[])) AS k ORDER BY k) AS held"
LOCK_EXTERNAL_IDS = {
    False: text("SELECT pg_advisory_xact_lock(:space, k)" + _HELD_KEYS),
    True: text("SELECT pg_advisory_xact_lock_shared(:space, k)" + _HELD_KEYS),
}
POST_IDS_BY_EXTERNAL_ID = select(posts.c.id).where(posts.c.external_id.in_(_ids))
# The same locks as SHARE_AUTHORS_OF_EXTERNAL_IDS and POSTS_BY_EXTERNAL_ID, refused at once
# (lock_not_available: the transaction is run again) instead of waited for: for a batch
# that holds LOCK_EXTERNAL_IDS, which a batch holding these rows may be waiting for.
SHARE_AUTHORS_OF_EXTERNAL_IDS_NOWAIT = SHARE_AUTHORS_OF_EXTERNAL_IDS.with_for_update(
    read=True, of=authors, nowait=True
)
POSTS_BY_EXTERNAL_ID_NOWAIT = POSTS_BY_EXTERNAL_ID[True].with_for_update(nowait=True)
STORED_RATINGS = select(fact_check_ratings.c.external_id, fact_check_ratings.c.body_hash).where(
    fact_check_ratings.c.user_id == bindparam("user"), fact_check_ratings.c.external_id.in_(_ids)
)
OPEN_ITEMS = {
    pg: _locking(
        select(
            items.c.id,
            items.c.post_id,
            items.c.queue_id,
            items.c.enqueued_at,
            items.c.payload,
            items.c.lease_token,
        )
        .where(any_of(items.c.post_id, pg), items.c.state.in_(OPEN_STATES))
        .order_by(items.c.id),
        pg,
    )
    for pg in _PG
}
DECIDED_ITEMS = {
    pg: select(
        items.c.id,
        items.c.post_id,
        items.c.origin_queue_id,
        decisions.c.id.label("decision_id"),
        decisions.c.queue_id.label("decided_in"),
        decisions.c.action,
        decisions.c.author_action,
        decisions.c.decided_at,
    )
    .join(decisions, decisions.c.id == items.c.decision_id)
    # and a withdrawn item with a decision (the join): a withdrawal of its post ended its
    # waiting appeal, and the decision stands (left out, the post sent again was routed
    # anew, and a second removal struck its author twice for one post)
    .where(any_of(items.c.post_id, pg), items.c.state.in_(("decided", "withdrawn")))
    for pg in _PG
}
ITEM_PAYLOADS = {
    pg: select(items.c.id, items.c.payload).where(any_of(items.c.id, pg)) for pg in _PG
}
UPDATE_ITEM = UpdateMany(items, "id", ("payload", "priority"))
WITHDRAW_ITEMS = (
    update(items)
    .where(items.c.id.in_(_ids))
    .values(state="withdrawn", lease_token=None, lease_user_id=None, lease_expires_at=None)
)
END_LEASES = update(leases).where(leases.c.token.in_(_ids)).values(ended_at=bindparam("b_now"))
INSERT_ITEMS = InsertMany(
    items,
    (
        "id",
        "queue_id",
        "origin_queue_id",
        "state",
        "priority",
        "enqueued_at",
        "author_id",
        "payload",
        "epoch",
        "post_id",
    ),
    ignore_conflicts=False,
)
INSERT_STRIKES = insert(strikes)
