"""A lead's bulk decision of 1,000 items, end to end: client call to committed answer.

Prepares a fresh database with ``--runs`` + 1 batches of ``--items`` pending items (the
synthetic load queue) and a lead, starts ``reviewer-app server`` as its own process on
127.0.0.1, and times ``ApiClient.bulk_decide`` (the client core's call: the request built
and encoded, sent, every item decided with its own decision, key, event, statement and enforcement
action in one transaction, committed, answered and parsed) for each run on items never
decided before. Then it times a refused bulk of the same size (one item decided meanwhile:
the whole request checked, nothing written) and a retry of a recorded bulk (every item
answered ``duplicate``). Target: under 2 s for 1,000 items. It also reports the API
process's CPU per decided item (its CPU time around each recorded bulk, from /proc: less
sensitive to a busy machine than the seconds are).

It prints the figures and asserts nothing. ``--markdown`` keeps the run as the latest for
its database in benchmarks/results/bulk_decide.json and rewrites the bulk decisions'
section of benchmarks/README.md from it.

    python benchmarks/bulk_decide.py                                  # SQLite, temp dir
    python benchmarks/bulk_decide.py --database-url postgresql://u:pw@127.0.0.1/db
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from claim_decide import ServerProcess, backend_name, cpu_snapshot  # benchmarks/claim_decide.py
from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    markdown_table,
    percentile,
    record_result,
    stored_results,
    write_page_section,
)
from sqlalchemy import select

from reviewer_app.core.api import ApiClient
from reviewer_app.core.bulk import Candidate, new_request, refusal
from reviewer_app.core.errors import ProblemError
from reviewer_app.protocol import Role, UserCreate, VerdictStatus
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import items

PASSWORD = "bench-password-not-secret"
LEAD = "bench-lead"


def prepare(url: str, count: int) -> list[str]:
    """Seed ``count`` pending items and a lead; the items' ids in id order."""
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        service.create_user(UserCreate(username=LEAD, password=PASSWORD, role=Role.lead))
        seed_load_queue(service, count)
        service.seal_now()
        with service.db.read() as conn:
            return list(
                conn.execute(
                    select(items.c.id).where(items.c.state == "pending").order_by(items.c.id)
                ).scalars()
            )
    finally:
        service.close()


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--items", type=int, default=1_000, help="items per bulk (<= 1,000)")
    parser.add_argument("--runs", type=int, default=5, help="bulk decisions timed")
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    parser.add_argument(
        "--markdown", action="store_true", help="record the run on benchmarks/README.md"
    )
    return parser.parse_args(argv)


def write_markdown() -> None:
    rows = stored_results("bulk_decide")
    table = markdown_table(
        [
            "database",
            "items per bulk",
            "runs",
            "recorded s p50 / max",
            "refused s",
            "retry (duplicate) s",
            "API CPU ms per item",
            "load avg (1 min) before",
            "code",
            "date",
        ],
        [
            [
                key,
                r["items"],
                r["runs"],
                f"{r['seconds_p50']} / {r['seconds_max']}",
                r["refused_seconds"],
                r["retry_seconds"],
                r.get("server_cpu_ms_per_item", "-"),
                r["load_before"],
                r["code"],
                r["date"],
            ]
            for key, r in sorted(rows.items())
        ],
    )
    write_page_section(
        "bulk_decide",
        "## Bulk decisions\n\n`benchmarks/bulk_decide.py`: a lead decides 1,000 items with one "
        "action (`POST /decisions/bulk` through the client core's `bulk_decide`), from the "
        "call to the committed answer parsed: each item its own decision, key, event, "
        "statement and enforcement action, in one transaction (target: under 2 s). Also a "
        "refused bulk of the same size (one item decided meanwhile: nothing written) and a "
        "retry of a recorded one (all `duplicate`). One API process; the latest run per "
        "database.\n\n" + table,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    code = code_version()
    load_before = os.getloadavg()[0]
    size = min(args.items, 1_000)
    with bench_database(args.database_url, keep=args.keep_db, prefix="bulk-") as url:
        backend = backend_name(url)
        total = size * (args.runs + 1) + 1
        print(f"preparing {backend}: {total} items ...", flush=True)
        ids = prepare(url, total)
        logs = Path(tempfile.mkdtemp(prefix="bulk-log-"))
        server = ServerProcess(url, 1, logs / "server.log")
        seconds: list[float] = []
        server_cpu: list[float] = []  # the API process's CPU seconds per recorded bulk
        try:
            server.start()
            print(f"server on {server.base}; load {os.getloadavg()[0]:.2f}", flush=True)
            client = ApiClient(server.base)
            client.login(LEAD, PASSWORD)
            batches = [ids[i * size : (i + 1) * size] for i in range(args.runs + 1)]
            last_request = None
            for batch in batches[: args.runs]:
                request = new_request(
                    [Candidate(i, LOAD_QUEUE.id) for i in batch],
                    "remove",
                    policies=["SPAM.SCAM"],
                    note="benchmark wave",
                    at=time.time(),
                )
                cpu_before = cpu_snapshot(server)["server"]
                started = time.perf_counter()
                results = client.bulk_decide(request)
                seconds.append(time.perf_counter() - started)
                server_cpu.append(cpu_snapshot(server)["server"] - cpu_before)
                if {r.status for r in results.results} != {VerdictStatus.accepted}:
                    raise RuntimeError("a bulk decision was not accepted whole")
                print(f"  {size} items recorded in {seconds[-1]:.3f} s", flush=True)
                last_request = request
            assert last_request is not None
            # a retry of the last one: every item answered duplicate, nothing written
            started = time.perf_counter()
            replay = client.bulk_decide(last_request)
            retry_seconds = time.perf_counter() - started
            if {r.status for r in replay.results} != {VerdictStatus.duplicate}:
                raise RuntimeError("the retry was not answered duplicate")
            # refused: the spare batch with one item already decided (from the first run)
            refused_batch = [*batches[args.runs][: size - 1], batches[0][0]]
            request = new_request(
                [Candidate(i, LOAD_QUEUE.id) for i in refused_batch], "keep", at=time.time()
            )
            started = time.perf_counter()
            try:
                client.bulk_decide(request)
            except ProblemError as err:
                refused_seconds = time.perf_counter() - started
                said = refusal(err)
                if said is None or len(said.items) != 1:
                    raise RuntimeError(f"an unexpected refusal: {err}") from None
            else:
                raise RuntimeError("a bulk with a decided item went through")
            client.close()
        finally:
            server.stop()
        if "Traceback" in server.log_tail(200):
            print(f"the server logged errors:\n{server.log_tail(40)}", file=sys.stderr)
        shutil.rmtree(logs, ignore_errors=True)
    out: dict[str, Any] = {
        "backend": backend,
        "items": size,
        "runs": args.runs,
        "code": code,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "load_before": round(load_before, 2),
        "seconds_p50": round(percentile(seconds, 50), 3),
        "seconds_max": round(max(seconds), 3),
        "refused_seconds": round(refused_seconds, 3),
        "retry_seconds": round(retry_seconds, 3),
        "server_cpu_ms_per_item": round(percentile(server_cpu, 50) / size * 1000, 3),
    }
    print(
        f"{backend}: {size} items per bulk, recorded in p50 {out['seconds_p50']} s, max "
        f"{out['seconds_max']} s ({args.runs} runs); refused in {out['refused_seconds']} s; "
        f"retry (duplicate) in {out['retry_seconds']} s; API process CPU p50 "
        f"{out['server_cpu_ms_per_item']} ms per item; load before {out['load_before']}"
    )
    if args.json:
        print(json.dumps(out))
    if args.markdown:
        record_result("bulk_decide", backend, out)
        write_markdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
