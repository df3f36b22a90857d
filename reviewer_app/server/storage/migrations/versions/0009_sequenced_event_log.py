"""sequenced event log: writers only insert; a sequencer numbers, chains and checkpoints

Until this revision every logged write locked the one-row chain head and hashed its entries
in the request's transaction. From here on a request inserts its entries with no hash and
no place in the chain (``seq``, ``prev_hash``, ``hash``, ``logged_at`` all NULL); the
sequencer (reviewer_app/server/storage/sequencer.py) seals committed entries later, one round at a
time, and publishes checkpoints into ``log_checkpoints``.

The entries already there were chained in id order: they get ``seq = id`` and
``logged_at`` = the running maximum of ``at`` in that order (the log's times never go
backwards; see eventlog.py). The chain head gains ``last_seq`` and ``last_at``. On
PostgreSQL the id sequence is moved past the last entry: the appends before this revision
set ids themselves, so it had not moved since 0002.

The append-only triggers are rebuilt: an update is allowed only when it seals an unsealed
entry (sets ``seq`` and ``hash`` on a row whose ``seq`` is NULL, nothing else of it
changing); entries are never deleted; an insert may not arrive sealed. Checkpoints are
append-only too.

Downgrading is refused while the log holds entries the old chain cannot express (unsealed,
or sealed out of id order).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

CHUNK = 5_000

_events = sa.table(
    "events",
    sa.column("id", sa.Integer),
    sa.column("at", sa.Float),
    sa.column("seq", sa.Integer),
    sa.column("logged_at", sa.Float),
)

_UNSEALED = sa.text("seq IS NULL")

# Only sealing may change an entry: seq and hash set once on a row that had neither, its
# content untouched.
_SQLITE_SEALING = (
    "OLD.seq IS NULL AND OLD.hash IS NULL AND NEW.seq IS NOT NULL AND NEW.hash IS NOT NULL "
    "AND NEW.id = OLD.id AND NEW.at IS OLD.at AND NEW.kind IS OLD.kind "
    "AND NEW.actor IS OLD.actor AND NEW.item_id IS OLD.item_id "
    "AND NEW.queue_id IS OLD.queue_id AND NEW.data IS OLD.data"
)
_PG_APPEND_ONLY = """
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND OLD.seq IS NULL AND OLD.hash IS NULL
       AND NEW.seq IS NOT NULL AND NEW.hash IS NOT NULL
       AND (NEW.id, NEW.at, NEW.kind, NEW.actor, NEW.item_id, NEW.queue_id, NEW.data)
           IS NOT DISTINCT FROM
           (OLD.id, OLD.at, OLD.kind, OLD.actor, OLD.item_id, OLD.queue_id, OLD.data)
    THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'the event log is append-only';
END $$
"""
_PG_PRESEALED = """
CREATE OR REPLACE FUNCTION events_sealed_by_sequencer() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only: entries are sealed by the sequencer';
END $$
"""
_PG_OLD_APPEND_ONLY = (
    "CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS "
    "$$ BEGIN RAISE EXCEPTION 'the event log is append-only'; END $$"
)


def upgrade() -> None:
    _drop_event_guards()
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.alter_column("prev_hash", existing_type=sa.String(length=64), nullable=True)
        batch_op.alter_column("hash", existing_type=sa.String(length=64), nullable=True)
        batch_op.add_column(sa.Column("seq", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("logged_at", sa.Float(), nullable=True))
    last_at = _number_existing()
    if op.get_bind().dialect.name == "postgresql":
        # Until now every append gave its entries their ids itself (the head's last id + 1),
        # so the id sequence never moved; from now on inserts take their ids from it.
        op.execute(
            "SELECT setval(pg_get_serial_sequence('events', 'id'), "
            "COALESCE((SELECT max(id) FROM events), 0) + 1, false)"
        )
    op.create_index("ix_events_seq", "events", ["seq"], unique=True)
    op.create_index(
        "ix_events_unsealed", "events", ["id"], sqlite_where=_UNSEALED, postgresql_where=_UNSEALED
    )
    with op.batch_alter_table("event_chain", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("last_seq", sa.Integer(), nullable=False, server_default=sa.text("0"))
        )
        batch_op.add_column(
            sa.Column("last_at", sa.Float(), nullable=False, server_default=sa.text("0"))
        )
    op.execute(
        sa.text("UPDATE event_chain SET last_seq = last_id, last_at = :at").bindparams(at=last_at)
    )
    op.create_table(
        "log_checkpoints",
        sa.Column("log", sa.String(length=32), nullable=False),
        sa.Column("size", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("head_hash", sa.String(length=64), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("key_id", sa.String(length=16), nullable=True),
        sa.Column("signature", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("log", "size"),
    )
    _make_event_guards()
    _make_checkpoint_guards()


def downgrade() -> None:
    conn = op.get_bind()
    unsealed = conn.execute(
        sa.select(sa.func.count()).select_from(_events).where(_events.c.seq.is_(None))
    ).scalar_one()
    moved = conn.execute(
        sa.select(sa.func.count()).select_from(_events).where(_events.c.seq != _events.c.id)
    ).scalar_one()
    if unsealed or moved:
        raise RuntimeError(
            f"cannot downgrade the event log below 0009: {unsealed} entries are not sealed "
            f"and {moved} were sealed out of id order; the id-ordered chain of 0002 cannot "
            "hold them"
        )
    _drop_checkpoint_guards()
    op.drop_table("log_checkpoints")
    _drop_event_guards()
    with op.batch_alter_table("event_chain", schema=None) as batch_op:
        batch_op.drop_column("last_at")
        batch_op.drop_column("last_seq")
    op.drop_index("ix_events_unsealed", table_name="events")
    op.drop_index("ix_events_seq", table_name="events")
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_column("logged_at")
        batch_op.drop_column("seq")
        batch_op.alter_column("hash", existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column("prev_hash", existing_type=sa.String(length=64), nullable=False)
    if conn.dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS events_sealed_by_sequencer()")
        op.execute(_PG_OLD_APPEND_ONLY)
        op.execute(
            "CREATE TRIGGER events_no_change BEFORE UPDATE OR DELETE ON events "
            "FOR EACH ROW EXECUTE FUNCTION events_append_only()"
        )
    else:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER events_no_{verb.lower()} BEFORE {verb} ON events "
                "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END"
            )


def _number_existing() -> float:
    """The entries chained in id order keep that order: seq = id, and the log's time is the
    running maximum of their times. Returns the last entry's log time (0 for none)."""
    conn = op.get_bind()
    op.execute("UPDATE events SET seq = id")
    running, after = 0.0, 0
    while True:
        rows = conn.execute(
            sa.select(_events.c.id, _events.c.at)
            .where(_events.c.id > after)
            .order_by(_events.c.id)
            .limit(CHUNK)
        ).all()
        if not rows:
            return running
        updates = []
        for row in rows:
            running = max(running, float(row.at))
            updates.append({"b_id": row.id, "b_at": running})
        conn.execute(
            sa.update(_events)
            .where(_events.c.id == sa.bindparam("b_id"))
            .values(logged_at=sa.bindparam("b_at")),
            updates,
        )
        after = int(rows[-1].id)


def _drop_event_guards() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS events_no_change ON events")
        op.execute("DROP TRIGGER IF EXISTS events_presealed ON events")
        op.execute("DROP FUNCTION IF EXISTS events_append_only()")
    else:
        op.execute("DROP TRIGGER IF EXISTS events_no_update")
        op.execute("DROP TRIGGER IF EXISTS events_no_delete")
        op.execute("DROP TRIGGER IF EXISTS events_presealed")


def _make_event_guards() -> None:
    """The database refuses every change of the log except sealing an unsealed entry."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_PG_APPEND_ONLY)
        op.execute(
            "CREATE TRIGGER events_no_change BEFORE UPDATE OR DELETE ON events "
            "FOR EACH ROW EXECUTE FUNCTION events_append_only()"
        )
        op.execute(_PG_PRESEALED)
        op.execute(
            "CREATE TRIGGER events_presealed BEFORE INSERT ON events FOR EACH ROW "
            "WHEN (NEW.seq IS NOT NULL OR NEW.hash IS NOT NULL) "
            "EXECUTE FUNCTION events_sealed_by_sequencer()"
        )
    else:
        op.execute(
            "CREATE TRIGGER events_no_update BEFORE UPDATE ON events "
            f"WHEN NOT ({_SQLITE_SEALING}) "
            "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END"
        )
        op.execute(
            "CREATE TRIGGER events_no_delete BEFORE DELETE ON events "
            "BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END"
        )
        op.execute(
            "CREATE TRIGGER events_presealed BEFORE INSERT ON events "
            "WHEN NEW.seq IS NOT NULL OR NEW.hash IS NOT NULL "
            "BEGIN SELECT RAISE(ABORT, "
            "'the event log is append-only: entries are sealed by the sequencer'); END"
        )


def _make_checkpoint_guards() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION log_checkpoints_append_only() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'published checkpoints are append-only'; END $$"
        )
        op.execute(
            "CREATE TRIGGER log_checkpoints_no_change BEFORE UPDATE OR DELETE ON log_checkpoints "
            "FOR EACH ROW EXECUTE FUNCTION log_checkpoints_append_only()"
        )
    else:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER log_checkpoints_no_{verb.lower()} BEFORE {verb} "
                "ON log_checkpoints "
                "BEGIN SELECT RAISE(ABORT, 'published checkpoints are append-only'); END"
            )


def _drop_checkpoint_guards() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS log_checkpoints_no_change ON log_checkpoints")
        op.execute("DROP FUNCTION IF EXISTS log_checkpoints_append_only()")
    else:
        op.execute("DROP TRIGGER IF EXISTS log_checkpoints_no_update")
        op.execute("DROP TRIGGER IF EXISTS log_checkpoints_no_delete")
