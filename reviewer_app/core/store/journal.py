"""The reviewer's verdicts: the journal (what they decided, when, and what the server
said) and the outbox of verdicts not yet delivered.

A verdict, its journal row and its outbox row are written in one transaction
(``record_verdict``): once it returns, the decision survives a killed process. ``settle``
records the server's answers; a delivered verdict takes its item and media out of the
store in the same transaction, and the journal keeps it without its note.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Collection, Sequence
from datetime import UTC, datetime
from typing import Any

from reviewer_app.protocol import Decision, Verdict, VerdictResult, VerdictStatus

from ..settings import UNDO_WINDOW
from .documents import read_document
from .file import StoreFile
from .records import (
    CLOCK_SLACK,
    AlreadyDecided,
    JournalEntry,
    NothingToUndo,
    OfflineSummary,
    Outgoing,
    Pending,
    result_without_note,
    without_note,
)
from .schema import PURGED

#: Rejections that are not final: the verdict stays in the outbox and is sent again later.
RETRYABLE_REJECTIONS = frozenset({"leased_to_other"})
#: the reason code of a verdict the service refused for now: another reviewer holds its item
HELD_BY_OTHER = "leased_to_other"
RETRY_REJECTED_AFTER = 60.0
#: the soonest a refused-for-now verdict is sent again, even when the other hold ends sooner
RETRY_REJECTED_SOONEST = 1.0
#: Outbox rows set down before this computer's clock was set back (NTP correcting a fast
#: clock) are re-based (``take_due``), not waited out for the hours the clock went back
#: while their items' leases ran out: a verdict recorded "later" than now waits its undo
#: window again from now (how much of it passed is not known: it is never sent before the
#: reviewer's window really passed), a retry due further ahead than a retry waits is due now.
#: (a row is re-based once: its verdict's record time, "later" than now, becomes now)
_SET_BACK = "(o.attempts = 0 AND j.recorded_at > :late) OR (o.attempts > 0 AND o.due_at > :retry)"
_REBASE = (  # constants only
    "UPDATE outbox AS o SET due_at = CASE WHEN o.attempts = 0 THEN :now + o.due_at - "  # noqa: S608
    "j.recorded_at ELSE :now END FROM journal AS j WHERE j.key = o.key AND (" + _SET_BACK + ")"
)
_NEXT_DUE = (  # a row ``_REBASE`` would re-base is due now
    "SELECT MIN(CASE WHEN " + _SET_BACK + " THEN :now ELSE o.due_at END) "
    "FROM outbox AS o JOIN journal AS j ON j.key = o.key"
)


def _set_back(now: float) -> dict[str, float]:
    return {
        "now": now,
        "late": now + CLOCK_SLACK,
        "retry": now + RETRY_REJECTED_AFTER + CLOCK_SLACK,
    }


class JournalStore(StoreFile):
    """Verdicts: recorded, undone, sent, settled; the journal as the reviewer sees it."""

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
        longer be undone; after a crash they are sent again under the same key).

        Rows set down before the clock was set back are re-based first (``_REBASE``)."""
        with self.transaction() as conn:
            conn.execute(_REBASE, _set_back(now))
            conn.execute(
                "UPDATE journal SET recorded_at = :now WHERE recorded_at > :late "
                "AND key IN (SELECT key FROM outbox)",
                _set_back(now),
            )
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
                read_document(
                    Verdict, self._open_text(f"journal.verdict:{r['key']}", r["verdict"])
                ),
            )
            for r in rows
        ]

    def flush_all(self, now: float) -> None:
        """End every undo window now (on a clean exit everything decided is sent)."""
        with self.transaction() as conn:
            conn.execute("UPDATE outbox SET due_at = ? WHERE due_at > ?", (now, now))

    def next_due_at(self) -> float | None:
        """When ``take_due`` next has a verdict to send, or to re-base (now: a due time set
        down before the clock was set back)."""
        now = self.clock()
        return self._read(_NEXT_DUE, _set_back(now))[0][0]

    def settle(
        self, results: Sequence[VerdictResult], *, decide_again: Collection[str] = ()
    ) -> list[JournalEntry]:
        """Apply the server's answers: delivered verdicts leave the outbox, conflicts are
        kept beside the decision that won, rejections keep the server's reason.

        Retention: a verdict with a final answer takes its item and media out of the store
        in the same transaction, and the journal keeps it without its note (and without the
        winning decision's note); a conflict keeps its copies until it is resolved.
        ``decide_again``: keys of verdicts refused for not fitting their queue's config (a
        422 ``verdict_invalid``): rejected in the journal, their item is not done
        (``_decide_again``)."""
        again = {str(k) for k in decide_again}
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
                    self._retry_later(conn, row, result, now)
                else:
                    settled.append(self._settle_one(conn, row, result, now, key in again))
        if settled:  # their items and notes were purged: the WAL still holds them
            self._purged()
        return settled

    def _retry_later(
        self, conn: sqlite3.Connection, row: sqlite3.Row, result: VerdictResult, now: float
    ) -> None:
        """A rejection that is not final: another reviewer holds the item for now. If they
        decide it, the retry comes back as a conflict; if they let it go, our late verdict
        can still count: sent again within a minute, or just after their hold ends when the
        service said when. It can no longer be undone (in flight)."""
        key = row["key"]
        reason = result.reason.code if result.reason else None
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

    def _settle_one(
        self,
        conn: sqlite3.Connection,
        row: sqlite3.Row,
        result: VerdictResult,
        now: float,
        again: bool = False,
    ) -> JournalEntry:
        """A final answer: the journal keeps it (notes dropped), the outbox lets the verdict
        go, a conflict is kept, and the item leaves the worklist (``again``: it is decided
        again, ``_decide_again``)."""
        key = row["key"]
        status = result.status.value
        verdict_json = self._open_text(f"journal.verdict:{key}", row["verdict"])
        conn.execute(
            "UPDATE journal SET status = ?, result = ?, settled_at = ?, verdict = ? WHERE key = ?",
            (
                status,
                self._seal_text(f"journal.result:{key}", result_without_note(result)),
                now,
                self._seal_text(f"journal.verdict:{key}", without_note(verdict_json)),
                key,
            ),
        )
        conn.execute("DELETE FROM outbox WHERE key = ?", (key,))
        if result.status is VerdictStatus.conflict and result.decision is not None:
            self._keep_conflict(conn, row, verdict_json, result.decision, now)
        if again:
            self._decide_again(conn, row["item_id"])
        else:  # the item's work here is done: it leaves the worklist
            self._forget(conn, [row["item_id"]])
        return JournalEntry(
            key,
            row["item_id"],
            row["queue_id"],
            row["action"],
            read_document(Verdict, verdict_json),
            row["recorded_at"],
            status,
            result,
            now,
        )

    def _decide_again(self, conn: sqlite3.Connection, item_id: str) -> None:
        """A verdict refused for not fitting the queue's config (changed since the bar was
        drawn) leaves the post undecided, its lease still held: it is the next one shown,
        decided again under the config fetched now. One that can no longer be decided here
        (its lease lost, its content purged) leaves the worklist, as a lost lease does."""
        first = conn.execute("SELECT COALESCE(MIN(seq), 0) FROM items").fetchone()[0]
        back = conn.execute(
            "UPDATE items SET state = 'ready', seq = ? WHERE id = ? AND state = 'decided' "
            "AND lease_lost = 0 AND document != ?",
            (first - 1, item_id, PURGED),
        ).rowcount
        if not back:
            self._forget(conn, [item_id])

    def _keep_conflict(
        self,
        conn: sqlite3.Connection,
        row: sqlite3.Row,
        verdict_json: str,
        theirs: Decision,
        now: float,
    ) -> None:
        """Keep the verdict beside the decision that won, with a copy of the post (while it
        is cached here) until the reviewer has seen it."""
        key = row["key"]
        item = conn.execute("SELECT document FROM items WHERE id = ?", (row["item_id"],)).fetchone()
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
                self._seal_text(f"conflicts.item:{key}", document) if document else None,
                self._seal_text(f"conflicts.mine:{key}", verdict_json),
                self._seal_text(f"conflicts.theirs:{key}", theirs.model_dump_json()),
                now,
            ),
        )

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

    def _journal_entry(self, row: sqlite3.Row) -> JournalEntry:
        key = row["key"]
        result = row["result"]
        return JournalEntry(
            key=key,
            item_id=row["item_id"],
            queue_id=row["queue_id"],
            action=row["action"],
            verdict=read_document(
                Verdict, self._open_text(f"journal.verdict:{key}", row["verdict"])
            ),
            recorded_at=row["recorded_at"],
            status=row["status"],
            result=read_document(VerdictResult, self._open_text(f"journal.result:{key}", result))
            if result
            else None,
            settled_at=row["settled_at"],
        )

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
