"""Reads off the primary: a PostgreSQL streaming replica for the reads that can be a
little behind (lead statistics, decision search, CSV export, the enforcement feed's
catch-up pages), with a bounded staleness.

Before a read goes to the replica the primary's WAL insert position is read
(``pg_current_wal_insert_lsn()``, no lock) and the replica is given up to
``CATCH_UP_SECONDS`` to replay past it: then it holds everything committed before the
request, and the read is as fresh as one on the primary (staleness 0). The insert
position, not the write position (``pg_current_wal_lsn()``): a claim commits
asynchronously (claims.py), visible on the primary while its commit record may still be
in the WAL buffers, past the write position. Otherwise the staleness is the age of the
last transaction it replayed (``pg_last_xact_replay_timestamp()``): within
``read_max_staleness_seconds`` the read goes to the replica and says how far behind it
is; beyond it, or when the replica cannot be reached, to the primary. Nothing is ever
written to the replica (it refuses writes anyway).

A replica that fails the probe (cannot be reached, does not answer within
``PROBE_TIMEOUT_SECONDS``, or is no standby) is left alone for a back-off period
(``BACKOFF_SECONDS``, doubling up to ``BACKOFF_MAX_SECONDS``): reads go to the primary at
once meanwhile, and the outage is logged once, with its reason, not per request. The
probe runs on a thread of its own, so a replica that accepts and never answers costs
one read at most ``PROBE_TIMEOUT_SECONDS``. A read the replica fails after the probe
passed it (the replica went away meanwhile, or cancelled the query for a conflict with
its replay) is done again on the primary (``Reads.run``).

A replica that stops answering in the middle of a read (its host frozen, a partition, a
backend stopped) would hold the read, its worker thread and its connection until TCP
gives up, hours later: a statement timeout cannot end it (the replica is not running it)
and keepalives do not while the replica's kernel still acknowledges. So every
connection checked out of the replica's pool (a read, a probe, a page of the export) is
watched: once it has been out ``READ_DEADLINE_SECONDS`` its socket is shut down from a
timer thread, the read blocked on it fails as a lost connection, and that counts as an
outage (the back-off; the primary does the read again). Lead reads take well under a
second; the deadline is generous so that a slow read is not mistaken for a dead replica.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from sqlalchemy import Connection, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, OperationalError

from reviewer_app.server.storage.db import Database, driver_reason

log = logging.getLogger("server")
T = TypeVar("T")

# How long a read waits for the replica to replay what the primary had when it was asked.
CATCH_UP_SECONDS = 0.05
_POLL_SECONDS = 0.005
# A replica that does not answer the probe within this is passed over (the read goes to
# the primary); connections to it give up after REPLICA_CONNECT_TIMEOUT_SECONDS (libpq's
# least), statements of the probe after PROBE_STATEMENT_TIMEOUT_MS.
PROBE_TIMEOUT_SECONDS = 1.0
#: probe threads out at once (a read that finds them all out goes to the primary)
MAX_PROBING = 2
REPLICA_CONNECT_TIMEOUT_SECONDS = 2
PROBE_STATEMENT_TIMEOUT_MS = 1000
# After a failed probe the replica is left alone this long, doubling up to the cap.
BACKOFF_SECONDS = 30.0
BACKOFF_MAX_SECONDS = 300.0
# A replica connection out of the pool this long is cut off (see the module doc); TCP to
# the replica gives up on unacknowledged data as soon, and probes idle connections.
READ_DEADLINE_SECONDS = 10.0
_KEEPALIVE = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
}
_PRIMARY_LSN = text("SELECT pg_current_wal_insert_lsn()::text")
_REPLAYED = text(
    "SELECT pg_is_in_recovery() AS standby, "
    "COALESCE(pg_last_wal_replay_lsn() >= CAST(:lsn AS pg_lsn), true) AS caught_up, "
    "EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) AS behind"
)


@dataclass(frozen=True)
class ReadSource:
    """Where a read went and how far behind the primary its data may be (seconds)."""

    replica: bool
    staleness: float = 0.0


class _AllOut(Exception):
    """Every probe allowed is out (still waiting on the replica)."""


class Reads:
    """The primary, and the replica when one is configured."""

    def __init__(self, primary: Database, replica_url: str, max_staleness: float) -> None:
        self.primary = primary
        if replica_url and primary.is_sqlite:
            raise ValueError(
                "read_database_url needs a PostgreSQL primary (database_url is SQLite)"
            )
        self.replica = Database(replica_url) if replica_url else None
        if self.replica is not None and self.replica.is_sqlite:
            raise ValueError("read_database_url must be a PostgreSQL replica (postgresql://...)")
        if self.replica is not None:
            _short_connect(self.replica)
            self._watch(self.replica)
        self.max_staleness = max_staleness
        self.backoff = BACKOFF_SECONDS
        self.backoff_max = BACKOFF_MAX_SECONDS
        self.probe_timeout = PROBE_TIMEOUT_SECONDS
        self.read_deadline = READ_DEADLINE_SECONDS
        self._lock = threading.Lock()
        self._down_until = 0.0  # time.monotonic() before which the replica is left alone
        self._next_backoff = self.backoff
        self._down_reason: str | None = None  # logged once per outage
        self._probing = 0  # probe threads not back yet (a hung replica keeps them)

    def close(self) -> None:
        if self.replica is not None:
            self.replica.dispose()

    def choose(self) -> tuple[Database, ReadSource]:
        """The database for a read now, and what that read may lag."""
        if self.replica is None or time.monotonic() < self._down_until:
            return self.primary, ReadSource(False)
        with self.primary.read() as conn:  # the primary failing fails the read (503)
            lsn = conn.execute(_PRIMARY_LSN).scalar()
        try:
            staleness = self._probe(lsn)
        except _AllOut:  # the probes out are still waiting: this read goes to the primary
            return self.primary, ReadSource(False)
        except FutureTimeout:
            self._failed(f"it did not answer within {self.probe_timeout:g} s")
            return self.primary, ReadSource(False)
        except Exception as exc:  # the replica away: the primary answers
            self._failed(self._reason(exc))
            return self.primary, ReadSource(False)
        if staleness is _NOT_STANDBY:
            self._failed(
                "it is not a standby (pg_is_in_recovery() is false: another database, the "
                "primary itself, or a promoted replica)"
            )
            return self.primary, ReadSource(False)
        self._answered()
        if staleness is None or staleness > self.max_staleness:
            return self.primary, ReadSource(False)
        return self.replica, ReadSource(True, float(staleness))

    @overload
    def run(self, work: Callable[[Connection, ReadSource], T]) -> T: ...
    @overload
    def run(
        self, work: Callable[[Connection, ReadSource], T], *, replica_only: bool
    ) -> T | None: ...

    def run(
        self, work: Callable[[Connection, ReadSource], T], *, replica_only: bool = False
    ) -> T | None:
        """``work`` on one snapshot (``Database.snapshot``) of the database ``choose``
        picks, told where it reads. When the replica fails it after the probe (it went
        away, shut down, or cancelled the query for a conflict with the WAL it replays),
        the primary does the work again: a read never fails for the replica alone. An
        outage counts as one (the back-off); a conflict does not (the replica is well).
        ``replica_only``: None instead of a read on the primary (the caller reads it its
        own way)."""
        db, source = self.choose()
        if source.replica:
            began = time.monotonic()
            try:
                with db.snapshot() as conn:
                    return work(conn, source)
            except DBAPIError as exc:
                self._lost(exc, began)
            source = ReadSource(False)
        if replica_only:
            return None
        with self.primary.snapshot() as conn:
            return work(conn, source)

    def pages(self) -> Pages:
        """The reads of one long job, a page at a time (``Pages``)."""
        return Pages(self)

    def _lost(self, exc: DBAPIError, began: float) -> None:
        """A read the replica failed after the probe passed it (begun at ``began``, by
        ``time.monotonic()``): ``exc`` again when it is the query's own failure (the
        primary's to give too); otherwise counted as an outage, or logged as a conflict,
        and the caller reads the primary."""
        fault = _replica_fault(exc)
        if fault is None:
            raise exc
        if fault == "conflict":
            log.info(
                "read replica %s: %s; read again on the primary", self._shown(), self._reason(exc)
            )
        elif time.monotonic() - began >= self.read_deadline:  # cut off by the watch
            self._failed(f"it did not finish a read within {self.read_deadline:g} s")
        else:
            self._failed(self._reason(exc))

    def _watch(self, replica: Database) -> None:
        """Each connection checked out of the replica's pool is watched (``_Watch``) until
        it is back; one cut off is closed when it comes back, never handed out again."""
        engine = replica.engine

        # first among the checkout listeners: the idle ping (db.py) is watched too
        @event.listens_for(engine, "checkout", insert=True)
        def _out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
            record.info[_WATCH] = _Watch(dbapi_connection, self.read_deadline)

        def _back(_dbapi_connection: Any, record: Any, *_rest: Any) -> bool:
            watch = record.info.pop(_WATCH, None)
            return watch is not None and watch.stop()

        @event.listens_for(engine, "checkin")
        def _in(dbapi_connection: Any, record: Any) -> None:
            if _back(dbapi_connection, record) and dbapi_connection is not None:
                record.invalidate()

        event.listen(engine, "invalidate", _back)
        event.listen(engine, "close", _back)

    def _probe(self, lsn: Any) -> Any:
        """``_staleness`` on a daemon thread of its own, given ``probe_timeout``
        (FutureTimeout). A daemon, so a probe stuck on a replica that stopped answering
        (a socket read with no timeout of its own) never holds the process at exit. At
        most ``MAX_PROBING`` are out at once; a read that finds them all out goes to the
        primary (``_AllOut``) without counting as a failure: reads at once on a healthy
        replica are not an outage."""
        with self._lock:
            if self._probing >= MAX_PROBING:
                raise _AllOut
            self._probing += 1
        done = threading.Event()
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                box["value"] = self._staleness(lsn)
            except BaseException as exc:  # handed to the reader
                box["error"] = exc
            finally:
                with self._lock:
                    self._probing -= 1
                done.set()

        try:
            threading.Thread(target=run, name="replica-probe", daemon=True).start()
        except BaseException:
            with self._lock:
                self._probing -= 1
            raise
        if not done.wait(self.probe_timeout):
            raise FutureTimeout
        if "error" in box:
            raise box["error"]
        return box["value"]

    def _failed(self, reason: str) -> None:
        with self._lock:
            self._down_until = time.monotonic() + self._next_backoff
            wait = self._next_backoff
            self._next_backoff = min(self._next_backoff * 2, self.backoff_max)
            first = self._down_reason is None
            self._down_reason = reason
        if first:
            log.warning(
                "read replica %s unusable: %s; reading the primary (trying it again in %g s)",
                self._shown(),
                reason,
                wait,
            )

    def _answered(self) -> None:
        with self._lock:
            was_down = self._down_reason is not None
            self._down_reason = None
            self._next_backoff = self.backoff
        if was_down:
            log.info("read replica %s answers again; reading it", self._shown())

    def _shown(self) -> str:
        assert self.replica is not None
        return make_url(self.replica.url).render_as_string(hide_password=True)

    def _reason(self, exc: Exception) -> str:
        """The exception's words on one line, without the replica's password."""
        return driver_reason(exc, self.replica.url if self.replica is not None else None)

    def _staleness(self, lsn: Any) -> float | object | None:
        replica = self.replica
        assert replica is not None
        deadline = time.monotonic() + CATCH_UP_SECONDS
        while True:
            with replica.read() as conn:
                conn.exec_driver_sql(f"SET LOCAL statement_timeout = {PROBE_STATEMENT_TIMEOUT_MS}")
                row = conn.execute(_REPLAYED, {"lsn": lsn}).one()
            if not row.standby:
                return _NOT_STANDBY  # promoted, or misconfigured: not ours to read
            if row.caught_up:
                return 0.0
            if time.monotonic() >= deadline:
                return max(0.0, float(row.behind)) if row.behind is not None else None
            time.sleep(_POLL_SECONDS)


class Pages:
    """The reads of one long job (the CSV export), each its own short transaction: on the
    database ``Reads.choose`` picks for the first, and once the replica fails one (as in
    ``Reads.run``), that read and every later one on the primary. A replica lost midway
    costs no page, and the job does not go back to it (its pages may then be a little
    fresher: never fewer rows)."""

    def __init__(self, reads: Reads) -> None:
        self._reads = reads
        self._db: Database | None = None

    def __call__(self, work: Callable[[Connection], T]) -> T:
        reads = self._reads
        if self._db is None:
            self._db = reads.choose()[0]
        if self._db is not reads.primary:
            began = time.monotonic()
            try:
                with self._db.read() as conn:
                    return work(conn)
            except DBAPIError as exc:
                reads._lost(exc, began)
            self._db = reads.primary
        with self._db.read() as conn:
            return work(conn)


class _Watch:
    """One replica connection out of the pool: ``seconds`` from now its socket is shut down
    (both ways), unless ``stop`` came first. The socket is held as a duplicate of libpq's,
    so the shutdown reaches this connection even if libpq closed its own descriptor
    meanwhile (a number the system may have given to another socket)."""

    def __init__(self, dbapi_connection: Any, seconds: float) -> None:
        self._lock = threading.Lock()
        self._fired = self._stopped = False
        self._sock: socket.socket | None = None
        try:
            self._sock = socket.socket(fileno=os.dup(dbapi_connection.pgconn.socket))
        except Exception:  # no socket (a broken connection): nothing to watch
            return
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.name = "replica-watch"
        self._timer.daemon = True
        self._timer.start()

    def _fire(self) -> None:
        with self._lock:
            if self._stopped or self._sock is None:
                return
            self._fired = True
            with contextlib.suppress(OSError):  # already closed by the replica
                self._sock.shutdown(socket.SHUT_RDWR)

    def stop(self) -> bool:
        """Done with the connection; True when it had been cut off."""
        if self._sock is None:
            return False
        self._timer.cancel()
        with self._lock:
            self._stopped = True
            self._sock.close()
            return self._fired


_WATCH = "replica_watch"
_NOT_STANDBY = object()
# SQLSTATEs of a replica query lost to the replica itself: a conflict with recovery (the
# replay needed rows the query read, or its database was dropped), the replica shutting
# down or crashing. A statement timeout (57014) is not one: the primary would be as slow.
_CONFLICT_STATES = frozenset({"40001", "40P01", "57P04"})
_OUTAGE_STATES = frozenset({"57P01", "57P02", "57P03"})


def _replica_fault(exc: DBAPIError) -> str | None:
    """ "outage" (the replica went away), "conflict" (it cancelled the query for its
    replay), or None (the query's own failure, the primary's to give too)."""
    state = getattr(exc.orig, "sqlstate", None)
    if state in _CONFLICT_STATES:
        return "conflict"
    if exc.connection_invalidated or state in _OUTAGE_STATES:
        return "outage"
    if state is None and isinstance(exc, OperationalError):  # no server reply: connection lost
        return "outage"
    return None


def _short_connect(replica: Database) -> None:
    """Connections to the replica give up after ``REPLICA_CONNECT_TIMEOUT_SECONDS``; on
    one that is open, TCP gives up on data the replica's host has not acknowledged within
    ``READ_DEADLINE_SECONDS`` (a partition) and probes an idle one (a host gone)."""

    @event.listens_for(replica.engine, "do_connect")
    def _connect(_dialect: Any, _record: Any, _cargs: Any, cparams: dict[str, Any]) -> None:
        cparams["connect_timeout"] = REPLICA_CONNECT_TIMEOUT_SECONDS
        cparams.update(_KEEPALIVE, tcp_user_timeout=int(READ_DEADLINE_SECONDS * 1000))
