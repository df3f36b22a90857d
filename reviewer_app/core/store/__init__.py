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
no user content) and ``settings`` stay plain. A store written without a key before
encryption (schema 2) is encrypted in place, in one transaction, when it is opened with a key
made for it at that login (``seal_plaintext``); the file is then vacuumed so no plaintext
page is left in it or its WAL. Any other store with content and no key check (the record
that it is encrypted) is refused as damaged or tampered with and moved aside: content
slipped in by someone without the key is never sealed as the reviewer's. A value that does
not decrypt, or sealed data where text belongs (or the reverse), is a ``StoreError``, never
shown.

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
delivered are the exception: they are kept, encrypted, until the server has them. After a
purge the WAL, which still holds the purged pages, is checkpointed and truncated (at once,
then at most every ``EMPTY_WAL_EVERY`` seconds, by the next sync pass; never waiting for
another connection).

**Modules.** ``schema`` (migrations, names), ``records`` (what the store hands out, its
errors), ``file`` (opening, checking, migrating, sealing, transactions, settings, metadata),
``items`` (queues, leased items, media), ``journal`` (verdicts: journal and outbox),
``retention`` (conflicts, purging, wiping), ``held_bulk`` (a lead's held bulk decisions),
``documents`` (the models kept as JSON, read back without fields a later release added),
``breaks`` (breaks the service has not recorded yet).
``Store`` is all of them on one connection; import it from here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from .breaks import BreakStore
from .file import StoreFile
from .held_bulk import HeldBulkStore
from .hold import check_free, hold
from .items import ItemStore
from .journal import (
    HELD_BY_OTHER,
    RETRY_REJECTED_AFTER,
    RETRY_REJECTED_SOONEST,
    RETRYABLE_REJECTIONS,
    JournalStore,
)
from .records import (
    AlreadyDecided,
    Conflict,
    Counts,
    HeldBulk,
    JournalEntry,
    NothingToUndo,
    OfflineSummary,
    Outgoing,
    Pending,
    Renewal,
    StoredItem,
    WorklistRow,
)
from .retention import RetentionStore
from .schema import (
    APPLICATION_ID,
    MIGRATIONS,
    MISSING_MEDIA,
    PURGED,
    SCHEMA_VERSION,
    encrypted_store,
    written_before_encryption,
)

__all__ = [
    "APPLICATION_ID",
    "HELD_BY_OTHER",
    "MIGRATIONS",
    "MISSING_MEDIA",
    "PURGED",
    "RETRYABLE_REJECTIONS",
    "RETRY_REJECTED_AFTER",
    "RETRY_REJECTED_SOONEST",
    "SCHEMA_VERSION",
    "AlreadyDecided",
    "Conflict",
    "Counts",
    "HeldBulk",
    "JournalEntry",
    "NothingToUndo",
    "OfflineSummary",
    "Outgoing",
    "Pending",
    "Renewal",
    "Store",
    "StoreFile",
    "StoredItem",
    "WorklistRow",
    "check_free",
    "encrypted_store",
    "written_before_encryption",
]


class Store(ItemStore, JournalStore, RetentionStore, HeldBulkStore, BreakStore):
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
        seal_plaintext: bool = False,
        move_aside: bool = True,
        exclusive: bool = False,
    ) -> None:
        """``key``: the profile's 32-byte data key; without one the store is not encrypted
        (tools and tests; the app always passes one, or uses ``in_memory``). ``in_memory``:
        ``path`` names a database that lives in this process only (see the module doc).
        ``check``, ``move_aside`` and ``seal_plaintext``: as ``StoreFile``'s. ``exclusive``:
        the session's connection, held by one copy of the app at a time (``hold``:
        ``StoreInUse``) until it is closed. Cached content past its retention is purged as
        the store opens."""
        self._held = hold(Path(path)) if exclusive and not in_memory else None
        try:
            super().__init__(
                path,
                key=key,
                in_memory=in_memory,
                clock=clock,
                check=check,
                busy_timeout=busy_timeout,
                seal_plaintext=seal_plaintext,
                move_aside=move_aside,
            )
            # on the opener's thread (the GUI's, for the review window): the WAL, which
            # syncs the file, is emptied by the sync thread's next pass
            self.purge_expired(empty_wal=False)
        except BaseException:
            self._let_go()
            raise

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._let_go()

    def _let_go(self) -> None:
        held, self._held = self._held, None
        if held is not None:
            held.release()

    def counts(self) -> Counts:
        row = self._read(
            "SELECT (SELECT COUNT(*) FROM outbox), "
            "(SELECT COUNT(*) FROM outbox WHERE in_flight = 1), "
            "(SELECT COUNT(*) FROM conflicts WHERE resolution IS NULL), "
            "(SELECT COUNT(*) FROM journal WHERE status = 'rejected'), "
            "(SELECT COUNT(retry_reason) FROM outbox)"
        )[0]
        return Counts(row[0], row[1], row[2], row[3], self.ready_counts(), row[4])
