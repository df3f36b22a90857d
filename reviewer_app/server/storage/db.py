"""The service's database: engine set-up for SQLite (WAL) and PostgreSQL, and migrations."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

import orjson
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, DisconnectionError

from reviewer_app.server.storage.migrations import HEAD

if TYPE_CHECKING:
    from alembic.config import Config

log = logging.getLogger("server")

MIGRATIONS = Path(__file__).parent / "migrations"
# Connections kept per process: as many as the worker threads that use them (see app.py:
# the routes' threads and the claims' own), so connections are reused instead of opened
# and closed under load.
POOL_SIZE = {"sqlite": 4, "postgresql": 22}
# Connections opened beyond the pool in a burst (closed again when given back). On
# PostgreSQL pool + overflow + the lead's own connection (leader.py) is 24 a process at
# most: four processes within PostgreSQL's default max_connections of 100 (less the 3 it
# keeps for superusers).
MAX_OVERFLOW = {"sqlite": 8, "postgresql": 1}
# Beside the pool: the connection that holds (or asks for) the lead of the background
# rounds (leader.py).
LEADER_CONNECTIONS = {"sqlite": 0, "postgresql": 1}
# Worker threads for routes other than claims, and for claims (common.py's claim lane).
# Each process has one GIL: threads beyond the few that keep the database busy only wait
# for it, and a claim (a reviewer waiting) then waits behind every verdict batch that runs.
# A request waiting for a thread waits in the event loop, holding none. SQLite has one
# writer at a time besides. PostgreSQL takes concurrent claims (SKIP LOCKED): more claim
# threads than route threads, so a burst of verdict batches queues while claims go on.
# (With 14 route threads on PostgreSQL, 200 reviewers at the issue-2 pace waited seconds
# for a claim, behind a dozen verdict batches sharing the GIL: benchmarks/README.md,
# "Intake".) Together fewer than the pool's connections, which leaves some for the
# background threads (sequencer, roller, webhooks).
WORKER_THREADS = {"sqlite": 2, "postgresql": 2}
CLAIM_THREADS = {"sqlite": 2, "postgresql": 6}
# Intake batches at once per process, on threads of their own (intake.py's lane): two, so
# while one waits for the database (on SQLite: the writer) the other does its Python work
# (one: fewer signals/s in benchmarks/intake.py); a platform sending flat out never holds
# the threads verdict batches wait for.
INTAKE_THREADS = {"sqlite": 2, "postgresql": 2}
CONNECT_TIMEOUT_SECONDS = 5
# A PostgreSQL connection idle in the pool for longer than this is pinged when checked out
# (one round trip; a dead one is replaced before use). One used more recently is handed out
# as it is: a ping per checkout (``pool_pre_ping``) cost every request a round trip, under
# load the commonest of them all. A connection that dies anyway (the server restarted while
# it was busy) fails its statement with a disconnect error: SQLAlchemy then replaces every
# pooled connection made before it, the claim tries again (service.py) and other requests
# answer 503 with Retry-After (problems.py), which clients retry.
PING_IDLE_SECONDS = 5.0
# A running service checkpoints SQLite's WAL on its own thread (see ``start_checkpointer``):
# how often, and the WAL size (pages) at which a committing writer does it itself after all,
# in case that thread falls behind.
CHECKPOINT_EVERY_SECONDS = 0.2
# An urgent writer touches ``<db>.urgent-lock`` at most this often (its time tells other
# processes that claims are being served: see ``Database.urgent_writers_within``).
URGENT_MARK_SECONDS = 1.0
WRITER_CHECKPOINT_PAGES = 16_000
# Any fixed number: PostgreSQL advisory lock that serialises migrations of several processes.
_MIGRATION_LOCK = 7_304_211


def driver_said(exc: BaseException) -> tuple[str, str]:
    """The name and first line of what the database driver said about ``exc`` (the
    driver's own error under SQLAlchemy's wrapper), never the statement or its values."""
    said = exc.orig if isinstance(exc, DBAPIError) and exc.orig is not None else exc
    lines = str(said).strip().splitlines()
    return type(said).__name__, lines[0].strip() if lines else ""


def driver_reason(exc: BaseException, url: str | None = None) -> str:
    """What the driver said about ``exc`` on one line (or its error's name), without the
    password of ``url``, the database the error came from."""
    name, first = driver_said(exc)
    reason = re.sub(r"\s+", " ", first) or name
    try:
        password = make_url(url).password if url else None
    except (ArgumentError, ValueError):
        password = None
    return reason.replace(str(password), "***") if password else reason


def normalise_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 here; everything else is passed through."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


class WriterTurns:
    """Writers of one SQLite file take turns, in this process and across processes;
    urgent writers (claims) go before the others waiting.

    A reviewer waits for a claim, while verdict batches and renewals come from clients'
    background work; under load a plain lock makes a claim wait behind every batch
    queued before it. In the process a condition keeps the order. Across processes
    ``flock`` on ``<db>.writer-lock`` makes the turns (SQLite's own busy handler sleeps
    in growing steps, so waiting writers mostly sleep). From the moment it asks until it
    has the writer lock, an urgent writer's process holds a shared lock on
    ``<db>.urgent-lock``; an ordinary writer that gets the writer lock while that file is
    locked by any process, its own included, hands the turn back and tries again a moment
    later. So a claim does not wait behind a batch that was already queued at the writer
    lock, in another process or in its own. (No files where ``fcntl`` is missing: the
    condition alone.)
    """

    BACK_OFF_SECONDS = 0.0005

    def __init__(self, database: str | None) -> None:
        self._turn = threading.Condition()
        self._held = False
        self._urgent_waiting = 0
        self.last_urgent = -float("inf")
        """When this process's last urgent writer asked for a turn (time.monotonic())."""
        self._urgent_path: Path | None = None
        self._writer: IO[bytes] | None = None
        self._urgent: IO[bytes] | None = None
        self._urgent_probe: IO[bytes] | None = None
        if fcntl is not None and database and database != ":memory:":
            path = Path(database).expanduser()
            path.parent.mkdir(parents=True, exist_ok=True)
            urgent = path.with_name(path.name + ".urgent-lock")
            # held for the engine's life; the probe is a second open file description, so
            # its exclusive test also conflicts with this process's own shared lock
            self._writer = open(path.with_name(path.name + ".writer-lock"), "ab")  # noqa: SIM115
            self._urgent = open(urgent, "ab")  # noqa: SIM115
            self._urgent_probe = open(urgent, "ab")  # noqa: SIM115
            self._urgent_path = urgent

    @contextmanager
    def turn(self, *, urgent: bool = False) -> Iterator[None]:
        waiting = urgent
        if urgent:
            now = time.monotonic()
            if now - self.last_urgent > URGENT_MARK_SECONDS and self._urgent_path is not None:
                # other processes' writers learn from the file's time that claims are served
                with contextlib.suppress(OSError):
                    os.utime(self._urgent_path)
            self.last_urgent = now
            self._announce(+1)
        try:
            while True:
                with self._local_turn(urgent):
                    if self._file_turn(urgent):
                        try:
                            if waiting:
                                waiting = False
                                self._announce(-1)
                            yield
                        finally:
                            if self._writer is not None:
                                fcntl.flock(self._writer, fcntl.LOCK_UN)
                        return
                time.sleep(self.BACK_OFF_SECONDS)  # an urgent writer goes first
        finally:
            if waiting:
                self._announce(-1)

    def urgent_within(self, seconds: float) -> bool:
        """An urgent writer asked for a turn in the last ``seconds``, in this process or
        (to within ``URGENT_MARK_SECONDS``) in another one on the same file."""
        if time.monotonic() - self.last_urgent <= seconds:
            return True
        if self._urgent_path is None:
            return False
        try:
            marked = self._urgent_path.stat().st_mtime
        except OSError:
            return False
        return time.time() - marked <= seconds

    def _announce(self, step: int) -> None:
        """Count an urgent writer in (+1) or out (-1); the process holds the shared lock
        on the urgent file while the count is above zero. The lock changes before the
        count, so a failing ``flock`` leaves the count as it was."""
        with self._turn:
            if step > 0:
                if self._urgent is not None and self._urgent_waiting == 0:
                    fcntl.flock(self._urgent, fcntl.LOCK_SH)
                self._urgent_waiting += 1
                return
            if self._urgent is not None and self._urgent_waiting == 1:
                fcntl.flock(self._urgent, fcntl.LOCK_UN)
            self._urgent_waiting -= 1
            self._turn.notify_all()

    @contextmanager
    def _local_turn(self, urgent: bool) -> Iterator[None]:
        with self._turn:
            while self._held or (not urgent and self._urgent_waiting):
                self._turn.wait()
            self._held = True
        try:
            yield
        finally:
            with self._turn:
                self._held = False
                self._turn.notify_all()

    def _file_turn(self, urgent: bool) -> bool:
        """Take the writer lock of all processes; False: handed back to an urgent writer.

        One thread of the process at a time gets here (``_local_turn``), so the flocks on
        this process's writer file description never overlap.
        """
        if self._writer is None or self._urgent_probe is None:
            return True
        fcntl.flock(self._writer, fcntl.LOCK_EX)
        if urgent:
            return True
        try:
            fcntl.flock(self._urgent_probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fcntl.flock(self._writer, fcntl.LOCK_UN)
            return False
        fcntl.flock(self._urgent_probe, fcntl.LOCK_UN)
        return True

    def close(self) -> None:
        with self._turn:
            for f in (self._writer, self._urgent, self._urgent_probe):
                if f is not None:
                    f.close()
            self._writer = self._urgent = self._urgent_probe = None


def _ping_when_idle(engine: Engine) -> None:
    """Ping a pooled connection at checkout only when it sat idle ``PING_IDLE_SECONDS``."""

    @event.listens_for(engine, "checkin")
    def _checked_in(_dbapi_connection: Any, record: Any) -> None:
        record.info["idle_since"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        since = record.info.pop("idle_since", None)
        if since is None or time.monotonic() - since < PING_IDLE_SECONDS:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as exc:
            # the pool discards this connection and checks out another (or a new one)
            raise DisconnectionError(f"pooled connection is gone: {exc}") from exc


class Database:
    """One engine, write transactions and read transactions. No module globals."""

    def __init__(self, url: str, *, sqlite_synchronous: str = "NORMAL") -> None:
        self.url = normalise_url(url)
        self.dialect = make_url(self.url).get_backend_name()
        self.is_sqlite = self.dialect == "sqlite"
        # SQLite has one writer at a time: writers take turns (WriterTurns) instead of
        # spinning on SQLITE_BUSY.
        database = make_url(self.url).database if self.is_sqlite else None
        self._writers: WriterTurns | None = WriterTurns(database) if self.is_sqlite else None
        self.pool_size = POOL_SIZE.get(self.dialect, 8)
        self.worker_threads = WORKER_THREADS.get(self.dialect, self.pool_size)
        self.claim_threads = CLAIM_THREADS.get(self.dialect, 4)
        self.intake_threads = INTAKE_THREADS.get(self.dialect, 2)
        self._checkpointer: threading.Thread | None = None
        self._stop_checkpointer = threading.Event()
        self._background_checkpoints = False
        self.engine = self._make_engine(sqlite_synchronous)

    def _make_engine(self, sqlite_synchronous: str) -> Engine:
        if not self.is_sqlite:
            engine = create_engine(
                self.url,
                pool_size=self.pool_size,
                max_overflow=MAX_OVERFLOW["postgresql"],
                isolation_level="READ COMMITTED",
                # a database that does not answer fails a request (and /readyz) in
                # seconds instead of holding a worker thread for minutes
                connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS},
                # json and jsonb results (a claim's parts come as one JSON document) parsed
                # by orjson: PostgreSQL holds only valid JSON, which both parse alike
                json_deserializer=orjson.loads,
                # a failed statement's message and log lines never carry its values (a
                # webhook's secrets, a post's text, a password's hash)
                hide_parameters=True,
            )
            _ping_when_idle(engine)
            return engine
        database = make_url(self.url).database
        in_memory = not database or database == ":memory:"
        if not in_memory:
            Path(database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
        pool: dict[str, int] = (
            {}
            if in_memory
            else {"pool_size": self.pool_size, "max_overflow": MAX_OVERFLOW["sqlite"]}
        )
        engine = create_engine(
            self.url,
            connect_args={"check_same_thread": False, "timeout": 30},
            hide_parameters=True,
            **pool,
        )
        synchronous = sqlite_synchronous.upper()
        if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(
                f"sqlite_synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous}"
            )

        @event.listens_for(engine, "connect")
        def _on_connect(dbapi_connection: Any, _record: Any) -> None:
            # Let SQLAlchemy, not the driver, say when a transaction begins.
            dbapi_connection.isolation_level = None
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA busy_timeout=30000")
            if self._background_checkpoints:
                cursor.execute(f"PRAGMA wal_autocheckpoint={WRITER_CHECKPOINT_PAGES}")
            cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            write = conn.get_execution_options().get("write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine

    def urgent_writers_within(self, seconds: float) -> bool:
        """An urgent writer (a claim) asked for the SQLite writer in the last ``seconds``,
        in this process or another on the same file: reviewers are waiting on it (False on
        PostgreSQL)."""
        return self._writers is not None and self._writers.urgent_within(seconds)

    @contextmanager
    def write(self, *, urgent: bool = False) -> Iterator[Connection]:
        """A write transaction: committed on success, rolled back on any error.

        On SQLite an ``urgent`` one (a claim) gets the process's writer turn before the
        others waiting for it.
        """
        if self._writers is not None:
            with self._writers.turn(urgent=urgent), self.engine.connect() as conn:
                conn = conn.execution_options(write=True)
                with conn.begin():
                    yield conn
        else:
            with self.engine.begin() as conn:
                yield conn

    def start_checkpointer(self) -> None:
        """Copy SQLite's WAL back into the database on a thread of its own.

        Left to SQLite, the writer whose commit makes the WAL pass 1,000 pages copies it and
        waits for two fsyncs inside its request. Here a thread runs a PASSIVE checkpoint
        (it never blocks readers or writers) every ``CHECKPOINT_EVERY_SECONDS``; writers
        checkpoint themselves only past ``WRITER_CHECKPOINT_PAGES``. For a file database
        in a long-running service; a no-op for PostgreSQL and in-memory SQLite.
        """
        database = make_url(self.url).database
        if not self.is_sqlite or not database or database == ":memory:" or self._checkpointer:
            return
        self._background_checkpoints = True
        self.engine.dispose()  # connections made from now on get the writer's threshold
        self._stop_checkpointer.clear()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_loop, name="sqlite-checkpointer", daemon=True
        )
        self._checkpointer.start()

    def _checkpoint_loop(self) -> None:
        while not self._stop_checkpointer.wait(CHECKPOINT_EVERY_SECONDS):
            try:
                with self.engine.connect() as conn:
                    conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)").all()
            except Exception:  # a failed round is retried on the next tick
                log.warning("background WAL checkpoint failed", exc_info=True)

    def _stop_checkpointing(self) -> None:
        if self._checkpointer is not None:
            self._stop_checkpointer.set()
            self._checkpointer.join(timeout=10)
            self._checkpointer = None

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction (on PostgreSQL READ COMMITTED: each statement sees what has
        committed by its start; ``snapshot`` for one snapshot throughout)."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    @contextmanager
    def snapshot(self) -> Iterator[Connection]:
        """A read transaction whose statements all see one snapshot: on PostgreSQL
        REPEATABLE READ (``read`` is READ COMMITTED there: each statement sees what has
        committed by its start). For figures read in several statements that must add up
        (rollups and the decisions not rolled yet)."""
        with self.engine.connect() as conn:
            if not self.is_sqlite:
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                yield conn

    def migrate(self, revision: str = "head") -> None:
        """Bring the schema to the newest revision, or to ``revision`` (tests of upgrades);
        safe with several processes. A database already at the newest revision is left as
        it is without loading alembic (a tenth of a second of the demo's start)."""
        if revision == "head" and self.schema_revision_or_none() == HEAD:
            log.info("database schema is current (%s)", self.dialect)
            return
        from alembic import command  # only when a migration may run

        config = self._alembic_config()
        with self.engine.connect() as conn:
            if not self.is_sqlite:
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK})
                conn.commit()
            try:
                config.attributes["connection"] = conn
                command.upgrade(config, revision)
                conn.commit()
            finally:
                if not self.is_sqlite:
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK})
                    conn.commit()
        log.info("database schema is current (%s)", self.dialect)

    @staticmethod
    def _alembic_config() -> Config:
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        return config

    def head_revision(self) -> str | None:
        """The newest migration this code knows (``HEAD``, which the tests hold to what
        alembic reads from the scripts)."""
        return HEAD

    def schema_revision_or_none(self) -> str | None:
        """The schema's revision; None when the database has none yet (a new one). A
        database that cannot be reached raises, as for ``schema_revision``."""
        with self.engine.connect() as conn:
            if not inspect(conn).has_table("alembic_version"):
                return None
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()

    def schema_revision(self) -> str | None:
        """The migration the database is at (one cheap round trip; raises when the database
        cannot be reached); None when it has no ``alembic_version`` table (an empty
        database: not current, yet reachable)."""
        with self.engine.connect() as conn:
            try:
                return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
            except DBAPIError as exc:
                # the table is not there (PostgreSQL's 42P01, SQLite's "no such table"):
                # the database answered, it holds no schema
                if getattr(exc.orig, "sqlstate", None) == "42P01" or "no such table" in str(
                    exc.orig
                ):
                    return None
                raise

    def analyze(self, *, rows_per_index: int | None = None) -> None:
        """Refresh the planner's statistics (after a bulk load). ``rows_per_index``
        (SQLite): look at about that many rows of each index, not all of them (quick on a
        large file, and near enough for the planner)."""
        with self.engine.connect() as conn:
            if rows_per_index is not None and self.is_sqlite:
                conn.exec_driver_sql(f"PRAGMA analysis_limit={int(rows_per_index)}")
            conn.exec_driver_sql("ANALYZE")
            conn.commit()

    def dispose(self) -> None:
        self._stop_checkpointing()
        self.engine.dispose()
        if self._writers is not None:
            self._writers.close()
