"""What every benchmark prints beside its figures."""

from __future__ import annotations

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
