"""Fixtures shared by every test: real services over real HTTP on 127.0.0.1."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer_app.server.storage.db import Database
from tests.support.keyring_memory import MemoryKeyring, installed
from tests.support.pg_cluster import Cluster, throwaway_cluster
from tests.support.servers import (
    PG_ENV,
    LiveServer,
    drop_migrated_templates,
    fresh_pg_database,
    pg_admin_url,
)

#: the offscreen platform's screen: a workstation's 1920 x 1200 (its own default, 800 x 800,
#: would bound the review window's first size; the layout tests size the window themselves)
OFFSCREEN = Path(__file__).resolve().parent / "support" / "offscreen.json"
os.environ.setdefault("QT_QPA_PLATFORM", f"offscreen:configfile={OFFSCREEN}")

BACKENDS = ["sqlite", "postgres"]
_cluster: Cluster | None = None


def pytest_configure(config: pytest.Config) -> None:
    """No PostgreSQL named (a newcomer's machine): start a throwaway cluster when this
    machine has PostgreSQL's server programs, so the PostgreSQL tests run, not skip."""
    global _cluster
    if not pg_admin_url() and not hasattr(config, "workerinput"):
        _cluster = throwaway_cluster()
        if _cluster is not None:
            os.environ[PG_ENV] = _cluster.url


def pytest_unconfigure(config: pytest.Config) -> None:
    drop_migrated_templates()
    if _cluster is not None:
        _cluster.stop()


def pytest_report_header(config: pytest.Config) -> str:
    if _cluster is not None:
        return (
            f"PostgreSQL: a throwaway cluster for this run ({_cluster.bin}, port {_cluster.port})"
        )
    if pg_admin_url():
        return f"PostgreSQL: {PG_ENV} names the test server"
    return "PostgreSQL: none (no server programs found); the PostgreSQL tests skip"


def _skip_without_pg() -> None:
    if not pg_admin_url():
        pytest.skip(
            f"PostgreSQL tests need PostgreSQL's server programs (initdb, pg_ctl) on this machine"
            f" or {PG_ENV}=postgresql://user:pw@host/db (CI sets it; see README)"
        )


def _migrated(request: pytest.FixtureRequest) -> bool:
    """A fresh PostgreSQL database comes at the newest migration (a copy of one migrated
    once) unless the test is marked ``empty_database``: the service, and ``Database.migrate``,
    find nothing to do in it, as in an empty one they would have done it all."""
    return request.node.get_closest_marker("empty_database") is None


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh database: a SQLite file (not there yet), and (when available) a PostgreSQL
    database (see ``_migrated``)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'service.db'}"
        return
    _skip_without_pg()
    with fresh_pg_database(migrated=_migrated(request)) as url:
        yield url


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'service.db'}"


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> Iterator[str]:
    _skip_without_pg()
    with fresh_pg_database(migrated=_migrated(request)) as url:
        yield url


@pytest.fixture
def db(database_url: str) -> Iterator[Database]:
    """A fresh database at the newest migration, over each backend, without the service."""
    database = Database(database_url)
    database.migrate()
    try:
        yield database
    finally:
        database.dispose()


@pytest.fixture
def live_server(database_url: str) -> Iterator[LiveServer]:
    """The service on 127.0.0.1 over each database backend, empty."""
    server = LiveServer(database_url).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(autouse=True)
def _private_keyring() -> Iterator[None]:
    """No test reaches the developer's own keyring: the default backend is a dict."""
    with installed(MemoryKeyring()):
        yield
