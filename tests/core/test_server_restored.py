"""The service's data restored from a backup, or reset, while a reviewer holds posts: the
leases this computer holds are ones the service no longer knows. The first sign of it (a
login after the reset asks for a new one; a verdict refused as ``unknown_lease``) has the
engine ask about every lease held at once, so the posts leased with the same loss leave
the worklist before the reviewer decides them in vain, and the queue's posts come again
under leases the service knows. Against a real reference service on SQLite."""

from __future__ import annotations

import shutil
import sqlite3
import time
from collections import Counter
from pathlib import Path

from reviewer_app.core import events as ev
from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.client import EventLog, engine_for, fast_settings, login
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id


def started(db: Path, port: int | None = None, *, seed: bool = True) -> LiveServer:
    server = LiveServer(f"sqlite:///{db}", port=port).start()
    if seed:
        seed_load_queue(server.service, 100)
        server.add_user("lead", Role.lead)
    return server


def outcomes(store) -> Counter:  # type: ignore[no-untyped-def]
    return Counter(
        (e.status, e.result.reason.code if e.result and e.result.reason else None)
        for e in store.journal(limit=100)
    )


def test_a_restored_service_costs_one_verdict_not_every_post_held(tmp_path: Path) -> None:
    db, backup = tmp_path / "service.db", tmp_path / "backup.db"
    server = started(db)
    client = login(server, "alice")
    with sqlite3.connect(db) as source, sqlite3.connect(backup) as copy:
        source.backup(copy)  # before this computer claimed anything
    path = tmp_path / "alice.sqlite3"
    fast_settings(path, prefetch_target=10)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log)
    engine.open()
    engine.set_active_queues([QUEUE])
    engine.run_once()
    store = engine.store
    assert store is not None and store.counts().ready.get(QUEUE) == 10
    try:
        port = server.port
        server.stop()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        shutil.copy(backup, db)
        server = started(db, port, seed=False)  # the token was issued before the backup
        first = store.next_item(QUEUE)
        assert first is not None
        store.record_verdict(first.item.id, action="keep", undo_window=0)
        engine.run_once()
        assert outcomes(store)[("rejected", "unknown_lease")] == 1
        lost = {i for e in log.of(ev.LeasesLost) for i in e.item_ids}
        assert len(lost) == 9, "the other posts held left the worklist at once"
        engine.run_once()
        decided = 0
        while (shown := store.next_item(QUEUE)) is not None and decided < 5:
            store.record_verdict(shown.item.id, action="keep", undo_window=0)
            decided += 1
        assert decided == 5
        for _ in range(3):
            engine.run_once()
            time.sleep(0.05)
        assert outcomes(store)[("accepted", None)] == 5, outcomes(store)
    finally:
        engine.close()
        server.stop()


def test_a_login_after_a_reset_asks_about_every_lease_held(tmp_path: Path) -> None:
    db = tmp_path / "service.db"
    server = started(db)
    client = login(server, "alice")
    path = tmp_path / "alice.sqlite3"
    fast_settings(path, prefetch_target=10)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log)
    engine.open()
    engine.set_active_queues([QUEUE])
    engine.run_once()
    store = engine.store
    assert store is not None
    try:
        port = server.port
        server.stop()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        server = started(db, port)  # a new, empty service where the old one was
        server.add_user("alice")
        deadline = time.monotonic() + 20
        while not engine.paused:  # its token is unknown there: log in again
            assert time.monotonic() < deadline
            time.sleep(min(engine.run_once(), 0.5))
        engine.set_token(login(server.url, "alice").token)
        engine.run_once()
        assert len({i for e in log.of(ev.LeasesLost) for i in e.item_ids}) == 10
        decided = 0
        while (shown := store.next_item(QUEUE)) is not None:
            store.record_verdict(shown.item.id, action="keep", undo_window=0)
            decided += 1
        assert decided == 10
        engine.run_once()
        engine.run_once()
        assert outcomes(store) == Counter({("accepted", None): 10})
    finally:
        engine.close()
        server.stop()
