"""decision_mix_rollups: decisions per reviewer, queue, kind, action and policies, by hour and day

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-02

The quality signals' action mixes and the exposure figures' harm counts read every
decision of their window; from here they read this rollup (rollups.py), which the roller
keeps from the sealed event log like the others (``decided``, ``escalated`` and now
``overturned`` entries). The back-fill counts every decision the roller has counted
already: all of them but those whose entries it has not moved past yet (entries after
``counted_through_id`` sealed after its cursor or not sealed yet), which it counts when it
gets to them, in this table as in the others.

A snapshot: it names every table and column itself and imports nothing of the service.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

HOUR, DAY = 3_600, 86_400
CHUNK = 50_000
KEYS = ("span", "start", "user_id", "queue_id", "kind", "action", "policies")


def _not_rolled_yet(conn: sa.Connection) -> set[int]:
    cursor = conn.execute(
        sa.text("SELECT last_seq, counted_through_id FROM rollup_cursor WHERE id = 1")
    ).first()
    if cursor is None:
        return set()
    found = set()
    for (data,) in conn.execute(
        sa.text(
            "SELECT data FROM events WHERE kind IN ('decided', 'escalated', 'overturned')"
            " AND id > :counted AND (seq IS NULL OR seq > :last)"
        ),
        {"counted": cursor.counted_through_id, "last": cursor.last_seq},
    ):
        decision_id = json.loads(data or "{}").get("decision_id")
        if decision_id is not None:
            found.add(int(decision_id))
    return found


def upgrade() -> None:
    table = op.create_table(
        "decision_mix_rollups",
        sa.Column("span", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("start", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("user_id", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("queue_id", sa.String(64), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("action", sa.String(64), primary_key=True),
        sa.Column("policies", sa.Text, primary_key=True),
        sa.Column("n", sa.Integer, nullable=False),
    )
    conn = op.get_bind()
    skipped = _not_rolled_yet(conn)
    counts: Counter[tuple[Any, ...]] = Counter()
    after = 0
    while True:
        chunk = conn.execute(
            sa.text(
                "SELECT id, user_id, queue_id, kind, action, policies, decided_at"
                " FROM decisions WHERE id > :after ORDER BY id LIMIT :chunk"
            ),
            {"after": after, "chunk": CHUNK},
        ).all()
        if not chunk:
            break
        for d in chunk:
            if d.id in skipped:
                continue
            for span in (HOUR, DAY):
                start = int(d.decided_at // span) * span
                counts[(span, start, d.user_id, d.queue_id, d.kind, d.action, d.policies)] += 1
        after = chunk[-1].id
    rows = [{**dict(zip(KEYS, key, strict=True)), "n": n} for key, n in sorted(counts.items())]
    for start in range(0, len(rows), 10_000):
        op.bulk_insert(table, rows[start : start + 10_000])


def downgrade() -> None:
    op.drop_table("decision_mix_rollups")
