"""statements of reasons: one per restrictive decision of record (DSA Art. 17)

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-01

A snapshot: it names every table and column itself and imports nothing of the service.
Decisions made before this migration have no statement (none is made up for them).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

_DECIDED = sa.text("decision_id IS NOT NULL")


def upgrade() -> None:
    op.create_table(
        "statements",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("decision_id", sa.Integer, nullable=True),
        sa.Column("item_id", sa.String(64), nullable=True),
        sa.Column("post_id", sa.String(64), nullable=True),
        sa.Column("author_id", sa.String(200), nullable=True),
        sa.Column("source", sa.String(64), nullable=True),
        sa.Column("queue_id", sa.String(64), nullable=True),
        sa.Column("content_date", sa.Float, nullable=True),
        sa.Column("context", sa.Text, nullable=False, server_default="{}"),
        sa.Column("payload", sa.Text, nullable=False),
    )
    op.create_index("ix_statements_created", "statements", ["created_at", "id"])
    op.create_index("ix_statements_item", "statements", ["item_id", "id"])
    op.create_index("ix_statements_post", "statements", ["post_id", "id"])
    op.create_index(
        "ix_statements_decision",
        "statements",
        ["decision_id"],
        unique=True,
        sqlite_where=_DECIDED,
        postgresql_where=_DECIDED,
    )


def downgrade() -> None:
    op.drop_table("statements")
