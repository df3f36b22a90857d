"""The append-only, hash-chained event log: claims, verdicts, escalations, audits, overturns,
role changes."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .common import ItemId, Page, Slug, Timestamp, Username, WireModel


class EventKind(StrEnum):
    enqueued = "enqueued"
    claimed = "claimed"
    renewed = "renewed"
    released = "released"
    expired = "expired"
    decided = "decided"
    escalated = "escalated"
    user_created = "user_created"
    role_changed = "role_changed"
    audit_sampled = "audit_sampled"
    audited = "audited"
    overturned = "overturned"


EventValue = str | int | float | bool | None | list[str]


class Event(WireModel):
    id: int = Field(ge=1)
    at: Timestamp
    kind: EventKind
    actor: Username | None = None
    item_id: ItemId | None = None
    queue_id: Slug | None = None
    data: dict[str, EventValue] = Field(default_factory=dict, max_length=32)
    hash: str | None = Field(
        default=None,
        pattern=r"^[0-9a-f]{64}$",
        description="sha256 of this entry and the hash of the one before (the chain)",
    )


class EventPage(Page):
    events: list[Event] = Field(max_length=1_000)
