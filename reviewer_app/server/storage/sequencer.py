"""The sequencer: gives committed rows of an append-only table their place in one order.

Writers of such a table only insert: a row arrives in its request's transaction with its
``seq`` (and whatever depends on its place, such as a hash chain) NULL. The sequencer
seals rows later, a round at a time:

1. one sealer at a time across every API process: on PostgreSQL the round's transaction
   takes ``pg_try_advisory_xact_lock(<the log's key>)`` (a process that does not get it
   skips the round: another is sealing); on SQLite the write transaction is exclusive;
2. it reads the head (the last seq and whatever the log chains on), then the **committed**
   rows whose seq is NULL, in id order;
3. it gives them the next seq numbers, asks the log's ``seal`` callback for each row's other
   values (hash, time, ...), writes them, stores the new head, and commits.

Why not ``WHERE id > <last sealed id>``: ids are handed out when a row is inserted, but rows
become visible when their transaction commits. A transaction that took id 7 and commits
after ids 8 and 9 were sealed would be skipped for ever by an id cursor (the transactional
outbox trap). Selecting ``seq IS NULL`` finds it in the next round, and it is sealed after
8 and 9: never lost, never placed before something already sealed. A reader paging by
``seq > cursor`` therefore never misses a row either: seq is only ever given to committed
rows, densely and in increasing order, each round's numbers becoming visible at once.

Each API process runs a sequencer thread (``start``/``stop``, from the app's lifespan),
and the one of the process that leads the background rounds (leader.py) does the rounds;
the others stand by until their process leads. A local commit that appended rows pokes it
(``mark_appended`` flags the connection with the log's name; the flag is read when the
connection returns to the pool after a commit, and dropped on rollback): the next round
seals that log without first asking whether it has unsealed rows. Rounds start at least
``MIN_GAP_SECONDS`` apart, so under load one round seals the entries of many commits;
every ``interval`` seconds the thread also looks at every log (rows other processes
committed, checkpoints due). A log another process was sealing (its lock taken: two
processes leading for a moment, or a read barrier) is tried again at the next round.
Tests and read barriers call ``seal_now``: it waits for the lock instead of skipping, so
everything committed before the call is sealed when it returns.

A log is described by a ``SequencedLog``: its table, id and seq columns, a time column (for
the lag), an advisory lock key, and the callbacks ``head``, ``seal`` and ``store``. The
event log is one (eventlog.py); an enforcement feed's actions can be another.
"""

from __future__ import annotations

import logging
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Table, event, func, select, text
from sqlalchemy.engine import RowMapping
from sqlalchemy.sql.expression import Executable

from reviewer_app.server.storage.bulk import UpdateMany
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.leader import Leadership

log = logging.getLogger("server.sequencer")

INTERVAL_SECONDS = 0.05
# Rounds start at least this far apart: the commits that poke the sequencer meanwhile are
# sealed together by the next round rather than one round each (under load a round seals
# every entry of up to this long; with a poke after every commit and no gap, two API
# processes on PostgreSQL ran over 100 rounds a second, most of them for an entry or two,
# and the statements of those rounds cost more CPU than the lock they replaced).
MIN_GAP_SECONDS = 0.025
BATCH = 2_000
# After a failed round (the database away, say): wait this long before trying again.
RETRY_SECONDS = 1.0
# A process standing by seals after all when an entry has waited this long: the leader
# holds the lead and does no rounds (paused, swapped out, wedged with its connection open;
# one that dies loses the lead with its connection). Well under the readiness limit
# (``log_lag_limit_seconds``), which every process's /readyz would otherwise cross.
RESCUE_SECONDS = 3.0

_APPENDED = "reviewer_app.sequencer.appended"
_ANY = "*"


def mark_appended(conn: Connection, log_name: str | None = None) -> None:
    """Note that this transaction inserted rows into the log ``log_name`` (None: any): when
    it commits, the process's sequencer is poked and seals that log in its next round
    without first asking whether it has unsealed rows (see ``Sequencer``)."""
    conn.info.setdefault(_APPENDED, set()).add(log_name or _ANY)


@dataclass(frozen=True)
class Head:
    """Where a log's sealed part ends: the last seq, the last sealed row's id, and the
    log's own state (for the event log: the last hash and time)."""

    seq: int
    id: int | None
    state: Any = None


@dataclass(frozen=True)
class Round:
    """What one round did for one log."""

    log: str
    sealed: int = 0
    first_seq: int | None = None
    last_seq: int | None = None
    busy: bool = False  # another sealer had the log's lock (PostgreSQL)


@dataclass(frozen=True)
class Lag:
    """Rows committed but not sealed yet: how many, and the age of the oldest (by its time
    column: when its request wrote it), in seconds (0 when none)."""

    unsealed: int
    oldest_seconds: float


class SequencedLog(ABC):
    """An append-only table the sequencer orders. Subclasses fill in the names and the
    three callbacks; the sequencer does the locking, selecting, numbering and writing."""

    name: str
    lock_key: int  # PostgreSQL advisory lock: one sealer of this log at a time
    table: Table
    id_column: str = "id"
    seq_column: str = "seq"
    time_column: str = "at"

    @property
    def unsealed_index(self) -> str:
        """The partial index of the rows not sealed yet (``id WHERE seq IS NULL``)."""
        return f"ix_{self.table.name}_unsealed"

    @abstractmethod
    def head(self, conn: Connection) -> Head:
        """The sealed part's head, read inside the round (after the lock)."""

    @abstractmethod
    def seal(self, row: RowMapping, seq: int, state: Any) -> tuple[dict[str, Any], Any]:
        """The values (other than seq) to set on ``row`` as entry ``seq`` after ``state``,
        and the state after it."""

    @abstractmethod
    def store(self, conn: Connection, before: Head, after: Head, now: float, force: bool) -> None:
        """Keep the new head (``after``; equal to ``before`` when nothing was sealed) and
        publish what is due; ``force``: publish now, not when the interval says."""

    def due(self, conn: Connection, now: float) -> bool:
        """Work for a round even with nothing to seal (a checkpoint to publish, say)."""
        return False


class Sequencer:
    """Seals the logs of one database; one per process (see the module's text)."""

    def __init__(
        self,
        db: Database,
        logs: Sequence[SequencedLog],
        clock: Callable[[], float],
        *,
        interval: float = INTERVAL_SECONDS,
        batch: int = BATCH,
        leader: Leadership | None = None,
        rescue: float = RESCUE_SECONDS,
    ) -> None:
        """``leader``: the thread's rounds wait for it to lead (None: they never wait),
        unless an entry has waited ``rescue`` seconds to be sealed."""
        self.db = db
        self.leader = leader
        self.rescue = rescue
        self.logs = list(logs)
        self.clock = clock
        self.interval = interval
        self.batch = batch
        self._poked = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._one_at_a_time = threading.Lock()  # rounds of this process, thread and callers
        self._appended: set[str] = set()  # logs this process appended to since the last round
        self._appended_lock = threading.Lock()
        self._updates: dict[tuple[str, tuple[str, ...]], UpdateMany] = {}
        sqlite = db.is_sqlite
        self._unsealed = {lg.name: unsealed_statement(lg, batch, sqlite=sqlite) for lg in self.logs}
        self._first_unsealed = {
            lg.name: first_unsealed_statement(lg, sqlite=sqlite) for lg in self.logs
        }
        self._lag = {lg.name: lag_statement(lg, sqlite=sqlite) for lg in self.logs}
        event.listen(db.engine, "rollback", _forget_appended)
        event.listen(db.engine, "checkin", self._checked_in)

    # -- the thread -----------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            return
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="log-sequencer", daemon=True)
        self._thread.start()

    def stop(self, *, final_round: bool = True) -> None:
        """Stop the thread; with ``final_round``, seal what committed before (a graceful
        shutdown leaves nothing for the next start)."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        self._stopping.set()
        self._poked.set()
        thread.join(timeout=30)
        if final_round:
            try:
                self.seal_now()
            except Exception:
                log.warning("final sealing round failed", exc_info=True)

    @property
    def running(self) -> bool:
        return self._thread is not None

    def poke(self) -> None:
        self._poked.set()

    def _checked_in(self, _dbapi_connection: Any, record: Any) -> None:
        names = record.info.pop(_APPENDED, None) if record is not None else None
        if names and self._leads():  # standing by: the leader's looks find them
            self._note(names, poke=True)

    def _leads(self) -> bool:
        return self.leader is None or self.leader.leading

    def _note(self, names: set[str], *, poke: bool) -> None:
        with self._appended_lock:
            self._appended |= names
        if poke:
            self._poked.set()

    def _run(self) -> None:
        last_round = last_look = -float("inf")
        while not self._stopping.is_set():
            if not self._leads():  # another process does the rounds
                with self._appended_lock:
                    self._appended = set()
                self._poked.clear()
                if self.leader is not None and not self.leader.wait(self.rescue / 2):
                    self._rescue()
                continue
            self._poked.wait(self.interval)
            if self._stopping.is_set():
                return
            # pokes that come within the gap wait for it: the round then serves them all
            gap = last_round + MIN_GAP_SECONDS - time.monotonic()
            if gap > 0 and self._stopping.wait(gap):
                return
            self._poked.clear()
            with self._appended_lock:
                appended, self._appended = self._appended, set()
            last_round = time.monotonic()
            look = last_round - last_look >= self.interval  # at every log, now and then
            if look:
                last_look = last_round
            try:
                more, busy = self._tick(appended, look=look)
            except Exception:
                log.warning("sealing round failed; trying again", exc_info=True)
                self._note(appended, poke=False)
                self._stopping.wait(RETRY_SECONDS)
                continue
            # a full round goes on at once; a log another process was sealing, next time
            if more or busy:
                self._note(more | busy, poke=bool(more))

    def _rescue(self) -> None:
        """Standing by: seal what the leader has left waiting ``rescue`` seconds or more."""
        try:
            with self.db.read() as conn:
                lags = self.lag(conn, self.clock())
            stalled = [lg for lg in self.logs if lags[lg.name].oldest_seconds >= self.rescue]
            for lg in stalled:
                log.warning(
                    "%s: %d entries left unsealed for %.1f s by the leading process; sealing "
                    "them here",
                    lg.name,
                    lags[lg.name].unsealed,
                    lags[lg.name].oldest_seconds,
                )
                while self.round(lg).sealed >= self.batch:
                    pass
        except Exception:
            log.warning("sealing for a stalled leader failed; trying again", exc_info=True)

    # -- rounds ---------------------------------------------------------------------------

    def tick(self) -> bool:
        """One look at every log: a round where there is something to seal or publish.
        True when a round was full (more may be waiting)."""
        more, _busy = self._tick(set(), look=True)
        return bool(more)

    def _tick(self, appended: set[str], *, look: bool) -> tuple[set[str], set[str]]:
        """A round for each log appended to (``appended``: names, or the wildcard) and, with
        ``look``, for each other log that has unsealed rows or a checkpoint due. The logs
        whose round was full, and those whose round found another sealer at work."""
        work = [lg for lg in self.logs if _ANY in appended or lg.name in appended]
        rest = [lg for lg in self.logs if lg not in work]
        if look and rest:
            now = self.clock()
            with self.db.read() as conn:
                work += [lg for lg in rest if self._has_unsealed(conn, lg) or lg.due(conn, now)]
        more: set[str] = set()
        busy: set[str] = set()
        for lg in self.logs:
            if lg in work:
                done = self.round(lg)
                if done.busy:
                    busy.add(lg.name)
                elif done.sealed >= self.batch:
                    more.add(lg.name)
        return more, busy

    def round(self, lg: SequencedLog, *, wait: bool = False, force: bool = False) -> Round:
        """Seal up to ``batch`` committed rows of ``lg``. On PostgreSQL ``wait`` waits for
        another process's round instead of skipping."""
        with self._one_at_a_time, self.db.write() as conn:
            if not self.db.is_sqlite:
                lock = func.pg_advisory_xact_lock if wait else func.pg_try_advisory_xact_lock
                got = conn.execute(select(lock(lg.lock_key))).scalar()
                if not wait and not got:
                    return Round(lg.name, busy=True)
            before = lg.head(conn)
            rows = conn.execute(self._unsealed[lg.name]).mappings().all()
            seq, state, updates = before.seq, before.state, []
            for row in rows:
                seq += 1
                values, state = lg.seal(row, seq, state)
                updates.append({**values, lg.id_column: row[lg.id_column], lg.seq_column: seq})
            after = before
            if updates:
                statement = self._update_statement(
                    lg, tuple(k for k in updates[0] if k not in (lg.id_column, lg.seq_column))
                )
                # one statement (bulk.py): rows still unsealed only, counted
                changed = statement(conn, updates, not self.db.is_sqlite)
                if changed != len(updates):
                    raise RuntimeError(
                        f"sealing {lg.name}: {len(updates)} rows to seal, {changed} "
                        "were still unsealed (another sealer?); the round is rolled back"
                    )
                after = Head(seq, rows[-1][lg.id_column], state)
            lg.store(conn, before, after, self.clock(), force)
        if updates:
            return Round(lg.name, len(updates), before.seq + 1, after.seq)
        return Round(lg.name)

    def _update_statement(self, lg: SequencedLog, keys: tuple[str, ...]) -> UpdateMany:
        cached = self._updates.get((lg.name, keys))
        if cached is None:
            cached = UpdateMany(
                lg.table, lg.id_column, (lg.seq_column, *keys), unless_set=lg.seq_column
            )
            self._updates[(lg.name, keys)] = cached
        return cached

    def seal_now(self, *, publish: bool = False) -> int:
        """Seal everything committed before this call (waiting for another process's round
        rather than skipping); ``publish``: also publish a checkpoint now if the head moved
        since the last one. Returns the rows sealed."""
        sealed = 0
        for lg in self.logs:
            with self.db.read() as conn:
                pending = self._has_unsealed(conn, lg)
            if not pending and not publish:
                continue
            while True:
                done = self.round(lg, wait=True, force=publish)
                sealed += done.sealed
                if done.sealed < self.batch:
                    break
        return sealed

    def _has_unsealed(self, conn: Connection, lg: SequencedLog) -> bool:
        return conn.execute(self._first_unsealed[lg.name]).first() is not None

    # -- the lag --------------------------------------------------------------------------

    def lag(self, conn: Connection, now: float) -> Mapping[str, Lag]:
        """Per log: rows committed and not sealed, and the oldest one's age."""
        found = {}
        with by_index(conn):
            for lg in self.logs:
                count, oldest = conn.execute(self._lag[lg.name]).one()
                age = max(0.0, now - float(oldest)) if oldest is not None else 0.0
                found[lg.name] = Lag(int(count), age)
        return found


@contextmanager
def by_index(conn: Connection) -> Iterator[None]:
    """PostgreSQL plans the statements run inside without a scan of a whole table where an
    index serves (``enable_seqscan`` off for them, in this transaction only, then as it
    was). The lag's count reads every unsealed row: with the planner's figures of a bulk
    load (every row unsealed, until autovacuum analyzes the table) its plan was a scan and
    sort of the whole log or the partial index, whichever the figures and the index's size
    on disk at that moment made cheaper. SQLite is told the index in the statement."""
    if conn.dialect.name != "postgresql":
        yield
        return
    was = conn.execute(
        text("SELECT current_setting('enable_seqscan'), set_config('enable_seqscan', 'off', true)")
    ).scalar_one()
    yield  # on an error the transaction rolls back, and the setting with it
    conn.execute(text("SELECT set_config('enable_seqscan', :was, true)"), {"was": was})


def _checked_index(lg: SequencedLog) -> str:
    """The log's partial index of its unsealed rows; its absence is an error."""
    if lg.unsealed_index not in {index.name for index in lg.table.indexes}:
        raise ValueError(f"log {lg.name}: its table has no index {lg.unsealed_index}")
    return lg.unsealed_index


def unsealed_statement(lg: SequencedLog, batch: int, *, sqlite: bool) -> Executable:
    """The next ``batch`` rows not sealed yet, in id order, read by the log's partial index.

    SQLite is told to use the index (``INDEXED BY``; SQLAlchemy renders no table hints for
    SQLite, so the statement is written out, typed by the table's columns): left to itself
    it walks the whole table in id order (the rowid) and tests every row's seq, a cost
    that grows with the log (5 ms a round at 27,000 entries, most of a core under load)
    instead of with what is left to seal. A missing index is an error, not a slow scan."""
    table = lg.table
    index = _checked_index(lg)
    seq, ident = table.c[lg.seq_column], table.c[lg.id_column]
    if sqlite:
        # names from the table's own definition, nothing from outside
        columns = ", ".join(f'"{c.name}"' for c in table.c)
        source = f'"{table.name}" INDEXED BY "{index}"'
        where = f'"{seq.name}" IS NULL ORDER BY "{ident.name}" LIMIT {int(batch)}'
        return text(f"SELECT {columns} FROM {source} WHERE {where}").columns(*table.c)  # noqa: S608
    return select(table).where(seq.is_(None)).order_by(ident).limit(batch)


def first_unsealed_statement(lg: SequencedLog, *, sqlite: bool) -> Executable:
    """The first row not sealed yet: the round's statement for one row. In id order, so
    that PostgreSQL reads it by the partial index even when its figures (taken while a
    bulk load was unsealed) say that every row is unsealed: without an order it then
    planned a scan of the whole table for a row it expected at once (and SQLite is told
    the index, as for the round)."""
    return unsealed_statement(lg, 1, sqlite=sqlite)


def lag_statement(lg: SequencedLog, *, sqlite: bool) -> Executable:
    """How many rows are not sealed yet, and the oldest one's time, read by the partial
    index (see ``first_unsealed_statement``: with the figures of a bulk load, a plain
    count planned a scan of the whole table at every scrape of the lag)."""
    table, index = lg.table, _checked_index(lg)
    if sqlite:  # names from the table's own definition, nothing from outside
        source = f'"{table.name}" INDEXED BY "{index}"'
        return text(
            f'SELECT count(*), min("{lg.time_column}") FROM {source} '  # noqa: S608
            f'WHERE "{lg.seq_column}" IS NULL'
        )
    unsealed = (
        select(table.c[lg.time_column].label("t"))
        .where(table.c[lg.seq_column].is_(None))
        .order_by(table.c[lg.id_column])
        .subquery()
    )
    return select(func.count(), func.min(unsealed.c.t))


def _forget_appended(conn: Connection) -> None:
    """A rolled-back transaction appended nothing."""
    if not conn.invalidated:  # a lost connection's info went with it
        conn.info.pop(_APPENDED, None)
