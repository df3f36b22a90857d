"""THE CHAOS TEST: three reviewer client processes decide from one queue through a proxy
that faults 20% of requests (latency, resets before forwarding, 502/503, replies cut short,
replies dropped after the service committed), each client killed with SIGKILL at random
moments and restarted on its own store, until 3,000 decisions are recorded locally; in the
second form the service process is killed and restarted as well, on the same database
file and port.

Then the faults stop, every client is restarted for a clean drain, and the clients'
journals are compared with the service's decisions and its hash-chained event log: every
decision a client recorded (and did not undo) is on the server exactly once, or is a
visible conflict with the decision that won; none is lost, none doubled, and the server
holds no decision no journal recorded.

``CHAOS_DECISIONS`` (default 3,000) and ``CHAOS_SEED`` change the run; a failure prints
the seed and the fault log to replay it.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import Connection, func, select

from reviewer_app.core.api import ApiClient
from reviewer_app.core.store import JournalEntry, Store
from reviewer_app.protocol import Decision, Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.demo.queues import DEMO_QUEUES
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.eventlog import verify
from reviewer_app.server.storage.tables import queue_hourly, strikes
from tests.support.chaos_proxy import ChaosProxy
from tests.support.client import all_decisions, fast_settings
from tests.support.servers import (
    PASSWORD,
    PG_ENV,
    ServerProcess,
    fresh_pg_database,
    pg_admin_url,
)

ROOT = Path(__file__).resolve().parents[2]
DECISIONS = int(os.environ.get("CHAOS_DECISIONS", "3000"))
UNDO_MARGIN = 10  # decisions made past ``wanted`` before the end (undos may take some back)
SEED = int(os.environ.get("CHAOS_SEED", "20260611"))
CLIENTS = 3
FAULT_RATE = 0.2
#: seconds a client lives between SIGKILLs, and stays down after one
CLIENT_LIFE = (0.5, 7.0)
CLIENT_DOWN = (0.0, 0.4)
#: the same for the service, in the second form
SERVICE_LIFE = (4.0, 12.0)
SERVICE_DOWN = (0.0, 1.0)
#: the lease length clients ask for (the shortest they may), so that leases run out
LEASE_SECONDS = 30
#: once a run, one client's network goes away for longer than a lease, starting this long
#: into the run: its leases run out, the others decide those items, and what it decided
#: meanwhile comes back as conflicts. Left to timing this missed now and then (CI's
#: PostgreSQL form with the service killed, later its SQLite form: no conflict), so the
#: outage waits for its preconditions: it begins when the client holds items to decide
#: offline, and ends (at least ``OUTAGE`` after it began) once another client's verdict on
#: one of the items it decided offline was accepted, or after ``OUTAGE_LIMIT`` in any case
#: (the conflict assertion then fails with the figures).
OUTAGE_START = (5.0, 20.0)
OUTAGE = LEASE_SECONDS + 5.0
OUTAGE_LIMIT = 180.0
#: the items the client must hold (not decided yet) when its network goes
OUTAGE_HELD = 3
#: the whole chaos phase must end within this (else the test fails with the figures so far):
#: a guard against a hang, not a speed target: on a loaded 2-core machine (load 10) the
#: service-killed form reached 791 of 3,000 decisions in 240 s, its restarts slowed down
CHAOS_LIMIT = 420.0


@dataclass
class Figures:
    seed: int
    kill_service: bool
    processes: int = 1
    decisions: int = 0
    client_kills: int = 0
    client_starts: int = 0
    service_kills: int = 0
    faults: Counter[str] = field(default_factory=Counter)
    requests: int = 0
    upstream_failures: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    server_decisions: int = 0
    conflicts: int = 0
    #: the outage: when it began (seconds into the chaos) and how long it lasted
    outage: tuple[float, float] | None = None
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    unexpected: list[str] = field(default_factory=list)
    chaos_seconds: float = 0.0
    drain_seconds: float = 0.0
    wall_seconds: float = 0.0

    def describe(self) -> str:
        faults = ", ".join(f"{k} {v}" for k, v in sorted(self.faults.items()))
        statuses = ", ".join(f"{k} {v}" for k, v in sorted(self.statuses.items()))
        return (
            f"chaos run (seed {self.seed}, {self.processes} API process(es), service killed "
            f"too: {self.kill_service}): "
            f"{self.decisions} decisions recorded by {CLIENTS} clients; journal: {statuses}; "
            f"{self.server_decisions} decisions on the server; "
            f"{self.requests} requests through the proxy, faults: {faults} "
            f"(total {sum(self.faults.values())}); {self.upstream_failures} requests met the "
            f"service down; {self.client_kills} client SIGKILLs ({self.client_starts} starts), "
            f"{self.service_kills} service SIGKILLs; {self.conflicts} conflicts; "
            f"{self._outage()}; "
            f"lost {len(self.lost)}, duplicated {len(self.duplicated)}, "
            f"unexpected {len(self.unexpected)}; "
            f"chaos {self.chaos_seconds:.0f} s, drain {self.drain_seconds:.1f} s, "
            f"wall {self.wall_seconds:.0f} s"
        )

    def _outage(self) -> str:
        if self.outage is None:
            return "no outage"
        began, lasted = self.outage
        return f"outage {lasted:.0f} s from {began:.0f} s"


class Client:
    """One reviewer: a store file and, now and then, a process deciding into it."""

    def __init__(self, index: int, root: Path, url: str, token: str) -> None:
        self.index = index
        self.username = f"chaos-{index}"
        self.dir = root / self.username
        self.dir.mkdir()
        self.store_path = self.dir / "store.sqlite3"
        self.stderr_path = self.dir / "stderr.log"
        self.url = url
        self.token = token
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, mode: str = "decide") -> None:
        env = {**os.environ, "REVIEWER_TEST_TOKEN": self.token, "PYTHONPATH": str(ROOT)}
        with self.stderr_path.open("ab") as err:
            err.write(f"--- start {self.starts} ({mode})\n".encode())
            err.flush()
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.chaos.client_proc",
                    mode,
                    self.url,
                    str(self.store_path),
                    LOAD_QUEUE.id,
                    str(SEED * 10 + self.index * 1000 + self.starts),
                ],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )
        self.starts += 1

    def kill(self) -> None:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(30)
        self.proc = None

    def check_alive(self) -> None:
        """A client that exits by itself crashed: fail with what it said."""
        if self.proc is not None and self.proc.poll() is not None:
            raise AssertionError(
                f"{self.username} exited with {self.proc.returncode}:\n{self.stderr_tail()}"
            )

    def stderr_tail(self) -> str:
        return self.stderr_path.read_text(errors="replace")[-4000:]

    def _read(self, sql: str) -> list[Any]:
        """Rows of the store (read as a bystander, never written); none before it exists."""
        if not self.store_path.exists():
            return []
        conn = sqlite3.connect(f"file:{self.store_path}?mode=ro", uri=True, timeout=10)
        try:
            return conn.execute(sql).fetchall()
        except sqlite3.OperationalError:  # not made yet (no tables)
            return []
        finally:
            conn.close()

    def recorded(self) -> int:
        """Decisions recorded in the store so far."""
        rows = self._read("SELECT COUNT(*) FROM journal WHERE status != 'undone'")
        return int(rows[0][0]) if rows else 0

    def held(self) -> set[str]:
        """The items held here and not decided yet."""
        return {r[0] for r in self._read("SELECT id FROM items WHERE state = 'ready'")}

    def items_with(self, *statuses: str) -> set[str]:
        """The items of the journal's verdicts in one of ``statuses``."""
        wanted = ", ".join(f"'{s}'" for s in statuses)
        return {r[0] for r in self._read(f"SELECT item_id FROM journal WHERE status IN ({wanted})")}


class Outage:
    """One client's network gone for longer than a lease (see ``OUTAGE``)."""

    def __init__(self, proxy: ChaosProxy, client: Client, others: list[Client], at: float):
        self.proxy, self.client, self.others, self.at = proxy, client, others, at
        self.began: float | None = None
        self.lasted = 0.0
        self.over = False
        self._looked = 0.0

    def step(self, now: float) -> None:
        if self.over or now < self.at or now - self._looked < 1.0:
            return
        self._looked = now
        if self.began is None:
            if len(self.client.held()) >= OUTAGE_HELD:
                self.proxy.offline()
                self.began = now
            return
        if now - self.began < OUTAGE:
            return
        if now - self.began >= OUTAGE_LIMIT or self._taken_over():
            self.proxy.online()
            self.over = True
            self.lasted = now - self.began

    def _taken_over(self) -> bool:
        """Another client's verdict was accepted on an item this one decided offline."""
        offline = self.client.items_with("pending")
        return any(offline & other.items_with("accepted", "duplicate") for other in self.others)


def _prepare_service(url: str, items: int) -> None:
    """The queue, the escalation queue, three reviewers and a lead, before the service runs."""
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        seed_load_queue(service, items)
        escalations = next(q for q in DEMO_QUEUES if q.id == "escalations")
        with service.db.write() as conn:
            insert_queues(conn, [escalations])
        service.forget_configs()
        for i in range(CLIENTS):
            service.create_user(
                UserCreate(username=f"chaos-{i}", password=PASSWORD, role=Role.reviewer)
            )
        service.create_user(UserCreate(username="lead", password=PASSWORD, role=Role.lead))
    finally:
        service.close()


def _token(url: str, username: str) -> str:
    with ApiClient(url) as api:
        return api.login(username, PASSWORD).token


def _events(url: str, token: str, kind: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor: str | None = None
    with requests.Session() as http:
        http.headers["Authorization"] = f"Bearer {token}"
        while True:
            params: dict[str, str | int] = {"kind": kind, "limit": 500}
            if cursor:
                params["cursor"] = cursor
            reply = http.get(f"{url}/api/v1/events", params=params, timeout=60)
            reply.raise_for_status()
            page = reply.json()
            found += page["events"]
            cursor = page.get("next_cursor")
            if not cursor:
                return found


@pytest.fixture
def restartable_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # orphan leases (claims whose reply was dropped) must not hit the per-reviewer cap
    monkeypatch.setenv("REVIEWER_SERVER_MAX_LEASED_PER_REVIEWER", "5000")
    yield


def _start_service(server: ServerProcess, root: Path, number: int) -> None:
    server.log = root / f"service-{number}.log"
    server.start()


def check_ledger(
    journals: dict[str, list[JournalEntry]],
    conflicts: dict[str, set[str]],
    decisions: list[Decision],
    event_ids: Counter[int],
    figures: Figures,
) -> None:
    """Compare every journal with the server. Fills lost, duplicated and unexpected."""
    by_id = {d.id: d for d in decisions}
    per_item = Counter(d.item_id for d in decisions)
    figures.duplicated += [
        f"item {item} decided {n} times on the server" for item, n in per_item.items() if n > 1
    ]
    figures.duplicated += [
        f"decision {i} has {n} events" for i, n in event_ids.items() if n > 1 and i in by_id
    ]
    figures.unexpected += [f"event of unknown decision {i}" for i in event_ids if i not in by_id]
    figures.lost += [f"decision {i} has no event" for i in by_id if i not in event_ids]

    claimed: Counter[int] = Counter()
    for username, entries in journals.items():
        for entry in entries:
            figures.statuses[entry.status] += 1
            what = f"{username} {entry.key} ({entry.item_id}, {entry.action}, {entry.status})"
            if entry.status == "undone":
                continue
            if entry.status == "conflict":
                figures.conflicts += 1
                winner = entry.result.decision if entry.result else None
                if entry.key not in conflicts[username]:
                    figures.lost.append(f"{what}: a conflict not shown to the reviewer")
                elif winner is None or winner.id not in by_id:
                    figures.lost.append(f"{what}: the winning decision is not on the server")
                elif winner.reviewer == username:
                    figures.duplicated.append(f"{what}: in conflict with itself")
                continue
            if entry.status not in ("accepted", "duplicate"):
                figures.lost.append(f"{what}: never delivered")
                continue
            decision = entry.result.decision if entry.result else None
            on_server = by_id.get(decision.id) if decision else None
            if on_server is None:
                figures.lost.append(f"{what}: not on the server")
                continue
            claimed[on_server.id] += 1
            expected = (entry.item_id, username, entry.action, list(entry.verdict.policies))
            got = (on_server.item_id, on_server.reviewer, on_server.action, on_server.policies)
            if got != expected:
                figures.lost.append(f"{what}: the server holds {got}")
            moved = on_server.client_decided_at - entry.verdict.decided_at
            if abs(moved.total_seconds()) > 0.001:
                figures.lost.append(f"{what}: the server's decision is another verdict's")
    figures.duplicated += [
        f"decision {i} claimed by {n} journal entries" for i, n in claimed.items() if n > 1
    ]
    figures.unexpected += [
        f"decision {d.id} ({d.item_id} by {d.reviewer}, {d.action}) is in no journal"
        for d in decisions
        if d.id not in claimed
    ]


def check_effects(conn: Connection, decisions: list[Decision], figures: Figures) -> None:
    """What a decision does beyond its row happened once per decision: the author's strike
    (one per policy of a removal) and the queue's hourly count."""
    struck = Counter(
        int(i) for i in conn.execute(select(strikes.c.decision_id)).scalars() if i is not None
    )
    for d in decisions:
        want = len(d.policies) if d.action == "remove" else 0
        if struck[d.id] != want:
            figures.duplicated.append(f"decision {d.id} struck its author {struck[d.id]} times")
    counted = conn.execute(select(func.coalesce(func.sum(queue_hourly.c.n), 0))).scalar_one()
    if counted != len(decisions):
        figures.duplicated.append(f"the hourly rollups count {counted} decisions")


@contextmanager
def _service_database(kind: str, tmp_path: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'service.db'}"
        return
    if not pg_admin_url():
        pytest.skip(f"the PostgreSQL form needs PostgreSQL's server programs or {PG_ENV}")
    with fresh_pg_database() as url:
        yield url


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    ("database", "processes", "kill_service"),
    [
        ("sqlite", 1, False),
        ("sqlite", 1, True),
        ("postgresql", 2, False),
        ("postgresql", 2, True),
        # more processes (the faults' retries and doubles land on any of four); the
        # service-killed form of these is left out for CI's time
        ("sqlite", 4, False),
        ("postgresql", 4, False),
    ],
    ids=[
        "clients-killed-sqlite-1-process",
        "service-killed-sqlite-1-process",
        "clients-killed-postgresql-2-processes",
        "service-killed-postgresql-2-processes",
        "clients-killed-sqlite-4-processes",
        "clients-killed-postgresql-4-processes",
    ],
)
def test_chaos_loses_doubles_and_invents_no_decision(
    tmp_path: Path,
    database: str,
    processes: int,
    kill_service: bool,
    restartable_env: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The SQLite form with one API process; the PostgreSQL form with two processes behind
    one port, so that retries, doubled requests and a client's restart land on either
    process, and a service kill takes down both (their process group) at once; and each
    database with four processes."""
    # the PostgreSQL form decides half as many: the same faults and kills in less CI time
    wanted = DECISIONS if database == "sqlite" else DECISIONS // 2
    with _service_database(database, tmp_path) as db_url:
        _run_chaos(tmp_path, db_url, processes, kill_service, wanted, capsys)


def _run_chaos(
    tmp_path: Path,
    db_url: str,
    processes: int,
    kill_service: bool,
    wanted: int,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Long because it is one scenario told in order: chaos, a clean drain, the ledger."""
    began = time.monotonic()
    seed = SEED + (1 if kill_service else 0)
    figures = Figures(seed, kill_service, processes)
    rng = random.Random(seed)
    _prepare_service(db_url, wanted * 2 + 500)
    server = ServerProcess(db_url, workers=processes)
    service_starts = 0
    _start_service(server, tmp_path, service_starts)
    # a proxy per client (each with its own seed), so that one client's network can go
    # away while the others work on
    proxies = [
        ChaosProxy(
            server.port,
            seed=seed * 10 + i,
            p=FAULT_RATE,
            log_path=tmp_path / f"faults-{i}.jsonl",
        ).start()
        for i in range(CLIENTS)
    ]
    clients = [
        Client(i, tmp_path, proxies[i].url, _token(server.url, f"chaos-{i}"))
        for i in range(CLIENTS)
    ]
    for client in clients:
        fast_settings(
            client.store_path,
            undo_window_seconds=0.2,
            backoff_cap_seconds=1.0,
            prefetch_target=20,
            verdict_batch_size=10,
            lease_seconds=LEASE_SECONDS,
        )

    def replay_hint() -> str:
        return (
            f"\n{figures.describe()}\nreplay with CHAOS_SEED={SEED}; the fault logs "
            f"(faults-N.jsonl) and client logs are under {tmp_path}"
        )

    try:
        # --- chaos: faults, client kills (and service kills) until enough decisions ----
        chaos_began = time.monotonic()
        next_kill: dict[int, float] = {}
        for client in clients:
            client.start()
            next_kill[client.index] = time.monotonic() + rng.uniform(*CLIENT_LIFE)
        next_service_kill = time.monotonic() + rng.uniform(*SERVICE_LIFE)
        offline = clients[rng.randrange(CLIENTS)]
        outage = Outage(
            proxies[offline.index],
            offline,
            [c for c in clients if c is not offline],
            time.monotonic() + rng.uniform(*OUTAGE_START),
        )
        # the chaos goes on until enough decisions AND the outage has run its course: on a
        # quiet machine the PostgreSQL form reached its decisions before the offline
        # client's leases ran out, and its verdicts then went through without a conflict
        # (a few more than wanted: a client may undo a verdict between this count and its
        # kill below, and the count after the kills was once 2,999 of 3,000)
        enough = wanted + UNDO_MARGIN
        while (recorded := sum(c.recorded() for c in clients)) < enough or not outage.over:
            figures.decisions = recorded
            now = time.monotonic()
            assert now - chaos_began < CHAOS_LIMIT, "too slow" + replay_hint()
            for client in clients:
                client.check_alive()
                if now >= next_kill[client.index]:
                    client.kill()
                    figures.client_kills += 1
                    time.sleep(rng.uniform(*CLIENT_DOWN))
                    client.start()
                    next_kill[client.index] = time.monotonic() + rng.uniform(*CLIENT_LIFE)
            outage.step(now)
            if kill_service and now >= next_service_kill:
                server.kill()
                figures.service_kills += 1
                time.sleep(rng.uniform(*SERVICE_DOWN))
                service_starts += 1
                _start_service(server, tmp_path, service_starts)
                next_service_kill = time.monotonic() + rng.uniform(*SERVICE_LIFE)
            time.sleep(0.1)
        # the end of the shift comes as abruptly as the rest of it
        for client in clients:
            client.kill()
            figures.client_kills += 1
        figures.decisions = sum(c.recorded() for c in clients)
        figures.chaos_seconds = time.monotonic() - chaos_began
        assert outage.began is not None
        figures.outage = (outage.began - chaos_began, outage.lasted)

        # --- a clean drain, with the faults off ------------------------------------------
        for proxy in proxies:
            proxy.p = 0.0
            proxy.online()
        drain_began = time.monotonic()
        for client in clients:
            client.start("drain")
        for client in clients:
            assert client.proc is not None
            try:
                code = client.proc.wait(180)
            except subprocess.TimeoutExpired:
                client.kill()
                code = -1
            assert code == 0, f"{client.username} did not drain:\n{client.stderr_tail()}"
        figures.drain_seconds = time.monotonic() - drain_began
        figures.client_starts = sum(c.starts for c in clients)
        for proxy in proxies:
            figures.faults += proxy.counts()
            figures.requests += proxy.requests_seen
            figures.upstream_failures += proxy.upstream_failures

        # --- the ledger -----------------------------------------------------------------
        journals: dict[str, list[JournalEntry]] = {}
        conflicts: dict[str, set[str]] = defaultdict(set)
        for client in clients:
            with Store(client.store_path) as store:
                counts = store.counts()
                assert counts.pending == 0 and counts.in_flight == 0, (
                    f"{client.username}: {counts}" + replay_hint()
                )
                journals[client.username] = store.journal(limit=10 * wanted)
                conflicts[client.username] = {c.key for c in store.conflicts(open_only=False)}
        lead_token = _token(server.url, "lead")
        with ApiClient(server.url, token=lead_token) as lead:
            decisions = all_decisions(lead)
        events = _events(server.url, lead_token, "decided") + _events(
            server.url, lead_token, "escalated"
        )
        event_ids = Counter(int(e["data"]["decision_id"]) for e in events)
        figures.server_decisions = len(decisions)
        check_ledger(journals, conflicts, decisions, event_ids, figures)
        service = Service(ServerSettings(database_url=db_url))
        try:
            service.roll_now()  # the rollups are counted from the sealed log, afterwards
            with service.db.read() as conn:
                chain = verify(conn)
                check_effects(conn, decisions, figures)
        finally:
            service.close()
        figures.wall_seconds = time.monotonic() - began
        with capsys.disabled():
            print("\n" + figures.describe(), flush=True)

        assert figures.decisions >= wanted
        assert figures.client_kills >= 10, "the clients were hardly killed" + replay_hint()
        assert figures.faults["drop_after_commit"] >= 10, "too few faults" + replay_hint()
        assert figures.statuses["duplicate"] >= 1, "no retry met a committed verdict"
        assert figures.conflicts >= 1, "the outage left no conflict" + replay_hint()
        if kill_service:
            assert figures.service_kills >= 3, "the service was hardly killed" + replay_hint()
        assert chain.intact, chain.describe()
        problems = figures.lost + figures.duplicated + figures.unexpected
        assert not problems, "\n".join(problems[:30]) + replay_hint()
        assert figures.statuses["rejected"] == 0, "verdicts were rejected" + replay_hint()
    finally:
        for client in clients:
            if client.proc is not None:
                client.kill()
        for proxy in proxies:
            proxy.stop()
        server.stop()
