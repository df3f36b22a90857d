"""Bulk decisions (leads): one action on many items in one transaction, or none.

A bulk decision is the verdict path run for each item: the lead gets a lease of their own
on every item that needs one (an internal lease, token ``bulk-<key>``, ended by the verdict
at once; no ``claimed`` event), and the items go through ``VerdictRecorder`` as one batch,
so each is its own decision with its own idempotency key, ``decided`` event, statement and
enforcement action, exactly as a single verdict would make them. The account part is one
per author, as one verdict makes it: a post action with an account part (remove and
restrict author) carries it on the author's first item only (``_BulkRecorder``); an
account action (mark inauthentic, suspend) decides the author's first item, and the
author's other items of the request are closed by it (``resolved``), their result that
decision, kept under their keys.

Before any write every item is checked: decided meanwhile, leased to someone else under a
live lease, assigned to another lead (an escalation: only ever leased to its assignee),
withdrawn, closed by an account action, moved to another queue (escalated since the
lead listed it) or in a retired queue: any of these refuses the whole request
(409 ``bulk_refused``, each such item named in ``errors``: ``loc`` ``items, index, item
id``). An action, policy or rating that does not fit an item's queue config is a 422
``verdict_invalid`` naming the items the same way. Anything the recorder still turns down
(an appeal of the lead's own decision, ...) rolls the transaction back with the same 409.

Retries: an item whose key is already stored is not checked again; the recorder replays
its stored result (``duplicate``) when the body is the same (its lease token is made from
the key, so the body hash is the first attempt's), or answers 422
``idempotency_key_reused``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection, bindparam, func, insert, select, update

from reviewer_app.protocol import (
    ActionKind,
    EventKind,
    ProblemDetail,
    QueueConfig,
    Verdict,
    VerdictResult,
    VerdictStatus,
    verdict_problems,
)
from reviewer_app.protocol.bulk_decisions import (
    BULK_REFUSED,
    DUPLICATE_ITEMS,
    MAX_OPEN_ITEMS_LISTED,
    BulkDecisionRequest,
    BulkDecisionResults,
    OpenItem,
    OpenItems,
    repeated,
)
from reviewer_app.server.domain import account_links, accounts
from reviewer_app.server.domain.assembly import decisions_by_id
from reviewer_app.server.domain.records import (
    Principal,
    append_events,
    event_row,
    excerpt,
    to_dt,
)
from reviewer_app.server.domain.verdicts import VerdictRecorder, body_hash, item_problems
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.bulk import InsertMany, any_of
from reviewer_app.server.storage.tables import authors, items, leases, verdict_keys

# Lists of keys go as one array on PostgreSQL, rows as one JSON document (bulk.py).
_PG = (False, True)
_ITEMS = {
    pg: (
        select(items).where(any_of(items.c.id, pg)).order_by(items.c.id).with_for_update()
        if pg
        else select(items).where(any_of(items.c.id, pg)).order_by(items.c.id)
    )
    for pg in _PG
}
_STORED_KEYS = {pg: select(verdict_keys.c.key).where(any_of(verdict_keys.c.key, pg)) for pg in _PG}
_INSERT_LEASES = InsertMany(
    leases,
    (
        "token",
        "item_id",
        "queue_id",
        "user_id",
        "epoch",
        "claimed_at",
        "expires_at",
        "ended_at",
        "config_version",
    ),
    ignore_conflicts=False,
)
_END_OWN_LEASES = {
    pg: update(leases).where(any_of(leases.c.token, pg)).values(ended_at=bindparam("b_now"))
    for pg in _PG
}


def lease_token(key: str) -> str:
    """The internal lease a bulk decision takes on an item: made from the item's key, so a
    retry's verdict has the first attempt's body."""
    return "bulk-" + uuid.UUID(key).hex


def _refusal(index: int, item_id: str, code: str, message: str) -> ProblemDetail:
    return ProblemDetail(loc=["items", index, item_id], code=code, message=message)


def decide(
    conn: Connection,
    lead: Principal,
    request: BulkDecisionRequest,
    configs: Mapping[str, QueueConfig],
    now: float,
    *,
    postgres: bool,
    config_version: int,
    configs_at: Callable[[int], Mapping[str, QueueConfig]] | None = None,
) -> BulkDecisionResults:
    twice = repeated(request)
    if twice:
        raise ApiError(
            422, DUPLICATE_ITEMS, "Each item and each key may be named once.", errors=twice
        )
    keys = [str(i.idempotency_key) for i in request.items]
    found = {
        r["id"]: r
        for r in conn.execute(
            _ITEMS[postgres], {"ids": sorted({i.item_id for i in request.items})}
        ).mappings()
    }
    stored = set(conn.execute(_STORED_KEYS[postgres], {"ids": keys}).scalars())
    check = _Check(lead, request, configs, now, config_version)
    for index, (wanted, key) in enumerate(zip(request.items, keys, strict=True)):
        if key not in stored:  # else a retry: the recorder replays it (or refuses a change)
            check.item(index, wanted.item_id, key, found.get(wanted.item_id))
    check.raise_refused(conn)
    if check.own_leases:
        conn.execute(_END_OWN_LEASES[postgres], {"ids": check.own_leases, "b_now": now})

    # an account action (mark inauthentic, suspend) is one per author, as a single verdict
    # makes it: the author's first item carries it, the others it closes
    followers = _followers(request, found, configs, stored)
    if followers:
        tokens = {lease_token(keys[i]) for i in followers}
        check.new_leases = [lease for lease in check.new_leases if lease["token"] not in tokens]
    _INSERT_LEASES(conn, check.new_leases, postgres)

    recorder = _BulkRecorder(
        conn,
        lead,
        configs,
        now,
        postgres=postgres,
        config_version=config_version,
        configs_at=configs_at,
    )
    verdicts = [
        Verdict(
            idempotency_key=wanted.idempotency_key,
            item_id=wanted.item_id,
            lease_token=lease_token(key),
            action=request.action,
            policies=request.policies,
            rating=request.rating,
            note=request.note,
            author_action=request.author_action,
            time_spent_ms=0,
            decided_at=request.decided_at,
        )
        for wanted, key in zip(request.items, keys, strict=True)
    ]
    leaders = [v for i, v in enumerate(verdicts) if i not in followers]
    # the items as read above: locked (PostgreSQL), and unchanged since (only leases were)
    recorded = iter(recorder.record(leaders, known_items=found))
    results = [next(recorded) if i not in followers else None for i in range(len(verdicts))]
    turned_down = [
        _refusal(index, r.item_id, *_why(r))
        for index, r in enumerate(results)
        if r is not None and r.status not in (VerdictStatus.accepted, VerdictStatus.duplicate)
    ]
    if turned_down:
        raise _refused(turned_down, len(request.items))  # rolls the transaction back
    for index, leader in followers.items():
        results[index] = _closed_with(conn, lead, verdicts[index], results[leader], found, now)
    done = [r for r in results if r is not None]
    queue_ids = sorted({r.decision.queue_id for r in done if r.decision is not None})
    return BulkDecisionResults(results=done, queue_ids=queue_ids[:64])


class _BulkRecorder(VerdictRecorder):
    """The verdict path for a bulk decision: a post action with an account part (remove
    and restrict author) keeps its post part on every item, but the account part (the
    account action, its words in the statement, the platform's action on the account) is
    carried by the author's first item only, as one verdict would carry it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._acted_on: set[str] = set()

    def _insert_pending(self) -> None:
        kept = []
        for p in self._pending:
            if p.author_action is not None and not p.escalate:
                if p.author_id in self._acted_on:
                    p = replace(p, author_action=None)
                else:
                    self._acted_on.add(p.author_id)
            kept.append(p)
        self._pending = kept
        super()._insert_pending()


def _followers(
    request: BulkDecisionRequest,
    found: Mapping[str, Mapping[Any, Any]],
    configs: Mapping[str, QueueConfig],
    stored: set[str],
) -> dict[int, int]:
    """The items an account action of the request reaches through an earlier item of the
    same author (index -> that item's index): not decided each, closed by that action."""
    first: dict[str, int] = {}
    followers: dict[int, int] = {}
    for index, wanted in enumerate(request.items):
        row = found.get(wanted.item_id)
        if str(wanted.idempotency_key) in stored or row is None or row["state"] == "decided":
            continue
        config = configs.get(row["queue_id"])
        action = config.action(request.action) if config is not None else None
        if action is None or action.kind is not ActionKind.author:
            continue
        author_id = row["author_id"]
        if author_id in first:
            followers[index] = first[author_id]
        else:
            first[author_id] = index
    return followers


_RESOLVE_OPEN = (
    update(items)
    .where(items.c.id == bindparam("b_id"), items.c.state.in_(accounts.OPEN_STATES))
    .values(state=accounts.RESOLVED, lease_token=None, lease_user_id=None, lease_expires_at=None)
)


def _closed_with(
    conn: Connection,
    lead: Principal,
    verdict: Verdict,
    leader: VerdictResult | None,
    found: Mapping[str, Mapping[Any, Any]],
    now: float,
) -> VerdictResult:
    """An item of an author the request's account action was taken on through another of
    their items: closed by it (the account action closes it already when it suspends or
    marks inauthentic; a warning or restriction closes it here), its result that decision,
    kept under its key so a retry gets it again."""
    assert leader is not None and leader.decision is not None
    decision = leader.decision
    row = found[verdict.item_id]
    if conn.execute(_RESOLVE_OPEN, {"b_id": verdict.item_id}).rowcount:
        append_events(
            conn,
            [
                event_row(
                    now,
                    EventKind.resolved,
                    lead.username,
                    item_id=verdict.item_id,
                    queue_id=row["queue_id"],
                    author_action=decision.author_action.value if decision.author_action else None,
                    decision_id=decision.id,
                    lease_ended=False,
                )
            ],
        )
    result = VerdictResult(
        idempotency_key=verdict.idempotency_key,
        item_id=verdict.item_id,
        status=leader.status,
        decision=decision,
    )
    conn.execute(
        insert(verdict_keys),
        {
            "key": str(verdict.idempotency_key),
            "user_id": lead.id,
            "body_hash": body_hash(lead.id, verdict),
            "result": result.model_dump_json(),
            "created_at": now,
            "status": result.status.value,
        },
    )
    return result


class _Check:
    """The items of a bulk decision checked before any write: what refuses the request,
    what does not fit, and the leases to take (and to end: the lead's own)."""

    def __init__(
        self,
        lead: Principal,
        request: BulkDecisionRequest,
        configs: Mapping[str, QueueConfig],
        now: float,
        config_version: int,
    ) -> None:
        self.lead = lead
        self.request = request
        self.configs = configs
        self.now = now
        self.config_version = config_version
        self.refusals: list[ProblemDetail] = []
        self.invalid: list[ProblemDetail] = []
        self.decided_ids: dict[int, tuple[int, str]] = {}  # decision id -> (index, item id)
        self.new_leases: list[dict[str, Any]] = []
        self.own_leases: list[str] = []

    def item(self, index: int, item_id: str, key: str, row: Mapping[Any, Any] | None) -> None:
        refused = self._refusal(index, item_id, row)
        if refused is not None:
            self.refusals.append(refused)
            return
        assert row is not None
        if row["state"] == "decided":
            self.decided_ids[int(row["decision_id"])] = (index, item_id)
            return
        config = self.configs[row["queue_id"]]
        problems = verdict_problems(config, self.request) or item_problems(
            self.request, config, row["payload"]
        )
        if problems:
            self.invalid += [_refusal(index, item_id, p.code, p.message) for p in problems]
            return
        if row["state"] == "leased" and row["lease_user_id"] == self.lead.id and row["lease_token"]:
            self.own_leases.append(row["lease_token"])
        self.new_leases.append(
            {
                "token": lease_token(key),
                "item_id": item_id,
                "queue_id": row["queue_id"],
                "user_id": self.lead.id,
                "epoch": row["epoch"],
                "claimed_at": self.now,
                "expires_at": self.now,
                "ended_at": None,
                "config_version": self.config_version,
            }
        )

    def _refusal(
        self, index: int, item_id: str, row: Mapping[Any, Any] | None
    ) -> ProblemDetail | None:
        """Why the item refuses the request (None: it does not; a decided one is said
        with its decision, read with the others')."""
        if row is None:
            return _refusal(index, item_id, "unknown_item", "No such item.")
        wanted_queue = self.request.items[index].queue_id
        state = row["state"]
        if row["queue_id"] not in self.configs:
            return _refusal(index, item_id, "queue_closed", "Its queue is no longer open.")
        if wanted_queue is not None and wanted_queue != row["queue_id"]:
            return _refusal(index, item_id, "moved", f"It moved to the queue {row['queue_id']}.")
        if state == "decided":
            return None
        if state == "withdrawn":
            return _refusal(index, item_id, "withdrawn", "Withdrawn by the platform.")
        if state == accounts.RESOLVED:
            return _refusal(
                index, item_id, accounts.AUTHOR_ACTIONED, "Closed by an account action."
            )
        assignee = row["assigned_user_id"]
        if assignee is not None and assignee != self.lead.id:
            # an escalation assigned to a lead is only ever leased to that lead
            return _refusal(index, item_id, "assigned_to_other", "Assigned to another lead.")
        expires = row["lease_expires_at"]
        if (
            state == "leased"
            and row["lease_user_id"] != self.lead.id
            and expires is not None
            and expires >= self.now
        ):
            until = to_dt(expires).isoformat(timespec="seconds")
            return _refusal(
                index, item_id, "leased_to_other", f"Someone else holds it until {until}."
            )
        return None

    def raise_refused(self, conn: Connection) -> None:
        """Refuse the request (409, 422) when any item does."""
        refusals = list(self.refusals)
        if self.decided_ids:
            for decision_id, decision in decisions_by_id(conn, set(self.decided_ids)).items():
                index, item_id = self.decided_ids[decision_id]
                refusals.append(
                    _refusal(
                        index,
                        item_id,
                        "already_decided",
                        f"Decided meanwhile by {decision.reviewer}: {decision.action}.",
                    )
                )
        if refusals:
            refusals.sort(key=lambda p: int(p.loc[1]))
            raise _refused(refusals, len(self.request.items))
        if self.invalid:
            raise ApiError(
                422,
                "verdict_invalid",
                f"The action does not fit the decision config of {len(self.invalid)} "
                "item(s); nothing was recorded.",
                errors=self.invalid,
            )


def _why(result: VerdictResult) -> tuple[str, str]:
    if result.status is VerdictStatus.conflict:
        who = result.decision.reviewer if result.decision else "someone else"
        return "already_decided", f"Decided meanwhile by {who}."
    if result.reason is not None:
        return result.reason.code, result.reason.message
    return "refused", "It cannot be decided now."


def _refused(refusals: list[ProblemDetail], total: int) -> ApiError:
    return ApiError(
        409,
        BULK_REFUSED,
        f"{len(refusals)} of {total} items cannot be decided now; nothing was recorded.",
        errors=refusals,
    )


# -- the open items of an author (and their linked accounts) -------------------------------

_OPEN = (
    select(
        items.c.id,
        items.c.queue_id,
        items.c.author_id,
        items.c.payload,
        items.c.enqueued_at,
        items.c.state,
        items.c.lease_user_id,
        items.c.lease_expires_at,
    )
    .where(items.c.author_id.in_(bindparam("b_ids", expanding=True)))
    .where(items.c.state.in_(accounts.OPEN_STATES))
    .order_by(items.c.enqueued_at, items.c.id)
    .limit(MAX_OPEN_ITEMS_LISTED)
)
_OPEN_COUNT = (
    select(func.count())
    .select_from(items)
    .where(items.c.author_id.in_(bindparam("b_ids", expanding=True)))
    .where(items.c.state.in_(accounts.OPEN_STATES))
)
_HANDLES = select(authors.c.id, authors.c.handle).where(
    authors.c.id.in_(bindparam("b_ids", expanding=True))
)


def open_items(
    conn: Connection,
    viewer: Principal,
    author_id: str,
    *,
    linked: bool,
    configs: Mapping[str, QueueConfig],
    now: float,
) -> OpenItems:
    """``GET /authors/{author_id}/open-items``: what a bulk decision on the author (and,
    with ``linked``, on the accounts linked to them) would take."""
    row = conn.execute(
        select(authors.c.id, authors.c.handle, authors.c.source).where(authors.c.id == author_id)
    ).first()
    if row is None:
        raise ApiError(404, "unknown_author", f"No author {author_id!r}.")
    ids = [row.id]
    if linked:
        # the accounts the Author tab lists (``GET /authors/{id}/linked``), in its order
        selected = account_links.linked_selection(conn, {row.id: (row.handle, row.source)})
        ids += selected.get(row.id, ([], 0))[0]
    handles = dict(conn.execute(_HANDLES, {"b_ids": ids}).all())
    listed = [
        OpenItem(
            item_id=r.id,
            queue_id=r.queue_id,
            author_id=r.author_id,
            handle=handles.get(r.author_id, ""),
            excerpt=excerpt(r.payload),
            enqueued_at=to_dt(r.enqueued_at),
            leased_to_other=r.state == "leased"
            and r.lease_user_id != viewer.id
            and (r.lease_expires_at or 0) >= now,
        )
        for r in conn.execute(_OPEN, {"b_ids": ids})
        if r.queue_id in configs
    ]
    total = conn.execute(_OPEN_COUNT, {"b_ids": ids}).scalar() or 0
    return OpenItems(author_ids=ids, items=listed, more=max(0, total - len(listed)))
