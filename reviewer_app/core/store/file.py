"""The store file: opening it, checking it, migrating it, sealing its content, its
transactions; its settings and metadata.

Durability: each commit lands in the WAL file without waiting for the disk
(``synchronous=NORMAL``); ``write_through`` (an fsync of the WAL, on the sync thread) makes
the commits so far survive a power cut. A file that is damaged or is not ours is moved aside
with a message (``recovery_message``), never silently reused; a file of a newer release is
left as it is (``StoreTooNew``). A file moved aside keeps its key: a key file beside the
store is copied beside it. With a key, every content value is sealed (``RowCipher``), and
a store written before encryption is sealed in place (only with ``seal_plaintext``:
``_may_seal``), in the migrating transaction, then vacuumed (``_scrub``).
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

from reviewer_app.protocol import User

from ..errors import StoreError, StoreTooNew, StoreUnreadable
from ..keyfile import SUFFIX as KEY_FILE_SUFFIX
from ..paths import narrow_file, private_file, private_folder
from ..sealing import RowCipher
from ..settings import Settings
from .documents import read_document
from .plaintext import seal_rows
from .schema import (
    APPLICATION_ID,
    ENCRYPTED_SINCE,
    KEY_CHECK,
    KEY_CHECK_TEXT,
    LAST_SYNC,
    MIGRATIONS,
    PROFILE,
    QUICK_CHECK_LIMIT,
    SCHEMA_VERSION,
    SHIFT_TALLY,
    TABLES,
    content_rows,
)

log = logging.getLogger("store")

#: after content was purged, the WAL is emptied at most this often (seconds)
EMPTY_WAL_EVERY = 10.0
#: bytes of WAL kept when it is reset after a checkpoint (SQLite's own checkpoint size)
WAL_SIZE_LIMIT = 4 * 1024 * 1024


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
        seal_plaintext: bool = False,
        move_aside: bool = True,
    ) -> None:
        """``key``: the profile's 32-byte data key; without one the store is not encrypted
        (tools and tests; the app always passes one, or uses ``in_memory``). ``in_memory``:
        ``path`` names a database that lives in this process only (see the module doc).
        ``seal_plaintext``: ``key`` was made for this profile just now, so a store found here
        of a release before encryption (schema 2) may be sealed with it in place; otherwise
        content found with no key check is refused as damaged or tampered with.
        ``check``: run SQLite's page check at open; ``move_aside``: a file that fails it (or
        will not open with ``key``) is moved aside and a new store started, else the open
        fails with ``StoreUnreadable`` and the file is left as it is."""
        self.path = Path(path)
        self.in_memory = in_memory
        self.clock = clock
        self._cipher = RowCipher(key) if key is not None else None
        self._seal_plaintext = seal_plaintext
        #: content was purged since the WAL was last emptied, and when that was (``_purged``)
        self._wal_dirty = False
        self._wal_emptied_at = -EMPTY_WAL_EVERY
        self._busy_ms = int(busy_timeout * 1000)
        #: set when a damaged or foreign file was moved aside: what happened, in words
        #: (English, for logs), and where the file went (what the UI words)
        self.recovery_message: str | None = None
        self.moved_aside_to: Path | None = None
        if not in_memory:
            try:
                private_folder(self.path.parent)
                private_file(self.path)  # 0600 before SQLite opens it (its WAL and SHM follow)
            except OSError as err:  # read-only, full, or another user's
                where = self.path.parent
                raise StoreError(f"The app's data folder {where} cannot be written: {err}") from err
        verify = check and not in_memory
        try:
            # a file that cannot be used is moved aside (else the open fails, leaving it)
            self._open(busy_timeout, verify=verify, movable=verify and move_aside)
        except BaseException:
            with suppress(AttributeError, sqlite3.Error):  # never a connection left open
                self.conn.close()
            raise
        self.settings = Settings(self._settings_values, self._save_setting)

    @property
    def encrypted(self) -> bool:
        return self._cipher is not None

    # --- opening, checking, migrating ------------------------------------------------

    def _open(self, busy_timeout: float, *, verify: bool, movable: bool) -> None:
        """Connect, check (``verify``), configure and migrate; a file that cannot be used
        is moved aside when ``movable``, else refused as ``StoreUnreadable``."""
        try:
            self.conn = self._connect(busy_timeout)
            if verify:  # before any pragma writes to it: a foreign file stays as it was
                self._verify()
            self._configure()
        except _Unusable as why:
            if not movable:  # a start with no network, another thread's: nothing moved aside
                unreadable = f"The local store {self.path} cannot be read: {why}"
                raise StoreUnreadable(unreadable) from None
            self._move_aside(str(why))
            self.conn = self._connect(busy_timeout)
            self._configure()
        if not self.in_memory:
            for suffix in ("-wal", "-shm"):  # an older release's, made with the umask's mode
                narrow_file(Path(str(self.path) + suffix))
        try:
            try:
                self._migrate()
            except _WrongKey as why:
                if not movable:
                    self.conn.close()
                    unreadable = f"The local store {self.path} cannot be read: {why}"
                    raise StoreUnreadable(unreadable) from None
                self._move_aside(str(why))
                self.conn = self._connect(busy_timeout)
                self._configure()
                self._migrate()
        except sqlite3.DatabaseError as err:
            raise StoreError(f"The local store {self.path} cannot be prepared: {err}") from err

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
            # a WAL that grew is cut back when it is next reset (old frames do not linger)
            self.conn.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
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
            self._refuse_newer(version)
            if app_id == APPLICATION_ID and version and not tables >= TABLES:
                raise _Unusable("tables are missing from it")
            # a full page check reads the whole file: only while that stays quick
            big = self.path.stat().st_size > QUICK_CHECK_LIMIT
            check = "ok" if big else self.conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise _Unusable(f"SQLite found it damaged ({check})")
        except sqlite3.DatabaseError as err:
            raise _Unusable(f"SQLite cannot read it ({err})") from err

    def _refuse_newer(self, version: int) -> None:
        """A file of a newer release's schema is never read or changed here (its documents
        may hold what this release cannot parse): ``StoreTooNew``, the file left as it is."""
        if version > SCHEMA_VERSION:
            raise StoreTooNew(self.path, version, SCHEMA_VERSION)

    def _move_aside(self, why: str) -> None:
        with suppress(AttributeError, sqlite3.Error):
            self.conn.close()
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        aside = self.path.with_name(f"{self.path.name}.unusable-{stamp}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                src.replace(Path(str(aside) + suffix))
        self._keep_key_file(aside)
        self.moved_aside_to = aside
        private_file(self.path)  # the new, empty store: 0600 from the start
        self.recovery_message = (
            f"The local store could not be used because {why}. It was moved aside to "
            f"{aside} and a new, empty store was started. Verdicts that were in the old file "
            "and not yet sent are still in it; ask support before deleting it."
        )
        log.error("%s", self.recovery_message)

    def _keep_key_file(self, aside: Path) -> None:
        """The wrapped key beside the store (``<store>.key``: a profile with no keyring)
        goes with the file moved aside, as ``<aside>.key``: logging out deletes the store's
        own, and the old file's unsent verdicts must stay readable (with the password
        they were kept under). Copied: the new store uses the same key. With a keyring the
        key stays in it while a file moved aside is here (``ReviewSession``)."""
        source = Path(str(self.path) + KEY_FILE_SUFFIX)
        try:
            wrapped = source.read_bytes()
        except FileNotFoundError:
            return
        except OSError as err:
            log.error(
                "the key file %s could not be kept beside the store moved aside: %s", source, err
            )
            return
        copy = Path(str(aside) + KEY_FILE_SUFFIX)
        private_file(copy)  # 0600 before anything is written to it
        with copy.open("wb") as out:
            out.write(wrapped)
            out.flush()
            os.fsync(out.fileno())

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
        self._refuse_newer(version)  # also when the file was not checked at open
        check = self._key_check(self.conn)
        if version >= SCHEMA_VERSION and (check is not None or self._cipher is None):
            self._verify_key(check)
            return
        sealed_rows = 0
        with self.transaction() as conn:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            unsealed = self._cipher is not None and self._key_check(conn) is None
            if unsealed:  # before anything changes: a refused file is left as it was
                self._may_seal(conn, version)
            for number, migration in enumerate(MIGRATIONS[version:], start=version + 1):
                migration(conn)
                conn.execute(f"PRAGMA user_version={number}")
            conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
            check = self._key_check(conn)
            if self._cipher is not None and check is None:
                sealed_rows = self._seal_found(conn)
                check = self._cipher.seal(f"meta.value:{KEY_CHECK}", KEY_CHECK_TEXT)
                conn.execute("INSERT INTO meta (name, value) VALUES (?, ?)", (KEY_CHECK, check))
        self._verify_key(check)
        if sealed_rows:
            log.info("the local store was encrypted in place (%d values)", sealed_rows)
            self._scrub()

    def _may_seal(self, conn: sqlite3.Connection, version: int) -> None:
        """A key is given and the store has no key check: seal what it holds in place only
        when that is provably the content of a store made before encryption (schema 2, and
        a key made for this profile just now: ``seal_plaintext``), or when it holds no
        content at all (a new store). Anything else is a store whose key check was removed
        (damaged, or someone without the key slipped content in to be sealed as the
        reviewer's): ``_WrongKey``, so it is moved aside, never trusted."""
        held = content_rows(conn)
        if not held or (self._seal_plaintext and version < ENCRYPTED_SINCE):
            return
        raise _WrongKey(
            f"it holds content ({held} rows) but no longer the record that it is encrypted "
            "(its key check is missing): it was damaged or changed by something other than "
            "this app, so nothing in it is trusted"
        )

    def _seal_found(self, conn: sqlite3.Connection) -> int:
        """``_seal_existing``, with a value of the wrong kind (sealed bytes where plain text
        belongs, a verdict that does not parse) refused as ``_WrongKey``: the file is moved
        aside instead of failing every login."""
        try:
            return self._seal_existing(conn)
        except (StoreError, ValueError) as err:
            raise _WrongKey(
                f"it holds content that is neither readable plain text nor this key's ({err})"
            ) from None

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
        return seal_rows(conn, self._seal_text, self._seal_bytes)

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

    def _purged(self, *, empty_now: bool = True) -> None:
        """Content was purged (a settled verdict's item, media and note): its old pages are
        still in the WAL, sealed under the key that is kept, until a checkpoint empties it.
        Emptied now (``empty_now``: the sync thread), or at a later ``_empty_wal_if_due``
        (every sync pass)."""
        self._wal_dirty = True
        if empty_now:
            self._empty_wal_if_due()

    def _empty_wal_if_due(self) -> None:
        """After a purge, at most every ``EMPTY_WAL_EVERY`` seconds: checkpoint the WAL into
        the file (whose freed pages ``secure_delete`` overwrote) and truncate it. For the
        sync thread (the checkpoint syncs the file); it never waits for another connection:
        one reading or writing now leaves it for the next pass."""
        if not self._wal_dirty or self.in_memory:
            return
        if time.monotonic() - self._wal_emptied_at < EMPTY_WAL_EVERY:
            return
        try:
            self.conn.execute("PRAGMA busy_timeout=0")
            try:  # the copy first, taking no lock a writer waits for; then the truncation
                self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                busy = self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0]
            finally:
                self.conn.execute(f"PRAGMA busy_timeout={self._busy_ms}")
        except sqlite3.Error as err:
            log.debug("the WAL could not be emptied now: %s", err)
            return
        if not busy:
            self._wal_dirty = False
            self._wal_emptied_at = time.monotonic()

    # --- sealing values --------------------------------------------------------------

    def _seal_text(self, where: str, text: object) -> str | bytes:
        if not isinstance(text, str):
            raise StoreError(
                f"The local store holds {_kind(text)} where text belongs ({_place(where)})."
            )
        return text if self._cipher is None else self._cipher.seal(where, text.encode())

    def _open_text(self, where: str, value: object) -> str:
        if self._cipher is None:
            if not isinstance(value, str):
                raise StoreError(
                    "The local store holds encrypted content and was opened without its key."
                )
            return value
        try:
            return self._cipher.open(where, value).decode()
        except UnicodeDecodeError:
            raise StoreError(
                f"The local store holds content that is not text ({_place(where)}); it was "
                "not shown."
            ) from None

    def _seal_bytes(self, where: str, data: object) -> bytes:
        if not isinstance(data, bytes | memoryview):
            raise StoreError(
                f"The local store holds {_kind(data)} where bytes belong ({_place(where)})."
            )
        return bytes(data) if self._cipher is None else self._cipher.seal(where, bytes(data))

    def _open_bytes(self, where: str, value: object) -> bytes:
        if self._cipher is None:
            if value is None:
                return b""
            if not isinstance(value, bytes | memoryview):
                raise StoreError(
                    f"The local store holds {_kind(value)} where bytes belong ({_place(where)})."
                )
            return bytes(value)
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
        """A write transaction (``BEGIN IMMEDIATE``): all of it commits, or none of it. The
        disk failing a statement or the commit (full, read-only…) is a ``StoreError`` saying
        so, the transaction rolled back if SQLite did not already (a full disk does)."""
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            raise StoreError(f"The local store is busy or unwritable: {err}") from err
        try:
            yield self.conn
        except BaseException as err:
            self._rollback()
            if (why := _trouble(err)) is None:
                raise
            raise StoreError(f"The local store could not save: {why}") from err
        try:
            self.conn.execute("COMMIT")
        except sqlite3.OperationalError as err:
            self._rollback()
            raise StoreError(f"The local store could not save: {_trouble(err) or err}") from err

    def _rollback(self) -> None:
        if self.conn.in_transaction:  # never an error in place of the one that ended it
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error as err:
                log.warning("a transaction of the local store was not rolled back: %s", err)

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
        return read_document(User, self._open_text(f"meta.value:{PROFILE}", value))

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


#: SQLite's primary result codes of the environment (not of the SQL), in words
_TROUBLE = {5: "it is busy", 6: "it is locked", 7: "memory ran out", 8: "it is read-only"}
_TROUBLE |= {10: "the disk could not be written; it may be full", 11: "it is damaged"}
_TROUBLE |= {13: "the disk is full", 14: "its file cannot be opened"}


def _trouble(err: BaseException) -> str | None:
    """The environment's error that failed a write, in words; None for another (a bug)."""
    code = getattr(err, "sqlite_errorcode", 0) if isinstance(err, sqlite3.Error) else 0
    words = _TROUBLE.get((code or 0) & 0xFF)
    return None if words is None else f"{words} ({err})"


def _kind(value: object) -> str:
    if isinstance(value, bytes | memoryview):
        return "encrypted or binary data"
    return "no value" if value is None else f"a value of type {type(value).__name__}"


def _place(where: str) -> str:
    return where.split(":", 1)[0]
