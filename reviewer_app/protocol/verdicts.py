"""Verdicts: a reviewer's decision on an item, sent in batches with idempotency keys."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol
from uuid import UUID

from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import JsonDict

from .accounts import AuthorStatus
from .common import (
    MAX_VERDICTS_PER_BATCH,
    ItemId,
    JsonInt,
    LeaseToken,
    NoteText,
    Page,
    PolicyCode,
    PolicyCodes,
    ShortText,
    Slug,
    Timestamp,
    Username,
    WireModel,
)
from .queues import ActionConfig, ActionKind, AuthorAction, QueueConfig, RatingConfig


class Verdict(WireModel):
    idempotency_key: UUID = Field(description="made by the client when the reviewer decided")
    item_id: ItemId
    lease_token: LeaseToken
    action: Slug
    policies: PolicyCodes = Field(default_factory=list)
    rating: Slug | None = None
    note: NoteText | None = None
    author_action: AuthorAction | None = Field(
        default=None,
        description="the action's own author action (its config's), which applies whether "
        "sent or left out; any other is refused (author_action_not_of_action)",
    )
    time_spent_ms: JsonInt = Field(ge=0, le=86_400_000)
    decided_at: Timestamp = Field(description="the client's clock when the reviewer decided")
    escalation_reason: Slug | None = Field(
        default=None,
        description="an escalation only: why, one of the queue's escalation reasons (the "
        "note says more); clients ask for one, the service accepts an escalation without",
        # left out when None: a verdict without one is the body it was before reasons existed
        # (its idempotency key's stored body hash, and servers that do not know the field)
        exclude_if=lambda value: value is None,
    )


class VerdictBatch(WireModel):
    verdicts: list[Verdict] = Field(min_length=1, max_length=MAX_VERDICTS_PER_BATCH)


class DecisionKind(StrEnum):
    review = "review"
    """A reviewer's (or a lead's) verdict through the review flow."""
    overturn = "overturn"
    """An auditor's correction: it replaces the overturned decision as the decision of record."""
    appeal = "appeal"
    """A verdict on an appeal (in the appeals queue): uphold (the contested decision stays
    the decision of record) or reverse (this one replaces it)."""


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
    appeal_of_decision_id: int | None = Field(
        default=None, ge=1, description="appeal: the contested decision it upheld or reversed"
    )
    config_version: int = Field(
        default=0, ge=0, description="the queue configuration version it was made under"
    )
    audit_result: AuditOutcome | None = Field(
        default=None,
        description="decision search and export only: the result of this decision's audit, "
        "None when it was not audited (or elsewhere)",
    )
    author_status: AuthorStatus | None = Field(
        default=None,
        description="decision search only: the status of the post's author now (None elsewhere)",
    )
    escalation_reason: Slug | None = Field(
        default=None, description="an escalation: the reason the reviewer gave"
    )
    post_external_id: ShortText | None = Field(
        default=None,
        description="decision search and export only: the platform's id of the post (None "
        "for a post that did not come through intake)",
    )
    author_external_id: ShortText | None = Field(
        default=None, description="decision search and export only: the platform's id of its author"
    )
    post_url: str | None = Field(
        default=None,
        max_length=2_048,
        description="decision search and export only: the post's address",
    )


class VerdictStatus(StrEnum):
    accepted = "accepted"
    duplicate = "duplicate"
    conflict = "conflict"
    rejected = "rejected"


class RejectReason(WireModel):
    code: Slug
    message: ShortText
    author_status: AuthorStatus | None = Field(
        default=None,
        description="author_actioned: the status the account action gave the item's author",
    )
    held_until: Timestamp | None = Field(
        default=None,
        description="leased_to_other: when the other reviewer's lease ends, unless renewed "
        "(the verdict is not final: send it again; it counts if they let the item go, or "
        "comes back as a conflict if they decide it)",
    )


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


#: query strings carry years as written; the service's times lie in MIN_YEAR..MAX_YEAR
QUERY_YEARS: JsonDict = {"pattern": r"^(197[1-9]|19[89][0-9]|[2-8][0-9]{3})-"}


class DecisionQuery(BaseModel):
    """Which decisions a search, a page of them or an export covers: every filter given
    must hold, ``None`` means any. Declared once: the service's query parameters
    (``GET /decisions``, ``/decisions/export``), the client's calls, the command-line
    export and the lead's decisions browser all use this model."""

    # lax parsing: query strings arrive as text (``audited=true``)
    model_config = ConfigDict(frozen=True, extra="forbid")

    queue_id: Slug | None = None
    reviewer: Username | None = None
    action: Slug | None = None
    policy: PolicyCode | None = None
    item_id: ItemId | None = None
    since: datetime | None = Field(
        default=None,
        description="decided at or after this time (RFC 3339)",
        json_schema_extra=QUERY_YEARS,
    )
    until: datetime | None = Field(
        default=None, description="decided before this time", json_schema_extra=QUERY_YEARS
    )
    audited: bool | None = Field(
        default=None, description="only decisions with (true) or without (false) an audit"
    )

    def params(self) -> dict[str, str]:
        """The filters given, as query parameters."""
        found: dict[str, str] = {}
        for name, value in self.model_dump(exclude_none=True).items():
            if isinstance(value, datetime):
                found[name] = value.isoformat()
            elif isinstance(value, bool):
                found[name] = "true" if value else "false"
            else:
                found[name] = str(value)
        return found


class DecisionPage(Page):
    decisions: list[Decision] = Field(max_length=1_000)


# -- what a verdict needs: decided once, used by the service, the audits and the client ------

LABEL_KINDS = frozenset({ActionKind.label, ActionKind.label_and_reduce})
"""Actions that put a fact-check label on the post: they need a fact-check on the item."""


class DecisionFields(Protocol):
    """What a decision says: a verdict, an audit's corrected decision, a client's draft."""

    @property
    def action(self) -> str: ...
    @property
    def policies(self) -> list[str]: ...
    @property
    def rating(self) -> str | None: ...
    @property
    def note(self) -> str | None: ...
    @property
    def author_action(self) -> AuthorAction | None: ...


@dataclass(frozen=True)
class DraftVerdict:
    """A verdict being made (the client's, before it is saved)."""

    action: str
    policies: list[str]
    rating: str | None = None
    note: str | None = None
    author_action: AuthorAction | None = None


@dataclass(frozen=True)
class VerdictProblem:
    """One reason a verdict cannot be recorded as it is.

    ``code`` is stable (clients word it themselves; ``message`` is the service's English).
    ``on_item`` problems depend on the item (its fact-checks), not only on the queue's
    config: the service refuses such a verdict alone (``rejected``), not its whole batch.
    """

    field: str
    code: str
    message: str
    on_item: bool = False


def takes_rating(action: ActionConfig) -> bool:
    """The action applies a fact-check rating (a label, or anything that asks for one)."""
    return action.requires_rating or action.kind in LABEL_KINDS


def preset_rating(config: QueueConfig, given: Iterable[str]) -> str | None:
    """The rating a label action starts with on an item fact-checkers rated ``given``: the
    most severe of them, i.e. the first in the queue's rating scale (scales list the most
    severe first: false, partly false, ...). None when no given rating is on the scale."""
    ratings = set(given)
    return next((r.id for r in config.ratings if r.id in ratings), None)


def verdict_problems(
    config: QueueConfig, verdict: DecisionFields, fact_checks: Collection[str] | None = None
) -> list[VerdictProblem]:
    """Why ``verdict`` cannot be recorded in a queue with ``config`` (empty when it can).

    ``fact_checks``, the ratings fact-checkers gave the item, adds the item's rules (None
    checks the config alone): a label needs a fact-check on the item, and its rating must be
    one a fact-checker gave unless a note says why (the override).
    """
    action = config.action(verdict.action)
    if action is None:
        return [
            VerdictProblem(
                "action", "unknown_action", f"Action {verdict.action!r} is not one of this queue's."
            )
        ]
    rating = next((r for r in config.ratings if r.id == verdict.rating), None)
    found = _policy_problems(config, action, verdict)
    found += _rating_problems(action, verdict, rating)
    noted = bool((verdict.note or "").strip())
    if action.requires_note and not noted:
        found.append(VerdictProblem("note", "note_required", f"{action.label} needs a note."))
    reason_id = getattr(verdict, "escalation_reason", None)  # verdicts have one, drafts may
    found += _escalation_problems(config, action, reason_id, noted)
    if verdict.author_action is not None and verdict.author_action not in config.author_actions:
        found.append(
            VerdictProblem(
                "author_action",
                "author_action_not_allowed",
                f"Author action {verdict.author_action.value!r} is not allowed in this queue.",
            )
        )
    elif verdict.author_action is not None and verdict.author_action is not action.author_action:
        # the action's own only: "No violation" with "suspend" restricted an account with no
        # statement of reasons, and a restricting button's action became a warning
        own = action.author_action.value if action.author_action else None
        found.append(
            VerdictProblem(
                "author_action",
                "author_action_not_of_action",
                f"{action.label} does not take author action {verdict.author_action.value!r} "
                + (f"(its own is {own!r})" if own else "(it takes none)")
                + ": leave author_action out, and the action's own applies.",
            )
        )
    found += _label_problems(config, action, verdict, rating, fact_checks, noted)
    return found


def _policy_problems(
    config: QueueConfig, action: ActionConfig, verdict: DecisionFields
) -> list[VerdictProblem]:
    """Each policy code is one of the queue's; an action that requires one has one."""
    found: list[VerdictProblem] = []
    known_policies = {p.code for p in config.policies}
    for policy in verdict.policies:
        if policy not in known_policies:
            found.append(
                VerdictProblem(
                    "policies", "unknown_policy", f"Policy {policy!r} is not one of this queue's."
                )
            )
    if action.requires_policy and not verdict.policies:
        found.append(
            VerdictProblem(
                "policies", "policy_required", f"{action.label} needs at least one policy code."
            )
        )
    return found


def _rating_problems(
    action: ActionConfig, verdict: DecisionFields, rating: RatingConfig | None
) -> list[VerdictProblem]:
    """The rating (``rating``: the queue's entry for it, None when it has none) is one of the
    queue's; an action that requires one has one."""
    found: list[VerdictProblem] = []
    if verdict.rating is not None and rating is None:
        found.append(
            VerdictProblem(
                "rating", "unknown_rating", f"Rating {verdict.rating!r} is not one of this queue's."
            )
        )
    if action.requires_rating and verdict.rating is None:
        found.append(
            VerdictProblem(
                "rating", "rating_required", f"{action.label} needs a fact-check rating."
            )
        )
    return found


def _label_problems(
    config: QueueConfig,
    action: ActionConfig,
    verdict: DecisionFields,
    rating: RatingConfig | None,
    fact_checks: Collection[str] | None,
    noted: bool,
) -> list[VerdictProblem]:
    """A label alone does not carry a rating that reduces distribution, and a label that
    reduces does not carry one that does not (the scale's ``reduces`` decides, both ways);
    with the item's fact-checks known, a label needs one, and a rating none of them gave
    needs a note."""
    found: list[VerdictProblem] = []
    if action.kind is ActionKind.label and rating is not None and rating.reduces:
        found.append(
            VerdictProblem(
                "rating",
                "rating_needs_reduce",
                f"{rating.label} ratings are labelled and reduced: {action.label} does not "
                "reduce distribution.",
            )
        )
    if action.kind is ActionKind.label_and_reduce and rating is not None and not rating.reduces:
        alone = next((a for a in config.actions if a.kind is ActionKind.label), None)
        found.append(
            VerdictProblem(
                "rating",
                "rating_does_not_reduce",
                f"{rating.label} ratings are labelled, not reduced: {action.label} reduces "
                "distribution; "
                + (f"use {alone.label} instead." if alone else "choose a rating that reduces."),
            )
        )
    if fact_checks is None or action.kind not in LABEL_KINDS:
        return found
    if not fact_checks:
        found.append(
            VerdictProblem(
                "action",
                "fact_check_required",
                f"{action.label} needs a fact-check: no fact-checker has rated this post.",
                on_item=True,
            )
        )
    elif verdict.rating is not None and verdict.rating not in fact_checks and not noted:
        name = rating.label if rating else verdict.rating
        found.append(
            VerdictProblem(
                "rating",
                "rating_not_given",
                f"No fact-checker gave this post the rating {name}; "
                "a rating other than theirs needs a note that says why.",
                on_item=True,
            )
        )
    return found


def _escalation_problems(
    config: QueueConfig, action: ActionConfig, reason_id: str | None, noted: bool
) -> list[VerdictProblem]:
    """An escalation's reason is one of the queue's (``reasons_for_escalation``), and only an
    escalation gives one; a reason that asks for a note (``other``) has one."""
    if reason_id is None:
        return []
    if action.kind is not ActionKind.escalate:
        return [
            VerdictProblem(
                "escalation_reason",
                "escalation_reason_not_allowed",
                f"{action.label} is not an escalation: only an escalation gives a reason.",
            )
        ]
    reason = config.escalation_reason(reason_id)
    if reason is None:
        known = ", ".join(r.id for r in config.reasons_for_escalation())
        return [
            VerdictProblem(
                "escalation_reason",
                "unknown_escalation_reason",
                f"Escalation reason {reason_id!r} is not one of this queue's ({known}).",
            )
        ]
    if reason.requires_note and not noted:
        return [
            VerdictProblem(
                "note",
                "escalation_note_required",
                f"Escalating for {reason.label!r} needs a note that says why.",
            )
        ]
    return []
