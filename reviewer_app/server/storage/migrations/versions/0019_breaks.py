"""breaks: the breaks reviewers took, for the lead's exposure view

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-08

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "breaks",
        sa.Column("id", sa.String(36), primary_key=True),
        sa.Column("user_id", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("ended_at", sa.Float, nullable=True),
        sa.Column("prompted", sa.Boolean(), nullable=False),
    )
    op.create_index("ix_breaks_user_time", "breaks", ["user_id", "started_at"])


def downgrade() -> None:
    op.drop_index("ix_breaks_user_time", table_name="breaks")
    op.drop_table("breaks")
