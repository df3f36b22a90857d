"""Verdicts: a reviewer's decision on an item, sent in batches with idempotency keys."""

from __future__ import annotations

from enum import StrEnum
from uuid import UUID

from pydantic import Field

from .common import (
    MAX_VERDICTS_PER_BATCH,
    ItemId,
    JsonInt,
    LeaseToken,
    NoteText,
    Page,
    PolicyCode,
    ShortText,
    Slug,
    Timestamp,
    Username,
    WireModel,
)
from .queues import AuthorAction


class Verdict(WireModel):
    idempotency_key: UUID = Field(description="made by the client when the reviewer decided")
    item_id: ItemId
    lease_token: LeaseToken
    action: Slug
    policies: list[PolicyCode] = Field(default_factory=list, max_length=16)
    rating: Slug | None = None
    note: NoteText | None = None
    author_action: AuthorAction | None = None
    time_spent_ms: JsonInt = Field(ge=0, le=86_400_000)
    decided_at: Timestamp = Field(description="the client's clock when the reviewer decided")


class VerdictBatch(WireModel):
    verdicts: list[Verdict] = Field(min_length=1, max_length=MAX_VERDICTS_PER_BATCH)


class DecisionKind(StrEnum):
    review = "review"
    """A reviewer's (or a lead's) verdict through the review flow."""
    overturn = "overturn"
    """An auditor's correction: it replaces the overturned decision as the decision of record."""


class AuditOutcome(StrEnum):
    agree = "agree"
    overturn = "overturn"


class Decision(WireModel):
    id: int = Field(ge=1)
    item_id: ItemId
    queue_id: Slug
    reviewer: Username
    action: Slug
    policies: list[PolicyCode] = Field(default_factory=list, max_length=16)
    rating: Slug | None = None
    note: NoteText | None = None
    author_action: AuthorAction | None = None
    time_spent_ms: int = Field(ge=0)
    decided_at: Timestamp = Field(description="server time the decision was recorded")
    client_decided_at: Timestamp
    kind: DecisionKind = DecisionKind.review
    overturns_decision_id: int | None = Field(
        default=None, ge=1, description="overturn: the decision it replaced"
    )
    config_version: int = Field(
        default=0, ge=0, description="the queue configuration version it was made under"
    )
    audit_result: AuditOutcome | None = Field(
        default=None,
        description="decision search and export only: the result of this decision's audit, "
        "None when it was not audited (or elsewhere)",
    )


class VerdictStatus(StrEnum):
    accepted = "accepted"
    duplicate = "duplicate"
    conflict = "conflict"
    rejected = "rejected"


class RejectReason(WireModel):
    code: Slug
    message: ShortText


class VerdictResult(WireModel):
    idempotency_key: UUID
    item_id: ItemId
    status: VerdictStatus
    decision: Decision | None = Field(
        default=None,
        description="accepted/duplicate: the decision recorded; conflict: the decision that won",
    )
    reason: RejectReason | None = Field(default=None, description="rejected: why")


class VerdictResults(WireModel):
    results: list[VerdictResult] = Field(max_length=MAX_VERDICTS_PER_BATCH)


class DecisionPage(Page):
    decisions: list[Decision] = Field(max_length=1_000)
