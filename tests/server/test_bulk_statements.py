"""The set-based statements of storage/bulk.py on both databases: an insert that returns
what it inserted, in parts on SQLite (a multi-row VALUES with plain parameters), skipping
conflicts and matching each returned value to its row."""

from __future__ import annotations

from sqlalchemy import func, select

from reviewer_app.server.storage.bulk import InsertMany
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.tables import signals

COLUMNS = ("source", "external_id", "post_id", "kind", "body_hash", "payload", "received_at")
BY_ID = InsertMany(signals, COLUMNS, returning="id", ignore_conflicts=False, key="external_id")
NEW_ONES = InsertMany(signals, COLUMNS, returning="external_id")


def row(n: int, text: str = "") -> dict[str, object]:
    return {
        "source": "feed",
        "external_id": f"s-{n}",
        "post_id": f"p-{n % 7}",
        "kind": "report",
        "body_hash": f"{n:064d}",
        "payload": text or f'{{"n": {n}}}',
        "received_at": 1_700_000_000.25 + n,
    }


def test_ids_come_back_in_the_rows_order_across_parts(db: Database) -> None:
    """More rows than one SQLite statement takes (parts of 500): every row in, and each
    id is its own row's, in the order the rows were given."""
    rows = [row(n) for n in reversed(range(1_234))]
    with db.write() as conn:
        ids = BY_ID(conn, rows, not db.is_sqlite)
        stored = dict(conn.execute(select(signals.c.external_id, signals.c.id)).all())
        kept = conn.execute(select(signals.c.received_at).where(signals.c.id == ids[0])).scalar()
    assert len(ids) == len(set(ids)) == 1_234
    assert ids == [stored[r["external_id"]] for r in rows]
    assert kept == rows[0]["received_at"], "values stored as given"


def test_an_int_in_a_float_column_is_stored_as_a_float(db: Database) -> None:
    """SQLAlchemy's Float makes a float of it; the plain parameters of the SQLite insert
    leave that to the column's REAL affinity."""
    with db.write() as conn:
        (new_id,) = BY_ID(conn, [{**row(1), "received_at": 1_700_000_000}], not db.is_sqlite)
        kept = conn.execute(select(signals.c.received_at).where(signals.c.id == new_id)).scalar()
    assert isinstance(kept, float) and kept == 1_700_000_000.0


def test_a_conflict_is_skipped_and_only_the_new_rows_come_back(db: Database) -> None:
    hostile = "'); DROP TABLE signals; -- \x01 \u202e é 🙂"
    with db.write() as conn:
        assert NEW_ONES(conn, [row(1), row(2)], not db.is_sqlite) == ["s-1", "s-2"]
        again = NEW_ONES(conn, [row(2), row(3, hostile), row(1), row(4)], not db.is_sqlite)
        assert sorted(again) == ["s-3", "s-4"]
        assert NEW_ONES(conn, [], not db.is_sqlite) == []
        payload = conn.execute(
            select(signals.c.payload).where(signals.c.external_id == "s-3")
        ).scalar()
        count = conn.execute(select(func.count()).select_from(signals)).scalar()
    assert payload == hostile, "parameters, never text of the statement"
    assert count == 4
