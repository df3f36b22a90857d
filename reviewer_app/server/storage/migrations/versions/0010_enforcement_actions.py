"""enforcement actions: what the platform is to do, one per decision of record, sealed in order

Each decision of record (a verdict, a lead's decision on an escalation, an audit overturn)
and each withdrawal that closed review inserts one row in its own transaction, unsealed
(``seq`` and ``sealed_at`` NULL). The sequencer (reviewer_app/server/storage/sequencer.py) gives
committed rows their ``seq`` a round at a time; the enforcement feed pages by ``seq``, never
by ``id`` (see reviewer_app/server/domain/enforcement.py).

The database refuses every change of an action except sealing it (``seq`` and
``sealed_at`` set once, nothing else changing), every delete, and an insert that arrives
sealed: the platform undoes exactly what it did, so what it was told must never change.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-04

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_UNSEALED = sa.text("seq IS NULL")
_DECIDED = sa.text("decision_id IS NOT NULL")

# every column but the two sealing sets
_CONTENT = (
    "id",
    "created_at",
    "kind",
    "source",
    "post_id",
    "post_external_id",
    "author_id",
    "author_external_id",
    "item_id",
    "decision_id",
    "queue_id",
    "config_version",
    "decided_at",
    "reverses_action_id",
    "payload",
)
_SQLITE_SEALING = "OLD.seq IS NULL AND NEW.seq IS NOT NULL AND " + " AND ".join(
    f"NEW.{c} IS OLD.{c}" for c in _CONTENT
)
_PG_APPEND_ONLY = f"""
CREATE OR REPLACE FUNCTION enforcement_actions_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.seq IS NULL AND NEW.seq IS NOT NULL
       AND ({", ".join(f"NEW.{c}" for c in _CONTENT)})
           IS NOT DISTINCT FROM
           ({", ".join(f"OLD.{c}" for c in _CONTENT)})
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'enforcement actions are append-only';
END $$
"""
_PG_PRESEALED = """
CREATE OR REPLACE FUNCTION enforcement_actions_sealed_by_sequencer() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'enforcement actions are append-only: they are sealed by the sequencer';
END $$
"""


def upgrade() -> None:
    op.create_table(
        "enforcement_actions",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("sealed_at", sa.Float(), nullable=True),
        sa.Column("kind", sa.String(length=32), nullable=False),
        sa.Column("source", sa.String(length=64), nullable=True),
        sa.Column("post_id", sa.String(length=64), nullable=True),
        sa.Column("post_external_id", sa.String(length=200), nullable=True),
        sa.Column("author_id", sa.String(length=200), nullable=True),
        sa.Column("author_external_id", sa.String(length=200), nullable=True),
        sa.Column("item_id", sa.String(length=64), nullable=True),
        sa.Column("decision_id", sa.Integer(), nullable=True),
        sa.Column("queue_id", sa.String(length=64), nullable=True),
        sa.Column("config_version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("decided_at", sa.Float(), nullable=False),
        sa.Column("reverses_action_id", sa.Integer(), nullable=True),
        sa.Column("payload", sa.Text(), server_default="{}", nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_enforcement_actions_seq", "enforcement_actions", ["seq"], unique=True)
    op.create_index("ix_enforcement_actions_source_seq", "enforcement_actions", ["source", "seq"])
    op.create_index(
        "ix_enforcement_actions_unsealed",
        "enforcement_actions",
        ["id"],
        sqlite_where=_UNSEALED,
        postgresql_where=_UNSEALED,
    )
    op.create_index(
        "ix_enforcement_actions_decision",
        "enforcement_actions",
        ["decision_id"],
        unique=True,
        sqlite_where=_DECIDED,
        postgresql_where=_DECIDED,
    )
    op.create_index("ix_enforcement_actions_post", "enforcement_actions", ["post_id", "id"])
    _make_guards()


def downgrade() -> None:
    _drop_guards()
    op.drop_index("ix_enforcement_actions_post", table_name="enforcement_actions")
    op.drop_index("ix_enforcement_actions_decision", table_name="enforcement_actions")
    op.drop_index("ix_enforcement_actions_unsealed", table_name="enforcement_actions")
    op.drop_index("ix_enforcement_actions_source_seq", table_name="enforcement_actions")
    op.drop_index("ix_enforcement_actions_seq", table_name="enforcement_actions")
    op.drop_table("enforcement_actions")


def _make_guards() -> None:
    """The database refuses every change of an action except sealing an unsealed one."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_PG_APPEND_ONLY)
        op.execute(
            "CREATE TRIGGER enforcement_actions_no_change BEFORE UPDATE OR DELETE "
            "ON enforcement_actions FOR EACH ROW "
            "EXECUTE FUNCTION enforcement_actions_append_only()"
        )
        op.execute(_PG_PRESEALED)
        op.execute(
            "CREATE TRIGGER enforcement_actions_presealed BEFORE INSERT ON enforcement_actions "
            "FOR EACH ROW WHEN (NEW.seq IS NOT NULL OR NEW.sealed_at IS NOT NULL) "
            "EXECUTE FUNCTION enforcement_actions_sealed_by_sequencer()"
        )
    else:
        op.execute(
            "CREATE TRIGGER enforcement_actions_no_update BEFORE UPDATE ON enforcement_actions "
            f"WHEN NOT ({_SQLITE_SEALING}) "
            "BEGIN SELECT RAISE(ABORT, 'enforcement actions are append-only'); END"
        )
        op.execute(
            "CREATE TRIGGER enforcement_actions_no_delete BEFORE DELETE ON enforcement_actions "
            "BEGIN SELECT RAISE(ABORT, 'enforcement actions are append-only'); END"
        )
        op.execute(
            "CREATE TRIGGER enforcement_actions_presealed BEFORE INSERT ON enforcement_actions "
            "WHEN NEW.seq IS NOT NULL OR NEW.sealed_at IS NOT NULL "
            "BEGIN SELECT RAISE(ABORT, "
            "'enforcement actions are append-only: they are sealed by the sequencer'); END"
        )


def _drop_guards() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS enforcement_actions_no_change ON enforcement_actions")
        op.execute("DROP TRIGGER IF EXISTS enforcement_actions_presealed ON enforcement_actions")
        op.execute("DROP FUNCTION IF EXISTS enforcement_actions_append_only()")
        op.execute("DROP FUNCTION IF EXISTS enforcement_actions_sealed_by_sequencer()")
    else:
        for name in ("no_update", "no_delete", "presealed"):
            op.execute(f"DROP TRIGGER IF EXISTS enforcement_actions_{name}")
