"""The lead figures' rollups, kept by the roller."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    Integer,
    String,
    Table,
    Text,
)

from ._base import metadata

# -- rollups of decisions, kept by the roller (see rollups.py) ---------------------------------

queue_hourly = Table(
    "queue_hourly",
    metadata,
    Column("queue_id", String(64), primary_key=True),
    Column("hour", BigInteger, primary_key=True, autoincrement=False),  # epoch seconds, UTC hour
    Column("action", String(64), primary_key=True),
    Column("n", Integer, nullable=False),
)

reviewer_rollups = Table(
    "reviewer_rollups",
    metadata,
    Column("span", Integer, primary_key=True, autoincrement=False),  # 3600 or 86400
    Column("start", BigInteger, primary_key=True, autoincrement=False),  # epoch seconds, UTC
    Column("user_id", Integer, primary_key=True, autoincrement=False),
    Column("action", String(64), primary_key=True),
    Column("n", Integer, nullable=False),
)

handle_time_rollups = Table(
    "handle_time_rollups",
    metadata,
    Column("span", Integer, primary_key=True, autoincrement=False),
    Column("start", BigInteger, primary_key=True, autoincrement=False),
    Column("user_id", Integer, primary_key=True, autoincrement=False),
    Column("bucket", Integer, primary_key=True, autoincrement=False),  # see rollups.BOUNDS
    Column("n", Integer, nullable=False),
)

# Per reviewer, queue, decision kind, action and set of policies cited (``decisions.policies``
# as stored): the quality signals' action mixes and the exposure figures' harm counts (the
# harm rule runs per set of policies when read, so a mapping a lead corrects applies to the
# history at once). Every kind of decision, overturns included (migration 0022).
decision_mix_rollups = Table(
    "decision_mix_rollups",
    metadata,
    Column("span", Integer, primary_key=True, autoincrement=False),  # 3600 or 86400
    Column("start", BigInteger, primary_key=True, autoincrement=False),  # epoch seconds, UTC
    Column("user_id", Integer, primary_key=True, autoincrement=False),
    Column("queue_id", String(64), primary_key=True),
    Column("kind", String(16), primary_key=True),
    Column("action", String(64), primary_key=True),
    Column("policies", Text, primary_key=True),
    Column("n", Integer, nullable=False),
)

# Where the roller (rollups.py) stands in the sealed event log: the rollups hold the review
# decisions of the decided/escalated entries with seq <= last_seq, and every decision whose
# entries have ids <= counted_through_id (counted before the roller existed: migration 0014).
rollup_cursor = Table(
    "rollup_cursor",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("last_seq", Integer, nullable=False),
    Column("counted_through_id", Integer, nullable=False),
    Column("rolled_at", Float, nullable=False),
)
