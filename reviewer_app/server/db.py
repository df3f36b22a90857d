"""The service's database: engine set-up for SQLite (WAL) and PostgreSQL, and migrations."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: SQLite's busy handler alone
    fcntl = None  # type: ignore[assignment]

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.engine import make_url

log = logging.getLogger("server")

MIGRATIONS = Path(__file__).parent / "migrations"
# Connections kept per process: as many as the worker threads that use them (see app.py),
# so connections are reused instead of opened and closed under load. SQLite has one
# writer at a time, and more threads only fight over the GIL while they wait for it.
POOL_SIZE = {"sqlite": 4, "postgresql": 16}
CONNECT_TIMEOUT_SECONDS = 5
# Any fixed number: PostgreSQL advisory lock that serialises migrations of several processes.
_MIGRATION_LOCK = 7_304_211


def normalise_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 here; everything else is passed through."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


class Database:
    """One engine, write transactions and read transactions. No module globals."""

    def __init__(self, url: str, *, sqlite_synchronous: str = "NORMAL") -> None:
        self.url = normalise_url(url)
        self.dialect = make_url(self.url).get_backend_name()
        self.is_sqlite = self.dialect == "sqlite"
        # SQLite has one writer at a time: queue writers of this process on a lock
        # instead of letting them spin on SQLITE_BUSY (busy_timeout covers other processes).
        self._write_lock: threading.Lock | None = threading.Lock() if self.is_sqlite else None
        self._lock_file: IO[bytes] | None = None
        database = make_url(self.url).database if self.is_sqlite else None
        if fcntl is not None and database and database != ":memory:":
            lock_path = Path(database).expanduser().with_name(Path(database).name + ".writer-lock")
            lock_path.parent.mkdir(parents=True, exist_ok=True)
            self._lock_file = open(lock_path, "ab")  # noqa: SIM115 - held for the engine's life
        self.pool_size = POOL_SIZE.get(self.dialect, 8)
        self._head: str | None = None
        self.engine = self._make_engine(sqlite_synchronous)

    def _make_engine(self, sqlite_synchronous: str) -> Engine:
        if not self.is_sqlite:
            return create_engine(
                self.url,
                pool_size=self.pool_size,
                max_overflow=8,
                pool_pre_ping=True,
                isolation_level="READ COMMITTED",
                # a database that does not answer fails a request (and /readyz) in
                # seconds instead of holding a worker thread for minutes
                connect_args={"connect_timeout": CONNECT_TIMEOUT_SECONDS},
            )
        database = make_url(self.url).database
        in_memory = not database or database == ":memory:"
        if not in_memory:
            Path(database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
        pool: dict[str, int] = {} if in_memory else {"pool_size": self.pool_size, "max_overflow": 8}
        engine = create_engine(
            self.url,
            connect_args={"check_same_thread": False, "timeout": 30},
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
            cursor.close()

        @event.listens_for(engine, "begin")
        def _on_begin(conn: Connection) -> None:
            write = conn.get_execution_options().get("write", False)
            conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

        return engine

    @contextmanager
    def write(self) -> Iterator[Connection]:
        """A write transaction: committed on success, rolled back on any error."""
        if self._write_lock is not None:
            with self._write_lock, self._writer_file_lock(), self.engine.connect() as conn:
                conn = conn.execution_options(write=True)
                with conn.begin():
                    yield conn
        else:
            with self.engine.begin() as conn:
                yield conn

    @contextmanager
    def _writer_file_lock(self) -> Iterator[None]:
        """Writers of all processes on one SQLite file take turns on a file lock.

        SQLite's own busy handler makes a waiting writer sleep in growing steps, so
        several API processes on one file mostly sleep; ``flock`` wakes the next writer
        as soon as the last one commits. (No-op where ``fcntl`` is missing.)
        """
        if self._lock_file is None:
            yield
            return
        fcntl.flock(self._lock_file, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(self._lock_file, fcntl.LOCK_UN)

    @contextmanager
    def read(self) -> Iterator[Connection]:
        """A read transaction (a consistent snapshot on both databases)."""
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def migrate(self) -> None:
        """Bring the schema to the newest revision (safe with several processes)."""
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.connect() as conn:
            if not self.is_sqlite:
                conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": _MIGRATION_LOCK})
                conn.commit()
            try:
                config.attributes["connection"] = conn
                command.upgrade(config, "head")
                conn.commit()
            finally:
                if not self.is_sqlite:
                    conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": _MIGRATION_LOCK})
                    conn.commit()
        log.info("database schema is current (%s)", self.dialect)

    def head_revision(self) -> str | None:
        """The newest migration this code knows (read from the scripts once)."""
        if self._head is None:
            config = Config()
            config.set_main_option("script_location", str(MIGRATIONS))
            self._head = ScriptDirectory.from_config(config).get_current_head()
        return self._head

    def schema_revision(self) -> str | None:
        """The migration the database is at (one cheap round trip; raises when the database
        cannot be reached)."""
        with self.engine.connect() as conn:
            return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()

    def analyze(self) -> None:
        """Refresh the planner's statistics (after a bulk load)."""
        with self.engine.connect() as conn:
            conn.exec_driver_sql("ANALYZE")
            conn.commit()

    def dispose(self) -> None:
        self.engine.dispose()
        if self._lock_file is not None:
            self._lock_file.close()
            self._lock_file = None
