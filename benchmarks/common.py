"""What every benchmark prints beside its figures."""

from __future__ import annotations

import contextlib
import math
import subprocess
from pathlib import Path


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
