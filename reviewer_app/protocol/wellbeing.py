"""Wellbeing: the kinds of harm a reviewer is exposed to, break rules, breaks and the
lead's exposure figures.

A queue's configuration says what its posts expose a reviewer to (``harm``) and what its
policy codes add (``PolicyConfig.harm``); ``harm_of`` is the one rule both sides use to
turn a decided item into the harm kinds it counts for. The service derives every
reviewer's exposure from their decisions with it (``GET /stats/exposure``), the client
counts the same way for its break reminders (``BreakRule``).
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TYPE_CHECKING
from uuid import UUID

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer, model_validator
from pydantic_core import PydanticCustomError

from .common import ESCALATION_QUEUE, Count, JsonBool, Label, Timestamp, Username, WireModel

if TYPE_CHECKING:
    from .queues import QueueConfig


class HarmKind(StrEnum):
    """A kind of harmful content a reviewer may be shown."""

    graphic_violence = "graphic_violence"
    hate = "hate"
    harassment = "harassment"
    sexual_content = "sexual_content"
    child_safety = "child_safety"
    self_harm = "self_harm"
    violent_extremism = "violent_extremism"
    animal_cruelty = "animal_cruelty"
    scams = "scams"
    misinformation = "misinformation"


SHIFT_GAP_SECONDS = 4 * 3600.0
"""A shift is a run of a reviewer's activity with no gap this long or longer: the service's
exposure figures and the client's own count for break reminders end a shift alike."""

#: the kinds a break rule counts as high-harm unless the queue says otherwise
DEFAULT_HIGH_HARM: tuple[HarmKind, ...] = (
    HarmKind.graphic_violence,
    HarmKind.sexual_content,
    HarmKind.child_safety,
    HarmKind.self_harm,
    HarmKind.violent_extremism,
    HarmKind.animal_cruelty,
)


class BreakRule(WireModel):
    """When the review window reminds a reviewer of this queue to take a break: after
    ``after_minutes`` of work since the shift began or the last break, or after
    ``after_high_harm`` items of a ``high_harm`` kind since then (whichever comes first).
    A reviewer may turn reminders off for themselves (Preferences)."""

    after_minutes: int | None = Field(default=None, ge=1, le=24 * 60)
    after_high_harm: int | None = Field(default=None, ge=1, le=10_000)
    high_harm: list[HarmKind] = Field(default=list(DEFAULT_HIGH_HARM), max_length=16)

    @model_validator(mode="after")
    def _some_limit(self) -> BreakRule:
        if self.after_minutes is None and self.after_high_harm is None:
            raise PydanticCustomError(
                "break_without_limit", "a break rule needs after_minutes or after_high_harm"
            )
        return self


class BreakRuleSeen(WireModel):
    """A queue's break rule as a client read it (``breaks`` null: it had none)."""

    breaks: BreakRule | None


class BreakRuleChange(WireModel):
    """A lead's break reminders for one queue (``PUT /queues/{id}/breaks``): a new
    configuration version with this rule, or with none (``breaks`` null: no reminders)."""

    breaks: BreakRule | None
    based_on: BreakRuleSeen | None = Field(
        default=None,
        description="the queue's rule this change was made from, as the client read it: "
        "when the queue's rule is another now (someone changed it meanwhile), nothing is "
        "saved and the service answers 409 ``breaks_changed``. Absent: no check",
    )
    keep_high_harm: bool = Field(
        default=False,
        description="true: the rule's ``high_harm`` is not changed: the queue's own kinds "
        "stay, those of its rule now or, with reminders off, of the last rule it had (the "
        "defaults for a queue that never had one); the reply says which were kept",
    )

    @model_serializer(mode="wrap")
    def _unused_left_out(self, handler: SerializerFunctionWrapHandler) -> object:
        """Without ``based_on`` (None) and ``keep_high_harm`` (false) when unused: a service
        of an earlier release (which refuses fields it does not know) takes the change."""
        data = handler(self)
        if isinstance(data, dict):
            if self.based_on is None:
                data.pop("based_on", None)
            if not self.keep_high_harm:
                data.pop("keep_high_harm", None)
        return data


class BreakRuleChanged(WireModel):
    queue_id: str
    breaks: BreakRule | None
    config_version: int = Field(ge=0, description="the configuration version it made")


def harm_of(config: QueueConfig, policies: Iterable[str]) -> frozenset[HarmKind]:
    """The harm kinds a decided item of this queue counts for: the queue's own (every post
    there was shown to the reviewer) and those of the policy codes the decision cites."""
    kinds = set(config.harm)
    cited = set(policies)
    for policy in config.policies:
        if policy.code in cited:
            kinds.update(policy.harm)
    return frozenset(kinds)


def counts_origin_harm(queue_id: str, config: QueueConfig) -> bool:
    """Whether a queue's decided items count the harm of the queue each came from too: a
    queue taking items from others (the escalation queue, an appeals queue) that names no
    harm of its own (a lead deciding an escalated hate post saw a hate post)."""
    return not config.harm and (queue_id == ESCALATION_QUEUE or config.appeals)


def is_high_harm(config: QueueConfig, kinds: Iterable[HarmKind]) -> bool:
    """Whether an item of these kinds counts towards the queue's high-harm break limit."""
    high = set(config.breaks.high_harm if config.breaks else DEFAULT_HIGH_HARM)
    return not high.isdisjoint(kinds)


class BreakRecord(WireModel):
    """A break a reviewer took (``POST /breaks``): sent when it starts and again, with
    ``ended_at``, when it ends. ``id`` is the client's; the same id updates the same break."""

    id: UUID
    started_at: Timestamp
    ended_at: Timestamp | None = None
    prompted: JsonBool = Field(default=False, description="taken from a break reminder")

    @model_validator(mode="after")
    def _ends_after_start(self) -> BreakRecord:
        if self.ended_at is not None and self.ended_at < self.started_at:
            raise PydanticCustomError("break_order", "ended_at is before started_at")
        return self


class HarmCount(WireModel):
    kind: HarmKind
    shift: Count = Field(description="items of this kind decided in the current shift")
    week: Count = Field(description="items of this kind decided in the last 7 days")


class ReviewerExposure(WireModel):
    """One reviewer's exposure: figures only, never content."""

    reviewer: Username
    display_name: Label
    shift_started_at: Timestamp | None = Field(
        default=None, description="None when the reviewer is not on shift"
    )
    shift_items: Count
    week_items: Count
    high_harm_shift: Count = Field(description="items of a high-harm kind in the shift")
    harm: list[HarmCount] = Field(max_length=len(HarmKind))
    breaks_shift: Count
    breaks_week: Count
    break_minutes_shift: Count


class ExposureReport(WireModel):
    """``GET /stats/exposure``: per reviewer, what they were exposed to this shift and in
    the last 7 days. A shift is a run of the reviewer's activity (decisions, breaks) with
    no gap of ``shift_gap_hours`` or more that is still going (its last activity is less
    than that long ago)."""

    generated_at: Timestamp
    shift_gap_hours: float = Field(gt=0)
    reviewers: list[ReviewerExposure] = Field(max_length=10_000)
    # as the other lead reports say it (``stats.STALENESS``, ``stats.FROM_REPLICA``; not
    # imported: ``stats`` imports the queue models, which import this module)
    staleness_seconds: float = Field(
        default=0.0,
        ge=0,
        description="how far behind the primary database the figures may be, in seconds: 0 "
        "when read from the primary or from a read replica that had caught up with it; else "
        "the age of the last transaction the replica had replayed (at most the service's "
        "read_max_staleness_seconds)",
    )
    from_replica: bool = Field(
        default=False,
        description="read from the service's read replica (REVIEWER_SERVER_READ_DATABASE_URL)",
    )
