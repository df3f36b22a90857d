"""The demo's database seeded whole or not at all (``reviewer-app --demo``, demo.py): a
first start seeds into a file of its own and gives it the database's name once the seed
is whole, under a lock that makes two demos started at once on one folder seed it once."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.seed import seed_demo
from reviewer_app.server.service import Service

#: where a first start seeds the demo's database before it takes the database's name
SEEDING_SUFFIX = ".seeding"
#: what a database with no queues (a seed an older version left half done) is moved to
UNFINISHED_SUFFIX = ".unfinished"


def demo_settings(database: Path) -> ServerSettings:
    """The demo service's settings: its SQLite file, and password hashes at argon2id's least
    cost (``fast``). The demo's passwords are published (README), so a costly hash would
    protect nothing; it would only add about 0.15 s (0.22 s of CPU) to every demo start's
    login. Hashes keep their own costs: a demo database seeded by an older version still
    checks its passwords at the cost they were made with."""
    return ServerSettings(
        database_url=f"sqlite:///{database}",
        password_hash_profile="fast",  # noqa: S106 - a cost profile, not a password
    )


def seed_whole(database: Path) -> None:
    """Seed the demo into a database of its own beside ``database`` and give it the name
    once the seed is whole: a demo killed while it seeds (users, queue file, posts through
    intake, appeals: several transactions) leaves no half-seeded database that a later
    start would take for a seeded one, or fail to seed again. A database there without a
    queue is moved aside (``UNFINISHED_SUFFIX``), not deleted. Under ``seed_lock``."""
    seeding = database.with_name(database.name + SEEDING_SUFFIX)
    for leftover in _sqlite_files(seeding):
        leftover.unlink(missing_ok=True)  # a seed that was cut short: started again
    service = Service(demo_settings(seeding))
    service.start()
    try:
        seed_demo(service)
    finally:
        service.close()
    # everything in the main file before it is renamed: its write-ahead log stays behind
    with closing(_connect(seeding)) as conn:
        busy = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
        mode = conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
    if busy or str(mode).lower() != "delete":
        raise RuntimeError(f"The demo's new database {seeding} could not be finished.")
    aside = database.with_name(database.name + UNFINISHED_SUFFIX)
    for old in _sqlite_files(aside):
        old.unlink(missing_ok=True)  # one set of files aside: never another's log with it
    for part, moved in zip(_sqlite_files(database), _sqlite_files(aside), strict=True):
        if part.exists():
            os.replace(part, moved)
    os.replace(seeding, database)
    for lock in database.parent.glob(f"{seeding.name}.*-lock"):
        lock.unlink(missing_ok=True)  # the seeding service's writer locks
    if hasattr(os, "O_DIRECTORY"):  # the rename itself on disk (POSIX)
        folder = os.open(database.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def _connect(database: Path) -> sqlite3.Connection:
    """An existing SQLite file (never one made by opening a name that is not there)."""
    return sqlite3.connect(f"{database.as_uri()}?mode=rw", uri=True)


def seeded(database: Path) -> bool:
    """``database`` holds the demo's queues (a whole seed: see ``seed_whole``)."""
    if not database.exists():
        return False
    try:
        with closing(_connect(database)) as conn:
            return bool(conn.execute("SELECT count(*) FROM queues").fetchone()[0])
    except sqlite3.Error:  # no queues table: not a seeded database
        return False


@contextmanager
def seed_lock(database: Path) -> Iterator[None]:
    """Held while a demo decides whether to seed ``database`` and seeds it: two demos
    started at once on one folder seed it once. (No lock where ``fcntl`` is missing, as
    for the service's own writer turns.)"""
    try:
        import fcntl
    except ImportError:
        yield
        return
    database.parent.mkdir(parents=True, exist_ok=True)
    with open(database.with_name(database.name + ".seed-lock"), "ab") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _sqlite_files(database: Path) -> tuple[Path, Path, Path]:
    """A SQLite database's file, its write-ahead log and its shared-memory index."""
    return (
        database,
        database.with_name(database.name + "-wal"),
        database.with_name(database.name + "-shm"),
    )
