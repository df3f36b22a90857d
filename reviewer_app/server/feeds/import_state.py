"""``FILE.import-state``: how far ``server import`` got with a file, into which database and
as which platform account (see bulk_import.py).

The progress belongs to the file, the database and the source together: a state written
for another database (a ``./reviewer-server.db`` made by mistake, a staging SQLite before
the move to PostgreSQL) says nothing of what this one holds. The database is named by a
digest of a row it makes once and keeps (the intake's reporter key in ``server_secrets``):
one-way, so the state file never holds the secret, and the same for every URL that reaches
the database. A state for another database is not resumed: the import starts from the first
line, which is safe since intake is idempotent (everything already there is counted
``unchanged``), and says so. One that names none (written by a release before this one) is
taken as this database's, as that release did, and the run says so and how to start over.
"""

from __future__ import annotations

import glob
import hashlib
import hmac
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from reviewer_app.server.feeds.import_files import ImportFileError
from reviewer_app.server.service import Service

STATE_SUFFIX = ".import-state"
REJECTS_SUFFIX = ".rejected.jsonl"
LOCK_SUFFIX = ".import-state.lock"
STATE_VERSION = 2
"""2 names the database; 1 (earlier releases) does not, and is read as "another database\""""
DEFAULT_SOURCE = "bulk-import"
_DATABASE_LABEL = b"reviewer-app server import: the database's id"


@dataclass
class ImportState:
    """Where a run got to: ``FILE.import-state``."""

    offset: int = 0
    """the byte offset of the first line not yet committed"""
    line: int = 0
    """lines before ``offset``"""
    prefix_sha256: str = hashlib.sha256().hexdigest()
    """of the file's first ``offset`` bytes"""
    rejects_size: int = 0
    """the rejects file's length when the state was written (lines past it are redone)"""
    source: str = DEFAULT_SOURCE
    media: dict[str, str] = field(default_factory=dict)
    tally: dict[str, int] = field(default_factory=dict)
    """results since the first run (into this database, as this source)"""
    rejected: int = 0
    """lines this import listed as rejected, since its first run"""
    done: bool = False
    rejects_file: list[int] | None = None
    """the rejects file this import writes (device, inode): recorded before its first line,
    so a run only ever cuts back a file of its own (never another one given as --rejects)"""
    database: str | None = None
    """``database_id`` of the database imported into (None: a state of an earlier release)"""

    def to_json(self) -> dict[str, Any]:
        return {"version": STATE_VERSION, **self.__dict__}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ImportState:
        version = data.get("version")
        if version not in (1, STATE_VERSION):
            raise ValueError("unknown state version")
        return cls(
            offset=int(data["offset"]),
            line=int(data["line"]),
            prefix_sha256=str(data["prefix_sha256"]),
            rejects_size=int(data["rejects_size"]),
            source=str(data["source"]),
            media={str(k): str(v) for k, v in data.get("media", {}).items()},
            tally={str(k): int(v) for k, v in data.get("tally", {}).items()},
            rejected=int(data.get("rejected", 0)),
            done=bool(data.get("done", False)),
            rejects_file=_identity(data.get("rejects_file")),
            database=None if version == 1 else str(data["database"]),
        )


def _identity(value: Any) -> list[int] | None:
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != 2:
        raise ValueError("'rejects_file' is not (device, inode)")
    return [int(value[0]), int(value[1])]


def database_id(service: Service) -> str:
    """The database's own id: a one-way digest of the key it made once to hash reporter ids
    with (made now if it has none yet), the same whatever URL reaches it."""
    key = service.intake.reporter_key()
    return hmac.new(key, _DATABASE_LABEL, hashlib.sha256).hexdigest()[:32]


def starting_state(
    found: ImportState | None,
    database: str,
    source: str,
    state_file: Path,
    notify: Callable[[str], None],
) -> ImportState:
    """The state this run goes on from: ``found`` when it was written for this database and
    source; a new one (from the first line) when for another database or none named. The
    rejects file is kept (its lines so far are never cut back: this run appends to them).
    Another source into the same database is refused: its posts would all be stored again,
    as another platform's."""
    if found is None:
        return ImportState(source=source, database=database)
    if found.database in (database, None) and found.source != source:
        # (a state of an earlier release too: most likely this very database)
        raise ImportFileError(
            f"{state_file.name[: -len(STATE_SUFFIX)]} was being imported as "
            f"{found.source!r}, not {source!r}: give --source {found.source} (or remove "
            f"{state_file.name} to start over)"
        )
    if found.database == database:
        return found
    if found.database is None:
        # an earlier release's state, as this source: most likely this very database (the
        # one its run was given), which holds the lines before its offset; started over
        # there, a file that withdraws a post and brings it back would do both again
        notify(
            f"The progress in {state_file} does not say which database it was for (an "
            "earlier release wrote it): taken as this database's. If it was another's, "
            f"remove {state_file.name} and run the import again to start from the first line."
        )
        found.database = database
        return found
    why = "was for another database"
    kept = " Its rejected lines are appended to those listed before." if found.rejected else ""
    notify(
        f"The progress in {state_file} {why}; importing from the first line (what this "
        f"database already holds is not stored twice: it is counted as unchanged).{kept}"
    )
    return ImportState(
        source=source,
        database=database,
        rejects_file=found.rejects_file,
        rejects_size=found.rejects_size,
    )


def state_path(file: Path) -> Path:
    return file.with_name(file.name + STATE_SUFFIX)


def rejects_path(file: Path) -> Path:
    return file.with_name(file.name + REJECTS_SUFFIX)


def lock_path(file: Path) -> Path:
    return file.with_name(file.name + LOCK_SUFFIX)


def read_state(path: Path) -> ImportState | None:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:  # a folder of that name (a traceback), or unreadable
        raise ImportFileError(
            f"cannot read the import state {path}: {exc.strerror or exc} (it must be a file"
            " an import wrote: remove or rename it to import from the start)"
        ) from None
    try:
        return ImportState.from_json(json.loads(data.decode("utf-8")))
    except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
        raise ImportFileError(
            f"{path} is not an import state ({exc}); remove it to import from the start"
        ) from None


def write_state(path: Path, state: ImportState) -> None:
    """Replace the state file atomically: a kill leaves the old one or the new one. (Not
    synced to disk: a state older than the database is safe, intake being idempotent.)"""
    temporary = temporary_path(path)
    temporary.write_text(json.dumps(state.to_json()), encoding="utf-8")
    os.replace(temporary, path)


def temporary_path(path: Path) -> Path:
    """The state's next version, named for this process (two runs renamed one name away)."""
    return path.with_name(f"{path.name}.{os.getpid()}.tmp")


@contextmanager
def one_run(file: Path) -> Iterator[None]:
    """An OS lock on ``FILE.import-state.lock`` (left in place), released with the process
    however it ends: two runs at once sent the same lines to one state and rejects file."""
    path = lock_path(file)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:
        raise ImportFileError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        try:
            _lock(fd)
        except (BlockingIOError, PermissionError):
            raise ImportFileError(f"{file.name} is being imported by another run") from None
        except OSError as exc:
            raise ImportFileError(f"cannot lock {path}: {exc.strerror or exc}") from None
        for stale in path.parent.glob(glob.escape(state_path(file).name) + ".*.tmp"):
            stale.unlink(missing_ok=True)  # a killed run's next state, never renamed
        yield
    finally:
        os.close(fd)


def _lock(fd: int) -> None:
    """Without waiting: ``OSError`` if another process holds it."""
    if sys.platform == "win32":
        import msvcrt

        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)


def hash_prefix(stream: IO[bytes], length: int, digest: Any) -> str:
    """Feed the file's first ``length`` bytes to ``digest``; leaves the stream after them."""
    left = length
    while left > 0:
        chunk = stream.read(min(left, 1 << 20))
        if not chunk:
            raise ImportFileError("the file is shorter than when it was imported")
        digest.update(chunk)
        left -= len(chunk)
    return str(digest.hexdigest())


__all__ = [
    "DEFAULT_SOURCE",
    "ImportState",
    "database_id",
    "hash_prefix",
    "lock_path",
    "one_run",
    "read_state",
    "rejects_path",
    "starting_state",
    "state_path",
    "temporary_path",
    "write_state",
]
