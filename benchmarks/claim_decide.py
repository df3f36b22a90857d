"""Claim-and-decide throughput of the reference service under many concurrent reviewers.

Prepares a fresh database (reviewer users and a synthetic ``load-test`` queue), starts
``reviewer-app server`` as its own process(es) on 127.0.0.1, then runs simulated
reviewers, each logged in as its own user on its own connection, looping
"claim N items, decide them all with one verdict batch". Prints the figures; it asserts
nothing (figures of speed live in benchmarks, not in timed tests).

    python benchmarks/claim_decide.py                       # SQLite in a temp dir
    python benchmarks/claim_decide.py --database-url postgresql://u:pw@127.0.0.1/db --workers 2
    python benchmarks/claim_decide.py --py-spy /tmp/server.folded   # profile the server too
    python benchmarks/claim_decide.py --database-url postgresql://... --sample-locks --bare
    python benchmarks/claim_decide.py --database-url postgresql://... --warmup 10

``--sample-locks`` (PostgreSQL) samples ``pg_stat_activity`` of the run's database every
100 ms and prints what the busy sessions were waiting on (the share waiting on a lock, by
wait event and relation); ``--bare`` runs ``bare_db.py``'s bare loop on the same kind of
database in the same sitting and prints the service's figure as a fraction of it;
``--markdown`` records the run on benchmarks/README.md.

With a PostgreSQL URL the URL is only used to create a throwaway database beside it
(dropped afterwards unless ``--keep-db``). Needs ``aiohttp``; ``--py-spy`` needs ``py-spy``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiohttp
from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    markdown_table,
    percentile,
    record_result,
    stored_results,
    write_page_section,
)
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from reviewer_app.protocol import UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.tables import decisions

API = "/api/v1"
PASSWORD = "bench-password-not-secret"
LEASE_SECONDS = 600


# -- the database ---------------------------------------------------------------------


def backend_name(url: str) -> str:
    return "postgresql" if make_url(url).get_backend_name() == "postgresql" else "sqlite"


@dataclass
class Preparation:
    usernames: list[str]
    users_seconds: float
    seed_seconds: float


def prepare(url: str, items: int, reviewers: int, *, analyze: bool = False) -> Preparation:
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        started = time.perf_counter()
        names = [f"bench-reviewer-{i:04d}" for i in range(reviewers)]
        for name in names:
            service.create_user(UserCreate(username=name, password=PASSWORD))
        users_seconds = time.perf_counter() - started
        started = time.perf_counter()
        seed_load_queue(service, items)
        # seal the seeded items' 'enqueued' entries into the event log now, not during the run
        service.seal_now()
        seed_seconds = time.perf_counter() - started
        if analyze:  # planner statistics, which the service itself does not gather
            with service.db.write() as conn:
                conn.exec_driver_sql("ANALYZE")
    finally:
        service.close()
    return Preparation(names, users_seconds, seed_seconds)


def check_database(url: str) -> dict[str, Any]:
    """After the run: items by state, decisions, and items decided more than once."""
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    try:
        states = service.count_items()
        with service.db.read() as conn:
            total = conn.execute(select(func.count()).select_from(decisions)).scalar_one()
            twice = conn.execute(
                select(func.count()).select_from(
                    select(decisions.c.item_id)
                    .group_by(decisions.c.item_id, decisions.c.epoch)
                    .having(func.count() > 1)
                    .subquery()
                )
            ).scalar_one()
    finally:
        service.close()
    return {"states": states, "decisions": total, "decided_twice": twice}


# -- the server process(es) -----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``python -m reviewer_app server`` on 127.0.0.1 (one process, or a supervisor and
    its workers), in its own process group."""

    def __init__(self, url: str, workers: int, log: Path) -> None:
        self.url = url
        self.workers = workers
        self.log = log
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {**os.environ, "REVIEWER_SERVER_PASSWORD_HASH_PROFILE": "fast"}
        command = [
            sys.executable,
            "-m",
            "reviewer_app",
            "server",
            "--database-url",
            self.url,
            "--port",
            str(self.port),
            "--workers",
            str(self.workers),
            "--log-level",
            "warning",
        ]
        with open(self.log, "wb") as out:
            self.proc = subprocess.Popen(
                command, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(self.base + API + "/meta", timeout=1) as response:
                    if response.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError(f"server did not answer in 90 s:\n{self.log_tail()}")
        if self.workers > 1:  # /meta answered by one worker; give the others a moment
            time.sleep(1.0)

    def log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def pids(self) -> list[int]:
        """The server process and all its descendants (uvicorn workers)."""
        if self.proc is None:
            return []
        children: dict[int, list[int]] = defaultdict(list)
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    stat = (entry / "stat").read_text()
                    ppid = int(stat.rsplit(")", 1)[1].split()[1])
                    children[ppid].append(int(entry.name))
        found, todo = [], [self.proc.pid]
        while todo:
            pid = todo.pop()
            found.append(pid)
            todo += children.get(pid, [])
        return found

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()  # uvicorn's supervisor stops its workers on SIGTERM
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)


# -- what the busy sessions wait on (PostgreSQL) ------------------------------------------

_SAMPLE = """
SELECT a.wait_event_type, a.wait_event,
  CASE WHEN a.wait_event_type = 'Lock' THEN COALESCE(
    (SELECT l.relation::regclass::text FROM pg_locks l
      WHERE l.pid = a.pid AND NOT l.granted AND l.relation IS NOT NULL LIMIT 1),
    (SELECT l.relation::regclass::text FROM pg_locks l
      WHERE l.pid = a.pid AND l.granted AND l.locktype = 'tuple' LIMIT 1),
    (SELECT l.locktype FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted LIMIT 1))
  END AS relation,
  CASE WHEN a.wait_event_type = 'Lock'
    THEN left(regexp_replace(a.query, '\\s+', ' ', 'g'), 70) END AS query
FROM pg_stat_activity a
WHERE a.datname = current_database() AND a.state = 'active'
  AND a.backend_type = 'client backend' AND a.pid <> pg_backend_pid()
"""


class LockSampler:
    """Samples ``pg_stat_activity`` of the run's database every ``every`` seconds on a
    thread: per busy session (state active), what it waits on (nothing: on CPU)."""

    def __init__(self, url: str, every: float = 0.1) -> None:
        import psycopg

        parsed = make_url(url)
        self.conn = psycopg.connect(
            host=parsed.host or "127.0.0.1",
            port=parsed.port or 5432,
            user=parsed.username,
            password=parsed.password,
            dbname=parsed.database,
            autocommit=True,
        )
        self.every = every
        self.samples = 0
        self.busy = 0
        self.waits: Counter[tuple[str, str]] = Counter()
        self.locks: Counter[tuple[str, str]] = Counter()
        self.queries: Counter[str] = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="lock-sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self.conn.close()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            rows = self.conn.execute(_SAMPLE).fetchall()
            self.samples += 1
            for wait_type, wait_event, relation, query in rows:
                self.busy += 1
                self.waits[(wait_type or "CPU", wait_event or "-")] += 1
                if wait_type == "Lock":
                    self.locks[(wait_event, relation or "?")] += 1
                    self.queries[query or "?"] += 1

    def lock_share(self) -> float:
        """Busy-session samples waiting on a lock (wait_event_type Lock), in %."""
        return 100 * sum(self.locks.values()) / self.busy if self.busy else 0.0

    def summary(self, top: int = 8) -> str:
        if not self.busy:
            return "lock sampling: no busy sessions seen"

        def pct(n: int) -> str:
            return f"{100 * n / self.busy:5.1f}%"

        lines = [
            f"pg_stat_activity every {self.every * 1000:.0f} ms: {self.samples} samples, "
            f"{self.busy} busy-session samples ({self.busy / max(1, self.samples):.1f} busy "
            f"sessions on average); waiting on a lock: {self.lock_share():.1f}% "
            "(target < 5%)",
            "  by wait_event_type / wait_event:",
        ]
        lines += [f"    {pct(n)}  {t} / {e}" for (t, e), n in self.waits.most_common(top)]
        if self.locks:
            lines.append("  lock waits by wait_event / relation:")
            lines += [f"    {pct(n)}  {e} / {r}" for (e, r), n in self.locks.most_common(top)]
            lines.append("  lock waits by statement:")
            lines += [f"    {pct(n)}  {q}" for q, n in self.queries.most_common(top)]
        return "\n".join(lines)


# -- the simulated reviewers ------------------------------------------------------------


@dataclass
class Figures:
    claim_ms: list[float] = field(default_factory=list)
    # each reviewer's first claim: with no think time all reviewers send it at once
    first_claim_ms: list[float] = field(default_factory=list)
    verdict_ms: list[float] = field(default_factory=list)
    claims: int = 0
    claimed: int = 0
    empty_claims: int = 0
    # item id -> (reviewer, lease token) of its first claim in this run
    first_claim: dict[str, tuple[str, str]] = field(default_factory=dict)
    tokens: set[str] = field(default_factory=set)
    double_leases: int = 0
    double_leases_other_reviewer: int = 0
    reused_tokens: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    mismatched_results: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    finished_at: float = 0.0

    def record_claim(self, reviewer: str, leased: list[dict[str, Any]]) -> None:
        self.claims += 1
        self.claimed += len(leased)
        for entry in leased:
            item_id, token = entry["item"]["id"], entry["lease_token"]
            before = self.first_claim.get(item_id)
            if before is None:
                self.first_claim[item_id] = (reviewer, token)
            else:
                # 600 s leases, every item decided before the next claim, no releases:
                # an item claimed twice in one run was leased while still leased.
                self.double_leases += 1
                if before[0] != reviewer:
                    self.double_leases_other_reviewer += 1
            if token in self.tokens:
                self.reused_tokens += 1
            self.tokens.add(token)


def verdict_body(entry: dict[str, Any], think_ms: float) -> dict[str, Any]:
    return {
        "idempotency_key": str(uuid.uuid4()),
        "item_id": entry["item"]["id"],
        "lease_token": entry["lease_token"],
        "action": "keep",
        "policies": [],
        "time_spent_ms": int(think_ms) if think_ms else 1_500,
        "decided_at": datetime.now(UTC).isoformat(),
    }


async def login(base: str, username: str, limit: asyncio.Semaphore) -> str:
    async with (
        limit,
        aiohttp.ClientSession() as http,
        http.post(
            f"{base}{API}/sessions", json={"username": username, "password": PASSWORD}
        ) as response,
    ):
        if response.status != 201:
            raise RuntimeError(f"login of {username} failed: {response.status}")
        return str((await response.json())["token"])


def error_name(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "timeout"
    return type(exc).__name__


async def reviewer_loop(
    base: str,
    username: str,
    token: str,
    args: argparse.Namespace,
    figures: Figures,
    deadline: float,
    queue_empty: asyncio.Event,
) -> None:
    claim_url = f"{base}{API}/queues/{LOAD_QUEUE.id}/leases"
    verdict_url = f"{base}{API}/verdicts"
    claim_body = json.dumps({"count": args.claim, "lease_seconds": LEASE_SECONDS})
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    connector = aiohttp.TCPConnector(limit=1)  # one connection per reviewer, kept alive
    timeout = aiohttp.ClientTimeout(total=args.timeout)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as http:
        if args.think_ms or args.ramp:  # reviewers do not all start on the same millisecond
            await asyncio.sleep(random.uniform(0, args.ramp or args.think_ms * args.claim / 1000))
        first = True
        while time.perf_counter() < deadline and not queue_empty.is_set():
            started = time.perf_counter()
            try:
                async with http.post(claim_url, data=claim_body, headers=headers) as response:
                    raw = await response.read()
                    status = response.status
            except (TimeoutError, aiohttp.ClientError) as exc:
                figures.errors[f"claim {error_name(exc)}"] += 1
                await asyncio.sleep(0.1)
                continue
            (figures.first_claim_ms if first else figures.claim_ms).append(
                (time.perf_counter() - started) * 1000
            )
            first = False
            if status != 200:
                figures.errors[f"claim HTTP {status}"] += 1
                await asyncio.sleep(0.1)
                continue
            leased = json.loads(raw)["items"]
            if not leased:
                figures.empty_claims += 1
                queue_empty.set()
                break
            figures.record_claim(username, leased)
            if args.think_ms:  # 50-150 % of the mean per item
                await asyncio.sleep(args.think_ms * len(leased) * random.uniform(0.5, 1.5) / 1000)
            batch = [verdict_body(entry, args.think_ms) for entry in leased]
            started = time.perf_counter()
            try:
                async with http.post(
                    verdict_url, data=json.dumps({"verdicts": batch}), headers=headers
                ) as response:
                    raw = await response.read()
                    status = response.status
            except (TimeoutError, aiohttp.ClientError) as exc:
                figures.errors[f"verdicts {error_name(exc)}"] += 1
                continue
            figures.verdict_ms.append((time.perf_counter() - started) * 1000)
            if status != 200:
                figures.errors[f"verdicts HTTP {status}"] += 1
                continue
            results = json.loads(raw)["results"]
            for sent, result in zip(batch, results, strict=False):
                figures.statuses[result["status"]] += 1
                if result["item_id"] != sent["item_id"]:
                    figures.mismatched_results += 1
            if len(results) != len(batch):
                figures.mismatched_results += abs(len(results) - len(batch))
    figures.finished_at = max(figures.finished_at, time.perf_counter())


async def run_reviewers(
    server: ServerProcess, usernames: list[str], args: argparse.Namespace
) -> tuple[Figures, float, dict[str, float]]:
    """Log everyone in, then run all reviewers at once. Returns the figures, the wall
    seconds of the run and the CPU seconds used in it (see ``cpu_snapshot``)."""
    base = server.base
    limit = asyncio.Semaphore(32)
    tokens = await asyncio.gather(*(login(base, name, limit) for name in usernames))
    figures = Figures()
    queue_empty = asyncio.Event()
    cpu_before = cpu_snapshot(server)
    started = time.perf_counter()
    deadline = started + args.duration
    await asyncio.gather(
        *(
            reviewer_loop(base, name, token, args, figures, deadline, queue_empty)
            for name, token in zip(usernames, tokens, strict=True)
        )
    )
    wall = (figures.finished_at or time.perf_counter()) - started
    cpu_after = cpu_snapshot(server)
    return figures, wall, {k: cpu_after[k] - cpu_before[k] for k in cpu_after}


def analyze(url: str) -> None:
    """Refresh the planner's statistics of the database at ``url``."""
    db = Database(url)
    try:
        db.analyze()
    finally:
        db.dispose()


def warm_up(server: ServerProcess, url: str, usernames: list[str], args: argparse.Namespace) -> int:
    """The same reviewers for ``--warmup`` seconds, not measured, then ANALYZE: the tables a
    run fills (decisions, leases, verdict keys, enforcement actions) start empty, and the
    plans a process prepares while they are small (a scan of the whole table is then the
    cheapest) stay in use until autovacuum analyzes the table, which in a deployment in use
    happens within its first minute. Without it, the claims of a 20 s run on PostgreSQL
    were seen (auto_explain) reading the whole decisions table once per author."""
    print(f"warming up for {args.warmup:g} s, then ANALYZE ...", flush=True)
    warm = argparse.Namespace(**{**vars(args), "duration": args.warmup})
    figures, _wall, _cpu = asyncio.run(run_reviewers(server, usernames, warm))
    analyze(url)
    accepted = figures.statuses["accepted"]
    print(f"  warm-up: {accepted} verdicts accepted", flush=True)
    if figures.empty_claims:
        print("  the warm-up emptied the queue: seed more items (--items)", file=sys.stderr)
    return accepted


def _ticks(pid: int | str) -> int:
    """CPU ticks of a process and of its children that ended and were waited for (so
    PostgreSQL backends that came and went during the run are counted, by the postmaster)."""
    with contextlib.suppress(OSError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return sum(int(v) for v in fields[11:15])
    return 0


def cpu_snapshot(server: ServerProcess) -> dict[str, float]:
    """CPU seconds used so far: by this client, the server processes, PostgreSQL's
    processes (all of them, whoever's), and the whole machine (busy and total)."""
    hz = os.sysconf("SC_CLK_TCK")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    postgres = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == "postgres":
                    postgres += _ticks(entry.name)
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]  # idle + iowait
    return {
        "client": usage.ru_utime + usage.ru_stime,
        "server": sum(_ticks(pid) for pid in server.pids()) / hz,
        "postgres": postgres / hz,
        "machine_busy": (sum(values) - idle) / hz,
        "machine_total": sum(values) / hz,
    }


# -- py-spy ---------------------------------------------------------------------------------


def start_py_spy(pid: int, output: Path, extra: str) -> subprocess.Popen[bytes]:
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    command = [
        exe,
        "record",
        "--pid",
        str(pid),
        "--subprocesses",
        "--nonblocking",
        "--nolineno",
        "--rate",
        "100",
        "--format",
        "raw",
        "--output",
        str(output),
        *shlex.split(extra),
    ]
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(0.5)
    if proc.poll() is not None:
        stderr = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
        raise RuntimeError(f"py-spy did not start: {stderr}")
    return proc


def stop_py_spy(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)  # py-spy writes its output on Ctrl-C
    try:
        proc.wait(60)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


def summarise_profile(folded: Path, top: int, *, gil: bool = False) -> str:
    """Self and inclusive time per function from py-spy's folded stacks."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    area: Counter[str] = Counter()
    total = 0
    for line in folded.read_text(errors="replace").splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [f for f in stack.split(";") if f and not f.startswith(("process ", "thread "))]
        if not frames:
            continue
        total += count
        own[frames[-1]] += count
        for frame in set(frames):
            inclusive[frame] += count
        area[_area(frames[-1])] += count
    if not total:
        return "py-spy recorded no samples"

    def pct(n: int) -> str:
        return f"{100 * n / total:5.1f}%"

    sampled = "the thread holding the GIL" if gil else "busy server threads (idle waits left out)"
    lines = [f"py-spy: {total} samples of {sampled}"]
    lines.append(f"\ntop {top} functions by own time (the frame that was running):")
    lines += [f"  {pct(n)}  {frame}" for frame, n in own.most_common(top)]
    lines.append("\nown time by area (module or package of the running frame):")
    lines += [f"  {pct(n)}  {name}" for name, n in area.most_common(top)]
    ours = [(f, n) for f, n in inclusive.most_common() if "reviewer_app" in f]
    lines.append(f"\ntop {top} reviewer_app functions by inclusive time (with their callees):")
    lines += [f"  {pct(n)}  {frame}" for frame, n in ours[:top]]
    return "\n".join(lines)


def _area(frame: str) -> str:
    """``name (path)`` -> the package, or ``reviewer_app/...`` module, of the frame."""
    path = frame.rpartition(" (")[2].rstrip(")")
    marker = "site-packages/"
    if marker in path:
        path = path.split(marker, 1)[1]
    if "reviewer_app/" in path:
        return "reviewer_app/" + path.split("reviewer_app/", 1)[1]
    parts = path.strip("/").split("/")
    if "lib" in parts and parts[-1].endswith(".py"):  # standard library
        return "stdlib " + parts[-1]
    return parts[0] if len(parts) > 1 else path


# -- the report ------------------------------------------------------------------------------


def cpu_percentages(cpu: dict[str, float], wall: float) -> dict[str, float]:
    """CPU used in the run in % of one core; ``others`` is everything else on the machine."""
    cores = os.cpu_count() or 1
    total = cpu["machine_total"]
    machine = 100 * cores * cpu["machine_busy"] / total if total else 0.0
    own = {k: 100 * cpu[k] / wall if wall else 0.0 for k in ("client", "server", "postgres")}
    return {
        "cpu_client": round(own["client"], 1),
        "cpu_server": round(own["server"], 1),
        "cpu_postgres": round(own["postgres"], 1),
        "cpu_machine": round(machine, 1),
        "cpu_others": round(max(0.0, machine - sum(own.values())), 1),
    }


def report(
    args: argparse.Namespace,
    backend: str,
    prep: Preparation,
    figures: Figures,
    wall: float,
    cpu: dict[str, float],
    db: dict[str, Any],
) -> dict[str, Any]:
    decided = figures.statuses.get("accepted", 0)
    non_accepted = sum(n for s, n in figures.statuses.items() if s != "accepted")
    errors = sum(figures.errors.values())
    out = {
        "backend": backend,
        "code": args.code,
        "api_processes": args.workers,
        "reviewers": args.reviewers,
        "claim": args.claim,
        "think_ms": args.think_ms,
        "ramp_seconds": args.ramp,
        "analyzed": args.analyze,
        "warmup_seconds": args.warmup,
        "items_seeded": args.items,
        "seed_seconds": round(prep.seed_seconds, 2),
        "users_seconds": round(prep.users_seconds, 2),
        "items_decided": decided,
        "wall_seconds": round(wall, 2),
        "decided_per_second": round(decided / wall, 1) if wall else 0.0,
        "claims": figures.claims,
        "claim_ms_p50": round(percentile(figures.claim_ms, 50), 1),
        "claim_ms_p90": round(percentile(figures.claim_ms, 90), 1),
        "claim_ms_p99": round(percentile(figures.claim_ms, 99), 1),
        "claim_ms_max": round(max(figures.claim_ms, default=0.0), 1),
        "first_claims": len(figures.first_claim_ms),
        "first_claim_ms_p50": round(percentile(figures.first_claim_ms, 50), 1),
        "first_claim_ms_max": round(max(figures.first_claim_ms, default=0.0), 1),
        "verdict_batch_ms_p50": round(percentile(figures.verdict_ms, 50), 1),
        "verdict_batch_ms_p99": round(percentile(figures.verdict_ms, 99), 1),
        "double_leases": figures.double_leases,
        "double_leases_other_reviewer": figures.double_leases_other_reviewer,
        "reused_lease_tokens": figures.reused_tokens,
        "non_accepted": non_accepted,
        "statuses": dict(figures.statuses),
        "mismatched_results": figures.mismatched_results,
        "errors": errors,
        "error_kinds": dict(figures.errors),
        "queue_emptied": figures.empty_claims > 0,
        **cpu_percentages(cpu, wall),
        "cpus": os.cpu_count(),
        "db_decisions": db["decisions"],
        "db_items_decided_twice": db["decided_twice"],
        "db_item_states": db["states"],
    }
    rows = [
        ("backend", backend),
        ("server code", out["code"]),
        ("API processes", args.workers),
        ("reviewers", f"{args.reviewers} (claim {args.claim}, think {args.think_ms:g} ms/item)"),
        ("extra ANALYZE (--analyze)", "yes" if args.analyze else "no"),
        ("warm-up before the run", f"{args.warmup:g} s, then ANALYZE" if args.warmup else "none"),
        ("seeding", f"{args.items} items in {prep.seed_seconds:.1f} s"),
        ("items decided", decided),
        ("wall seconds", f"{wall:.1f}" + ("  (queue emptied)" if out["queue_emptied"] else "")),
        ("decided items/s", f"{out['decided_per_second']:.1f}"),
        (
            "claim ms p50/p90/p99/max",
            f"{out['claim_ms_p50']} / {out['claim_ms_p90']} / {out['claim_ms_p99']} / "
            f"{out['claim_ms_max']}  ({len(figures.claim_ms)} claims after each reviewer's first)",
        ),
        (
            "first claims ms p50/max",
            f"{out['first_claim_ms_p50']} / {out['first_claim_ms_max']}  "
            f"({out['first_claims']} reviewers' first claims"
            + (
                ", all sent at once)" if not (args.think_ms or args.ramp) else ", starts staggered)"
            ),
        ),
        (
            "verdict-batch ms p50/p99",
            f"{out['verdict_batch_ms_p50']} / {out['verdict_batch_ms_p99']}",
        ),
        (
            "double leases",
            f"{figures.double_leases}"
            + (
                f" ({figures.double_leases_other_reviewer} to another reviewer)"
                if figures.double_leases
                else ""
            ),
        ),
        (
            "non-accepted results",
            f"{non_accepted}"
            + (
                f" {dict((s, n) for s, n in figures.statuses.items() if s != 'accepted')}"
                if non_accepted
                else ""
            ),
        ),
        ("errors (HTTP/timeouts)", f"{errors}" + (f" {dict(figures.errors)}" if errors else "")),
        (
            "CPU, % of one core",
            f"client {out['cpu_client']}, server {out['cpu_server']}, "
            f"postgres {out['cpu_postgres']}, others {out['cpu_others']} "
            f"(machine {out['cpu_machine']} of {100 * (os.cpu_count() or 1)})",
        ),
        (
            "database check",
            f"{db['decisions']} decisions"
            + (
                f" ({getattr(args, 'warmup_decided', 0)} of them in the warm-up)"
                if args.warmup
                else ""
            )
            + f", {db['decided_twice']} items decided twice",
        ),
    ]
    width = max(len(name) for name, _ in rows)
    print()
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")
    return out


# -- main ----------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=None,
        help="sqlite:///new-file.db, or postgresql://... of a server on which a throwaway "
        "database is made (default: a SQLite file in a temp dir)",
    )
    parser.add_argument("--items", type=int, default=100_000, help="items in the queue")
    parser.add_argument("--reviewers", type=int, default=200, help="concurrent reviewers")
    parser.add_argument("--claim", type=int, default=10, help="items per claim (and per batch)")
    parser.add_argument(
        "--duration",
        type=float,
        default=30.0,
        help="seconds (the run also ends when the queue is empty)",
    )
    parser.add_argument("--workers", type=int, default=1, help="API processes")
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="mean time a reviewer spends per item between claim and verdicts (each batch "
        "50-150%% of it; starts staggered over one batch); default 0: flat out",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        help="start the reviewers at random moments over this many seconds (default: all at "
        "once flat out; over one batch's think time with --think-ms)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=0.0,
        help="seconds of the same load before the measured run, then ANALYZE (as autovacuum "
        "does in a deployment in use); default 0: measured from the start, on tables that "
        "start empty",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per HTTP request")
    parser.add_argument(
        "--analyze",
        action="store_true",
        help="run ANALYZE after seeding (diagnostic: shows what planner statistics change)",
    )
    parser.add_argument("--keep-db", action="store_true", help="keep the database afterwards")
    parser.add_argument(
        "--json", action="store_true", help="also print the figures as one JSON line"
    )
    parser.add_argument(
        "--py-spy",
        type=Path,
        default=None,
        metavar="FOLDED",
        help="record the server with py-spy during the run into this file and summarise it",
    )
    parser.add_argument("--py-spy-args", default="", help="extra arguments for py-spy record")
    parser.add_argument("--profile-top", type=int, default=20, help="rows per profile table")
    parser.add_argument(
        "--sample-locks",
        action="store_true",
        help="PostgreSQL: sample pg_stat_activity every 100 ms during the run and print what "
        "busy sessions waited on (the share waiting on a lock; target < 5%%)",
    )
    parser.add_argument(
        "--bare",
        action="store_true",
        help="also run bare_db.py's bare loop (the database alone) on the same kind of "
        "database now, and print the service's figure as a fraction of it",
    )
    parser.add_argument(
        "--markdown", action="store_true", help="record the run on benchmarks/README.md"
    )
    return parser.parse_args(argv)


def write_markdown() -> None:
    rows = stored_results("claim_decide")
    table = markdown_table(
        [
            "database, API processes",
            "decided items/s",
            "claim p50/p99 ms",
            "verdict batch p50/p99 ms",
            "CPU ms per item: server / postgres",
            "busy sessions waiting on a lock",
            "of the bare loop",
            "load",
            "code",
            "date",
        ],
        [
            [
                key,
                r["decided_per_second"],
                f"{r['claim_ms_p50']} / {r['claim_ms_p99']}",
                f"{r['verdict_batch_ms_p50']} / {r['verdict_batch_ms_p99']}",
                f"{r.get('server_cpu_ms_per_item', '-')} / "
                f"{r.get('postgres_cpu_ms_per_item', '-')}",
                f"{r['lock_wait_share']}%" if "lock_wait_share" in r else "-",
                (
                    f"{100 * float(str(r['fraction_of_bare'])):.0f}% of "
                    f"{r['bare_decided_per_second']}"
                    if "fraction_of_bare" in r
                    else "-"
                ),
                r.get("load", "-"),
                r["code"],
                r.get("date", "-"),
            ]
            for key, r in sorted(rows.items())
        ],
    )
    write_page_section(
        "claim_decide",
        "## Claim and decide, flat out\n\n`benchmarks/claim_decide.py`: 200 reviewers, each "
        "its own user and connection, claim 10 and decide them in one verdict batch, with no "
        "think time, for 20 s (100,000 items seeded). The latest run per database and "
        "process count; *load* is the 1-minute load average when the run started (2 cores, "
        "shared with other work: figures taken under load are low). Lock waits: the share "
        "of busy-session samples of `pg_stat_activity` (every 100 ms) waiting on a lock "
        "(`--sample-locks`). Of the bare loop: the service's figure over `bare_db.py`'s "
        "in the same sitting (`--bare`).\n\n" + table,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    args.code = code_version()  # of the server code this run starts
    with contextlib.suppress(ImportError):
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    with bench_database(args.database_url, keep=args.keep_db, prefix="claim-decide-") as url:
        backend = backend_name(url)
        print(
            f"preparing {backend}: {args.reviewers} reviewers, {args.items} items ...", flush=True
        )
        prep = prepare(url, args.items, args.reviewers, analyze=args.analyze)
        print(
            f"  users in {prep.users_seconds:.1f} s, seeded {args.items} items in "
            f"{prep.seed_seconds:.1f} s",
            flush=True,
        )
        logs = Path(tempfile.mkdtemp(prefix="claim-decide-log-"))
        server = ServerProcess(url, args.workers, logs / "server.log")
        spy = None
        sampler: LockSampler | None = None
        try:
            server.start()
            print(
                f"server on {server.base} ({args.workers} process(es)); running "
                f"{args.reviewers} reviewers for up to {args.duration:g} s ...",
                flush=True,
            )
            if args.warmup > 0:  # before the profile and the sampler: not measured
                args.warmup_decided = warm_up(server, url, prep.usernames, args)
            if args.py_spy:
                spy = start_py_spy(
                    server.proc.pid if server.proc else 0, args.py_spy, args.py_spy_args
                )
            if args.sample_locks and backend == "postgresql":
                sampler = LockSampler(url)
                sampler.start()
            load = os.getloadavg()[0]
            figures, wall, cpu = asyncio.run(run_reviewers(server, prep.usernames, args))
            if sampler is not None:
                sampler.stop()
            if spy is not None:
                stop_py_spy(spy)
        finally:
            if sampler is not None:
                sampler.stop()
            if spy is not None and spy.poll() is None:
                stop_py_spy(spy)
            server.stop()
        if "Traceback" in server.log_tail(200):
            print(f"the server logged errors:\n{server.log_tail(40)}", file=sys.stderr)
        shutil.rmtree(logs, ignore_errors=True)
        db = check_database(url)
        out = report(args, backend, prep, figures, wall, cpu, db)
    out["load"] = round(load, 2)
    out["load_after"] = round(os.getloadavg()[0], 2)
    decided = out["decided_per_second"] or 0.0
    for part in ("server", "postgres"):  # CPU per decided item, ms
        share = out[f"cpu_{part}"] / 100
        out[f"{part}_cpu_ms_per_item"] = round(1000 * share / decided, 2) if decided else None
    print(
        f"  load average (1 min)       {out['load']} at the start, {out['load_after']} after\n"
        f"  CPU ms per decided item    server {out['server_cpu_ms_per_item']}, "
        f"postgres {out['postgres_cpu_ms_per_item']}"
    )
    if sampler is not None:
        out["lock_wait_share"] = round(sampler.lock_share(), 1)
        out["lock_waits"] = {f"{e} / {r}": n for (e, r), n in sampler.locks.most_common(5)}
        print()
        print(sampler.summary())
    if args.bare:
        import bare_db  # benchmarks/bare_db.py

        print("\nthe bare loop on the same kind of database (same sitting) ...", flush=True)
        bare = bare_db.measure(args.database_url, items=args.items)
        bare_db.print_figures(bare)
        out["bare_decided_per_second"] = bare["decided_per_second"]
        out["bare_load"] = bare["load"]
        fraction = decided / bare["decided_per_second"] if bare["decided_per_second"] else 0.0
        out["fraction_of_bare"] = round(fraction, 3)
        print(
            f"\n  the service: {decided:.0f} decided items/s = {100 * fraction:.1f}% of the "
            f"bare loop's {bare['decided_per_second']:.0f} on {backend} (target >= 25%)"
        )
    if args.markdown:
        out["date"] = datetime.now(UTC).strftime("%Y-%m-%d %H:%M")
        record_result("claim_decide", f"{backend}, {args.workers} process(es)", out)
        write_markdown()
        if args.bare:
            import bare_db

            record_result("bare_db", backend, {**bare, "date": out["date"]})
            bare_db.write_markdown()
    if args.json:
        print(json.dumps(out, sort_keys=True))
    if args.py_spy:
        print()
        gil = "--gil" in shlex.split(args.py_spy_args)
        print(summarise_profile(args.py_spy, args.profile_top, gil=gil))
    return 0


if __name__ == "__main__":
    sys.exit(main())
