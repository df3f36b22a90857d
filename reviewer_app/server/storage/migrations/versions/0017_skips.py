"""skips: which items each reviewer skipped, so claims prefer other items for them

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "skips",
        sa.Column("user_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("item_id", sa.String(64), primary_key=True),
        sa.Column("queue_id", sa.String(64), nullable=False),
        sa.Column("until", sa.Float, nullable=False),
    )
    op.create_index("ix_skips_user_queue", "skips", ["user_id", "queue_id", "until"])


def downgrade() -> None:
    op.drop_index("ix_skips_user_queue", table_name="skips")
    op.drop_table("skips")
