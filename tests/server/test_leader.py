"""One API process leads the background rounds (server/storage/leader.py).

- Of two processes' leaderships on one database, one leads; when it stops, the other takes
  over within its retry time (SQLite's lock file, PostgreSQL's session advisory lock).
- On PostgreSQL a leader whose connection is cut stands down, and the other takes over.
- A sequencer that stands by is not poked by its process's commits and seals nothing; the
  leader's sequencer seals its process's entries, and it seals on its own once it leads,
  or when the leader has left an entry unsealed for a while (a paused leader).
- Two real API processes: one leads (the metrics gauge says 1), and what both commit is
  sealed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import func, select, text

from reviewer_app.protocol import EventKind, Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.records import append_events, event_row
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.eventlog import EventChain
from reviewer_app.server.storage.leader import Leadership
from reviewer_app.server.storage.sequencer import Sequencer
from reviewer_app.server.storage.tables import events
from tests.server.test_operations import scrape, value
from tests.support.api import ApiSession
from tests.support.servers import PASSWORD, ServerProcess

RETRY = 0.1


def until(check: Callable[[], bool], what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.02)


def leadership(db: Database) -> Leadership:
    """A process's leadership, of its own Database (its own pool, as a process has)."""
    return Leadership(Database(db.url), retry=RETRY)


@pytest.fixture
def pair(db: Database) -> Iterator[tuple[Leadership, Leadership]]:
    """Two processes' leaderships, started: the first leads, the second stands by."""
    leader, follower = leadership(db), leadership(db)
    leader.start()
    follower.start()
    try:
        assert leader.leading and not follower.leading
        yield leader, follower
    finally:
        for one in (follower, leader):
            one.stop()
            one.db.dispose()


def unsealed(db: Database) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).where(events.c.seq.is_(None))).scalar() or 0)


def append(db: Database, *items: str) -> None:
    with db.write() as conn:
        append_events(
            conn,
            [
                event_row(time.time(), EventKind.decided, "rita", item_id=i, queue_id="q")
                for i in items
            ],
        )


def test_one_leads_and_the_other_takes_over_when_it_stops(db: Database) -> None:
    first, second = leadership(db), leadership(db)
    changes: list[bool] = []
    second.on_change = changes.append
    first.start()
    second.start()
    try:
        assert first.leading and not second.leading
        time.sleep(5 * RETRY)  # the other keeps trying, and keeps not getting it
        assert first.leading and not second.leading and changes == []
        first.stop()
        assert not first.leading
        assert second.wait(10), "the second never took over"
        assert changes == [True]
        first.start()  # back again: it stands by now
        time.sleep(5 * RETRY)
        assert second.leading and not first.leading
    finally:
        first.stop()
        second.stop()
    assert changes == [True, False]


@pytest.mark.postgres
def test_a_leader_whose_connection_is_cut_stands_down(pg_url: str) -> None:
    db = Database(pg_url)
    db.migrate()
    first, second = leadership(db), leadership(db)
    first.start()
    second.start()
    try:
        assert first.leading and not second.leading
        assert first._conn is not None
        pid = first._conn.execute(select(func.pg_backend_pid())).scalar()
        with db.write() as conn:  # as a restart of the database or a network cut would
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        until(lambda: not first.leading, "the cut leader standing down")
        until(lambda: second.leading or first.leading, "a new leader")
        time.sleep(5 * RETRY)
        assert first.leading != second.leading  # one of them, not both
    finally:
        first.stop()
        second.stop()
        db.dispose()


def test_a_standing_by_sequencer_seals_nothing_until_its_process_leads(
    db: Database, pair: tuple[Leadership, Leadership]
) -> None:
    leader, follower = pair
    standing_by = Sequencer(follower.db, [EventChain()], time.time, leader=follower)
    standing_by.start()
    try:
        append(follower.db, "a", "b")  # a commit of the process standing by
        assert not standing_by._poked.is_set()
        time.sleep(10 * RETRY)
        assert unsealed(db) == 2
        leader.stop()  # the leader goes, with nobody sealing meanwhile
        until(lambda: unsealed(db) == 0, "the new leader's sequencer sealing")
        append(follower.db, "c")
        until(lambda: unsealed(db) == 0, "its own commits sealed")
    finally:
        standing_by.stop()


def test_a_leader_that_does_no_rounds_does_not_stall_the_log(
    db: Database, pair: tuple[Leadership, Leadership]
) -> None:
    """A leading process paused (SIGSTOP, a VM paused, swapped out) keeps its lock and its
    connection: nobody sealed, the feed and webhooks stopped, and within 10 s every
    process's /readyz said 503. Here the leader holds the lead and runs no sequencer."""
    leader, follower = pair
    standing_by = Sequencer(follower.db, [EventChain()], time.time, leader=follower, rescue=0.5)
    standing_by.start()
    try:
        append(follower.db, "a", "b")
        until(lambda: unsealed(db) == 0, "the waiting entries sealed by the process standing by")
        assert leader.leading and not follower.leading, "the lead stays where it was"
    finally:
        standing_by.stop()


def test_the_leaders_sequencer_seals_what_the_other_process_commits(
    db: Database, pair: tuple[Leadership, Leadership]
) -> None:
    leader, follower = pair
    sealing = Sequencer(leader.db, [EventChain()], time.time, leader=leader)
    sealing.start()
    try:
        append(follower.db, *[f"item-{n}" for n in range(20)])
        until(lambda: unsealed(db) == 0, "the other process's entries sealed", 5)
    finally:
        sealing.stop()


def test_of_two_api_processes_one_leads_and_both_are_sealed(database_url: str) -> None:
    settings = ServerSettings(database_url=database_url, password_hash_profile="fast")
    service = Service(settings)
    service.start()
    seed_load_queue(service, 40)
    service.create_user(UserCreate(username="lead-test", password=PASSWORD, role=Role.reviewer))
    server = ServerProcess(database_url, workers=2).start()
    try:
        until(lambda: value(scrape(server.url), "reviewdesk_api_processes") == 2, "two workers")
        for _ in range(8):  # a new connection each: claims land on both processes
            reviewer = ApiSession.login(server.url, "lead-test", PASSWORD)
            assert len(reviewer.claim(LOAD_QUEUE.id, count=2)) == 2
        for _ in range(4):
            assert value(scrape(server.url), "reviewdesk_background_leaders") == 1
        until(lambda: service.log_lag().unsealed == 0, "every claim's entries sealed")
    finally:
        server.stop()
        service.close()
