"""The local store: one SQLite file per server and user.

It holds the leased items with their whole context and media, the outbox of verdicts not
yet delivered, the reviewer's own decision journal (what they decided, when, and what the
server said), the conflicts, the last known queues and the settings.

A verdict, its journal row and its outbox row are written in one transaction: once
``record_verdict`` returns, the decision survives a killed or crashed process (the commit is
in the WAL file, in the operating system's hands). The commit does not wait for the disk
(``synchronous=NORMAL``): on a slow or busy disk an fsync takes tens of milliseconds, and it
would be taken on the GUI thread between a keypress and the next post. The sync thread
writes the WAL through to the disk instead (``write_through``: an fsync, at the start of
each pass, and a verdict wakes it at once), so a power cut loses at most the verdicts of
the moment before it. Each thread opens its own ``Store`` on the same file (WAL lets the
UI read while the sync engine writes). Schema versions by ``PRAGMA user_version``; a file
that is damaged or is not ours is moved aside with a message, never silently reused.

**Encryption at rest.** Opened with the profile's key (``key=``, from the OS keyring), every
value that holds user content is sealed with AES-256-GCM (``sealing.RowCipher``), with the
row's place (``table.column:primary key``) as associated data: ``items.document`` (post,
author, thread, reports, scores), ``media.data``, ``journal.verdict`` and ``journal.result``
(a verdict's note, the decision that won), and ``conflicts.item``/``mine``/``theirs``. What
queries filter and sort on stays plain: ids, queue ids, states, lease tokens, times, the
chosen action. ``queues.document`` (each queue's decision config: action and policy labels,
no user content) and ``settings`` stay plain. A store written without a key (schema 2, or
tools and tests) is encrypted in place, in one transaction, the first time it is opened with
a key; the file is then vacuumed so no plaintext page is left in it or its WAL. A value
that does not decrypt is a ``StoreError``, never shown.

**In memory.** With ``in_memory=True`` the store is a SQLite ``memdb`` database named by
``path``, shared by the connections of this process (the UI's and the sync thread's) and
gone when the last one closes: for sessions with no keyring to hold a key, nothing of theirs
is written to disk.

**Files.** The store file is created 0600 (so are its WAL and SHM, which SQLite makes with
the database's mode) in a folder made 0700; files of an older release are narrowed when
opened.

**Metadata.** ``meta`` also keeps the last good sync's time (plain: it says nothing of the
content) and the profile's user (sealed), so a start with no network can show both.

**Retention.** Delivered verdicts leave the worklist with their item and media in the same
transaction that records the server's answer (``settle``), and their notes are dropped from
the journal. Nothing cached (items, media, conflicts' copies) is kept longer than
``cache_retention_hours`` (``purge_expired``: at open and on every sync pass). Verdicts not yet
delivered are the exception: they are kept, encrypted, until the server has them.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sqlite3
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import quote

from reviewer_app.protocol import (
    Decision,
    Item,
    LeaseGrant,
    LeaseStatus,
    Queue,
    User,
    Verdict,
    VerdictResult,
    VerdictStatus,
)
from reviewer_app.protocol.bulk_decisions import BulkDecisionRequest

from .errors import CoreError, StoreError
from .paths import narrow_file, private_file, private_folder
from .sealing import RowCipher
from .settings import CACHE_RETENTION, UNDO_WINDOW, Settings

log = logging.getLogger("store")

#: Rejections that are not final: the verdict stays in the outbox and is sent again later.
RETRYABLE_REJECTIONS = frozenset({"leased_to_other"})
#: the reason code of a verdict the service refused for now: another reviewer holds its item
HELD_BY_OTHER = "leased_to_other"
RETRY_REJECTED_AFTER = 60.0
#: the soonest a refused-for-now verdict is sent again, even when the other hold ends sooner
RETRY_REJECTED_SOONEST = 1.0

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


#: Migrations in order; the store's schema version is the number of them applied.
MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (
    _v1,
    _v2,
    _v3,
    _v4,
    _v5,
    _v6,
    _v7,
)
SCHEMA_VERSION = len(MIGRATIONS)
TABLES = {"settings", "queues", "items", "media", "journal", "outbox", "conflicts"}
#: ``meta`` row whose presence says the store is encrypted (its value: a sealed check)
KEY_CHECK = "key_check"
#: ``meta`` rows: the last good sync (client time, plain) and the profile's user (sealed)
LAST_SYNC = "last_sync"
PROFILE = "profile"
_KEY_CHECK_TEXT = b"reviewer-app store key check"
#: ``items.document`` of an item whose content was purged (its verdict is still unsent)
PURGED = ""


@dataclass(frozen=True)
class HeldBulk:
    """A lead's bulk decision kept here for the undo window (and until the service answers)."""

    id: str
    request: BulkDecisionRequest
    held_at: float
    due_at: float


class AlreadyDecided(CoreError):
    """The item has a verdict already, or is no longer in the worklist."""


class NothingToUndo(CoreError):
    """No verdict is still inside its undo window."""


@dataclass(frozen=True)
class StoredItem:
    item: Item
    queue_id: str
    lease_token: str
    lease_expires_at: float
    state: str
    lease_lost: bool


@dataclass(frozen=True)
class WorklistRow:
    item_id: str
    queue_id: str
    state: str
    lease_expires_at: float
    lease_lost: bool
    verdict_status: str | None
    action: str | None


@dataclass(frozen=True)
class JournalEntry:
    key: str
    item_id: str
    queue_id: str
    action: str
    verdict: Verdict
    recorded_at: float
    status: str
    result: VerdictResult | None
    settled_at: float | None


@dataclass(frozen=True)
class Conflict:
    key: str
    item_id: str
    item: Item | None
    mine: Verdict
    theirs: Decision
    found_at: float
    resolution: str | None


@dataclass(frozen=True)
class Outgoing:
    key: str
    verdict: Verdict


@dataclass(frozen=True)
class Pending:
    """Verdicts not yet delivered, and how many of them wait because another reviewer holds
    their item for now (sent again until that hold ends or the other decides), with the
    latest end of such a hold the service named (client time; None when it named none)."""

    pending: int
    held: int
    held_until: float | None


@dataclass(frozen=True)
class Renewal:
    """A held lease to renew: its item, token, and the length it was leased for (0 when an
    older release did not record it)."""

    item_id: str
    token: str
    lease_seconds: int


@dataclass(frozen=True)
class OfflineSummary:
    """What a start with no network finds here: verdicts not yet sent, posts to review."""

    unsent: int
    posts: int


@dataclass(frozen=True)
class Counts:
    pending: int
    in_flight: int
    conflicts_open: int
    rejected: int
    ready: dict[str, int]
    #: verdicts waiting because another reviewer holds their item (part of ``pending``)
    held: int = 0


def _without_note(verdict_json: str) -> str:
    verdict = Verdict.model_validate_json(verdict_json)
    return (
        verdict.model_copy(update={"note": None}).model_dump_json()
        if verdict.note
        else (verdict_json)
    )


def _result_without_note(result: VerdictResult) -> str:
    """The server's answer as the journal keeps it: the winning decision's note dropped."""
    if result.decision is not None and result.decision.note:
        decision = result.decision.model_copy(update={"note": None})
        return result.model_copy(update={"decision": decision}).model_dump_json()
    return result.model_dump_json()


def _decision_without_note(decision_json: str) -> str:
    decision = Decision.model_validate_json(decision_json)
    return decision.model_copy(update={"note": None}).model_dump_json()


class Store:
    """One connection to the store file. Open one per thread; close it when done."""

    def __init__(
        self,
        path: Path | str,
        *,
        key: bytes | None = None,
        in_memory: bool = False,
        clock: Callable[[], float] = time.time,
        check: bool = True,
        busy_timeout: float = 10.0,
    ) -> None:
        """``key``: the profile's 32-byte data key; without one the store is not encrypted
        (tools and tests; the app always passes one, or uses ``in_memory``). ``in_memory``:
        ``path`` names a database that lives in this process only (see the module doc)."""
        self.path = Path(path)
        self.in_memory = in_memory
        self.clock = clock
        self._cipher = RowCipher(key) if key is not None else None
        #: set when a damaged or foreign file was moved aside: what happened, in words
        #: (English, for logs), and where the file went (what the UI words)
        self.recovery_message: str | None = None
        self.moved_aside_to: Path | None = None
        if not in_memory:
            private_folder(self.path.parent)
            private_file(self.path)  # 0600 before SQLite opens it (its WAL and SHM follow)
        check = check and not in_memory
        try:
            self.conn = self._connect(busy_timeout)
            if check:  # before any pragma writes to it: a foreign file stays as it was
                self._verify()
            self._configure()
        except _Unusable as why:
            self._move_aside(str(why))
            self.conn = self._connect(busy_timeout)
            self._configure()
        if not in_memory:
            for suffix in ("-wal", "-shm"):  # an older release's, made with the umask's mode
                narrow_file(Path(str(self.path) + suffix))
        try:
            try:
                self._migrate()
            except _WrongKey as why:
                if not check:
                    self.conn.close()
                    raise StoreError(f"The local store {self.path} cannot be read: {why}") from None
                self._move_aside(str(why))
                self.conn = self._connect(busy_timeout)
                self._configure()
                self._migrate()
        except sqlite3.DatabaseError as err:
            raise StoreError(f"The local store {self.path} cannot be prepared: {err}") from err
        self.settings = Settings(self._settings_values, self._save_setting)
        self.purge_expired()

    @property
    def encrypted(self) -> bool:
        return self._cipher is not None

    # --- opening, checking, migrating ------------------------------------------------

    def _connect(self, busy_timeout: float) -> sqlite3.Connection:
        try:
            if self.in_memory:
                # memdb: shared by name within this process, with ordinary locking (so the
                # busy timeout works across connections, unlike a shared-cache :memory:)
                uri = f"file:/{quote(str(self.path), safe='')}?vfs=memdb"
                conn = sqlite3.connect(uri, uri=True, timeout=busy_timeout, isolation_level=None)
            else:
                conn = sqlite3.connect(
                    self.path, timeout=busy_timeout, isolation_level=None, check_same_thread=True
                )
        except sqlite3.DatabaseError as err:
            raise StoreError(f"The local store {self.path} cannot be opened: {err}") from err
        conn.row_factory = sqlite3.Row
        return conn

    def _configure(self) -> None:
        try:
            mode = self.conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            # commits are made durable against a power cut by write_through (sync thread)
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.execute("PRAGMA foreign_keys=ON")
            self.conn.execute("PRAGMA temp_store=MEMORY")
            # deleted content is overwritten, not left in free pages
            self.conn.execute("PRAGMA secure_delete=ON")
        except sqlite3.DatabaseError as err:
            if isinstance(err, sqlite3.OperationalError) and "locked" in str(err):
                raise StoreError(f"The local store {self.path} is locked: {err}") from err
            raise _Unusable(f"it is not a readable SQLite database ({err})") from err
        if str(mode).lower() != "wal" and not self.in_memory:
            raise StoreError(f"The local store {self.path} cannot use WAL mode ({mode}).")

    def _verify(self) -> None:
        try:
            app_id = self.conn.execute("PRAGMA application_id").fetchone()[0]
            version = self.conn.execute("PRAGMA user_version").fetchone()[0]
            tables = {
                r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            if app_id not in (0, APPLICATION_ID) or (app_id == 0 and tables):
                raise _Unusable("it belongs to another program")
            if version > SCHEMA_VERSION:
                raise StoreError(
                    f"The local store {self.path} was written by a newer release of the app "
                    f"(schema {version}, this release knows {SCHEMA_VERSION}). Update the app; "
                    "the file was left as it is."
                )
            if app_id == APPLICATION_ID and version and not tables >= TABLES:
                raise _Unusable("tables are missing from it")
            # a full page check reads the whole file: only while that stays quick
            big = self.path.stat().st_size > QUICK_CHECK_LIMIT
            check = "ok" if big else self.conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise _Unusable(f"SQLite found it damaged ({check})")
        except sqlite3.DatabaseError as err:
            raise _Unusable(f"SQLite cannot read it ({err})") from err

    def _move_aside(self, why: str) -> None:
        with suppress(AttributeError, sqlite3.Error):
            self.conn.close()
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        aside = self.path.with_name(f"{self.path.name}.unusable-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                src.replace(Path(str(aside) + suffix))
        self.moved_aside_to = aside
        private_file(self.path)  # the new, empty store: 0600 from the start
        self.recovery_message = (
            f"The local store could not be used because {why}. It was moved aside to "
            f"{aside} and a new, empty store was started. Verdicts that were in the old file "
            "and not yet sent are still in it; ask support before deleting it."
        )
        log.error("%s", self.recovery_message)

    def _key_check(self, conn: sqlite3.Connection) -> object | None:
        """The sealed key check, or None when the store is not encrypted."""
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version < 3:
            return None
        row = conn.execute("SELECT value FROM meta WHERE name = ?", (KEY_CHECK,)).fetchone()
        return row[0] if row else None

    def _migrate(self) -> None:
        """Schema migrations, and (with a key) sealing a store that is not yet encrypted,
        all in one transaction: a crash leaves the store as it was or wholly upgraded."""
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        check = self._key_check(self.conn)
        if version >= SCHEMA_VERSION and (check is not None or self._cipher is None):
            self._verify_key(check)
            return
        sealed_rows = 0
        with self.transaction() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            for number, migration in enumerate(MIGRATIONS[version:], start=version + 1):
                migration(conn)
                conn.execute(f"PRAGMA user_version={number}")
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            check = self._key_check(conn)
            if self._cipher is not None and check is None:
                sealed_rows = self._seal_existing(conn)
                check = self._cipher.seal(f"meta.value:{KEY_CHECK}", _KEY_CHECK_TEXT)
                conn.execute("INSERT INTO meta (name, value) VALUES (?, ?)", (KEY_CHECK, check))
        self._verify_key(check)
        if sealed_rows:
            log.info("the local store was encrypted in place (%d values)", sealed_rows)
            self._scrub()

    def _verify_key(self, check: object | None) -> None:
        if check is None:
            return
        if self._cipher is None:
            raise StoreError(
                f"The local store {self.path} is encrypted and was opened without its key."
            )
        try:
            ok = self._cipher.open(f"meta.value:{KEY_CHECK}", check) == _KEY_CHECK_TEXT
        except StoreError:
            ok = False
        if not ok:
            raise _WrongKey(
                "it was encrypted with a key that is not the one in your keyring now (the key "
                "was removed or replaced), so its content cannot be read"
            )

    def _seal_existing(self, conn: sqlite3.Connection) -> int:
        """Encrypt every content value of a store written without a key; notes of verdicts
        already settled are dropped on the way (as ``settle`` does now). Returns how many
        values were sealed."""
        sealed = 0

        def each(table: str, key_column: str) -> list[Any]:
            return [r[0] for r in conn.execute(f"SELECT {key_column} FROM {table}")]  # noqa: S608

        for item_id in each("items", "id"):
            doc = conn.execute("SELECT document FROM items WHERE id = ?", (item_id,)).fetchone()
            if doc[0] != PURGED:
                conn.execute(
                    "UPDATE items SET document = ? WHERE id = ?",
                    (self._seal_text(f"items.document:{item_id}", doc[0]), item_id),
                )
                sealed += 1
        for rowid in each("media", "rowid"):  # a media id may be held by several items
            media_id, data = conn.execute(
                "SELECT id, data FROM media WHERE rowid = ?", (rowid,)
            ).fetchone()
            conn.execute(
                "UPDATE media SET data = ? WHERE rowid = ?",
                (self._seal_bytes(f"media.data:{media_id}", bytes(data)), rowid),
            )
            sealed += 1
        for key in each("journal", "key"):
            row = conn.execute(
                "SELECT verdict, result, status FROM journal WHERE key = ?", (key,)
            ).fetchone()
            verdict = (
                row["verdict"] if row["status"] == "pending" else _without_note(row["verdict"])
            )
            result = row["result"]
            if result:
                result = _result_without_note(VerdictResult.model_validate_json(result))
            conn.execute(
                "UPDATE journal SET verdict = ?, result = ? WHERE key = ?",
                (
                    self._seal_text(f"journal.verdict:{key}", verdict),
                    self._seal_text(f"journal.result:{key}", result) if result else None,
                    key,
                ),
            )
            sealed += 2 if result else 1
        for bulk_id in each("held_bulk", "id"):
            row = conn.execute("SELECT request FROM held_bulk WHERE id = ?", (bulk_id,)).fetchone()
            conn.execute(
                "UPDATE held_bulk SET request = ? WHERE id = ?",
                (self._seal_text(f"held_bulk.request:{bulk_id}", row[0]), bulk_id),
            )
            sealed += 1
        for key in each("conflicts", "key"):
            row = conn.execute(
                "SELECT item, mine, theirs FROM conflicts WHERE key = ?", (key,)
            ).fetchone()
            conn.execute(
                "UPDATE conflicts SET item = ?, mine = ?, theirs = ? WHERE key = ?",
                (
                    self._seal_text(f"conflicts.item:{key}", row["item"]) if row["item"] else None,
                    self._seal_text(f"conflicts.mine:{key}", row["mine"]),
                    self._seal_text(f"conflicts.theirs:{key}", row["theirs"]),
                    key,
                ),
            )
            sealed += 3 if row["item"] else 2
        return sealed

    def _scrub(self) -> None:
        """Rewrite the file and empty its WAL: after content was encrypted in place or
        deleted in bulk, no old page of it is left on disk."""
        if self.in_memory:
            return
        try:
            self.conn.execute("VACUUM")
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.OperationalError as err:  # busy: the next scrub or checkpoint does it
            log.warning("the local store could not be compacted now: %s", err)

    # --- sealing values --------------------------------------------------------------

    def _seal_text(self, where: str, text: str) -> str | bytes:
        return text if self._cipher is None else self._cipher.seal(where, text.encode())

    def _open_text(self, where: str, value: object) -> str:
        if self._cipher is None:
            if not isinstance(value, str):
                raise StoreError(
                    "The local store holds encrypted content and was opened without its key."
                )
            return value
        return self._cipher.open(where, value).decode()

    def _seal_bytes(self, where: str, data: bytes) -> bytes:
        return data if self._cipher is None else self._cipher.seal(where, data)

    def _open_bytes(self, where: str, value: object) -> bytes:
        if self._cipher is None:
            return bytes(value) if isinstance(value, bytes | memoryview) else b""
        return self._cipher.open(where, value)

    def _journal_entry(self, row: sqlite3.Row) -> JournalEntry:
        key = row["key"]
        result = row["result"]
        return JournalEntry(
            key=key,
            item_id=row["item_id"],
            queue_id=row["queue_id"],
            action=row["action"],
            verdict=Verdict.model_validate_json(
                self._open_text(f"journal.verdict:{key}", row["verdict"])
            ),
            recorded_at=row["recorded_at"],
            status=row["status"],
            result=VerdictResult.model_validate_json(
                self._open_text(f"journal.result:{key}", result)
            )
            if result
            else None,
            settled_at=row["settled_at"],
        )

    def close(self) -> None:
        self.conn.close()

    def write_through(self) -> None:
        """Make every commit so far durable against a power cut: fsync the WAL file (the
        commits of every connection are in it; under ``synchronous=NORMAL`` they reach the
        disk only at a checkpoint). For the sync thread: an fsync may take long on a slow
        disk, never on the GUI thread."""
        if self.in_memory:
            return
        try:
            fd = os.open(f"{self.path}-wal", os.O_RDWR | getattr(os, "O_BINARY", 0))
        except FileNotFoundError:  # nothing written since the last checkpoint
            return
        try:  # (SQLite holds no POSIX lock on the WAL file: closing this fd releases none)
            os.fsync(fd)
        finally:
            os.close(fd)

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction (``BEGIN IMMEDIATE``): all of it commits, or none of it."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise StoreError(f"The local store is busy or unwritable: {err}") from err
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        try:
            self.conn.execute("COMMIT")
        except sqlite3.OperationalError as err:
            self.conn.execute("ROLLBACK")
            raise StoreError(f"The local store could not save: {err}") from err

    def _read(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[sqlite3.Row]:
        try:
            return self.conn.execute(sql, params).fetchall()
        except sqlite3.OperationalError as err:
            raise StoreError(f"The local store could not be read: {err}") from err

    # --- settings and queues -----------------------------------------------------------

    def _settings_values(self) -> dict[str, str]:
        return {r["name"]: r["value"] for r in self._read("SELECT name, value FROM settings")}

    def _save_setting(self, name: str, value: str | None) -> None:
        with self.transaction() as conn:
            if value is None:
                conn.execute("DELETE FROM settings WHERE name = ?", (name,))
            else:
                conn.execute(
                    "INSERT INTO settings (name, value) VALUES (?, ?) "
                    "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                    (name, value),
                )

    def save_queues(self, queues: Sequence[Queue]) -> None:
        now = self.clock()
        with self.transaction() as conn:
            conn.execute("DELETE FROM queues")
            conn.executemany(
                "INSERT INTO queues (id, position, document, fetched_at) VALUES (?, ?, ?, ?)",
                [(q.id, i, q.model_dump_json(), now) for i, q in enumerate(queues)],
            )

    def queues(self) -> list[Queue]:
        rows = self._read("SELECT document FROM queues ORDER BY position")
        return [Queue.model_validate_json(r["document"]) for r in rows]

    def queue(self, queue_id: str) -> Queue | None:
        rows = self._read("SELECT document FROM queues WHERE id = ?", (queue_id,))
        return Queue.model_validate_json(rows[0]["document"]) if rows else None

    # --- items: what the sync engine leases ------------------------------------------

    def add_leased(self, grant: LeaseGrant) -> int:
        """Keep the items of a claim (replacing older copies of the same items)."""
        now = self.clock()
        # serialised before the write lock is taken: the GUI thread's verdicts wait for it
        # (and sealed there too: the cipher is quick, but the lock is shared)
        documents = [
            self._seal_text(f"items.document:{leased.item.id}", leased.item.model_dump_json())
            for leased in grant.items
        ]
        with self.transaction() as conn:
            seq = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM items").fetchone()[0]
            rows = [
                (
                    leased.item.id,
                    grant.queue_id,
                    seq + offset,
                    leased.lease_token,
                    now,
                    leased.lease_expires_at.timestamp(),
                    grant.lease_seconds,
                    1 if leased.item.post.media else 0,
                    document,
                    now,
                )
                for offset, (leased, document) in enumerate(
                    zip(grant.items, documents, strict=True), start=1
                )
            ]
            # an item we still hold a verdict for keeps its row (and its decided state)
            conn.executemany(
                "INSERT INTO items (id, queue_id, seq, state, lease_token, lease_granted_at, "
                "lease_expires_at, lease_seconds, media_wanted, document, cached_at) "
                "VALUES (?, ?, ?, 'ready', ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET queue_id = excluded.queue_id, "
                "lease_token = excluded.lease_token, lease_lost = 0, "
                "lease_granted_at = excluded.lease_granted_at, "
                "lease_expires_at = excluded.lease_expires_at, "
                "lease_seconds = excluded.lease_seconds, document = excluded.document, "
                "cached_at = excluded.cached_at, "
                "state = CASE WHEN items.state = 'decided' THEN 'decided' ELSE 'ready' END",
                rows,
            )
        return len(rows)

    def next_item(
        self, queue_id: str, *, include_expired: bool = False, first: str | None = None
    ) -> StoredItem | None:
        """The item to show next: the oldest ready one whose lease still runs (or, offline,
        any ready one: its verdict is still sent and the server decides whether it counts);
        item ``first`` before the others when it is one of them."""
        query = (
            "SELECT * FROM items WHERE queue_id = ? AND state = 'ready' AND lease_lost = 0 "
            "AND lease_expires_at > ? ORDER BY "
        )
        after = -math.inf if include_expired else self.clock()
        if first is None:  # the keypress's path: the order the index gives
            rows = self._read(query + "seq LIMIT 1", (queue_id, after))
        else:
            rows = self._read(query + "id = ? DESC, seq LIMIT 1", (queue_id, after, first))
        return self._stored(rows[0]) if rows else None

    def stored_item(self, item_id: str) -> StoredItem | None:
        """The item as cached here; None when it is not (or its content was purged)."""
        rows = self._read("SELECT * FROM items WHERE id = ?", (item_id,))
        return self._stored(rows[0]) if rows and rows[0]["document"] != PURGED else None

    def _stored(self, row: sqlite3.Row) -> StoredItem:
        document = self._open_text(f"items.document:{row['id']}", row["document"])
        return StoredItem(
            item=Item.model_validate_json(document),
            queue_id=row["queue_id"],
            lease_token=row["lease_token"],
            lease_expires_at=row["lease_expires_at"],
            state=row["state"],
            lease_lost=bool(row["lease_lost"]),
        )

    def worklist(self, queue_id: str | None = None) -> list[WorklistRow]:
        """Items held locally, in review order, with the state of their verdict if any."""
        rows = self._read(
            "SELECT i.id, i.queue_id, i.state, i.lease_expires_at, i.lease_lost, "
            "j.status, j.action FROM items i LEFT JOIN journal j ON j.key = ("
            "  SELECT key FROM journal WHERE item_id = i.id AND status != 'undone' "
            "  ORDER BY recorded_at DESC LIMIT 1) "
            "WHERE ? IS NULL OR i.queue_id = ? ORDER BY i.seq",
            (queue_id, queue_id),
        )
        return [WorklistRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6]) for r in rows]

    def ready_counts(self, now: float | None = None) -> dict[str, int]:
        now = self.clock() if now is None else now
        rows = self._read(
            "SELECT queue_id, COUNT(*) FROM items WHERE state = 'ready' AND lease_lost = 0 "
            "AND lease_expires_at > ? GROUP BY queue_id",
            (now,),
        )
        return {r[0]: r[1] for r in rows}

    def leases_to_renew(self, now: float, limit: int = 500) -> list[Renewal]:
        """Held leases past a third of their life, with the length each was leased for;
        decided items count until their verdict is delivered."""
        rows = self._read(
            "SELECT i.id, i.lease_token, i.lease_seconds FROM items i WHERE i.lease_lost = 0 "
            "AND i.state IN ('ready', 'decided') "
            "AND i.lease_granted_at + (i.lease_expires_at - i.lease_granted_at) / 3.0 <= ? "
            "AND (i.state = 'ready' OR EXISTS (SELECT 1 FROM journal j WHERE j.item_id = i.id "
            "     AND j.status = 'pending')) "
            "ORDER BY i.lease_expires_at LIMIT ?",
            (now, limit),
        )
        return [Renewal(r[0], r[1], int(r[2])) for r in rows]

    def lengthen_leases(self, queue_id: str, seconds: int) -> list[Renewal]:
        """Items of ``queue_id`` held here (ready, or decided with the verdict not yet
        delivered) whose lease is shorter than ``seconds`` now have that length: an offline
        batch's items leased ahead before it are kept as long as the batch. Returns them,
        to renew now."""
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT i.id, i.lease_token FROM items i WHERE i.queue_id = ? "
                "AND i.lease_lost = 0 AND i.lease_seconds < ? "
                "AND (i.state = 'ready' OR (i.state = 'decided' AND EXISTS (SELECT 1 FROM "
                "     journal j WHERE j.item_id = i.id AND j.status = 'pending')))",
                (queue_id, seconds),
            ).fetchall()
            conn.executemany(
                "UPDATE items SET lease_seconds = ? WHERE id = ?", [(seconds, r[0]) for r in rows]
            )
        return [Renewal(r[0], r[1], seconds) for r in rows]

    def next_renewal_at(self) -> float | None:
        rows = self._read(
            "SELECT MIN(lease_granted_at + (lease_expires_at - lease_granted_at) / 3.0) "
            "FROM items WHERE lease_lost = 0 AND state IN ('ready', 'decided')"
        )
        return rows[0][0]

    def expiring(self, now: float, within: float) -> list[tuple[str, float]]:
        rows = self._read(
            "SELECT id, lease_expires_at FROM items WHERE state = 'ready' AND lease_lost = 0 "
            "AND lease_expires_at <= ? ORDER BY lease_expires_at",
            (now + within,),
        )
        return [(r[0], r[1]) for r in rows]

    def apply_lease_results(self, results: Iterable[LeaseStatus]) -> list[str]:
        """Record renewals; items whose lease is lost (or whose post the platform withdrew,
        or that an account action resolved) leave the worklist. Returns their ids."""
        now = self.clock()
        lost: list[str] = []
        with self.transaction() as conn:
            for result in results:
                if result.status == "renewed" and result.expires_at is not None:
                    conn.execute(
                        "UPDATE items SET lease_granted_at = ?, lease_expires_at = ? "
                        "WHERE lease_token = ?",
                        (now, result.expires_at.timestamp(), result.token),
                    )
                elif result.status in ("lost", "unknown", "withdrawn", "author_actioned"):
                    row = conn.execute(
                        "SELECT id, state FROM items WHERE lease_token = ?", (result.token,)
                    ).fetchone()
                    if row is None:
                        continue
                    lost.append(row["id"])
                    if row["state"] == "decided":
                        # the verdict is still sent; the server decides whether it counts
                        conn.execute("UPDATE items SET lease_lost = 1 WHERE id = ?", (row["id"],))
                    else:
                        self._forget(conn, [row["id"]])
        return lost

    def skip(self, item_id: str) -> None:
        """Give the item back: it leaves the worklist and the sync engine releases it."""
        with self.transaction() as conn:
            changed = conn.execute(
                "UPDATE items SET state = 'skipped' WHERE id = ? AND state = 'ready'", (item_id,)
            ).rowcount
        if not changed:
            raise AlreadyDecided(f"Item {item_id} is not waiting for a decision here.")

    def to_release(self, limit: int = 500) -> list[tuple[str, str]]:
        rows = self._read(
            "SELECT id, lease_token FROM items WHERE state = 'skipped' LIMIT ?", (limit,)
        )
        return [(r[0], r[1]) for r in rows]

    def mark_opened(self, item_ids: Sequence[str]) -> None:
        """The reviewer opened these items (the sync engine writes it, not the GUI thread)."""
        if not item_ids:
            return
        with self.transaction() as conn:
            conn.executemany(
                "UPDATE items SET opened = 1 WHERE id = ? AND opened = 0",
                [(i,) for i in item_ids],
            )

    def untouched_leases(
        self, keep_queues: Sequence[str], max_lease_seconds: int, limit: int = 500
    ) -> list[tuple[str, str]]:
        """(item id, lease token) of items leased ahead in queues other than
        ``keep_queues`` that the reviewer never opened nor decided: the prefetch of a queue
        left, to give back. An offline batch's items (leased for longer than
        ``max_lease_seconds``) stay: they were asked for to work with no network."""
        rows = self._read(
            "SELECT id, lease_token, queue_id FROM items WHERE state = 'ready' "
            "AND lease_lost = 0 AND opened = 0 AND lease_seconds <= ? ORDER BY seq",
            (max_lease_seconds,),
        )
        keep = set(keep_queues)
        return [(r[0], r[1]) for r in rows if r[2] not in keep][:limit]

    def ready_leases(self) -> list[tuple[str, str]]:
        rows = self._read(
            "SELECT id, lease_token FROM items WHERE state = 'ready' AND lease_lost = 0"
        )
        return [(r[0], r[1]) for r in rows]

    def forget_items(self, item_ids: Sequence[str]) -> None:
        with self.transaction() as conn:
            self._forget(conn, item_ids)

    @staticmethod
    def _forget(conn: sqlite3.Connection, item_ids: Sequence[str]) -> None:
        conn.executemany("DELETE FROM media WHERE item_id = ?", [(i,) for i in item_ids])
        conn.executemany("DELETE FROM items WHERE id = ?", [(i,) for i in item_ids])

    # --- media ---------------------------------------------------------------------------

    def media_wanted(self, limit: int = 20) -> list[tuple[str, str]]:
        """(item id, media id) of media not yet fetched, for items still to review."""
        rows = self._read(
            "SELECT id, document FROM items WHERE media_wanted = 1 AND state = 'ready' "
            "ORDER BY seq LIMIT ?",
            (limit,),
        )
        wanted: list[tuple[str, str]] = []
        for row in rows:
            document = self._open_text(f"items.document:{row['id']}", row["document"])
            media_ids = [m["id"] for m in json.loads(document)["post"]["media"]]
            have = {
                r[0] for r in self._read("SELECT id FROM media WHERE item_id = ?", (row["id"],))
            }
            missing = [(row["id"], m) for m in media_ids if m not in have]
            if not missing:
                with self.transaction() as conn:
                    conn.execute("UPDATE items SET media_wanted = 0 WHERE id = ?", (row["id"],))
            wanted += missing
        return wanted

    def save_media(self, item_id: str, media_id: str, content_type: str, data: bytes) -> None:
        sealed = self._seal_bytes(f"media.data:{media_id}", data)
        with self.transaction() as conn:
            if conn.execute(
                "SELECT 1 FROM items WHERE id = ? AND document != ?", (item_id, PURGED)
            ).fetchone():
                conn.execute(
                    "INSERT OR REPLACE INTO media (id, item_id, content_type, data) "
                    "VALUES (?, ?, ?, ?)",
                    (media_id, item_id, content_type, sealed),
                )

    def media(self, media_id: str) -> tuple[bytes, str] | None:
        rows = self._read("SELECT data, content_type FROM media WHERE id = ? LIMIT 1", (media_id,))
        if not rows:
            return None
        return self._open_bytes(f"media.data:{media_id}", rows[0][0]), rows[0][1]

    # --- verdicts: journal and outbox ------------------------------------------------------

    def record_verdict(
        self,
        item_id: str,
        *,
        action: str,
        policies: Sequence[str] = (),
        rating: str | None = None,
        note: str | None = None,
        author_action: str | None = None,
        time_spent_ms: int = 0,
        undo_window: float | None = None,
        escalation_reason: str | None = None,
    ) -> JournalEntry:
        """Save the reviewer's verdict on a ready item, with its outbox row, in one
        transaction (``escalation_reason``: an escalation's reason, kept in the verdict).
        Raises AlreadyDecided when the item is not waiting for a verdict (a doubled
        keypress cannot decide twice)."""
        window = self.settings.get(UNDO_WINDOW) if undo_window is None else undo_window
        now = self.clock()
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT queue_id, lease_token, state FROM items WHERE id = ?", (item_id,)
            ).fetchone()
            if row is None or row["state"] != "ready":
                raise AlreadyDecided(f"Item {item_id} is not waiting for a decision here.")
            verdict = Verdict.model_validate(
                {
                    "idempotency_key": uuid.uuid4(),
                    "item_id": item_id,
                    "lease_token": row["lease_token"],
                    "action": action,
                    "policies": list(policies),
                    "rating": rating,
                    "note": note or None,
                    "author_action": author_action,
                    "time_spent_ms": max(0, min(int(time_spent_ms), 86_400_000)),
                    "decided_at": datetime.fromtimestamp(now, UTC),
                    "escalation_reason": escalation_reason,
                }
            )
            key = str(verdict.idempotency_key)
            conn.execute(
                "INSERT INTO journal (key, item_id, queue_id, action, verdict, recorded_at, "
                "status) VALUES (?, ?, ?, ?, ?, ?, 'pending')",
                (
                    key,
                    item_id,
                    row["queue_id"],
                    action,
                    self._seal_text(f"journal.verdict:{key}", verdict.model_dump_json()),
                    now,
                ),
            )
            conn.execute("INSERT INTO outbox (key, due_at) VALUES (?, ?)", (key, now + window))
            conn.execute("UPDATE items SET state = 'decided' WHERE id = ?", (item_id,))
        return JournalEntry(
            key, item_id, row["queue_id"], action, verdict, now, "pending", None, None
        )

    def undo(self, key: str | None = None) -> JournalEntry:
        """Take back a verdict still in its undo window (the latest one when no key is
        given); its item is the next one shown again."""
        now = self.clock()
        with self.transaction() as conn:
            query = (
                "SELECT j.* FROM outbox o JOIN journal j ON j.key = o.key "
                "WHERE o.in_flight = 0 AND o.due_at > ? "
            )
            params: tuple[Any, ...] = (now,)
            if key is not None:
                query += "AND o.key = ? "
                params += (key,)
            row = conn.execute(query + "ORDER BY j.recorded_at DESC LIMIT 1", params).fetchone()
            if row is None:
                raise NothingToUndo(
                    "That verdict can no longer be undone: its undo window has passed."
                    if key
                    else "There is no verdict left to undo: the last one's undo window has passed."
                )
            entry = self._journal_entry(row)
            conn.execute("DELETE FROM outbox WHERE key = ?", (row["key"],))
            # the note goes with the verdict taken back
            kept = entry.verdict.model_copy(update={"note": None}).model_dump_json()
            conn.execute(
                "UPDATE journal SET status = 'undone', settled_at = ?, verdict = ? WHERE key = ?",
                (now, self._seal_text(f"journal.verdict:{row['key']}", kept), row["key"]),
            )
            first = conn.execute("SELECT COALESCE(MIN(seq), 0) FROM items").fetchone()[0]
            conn.execute(
                "UPDATE items SET state = 'ready', seq = ? WHERE id = ? AND state = 'decided'",
                (first - 1, row["item_id"]),
            )
        return JournalEntry(**{**entry.__dict__, "status": "undone", "settled_at": now})

    def undo_deadline(self) -> float | None:
        """When the newest undoable verdict leaves its undo window (None: nothing to undo)."""
        rows = self._read(
            "SELECT MAX(due_at) FROM outbox WHERE in_flight = 0 AND due_at > ?", (self.clock(),)
        )
        return rows[0][0]

    def take_due(self, now: float, limit: int) -> list[Outgoing]:
        """Verdicts whose undo window has passed, oldest first, marked in flight (they can no
        longer be undone; after a crash they are sent again under the same key)."""
        with self.transaction() as conn:
            rows = conn.execute(
                "SELECT o.key, j.verdict FROM outbox o JOIN journal j ON j.key = o.key "
                "WHERE o.due_at <= ? ORDER BY o.due_at, o.key LIMIT ?",
                (now, limit),
            ).fetchall()
            conn.executemany(
                "UPDATE outbox SET in_flight = 1, attempts = attempts + 1 WHERE key = ?",
                [(r["key"],) for r in rows],
            )
        return [
            Outgoing(
                r["key"],
                Verdict.model_validate_json(
                    self._open_text(f"journal.verdict:{r['key']}", r["verdict"])
                ),
            )
            for r in rows
        ]

    def flush_all(self, now: float) -> None:
        """End every undo window now (on a clean exit everything decided is sent)."""
        with self.transaction() as conn:
            conn.execute("UPDATE outbox SET due_at = ? WHERE due_at > ?", (now, now))

    def next_due_at(self) -> float | None:
        return self._read("SELECT MIN(due_at) FROM outbox")[0][0]

    def settle(self, results: Sequence[VerdictResult]) -> list[JournalEntry]:
        """Apply the server's answers: delivered verdicts leave the outbox, conflicts are
        kept beside the decision that won, rejections keep the server's reason.

        Retention: a verdict with a final answer takes its item and media out of the store
        in the same transaction, and the journal keeps it without its note (and without the
        winning decision's note); a conflict keeps its copies until it is resolved."""
        now = self.clock()
        settled: list[JournalEntry] = []
        with self.transaction() as conn:
            for result in results:
                key = str(result.idempotency_key)
                row = conn.execute("SELECT * FROM journal WHERE key = ?", (key,)).fetchone()
                if row is None or row["status"] != "pending":
                    continue
                reason = result.reason.code if result.reason else None
                if result.status is VerdictStatus.rejected and reason in RETRYABLE_REJECTIONS:
                    # not final: another reviewer holds the item for now. If they decide
                    # it, the retry comes back as a conflict; if they let it go, our late
                    # verdict can still count: sent again within a minute, or just after
                    # their hold ends when the service said when. It can no longer be undone
                    # (in flight).
                    held = result.reason.held_until if result.reason else None
                    held_until = held.timestamp() if held is not None else None
                    due = now + RETRY_REJECTED_AFTER
                    if held_until is not None:
                        due = max(now + RETRY_REJECTED_SOONEST, min(due, held_until + 1.0))
                    conn.execute(
                        "UPDATE outbox SET due_at = ?, in_flight = 1, retry_reason = ?, "
                        "held_until = ? WHERE key = ?",
                        (due, reason, held_until, key),
                    )
                    conn.execute(
                        "UPDATE journal SET result = ? WHERE key = ?",
                        (self._seal_text(f"journal.result:{key}", result.model_dump_json()), key),
                    )
                    conn.execute("UPDATE items SET lease_lost = 1 WHERE id = ?", (row["item_id"],))
                    continue
                status = result.status.value
                verdict_json = self._open_text(f"journal.verdict:{key}", row["verdict"])
                conn.execute(
                    "UPDATE journal SET status = ?, result = ?, settled_at = ?, verdict = ? "
                    "WHERE key = ?",
                    (
                        status,
                        self._seal_text(f"journal.result:{key}", _result_without_note(result)),
                        now,
                        self._seal_text(f"journal.verdict:{key}", _without_note(verdict_json)),
                        key,
                    ),
                )
                conn.execute("DELETE FROM outbox WHERE key = ?", (key,))
                if result.status is VerdictStatus.conflict and result.decision is not None:
                    item = conn.execute(
                        "SELECT document FROM items WHERE id = ?", (row["item_id"],)
                    ).fetchone()
                    document = (
                        self._open_text(f"items.document:{row['item_id']}", item[0])
                        if item and item[0] != PURGED
                        else None
                    )
                    conn.execute(
                        "INSERT OR REPLACE INTO conflicts (key, item_id, item, mine, theirs, "
                        "found_at) VALUES (?, ?, ?, ?, ?, ?)",
                        (
                            key,
                            row["item_id"],
                            self._seal_text(f"conflicts.item:{key}", document)
                            if document
                            else None,
                            self._seal_text(f"conflicts.mine:{key}", verdict_json),
                            self._seal_text(
                                f"conflicts.theirs:{key}", result.decision.model_dump_json()
                            ),
                            now,
                        ),
                    )
                # the item's work here is done: it leaves the worklist
                self._forget(conn, [row["item_id"]])
                settled.append(
                    JournalEntry(
                        key,
                        row["item_id"],
                        row["queue_id"],
                        row["action"],
                        Verdict.model_validate_json(verdict_json),
                        row["recorded_at"],
                        status,
                        result,
                        now,
                    )
                )
        return settled

    # --- what the reviewer sees of their own work -----------------------------------

    def journal(self, limit: int = 200, status: str | None = None) -> list[JournalEntry]:
        rows = self._read(
            "SELECT * FROM journal WHERE ? IS NULL OR status = ? "
            "ORDER BY recorded_at DESC, rowid DESC LIMIT ?",
            (status, status, limit),
        )
        return [self._journal_entry(r) for r in rows]

    def journal_entry(self, key: str) -> JournalEntry | None:
        rows = self._read("SELECT * FROM journal WHERE key = ?", (key,))
        return self._journal_entry(rows[0]) if rows else None

    def conflicts(self, *, open_only: bool = True) -> list[Conflict]:
        rows = self._read(
            "SELECT * FROM conflicts WHERE resolution IS NULL OR NOT ? ORDER BY found_at",
            (open_only,),
        )
        found = []
        for r in rows:
            key = r["key"]
            item = self._open_text(f"conflicts.item:{key}", r["item"]) if r["item"] else None
            found.append(
                Conflict(
                    key=key,
                    item_id=r["item_id"],
                    item=Item.model_validate_json(item) if item else None,
                    mine=Verdict.model_validate_json(
                        self._open_text(f"conflicts.mine:{key}", r["mine"])
                    ),
                    theirs=Decision.model_validate_json(
                        self._open_text(f"conflicts.theirs:{key}", r["theirs"])
                    ),
                    found_at=r["found_at"],
                    resolution=r["resolution"],
                )
            )
        return found

    def resolve_conflict(self, key: str, resolution: str) -> None:
        """The reviewer has seen it: the copies of the post and both notes are dropped."""
        if resolution not in ("accepted", "escalated"):
            raise ValueError(resolution)
        now = self.clock()
        with self.transaction() as conn:
            conn.execute(
                "UPDATE conflicts SET resolution = ?, resolved_at = ? WHERE key = ?",
                (resolution, now, key),
            )
            self._strip_conflicts(conn, [key], now)

    def _strip_conflicts(self, conn: sqlite3.Connection, keys: Sequence[str], now: float) -> None:
        for key in keys:
            row = conn.execute(
                "SELECT mine, theirs FROM conflicts WHERE key = ? AND purged_at IS NULL", (key,)
            ).fetchone()
            if row is None:
                continue
            mine = _without_note(self._open_text(f"conflicts.mine:{key}", row["mine"]))
            theirs = _decision_without_note(
                self._open_text(f"conflicts.theirs:{key}", row["theirs"])
            )
            conn.execute(
                "UPDATE conflicts SET item = NULL, mine = ?, theirs = ?, purged_at = ? "
                "WHERE key = ?",
                (
                    self._seal_text(f"conflicts.mine:{key}", mine),
                    self._seal_text(f"conflicts.theirs:{key}", theirs),
                    now,
                    key,
                ),
            )

    # --- retention and wiping ---------------------------------------------------------

    def purge_expired(self, now: float | None = None) -> int:
        """Drop cached content older than ``cache_retention_hours``: items (with their
        media) and the copies and notes kept with conflicts. An item whose verdict is not
        yet delivered keeps its row (the verdict still goes) without its content. Returns
        how many items and conflicts were purged. Cheap when there is nothing to do."""
        now = self.clock() if now is None else now
        cutoff = now - self.settings.get(CACHE_RETENTION) * 3600.0
        items = self._read(
            "SELECT i.id, EXISTS (SELECT 1 FROM journal j WHERE j.item_id = i.id "
            "AND j.status = 'pending') FROM items i WHERE i.cached_at < ? AND i.document != ?",
            (cutoff, PURGED),
        )
        conflicts = self._read(
            "SELECT key FROM conflicts WHERE found_at < ? AND purged_at IS NULL", (cutoff,)
        )
        if not items and not conflicts:
            return 0
        with self.transaction() as conn:
            self._forget(conn, [r[0] for r in items if not r[1]])
            unsent = [(r[0],) for r in items if r[1]]
            conn.executemany("DELETE FROM media WHERE item_id = ?", unsent)
            conn.executemany(
                "UPDATE items SET document = ?, media_wanted = 0 WHERE id = ?",
                [(PURGED, i) for (i,) in unsent],
            )
            self._strip_conflicts(conn, [r[0] for r in conflicts], now)
        log.info("retention: %d items and %d conflicts purged", len(items), len(conflicts))
        return len(items) + len(conflicts)

    def clear(self, *, keep_unsent: bool) -> int:
        """Wipe the cache: items, media, queues, conflicts and the journal. With
        ``keep_unsent``, verdicts not yet delivered stay (encrypted, with the rows they need,
        without the posts' content) so the next login still sends them. Then the file is
        rewritten so nothing deleted is left in it. Returns how many verdicts were kept."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM media")
            conn.execute("DELETE FROM queues")
            conn.execute("DELETE FROM conflicts")
            if keep_unsent:
                conn.execute("DELETE FROM journal WHERE key NOT IN (SELECT key FROM outbox)")
                conn.execute("DELETE FROM items WHERE id NOT IN (SELECT item_id FROM journal)")
                conn.execute("UPDATE items SET document = ?, media_wanted = 0", (PURGED,))
            else:
                conn.execute("DELETE FROM held_bulk")
                conn.execute("DELETE FROM outbox")
                conn.execute("DELETE FROM journal")
                conn.execute("DELETE FROM items")
            kept = int(conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])
        self._scrub()
        return kept

    # --- a lead's bulk decisions, held for the undo window ---------------------------------

    def hold_bulk(
        self, request: BulkDecisionRequest, *, undo_window: float | None = None
    ) -> HeldBulk:
        """Keep a bulk decision here for the undo window before it is sent (committed as a
        verdict is: once this returns it survives a killed app)."""
        window = self.settings.get(UNDO_WINDOW) if undo_window is None else undo_window
        now = self.clock()
        bulk_id = str(uuid.uuid4())
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO held_bulk (id, request, item_count, held_at, due_at) "
                "VALUES (?, ?, ?, ?, ?)",
                (
                    bulk_id,
                    self._seal_text(f"held_bulk.request:{bulk_id}", request.model_dump_json()),
                    len(request.items),
                    now,
                    now + window,
                ),
            )
        return HeldBulk(bulk_id, request, now, now + window)

    def held_bulks(self) -> list[HeldBulk]:
        """Bulk decisions not yet answered by the service, oldest first."""
        return [
            HeldBulk(
                r["id"],
                BulkDecisionRequest.model_validate_json(
                    self._open_text(f"held_bulk.request:{r['id']}", r["request"])
                ),
                r["held_at"],
                r["due_at"],
            )
            for r in self._read("SELECT * FROM held_bulk ORDER BY held_at, id")
        ]

    def undo_bulk(self, bulk_id: str) -> None:
        """Take back a held bulk decision while it is inside its undo window; raises
        NothingToUndo once the window has passed (it is being sent, or was)."""
        with self.transaction() as conn:
            gone = conn.execute(
                "DELETE FROM held_bulk WHERE id = ? AND due_at > ?", (bulk_id, self.clock())
            ).rowcount
        if not gone:
            raise NothingToUndo(
                "That bulk decision can no longer be undone: its undo window has passed."
            )

    def take_bulk(self, bulk_id: str) -> HeldBulk | None:
        """The held bulk decision, once its undo window has passed (None before, or when it
        is gone): from here on it can no longer be undone. It stays held until ``settle_bulk``
        (a crash while it is sent sends it again, under the same keys)."""
        with self.transaction() as conn:
            row = conn.execute(
                "SELECT * FROM held_bulk WHERE id = ? AND due_at <= ?", (bulk_id, self.clock())
            ).fetchone()
            if row is None:
                return None
            conn.execute("UPDATE held_bulk SET attempts = attempts + 1 WHERE id = ?", (bulk_id,))
        request = BulkDecisionRequest.model_validate_json(
            self._open_text(f"held_bulk.request:{bulk_id}", row["request"])
        )
        return HeldBulk(bulk_id, request, row["held_at"], row["due_at"])

    def settle_bulk(self, bulk_id: str) -> None:
        """The service answered the bulk decision (recorded, or refused whole): forget it."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM held_bulk WHERE id = ?", (bulk_id,))

    def pending_count(self) -> int:
        """Verdicts not yet delivered (cheap: for the status bar after each keypress)."""
        return int(self._read("SELECT COUNT(*) FROM outbox")[0][0])

    def pending(self) -> Pending:
        """Verdicts not yet delivered and why some wait (one pass over the outbox)."""
        row = self._read(
            "SELECT COUNT(*), COUNT(retry_reason), "
            "MAX(CASE WHEN retry_reason IS NOT NULL THEN held_until END) FROM outbox"
        )[0]
        return Pending(int(row[0]), int(row[1]), row[2])

    def offline_summary(self) -> OfflineSummary:
        """Verdicts not yet sent, and posts here to review (with their content)."""
        row = self._read(
            "SELECT (SELECT COUNT(*) FROM outbox), (SELECT COUNT(*) FROM items WHERE "
            "state = 'ready' AND lease_lost = 0 AND document != ?)",
            (PURGED,),
        )[0]
        return OfflineSummary(int(row[0]), int(row[1]))

    # --- metadata: the last sync, the profile ---------------------------------------------

    def _meta(self, name: str) -> object | None:
        rows = self._read("SELECT value FROM meta WHERE name = ?", (name,))
        return rows[0][0] if rows else None

    def _set_meta(self, name: str, value: str | bytes) -> None:
        with self.transaction() as conn:
            conn.execute(
                "INSERT INTO meta (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (name, value),
            )

    def last_sync(self) -> float | None:
        """When a sync pass last reached the server and ended well (client time), across
        restarts; None when it never did."""
        value = self._meta(LAST_SYNC)
        try:
            return float(value.decode() if isinstance(value, bytes) else str(value))
        except (TypeError, ValueError):
            return None

    def set_last_sync(self, at: float) -> None:
        self._set_meta(LAST_SYNC, repr(float(at)))

    def save_profile(self, user: User) -> None:
        """Who this store belongs to, as the server said at the last login (sealed): what a
        start with no network shows."""
        self._set_meta(PROFILE, self._seal_text(f"meta.value:{PROFILE}", user.model_dump_json()))

    def profile(self) -> User | None:
        value = self._meta(PROFILE)
        if value is None:
            return None
        return User.model_validate_json(self._open_text(f"meta.value:{PROFILE}", value))

    def counts(self) -> Counts:
        row = self._read(
            "SELECT (SELECT COUNT(*) FROM outbox), "
            "(SELECT COUNT(*) FROM outbox WHERE in_flight = 1), "
            "(SELECT COUNT(*) FROM conflicts WHERE resolution IS NULL), "
            "(SELECT COUNT(*) FROM journal WHERE status = 'rejected'), "
            "(SELECT COUNT(retry_reason) FROM outbox)"
        )[0]
        return Counts(row[0], row[1], row[2], row[3], self.ready_counts(), row[4])


class _Unusable(Exception):
    """The file cannot be this app's store; the message says why."""


class _WrongKey(Exception):
    """The store is encrypted with another key than the one given; the message says so."""
