"""webhooks: endpoints of platform accounts and where each one's deliveries stand

``webhook_endpoints``: URL, the platform account (``source``), an optional list of action
kinds, the signing secret (and the previous one during a rotation), status.
``webhook_state``: one row per endpoint: the last action seq acknowledged, the message being
retried and its attempts, the next attempt's time, health figures, and the dispatcher's
lease (owner and expiry) that lets one process deliver to the endpoint at a time.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-04

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "webhook_endpoints",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("source", sa.String(64), nullable=False),
        sa.Column("event_kinds", sa.Text(), nullable=True),
        sa.Column("secret", sa.String(128), nullable=False),
        sa.Column("previous_secret", sa.String(128), nullable=True),
        sa.Column("previous_secret_until", sa.Float(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False, server_default="active"),
        sa.Column("disabled_reason", sa.Text(), nullable=True),
        sa.Column("disabled_at", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("created_by", sa.String(64), nullable=True),
    )
    op.create_index("ix_webhook_endpoints_source", "webhook_endpoints", ["source"])
    op.create_table(
        "webhook_state",
        sa.Column(
            "endpoint_id",
            sa.Integer(),
            sa.ForeignKey("webhook_endpoints.id"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("delivered_seq", sa.BigInteger(), nullable=False, server_default=sa.text("0")),
        sa.Column("version", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("next_attempt_at", sa.Float(), nullable=False, server_default=sa.text("0")),
        sa.Column("message_seq", sa.BigInteger(), nullable=True),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default=sa.text("0")),
        sa.Column("first_failure_at", sa.Float(), nullable=True),
        sa.Column("last_attempt_at", sa.Float(), nullable=True),
        sa.Column("last_error", sa.Text(), nullable=True),
        sa.Column("last_success_at", sa.Float(), nullable=True),
        sa.Column(
            "consecutive_failures", sa.Integer(), nullable=False, server_default=sa.text("0")
        ),
        sa.Column("delivered_total", sa.BigInteger(), nullable=False, server_default=sa.text("0")),
        sa.Column("lease_owner", sa.String(128), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("webhook_state")
    op.drop_index("ix_webhook_endpoints_source", table_name="webhook_endpoints")
    op.drop_table("webhook_endpoints")
