"""A clean exit when the reviewer quits keeps a "work offline" batch (Ctrl+O) leased on the
service and cached here, for a start with no network; the prefetch of ordinary work is
still given back. A logout (and a store kept in memory only) gives back everything.
Against the real service over HTTP and a real store file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import select

from reviewer_app.core import events as ev
from reviewer_app.core.store import Store
from reviewer_app.core.sync import SyncEngine
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.storage.tables import items
from tests.support.client import EventLog, engine_for, fast_settings, login
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
BATCH = 10


def _leased_on_service(server: LiveServer) -> set[str]:
    with server.service.db.read() as conn:
        rows = conn.execute(select(items.c.id).where(items.c.state == "leased")).all()
    return {r.id for r in rows}


def _batch_then_prefetch(server: LiveServer, tmp_path: Path) -> tuple[SyncEngine, set[str]]:
    """Ctrl+O (a batch leased for an hour), then work online: the queue on screen is topped
    up with ordinary leases (ten minutes). Returns the engine and the batch's items."""
    client = login(server, "olga")
    path = tmp_path / "olga.sqlite3"
    fast_settings(
        path,
        prefetch_target=30,
        lease_seconds=600,
        offline_lease_seconds=3_600,
        offline_batch_size=BATCH,
    )
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log)
    engine.open()
    assert engine.store is not None
    engine.work_offline(QUEUE)
    engine.run_once()
    finished = [p for p in log.of(ev.Progress) if p.finished]
    assert finished and finished[-1].done == BATCH
    batch = {r.item_id for r in engine.store.worklist(QUEUE)}
    assert len(batch) == BATCH
    engine.set_active_queues([QUEUE])
    engine.run_once()
    held = {r.item_id for r in engine.store.worklist(QUEUE)}
    assert len(held) == 30 and batch < held, "the prefetch came on top of the batch"
    assert _leased_on_service(server) == held
    return engine, batch


def test_quitting_keeps_the_offline_batch_and_gives_back_the_prefetch(
    server: LiveServer, tmp_path: Path
) -> None:
    engine, batch = _batch_then_prefetch(server, tmp_path)
    try:
        engine.keep_offline_batch()  # the window closes: the reviewer quits
        engine.shutdown_pass()
    finally:
        engine.close()
    assert _leased_on_service(server) == batch, "the batch stays leased, the prefetch went back"
    # the next start with no network finds the batch here, ready to decide
    with Store(tmp_path / "olga.sqlite3") as store:
        assert {r.item_id for r in store.worklist(QUEUE)} == batch
        assert store.next_item(QUEUE) is not None


def test_a_logout_gives_back_the_offline_batch_too(server: LiveServer, tmp_path: Path) -> None:
    engine, _batch = _batch_then_prefetch(server, tmp_path)
    try:
        engine.shutdown_pass()  # a logout's clean exit: its cache is wiped next
    finally:
        engine.close()
    assert _leased_on_service(server) == set()
    with Store(tmp_path / "olga.sqlite3") as store:
        assert store.worklist(QUEUE) == []


@pytest.mark.parametrize("quits", [True, False], ids=["quit", "logout"])
def test_a_store_in_memory_keeps_nothing_so_gives_back_everything(
    server: LiveServer, quits: bool
) -> None:
    client = login(server, "mona")
    name = f"olga-memory-{quits}"
    with Store(name, in_memory=True) as settings_side:  # the memory store lives while open
        for setting, value in {
            "undo_window_seconds": 0.0,
            "prefetch_target": 5,
            "offline_batch_size": BATCH,
        }.items():
            settings_side.settings.set(setting, value)
        engine = SyncEngine(
            server.url, name, token=client.token, listener=EventLog(), store_in_memory=True
        )
        engine.open()
        try:
            engine.work_offline(QUEUE)
            engine.run_once()
            assert len(_leased_on_service(server)) == BATCH
            if quits:
                engine.keep_offline_batch()
            engine.shutdown_pass()
        finally:
            engine.close()
    assert _leased_on_service(server) == set()


def test_the_clean_exit_claims_nothing_on_its_way_out(server: LiveServer, tmp_path: Path) -> None:
    """Quitting with verdicts in their undo window sends them: it claims no new posts
    between the batches (it would give them straight back, within the stop's budget)."""
    client = login(server, "olaf")
    path = tmp_path / "olaf.sqlite3"
    fast_settings(path, prefetch_target=10, undo_window_seconds=5.0, verdict_batch_size=2)
    engine = engine_for(server.url, path, client.token, EventLog())
    engine.open()
    store, api = engine.store, engine.api
    assert store is not None and api is not None
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        for _ in range(6):  # more than half the prefetch decided: a pass would claim
            shown = store.next_item(QUEUE)
            assert shown is not None
            store.record_verdict(shown.item.id, action="keep", time_spent_ms=1)
        claims: list[object] = []
        claim = api.claim

        def counted(*args: object, **kwargs: object) -> object:
            claims.append(args)
            return claim(*args, **kwargs)  # type: ignore[arg-type]

        api.claim = counted  # type: ignore[method-assign]
        engine.keep_offline_batch()
        engine.shutdown_pass()
        assert claims == [], "the clean exit claimed posts"
        assert store.counts().pending == 0, "the six verdicts were sent"
    finally:
        engine.close()
    assert _leased_on_service(server) == set()


@pytest.mark.parametrize(
    ("cap", "lease", "leaves"),
    [(600, 600, False), (600, 600, True), (3_600, 3_600, False)],
    ids=["service-caps-at-the-prefetch-lease-quit", "the-same-queue-left", "hour-prefetch-quit"],
)
def test_the_batch_is_kept_when_its_leases_are_as_long_as_the_prefetchs(
    tmp_path: Path, cap: int, lease: int, leaves: bool
) -> None:
    """A service that caps leases at ten minutes (or a prefetch leased for an hour) gives
    the batch leases as long as the prefetch's: the batch, and what was leased ahead in its
    queue, is still kept on a quit and when the reviewer leaves the queue (it was given
    back: it had been told apart by a longer lease)."""
    server = LiveServer(f"sqlite:///{tmp_path / 'capped.db'}", max_lease_seconds=cap).start()
    try:
        seed_load_queue(server.service, 60)
        client = login(server, "olga")
        path = tmp_path / "olga.sqlite3"
        fast_settings(
            path,
            prefetch_target=5,
            lease_seconds=lease,
            offline_lease_seconds=3_600,
            offline_batch_size=BATCH,
        )
        engine = engine_for(server.url, path, client.token, EventLog())
        engine.open()
        store = engine.store
        assert store is not None
        try:
            engine.set_active_queues([QUEUE])
            engine.run_once()  # five leased ahead
            engine.work_offline(QUEUE)
            engine.run_once()
            held = {r.item_id for r in store.worklist(QUEUE)}
            assert len(held) == 5 + BATCH
            if leaves:
                engine.set_active_queues([])  # another page, another queue
                engine.run_once()
                assert {r.item_id for r in store.worklist(QUEUE)} == held
            else:
                engine.keep_offline_batch()
                engine.shutdown_pass()
        finally:
            engine.close()
        assert _leased_on_service(server) == held
        if not leaves:
            with Store(path) as kept:
                assert {r.item_id for r in kept.worklist(QUEUE)} == held
    finally:
        server.stop()


def test_a_batch_kept_by_a_store_of_schema_11_is_still_the_batch(
    server: LiveServer, tmp_path: Path
) -> None:
    """A store from before the batch's mark (schema 11) holds a batch kept at a quit: its
    items, leased for longer than the default prefetch lease, are the batch after the
    upgrade, and the next quit keeps them."""
    engine, batch = _batch_then_prefetch(server, tmp_path)
    try:
        engine.keep_offline_batch()
        engine.shutdown_pass()
    finally:
        engine.close()
    path = tmp_path / "olga.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("ALTER TABLE items DROP COLUMN offline")
    conn.execute("PRAGMA user_version=11")
    conn.close()
    with Store(path) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == 12
        assert {item_id for item_id, _ in store.ready_leases()} == batch
        assert store.ready_leases(keep_offline=True) == []
