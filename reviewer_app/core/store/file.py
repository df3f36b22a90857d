"""The store file: opening it, checking it, migrating it, sealing its content, its
transactions; its settings and metadata.

Durability: each commit lands in the WAL file without waiting for the disk
(``synchronous=NORMAL``); ``write_through`` (an fsync of the WAL, on the sync thread) makes
the commits so far survive a power cut. A file that is damaged or is not ours is moved aside
with a message (``recovery_message``), never silently reused; a file of a newer release is
left as it is. With a key, every content value is sealed (``RowCipher``), and a store written
without one is sealed in place, in the migrating transaction, then vacuumed (``_scrub``).
See the package's docstring for the whole picture.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self
from urllib.parse import quote

from reviewer_app.protocol import User, VerdictResult

from ..errors import StoreError, StoreUnreadable
from ..paths import narrow_file, private_file, private_folder
from ..sealing import RowCipher
from ..settings import Settings
from .records import result_without_note, without_note
from .schema import (
    APPLICATION_ID,
    KEY_CHECK,
    KEY_CHECK_TEXT,
    LAST_SYNC,
    MIGRATIONS,
    PROFILE,
    PURGED,
    QUICK_CHECK_LIMIT,
    SCHEMA_VERSION,
    SHIFT_TALLY,
    TABLES,
)

log = logging.getLogger("store")


class _Unusable(Exception):
    """The file cannot be this app's store; the message says why."""


class _WrongKey(Exception):
    """The store is encrypted with another key than the one given; the message says so."""


class StoreFile:
    """One connection to the store file: opening it (checked, migrated, sealed with the
    profile's key), its transactions, its settings and metadata. ``Store`` adds what is kept
    in it. Open one per thread; close it when done."""

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
        verify = check and not in_memory
        try:
            self.conn = self._connect(busy_timeout)
            if verify:  # before any pragma writes to it: a foreign file stays as it was
                self._verify()
            self._configure()
        except _Unusable as why:
            if not check:  # opened unchecked (a start with no network): nothing moved aside
                unreadable = f"The local store {self.path} cannot be read: {why}"
                raise StoreUnreadable(unreadable) from None
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
                if not verify:
                    self.conn.close()
                    raise StoreError(f"The local store {self.path} cannot be read: {why}") from None
                self._move_aside(str(why))
                self.conn = self._connect(busy_timeout)
                self._configure()
                self._migrate()
        except sqlite3.DatabaseError as err:
            raise StoreError(f"The local store {self.path} cannot be prepared: {err}") from err
        self.settings = Settings(self._settings_values, self._save_setting)

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
                check = self._cipher.seal(f"meta.value:{KEY_CHECK}", KEY_CHECK_TEXT)
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
            ok = self._cipher.open(f"meta.value:{KEY_CHECK}", check) == KEY_CHECK_TEXT
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
        for media_id in each("media_files", "id"):
            (data,) = conn.execute(
                "SELECT data FROM media_files WHERE id = ?", (media_id,)
            ).fetchone()
            conn.execute(
                "UPDATE media_files SET data = ? WHERE id = ?",
                (self._seal_bytes(f"media.data:{media_id}", bytes(data)), media_id),
            )
            sealed += 1
        for key in each("journal", "key"):
            row = conn.execute(
                "SELECT verdict, result, status FROM journal WHERE key = ?", (key,)
            ).fetchone()
            verdict = row["verdict"] if row["status"] == "pending" else without_note(row["verdict"])
            result = row["result"]
            if result:
                result = result_without_note(VerdictResult.model_validate_json(result))
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

    def __enter__(self) -> Self:
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
        except sqlite3.ProgrammingError as err:  # closed: a late reader as a window closes
            raise StoreError(f"The local store is closed: {err}") from err

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

    @staticmethod
    def _forget(conn: sqlite3.Connection, item_ids: Sequence[str]) -> None:
        conn.executemany("DELETE FROM media WHERE item_id = ?", [(i,) for i in item_ids])
        conn.executemany("DELETE FROM items WHERE id = ?", [(i,) for i in item_ids])
        StoreFile._drop_unshown_media(conn)

    @staticmethod
    def _drop_unshown_media(conn: sqlite3.Connection) -> None:
        """The media files no item kept here shows any more."""
        conn.execute("DELETE FROM media_files WHERE id NOT IN (SELECT id FROM media)")

    # --- metadata: the last sync, the profile, the shift tally -----------------------------

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

    def save_shift_tally(self, text: str) -> None:
        """The reviewer's shift tally (``ShiftTally.snapshot``, sealed), written within a
        second of the verdicts and breaks that change it (the window's timer)."""
        self._set_meta(SHIFT_TALLY, self._seal_text(f"meta.value:{SHIFT_TALLY}", text))

    def shift_tally(self) -> str | None:
        """The shift tally kept here (None: none, or one this key cannot open)."""
        value = self._meta(SHIFT_TALLY)
        if value is None:
            return None
        try:
            return self._open_text(f"meta.value:{SHIFT_TALLY}", value)
        except StoreError as err:  # written before the store was sealed: a new shift
            log.warning("the shift tally kept here cannot be read: %s", err)
            return None
