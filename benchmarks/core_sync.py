"""Figures of the client core: verdict recording, outbox delivery and memory.

1. **Recording a verdict**: ``Store.record_verdict`` (journal + outbox + item state in one
   ``synchronous=FULL`` transaction) on a store file in a real directory, p50/p99 over
   ``--record`` verdicts on items claimed from the server. Target: p99 < 2 ms.
2. **Draining the outbox** over loopback: ``--drain`` verdicts recorded with an undo window
   of 0, then delivered by ``SyncEngine.run_once`` (a) in batches (``verdict_batch_size``
   100) and (b) one request per verdict (``verdict_batch_size`` 1), each run on its own
   store and its own reviewer's items. Target: >= 2,000 verdicts/s batched.
3. **Peak memory** of the core alone with the ``--drain`` items cached: a fresh process
   (this script with ``--memory-child``) opens a ``SyncEngine`` (its store connection and
   HTTP session, one pass against the server) and the UI's own ``Store``, and touches the
   cached items as the client would (``ready_counts``, ``worklist``, ``next_item``, every
   item once). It reports its own RSS. Target: < 150 MB.

The server runs as its own process (``python -m reviewer_app server``) on a SQLite file,
seeded beforehand with the synthetic ``load-test`` queue, with the per-reviewer lease cap
raised through ``REVIEWER_SERVER_MAX_LEASED_PER_REVIEWER``. Prints the figures; asserts
nothing.

    python benchmarks/core_sync.py                 # full: 2,000 + 2 x 10,000 verdicts
    python benchmarks/core_sync.py --quick         # smaller numbers, well under a minute
    python benchmarks/core_sync.py --dir /data/bench --json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import resource
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common import code_version, filesystem_of, percentile  # benchmarks/common.py

PASSWORD = "bench-password-not-secret"  # a throwaway benchmark user
QUEUE = "load-test"
TOKEN_ENV = "CORE_SYNC_BENCH_TOKEN"
API = "/api/v1"


# -- small helpers ------------------------------------------------------------------------


def memory_status() -> dict[str, float]:
    """VmRSS and VmHWM of this process in MB (Linux), and ru_maxrss in MB.

    In a subprocess ru_maxrss is no use: Linux carries the parent's peak over ``execve``
    (the child started at the benchmark's ~100 MB); VmHWM is this process's own peak."""
    out: dict[str, float] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                out[name] = int(value.split()[0]) / 1024
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    out["ru_maxrss"] = maxrss / (1024 * 1024 if sys.platform == "darwin" else 1024)
    return out


def process_tree_cpu(root: int) -> float:
    """User + system CPU seconds of ``root`` and its descendants (Linux; 0 elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, tuple[int, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            rest = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            stats[int(entry.name)] = (int(rest[1]), (int(rest[11]) + int(rest[12])) / tick)
    wanted, total, frontier = {root}, 0.0, [root]
    while frontier:
        parent = frontier.pop()
        for pid, (ppid, _) in stats.items():
            if ppid == parent and pid not in wanted:
                wanted.add(pid)
                frontier.append(pid)
    for pid in wanted:
        total += stats.get(pid, (0, 0.0))[1]
    return total


# -- the server ---------------------------------------------------------------------------


def prepare_database(url: str, items: int, usernames: list[str]) -> float:
    """Reviewer users and ``items`` synthetic items, written in this process before the
    server starts. Returns the seconds the seeding took."""
    from reviewer_app.protocol import UserCreate
    from reviewer_app.server.config import ServerSettings
    from reviewer_app.server.feeds.seed import seed_load_queue
    from reviewer_app.server.service import Service

    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        for name in usernames:
            service.create_user(UserCreate(username=name, password=PASSWORD))
        started = time.perf_counter()
        seed_load_queue(service, items)
        return time.perf_counter() - started
    finally:
        service.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``python -m reviewer_app server`` on 127.0.0.1 in its own process group."""

    def __init__(self, database_url: str, log: Path, env: dict[str, str]) -> None:
        self.database_url = database_url
        self.log = log
        self.env = env
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServerProcess:
        env = {**os.environ, "REVIEWER_SERVER_PASSWORD_HASH_PROFILE": "fast", **self.env}
        command = [
            sys.executable,
            "-m",
            "reviewer_app",
            "server",
            "--database-url",
            self.database_url,
            "--port",
            str(self.port),
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
                raise RuntimeError(f"server exited with {self.proc.returncode}:\n{self.tail()}")
            try:
                with urllib.request.urlopen(self.url + API + "/meta", timeout=1) as response:
                    if response.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not answer in 90 s:\n{self.tail()}")

    def tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def cpu(self) -> float:
        return process_tree_cpu(self.proc.pid) if self.proc else 0.0

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


# -- the client side ------------------------------------------------------------------------


@dataclass
class Reviewer:
    """One reviewer's logged-in ApiClient (the UI side's own session)."""

    name: str
    token: str
    api: Any  # ApiClient


def login(server_url: str, name: str) -> Reviewer:
    from reviewer_app.core.api import ApiClient

    api = ApiClient(server_url, user_agent="core-sync-bench")
    api.login(name, PASSWORD)
    assert api.token
    return Reviewer(name, api.token, api)


def lease_into_store(reviewer: Reviewer, store: Any, count: int) -> tuple[int, float]:
    """Claim ``count`` items (as many claims as the server's ``max_claim`` needs) and keep
    them with ``Store.add_leased``. Returns (items leased, seconds)."""
    limits = reviewer.api.meta().limits
    seconds = limits.max_lease_seconds
    started = time.perf_counter()
    done = 0
    while done < count:
        grant = reviewer.api.claim(QUEUE, min(limits.max_claim, count - done), seconds)
        if not grant.items:
            break
        done += store.add_leased(grant)
    return done, time.perf_counter() - started


@dataclass
class Recorded:
    record_ms: list[float] = field(default_factory=list)
    #: this thread's CPU time in each record_verdict: wall time far above it is waiting
    #: (fsync, or the scheduler giving the core to another process)
    record_cpu_ms: list[float] = field(default_factory=list)
    next_item_ms: list[float] = field(default_factory=list)


def record_all(store: Any, count: int, rng: random.Random) -> Recorded:
    """Decide ``count`` ready items the way the UI does: ``next_item``, then
    ``record_verdict`` (2 in 3 keep, 1 in 3 remove with a policy; the load-test queue has no
    escalation queue to escalate to). Times each call."""
    out = Recorded()
    for _ in range(count):
        started = time.perf_counter()
        stored = store.next_item(QUEUE)
        shown = time.perf_counter()
        if stored is None:
            break
        cpu = time.thread_time()
        if rng.random() < 1 / 3:
            kwargs: dict[str, Any] = {"action": "remove", "policies": ["SPAM.SCAM"]}
        else:
            kwargs = {"action": "keep"}
        store.record_verdict(stored.item.id, time_spent_ms=rng.randint(800, 20_000), **kwargs)
        done = time.perf_counter()
        out.record_cpu_ms.append((time.thread_time() - cpu) * 1000)
        out.next_item_ms.append((shown - started) * 1000)
        out.record_ms.append((done - shown) * 1000)
    return out


@dataclass
class Drain:
    mode: str
    batch_size: int
    verdicts: int
    recorded: Recorded
    leased: int
    lease_seconds: float
    seconds: float = 0.0
    passes: int = 0
    batches: int = 0
    statuses: Counter[str] = field(default_factory=Counter)
    client_cpu: float = 0.0
    server_cpu: float = 0.0
    left_pending: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        return self.statuses.total() / self.seconds if self.seconds else 0.0


def drain_run(
    server: ServerProcess,
    reviewer: Reviewer,
    path: Path,
    count: int,
    batch_size: int,
    rng: random.Random,
    before_recording: Any = None,
) -> Drain:
    """Lease ``count`` items into a new store, record a verdict on each with an undo window
    of 0, then time ``SyncEngine.run_once`` until the outbox is empty."""
    from reviewer_app.core import events as ev
    from reviewer_app.core.settings import BATCH_SIZE, UNDO_WINDOW
    from reviewer_app.core.store import Store
    from reviewer_app.core.sync import SyncEngine

    statuses: Counter[str] = Counter()
    batches = 0
    problems: list[str] = []

    def listener(event: Any) -> None:
        nonlocal batches
        if isinstance(event, ev.VerdictsSettled):
            batches += 1
            statuses.update(e.status for e in event.entries)
        elif isinstance(event, ev.OnlineChanged) and not event.online:
            problems.append(f"offline: {event.reason}")
        elif isinstance(event, ev.Problem | ev.AuthRequired):
            problems.append(event.message)

    with Store(path) as store:
        store.settings.set(UNDO_WINDOW, 0.0)
        store.settings.set(BATCH_SIZE, batch_size)
        leased, lease_seconds = lease_into_store(reviewer, store, count)
        if before_recording is not None:
            before_recording(path, reviewer)
        engine = SyncEngine(server.url, path, token=reviewer.token, listener=listener)
        engine.open()
        try:
            engine.run_once()  # warm: /meta, /queues, the connection; nothing to deliver yet
            recorded = record_all(store, leased, rng)
            run = Drain(
                "batched" if batch_size > 1 else "one per request",
                batch_size,
                len(recorded.record_ms),
                recorded,
                leased,
                lease_seconds,
            )
            cpu0, server0 = time.process_time(), server.cpu()
            started = time.perf_counter()
            while True:
                engine.run_once()
                run.passes += 1
                pending = store.counts().pending
                if pending == 0 or problems or run.passes >= 100:
                    break
            run.seconds = time.perf_counter() - started
            run.client_cpu = time.process_time() - cpu0
            run.server_cpu = server.cpu() - server0
            run.left_pending = pending
        finally:
            engine.close()
    run.batches, run.statuses, run.problems = batches, statuses, problems
    return run


def time_renewal_bookkeeping(path: Path) -> dict[str, Any]:
    """Extra: ``Store.apply_lease_results`` for one renew call's worth of tokens (500) on a
    store with the cached items, i.e. the write transaction the sync engine holds after each
    ``POST /leases/renew`` (the UI's ``record_verdict`` waits for it). No server needed: the
    answers are made up ("renewed" for an hour more)."""
    from datetime import UTC, datetime, timedelta

    from reviewer_app.core.store import Store
    from reviewer_app.protocol import LeaseStatus

    with Store(path, check=False) as store:
        items = store.counts().ready.get(QUEUE, 0)
        due = store.leases_to_renew(time.time() + 86_400)
        until = datetime.now(UTC) + timedelta(hours=1)
        answers = [LeaseStatus(token=token, status="renewed", expires_at=until) for _, token in due]
        started = time.perf_counter()
        store.apply_lease_results(answers)
        seconds = time.perf_counter() - started
    return {"cached_items": items, "tokens": len(answers), "ms": round(seconds * 1000, 1)}


def snapshot(source: Path, target: Path) -> None:
    """A consistent copy of a store file (SQLite's online backup)."""
    with (
        contextlib.closing(sqlite3.connect(source)) as src,
        contextlib.closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)


def measure_memory(server: ServerProcess, reviewer: Reviewer, store_path: Path) -> dict[str, Any]:
    """Run this script with ``--memory-child`` on ``store_path`` and return its report."""
    env = {**os.environ, TOKEN_ENV: reviewer.token}
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--memory-child",
        str(store_path),
        "--server-url",
        server.url,
    ]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise RuntimeError(f"the memory child failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def memory_child(store_path: Path, server_url: str) -> int:
    """In a fresh process: the core alone, as the client would use it, with the items
    already cached in ``store_path``. Prints one JSON line."""
    report: dict[str, Any] = {"start": memory_status()}
    from reviewer_app.core.store import Store
    from reviewer_app.core.sync import SyncEngine

    report["imported"] = memory_status()
    seen: Counter[str] = Counter()
    engine = SyncEngine(
        server_url,
        store_path,
        token=os.environ[TOKEN_ENV],
        listener=lambda event: seen.update([type(event).__name__]),
    )
    engine.set_active_queues([QUEUE])
    engine.open()  # the engine thread's store connection and HTTP session
    started = time.perf_counter()
    ui = Store(store_path)  # the UI thread's own connection (with the open-time check)
    opened_ms = round((time.perf_counter() - started) * 1000, 2)
    try:
        engine.run_once()  # one pass against the server: /meta, /queues, renewals, top-up
        report["online"] = engine.online
        report["engine_pass"] = memory_status()
        timings: dict[str, float] = {"ui_store_open_ms": opened_ms}

        def timed(name: str, call: Any) -> Any:
            started = time.perf_counter()
            value = call()
            timings[name] = round((time.perf_counter() - started) * 1000, 2)
            return value

        ready = timed("ready_counts_ms", ui.ready_counts)
        timed("counts_ms", ui.counts)
        rows = timed("worklist_ms", lambda: ui.worklist(QUEUE))  # kept, like a list model
        timed("worklist_all_ms", ui.worklist)
        first = timed("next_item_ms", lambda: ui.next_item(QUEUE))
        timed("queues_ms", ui.queues)
        timed("journal_ms", ui.journal)

        def walk(ids: list[str]) -> int:  # the reviewer pages through every item once
            return sum(1 for item_id in ids if ui.stored_item(item_id) is not None)

        walked = timed("walk_all_items_ms", lambda: walk([r.item_id for r in rows]))
        report.update(
            cached_items=len(rows),
            ready=ready.get(QUEUE, 0),
            walked=walked,
            first_item=first.item.id if first else None,
            timings=timings,
            events=dict(seen),
            page_size=ui.conn.execute("PRAGMA page_size").fetchone()[0],
            store_mb=round(store_path.stat().st_size / 2**20, 1),
        )
        report["end"] = memory_status()
    finally:
        ui.close()
        engine.close()
    report["heavy_modules"] = (
        sorted(
            name
            for name in ("fastapi", "uvicorn", "sqlalchemy", "starlette", "PySide6", "numpy")
            if name in sys.modules
        )
        + sorted(m for m in sys.modules if m.startswith("reviewer_app.server"))[:3]
    )
    print(json.dumps(report))
    return 0


# -- the run --------------------------------------------------------------------------------


def default_folder() -> Path:
    """The system temp dir unless it lives in memory (then the current directory)."""
    tmp = Path(tempfile.gettempdir())
    return Path.cwd() if filesystem_of(tmp) in ("tmpfs", "ramfs") else tmp


def run(args: argparse.Namespace) -> dict[str, Any]:
    from reviewer_app.core.store import Store

    base = args.dir or default_folder()
    base.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="core-sync-", dir=base))
    fs = filesystem_of(folder)
    rng = random.Random(args.seed)
    names = ["bench-recorder", "bench-batched", "bench-single"]
    db_url = f"sqlite:///{folder / 'server.db'}"
    total = args.record + 2 * args.drain
    out: dict[str, Any] = {
        "code": code_version(),
        "cpus": os.cpu_count(),
        "folder": str(folder),
        "filesystem": fs,
        "python": sys.version.split()[0],
        "sqlite": sqlite3.sqlite_version,
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
    }
    print(f"store files in {folder} ({fs}); seeding {total:,} items ...", flush=True)
    if fs in ("tmpfs", "ramfs"):
        print("  warning: that folder is in memory; fsync costs nothing there", flush=True)
    out["seed_seconds"] = round(prepare_database(db_url, total, names), 2)
    env = {"REVIEWER_SERVER_MAX_LEASED_PER_REVIEWER": str(max(args.record, args.drain, 250))}
    server = ServerProcess(db_url, folder / "server.log", env)
    try:
        server.start()
        print(f"  seeded in {out['seed_seconds']:.1f} s; server on {server.url}", flush=True)

        # 1. recording a verdict
        print(f"1. recording {args.record:,} verdicts (synchronous=FULL) ...", flush=True)
        recorder = login(server.url, names[0])
        with Store(folder / "record.sqlite") as store:
            sync_mode = store.conn.execute("PRAGMA synchronous").fetchone()[0]
            journal_mode = store.conn.execute("PRAGMA journal_mode").fetchone()[0]
            leased, _ = lease_into_store(recorder, store, args.record)
            recorded = record_all(store, leased, rng)
        recorder.api.close()
        out["record"] = {
            "verdicts": len(recorded.record_ms),
            "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(sync_mode),
            "journal_mode": journal_mode,
            **figures_ms("record", recorded.record_ms),
            **figures_ms("record_cpu", recorded.record_cpu_ms),
            **figures_ms("next_item", recorded.next_item_ms),
        }

        # 2. draining the outbox, and 3. (on the batched run's store) memory
        memory: dict[str, Any] = {}

        def memory_then(path: Path, reviewer: Reviewer) -> None:
            copy = folder / "memory.sqlite"
            snapshot(path, copy)
            print(f"3. peak memory with {args.drain:,} cached items (subprocess) ...", flush=True)
            memory.update(measure_memory(server, reviewer, copy))
            out["renew_apply"] = time_renewal_bookkeeping(copy)

        drains = []
        for name, batch_size in ((names[1], 100), (names[2], 1)):
            mode = "batches of 100" if batch_size > 1 else "one request per verdict"
            print(f"2. draining {args.drain:,} verdicts, {mode} ...", flush=True)
            reviewer = login(server.url, name)
            drains.append(
                drain_run(
                    server,
                    reviewer,
                    folder / f"drain-{batch_size}.sqlite",
                    args.drain,
                    batch_size,
                    rng,
                    before_recording=memory_then if batch_size > 1 else None,
                )
            )
            reviewer.api.close()
        for drain in drains:
            key = "drain_batched" if drain.batch_size > 1 else "drain_single"
            out[key] = {
                "batch_size": drain.batch_size,
                "leased": drain.leased,
                "lease_seconds": round(drain.lease_seconds, 2),
                "verdicts": drain.verdicts,
                "seconds": round(drain.seconds, 3),
                "verdicts_per_second": round(drain.per_second, 1),
                "requests": drain.batches,
                "passes": drain.passes,
                "statuses": dict(drain.statuses),
                "left_pending": drain.left_pending,
                "client_cpu_seconds": round(drain.client_cpu, 2),
                "server_cpu_seconds": round(drain.server_cpu, 2),
                "problems": drain.problems[:5],
                **figures_ms("record", drain.recorded.record_ms),
            }
        single = out["drain_single"]["verdicts_per_second"]
        out["drain_ratio"] = (
            round(out["drain_batched"]["verdicts_per_second"] / single, 1) if single else None
        )
        out["memory"] = memory
        out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    finally:
        server.stop()
        if "Traceback" in server.tail(400):
            print(f"the server logged errors:\n{server.tail(40)}", file=sys.stderr)
        if args.keep:
            print(f"kept {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return out


def figures_ms(name: str, values: list[float]) -> dict[str, float]:
    return {
        f"{name}_ms_p50": round(percentile(values, 50), 3),
        f"{name}_ms_p90": round(percentile(values, 90), 3),
        f"{name}_ms_p99": round(percentile(values, 99), 3),
        f"{name}_ms_max": round(max(values), 3) if values else math.nan,
    }


def print_report(out: dict[str, Any]) -> None:
    rec, mem = out["record"], out["memory"]
    peak = mem.get("end", {}).get("VmHWM", mem.get("end", {}).get("ru_maxrss", math.nan))
    ok = {
        "record": rec["record_ms_p99"] < 2.0,
        "drain": out["drain_batched"]["verdicts_per_second"] >= 2000,
        "memory": peak < 150,
    }
    out["targets_met"] = ok

    def mark(name: str) -> str:
        return "meets target" if ok[name] else "MISSES target"

    rows: list[tuple[str, str]] = [
        ("code", out["code"]),
        ("store folder", f"{out['folder']} ({out['filesystem']})"),
        ("python / sqlite", f"{out['python']} / {out['sqlite']}, {out['cpus']} CPUs"),
        ("seeding", f"{out['seed_seconds']:.1f} s"),
        (
            "load average",
            f"{out['load_average_before']} before, {out.get('load_average_after')} after "
            "(other work on the machine shows in the p99s)",
        ),
        ("", ""),
        (
            "1. record_verdict ms",
            f"p50 {rec['record_ms_p50']:.3f}  p90 {rec['record_ms_p90']:.3f}  "
            f"p99 {rec['record_ms_p99']:.3f}  max {rec['record_ms_max']:.2f}  "
            f"({rec['verdicts']:,} verdicts, synchronous={rec['synchronous']}, "
            f"{rec['journal_mode']})  [p99 < 2 ms: {mark('record')}]",
        ),
        (
            "   its CPU time ms",
            f"p50 {rec['record_cpu_ms_p50']:.3f}  p99 {rec['record_cpu_ms_p99']:.3f}  "
            "(wall far above CPU: waiting on fsync or for a core)",
        ),
        (
            "   next_item ms",
            f"p50 {rec['next_item_ms_p50']:.3f}  p99 {rec['next_item_ms_p99']:.3f}",
        ),
    ]
    for key, label in (("drain_batched", "2a. batched"), ("drain_single", "2b. one per request")):
        d = out[key]
        rows += [
            (
                f"{label}",
                f"{d['verdicts_per_second']:,.0f} verdicts/s  ({d['verdicts']:,} in "
                f"{d['seconds']:.2f} s, {d['requests']:,} requests, {d['passes']} pass(es))"
                + (f"  [>= 2,000/s: {mark('drain')}]" if key == "drain_batched" else ""),
            ),
            (
                "    results / CPU",
                f"{d['statuses']}; client CPU {d['client_cpu_seconds']:.1f} s, "
                f"server CPU {d['server_cpu_seconds']:.1f} s"
                + (f"; left pending {d['left_pending']}" if d["left_pending"] else "")
                + (f"; problems {d['problems']}" if d["problems"] else ""),
            ),
            (
                "    setup",
                f"leased {d['leased']:,} in {d['lease_seconds']:.1f} s; record_verdict "
                f"p50 {d['record_ms_p50']:.3f} p99 {d['record_ms_p99']:.3f} ms",
            ),
        ]
    rows.append(("    batched / single", f"{out['drain_ratio']}x"))
    if mem:
        t = mem.get("timings", {})
        rows += [
            (
                "3. peak RSS (MB)",
                f"{peak:.1f}  (VmHWM; at start "
                f"{mem['start'].get('VmRSS', math.nan):.1f}, after imports "
                f"{mem['imported'].get('VmRSS', math.nan):.1f}, after an engine pass "
                f"{mem['engine_pass'].get('VmRSS', math.nan):.1f}, at end "
                f"{mem['end'].get('VmRSS', math.nan):.1f})  [< 150 MB: {mark('memory')}]",
            ),
            (
                "    cached items",
                f"{mem['cached_items']:,} ({mem['ready']:,} ready, store {mem['store_mb']} MB); "
                f"engine online: {mem['online']}; heavy modules: "
                f"{', '.join(mem['heavy_modules']) or 'none'}",
            ),
            (
                "    UI reads ms",
                f"Store() {t.get('ui_store_open_ms')}, "
                f"ready_counts {t.get('ready_counts_ms')}, counts {t.get('counts_ms')}, "
                f"worklist {t.get('worklist_ms')}, next_item {t.get('next_item_ms')}, "
                f"every item once {t.get('walk_all_items_ms')}",
            ),
        ]
    renew = out.get("renew_apply")
    if renew:
        rows.append(
            (
                "extra: renew bookkeeping",
                f"apply_lease_results of {renew['tokens']} renewals with "
                f"{renew['cached_items']:,} items cached: {renew['ms']:,.1f} ms in one write "
                "transaction (record_verdict waits meanwhile)",
            )
        )
    width = max(len(name) for name, _ in rows)
    print()
    for name, value in rows:
        print(f"  {name:<{width}}  {value}" if name or value else "")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help="folder for the store files and the server database (a new subfolder is made "
        "in it); default: the temp dir, or the current directory if that is tmpfs",
    )
    parser.add_argument("--record", type=int, default=None, help="verdicts timed (2,000)")
    parser.add_argument(
        "--drain",
        type=int,
        default=None,
        help="verdicts per drain run, also the items cached for the memory figure (10,000)",
    )
    parser.add_argument("--quick", action="store_true", help="300 recorded, 1,000 drained")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the verdict mix")
    parser.add_argument("--keep", action="store_true", help="keep the folder afterwards")
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    parser.add_argument("--memory-child", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--server-url", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.record is None:
        args.record = 300 if args.quick else 2_000
    if args.drain is None:
        args.drain = 1_000 if args.quick else 10_000
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.memory_child is not None:
        return memory_child(args.memory_child, args.server_url)
    out = run(args)
    print_report(out)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
