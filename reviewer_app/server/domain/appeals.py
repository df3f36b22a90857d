"""Appeals: a user contests a decision; someone else decides whether it stands.

**Intake** (``intake_appeals``, ``POST /intake/appeals``): the platform relays a user's
appeal of the decision on their post (``post_external_id``) or on their account
(``author_external_id``), idempotent by the appeal's id (the same id with the same body is
``unchanged``, with another ``rejected``: ``id_reused``). The service attaches it to the
decision of record it contests:

- a post: the newest of the decisions of record of the post's items that still restricts
  it (its enforcement action did something: not ``keep``, not a ``restore``), so a later
  "no violation" in another queue leaves an earlier queue's restriction appealable;
- an account: the newest standing decision that imposes the account's status (restricted,
  suspended or inauthentic; ``accounts.standing``), which must be its item's decision of
  record; a lead's account action imposing it (made on no item) has no item to review.

The contested decision's item (the same item: its post, context and history, everything
the original reviewer saw) goes to the **appeals queue** (the queue file's queue with
``appeals = true``): state ``pending``, a new epoch, an ``appealed`` entry in its history,
queued as of the appeal's ``submitted_at`` (never later than now nor before the contested
decision), so its wait, the SLA and
the queue's order count from when the user appealed. Each element is answered on its own;
the reasons one is refused: ``no_appeals_queue``, ``submitted_in_future`` (more than
``SUBMITTED_AHEAD_SECONDS`` ahead of the service's clock), ``unknown_post``,
``unknown_author``, ``no_decision``, ``not_restrictive``, ``not_appealable``, ``in_review``
(the post is being reviewed now), ``already_appealed`` (one appeal per decision; one that
ended ``withdrawn`` was never decided and does not count).

**Withdrawals** (intake): withdrawing the post ends a waiting appeal of its decision
undecided (``end_withdrawn``), not an appeal of the account (``outliving_withdrawal``): the
account action stands whatever became of the post, and that appeal is still decided.

**Four eyes**: whoever decided the item before (any decision of any epoch on it, the
contested one included) is recused from its appeal. Their claims in an appeals queue skip
it (``leasing.claim`` with ``recuse``), and a verdict of theirs on it is ``rejected`` with
``conflict_of_interest`` (verdicts.py), however they came to hold a lease.

**Outcomes** (a verdict in the appeals queue, decision kind ``appeal`` naming the contested
decision in ``appeal_of``):

- ``uphold``: the contested decision stays the item's decision of record; the platform gets
  an ``appeal_upheld`` action (nothing to change: tell the user, with the appeal's id).
- ``reverse``: the appeal's decision becomes the decision of record and overturns the
  contested one: the platform gets a ``restore`` reversing the contested action, what that
  decision did to the account is undone (``accounts.reverse_for_overturn``) and its strikes
  go. In the reviewer figures a reversed appeal counts as an overturn of the contested
  decision's reviewer, an upheld one does not (stats.py).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, bindparam, delete, func, insert, or_, select, update

from reviewer_app.protocol import (
    Appeal,
    EventKind,
    IntakeResult,
    IntakeStatus,
    QueueConfig,
)
from reviewer_app.protocol.accounts import AuthorStatus
from reviewer_app.protocol.enforcement import EnforcementKind
from reviewer_app.server.domain import accounts
from reviewer_app.server.domain.intake.items import (
    Context,
    element_result,
    lock_posts,
    rejected_result,
    replayed_result,
)
from reviewer_app.server.domain.intake.rows import author_id_for, post_id_for
from reviewer_app.server.domain.priority import priority_value
from reviewer_app.server.domain.records import Principal, dumps, event_row
from reviewer_app.server.storage.tables import (
    account_actions,
    appeals,
    decisions,
    enforcement_actions,
    items,
    strikes,
)

CONFLICT_OF_INTEREST = "conflict_of_interest"
UPHELD = "upheld"
REVERSED = "reversed"
#: the post was withdrawn upstream while its appeal waited: the appeal ended undecided
WITHDRAWN = "withdrawn"
#: an appeal's subject: the decision on a post, or an account action
POST = "post"
ACCOUNT = "account"
#: how far ahead of the service's clock an appeal's ``submitted_at`` may be (clock skew)
SUBMITTED_AHEAD_SECONDS = 300
SUBMITTED_IN_FUTURE = "submitted_in_future"
RESTRICTED_STATUSES = frozenset(
    {AuthorStatus.restricted, AuthorStatus.suspended, AuthorStatus.inauthentic}
)
# enforcement kinds after which nothing stands against the user
_NOT_RESTRICTIVE = frozenset(
    {
        EnforcementKind.keep.value,
        EnforcementKind.restore.value,
        EnforcementKind.withdrawn.value,
        EnforcementKind.appeal_upheld.value,
        EnforcementKind.author_warn.value,
    }
)
_OPEN = ("pending", "leased")


def appeals_queue(configs: Mapping[str, QueueConfig]) -> str | None:
    """The queue appeals go to (the first with ``appeals = true``), if any."""
    return next((q for q, c in configs.items() if c.appeals), None)


def body_hash(appeal: Appeal) -> str:
    text = json.dumps(appeal.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


# -- intake -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Contested:
    decision: Mapping[Any, Any]
    item: Mapping[Any, Any]
    subject: str  # post or account


class _Refused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def intake_appeals(ctx: Context, batch: Sequence[Appeal]) -> list[IntakeResult]:
    """Attach each appeal to the decision it contests and queue its item (one transaction)."""
    queue_id = appeals_queue(ctx.configs)
    first: dict[str, IntakeResult] = {}
    results: list[IntakeResult] = []
    for appeal in batch:
        if appeal.id in first:
            results.append(replayed_result(first[appeal.id]))
            continue
        result = _intake_one(ctx, appeal, queue_id)
        first[appeal.id] = result
        results.append(result)
    return results


def _stored(ctx: Context, appeal: Appeal, digest: str) -> IntakeResult | None:
    """The answer to an appeal stored before under the same id (None: not stored)."""
    stored = ctx.conn.execute(
        select(appeals.c.body_hash, appeals.c.item_id, appeals.c.queue_id).where(
            appeals.c.source == ctx.actor, appeals.c.external_id == appeal.id
        )
    ).first()
    if stored is None:
        return None
    if stored.body_hash != digest:
        return rejected_result(
            appeal.id, "id_reused", "This id was sent before with another body; it counts once."
        )
    return element_result(appeal.id, IntakeStatus.unchanged, ([stored.item_id], [stored.queue_id]))


def _intake_one(ctx: Context, appeal: Appeal, queue_id: str | None) -> IntakeResult:
    digest = body_hash(appeal)
    if (stored := _stored(ctx, appeal, digest)) is not None:
        return stored
    if queue_id is None:
        return rejected_result(
            appeal.id, "no_appeals_queue", "This service has no appeals queue (appeals = true)."
        )
    ahead = appeal.submitted_at.timestamp() - ctx.now
    if ahead > SUBMITTED_AHEAD_SECONDS:
        return rejected_result(
            appeal.id,
            SUBMITTED_IN_FUTURE,
            f"submitted_at is {ahead:.0f} s ahead of this service's clock (at most "
            f"{SUBMITTED_AHEAD_SECONDS} s are taken): send when the user made the appeal.",
        )
    try:
        contested = (
            _contested_post(ctx, appeal.post_external_id, queue_id)
            if appeal.post_external_id is not None
            else _contested_account(ctx, appeal.author_external_id or "", queue_id)
        )
    except _Refused as refused:
        # the same appeal sent twice at once (a platform's retry): the copy that waited for
        # the item's lock finds the appeal open, and it is the one it sent
        if (stored := _stored(ctx, appeal, digest)) is not None:
            return stored
        return rejected_result(appeal.id, refused.code, refused.message)
    _open_appeal(ctx, appeal, digest, contested, queue_id)
    return element_result(appeal.id, IntakeStatus.created, ([contested.item["id"]], [queue_id]))


def _lock_items(ctx: Context, condition: Any) -> list[Mapping[Any, Any]]:
    query = select(items).where(condition).order_by(items.c.id)
    if ctx.postgres:
        query = query.with_for_update()
    return list(ctx.conn.execute(query).mappings())


def _refuse_if_open(found: Sequence[Mapping[Any, Any]], queue_id: str) -> None:
    for item in found:
        if item["state"] in _OPEN:
            if item["queue_id"] == queue_id:
                raise _Refused("already_appealed", "An appeal of this decision is waiting already.")
            raise _Refused(
                "in_review", "The post is being reviewed now; appeal its decision once made."
            )


def _contested_post(ctx: Context, external_id: str, queue_id: str) -> _Contested:
    post_id = post_id_for(ctx.actor, external_id)
    if post_id not in lock_posts(ctx, [post_id]):
        raise _Refused("unknown_post", "No post with this id was sent by this account.")
    found = _lock_items(ctx, items.c.post_id == post_id)
    _refuse_if_open(found, queue_id)
    # each item's decision of record stands (an item whose appeal ended withdrawn included)
    decided = [i for i in found if i["decision_id"] is not None]
    if not decided:
        raise _Refused("no_decision", "The post has no decision to appeal.")
    kinds = _action_kinds(ctx.conn, [int(i["decision_id"]) for i in decided])
    # the newest that still restricts the post: a later "no violation" in another queue
    # leaves an earlier queue's restriction standing
    restricting = [i for i in decided if _restricts(kinds[int(i["decision_id"])])]
    if not restricting:
        newest = _decision(ctx.conn, max(int(i["decision_id"]) for i in decided))
        raise _Refused(
            "not_restrictive",
            f"The post's decision ({newest['action']}) restricted nothing: nothing to appeal.",
        )
    item = max(restricting, key=lambda i: int(i["decision_id"]))
    decision = _decision(ctx.conn, int(item["decision_id"]))
    _check_not_appealed(ctx.conn, decision)
    return _Contested(decision, item, POST)


def _contested_account(ctx: Context, external_id: str, queue_id: str) -> _Contested:
    author_id = author_id_for(ctx.actor, external_id)
    author = accounts.lock_authors(ctx.conn, [author_id], postgres=ctx.postgres).get(author_id)
    if author is None:
        raise _Refused("unknown_author", "No author with this id was sent by this account.")
    status = AuthorStatus(author.status)
    if status not in RESTRICTED_STATUSES:
        taken = ctx.conn.execute(
            select(account_actions.c.id).where(account_actions.c.author_id == author_id).limit(1)
        ).first()
        if taken is None:
            raise _Refused("no_decision", "No account action was taken on this author.")
        raise _Refused(
            "not_restrictive", f"The account is {author.status}: no restriction to appeal."
        )
    # what the status stands on: the account actions still standing that impose it (an
    # audit's or an appeal's reinstatement imposes nothing; a reversed decision stands no
    # more; a second restriction on another post stands though it raised nothing)
    imposing = [s for s in accounts.standing(ctx.conn, author_id) if s.status is status]
    if any(s.decision_id is None for s in imposing):
        raise _Refused(
            "not_appealable",
            "The account action was a lead's, made on no item: there is no item to review.",
        )
    if not imposing:
        raise _Refused(
            "not_restrictive", "No decision standing gives the account its status: all reversed."
        )
    latest = max(imposing, key=lambda s: (s.decided_at, s.decision_id or 0))
    found = _lock_items(ctx, items.c.id == latest.item_id)
    _refuse_if_open(found, queue_id)
    if not found or found[0]["decision_id"] != latest.decision_id:
        raise _Refused(
            "not_restrictive", "The decision behind the account action was replaced since."
        )
    decision = _decision(ctx.conn, int(found[0]["decision_id"]))
    _check_not_appealed(ctx.conn, decision)
    return _Contested(decision, found[0], ACCOUNT)


def _decision(conn: Connection, decision_id: int) -> Mapping[Any, Any]:
    return conn.execute(select(decisions).where(decisions.c.id == decision_id)).mappings().one()


def _restricts(kind: str | None) -> bool:
    """A decision whose enforcement action is of this kind restricts something (None: it
    has no action, from before actions began)."""
    return kind is not None and kind not in _NOT_RESTRICTIVE


def _action_kinds(conn: Connection, decision_ids: Sequence[int]) -> dict[int, str | None]:
    """The enforcement action kind of each decision (None: it has none)."""
    found: dict[int, str | None] = dict.fromkeys(decision_ids)
    for r in conn.execute(
        select(enforcement_actions.c.decision_id, enforcement_actions.c.kind).where(
            enforcement_actions.c.decision_id.in_(sorted(set(decision_ids)))
        )
    ):
        found[int(r.decision_id)] = str(r.kind)
    return found


def _check_not_appealed(conn: Connection, decision: Mapping[Any, Any]) -> None:
    # an appeal that ended withdrawn (its post withdrawn while it waited) was never decided
    earlier = conn.execute(
        select(appeals.c.external_id, appeals.c.outcome).where(
            appeals.c.decision_id == decision["id"],
            or_(appeals.c.outcome.is_(None), appeals.c.outcome != WITHDRAWN),
        )
    ).first()
    if earlier is not None:
        raise _Refused(
            "already_appealed",
            f"This decision was appealed already (appeal {earlier.external_id}, "
            f"{earlier.outcome or 'waiting'}).",
        )


def _open_appeal(
    ctx: Context, appeal: Appeal, digest: str, contested: _Contested, queue_id: str
) -> None:
    item = contested.item
    decision = contested.decision
    payload = json.loads(item["payload"])
    detail = f"appeal of decision {decision['id']} ({decision['action']})"
    reason = {"kind": "appeal", "detail": detail[:200]}
    payload["reasons"] = [reason, *[r for r in payload["reasons"] if r.get("kind") != "appeal"]][:8]
    config = ctx.configs[queue_id]
    # queued as of when the user made the appeal (its wait and the SLA count from then), never
    # later than now nor before the decision it contests (a platform sending the post's time,
    # or 1971, put it decades over the SLA and first in the queue for good)
    made = max(appeal.submitted_at.timestamp(), float(decision["decided_at"]))
    enqueued_at = min(made, ctx.now)
    top = max((float(s["score"]) for s in payload.get("scores") or ()), default=0.0)
    priority = priority_value(
        config.priority,
        top,
        int(payload["reports"]["total"]),
        int(payload["reach"]["views"]),
        enqueued_at,
    )
    ctx.conn.execute(
        update(items)
        .where(items.c.id == item["id"])
        .values(
            queue_id=queue_id,
            state="pending",
            epoch=item["epoch"] + 1,
            enqueued_at=enqueued_at,
            priority=priority,
            payload=dumps(payload),
            lease_token=None,
            lease_user_id=None,
            lease_expires_at=None,
        )
    )
    ctx.conn.execute(
        insert(appeals).values(
            source=ctx.actor,
            external_id=appeal.id,
            body_hash=digest,
            subject=contested.subject,
            item_id=item["id"],
            queue_id=queue_id,
            decision_id=decision["id"],
            reviewer_id=decision["user_id"],
            contested_at=decision["decided_at"],
            statement=appeal.statement,
            submitted_at=appeal.submitted_at.timestamp(),
            received_at=ctx.now,
        )
    )
    ctx.events.append(
        event_row(
            ctx.now,
            EventKind.appealed,
            ctx.actor,
            item_id=item["id"],
            queue_id=queue_id,
            appeal_id=appeal.id,
            subject=contested.subject,
            decision_id=int(decision["id"]),
            from_queue=item["queue_id"],
        )
    )


# -- four eyes ----------------------------------------------------------------------------------


def recused(conn: Connection, item_ids: Sequence[str], user_id: int) -> set[str]:
    """The items among ``item_ids`` that ``user_id`` decided before (any epoch)."""
    if not item_ids:
        return set()
    return set(
        conn.execute(
            select(decisions.c.item_id)
            .where(decisions.c.item_id.in_(sorted(set(item_ids))), decisions.c.user_id == user_id)
            .distinct()
        ).scalars()
    )


def open_appeals(conn: Connection, item_ids: Sequence[str]) -> dict[str, Mapping[Any, Any]]:
    """The undecided appeal of each of these items that has one."""
    if not item_ids:
        return {}
    return {
        r["item_id"]: r
        for r in conn.execute(
            select(appeals).where(
                appeals.c.item_id.in_(sorted(set(item_ids))), appeals.c.outcome.is_(None)
            )
        ).mappings()
    }


def outliving_withdrawal(conn: Connection, item_ids: Sequence[str]) -> set[str]:
    """The items among these (open items of posts being withdrawn) whose waiting appeal is of
    the account: the account action stands whatever became of the post, so the appeal stays
    in its queue to be decided (its outcome still reaches the platform)."""
    return {i for i, r in open_appeals(conn, item_ids).items() if r["subject"] == ACCOUNT}


def end_withdrawn(conn: Connection, item_ids: Sequence[str], now: float) -> dict[str, str]:
    """The waiting appeals of these items (whose posts were withdrawn) end undecided: the
    platform's id of each, by item (the ``withdrawn`` action names it)."""
    waiting = open_appeals(conn, item_ids)
    if waiting:
        conn.execute(
            update(appeals)
            .where(appeals.c.id.in_([r["id"] for r in waiting.values()]))
            .values(outcome=WITHDRAWN, decided_at=now)
        )
    return {item_id: str(r["external_id"]) for item_id, r in waiting.items()}


# -- outcomes -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """An appeal decided in a verdict batch (written by ``settle``)."""

    appeal_id: int
    outcome: str  # UPHELD or REVERSED
    decision_id: int  # the appeal's decision
    contested_id: int
    item_id: str
    queue_id: str


def settle(
    conn: Connection, outcomes: Sequence[Outcome], user: Principal, now: float, *, postgres: bool
) -> list[dict[str, Any]]:
    """Record the outcomes; a reversal also undoes what the contested decision did to the
    account and takes its strikes away. The events to append."""
    events: list[dict[str, Any]] = []
    if not outcomes:
        return events
    conn.execute(
        update(appeals)
        .where(appeals.c.id == bindparam("b_id"))
        .values(
            outcome=bindparam("b_outcome"),
            outcome_decision_id=bindparam("b_decision"),
            decided_at=bindparam("b_now"),
        ),
        [
            {"b_id": o.appeal_id, "b_outcome": o.outcome, "b_decision": o.decision_id, "b_now": now}
            for o in outcomes
        ],
    )
    for o in outcomes:
        if o.outcome != REVERSED:
            continue
        events += accounts.reverse_for_overturn(
            conn, o.contested_id, user, o.decision_id, o.item_id, o.queue_id, now, postgres=postgres
        )
        conn.execute(delete(strikes).where(strikes.c.decision_id == o.contested_id))
    return events


# -- reviewer figures ---------------------------------------------------------------------------


def outcomes_by_reviewer(
    conn: Connection, since: float, until: float, user_id: int | None = None
) -> dict[int, dict[str, int]]:
    """Per reviewer, the appeals decided of their decisions made in the window, by outcome."""
    conditions = [
        appeals.c.outcome.is_not(None),
        appeals.c.contested_at >= since,
        appeals.c.contested_at < until,
    ]
    if user_id is not None:
        conditions.append(appeals.c.reviewer_id == user_id)
    found: dict[int, dict[str, int]] = {}
    for r in conn.execute(
        select(appeals.c.reviewer_id, appeals.c.outcome, func.count())
        .where(and_(*conditions))
        .group_by(appeals.c.reviewer_id, appeals.c.outcome)
    ):
        found.setdefault(int(r[0]), {})[str(r[1])] = int(r[2])
    return found


__all__ = [
    "CONFLICT_OF_INTEREST",
    "REVERSED",
    "UPHELD",
    "WITHDRAWN",
    "Outcome",
    "appeals_queue",
    "end_withdrawn",
    "intake_appeals",
    "open_appeals",
    "outcomes_by_reviewer",
    "outliving_withdrawal",
    "recused",
    "settle",
]
