"""Rollups of decisions, so lead figures never scan a million decisions.

- ``queue_hourly``: decisions per queue, UTC hour and action (throughput, action mix).
- ``reviewer_rollups``: decisions per reviewer and action, by UTC hour and by UTC day.
- ``handle_time_rollups``: a histogram of time spent per reviewer, by hour and by day,
  in buckets 10% wide (``BOUNDS``), from which median and p90 are estimated.
- ``decision_mix_rollups``: decisions per reviewer, queue, kind, action and set of
  policies, by hour and by day (``mix_counts``): the quality signals' action mixes and the
  exposure figures' harm counts. It counts every kind of decision (the exposure figures
  count an auditor's overturn too: they saw the item), from ``overturned`` entries as well.

A window is answered from whole days, then whole hours, then the decisions themselves
for the partial hours at its edges (``split``), so every figure is exact for any window
except the percentiles, which are exact to a bucket. Only ``review`` and ``appeal``
decisions count (an auditor's overturn is not throughput; deciding an appeal is).

**Kept off the request path.** A verdict writes its decision and its ``decided`` (or
``escalated``) entry in the event log, and nothing here: no row shared by the queue's
verdicts (until schema 0014 every verdict upserted its queue's row for the hour, so every
verdict of a queue queued behind one row lock until commit). The ``Roller`` counts the
decisions afterwards, one round at a time across every process (a PostgreSQL advisory
lock; on SQLite the write transaction), following the **sealed** event log: each round
takes the decided/escalated entries sealed after its cursor (``rollup_cursor.last_seq``),
up to the log's sealed head, adds their review decisions to the rollups and moves the
cursor, in one transaction. Not ``decisions.id > last``: ids are handed out before
commit, so a decision committed after a later id was rolled would be skipped for ever;
the sequencer gives seqs to committed entries only, in order (sequencer.py), so a cursor
on seq never passes a decision it has not counted.

**Exact and fresh at once.** What the roller has not counted yet (entries sealed after
the cursor, or not sealed yet) is read raw when figures are asked for (``unrolled``), in
the same snapshot as the rollups (``Database.snapshot``): a figure includes a decision
the moment its verdict commits, whether the roller is a second behind or stopped. The
roller only keeps that tail short (it rolls every ``ROLL_SECONDS``).
"""

from __future__ import annotations

import functools
import json
import logging
import math
import threading
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Row

from reviewer_app.protocol import EventKind
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.leader import Leadership
from reviewer_app.server.storage.tables import (
    decision_mix_rollups,
    decisions,
    event_chain,
    events,
    handle_time_rollups,
    queue_hourly,
    reviewer_rollups,
    rollup_cursor,
)

log = logging.getLogger("server")

HOUR = 3_600
DAY = 86_400
# Histogram bucket b holds times in [BOUNDS[b-1], BOUNDS[b]) ms (b = 0: under 100 ms).
BOUNDS: tuple[int, ...] = tuple(round(100 * 1.1**k) for k in range(146))
REBUILD_CHUNK = 50_000
# The roller: a round this often (the raw tail a figure reads is about this long), over at
# most this many sealed entries; after a failed round, wait this long.
ROLL_SECONDS = 0.5
ROLL_BATCH = 10_000
RETRY_SECONDS = 2.0
# PostgreSQL advisory lock of the roller (the event log's sealer has 7_304_212).
LOCK_KEY = 7_304_216
CURSOR_ID = 1
# The entries that stand for a decision (data.decision_id): one per decision (overturned:
# the auditor's correcting decision, counted in decision_mix_rollups only).
ROLLED_KINDS = (EventKind.decided.value, EventKind.escalated.value, EventKind.overturned.value)
# the decision kinds that are throughput (the review flow's verdicts, appeals' included)
COUNTED_KINDS = ("review", "appeal")
ID_CHUNK = 5_000


@dataclass(frozen=True)
class Decided:
    """What the rollups need of one decision."""

    queue_id: str
    user_id: int
    action: str
    time_spent_ms: int
    decided_at: float
    kind: str = "review"
    policies: str = "[]"


_COLUMNS = (
    decisions.c.queue_id,
    decisions.c.user_id,
    decisions.c.action,
    decisions.c.time_spent_ms,
    decisions.c.decided_at,
    decisions.c.kind,
    decisions.c.policies,
)


def _decided(r: Any) -> Decided:
    return Decided(
        r.queue_id, r.user_id, r.action, r.time_spent_ms, r.decided_at, r.kind, r.policies
    )


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


def tiers(t: Table, window: Window) -> Iterable[ColumnElement[bool]]:
    """Conditions on a rollup table (span, start) for the whole days and hours of a window."""
    if window.days:
        d0, d1 = window.days
        yield and_(t.c.span == DAY, t.c.start >= d0, t.c.start < d1)
    for a, b in window.hours:
        yield and_(t.c.span == HOUR, t.c.start >= a, t.c.start < b)


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


Tally = dict[Any, Counter[tuple[Any, ...]]]

# each rollup table and its key columns, in the order _tally counts them
_KEYS: tuple[tuple[Any, list[str]], ...] = (
    (queue_hourly, ["queue_id", "hour", "action"]),
    (reviewer_rollups, ["span", "start", "user_id", "action"]),
    (handle_time_rollups, ["span", "start", "user_id", "bucket"]),
    (decision_mix_rollups, ["span", "start", "user_id", "queue_id", "kind", "action", "policies"]),
)


def _tally(rows: Iterable[Decided]) -> Tally:
    """Per rollup table, its rows' counts: every decision in decision_mix_rollups, the
    throughput (``COUNTED_KINDS``) in the others."""
    found: Tally = {table: Counter() for table, _ in _KEYS}
    by_queue, by_reviewer = found[queue_hourly], found[reviewer_rollups]
    handle, mixed = found[handle_time_rollups], found[decision_mix_rollups]
    for d in rows:
        hour, day = floor_to(d.decided_at, HOUR), floor_to(d.decided_at, DAY)
        for span, start in ((HOUR, hour), (DAY, day)):
            mixed[(span, start, d.user_id, d.queue_id, d.kind, d.action, d.policies)] += 1
        if d.kind not in COUNTED_KINDS:
            continue
        bucket = bucket_of(d.time_spent_ms)
        by_queue[(d.queue_id, hour, d.action)] += 1
        by_reviewer[(HOUR, hour, d.user_id, d.action)] += 1
        by_reviewer[(DAY, day, d.user_id, d.action)] += 1
        handle[(HOUR, hour, d.user_id, bucket)] += 1
        handle[(DAY, day, d.user_id, bucket)] += 1
    return found


def add(conn: Connection, rows: Iterable[Decided]) -> None:
    """Count decisions into the rollups (the roller's round; rows written in key order)."""
    found = _tally(rows)
    for table, keys in _KEYS:
        _upsert(conn, table, keys, found[table])


def rebuild(conn: Connection) -> None:
    """Recount every rollup from the decisions (after a bulk load, with no verdicts coming
    in): every decision is counted, so the roller's cursor moves past every entry."""
    for table, _ in _KEYS:
        conn.execute(delete(table))
    last_seq, last_id = conn.execute(
        select(func.coalesce(func.max(events.c.seq), 0), func.coalesce(func.max(events.c.id), 0))
    ).one()
    conn.execute(
        update(rollup_cursor)
        .where(rollup_cursor.c.id == CURSOR_ID)
        .values(last_seq=last_seq, counted_through_id=last_id)
    )
    found: Tally = {table: Counter() for table, _ in _KEYS}
    after = 0
    while True:
        chunk = conn.execute(
            select(decisions.c.id, *_COLUMNS)
            .where(decisions.c.id > after)
            .order_by(decisions.c.id)
            .limit(REBUILD_CHUNK)
        ).all()
        if not chunk:
            break
        for table, counts in _tally(_decided(c) for c in chunk).items():
            found[table].update(counts)
        after = chunk[-1].id
    for table, keys in _KEYS:
        counts = found[table]
        rows = [{**dict(zip(keys, key, strict=True)), "n": n} for key, n in sorted(counts.items())]
        for start in range(0, len(rows), 10_000):
            conn.execute(insert(table), rows[start : start + 10_000])


# -- the roller -----------------------------------------------------------------------------

_CURSOR = select(rollup_cursor.c.last_seq, rollup_cursor.c.counted_through_id).where(
    rollup_cursor.c.id == CURSOR_ID
)
_SEALED_HEAD = select(event_chain.c.last_seq).where(event_chain.c.id == 1)
_MOVE_CURSOR = (
    update(rollup_cursor)
    .where(rollup_cursor.c.id == CURSOR_ID)
    .values(last_seq=bindparam("b_seq"), rolled_at=bindparam("b_at"))
)
_DECIDED_ENTRIES = select(events.c.data).where(
    events.c.kind.in_(ROLLED_KINDS), events.c.id > bindparam("b_counted")
)
_DECISIONS = select(*_COLUMNS).where(decisions.c.id.in_(bindparam("b_ids", expanding=True)))


def _decisions_of(conn: Connection, entries: Iterable[Any]) -> list[Decided]:
    """The decisions the decided/escalated/overturned entries stand for."""
    ids = sorted({int(json.loads(e.data)["decision_id"]) for e in entries})
    found: list[Decided] = []
    for start in range(0, len(ids), ID_CHUNK):
        rows = conn.execute(_DECISIONS, {"b_ids": ids[start : start + ID_CHUNK]})
        found += [_decided(r) for r in rows]
    return found


def unrolled(
    conn: Connection,
    since: float,
    until: float,
    kinds: Iterable[str] | None = COUNTED_KINDS,
) -> list[Decided]:
    """The decisions of ``kinds`` (None: every kind) in [since, until) that the rollups do
    not hold yet: those of
    entries sealed after the roller's cursor or not sealed yet. Read in the same snapshot
    as the rollups (``Database.snapshot``), rollups plus these are every decision."""
    cursor = conn.execute(_CURSOR).one()
    counted = {"b_counted": cursor.counted_through_id}
    entries = [
        *conn.execute(_DECIDED_ENTRIES.where(events.c.seq > cursor.last_seq), counted),
        *conn.execute(_DECIDED_ENTRIES.where(events.c.seq.is_(None)), counted),
    ]  # two statements: each has its index (ix_events_seq, the unsealed partial index)
    wanted = None if kinds is None else set(kinds)
    return [
        d
        for d in _decisions_of(conn, entries)
        if since <= d.decided_at < until and (wanted is None or d.kind in wanted)
    ]


@dataclass(frozen=True)
class Rolled:
    """What one round did: the entries it moved past and the decisions it counted."""

    entries: int = 0
    decisions: int = 0
    busy: bool = False  # another process was rolling (PostgreSQL)


class Roller:
    """Keeps the rollups from the sealed event log (see the module's text): a thread per
    API process, one round at a time across all of them; the thread of the process that
    leads the background rounds (leader.py) does them, the others stand by."""

    def __init__(
        self,
        db: Database,
        clock: Callable[[], float],
        *,
        interval: float = ROLL_SECONDS,
        batch: int = ROLL_BATCH,
        leader: Leadership | None = None,
    ) -> None:
        """``leader``: the thread's rounds wait for it to lead (None: they never wait)."""
        self.db = db
        self.leader = leader
        self.clock = clock
        self.interval = interval
        self.batch = batch
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._one_at_a_time = threading.Lock()

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="rollups", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stopping.set()
        thread.join(timeout=30)

    def _run(self) -> None:
        while not self._stopping.wait(self.interval):
            if self.leader is not None and not self.leader.leading:
                continue  # another process does the rounds (leader.py)
            try:
                while self.round().entries >= self.batch and not self._stopping.is_set():
                    pass  # a full round: more is waiting
            except Exception:
                log.warning("rolling up decisions failed; trying again", exc_info=True)
                self._stopping.wait(RETRY_SECONDS)

    def roll_now(self) -> int:
        """Count every decision whose entry is sealed now (waiting for another process's
        round instead of skipping); the decisions counted. For tests and tools: figures
        never need it (they read what is not rolled yet raw)."""
        counted = 0
        while True:
            done = self.round(wait=True)
            counted += done.decisions
            if not done.busy and done.entries < self.batch:
                return counted

    def round(self, *, wait: bool = False) -> Rolled:
        """Count the decisions of up to ``batch`` sealed entries after the cursor.

        PostgreSQL: the round's transaction takes the advisory lock first and reads and
        writes under it, so a process that does not get it reads nothing (with the read
        first, every API process read the same entries and decisions each round and all
        but one threw them away: work that grew with the processes). SQLite: read first,
        then written in a short transaction (the writer lock is held for the upserts
        only); sealed entries and decisions never change, so what was read still holds if
        the cursor has not moved meanwhile (else another roller counted them: nothing is
        written)."""
        with self._one_at_a_time:
            if not self.db.is_sqlite:
                with self.db.write() as conn:
                    lock = func.pg_advisory_xact_lock if wait else func.pg_try_advisory_xact_lock
                    got = conn.execute(select(lock(LOCK_KEY))).scalar()
                    if not wait and not got:  # (the waiting lock returns nothing)
                        return Rolled(busy=True)
                    read = self._read(conn)
                    if read is None:
                        return Rolled()
                    cursor, upto, found = read
                    add(conn, found)
                    conn.execute(_MOVE_CURSOR, {"b_seq": upto, "b_at": self.clock()})
                return Rolled(upto - cursor.last_seq, len(found))
            with self.db.read() as conn:
                read = self._read(conn)
            if read is None:
                return Rolled()
            cursor, upto, found = read
            with self.db.write() as conn:
                if conn.execute(_CURSOR).one().last_seq != cursor.last_seq:
                    return Rolled(busy=True)  # another roller counted them
                add(conn, found)
                conn.execute(_MOVE_CURSOR, {"b_seq": upto, "b_at": self.clock()})
            return Rolled(upto - cursor.last_seq, len(found))

    def _read(self, conn: Connection) -> tuple[Row[Any, Any], int, list[Decided]] | None:
        """The cursor, how far this round goes and the decisions to count (None: nothing
        sealed after the cursor)."""
        cursor = conn.execute(_CURSOR).one()
        head = int(conn.execute(_SEALED_HEAD).scalar() or 0)
        upto = min(head, cursor.last_seq + self.batch)
        if upto <= cursor.last_seq:
            return None
        entries = conn.execute(
            _DECIDED_ENTRIES.where(events.c.seq > cursor.last_seq, events.c.seq <= upto),
            {"b_counted": cursor.counted_through_id},
        ).all()
        return cursor, upto, _decisions_of(conn, entries)

    def lag(self, conn: Connection) -> int:
        """Sealed entries the roller has not moved past yet."""
        cursor = conn.execute(_CURSOR).one()
        head = int(conn.execute(_SEALED_HEAD).scalar() or 0)
        return max(0, head - int(cursor.last_seq))
