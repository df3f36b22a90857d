"""Work offline (Ctrl+O) is always answered, against the real service through a proxy that
fails on cue: asked while the service cannot be reached, the window is told at once that
no batch was leased, and nothing is leased later on its own (the reviewer may be working
elsewhere by then); a batch leased whose renewal then fails is told as ready."""

from __future__ import annotations

from pathlib import Path

from reviewer_app.core import events as ev
from reviewer_app.core.errors import FailureKind
from reviewer_app.core.store import Store
from reviewer_app.core.sync import SyncEngine
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.support.client import EventLog, engine_for, fast_settings, login
from tests.support.proxy import FaultProxy, Rule, http_response
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id


def _finished(log: EventLog) -> list[ev.Progress]:
    return [p for p in log.of(ev.Progress) if p.finished]


def _engine(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path, name: str, **settings: object
) -> tuple[SyncEngine, Store, EventLog]:
    """An engine through the proxy that has worked the load-test queue once."""
    client = login(server, name)
    path = tmp_path / f"{name}.sqlite3"
    fast_settings(path, prefetch_target=5, offline_batch_size=10, **settings)
    log = EventLog()
    engine = engine_for(proxy.url, path, client.token, log)
    engine.open()
    assert engine.store is not None
    engine.set_active_queues([QUEUE])
    engine.run_once()
    return engine, engine.store, log


def test_work_offline_asked_with_the_service_out_of_reach_is_answered_and_dropped(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path
) -> None:
    engine, store, log = _engine(server, proxy, tmp_path, "olga", undo_window_seconds=0.0)
    try:
        proxy.offline()  # the network goes; a verdict waits to be sent
        shown = store.next_item(QUEUE)
        assert shown is not None
        store.record_verdict(shown.item.id, action="keep", time_spent_ms=1)
        engine.work_offline(QUEUE)  # Ctrl+O: the pass fails before it reaches the batch
        engine.run_once()
        [told] = _finished(log)
        assert (told.done, told.kind) == (0, FailureKind.network)
        assert engine.online is False

        engine.work_offline(QUEUE)  # asked again while the engine waits to retry
        engine.run_once()
        assert len(_finished(log)) == 2 and _finished(log)[-1].kind is FailureKind.network

        engine.set_active_queues([])  # the reviewer moves on; the network comes back
        proxy.online()
        engine.retry_at = 0.0
        engine.run_once()
        assert engine.online is True
        assert len(_finished(log)) == 2, "a batch asked for while offline was leased later"
        assert store.ready_counts() == {}
    finally:
        engine.close()


def test_a_batch_leased_whose_renewal_fails_is_told_ready(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path
) -> None:
    # five leased ahead: the batch lengthens them with a renewal
    engine, store, log = _engine(server, proxy, tmp_path, "otto", lease_seconds=600)
    try:
        busy = http_response(503, b"", {"Retry-After": "1"})
        proxy.add(Rule("POST", "/api/v1/leases/renew", "respond", payload=busy, times=5))
        engine.work_offline(QUEUE)
        engine.run_once()
        [told] = _finished(log)
        assert (told.done, told.total, told.error) == (10, 10, None), told
        assert store.ready_counts() == {QUEUE: 15}
    finally:
        engine.close()
