"""retired queues: a queue a queue file removed keeps its row (its decided items name it)

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-02

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("queues", schema=None) as batch_op:
        # when a queue file left the queue out (NULL: the queue is live)
        batch_op.add_column(sa.Column("retired_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("queues", schema=None) as batch_op:
        batch_op.drop_column("retired_at")
