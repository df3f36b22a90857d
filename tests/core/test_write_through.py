"""The verdict's commit does not wait for the disk (``synchronous=NORMAL``): the sync
thread, woken by the verdict, fsyncs the store's WAL (``Store.write_through``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewer_app.core.store import Store
from reviewer_app.server.feeds.seed import seed_load_queue
from tests.core.test_sync import QUEUE
from tests.support.client import EventLog, engine_for, fast_settings, login, wait_until
from tests.support.servers import LiveServer


def test_the_commit_is_normal_and_write_through_syncs_the_wal(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    with Store(path) as store:
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
        store.conn.execute("CREATE TABLE IF NOT EXISTS probe (x)")
        store.conn.execute("INSERT INTO probe VALUES (1)")
        assert Path(f"{path}-wal").stat().st_size > 0
        store.write_through()  # an fsync of the WAL; no error
    with Store(path, in_memory=True) as memory:
        memory.write_through()  # nothing on disk: nothing to do


def test_the_sync_thread_writes_a_verdict_through_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    wal_syncs: list[float] = []
    real_fsync = os.fsync

    def watching_fsync(fd: int) -> None:  # the real fsync, noted when it is the WAL's
        if os.readlink(f"/proc/self/fd/{fd}").endswith(".sqlite3-wal"):
            wal_syncs.append(os.times().elapsed)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", watching_fsync)
    server = LiveServer(f"sqlite:///{tmp_path / 'server.db'}").start()
    try:
        seed_load_queue(server.service, 20)
        client = login(server, "alice")
        path = tmp_path / "alice.sqlite3"
        fast_settings(path)
        engine = engine_for(server.url, path, client.token, EventLog())
        engine.set_active_queues([QUEUE])
        engine.start()
        try:
            with Store(path) as store:
                wait_until(lambda: store.next_item(QUEUE) is not None, 30)
                stored = store.next_item(QUEUE)
                assert stored is not None
                before = len(wal_syncs)
                store.record_verdict(stored.item.id, action="keep", undo_window=60)
                engine.nudge()
                wait_until(lambda: len(wal_syncs) > before, 10)
        finally:
            engine.stop(release=False)
    finally:
        server.stop()
