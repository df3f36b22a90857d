"""SQLite writers: urgent turns (claims) first, the WAL checkpointed off the request path,
and the per-reviewer lease count reading that reviewer's rows only."""

from __future__ import annotations

import fcntl
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from reviewer_app.server.domain.leasing import _EXPIRED, _HELD
from reviewer_app.server.storage.db import Database

WAIT = 10.0  # seconds a step may take before the test gives up (never a speed check)


def until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting: {what}")
        time.sleep(0.005)


@pytest.fixture
def db_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "turns.db"
    db = Database(f"sqlite:///{path}")
    with db.write() as conn:
        conn.execute(text("CREATE TABLE log (who TEXT, payload BLOB)"))
    db.dispose()
    yield path


def writer(db: Database, who: str, order: list[str], *, urgent: bool = False) -> threading.Thread:
    def run() -> None:
        with db.write(urgent=urgent) as conn:
            order.append(who)
            conn.execute(text("INSERT INTO log (who) VALUES (:w)"), {"w": who})

    thread = threading.Thread(target=run, name=who)
    thread.start()
    return thread


def test_an_urgent_writer_of_the_process_goes_before_those_queued_earlier(db_file: Path) -> None:
    db = Database(f"sqlite:///{db_file}")
    order: list[str] = []
    release = threading.Event()
    holding = threading.Event()

    def hold() -> None:
        with db.write() as conn:
            conn.execute(text("INSERT INTO log (who) VALUES ('holder')"))
            holding.set()
            release.wait(WAIT)

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(WAIT)
    queued = [writer(db, f"batch-{i}", order) for i in range(3)]
    time.sleep(0.2)  # let them queue (order is checked, not time)
    claim = writer(db, "claim", order, urgent=True)
    time.sleep(0.2)
    release.set()
    for thread in (holder, *queued, claim):
        thread.join(WAIT)
    assert order[0] == "claim", order
    assert sorted(order[1:]) == ["batch-0", "batch-1", "batch-2"]
    with db.read() as conn:
        assert conn.execute(text("SELECT count(*) FROM log")).scalar_one() == 5
    db.dispose()


def urgent_lock_is_held(path: Path) -> bool:
    with open(path.with_name(path.name + ".urgent-lock"), "ab") as probe:
        try:
            fcntl.flock(probe, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(probe, fcntl.LOCK_UN)
        return False


def hold_the_writer(db: Database) -> tuple[threading.Thread, threading.Event]:
    """A thread that holds ``db``'s writer turn (and so SQLite's writer lock) until the
    returned event is set."""
    release = threading.Event()
    holding = threading.Event()

    def hold() -> None:
        with db.write():
            holding.set()
            release.wait(WAIT)

    holder = threading.Thread(target=hold)
    holder.start()
    assert holding.wait(WAIT)
    return holder, release


def test_an_ordinary_writer_of_another_process_hands_its_turn_to_a_waiting_urgent_one(
    db_file: Path,
) -> None:
    # Each Database has its own open file descriptions, so for flock three of them in one
    # process are three processes.
    first, second, third = (Database(f"sqlite:///{db_file}") for _ in range(3))
    order: list[str] = []
    holder, release = hold_the_writer(first)
    batches = [writer(third, f"batch-{i}", order) for i in range(3)]
    time.sleep(0.2)  # the batches wait at the writer lock first
    claim = writer(second, "claim", order, urgent=True)
    until(lambda: urgent_lock_is_held(db_file), "the urgent writer waiting")
    release.set()
    for thread in (holder, claim, *batches):
        thread.join(WAIT)
        assert not thread.is_alive()
    assert order[0] == "claim", order
    assert len(order) == 4  # nobody starved
    assert not urgent_lock_is_held(db_file)
    for db in (first, second, third):
        db.dispose()


def test_a_batch_waiting_at_the_writer_lock_lets_an_urgent_writer_of_its_process_go_first(
    db_file: Path,
) -> None:
    """A batch of this process already waits for another process's writer (it holds the
    process's turn meanwhile); a claim of this process that comes later still goes first."""
    other, this = (Database(f"sqlite:///{db_file}") for _ in range(2))
    order: list[str] = []
    holder, release = hold_the_writer(other)
    batch = writer(this, "batch", order)
    turns = this._writers
    assert turns is not None
    until(lambda: turns._held, "the batch has the process's turn (waiting at the writer lock)")
    claim = writer(this, "claim", order, urgent=True)
    until(lambda: urgent_lock_is_held(db_file), "the urgent writer announced")
    release.set()
    for thread in (holder, claim, batch):
        thread.join(WAIT)
        assert not thread.is_alive()
    assert order == ["claim", "batch"]
    assert not urgent_lock_is_held(db_file)
    for db in (other, this):
        db.dispose()


def test_a_process_keeps_its_urgent_lock_until_its_last_waiting_urgent_writer_has_its_turn(
    db_file: Path,
) -> None:
    """Two claims of one process wait; a batch of another process waits too. When the
    first claim has the writer lock the second still waits, so the process must keep
    telling the others: the batch goes last."""
    other, this, third = (Database(f"sqlite:///{db_file}") for _ in range(3))
    order: list[str] = []
    holder, release = hold_the_writer(other)
    batch = writer(third, "batch", order)
    claims = [writer(this, f"claim-{i}", order, urgent=True) for i in range(2)]
    turns = this._writers
    assert turns is not None
    until(lambda: turns._urgent_waiting == 2, "both claims announced")
    release.set()
    for thread in (holder, *claims, batch):
        thread.join(WAIT)
        assert not thread.is_alive()
    assert order[-1] == "batch", order
    assert turns._urgent_waiting == 0
    assert not urgent_lock_is_held(db_file)
    for db in (other, this, third):
        db.dispose()


def test_a_failing_transaction_gives_its_turn_back(db_file: Path) -> None:
    db = Database(f"sqlite:///{db_file}")
    with pytest.raises(RuntimeError), db.write(urgent=True):
        raise RuntimeError("boom")
    with pytest.raises(RuntimeError), db.write():
        raise RuntimeError("boom")
    order: list[str] = []
    writer(db, "after", order).join(WAIT)
    writer(db, "after-urgent", order, urgent=True).join(WAIT)
    assert order == ["after", "after-urgent"]
    db.dispose()


def test_the_wal_is_checkpointed_by_the_service_not_by_a_request(db_file: Path) -> None:
    db = Database(f"sqlite:///{db_file}")
    db.start_checkpointer()
    with db.write() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 16_000
    db_bytes = db_file.stat().st_size
    with db.write() as conn:  # ~2,000 pages: past SQLite's own 1,000-page checkpoint
        conn.execute(
            text("INSERT INTO log (who, payload) VALUES ('bulk', :p)"),
            [{"p": bytes(4_000)} for _ in range(2_000)],
        )
    # Copied into the database file by the checkpointer thread (writers would only
    # checkpoint past 16,000 pages).
    until(lambda: db_file.stat().st_size > db_bytes + 7_000_000, "the background checkpoint")
    db.dispose()
    assert not any(t.name == "sqlite-checkpointer" for t in threading.enumerate())


def test_without_the_checkpointer_sqlite_keeps_its_own_threshold(db_file: Path) -> None:
    db = Database(f"sqlite:///{db_file}")
    with db.write() as conn:
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1_000
    db.dispose()


@pytest.mark.parametrize(
    ("statement", "parameters", "index"),
    [
        (_HELD, {"b_user": 1, "b_now": 0.0}, "ix_items_lease_user"),
        (_EXPIRED[False], {"b_queue": "q", "b_now": 0.0}, "ix_items_lease_expiry"),
    ],
    ids=["count a reviewer's leases", "find expired leases"],
)
def test_lease_queries_read_the_partial_lease_indexes(
    tmp_path: Path, statement: Any, parameters: dict[str, Any], index: str
) -> None:
    """The lease indexes hold leased rows only (their column IS NOT NULL): the queries must
    still be ones SQLite can prove those rows answer, else a claim reads the whole table."""
    db = Database(f"sqlite:///{tmp_path / 'plan.db'}")
    db.migrate()
    with db.read() as conn:
        compiled = statement.compile(conn)
        plan = conn.exec_driver_sql(
            "EXPLAIN QUERY PLAN " + str(compiled),
            tuple(compiled.construct_params(parameters).values()),
        ).all()
    details = " ".join(row[-1] for row in plan)
    assert index in details, details
    db.dispose()
