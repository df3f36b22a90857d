"""A capacity model from measured per-item costs: how many API processes and what
PostgreSQL machine serve 15,000 reviewers at human pace, and where the next wall is.

Runs ``claim_decide.py``'s reviewers at a paced, human-like rate (claim 10, ``--think-ms``
per item) against a throwaway PostgreSQL database with ``--workers`` API processes, and
measures per decided item, over the run: the API processes' CPU and PostgreSQL's CPU (ms),
WAL written (bytes, ``pg_current_wal_lsn``), transactions committed and rows written
(``pg_stat_database``), SQL statements sent (the service's ``reviewdesk_db_statements_total``
from ``/metrics``), event-log entries and enforcement actions made, and the share of busy
sessions waiting on a lock (``pg_stat_activity`` sampled every 100 ms). From those it
scales to ``--target-reviewers`` at ``--items-per-hour`` each and compares each resource
with what one machine or one component gives (the sequencer's measured sealing rate from
``enforcement_feed.py``'s latest PostgreSQL run, PostgreSQL's connection limit).

Prints the figures; ``--markdown`` writes the model to benchmarks/README.md. Asserts nothing.

    python benchmarks/capacity.py --database-url postgresql://u:pw@127.0.0.1/db --markdown
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import shutil
import sys
import tempfile
import time
import urllib.request
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import claim_decide  # benchmarks/claim_decide.py: the reviewers, the server, CPU snapshots
from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    markdown_table,
    record_result,
    stored_results,
    write_page_section,
)
from sqlalchemy.engine import make_url

from reviewer_app.server.storage.db import LEADER_CONNECTIONS, MAX_OVERFLOW, POOL_SIZE

#: what a resource may be busy on average before it is called full (headroom for peaks)
UTILISATION = 0.6

_COUNTS = """
SELECT pg_current_wal_lsn() AS lsn,
       (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS xacts,
       (SELECT tup_inserted + tup_updated + tup_deleted FROM pg_stat_database
         WHERE datname = current_database()) AS rows_written,
       (SELECT count(*) FROM events) AS events,
       (SELECT count(*) FROM enforcement_actions) AS actions,
       current_setting('max_connections')::int AS max_connections
"""


def database_counts(url: str) -> dict[str, Any]:
    """The counters the model needs, read now (statistics flushed by the backends first)."""
    import psycopg

    parsed = make_url(url)
    with psycopg.connect(
        host=parsed.host or "127.0.0.1",
        port=parsed.port or 5432,
        user=parsed.username,
        password=parsed.password,
        dbname=parsed.database,
        autocommit=True,
    ) as conn:
        row = conn.execute(_COUNTS).fetchone()
        assert row is not None
        lsn, xacts, rows_written, events, actions, max_connections = row
        (wal_bytes,) = conn.execute("SELECT pg_wal_lsn_diff(%s, '0/0')", (lsn,)).fetchone() or (0,)
    return {
        "wal_bytes": float(wal_bytes),
        "xacts": int(xacts or 0),
        "rows_written": int(rows_written or 0),
        "events": int(events),
        "actions": int(actions),
        "max_connections": int(max_connections),
    }


def statements_sent(base: str) -> float:
    """``reviewdesk_db_statements_total`` summed over the API processes."""
    with urllib.request.urlopen(base + "/metrics", timeout=10) as response:
        text = response.read().decode()
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith("reviewdesk_db_statements_total")
    )


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """One paced run; per decided item costs."""
    bench = claim_decide.parse_args(
        [
            "--reviewers",
            str(args.reviewers),
            "--think-ms",
            str(args.think_ms),
            "--duration",
            str(args.duration),
            "--workers",
            str(args.workers),
            "--items",
            str(args.items),
            "--warmup",
            str(args.warmup),
        ]
    )
    with bench_database(args.database_url, keep=False, prefix="capacity-") as url:
        prep = claim_decide.prepare(url, args.items, args.reviewers)
        logs = Path(tempfile.mkdtemp(prefix="capacity-log-"))
        server = claim_decide.ServerProcess(url, args.workers, logs / "server.log")
        sampler = claim_decide.LockSampler(url)
        try:
            server.start()
            if args.warmup > 0:  # plans made on full tables, as in a deployment in use
                claim_decide.warm_up(server, url, prep.usernames, bench)
            load = os.getloadavg()[0]
            time.sleep(1.0)  # statistics of the start flushed
            # the background's own rate first (the sequencer, the rollups, the dispatcher
            # polling): a fixed cost per process, taken out of the per-item figures
            idle_began = time.perf_counter()
            idle_before = database_counts(url), statements_sent(server.base)
            idle_cpu = claim_decide.cpu_snapshot(server)
            time.sleep(args.idle)
            idle_after = database_counts(url), statements_sent(server.base)
            idle_cpu_after = claim_decide.cpu_snapshot(server)
            idle_wall = time.perf_counter() - idle_began
            before = idle_after[0]
            statements_before = idle_after[1]
            sampler.start()
            figures, wall, cpu = asyncio.run(
                claim_decide.run_reviewers(server, prep.usernames, bench)
            )
            sampler.stop()
            time.sleep(1.5)  # backends flush their statistics within a second when idle
            after = database_counts(url)
            statements_after = statements_sent(server.base)
        finally:
            with contextlib.suppress(Exception):
                sampler.stop()
            server.stop()
        shutil.rmtree(logs, ignore_errors=True)
    decided = figures.statuses.get("accepted", 0)
    if not decided:
        raise SystemExit("no item was decided: nothing to model")

    def idle_rate(key: str) -> float:
        return (idle_after[0][key] - idle_before[0][key]) / idle_wall

    def per_item(key: str) -> float:
        return max(0.0, after[key] - before[key] - idle_rate(key) * wall) / decided

    def cpu_item(part: str) -> float:
        idle = (idle_cpu_after[part] - idle_cpu[part]) / idle_wall
        return max(0.0, 1000 * (cpu[part] - idle * wall) / decided)

    statements_idle = (idle_after[1] - idle_before[1]) / idle_wall

    return {
        "api_processes": args.workers,
        "reviewers": args.reviewers,
        "think_ms": args.think_ms,
        "warmup_seconds": args.warmup,
        "decided": decided,
        "decided_per_second": round(decided / wall, 1),
        "claim_ms_p99": round(claim_decide.percentile(figures.claim_ms, 99), 1),
        "api_cpu_ms": round(cpu_item("server"), 3),
        "postgres_cpu_ms": round(cpu_item("postgres"), 3),
        "client_cpu_ms": round(1000 * cpu["client"] / decided, 3),
        "idle_api_cpu_share": round(
            (idle_cpu_after["server"] - idle_cpu["server"]) / idle_wall / args.workers, 3
        ),
        "idle_transactions_per_second": round(idle_rate("xacts"), 1),
        "idle_statements_per_second": round(statements_idle, 1),
        "wal_bytes": round(per_item("wal_bytes")),
        "transactions": round(per_item("xacts"), 2),
        "rows_written": round(per_item("rows_written"), 1),
        "statements": round(
            max(0.0, statements_after - statements_before - statements_idle * wall) / decided, 1
        ),
        "events": round(per_item("events"), 2),
        "actions": round(per_item("actions"), 2),
        "lock_wait_share": round(sampler.lock_share(), 1),
        "max_connections": after["max_connections"],
        "load": round(load, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "code": code_version(),
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M"),
    }


def model(costs: dict[str, Any], reviewers: int, items_per_hour: float) -> dict[str, Any]:
    """Scale the per-item costs to ``reviewers`` at ``items_per_hour`` each."""
    rate = reviewers * items_per_hour / 3600
    api_cores = rate * costs["api_cpu_ms"] / 1000
    # one API process runs Python on one core at a time (the GIL): a process is a core,
    # less what its background threads take while idle
    per_process = max(0.05, UTILISATION - costs["idle_api_cpu_share"])
    processes = math.ceil(api_cores / per_process)
    pg_cores = rate * costs["postgres_cpu_ms"] / 1000 / UTILISATION
    # at most, per process
    pool = POOL_SIZE["postgresql"] + MAX_OVERFLOW["postgresql"] + LEADER_CONNECTIONS["postgresql"]
    sealed = stored_results("enforcement_feed").get("postgresql, 1 reader(s)", {})
    sealing = float(str(sealed.get("sealed_per_second", "nan")))
    walls = [
        (
            "the sequencer (one, seals events and actions in commit order)",
            rate * (costs["events"] + costs["actions"]),
            sealing,
            "entries/s",
        ),
        (
            "PostgreSQL connections (API processes x pool)",
            processes * pool,
            float(costs["max_connections"]),
            "connections",
        ),
    ]
    return {
        "reviewers": reviewers,
        "items_per_hour": items_per_hour,
        "items_per_second": round(rate, 1),
        "api_cores": round(api_cores, 1),
        "api_processes": processes,
        "postgres_cores": round(pg_cores, 1),
        "wal_mb_per_second": round(rate * costs["wal_bytes"] / 1e6, 2),
        "wal_gb_per_day": round(rate * costs["wal_bytes"] * 86400 / 1e9, 1),
        "transactions_per_second": round(rate * costs["transactions"]),
        "statements_per_second": round(rate * costs["statements"]),
        "rows_written_per_second": round(rate * costs["rows_written"]),
        "walls": [
            {
                "what": what,
                "needed": round(needed, 1),
                "available": available,
                "unit": unit,
                "headroom": round(available / needed, 2) if needed else math.inf,
            }
            for what, needed, available, unit in walls
        ],
    }


def write_markdown() -> None:
    rows = stored_results("capacity")
    costs_table = markdown_table(
        [
            "API processes, reviewers, pace",
            "decided items/s",
            "API CPU ms",
            "PostgreSQL CPU ms",
            "WAL bytes",
            "transactions",
            "statements",
            "rows written",
            "log entries + actions",
            "busy sessions on a lock",
            "claim p99 ms",
            "load",
            "code",
            "date",
        ],
        [
            [
                key,
                r["decided_per_second"],
                r["api_cpu_ms"],
                r["postgres_cpu_ms"],
                r["wal_bytes"],
                r["transactions"],
                r["statements"],
                r["rows_written"],
                f"{r['events']} + {r['actions']}",
                f"{r['lock_wait_share']}%",
                r["claim_ms_p99"],
                f"{r['load']} / {r['load_after']}",
                r["code"],
                r["date"],
            ]
            for key, r in sorted(rows.items())
        ],
    )
    latest = max(rows.values(), key=lambda r: str(r["date"]))
    m = latest["model"]
    assert isinstance(m, dict)
    model_table = markdown_table(
        ["resource", "needed", "what that means"],
        [
            [
                "API CPU",
                f"{m['api_cores']} cores",
                f"{m['api_processes']} API processes at {UTILISATION:.0%} busy (a process "
                "is one core: the GIL)",
            ],
            [
                "PostgreSQL CPU",
                f"{m['postgres_cores']} cores",
                f"at {UTILISATION:.0%} busy; the primary takes every write",
            ],
            [
                "WAL",
                f"{m['wal_mb_per_second']} MB/s",
                f"{m['wal_gb_per_day']} GB a day to the disk, the replicas and the archive",
            ],
            ["transactions", f"{m['transactions_per_second']}/s", "commits (WAL flushes)"],
            ["statements", f"{m['statements_per_second']}/s", "sent by the API processes"],
            ["rows written", f"{m['rows_written_per_second']}/s", "inserted, updated, deleted"],
            *[
                [
                    w["what"],
                    f"{w['needed']} {w['unit']}",
                    f"of {w['available']:g} measured or allowed: headroom x{w['headroom']}",
                ]
                for w in m["walls"]
            ],
        ],
    )
    walls = sorted(m["walls"], key=lambda w: float(w["headroom"]))
    write_page_section(
        "capacity",
        "## Capacity model\n\n`benchmarks/capacity.py`: 200 benchmark reviewers at a paced, "
        "human-like rate (claim 10, the think time per item in the key) against PostgreSQL; "
        "per decided item over the run: the API processes' and PostgreSQL's CPU, WAL "
        "written, transactions, SQL statements the service sent, rows written, event-log "
        "entries and enforcement actions made, and the share of busy sessions waiting on a "
        "lock. The latest run per process count.\n\n"
        + costs_table
        + f"\n\nScaled from the latest run ({latest['code']}, {latest['date']}) to "
        f"{m['reviewers']:,} reviewers at {m['items_per_hour']:g} items an hour each: "
        f"{m['items_per_second']:,} decided items/s.\n\n"
        + model_table
        + f"\n\nThe next wall: {walls[0]['what']} (headroom x{walls[0]['headroom']}); "
        "PostgreSQL's CPU and WAL are one machine's (the primary takes every write: more "
        "API processes do not spread it), so past that machine the service needs its "
        "writes spread (queues on separate databases) rather than more API processes.",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--database-url",
        default=os.environ.get("REVIEWER_APP_TEST_PG_URL"),
        help="postgresql://... of a server on which a throwaway database is made",
    )
    parser.add_argument("--workers", type=int, default=2, help="API processes")
    parser.add_argument("--reviewers", type=int, default=200)
    parser.add_argument(
        "--think-ms", type=float, default=500.0, help="a reviewer's time per item (paced)"
    )
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument(
        "--idle", type=float, default=10.0, help="seconds of the idle baseline before the run"
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=0.0,
        help="seconds of the same load before the idle baseline and the run, then ANALYZE "
        "(claim_decide.py --warmup); default 0: tables that start empty",
    )
    parser.add_argument("--items", type=int, default=60_000)
    parser.add_argument("--target-reviewers", type=int, default=15_000)
    parser.add_argument("--items-per-hour", type=float, default=1_000.0)
    parser.add_argument("--markdown", action="store_true", help="write benchmarks/README.md")
    args = parser.parse_args(argv)
    if not args.database_url or make_url(args.database_url).get_backend_name() != "postgresql":
        raise SystemExit("give --database-url postgresql://... (the model is PostgreSQL's)")
    costs = measure(args)
    costs["model"] = model(costs, args.target_reviewers, args.items_per_hour)
    width = max(len(k) for k in costs)
    for key, value in costs.items():
        if key != "model":
            print(f"  {key:<{width}}  {value}")
    print()
    for key, value in costs["model"].items():
        print(f"  {key:<{width}}  {value}")
    if args.markdown:
        record_result(
            "capacity",
            f"{args.workers} process(es), {args.reviewers} reviewers, {args.think_ms:g} ms/item"
            + (f", {args.warmup:g} s warm-up" if args.warmup > 0 else ""),
            costs,
        )
        write_markdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
