"""A read replica that hangs, or is set wrong (``REVIEWER_SERVER_READ_DATABASE_URL``).

- A replica that accepts connections and never answers (a frozen relay: a listener that
  never speaks) costs the first read the probe's short timeout; the reads after it go to
  the primary at once for the back-off period, and the outage is logged once.
- A read URL that is no standby (the primary itself), or that the replica refuses (a wrong
  password), is passed over and logged once, with the reason, never the password.
- A read URL that cannot work is refused at start in one sentence (exit 2): malformed,
  not PostgreSQL, or beside a SQLite primary.
"""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from reviewer_app.server.cli.database import Unusable, check
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.replica import MAX_PROBING, Reads

READ_URL_ENV = "REVIEWER_SERVER_READ_DATABASE_URL"


@pytest.fixture
def frozen_port() -> Iterator[int]:
    """A TCP listener that completes the handshake (the kernel does) and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        yield int(sock.getsockname()[1])


@pytest.fixture
def primary(pg_url: str) -> Iterator[Database]:
    db = Database(pg_url)
    try:
        yield db
    finally:
        db.dispose()


def _replica_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "read replica" in r.getMessage()]


def test_a_frozen_replica_costs_one_short_wait(
    primary: Database, frozen_port: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    reads = Reads(primary, f"postgresql://reader:s3cret-pw@127.0.0.1:{frozen_port}/x", 5)
    try:
        start = time.monotonic()
        db, source = reads.choose()
        first = time.monotonic() - start
        assert db is primary and not source.replica
        assert first < 2.5, f"the first read waited {first:.1f} s"
        # the probe still waiting on the replica never holds the process at its exit
        waiting = [t for t in threading.enumerate() if t.name.startswith("replica-probe")]
        assert waiting and all(t.daemon for t in waiting)

        waits: list[float] = []

        def read() -> None:
            began = time.monotonic()
            chosen, _ = reads.choose()
            assert chosen is primary
            waits.append(time.monotonic() - began)

        threads = [threading.Thread(target=read) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(waits) == 4 and max(waits) < 0.5, waits
    finally:
        reads.close()
    lines = _replica_lines(caplog)
    assert len(lines) == 1, lines
    assert "did not answer" in lines[0] and "s3cret-pw" not in lines[0], lines


def test_a_replica_that_is_no_standby_is_logged_once(
    primary: Database, pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    reads = Reads(primary, pg_url, 5)  # the primary itself
    try:
        for _ in range(3):
            db, source = reads.choose()
            assert db is primary and not source.replica
    finally:
        reads.close()
    lines = _replica_lines(caplog)
    assert len(lines) == 1 and "not a standby" in lines[0], lines


def test_a_refused_replica_is_logged_with_its_reason(
    primary: Database, pg_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    wrong = make_url(pg_url).set(password="wrong-pw-4711").render_as_string(hide_password=False)
    reads = Reads(primary, wrong, 5)
    try:
        for _ in range(3):
            assert reads.choose()[0] is primary
    finally:
        reads.close()
    lines = _replica_lines(caplog)
    assert len(lines) == 1, lines
    assert "password authentication failed" in lines[0], lines
    assert "wrong-pw-4711" not in lines[0]


@pytest.mark.parametrize(
    ("primary_url", "read_url", "words"),
    [
        ("postgresql://u@h/db", "postgresql://u:hunter2@h:notaport/db", "is not a database URL"),
        ("postgresql://u@h/db", "not a url", "is not a database URL"),
        ("postgresql://u@h/db", "sqlite:///replica.db", "is sqlite, not PostgreSQL"),
        ("postgresql://u@h/db", "mysql://u:hunter2@h/db", "is mysql, not PostgreSQL"),
        ("sqlite:///:memory:", "postgresql://u:hunter2@h/db", "needs a PostgreSQL primary"),
    ],
)
def test_a_read_url_that_cannot_work_is_refused(
    primary_url: str, read_url: str, words: str
) -> None:
    with pytest.raises(Unusable) as refused:
        check(primary_url, read_only=False, read_url=read_url)
    said = str(refused.value)
    assert words in said and READ_URL_ENV in said and "hunter2" not in said
    assert "\n" not in said


def test_a_sqlite_primary_takes_no_replica(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'p.db'}")
    try:
        with pytest.raises(ValueError, match="PostgreSQL primary"):
            Reads(db, "postgresql://u@127.0.0.1:1/x", 5)
    finally:
        db.dispose()


def test_the_server_refuses_a_malformed_read_url_in_one_sentence(tmp_path: Path) -> None:
    primary = f"sqlite:///{tmp_path / 's.db'}"
    done = subprocess.run(
        [sys.executable, "-m", "reviewer_app", "server", "--database-url", primary, "--port", "1"],
        env={
            **os.environ,
            READ_URL_ENV: "postgresql://u:hunter2@h:notaport/db",
        },
        capture_output=True,
        timeout=60,
    )
    err = done.stderr.decode()
    assert done.returncode == 2, err
    assert "Traceback" not in err and "hunter2" not in err
    assert READ_URL_ENV in err and "is not a database URL" in err


def test_reads_that_find_every_probe_out_go_to_the_primary_without_an_outage(
    primary: Database, frozen_port: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Three lead reads at once on a healthy replica: the third found both probes out,
    was counted as a failure and sent every read to the primary for 30 s."""
    caplog.set_level(logging.INFO, logger="server")
    reads = Reads(primary, f"postgresql://reader:pw@127.0.0.1:{frozen_port}/x", 5)
    try:
        reads._probing = MAX_PROBING  # both probes out, as with reads at once
        db, source = reads.choose()
        assert db is primary and not source.replica
        assert reads._down_until == 0.0, "not an outage"
    finally:
        reads._probing = 0
        reads.close()
    assert _replica_lines(caplog) == []
