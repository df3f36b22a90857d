"""escalations carry a reason and can be assigned to a lead

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-01

``decisions.escalation_reason``: the reason an escalating decision gave (one of the
from-queue's escalation reasons; NULL for any other decision, and for escalations made
before reasons existed). ``items.assigned_user_id``/``assigned_at``/``assigned_by_id``: the
lead an open escalation is assigned to (only their claim takes it), who assigned it, when.

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("escalation_reason", sa.String(length=64), nullable=True))
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.add_column(sa.Column("assigned_user_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("assigned_at", sa.Float(), nullable=True))
        batch_op.add_column(sa.Column("assigned_by_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_column("assigned_by_id")
        batch_op.drop_column("assigned_at")
        batch_op.drop_column("assigned_user_id")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_column("escalation_reason")
