"""The database gone: requests answer 503 with Retry-After (not 500 with a traceback per
request), and a database recreated empty is reachable but not current (``/readyz`` says
``schema_not_current``, not ``database_unreachable``)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
import requests
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from reviewer_app.protocol import Role
from reviewer_app.server.storage.db import Database
from tests.support.servers import pg_admin_url, running


def _admin(statement: str) -> None:
    admin = pg_admin_url()
    assert admin
    engine = create_engine(
        admin.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT"
    )
    try:
        with engine.connect() as conn:
            conn.execute(text(statement))
    finally:
        engine.dispose()


def test_a_database_that_is_gone_answers_503_with_retry_after(
    pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    name = make_url(pg_url).database
    with running(pg_url) as server:
        lead = server.login("lead", Role.lead)
        assert lead.get("/me").status_code == 200
        _admin(f'DROP DATABASE "{name}" WITH (FORCE)')
        caplog.clear()
        caplog.set_level(logging.INFO, logger="server")
        for _ in range(4):
            answer = lead.get("/me")
            assert answer.status_code == 503, answer.text
            assert answer.headers.get("Retry-After"), answer.headers
            assert answer.json()["code"] == "unavailable"
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert errors == [], [r.getMessage() for r in errors]
        _admin(f'CREATE DATABASE "{name}"')  # for the fixture to drop


def test_a_database_recreated_empty_is_not_current(pg_url: str) -> None:
    name = make_url(pg_url).database
    with running(pg_url) as server:
        assert requests.get(server.url + "/readyz", timeout=30).status_code == 200
        _admin(f'DROP DATABASE "{name}" WITH (FORCE)')
        _admin(f'CREATE DATABASE "{name}"')
        answer = requests.get(server.url + "/readyz", timeout=30)
        if answer.status_code == 503 and answer.json()["code"] == "unavailable":
            answer = requests.get(
                server.url + "/readyz", timeout=30
            )  # a pooled connection found dead
        assert answer.status_code == 503, answer.text
        assert answer.json()["code"] == "schema_not_current", answer.text


def test_an_empty_sqlite_file_has_no_revision(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'empty.db'}")
    try:
        assert db.schema_revision() is None
    finally:
        db.dispose()
