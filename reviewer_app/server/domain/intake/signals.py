"""Signals and withdrawals: classifier scores, user reports and fact-checks added to a post's
summary (idempotent by their own id), and posts withdrawn upstream."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from reviewer_app.protocol import (
    EventKind,
    FactCheckSignal,
    IntakeResult,
    IntakeStatus,
    ReportSignal,
    Signal,
    Withdrawal,
)
from reviewer_app.protocol.statements import clean_text
from reviewer_app.server.domain import appeals, enforcement
from reviewer_app.server.domain.intake.items import (
    Context,
    PostRow,
    Touch,
    element_result,
    lock_posts,
    rejected_result,
    replayed_result,
    settle,
    write_summaries,
)
from reviewer_app.server.domain.intake.rows import (
    END_LEASES,
    INSERT_SIGNALS,
    LIVE,
    OPEN_ITEMS,
    STORED_SIGNALS,
    WITHDRAW_ITEMS,
    WITHDRAW_POST,
    WITHDRAWN_AHEAD,
    WITHDRAWN_AT,
    canonical_hash,
    compact_json,
    post_id_for,
)
from reviewer_app.server.domain.records import event_row, iso


@dataclass
class PreparedSignal:
    index: int
    external_id: str
    post_id: str
    kind: str
    payload: dict[str, Any]
    body_hash: str
    rating: str | None = None
    published_at: datetime | None = None
    """a fact-check's (a platform's relay of one)"""
    blank_claim: bool = False
    """a relayed fact-check whose claim is empty or invisible characters only"""


#: how far ahead of the service's clock a fact-check's ``published_at`` may be (clock skew;
#: as an appeal's ``submitted_at``, appeals.SUBMITTED_AHEAD_SECONDS)
PUBLISHED_AHEAD_SECONDS = 300
PUBLISHED_IN_FUTURE = "published_in_future"
#: a relayed fact-check naming no claim: refused on its own (the rest of the batch is
#: taken), as a fact-checker's own rating of a blank claim is refused (``Claim``: 422)
BLANK_CLAIM = "blank_claim"


def published_ahead(published_at: datetime, now: float) -> str | None:
    """Why a fact-check published more than ``PUBLISHED_AHEAD_SECONDS`` after the service's
    clock ``now`` is refused (a year 8999 was taken, shown, and sorted as the newest
    fact-check), or None: a fact-checker's own rating or a platform's relay of one."""
    ahead = published_at.timestamp() - now
    if ahead <= PUBLISHED_AHEAD_SECONDS:
        return None
    return (
        f"published_at is {ahead:.0f} s ahead of this service's clock (at most "
        f"{PUBLISHED_AHEAD_SECONDS} s are taken): send when the fact-check was published."
    )


def _prepare_signal(
    index: int, signal: Signal, source: str, reporter_key: bytes | None
) -> PreparedSignal:
    payload = signal.model_dump(mode="json")
    rating, published_at = None, None
    if isinstance(signal, ReportSignal):
        reporter = payload.pop("reporter_id")
        if reporter is not None:
            assert reporter_key is not None
            payload["reporter_hash"] = hmac.new(
                reporter_key, f"{source}\x00{reporter}".encode(), hashlib.sha256
            ).hexdigest()
    elif isinstance(signal, FactCheckSignal):
        rating, published_at = signal.rating, signal.published_at
    return PreparedSignal(
        index,
        signal.id,
        post_id_for(source, signal.post_external_id),
        signal.kind,
        payload,
        canonical_hash(payload),
        rating,
        published_at,
        blank_claim=isinstance(signal, FactCheckSignal) and not clean_text(signal.claim),
    )


def _apply_signal(post: PostRow, s: PreparedSignal, now: float) -> dict[str, Any]:
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
            # a fact-checker key's own rating (a platform's relay of it carries no id)
            own="fact_check_id" in p,
        )
        data.update(rating=p["rating"], organisation=p["organisation"])
    return data


def store_signals(
    ctx: Context, source: str, prepared: list[PreparedSignal], rows: Mapping[str, PostRow]
) -> tuple[list[PreparedSignal], dict[str, tuple[list[str], list[str]]]]:
    """Insert the signals (a conflict is a replay), add the new ones to their posts and
    settle the posts. Returns the new signals and what settling touched per post."""
    if not prepared:
        return [], {}
    inserted = set(
        INSERT_SIGNALS(
            ctx.conn,
            [
                {
                    "source": source,
                    "external_id": s.external_id,
                    "post_id": s.post_id,
                    "kind": s.kind,
                    "body_hash": s.body_hash,
                    "payload": compact_json(s.payload),
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
        touch = touched.setdefault(s.post_id, Touch(route=True, post_unchanged=True))
        touch.signals.append(_apply_signal(rows[s.post_id], s, ctx.now))
    write_summaries(ctx, rows, touched)
    return new, settle(ctx, rows, touched)


def prepare_signals(
    batch: Sequence[Signal], source: str, reporter_key: bytes | None
) -> list[PreparedSignal]:
    """What the signals are as stored (ids, payloads, hashes): worked out before the write
    transaction, which then holds the writer (SQLite) and the posts' locks for less."""
    return [_prepare_signal(i, s, source, reporter_key) for i, s in enumerate(batch)]


def intake_signals(ctx: Context, prepared: Sequence[PreparedSignal]) -> dict[int, IntakeResult]:
    """Apply prepared signals (any part of a batch holding every copy of each id sent);
    the results by the signals' places in the batch."""
    source = ctx.actor
    by_index = {s.index: s for s in prepared}
    copy_of: dict[int, int] = {}
    first: dict[str, int] = {}
    fresh: list[PreparedSignal] = []
    for s in prepared:
        j = first.setdefault(s.external_id, s.index)
        if j != s.index:
            copy_of[s.index] = j
        else:
            fresh.append(s)
    rows = lock_posts(ctx, [s.post_id for s in fresh])
    known_ratings = ctx.known_ratings

    def refusal(s: PreparedSignal) -> tuple[str, str] | None:
        post = rows.get(s.post_id)
        if post is None:
            return "unknown_post", "No post with this id was sent by this account."
        if post.state != LIVE:
            return "post_withdrawn", f"The post was withdrawn upstream ({post.state})."
        if s.blank_claim:
            return BLANK_CLAIM, (
                "The fact-check names no claim (only spaces or invisible characters): send "
                "the claim it reviewed."
            )
        if s.rating is not None and s.rating not in known_ratings:
            return "unknown_rating", f"Rating {s.rating!r} is not on any queue's scale."
        if s.published_at is not None and (ahead := published_ahead(s.published_at, ctx.now)):
            return PUBLISHED_IN_FUTURE, ahead
        return None

    refused = {s.index: why for s in fresh if (why := refusal(s)) is not None}
    new, settled = store_signals(ctx, source, [s for s in fresh if s.index not in refused], rows)
    new_ids = {s.external_id for s in new}
    others = [s for s in fresh if s.external_id not in new_ids]
    stored = (
        {
            r.external_id: r.body_hash
            for r in ctx.conn.execute(
                STORED_SIGNALS, {"source": source, "ids": [s.external_id for s in others]}
            )
        }
        if others
        else {}
    )
    results: dict[int, IntakeResult] = {}
    for s in fresh:
        if s.external_id in new_ids:
            results[s.index] = element_result(
                s.external_id, IntakeStatus.created, settled.get(s.post_id)
            )
        elif s.external_id in stored:
            results[s.index] = (
                element_result(s.external_id, IntakeStatus.unchanged)
                if stored[s.external_id] == s.body_hash
                else id_reused_result(s.external_id)
            )
        else:
            code, message = refused[s.index]
            results[s.index] = rejected_result(s.external_id, code, message)
    for index, j in copy_of.items():
        results[index] = (
            replayed_result(results[j])
            if by_index[index].body_hash == by_index[j].body_hash
            else id_reused_result(by_index[index].external_id)
        )
    return results


def id_reused_result(external_id: str) -> IntakeResult:
    return rejected_result(
        external_id, "id_reused", "This id was sent before with another body; it counts once."
    )


def _withdrawal_row(ctx: Context, post_id: str, w: Withdrawal) -> dict[str, Any]:
    """WITHDRAW_POST's parameters: the post withdrawn at the withdrawal's ``at`` when it
    gives one, else when the service received it (a post batch compares with that); an
    ``at`` ahead of the service's clock counts as now (else a private post could not come
    back until then)."""
    return {
        "b_id": post_id,
        "b_state": w.reason.value,
        "b_now": _withdrawal_at(ctx, w),
        "b_at": _own_at(ctx, w),
    }


def _withdrawal_at(ctx: Context, w: Withdrawal) -> float:
    """When the withdrawal happened: its ``at``, no later than now; else now."""
    return ctx.now if w.at is None else min(w.at.timestamp(), ctx.now)


def _own_at(ctx: Context, w: Withdrawal) -> float:
    """What tells a withdrawal sent again: its own ``at`` (as the platform's clock gave it,
    so the same one sent later compares equal), at most ``WITHDRAWN_AHEAD`` ahead of now
    (a bogus date does not hold off the post's later withdrawals for long); without one,
    now (never a replay)."""
    return ctx.now if w.at is None else min(w.at.timestamp(), ctx.now + WITHDRAWN_AHEAD)


def _withdrawals_to_apply(
    ctx: Context, batch: Sequence[Withdrawal], rows: Mapping[str, PostRow]
) -> tuple[list[IntakeResult], dict[str, str], list[dict[str, Any]]]:
    """Each withdrawal's answer, the posts it withdraws (their reason) and their rows'
    changes (WITHDRAW_POST's parameters)."""
    # when each post was last withdrawn (it may be live again since)
    last_withdrawn = {
        r.id: r.withdrawn_at for r in ctx.conn.execute(WITHDRAWN_AT, {"ids": sorted(rows)})
    }
    results: list[IntakeResult] = []
    withdrawn: dict[str, str] = {}
    changes: list[dict[str, Any]] = []
    for w in batch:
        post = rows.get(post_id_for(ctx.actor, w.post_external_id))
        before = last_withdrawn.get(post.id) if post is not None else None
        if post is None:
            results.append(
                rejected_result(
                    w.post_external_id,
                    "unknown_post",
                    "No post with this id was sent by this account.",
                )
            )
        elif post.state != LIVE and (post.state, w.reason.value) != ("private", "deleted"):
            results.append(element_result(w.post_external_id, IntakeStatus.unchanged))
        elif post.state == LIVE and before is not None and _own_at(ctx, w) <= before:
            # a withdrawal the post came back from, sent again (a retried batch): the post
            # stays live
            results.append(element_result(w.post_external_id, IntakeStatus.unchanged))
        else:  # live, or private and now deleted (which never comes back)
            post.state = w.reason.value
            withdrawn[post.id] = w.reason.value
            changes.append(_withdrawal_row(ctx, post.id, w))
            results.append(element_result(w.post_external_id, IntakeStatus.updated))
    return results, withdrawn, changes


def intake_withdrawals(ctx: Context, batch: Sequence[Withdrawal]) -> list[IntakeResult]:
    conn = ctx.conn
    rows = lock_posts(ctx, [post_id_for(ctx.actor, w.post_external_id) for w in batch])
    results, withdrawn, changes = _withdrawals_to_apply(ctx, batch, rows)
    if not withdrawn:
        return results
    conn.execute(WITHDRAW_POST, changes)
    open_items = conn.execute(OPEN_ITEMS[ctx.postgres], {"ids": sorted(withdrawn)}).all()
    # a waiting appeal of the account outlives its post: its item stays in the appeals queue
    outliving = appeals.outliving_withdrawal(conn, [r.id for r in open_items])
    open_items = [r for r in open_items if r.id not in outliving]
    if open_items:
        conn.execute(WITHDRAW_ITEMS, {"ids": [r.id for r in open_items]})
        tokens = [r.lease_token for r in open_items if r.lease_token]
        if tokens:
            conn.execute(END_LEASES, {"ids": tokens, "b_now": ctx.now})
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
        # review ended without a decision (an appeal's of the post too): the platform is told
        ended = appeals.end_withdrawn(conn, [r.id for r in open_items], ctx.now)
        enforcement.withdrawn(
            conn,
            [
                enforcement.Withdrawn(
                    r.id,
                    r.post_id,
                    rows[r.post_id].author_id,
                    r.queue_id,
                    withdrawn[r.post_id],
                    ended.get(r.id),
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
