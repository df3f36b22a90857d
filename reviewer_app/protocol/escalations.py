"""The leads' escalation worklist: every open escalation with who sent it up, when and
why, how long it waits against the SLA, who holds it and to whom it is assigned."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from .common import (
    EXCERPT_CHARS,
    Count,
    Excerpt,
    ItemId,
    Page,
    ShortText,
    Slug,
    Timestamp,
    Username,
    WireModel,
)
from .items import ItemEscalation


class EscalationState(StrEnum):
    waiting = "waiting"
    """No lead holds it: the next "review now" of a lead it is not assigned away from
    takes it."""
    held = "held"
    """A lead holds it under a lease (``held_by``) and is deciding it."""


class EscalationEntry(WireModel):
    item_id: ItemId
    excerpt: Excerpt = Field(description=f"the post's text, cut to {EXCERPT_CHARS} characters")
    from_queue_id: Slug | None = Field(
        default=None, description="the queue it was escalated from (None: routed here)"
    )
    enqueued_at: Timestamp = Field(description="when it entered the escalation queue")
    waiting_seconds: Count
    sla_seconds: Count = Field(description="the escalation queue's SLA")
    over_sla: bool
    state: EscalationState
    held_by: Username | None = None
    held_until: Timestamp | None = None
    escalation: ItemEscalation
    triage: ShortText = Field(
        default="", description="routed by a triage rule: what the rule said (else empty)"
    )


class EscalationPage(Page):
    escalations: list[EscalationEntry] = Field(max_length=500)
    total: Count = Field(description="open escalations in all (every page)")


class AssigneeNow(WireModel):
    """Whom an escalation is assigned to now, as the client last saw it (None: nobody)."""

    assignee: Username | None


class EscalationAssignment(WireModel):
    """Assign an open escalation to a lead (``assignee`` None: to nobody). Only that lead's
    "review now" takes it; leases already held are not taken away."""

    assignee: Username | None
    expected: AssigneeNow | None = Field(
        default=None,
        description="the assignment this one replaces, as the client last saw it: when the "
        "escalation is assigned otherwise now (another lead changed it meanwhile), nothing "
        "changes and the service answers 409 (``assigned_to_other``: a lead holds it now, "
        "named in the detail and in ``errors``; ``assignment_changed``: nobody does). "
        "Absent: no check (whatever it is assigned to is replaced)",
    )

    @model_serializer(mode="wrap")
    def _unused_left_out(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Without ``expected`` when None: a service of an earlier release (which refuses
        fields it does not know) takes an assignment from a newer desktop."""
        data = handler(self)
        if self.expected is None and isinstance(data, dict):
            data.pop("expected", None)
        return data
