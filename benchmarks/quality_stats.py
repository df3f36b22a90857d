"""Quality signals and exposure with 100,000 decisions: the lead's Quality and Wellbeing tabs.

Builds a fresh database (SQLite in a temp dir, or a throwaway PostgreSQL database next to
``--database-url``) with ``--decisions`` decisions over ``--days`` days up to now, by
``--reviewers`` reviewers across four queues, with audits and conflicts (the load of
``lead_stats.py``: decisions bulk-loaded, then the rollups recounted, as a migration's
back-fill leaves them), starts ``reviewer-app server`` as its own process, then times over
HTTP, p50 / p95 / max over ``--calls`` calls each:

- ``GET /stats/quality`` (the flags, against the window before) over the last 1, 7 and
  30 days;
- ``GET /stats/reviewers/{name}/trend`` of one reviewer over the same windows;
- ``GET /stats/exposure`` (each reviewer's shift and last 7 days: its window is fixed).
  Every reviewer decides around the clock here, so every shift runs the whole week: its
  worst case.

Prints the figures, and with ``--markdown`` keeps them in benchmarks/results/ and writes
its section of benchmarks/README.md. Asserts nothing. Target: p95 < 200 ms each.

    python benchmarks/quality_stats.py --markdown                                   # SQLite
    python benchmarks/quality_stats.py --database-url postgresql://u:pw@127.0.0.1/db --markdown
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import requests
from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    filesystem_of,
    markdown_table,
    percentile,
    record_result,
    stored_results,
    write_page_section,
)
from lead_stats import API, PASSWORD, iso, load, server, time_calls  # benchmarks/lead_stats.py
from sqlalchemy.engine import make_url

import reviewer_app

NAME = "quality_stats"
WINDOWS = (1, 7, 30)


def measure(base: str, now: float, calls: int) -> list[tuple[str, list[float]]]:
    session = requests.Session()
    token = session.post(
        base + API + "/sessions", json={"username": "bench-lead", "password": PASSWORD}
    ).json()["token"]
    session.headers["Authorization"] = f"Bearer {token}"
    rows: list[tuple[str, list[float]]] = []
    for days in WINDOWS:
        params = {"since": iso(now - days * 86_400), "until": iso(now)}
        rows.append(
            (f"quality {days} d", time_calls(session, f"{base}{API}/stats/quality", params, calls))
        )
    for days in WINDOWS:
        params = {"since": iso(now - days * 86_400), "until": iso(now)}
        url = f"{base}{API}/stats/reviewers/reviewer-000/trend"
        rows.append((f"trend {days} d", time_calls(session, url, params, calls)))
    rows.append(("exposure", time_calls(session, f"{base}{API}/stats/exposure", {}, calls)))
    return rows


def write_markdown(key: str, rows: list[tuple[str, list[float]]], load_avg: str) -> None:
    record_result(
        NAME,
        key,
        {
            "routes": {
                route: [round(percentile(s, 50), 1), round(percentile(s, 95), 1)]
                for route, s in rows
            },
            "load": load_avg,
            "code": code_version(Path(reviewer_app.__file__).resolve().parents[1]),
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
        },
    )
    routes = [route for route, _ in rows]
    header = ["database, decisions", *[f"{r} p50 / p95 ms" for r in routes]]
    header += ["load avg before / after", "code", "date"]
    table = [
        [
            name,
            *[" / ".join(str(x) for x in r["routes"].get(route, ["-", "-"])) for route in routes],
            r["load"],
            r["code"],
            r["date"],
        ]
        for name, r in sorted(stored_results(NAME).items())
    ]
    write_page_section(
        NAME,
        "## Quality signals and exposure\n\n"
        "`benchmarks/quality_stats.py`: a lead's Quality tab (`GET /stats/quality` and one "
        "reviewer's `GET /stats/reviewers/{name}/trend` over the last 1, 7 and 30 days) and "
        "Wellbeing tab (`GET /stats/exposure`: shift and 7 days) over HTTP, one API process, "
        "on decisions spread over 30 days by 60 reviewers; p50 / p95 over the calls "
        "(target: p95 < 200 ms). The latest run per database, size and label.\n\n"
        + markdown_table(header, table),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL (default: SQLite)")
    parser.add_argument("--decisions", type=int, default=100_000)
    parser.add_argument("--reviewers", type=int, default=60)
    parser.add_argument("--days", type=float, default=30.0)
    parser.add_argument("--calls", type=int, default=30)
    parser.add_argument("--label", default="", help="added to the result's key (e.g. before)")
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="write the benchmarks' page")
    args = parser.parse_args()
    now = time.time()
    load_before = os.getloadavg()[0]
    with bench_database(args.database_url, keep=args.keep_db, prefix="quality-") as url:
        backend = make_url(url).get_backend_name()
        timings = load(url, args.decisions, args.reviewers, args.days, now)
        with server(url) as base:
            rows = measure(base, now, args.calls)
    load_after = os.getloadavg()[0]
    code = code_version(Path(reviewer_app.__file__).resolve().parents[1])
    place = f" ({filesystem_of(Path(tempfile.gettempdir()))} temp dir)"
    print()
    print(f"quality_stats benchmark, code {code}, {backend}", end="")
    print(place if backend == "sqlite" else "")
    print(f"{args.decisions:,} decisions over {args.days:g} days, {args.reviewers} reviewers")
    print(f"load average (1 min): {load_before:.2f} before, {load_after:.2f} after")
    for name, seconds in timings.items():
        print(f"  load: {name:<28} {seconds:8.1f} s")
    print()
    print(f"{'route':<18} {'calls':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for route, spent in rows:
        print(
            f"{route:<18} {len(spent):>5} {percentile(spent, 50):>8.1f} "
            f"{percentile(spent, 95):>8.1f} {max(spent):>8.1f}"
        )
    if args.markdown:
        key = f"{backend}, {args.decisions:,}" + (f", {args.label}" if args.label else "")
        write_markdown(key, rows, f"{load_before:.2f} / {load_after:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
