"""What an accepted verdict writes, once its decision has an id (verdicts.py inserts the
batch's decisions in one statement, then makes these for each).

The rows and documents are made once per verdict and encoded once (a bulk decision makes
a thousand). (The answer's wire models are validated as they are made: ``model_construct``
was measured no faster for them.)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from reviewer_app.protocol import (
    ESCALATION_QUEUE,
    ActionKind,
    AuthorAction,
    Decision,
    DecisionKind,
    EventKind,
    QueueConfig,
    Verdict,
    VerdictResult,
    VerdictStatus,
)
from reviewer_app.server.domain import accounts, appeals, enforcement
from reviewer_app.server.domain.records import Principal, event_row, to_epoch

# The columns of a decision row (``decision_row``'s keys).
DECISION_COLUMNS = (
    "item_id",
    "epoch",
    "queue_id",
    "user_id",
    "author_id",
    "action",
    "policies",
    "rating",
    "note",
    "author_action",
    "time_spent_ms",
    "decided_at",
    "client_decided_at",
    "config_version",
    "kind",
    "appeal_of",
    "overturns_id",
    "escalation_reason",
)


@dataclass(frozen=True)
class Pending:
    """An accepted verdict whose decision row is not inserted yet."""

    verdict: Verdict
    item_id: str
    epoch: int
    author_id: str
    queue_id: str
    author_action: AuthorAction | None
    escalate: bool
    strike: bool
    config_version: int
    kind: ActionKind  # the kind of the queue's action it takes
    config: QueueConfig  # the configuration it fits
    appeal: Any = None  # the appeal it decides (its appeals row), if any

    @property
    def upheld(self) -> bool:
        return self.appeal is not None and self.kind is ActionKind.uphold

    @property
    def contested(self) -> int | None:
        """An appeal's decision: the decision it contested."""
        return int(self.appeal["decision_id"]) if self.appeal is not None else None

    @property
    def overturns(self) -> int | None:
        """A reversed appeal's decision: the decision it overturns."""
        return self.contested if not self.upheld else None


def decision_row(p: Pending, user_id: int, now: float) -> dict[str, Any]:
    v = p.verdict
    return {
        "item_id": p.item_id,
        "epoch": p.epoch,
        "queue_id": p.queue_id,
        "user_id": user_id,
        "author_id": p.author_id,
        "action": v.action,
        "policies": json.dumps(v.policies),
        "rating": v.rating,
        "note": v.note,
        "author_action": p.author_action.value if p.author_action else None,
        "time_spent_ms": v.time_spent_ms,
        "decided_at": now,
        "client_decided_at": to_epoch(v.decided_at),
        "config_version": p.config_version,
        "kind": "appeal" if p.appeal is not None else "review",
        "appeal_of": p.contested,
        "overturns_id": p.contested if p.kind is ActionKind.reverse else None,
        "escalation_reason": v.escalation_reason if p.escalate else None,
    }


def enforced(p: Pending, decision_id: int, item: dict[str, Any], now: float) -> enforcement.Decided:
    """The decision of record as its enforcement action needs it."""
    v = p.verdict
    return enforcement.Decided(
        decision_id=decision_id,
        item_id=p.item_id,
        post_id=item.get("post_id"),
        author_id=p.author_id,
        queue_id=p.queue_id,
        config_version=p.config_version,
        decided_at=now,
        kind=p.kind,
        config=p.config,
        item_payload=item["payload"],
        policies=v.policies,
        rating=v.rating,
        author_action=p.author_action,
        overturns=p.overturns,
        appeal_id=p.appeal["external_id"] if p.appeal is not None else None,
        note=v.note,
        contests=p.contested,
    )


def appeal_outcome(p: Pending, decision_id: int) -> appeals.Outcome:
    appeal = p.appeal
    return appeals.Outcome(
        appeal_id=int(appeal["id"]),
        outcome=appeals.UPHELD if p.upheld else appeals.REVERSED,
        decision_id=decision_id,
        contested_id=int(appeal["decision_id"]),
        item_id=p.item_id,
        queue_id=p.queue_id,
    )


def account_decision(p: Pending, decision_id: int, user: Principal) -> accounts.AccountDecision:
    assert p.author_action is not None
    return accounts.AccountDecision(
        author_id=p.author_id,
        action=p.author_action,
        user=user,
        decision_id=decision_id,
        item_id=p.item_id,
        queue_id=p.queue_id,
        policies=tuple(p.verdict.policies),
        note=p.verdict.note,
    )


def strike_rows(p: Pending, decision_id: int, now: float) -> list[dict[str, Any]]:
    return [
        {"author_id": p.author_id, "policy": code, "at": now, "decision_id": decision_id}
        for code in p.verdict.policies
    ]


def event(p: Pending, decision_id: int, username: str, now: float) -> dict[str, Any]:
    """The ``decided`` (or ``escalated``) event."""
    v = p.verdict
    fields: dict[str, Any] = {
        "decision_id": decision_id,
        "action": v.action,
        "policies": list(v.policies),
    }
    if p.escalate:
        fields["to_queue"] = ESCALATION_QUEUE
        if v.escalation_reason is not None:
            reason = p.config.escalation_reason(v.escalation_reason)
            fields["reason"] = v.escalation_reason
            fields["reason_label"] = reason.label if reason else v.escalation_reason
        if v.note:  # the item's history shows it to whoever decides it later (an appeal)
            fields["note"] = v.note
    if p.appeal is not None:
        fields["appeal_id"] = p.appeal["external_id"]
        fields["appeal_outcome"] = appeals.UPHELD if p.upheld else appeals.REVERSED
        fields["contested_decision_id"] = p.contested
    return event_row(
        now,
        EventKind.escalated if p.escalate else EventKind.decided,
        username,
        item_id=p.item_id,
        queue_id=p.queue_id,
        **fields,
    )


def accepted(p: Pending, decision_id: int, username: str, decided_at: datetime) -> VerdictResult:
    """The verdict's answer: its decision (``decided_at`` the batch's time)."""
    v = p.verdict
    decision = Decision(
        id=decision_id,
        item_id=p.item_id,
        queue_id=p.queue_id,
        reviewer=username,
        action=v.action,
        policies=v.policies,
        rating=v.rating,
        note=v.note,
        author_action=p.author_action,
        time_spent_ms=v.time_spent_ms,
        decided_at=decided_at,
        client_decided_at=v.decided_at,
        config_version=p.config_version,
        kind=DecisionKind.appeal if p.appeal is not None else DecisionKind.review,
        overturns_decision_id=p.overturns,
        appeal_of_decision_id=p.contested,
        escalation_reason=v.escalation_reason if p.escalate else None,
    )
    return VerdictResult(
        idempotency_key=v.idempotency_key,
        item_id=v.item_id,
        status=VerdictStatus.accepted,
        decision=decision,
    )
