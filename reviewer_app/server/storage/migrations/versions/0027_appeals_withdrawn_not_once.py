"""appeals: an appeal that ended withdrawn leaves its decision appealable

Revision ID: 0027
Revises: 0026
Create Date: 2026-12-07

One appeal per decision was a unique index on ``appeals.decision_id``. An appeal that ended
``withdrawn`` (its post was withdrawn while it waited) was never decided, so the decision
may be appealed again: the account it suspended, say, which the post's withdrawal left as
it was. The rule now holds for the appeals that did not end withdrawn (a partial unique
index), and ``decision_id`` keeps a plain index for the look-ups of every appeal of a
decision. A downgrade fails while a decision has two appeals.

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0027"
down_revision = "0026"
branch_labels = None
depends_on = None

NOT_WITHDRAWN = sa.text("outcome IS NULL OR outcome <> 'withdrawn'")


def upgrade() -> None:
    op.drop_index("ix_appeals_decision", table_name="appeals")
    op.create_index("ix_appeals_decision", "appeals", ["decision_id"])
    op.create_index(
        "ix_appeals_decision_once",
        "appeals",
        ["decision_id"],
        unique=True,
        sqlite_where=NOT_WITHDRAWN,
        postgresql_where=NOT_WITHDRAWN,
    )


def downgrade() -> None:
    op.drop_index("ix_appeals_decision_once", table_name="appeals")
    op.drop_index("ix_appeals_decision", table_name="appeals")
    op.create_index("ix_appeals_decision", "appeals", ["decision_id"], unique=True)
