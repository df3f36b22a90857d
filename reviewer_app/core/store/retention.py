"""Conflicts, retention and wiping: what is kept of a verdict the server answered with
another reviewer's decision, and how long anything cached stays.

Nothing cached (items, media, conflicts' copies) is kept longer than
``cache_retention_hours`` (``purge_expired``: at open and on every sync pass). Verdicts not
yet delivered are the exception: they are kept, encrypted, until the server has them.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Sequence

from reviewer_app.protocol import Decision, Item, Verdict

from ..settings import CACHE_RETENTION
from .breaks import BREAK_PREFIX
from .documents import read_document
from .file import StoreFile
from .records import Conflict, decision_without_note, without_note
from .schema import PURGED

log = logging.getLogger("store")


class RetentionStore(StoreFile):
    """Conflicts kept beside the decision that won; purging and wiping the cache."""

    # --- conflicts ---------------------------------------------------------------------

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
                    item=read_document(Item, item) if item else None,
                    mine=read_document(
                        Verdict, self._open_text(f"conflicts.mine:{key}", r["mine"])
                    ),
                    theirs=read_document(
                        Decision, self._open_text(f"conflicts.theirs:{key}", r["theirs"])
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
            mine = without_note(self._open_text(f"conflicts.mine:{key}", row["mine"]))
            theirs = decision_without_note(
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

    def purge_expired(self, now: float | None = None, *, empty_wal: bool = True) -> int:
        """Drop cached content older than ``cache_retention_hours``: items (with their
        media) and the copies and notes kept with conflicts. An item whose verdict is not
        yet delivered keeps its row (the verdict still goes) without its content. Returns
        how many items and conflicts were purged. Cheap when there is nothing to do.
        ``empty_wal``: also empty the WAL of what was purged (it syncs the file: not for the
        GUI thread)."""
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
        if empty_wal:
            self._empty_wal_if_due()  # after a purge that could not empty it then
        if not items and not conflicts:
            return 0
        with self.transaction() as conn:
            self._forget(conn, [r[0] for r in items if not r[1]])
            unsent = [(r[0],) for r in items if r[1]]
            conn.executemany("DELETE FROM media WHERE item_id = ?", unsent)
            self._drop_unshown_media(conn)
            conn.executemany(
                "UPDATE items SET document = ?, media_wanted = 0 WHERE id = ?",
                [(PURGED, i) for (i,) in unsent],
            )
            self._strip_conflicts(conn, [r[0] for r in conflicts], now)
        self._purged(empty_now=empty_wal)
        log.info("retention: %d items and %d conflicts purged", len(items), len(conflicts))
        return len(items) + len(conflicts)

    def clear(self, *, keep_unsent: bool) -> int:
        """Wipe the cache: items, media, queues, conflicts and the journal. With
        ``keep_unsent``, verdicts not yet delivered stay (encrypted, with the rows they need,
        without the posts' content) so the next login still sends them. Then the file is
        rewritten so nothing deleted is left in it. Returns how many verdicts were kept."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM media")
            conn.execute("DELETE FROM media_files")
            conn.execute("DELETE FROM queues")
            conn.execute("DELETE FROM conflicts")
            if keep_unsent:
                conn.execute("DELETE FROM journal WHERE key NOT IN (SELECT key FROM outbox)")
                conn.execute("DELETE FROM items WHERE id NOT IN (SELECT item_id FROM journal)")
                conn.execute("UPDATE items SET document = ?, media_wanted = 0", (PURGED,))
            else:
                conn.execute("DELETE FROM held_bulk")
                conn.execute(  # the breaks not sent yet go with the verdicts
                    "DELETE FROM meta WHERE substr(name, 1, ?) = ?",
                    (len(BREAK_PREFIX), BREAK_PREFIX),
                )
                conn.execute("DELETE FROM outbox")
                conn.execute("DELETE FROM journal")
                conn.execute("DELETE FROM items")
            kept = int(conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])
        self._scrub()
        return kept
