"""appeals: users' appeals of decisions, and the decisions that settle them

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-01

A snapshot: it names every table and column itself and imports nothing of the service.

``appeals``: one row per appeal a platform relayed (idempotent by the platform's id), the
decision it contests (one appeal per decision), its reviewer and time (for the reviewer
figures), the user's statement, and the outcome once decided. ``decisions.appeal_of``: the
contested decision an appeal's verdict (kind ``appeal``) upheld or reversed.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("appeal_of", sa.Integer(), nullable=True))
    op.create_table(
        "appeals",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("source", sa.String(length=64), nullable=False),
        sa.Column("external_id", sa.String(length=200), nullable=False),
        sa.Column("body_hash", sa.String(length=64), nullable=False),
        sa.Column("subject", sa.String(length=16), nullable=False),
        sa.Column("item_id", sa.String(length=64), nullable=False),
        sa.Column("queue_id", sa.String(length=64), nullable=False),
        sa.Column("decision_id", sa.Integer(), nullable=False),
        sa.Column("reviewer_id", sa.Integer(), nullable=False),
        sa.Column("contested_at", sa.Float(), nullable=False),
        sa.Column("statement", sa.Text(), nullable=False),
        sa.Column("submitted_at", sa.Float(), nullable=False),
        sa.Column("received_at", sa.Float(), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=True),
        sa.Column("outcome_decision_id", sa.Integer(), nullable=True),
        sa.Column("decided_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_appeals_external", "appeals", ["source", "external_id"], unique=True)
    op.create_index("ix_appeals_decision", "appeals", ["decision_id"], unique=True)
    op.create_index("ix_appeals_item", "appeals", ["item_id", "id"], unique=False)
    op.create_index("ix_appeals_reviewer", "appeals", ["reviewer_id", "contested_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_appeals_reviewer", table_name="appeals")
    op.drop_index("ix_appeals_item", table_name="appeals")
    op.drop_index("ix_appeals_decision", table_name="appeals")
    op.drop_index("ix_appeals_external", table_name="appeals")
    op.drop_table("appeals")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_column("appeal_of")
