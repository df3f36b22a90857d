"""Where intake puts a post: its stored row, the context routing reads, the result of each
element, and the open item a post gets (or keeps) when its signals meet a queue's rule."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from sqlalchemy import Connection, and_, bindparam, func, select

from reviewer_app.protocol import (
    ActionKind,
    AuthorAction,
    EventKind,
    IntakeReason,
    IntakeResult,
    IntakeStatus,
    PriorityWeights,
    QueueConfig,
)
from reviewer_app.protocol.accounts import CLOSING_STATUSES, AuthorStatus
from reviewer_app.protocol.common import MAX_LABEL
from reviewer_app.server.domain import held_back, search_index
from reviewer_app.server.domain.intake.rows import (
    AUTHORS_FOR_ROUTING,
    DECIDED_ITEMS,
    INSERT_ITEMS,
    ITEM_PAYLOADS,
    LIVE,
    MAX_RESULT_IDS,
    OPEN_ITEMS,
    POSTS_BY_ID,
    SHARE_AUTHORS_OF_POSTS,
    UPDATE_ITEM,
    UPDATE_SUMMARY,
    compact_json,
    new_item_id,
)
from reviewer_app.server.domain.priority import priority_value
from reviewer_app.server.domain.records import event_row
from reviewer_app.server.domain.routing import Earlier, Match, Summary, route
from reviewer_app.server.storage.bulk import any_of
from reviewer_app.server.storage.tables import decisions, events, users


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
            self._payload = orjson.loads(self.payload_text)
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
    post_unchanged: bool = False
    """Only signals came (not the post or its author): the item's search document can
    change only by a report reason new to it."""


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
    opened: dict[str, tuple[dict[str, Any], str]] = field(default_factory=dict)
    """Items opened in this batch: id -> their payload and author (for their search rows)."""
    _labels: dict[str, dict[str, str]] = field(default_factory=dict)
    _account_rules: bool | None = None

    def labels(self, queue_id: str) -> dict[str, str]:
        """Rating id -> label on the queue's scale (another queue's, when it has none)."""
        found = self._labels.get(queue_id)
        if found is None:
            found = {}
            for config in self.configs.values():
                found.update(config.rating_labels())
            own = self.configs.get(queue_id)
            if own is not None:
                found.update(own.rating_labels())
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


def element_result(
    external_id: str, status: IntakeStatus, touched: tuple[list[str], list[str]] | None = None
) -> IntakeResult:
    item_ids, queue_ids = touched or ([], [])
    return IntakeResult(
        external_id=external_id,
        status=status,
        item_ids=item_ids[:MAX_RESULT_IDS],
        queue_ids=list(dict.fromkeys(queue_ids))[:MAX_RESULT_IDS],
    )


def rejected_result(external_id: str, code: str, message: str) -> IntakeResult:
    """An element refused. A message longer than the wire allows (one that names what a
    platform sent, an id of up to 200 characters) is cut with an ellipsis: a refusal that
    cannot be said must not fail the batch."""
    if len(message) > MAX_LABEL:
        message = message[: MAX_LABEL - 1] + "…"
    return IntakeResult(
        external_id=external_id,
        status=IntakeStatus.rejected,
        reason=IntakeReason(code=code, message=message),
    )


def replayed_result(first: IntakeResult) -> IntakeResult:
    """The answer to a second copy of an element in the same batch."""
    if first.status is IntakeStatus.rejected:
        return first
    return first.model_copy(update={"status": IntakeStatus.unchanged})


def _log_touch(ctx: Context, item: Any, post: PostRow, touch: Touch) -> None:
    """The open item's history: the post's new version, the signals that came in."""
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
    open_items = conn.execute(OPEN_ITEMS[ctx.postgres], {"ids": ids}).all()
    updates = []
    searched_same: set[str] = set()  # items whose search document cannot have changed
    for item in open_items:
        config = ctx.configs.get(item.queue_id)
        if config is not None and config.appeals:
            # an appeal waits on the decided item: it keeps what was decided (the post and
            # signals its reviewer saw), not what came in since (the post stays in review)
            out[item.post_id] = ([item.id], [item.queue_id])
            searched_same.add(item.id)
            continue
        post = rows[item.post_id]
        touch = touched[item.post_id]
        before = orjson.loads(item.payload)
        payload = item_payload(post, before["reasons"], ctx.labels(item.queue_id))
        if touch.post_unchanged and _report_reasons(before) == _report_reasons(payload):
            searched_same.add(item.id)
        updates.append(
            {
                "id": item.id,
                "payload": compact_json(payload),
                "priority": _priority(ctx, item.queue_id, post, item.enqueued_at),
            }
        )
        _log_touch(ctx, item, post, touch)
        out[item.post_id] = ([item.id], [item.queue_id])
    UPDATE_ITEM(conn, updates, ctx.postgres)
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
    opened, ctx.opened = ctx.opened, {}
    search_index.add_new(conn, opened, ctx.postgres)
    search_index.refresh(
        conn,
        [
            i
            for item_ids, _ in out.values()
            for i in item_ids
            if i not in searched_same and i not in opened
        ],
        ctx.postgres,
    )
    return out


def _report_reasons(payload: Mapping[str, Any]) -> set[str]:
    """The report reasons an item's document names (what its search document keeps of its
    reports: ``search_index.doc_for``)."""
    return {str(r.get("reason")) for r in (payload.get("reports") or {}).get("by_reason") or []}


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


def _decided_before(
    ctx: Context, post_ids: list[str]
) -> tuple[set[str], dict[str, dict[str, Any]], dict[str, int], dict[str, float]]:
    """What the posts' decided items say: the posts removed (never routed again), each
    post's newest decided item per queue, and for a kept item the reports its reviewer's
    copy showed (for "new reports since") and when that copy was served (``_served``)."""
    conn = ctx.conn
    removed: set[str] = set()
    latest: dict[str, dict[str, Any]] = {}  # post -> queue -> its newest decided item
    for r in conn.execute(DECIDED_ITEMS[ctx.postgres], {"ids": post_ids}):
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
    served: dict[str, float] = {}
    if kept_ids:
        for kept in conn.execute(ITEM_PAYLOADS[ctx.postgres], {"ids": kept_ids}):
            reports_then[kept.id] = int(orjson.loads(kept.payload)["reports"]["total"])
        decided = {
            d["decision_id"]: d
            for per_queue in latest.values()
            for d in per_queue.values()
            if d["id"] in reports_then
        }
        served, unseen = _served(ctx, decided)
        for item_id, count in unseen.items():
            reports_then[item_id] -= count
    return removed, latest, reports_then, served


_CLAIMED = EventKind.claimed.value
_SIGNAL_ADDED = EventKind.signal_added.value
# the newest claim of each decision's item by the person who decided it, before the decision
# (the log's ``claimed`` entries, by the item's index; a lead's bulk decision logs none)
_CLAIMS_OF_DECISIONS = {
    pg: select(decisions.c.id, func.max(events.c.at).label("claimed_at"))
    .select_from(
        decisions.join(users, users.c.id == decisions.c.user_id).join(
            events,
            and_(events.c.item_id == decisions.c.item_id, events.c.actor == users.c.username),
        )
    )
    .where(
        any_of(decisions.c.id, pg),
        events.c.kind == _CLAIMED,
        events.c.at <= decisions.c.decided_at,
    )
    .group_by(decisions.c.id)
    for pg in (False, True)
}
_SIGNALS_ADDED_AFTER = {
    pg: select(events.c.item_id, events.c.at, events.c.data).where(
        any_of(events.c.item_id, pg),
        events.c.kind == _SIGNAL_ADDED,
        events.c.at > bindparam("after"),
    )
    for pg in (False, True)
}


def _served(
    ctx: Context, decided: Mapping[int, Mapping[str, Any]]
) -> tuple[dict[str, float], dict[str, int]]:
    """When the reviewer's copy of each decided item (``decided``: by decision id) was
    served, the claim of their lease (an item without one is left out), and the reports
    that reached the item between then and the decision. A client leases ahead and sends a
    verdict after an undo window: what came meanwhile was not in the copy decided on (a
    false rating that came then was never re-reviewed after a keep)."""
    served: dict[str, float] = {}
    if not decided:
        return served, {}
    claims = ctx.conn.execute(_CLAIMS_OF_DECISIONS[ctx.postgres], {"ids": sorted(decided)})
    for claim in claims:
        served[decided[claim.id]["id"]] = float(claim.claimed_at)
    unseen: dict[str, int] = {}
    if not served:
        return served, unseen
    decided_at = {d["id"]: float(d["decided_at"]) for d in decided.values()}
    found = ctx.conn.execute(
        _SIGNALS_ADDED_AFTER[ctx.postgres],
        {"ids": sorted(served), "after": min(served.values())},
    )
    for r in found:
        during = served[r.item_id] < r.at <= decided_at[r.item_id]
        if during and orjson.loads(r.data).get("signal_kind") == "report":
            unseen[r.item_id] = unseen.get(r.item_id, 0) + 1
    return served, unseen


def _route(
    ctx: Context, rows: Mapping[str, PostRow], post_ids: list[str]
) -> dict[str, tuple[list[str], list[str]]]:
    """Open an item for each post a routing or re-review rule takes (none is open)."""
    conn = ctx.conn
    removed, latest, reports_then, served = _decided_before(ctx, post_ids)
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
                seen_at=served.get(d["id"]),
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
    held: list[held_back.Held] = []
    new_items: list[dict[str, Any]] = []
    out: dict[str, tuple[list[str], list[str]]] = {}
    for pid, match in matches.items():
        post = rows[pid]
        author_status = status.get(post.author_id)
        if author_status in CLOSING_STATUSES:
            assert author_status is not None
            held.append(
                held_back.Held(
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
    INSERT_ITEMS(conn, new_items, ctx.postgres)
    ctx.events += held_back.hold_back(conn, held, ctx.now, ctx.actor, postgres=ctx.postgres)
    return out


def _authors_for_routing(
    ctx: Context, author_ids: set[str]
) -> tuple[dict[str, float], dict[str, AuthorStatus]]:
    """The authors' inauthenticity scores and their statuses (one query)."""
    if not author_ids:
        return {}, {}
    scores: dict[str, float] = {}
    statuses: dict[str, AuthorStatus] = {}
    for r in ctx.conn.execute(AUTHORS_FOR_ROUTING[ctx.postgres], {"ids": sorted(author_ids)}):
        account = orjson.loads(r.payload).get("signals") or {}
        scores[r.id] = float(account.get("inauthenticity_score", 0.0))
        statuses[r.id] = AuthorStatus(r.status)
    return scores, statuses


def _open_item(ctx: Context, post: PostRow, match: Match) -> dict[str, Any]:
    item_id = new_item_id()
    queue_id = match.queue_id
    payload = item_payload(post, match.reasons, ctx.labels(queue_id))
    ctx.opened[item_id] = (payload, post.author_id)
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
        "payload": compact_json(payload),
        "epoch": 0,
        "post_id": post.id,
    }


def lock_posts(ctx: Context, post_ids: Iterable[str]) -> dict[str, PostRow]:
    ids = sorted(set(post_ids))
    if not ids:
        return {}
    if ctx.postgres:
        ctx.conn.execute(SHARE_AUTHORS_OF_POSTS, {"ids": ids}).all()
    return {
        r.id: PostRow.from_row(r) for r in ctx.conn.execute(POSTS_BY_ID[ctx.postgres], {"ids": ids})
    }


def write_summaries(ctx: Context, rows: Mapping[str, PostRow], post_ids: Iterable[str]) -> None:
    changes = [{"id": pid, "signal_summary": rows[pid].summary.dump()} for pid in sorted(post_ids)]
    UPDATE_SUMMARY(ctx.conn, changes, ctx.postgres)
