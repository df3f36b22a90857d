"""hash-chained event log

Every entry gets ``prev_hash`` and ``hash`` (see reviewer_app/server/storage/eventlog.py); the
entries written before this revision are chained here in id order, and the one-row table
``event_chain`` holds the head that appends continue from.

A snapshot: the entry serialisation is copied here as it was at this revision, so a later
change to the service's event log cannot change what upgrading an old database does.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-14
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

CHUNK = 5_000
GENESIS = "0" * 64
HEAD_ID = 1


def entry_hash(entry: Mapping[Any, Any], prev_hash: str) -> str:
    """The hash of one entry (id, time, kind, actor, item, queue, data) after ``prev_hash``,
    as the log defined it at this revision."""
    canonical = json.dumps(
        [
            int(entry["id"]),
            float(entry["at"]),
            entry["kind"],
            entry["actor"],
            entry["item_id"],
            entry["queue_id"],
            entry["data"],
            prev_hash,
        ],
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# The shape of the log as of this revision (not tables.py, which moves on).
_events = sa.table(
    "events",
    sa.column("id", sa.Integer),
    sa.column("at", sa.Float),
    sa.column("kind", sa.String),
    sa.column("actor", sa.String),
    sa.column("item_id", sa.String),
    sa.column("queue_id", sa.String),
    sa.column("data", sa.Text),
    sa.column("prev_hash", sa.String),
    sa.column("hash", sa.String),
)


def upgrade() -> None:
    op.create_table(
        "event_chain",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("last_id", sa.Integer(), nullable=False),
        sa.Column("last_hash", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    _drop_append_only()
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.add_column(sa.Column("prev_hash", sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column("hash", sa.String(length=64), nullable=True))
    last_id, last_hash = _chain_existing()
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.alter_column("prev_hash", existing_type=sa.String(length=64), nullable=False)
        batch_op.alter_column("hash", existing_type=sa.String(length=64), nullable=False)
    op.execute(
        sa.text("INSERT INTO event_chain (id, last_id, last_hash) VALUES (:i, :l, :h)").bindparams(
            i=HEAD_ID, l=last_id, h=last_hash
        )
    )
    _make_append_only()


def downgrade() -> None:
    _drop_append_only()
    with op.batch_alter_table("events", schema=None) as batch_op:
        batch_op.drop_column("hash")
        batch_op.drop_column("prev_hash")
    op.drop_table("event_chain")
    _make_append_only()


def _chain_existing() -> tuple[int, str]:
    """Hash the entries already there, in id order, a chunk at a time."""
    conn = op.get_bind()
    prev_hash, last_id = GENESIS, 0
    while True:
        rows = (
            conn.execute(
                sa.select(_events).where(_events.c.id > last_id).order_by(_events.c.id).limit(CHUNK)
            )
            .mappings()
            .all()
        )
        if not rows:
            return last_id, prev_hash
        updates = []
        for row in rows:
            digest = entry_hash(row, prev_hash)
            updates.append({"b_id": row["id"], "b_prev": prev_hash, "b_hash": digest})
            prev_hash, last_id = digest, int(row["id"])
        conn.execute(
            sa.update(_events)
            .where(_events.c.id == sa.bindparam("b_id"))
            .values(prev_hash=sa.bindparam("b_prev"), hash=sa.bindparam("b_hash")),
            updates,
        )


def _drop_append_only() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS events_no_change ON events")
        op.execute("DROP FUNCTION IF EXISTS events_append_only()")
    else:
        op.execute("DROP TRIGGER IF EXISTS events_no_update")
        op.execute("DROP TRIGGER IF EXISTS events_no_delete")


def _make_append_only() -> None:
    """The event log is append-only: the database itself refuses UPDATE and DELETE."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS "
            "$$ BEGIN RAISE EXCEPTION 'the event log is append-only'; END $$"
        )
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
