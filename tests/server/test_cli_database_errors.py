"""A statement the database fails never shows its values (a webhook's secrets, a
password's hash) in the message or a log line, and a server command it fails says so in
one sentence, with no traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from reviewer_app.server.config import ENV_PREFIX
from reviewer_app.server.storage.db import Database, normalise_url

SECRET = "whsec_do-not-show-me"


def test_a_failed_statement_hides_its_values(db: Database) -> None:
    with pytest.raises(DBAPIError) as failed, db.engine.begin() as conn:
        conn.execute(text("INSERT INTO no_such_table (k) VALUES (:k)"), {"k": SECRET})
    assert SECRET not in str(failed.value)


def server(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", "server", *args],
        capture_output=True,
        text=True,
        env={**os.environ, f"{ENV_PREFIX}DATABASE_URL": url},
        timeout=120,
        check=False,
    )


def test_a_rotation_the_database_fails_prints_no_secret(pg_url: str) -> None:
    engine = create_engine(normalise_url(pg_url), isolation_level="AUTOCOMMIT")
    assert (
        server(pg_url, "api-key", "create", "--role", "platform", "--name", "bridge").returncode
        == 0
    )
    added = server(pg_url, "webhook", "add", "https://platform.example/hook", "--account", "bridge")
    assert added.returncode == 0, added.stderr
    secret = added.stdout.strip().splitlines()[-1]
    with engine.connect() as admin:
        database = admin.execute(text("SELECT current_database()")).scalar_one()
        admin.execute(text(f"ALTER DATABASE \"{database}\" SET lock_timeout = '1s'"))
    session = create_engine(normalise_url(pg_url))
    try:
        with session.begin() as holder:  # another session holds the row
            holder.execute(text("SELECT 1 FROM webhook_endpoints FOR UPDATE"))
            rotated = server(pg_url, "webhook", "rotate-secret", "1")
    finally:
        session.dispose()
        engine.dispose()
    assert rotated.returncode == 2
    assert "The database failed the command: LockNotAvailable" in rotated.stderr
    assert "whsec_" not in rotated.stderr and secret not in rotated.stderr
    assert "Traceback" not in rotated.stderr
