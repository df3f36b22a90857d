"""Intake throughput of the reference service: new posts/s, signals/s, and reviewers' claim
latency while intake runs flat out.

Prepares a fresh database (a platform key, reviewer users, the synthetic ``load-test``
queue for the reviewers and an ``intake-bench`` queue whose routing rule takes posts a
spam classifier scored 0.5 or more), starts ``reviewer-app server`` as its own
process(es) on 127.0.0.1, then runs three phases over real HTTP:

1. posts: ``--clients`` clients send ``--posts`` new text-only posts in batches of
   ``--batch`` as fast as they are answered;
2. signals: the same clients send ``--signals`` signals (60% classifier scores, half of
   them over the routing threshold so they open items, 40% user reports) on those posts;
3. mixed: ``--reviewers`` reviewers claim and decide from ``load-test`` at ``--think-ms``
   per item while the clients send new posts and their signals flat out; before it, the
   same reviewers alone for ``--alone-seconds`` (what intake adds to their claims, on the
   same server and machine a moment apart).

Before the reviewers' measured phases they work for ``--warmup`` seconds unmeasured, then
the database is analysed (``ANALYZE``): the tables they fill (decisions, leases, verdict
keys) start empty, and on PostgreSQL the plans made while the planner believes them empty
(a scan of the whole table is then the cheapest) stay in use until autovacuum analyses
them, which in a deployment in use happens within its first minute. Without it, a claim's
context read the whole decisions table once per author (auto_explain) and the claim p99
grew with the run, to seconds: the figure of a database's first minute, not of a shift.

It prints the figures and asserts nothing. ``--markdown`` keeps the run as the latest for
its database and process count in benchmarks/results/intake.json and rewrites the intake
section of benchmarks/README.md from it.

    python benchmarks/intake.py                                   # SQLite in a temp dir
    python benchmarks/intake.py --database-url postgresql://u:pw@127.0.0.1/db
    python benchmarks/intake.py --py-spy /tmp/intake.raw --profile-phase signals
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shlex
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
from claim_decide import Figures as ReviewerFigures
from claim_decide import (  # benchmarks/claim_decide.py
    ServerProcess,
    analyze,
    backend_name,
    cpu_percentages,
    cpu_snapshot,
    login,
    reviewer_loop,
    start_py_spy,
    stop_py_spy,
    summarise_profile,
)
from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    markdown_table,
    percentile,
    record_result,
    stored_results,
    write_page_section,
)

from reviewer_app.protocol import QueueConfig, Role, RoutingRule, UserCreate
from reviewer_app.protocol.queues import ClassifierCondition
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.service import Service

API = "/api/v1"
PASSWORD = "bench-password-not-secret"
QUEUE = "intake-bench"
MODEL, LABEL = "spam-gbdt", "scam"

INTAKE_QUEUE = SeedQueue(
    id=QUEUE,
    name="Intake benchmark",
    description="Posts routed here by a spam score of 0.5 or more",
    config=QueueConfig(
        actions=LOAD_QUEUE.config.actions,
        policies=LOAD_QUEUE.config.policies,
        priority=LOAD_QUEUE.config.priority,
        routing=[
            RoutingRule(
                name="spam-score",
                classifier=[ClassifierCondition(model=MODEL, label=LABEL, min_score=0.5)],
            )
        ],
    ),
)


# -- preparation -------------------------------------------------------------------------------


def prepare(url: str, reviewers: int, items: int) -> tuple[str, list[str]]:
    """The platform key and the reviewers' names."""
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        names = [f"bench-reviewer-{i:04d}" for i in range(reviewers)]
        for name in names:
            service.create_user(UserCreate(username=name, password=PASSWORD))
        seed_load_queue(service, items)
        with service.db.write() as conn:
            insert_queues(conn, [INTAKE_QUEUE])
        service.forget_configs()
        key = service.create_api_key(Role.platform, "bench-platform").key
    finally:
        service.close()
    return key, names


# -- what the platform sends -------------------------------------------------------------------


def post_body(n: int, run: str, now: datetime) -> dict[str, Any]:
    author = n % 5_000
    return {
        "external_id": f"{run}-post-{n}",
        "text": f"Post number {n}: claim your prize at https://prize-{n % 97}.example today, "
        "limited offer, reply with your wallet address to receive the airdrop.",
        "language": "en",
        "created_at": (now - timedelta(seconds=n % 3_600)).isoformat(),
        "url": f"https://social.example/p/{run}/{n}",
        "author": {
            "external_id": f"{run}-author-{author}",
            "handle": f"user{author}",
            "account_created_at": (now - timedelta(days=1 + author % 900)).isoformat(),
            "followers": author * 7 % 10_000,
        },
    }


def signal_body(n: int, posts: int, run: str, rng: random.Random) -> dict[str, Any]:
    post = f"{run}-post-{n % posts}"
    if rng.random() < 0.6:
        return {
            "kind": "classifier",
            "id": f"{run}-sig-{n}",
            "post_external_id": post,
            "model": MODEL,
            "model_version": "14.0",
            "label": LABEL,
            "score": round(rng.random(), 3),
            "threshold": 0.7,
        }
    return {
        "kind": "report",
        "id": f"{run}-sig-{n}",
        "post_external_id": post,
        "reason": rng.choice(["spam", "scam", "harassment"]),
        "reporter_id": f"reporter-{rng.randrange(100_000)}",
    }


# -- the clients -----------------------------------------------------------------------------


@dataclass
class IntakeFigures:
    elements: int = 0
    batches: int = 0
    batch_ms: list[float] = field(default_factory=list)
    statuses: dict[str, int] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)

    def count(self, results: list[dict[str, Any]]) -> None:
        for r in results:
            self.statuses[r["status"]] = self.statuses.get(r["status"], 0) + 1


async def send(
    http: aiohttp.ClientSession,
    url: str,
    field_name: str,
    batch: list[dict[str, Any]],
    figures: IntakeFigures,
) -> None:
    started = time.perf_counter()
    try:
        async with http.post(url, data=json.dumps({field_name: batch})) as response:
            raw = await response.read()
            status = response.status
    except (TimeoutError, aiohttp.ClientError) as exc:
        figures.errors[type(exc).__name__] = figures.errors.get(type(exc).__name__, 0) + 1
        return
    figures.batch_ms.append((time.perf_counter() - started) * 1000)
    if status != 200:
        figures.errors[f"HTTP {status}"] = figures.errors.get(f"HTTP {status}", 0) + 1
        return
    figures.batches += 1
    figures.elements += len(batch)
    figures.count(json.loads(raw)["results"])


def session(key: str) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(
        headers={"Authorization": f"Bearer {key}", "Content-Type": "application/json"},
        connector=aiohttp.TCPConnector(limit=1),
        timeout=aiohttp.ClientTimeout(total=120),
    )


async def fixed_phase(
    base: str, key: str, route: str, field_name: str, bodies: list[dict[str, Any]], args: Any
) -> tuple[IntakeFigures, float]:
    """Send ``bodies`` in batches from ``args.clients`` clients; figures and wall seconds."""
    figures = IntakeFigures()
    batches = [bodies[i : i + args.batch] for i in range(0, len(bodies), args.batch)]
    todo = iter(batches)

    async def client() -> None:
        async with session(key) as http:
            for batch in todo:
                await send(http, f"{base}{API}/intake/{route}", field_name, batch, figures)

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(args.clients)))
    return figures, time.perf_counter() - started


async def mixed_phase(
    server: ServerProcess,
    key: str,
    usernames: list[str],
    args: Any,
    run: str,
    *,
    intake: bool = True,
    seconds: float | None = None,
    prefix: str = "mixed",
) -> dict[str, Any]:
    """Reviewers at their pace and intake flat out (without intake: the reviewers alone),
    for ``seconds`` (default ``args.duration``); the figures' names start with ``prefix``."""
    base = server.base
    limit = asyncio.Semaphore(32)
    tokens = await asyncio.gather(*(login(base, name, limit) for name in usernames))
    reviewers = ReviewerFigures()
    posts, signals = IntakeFigures(), IntakeFigures()
    queue_empty = asyncio.Event()
    now = datetime.now(UTC)
    cpu_before = cpu_snapshot(server)
    started = time.perf_counter()
    deadline = started + (seconds if seconds is not None else args.duration)
    counter = iter(range(10**9))

    async def platform(seed: int) -> None:
        rng = random.Random(seed)
        async with session(key) as http:
            while time.perf_counter() < deadline:
                first = next(counter) * args.batch
                bodies = [post_body(first + i, run, now) for i in range(args.batch)]
                await send(http, f"{base}{API}/intake/posts", "posts", bodies, posts)
                ids = [b["external_id"] for b in bodies]
                sigs = []
                for i, external in enumerate(ids):
                    for j in range(2):  # a score and a report per post
                        body = signal_body(first + i, 10**12, run, rng)
                        body["id"] = f"{run}-mixed-{first + i}-{j}"
                        body["post_external_id"] = external
                        sigs.append(body)
                for i in range(0, len(sigs), args.batch):
                    chunk = sigs[i : i + args.batch]
                    await send(http, f"{base}{API}/intake/signals", "signals", chunk, signals)

    await asyncio.gather(
        *(
            reviewer_loop(base, name, token, args, reviewers, deadline, queue_empty)
            for name, token in zip(usernames, tokens, strict=True)
        ),
        *(platform(seed) for seed in range(args.clients if intake else 0)),
    )
    wall = time.perf_counter() - started
    cpu_after = cpu_snapshot(server)
    cpu = {k: cpu_after[k] - cpu_before[k] for k in cpu_after}
    decided = reviewers.statuses.get("accepted", 0)
    figures = {
        "seconds": round(wall, 1),
        "decided_per_second": round(decided / wall, 1),
        "claim_ms_p50": round(percentile(reviewers.claim_ms, 50), 1),
        "claim_ms_p90": round(percentile(reviewers.claim_ms, 90), 1),
        "claim_ms_p99": round(percentile(reviewers.claim_ms, 99), 1),
        "posts_per_second": round(posts.elements / wall, 1),
        "signals_per_second": round(signals.elements / wall, 1),
        "double_leases": reviewers.double_leases,
        "errors": sum(reviewers.errors.values())
        + sum(posts.errors.values())
        + sum(signals.errors.values()),
        **cpu_percentages(cpu, wall),
    }
    if not intake:
        del figures["posts_per_second"], figures["signals_per_second"]
    return {f"{prefix}_{k}": v for k, v in figures.items()}


def warm_up(
    server: ServerProcess, key: str, names: list[str], args: Any, run: str, url: str
) -> None:
    """The reviewers alone for ``--warmup`` seconds, unmeasured, then ANALYZE (see the
    module's docstring)."""
    print(f"warming up for {args.warmup:g} s, then ANALYZE ...", flush=True)
    asyncio.run(
        mixed_phase(
            server, key, names, args, run, intake=False, seconds=args.warmup, prefix="warmup"
        )
    )
    analyze(url)


# -- main ---------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--workers", type=int, default=1, help="API processes")
    parser.add_argument("--posts", type=int, default=20_000, help="new posts in phase 1")
    parser.add_argument("--signals", type=int, default=50_000, help="signals in phase 2")
    parser.add_argument("--batch", type=int, default=200, help="elements per request")
    parser.add_argument("--clients", type=int, default=4, help="concurrent platform clients")
    parser.add_argument("--reviewers", type=int, default=200)
    parser.add_argument("--items", type=int, default=100_000, help="items for the reviewers")
    parser.add_argument("--claim", type=int, default=10)
    parser.add_argument(
        "--think-ms", type=float, default=180.0, help="reviewers' mean ms per item (phase 3)"
    )
    parser.add_argument("--ramp", type=float, default=0.0)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--duration", type=float, default=40.0, help="seconds of phase 3")
    parser.add_argument("--no-mixed", action="store_true", help="skip phase 3")
    parser.add_argument(
        "--alone-seconds",
        type=float,
        default=20.0,
        help="before phase 3, the reviewers alone for this long (0: not)",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=10.0,
        help="before the reviewers' measured phases, they work this long unmeasured, then "
        "ANALYZE (0: neither)",
    )
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument(
        "--py-spy",
        type=Path,
        default=None,
        help="record the server with py-spy during --profile-phase into this file and summarise it",
    )
    parser.add_argument("--profile-phase", choices=["posts", "signals", "mixed"], default="signals")
    parser.add_argument("--py-spy-args", default="", help="extra arguments for py-spy record")
    parser.add_argument("--profile-top", type=int, default=25)
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    parser.add_argument(
        "--markdown", action="store_true", help="record the run on benchmarks/README.md"
    )
    return parser.parse_args(argv)


def write_markdown() -> None:
    rows = stored_results("intake")
    table = markdown_table(
        [
            "database, API processes",
            "new posts/s",
            "signals/s",
            "claim p50/p99 ms while intake runs",
            "claim p99 ms, reviewers alone",
            "decided items/s then",
            "intake posts/s + signals/s then",
            "load (1 min) before / after",
            "code",
            "date",
        ],
        [
            [
                key,
                r["posts_per_second"],
                r["signals_per_second"],
                f"{r.get('mixed_claim_ms_p50', '-')} / {r.get('mixed_claim_ms_p99', '-')}",
                r.get("alone_claim_ms_p99", "-"),
                r.get("mixed_decided_per_second", "-"),
                f"{r.get('mixed_posts_per_second', '-')} + "
                f"{r.get('mixed_signals_per_second', '-')}",
                f"{r.get('load_before', '-')} / {r.get('load_after', '-')}",
                r["code"],
                r["date"],
            ]
            for key, r in sorted(rows.items())
        ],
    )
    write_page_section(
        "intake",
        "## Intake\n\n`benchmarks/intake.py`: batches of 200 over HTTP from 4 platform clients; "
        "the reviewers (200, claim 10, 180 ms per item) decide from another queue while "
        "intake runs flat out (and, for comparison, alone for 20 s just before; both after "
        "10 s of the reviewers alone, unmeasured, and ANALYZE). The latest "
        "run per database and process count; the machine (2 cores) is shared with other "
        "work, its load beside each run.\n\n" + table,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    code = code_version()
    run = f"r{random.randrange(10**6)}"
    rng = random.Random(7)
    with bench_database(args.database_url, keep=args.keep_db, prefix="intake-") as url:
        backend = backend_name(url)
        print(f"preparing {backend} ...", flush=True)
        key, names = prepare(url, args.reviewers, args.items)
        load_before = round(os.getloadavg()[0], 2)
        logs = Path(tempfile.mkdtemp(prefix="intake-log-"))
        server = ServerProcess(url, args.workers, logs / "server.log")
        now = datetime.now(UTC)
        spy = None

        def profiling(phase: str) -> None:
            nonlocal spy
            if spy is not None:
                stop_py_spy(spy)
                spy = None
            if args.py_spy and phase == args.profile_phase and server.proc is not None:
                spy = start_py_spy(server.proc.pid, args.py_spy, args.py_spy_args)

        try:
            server.start()
            print(f"server on {server.base} ({args.workers} process(es))", flush=True)
            post_bodies = [post_body(n, run, now) for n in range(args.posts)]
            profiling("posts")
            posts, posts_wall = asyncio.run(
                fixed_phase(server.base, key, "posts", "posts", post_bodies, args)
            )
            print(f"  posts: {posts.elements} in {posts_wall:.1f} s {posts.statuses}", flush=True)
            signal_bodies = [signal_body(n, args.posts, run, rng) for n in range(args.signals)]
            profiling("signals")
            signals, signals_wall = asyncio.run(
                fixed_phase(server.base, key, "signals", "signals", signal_bodies, args)
            )
            print(
                f"  signals: {signals.elements} in {signals_wall:.1f} s {signals.statuses}",
                flush=True,
            )
            if not args.no_mixed and args.warmup > 0:
                warm_up(server, key, names, args, run, url)
            alone: dict[str, Any] = {}
            if not args.no_mixed and args.alone_seconds > 0:
                # the same reviewers without intake first: what intake adds to their claims
                alone = asyncio.run(
                    mixed_phase(
                        server,
                        key,
                        names,
                        args,
                        run,
                        intake=False,
                        seconds=args.alone_seconds,
                        prefix="alone",
                    )
                )
                print(
                    f"  reviewers alone: claim p99 {alone['alone_claim_ms_p99']} ms",
                    flush=True,
                )
            profiling("mixed")
            mixed = {} if args.no_mixed else asyncio.run(mixed_phase(server, key, names, args, run))
            profiling("done")
        finally:
            if spy is not None:
                stop_py_spy(spy)
            server.stop()
        if "Traceback" in server.log_tail(200):
            print(f"the server logged errors:\n{server.log_tail(40)}", file=sys.stderr)
        shutil.rmtree(logs, ignore_errors=True)
    out: dict[str, Any] = {
        "backend": backend,
        "api_processes": args.workers,
        "warmup_seconds": args.warmup,
        "code": code,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "batch": args.batch,
        "clients": args.clients,
        "posts_per_second": round(posts.elements / posts_wall, 1),
        "post_batch_ms_p50": round(percentile(posts.batch_ms, 50), 1),
        "post_batch_ms_p99": round(percentile(posts.batch_ms, 99), 1),
        "signals_per_second": round(signals.elements / signals_wall, 1),
        "signal_batch_ms_p50": round(percentile(signals.batch_ms, 50), 1),
        "signal_batch_ms_p99": round(percentile(signals.batch_ms, 99), 1),
        "intake_errors": sum(posts.errors.values()) + sum(signals.errors.values()),
        **alone,
        **mixed,
        "load_before": load_before,
        "load_after": round(os.getloadavg()[0], 2),
    }
    print()
    width = max(len(k) for k in out)
    for k, v in out.items():
        print(f"  {k:<{width}}  {v}")
    if args.json:
        print(json.dumps(out, sort_keys=True))
    if args.py_spy:
        print()
        gil = "--gil" in shlex.split(args.py_spy_args)
        print(summarise_profile(args.py_spy, args.profile_top, gil=gil))
    if args.markdown:
        record_result("intake", f"{backend}, {args.workers}", out)
        write_markdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
