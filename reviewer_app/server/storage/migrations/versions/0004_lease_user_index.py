"""a reviewer's live leases found by user first (the per-reviewer cap on every claim)

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # With ``lease_user_id`` alone SQLite's planner preferred (state, lease_expires_at) and
    # counted every live lease of the service on each claim.
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_index("ix_items_lease_user")
        batch_op.create_index(
            "ix_items_lease_user", ["lease_user_id", "state", "lease_expires_at"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_index("ix_items_lease_user")
        batch_op.create_index("ix_items_lease_user", ["lease_user_id"], unique=False)
