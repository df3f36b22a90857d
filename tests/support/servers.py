"""Real services for tests: uvicorn on 127.0.0.1 over SQLite or PostgreSQL, in a thread
or in a separate process, and throwaway PostgreSQL databases."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import psutil
import requests
import uvicorn
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import make_url

from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.http.app import create_app
from reviewer_app.server.service import Service
from reviewer_app.server.storage.db import Database

from .api import ApiSession

PG_ENV = "REVIEWER_APP_TEST_PG_URL"
PASSWORD = "correct-horse-battery"


def pg_admin_url() -> str | None:
    return os.environ.get(PG_ENV) or None


#: per test process: the database at the newest migration that fresh databases are copied
#: from, by admin URL (see ``fresh_pg_database``)
_migrated_templates: dict[str, str] = {}


def _admin_engine(admin: str) -> Engine:
    return create_engine(
        admin.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT"
    )


def _database_url(admin: str, name: str) -> str:
    return make_url(admin).set(database=name).render_as_string(hide_password=False)


def _migrated_template(engine: Engine, admin: str) -> str:
    """This process's database at the newest migration, made on first use: copying it
    (``CREATE DATABASE ... TEMPLATE``) takes 0.2-0.3 s, migrating an empty one 1.7-2 s."""
    if admin not in _migrated_templates:
        name = "rd_test_migrated_" + secrets.token_hex(6)
        with engine.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
        database = Database(_database_url(admin, name))
        try:
            database.migrate()
        finally:
            database.dispose()  # a template takes no connections while it is copied
        _migrated_templates[admin] = name
    return _migrated_templates[admin]


def drop_migrated_templates() -> None:
    """Drop this process's migrated templates (at the end of the test session)."""
    for admin, name in list(_migrated_templates.items()):
        engine = _admin_engine(admin)
        with suppress(Exception), engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()
        del _migrated_templates[admin]


@contextmanager
def fresh_pg_database(*, migrated: bool = False) -> Iterator[str]:
    """A new PostgreSQL database on the test server, dropped afterwards: empty, or
    (``migrated``) at the newest migration, as the service's start would leave it."""
    admin = pg_admin_url()
    assert admin, f"{PG_ENV} is not set"
    name = "rd_test_" + secrets.token_hex(6)
    engine = _admin_engine(admin)
    template = f' TEMPLATE "{_migrated_template(engine, admin)}"' if migrated else ""
    with engine.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"{template}'))
    try:
        yield _database_url(admin, name)
    finally:
        with engine.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        engine.dispose()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def dead_address() -> Iterator[str]:
    """A URL on 127.0.0.1 where nothing listens, for as long as the block runs: its port
    stays bound (never listened on, so a connection is refused at once), and no other
    test's server, in this process or another, can take it meanwhile (a port from
    ``free_port`` is free only until someone binds it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"


class LiveServer:
    """The reference service in this process, on a real socket on 127.0.0.1."""

    def __init__(
        self,
        database_url: str,
        *,
        clock: Callable[[], float] | None = None,
        port: int | None = None,
        **settings: object,
    ) -> None:
        self.settings = ServerSettings(
            database_url=database_url, password_hash_profile="fast", **settings
        )  # type: ignore[arg-type]
        self.service = Service(self.settings, clock=clock) if clock else Service(self.settings)
        self.port = port or free_port()
        app = create_app(self.settings, service=self.service)
        self._server = uvicorn.Server(
            uvicorn.Config(
                app,
                host="127.0.0.1",
                port=self.port,
                log_level="warning",
                access_log=False,
                timeout_keep_alive=30,
                limit_concurrency=1000,
                backlog=2048,
            )
        )
        self._thread = threading.Thread(target=self._server.run, daemon=True, name="live-server")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("test server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        self._thread.join(15)

    def add_user(self, username: str, role: Role = Role.reviewer) -> None:
        self.service.create_user(UserCreate(username=username, password=PASSWORD, role=role))

    def login(
        self, username: str, role: Role = Role.reviewer, *, create: bool = True
    ) -> ApiSession:
        if create:
            self.add_user(username, role)
        return ApiSession.login(self.url, username, PASSWORD)


class ServerProcess:
    """``reviewer-app server`` as its own process (for multi-process tests)."""

    def __init__(
        self,
        database_url: str,
        *,
        workers: int = 1,
        log: Path | None = None,
        log_level: str = "warning",
        args: tuple[str, ...] = (),
        env: dict[str, str] | None = None,
    ) -> None:
        self.port = free_port()
        self.database_url = database_url
        self.workers = workers
        self.log = log
        self.log_level = log_level
        self.args = args  # more arguments for ``reviewer-app server``
        self.env = env or {}  # more environment variables for it
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        """Start it and wait until it answers on its port. A port from ``free_port`` is free
        only until someone binds it: when another test process's server took it first,
        this one cannot listen there (and that server answered in its place, with another
        database), so it starts again on another port."""
        for attempt in range(3):
            if attempt:
                self.port = free_port()
            if self._started():
                return self
        raise RuntimeError(f"server process could not listen (port {self.port} taken)")

    def _started(self) -> bool:
        """Launched, and answering on its port (True); or it could not listen there (False,
        stopped)."""
        env = {**os.environ, "REVIEWER_SERVER_PASSWORD_HASH_PROFILE": "fast", **self.env}
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "reviewer_app",
                "server",
                "--database-url",
                self.database_url,
                "--port",
                str(self.port),
                "--workers",
                str(self.workers),
                "--log-level",
                self.log_level,
                *self.args,
            ],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kill() takes its workers too
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if self._port_taken():
                    return False
                raise RuntimeError(f"server process exited with {self.proc.returncode}")
            try:
                if requests.get(self.url + "/api/v1/meta", timeout=5).ok and self._listening():
                    return True
            except (requests.ConnectionError, requests.Timeout):
                pass  # not listening yet, or still starting on a busy machine
            time.sleep(0.1)
        raise RuntimeError("server process did not answer in 60 s")

    def _listening(self) -> bool:
        """Whether this server (its main process or a worker) listens on its port, not
        another that answers there."""
        assert self.proc is not None
        try:
            main = psutil.Process(self.proc.pid)
            family = [main, *main.children(recursive=True)]
        except psutil.NoSuchProcess:
            return False
        for process in family:
            try:
                sockets = process.net_connections(kind="tcp")
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            if any(c.status == psutil.CONN_LISTEN and c.laddr.port == self.port for c in sockets):
                return True
        return False

    def _port_taken(self) -> bool:
        """Someone else listens on this server's port."""
        with socket.socket() as probe:
            return probe.connect_ex(("127.0.0.1", self.port)) == 0

    def kill(self) -> None:
        """SIGKILL the server and every worker process it started (its process group), as a
        crash or an OOM kill of the whole service would, and wait for the main one."""
        assert self.proc is not None
        with suppress(ProcessLookupError):  # gone already
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(30)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@contextmanager
def running(database_url: str, **settings: Any) -> Iterator[LiveServer]:
    """A LiveServer for the length of a ``with`` block."""
    server = LiveServer(database_url, **settings).start()
    try:
        yield server
    finally:
        server.stop()
