"""The CPU a claim's reply costs the service: its items' documents read and assembled
(``assembly.item_documents``) and the reply's JSON body made (``claims.reply``), in
process, no HTTP and no other work. The largest part of a claim's CPU on the busiest route.

Seeds the synthetic load queue (``--items``), then times ``--rounds`` rounds of
``--claims`` replies of ``--claim`` items each, every reply in its own read transaction
(as a claim makes it), and prints the process CPU per reply: the minimum and median round.
With ``--baseline REV`` the same is measured for git revision REV (a worktree, its own
process and database), rounds alternating with this code's, so that both see the same
machine: its load moves these figures more than small changes do.

    python benchmarks/claim_reply.py                                  # SQLite in a temp dir
    python benchmarks/claim_reply.py --database-url postgresql://u:pw@127.0.0.1/db
    python benchmarks/claim_reply.py --baseline HEAD~1 --markdown      # record it on the page

Prints the figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    markdown_table,
    record_result,
    stored_results,
    write_page_section,
)

ROOT = Path(__file__).resolve().parents[1]
GIT = ["git", "-C", str(ROOT)]


def child(args: argparse.Namespace) -> None:
    """Seed, then answer "round" lines on stdin with one line of CPU ms per reply."""
    sys.path.insert(0, args.root)
    from sqlalchemy import select

    import reviewer_app
    from reviewer_app.server.config import ServerSettings
    from reviewer_app.server.domain import claims
    from reviewer_app.server.domain.leasing import Claimed
    from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
    from reviewer_app.server.service import Service
    from reviewer_app.server.storage.tables import items

    if not Path(reviewer_app.__file__).resolve().is_relative_to(Path(args.root).resolve()):
        raise SystemExit(f"measuring {args.root} imported {reviewer_app.__file__}")
    with bench_database(args.database_url, keep=False, prefix="bench-reply-") as url:
        service = Service(ServerSettings(database_url=url))
        service.start()  # its schema made, as the server's start makes it
        try:
            seed_load_queue(service, args.items)
            with service.db.read() as conn:
                ids = list(conn.execute(select(items.c.id).order_by(items.c.id)).scalars())
            groups = [ids[i : i + args.claim] for i in range(0, len(ids), args.claim)]
            expires = time.time() + 300

            def one_round() -> float:
                started = time.process_time()
                for n in range(args.claims):
                    group = groups[n % len(groups)]
                    claimed = [Claimed(i, f"token-{i}", expires) for i in group]
                    with service.db.read() as conn:
                        claims.reply(conn, LOAD_QUEUE.id, 300, 0, claimed)
                return (time.process_time() - started) / args.claims * 1000

            one_round()  # warm: statements prepared and cached
            print("ready", flush=True)
            for line in sys.stdin:
                if line.strip() == "round":
                    print(f"{one_round():.4f}", flush=True)
        finally:
            service.close()


class Runner:
    """A child process measuring the code at ``root``."""

    def __init__(self, args: argparse.Namespace, root: Path) -> None:
        command = [sys.executable, __file__, "--child", "--root", str(root)]
        command += ["--items", str(args.items), "--claim", str(args.claim)]
        command += ["--claims", str(args.claims)]
        if args.database_url:
            command += ["--database-url", args.database_url]
        self.proc = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root
        )
        assert self.proc.stdout is not None
        if self.proc.stdout.readline().strip() != "ready":
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError(f"the measuring process for {root} did not start")

    def round(self) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write("round\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def backend(url: str | None) -> str:
    return "sqlite" if url is None or url.startswith("sqlite") else "postgresql"


def measure(args: argparse.Namespace) -> dict[str, Any]:
    if backend(args.database_url) == "sqlite" and args.database_url:
        raise SystemExit("SQLite: leave out --database-url (each process makes its own file)")
    load = os.getloadavg()[0]
    codes = {"this code": ROOT}
    with tempfile.TemporaryDirectory(prefix="claim-reply-") as folder:
        if args.baseline:
            worktree = Path(folder) / "baseline"
            subprocess.run(
                [*GIT, "worktree", "add", "--detach", "--quiet", str(worktree), args.baseline],
                check=True,
            )
            codes[args.baseline] = worktree
        runners: dict[str, Runner] = {}
        try:
            for label, root in codes.items():
                runners[label] = Runner(args, root)
            rounds: dict[str, list[float]] = {label: [] for label in codes}
            for _ in range(args.rounds):
                for label, runner in runners.items():
                    rounds[label].append(runner.round())
        finally:
            for runner in runners.values():
                runner.close()
            if args.baseline:
                subprocess.run(
                    [*GIT, "worktree", "remove", "--force", str(codes[args.baseline])],
                    check=False,
                )
    figures = {
        label: {
            "min": round(min(values), 3),
            "median": round(statistics.median(values), 3),
            "per_item": round(statistics.median(values) / args.claim, 4),
        }
        for label, values in rounds.items()
    }
    return {
        "database": backend(args.database_url),
        "claim": args.claim,
        "claims_per_round": args.claims,
        "rounds": args.rounds,
        "figures": figures,
        "baseline": args.baseline,
        "load": round(load, 2),
        "code": code_version(),
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }


def print_figures(out: dict[str, Any]) -> None:
    print(
        f"{out['database']}: a claim's reply of {out['claim']} items, CPU ms "
        f"({out['rounds']} rounds of {out['claims_per_round']}; load {out['load']} at the start)"
    )
    for label, f in out["figures"].items():
        print(
            f"  {label:<24} median {f['median']:.3f}  min {f['min']:.3f}  "
            f"per item {f['per_item']:.4f}"
        )


def write_markdown() -> None:
    rows = stored_results("claim_reply")
    body = []
    for key, r in sorted(rows.items()):
        figures: dict[str, dict[str, float]] = r["figures"]  # type: ignore[assignment]
        mine = figures["this code"]
        base = figures.get(str(r["baseline"])) if r["baseline"] else None
        body.append(
            [
                key,
                r["claim"],
                f"{mine['median']} / {mine['min']}",
                mine["per_item"],
                f"{base['median']} / {base['min']} ({r['baseline']})" if base else "-",
                r["load"],
                r["code"],
                r["date"],
            ]
        )
    table = markdown_table(
        [
            "database",
            "items per claim",
            "CPU ms per reply, median / min",
            "per item",
            "baseline, same sitting",
            "load",
            "code",
            "date",
        ],
        body,
    )
    write_page_section(
        "claim_reply",
        "## A claim's reply\n\n`benchmarks/claim_reply.py`: the process CPU of building a "
        "claim's reply (its items' documents read and assembled, the JSON body made) in "
        "process, each reply in its own read transaction, on the synthetic load queue; the "
        "median and the best of the rounds. With a baseline, its rounds alternated with "
        "this code's in the same sitting. The latest run per database.\n\n" + table,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None, help="as claim_decide.py's")
    parser.add_argument("--items", type=int, default=2_000, help="items seeded")
    parser.add_argument("--claim", type=int, default=10, help="items per reply")
    parser.add_argument("--claims", type=int, default=100, help="replies per round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--baseline", metavar="REV", default=None)
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    parser.add_argument(
        "--markdown", action="store_true", help="record the run on benchmarks/README.md"
    )
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--root", default=str(ROOT), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args)
        return 0
    out = measure(args)
    print_figures(out)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    if args.markdown:
        record_result("claim_reply", out["database"], out)
        write_markdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
