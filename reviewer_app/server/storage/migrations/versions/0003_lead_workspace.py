"""lead workspace: decision kinds, rollups, audits, conflict counts

A snapshot: the rollups are counted here by code copied as it was at this revision (the
service's rollups module moves on; upgrading an old database must not).

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-14
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections import Counter
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Long because a migration is a frozen snapshot of the schema at its version."""
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("kind", sa.String(length=16), server_default="review", nullable=False)
        )
        batch_op.add_column(sa.Column("overturns_id", sa.Integer(), nullable=True))
        batch_op.create_index("ix_decisions_time", ["decided_at"], unique=False)
    with op.batch_alter_table("verdict_keys", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("status", sa.String(length=16), server_default="accepted", nullable=False)
        )
        batch_op.create_index(
            "ix_verdict_keys_status", ["status", "created_at", "user_id"], unique=False
        )
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.create_index(
            "ix_items_waiting", ["queue_id", "state", "enqueued_at"], unique=False
        )
    op.create_table(
        "queue_hourly",
        sa.Column("queue_id", sa.String(length=64), nullable=False),
        sa.Column("hour", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("queue_id", "hour", "action"),
    )
    for name, last in (("reviewer_rollups", "action"), ("handle_time_rollups", "bucket")):
        op.create_table(
            name,
            sa.Column("span", sa.Integer(), autoincrement=False, nullable=False),
            sa.Column("start", sa.BigInteger(), autoincrement=False, nullable=False),
            sa.Column("user_id", sa.Integer(), autoincrement=False, nullable=False),
            sa.Column("action", sa.String(length=64), nullable=False)
            if last == "action"
            else sa.Column("bucket", sa.Integer(), autoincrement=False, nullable=False),
            sa.Column("n", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("span", "start", "user_id", last),
        )
    op.create_table(
        "audit_samples",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("method", sa.String(length=16), nullable=False),
        sa.Column("requested_size", sa.Integer(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
        sa.Column("queue_id", sa.String(length=64), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "audit_items",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("sample_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("decision_id", sa.Integer(), nullable=False),
        sa.Column("item_id", sa.String(length=64), nullable=False),
        sa.Column("queue_id", sa.String(length=64), nullable=False),
        sa.Column("reviewer_id", sa.Integer(), nullable=False),
        sa.Column("decided_at", sa.Float(), nullable=False),
        sa.Column("action", sa.String(length=64), nullable=False),
        sa.Column("assigned_to", sa.Integer(), nullable=True),
        sa.Column("assigned_until", sa.Float(), nullable=True),
        sa.Column("result", sa.String(length=16), nullable=True),
        sa.Column("auditor_id", sa.Integer(), nullable=True),
        sa.Column("final_action", sa.String(length=64), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("recorded_at", sa.Float(), nullable=True),
        sa.Column("overturn_decision_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["sample_id"], ["audit_samples.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("audit_items", schema=None) as batch_op:
        batch_op.create_index("ix_audit_items_sample", ["sample_id", "position"], unique=False)
        batch_op.create_index("ix_audit_items_decision", ["decision_id"], unique=True)
        batch_op.create_index(
            "ix_audit_items_reviewer", ["reviewer_id", "decided_at"], unique=False
        )
    _backfill_statuses()
    _count_rollups()


HOUR = 3_600
DAY = 86_400
# Histogram bucket b holds handle times in [BOUNDS[b-1], BOUNDS[b]) ms (b = 0: under 100 ms).
BOUNDS: tuple[int, ...] = tuple(round(100 * 1.1**k) for k in range(146))
CHUNK = 50_000


def _count_rollups() -> None:
    """Count the decisions made before this revision into the new rollups."""
    conn = op.get_bind()
    decisions = sa.table(
        "decisions",
        sa.column("id", sa.Integer),
        sa.column("queue_id", sa.String),
        sa.column("user_id", sa.Integer),
        sa.column("action", sa.String),
        sa.column("time_spent_ms", sa.Integer),
        sa.column("decided_at", sa.Float),
        sa.column("kind", sa.String),
    )
    by_queue: Counter[tuple[Any, ...]] = Counter()
    by_reviewer: Counter[tuple[Any, ...]] = Counter()
    handle: Counter[tuple[Any, ...]] = Counter()
    after = 0
    while True:
        chunk = conn.execute(
            sa.select(
                decisions.c.id,
                decisions.c.queue_id,
                decisions.c.user_id,
                decisions.c.action,
                decisions.c.time_spent_ms,
                decisions.c.decided_at,
            )
            .where(decisions.c.id > after, decisions.c.kind == "review")
            .order_by(decisions.c.id)
            .limit(CHUNK)
        ).all()
        if not chunk:
            break
        for d in chunk:
            hour = int(d.decided_at // HOUR) * HOUR
            day = int(d.decided_at // DAY) * DAY
            bucket = bisect_right(BOUNDS, d.time_spent_ms)
            by_queue[(d.queue_id, hour, d.action)] += 1
            by_reviewer[(HOUR, hour, d.user_id, d.action)] += 1
            by_reviewer[(DAY, day, d.user_id, d.action)] += 1
            handle[(HOUR, hour, d.user_id, bucket)] += 1
            handle[(DAY, day, d.user_id, bucket)] += 1
        after = chunk[-1].id
    for name, keys, counts in (
        ("queue_hourly", ["queue_id", "hour", "action"], by_queue),
        ("reviewer_rollups", ["span", "start", "user_id", "action"], by_reviewer),
        ("handle_time_rollups", ["span", "start", "user_id", "bucket"], handle),
    ):
        table = sa.table(name, *(sa.column(k) for k in keys), sa.column("n", sa.Integer))
        rows = [{**dict(zip(keys, key, strict=True)), "n": n} for key, n in sorted(counts.items())]
        for start in range(0, len(rows), 10_000):
            conn.execute(sa.insert(table), rows[start : start + 10_000])


def _backfill_statuses() -> None:
    """Conflicts stored before this revision are counted too."""
    conn = op.get_bind()
    keys = sa.table(
        "verdict_keys",
        sa.column("key", sa.String),
        sa.column("result", sa.Text),
        sa.column("status", sa.String),
    )
    rows = conn.execute(
        sa.select(keys.c.key, keys.c.result).where(keys.c.result.like('%"status":"conflict"%'))
    ).all()
    updates = [
        {"b_key": r.key, "b_status": json.loads(r.result).get("status", "accepted")} for r in rows
    ]
    updates = [u for u in updates if u["b_status"] != "accepted"]
    if updates:
        conn.execute(
            sa.update(keys)
            .where(keys.c.key == sa.bindparam("b_key"))
            .values(status=sa.bindparam("b_status")),
            updates,
        )


def downgrade() -> None:
    with op.batch_alter_table("audit_items", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_items_reviewer")
        batch_op.drop_index("ix_audit_items_decision")
        batch_op.drop_index("ix_audit_items_sample")
    op.drop_table("audit_items")
    op.drop_table("audit_samples")
    op.drop_table("handle_time_rollups")
    op.drop_table("reviewer_rollups")
    op.drop_table("queue_hourly")
    with op.batch_alter_table("items", schema=None) as batch_op:
        batch_op.drop_index("ix_items_waiting")
    with op.batch_alter_table("verdict_keys", schema=None) as batch_op:
        batch_op.drop_index("ix_verdict_keys_status")
        batch_op.drop_column("status")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_index("ix_decisions_time")
        batch_op.drop_column("overturns_id")
        batch_op.drop_column("kind")
