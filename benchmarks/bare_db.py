"""The database alone: a bare claim-and-decide loop, no HTTP and no service.

The limit the service is measured against (``claim_decide.py --bare`` prints the
service's figure as a fraction of this one, run in the same sitting). 16 threads, each
with its own connection, loop: claim 10 items (PostgreSQL: ``FOR UPDATE SKIP LOCKED`` in a
CTE; SQLite: one ``UPDATE ... RETURNING`` in ``BEGIN IMMEDIATE``), commit; then in one
transaction mark them decided and insert a decision row per item. 100,000 items with
400-byte bodies; the run ends when the queue is empty (or after ``--duration``).

    python benchmarks/bare_db.py                                  # SQLite in a temp dir
    python benchmarks/bare_db.py --database-url postgresql://u:pw@127.0.0.1/db
    python benchmarks/bare_db.py --markdown                       # record it on the page

Same durability as the service: SQLite in WAL mode with ``synchronous=NORMAL`` (the
service's default), PostgreSQL as configured (``synchronous_commit`` on). Prints the
figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from common import (  # benchmarks/common.py
    bench_database,
    markdown_table,
    record_result,
    stored_results,
    write_page_section,
)
from sqlalchemy.engine import make_url

THREADS = 16
CLAIM = 10
ITEMS = 100_000
BODY_BYTES = 400

_SCHEMA = [
    "CREATE TABLE items (id INTEGER PRIMARY KEY, state TEXT NOT NULL, priority REAL NOT NULL, "
    "body TEXT NOT NULL, lease_owner INTEGER, lease_until REAL, decision_id INTEGER)",
    "CREATE INDEX ix_items_claim ON items (state, priority)",
    "CREATE TABLE decisions (id {serial} PRIMARY KEY, item_id INTEGER NOT NULL, "
    "user_id INTEGER NOT NULL, action TEXT NOT NULL, decided_at REAL NOT NULL)",
]
_PG_CLAIM = (
    "WITH picked AS (SELECT id FROM items WHERE state = 'pending' ORDER BY priority DESC "
    "LIMIT %s FOR UPDATE SKIP LOCKED) "
    "UPDATE items SET state = 'leased', lease_owner = %s, lease_until = %s "
    "FROM picked WHERE items.id = picked.id RETURNING items.id, items.body"
)
_SQLITE_CLAIM = (
    "UPDATE items SET state = 'leased', lease_owner = ?, lease_until = ? WHERE id IN "
    "(SELECT id FROM items WHERE state = 'pending' ORDER BY priority DESC LIMIT ?) "
    "RETURNING id, body"
)


def backend_name(url: str) -> str:
    return "postgresql" if make_url(url).get_backend_name() == "postgresql" else "sqlite"


def _bodies(count: int) -> list[tuple[int, float, str]]:
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz     "
    return [
        (i + 1, rng.random(), "".join(rng.choices(letters, k=BODY_BYTES))) for i in range(count)
    ]


class Bare:
    """Connections and statements of one database kind."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.postgres = backend_name(url) == "postgresql"

    def connect(self) -> Any:
        if self.postgres:
            import psycopg

            parsed = make_url(self.url)
            return psycopg.connect(
                host=parsed.host or "127.0.0.1",
                port=parsed.port or 5432,
                user=parsed.username,
                password=parsed.password,
                dbname=parsed.database,
            )
        path = make_url(self.url).database
        conn = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA busy_timeout=60000")
        return conn

    def prepare(self, items: int) -> float:
        started = time.perf_counter()
        conn = self.connect()
        try:
            serial = "BIGINT GENERATED ALWAYS AS IDENTITY" if self.postgres else "INTEGER"
            cur = conn.cursor()
            for statement in _SCHEMA:
                cur.execute(statement.format(serial=serial))
            rows = _bodies(items)
            mark = "%s" if self.postgres else "?"
            insert = (
                "INSERT INTO items (id, state, priority, body) "
                f"VALUES ({mark}, 'pending', {mark}, {mark})"
            )
            if not self.postgres:
                cur.execute("BEGIN")
            for start in range(0, len(rows), 10_000):
                cur.executemany(insert, rows[start : start + 10_000])
            conn.commit() if self.postgres else cur.execute("COMMIT")
            if self.postgres:
                conn.autocommit = True
                cur.execute("VACUUM ANALYZE items")
            else:
                cur.execute("ANALYZE")
        finally:
            conn.close()
        return time.perf_counter() - started

    def claim(self, conn: Any, user: int, count: int) -> list[tuple[int, str]]:
        until = time.time() + 600
        if self.postgres:
            with conn.cursor() as cur:
                cur.execute(_PG_CLAIM, (count, user, until))
                rows = cur.fetchall()
            conn.commit()
            return rows
        cur = conn.cursor()
        cur.execute("BEGIN IMMEDIATE")
        rows = cur.execute(_SQLITE_CLAIM, (user, until, count)).fetchall()
        cur.execute("COMMIT")
        return rows

    def decide(self, conn: Any, user: int, ids: list[int]) -> None:
        now = time.time()
        if self.postgres:
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO decisions (item_id, user_id, action, decided_at) "
                    "VALUES (%s, %s, 'keep', %s)",
                    [(i, user, now) for i in ids],
                )
                cur.execute(
                    "UPDATE items SET state = 'decided', lease_owner = NULL, lease_until = NULL "
                    "WHERE id = ANY(%s)",
                    (ids,),
                )
            conn.commit()
            return
        cur = conn.cursor()
        cur.execute("BEGIN IMMEDIATE")
        cur.executemany(
            "INSERT INTO decisions (item_id, user_id, action, decided_at) VALUES (?, ?, 'keep', ?)",
            [(i, user, now) for i in ids],
        )
        cur.executemany(
            "UPDATE items SET state = 'decided', lease_owner = NULL, lease_until = NULL "
            "WHERE id = ?",
            [(i,) for i in ids],
        )
        cur.execute("COMMIT")


@dataclass
class Tally:
    decided: int = 0
    claims: int = 0
    claim_ms: list[float] = field(default_factory=list)
    decide_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def run(url: str, *, threads: int = THREADS, claim: int = CLAIM, duration: float = 120.0) -> dict:
    """Run the bare loop on the (empty, prepared) database ``url``; the figures."""
    bare = Bare(url)
    tally = Tally()
    empty = threading.Event()
    deadline = time.perf_counter() + duration

    def worker(user: int) -> None:
        conn = bare.connect()
        try:
            while not empty.is_set() and time.perf_counter() < deadline:
                started = time.perf_counter()
                rows = bare.claim(conn, user, claim)
                claimed = time.perf_counter()
                if not rows:
                    empty.set()
                    return
                bare.decide(conn, user, [r[0] for r in rows])
                done = time.perf_counter()
                with tally.lock:
                    tally.claims += 1
                    tally.decided += len(rows)
                    tally.claim_ms.append((claimed - started) * 1000)
                    tally.decide_ms.append((done - claimed) * 1000)
        except Exception as exc:  # reported with the figures
            with tally.lock:
                tally.errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            conn.close()

    pool = [threading.Thread(target=worker, args=(n + 1,)) for n in range(threads)]
    cpu_before = os.times()
    started = time.perf_counter()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    wall = time.perf_counter() - started
    cpu_after = os.times()
    tally.claim_ms.sort()
    tally.decide_ms.sort()

    def p(values: list[float], q: float) -> float:
        return round(values[min(len(values) - 1, int(q / 100 * len(values)))], 2) if values else 0.0

    return {
        "backend": "postgresql" if bare.postgres else "sqlite",
        "threads": threads,
        "claim": claim,
        "items_decided": tally.decided,
        "wall_seconds": round(wall, 2),
        "decided_per_second": round(tally.decided / wall, 1) if wall else 0.0,
        "claim_ms_p50": p(tally.claim_ms, 50),
        "claim_ms_p99": p(tally.claim_ms, 99),
        "decide_ms_p50": p(tally.decide_ms, 50),
        "decide_ms_p99": p(tally.decide_ms, 99),
        "queue_emptied": empty.is_set(),
        "client_cpu_seconds": round(
            (cpu_after.user - cpu_before.user) + (cpu_after.system - cpu_before.system), 2
        ),
        "errors": tally.errors[:5],
    }


def measure(database_url: str | None, *, items: int = ITEMS, duration: float = 120.0) -> dict:
    """A throwaway database, prepared and run: the figures (also with the seeding time)."""
    with bench_database(database_url, keep=False, prefix="bare-db-") as url:
        seed = Bare(url).prepare(items)
        load = round(os.getloadavg()[0], 2)
        figures = run(url, duration=duration)
    return {**figures, "items_seeded": items, "seed_seconds": round(seed, 1), "load": load}


def print_figures(out: dict) -> None:
    rows = [
        ("backend", out["backend"]),
        ("threads, claim", f"{out['threads']}, {out['claim']}"),
        ("items seeded", f"{out['items_seeded']} ({BODY_BYTES}-byte bodies)"),
        ("items decided", out["items_decided"]),
        (
            "wall seconds",
            f"{out['wall_seconds']}" + ("  (queue emptied)" if out["queue_emptied"] else ""),
        ),
        ("decided items/s", out["decided_per_second"]),
        ("claim ms p50/p99", f"{out['claim_ms_p50']} / {out['claim_ms_p99']}"),
        ("decide ms p50/p99", f"{out['decide_ms_p50']} / {out['decide_ms_p99']}"),
        ("load average (1 min) at start", out["load"]),
        ("errors", out["errors"] or 0),
    ]
    width = max(len(name) for name, _ in rows)
    print()
    for name, value in rows:
        print(f"  {name:<{width}}  {value}")


def write_markdown() -> None:
    rows = stored_results("bare_db")
    table = markdown_table(
        ["database", "decided items/s", "claim p50/p99 ms", "decide p50/p99 ms", "load", "date"],
        [
            [
                key,
                r["decided_per_second"],
                f"{r['claim_ms_p50']} / {r['claim_ms_p99']}",
                f"{r['decide_ms_p50']} / {r['decide_ms_p99']}",
                r["load"],
                r["date"],
            ]
            for key, r in sorted(rows.items())
        ],
    )
    write_page_section(
        "bare_db",
        "## The database alone\n\n`benchmarks/bare_db.py`: no HTTP, no service; 16 threads "
        "claim 10 (`FOR UPDATE SKIP LOCKED` on PostgreSQL, one `UPDATE ... RETURNING` in "
        "`BEGIN IMMEDIATE` on SQLite), then mark them decided and insert a decision row each "
        "in one transaction; 100,000 items of 400 bytes. The ceiling `claim_decide.py --bare` "
        "compares the service with. Load is the 1-minute load average when the run started "
        "(the machine has 2 cores, shared).\n\n" + table,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None, help="as claim_decide.py's")
    parser.add_argument("--items", type=int, default=ITEMS)
    parser.add_argument("--duration", type=float, default=120.0, help="seconds at most")
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    parser.add_argument(
        "--markdown", action="store_true", help="record the run on benchmarks/README.md"
    )
    args = parser.parse_args(argv)
    out = measure(args.database_url, items=args.items, duration=args.duration)
    print_figures(out)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    if args.markdown:
        out["date"] = datetime.now(UTC).strftime("%Y-%m-%d")
        record_result("bare_db", out["backend"], out)
        write_markdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
