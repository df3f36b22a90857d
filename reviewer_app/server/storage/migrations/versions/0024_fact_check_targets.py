"""the posts each fact-check rating names, to find the ratings of a post that arrives later

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-06

A fact-checker's rating went only on the named posts the service already had: a rating sent
before the platform sent its post (a fact-checker rates what it finds on the platform, and
the platform sends a post when it is flagged) was stored and never applied, and a reviewer
could not label that post for want of a fact-check. The posts a rating names are now kept
by the platform's post id, so a post that arrives later gets every rating of it. The
ratings already stored are read once here to fill the table.

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None


def upgrade() -> None:
    targets = op.create_table(
        "fact_check_targets",
        sa.Column("user_id", sa.Integer, primary_key=True),
        sa.Column("rating_external_id", sa.String(200), primary_key=True),
        sa.Column("post_external_id", sa.String(200), primary_key=True),
        sa.Column("source", sa.String(64), nullable=True),
    )
    op.create_index("ix_fact_check_targets_post", "fact_check_targets", ["post_external_id"])
    ratings = sa.table(
        "fact_check_ratings",
        sa.column("user_id", sa.Integer),
        sa.column("external_id", sa.String),
        sa.column("payload", sa.Text),
    )
    conn = op.get_bind()
    rows = []
    for r in conn.execute(sa.select(ratings.c.user_id, ratings.c.external_id, ratings.c.payload)):
        sent = json.loads(r.payload)
        rows += [
            {
                "user_id": r.user_id,
                "rating_external_id": r.external_id,
                "post_external_id": post,
                "source": sent.get("source"),
            }
            for post in dict.fromkeys(sent.get("post_external_ids") or [])
        ]
    if rows:
        op.bulk_insert(targets, rows)


def downgrade() -> None:
    op.drop_index("ix_fact_check_targets_post", table_name="fact_check_targets")
    op.drop_table("fact_check_targets")
