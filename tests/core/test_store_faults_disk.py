"""A full disk under the store: a verdict that cannot be saved is a ``StoreError`` in words
(the UI says it, the post stays), never a raw SQLite error from a rollback SQLite already
made; the transaction is not left open, the store works again once there is room, and the
sync engine's pass says the fault and carries on. Real faults: SQLite's own size limit on
the connection (``max_page_count``: SQLITE_FULL in a statement) and a file size limit on a
process (``RLIMIT_FSIZE``: the WAL cannot grow at COMMIT); the real service over HTTP."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reviewer_app.core import events as ev
from reviewer_app.core.errors import FailureKind, StoreError
from reviewer_app.core.store import Store
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.support.client import EventLog, engine_for, fast_settings, login
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
ROOT = Path(__file__).resolve().parents[2]
NOTE = "n" * 2_000  # the longest note a verdict may carry: each one needs room


def _leased_store(server: LiveServer, tmp_path: Path, count: int = 20) -> Path:
    """A store holding ``count`` items leased from the service, as the sync engine keeps them."""
    client = login(server, "dora")
    path = tmp_path / "dora.sqlite3"
    fast_settings(path, prefetch_target=count, undo_window_seconds=120.0)
    engine = engine_for(server.url, path, client.token, EventLog())
    engine.open()
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        assert engine.store is not None and len(engine.store.worklist(QUEUE)) == count
    finally:
        engine.close()
    return path


def _fill_up(store: Store) -> None:
    """The disk is full from now on: no page more than the file has."""
    pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
    store.conn.execute(f"PRAGMA max_page_count={pages}")


def _room_again(store: Store) -> None:
    store.conn.execute("PRAGMA max_page_count=1073741823")


def test_a_verdict_on_a_full_disk_is_a_store_error_and_is_saved_once_there_is_room(
    server: LiveServer, tmp_path: Path
) -> None:
    path = _leased_store(server, tmp_path)
    with Store(path) as store:
        _fill_up(store)
        refused: StoreError | None = None
        decided: list[str] = []
        for row in store.worklist(QUEUE):  # verdicts fill the last free room, then one fails
            try:
                store.record_verdict(row.item_id, action="keep", note=NOTE)
            except StoreError as err:
                refused = err
                failed = row.item_id
                break
            decided.append(row.item_id)
        assert refused is not None, "the disk never filled"
        assert "disk is full" in str(refused), str(refused)
        assert "cannot rollback" not in str(refused)
        assert not store.conn.in_transaction
        # nothing of the refused verdict was kept: the post is still there to decide
        assert {e.item_id for e in store.journal(limit=100)} == set(decided)
        assert failed in {r.item_id for r in store.worklist(QUEUE)}
        assert store.counts().pending == len(decided)
        _room_again(store)
        store.record_verdict(failed, action="keep", note=NOTE)
        assert store.counts().pending == len(decided) + 1


_COMMIT_ON_A_FULL_DISK = """
import resource, signal, sys
from reviewer_app.core.errors import StoreError
from reviewer_app.core.store import Store

store = Store(sys.argv[1])
item = store.worklist()[0].item_id
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG)
soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
resource.setrlimit(resource.RLIMIT_FSIZE, (1, hard))  # no file of this process may grow
try:
    store.record_verdict(item, action="keep", note="n" * 2000)
except StoreError as err:
    print("StoreError:", err)
    print("in transaction:", store.conn.in_transaction)
else:
    print("saved on a full disk?")
resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))  # room again
store.record_verdict(item, action="keep")
print("saved after:", store.counts().pending)
"""


def test_a_commit_that_fails_on_a_full_disk_is_a_store_error_not_a_failed_rollback(
    server: LiveServer, tmp_path: Path
) -> None:
    path = _leased_store(server, tmp_path, count=3)
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(_COMMIT_ON_A_FULL_DISK), str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "StoreError: The local store could not save:" in out.stdout, out.stdout
    assert "may be full" in out.stdout and "cannot rollback" not in out.stdout + out.stderr
    assert "in transaction: False" in out.stdout
    assert "saved after: 1" in out.stdout


@pytest.mark.parametrize("when", ["claim", "queues"])
def test_the_sync_pass_says_a_full_disk_and_syncs_once_there_is_room(
    server: LiveServer, tmp_path: Path, when: str
) -> None:
    client = login(server, "edda")
    path = tmp_path / "edda.sqlite3"
    fast_settings(path, prefetch_target=20)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log)
    engine.open()
    store = engine.store
    assert store is not None
    try:
        if when == "claim":  # the queues are kept first: the claim meets the full disk
            engine.run_once()
            assert store.queues()
        engine.set_active_queues([QUEUE])
        _fill_up(store)
        engine.run_once()  # the pass does not raise: the fault is said, tried again later
        assert store.worklist(QUEUE) == []
        said = log.last(ev.OnlineChanged)
        assert said is not None and said.online is False
        assert FailureKind(said.kind) is FailureKind.store
        problems = [p for p in log.of(ev.Problem) if "disk is full" in p.message]
        assert problems, log.of(ev.Problem)
        assert not store.conn.in_transaction
        _room_again(store)
        engine.retry_at = 0.0
        engine.run_once()
        assert len(store.worklist(QUEUE)) == 20
        assert log.last(ev.OnlineChanged).online is True
    finally:
        engine.close()
