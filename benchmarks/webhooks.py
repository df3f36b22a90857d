"""Webhooks of the reference service: how soon a decision reaches the platform's endpoint,
and a backlog of a million actions drained with the server's memory flat.

Two phases, each on a fresh database, with ``reviewer-app server`` as its own process(es)
on 127.0.0.1 and a receiver in a process of its own (aiohttp) that answers 204 at once and
records when each message arrived:

1. latency: ``--reviewers`` simulated reviewers (benchmarks/claim_decide.py's, claim 10,
   ``--think-ms`` 180 per item: about 1,000 decisions/s) decide posts that came in through
   intake for ``--duration`` seconds; each decision's action is POSTed to one endpoint of
   the platform. Figures: the time from each action's ``decided_at`` (stamped in the
   verdict's transaction, just before it commits) to its arrival, p50/p90/p99/max
   (target p99 < 1 s), decisions/s and deliveries/s. With ``--producer lead`` a lead
   decides instead (``POST /decisions/bulk``, ``--bulk`` items at a time, paced to
   ``--rate`` decisions/s: 1,000 by default): each item its own decision and action, as a
   reviewer's verdict makes, at a fraction of the API's CPU, so the dispatcher can be
   measured at a rate the reviewers' path cannot reach on a small machine.
2. backlog: ``--backlog`` actions (1,000,000) are written and sealed before the server
   starts, the endpoint's cursor at 0; the server drains them while its resident memory
   (the server process and its workers) is sampled every second. Figures: actions/s and
   RSS at the start, at each tenth of the drain and the most seen.

It prints the figures and asserts nothing. ``--markdown`` keeps the run as the latest for
its database and process count in benchmarks/results/webhooks.json and rewrites the webhooks
section of benchmarks/README.md from it. Run it on a quiet machine; the load average at the
start is part of the figures.

    python benchmarks/webhooks.py                                  # SQLite in temp dirs
    python benchmarks/webhooks.py --database-url postgresql://u:pw@127.0.0.1/db
    python benchmarks/webhooks.py --backlog 50000 --duration 20    # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psutil
from claim_decide import Figures as ReviewerFigures
from claim_decide import (  # benchmarks/claim_decide.py
    ServerProcess,
    backend_name,
    cpu_percentages,
    cpu_snapshot,
    free_port,
    login,
    reviewer_loop,
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
from sqlalchemy import insert, select

from reviewer_app.core.api import ApiClient
from reviewer_app.core.bulk import Candidate, new_request
from reviewer_app.protocol import QueueConfig, Role, RoutingRule, UserCreate, VerdictStatus
from reviewer_app.protocol.intake import ClassifierSignal, IntakePost
from reviewer_app.protocol.queues import ClassifierCondition
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.records import dumps
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import enforcement_actions, items

PASSWORD = "bench-password-not-secret"
PLATFORM = "bench-platform"
LEAD = "bench-lead"
MODEL, LABEL = "spam-gbdt", "scam"
INTAKE_BATCH = 500

# The reviewers' queue (claim_decide's reviewers claim from LOAD_QUEUE.id), filled through
# intake: a post a spam model scored 0.5 or more is queued.
REVIEW_QUEUE = SeedQueue(
    id=LOAD_QUEUE.id,
    name="Webhook benchmark",
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


# -- the receiver (a process of its own) ------------------------------------------------------


def receive(port: int, out: Path, record: bool, delay_ms: float = 0.0) -> None:
    """Answer every POST with 204, at once or after ``delay_ms`` (a receiver some way off);
    keep (arrival, webhook-id, decided_at) when ``record``, else only counts; GET /stats
    says how many came (``distinct``: different actions; ``out_of_order``: arrivals of an
    action older than one already seen, expected with lanes); POST /finish writes ``out``."""
    from aiohttp import web

    arrivals: list[tuple[float, str, str]] = []
    state = {"count": 0, "distinct": 0, "last": 0, "out_of_order": 0}
    seen: set[int] = set()

    async def hook(request: web.Request) -> web.Response:
        body = await request.read()
        now = time.time()
        state["count"] += 1
        msg_id = request.headers.get("webhook-id", "")
        number = int(msg_id[4:]) if msg_id.startswith("act_") else 0
        if number not in seen:
            seen.add(number)
            state["distinct"] += 1
        if number < state["last"]:
            state["out_of_order"] += 1
        state["last"] = max(state["last"], number)
        if record:
            arrivals.append((now, msg_id, json.loads(body)["data"]["decided_at"]))
        if delay_ms:
            await asyncio.sleep(delay_ms / 1000)
        return web.Response(status=204)

    async def stats(_request: web.Request) -> web.Response:
        return web.json_response(state)

    async def finish(_request: web.Request) -> web.Response:
        out.write_text(json.dumps({"state": state, "arrivals": arrivals}))
        return web.json_response(state)

    app = web.Application()
    app.router.add_post("/hook", hook)
    app.router.add_get("/stats", stats)
    app.router.add_post("/finish", finish)
    web.run_app(app, host="127.0.0.1", port=port, print=None, access_log=None)


class Receiver:
    def __init__(self, record: bool, delay_ms: float = 0.0) -> None:
        self.port = free_port()
        self.out = Path(tempfile.mkdtemp(prefix="webhooks-rx-")) / "arrivals.json"
        self.proc = subprocess.Popen(
            [
                sys.executable,
                __file__,
                "receive",
                str(self.port),
                str(self.out),
                "record" if record else "count",
                str(delay_ms),
            ]
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError):
                self.stats()
                return
            time.sleep(0.1)
        raise RuntimeError("the receiver did not start")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def stats(self) -> dict[str, int]:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/stats", timeout=5) as r:
            found: dict[str, int] = json.loads(r.read())
        return found

    def finish(self) -> dict[str, Any]:
        """Everything it received (it writes its records, then it is stopped)."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/finish", method="POST")
        with urllib.request.urlopen(request, timeout=120):
            pass
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(60)
        found: dict[str, Any] = json.loads(self.out.read_text())
        return found


# -- phase 1: latency at the reviewers' pace --------------------------------------------------


def prepare_latency(
    url: str, reviewers: int, posts: int, receiver_url: str
) -> tuple[list[str], list[str]]:
    """Reviewers, a lead, the platform account and its endpoint, ``posts`` posts through
    intake, each queued by a spam score. The reviewers' names and the queued items' ids."""
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        names = [f"bench-reviewer-{i:04d}" for i in range(reviewers)]
        for name in names:
            service.create_user(UserCreate(username=name, password=PASSWORD))
        service.create_user(UserCreate(username=LEAD, password=PASSWORD, role=Role.lead))
        with service.db.write() as conn:
            insert_queues(conn, [REVIEW_QUEUE])
        service.forget_configs()
        platform = service.service_account(PLATFORM, Role.platform)
        now = datetime.now(UTC)
        started = time.perf_counter()
        for first in range(0, posts, INTAKE_BATCH):
            numbers = range(first, min(posts, first + INTAKE_BATCH))
            service.intake_posts(platform, [post(n, now) for n in numbers])
            service.intake_signals(platform, [score(n) for n in numbers])
        print(f"  {posts} posts through intake in {time.perf_counter() - started:.1f} s")
        service.add_webhook(receiver_url, PLATFORM, None, "bench")
        service.seal_now()
        with service.db.read() as conn:
            queued = list(
                conn.execute(
                    select(items.c.id)
                    .where(items.c.queue_id == REVIEW_QUEUE.id, items.c.state == "pending")
                    .order_by(items.c.id)
                ).scalars()
            )
    finally:
        service.close()
    return names, queued


def post(n: int, now: datetime) -> IntakePost:
    author = n % 5_000
    return IntakePost.model_validate(
        {
            "external_id": f"post-{n}",
            "text": f"Post number {n}: claim your prize today, limited offer.",
            "language": "en",
            "created_at": (now - timedelta(seconds=n % 3_600)).isoformat(),
            "url": f"https://social.example/p/{n}",
            "author": {
                "external_id": f"author-{author}",
                "handle": f"user{author}",
                "account_created_at": (now - timedelta(days=1 + author % 900)).isoformat(),
            },
        }
    )


def score(n: int) -> ClassifierSignal:
    return ClassifierSignal.model_validate(
        {
            "kind": "classifier",
            "id": f"sig-{n}",
            "post_external_id": f"post-{n}",
            "model": MODEL,
            "model_version": "14.0",
            "label": LABEL,
            "score": 0.9,
            "threshold": 0.7,
        }
    )


async def run_reviewers(
    server: Services, names: list[str], args: argparse.Namespace
) -> tuple[ReviewerFigures, float, dict[str, float]]:
    base = server.base
    limit = asyncio.Semaphore(32)
    tokens = await asyncio.gather(*(login(base, name, limit) for name in names))
    figures = ReviewerFigures()
    queue_empty = asyncio.Event()
    cpu_before = cpu_snapshot(server)
    started = time.perf_counter()
    deadline = started + args.duration
    await asyncio.gather(
        *(
            reviewer_loop(base, name, token, args, figures, deadline, queue_empty)
            for name, token in zip(names, tokens, strict=True)
        )
    )
    wall = (figures.finished_at or time.perf_counter()) - started
    cpu_after = cpu_snapshot(server)
    return figures, wall, {k: cpu_after[k] - cpu_before[k] for k in cpu_after}


def run_lead(
    server: Services, queued: list[str], args: argparse.Namespace
) -> tuple[int, float, dict[str, float], list[float]]:
    """A lead decides ``args.bulk`` items at a time, one bulk every ``bulk / rate`` seconds
    (a late bulk is sent at once: the pace is kept on average), for ``args.duration``.
    Returns the items decided, the seconds it took, the CPU used and each bulk's seconds."""
    client = ApiClient(server.base)
    client.login(LEAD, PASSWORD)
    interval = args.bulk / args.rate
    cpu_before = cpu_snapshot(server)
    started = time.perf_counter()
    deadline = started + args.duration
    due = started
    decided, position, seconds = 0, 0, []
    try:
        while time.perf_counter() < deadline and position < len(queued):
            wait = due - time.perf_counter()
            if wait > 0:
                time.sleep(wait)
            batch = queued[position : position + args.bulk]
            position += len(batch)
            request = new_request(
                [Candidate(i, REVIEW_QUEUE.id) for i in batch],
                "remove",
                policies=["SPAM.SCAM"],
                at=time.time(),
            )
            sent = time.perf_counter()
            results = client.bulk_decide(request)
            seconds.append(time.perf_counter() - sent)
            decided += sum(r.status is VerdictStatus.accepted for r in results.results)
            due += interval
    finally:
        client.close()
    wall = time.perf_counter() - started
    cpu_after = cpu_snapshot(server)
    return decided, wall, {k: cpu_after[k] - cpu_before[k] for k in cpu_after}, seconds


class Services:
    """The API process(es), and with ``--dispatcher-process`` a process of its own that
    only delivers webhooks (``reviewer-app server webhook run``; the API processes run
    no dispatcher then)."""

    def __init__(self, url: str, args: argparse.Namespace, log: Path) -> None:
        self.api = ServerProcess(url, args.workers, log)
        self.url = url
        self.separate = args.dispatcher_process
        self.log = log.with_suffix(".dispatcher.log")
        self.dispatcher: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        saved = os.environ.get("REVIEWER_SERVER_WEBHOOK_WORKERS")
        if self.separate:
            os.environ["REVIEWER_SERVER_WEBHOOK_WORKERS"] = "0"
        try:
            self.api.start()
        finally:
            if saved is None:
                os.environ.pop("REVIEWER_SERVER_WEBHOOK_WORKERS", None)
            else:
                os.environ["REVIEWER_SERVER_WEBHOOK_WORKERS"] = saved
        if self.separate:
            with open(self.log, "wb") as out:
                self.dispatcher = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "reviewer_app",
                        "server",
                        "--database-url",
                        self.url,
                        "webhook",
                        "run",
                        "--log-level",
                        "info",
                    ],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            # the decisions start once it delivers (its start is not what is measured)
            deadline = time.monotonic() + 120
            while "delivering webhooks" not in self.log.read_text(errors="replace"):
                if self.dispatcher.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the dispatcher did not start: see {self.log}")
                time.sleep(0.1)

    @property
    def base(self) -> str:
        return self.api.base

    def pids(self) -> list[int]:
        return self.api.pids() + ([self.dispatcher.pid] if self.dispatcher else [])

    def stop(self) -> None:
        if self.dispatcher is not None and self.dispatcher.poll() is None:
            self.dispatcher.terminate()
            self.dispatcher.wait(60)
        self.api.stop()


def latency_phase(url: str, args: argparse.Namespace, logs: Path) -> dict[str, Any]:
    receiver = Receiver(record=True, delay_ms=args.receiver_delay_ms)
    try:
        posts = args.posts or int(args.duration * max(1_300, args.rate * 1.1)) + 2_000
        lead = args.producer == "lead"
        who = (
            f"a lead at {args.rate:g} decisions/s in bulks of {args.bulk}"
            if lead
            else f"{args.reviewers} reviewers"
        )
        print(f"phase 1: {who}, {posts} posts ...", flush=True)
        names, queued = prepare_latency(url, 0 if lead else args.reviewers, posts, receiver.url)
        server = Services(url, args, logs / "latency-server.log")
        figures = ReviewerFigures()
        bulk_seconds: list[float] = []
        try:
            server.start()
            if lead:
                decided, wall, cpu, bulk_seconds = run_lead(server, queued, args)
            else:
                figures, wall, cpu = asyncio.run(run_reviewers(server, names, args))
                decided = figures.statuses.get("accepted", 0)
            print(f"  {decided} decided in {wall:.1f} s; waiting for the deliveries ...")
            deadline = time.monotonic() + 120
            while receiver.stats()["distinct"] < decided and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            server.stop()
    finally:
        received = receiver.finish()
    arrivals = received["arrivals"]
    first: dict[str, float] = {}
    latencies = []
    for at, msg_id, decided_at in arrivals:
        if msg_id in first:
            continue
        first[msg_id] = at
        latencies.append(at - datetime.fromisoformat(decided_at).timestamp())
    times = [a[0] for a in arrivals]
    span = max(times) - min(times) if times else 0.0
    # how the latency went over the run: the p99 of each tenth of the arrivals in order
    tenth = max(1, len(latencies) // 10)
    by_tenth = [
        round(1000 * percentile(latencies[i : i + tenth], 99))
        for i in range(0, tenth * 10, tenth)
        if latencies[i : i + tenth]
    ]
    producer: dict[str, Any] = (
        {
            "producer": "lead",
            "rate_asked": args.rate,
            "bulk": args.bulk,
            "bulk_ms_p50": round(1000 * percentile(bulk_seconds, 50), 1),
            "bulk_ms_p99": round(1000 * percentile(bulk_seconds, 99), 1),
        }
        if args.producer == "lead"
        else {
            "producer": "reviewers",
            "reviewers": args.reviewers,
            "think_ms": args.think_ms,
            "reviewer_errors": sum(figures.errors.values()),
            "claim_ms_p99": round(percentile(figures.claim_ms, 99), 1),
        }
    )
    return {
        **producer,
        "decided": decided,
        "decided_per_second": round(decided / wall, 1) if wall else 0.0,
        "delivered": len(first),
        "duplicates": len(arrivals) - len(first),
        "out_of_order": received["state"]["out_of_order"],
        "deliveries_per_second": round(len(arrivals) / span, 1) if span else 0.0,
        "latency_ms_p50": round(1000 * percentile(latencies, 50), 1),
        "latency_ms_p90": round(1000 * percentile(latencies, 90), 1),
        "latency_ms_p99": round(1000 * percentile(latencies, 99), 1),
        "latency_ms_max": round(1000 * max(latencies, default=0.0), 1),
        "latency_ms_p99_by_tenth": by_tenth,
        **{f"latency_{k}": v for k, v in cpu_percentages(cpu, wall).items()},
    }


# -- phase 2: a backlog of a million -----------------------------------------------------------


def prepare_backlog(url: str, count: int, receiver_url: str) -> float:
    """``count`` sealed actions of the platform and its endpoint at cursor 0; seconds spent."""
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    started = time.perf_counter()
    try:
        service.service_account(PLATFORM, Role.platform)
        now = time.time()
        kinds = ["remove", "keep", "reduce", "label"]
        chunk = 20_000
        for first in range(0, count, chunk):
            rows = [
                {
                    "created_at": now,
                    "kind": kinds[n % 4],
                    "source": PLATFORM,
                    "post_id": f"p{n}",
                    "post_external_id": f"post-{n}",
                    "author_id": f"a{n % 5000}",
                    "author_external_id": f"author-{n % 5000}",
                    "item_id": f"it{n}",
                    "decision_id": None,
                    "queue_id": "load-test",
                    "config_version": 1,
                    "decided_at": now,
                    "reverses_action_id": None,
                    "payload": dumps({"policies": ["SPAM.SCAM"]} if n % 4 == 0 else {}),
                }
                for n in range(first, min(count, first + chunk))
            ]
            with service.db.write() as conn:
                conn.execute(insert(enforcement_actions), rows)
            print(f"\r  written {min(count, first + chunk)} actions", end="", flush=True)
        print("\n  sealing ...", flush=True)
        service.seal_now()
        endpoint, _secret = service.add_webhook(receiver_url, PLATFORM, None, "bench")
        service.replay_webhook(endpoint.id, 0, "bench")
    finally:
        service.close()
    return time.perf_counter() - started


def rss_mb(server: Services) -> float:
    total = 0
    for pid in server.pids():
        with contextlib.suppress(psutil.Error):
            total += psutil.Process(pid).memory_info().rss
    return total / 1e6


def backlog_phase(url: str, args: argparse.Namespace, logs: Path) -> dict[str, Any]:
    receiver = Receiver(record=False, delay_ms=args.receiver_delay_ms)
    try:
        print(f"phase 2: a backlog of {args.backlog} actions ...", flush=True)
        prep = prepare_backlog(url, args.backlog, receiver.url)
        print(f"  prepared in {prep:.1f} s", flush=True)
        server = Services(url, args, logs / "backlog-server.log")
        samples: list[tuple[float, int, float]] = []  # (seconds, delivered, RSS MB)
        try:
            server.start()
            started = time.perf_counter()
            deadline = started + args.backlog_timeout
            while True:
                done = receiver.stats()["distinct"]
                samples.append((time.perf_counter() - started, done, rss_mb(server)))
                if done >= args.backlog or time.perf_counter() > deadline:
                    break
                if len(samples) % 30 == 0:
                    rate = done / max(samples[-1][0], 1e-9)
                    print(
                        f"  {done} delivered, {rate:.0f}/s, server RSS {samples[-1][2]:.0f} MB",
                        flush=True,
                    )
                time.sleep(1.0)
            wall = time.perf_counter() - started
        finally:
            server.stop()
    finally:
        state = receiver.finish()["state"]
    by_tenth = []
    for tenth in range(0, 11):
        wanted = args.backlog * tenth / 10
        found = next((s for s in samples if s[1] >= wanted), samples[-1])
        by_tenth.append(round(found[2]))
    return {
        "backlog": args.backlog,
        "backlog_prepare_seconds": round(prep, 1),
        "backlog_delivered": state["distinct"],
        "backlog_out_of_order": state["out_of_order"],
        "backlog_seconds": round(wall, 1),
        "backlog_per_second": round(state["distinct"] / wall, 1) if wall else 0.0,
        "backlog_rss_mb_by_tenth": by_tenth,
        "backlog_rss_mb_max": round(max(s[2] for s in samples)),
    }


# -- main ---------------------------------------------------------------------------------------


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--workers", type=int, default=1, help="API processes")
    parser.add_argument(
        "--producer",
        choices=("reviewers", "lead"),
        default="reviewers",
        help="who decides in phase 1: simulated reviewers, or a lead's bulk decisions",
    )
    parser.add_argument("--rate", type=float, default=1_000.0, help="lead: decisions/s")
    parser.add_argument("--bulk", type=int, default=100, help="lead: items per bulk decision")
    parser.add_argument("--reviewers", type=int, default=200)
    parser.add_argument("--claim", type=int, default=10)
    parser.add_argument("--think-ms", type=float, default=180.0, help="reviewers' ms per item")
    parser.add_argument("--ramp", type=float, default=0.0)
    parser.add_argument("--timeout", type=float, default=60.0, help="reviewers' HTTP timeout")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of phase 1")
    parser.add_argument(
        "--posts", type=int, default=0, help="posts for phase 1 (default: enough for it)"
    )
    parser.add_argument("--backlog", type=int, default=1_000_000, help="actions in phase 2")
    parser.add_argument(
        "--backlog-timeout", type=float, default=3_600.0, help="give phase 2 at most this long"
    )
    parser.add_argument(
        "--dispatcher-process",
        action="store_true",
        help="deliver from a process of its own (webhook run), not the API processes",
    )
    parser.add_argument(
        "--lanes",
        type=int,
        default=1,
        help="webhook_lanes: connections per endpoint, in order per author (1: total order)",
    )
    parser.add_argument(
        "--receiver-delay-ms",
        type=float,
        default=0.0,
        help="the receiver answers after this long (a platform some way off)",
    )
    parser.add_argument("--skip-latency", action="store_true")
    parser.add_argument("--skip-backlog", action="store_true")
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    parser.add_argument(
        "--markdown", action="store_true", help="record the run on benchmarks/README.md"
    )
    return parser.parse_args(argv)


def write_markdown() -> None:
    rows = stored_results("webhooks")
    table = markdown_table(
        [
            "database, API processes (dispatcher, lanes, receiver delay)",
            "decisions/s",
            "decided → received p50 / p99 / max ms",
            "backlog drained",
            "server RSS MB at each tenth of the drain",
            "load at start",
            "code",
            "date",
        ],
        [
            [
                key,
                r.get("decided_per_second", "-"),
                f"{r.get('latency_ms_p50', '-')} / {r.get('latency_ms_p99', '-')} / "
                f"{r.get('latency_ms_max', '-')}",
                f"{r.get('backlog', '-'):,} at {r.get('backlog_per_second', '-')}/s"
                if "backlog" in r
                else "-",
                " ".join(str(x) for x in r.get("backlog_rss_mb_by_tenth", [])) or "-",
                r.get("load_average", "-"),
                r["code"],
                r["date"],
            ]
            for key, r in sorted(rows.items())
        ],
    )
    write_page_section(
        "webhooks",
        "## Webhooks\n\n`benchmarks/webhooks.py`: 200 reviewers (claim 10, 180 ms per item: "
        "about 1,000 decisions/s) decide posts from intake; every action is POSTed to one "
        "endpoint (a receiver process answering 204). Rows marked *a lead at 1000/s*: a "
        "lead's bulk decisions (`POST /decisions/bulk`, 100 items a bulk, paced to 1,000 "
        "decisions/s; each item its own decision and action) instead of the reviewers, whose "
        "path cannot reach 1,000/s on this machine. Latency is from the action's "
        "`decided_at` (in the decision's transaction) to its arrival (target p99 < 1 s). "
        "Then a backlog of actions, sealed before the server starts, is drained while the "
        "server's RSS is sampled. The latest run per database and process count.\n\n" + table,
    )


def main(argv: list[str] | None = None) -> int:
    raw = sys.argv[1:] if argv is None else argv
    if raw[:1] == ["receive"]:
        receive(int(raw[1]), Path(raw[2]), raw[3] == "record", float(raw[4]))
        return 0
    args = parse_args(raw)
    os.environ["REVIEWER_SERVER_WEBHOOK_LANES"] = str(args.lanes)  # the server processes'
    code = code_version()
    load = os.getloadavg()[0]
    random.seed(7)
    out: dict[str, Any] = {
        "api_processes": args.workers,
        "dispatcher": "own process" if args.dispatcher_process else "API process",
        "lanes": args.lanes,
        "receiver_delay_ms": args.receiver_delay_ms,
        "code": code,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "load_average": round(load, 2),
        "cpus": os.cpu_count(),
    }
    print(f"load average at the start: {load:.2f} ({os.cpu_count()} cores)", flush=True)
    logs = Path(tempfile.mkdtemp(prefix="webhooks-log-"))
    backend = "?"
    if not args.skip_latency:
        with bench_database(args.database_url, keep=args.keep_db, prefix="webhooks-") as url:
            backend = backend_name(url)
            out.update(latency_phase(url, args, logs))
    if not args.skip_backlog:
        with bench_database(args.database_url, keep=args.keep_db, prefix="webhooks-") as url:
            backend = backend_name(url)
            out.update(backlog_phase(url, args, logs))
    out["backend"] = backend
    for name in ("latency-server.log", "backlog-server.log"):
        path = logs / name
        if path.exists() and "Traceback" in path.read_text(errors="replace"):
            print(f"{name} has errors:\n{path.read_text(errors='replace')[-3000:]}")
    print()
    width = max(len(k) for k in out)
    for k, v in out.items():
        print(f"  {k:<{width}}  {v}")
    if args.json:
        print(json.dumps(out, sort_keys=True))
    if args.markdown:
        where = ", dispatcher process" if args.dispatcher_process else ""
        if args.lanes > 1:
            where += f", {args.lanes} lanes"
        if args.receiver_delay_ms:
            where += f", receiver +{args.receiver_delay_ms:g} ms"
        if args.producer == "lead":
            where += f", a lead at {args.rate:g}/s"
        record_result("webhooks", f"{backend}, {args.workers}{where}", out)
        write_markdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
