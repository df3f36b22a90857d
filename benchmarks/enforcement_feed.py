"""The enforcement feed read by a catching-up reader: actions/s over HTTP.

Prepares a fresh database with a platform key and ``--actions`` enforcement action rows
(a mix of keep, remove with policies, label with its fact-check, reduce, and remove with an
author action, on ``--actions`` posts), inserted unsealed in chunks as decisions would
insert them and then sealed by the service's sequencer (the sealing rate is printed too).
Starts ``reviewer-app server`` as its own process on 127.0.0.1, and ``--readers``
readers each read the whole feed from cursor 0 with ``limit=--limit`` as fast as pages come
(one request at a time each, keep-alive), checking every page follows the one before.

It prints the figures and asserts nothing. ``--markdown`` keeps the run as the latest for
its database in benchmarks/results/enforcement_feed.json and rewrites the feed's section of
benchmarks/README.md from it.

    python benchmarks/enforcement_feed.py                                  # SQLite, temp dir
    python benchmarks/enforcement_feed.py --database-url postgresql://u:pw@127.0.0.1/db
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import requests
from claim_decide import ServerProcess, backend_name  # benchmarks/claim_decide.py
from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    markdown_table,
    percentile,
    record_result,
    stored_results,
    write_page_section,
)
from sqlalchemy import insert

from reviewer_app.protocol import Role
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.records import dumps
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import enforcement_actions

API = "/api/v1"
PLATFORM = "bench-platform"
CHUNK = 5_000

_DETAILS = [
    ("keep", {}),
    ("remove", {"policies": ["SPAM.SCAM"]}),
    (
        "label",
        {
            "label": {
                "rating": "missing_context",
                "rating_label": "Missing context",
                "organisation": "Check Desk",
                "url": "https://factcheck.example/a/1",
            }
        },
    ),
    ("reduce", {}),
    ("remove", {"policies": ["HATE.SLUR", "HARASS.TARGETED"], "author_action": "restrict"}),
]


def action_row(n: int, now: float) -> dict[str, Any]:
    kind, details = _DETAILS[n % len(_DETAILS)]
    return {
        "created_at": now,
        "kind": kind,
        "source": PLATFORM,
        "post_id": f"p-bench-{n}",
        "post_external_id": f"post-{n:09d}",
        "author_id": f"a-bench-{n % 5000}",
        "author_external_id": f"author-{n % 5000:06d}",
        "item_id": f"item-{n:09d}",
        "decision_id": n + 1,
        "queue_id": "bench-queue",
        "config_version": 1,
        "decided_at": now - 3600 + n * 0.01,
        "reverses_action_id": None,
        "payload": dumps(details),
    }


def prepare(url: str, actions: int) -> dict[str, Any]:
    """The platform key, and the seconds inserting and sealing took."""
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        key = service.create_api_key(Role.platform, PLATFORM).key
        now = time.time()
        started = time.perf_counter()
        for first in range(0, actions, CHUNK):
            rows = [action_row(n, now) for n in range(first, min(actions, first + CHUNK))]
            with service.db.write() as conn:
                conn.execute(insert(enforcement_actions), rows)
        inserted = time.perf_counter() - started
        started = time.perf_counter()
        service.seal_now()  # the event log's few entries too
        sealing = time.perf_counter() - started
        service.db.analyze()
    finally:
        service.close()
    return {"key": key, "insert_seconds": inserted, "seal_seconds": sealing}


def read_everything(base: str, key: str, limit: int, expected: int) -> dict[str, Any]:
    """One catching-up reader: from cursor 0 to the end, a page at a time."""
    http = requests.Session()
    http.headers["Authorization"] = f"Bearer {key}"
    cursor, count, page_ms = 0, 0, []
    started = time.perf_counter()
    while True:
        t0 = time.perf_counter()
        response = http.get(
            f"{base}{API}/enforcement", params={"after": cursor, "limit": limit}, timeout=60
        )
        page = response.json()
        page_ms.append((time.perf_counter() - t0) * 1000)
        if response.status_code != 200:
            raise RuntimeError(f"{response.status_code}: {response.text[:300]}")
        actions = page["actions"]
        if not actions:
            break
        seqs = [a["seq"] for a in actions]
        if seqs[0] <= cursor or seqs != sorted(seqs):
            raise RuntimeError(f"out of order after {cursor}: {seqs[:5]}")
        count += len(actions)
        cursor = page["next_cursor"]
    wall = time.perf_counter() - started
    if count != expected:
        raise RuntimeError(f"read {count} actions, {expected} were sealed")
    return {"seconds": wall, "count": count, "page_ms": page_ms}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--actions", type=int, default=200_000)
    parser.add_argument("--limit", type=int, default=500, help="actions per page (at most 500)")
    parser.add_argument("--readers", type=int, default=1, help="readers at once")
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    parser.add_argument(
        "--markdown", action="store_true", help="record the run on benchmarks/README.md"
    )
    return parser.parse_args(argv)


def write_markdown() -> None:
    rows = stored_results("enforcement_feed")
    table = markdown_table(
        [
            "database",
            "actions",
            "readers",
            "actions/s per reader",
            "page ms p50 / p99",
            "sealed actions/s (seeding)",
            "load avg (1 min) before",
            "code",
            "date",
        ],
        [
            [
                key,
                r["actions"],
                r["readers"],
                r["actions_per_second"],
                f"{r['page_ms_p50']} / {r['page_ms_p99']}",
                r["sealed_per_second"],
                r["load_before"],
                r["code"],
                r["date"],
            ]
            for key, r in sorted(rows.items())
        ],
    )
    write_page_section(
        "enforcement_feed",
        "## Enforcement feed\n\n`benchmarks/enforcement_feed.py`: a platform reads its whole "
        "feed from cursor 0 over HTTP, `limit=500`, one request at a time (target: 20,000 "
        "actions/s). The actions are inserted unsealed and sealed by the sequencer first "
        "(its rate is the sealed column). One API process; the latest run per database and "
        "reader count.\n\n" + table,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    code = code_version()
    load_before = os.getloadavg()[0]
    with bench_database(args.database_url, keep=args.keep_db, prefix="feed-") as url:
        backend = backend_name(url)
        print(f"preparing {backend}: {args.actions} actions ...", flush=True)
        prepared = prepare(url, args.actions)
        print(
            f"  inserted in {prepared['insert_seconds']:.1f} s, sealed in "
            f"{prepared['seal_seconds']:.1f} s",
            flush=True,
        )
        logs = Path(tempfile.mkdtemp(prefix="feed-log-"))
        # a reader catching up sends hundreds of requests a second: the per-caller rate
        # limit (6,000 a minute after a burst of 1,000) would measure itself, not the feed
        os.environ["REVIEWER_SERVER_RATE_LIMIT_PER_MINUTE"] = "0"
        server = ServerProcess(url, 1, logs / "server.log")
        results: list[dict[str, Any]] = []
        errors: list[BaseException] = []
        try:
            server.start()
            read_everything(server.base, prepared["key"], args.limit, args.actions)  # warm
            print(f"server on {server.base}; load {os.getloadavg()[0]:.2f}", flush=True)

            def reader() -> None:
                try:
                    found = read_everything(server.base, prepared["key"], args.limit, args.actions)
                    results.append(found)
                except BaseException as exc:
                    errors.append(exc)

            threads = [threading.Thread(target=reader) for _ in range(args.readers)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        finally:
            server.stop()
        if "Traceback" in server.log_tail(200):
            print(f"the server logged errors:\n{server.log_tail(40)}", file=sys.stderr)
        shutil.rmtree(logs, ignore_errors=True)
    if errors:
        raise errors[0]
    per_reader = [r["count"] / r["seconds"] for r in results]
    page_ms = [ms for r in results for ms in r["page_ms"]]
    out: dict[str, Any] = {
        "backend": backend,
        "actions": args.actions,
        "readers": args.readers,
        "limit": args.limit,
        "code": code,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "load_before": round(load_before, 2),
        "actions_per_second": round(min(per_reader)),
        "page_ms_p50": round(percentile(page_ms, 50), 1),
        "page_ms_p99": round(percentile(page_ms, 99), 1),
        "sealed_per_second": round(args.actions / prepared["seal_seconds"]),
        "inserted_per_second": round(args.actions / prepared["insert_seconds"]),
    }
    print(
        f"{backend}: {out['actions_per_second']} actions/s per reader ({args.readers} "
        f"reader(s)), page p50 {out['page_ms_p50']} ms, p99 {out['page_ms_p99']} ms; "
        f"sealed {out['sealed_per_second']} actions/s; load before {out['load_before']}"
    )
    if args.json:
        print(json.dumps(out))
    if args.markdown:
        record_result("enforcement_feed", f"{backend}, {args.readers} reader(s)", out)
        write_markdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
