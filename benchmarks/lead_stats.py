"""Lead figures with a million decisions: queue stats, reviewer stats and the CSV export.

Builds a fresh database (SQLite in a temp dir, or a throwaway PostgreSQL database next
to ``--database-url``), bulk-loads decisions straight through SQLAlchemy Core (spread
over ``--days`` up to now, across queues and reviewers, with some audits and conflicts),
rebuilds the rollups the service keeps on write, starts ``reviewer-app server`` as its
own process on 127.0.0.1, then times over HTTP:

- ``GET /stats/queues`` and ``GET /stats/reviewers`` for a 24-hour, a 7-day and the whole
  window (p50 / p95 / max over ``--calls`` calls each), and ``GET /stats/exposure`` (each
  reviewer's shift and last 7 days);
- ``GET /stats/quality`` (the Reviewers table's flags, against the window before) for the
  same windows, ``GET /stats/reviewers/{name}/trend`` of one reviewer over 7 days, and a
  reviewer's own ``GET /me/decisions`` (their last 7 days, first page of 100);
- ``GET /decisions/export`` of every decision, streamed (rows/s).

Prints the figures; asserts nothing (figures of speed live in benchmarks, not tests).

    python benchmarks/lead_stats.py                                   # SQLite
    python benchmarks/lead_stats.py --database-url postgresql://u:pw@127.0.0.1/db
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import requests
from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    filesystem_of,
    percentile,
)
from sqlalchemy import insert, select
from sqlalchemy.engine import make_url

from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import rollups
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import audit_items, audit_samples, decisions, verdict_keys

API = "/api/v1"
PASSWORD = "bench-password-not-secret"
QUEUES = ("spam", "hate", "misinfo", "inauthentic")
ACTIONS = (("keep", 0.55), ("remove", 0.33), ("escalate", 0.04), ("keep", 0.08))
CHUNK = 20_000


def load(url: str, count: int, reviewers: int, days: float, now: float) -> dict[str, float]:
    """Queues, users, a backlog, ``count`` decisions, audits and conflicts; returns timings."""
    timings: dict[str, float] = {}
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        queues = [
            SeedQueue(id=q, name=q.title(), description="benchmark", config=LOAD_QUEUE.config)
            for q in QUEUES
        ]
        escalations = SeedQueue(
            id="escalations",
            name="Escalations",
            description="benchmark",
            config=LOAD_QUEUE.config.model_copy(update={"lead_only": True}),
        )
        with service.db.write() as conn:
            insert_queues(conn, [*queues, escalations])
        service.forget_configs()
        seed_load_queue(service, 20_000)  # a backlog for the queue figures
        user_ids = [
            service.create_user(
                UserCreate(username=f"reviewer-{i:03d}", password=PASSWORD, role=Role.reviewer)
            ).id
            for i in range(reviewers)
        ]
        service.create_user(UserCreate(username="bench-lead", password=PASSWORD, role=Role.lead))

        rng = random.Random(11)
        start = now - days * 86_400
        step = days * 86_400 / count
        weights = [w for _, w in ACTIONS]
        names = [a for a, _ in ACTIONS]
        began = time.perf_counter()
        with service.db.write() as conn:
            for first in range(0, count, CHUNK):
                rows = []
                for i in range(first, min(count, first + CHUNK)):
                    action = rng.choices(names, weights)[0]
                    at = start + i * step
                    rows.append(
                        {
                            "item_id": f"bench-{i}",
                            "epoch": 0,
                            "queue_id": QUEUES[i % len(QUEUES)],
                            "user_id": user_ids[rng.randrange(reviewers)],
                            "author_id": f"author-{i % 5_000}",
                            "action": action,
                            "policies": '["SPAM.SCAM"]' if action == "remove" else "[]",
                            "note": None if i % 20 else '=HYPERLINK("x") and a note, "quoted"',
                            "time_spent_ms": int(rng.lognormvariate(9.2, 0.7)),
                            "decided_at": at,
                            "client_decided_at": at - rng.uniform(0, 2),
                        }
                    )
                conn.execute(insert(decisions), rows)
        timings["insert decisions"] = time.perf_counter() - began

        began = time.perf_counter()
        with service.db.write() as conn:
            rollups.rebuild(conn)
        timings["rebuild rollups"] = time.perf_counter() - began

        began = time.perf_counter()
        with service.db.write() as conn:
            sample_id = conn.execute(
                insert(audit_samples)
                .values(
                    method="random",
                    requested_size=2_000,
                    size=2_000,
                    since=start,
                    until=now,
                    created_at=now,
                    created_by=user_ids[0],
                )
                .returning(audit_samples.c.id)
            ).scalar_one()
            picked = conn.execute(
                select(decisions).where(decisions.c.id % 500 == 0).limit(2_000)
            ).mappings()
            audit_rows = []
            for position, d in enumerate(picked):
                overturn = rng.random() < 0.12
                audit_rows.append(
                    {
                        "sample_id": sample_id,
                        "position": position,
                        "decision_id": d["id"],
                        "item_id": d["item_id"],
                        "queue_id": d["queue_id"],
                        "reviewer_id": d["user_id"],
                        "decided_at": d["decided_at"],
                        "action": d["action"],
                        "result": "overturn" if overturn else "agree",
                        "auditor_id": user_ids[0],
                        "final_action": ("keep" if d["action"] != "keep" else "remove")
                        if overturn
                        else d["action"],
                        "recorded_at": now,
                    }
                )
            conn.execute(insert(audit_items), audit_rows)
            conn.execute(
                insert(verdict_keys),
                [
                    {
                        "key": f"{i:08d}-0000-4000-8000-000000000000",
                        "user_id": user_ids[i % reviewers],
                        "body_hash": "0" * 64,
                        "result": json.dumps({"status": "conflict"}),
                        "created_at": start + rng.uniform(0, days * 86_400),
                        "status": "conflict",
                    }
                    for i in range(count // 100)
                ],
            )
        service.db.analyze()
        timings["audits, conflicts, analyze"] = time.perf_counter() - began
    finally:
        service.close()
    return timings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def server(url: str) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "REVIEWER_SERVER_PASSWORD_HASH_PROFILE": "fast"}
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "reviewer_app", "server", "--database-url", url),
            *("--port", str(port), "--log-level", "warning"),
        ],
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            # not up yet, or too busy to answer (a loaded machine): ask again
            with contextlib.suppress(requests.RequestException):
                if requests.get(base + API + "/meta", timeout=2).ok:
                    break
            time.sleep(0.2)
        yield base
    finally:
        proc.terminate()
        proc.wait(30)


def iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def time_calls(
    session: requests.Session, url: str, params: dict[str, str], calls: int
) -> list[float]:
    session.get(url, params=params, timeout=120).raise_for_status()  # warm up
    spent = []
    for _ in range(calls):
        began = time.perf_counter()
        response = session.get(url, params=params, timeout=120)
        spent.append((time.perf_counter() - began) * 1000)
        response.raise_for_status()
    return spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL (default: SQLite)")
    parser.add_argument("--decisions", type=int, default=1_000_000)
    parser.add_argument("--reviewers", type=int, default=60)
    parser.add_argument("--days", type=float, default=30.0)
    parser.add_argument("--calls", type=int, default=50)
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args()
    now = time.time()
    with bench_database(args.database_url, keep=args.keep_db, prefix="lead-stats-") as url:
        backend = make_url(url).get_backend_name()
        timings = load(url, args.decisions, args.reviewers, args.days, now)
        with server(url) as base:
            session = requests.Session()
            token = session.post(
                base + API + "/sessions", json={"username": "bench-lead", "password": PASSWORD}
            ).json()["token"]
            session.headers["Authorization"] = f"Bearer {token}"
            rows: list[tuple[str, str, list[float]]] = []
            windows = {
                "24 h": 86_400.0,
                "7 d": 7 * 86_400.0,
                f"{args.days:g} d": args.days * 86_400,
            }
            for label, seconds in windows.items():
                params = {"since": iso(now - seconds), "until": iso(now)}
                for route in ("queues", "reviewers", "quality"):
                    query = dict(params)
                    if route == "queues" and seconds > 40 * 86_400:
                        query["bucket"] = "day"
                    spent = time_calls(session, f"{base}{API}/stats/{route}", query, args.calls)
                    rows.append((f"/stats/{route}", label, spent))
            # exposure per reviewer: this shift and 7 days, whatever the window
            spent = time_calls(session, f"{base}{API}/stats/exposure", {}, args.calls)
            rows.append(("/stats/exposure", "7 d", spent))
            week = {"since": iso(now - 7 * 86_400), "until": iso(now)}
            trend_url = f"{base}{API}/stats/reviewers/reviewer-000/trend"
            rows.append(("/stats/…/trend", "7 d", time_calls(session, trend_url, week, args.calls)))
            mine = requests.Session()
            mine_token = mine.post(
                base + API + "/sessions", json={"username": "reviewer-000", "password": PASSWORD}
            ).json()["token"]
            mine.headers["Authorization"] = f"Bearer {mine_token}"
            spent = time_calls(mine, f"{base}{API}/me/decisions", {"limit": "100"}, args.calls)
            rows.append(("/me/decisions", "7 d", spent))
            began = time.perf_counter()
            exported = 0
            with session.get(f"{base}{API}/decisions/export", stream=True, timeout=600) as response:
                response.raise_for_status()
                for chunk in response.iter_content(1 << 20):
                    exported += chunk.count(b"\n")
            export_seconds = time.perf_counter() - began
    print()
    print(f"lead_stats benchmark, code {code_version()}, {backend}", end="")
    print(
        f" ({filesystem_of(Path(tempfile.gettempdir()))} temp dir)" if backend == "sqlite" else ""
    )
    print(f"{args.decisions:,} decisions over {args.days:g} days, {args.reviewers} reviewers")
    for name, seconds in timings.items():
        print(f"  load: {name:<28} {seconds:8.1f} s")
    print()
    print(f"{'route':<18} {'window':<8} {'calls':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for route, label, spent in rows:
        print(
            f"{route:<18} {label:<8} {len(spent):>5} {percentile(spent, 50):>8.1f} "
            f"{percentile(spent, 95):>8.1f} {max(spent):>8.1f}"
        )
    print()
    lines = exported - 1  # the header (notes hold no newlines here)
    print(
        f"export: {lines:,} rows in {export_seconds:.1f} s = {lines / export_seconds:,.0f} rows/s"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
