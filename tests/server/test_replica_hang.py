"""A replica that stops answering (its host frozen, a partition, a backend stopped: the
kernel still acknowledges, nothing comes back) costs a read the read deadline at most:
the connection is cut off, the outage counted and logged once, and the primary does the
read again. Probes stuck on it are let go the same way, so the replica is read again once
it answers. Against a real streaming replica (``.ci/replica``), reached through a relay
the test can tell to stop forwarding without closing anything."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.replica import MAX_PROBING, Reads, ReadSource
from tests.server.test_read_replica import databases  # noqa: F401 (a fixture)
from tests.support.relay import Relay
from tests.support.servers import running

T = TypeVar("T")
#: the read deadline the tests give the service (its own is 10 s)
DEADLINE = 2.0


@pytest.fixture
def relayed(databases: tuple[str, str]) -> Iterator[tuple[str, str, Relay]]:  # noqa: F811
    """The primary's URL, the replica's through a relay, and the relay."""
    primary_url, replica_url = databases
    replica = make_url(replica_url)
    relay = Relay(int(replica.port or 5432))
    try:
        yield primary_url, replica.set(port=relay.port).render_as_string(hide_password=False), relay
    finally:
        relay.cut()  # lets go of anything still waiting on it


@pytest.fixture
def reads(relayed: tuple[str, str, Relay]) -> Iterator[tuple[Reads, Relay]]:
    primary_url, replica_url, relay = relayed
    primary = Database(primary_url)
    with primary.engine.begin() as conn:
        conn.execute(text("CREATE TABLE kept (x INTEGER)"))
        conn.execute(text("INSERT INTO kept VALUES (1)"))
    service_reads = Reads(primary, replica_url, 60)
    service_reads.read_deadline = DEADLINE
    try:
        wait_for_replica(service_reads)
        yield service_reads, relay
    finally:
        relay.cut()
        service_reads.close()
        primary.dispose()


def kept(conn: Connection, source: ReadSource) -> tuple[Any, bool]:
    return conn.execute(text("SELECT x FROM kept")).scalar(), source.replica


def wait_for_replica(service_reads: Reads) -> None:
    """Until a read goes to the replica and finds the table there."""
    deadline = time.monotonic() + 30
    while service_reads.run(lambda c, s: s.replica and kept(c, s)) != (1, True):
        assert time.monotonic() < deadline, "the replica never caught up"
        time.sleep(0.1)


def within(seconds: float, work: Callable[[], T]) -> T:
    """``work``'s answer, which must come within ``seconds`` (it runs on a daemon thread:
    one that hangs is left to the relay's cut at the test's end)."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = work()
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds:g} s"
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def _lines(caplog: pytest.LogCaptureFixture, words: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if words in r.getMessage()]


def test_a_replica_that_stops_answering_after_the_probe_costs_the_deadline(
    reads: tuple[Reads, Relay], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="server")
    service_reads, relay = reads
    choose = service_reads.choose

    def chosen_then_frozen() -> tuple[Database, ReadSource]:
        found = choose()
        relay.hold()  # the replica stops answering between the probe and the read
        return found

    service_reads.choose = chosen_then_frozen  # type: ignore[method-assign]
    began = time.monotonic()
    assert within(15, lambda: service_reads.run(kept)) == (1, False)
    took = time.monotonic() - began
    assert DEADLINE <= took < DEADLINE + 3, f"the read took {took:.1f} s"
    service_reads.choose = choose  # type: ignore[method-assign]
    began = time.monotonic()
    assert service_reads.run(kept) == (1, False)  # backing off: the primary at once
    assert time.monotonic() - began < 1
    lost = _lines(caplog, "unusable")
    assert len(lost) == 1, lost
    assert f"did not finish a read within {DEADLINE:g} s" in lost[0], lost


def test_a_lead_read_on_a_replica_that_stops_answering_is_answered_from_the_primary(
    relayed: tuple[str, str, Relay],
) -> None:
    """The service's own: the lead's queue figures, the replica frozen after the probe
    passed it. Before, the request waited as long as the replica did (hours, for a
    frozen host)."""
    primary_url, replica_url, relay = relayed
    with running(primary_url, read_database_url=replica_url) as server:
        reads = server.service.reads
        reads.read_deadline = DEADLINE
        seed_load_queue(server.service, 5)
        lead = server.login("lead", Role.lead)
        figures = "/stats/queues", {"queue_id": LOAD_QUEUE.id}
        deadline = time.monotonic() + 30
        while not lead.get(figures[0], params=figures[1]).json()["from_replica"]:
            assert time.monotonic() < deadline, "the replica never caught up"
            time.sleep(0.1)
        choose = reads.choose

        def chosen_then_frozen() -> tuple[Database, ReadSource]:
            found = choose()
            relay.hold()
            return found

        reads.choose = chosen_then_frozen  # type: ignore[method-assign]
        began = time.monotonic()
        answer = within(15, lambda: lead.get(figures[0], params=figures[1]))
        assert time.monotonic() - began < DEADLINE + 3
        assert answer.status_code == 200, answer.text
        report = answer.json()
        assert (report["from_replica"], report["staleness_seconds"]) == (False, 0.0), report


def test_probes_stuck_on_a_replica_that_stopped_answering_are_let_go(
    reads: tuple[Reads, Relay], caplog: pytest.LogCaptureFixture
) -> None:
    """Both probes out on connections that never answer again: before, they stayed out
    until TCP gave up (hours), every read found them out and went to the primary, and the
    replica, answering again on new connections, was never read."""
    caplog.set_level(logging.INFO, logger="server")
    service_reads, relay = reads
    assert service_reads.replica is not None
    engine = service_reads.replica.engine
    with engine.connect() as a, engine.connect() as b:  # two pooled connections
        a.execute(text("SELECT 1"))
        b.execute(text("SELECT 1"))
    relay.hold()  # both freeze; new connections answer
    for _ in range(MAX_PROBING):  # each probe takes a frozen one and stays out
        service_reads._down_until = 0.0  # the back-off over
        db, source = within(5, service_reads.choose)
        assert db is service_reads.primary and not source.replica
    deadline = time.monotonic() + DEADLINE + 8
    while True:
        service_reads._down_until = 0.0
        if within(5, service_reads.choose)[1].replica:
            break
        assert time.monotonic() < deadline, f"probes still out: {service_reads._probing}"
        time.sleep(0.2)
    assert len(_lines(caplog, "answers again")) == 1


def test_a_claim_visible_on_the_primary_is_on_a_replica_read_as_caught_up(
    reads: tuple[Reads, Relay],
) -> None:
    """(Freshness, beside the hangs.) A claim commits asynchronously (claims.py): visible
    on the primary while its commit record may still be in the WAL buffers, past the
    primary's WAL write position. A read the replica gives as caught up (staleness 0) must
    see it: the replica is measured against the insert position, not the write one."""
    service_reads, _relay = reads
    assert service_reads.replica is not None
    with service_reads.primary.engine.connect() as conn:
        for n in range(2, 40):
            conn.execute(text("SET LOCAL synchronous_commit = off"))
            conn.execute(text("INSERT INTO kept VALUES (:n)"), {"n": n})
            conn.commit()
            seen, source = service_reads.run(
                lambda c, s, n=n: (
                    c.execute(text("SELECT count(*) FROM kept WHERE x = :n"), {"n": n}).scalar(),
                    s,
                )
            )
            if source.replica and source.staleness == 0.0:
                assert seen == 1, f"claim {n} missing from a read given as caught up"
