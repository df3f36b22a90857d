"""intake: a post keeps the time of its last withdrawal after it comes back

Revision ID: 0028
Revises: 0027
Create Date: 2026-12-07

A private post sent again with a later ``updated_at`` is live again, and its ``updated_at``
row value is then the time it came back. A withdrawal sent again afterwards (a platform
retrying a batch whose answer it lost) took the post down once more: nothing remembered
that this withdrawal was the one already applied. ``posts.withdrawn_at`` is the ``at`` of
the post's last withdrawal and stays when the post comes back; a withdrawal no later than
it is a replay. Posts withdrawn now get it from ``updated_at`` (their withdrawal's time).

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0028"
down_revision = "0027"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.add_column(sa.Column("withdrawn_at", sa.Float(), nullable=True))
    op.execute("UPDATE posts SET withdrawn_at = updated_at WHERE state <> 'live'")


def downgrade() -> None:
    with op.batch_alter_table("posts", schema=None) as batch_op:
        batch_op.drop_column("withdrawn_at")
