"""rollups off the request path: the roller's cursor in the sealed event log

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-06

A snapshot: it names every table and column itself and imports nothing of the service.

Until now every verdict upserted its queue's hourly rollup row (one row per queue and hour
that every verdict in the queue locked until commit) and its reviewer's rows. From here
the rollups are kept by a roller that follows the sealed event log (rollups.py): it counts
the decisions of the ``decided`` and ``escalated`` entries sealed after ``last_seq``.
Every decision made before this migration is counted already, and its entries have ids up
to the largest id now: ``counted_through_id`` says the roller (and the figures' reading of
what it has not rolled yet) leaves those out.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    cursor = op.create_table(
        "rollup_cursor",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("counted_through_id", sa.Integer, nullable=False),
        sa.Column("rolled_at", sa.Float, nullable=False),
    )
    found = (
        op.get_bind()
        .execute(sa.text("SELECT COALESCE(MAX(seq), 0), COALESCE(MAX(id), 0) FROM events"))
        .one()
    )
    op.bulk_insert(
        cursor,
        [{"id": 1, "last_seq": found[0], "counted_through_id": found[1], "rolled_at": 0.0}],
    )


def downgrade() -> None:
    op.drop_table("rollup_cursor")
