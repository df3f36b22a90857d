"""Where the client keeps its files: the platform's user data folder (platformdirs)."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

APP_NAME = "reviewer-app"
#: Overrides the data folder (tests, portable installs).
DATA_ENV = "REVIEWER_APP_DATA_DIR"


def data_dir() -> Path:
    override = os.environ.get(DATA_ENV)
    return Path(override) if override else platformdirs.user_data_path(APP_NAME, appauthor=False)


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:60] or "_"


def store_path(server_url: str, username: str, root: Path | None = None) -> Path:
    """One SQLite file per server and user: ``<data>/stores/<host_port>-<hash>/<user>.sqlite3``.

    The readable part helps a person find it; the hash keeps two servers on one host (or
    http and https) apart.
    """
    parts = urlsplit(server_url)
    digest = hashlib.sha256(server_url.encode()).hexdigest()[:12]
    folder = f"{_safe(parts.netloc)}-{digest}"
    user = f"{_safe(username)}-{hashlib.sha256(username.encode()).hexdigest()[:8]}"
    return (root or data_dir()) / "stores" / folder / f"{user}.sqlite3"
