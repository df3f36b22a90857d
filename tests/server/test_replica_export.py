"""The CSV export read from a replica that fails it (lost, or stopped answering) as it
starts or midway: the primary reads the rest, from the last row sent, and the file is
whole. Only when the primary fails too does the export break off, and then the client
sees it broken, never a file that ends early as if complete. Against a real streaming
replica (``.ci/replica``) and the real service, each database reached through a relay
the test can cut or freeze."""

from __future__ import annotations

import contextlib
import csv
import io
import logging
import time
from collections.abc import Iterator

import pytest
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from reviewer_app.protocol import Role
from reviewer_app.server.domain import search
from reviewer_app.server.domain.search import DecisionFilter
from reviewer_app.server.feeds.seed import seed_load_queue
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.replica import ReadSource
from tests.server.test_read_replica import QUEUE, _decide, databases  # noqa: F401
from tests.server.test_replica_hang import DEADLINE, relayed, within  # noqa: F401
from tests.support.api import ApiSession
from tests.support.relay import Relay
from tests.support.servers import LiveServer, running

ROWS = 5


def _ids(chunks: list[str]) -> list[int]:
    return [int(row["decision_id"]) for row in csv.DictReader(io.StringIO("".join(chunks)))]


@contextlib.contextmanager
def _serving(primary_url: str, replica_url: str) -> Iterator[tuple[LiveServer, ApiSession]]:
    """The service with ``ROWS`` decisions, once the replica has them too."""
    with running(primary_url, read_database_url=replica_url) as server:
        server.service.reads.read_deadline = DEADLINE
        seed_load_queue(server.service, 20)
        rita, lead = server.login("rita"), server.login("lead", Role.lead)
        _decide(server, rita, ROWS)
        deadline = time.monotonic() + 30
        while True:  # a lead read on the replica, caught up, sees them all
            report = lead.get("/stats/queues", params={"queue_id": QUEUE}).json()
            seen = (report["from_replica"], report["staleness_seconds"])
            if seen == (True, 0.0) and report["queues"][0]["decided"] == ROWS:
                break
            assert time.monotonic() < deadline, report
            time.sleep(0.1)
        yield server, lead


@pytest.fixture
def exporting(relayed: tuple[str, str, Relay]) -> Iterator[tuple[LiveServer, ApiSession, Relay]]:  # noqa: F811
    primary_url, replica_url, relay = relayed
    with _serving(primary_url, replica_url) as (server, lead):
        yield server, lead, relay


def test_a_replica_lost_as_the_export_starts_costs_no_row(
    exporting: tuple[LiveServer, ApiSession, Relay],
) -> None:
    """Before, the export read the replica it was given with no fallback, after the
    response had started: a 200 with the header row only, the transfer broken off."""
    server, lead, relay = exporting
    reads = server.service.reads
    choose = reads.choose

    def chosen_then_lost() -> tuple[Database, ReadSource]:
        found = choose()
        assert found[1].replica
        relay.cut()  # the replica's host goes away between the probe and the export
        return found

    reads.choose = chosen_then_lost  # type: ignore[method-assign]
    exported = lead.get("/decisions/export")
    assert exported.status_code == 200, exported.text
    assert len(_ids([exported.text])) == ROWS


@pytest.mark.parametrize("fault", ["lost", "frozen"])
def test_a_replica_failing_midway_hands_the_rest_to_the_primary(
    exporting: tuple[LiveServer, ApiSession, Relay],
    fault: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    monkeypatch.setattr(search, "EXPORT_CHUNK", 2)  # three chunks of rows
    server, _lead, relay = exporting
    chunks = server.service.export_decisions(DecisionFilter())
    got = [next(chunks), next(chunks)]  # the header and two rows, from the replica
    relay.cut() if fault == "lost" else relay.hold()
    began = time.monotonic()
    got += within(15, lambda: list(chunks))
    assert _ids(got) == sorted(set(_ids(got))) and len(_ids(got)) == ROWS, got
    if fault == "frozen":
        assert time.monotonic() - began < DEADLINE + 3
    lost = [r.getMessage() for r in caplog.records if "unusable" in r.getMessage()]
    assert len(lost) == 1, lost  # the replica had the export until then


def test_an_export_both_databases_fail_midway_is_broken_off(
    relayed: tuple[str, str, Relay],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(search, "EXPORT_CHUNK", 2)
    primary_url, replica_url, relay = relayed
    primary = make_url(primary_url)
    primary_relay = Relay(int(primary.port or 5432))
    try:
        through = primary.set(port=primary_relay.port).render_as_string(hide_password=False)
        with _serving(through, replica_url) as (server, _lead):
            chunks = server.service.export_decisions(DecisionFilter())
            got = [next(chunks), next(chunks)]  # the header and two rows
            relay.cut()
            primary_relay.cut()
            with pytest.raises(DBAPIError):  # the error, never a clean end after two rows
                got += within(15, lambda: list(chunks))
    finally:
        primary_relay.cut()
