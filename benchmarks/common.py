"""What every benchmark prints beside its figures, and the throwaway database it runs on."""

from __future__ import annotations

import contextlib
import math
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url


def code_version(repo: Path | None = None) -> str:
    """The commit of the code measured, and whether reviewer_app/ had uncommitted changes
    (of this checkout, or of ``repo``: another one whose reviewer_app was imported)."""
    repo = repo or Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        changed = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--", "reviewer_app"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.splitlines()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + (f" + {len(changed)} changed files in reviewer_app/" if changed else "")


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (nan for no values)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def filesystem_of(path: Path) -> str:
    """The type of the file system holding ``path`` (from /proc/mounts; "?" elsewhere)."""
    path = path.resolve()
    best, kind = "", "?"
    with contextlib.suppress(OSError):
        for line in Path("/proc/mounts").read_text().splitlines():
            parts = line.split()
            if len(parts) < 3:
                continue
            mount = parts[1].replace("\\040", " ")
            inside = path == Path(mount) or Path(mount) in path.parents
            if inside and len(mount) > len(best):
                best, kind = mount, parts[2]
    return kind


@contextlib.contextmanager
def bench_database(url: str | None, *, keep: bool, prefix: str = "bench-") -> Iterator[str]:
    """A fresh database for one run: a SQLite file in a temp dir, or a throwaway
    PostgreSQL database created next to the one ``url`` names."""
    if url is None:
        folder = Path(tempfile.mkdtemp(prefix=prefix))
        try:
            yield f"sqlite:///{folder / 'bench.db'}"
        finally:
            if keep:
                print(f"kept the database in {folder}", file=sys.stderr)
            else:
                shutil.rmtree(folder, ignore_errors=True)
        return
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        path = parsed.database
        if path and path != ":memory:" and Path(path).exists():
            raise SystemExit(f"{path} exists; give a new SQLite file (or none for a temp one)")
        yield url
        return
    if parsed.get_backend_name() != "postgresql":
        raise SystemExit(f"unsupported database URL {parsed.render_as_string()}")
    name = "rd_bench_" + secrets.token_hex(6)
    admin = create_engine(parsed.set(drivername="postgresql+psycopg"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield parsed.set(database=name).render_as_string(hide_password=False)
    finally:
        if keep:
            print(f"kept the PostgreSQL database {name}", file=sys.stderr)
        else:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


# -- the benchmarks' page (benchmarks/README.md), written by the scripts ------------------------

PAGE = Path(__file__).resolve().with_name("README.md")
RESULTS = Path(__file__).resolve().with_name("results")


def record_result(name: str, key: str, row: dict[str, object]) -> None:
    """Keep ``row`` as the latest result of ``name`` for ``key`` (e.g. "sqlite, 1 process")
    in ``benchmarks/results/<name>.json``; rows of other keys stay."""
    import json

    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    rows: dict[str, dict[str, object]] = {}
    if path.exists():
        rows = json.loads(path.read_text())
    rows[key] = row
    path.write_text(json.dumps(rows, indent=1, sort_keys=True, ensure_ascii=False) + "\n")


def stored_results(name: str) -> dict[str, dict[str, object]]:
    import json

    path = RESULTS / f"{name}.json"
    return json.loads(path.read_text()) if path.exists() else {}


def markdown_table(header: list[str], rows: list[list[object]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def write_page_section(name: str, markdown: str) -> None:
    """Replace the section between ``<!-- name:begin -->`` and ``<!-- name:end -->`` of the
    benchmarks' page with ``markdown`` (appended when the page has no such section)."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    block = f"{begin}\n<!-- written by benchmarks/{name}.py --markdown; do not edit -->\n"
    block += markdown.rstrip() + f"\n{end}"
    page = PAGE.read_text() if PAGE.exists() else "# Benchmarks\n"
    if begin in page and end in page:
        head, rest = page.split(begin, 1)
        page = head + block + rest.split(end, 1)[1]
    else:
        page = page.rstrip() + "\n\n" + block + "\n"
    PAGE.write_text(page)
