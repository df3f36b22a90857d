"""Intake: posts, signals, withdrawals, media and fact-checks from platforms and fact-checkers.

The one way in for the demo, the bulk import and a real platform. Every element is
idempotent and every batch is one write transaction with a statement per kind of row (not
one per element).

**Posts** are upserted by ``(source, external_id)``; the source is the platform account
that sends them. The post's id here, its author's and its media's are derived from the
platform's ids (a digest), so the same post sent twice at once collides on the primary
key instead of making two rows. A post's content hash (the post as sent, its author's
platform id included, the author's own fields left out) tells a replay (``unchanged``)
from a new version (``updated``: the version goes up, the open item shows the new text,
``post_updated`` in its history). Authors are merged, never duplicated: the fields a post
sends overwrite the stored ones, the fields it leaves out stay. A post alone opens no item:
signals route it (and a new version of a post that has signals is routed again).

**Signals** (classifier scores, user reports, fact-checks) are idempotent by their own id:
the same id with the same body is ``unchanged``, with another body ``rejected``
(``id_reused``). Each new signal is added to the post's ``Summary`` (routing.py). A post
with an open item (pending or leased) is never queued twice: the item gets the new
summary, its priority is recomputed, and ``signal_added`` goes in its history. A post
without one is routed (routing.route): the first queue whose rule it meets gets a new item.
A reporter's id is kept only as HMAC-SHA256 under a secret of this service (made once,
``server_secrets``), with the platform account in the message: one reporter can be told
from another, but not named.

**What comes back to review**: a queue that decided a post takes it again only by its
re-review rule, and only after a ``keep`` (``keep`` is "nothing wrong": new reports or a new
fact-check can show otherwise). A post labelled or reduced stays as decided in that queue
(the label or the lower reach is the answer to the signals that brought it), though
another queue whose rules it meets may still take it. A post removed (an action of kind
``remove``, or an author suspended) never comes back to any queue.

**Withdrawals** (the post was deleted or made private upstream) end review of its open
items: state ``withdrawn``, lease cleared and ended, ``withdrawn`` in the history. A verdict
for it later is ``rejected`` with reason ``withdrawn`` (verdicts.py); decided items stay
decided. The post gets no more signals until the platform sends it again (made public
again), which makes it live once more.

**Concurrency**: each batch locks its posts (PostgreSQL: ``FOR UPDATE`` in id order) before
anything else touches them, so two batches on one post take turns; inserts of posts,
authors and signals are ``ON CONFLICT DO NOTHING``, and a conflict is read back as a
replay. SQLite has one writer at a time anyway. A unique index allows one open item per
post whatever happens.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, TypeVar

from sqlalchemy import BindParameter, Connection, bindparam, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql.expression import Select

from reviewer_app.protocol import (
    MAX_MEDIA_BYTES,
    ActionKind,
    AuthorAction,
    EventKind,
    FactCheckPage,
    FactCheckRating,
    FactCheckRecord,
    FactCheckSignal,
    IntakeAuthor,
    IntakePost,
    IntakeReason,
    IntakeResult,
    IntakeResults,
    IntakeStatus,
    MediaUploaded,
    PriorityWeights,
    QueueConfig,
    ReportSignal,
    Signal,
    Withdrawal,
)
from reviewer_app.protocol.accounts import CLOSING_STATUSES, AuthorStatus
from reviewer_app.server.domain import accounts, enforcement, search_index
from reviewer_app.server.domain.mediasniff import normalise_declared, sniff
from reviewer_app.server.domain.priority import priority_value
from reviewer_app.server.domain.records import (
    Principal,
    append_events,
    decode_cursor,
    encode_cursor,
    event_row,
    iso,
)
from reviewer_app.server.domain.routing import Earlier, Match, Summary, route
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.bulk import InsertMany, UpdateMany, any_of
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.tables import (
    authors,
    decisions,
    fact_check_ratings,
    items,
    leases,
    media,
    post_media,
    posts,
    server_secrets,
    signals,
    strikes,
)

T = TypeVar("T")
R = TypeVar("R")

LIVE = "live"
OPEN_STATES = ("pending", "leased")
REPORTER_SECRET = "reporter_hmac_key"  # noqa: S105 - the secret's name, not a secret
MAX_RESULT_IDS = 8  # IntakeResult.item_ids / queue_ids
SQLITE_PART = 50
"""Elements of a batch per write transaction on SQLite while claims are served (see
IntakeDesk._parts), and how recent a claim must be for that."""
CLAIMS_WITHIN_SECONDS = 5.0
_AUTHOR_FIELDS = (
    "handle",
    "display_name",
    "account_created_at",
    "followers",
    "following",
    "verified",
    "bio",
    "signals",
)
_NO_ACCOUNT_SIGNALS = {
    "posts_per_day": 0.0,
    "shared_signal_accounts": [],
    "signals": [],
    "inauthenticity_score": 0.0,
}


class Writer(Protocol):
    """Runs work in a write transaction, again if it lost a race (Service._write_retrying)."""

    def __call__(self, work: Callable[[Connection], T]) -> T: ...


# -- ids ---------------------------------------------------------------------------------------


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


def new_item_id() -> str:
    return "i-" + secrets.token_hex(10)


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _canonical_hash(value: Any) -> str:
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


# -- statements, built once (see assembly.py on why) -------------------------------------------

_ids: BindParameter[Any] = bindparam("ids", expanding=True)


def _ignoring(table: Any, postgres: bool) -> Any:
    """INSERT ... ON CONFLICT DO NOTHING (a conflict is a replay: read back as one)."""
    return (postgresql.insert(table) if postgres else sqlite.insert(table)).on_conflict_do_nothing()


def _locking(query: Select, postgres: bool) -> Select:
    return query.with_for_update() if postgres else query


_PG = (False, True)
# The hot path's writes: one statement a batch on PostgreSQL (bulk.py)
_INSERT_POSTS = InsertMany(
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
_INSERT_AUTHORS = InsertMany(
    authors, ("id", "handle", "payload", "source", "external_id"), returning="id"
)
_INSERT_SIGNALS = InsertMany(
    signals,
    ("source", "external_id", "post_id", "kind", "body_hash", "payload", "received_at"),
    returning="external_id",
)
_INSERT_POST_MEDIA = {pg: _ignoring(post_media, pg) for pg in _PG}
_INSERT_RATINGS = {
    pg: _ignoring(fact_check_ratings, pg).returning(fact_check_ratings.c.external_id) for pg in _PG
}
_INSERT_MEDIA = {pg: _ignoring(media, pg).returning(media.c.id) for pg in _PG}
_INSERT_SECRET = {pg: _ignoring(server_secrets, pg) for pg in _PG}

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
_POSTS_BY_ID = {
    pg: _locking(select(*_POST_COLUMNS).where(any_of(posts.c.id, pg)).order_by(posts.c.id), pg)
    for pg in _PG
}
# The posts' authors, locked FOR SHARE in id order before the posts (PostgreSQL): every path
# takes an author before the author's posts (a post batch locks its authors FOR UPDATE
# first, an account action locks them FOR UPDATE before closing their items), so a signal
# batch that routes a post (reading its author's status) never waits in a circle with them.
_SHARE_AUTHORS_OF_POSTS = (
    select(authors.c.id)
    .where(authors.c.id.in_(select(posts.c.author_id).where(any_of(posts.c.id, True))))
    .order_by(authors.c.id)
    .with_for_update(read=True, of=authors)
)  # PostgreSQL only: = ANY(:ids), one statement text whatever the batch size (bulk.py)
_SHARE_AUTHORS_OF_EXTERNAL_IDS = (
    select(authors.c.id)
    .where(authors.c.id.in_(select(posts.c.author_id).where(posts.c.external_id.in_(_ids))))
    .order_by(authors.c.id)
    .with_for_update(read=True, of=authors)
)
_POSTS_BY_EXTERNAL_ID = {
    pg: _locking(
        select(*_POST_COLUMNS).where(posts.c.external_id.in_(_ids)).order_by(posts.c.id), pg
    )
    for pg in _PG
}
_UPDATE_POST = UpdateMany(
    posts, "id", ("version", "content_hash", "payload", "author_id", "state", "updated_at")
)
_UPDATE_SUMMARY = UpdateMany(posts, "id", ("signal_summary",))
_WITHDRAW_POST = (
    update(posts)
    .where(posts.c.id == bindparam("b_id"))
    .values(state=bindparam("b_state"), updated_at=bindparam("b_now"))
)
_AUTHORS_BY_ID = {
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
_AUTHORS_FOR_ROUTING = {
    pg: select(authors.c.id, authors.c.payload, authors.c.status)
    .where(any_of(authors.c.id, pg))
    .order_by(authors.c.id)
    .with_for_update(read=True)
    if pg
    else select(authors.c.id, authors.c.payload, authors.c.status).where(any_of(authors.c.id, pg))
    for pg in _PG
}
_UPDATE_AUTHOR = UpdateMany(authors, "id", ("handle", "payload"))
_PRIOR_STRIKES = select(strikes.c.author_id, strikes.c.policy, strikes.c.at).where(
    strikes.c.author_id.in_(_ids), strikes.c.decision_id.is_(None)
)
_MEDIA_OF_SOURCE = select(
    media.c.id,
    media.c.kind,
    media.c.mime_type,
    media.c.size_bytes,
    media.c.width,
    media.c.height,
).where(media.c.id.in_(_ids), media.c.source == bindparam("source"))
_STORED_SIGNALS = select(signals.c.external_id, signals.c.body_hash).where(
    signals.c.source == bindparam("source"), signals.c.external_id.in_(_ids)
)
_STORED_RATINGS = select(fact_check_ratings.c.external_id, fact_check_ratings.c.body_hash).where(
    fact_check_ratings.c.user_id == bindparam("user"),
    fact_check_ratings.c.external_id.in_(_ids),
)
_OPEN_ITEMS = {
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
_DECIDED_ITEMS = {
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
    .where(any_of(items.c.post_id, pg), items.c.state == "decided")
    for pg in _PG
}
_ITEM_PAYLOADS = {
    pg: select(items.c.id, items.c.payload).where(any_of(items.c.id, pg)) for pg in _PG
}
_UPDATE_ITEM = UpdateMany(items, "id", ("payload", "priority"))
_WITHDRAW_ITEMS = (
    update(items)
    .where(items.c.id.in_(_ids))
    .values(state="withdrawn", lease_token=None, lease_user_id=None, lease_expires_at=None)
)
_END_LEASES = update(leases).where(leases.c.token.in_(_ids)).values(ended_at=bindparam("b_now"))
_INSERT_ITEMS = InsertMany(
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
_INSERT_STRIKES = insert(strikes)


# -- posts as this module holds them -----------------------------------------------------------


@dataclass
class PostRow:
    """A post locked for this transaction, changed in memory and written back."""

    id: str
    source: str
    external_id: str
    author_id: str
    version: int
    content_hash: str
    payload_text: str
    state: str
    summary: Summary
    _payload: dict[str, Any] | None = None

    @classmethod
    def from_row(cls, row: Any) -> PostRow:
        return cls(
            id=row.id,
            source=row.source,
            external_id=row.external_id,
            author_id=row.author_id,
            version=row.version,
            content_hash=row.content_hash,
            payload_text=row.payload,
            state=row.state,
            summary=Summary.load(row.signal_summary),
        )

    @property
    def payload(self) -> dict[str, Any]:
        if self._payload is None:
            self._payload = json.loads(self.payload_text)
        return self._payload


def item_payload(
    post: PostRow, reasons: list[dict[str, Any]], labels: Mapping[str, str]
) -> dict[str, Any]:
    """The stored part of an item (see seed.insert_items) for the post as it is now."""
    p = post.payload
    summary = post.summary
    return {
        "post": {
            "id": p["external_id"],
            "text": p["text"],
            "language": p["language"],
            "created_at": p["created_at"],
            "url": p["url"],
            "media": [
                {
                    "id": m["media_id"],
                    "kind": m["kind"],
                    "mime_type": m["mime_type"],
                    "size_bytes": m["size_bytes"],
                    "width": m["width"],
                    "height": m["height"],
                    "alt_text": m["alt_text"],
                    "sensitive": m["sensitive"],
                }
                for m in p["media"]
            ],
            "link_preview": p.get("link_preview"),
        },
        "thread": p["thread"],
        "reach": p["reach"],
        "reports": summary.reports_document(),
        "reasons": reasons,
        "scores": summary.scores,
        "fact_checks": summary.fact_check_documents(labels),
    }


@dataclass
class Touch:
    """What happened to a post in this batch, for its open item and its routing."""

    signals: list[dict[str, Any]] = field(default_factory=list)
    """Event data of each new signal (``signal_added``: ids and figures, never text)."""
    new_version: int | None = None
    route: bool = False


@dataclass
class Context:
    """One batch's transaction and what it needs to know."""

    conn: Connection
    actor: str
    now: float
    postgres: bool
    configs: Mapping[str, QueueConfig]
    order: list[str]
    events: list[dict[str, Any]] = field(default_factory=list)
    _labels: dict[str, dict[str, str]] = field(default_factory=dict)
    _account_rules: bool | None = None

    def labels(self, queue_id: str) -> dict[str, str]:
        """Rating id -> label on the queue's scale (another queue's, when it has none)."""
        found = self._labels.get(queue_id)
        if found is None:
            found = {}
            for config in self.configs.values():
                found.update({r.id: r.label for r in config.ratings})
            own = self.configs.get(queue_id)
            if own is not None:
                found.update({r.id: r.label for r in own.ratings})
            self._labels[queue_id] = found
        return found

    @property
    def account_rules(self) -> bool:
        """Some queue routes by its authors' account signals (AccountCondition)."""
        if self._account_rules is None:
            self._account_rules = any(
                rule.account is not None
                for config in self.configs.values()
                for rule in config.routing
            )
        return self._account_rules

    @property
    def known_ratings(self) -> set[str]:
        return {r.id for config in self.configs.values() for r in config.ratings}

    def weights(self, queue_id: str) -> PriorityWeights:
        config = self.configs.get(queue_id)
        return config.priority if config is not None else PriorityWeights()


def _result(
    external_id: str,
    status: IntakeStatus,
    touched: tuple[list[str], list[str]] | None = None,
) -> IntakeResult:
    item_ids, queue_ids = touched or ([], [])
    return IntakeResult(
        external_id=external_id,
        status=status,
        item_ids=item_ids[:MAX_RESULT_IDS],
        queue_ids=list(dict.fromkeys(queue_ids))[:MAX_RESULT_IDS],
    )


def _rejected(external_id: str, code: str, message: str) -> IntakeResult:
    return IntakeResult(
        external_id=external_id,
        status=IntakeStatus.rejected,
        reason=IntakeReason(code=code, message=message),
    )


def _replayed(first: IntakeResult) -> IntakeResult:
    """The answer to a second copy of an element in the same batch."""
    if first.status is IntakeStatus.rejected:
        return first
    return first.model_copy(update={"status": IntakeStatus.unchanged})


# -- the open item and routing of touched posts -------------------------------------------------


def settle(
    ctx: Context, rows: Mapping[str, PostRow], touched: Mapping[str, Touch]
) -> dict[str, tuple[list[str], list[str]]]:
    """Bring the open items of the touched posts up to date, and route the posts that have
    none. Returns, per post, the items touched or opened and their queues."""
    conn = ctx.conn
    ids = sorted(touched)
    out: dict[str, tuple[list[str], list[str]]] = {}
    if not ids:
        return out
    open_items = conn.execute(_OPEN_ITEMS[ctx.postgres], {"ids": ids}).all()
    updates = []
    for item in open_items:
        post = rows[item.post_id]
        touch = touched[item.post_id]
        reasons = json.loads(item.payload)["reasons"]
        payload = item_payload(post, reasons, ctx.labels(item.queue_id))
        updates.append(
            {
                "id": item.id,
                "payload": _json(payload),
                "priority": _priority(ctx, item.queue_id, post, item.enqueued_at),
            }
        )
        if touch.new_version is not None:
            ctx.events.append(
                event_row(
                    ctx.now,
                    EventKind.post_updated,
                    ctx.actor,
                    item_id=item.id,
                    queue_id=item.queue_id,
                    post=post.external_id,
                    version=touch.new_version,
                )
            )
        ctx.events += [
            event_row(
                ctx.now,
                EventKind.signal_added,
                ctx.actor,
                item_id=item.id,
                queue_id=item.queue_id,
                **data,
            )
            for data in touch.signals
        ]
        out[item.post_id] = ([item.id], [item.queue_id])
    _UPDATE_ITEM(conn, updates, ctx.postgres)
    wanted = [
        pid
        for pid in ids
        if pid not in out
        and touched[pid].route
        and rows[pid].state == LIVE
        and not rows[pid].summary.empty
    ]
    if wanted:
        out.update(_route(ctx, rows, wanted))
    search_index.refresh(conn, [i for item_ids, _ in out.values() for i in item_ids], ctx.postgres)
    return out


def _priority(ctx: Context, queue_id: str, post: PostRow, enqueued_at: float) -> float:
    return priority_value(
        ctx.weights(queue_id),
        post.summary.top_score,
        post.summary.reports_total,
        int(post.payload["reach"]["views"]),
        enqueued_at,
    )


def _action_kind(ctx: Context, queue_id: str, action: str) -> ActionKind | None:
    config = ctx.configs.get(queue_id)
    found = config.action(action) if config is not None else None
    return found.kind if found is not None else None


def _route(
    ctx: Context, rows: Mapping[str, PostRow], post_ids: list[str]
) -> dict[str, tuple[list[str], list[str]]]:
    """Open an item for each post a routing or re-review rule takes (none is open)."""
    conn = ctx.conn
    removed: set[str] = set()
    latest: dict[str, dict[str, Any]] = {}  # post -> queue -> its newest decided item
    for r in conn.execute(_DECIDED_ITEMS[ctx.postgres], {"ids": post_ids}):
        kind = _action_kind(ctx, r.decided_in, r.action)
        if kind is ActionKind.reverse:  # a reversed appeal lifted the restriction (appeals.py)
            kind = ActionKind.keep
        if kind is ActionKind.remove or r.author_action == AuthorAction.suspend.value:
            removed.add(r.post_id)
        per_queue = latest.setdefault(r.post_id, {})
        before = per_queue.get(r.origin_queue_id)
        if before is None or r.decision_id > before["decision_id"]:
            per_queue[r.origin_queue_id] = {**r._mapping, "kind": kind}
    # what each post's kept items showed when decided (for "new reports since")
    kept_ids = [
        d["id"]
        for pid, per_queue in latest.items()
        if pid not in removed
        for q, d in per_queue.items()
        if d["kind"] is ActionKind.keep and q in ctx.configs and ctx.configs[q].rereview
    ]
    reports_then: dict[str, int] = {}
    if kept_ids:
        for kept in conn.execute(_ITEM_PAYLOADS[ctx.postgres], {"ids": kept_ids}):
            reports_then[kept.id] = int(json.loads(kept.payload)["reports"]["total"])
    candidates = [pid for pid in post_ids if pid not in removed]
    # The authors are read for the rules on their accounts (when a queue has one) and for
    # the posts a rule takes (their status): most signals route nothing new.
    inauthenticity: dict[str, float] = {}
    status: dict[str, AuthorStatus] = {}
    if ctx.account_rules:
        inauthenticity, status = _authors_for_routing(
            ctx, {rows[pid].author_id for pid in candidates}
        )
    matches: dict[str, Match] = {}
    for pid in candidates:
        post = rows[pid]
        earlier = {
            q: Earlier(
                item_id=d["id"],
                decision_id=d["decision_id"],
                action=d["action"],
                kept=d["kind"] is ActionKind.keep,
                decided_at=d["decided_at"],
                reports_then=reports_then.get(d["id"], post.summary.reports_total),
            )
            for q, d in latest.get(pid, {}).items()
        }
        match = route(
            ctx.order, ctx.configs, post.summary, inauthenticity.get(post.author_id, 0.0), earlier
        )
        if match is not None:
            matches[pid] = match
    if matches and not ctx.account_rules:
        _, status = _authors_for_routing(ctx, {rows[pid].author_id for pid in matches})
    # suspended and inauthentic authors' posts are held back, not queued (accounts.py)
    held: list[accounts.Held] = []
    new_items: list[dict[str, Any]] = []
    out: dict[str, tuple[list[str], list[str]]] = {}
    for pid, match in matches.items():
        post = rows[pid]
        author_status = status.get(post.author_id)
        if author_status in CLOSING_STATUSES:
            assert author_status is not None
            held.append(
                accounts.Held(
                    post.id,
                    post.external_id,
                    post.author_id,
                    post.source,
                    match.queue_id,
                    match.rule,
                    author_status,
                )
            )
        else:
            new_items.append(_open_item(ctx, post, match))
            out[pid] = ([new_items[-1]["id"]], [match.queue_id])
    _INSERT_ITEMS(conn, new_items, ctx.postgres)
    ctx.events += accounts.hold_back(conn, held, ctx.now, ctx.actor, postgres=ctx.postgres)
    return out


def _authors_for_routing(
    ctx: Context, author_ids: set[str]
) -> tuple[dict[str, float], dict[str, AuthorStatus]]:
    """The authors' inauthenticity scores and their statuses (one query)."""
    if not author_ids:
        return {}, {}
    scores: dict[str, float] = {}
    statuses: dict[str, AuthorStatus] = {}
    for r in ctx.conn.execute(_AUTHORS_FOR_ROUTING[ctx.postgres], {"ids": sorted(author_ids)}):
        account = json.loads(r.payload).get("signals") or {}
        scores[r.id] = float(account.get("inauthenticity_score", 0.0))
        statuses[r.id] = AuthorStatus(r.status)
    return scores, statuses


def _open_item(ctx: Context, post: PostRow, match: Match) -> dict[str, Any]:
    item_id = new_item_id()
    queue_id = match.queue_id
    payload = item_payload(post, match.reasons, ctx.labels(queue_id))
    ctx.events.append(
        event_row(
            ctx.now,
            EventKind.enqueued,
            ctx.actor,
            item_id=item_id,
            queue_id=queue_id,
            reasons=[r["kind"] for r in match.reasons],
            rule=match.rule,
            post=post.external_id,
            source=post.source,
        )
    )
    before = match.rereview_of
    if before is not None:
        ctx.events.append(
            event_row(
                ctx.now,
                EventKind.rereview,
                ctx.actor,
                item_id=item_id,
                queue_id=queue_id,
                earlier_item_id=before.item_id,
                earlier_decision_id=before.decision_id,
                earlier_action=before.action,
                reasons=[r["detail"] for r in match.reasons],
            )
        )
        ctx.events.append(
            event_row(
                ctx.now,
                EventKind.rereview,
                ctx.actor,
                item_id=before.item_id,
                queue_id=queue_id,
                new_item_id=item_id,
            )
        )
    return {
        "id": item_id,
        "queue_id": queue_id,
        "origin_queue_id": queue_id,
        "state": "pending",
        "priority": _priority(ctx, queue_id, post, ctx.now),
        "enqueued_at": ctx.now,
        "author_id": post.author_id,
        "payload": _json(payload),
        "epoch": 0,
        "post_id": post.id,
    }


def _lock_posts(ctx: Context, post_ids: Iterable[str]) -> dict[str, PostRow]:
    ids = sorted(set(post_ids))
    if not ids:
        return {}
    if ctx.postgres:
        ctx.conn.execute(_SHARE_AUTHORS_OF_POSTS, {"ids": ids}).all()
    return {
        r.id: PostRow.from_row(r)
        for r in ctx.conn.execute(_POSTS_BY_ID[ctx.postgres], {"ids": ids})
    }


def _write_summaries(ctx: Context, rows: Mapping[str, PostRow], post_ids: Iterable[str]) -> None:
    changes = [{"id": pid, "signal_summary": rows[pid].summary.dump()} for pid in sorted(post_ids)]
    _UPDATE_SUMMARY(ctx.conn, changes, ctx.postgres)


# -- posts -------------------------------------------------------------------------------------


@dataclass
class _PreparedPost:
    index: int
    post: IntakePost
    id: str
    author_id: str
    payload: dict[str, Any]
    content_hash: str


def post_document(post: IntakePost) -> tuple[dict[str, Any], str]:
    """A post as stored (its author's platform id in, the author's fields out) and its
    content hash (before the uploads' details are added)."""
    payload = post.model_dump(mode="json", exclude={"author"})
    payload["author_external_id"] = post.author.external_id
    return payload, _canonical_hash(payload)


def intake_posts(
    ctx: Context,
    batch: Sequence[IntakePost],
    documents: Sequence[tuple[dict[str, Any], str]] | None = None,
) -> list[IntakeResult]:
    """Apply posts (``documents``: their ``post_document``, when worked out already)."""
    results: list[IntakeResult | None] = [None] * len(batch)
    # Copies of a post in one batch are applied one after the other, as if sent apart.
    rounds: list[list[int]] = []
    seen: dict[str, int] = {}
    for index, post in enumerate(batch):
        n = seen.get(post.external_id, 0)
        seen[post.external_id] = n + 1
        if n == len(rounds):
            rounds.append([])
        rounds[n].append(index)
    for indexes in rounds:
        done = _posts_round(ctx, [(i, batch[i]) for i in indexes], documents)
        for index, result in done.items():
            results[index] = result
    return [r for r in results if r is not None]


def _posts_round(
    ctx: Context,
    batch: list[tuple[int, IntakePost]],
    documents: Sequence[tuple[dict[str, Any], str]] | None,
) -> dict[int, IntakeResult]:
    conn = ctx.conn
    source = ctx.actor
    results: dict[int, IntakeResult] = {}
    wanted_media = sorted({m.media_id for _, p in batch for m in p.media})
    known_media = (
        {r.id: r for r in conn.execute(_MEDIA_OF_SOURCE, {"ids": wanted_media, "source": source})}
        if wanted_media
        else {}
    )
    prepared: list[_PreparedPost] = []
    for index, post in batch:
        missing = [m.media_id for m in post.media if m.media_id not in known_media]
        if missing:
            results[index] = _rejected(
                post.external_id,
                "unknown_media",
                f"Media {missing[0]!r} was not uploaded by this account (POST /intake/media).",
            )
            continue
        payload, content_hash = documents[index] if documents else post_document(post)
        # a copy: the uploads' details are added below (and a retried transaction runs again)
        payload = {**payload, "media": [dict(m) for m in payload["media"]]}
        for m in payload["media"]:
            upload = known_media[m["media_id"]]
            m.update(
                kind=upload.kind,
                mime_type=upload.mime_type,
                size_bytes=upload.size_bytes,
                width=upload.width,
                height=upload.height,
            )
        prepared.append(
            _PreparedPost(
                index,
                post,
                post_id_for(source, post.external_id),
                author_id_for(source, post.author.external_id),
                payload,
                content_hash,
            )
        )
    if not prepared:
        return results
    _upsert_authors(ctx, [(p.author_id, p.post.author) for p in prepared])

    new_rows = [
        {
            "id": p.id,
            "source": source,
            "external_id": p.post.external_id,
            "author_id": p.author_id,
            "version": 1,
            "content_hash": p.content_hash,
            "payload": _json(p.payload),
            "state": LIVE,
            "received_at": ctx.now,
            "updated_at": ctx.now,
            "signal_summary": "{}",
        }
        for p in sorted(prepared, key=lambda p: p.id)
    ]
    created = set(_INSERT_POSTS(conn, new_rows, ctx.postgres))
    stored = _lock_posts(ctx, [p.id for p in prepared if p.id not in created])
    changed: list[dict[str, Any]] = []
    touched: dict[str, Touch] = {}
    linked: list[dict[str, str]] = []
    for p in prepared:
        if p.id in created:
            results[p.index] = _result(p.post.external_id, IntakeStatus.created)
            linked += [{"post_id": p.id, "media_id": m.media_id} for m in p.post.media]
            continue
        row = stored[p.id]
        if row.content_hash == p.content_hash and row.state == LIVE:
            results[p.index] = _result(p.post.external_id, IntakeStatus.unchanged)
            continue
        bumped = row.content_hash != p.content_hash
        new_version = row.version + 1 if bumped else row.version
        changed.append(
            {
                "id": p.id,
                "version": new_version,
                "content_hash": p.content_hash,
                "payload": _json(p.payload),
                "author_id": p.author_id,
                "state": LIVE,
                "updated_at": ctx.now,
            }
        )
        row.version = new_version
        row.content_hash = p.content_hash
        row.author_id = p.author_id
        row.state = LIVE
        row._payload = p.payload
        touched[p.id] = Touch(new_version=new_version if bumped else None, route=True)
        linked += [{"post_id": p.id, "media_id": m.media_id} for m in p.post.media]
    _UPDATE_POST(conn, changed, ctx.postgres)
    if linked:
        conn.execute(_INSERT_POST_MEDIA[ctx.postgres], linked)
    settled = settle(ctx, stored, touched)
    for p in prepared:
        if p.index not in results:
            results[p.index] = _result(p.post.external_id, IntakeStatus.updated, settled.get(p.id))
    return results


def _author_document(author_id: str, author: IntakeAuthor) -> dict[str, Any]:
    sent = author.model_dump(mode="json")
    doc = {"id": author_id, **{f: sent[f] for f in _AUTHOR_FIELDS}}
    if doc["signals"] is None:
        doc["signals"] = dict(_NO_ACCOUNT_SIGNALS)
    return doc


def _merged(doc: dict[str, Any], author: IntakeAuthor) -> dict[str, Any]:
    """``doc`` with the fields this copy of the author sends (the newer ones win)."""
    sent = author.model_dump(mode="json")
    merged = dict(doc)
    for name in _AUTHOR_FIELDS:
        if name in author.model_fields_set and not (name == "signals" and sent[name] is None):
            merged[name] = sent[name]
    merged["handle"] = sent["handle"]
    merged["account_created_at"] = sent["account_created_at"]
    return merged


def _upsert_authors(ctx: Context, sent: list[tuple[str, IntakeAuthor]]) -> None:
    """Insert new authors, merge the fields sent into known ones, and add prior strikes
    not seen before. The authors stay locked (PostgreSQL) until the batch commits."""
    conn = ctx.conn
    docs: dict[str, dict[str, Any]] = {}
    copies: dict[str, list[IntakeAuthor]] = {}
    for author_id, author in sent:
        copies.setdefault(author_id, []).append(author)
        docs[author_id] = (
            _merged(docs[author_id], author)
            if author_id in docs
            else _author_document(author_id, author)
        )
    rows = [
        {
            "id": author_id,
            "handle": docs[author_id]["handle"],
            "payload": _json(docs[author_id]),
            "source": ctx.actor,
            "external_id": copies[author_id][0].external_id,
        }
        for author_id in sorted(docs)
    ]
    inserted = set(_INSERT_AUTHORS(conn, rows, ctx.postgres))
    # the accounts each new or changed author shares signals with (accounts.py)
    relinked = {a: (ctx.actor, docs[a]) for a in inserted}
    known = sorted(set(docs) - inserted)
    if known:
        changes = []
        for r in conn.execute(_AUTHORS_BY_ID[ctx.postgres], {"ids": known}):
            before = json.loads(r.payload)
            after = before
            for author in copies[r.id]:
                after = _merged(after, author)
            if after != before:
                changes.append({"id": r.id, "handle": after["handle"], "payload": _json(after)})
                if after.get("signals") != before.get("signals"):
                    relinked[r.id] = (ctx.actor, after)
        _UPDATE_AUTHOR(conn, changes, ctx.postgres)
    accounts.replace_links(conn, relinked)
    wanted = {
        (author_id, s.policy, s.at.timestamp())
        for author_id, author in sent
        for s in author.prior_strikes
    }
    if wanted:
        have = {
            (r.author_id, r.policy, r.at)
            for r in conn.execute(_PRIOR_STRIKES, {"ids": sorted({w[0] for w in wanted})})
        }
        new = sorted(wanted - have)
        if new:
            conn.execute(
                _INSERT_STRIKES,
                [{"author_id": a, "policy": p, "at": at, "decision_id": None} for a, p, at in new],
            )


# -- signals -----------------------------------------------------------------------------------


@dataclass
class _PreparedSignal:
    index: int
    external_id: str
    post_id: str
    kind: str
    payload: dict[str, Any]
    body_hash: str
    rating: str | None = None


def _prepare_signal(
    index: int, signal: Signal, source: str, reporter_key: bytes | None
) -> _PreparedSignal:
    payload = signal.model_dump(mode="json")
    rating = None
    if isinstance(signal, ReportSignal):
        reporter = payload.pop("reporter_id")
        if reporter is not None:
            assert reporter_key is not None
            payload["reporter_hash"] = hmac.new(
                reporter_key, f"{source}\x00{reporter}".encode(), hashlib.sha256
            ).hexdigest()
    elif isinstance(signal, FactCheckSignal):
        rating = signal.rating
    return _PreparedSignal(
        index,
        signal.id,
        post_id_for(source, signal.post_external_id),
        signal.kind,
        payload,
        _canonical_hash(payload),
        rating,
    )


def _apply_signal(post: PostRow, s: _PreparedSignal, now: float) -> dict[str, Any]:
    """Add the signal to the post's summary; the event data that says so."""
    p = s.payload
    data: dict[str, Any] = {"signal": s.external_id, "signal_kind": s.kind}
    if s.kind == "classifier":
        post.summary.add_score(
            {
                "model": p["model"],
                "model_version": p["model_version"],
                "label": p["label"],
                "score": p["score"],
                "threshold": p["threshold"],
                "spans": p["spans"],
            }
        )
        data.update(model=p["model"], label=p["label"], score=p["score"])
    elif s.kind == "report":
        post.summary.add_report(p["reason"], p["note"], p.get("created_at") or iso(now))
        data.update(reason=p["reason"])
    else:
        post.summary.add_fact_check(
            {
                "rating": p["rating"],
                "organisation": p["organisation"],
                "url": p["url"],
                "claim": p["claim"],
                "published_at": p["published_at"],
            },
            now,
        )
        data.update(rating=p["rating"], organisation=p["organisation"])
    return data


def _store_signals(
    ctx: Context,
    source: str,
    prepared: list[_PreparedSignal],
    rows: Mapping[str, PostRow],
) -> tuple[list[_PreparedSignal], dict[str, tuple[list[str], list[str]]]]:
    """Insert the signals (a conflict is a replay), add the new ones to their posts and
    settle the posts. Returns the new signals and what settling touched per post."""
    if not prepared:
        return [], {}
    inserted = set(
        _INSERT_SIGNALS(
            ctx.conn,
            [
                {
                    "source": source,
                    "external_id": s.external_id,
                    "post_id": s.post_id,
                    "kind": s.kind,
                    "body_hash": s.body_hash,
                    "payload": _json(s.payload),
                    "received_at": ctx.now,
                }
                for s in prepared
            ],
            ctx.postgres,
        )
    )
    new = [s for s in prepared if s.external_id in inserted]
    touched: dict[str, Touch] = {}
    for s in new:
        touch = touched.setdefault(s.post_id, Touch(route=True))
        touch.signals.append(_apply_signal(rows[s.post_id], s, ctx.now))
    _write_summaries(ctx, rows, touched)
    return new, settle(ctx, rows, touched)


def prepare_signals(
    batch: Sequence[Signal], source: str, reporter_key: bytes | None
) -> list[_PreparedSignal]:
    """What the signals are as stored (ids, payloads, hashes): worked out before the write
    transaction, which then holds the writer (SQLite) and the posts' locks for less."""
    return [_prepare_signal(i, s, source, reporter_key) for i, s in enumerate(batch)]


def intake_signals(ctx: Context, prepared: Sequence[_PreparedSignal]) -> dict[int, IntakeResult]:
    """Apply prepared signals (any part of a batch holding every copy of each id sent);
    the results by the signals' places in the batch."""
    source = ctx.actor
    by_index = {s.index: s for s in prepared}
    copy_of: dict[int, int] = {}
    first: dict[str, int] = {}
    fresh: list[_PreparedSignal] = []
    for s in prepared:
        j = first.setdefault(s.external_id, s.index)
        if j != s.index:
            copy_of[s.index] = j
        else:
            fresh.append(s)
    rows = _lock_posts(ctx, [s.post_id for s in fresh])
    known_ratings = ctx.known_ratings

    def refusal(s: _PreparedSignal) -> tuple[str, str] | None:
        post = rows.get(s.post_id)
        if post is None:
            return "unknown_post", "No post with this id was sent by this account."
        if post.state != LIVE:
            return "post_withdrawn", f"The post was withdrawn upstream ({post.state})."
        if s.rating is not None and s.rating not in known_ratings:
            return "unknown_rating", f"Rating {s.rating!r} is not on any queue's scale."
        return None

    refused = {s.index: why for s in fresh if (why := refusal(s)) is not None}
    new, settled = _store_signals(ctx, source, [s for s in fresh if s.index not in refused], rows)
    new_ids = {s.external_id for s in new}
    others = [s for s in fresh if s.external_id not in new_ids]
    stored = (
        {
            r.external_id: r.body_hash
            for r in ctx.conn.execute(
                _STORED_SIGNALS, {"source": source, "ids": [s.external_id for s in others]}
            )
        }
        if others
        else {}
    )
    results: dict[int, IntakeResult] = {}
    for s in fresh:
        if s.external_id in new_ids:
            results[s.index] = _result(s.external_id, IntakeStatus.created, settled.get(s.post_id))
        elif s.external_id in stored:
            results[s.index] = (
                _result(s.external_id, IntakeStatus.unchanged)
                if stored[s.external_id] == s.body_hash
                else _id_reused(s.external_id)
            )
        else:
            code, message = refused[s.index]
            results[s.index] = _rejected(s.external_id, code, message)
    for index, j in copy_of.items():
        results[index] = (
            _replayed(results[j])
            if by_index[index].body_hash == by_index[j].body_hash
            else _id_reused(by_index[index].external_id)
        )
    return results


def _id_reused(external_id: str) -> IntakeResult:
    return _rejected(
        external_id, "id_reused", "This id was sent before with another body; it counts once."
    )


# -- withdrawals -------------------------------------------------------------------------------


def intake_withdrawals(ctx: Context, batch: Sequence[Withdrawal]) -> list[IntakeResult]:
    conn = ctx.conn
    rows = _lock_posts(ctx, [post_id_for(ctx.actor, w.post_external_id) for w in batch])
    results: list[IntakeResult] = []
    withdrawn: dict[str, str] = {}
    for w in batch:
        post = rows.get(post_id_for(ctx.actor, w.post_external_id))
        if post is None:
            results.append(
                _rejected(
                    w.post_external_id,
                    "unknown_post",
                    "No post with this id was sent by this account.",
                )
            )
        elif post.state != LIVE:
            results.append(_result(w.post_external_id, IntakeStatus.unchanged))
        else:
            post.state = w.reason.value
            withdrawn[post.id] = w.reason.value
            results.append(_result(w.post_external_id, IntakeStatus.updated))
    if not withdrawn:
        return results
    conn.execute(
        _WITHDRAW_POST,
        [{"b_id": pid, "b_state": state, "b_now": ctx.now} for pid, state in withdrawn.items()],
    )
    open_items = conn.execute(_OPEN_ITEMS[ctx.postgres], {"ids": sorted(withdrawn)}).all()
    if open_items:
        conn.execute(_WITHDRAW_ITEMS, {"ids": [r.id for r in open_items]})
        tokens = [r.lease_token for r in open_items if r.lease_token]
        if tokens:
            conn.execute(_END_LEASES, {"ids": tokens, "b_now": ctx.now})
        ctx.events += [
            event_row(
                ctx.now,
                EventKind.withdrawn,
                ctx.actor,
                item_id=r.id,
                queue_id=r.queue_id,
                post=rows[r.post_id].external_id,
                reason=withdrawn[r.post_id],
                lease_ended=r.lease_token is not None,
            )
            for r in open_items
        ]
        # review ended without a decision: the platform is told so (enforcement.py)
        enforcement.withdrawn(
            conn,
            [
                enforcement.Withdrawn(
                    r.id, r.post_id, rows[r.post_id].author_id, r.queue_id, withdrawn[r.post_id]
                )
                for r in open_items
            ],
            ctx.now,
        )
    by_post: dict[str, tuple[list[str], list[str]]] = {
        r.post_id: ([r.id], [r.queue_id]) for r in open_items
    }
    return [
        r.model_copy(
            update={
                "item_ids": by_post.get(post_id_for(ctx.actor, r.external_id), ([], []))[0],
                "queue_ids": by_post.get(post_id_for(ctx.actor, r.external_id), ([], []))[1],
            }
        )
        if r.status is IntakeStatus.updated
        else r
        for r in results
    ]


# -- fact-checkers -----------------------------------------------------------------------------


def intake_fact_checks(
    ctx: Context, caller: Principal, batch: Sequence[FactCheckRating]
) -> list[IntakeResult]:
    """Store a fact-checker's ratings and put each on the posts it names (see
    ``FactCheckRating``), as a fact-check signal of the fact-checker's own."""
    conn = ctx.conn
    organisation = caller.display_name
    documents = [{**r.model_dump(mode="json"), "organisation": organisation} for r in batch]
    hashes = [_canonical_hash(d) for d in documents]
    first: dict[str, int] = {}
    copy_of: dict[int, int] = {}
    fresh: list[int] = []
    for i, rating in enumerate(batch):
        j = first.setdefault(rating.id, i)
        if j != i:
            copy_of[i] = j
        else:
            fresh.append(i)
    known_ratings = ctx.known_ratings
    candidates = [i for i in fresh if batch[i].rating in known_ratings]
    inserted: set[str] = set()
    if candidates:
        inserted = set(
            conn.execute(
                _INSERT_RATINGS[ctx.postgres],
                [
                    {
                        "user_id": caller.id,
                        "external_id": batch[i].id,
                        "body_hash": hashes[i],
                        "payload": _json(documents[i]),
                        "received_at": ctx.now,
                    }
                    for i in candidates
                ],
            ).scalars()
        )
    others = [batch[i].id for i in fresh if batch[i].id not in inserted]
    stored = (
        {
            r.external_id: r.body_hash
            for r in conn.execute(_STORED_RATINGS, {"user": caller.id, "ids": others})
        }
        if others
        else {}
    )
    new = [i for i in fresh if batch[i].id in inserted]
    named = sorted({pid for i in new for pid in batch[i].post_external_ids})
    rows: dict[str, PostRow] = {}
    if named:
        if ctx.postgres:  # authors before posts (see _SHARE_AUTHORS_OF_POSTS)
            conn.execute(_SHARE_AUTHORS_OF_EXTERNAL_IDS, {"ids": named}).all()
        rows = {
            r.id: PostRow.from_row(r)
            for r in conn.execute(_POSTS_BY_EXTERNAL_ID[ctx.postgres], {"ids": named})
        }
    by_external: dict[str, list[PostRow]] = {}
    for post in rows.values():
        by_external.setdefault(post.external_id, []).append(post)
    prepared: list[_PreparedSignal] = []
    for i in new:
        rating = batch[i]
        for external_id in dict.fromkeys(rating.post_external_ids):
            for post in by_external.get(external_id, []):
                if post.state != LIVE or (rating.source and post.source != rating.source):
                    continue
                signal_id = rating_signal_id(rating.id, post.id)
                payload = {
                    "kind": "fact_check",
                    "id": signal_id,
                    "post_external_id": post.external_id,
                    "organisation": organisation,
                    "rating": rating.rating,
                    "claim": rating.claim,
                    "url": rating.url,
                    "published_at": documents[i]["published_at"],
                    "fact_check_id": rating.id,
                }
                prepared.append(
                    _PreparedSignal(
                        i,
                        signal_id,
                        post.id,
                        "fact_check",
                        payload,
                        _canonical_hash(payload),
                        rating.rating,
                    )
                )
    _new_signals, settled = _store_signals(ctx, caller.username, prepared, rows)
    touched: dict[int, tuple[list[str], list[str]]] = {}
    for s in prepared:
        item_ids, queue_ids = settled.get(s.post_id, ([], []))
        have = touched.setdefault(s.index, ([], []))
        have[0].extend(x for x in item_ids if x not in have[0])
        have[1].extend(queue_ids)
    results: dict[int, IntakeResult] = {}
    for i in fresh:
        rating = batch[i]
        if rating.id in inserted:
            results[i] = _result(rating.id, IntakeStatus.created, touched.get(i))
        elif rating.id in stored:
            results[i] = (
                _result(rating.id, IntakeStatus.unchanged)
                if stored[rating.id] == hashes[i]
                else _id_reused(rating.id)
            )
        else:
            results[i] = _rejected(
                rating.id,
                "unknown_rating",
                f"Rating {rating.rating!r} is not on any queue's scale.",
            )
    for i, j in copy_of.items():
        results[i] = _replayed(results[j]) if hashes[i] == hashes[j] else _id_reused(batch[i].id)
    return [results[i] for i in range(len(batch))]


_RATINGS_PAGE = select(
    fact_check_ratings.c.id, fact_check_ratings.c.payload, fact_check_ratings.c.received_at
).where(fact_check_ratings.c.user_id == bindparam("user"))


def fact_check_page(
    conn: Connection, caller: Principal, cursor: str | None, limit: int
) -> FactCheckPage:
    after = decode_cursor(cursor)
    query = _RATINGS_PAGE
    if after is not None:
        query = query.where(fact_check_ratings.c.id > after)
    rows = conn.execute(
        query.order_by(fact_check_ratings.c.id).limit(limit + 1), {"user": caller.id}
    ).all()
    more = len(rows) > limit
    rows = rows[:limit]
    return FactCheckPage(
        ratings=[
            FactCheckRecord.model_validate(
                {**json.loads(r.payload), "received_at": iso(r.received_at)}
            )
            for r in rows
        ],
        next_cursor=encode_cursor(rows[-1].id) if more and rows else None,
    )


# -- the desk: transactions around the above ----------------------------------------------------


class IntakeDesk:
    """The intake of one service: each call one write transaction (retried if it lost a
    race on PostgreSQL), the event log appended last."""

    def __init__(
        self,
        db: Database,
        clock: Callable[[], float],
        configs: Callable[[], Mapping[str, QueueConfig]],
        # ^ the running queues' configs, in queue order (the order routing tries them)
        write: Writer,
    ) -> None:
        self.db = db
        self.clock = clock
        self.configs = configs
        self.write = write
        self.postgres = not db.is_sqlite
        self._reporter_key: bytes | None = None

    def run(self, caller: Principal, work: Callable[[Context], R]) -> R:
        """``work`` in one write transaction of this desk (appeals.py uses it)."""
        return self._run(caller, work)

    def _run(self, caller: Principal, work: Callable[[Context], R]) -> R:
        configs = self.configs()

        def transaction(conn: Connection) -> R:
            ctx = Context(
                conn=conn,
                actor=caller.username,
                now=self.clock(),
                postgres=self.postgres,
                configs=configs,
                order=list(configs),  # the running queues in their order
            )
            results = work(ctx)
            append_events(conn, ctx.events)  # last: it holds the log's head until commit
            return results

        return self.write(transaction)

    def _parts(self, keys: Sequence[tuple[str, ...]]) -> list[list[int]]:
        """The places of a batch's elements split into the write transactions that apply
        them. One transaction, except on SQLite while claims are served (in the last
        ``CLAIMS_WITHIN_SECONDS``, by this process or another on the file): then parts of
        up to ``SQLITE_PART`` elements, so a
        claim (an urgent writer, db.WriterTurns, served before waiting batches) waits for
        a short part at most, not for a whole batch, for the one writer. (Parts cost
        throughput: each commit writes the pages it shares with the next again.) Elements
        that share any key (a post, a signal's id) go in the same part, in their order;
        parts follow the batch's order of their first elements.

        Still all or nothing where it matters: each element is applied whole in one
        transaction, and a batch is refused as a whole (shape, size, caller) before any
        part is written. A part that fails (the database gone, say) leaves the parts before
        it applied and the call answers an error; the platform sends the batch again, and
        what was applied answers ``unchanged`` (every element is idempotent)."""
        if (
            self.postgres
            or len(keys) <= SQLITE_PART
            or not self.db.urgent_writers_within(CLAIMS_WITHIN_SECONDS)
        ):
            return [list(range(len(keys)))]
        group: dict[tuple[int, str], int] = {}  # (key position, key) -> first element
        parent = list(range(len(keys)))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i, element_keys in enumerate(keys):
            for position, key in enumerate(element_keys):
                j = group.setdefault((position, key), i)
                a, b = root(i), root(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
        groups: dict[int, list[int]] = {}
        for i in range(len(keys)):
            groups.setdefault(root(i), []).append(i)
        parts: list[list[int]] = []
        for members in groups.values():  # in order of their first elements
            if parts and len(parts[-1]) + len(members) <= SQLITE_PART:
                parts[-1] += members
            else:
                parts.append(list(members))
        return [sorted(part) for part in parts]

    def posts(self, caller: Principal, batch: Sequence[IntakePost]) -> IntakeResults:
        documents = [post_document(p) for p in batch]
        results: dict[int, IntakeResult] = {}
        for part in self._parts([(p.external_id,) for p in batch]):
            posts = [batch[i] for i in part]
            docs = [documents[i] for i in part]
            done = self._run(caller, partial(intake_posts, batch=posts, documents=docs))
            results.update(zip(part, done, strict=True))
        return IntakeResults(results=[results[i] for i in range(len(batch))])

    def signals(self, caller: Principal, batch: Sequence[Signal]) -> IntakeResults:
        key = None
        if any(isinstance(s, ReportSignal) and s.reporter_id is not None for s in batch):
            key = self.reporter_key()
        prepared = prepare_signals(batch, caller.username, key)
        results: dict[int, IntakeResult] = {}
        for part in self._parts([(s.post_id, s.external_id) for s in prepared]):
            chunk = [prepared[i] for i in part]
            results.update(self._run(caller, partial(intake_signals, prepared=chunk)))
        return IntakeResults(results=[results[i] for i in range(len(batch))])

    def withdrawals(self, caller: Principal, batch: Sequence[Withdrawal]) -> IntakeResults:
        return IntakeResults(results=self._run(caller, lambda ctx: intake_withdrawals(ctx, batch)))

    def fact_checks(self, caller: Principal, batch: Sequence[FactCheckRating]) -> IntakeResults:
        return IntakeResults(
            results=self._run(caller, lambda ctx: intake_fact_checks(ctx, caller, batch))
        )

    def fact_check_page(self, caller: Principal, cursor: str | None, limit: int) -> FactCheckPage:
        with self.db.read() as conn:
            return fact_check_page(conn, caller, cursor, limit)

    def reporter_key(self) -> bytes:
        """The secret that reporter ids are hashed with: made once, in its own transaction
        (so a batch that rolls back cannot leave this process with a key never stored)."""
        if self._reporter_key is None:
            found = select(server_secrets.c.value).where(server_secrets.c.name == REPORTER_SECRET)
            with self.db.write() as conn:
                value = conn.execute(found).scalar()
                if value is None:
                    conn.execute(
                        _INSERT_SECRET[self.postgres].values(
                            name=REPORTER_SECRET, value=secrets.token_hex(32)
                        )
                    )
                    value = conn.execute(found).scalar_one()
            self._reporter_key = bytes.fromhex(value)
        return self._reporter_key

    def media(
        self, caller: Principal, content: bytes, declared_type: str | None
    ) -> tuple[MediaUploaded, bool]:
        """Store an upload (by its bytes: the same bytes from the same account are the same
        media); True when it is new."""
        if len(content) > MAX_MEDIA_BYTES:
            raise ApiError(
                413, "media_too_large", f"Media uploads are capped at {MAX_MEDIA_BYTES} bytes."
            )
        if not content:
            raise ApiError(422, "media_empty", "The upload has no bytes.")
        found = sniff(content)
        if found is None:
            raise ApiError(
                415,
                "unsupported_media",
                "The bytes are not PNG, JPEG, GIF, WebP, MP4 or WebM (read from the content, "
                "whatever the Content-Type says).",
            )
        declared = normalise_declared(declared_type)
        if declared and declared.startswith(("image/", "video/")) and declared != found.mime_type:
            raise ApiError(
                415,
                "media_type_mismatch",
                f"The bytes are {found.mime_type}, not {declared} as the Content-Type says.",
            )
        digest = hashlib.sha256(content).hexdigest()
        media_id = media_id_for(caller.username, digest)
        uploaded = MediaUploaded(
            media_id=media_id,
            mime_type=found.mime_type,
            size_bytes=len(content),
            sha256=digest,
        )
        with self.db.read() as conn:
            if conn.execute(select(media.c.id).where(media.c.id == media_id)).first():
                return uploaded, False
        with self.db.write() as conn:
            new = conn.execute(
                _INSERT_MEDIA[self.postgres].values(
                    id=media_id,
                    item_id=None,
                    position=0,
                    kind=found.kind.value,
                    mime_type=found.mime_type,
                    size_bytes=len(content),
                    width=found.width,
                    height=found.height,
                    alt_text="",
                    sensitive=False,
                    content=content,
                    source=caller.username,
                    sha256=digest,
                )
            ).scalar()
        return uploaded, new is not None


__all__ = [
    "IntakeDesk",
    "author_id_for",
    "media_id_for",
    "post_id_for",
]
