"""intake routing: a post's signal summary, the media a post names, one open item per post

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_OPEN = sa.text("post_id IS NOT NULL AND state IN ('pending', 'leased')")


def upgrade() -> None:
    with op.batch_alter_table("posts", schema=None) as batch_op:
        # what the post's signals add up to (scores, report counts, fact-checks): kept on
        # write, so a signal costs the same however many came before it
        batch_op.add_column(
            sa.Column("signal_summary", sa.Text(), server_default="{}", nullable=False)
        )
        # fact-checkers name posts by the platform's id alone
        batch_op.create_index("ix_posts_external_id", ["external_id"], unique=False)
    op.create_table(
        "post_media",
        sa.Column("post_id", sa.String(length=64), nullable=False),
        sa.Column("media_id", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("post_id", "media_id"),
    )
    op.create_index("ix_post_media_media", "post_media", ["media_id"], unique=False)
    # a post is never queued twice: at most one pending or leased item per post
    op.create_index(
        "ix_items_open_post",
        "items",
        ["post_id"],
        unique=True,
        sqlite_where=_OPEN,
        postgresql_where=_OPEN,
    )


def downgrade() -> None:
    op.drop_index("ix_items_open_post", table_name="items")
    op.drop_index("ix_post_media_media", table_name="post_media")
    op.drop_table("post_media")
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.drop_index("ix_posts_external_id")
        batch_op.drop_column("signal_summary")
