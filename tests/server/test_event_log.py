"""The event log is hash-chained: ``reviewer-app server verify-log`` finds the first broken
link in a log of 10,000 entries, whether an entry was edited, deleted or reordered; the
chain holds under concurrent writers (sealed by the sequencer while they write); migration
0002 chains entries written before it. (The sequencer itself: test_sequencer.py.)"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import select, text

from reviewer_app.__main__ import main
from reviewer_app.protocol import EventKind
from reviewer_app.server.domain.records import append_events, event_row
from reviewer_app.server.storage.db import MIGRATIONS, Database
from reviewer_app.server.storage.eventlog import GENESIS, EventChain, entry_hash, verify
from reviewer_app.server.storage.sequencer import Sequencer
from reviewer_app.server.storage.tables import event_chain, events

ENTRIES = 10_000
TARGET = 4_321  # the entry each tampering case changes


def _entries(count: int, start: int = 0) -> list[dict]:
    return [
        event_row(
            1_700_000_000.0 + i * 0.25,
            EventKind.decided if i % 3 else EventKind.claimed,
            f"reviewer-{i % 7}",
            item_id=f"item-{i:06d}",
            queue_id="spam",
            decision_id=i,
            action="remove" if i % 2 else "keep",
            policies=["SPAM.SCAM"],
            note='hostile "quotes", \u202eRTL and\nnewlines',
        )
        for i in range(start, start + count)
    ]


def _sequencer(db: Database) -> Sequencer:
    return Sequencer(db, [EventChain()], lambda: 1_800_000_000.0)


def _fill(db: Database, count: int) -> None:
    with db.write() as conn:
        for start in range(0, count, 2_000):
            append_events(conn, _entries(min(2_000, count - start), start))
    assert _sequencer(db).seal_now() == count


def _unguarded(db: Database) -> None:
    """Drop the append-only triggers, as someone with write access to the database could."""
    with db.write() as conn:
        if db.is_sqlite:
            conn.execute(text("DROP TRIGGER events_no_update"))
            conn.execute(text("DROP TRIGGER events_no_delete"))
        else:
            conn.execute(text("DROP TRIGGER events_no_change ON events"))


@pytest.fixture
def log_db(database_url: str) -> Iterator[tuple[str, Database]]:
    db = Database(database_url)
    db.migrate()
    _fill(db, ENTRIES)
    try:
        yield database_url, db
    finally:
        db.dispose()


def verify_log(url: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["server", "verify-log", "--database-url", url])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_an_untouched_log_is_intact(
    log_db: tuple[str, Database], capsys: pytest.CaptureFixture[str]
) -> None:
    url, db = log_db
    code, output = verify_log(url, capsys)
    assert code == 0, output
    assert f"intact: {ENTRIES} entries" in output
    with db.read() as conn:
        first, last = (
            conn.execute(select(events).where(events.c.id.in_([1, ENTRIES])).order_by(events.c.id))
            .mappings()
            .all()
        )
        head = conn.execute(select(event_chain)).mappings().one()
    assert first["prev_hash"] == GENESIS
    assert first["hash"] == entry_hash(first, GENESIS)
    assert (head["last_id"], head["last_hash"]) == (ENTRIES, last["hash"])
    # Also as the database-url given before the subcommand.
    assert main(["server", "--database-url", url, "verify-log"]) == 0


def _edit(conn, db: Database) -> None:  # type: ignore[no-untyped-def]
    conn.execute(
        text("UPDATE events SET data = :d WHERE id = :i"),
        {"d": '{"action":"keep","decision_id":4320}', "i": TARGET},
    )


def _edit_and_rehash(conn, db: Database) -> None:  # type: ignore[no-untyped-def]
    row = conn.execute(select(events).where(events.c.id == TARGET)).mappings().one()
    forged = {**row, "kind": "released"}
    conn.execute(
        text("UPDATE events SET kind = 'released', hash = :h WHERE id = :i"),
        {"h": entry_hash(forged, row["prev_hash"]), "i": TARGET},
    )


def _delete(conn, db: Database) -> None:  # type: ignore[no-untyped-def]
    conn.execute(text("DELETE FROM events WHERE id = :i"), {"i": TARGET})


def _reorder(conn, db: Database) -> None:  # type: ignore[no-untyped-def]
    # Swap two neighbours in the log's order: the later entry now comes first.
    for old, new in ((TARGET, -1), (TARGET + 1, TARGET), (-1, TARGET + 1)):
        conn.execute(text("UPDATE events SET seq = :n WHERE seq = :o"), {"n": new, "o": old})


def _swap_ids(conn, db: Database) -> None:  # type: ignore[no-untyped-def]
    # Swap two neighbours' ids, leaving their places: an id is part of what is hashed.
    for old, new in ((TARGET, -1), (TARGET + 1, TARGET), (-1, TARGET + 1)):
        conn.execute(text("UPDATE events SET id = :n WHERE id = :o"), {"n": new, "o": old})


def _truncate_tail(conn, db: Database) -> None:  # type: ignore[no-untyped-def]
    conn.execute(text("DELETE FROM events WHERE id > :i"), {"i": ENTRIES - 3})


@pytest.mark.parametrize(
    ("tamper", "entry", "problem"),
    [
        (_edit, TARGET, "hash_mismatch"),
        # the entry before the broken link is named: it may be the one edited (it is here)
        (_edit_and_rehash, TARGET, "broken_link"),
        (_delete, TARGET + 1, "missing_entries"),
        (_reorder, TARGET - 1, "broken_link"),
        (_swap_ids, TARGET, "hash_mismatch"),
        (_truncate_tail, ENTRIES, "head_mismatch"),
    ],
    ids=["edited", "edited-and-rehashed", "deleted", "reordered", "ids-swapped", "tail-deleted"],
)
def test_verify_log_reports_the_first_broken_link(
    log_db: tuple[str, Database],
    capsys: pytest.CaptureFixture[str],
    tamper,  # type: ignore[no-untyped-def]
    entry: int,
    problem: str,
) -> None:
    url, db = log_db
    _unguarded(db)
    with db.write() as conn:
        tamper(conn, db)
    with db.read() as conn:
        found = verify(conn)
    assert not found.intact
    assert (found.seq, found.problem) == (entry, problem), found
    code, output = verify_log(url, capsys)
    assert code == 1, output
    assert f"broken at entry {entry} ({problem})" in output, output


def test_concurrent_writers_form_one_chain(database_url: str) -> None:
    """Writers in many threads (and, on PostgreSQL, many connections) only insert; the
    sequencer, running all along, seals them into one chain."""
    db = Database(database_url)
    db.migrate()
    sequencer = _sequencer(db)
    sequencer.start()
    errors: list[BaseException] = []

    def writer(n: int) -> None:
        try:
            for batch in range(20):
                with db.write() as conn:
                    append_events(conn, _entries(5, n * 1_000 + batch * 5))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    try:
        sequencer.stop()  # after a last round
        assert not errors, errors
        with db.read() as conn:
            found = verify(conn)
            seqs = conn.execute(select(events.c.seq).order_by(events.c.seq)).scalars().all()
        assert found.intact and found.checked == 8 * 20 * 5, found
        assert seqs == list(range(1, 8 * 20 * 5 + 1))
    finally:
        db.dispose()


@pytest.mark.empty_database
def test_migration_chains_the_entries_written_before_it(database_url: str) -> None:
    db = Database(database_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    try:
        with db.engine.connect() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "0001")
            conn.commit()
            for i in range(2_500):
                conn.execute(
                    text(
                        "INSERT INTO events (at, kind, actor, item_id, queue_id, data) "
                        "VALUES (:at, 'decided', 'rita', :item, 'spam', '{}')"
                    ),
                    {"at": 1_700_000_000.0 + i, "item": f"item-{i}"},
                )
            conn.commit()
        db.migrate()
        with db.write() as conn:  # appends continue the chain
            append_events(conn, _entries(10))
        assert _sequencer(db).seal_now() == 10
        with db.read() as conn:
            found = verify(conn)
        assert found.intact and found.checked == 2_510, found
    finally:
        db.dispose()


@pytest.mark.empty_database
def test_a_log_written_by_the_locking_chain_upgrades_and_goes_on(database_url: str) -> None:
    """Up to schema 0008 every append gave its entries their ids itself (the head's last id
    + 1), so on PostgreSQL the id sequence never moved: after the upgrade, appends that take
    ids from it must not collide with the entries already there."""
    db = Database(database_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    try:
        with db.engine.connect() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "0008")
            conn.commit()
            prev = GENESIS
            for i, row in enumerate(_entries(50), start=1):  # as eventlog.append did then
                chained = {**row, "id": i, "prev_hash": prev}
                prev = chained["hash"] = entry_hash(chained, prev)
                conn.execute(events.insert().values(**chained))
            conn.execute(text("UPDATE event_chain SET last_id = 50, last_hash = :h"), {"h": prev})
            conn.commit()
        db.migrate()
        with db.write() as conn:
            append_events(conn, _entries(10, 50))
        assert _sequencer(db).seal_now() == 10
        with db.read() as conn:
            found = verify(conn)
            ids = conn.execute(select(events.c.id).order_by(events.c.seq)).scalars().all()
        assert found.intact and found.checked == 60, found
        assert ids == list(range(1, 61))
    finally:
        db.dispose()


def test_appending_only_inserts(tmp_path: Path) -> None:
    """An append costs the same in a long log as in a short one, and touches no shared row:
    it inserts its entries and reads nothing (the sequencer chains them later)."""
    db = Database(f"sqlite:///{tmp_path / 'log.db'}")
    db.migrate()
    statements: list[str] = []
    try:
        _fill(db, 3_000)
        from sqlalchemy import event

        @event.listens_for(db.engine, "before_cursor_execute")
        def _seen(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
            statements.append(statement)

        with db.write() as conn:
            append_events(conn, _entries(3))
        verbs = [s.lstrip().split(None, 1)[0].upper() for s in statements]
        assert [v for v in verbs if v not in ("BEGIN", "COMMIT")] == ["INSERT"], statements
        assert "INTO events" in statements[verbs.index("INSERT")], statements
    finally:
        db.dispose()
