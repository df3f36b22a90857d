"""feedback: leads' notes on decisions, and when each reviewer last saw their feedback

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-01

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "decision_notes",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("decision_id", sa.Integer, nullable=False),
        sa.Column("reviewer_id", sa.Integer, nullable=False),
        sa.Column("author_id", sa.Integer, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_index("ix_decision_notes_decision", "decision_notes", ["decision_id", "id"])
    op.create_index("ix_decision_notes_reviewer", "decision_notes", ["reviewer_id", "created_at"])
    op.create_table(
        "feedback_seen",
        sa.Column("user_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_audit_items_recorded", "audit_items", ["reviewer_id", "recorded_at"])


def downgrade() -> None:
    op.drop_index("ix_audit_items_recorded", table_name="audit_items")
    op.drop_table("feedback_seen")
    op.drop_index("ix_decision_notes_reviewer", table_name="decision_notes")
    op.drop_index("ix_decision_notes_decision", table_name="decision_notes")
    op.drop_table("decision_notes")
