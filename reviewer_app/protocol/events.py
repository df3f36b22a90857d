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
    escalation_assigned = "escalation_assigned"
    """A lead assigned an open escalation to a lead (``data.assignee``; None: to nobody)."""
    user_created = "user_created"
    role_changed = "role_changed"
    password_set = "password_set"  # noqa: S105 (a kind, not a password)
    """An admin set a person's password: every session of theirs ended."""
    access_ended = "access_ended"
    """An admin ended a person's access: no password opens the account, every session
    ended, what they held given back (a password set again gives access back)."""
    audit_sampled = "audit_sampled"
    audited = "audited"
    overturned = "overturned"
    # intake (posts and signals from a platform) and configuration
    post_updated = "post_updated"
    """A new version of the post came in (edited upstream); the open item shows it."""
    signal_added = "signal_added"
    """A signal (classifier flag, report, fact-check) was added to an open item."""
    withdrawn = "withdrawn"
    """The post was deleted or made private upstream: the open item left review."""
    rereview = "rereview"
    """A decided post re-entered review (the queue's re-review rule was met)."""
    config_applied = "config_applied"
    """A new queue configuration version was applied."""
    moved = "moved"
    """The open item moved to another queue: a queue file removed its queue (``--drain-to``)."""
    api_key_created = "api_key_created"
    api_key_revoked = "api_key_revoked"
    # webhook endpoints (the event names the endpoint's id, URL and account: never a secret)
    webhook_added = "webhook_added"
    webhook_disabled = "webhook_disabled"
    """By an operator, or by the dispatcher (410 Gone, or a message failing for too long)."""
    webhook_enabled = "webhook_enabled"
    webhook_secret_rotated = "webhook_secret_rotated"  # noqa: S105 (a kind, not a secret)
    """A new signing secret; the previous one signs too until the rotation ends."""
    webhook_replayed = "webhook_replayed"
    """The endpoint's cursor was moved back: actions after it are sent again."""
    # account actions
    account_actioned = "account_actioned"
    """An account-level decision changed an author's status (warned, restricted, suspended,
    marked inauthentic)."""
    resolved = "resolved"
    """The author was suspended or marked inauthentic: the open item closed without a verdict."""
    held_back = "held_back"
    """A post of a suspended or inauthentic author met a routing rule and was not queued."""
    appealed = "appealed"
    """The platform sent an appeal of the item's decision: the item went to the appeals
    queue (``data``: the appeal's id, the contested decision; never the user's words)."""
    unservable = "unservable"
    """The item's stored document could not be served (a claim left it out, ``data.error``
    says why): it is parked in state ``unservable`` for an operator, never leased."""


EventValue = str | int | float | bool | None | list[str]


class Event(WireModel):
    id: int = Field(ge=1)
    at: Timestamp = Field(
        description="when it happened: for a sealed entry its time in the log, which never "
        "goes backwards in log (seq) order"
    )
    kind: EventKind
    actor: Username | None = None
    item_id: ItemId | None = None
    queue_id: Slug | None = None
    data: dict[str, EventValue] = Field(default_factory=dict, max_length=32)
    hash: str | None = Field(
        default=None,
        pattern=r"^[0-9a-f]{64}$",
        description="sha256 of this entry and the hash of the one before (the chain); "
        "null until the entry is sealed",
    )
    seq: int | None = Field(
        default=None,
        ge=1,
        description="the entry's place in the log (the order of the chain); null until the "
        "log's sequencer sealed it, a moment after its transaction committed",
    )


class EventPage(Page):
    events: list[Event] = Field(max_length=1_000)
