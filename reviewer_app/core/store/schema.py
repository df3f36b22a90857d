"""The store's schema: its migrations, in order, and the names its rows are known by.

The schema version is ``PRAGMA user_version``: the number of ``MIGRATIONS`` applied. Each
migration runs inside the transaction that opens the store (``StoreFile._migrate``), so a
crash leaves the file as it was or wholly upgraded. A migration, once released, is never
changed: a new one is added after the last.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: "RvDk": marks a SQLite file as this app's store (``PRAGMA application_id``).
APPLICATION_ID = 0x5276446B
#: Files larger than this skip ``PRAGMA quick_check`` at open (SQLite still reports damage
#: when it meets it).
QUICK_CHECK_LIMIT = 256 * 1024 * 1024


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Statements one by one: ``executescript`` would commit the migration's transaction."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def _v1(conn: sqlite3.Connection) -> None:
    _run_script(
        conn,
        """
        CREATE TABLE settings (name TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE queues (
            id TEXT PRIMARY KEY, position INTEGER NOT NULL, document TEXT NOT NULL,
            fetched_at REAL NOT NULL
        );
        CREATE TABLE items (
            id TEXT PRIMARY KEY,
            queue_id TEXT NOT NULL,
            seq INTEGER NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('ready', 'decided', 'skipped')),
            lease_token TEXT NOT NULL,
            lease_granted_at REAL NOT NULL,
            lease_expires_at REAL NOT NULL,
            lease_lost INTEGER NOT NULL DEFAULT 0,
            media_wanted INTEGER NOT NULL DEFAULT 0,
            document TEXT NOT NULL
        );
        CREATE INDEX items_worklist ON items (queue_id, state, seq);
        CREATE INDEX items_lease ON items (lease_expires_at);
        CREATE TABLE media (
            id TEXT PRIMARY KEY,
            item_id TEXT NOT NULL,
            content_type TEXT NOT NULL,
            data BLOB NOT NULL
        );
        CREATE INDEX media_item ON media (item_id);
        CREATE TABLE journal (
            key TEXT PRIMARY KEY,
            item_id TEXT NOT NULL,
            queue_id TEXT NOT NULL,
            action TEXT NOT NULL,
            verdict TEXT NOT NULL,
            recorded_at REAL NOT NULL,
            status TEXT NOT NULL CHECK (status IN
                ('pending', 'accepted', 'duplicate', 'conflict', 'rejected', 'undone')),
            result TEXT,
            settled_at REAL
        );
        CREATE INDEX journal_recent ON journal (recorded_at);
        CREATE INDEX journal_item ON journal (item_id);
        CREATE TABLE outbox (
            key TEXT PRIMARY KEY REFERENCES journal (key),
            due_at REAL NOT NULL,
            in_flight INTEGER NOT NULL DEFAULT 0,
            attempts INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX outbox_due ON outbox (due_at);
        CREATE TABLE conflicts (
            key TEXT PRIMARY KEY REFERENCES journal (key),
            item_id TEXT NOT NULL,
            item TEXT,
            mine TEXT NOT NULL,
            theirs TEXT NOT NULL,
            found_at REAL NOT NULL,
            resolution TEXT CHECK (resolution IN ('accepted', 'escalated')),
            resolved_at REAL
        );
        """,
    )


def _v2(conn: sqlite3.Connection) -> None:
    """Lookups by lease token (renewals of a big offline batch scanned the table once per
    token), by journal status, and by arrival order."""
    _run_script(
        conn,
        """
        CREATE INDEX items_token ON items (lease_token);
        CREATE INDEX items_seq ON items (seq);
        CREATE INDEX journal_status ON journal (status);
        """,
    )


def _v3(conn: sqlite3.Connection) -> None:
    """Encryption at rest and retention: ``meta`` holds the key check (a value sealed with the
    profile's key: present means every content column is sealed); items and conflicts record
    when their content was cached or stripped. The content itself is sealed by
    ``Store._seal_existing`` in the same transaction when the store is opened with a key."""
    _run_script(
        conn,
        """
        CREATE TABLE meta (name TEXT PRIMARY KEY, value BLOB NOT NULL);
        ALTER TABLE items ADD COLUMN cached_at REAL NOT NULL DEFAULT 0;
        UPDATE items SET cached_at = lease_granted_at;
        CREATE INDEX items_cached ON items (cached_at);
        ALTER TABLE conflicts ADD COLUMN purged_at REAL;
        """,
    )


def _v4(conn: sqlite3.Connection) -> None:
    """Media by (media id, item): posts that came in through intake can share an upload,
    so one media id belongs to several items (keyed by id alone, the second item's copy
    replaced the first's, which then asked for it again, without end)."""
    _run_script(
        conn,
        """
        CREATE TABLE media_v4 (
            id TEXT NOT NULL,
            item_id TEXT NOT NULL,
            content_type TEXT NOT NULL,
            data BLOB NOT NULL,
            PRIMARY KEY (id, item_id)
        );
        INSERT INTO media_v4 (id, item_id, content_type, data)
            SELECT id, item_id, content_type, data FROM media;
        DROP TABLE media;
        ALTER TABLE media_v4 RENAME TO media;
        CREATE INDEX media_item ON media (item_id);
        """,
    )


def _v5(conn: sqlite3.Connection) -> None:
    """Lease lengths and why a verdict waits: each item keeps the length it was leased for
    (a renewal asks for that length again: an offline batch's hour stays an hour), and an
    outbox row refused for now keeps why (``retry_reason``, a reason code) and until when the
    other reviewer holds its item (``held_until``), so the window can say why it waits."""
    _run_script(
        conn,
        """
        ALTER TABLE items ADD COLUMN lease_seconds INTEGER NOT NULL DEFAULT 0;
        UPDATE items SET lease_seconds = MAX(0, CAST(ROUND(lease_expires_at - lease_granted_at)
            AS INTEGER));
        ALTER TABLE outbox ADD COLUMN retry_reason TEXT;
        ALTER TABLE outbox ADD COLUMN held_until REAL
        """,
    )


def _v6(conn: sqlite3.Connection) -> None:
    """Which held items the reviewer has opened: leaving a queue gives back the items leased
    ahead there that were never opened (``untouched_leases``), and keeps the rest."""
    _run_script(conn, "ALTER TABLE items ADD COLUMN opened INTEGER NOT NULL DEFAULT 0")


def _v7(conn: sqlite3.Connection) -> None:
    """A lead's bulk decisions held for the undo window before they are sent (``held_bulk``:
    the request sealed, as a verdict is; a bulk still here after a crash is sent at the
    next start, as a verdict is)."""
    _run_script(
        conn,
        """
        CREATE TABLE held_bulk (
            id TEXT PRIMARY KEY,
            request BLOB NOT NULL,
            item_count INTEGER NOT NULL,
            held_at REAL NOT NULL,
            due_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0
        )
        """,
    )


def _v8(conn: sqlite3.Connection) -> None:
    """A media file once, however many items show it (``media_files``); ``media`` keeps which
    items show which file. Every item kept a sealed copy of its own: one 8 MB upload named by
    ten posts took 84 MB of the store, and 250 held items of 16 media each could take GBs."""
    _run_script(
        conn,
        """
        CREATE TABLE media_files (
            id TEXT PRIMARY KEY,
            content_type TEXT NOT NULL,
            data BLOB NOT NULL
        );
        INSERT OR IGNORE INTO media_files (id, content_type, data)
            SELECT id, content_type, data FROM media ORDER BY rowid;
        CREATE TABLE media_v8 (
            id TEXT NOT NULL,
            item_id TEXT NOT NULL,
            PRIMARY KEY (id, item_id)
        );
        INSERT INTO media_v8 (id, item_id) SELECT id, item_id FROM media;
        DROP TABLE media;
        ALTER TABLE media_v8 RENAME TO media;
        CREATE INDEX media_item ON media (item_id);
        """,
    )


def _v9(conn: sqlite3.Connection) -> None:
    """No table changes: the documents kept in the store gained fields (the profile's
    ``User.access_ended``, a queue's ``counts.not_for_you``), which a release of schema 8
    cannot parse (it refuses fields it does not know). The version says so: such a release
    refuses this store as one written by a newer release, in its own words, instead of
    failing on the first document it reads. A change to a model the store keeps as a
    document needs such a migration (tests/core/test_store_documents.py checks)."""


def _v10(conn: sqlite3.Connection) -> None:
    """No table changes: the documents kept gained values and fields a release of schema 9
    cannot parse: the DSA statement categories of the Transparency Database's 2025 schema
    in a queue's policies (``other_violation_tc``, ``cyber_violence``…), and a decision's
    ``made_at`` and escalation outcome. Such a release refuses this store as a newer
    release's (see ``_v9``)."""


def _v11(conn: sqlite3.Connection) -> None:
    """No table changes: the items kept gained fields a release of schema 10 cannot parse:
    a reason's parts (``QueueReason.subject``, ``score``, ``threshold``, ``count``,
    ``since_kept``) and what reversing an appeal would leave the account with
    (``ItemAppeal.account_stays``). Such a release refuses this store as a newer release's
    (see ``_v9``)."""


def _v12(conn: sqlite3.Connection) -> None:
    """Which held items belong to a "work offline" batch (``offline``): a clean quit and a
    queue left keep them. They were told apart by a lease longer than the prefetch's, which
    a service capping leases at the prefetch's length (or a prefetch lease set to an hour)
    made the same: the batch was given back at the quit. Items leased for longer than the
    prefetch lease (the reviewer's setting, ten minutes by default) are taken as a batch's,
    as they were told apart until now."""
    _run_script(
        conn,
        """
        ALTER TABLE items ADD COLUMN offline INTEGER NOT NULL DEFAULT 0;
        UPDATE items SET offline = 1 WHERE lease_seconds > COALESCE(
            (SELECT CAST(value AS INTEGER) FROM settings WHERE name = 'lease_seconds'), 600)
        """,
    )


#: Migrations in order; the store's schema version is the number of them applied.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _v1,
    _v2,
    _v3,
    _v4,
    _v5,
    _v6,
    _v7,
    _v8,
    _v9,
    _v10,
    _v11,
    _v12,
)
SCHEMA_VERSION = len(MIGRATIONS)
#: the content type kept for a media file the service no longer has (404 or 410): its tile
#: says so instead of "not an image this app can show"
MISSING_MEDIA = "application/x-missing"
TABLES = {"settings", "queues", "items", "media", "journal", "outbox", "conflicts"}
#: ``meta`` row whose presence says the store is encrypted (its value: a sealed check)
KEY_CHECK = "key_check"
#: ``meta`` rows: the last good sync (client time, plain) and the profile's user (sealed)
LAST_SYNC = "last_sync"
PROFILE = "profile"
#: ``meta`` row (plain JSON, no content): how far this computer's clock is ahead of the
#: service's and the lease lengths the service is known to grant (``ItemStore``), so a
#: restart places renewals' times on this clock as the session before it did
SERVER_CLOCK = "server_clock"
#: ``meta`` row: the reviewer's own shift tally for break reminders (sealed: it says what
#: kinds of harm they saw), so a restart goes on with the shift (``core.wellbeing``)
SHIFT_TALLY = "shift_tally"
KEY_CHECK_TEXT = b"reviewer-app store key check"
#: ``items.document`` of an item whose content was purged (its verdict is still unsent)
PURGED = ""


#: the schema that added the key check (``meta``): a store of an older one was written
#: before the store was encrypted
ENCRYPTED_SINCE = 3
#: what holds a reviewer's content or work: rows here mean a store is not a new, empty one
_CONTENT_TABLES = ("items", "media", "media_files", "journal", "outbox", "conflicts", "held_bulk")


def content_rows(conn: sqlite3.Connection) -> int:
    """How many rows of content the store holds (in whichever of its tables exist)."""
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    held = sum(
        conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]  # noqa: S608 - our names
        for table in _CONTENT_TABLES
        if table in tables
    )
    if "meta" in tables:  # the profile and the shift tally are sealed content too
        held += conn.execute(
            "SELECT COUNT(*) FROM meta WHERE name NOT IN (?, ?, ?)",
            (KEY_CHECK, LAST_SYNC, SERVER_CLOCK),
        ).fetchone()[0]
    return int(held)


def encrypted_store(path: Path) -> bool | None:
    """Whether the store file at ``path`` records that it is encrypted (its key check),
    read without changing it: True or False, None when it cannot be read (damaged, not
    ours, busy). What a login asks before it would make a new key for a profile."""

    def read(conn: sqlite3.Connection) -> bool:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version < ENCRYPTED_SINCE:
            return False
        row = conn.execute("SELECT 1 FROM meta WHERE name = ?", (KEY_CHECK,)).fetchone()
        return row is not None

    return _read_only(path, read)


def written_before_encryption(path: Path) -> bool:
    """Whether the file at ``path`` is this app's store as a release before encryption
    wrote it (schema 2 or older: nothing in it is sealed, and no key was ever made for
    it), read without changing it; False when it cannot be read."""

    def read(conn: sqlite3.Connection) -> bool:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        return bool(app_id == APPLICATION_ID and 0 < version < ENCRYPTED_SINCE)

    return _read_only(path, read) is True


def _read_only(path: Path, read: Callable[[sqlite3.Connection], T]) -> T | None:
    """``read`` on a read-only connection to the file at ``path`` (None when SQLite cannot
    read it); the empty WAL and SHM such a connection leaves are removed."""
    companions = [Path(f"{path}{suffix}") for suffix in ("-wal", "-shm")]
    absent = [p for p in companions if not p.exists()]
    try:
        conn = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=2.0)
    except sqlite3.Error:
        return None
    try:
        return read(conn)
    except sqlite3.Error:
        return None
    finally:
        conn.close()
        wal, shm = companions
        if wal in absent and shm in absent and (not wal.exists() or wal.stat().st_size == 0):
            wal.unlink(missing_ok=True)  # the empty WAL and SHM a read-only connection left
            shm.unlink(missing_ok=True)
