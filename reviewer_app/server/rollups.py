"""Rollups of decisions kept on write, so lead figures never scan a million decisions.

- ``queue_hourly``: decisions per queue, UTC hour and action (throughput, action mix).
- ``reviewer_rollups``: decisions per reviewer and action, by UTC hour and by UTC day.
- ``handle_time_rollups``: a histogram of time spent per reviewer, by hour and by day,
  in buckets 10% wide (``BOUNDS``), from which median and p90 are estimated.

A window is answered from whole days, then whole hours, then the decisions themselves
for the partial hours at its edges (``split``), so every figure is exact for any window
except the percentiles, which are exact to a bucket. Only ``review`` decisions count
(an auditor's overturn is not throughput). Rows are written in key order, so concurrent
writers on PostgreSQL lock them in the same order and cannot deadlock.
"""

from __future__ import annotations

import functools
import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, delete, insert, select
from sqlalchemy.dialects import postgresql, sqlite

from .tables import decisions, handle_time_rollups, queue_hourly, reviewer_rollups

HOUR = 3_600
DAY = 86_400
# Histogram bucket b holds times in [BOUNDS[b-1], BOUNDS[b]) ms (b = 0: under 100 ms).
BOUNDS: tuple[int, ...] = tuple(round(100 * 1.1**k) for k in range(146))
REBUILD_CHUNK = 50_000


@dataclass(frozen=True)
class Decided:
    """What the rollups need of one decision."""

    queue_id: str
    user_id: int
    action: str
    time_spent_ms: int
    decided_at: float


def bucket_of(ms: int) -> int:
    return bisect_right(BOUNDS, ms)


def bucket_range(bucket: int) -> tuple[float, float]:
    low = 0.0 if bucket == 0 else float(BOUNDS[bucket - 1])
    high = float(BOUNDS[bucket]) if bucket < len(BOUNDS) else low * 1.1
    return low, high


def percentile(histogram: Mapping[int, int], p: float) -> int | None:
    """The ``p``-th percentile (nearest rank) of a histogram, interpolated in its bucket."""
    total = sum(histogram.values())
    if total == 0:
        return None
    rank = max(1, math.ceil(p / 100 * total))
    seen = 0
    for bucket in sorted(histogram):
        n = histogram[bucket]
        if seen + n >= rank:
            low, high = bucket_range(bucket)
            return round(low + (high - low) * (rank - seen - 0.5) / n)
        seen += n
    raise AssertionError("unreachable")


def floor_to(t: float, span: int) -> int:
    return int(t // span) * span


def ceil_to(t: float, span: int) -> int:
    return int(-(-t // span)) * span


@dataclass(frozen=True)
class Window:
    """A window split into what each source answers: days, hours, and raw edges."""

    raw: list[tuple[float, float]]
    hours: list[tuple[int, int]]
    days: tuple[int, int] | None


def split(since: float, until: float) -> Window:
    h0, h1 = ceil_to(since, HOUR), floor_to(until, HOUR)
    if h0 >= h1:
        return Window([(since, until)], [], None)
    raw = [(a, b) for a, b in ((since, float(h0)), (float(h1), until)) if a < b]
    d0, d1 = ceil_to(h0, DAY), floor_to(h1, DAY)
    if d0 >= d1:
        return Window(raw, [(h0, h1)], None)
    return Window(raw, [(a, b) for a, b in ((h0, d0), (d1, h1)) if a < b], (d0, d1))


@functools.cache
def _upsert_statement(dialect: str, table: Any, keys: tuple[str, ...]) -> Any:
    """Built once per table and database kind: building one costs more than running it."""
    dialect_insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = dialect_insert(table)
    return statement.on_conflict_do_update(
        index_elements=list(keys), set_={"n": table.c.n + statement.excluded.n}
    )


def _upsert(
    conn: Connection, table: Any, keys: list[str], counts: Counter[tuple[Any, ...]]
) -> None:
    if not counts:
        return
    statement = _upsert_statement(conn.dialect.name, table, tuple(keys))
    rows = [{**dict(zip(keys, key, strict=True)), "n": n} for key, n in sorted(counts.items())]
    conn.execute(statement, rows)


def _tally(
    rows: Iterable[Decided],
) -> tuple[Counter[tuple[Any, ...]], Counter[tuple[Any, ...]], Counter[tuple[Any, ...]]]:
    by_queue: Counter[tuple[Any, ...]] = Counter()
    by_reviewer: Counter[tuple[Any, ...]] = Counter()
    handle: Counter[tuple[Any, ...]] = Counter()
    for d in rows:
        hour, day = floor_to(d.decided_at, HOUR), floor_to(d.decided_at, DAY)
        bucket = bucket_of(d.time_spent_ms)
        by_queue[(d.queue_id, hour, d.action)] += 1
        by_reviewer[(HOUR, hour, d.user_id, d.action)] += 1
        by_reviewer[(DAY, day, d.user_id, d.action)] += 1
        handle[(HOUR, hour, d.user_id, bucket)] += 1
        handle[(DAY, day, d.user_id, bucket)] += 1
    return by_queue, by_reviewer, handle


def add(conn: Connection, rows: Iterable[Decided]) -> None:
    """Count new decisions into the rollups (in the transaction that records them)."""
    by_queue, by_reviewer, handle = _tally(rows)
    _upsert(conn, queue_hourly, ["queue_id", "hour", "action"], by_queue)
    _upsert(conn, reviewer_rollups, ["span", "start", "user_id", "action"], by_reviewer)
    _upsert(conn, handle_time_rollups, ["span", "start", "user_id", "bucket"], handle)


def rebuild(conn: Connection) -> None:
    """Recount every rollup from the decisions (after a bulk load, or in a migration)."""
    for table in (queue_hourly, reviewer_rollups, handle_time_rollups):
        conn.execute(delete(table))
    by_queue: Counter[tuple[Any, ...]] = Counter()
    by_reviewer: Counter[tuple[Any, ...]] = Counter()
    handle: Counter[tuple[Any, ...]] = Counter()
    after = 0
    columns = (
        decisions.c.id,
        decisions.c.queue_id,
        decisions.c.user_id,
        decisions.c.action,
        decisions.c.time_spent_ms,
        decisions.c.decided_at,
    )
    while True:
        chunk = conn.execute(
            select(*columns)
            .where(decisions.c.id > after, decisions.c.kind == "review")
            .order_by(decisions.c.id)
            .limit(REBUILD_CHUNK)
        ).all()
        if not chunk:
            break
        q, r, h = _tally(
            Decided(c.queue_id, c.user_id, c.action, c.time_spent_ms, c.decided_at) for c in chunk
        )
        by_queue.update(q)
        by_reviewer.update(r)
        handle.update(h)
        after = chunk[-1].id
    for table, keys, counts in (
        (queue_hourly, ["queue_id", "hour", "action"], by_queue),
        (reviewer_rollups, ["span", "start", "user_id", "action"], by_reviewer),
        (handle_time_rollups, ["span", "start", "user_id", "bucket"], handle),
    ):
        rows = [{**dict(zip(keys, key, strict=True)), "n": n} for key, n in sorted(counts.items())]
        for start in range(0, len(rows), 10_000):
            conn.execute(insert(table), rows[start : start + 10_000])
