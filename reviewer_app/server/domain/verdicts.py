"""Verdicts: idempotent, fenced by lease tokens, decided exactly once per item.

A verdict counts only if its lease is still the item's current lease, or if the item is
still undecided (same epoch) and not leased to anyone else: a late verdict from an
offline reviewer. An escalation ends the item's epoch and moves it to the leads' queue.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from sqlalchemy import Connection, bindparam, func, select, update

from reviewer_app.protocol import (
    ESCALATION_QUEUE,
    LABEL_KINDS,
    ActionKind,
    ClassifierScore,
    Decision,
    DecisionFields,
    ProblemDetail,
    QueueConfig,
    RejectReason,
    Verdict,
    VerdictProblem,
    VerdictResult,
    VerdictStatus,
    verdict_problems,
)
from reviewer_app.server.domain import accounts, appeals, enforcement
from reviewer_app.server.domain import verdict_rows as made
from reviewer_app.server.domain.assembly import decisions_by_id
from reviewer_app.server.domain.priority import priority
from reviewer_app.server.domain.records import Principal, append_events, dumps, to_dt, to_epoch
from reviewer_app.server.domain.verdict_rows import Pending
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.bulk import InsertMany, UpdateMany, any_of
from reviewer_app.server.storage.tables import (
    config_versions,
    decisions,
    items,
    leases,
    strikes,
    verdict_keys,
)

__all__ = ["VerdictRecorder", "body_hash", "config_problems", "item_problems"]

# Statements are built once: every verdict batch runs them (see assembly.py on why). Lists
# of keys go as one array on PostgreSQL and rows as one JSON document (bulk.py): the same
# statement text whatever the batch's size.
_PG = (False, True)
_ITEMS = {
    # On PostgreSQL the items are locked in id order, so concurrent batches cannot deadlock.
    pg: (
        select(items).where(any_of(items.c.id, pg)).order_by(items.c.id).with_for_update()
        if pg
        else select(items).where(any_of(items.c.id, pg)).order_by(items.c.id)
    )
    for pg in _PG
}
_STORED_KEYS = {pg: select(verdict_keys).where(any_of(verdict_keys.c.key, pg)) for pg in _PG}
_LEASES = {pg: select(leases).where(any_of(leases.c.token, pg)) for pg in _PG}
# a batch's items are each decided once (a second verdict on one is a conflict, answered
# after the first's decision is inserted): the ids are matched back by item
_INSERT_DECISIONS = InsertMany(
    decisions, made.DECISION_COLUMNS, returning="id", ignore_conflicts=False, key="item_id"
)
_MARK_DECIDED = UpdateMany(
    items, "id", ("state", "decision_id", "lease_token", "lease_user_id", "lease_expires_at")
)
_END_LEASES = {
    pg: update(leases).where(any_of(leases.c.token, pg)).values(ended_at=bindparam("b_now"))
    for pg in _PG
}
_INSERT_STRIKES = InsertMany(
    strikes, ("author_id", "policy", "at", "decision_id"), ignore_conflicts=False
)
_LATEST_VERSION = select(func.max(config_versions.c.version))
_INSERT_KEYS = InsertMany(
    verdict_keys,
    ("key", "user_id", "body_hash", "result", "created_at", "status"),
    ignore_conflicts=False,
)
# A stored rejection looked at again gets its new answer (the body hash stays the first's).
_UPDATE_REJECTED_KEYS = (
    update(verdict_keys)
    .where(verdict_keys.c.key == bindparam("b_key"), verdict_keys.c.status == "rejected")
    .values(
        result=bindparam("b_result"),
        status=bindparam("b_status"),
        created_at=bindparam("b_created"),
    )
)


def body_hash(user_id: int, verdict: Verdict) -> str:
    body = verdict.model_dump(mode="json")
    body["decided_at"] = to_epoch(verdict.decided_at)
    return hashlib.sha256(dumps({"user": user_id, "verdict": body}).encode()).hexdigest()


def config_problems(
    index: int, verdict: DecisionFields, config: QueueConfig
) -> list[ProblemDetail]:
    """Why a verdict does not fit its queue's decision config (empty when it fits): the
    rule of ``protocol.verdict_problems`` without the item's part."""
    return [
        ProblemDetail(loc=["verdicts", index, p.field], code=p.code, message=p.message)
        for p in verdict_problems(config, verdict)
    ]


def item_problems(
    verdict: DecisionFields, config: QueueConfig, payload: str | Mapping[str, Any]
) -> list[VerdictProblem]:
    """Why a verdict that fits its config does not fit its item (the fact-checks a label
    needs): checked only for the actions that have such a rule, as the item's payload must
    be read for it."""
    action = config.action(verdict.action)
    if action is None or action.kind not in LABEL_KINDS:
        return []
    document = json.loads(payload) if isinstance(payload, str) else payload
    given = {f["rating"] for f in document.get("fact_checks") or ()}
    return [p for p in verdict_problems(config, verdict, given) if p.on_item]


def _rejected(verdict: Verdict, code: str, message: str) -> VerdictResult:
    return VerdictResult(
        idempotency_key=verdict.idempotency_key,
        item_id=verdict.item_id,
        status=VerdictStatus.rejected,
        reason=RejectReason(code=code, message=message),
    )


class VerdictRecorder:
    """Records one batch inside one write transaction."""

    def __init__(
        self,
        conn: Connection,
        user: Principal,
        configs: Mapping[str, QueueConfig],
        now: float,
        *,
        postgres: bool,
        config_version: int = 0,
        configs_at: Callable[[int], Mapping[str, QueueConfig]] | None = None,
    ) -> None:
        """``configs`` are the running queues' (configuration ``config_version``);
        ``configs_at`` gives an applied version's, for verdicts made under an older one."""
        self.conn = conn
        self.user = user
        self.configs = configs
        self.config_version = config_version
        self.configs_at = configs_at
        self.now = now
        self.postgres = postgres
        # the config each verdict (by idempotency key) fits, and its version
        self._fits: dict[str, tuple[QueueConfig, int]] = {}
        self._decided: list[dict[str, Any]] = []
        self._ended_leases: list[str] = []
        self._strikes: list[dict[str, Any]] = []
        self._events: list[dict[str, Any]] = []
        self._keys: list[dict[str, Any]] = []
        self._retried_keys: list[dict[str, Any]] = []  # stored rejections answered again
        self._actions: list[enforcement.Decided] = []  # the decisions' enforcement actions
        self._pending: list[Pending] = []
        self._accepted: list[VerdictResult] = []
        self._account_actions: list[accounts.AccountDecision] = []  # see accounts.py
        self._appeal_outcomes: list[appeals.Outcome] = []  # see appeals.py
        self._appeals: dict[str, Any] = {}  # item id -> its open appeal (appeals queues)
        self._recused: set[str] = set()  # appeal items this user decided before

    def record(
        self, batch: list[Verdict], known_items: Mapping[str, Mapping[Any, Any]] | None = None
    ) -> list[VerdictResult]:
        """The batch's answers, in its order. ``known_items``: the batch's item rows, read
        (and on PostgreSQL locked) in this transaction already (a bulk decision's)."""
        keys = [str(v.idempotency_key) for v in batch]
        hashes = [body_hash(self.user.id, v) for v in batch]
        first_hash: dict[str, str] = {}
        for key, digest in zip(keys, hashes, strict=True):
            if first_hash.setdefault(key, digest) != digest:
                raise _key_reused(key)
        stored, retried = self._read(batch, keys, hashes, known_items)
        self._check_fit(batch, keys, stored)

        # A result is final at once (rejected, conflict) or, for an accepted verdict, a
        # number standing for its decision until the batch's decisions are inserted.
        outcomes: list[VerdictResult | int] = []
        first_outcome: dict[str, VerdictResult | int] = {}
        for index, verdict in enumerate(batch):
            key = keys[index]
            if key in first_outcome:
                outcomes.append(first_outcome[key])
            elif key in stored:
                outcomes.append(_replay(VerdictResult.model_validate_json(stored[key].result)))
            else:
                outcome = self._decide(verdict)
                first_outcome[key] = outcome
                outcomes.append(outcome)
        self._insert_pending()
        results: list[VerdictResult] = []
        kept: set[str] = set()
        for index, outcome in enumerate(outcomes):
            result = self._accepted[outcome] if isinstance(outcome, int) else outcome
            key = keys[index]
            if key in first_outcome and first_outcome[key] is outcome and key not in kept:
                kept.add(key)
                self._keep(key, hashes[index], result, retried)
            elif key in kept:
                result = _replay(result)
            results.append(result)
        self._flush()
        return results

    def _read(
        self,
        batch: list[Verdict],
        keys: list[str],
        hashes: list[str],
        known_items: Mapping[str, Mapping[Any, Any]] | None,
    ) -> tuple[dict[str, Any], set[str]]:
        """Read the batch's items, appeals, leases and stored keys; the keys stored with a
        final answer, and those stored with a rejection (looked at afresh)."""
        pg = self.postgres
        if known_items is None:
            found = self.conn.execute(_ITEMS[pg], {"ids": sorted({v.item_id for v in batch})})
            known_items = {r["id"]: r for r in found.mappings()}
        self.items: dict[str, dict[str, Any]] = {i: dict(r) for i, r in known_items.items()}
        appealed = [i for i, r in self.items.items() if self._in_appeals_queue(r["queue_id"])]
        if appealed:  # four eyes (appeals.py): only items in an appeals queue need asking
            self._appeals = appeals.open_appeals(self.conn, appealed)
            self._recused = appeals.recused(self.conn, appealed, self.user.id)
        stored = {r.key: r for r in self.conn.execute(_STORED_KEYS[pg], {"ids": sorted(set(keys))})}
        for key, digest in zip(keys, hashes, strict=True):
            if key in stored and stored[key].body_hash != digest:
                raise _key_reused(key)
        # A key names its first body whatever the answer was (so a rejected key cannot be
        # reused for another verdict), but a rejection is not final: the same body is
        # looked at afresh (the lease may be free now) and its stored answer replaced.
        retried = {k for k, r in stored.items() if r.status == VerdictStatus.rejected.value}
        tokens = {"ids": sorted({v.lease_token for v in batch})}
        self.leases = {r.token: r for r in self.conn.execute(_LEASES[pg], tokens)}
        return {k: r for k, r in stored.items() if k not in retried}, retried

    def _check_fit(self, batch: list[Verdict], keys: list[str], stored: Mapping[str, Any]) -> None:
        """Refuse the whole batch (422) when a verdict to record does not fit its queue."""
        problems: list[ProblemDetail] = []
        for index, verdict in enumerate(batch):
            lease = self._own_lease(verdict)
            if keys[index] not in stored and lease is not None and not self._withdrawn(verdict):
                problems += self._fit(index, verdict, lease)
        if problems:
            raise ApiError(
                422,
                "verdict_invalid",
                "Some verdicts do not fit their queue's decision config; "
                "nothing in this batch was recorded.",
                errors=problems,
            )

    def _keep(self, key: str, digest: str, result: VerdictResult, retried: set[str]) -> None:
        """Every answer is kept with the key's body hash: a final one so a retry gets it
        again, a rejection (e.g. the lease is held by someone else for now) so the key
        keeps naming its body while it is looked at afresh."""
        if key in retried:
            self._retried_keys.append(
                {
                    "b_key": key,
                    "b_result": result.model_dump_json(),
                    "b_status": result.status.value,
                    "b_created": self.now,
                }
            )
        else:
            self._keys.append(
                {
                    "key": key,
                    "user_id": self.user.id,
                    "body_hash": digest,
                    "result": result.model_dump_json(),
                    "created_at": self.now,
                    "status": result.status.value,
                }
            )

    def _flush(self) -> None:
        """The writes every accepted verdict needs, one statement per kind for the batch."""
        pg = self.postgres
        if self._decided:
            _MARK_DECIDED(self.conn, self._decided, pg)
        if self._ended_leases:
            self.conn.execute(_END_LEASES[pg], {"ids": self._ended_leases, "b_now": self.now})
        if self._appeal_outcomes:
            self._events += appeals.settle(
                self.conn, self._appeal_outcomes, self.user, self.now, postgres=pg
            )
        if self._account_actions:  # after the items decided here left the open ones
            self._events += accounts.apply(
                self.conn, self._account_actions, self.now, postgres=pg
            ).events
        _INSERT_STRIKES(self.conn, self._strikes, pg)
        enforcement.derive(self.conn, self._actions, self.now)
        _INSERT_KEYS(self.conn, self._keys, pg)
        if self._retried_keys:
            self.conn.execute(_UPDATE_REJECTED_KEYS, self._retried_keys)
        append_events(self.conn, self._events)  # last: it holds the log's head until commit

    def _in_appeals_queue(self, queue_id: str) -> bool:
        config = self.configs.get(queue_id)
        return config is not None and config.appeals

    def _fit(self, index: int, verdict: Verdict, lease: Any) -> list[ProblemDetail]:
        """Find the configuration the verdict fits: its queue's current one, else the one
        the item was leased under (a queue whose actions changed while the reviewer held
        the item keeps taking what was valid then), else the newest applied (another
        process applied it moments ago). The problems under the first that has the queue
        when none fits."""
        tried: set[int] = set()
        first: list[ProblemDetail] | None = None
        for version, configs in self._candidates(lease):
            config = configs.get(lease.queue_id)
            if version in tried or config is None:
                continue
            tried.add(version)
            found = config_problems(index, verdict, config)
            if not found:
                self._fits[str(verdict.idempotency_key)] = (config, version)
                return []
            first = first or found
        return first or [
            ProblemDetail(
                loc=["verdicts", index],
                code="unknown_queue",
                message=f"Queue {lease.queue_id!r} is no longer configured.",
            )
        ]

    def _candidates(self, lease: Any) -> Iterator[tuple[int, Mapping[str, QueueConfig]]]:
        """The running configuration (this process's cache, unless the lease names a newer
        version: then the newest), then the version the item was leased under."""
        stale = self.configs_at is not None and (lease.config_version or 0) > self.config_version
        if not stale:
            yield self.config_version, self.configs
        if self.configs_at is None:
            return
        latest = None
        if stale:  # another process applied a version this one has not read yet
            latest = self.conn.execute(_LATEST_VERSION).scalar() or 0
            yield latest, self.configs_at(latest)
        if lease.config_version:
            yield lease.config_version, self.configs_at(lease.config_version)
        if latest is None:
            latest = self.conn.execute(_LATEST_VERSION).scalar() or 0  # asked only when needed
            if latest > self.config_version:
                yield latest, self.configs_at(latest)

    def _fitted(self, verdict: Verdict, lease: Any) -> tuple[QueueConfig, int]:
        found = self._fits.get(str(verdict.idempotency_key))
        return found or (self.configs[lease.queue_id], self.config_version)

    def _withdrawn(self, verdict: Verdict) -> bool:
        """The item left review undecided (withdrawn, or resolved by an account action)."""
        item = self.items.get(verdict.item_id)
        return item is not None and item["state"] in ("withdrawn", accounts.RESOLVED)

    def _own_lease(self, verdict: Verdict) -> Any:
        lease = self.leases.get(verdict.lease_token)
        if lease is None or lease.item_id != verdict.item_id or lease.user_id != self.user.id:
            return None
        return lease

    def _decide(self, verdict: Verdict) -> VerdictResult | int:
        lease = self.leases.get(verdict.lease_token)
        if lease is None or lease.item_id != verdict.item_id:
            return _rejected(
                verdict, "unknown_lease", "This lease token was never issued for this item."
            )
        if lease.user_id != self.user.id:
            return _rejected(verdict, "not_your_lease", "This lease belongs to another reviewer.")
        config = self.configs.get(lease.queue_id)
        if config is not None and config.lead_only and not self.user.is_lead:
            # leased as a lead, the role changed since: only a lead decides here
            return _rejected(verdict, "lead_only_queue", "Only leads may work this queue.")
        item = self.items.get(verdict.item_id)
        if item is None:
            return _rejected(verdict, "unknown_item", "No such item.")
        if item["state"] == "withdrawn":
            # the post was deleted or made private upstream: nobody's verdict counts now,
            # however it was made (with a lease, or offline after the lease ran out)
            return _rejected(verdict, "withdrawn", "withdrawn by the platform")
        if item["state"] == accounts.RESOLVED:
            # an account action closed it (its author was suspended or marked inauthentic):
            # nobody's verdict counts now, and the reviewer is told why, not given a conflict
            status = accounts.statuses(self.conn, [item["author_id"]]).get(item["author_id"])
            return VerdictResult(
                idempotency_key=verdict.idempotency_key,
                item_id=verdict.item_id,
                status=VerdictStatus.rejected,
                reason=RejectReason(
                    code=accounts.AUTHOR_ACTIONED,
                    message=f"resolved by an account action: the author is "
                    f"{status.value if status else 'actioned'}",
                    author_status=status,
                ),
            )
        if item["state"] == "decided" or item["epoch"] != lease.epoch:
            return VerdictResult(
                idempotency_key=verdict.idempotency_key,
                item_id=verdict.item_id,
                status=VerdictStatus.conflict,
                decision=self._winner(item, lease.epoch),
            )
        if (
            item["state"] == "leased"
            and item["lease_user_id"] != self.user.id
            and item["lease_expires_at"] is not None
            and item["lease_expires_at"] >= self.now
        ):
            return VerdictResult(
                idempotency_key=verdict.idempotency_key,
                item_id=verdict.item_id,
                status=VerdictStatus.rejected,
                reason=RejectReason(
                    code="leased_to_other",
                    message="Your lease ran out and another reviewer holds this item now.",
                    held_until=to_dt(item["lease_expires_at"]),
                ),
            )
        if item["id"] in self._recused:
            # four eyes: whoever decided the item before never decides its appeal
            return _rejected(
                verdict,
                appeals.CONFLICT_OF_INTEREST,
                "You decided this item before: its appeal must be decided by someone else.",
            )
        refused = item_problems(verdict, self._fitted(verdict, lease)[0], item["payload"])
        if refused:
            return _rejected(verdict, refused[0].code, refused[0].message)
        return self._accept(verdict, item, lease)

    def _winner(self, item: Mapping[str, Any], epoch: int) -> Decision | None:
        self._insert_pending()  # the winner may have been decided earlier in this batch
        decision_id = self.conn.execute(
            select(decisions.c.id).where(
                decisions.c.item_id == item["id"], decisions.c.epoch == epoch
            )
        ).scalar()
        if decision_id is None:
            decision_id = item["decision_id"]
        return decisions_by_id(self.conn, {decision_id}).get(decision_id) if decision_id else None

    def _accept(self, verdict: Verdict, item: dict[str, Any], lease: Any) -> VerdictResult | int:
        """Take the verdict: the item changes now, the decision row with the batch's others."""
        config, config_version = self._fitted(verdict, lease)
        action = config.action(verdict.action)
        assert action is not None  # checked before any write
        escalate = action.kind is ActionKind.escalate
        if escalate and ESCALATION_QUEUE not in self.configs:
            return _rejected(
                verdict, "no_escalation_queue", "This service has no escalation queue."
            )
        author_action = verdict.author_action or action.author_action
        appeal = self._appeals.get(item["id"])
        if action.kind in (ActionKind.uphold, ActionKind.reverse) and (
            appeal is None or appeal["queue_id"] != lease.queue_id
        ):
            return _rejected(
                verdict,
                "no_appeal",
                "This item has no appeal waiting: uphold and reverse decide appeals only.",
            )
        self._pending.append(
            Pending(
                verdict,
                item["id"],
                item["epoch"],
                item["author_id"],
                lease.queue_id,
                author_action,
                escalate,
                action.strike,
                config_version,
                action.kind,
                config,
                appeal if action.kind in (ActionKind.uphold, ActionKind.reverse) else None,
            )
        )
        clear_lease = {"lease_token": None, "lease_user_id": None, "lease_expires_at": None}
        if escalate:
            payload = json.loads(item["payload"])
            changes: dict[str, Any] = {
                **clear_lease,
                "queue_id": ESCALATION_QUEUE,
                "state": "pending",
                "epoch": item["epoch"] + 1,
                "enqueued_at": self.now,
                "priority": _escalation_priority(self.configs[ESCALATION_QUEUE], payload, self.now),
                # a new escalation is nobody's until a lead assigns it
                "assigned_user_id": None,
                "assigned_at": None,
                "assigned_by_id": None,
            }
            self.conn.execute(update(items).where(items.c.id == item["id"]).values(**changes))
        else:
            changes = {**clear_lease, "state": "decided"}
        item.update(changes)
        self._ended_leases.append(lease.token)
        return len(self._accepted) + len(self._pending) - 1

    def _insert_pending(self) -> None:
        """Insert the accepted verdicts' decisions in one statement and make their results."""
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        rows = [made.decision_row(p, self.user.id, self.now) for p in pending]
        ids = _INSERT_DECISIONS(self.conn, rows, self.postgres)
        decided_at = to_dt(self.now)
        username = self.user.username
        for p, decision_id in zip(pending, ids, strict=True):
            if not p.escalate:
                self._of_record(p, decision_id)
            if p.strike:
                self._strikes += made.strike_rows(p, decision_id, self.now)
            self._events.append(made.event(p, decision_id, username, self.now))
            self._accepted.append(made.accepted(p, decision_id, username, decided_at))

    def _of_record(self, p: Pending, decision_id: int) -> None:
        """A decision of record: the item is decided, its action (and an account decision's
        and an appeal's consequences) made with the batch's others."""
        # an upheld appeal leaves the contested decision the decision of record
        of_record = int(p.appeal["decision_id"]) if p.upheld else decision_id
        self._decided.append(
            {
                "id": p.item_id,
                "state": "decided",
                "decision_id": of_record,
                "lease_token": None,
                "lease_user_id": None,
                "lease_expires_at": None,
            }
        )
        item = self.items[p.item_id]
        item["decision_id"] = of_record
        if p.appeal is not None:
            self._appeal_outcomes.append(made.appeal_outcome(p, decision_id))
        self._actions.append(made.enforced(p, decision_id, item, self.now))
        if p.author_action is not None:  # an account-level decision
            self._account_actions.append(made.account_decision(p, decision_id, self.user))


def _escalation_priority(config: QueueConfig, payload: Mapping[str, Any], now: float) -> float:
    scores = [ClassifierScore.model_validate(s) for s in payload.get("scores", [])]
    return priority(
        config.priority, scores, payload["reports"]["total"], payload["reach"]["views"], now
    )


def _replay(result: VerdictResult) -> VerdictResult:
    if result.status is VerdictStatus.accepted:
        return result.model_copy(update={"status": VerdictStatus.duplicate})
    return result


def _key_reused(key: str) -> ApiError:
    return ApiError(
        422,
        "idempotency_key_reused",
        f"Idempotency key {key} was already used with a different verdict; "
        "nothing in this batch was recorded.",
    )
