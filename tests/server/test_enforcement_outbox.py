"""The outbox trap, on PostgreSQL with two API processes: actions whose transactions commit
out of id order are never skipped by a reader that has passed them.

An action's id is taken when its row is inserted; it becomes visible when its transaction
commits. A decision whose transaction took id 7 and commits after id 8 was committed and
read would be lost for ever by a reader paging ``id > cursor``. The feed pages by ``seq``,
which the sequencer gives committed actions only, after the ones it sealed before: the late
action gets a seq after the cursor and the reader gets it on its next page.

The first test builds that case by hand: a verdict's transaction held open (its action
inserted, id taken), a later verdict committed through the other process and read, then the
first committed. A naive ``id > cursor`` reader (written out here) misses it; the feed
delivers it. The second runs writers in both processes and in held transactions at once
while a long-polling reader tails the feed through both processes, and checks that the
reader got every action, once, in seq order.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, select

from reviewer_app.protocol import QueueFile, Role, UserCreate, Verdict
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.domain.verdicts import VerdictRecorder
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import enforcement_actions
from tests.support.api import ApiSession, claim, verdict
from tests.support.enforcement import queue_file, queue_posts, read_feed
from tests.support.intake import MISINFO
from tests.support.servers import PASSWORD, ServerProcess

PLATFORM = "feed-bridge"


@pytest.fixture
def world(pg_url: str, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """Two service processes on one PostgreSQL database, a platform key, a reviewer."""
    setup = Service(ServerSettings(database_url=pg_url, password_hash_profile="fast"))
    setup.start()
    setup.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
    # one reviewer per writer: verdicts of one reviewer (or one action) share rollup rows,
    # which would make the writers wait for each other instead of committing out of order
    for name in ("rita", "otto", "una"):
        setup.create_user(UserCreate(username=name, password=PASSWORD, role=Role.reviewer))
    key = setup.create_api_key(Role.platform, PLATFORM).key
    (tmp_path / "logs").mkdir()
    servers = [ServerProcess(pg_url, log=tmp_path / "logs" / f"server-{i}.log") for i in range(2)]
    try:
        for server in servers:
            server.start()
        rita = ApiSession.login(servers[1].url, "rita", PASSWORD)
        principal = setup.authenticate(rita.token or "")
        assert principal is not None
        yield {
            "setup": setup,
            "servers": servers,
            "key": key,
            "rita": rita,  # her verdicts are held open
            "user": principal,
            "otto": ApiSession.login(servers[0].url, "otto", PASSWORD),
            "una": ApiSession.login(servers[1].url, "una", PASSWORD),
        }
    finally:
        for server in servers:
            server.stop()
        setup.close()


def held_verdict(
    service: Service, user: Principal, leased: dict[str, Any], action: str, **fields: Any
) -> tuple[Connection, Any, dict[str, Any]]:
    """A verdict recorded by the service's own code in a transaction left open: its
    decision and action are inserted (their ids taken), not committed."""
    conn = service.db.engine.connect()
    transaction = conn.begin()
    recorder = VerdictRecorder(
        conn,
        user,
        service.configs(),
        time.time(),
        postgres=True,
        config_version=service.config_version(),
        configs_at=service.configs_at,
    )
    [result] = recorder.record([Verdict.model_validate(verdict(leased, action, **fields))])
    assert result.status.value == "accepted", result
    return conn, transaction, result.model_dump(mode="json")


def naive_reader(service: Service, after_id: int) -> list[int]:
    """What the outbox trap reads: the platform's actions with an id above the last seen."""
    a = enforcement_actions.c
    with service.db.read() as conn:
        return list(
            conn.execute(
                select(a.id).where(a.source == PLATFORM, a.id > after_id).order_by(a.id)
            ).scalars()
        )


def test_an_action_that_commits_late_is_delivered_after_the_cursor(
    world: dict[str, Any],
) -> None:
    setup: Service = world["setup"]
    first, second = world["servers"]
    key, otto = world["key"], world["otto"]
    queue_posts(ApiSession(first.url, key), ["p-slow"])
    [slow_lease] = claim(world["rita"], MISINFO, 1)
    queue_posts(ApiSession(first.url, key), ["p-fast"])
    [fast_lease] = claim(otto, MISINFO, 1)

    # p-slow's verdict: its transaction takes the lower action id and stays open
    conn, transaction, slow = held_verdict(setup, world["user"], slow_lease, "keep")
    try:
        slow_id = action_id_of_open(conn, slow["decision"]["id"])
        # p-fast's verdict, through the other process: a higher id, committed, sealed, read
        [fast] = otto.decide([verdict(fast_lease, "remove", policies=["MISINFO.CIVIC"])])
        page = read_feed(first.url, key, 0, wait=20)
        [seen] = page["actions"]
        assert seen["decision_id"] == fast["decision"]["id"]
        assert seen["id"] > slow_id, "the ids are out of commit order"
        cursor = page["next_cursor"]
        assert naive_reader(setup, seen["id"]) == []
    finally:
        transaction.commit()  # p-slow's decision commits now, after p-fast was read
        conn.close()

    # the naive reader has passed p-slow's id for ever: it never gets the action
    assert naive_reader(setup, seen["id"]) == []
    # the feed gives it a place after the cursor, through either process
    for server in (first, second):
        [late] = read_feed(server.url, key, cursor, wait=20)["actions"]
        assert (late["id"], late["decision_id"]) == (slow_id, slow["decision"]["id"])
        assert late["seq"] > cursor
    assert read_feed(second.url, key, late["seq"])["actions"] == []


def action_id_of_open(conn: Connection, decision_id: int) -> int:
    a = enforcement_actions.c
    return int(conn.execute(select(a.id).where(a.decision_id == decision_id)).scalar_one())


def test_a_tailing_reader_gets_every_action_once_in_order(world: dict[str, Any]) -> None:
    setup: Service = world["setup"]
    servers: list[ServerProcess] = world["servers"]
    key, user = world["key"], world["user"]
    names = [f"p-{i:03}" for i in range(90)]
    queue_posts(ApiSession(servers[0].url, key), names)
    # a third of the verdicts in held transactions, the rest through the two processes
    work = [claim(world[name], MISINFO, len(names) // 3) for name in ("otto", "una", "rita")]
    failures: list[BaseException] = []
    writers_done = threading.Event()

    def through(server_index: int, session: ApiSession, chunk: list[dict[str, Any]]) -> None:
        session = ApiSession(servers[server_index].url, session.token)
        action = {0: ("remove", ["MISINFO.CIVIC"]), 1: ("reduce", [])}[server_index]
        for x in chunk:
            [r] = session.decide([verdict(x, action[0], policies=action[1])])
            assert r["status"] == "accepted", r

    def held(chunk: list[dict[str, Any]]) -> None:
        rng = random.Random(7)
        for x in chunk:
            conn, transaction, _ = held_verdict(setup, user, x, "keep")
            time.sleep(rng.uniform(0.05, 0.3))  # others commit and are read meanwhile
            transaction.commit()
            conn.close()

    def guarded(target: Any, *args: Any) -> None:
        try:
            target(*args)
        except BaseException as exc:
            failures.append(exc)

    delivered: list[dict[str, Any]] = []

    def reader() -> None:
        cursor, turn = 0, 0
        while True:
            page = read_feed(servers[turn % 2].url, key, cursor, limit=7, wait=2)
            turn += 1
            seqs = [a["seq"] for a in page["actions"]]
            assert seqs == sorted(seqs) and all(s > cursor for s in seqs), (cursor, seqs)
            delivered.extend(page["actions"])
            cursor = page["next_cursor"]
            if writers_done.is_set() and len(delivered) >= len(names):
                return

    threads = [
        threading.Thread(target=guarded, args=(through, 0, world["otto"], work[0])),
        threading.Thread(target=guarded, args=(through, 1, world["una"], work[1])),
        threading.Thread(target=guarded, args=(held, work[2])),
    ]
    tail = threading.Thread(target=guarded, args=(reader,))
    tail.start()
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    writers_done.set()
    tail.join(120)
    assert not failures, failures
    assert not tail.is_alive(), f"the reader got {len(delivered)} of {len(names)} actions"

    a = enforcement_actions.c
    with setup.db.read() as conn:
        stored = conn.execute(select(a.id, a.seq).where(a.source == PLATFORM).order_by(a.seq)).all()
    assert [d["id"] for d in delivered] == [r.id for r in stored], "every action, once, by seq"
    assert len(stored) == len(names)
    ids_in_seq_order = [r.id for r in stored]
    assert ids_in_seq_order != sorted(ids_in_seq_order), (
        "no action committed out of id order: the test did not build the trap"
    )
