"""The event log is append-only and hash-chained.

Each entry carries ``prev_hash`` (the hash of the entry before it; 64 zeros for the
first) and ``hash`` = sha256 over a canonical serialisation of the entry with its id and
``prev_hash``. The head of the chain (last id and last hash) lives in the one-row table
``event_chain``: appending reads and updates that row only, never the log itself, and on
PostgreSQL the row lock makes concurrent writers of all processes take turns, so they
form one chain. (On SQLite a write transaction is the only writer anyway.)

Appends should come last in their transaction: on PostgreSQL the head stays locked
until the commit.

The serialisation must never change: ``verify`` recomputes every hash with it, and
migration 0002 used it to chain the entries written before the chain existed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, insert, select, update

from .tables import event_chain, events

GENESIS = "0" * 64
HEAD_ID = 1
VERIFY_CHUNK = 5_000


def entry_hash(entry: Mapping[Any, Any], prev_hash: str) -> str:
    """The hash of one entry (id, time, kind, actor, item, queue, data) after ``prev_hash``."""
    canonical = json.dumps(
        [
            int(entry["id"]),
            float(entry["at"]),
            entry["kind"],
            entry["actor"],
            entry["item_id"],
            entry["queue_id"],
            entry["data"],
            prev_hash,
        ],
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


_HEAD = {
    pg: (
        select(event_chain.c.last_id, event_chain.c.last_hash).where(event_chain.c.id == HEAD_ID)
    ).with_for_update()
    if pg
    else select(event_chain.c.last_id, event_chain.c.last_hash).where(event_chain.c.id == HEAD_ID)
    for pg in (False, True)
}
_INSERT = insert(events)
_MOVE_HEAD = update(event_chain).where(event_chain.c.id == HEAD_ID)


def append(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Append entries (dicts of at, kind, actor, item_id, queue_id, data) to the chain."""
    if not rows:
        return
    head = conn.execute(_HEAD[conn.dialect.name == "postgresql"]).first()
    if head is None:  # a database made before the chain's migration seeded the head
        raise RuntimeError("the event log has no chain head; run the migrations")
    last_id, last_hash = int(head.last_id), str(head.last_hash)
    chained = []
    for row in rows:
        last_id += 1
        entry = {**row, "id": last_id, "prev_hash": last_hash}
        last_hash = entry_hash(entry, last_hash)
        entry["hash"] = last_hash
        chained.append(entry)
    conn.execute(_INSERT, chained)
    conn.execute(_MOVE_HEAD, {"last_id": last_id, "last_hash": last_hash})


@dataclass(frozen=True)
class Verification:
    """What ``verify`` found: the log is intact, or the first broken link."""

    checked: int
    intact: bool
    entry_id: int | None = None
    problem: str | None = None
    detail: str | None = None

    def describe(self) -> str:
        if self.intact:
            return f"The event log is intact: {self.checked} entries, every link holds."
        return (
            f"The event log is broken at entry {self.entry_id} ({self.problem}): {self.detail} "
            f"({self.checked} entries before it hold)."
        )


def _entries(conn: Connection) -> Iterable[Mapping[Any, Any]]:
    """Every entry in id order, read in chunks (never the whole log at once)."""
    after = 0
    while True:
        chunk = (
            conn.execute(
                select(events).where(events.c.id > after).order_by(events.c.id).limit(VERIFY_CHUNK)
            )
            .mappings()
            .all()
        )
        if not chunk:
            return
        yield from chunk
        after = chunk[-1]["id"]


def verify(conn: Connection) -> Verification:
    """Walk the chain from the first entry; stop at the first link that does not hold."""
    prev_hash, prev_id, checked = GENESIS, 0, 0
    for row in _entries(conn):
        entry_id = int(row["id"])
        if row["prev_hash"] != prev_hash:
            if entry_id != prev_id + 1 and prev_id:
                gone = (
                    f"entry {prev_id + 1} is"
                    if entry_id == prev_id + 2
                    else f"entries {prev_id + 1}..{entry_id - 1} are"
                )
                what, detail = (
                    "missing_entries",
                    f"{gone} missing (deleted?): its prev_hash does not match entry {prev_id}",
                )
            else:
                where = f"entry {prev_id}" if prev_id else "the start of the log"
                what, detail = (
                    "broken_link",
                    f"its prev_hash does not match {where} "
                    "(an entry was deleted, moved or reordered)",
                )
            return Verification(checked, False, entry_id, what, detail)
        if row["hash"] != entry_hash(row, prev_hash):
            return Verification(
                checked,
                False,
                entry_id,
                "hash_mismatch",
                "its content does not match its hash (edited, or moved from another id)",
            )
        prev_hash, prev_id = row["hash"], entry_id
        checked += 1
    head = conn.execute(_HEAD[False]).first()
    if head is None:
        return Verification(checked, False, None, "no_head", "the chain head row is missing")
    if (int(head.last_id), head.last_hash) != (prev_id, prev_hash):
        return Verification(
            checked,
            False,
            int(head.last_id),
            "head_mismatch",
            f"the chain head names entry {head.last_id} but the log ends at entry {prev_id} "
            "(entries at the end were deleted, or the head was changed)",
        )
    return Verification(checked, True)
