"""``reviewer-app server import``: lines per second and the importer's memory over a big file.

Writes a JSONL of ``--lines`` lines (per post: the post, a spam score that routes it into a
queue, and ``--reports`` user reports), applies a one-queue configuration to a fresh
database, then runs ``reviewer-app server import`` on it as its own process, sampling
every second the process's resident memory and the lines it has committed (from its
``FILE.import-state``). It prints, at 10, 50, 90 and 100% of the lines: the time, the
lines/s so far and over the last stretch, and the RSS. Memory is flat when the RSS after
the first tenth of the file is the RSS at the end (the importer reads a line at a time;
nothing grows with the file).

It prints the figures and asserts nothing. ``--markdown`` keeps the run as the latest for
its database in benchmarks/results/bulk_import.json and rewrites the bulk import section of
benchmarks/README.md from it.

    python benchmarks/bulk_import.py                       # 1,000,000 lines, SQLite in a temp dir
    python benchmarks/bulk_import.py --lines 100000 --database-url postgresql://u:pw@127.0.0.1/db
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psutil
from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    markdown_table,
    record_result,
    stored_results,
    write_page_section,
)

from reviewer_app.protocol import QueueFile
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service

QUEUE_FILE: dict[str, Any] = {
    "queues": [
        {
            "id": "backfill",
            "name": "Back-fill",
            "config": {
                "actions": [
                    {"id": "keep", "label": "No violation", "kind": "keep", "key": "1"},
                    {"id": "remove", "label": "Remove", "kind": "remove", "key": "2"},
                ],
                "priority": {"score": 10, "reports": 1},
                "routing": [
                    {"name": "spam", "classifier": [{"model": "spam-gbdt", "min_score": 0.5}]}
                ],
            },
        }
    ]
}


def write_file(path: Path, lines: int, reports: int) -> int:
    """The JSONL (written as it goes); returns its size in bytes."""
    now = datetime.now(UTC)
    created = (now - timedelta(hours=3)).isoformat()
    account = (now - timedelta(days=900)).isoformat()
    per_post = 2 + reports
    posts = max(1, lines // per_post)
    written = 0
    with path.open("w", encoding="utf-8") as out:
        for n in range(posts):
            post_id = f"bp-{n}"
            rows: list[dict[str, Any]] = [
                {
                    "type": "post",
                    "external_id": post_id,
                    "text": f"Back-filled post {n}: win a prize at https://prize-{n % 97}.example",
                    "language": "en",
                    "created_at": created,
                    "url": f"https://social.example/p/{n}",
                    "author": {
                        "external_id": f"ba-{n % 5_000}",
                        "handle": f"user{n % 5_000}",
                        "account_created_at": account,
                    },
                    "reach": {"views": n % 100_000, "shares": n % 1_000},
                },
                {
                    "type": "signal",
                    "kind": "classifier",
                    "id": f"{post_id}-c",
                    "post_external_id": post_id,
                    "model": "spam-gbdt",
                    "model_version": "14.0",
                    "label": "scam",
                    "score": 0.5 + (n % 50) / 100,
                    "threshold": 0.7,
                },
            ]
            rows += [
                {
                    "type": "signal",
                    "kind": "report",
                    "id": f"{post_id}-r{k}",
                    "post_external_id": post_id,
                    "reason": "scam",
                    "reporter_id": f"u{(n * 7 + k) % 50_000}",
                }
                for k in range(reports)
            ]
            for row in rows:
                written += 1
                out.write(json.dumps(row, separators=(",", ":")) + "\n")
    return written


def prepare(url: str) -> None:
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        service.apply_queue_file(QueueFile.model_validate(QUEUE_FILE), actor=None)
    finally:
        service.close()


def committed_lines(state: Path) -> int | None:
    """Lines the import has committed, from its state file (None before the first)."""
    try:
        return int(json.loads(state.read_text())["line"])
    except (OSError, ValueError, KeyError):
        return None


def run_import(url: str, file: Path, batch: int, lines: int) -> dict[str, Any]:
    """The import as its own process; its RSS and committed lines sampled every second."""
    command = [sys.executable, "-m", "reviewer_app", "server", "import", str(file)]
    command += ["--database-url", url, "--batch", str(batch)]
    state = file.with_name(file.name + ".import-state")
    started = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process = psutil.Process(child.pid)
    samples: list[tuple[float, int, int]] = []  # (seconds, RSS bytes, lines committed)
    while child.poll() is None:
        try:
            rss = process.memory_info().rss
        except psutil.Error:
            break
        samples.append((time.perf_counter() - started, rss, committed_lines(state) or 0))
        time.sleep(1.0)
    out, err = child.communicate()
    wall = time.perf_counter() - started
    if child.returncode != 0:
        raise SystemExit(f"the import exited {child.returncode}:\n{err[-3000:]}")
    rss_all = [r for _, r, _ in samples]
    tenth = [r for t, r, _ in samples if t >= wall / 10] or rss_all
    marks: dict[str, dict[str, Any]] = {}
    before = (0.0, 0)
    for share in (10, 50, 90):
        reached = next(((t, r, n) for t, r, n in samples if n >= lines * share / 100), None)
        if reached is None:
            continue
        t, r, n = reached
        marks[f"{share}%"] = {
            "seconds": round(t, 1),
            "lines": n,
            "lines_per_second": round(n / t) if t else None,
            "lines_per_second_since_last_mark": round((n - before[1]) / (t - before[0]))
            if t > before[0]
            else None,
            "rss_mb": round(r / 2**20, 1),
        }
        before = (t, n)
    marks["100%"] = {
        "seconds": round(wall, 1),
        "lines": lines,
        "lines_per_second": round(lines / wall),
        "lines_per_second_since_last_mark": round((lines - before[1]) / (wall - before[0]))
        if wall > before[0]
        else None,
        "rss_mb": round(rss_all[-1] / 2**20, 1) if rss_all else None,
    }
    return {
        "seconds": round(wall, 1),
        "rss_mb_after_a_tenth": round(tenth[0] / 2**20, 1) if tenth else None,
        "rss_mb_peak": round(max(rss_all) / 2**20, 1) if rss_all else None,
        "rss_mb_last": round(rss_all[-1] / 2**20, 1) if rss_all else None,
        "marks": marks,
        "summary": out.strip().splitlines()[-1] if out.strip() else "",
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--reports", type=int, default=3, help="user reports per post")
    parser.add_argument("--batch", type=int, default=200)
    parser.add_argument("--database-url", default=None, help="PostgreSQL (default: SQLite)")
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    parser.add_argument(
        "--markdown", action="store_true", help="record the run on benchmarks/README.md"
    )
    return parser.parse_args(argv)


_MARKS = ("10%", "50%", "90%", "100%")


def write_markdown() -> None:
    rows = stored_results("bulk_import")

    def at_marks(r: dict[str, Any], field: str) -> str:
        marks = r.get("marks") or {}
        return " / ".join(f"{marks[m][field]:,}" if m in marks else "-" for m in _MARKS)

    table = markdown_table(
        [
            "database",
            "lines",
            "lines/s",
            "lines/s at 10 / 50 / 90 / 100%",
            "RSS MB at 10 / 50 / 90 / 100%",
            "RSS MB peak",
            "load (1 min) before / after",
            "code",
            "date",
        ],
        [
            [
                key,
                f"{r['lines']:,}",
                f"{r['lines_per_second']:,}",
                at_marks(r, "lines_per_second"),
                at_marks(r, "rss_mb"),
                r["rss_mb_peak"],
                f"{r.get('load_before', '-')} / {r.get('load_after', '-')}",
                r["code"],
                r["date"],
            ]
            for key, r in sorted(rows.items())
        ],
    )
    write_page_section(
        "bulk_import",
        "## Bulk import\n\n`benchmarks/bulk_import.py`: `reviewer-app server import` of a JSONL "
        "(per post: the post, a score that routes it, 3 reports) in batches of 200, one "
        "process; every second its resident memory and the lines it has committed (its "
        "state file) are sampled: lines/s so far and RSS when 10, 50, 90 and 100% of the "
        "lines were in. The machine's load beside it (2 cores shared with other work). The "
        "latest run per database.\n\n" + table,
    )


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    code = code_version()
    folder = Path(tempfile.mkdtemp(prefix="bulk-import-"))
    file = folder / "backfill.jsonl"
    print(f"writing {args.lines:,} lines ...", flush=True)
    lines = write_file(file, args.lines, args.reports)
    size = file.stat().st_size
    with bench_database(args.database_url, keep=args.keep_db, prefix="bulk-import-") as url:
        backend = "postgresql" if url.startswith("postgresql") else "sqlite"
        prepare(url)
        load_before = round(os.getloadavg()[0], 2)
        print(f"importing {lines:,} lines ({size / 1e6:,.0f} MB) into {backend} ...", flush=True)
        figures = run_import(url, file, args.batch, lines)
    file.unlink()
    out: dict[str, Any] = {
        "backend": backend,
        "code": code,
        "date": datetime.now(UTC).strftime("%Y-%m-%d"),
        "lines": lines,
        "file_mb": round(size / 1e6, 1),
        "batch": args.batch,
        "lines_per_second": round(lines / figures["seconds"]),
        "load_before": load_before,
        "load_after": round(os.getloadavg()[0], 2),
        **figures,
    }
    print()
    width = max(len(k) for k in out)
    for k, v in out.items():
        if k != "marks":
            print(f"  {k:<{width}}  {v}")
    print("\n   at  seconds      lines  lines/s so far  lines/s since the mark before  RSS MB")
    for mark, m in out["marks"].items():
        since = m["lines_per_second_since_last_mark"]
        print(
            f"  {mark:>4}  {m['seconds']:>7}  {m['lines']:>9,}  {m['lines_per_second']:>14,}"
            f"  {f'{since:,}' if since is not None else '-':>29}  {m['rss_mb']:>6}"
        )
    if args.json:
        print(json.dumps(out, sort_keys=True))
    if args.markdown:
        record_result("bulk_import", backend, out)
        write_markdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
