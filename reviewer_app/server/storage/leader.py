"""Which API process runs the background rounds (the log's sequencer, the rollups).

Every API process runs a sequencer and a roller thread, and their rounds take a lock so
that one process at a time does each (sequencer.py, rollups.py). With two or more
processes at work that lock was a tug of war: every commit poked its own process's
sequencer, the process that lost the lock tried again at its next round, and each round
sealed what the processes' commits had added in between, fewer entries a round for the
same statements. In flat-out runs of ``benchmarks/claim_decide.py`` with two processes on
PostgreSQL the server spent about a tenth more CPU per decided item than with those rounds
done by one process alone.

So one process leads: it holds a lock for as long as it lives, and its background threads
run their rounds at full pace, for every process's entries (the sequencer looks at every
log each ``interval``, whoever appended). The others stand by and try to take the lock
every ``retry`` seconds, so when the leader stops or dies (its lock goes with its
connection or its open file) another process takes over within about that long.

Leading is a matter of pace, not of safety: the rounds keep their own locks, so two
processes that both believe they lead for a moment (one lost its connection and has not
noticed yet) still seal one round at a time, in commit order. Read barriers
(``seal_now``, ``roll_now``) run in any process, leading or not.

- PostgreSQL: a session advisory lock (``pg_try_advisory_lock``) on a connection of its
  own, outside the pool; the leader checks every ``retry`` seconds that the connection
  still answers, and stands down when it does not.
- SQLite: ``flock`` on ``<database>.leader-lock`` (API processes of one SQLite file share a
  machine). An in-memory database, or a system without ``fcntl``, has one process: it
  leads.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: one process, which leads
    fcntl = None  # type: ignore[assignment]

from sqlalchemy import Connection, Engine, create_engine, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from reviewer_app.server.storage.db import CONNECT_TIMEOUT_SECONDS, Database

log = logging.getLogger("server.leader")

# Any fixed number, apart from the other advisory locks (migrations, the logs' sealers,
# the rollups): held by the leading process for as long as it leads.
LOCK_KEY = 7_304_218
RETRY_SECONDS = 1.0


class Leadership:
    """Whether this process leads the background rounds (see the module's text)."""

    def __init__(self, db: Database, *, retry: float = RETRY_SECONDS) -> None:
        self.db = db
        self.retry = retry
        self._leading = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._attempt_lock = threading.Lock()
        #: called with True or False whenever this process starts or stops leading
        self.on_change: Callable[[bool], None] = lambda _leading: None
        self._engine: Engine | None = None
        self._conn: Connection | None = None
        self._file: IO[bytes] | None = None
        self._path: Path | None = None
        if db.is_sqlite:
            database = make_url(db.url).database
            if fcntl is not None and database and database != ":memory:":
                path = Path(database).expanduser()
                self._path = path.with_name(path.name + ".leader-lock")

    @property
    def leading(self) -> bool:
        return self._leading.is_set()

    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for this process to lead; whether it does."""
        return self._leading.wait(timeout)

    def start(self) -> None:
        """Try to lead now (a lone process leads from its first moment), then keep trying,
        or keep checking, on a thread of its own."""
        if self._thread is not None:
            return
        self._stopping.clear()
        self.attempt()
        self._thread = threading.Thread(target=self._run, name="leadership", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stand down and let another process take over."""
        thread, self._thread = self._thread, None
        self._stopping.set()
        if thread is not None:
            thread.join(timeout=10)
        with self._attempt_lock:
            self._release()
            self._set(False)

    def attempt(self) -> bool:
        """Take the lead if it is free, or check that it is still held; whether this
        process leads now."""
        with self._attempt_lock:
            try:
                held = self._hold()
            except Exception as exc:
                if self.leading:
                    log.warning("lost the lead of the background rounds: %s", exc)
                self._release()
                held = False
            self._set(held)
            return held

    def _run(self) -> None:
        while not self._stopping.wait(self.retry):
            self.attempt()

    def _set(self, held: bool) -> None:
        if held == self.leading:
            return
        if held:
            self._leading.set()
        else:
            self._leading.clear()
        log.info("%s the background rounds", "leading" if held else "no longer leading")
        self.on_change(held)

    # -- the lock --------------------------------------------------------------------------

    def _hold(self) -> bool:
        if not self.db.is_sqlite:
            return self._hold_postgres()
        if self._path is None:
            return True  # one process: nobody else to lead
        if self._file is None:
            handle = self._path.open("a+b")
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                handle.close()
                return False
            self._file = handle
        return True

    def _hold_postgres(self) -> bool:
        if self._engine is None:
            # one connection of its own, outside the pool, in autocommit: the session
            # lock lives as long as the connection
            self._engine = create_engine(
                self.db.url,
                poolclass=NullPool,
                isolation_level="AUTOCOMMIT",
                connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS},
            )
        if self._conn is None:
            self._conn = self._engine.connect()
        if self.leading:
            self._conn.execute(select(1)).scalar()  # the connection, and so the lock, is there
            return True
        return bool(self._conn.execute(select(func.pg_try_advisory_lock(LOCK_KEY))).scalar())

    def _release(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(Exception):
                conn.close()  # the session lock goes with it
        if self._engine is not None:
            engine, self._engine = self._engine, None
            engine.dispose()
        if self._file is not None:
            handle, self._file = self._file, None
            handle.close()  # the flock goes with it
