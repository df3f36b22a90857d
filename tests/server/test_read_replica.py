"""Reads off the primary (``REVIEWER_SERVER_READ_DATABASE_URL``) against a real PostgreSQL
streaming replica (CI starts one with ``.ci/replica``: pg_basebackup into a second cluster
on another port; the tests skip without ``REVIEWER_APP_TEST_PG_REPLICA_URL``).

- Lead figures, decision search and the CSV export are read from the replica when it has
  caught up; the figures say so, with a staleness of 0 and the same numbers as the primary.
- With the replica's replay paused: a service that allows some staleness reads the replica
  and tells the lead how far behind the figures are; one whose bound is passed reads the
  primary. Once replay resumes, the replica answers again, caught up.
- The enforcement feed's catch-up pages (a reader more than a page behind the sealed head)
  are read from the replica, the page that reaches the head from the primary; a reader
  going from cursor 0 to the head gets every one of its actions once, in seq order.
"""

from __future__ import annotations

import csv
import io
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import Engine, make_url

from reviewer_app.protocol import QueueFile, Role
from reviewer_app.server.domain import enforcement_feed
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import ApiSession, claim, verdict
from tests.support.enforcement import queue_file, queue_posts, read_feed
from tests.support.intake import MISINFO, key_session
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
            exposure = lead.get("/stats/exposure").json()  # the Wellbeing page says it too
            assert exposure["from_replica"] is True and exposure["staleness_seconds"] > 2
            # ... as do the quality signals and a reviewer's trend (they said nothing)
            quality = lead.get("/stats/quality").json()
            assert quality["from_replica"] is True and quality["staleness_seconds"] > 2, quality
            assert [r["decisions"] for r in quality["reviewers"]] == [5]
            trend = lead.get("/stats/reviewers/rita/trend").json()
            assert trend["from_replica"] is True and trend["staleness_seconds"] > 2, trend
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


def _replayed(primary: Engine, replica: Engine) -> None:
    """Wait until the replica has replayed everything the primary has written so far
    (reads no table: the replica's table counters are left as they are)."""
    with primary.connect() as conn:
        lsn = conn.execute(text("SELECT pg_current_wal_lsn()::text")).scalar()
    with replica.connect() as conn:
        for _ in range(300):
            if conn.execute(
                text("SELECT pg_last_wal_replay_lsn() >= CAST(:lsn AS pg_lsn)"), {"lsn": lsn}
            ).scalar():
                return
            time.sleep(0.02)
    raise AssertionError("the replica did not catch up in 6 s")


def _action_scans(replica: Engine) -> int:
    """Scans of the enforcement actions the replica itself has counted (its own
    statistics: a standby counts the reads it serves, nothing is copied from the primary)."""
    with replica.connect() as conn:
        found = conn.execute(
            text(
                "SELECT COALESCE(seq_scan, 0) + COALESCE(idx_scan, 0) FROM pg_stat_user_tables "
                "WHERE relname = 'enforcement_actions'"
            )
        ).scalar()
    return int(found or 0)


def test_the_enforcement_feed_catches_up_from_the_replica(
    databases: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, replica_url = databases
    primary, replica = _engine(url), _engine(replica_url)
    replica_port = make_url(replica_url).port
    pages: list[tuple[bool, int]] = []  # (read on the replica, after) for each page read
    real_page = enforcement_feed.page

    def page(conn: Connection, source: str, after: int, limit: int) -> Any:
        if source == "ours":
            pages.append((conn.engine.url.port == replica_port, after))
        return real_page(conn, source, after, limit)

    monkeypatch.setattr(enforcement_feed, "page", page)
    patient = running(url, read_database_url=replica_url, read_max_staleness_seconds=3_600)
    try:
        with patient as server:
            server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
            ours, theirs = key_session(server, "ours"), key_session(server, "theirs")
            queue_posts(ours, [f"ours-{i:02}" for i in range(23)])
            queue_posts(theirs, [f"theirs-{i:02}" for i in range(7)])
            rita = server.login("rita")
            leased = claim(rita, MISINFO, 30)
            mine = [x for x in leased if "/ours-" in x["item"]["post"]["url"]]
            other = [x for x in leased if "/theirs-" in x["item"]["post"]["url"]]
            assert (len(mine), len(other)) == (23, 7)
            # several sealing rounds, the other platform's actions between ours; ours last
            for chunk in (mine[:10] + other[:4], other[4:], mine[10:]):
                results = rita.decide([verdict(x, "keep") for x in chunk])
                assert {r["status"] for r in results} == {"accepted"}, results
            server.service.seal_now()
            with primary.connect() as conn:
                rows = conn.execute(
                    text(
                        "SELECT id, seq, source FROM enforcement_actions "
                        "WHERE seq IS NOT NULL ORDER BY seq"
                    )
                ).all()
            expected = [(r.id, r.seq) for r in rows if r.source == "ours"]
            head = rows[-1].seq
            assert len(expected) == 23 and len(rows) == 30
            _replayed(primary, replica)
            scans_before = _action_scans(replica)

            limit, after = 4, 0
            sent: list[int] = []
            found: list[dict[str, Any]] = []
            while True:  # a platform reading from the start to the head
                sent.append(after)
                got = read_feed(server.url, ours.token or "", after, limit)
                found += got["actions"]
                if not got["actions"]:
                    assert got["next_cursor"] == after
                    break
                assert got["next_cursor"] == got["actions"][-1]["seq"]
                after = got["next_cursor"]

            assert [(a["id"], a["seq"]) for a in found] == expected, "each once, in seq order"
            assert {a["post_external_id"] for a in found} == {f"ours-{i:02}" for i in range(23)}
            assert expected[-1][1] == head and len(sent) == 7
            # more than a page behind the sealed head: the replica; the rest: the primary
            catching_up = [c for c in sent if c + limit < head]
            assert pages == [(c in catching_up, c) for c in sent], pages
            assert len(catching_up) == 5, (sent, head)

            # The replica's own counters agree: it served them (its backends report their
            # statistics when they end: close the service's connections to it).
            assert server.service.reads.replica is not None
            server.service.reads.replica.dispose()
            for _ in range(100):
                scans = _action_scans(replica) - scans_before
                if scans >= 2 * len(catching_up):  # each page: the sealed head, the actions
                    break
                time.sleep(0.1)
            assert scans >= 2 * len(catching_up), (scans, catching_up)
    finally:
        primary.dispose()
        replica.dispose()


def test_a_replica_behind_never_tells_a_platform_it_has_caught_up(
    databases: tuple[str, str],
) -> None:
    """With the replica's replay paused, a reader at the replica's last action got an
    empty page from it ("nothing new") while the primary had sealed more."""
    url, replica_url = databases
    primary, replica = _engine(url), _engine(replica_url)
    patient = running(url, read_database_url=replica_url, read_max_staleness_seconds=3_600)
    try:
        with patient as server:
            server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
            ours = key_session(server, "ours")
            queue_posts(ours, [f"ours-{i:02}" for i in range(16)])
            rita = server.login("rita")
            leased = claim(rita, MISINFO, 16)
            first = rita.decide([verdict(x, "keep") for x in leased[:6]])
            assert {r["status"] for r in first} == {"accepted"}
            server.service.seal_now()
            _replayed(primary, replica)
            known = read_feed(server.url, ours.token or "", 0, 100)["next_cursor"]
            with replica.connect() as conn:
                conn.execute(text("SELECT pg_wal_replay_pause()"))
            try:
                later = rita.decide([verdict(x, "keep") for x in leased[6:]])
                assert {r["status"] for r in later} == {"accepted"}
                server.service.seal_now()
                got = read_feed(server.url, ours.token or "", known, 4)
                assert len(got["actions"]) == 4, got  # from the primary, not "caught up"
                assert got["next_cursor"] > known
            finally:
                with replica.connect() as conn:
                    conn.execute(text("SELECT pg_wal_replay_resume()"))
    finally:
        primary.dispose()
        replica.dispose()
