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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import BindParameter, Connection, bindparam, exists, insert, select, update
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
    select(account_actions)
    .where(account_actions.c.decision_id == bindparam("b_decision"))
    .order_by(account_actions.c.id.desc())
    .limit(1)
)


def reinstatement(
    conn: Connection, overturned_decision_id: int, *, postgres: bool
) -> tuple[Mapping[Any, Any], Any] | None:
    """Whether overturning a decision puts its author's status back: (the account action
    it made, the author's row, locked) when it does, None when the status stays. It stays
    when the decision raised nothing (the author was already so or beyond), when another
    account action changed the status since (that later decision stands), and when another
    standing decision of record, on another item, imposes that status or a stronger one
    (two reviewers restricted the author on two posts: overturning one leaves the other's
    restriction). ``reverse_for_overturn`` acts on it; ``enforcement.derive`` asks it too,
    in the same transaction, so the platform's reversal undoes the account part exactly
    when the service does."""
    earlier = conn.execute(_BY_DECISION, {"b_decision": overturned_decision_id}).mappings().first()
    if earlier is None:
        return None
    row = lock_authors(conn, [earlier["author_id"]], postgres=postgres).get(earlier["author_id"])
    if row is None or row.status != earlier["status_after"]:
        return None
    others = _imposed_by_others(conn, earlier["author_id"], earlier["item_id"])
    if others is not None and STATUS_RANK[others] >= STATUS_RANK[AuthorStatus(row.status)]:
        return None
    return earlier, row


def _imposed_by_others(
    conn: Connection, author_id: str, item_id: str | None
) -> AuthorStatus | None:
    """The strongest status a decision of record of another item of the author imposes by
    its author action (None: none does). The overturned item's own new decision is left
    out: its author action, if any, is applied after the reversal."""
    d = decisions_table.c
    query = (
        select(d.author_action)
        .distinct()
        .join(items, items.c.decision_id == d.id)
        .where(d.author_id == author_id, d.author_action.is_not(None))
    )
    if item_id is not None:
        query = query.where(items.c.id != item_id)
    imposed = [
        STATUS_OF_ACTION[AuthorAction(a)]
        for a in conn.execute(query).scalars()
        if a in _AUTHOR_ACTIONS
    ]
    return max(imposed, key=lambda s: STATUS_RANK[s], default=None)


_AUTHOR_ACTIONS = frozenset(a.value for a in STATUS_OF_ACTION)


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
    """An audit (or a reversed appeal) overturned a decision that raised its author's
    status: the status goes back to what it was before (the overturn's own author action,
    if any, is applied after this), unless ``reinstatement`` says it stays. Items that
    decision closed stay closed (their posts come back to review only through new
    signals). The events to append."""
    found = reinstatement(conn, overturned_decision_id, postgres=postgres)
    if found is None:
        return []
    earlier, row = found
    before = AuthorStatus(earlier["status_before"])
    action_id = conn.execute(
        _INSERT_ACTION,
        {
            "author_id": earlier["author_id"],
            "action": REINSTATE,
            "status_before": row.status,
            "status_after": before.value,
            "user_id": auditor.id,
            "decision_id": new_decision_id,
            "item_id": item_id,
            "policies": "[]",
            "note": None,
            "decided_at": now,
            "closed_items": 0,
        },
    ).scalar_one()
    conn.execute(
        _SET_STATUS, {"b_id": earlier["author_id"], "b_status": before.value, "b_now": now}
    )
    return [
        event_row(
            now,
            EventKind.account_actioned,
            auditor.username,
            item_id=item_id,
            queue_id=queue_id,
            author=row.handle,
            author_id=earlier["author_id"],
            author_action=REINSTATE,
            status_before=row.status,
            status=before.value,
            account_action_id=action_id,
            decision_id=new_decision_id,
            reverses_account_action_id=earlier["id"],
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
