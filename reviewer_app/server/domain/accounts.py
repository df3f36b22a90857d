"""Account actions: an author's status, closing an actioned author's open items, linked
accounts, and posts held back from the queues (the rules are protocol/accounts.py's).

**An account-level decision** raises the author's status (``authors.status``) and is one
``account_actions`` row. It comes from a verdict whose action carries an author action
(verdicts.py calls ``apply`` in the verdict's transaction; the verdict's own enforcement
action, ``author:*`` for an action of kind ``author``, is derived there), or from a lead's
account action on one or more accounts (``lead_action``: all in one transaction or none,
each account its own decision and its own ``author:*`` enforcement action).

**Suspended or inauthentic**: in the same transaction every open item of the author, in
every queue, is closed as ``resolved``: state, lease cleared and ended, ``resolved`` in its
history. Not an item a waiting appeal is for: the user's appeal of a restriction is still
answered by an appeal reviewer (its outcome goes to the platform), whatever the status. A
reviewer who held one learns it from the renewal (``author_actioned``, leasing.py) and a
verdict for it is ``rejected`` with reason ``author_actioned`` (verdicts.py), both with the
author's status, so their window says why. Intake holds their new posts back
(``hold_back``): the post is stored, it opens no item, ``held_posts`` counts it.

**Going back**: an audit overturn or a reversed appeal of a decision that acted on the
account leaves the author with what the account actions still standing impose
(``standing``: the author actions of decisions nothing overturned, and leads' account
actions; the strongest, else active) when that is less than the status now
(``reinstatement``; a ``reinstate`` row), in whatever order the decisions are overturned.

**Locks** (PostgreSQL): the author rows are locked ``FOR UPDATE`` (in id order) before their
items; intake reads an author's status ``FOR SHARE`` before it opens an item, so a post
routed while the author is being suspended either commits first (and its item is closed
here) or waits and sees the new status (READ COMMITTED reads the row as committed).

**Linked accounts**: ``author_links`` holds the handles an author's account signals name
(``shared_signal_accounts``); an account is linked to the authors it names and to the
authors that name it, on the same platform (source).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BindParameter,
    Connection,
    and_,
    bindparam,
    exists,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.sql.expression import ColumnElement, Select

from reviewer_app.protocol import EventKind, ProblemDetail
from reviewer_app.protocol.accounts import (
    CLOSING_STATUSES,
    MAX_CLOSED_LISTED,
    STATUS_OF_ACTION,
    STATUS_RANK,
    AccountActionRequest,
    AccountActionResult,
    AuthorStatus,
    status_after,
)
from reviewer_app.protocol.queues import AuthorAction, PolicyConfig
from reviewer_app.server.domain import enforcement
from reviewer_app.server.domain.records import Principal, event_row
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import (
    account_actions,
    appeals,
    author_links,
    authors,
    enforcement_actions,
    items,
    leases,
)
from reviewer_app.server.storage.tables import (
    decisions as decisions_table,  # ``decisions`` names the account decisions here
)

OPEN_STATES = ("pending", "leased")
RESOLVED = "resolved"
#: the reason code of a verdict (and the outcome of a renewal) on an item an account
#: action closed
AUTHOR_ACTIONED = "author_actioned"
MAX_QUEUES_SHOWN = 64
ids_param: BindParameter[Any] = bindparam("ids", expanding=True)
_LOCK_AUTHORS = (
    select(authors.c.id, authors.c.handle, authors.c.status, authors.c.source)
    .where(authors.c.id.in_(ids_param))
    .order_by(authors.c.id)
)
_SET_STATUS = (
    update(authors)
    .where(authors.c.id == bindparam("b_id"))
    .values(status=bindparam("b_status"), status_at=bindparam("b_now"))
)
_OPEN_OF_AUTHOR = (
    select(items.c.id, items.c.queue_id, items.c.lease_token)
    .where(
        items.c.author_id == bindparam("b_author"),
        items.c.state.in_(OPEN_STATES),
        ~exists().where(appeals.c.item_id == items.c.id, appeals.c.outcome.is_(None)),
    )
    .order_by(items.c.id)
)
_RESOLVE = (
    update(items)
    .where(items.c.id.in_(ids_param), items.c.state.in_(OPEN_STATES))
    .values(state=RESOLVED, lease_token=None, lease_user_id=None, lease_expires_at=None)
)
_END_LEASES = (
    update(leases).where(leases.c.token.in_(ids_param)).values(ended_at=bindparam("b_now"))
)
_INSERT_ACTION = insert(account_actions).returning(account_actions.c.id)
_STATUSES = select(authors.c.id, authors.c.status).where(authors.c.id.in_(ids_param))


def named_by_query(among: Callable[[Any], ColumnElement[bool]]) -> Select:
    """The handles the authors ``among`` picks name (their links)."""
    return select(author_links.c.author_id, author_links.c.handle).where(
        among(author_links.c.author_id)
    )


@dataclass(frozen=True)
class AccountDecision:
    """One account action on one author."""

    author_id: str
    action: AuthorAction
    user: Principal
    decision_id: int | None = None  # the verdict's decision that carried it
    item_id: str | None = None  # the item it was decided on
    queue_id: str | None = None
    policies: Sequence[str] = ()
    note: str | None = None


@dataclass
class Applied:
    """What one account-level decision did."""

    action_id: int
    author_id: str
    handle: str
    action: AuthorAction
    status_before: AuthorStatus
    status: AuthorStatus
    closed: list[tuple[str, str]] = field(default_factory=list)  # (item id, queue id)


@dataclass
class Outcome:
    applied: list[Applied]
    skipped: list[tuple[int, AuthorStatus | None]]  # (index, the author's status; None: unknown)
    events: list[dict[str, Any]]


def lock_authors(conn: Connection, author_ids: Iterable[str], *, postgres: bool) -> dict[str, Any]:
    """The authors' rows, locked for this transaction (PostgreSQL; SQLite has one writer)."""
    ids = sorted(set(author_ids))
    if not ids:
        return {}
    query = _LOCK_AUTHORS.with_for_update() if postgres else _LOCK_AUTHORS
    return {r.id: r for r in conn.execute(query, {"ids": ids})}


def apply(
    conn: Connection, decisions: Sequence[AccountDecision], now: float, *, postgres: bool
) -> Outcome:
    """Apply account-level decisions in order, in the caller's transaction. A decision that
    would not raise its author's status (or names an unknown author) is skipped; the
    events to append are returned (the caller appends them with its own)."""
    rows = lock_authors(conn, (d.author_id for d in decisions), postgres=postgres)
    status = {author_id: AuthorStatus(r.status) for author_id, r in rows.items()}
    outcome = Outcome([], [], [])
    for index, d in enumerate(decisions):
        row = rows.get(d.author_id)
        before = status.get(d.author_id)
        after = status_after(before, d.action) if before is not None else None
        if row is None or before is None or after is None:
            outcome.skipped.append((index, before))
            continue
        status[d.author_id] = after
        closed: list[Any] = []
        if after in CLOSING_STATUSES:
            query = _OPEN_OF_AUTHOR.with_for_update() if postgres else _OPEN_OF_AUTHOR
            closed = list(conn.execute(query, {"b_author": d.author_id}))
        action_id = conn.execute(
            _INSERT_ACTION,
            {
                "author_id": d.author_id,
                "action": d.action.value,
                "status_before": before.value,
                "status_after": after.value,
                "user_id": d.user.id,
                "decision_id": d.decision_id,
                "item_id": d.item_id,
                "policies": json.dumps(list(d.policies)),
                "note": d.note,
                "decided_at": now,
                "closed_items": len(closed),
            },
        ).scalar_one()
        conn.execute(_SET_STATUS, {"b_id": d.author_id, "b_status": after.value, "b_now": now})
        if closed:
            conn.execute(_RESOLVE, {"ids": [r.id for r in closed]})
            tokens = [r.lease_token for r in closed if r.lease_token]
            if tokens:
                conn.execute(_END_LEASES, {"ids": tokens, "b_now": now})
        handle = row.handle
        outcome.events += _applied_events(d, handle, before, after, action_id, closed, now)
        outcome.applied.append(
            Applied(
                action_id,
                d.author_id,
                handle,
                d.action,
                before,
                after,
                [(r.id, r.queue_id) for r in closed],
            )
        )
    return outcome


def _applied_events(
    d: AccountDecision,
    handle: str,
    before: AuthorStatus,
    after: AuthorStatus,
    action_id: int,
    closed: Sequence[Any],
    now: float,
) -> list[dict[str, Any]]:
    """The decision's ``account_actioned`` event and a ``resolved`` one per item it closed."""
    return [
        event_row(
            now,
            EventKind.account_actioned,
            d.user.username,
            item_id=d.item_id,
            queue_id=d.queue_id,
            author=handle,
            author_id=d.author_id,
            author_action=d.action.value,
            status_before=before.value,
            status=after.value,
            account_action_id=action_id,
            decision_id=d.decision_id,
            policies=list(d.policies),
            closed_items=len(closed),
        ),
        *[
            event_row(
                now,
                EventKind.resolved,
                d.user.username,
                item_id=r.id,
                queue_id=r.queue_id,
                author=handle,
                author_action=d.action.value,
                status=after.value,
                account_action_id=action_id,
                decision_id=d.decision_id,
                lease_ended=r.lease_token is not None,
            )
            for r in closed
        ],
    ]


REINSTATE = "reinstate"
_REINSTATED_BY = select(account_actions.c.id).where(
    account_actions.c.decision_id == bindparam("b_decision"),
    account_actions.c.action == REINSTATE,
)
_BY_DECISION = (
    select(account_actions.c.id)
    .where(account_actions.c.decision_id == bindparam("b_decision"))
    .order_by(account_actions.c.id.desc())
    .limit(1)
)
_AUTHOR_ACTIONS = frozenset(a.value for a in STATUS_OF_ACTION)
_D = decisions_table.c
# The author's decisions that acted on the account, and those that overturn a decision (an
# overturn or a reversed appeal is decided on the overturned decision's item: same author).
# Acted: it was a decision of record (it has its enforcement action; an escalation carrying
# an author action has none and did nothing) or it raised the status (an account action).
_ACCOUNT_DECISIONS = select(
    _D.id, _D.item_id, _D.author_action, _D.overturns_id, _D.decided_at
).where(
    _D.author_id == bindparam("b_author"),
    or_(
        _D.overturns_id.is_not(None),
        and_(
            _D.author_action.is_not(None),
            or_(
                exists().where(enforcement_actions.c.decision_id == _D.id),
                exists().where(
                    account_actions.c.author_id == _D.author_id,
                    account_actions.c.decision_id == _D.id,
                ),
            ),
        ),
    ),
)
_LEAD_ACTIONS = select(account_actions.c.action, account_actions.c.decided_at).where(
    account_actions.c.author_id == bindparam("b_author"),
    account_actions.c.decision_id.is_(None),
    account_actions.c.action != REINSTATE,
)


@dataclass(frozen=True)
class Standing:
    """An account action that stands on an author: what it imposes, and where from."""

    status: AuthorStatus
    decided_at: float
    decision_id: int | None = None  # None: a lead's account action, made on no item
    item_id: str | None = None


def standing(conn: Connection, author_id: str, *, leaving_out: int | None = None) -> list[Standing]:
    """The account actions that stand on the author: the author action of every decision no
    later decision overturned (an audit overturn, a reversed appeal), whether or not it
    raised the status when it was made (a second restriction on another post), and every
    lead's account action. ``leaving_out``: a decision being overturned now; the decision
    overturning it is left out too (its own author action is applied after the reversal).
    The platform can tell the same from the actions it received: those that acted on the
    account (an ``author_action`` or an ``author:*`` kind) that no later action reversed."""
    rows = conn.execute(_ACCOUNT_DECISIONS, {"b_author": author_id}).all()
    overturned = {r.overturns_id for r in rows if r.overturns_id is not None}
    found = [
        Standing(STATUS_OF_ACTION[AuthorAction(r.author_action)], r.decided_at, r.id, r.item_id)
        for r in rows
        if r.author_action in _AUTHOR_ACTIONS
        and r.id not in overturned
        and (leaving_out is None or leaving_out not in (r.id, r.overturns_id))
    ]
    found += [
        Standing(STATUS_OF_ACTION[AuthorAction(r.action)], r.decided_at)
        for r in conn.execute(_LEAD_ACTIONS, {"b_author": author_id})
        if r.action in _AUTHOR_ACTIONS
    ]
    return found


def strongest(found: Iterable[Standing]) -> AuthorStatus:
    """The status these standing account actions impose together (none: active)."""
    return max((s.status for s in found), key=STATUS_RANK.__getitem__, default=AuthorStatus.active)


@dataclass(frozen=True)
class Reinstatement:
    """An overturn that puts its author's status back (``reinstatement``)."""

    author: Any  # the author's row, locked
    status: AuthorStatus  # what the account actions still standing impose
    reverses: int | None  # the overturned decision's account action (None: it raised nothing)


def reinstatement(
    conn: Connection, overturned_decision_id: int, *, postgres: bool
) -> Reinstatement | None:
    """Whether overturning a decision puts its author's status back, and to what: None when
    the status stays. A decision that acted on the account (its author action) leaves the
    author with what the account actions still standing impose (``standing``: the strongest,
    else active), when that is less than the status now. So the status stays while another
    standing decision or a lead's account action imposes it (two reviewers restricted the
    author on two posts: overturning one leaves the other's restriction), and goes back once
    nothing standing does, whatever order the decisions are overturned in (a restriction
    overturned while a later suspension stood, then the suspension: the author is active).
    ``reverse_for_overturn`` acts on it; ``enforcement.derive`` asks it too, in the same
    transaction, so the platform's reversal undoes the account part exactly when the
    service does."""
    overturned = conn.execute(
        select(_D.author_id, _D.author_action).where(_D.id == overturned_decision_id)
    ).first()
    if overturned is None or overturned.author_action is None:
        return None
    author_id = str(overturned.author_id)
    row = lock_authors(conn, [author_id], postgres=postgres).get(author_id)
    if row is None:
        return None
    status = strongest(standing(conn, author_id, leaving_out=overturned_decision_id))
    if STATUS_RANK[status] >= STATUS_RANK[AuthorStatus(row.status)]:
        return None
    reverses = conn.execute(_BY_DECISION, {"b_decision": overturned_decision_id}).scalar()
    return Reinstatement(row, status, reverses)


def reverse_for_overturn(
    conn: Connection,
    overturned_decision_id: int,
    auditor: Principal,
    new_decision_id: int,
    item_id: str,
    queue_id: str,
    now: float,
    *,
    postgres: bool,
) -> list[dict[str, Any]]:
    """An audit (or a reversed appeal) overturned a decision that acted on its author's
    account: the status goes back to what the account actions still standing impose (the
    overturn's own author action, if any, is applied after this), unless ``reinstatement``
    says it stays. Items that decision closed stay closed (their posts come back to review
    only through new signals). The events to append."""
    found = reinstatement(conn, overturned_decision_id, postgres=postgres)
    if found is None:
        return []
    row = found.author
    action_id = conn.execute(
        _INSERT_ACTION,
        {
            "author_id": row.id,
            "action": REINSTATE,
            "status_before": row.status,
            "status_after": found.status.value,
            "user_id": auditor.id,
            "decision_id": new_decision_id,
            "item_id": item_id,
            "policies": "[]",
            "note": None,
            "decided_at": now,
            "closed_items": 0,
        },
    ).scalar_one()
    conn.execute(_SET_STATUS, {"b_id": row.id, "b_status": found.status.value, "b_now": now})
    reverses = {} if found.reverses is None else {"reverses_account_action_id": found.reverses}
    return [
        event_row(
            now,
            EventKind.account_actioned,
            auditor.username,
            item_id=item_id,
            queue_id=queue_id,
            author=row.handle,
            author_id=row.id,
            author_action=REINSTATE,
            status_before=row.status,
            status=found.status.value,
            account_action_id=action_id,
            decision_id=new_decision_id,
            **reverses,
        )
    ]


def reinstated_by(conn: Connection, decision_id: int) -> bool:
    """The decision (an overturn, a reversed appeal) put its author's status back."""
    return conn.execute(_REINSTATED_BY, {"b_decision": decision_id}).first() is not None


def lead_action(
    conn: Connection,
    lead: Principal,
    request: AccountActionRequest,
    now: float,
    *,
    postgres: bool,
    known_policies: Sequence[PolicyConfig] = (),
) -> tuple[list[AccountActionResult], list[dict[str, Any]]]:
    """A lead's account action on each named account: one account-level decision and one
    ``author:*`` enforcement action per account, or, when any account is unknown or the
    action would not change it (already so, or beyond), nothing at all (``ApiError``; the
    caller's transaction rolls back). Returns the results and the events to append."""
    decisions = [
        AccountDecision(
            author_id=author_id,
            action=request.action,
            user=lead,
            policies=tuple(request.policies),
            note=request.note,
        )
        for author_id in request.author_ids
    ]
    outcome = apply(conn, decisions, now, postgres=postgres)
    if outcome.skipped:
        raise _refusal(request, outcome.skipped)
    results = []
    for applied in outcome.applied:
        emit_author_action(
            conn,
            applied,
            now,
            policies=request.policies,
            note=request.note,
            known_policies=known_policies,
        )
        results.append(
            AccountActionResult(
                author_id=applied.author_id,
                handle=applied.handle,
                action_id=applied.action_id,
                status_before=applied.status_before,
                status=applied.status,
                closed_item_ids=[item_id for item_id, _ in applied.closed][:MAX_CLOSED_LISTED],
                closed_items=len(applied.closed),
                queue_ids=list(dict.fromkeys(q for _, q in applied.closed))[:MAX_QUEUES_SHOWN],
            )
        )
    return results, outcome.events


def emit_author_action(
    conn: Connection,
    applied: Applied,
    now: float,
    *,
    policies: Sequence[str] = (),
    note: str | None = None,
    known_policies: Sequence[PolicyConfig] = (),
) -> int:
    """The one ``author:*`` enforcement action of a lead's account decision (enforcement.py
    derives a verdict's own action, ``author:*`` included, in the verdict's transaction)."""
    return enforcement.account_action(
        conn,
        author_id=applied.author_id,
        action=applied.action,
        decided_at=now,
        now=now,
        policies=policies,
        note=note,
        known_policies=known_policies,
    )


def _refusal(
    request: AccountActionRequest, skipped: list[tuple[int, AuthorStatus | None]]
) -> ApiError:
    unknown = [(i, s) for i, s in skipped if s is None]
    target = STATUS_OF_ACTION[request.action]
    if unknown:
        return ApiError(
            404,
            "unknown_author",
            "Some accounts are not known to this service; no account action was applied.",
            errors=[
                ProblemDetail(
                    loc=["author_ids", i],
                    code="unknown_author",
                    message=f"No author {request.author_ids[i]!r}.",
                )
                for i, _ in unknown
            ],
        )
    return ApiError(
        409,
        "already_actioned",
        f"Some accounts are already {target.value} or beyond, so the action would change "
        "nothing for them; no account action was applied. Leave them out and try again.",
        errors=[
            ProblemDetail(
                loc=["author_ids", i],
                code="already_actioned",
                message=f"Author {request.author_ids[i]!r} is {status.value if status else '?'}.",
            )
            for i, status in skipped
        ],
    )


def statuses(conn: Connection, author_ids: Iterable[str]) -> dict[str, AuthorStatus]:
    ids = sorted(set(author_ids))
    if not ids:
        return {}
    return {r.id: AuthorStatus(r.status) for r in conn.execute(_STATUSES, {"ids": ids})}


def statuses_for_routing(
    conn: Connection, author_ids: Iterable[str], *, postgres: bool
) -> dict[str, AuthorStatus]:
    """The authors' statuses, read ``FOR SHARE`` on PostgreSQL: an account action on one of
    them waits until this transaction (which may open an item of theirs) commits."""
    ids = sorted(set(author_ids))
    if not ids:
        return {}
    query = _STATUSES.order_by(authors.c.id)
    if postgres:
        query = query.with_for_update(read=True)
    return {r.id: AuthorStatus(r.status) for r in conn.execute(query, {"ids": ids})}
