"""Where the client keeps its files: the platform's user data folder (platformdirs).

Everything the client keeps there is private to the user: folders it makes are 0700 and
files 0600 (``private_folder``, ``private_file``), whatever the umask says, and files of
an older release are narrowed when they are opened (on systems with POSIX modes).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from contextlib import suppress
from pathlib import Path
from urllib.parse import urlsplit

import platformdirs

APP_NAME = "reviewer-app"
#: Overrides the data folder (tests, portable installs).
DATA_ENV = "REVIEWER_APP_DATA_DIR"
FOLDER_MODE = 0o700
FILE_MODE = 0o600
#: POSIX file modes mean something here (not on Windows, where ACLs of the profile apply)
POSIX_MODES = os.name == "posix"


def data_dir() -> Path:
    override = os.environ.get(DATA_ENV)
    return Path(override) if override else platformdirs.user_data_path(APP_NAME, appauthor=False)


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:60] or "_"


def stores_dir(root: Path | None = None) -> Path:
    return (root or data_dir()) / "stores"


def store_path(server_url: str, username: str, root: Path | None = None) -> Path:
    """One SQLite file per server and user: ``<data>/stores/<host_port>-<hash>/<user>.sqlite3``.

    The readable part helps a person find it; the hash keeps two servers on one host (or
    http and https) apart.
    """
    parts = urlsplit(server_url)
    digest = hashlib.sha256(server_url.encode()).hexdigest()[:12]
    folder = f"{_safe(parts.netloc)}-{digest}"
    user = f"{_safe(username)}-{hashlib.sha256(username.encode()).hexdigest()[:8]}"
    return stores_dir(root) / folder / f"{user}.sqlite3"


def private_folder(folder: Path, *, within: Path | None = None) -> Path:
    """Make ``folder`` (and its missing parents) readable by the user only (0700). Folders
    that already exist are narrowed too from ``within`` down (by default only the ones made
    here and ``folder`` itself): the user's own data folder, never a folder above it."""
    folder = Path(folder)
    missing: list[Path] = []
    probe = folder
    while not probe.exists():
        missing.append(probe)
        if probe.parent == probe:
            break
        probe = probe.parent
    for made in reversed(missing):
        with suppress(FileExistsError):
            made.mkdir(mode=FOLDER_MODE)
    narrow = set(missing) | {folder}
    if within is not None:
        within = Path(within)
        probe = folder
        while probe != within and within in probe.parents:
            narrow.add(probe)
            probe = probe.parent
        narrow.add(within)
    if POSIX_MODES:
        for path in narrow:
            _narrow(path, FOLDER_MODE)
    return folder


def private_file(path: Path) -> Path:
    """Make sure ``path`` exists and only the user may read or write it (0600): created
    with that mode when missing (never a moment with a wider one), narrowed when not."""
    path = Path(path)
    fd = os.open(path, os.O_CREAT | os.O_WRONLY | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    os.close(fd)
    if POSIX_MODES:
        _narrow(path, FILE_MODE)
    return path


def narrow_file(path: Path) -> None:
    """An existing file of ours to 0600 (a store's WAL or SHM left by an older release);
    nothing when it is missing."""
    if POSIX_MODES:
        with suppress(FileNotFoundError):
            _narrow(Path(path), FILE_MODE)


def _narrow(path: Path, mode: int) -> None:
    current = stat.S_IMODE(path.stat().st_mode)
    if current != mode:
        os.chmod(path, mode)
