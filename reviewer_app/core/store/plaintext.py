"""Sealing in place the content of a store written before it was encrypted (schema 2, or
tools and tests): ``StoreFile._migrate`` calls it, in the transaction that upgrades the
store, only for a store it may prove was made unencrypted (``StoreFile._may_seal``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from reviewer_app.protocol import VerdictResult

from .documents import read_document
from .records import result_without_note, without_note
from .schema import PURGED


def seal_rows(
    conn: sqlite3.Connection,
    seal_text: Callable[[str, object], str | bytes],
    seal_bytes: Callable[[str, object], bytes],
) -> int:
    """Encrypt every content value with ``seal_text``/``seal_bytes``; notes of verdicts
    already settled are dropped on the way (as ``settle`` does now). Returns how many
    values were sealed. A value of the wrong kind raises ``StoreError`` (from the sealers)
    or ``ValueError`` (a verdict that does not parse)."""
    sealed = 0

    def each(table: str, key_column: str) -> list[Any]:
        return [r[0] for r in conn.execute(f"SELECT {key_column} FROM {table}")]  # noqa: S608

    for item_id in each("items", "id"):
        doc = conn.execute("SELECT document FROM items WHERE id = ?", (item_id,)).fetchone()
        if doc[0] != PURGED:
            conn.execute(
                "UPDATE items SET document = ? WHERE id = ?",
                (seal_text(f"items.document:{item_id}", doc[0]), item_id),
            )
            sealed += 1
    for media_id in each("media_files", "id"):
        (data,) = conn.execute("SELECT data FROM media_files WHERE id = ?", (media_id,)).fetchone()
        conn.execute(
            "UPDATE media_files SET data = ? WHERE id = ?",
            (seal_bytes(f"media.data:{media_id}", data), media_id),
        )
        sealed += 1
    for key in each("journal", "key"):
        row = conn.execute(
            "SELECT verdict, result, status FROM journal WHERE key = ?", (key,)
        ).fetchone()
        verdict = row["verdict"] if row["status"] == "pending" else without_note(row["verdict"])
        result = row["result"]
        if result:
            result = result_without_note(read_document(VerdictResult, result))
        conn.execute(
            "UPDATE journal SET verdict = ?, result = ? WHERE key = ?",
            (
                seal_text(f"journal.verdict:{key}", verdict),
                seal_text(f"journal.result:{key}", result) if result else None,
                key,
            ),
        )
        sealed += 2 if result else 1
    for bulk_id in each("held_bulk", "id"):
        row = conn.execute("SELECT request FROM held_bulk WHERE id = ?", (bulk_id,)).fetchone()
        conn.execute(
            "UPDATE held_bulk SET request = ? WHERE id = ?",
            (seal_text(f"held_bulk.request:{bulk_id}", row[0]), bulk_id),
        )
        sealed += 1
    for key in each("conflicts", "key"):
        row = conn.execute(
            "SELECT item, mine, theirs FROM conflicts WHERE key = ?", (key,)
        ).fetchone()
        conn.execute(
            "UPDATE conflicts SET item = ?, mine = ?, theirs = ? WHERE key = ?",
            (
                seal_text(f"conflicts.item:{key}", row["item"]) if row["item"] else None,
                seal_text(f"conflicts.mine:{key}", row["mine"]),
                seal_text(f"conflicts.theirs:{key}", row["theirs"]),
                key,
            ),
        )
        sealed += 3 if row["item"] else 2
    return sealed
