"""Reads off the primary (``REVIEWER_SERVER_READ_DATABASE_URL``) against a real PostgreSQL
streaming replica (CI starts one with ``.ci/replica``: pg_basebackup into a second cluster
on another port; the tests skip without ``REVIEWER_APP_TEST_PG_REPLICA_URL``).

- Lead figures, decision search and the CSV export are read from the replica when it has
  caught up; the figures say so, with a staleness of 0 and the same numbers as the primary.
- With the replica's replay paused: a service that allows some staleness reads the replica
  and tells the lead how far behind the figures are; one whose bound is passed reads the
  primary. Once replay resumes, the replica answers again, caught up.
"""

from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import ApiSession, claim, verdict
from tests.support.servers import LiveServer, fresh_pg_database, pg_admin_url, running

REPLICA_ENV = "REVIEWER_APP_TEST_PG_REPLICA_URL"
QUEUE = LOAD_QUEUE.id


def _engine(url: str) -> Engine:
    return create_engine(
        url.replace("postgresql://", "postgresql+psycopg://", 1), isolation_level="AUTOCOMMIT"
    )


@pytest.fixture
def databases() -> Iterator[tuple[str, str]]:
    """A fresh database on the primary, and the replica's URL for it (once it is there)."""
    replica = os.environ.get(REPLICA_ENV)
    if not pg_admin_url() or not replica:
        pytest.skip(f"read-replica tests need {REPLICA_ENV} (CI starts one: .ci/replica)")
    with fresh_pg_database() as url:
        name = make_url(url).database
        replica_url = make_url(replica).set(database=name).render_as_string(hide_password=False)
        engine = _engine(replica_url)
        try:
            for _ in range(300):  # the CREATE DATABASE replayed on the replica
                try:
                    with engine.connect() as conn:
                        conn.execute(text("SELECT 1"))
                    break
                except Exception:
                    time.sleep(0.1)
            yield url, replica_url
        finally:
            engine.dispose()


def _decide(server: LiveServer, reviewer: ApiSession, count: int) -> None:
    leased = claim(reviewer, QUEUE, count)
    results = reviewer.decide([verdict(e) for e in leased])
    assert [r["status"] for r in results] == ["accepted"] * count, results


def _queue_figures(lead: ApiSession) -> dict[str, Any]:
    response = lead.get("/stats/queues", params={"queue_id": QUEUE})
    assert response.status_code == 200, response.text
    report: dict[str, Any] = response.json()
    return report


def test_lead_reads_go_to_the_replica_when_it_has_caught_up(
    databases: tuple[str, str],
) -> None:
    url, replica_url = databases
    with running(url, read_database_url=replica_url) as server:
        seed_load_queue(server.service, 20)
        rita, lead = server.login("rita"), server.login("lead", Role.lead)
        _decide(server, rita, 5)

        report = _queue_figures(lead)
        assert (report["from_replica"], report["staleness_seconds"]) == (True, 0.0), report
        assert report["queues"][0]["decided"] == 5
        reviewers = lead.get("/stats/reviewers").json()
        assert reviewers["from_replica"] is True
        assert [(r["reviewer"], r["decisions"]) for r in reviewers["reviewers"]] == [("rita", 5)]
        decisions = lead.get("/decisions", params={"limit": 100}).json()["decisions"]
        assert len(decisions) == 5
        exported = lead.get("/decisions/export")
        assert exported.status_code == 200, exported.text
        assert len(list(csv.DictReader(io.StringIO(exported.text)))) == 5


def test_a_replica_behind_is_shown_or_passed_over(databases: tuple[str, str]) -> None:
    url, replica_url = databases
    replica = _engine(replica_url)
    patient = running(url, read_database_url=replica_url, read_max_staleness_seconds=3_600)
    strict = running(url, read_database_url=replica_url, read_max_staleness_seconds=1)
    with patient as server, strict as other:
        seed_load_queue(server.service, 20)
        rita = server.login("rita")
        lead, other_lead = server.login("lead", Role.lead), other.login("lead", create=False)
        _decide(server, rita, 5)
        assert _queue_figures(lead)["queues"][0]["decided"] == 5
        with replica.connect() as conn:
            conn.execute(text("SELECT pg_wal_replay_pause()"))
        try:
            _decide(server, rita, 3)
            with replica.connect() as conn:  # the last transaction it replayed ages
                for _ in range(100):
                    behind = conn.execute(
                        text("SELECT EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp())")
                    ).scalar()
                    if behind is not None and behind > 2:
                        break
                    time.sleep(0.1)

            report = _queue_figures(lead)  # the replica is within this service's bound
            assert report["from_replica"] is True, report
            assert report["staleness_seconds"] > 2, report
            assert report["queues"][0]["decided"] == 5, "as the replica has it"
            report = _queue_figures(other_lead)  # past this one's: the primary answers
            assert (report["from_replica"], report["staleness_seconds"]) == (False, 0.0)
            assert report["queues"][0]["decided"] == 8
        finally:
            with replica.connect() as conn:
                conn.execute(text("SELECT pg_wal_replay_resume()"))
            replica.dispose()
        for _ in range(100):  # replay resumed: until the replica has caught up
            report = _queue_figures(lead)
            if report["staleness_seconds"] == 0.0:
                break
            time.sleep(0.1)
        assert (report["from_replica"], report["staleness_seconds"]) == (True, 0.0), report
        assert report["queues"][0]["decided"] == 8


def test_an_unreachable_replica_is_passed_over(pg_url: str) -> None:
    """No replica answers at the configured URL: the primary answers, and says so."""
    nowhere = make_url(pg_url).set(port=1).render_as_string(hide_password=False)
    with running(pg_url, read_database_url=nowhere) as server:
        seed_load_queue(server.service, 5)
        rita, lead = server.login("rita"), server.login("lead", Role.lead)
        _decide(server, rita, 2)
        report = _queue_figures(lead)
        assert (report["from_replica"], report["staleness_seconds"]) == (False, 0.0), report
        assert report["queues"][0]["decided"] == 2
        assert len(lead.get("/decisions").json()["decisions"]) == 2
