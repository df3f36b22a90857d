"""Queues and their decision configuration."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, model_validator

from .common import Count, Label, PolicyCode, ShortText, Slug, WireModel


class AuthorAction(StrEnum):
    warn = "warn"
    restrict = "restrict"
    suspend = "suspend"
    mark_inauthentic = "mark_inauthentic"


class ActionKind(StrEnum):
    keep = "keep"
    label = "label"
    reduce = "reduce"
    remove = "remove"
    author = "author"
    escalate = "escalate"


class ActionConfig(WireModel):
    id: Slug
    label: Label
    kind: ActionKind
    key: str | None = Field(default=None, pattern=r"^[1-9]$", description="default shortcut")
    requires_policy: bool = False
    requires_note: bool = False
    requires_rating: bool = False
    author_action: AuthorAction | None = Field(
        default=None, description="the action on the author that this action implies"
    )
    strike: bool = Field(default=False, description="counts as a strike on the author")


class PolicyConfig(WireModel):
    code: PolicyCode
    label: Label
    description: ShortText = ""


class RatingConfig(WireModel):
    id: Slug
    label: Label


class PriorityWeights(WireModel):
    """How a queue orders its pending items: higher first.

    priority = score * max classifier score + reports * ln(1 + reports)
             + reach * ln(1 + views) + age * hours waiting
    """

    score: float = Field(default=1.0, ge=0, le=1_000)
    reports: float = Field(default=0.0, ge=0, le=1_000)
    reach: float = Field(default=0.0, ge=0, le=1_000)
    age: float = Field(default=0.0, ge=0, le=1_000)


class QueueConfig(WireModel):
    actions: list[ActionConfig] = Field(min_length=1, max_length=12)
    policies: list[PolicyConfig] = Field(default_factory=list, max_length=64)
    ratings: list[RatingConfig] = Field(default_factory=list, max_length=16)
    author_actions: list[AuthorAction] = Field(default_factory=list, max_length=4)
    priority: PriorityWeights = PriorityWeights()
    sla_minutes: int = Field(default=24 * 60, ge=1, le=30 * 24 * 60)
    lead_only: bool = False

    @model_validator(mode="after")
    def _unique_ids_and_keys(self) -> QueueConfig:
        ids = [a.id for a in self.actions]
        keys = [a.key for a in self.actions if a.key]
        if len(set(ids)) != len(ids):
            raise ValueError("action ids must be unique")
        if len(set(keys)) != len(keys):
            raise ValueError("action keys must be unique")
        return self

    def action(self, action_id: str) -> ActionConfig | None:
        return next((a for a in self.actions if a.id == action_id), None)


class QueueCounts(WireModel):
    pending: Count
    leased: Count
    decided_today: Count
    oldest_pending_age_seconds: Count | None = None


class Queue(WireModel):
    id: Slug
    name: Label
    description: ShortText = ""
    counts: QueueCounts
    config: QueueConfig


class QueueList(WireModel):
    queues: list[Queue] = Field(max_length=1_000)
