"""A lead's bulk decisions, held here for the undo window before they are sent (sealed,
as a verdict is; one still here after a crash is sent at the next start)."""

from __future__ import annotations

import uuid

from reviewer_app.protocol.bulk_decisions import BulkDecisionRequest

from ..settings import UNDO_WINDOW
from .documents import read_document
from .file import StoreFile
from .records import CLOCK_SLACK, HeldBulk, NothingToUndo


class HeldBulkStore(StoreFile):
    """Bulk decisions held for the undo window, then taken to be sent, then settled."""

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
                read_document(
                    BulkDecisionRequest,
                    self._open_text(f"held_bulk.request:{r['id']}", r["request"]),
                ),
                r["held_at"],
                r["due_at"],
            )
            for r in self._read("SELECT * FROM held_bulk ORDER BY held_at, id")
        ]

    def held_bulk_items(self) -> int:
        """How many posts the bulk decisions held here decide (not yet answered)."""
        return int(self._read("SELECT COALESCE(SUM(item_count), 0) FROM held_bulk")[0][0])

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

    def rebase_bulk(self, bulk_id: str) -> float | None:
        """When the held bulk is due, after this computer's clock was set back (its due time
        lies further ahead than it can): one still in its undo window, held "after" now, gets
        the whole window again from now (how much of it passed is not known); one taken to be
        sent before (its window passed then) is due now. None: it is gone (undone, answered).
        Re-based once: its hold time is then now."""
        now = self.clock()
        with self.transaction() as conn:
            conn.execute(
                "UPDATE held_bulk SET due_at = CASE WHEN attempts = 0 THEN :now + (due_at - "
                "held_at) ELSE :now END, held_at = MIN(held_at, :now) WHERE id = :id AND "
                "((attempts = 0 AND held_at > :ahead) OR (attempts > 0 AND due_at > :now))",
                {"now": now, "id": bulk_id, "ahead": now + CLOCK_SLACK},
            )
            row = conn.execute("SELECT due_at FROM held_bulk WHERE id = ?", (bulk_id,)).fetchone()
        return None if row is None else float(row[0])

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
        request = read_document(
            BulkDecisionRequest, self._open_text(f"held_bulk.request:{bulk_id}", row["request"])
        )
        return HeldBulk(bulk_id, request, row["held_at"], row["due_at"])

    def settle_bulk(self, bulk_id: str) -> None:
        """The service answered the bulk decision (recorded, or refused whole): forget it."""
        with self.transaction() as conn:
            conn.execute("DELETE FROM held_bulk WHERE id = ?", (bulk_id,))
