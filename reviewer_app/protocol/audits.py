"""Audits: a lead draws a sample of decisions, auditors judge them blind (the original
decision hidden until they record a result), and an overturn becomes the decision of record."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import Field

from .common import (
    Count,
    Fraction,
    ItemId,
    NoteText,
    Page,
    PolicyCodes,
    Slug,
    Timestamp,
    Username,
    WireModel,
)
from .items import Item
from .queues import AuthorAction
from .verdicts import AuditOutcome, Decision

MAX_SAMPLE = 1_000


class AuditMethod(StrEnum):
    random = "random"
    """Decisions drawn uniformly from the window."""
    by_reviewer = "by_reviewer"
    """The same number from every reviewer who decided in the window (as far as each has)."""
    by_action = "by_action"
    """The same number of every action taken in the window (as far as each has)."""


class AuditSampleCreate(WireModel):
    method: AuditMethod = AuditMethod.random
    size: int = Field(ge=1, le=MAX_SAMPLE)
    since: Timestamp = Field(description="decisions recorded at or after this time")
    until: Timestamp = Field(description="decisions recorded before this time")
    queue_id: Slug | None = Field(default=None, description="only decisions of this queue")


class AuditSample(WireModel):
    id: int = Field(ge=1)
    method: AuditMethod
    requested_size: int = Field(ge=1, le=MAX_SAMPLE)
    size: Count = Field(description="decisions drawn (fewer than asked if the window had fewer)")
    since: Timestamp
    until: Timestamp
    queue_id: Slug | None = None
    created_at: Timestamp
    created_by: Username
    recorded: Count = Field(description="results recorded so far")
    set_aside: Count = Field(
        default=0,
        description="items left out of the sample because they could no longer be audited "
        "(appealed or back in review after the sample was drawn; see ``AuditSetAside``)",
    )


class AuditSampleList(Page):
    samples: list[AuditSample] = Field(max_length=1_000)


class AuditTask(WireModel):
    """One sample item to judge, blind: the item without its decision, its decision events
    or the author's decisions on it. Only the audit id links it to the original."""

    audit_id: int = Field(ge=1)
    sample_id: int = Field(ge=1)
    item: Item


class AuditSetAside(WireModel):
    """A task the auditor left because it could no longer be overturned (its decision was
    appealed, or its post is back in review, after the sample was drawn): drawing again
    while holding it leaves it out of the sample, with the reason, and hands the next."""

    audit_id: int = Field(ge=1)
    item_id: ItemId
    reason: NoteText


class AuditTaskGrant(WireModel):
    sample_id: int = Field(ge=1)
    remaining: Count = Field(description="items of the sample still without a result")
    task: AuditTask | None = Field(default=None, description="None when nothing is left to judge")
    set_aside: list[AuditSetAside] = Field(
        default_factory=list,
        max_length=MAX_SAMPLE,
        description="tasks of the caller this draw left out of the sample (no longer "
        "auditable), with why",
    )


class AuditAgree(WireModel):
    result: Literal[AuditOutcome.agree]
    note: NoteText | None = None


class AuditOverturn(WireModel):
    """The corrected decision: it becomes the item's decision of record."""

    result: Literal[AuditOutcome.overturn]
    action: Slug
    policies: PolicyCodes = Field(default_factory=list)
    rating: Slug | None = None
    author_action: AuthorAction | None = None
    note: NoteText = Field(min_length=1, description="why the decision was overturned")
    time_spent_ms: int = Field(default=0, ge=0, le=86_400_000)


class AuditJudgement(WireModel):
    """The blind way to audit: the auditor decides the item as a reviewer would, without
    seeing the original. The service compares: the same action, policies and rating record
    ``agree``; anything else records ``overturn`` with this as the corrected decision."""

    result: Literal["judge"]
    action: Slug
    policies: PolicyCodes = Field(default_factory=list)
    rating: Slug | None = None
    author_action: AuthorAction | None = None
    note: NoteText | None = None
    time_spent_ms: int = Field(default=0, ge=0, le=86_400_000)


AuditResultCreate = Annotated[
    AuditAgree | AuditOverturn | AuditJudgement, Field(discriminator="result")
]


class AuditResult(WireModel):
    audit_id: int = Field(ge=1)
    sample_id: int = Field(ge=1)
    item_id: ItemId
    result: AuditOutcome
    auditor: Username
    recorded_at: Timestamp
    note: NoteText | None = None
    original: Decision = Field(description="the decision audited")
    corrected: Decision | None = Field(
        default=None, description="overturn: the new decision of record"
    )


class ReviewerAgreement(WireModel):
    reviewer: Username
    audited: Count
    agreed: Count
    overturned: Count
    agreement_rate: Fraction | None = None
    kappa: float | None = Field(default=None, ge=-1.0, le=1.0)


class AuditResults(WireModel):
    sample: AuditSample
    results: list[AuditResult] = Field(max_length=MAX_SAMPLE)
    reviewers: list[ReviewerAgreement] = Field(max_length=MAX_SAMPLE)
