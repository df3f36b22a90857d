"""The sync engine against the real service over HTTP: round trips, offline work, conflicts,
an expired login, and replies that cannot be trusted. Nothing lost, nothing sent twice."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer_app.core import events as ev
from reviewer_app.core.api import ApiClient
from reviewer_app.core.store import Store
from reviewer_app.core.sync import SyncEngine
from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.client import (
    EventLog,
    all_decisions,
    engine_for,
    fast_settings,
    login,
    wait_until,
)
from tests.support.clock import ManualClock
from tests.support.proxy import FaultProxy, Rule, http_response
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id


def decide_all(
    store: Store, count: int, engine: SyncEngine | None = None, **kw: object
) -> list[str]:
    """Decide ``count`` items as a reviewer would: the next local item, one verdict each."""
    decided: list[str] = []
    while len(decided) < count:
        stored = store.next_item(QUEUE, include_expired=True)
        if stored is None:
            wait_until(lambda: store.next_item(QUEUE, include_expired=True) is not None, 30)
            continue
        store.record_verdict(stored.item.id, action="keep", time_spent_ms=1_000, **kw)  # type: ignore[arg-type]
        decided.append(stored.item.id)
        if engine is not None:
            engine.nudge()
    return decided


def online(log: EventLog) -> bool | None:
    """The engine's last word on being online; None until it has said one (its first
    pass may not have finished when a test starts waiting)."""
    said = log.last(ev.OnlineChanged)
    return None if said is None else bool(said.online)


def assert_once_each(lead: ApiClient, reviewer: str, item_ids: list[str]) -> None:
    decisions = all_decisions(lead, reviewer)
    per_item = Counter(d.item_id for d in decisions)
    assert sorted(per_item) == sorted(item_ids)
    assert set(per_item.values()) == {1}


@pytest.fixture
def any_backend(database_url: str) -> Iterator[LiveServer]:
    """The service on SQLite and on PostgreSQL (when the tests have one)."""
    srv = LiveServer(database_url).start()
    seed_load_queue(srv.service, 400)
    srv.add_user("lead", Role.lead)
    try:
        yield srv
    finally:
        srv.stop()


def test_online_round_trip_decides_100_items_exactly_once(
    any_backend: LiveServer, tmp_path: Path
) -> None:
    server = any_backend
    client = login(server, "alice")
    path = tmp_path / "alice.sqlite3"
    fast_settings(path)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log)
    engine.set_active_queues([QUEUE])
    engine.start()
    try:
        with Store(path) as store:
            decided = decide_all(store, 100, engine)
            wait_until(lambda: store.counts().pending == 0, 30, "the outbox to drain")
            journal = store.journal(limit=1000)
            assert Counter(e.status for e in journal) == {"accepted": 100}
    finally:
        engine.stop()
    assert_once_each(login(server.url, "lead"), "alice", decided)
    assert log.last(ev.PendingChanged) == ev.PendingChanged(0, 0)
    assert log.of(ev.OnlineChanged)[0].online is True
    # a clean exit gave back the items leased ahead and not decided
    queue = next(q for q in client.queues().queues if q.id == QUEUE)
    assert queue.counts.leased == 0
    assert queue.counts.pending == 400 - 100


def test_offline_200_decisions_delivered_after_restart_none_twice(
    server: LiveServer, tmp_path: Path
) -> None:
    client = login(server, "bob")
    path = tmp_path / "bob.sqlite3"
    fast_settings(path)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log)
    engine.start()
    try:
        engine.work_offline(QUEUE, 200)
        log.wait(lambda: any(p.finished for p in log.of(ev.Progress)), 60, "the offline batch")
        progress = log.of(ev.Progress)
        assert progress[-1] == ev.Progress("offline", 200, 200, finished=True)
        assert [p.done for p in progress] == sorted(p.done for p in progress)

        server.stop()  # the service goes away
        with Store(path) as store:
            decided = decide_all(store, 200, engine)
            log.wait(lambda: online(log) is False, 30, "offline")
            wait_until(lambda: store.counts().in_flight > 0, 30)
            assert store.counts().pending == 200

            restarted = LiveServer(server.settings.database_url, port=server.port).start()
            try:
                engine.nudge()
                wait_until(lambda: store.counts().pending == 0, 60, "delivery after restart")
                # said after the pass that delivered them: a moment after the last was stored
                log.wait(lambda: online(log) is True, 30, "online again")
                statuses = Counter(e.status for e in store.journal(limit=1000))
                assert statuses == {"accepted": 200} or set(statuses) <= {
                    "accepted",
                    "duplicate",
                }
                assert sum(statuses.values()) == 200
                assert_once_each(login(restarted.url, "lead"), "bob", decided)
            finally:
                engine.stop()
                restarted.stop()
    finally:
        engine.stop()


def test_lease_expired_offline_and_rival_decided_is_a_visible_conflict(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    with_clock = LiveServer(f"sqlite:///{tmp_path / 'service.db'}", clock=clock).start()
    try:
        seed_load_queue(with_clock.service, 5)
        a = login(with_clock, "reviewer-a")
        b = login(with_clock, "reviewer-b")
        proxy = FaultProxy(with_clock.port).start()
        path = tmp_path / "a.sqlite3"
        fast_settings(path, prefetch_target=1, lease_seconds=60)
        log = EventLog()
        engine = engine_for(proxy.url, path, a.token, log)
        engine.open()
        try:
            engine.set_active_queues([QUEUE])
            engine.run_once()
            store = engine.store
            assert store is not None
            held = store.next_item(QUEUE)
            assert held is not None

            proxy.offline()  # A loses the network...
            engine.set_active_queues([])
            clock.advance(120)  # ...the lease expires on the server...
            grant = b.claim(QUEUE, 5, 300)  # ...and B gets the item and decides it
            rival = next(i for i in grant.items if i.item.id == held.item.id)
            from tests.support.api import ApiSession, verdict

            ApiSession(with_clock.url, b.token).decide(
                [verdict(json.loads(rival.model_dump_json()), "remove", policies=["SPAM.SCAM"])]
            )
            entry = store.record_verdict(held.item.id, action="keep")  # A decides, offline
            engine.run_once()
            assert log.last(ev.OnlineChanged).online is False

            proxy.online()
            engine.retry_at = 0
            engine.run_once()
            conflicts = store.conflicts()
            assert len(conflicts) == 1
            conflict = conflicts[0]
            assert conflict.key == entry.key and conflict.mine.action == "keep"
            assert conflict.theirs.reviewer == "reviewer-b"
            assert conflict.theirs.action == "remove"
            assert conflict.item is not None and conflict.item.id == held.item.id
            assert store.journal_entry(entry.key).status == "conflict"  # type: ignore[union-attr]
            assert store.counts().pending == 0 and store.counts().conflicts_open == 1
            assert log.last(ev.ConflictsChanged) == ev.ConflictsChanged(1)
            settled = [e for batch in log.of(ev.VerdictsSettled) for e in batch.entries]
            assert [e.status for e in settled] == ["conflict"]
            store.resolve_conflict(entry.key, "accepted")
            assert store.conflicts() == [] and len(store.conflicts(open_only=False)) == 1
        finally:
            engine.close()
            proxy.stop()
    finally:
        with_clock.stop()


def _engine_at(
    proxy: FaultProxy, path: Path, token: str | None, clock: ManualClock
) -> tuple[SyncEngine, EventLog]:
    log = EventLog()
    engine = engine_for(proxy.url, path, token, log, clock=clock)
    engine.open()
    return engine, log


def _prepared(server: LiveServer, proxy: FaultProxy, tmp_path: Path, name: str, count: int = 5):
    client = login(server, name)
    path = tmp_path / f"{name}.sqlite3"
    fast_settings(path, prefetch_target=count)
    clock = ManualClock()
    engine, log = _engine_at(proxy, path, client.token, clock)
    engine.set_active_queues([QUEUE])
    engine.run_once()
    engine.set_active_queues([])
    assert engine.store is not None
    keys = []
    for _ in range(count):
        stored = engine.store.next_item(QUEUE)
        assert stored is not None
        keys.append(engine.store.record_verdict(stored.item.id, action="keep").key)
    return client, engine, log, clock, keys


def test_401_mid_sync_pauses_and_keeps_everything_until_login(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path
) -> None:
    client, engine, log, _clock, _keys = _prepared(server, proxy, tmp_path, "carol")
    try:
        ApiClient(server.url, token=client.token).logout()  # the token is revoked elsewhere
        delay = engine.run_once()
        assert engine.paused and delay > 0
        assert isinstance(log.last(ev.AuthRequired), ev.AuthRequired)
        assert engine.store is not None and engine.store.counts().pending == 5
        engine.run_once()  # still paused: no request is made
        assert engine.store.counts().pending == 5

        fresh = login(server.url, "carol")
        engine.set_token(fresh.token)
        engine.run_once()
        assert engine.store.counts().pending == 0
        assert not engine.paused
        assert {e.status for e in engine.store.journal()} == {"accepted"}
    finally:
        engine.close()


def test_503_with_retry_after_is_honoured_then_back_to_normal(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path
) -> None:
    _client, engine, log, clock, _keys = _prepared(server, proxy, tmp_path, "dave")
    try:
        busy = http_response(
            503,
            b'{"title":"Busy","status":503,"code":"busy"}',
            {"Retry-After": "40", "Content-Type": "application/problem+json"},
        )
        proxy.add(Rule("POST", "/api/v1/verdicts", "respond", times=1, payload=busy))
        delay = engine.run_once()
        assert 40 <= delay <= 3600
        offline = log.last(ev.OnlineChanged)
        assert offline.online is False and offline.retry_in >= 40
        assert engine.store is not None and engine.store.counts().pending == 5
        clock.advance(10)
        engine.run_once()  # too early: nothing is sent
        assert proxy.count("POST", "/api/v1/verdicts") == 1
        clock.advance(31)
        engine.run_once()
        assert engine.store.counts().pending == 0
        assert log.last(ev.OnlineChanged).online is True and engine.failures == 0
    finally:
        engine.close()


def test_short_retry_after_is_retried_inside_the_client(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path
) -> None:
    _client, engine, _log, _clock, _keys = _prepared(server, proxy, tmp_path, "erin")
    try:
        busy = http_response(503, b"busy", {"Retry-After": "1"})
        proxy.add(Rule("POST", "/api/v1/verdicts", "respond", times=1, payload=busy))
        engine.run_once()
        assert engine.store is not None and engine.store.counts().pending == 0
        assert proxy.count("POST", "/api/v1/verdicts") == 2
    finally:
        engine.close()


@pytest.mark.parametrize("fault", ["truncate", "reset_after", "schema", "not_json"])
def test_untrustworthy_reply_after_commit_is_never_applied_twice(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path, fault: str
) -> None:
    client, engine, log, clock, _keys = _prepared(server, proxy, tmp_path, f"frank-{fault}")
    try:
        if fault == "schema":
            # valid JSON, wrong shape: statuses the contract does not have
            def bad(body: bytes) -> bytes:
                doc = json.loads(body)
                for result in doc["results"]:
                    result["status"] = "maybe"
                return json.dumps(doc).encode()

            proxy.add(Rule("POST", "/api/v1/verdicts", "rewrite", times=1, rewrite=bad))
        elif fault == "not_json":
            proxy.add(Rule("POST", "/api/v1/verdicts", "rewrite", times=1, payload=b"{nope"))
        else:
            # the client retries a keyed batch itself; make every try of this pass fail
            proxy.add(Rule("POST", "/api/v1/verdicts", fault, times=3))
        engine.run_once()
        proxy.clear()
        assert engine.store is not None
        assert engine.store.counts().pending == 5, "nothing is taken as delivered"
        offline = log.last(ev.OnlineChanged)
        assert offline.online is False
        assert any(w in offline.reason for w in ("cut off", "contract", "not JSON", "failed"))
        # the server did commit the first batch
        assert len(all_decisions(login(server.url, "lead"), client_name(client))) == 5

        clock.advance(offline.retry_in + 1)
        engine.run_once()
        assert engine.store.counts().pending == 0
        statuses = Counter(e.status for e in engine.store.journal())
        assert statuses == {"duplicate": 5}
        decisions = all_decisions(login(server.url, "lead"), client_name(client))
        assert sorted(d.item_id for d in decisions) == sorted(
            e.item_id for e in engine.store.journal()
        )
    finally:
        engine.close()


def client_name(client: ApiClient) -> str:
    return client.me().username


def test_a_verdict_the_server_refuses_is_kept_with_its_reason(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path
) -> None:
    client = login(server, "gina")
    path = tmp_path / "gina.sqlite3"
    fast_settings(path, prefetch_target=3)
    clock = ManualClock()
    engine, _log = _engine_at(proxy, path, client.token, clock)
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        store = engine.store
        assert store is not None
        first = store.next_item(QUEUE)
        assert first is not None
        ok1 = store.record_verdict(first.item.id, action="keep")
        second = store.next_item(QUEUE)
        assert second is not None
        # "remove" needs a policy code in this queue: the server refuses this verdict
        bad = store.record_verdict(second.item.id, action="remove")
        third = store.next_item(QUEUE)
        assert third is not None
        ok2 = store.record_verdict(third.item.id, action="remove", policies=["SPAM.SCAM"])
        engine.set_active_queues([])
        engine.run_once()
        assert store.counts().pending == 0
        assert store.journal_entry(ok1.key).status == "accepted"  # type: ignore[union-attr]
        assert store.journal_entry(ok2.key).status == "accepted"  # type: ignore[union-attr]
        refused = store.journal_entry(bad.key)
        assert refused is not None and refused.status == "rejected"
        assert refused.result is not None and refused.result.reason is not None
        assert refused.result.reason.code == "policy_required"
        assert store.counts().rejected == 1
    finally:
        engine.close()


@pytest.mark.parametrize("status", [400, 403, 404, 413])
def test_a_bare_4xx_from_something_in_between_keeps_the_verdicts(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path, status: int
) -> None:
    """A proxy, gateway or firewall answering a 4xx with an HTML page has not refused the
    verdicts: the service answers every refusal with a problem document. They stay in the
    outbox and go when it lets them through (they were settled as rejected, and lost)."""
    _client, engine, log, clock, keys = _prepared(server, proxy, tmp_path, f"hal-{status}")
    try:
        page = http_response(
            status, b"<html><body>nginx</body></html>", {"Content-Type": "text/html"}
        )
        proxy.add(Rule("POST", "/api/v1/verdicts", "respond", times=10, payload=page))
        delay = engine.run_once()
        assert delay > 0 and online(log) is False
        assert engine.store is not None and engine.store.counts().pending == 5
        assert engine.store.counts().rejected == 0
        proxy.clear()
        clock.advance(delay + 1)
        engine.run_once()
        assert engine.store.counts().pending == 0
        assert {engine.store.journal_entry(k).status for k in keys} == {"accepted"}  # type: ignore[union-attr]
    finally:
        engine.close()


def test_a_renewal_or_release_the_service_refuses_does_not_stop_syncing(
    server: LiveServer, proxy: FaultProxy, tmp_path: Path
) -> None:
    """The service's own refusal of a renewal or a release (a problem document, as after a
    role change) is not a reason to stop: the leases it will not renew are lost, the ones
    it will not take back are forgotten, and the pass goes on (it ended the sync thread)."""
    client = login(server, "ivy")
    path = tmp_path / "ivy.sqlite3"
    fast_settings(path, prefetch_target=3)
    clock = ManualClock()
    engine, log = _engine_at(proxy, path, client.token, clock)
    refusal = http_response(
        403,
        b'{"title":"Forbidden","status":403,"code":"lead_only_queue"}',
        {"Content-Type": "application/problem+json"},
    )
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        assert engine.store is not None and engine.store.counts().ready.get(QUEUE, 0) == 3
        proxy.add(Rule("POST", "/api/v1/leases/renew", "respond", times=1, payload=refusal))
        clock.advance(300)  # past a third of the leases' life: renewed at this pass
        engine.run_once()
        lost = log.last(ev.LeasesLost)
        assert lost is not None and len(lost.item_ids) == 3
        assert proxy.count("POST", "/api/v1/leases/renew") == 1

        engine.run_once()  # a fresh prefetch
        assert engine.store.counts().ready.get(QUEUE, 0) == 3
        proxy.add(Rule("POST", "/api/v1/leases/release", "respond", times=1, payload=refusal))
        engine.set_active_queues([])  # the queue is left: its untouched prefetch goes back
        engine.run_once()
        assert engine.store.counts().ready.get(QUEUE, 0) == 0
        assert proxy.count("POST", "/api/v1/leases/release") == 1
        assert online(log) is True
    finally:
        engine.close()
