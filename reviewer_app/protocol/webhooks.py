"""Webhook endpoints as leads and admins see them: where each one's deliveries stand.

The messages themselves follow the Standard Webhooks specification (see the README's
"Webhooks" section): a POST per enforcement action, body ``WebhookMessage``, headers
``webhook-id``, ``webhook-timestamp`` and ``webhook-signature``. Secrets never appear here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field

from .common import Timestamp, Username, WireModel
from .enforcement import EnforcementAction, EnforcementKind

MESSAGE_TYPE: Literal["enforcement.action"] = "enforcement.action"
"""The ``type`` of every webhook message (its ``data`` is an EnforcementAction)."""


def webhook_id(action_id: int) -> str:
    """The ``webhook-id`` of an action's message: the same on every attempt and replay."""
    return f"act_{action_id}"


class WebhookStatus(StrEnum):
    active = "active"
    """Deliveries succeed (or have not failed often enough to say otherwise)."""
    failing = "failing"
    """The last attempts failed: retried with backoff; see ``last_error``."""
    disabled = "disabled"
    """Nothing is sent until an operator enables it again (``disabled_reason`` says why)."""


class WebhookMessage(WireModel):
    """The body of a webhook POST (Standard Webhooks' recommended payload shape)."""

    type: Literal["enforcement.action"] = MESSAGE_TYPE
    timestamp: Timestamp = Field(description="when the action was decided")
    data: EnforcementAction


class WebhookEndpoint(WireModel):
    """One endpoint and its health."""

    id: int = Field(ge=1)
    url: str = Field(max_length=2_048)
    account: Username = Field(description="the platform account whose actions it receives")
    event_kinds: list[EnforcementKind] | None = Field(
        default=None, description="the action kinds it receives (None: every kind)"
    )
    status: WebhookStatus
    disabled_reason: str | None = Field(default=None, max_length=2_000)
    created_at: Timestamp
    previous_secret_until: Timestamp | None = Field(
        default=None,
        description="during a secret rotation: messages carry a signature made with the "
        "previous secret as well until then",
    )
    delivered_seq: int = Field(
        ge=0, description="the feed cursor (seq) of the last action the endpoint acknowledged"
    )
    backlog: int = Field(ge=0, description="actions for it not acknowledged yet")
    delivered_total: int = Field(ge=0, description="messages acknowledged (2xx) in all")
    consecutive_failures: int = Field(ge=0)
    attempts: int = Field(ge=0, description="failed attempts of the message being retried")
    last_success_at: Timestamp | None = None
    last_attempt_at: Timestamp | None = None
    last_error: str | None = Field(default=None, max_length=2_000)
    next_attempt_at: Timestamp | None = Field(
        default=None, description="when the message being retried is tried again"
    )


class WebhookList(WireModel):
    endpoints: list[WebhookEndpoint] = Field(max_length=10_000)
