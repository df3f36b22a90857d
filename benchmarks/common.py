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


def code_version() -> str:
    """The commit of the code measured, and whether reviewer_app/ had uncommitted changes."""
    repo = Path(__file__).resolve().parents[1]
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
