"""Webhook endpoints and their delivery state."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    text,
)

from ._base import metadata

# -- webhooks: endpoints and their delivery state (see webhooks.py) ----------------------------

# An endpoint of a platform account (``source``: the account's username, as in
# ``enforcement_actions.source``): its actions are POSTed there, signed with ``secret``
# (``whsec_`` + base64 of random bytes; during a rotation ``previous_secret`` signs too until
# ``previous_secret_until``). ``event_kinds``: a JSON list of action kinds, NULL for all.
webhook_endpoints = Table(
    "webhook_endpoints",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("url", Text, nullable=False),
    Column("source", String(64), nullable=False, index=True),
    Column("event_kinds", Text, nullable=True),
    Column("secret", String(128), nullable=False),
    Column("previous_secret", String(128), nullable=True),
    Column("previous_secret_until", Float, nullable=True),
    # active, failing (deliveries keep being tried) or disabled (none until enabled)
    Column("status", String(16), nullable=False, server_default="active"),
    Column("disabled_reason", Text, nullable=True),
    Column("disabled_at", Float, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("created_by", String(64), nullable=True),
)

# Where each endpoint's deliveries stand: the last action seq it acknowledged (2xx), the
# message being retried, its attempts, the next attempt's time, health figures, and the
# lease that lets one dispatcher (of any process) deliver to it at a time. ``version`` is
# raised by every operator change (replay, enable, disable): a dispatcher's cursor update
# names the version it read, so it cannot undo a change made while it was sending.
webhook_state = Table(
    "webhook_state",
    metadata,
    Column(
        "endpoint_id",
        Integer,
        ForeignKey("webhook_endpoints.id"),
        primary_key=True,
        autoincrement=False,
    ),
    Column("delivered_seq", BigInteger, nullable=False, server_default=text("0")),
    Column("version", Integer, nullable=False, server_default=text("0")),
    Column("next_attempt_at", Float, nullable=False, server_default=text("0")),
    Column("message_seq", BigInteger, nullable=True),
    Column("attempts", Integer, nullable=False, server_default=text("0")),
    Column("first_failure_at", Float, nullable=True),
    Column("last_attempt_at", Float, nullable=True),
    Column("last_error", Text, nullable=True),
    Column("last_success_at", Float, nullable=True),
    Column("consecutive_failures", Integer, nullable=False, server_default=text("0")),
    Column("delivered_total", BigInteger, nullable=False, server_default=text("0")),
    Column("lease_owner", String(128), nullable=True),
    Column("lease_until", Float, nullable=True),
)
