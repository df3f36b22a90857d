"""A replica lost after the probe passed it (it went away between the check and the read)
costs no read: the primary does the work again, and the outage is counted once. A
query's own failure is not the replica's: it is raised, not run twice. Against a real
streaming replica (``.ci/replica``), reached through a relay the test can cut."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.replica import Reads, ReadSource
from tests.server.test_read_replica import databases  # noqa: F401 (a fixture)
from tests.support.relay import Relay


@pytest.fixture
def reads(databases: tuple[str, str]) -> Iterator[tuple[Reads, Relay]]:  # noqa: F811
    primary_url, replica_url = databases
    primary = Database(primary_url)
    with primary.engine.begin() as conn:
        conn.execute(text("CREATE TABLE kept (x INTEGER)"))
        conn.execute(text("INSERT INTO kept VALUES (1)"))
    replica = make_url(replica_url)
    relay = Relay(int(replica.port or 5432))
    reads = Reads(primary, replica.set(port=relay.port).render_as_string(hide_password=False), 60)
    try:
        yield reads, relay
    finally:
        relay.cut()
        reads.close()
        primary.dispose()


def kept(conn: Connection, source: ReadSource) -> tuple[Any, bool]:
    return conn.execute(text("SELECT x FROM kept")).scalar(), source.replica


def test_a_replica_lost_after_the_probe_costs_no_read(
    reads: tuple[Reads, Relay], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    service_reads, relay = reads
    deadline = time.monotonic() + 30
    while service_reads.run(lambda c, s: s.replica and kept(c, s)) != (1, True):
        assert time.monotonic() < deadline, "the replica never caught up"
        time.sleep(0.1)
    choose = service_reads.choose

    def chosen_then_lost() -> tuple[Database, ReadSource]:
        found = choose()
        relay.cut()  # the replica's host goes away between the probe and the read
        return found

    service_reads.choose = chosen_then_lost  # type: ignore[method-assign]
    assert service_reads.run(kept) == (1, False)
    service_reads.choose = choose  # type: ignore[method-assign]
    assert service_reads.run(kept) == (1, False)  # backing off: the primary at once
    lost = [r.getMessage() for r in caplog.records if "unusable" in r.getMessage()]
    assert len(lost) == 1, lost


def test_a_querys_own_failure_is_not_run_again(reads: tuple[Reads, Relay]) -> None:
    service_reads, _relay = reads
    runs: list[bool] = []

    def broken(conn: Connection, source: ReadSource) -> None:
        runs.append(source.replica)
        conn.execute(text("SELECT * FROM no_such_table"))

    with pytest.raises(DBAPIError):
        service_reads.run(broken)
    assert len(runs) == 1
