"""Leases and media as the sync engine keeps them: prefetch, skip releases, renewal at a
third of the lease's life, lost leases, late verdicts, offline batches capped by the server,
media fetched ahead, and backoff with full jitter."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.core import events as ev
from reviewer_app.core.api import ApiClient
from reviewer_app.core.sync import BACKOFF_BASE, SyncEngine
from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_demo, seed_load_queue
from tests.support.client import EventLog, engine_for, fast_settings, login
from tests.support.clock import ManualClock
from tests.support.proxy import FaultProxy
from tests.support.servers import LiveServer, dead_address

QUEUE = LOAD_QUEUE.id


@pytest.fixture
def timed(tmp_path: Path) -> Iterator[tuple[LiveServer, ManualClock]]:
    """A service whose clock the test moves (leases expire when the test says so)."""
    clock = ManualClock()
    srv = LiveServer(
        f"sqlite:///{tmp_path / 'timed.db'}", clock=clock, max_leased_per_reviewer=30
    ).start()
    seed_load_queue(srv.service, 60)
    srv.add_user("lead", Role.lead)
    try:
        yield srv, clock
    finally:
        srv.stop()


def _engine(url: str, tmp_path: Path, client: ApiClient, clock: ManualClock, **settings: object):
    path = tmp_path / f"{client.me().username}.sqlite3"
    fast_settings(path, **settings)
    log = EventLog()
    engine = engine_for(url, path, client.token, log, clock=clock)
    engine.open()
    return engine, log


def _leased_count(client: ApiClient) -> int:
    return next(q for q in client.queues().queues if q.id == QUEUE).counts.leased


def test_prefetch_keeps_the_target_leased_and_skip_releases(
    timed: tuple[LiveServer, ManualClock], tmp_path: Path
) -> None:
    server, clock = timed
    client = login(server, "pia")
    engine, log = _engine(server.url, tmp_path, client, clock, prefetch_target=7)
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        store = engine.store
        assert store is not None
        assert store.ready_counts() == {QUEUE: 7}
        assert log.last(ev.WorklistChanged) == ev.WorklistChanged({QUEUE: 7})
        assert _leased_count(client) == 7

        skipped = store.next_item(QUEUE)
        assert skipped is not None
        store.skip(skipped.item.id)
        assert store.ready_counts() == {QUEUE: 6}
        engine.run_once()  # more than half left: the skipped one goes, none comes in
        assert store.stored_item(skipped.item.id) is None
        assert _leased_count(client) == 6
        lead = login(server.url, "lead")
        assert lead.item(skipped.item.id).state == "pending"
        # released as a skip: her next claim takes another item, not the one she skipped
        other = client.claim(QUEUE, 1, 60).items[0]
        assert other.item.id != skipped.item.id
        client.release([other.lease_token])
        engine.set_active_queues([QUEUE])
        engine.run_once()
        assert store.ready_counts() == {QUEUE: 6}  # more than half left: no claim yet
        for _ in range(3):
            decided = store.next_item(QUEUE)
            assert decided is not None
            store.record_verdict(decided.item.id, action="keep", time_spent_ms=1)
        engine.run_once()
        assert store.ready_counts() == {QUEUE: 7}  # refilled in one claim at half
        assert _leased_count(client) == 7  # and the three decided were delivered
    finally:
        engine.close()


def test_a_claim_that_brings_as_many_as_the_reviewer_just_decided_is_told(
    timed: tuple[LiveServer, ManualClock], tmp_path: Path
) -> None:
    """A claim leaves the worklist's count as the window was last told (4 ready when the
    pass starts, those 4 decided while it runs, 4 claimed): the window, empty since the
    last of them, is told all the same. (It was not: a long shift's window waited a minute
    with 12 posts held and nothing on screen.)"""
    server, clock = timed
    client = login(server, "pia")
    engine, log = _engine(server.url, tmp_path, client, clock, prefetch_target=8)
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        store = engine.store
        assert store is not None and store.ready_counts() == {QUEUE: 8}

        def decide(count: int) -> None:
            for _ in range(count):
                shown = store.next_item(QUEUE)
                assert shown is not None
                store.record_verdict(shown.item.id, action="keep", time_spent_ms=1)

        decide(4)  # half left: the next pass claims 4
        api = engine.api
        assert api is not None
        claim = api.claim

        def reviewer_decides_the_rest_then_claim(*args: Any, **kwargs: Any) -> Any:
            api.claim = claim  # type: ignore[method-assign]
            decide(4)  # while the pass runs, the reviewer decides the 4 left: none is shown
            told[:] = log.of(ev.WorklistChanged)
            return claim(*args, **kwargs)

        told: list[ev.WorklistChanged] = []
        api.claim = reviewer_decides_the_rest_then_claim  # type: ignore[method-assign]
        engine.run_once()
        assert told[-1] == ev.WorklistChanged({QUEUE: 4})  # as told when the pass began
        # the 4 claimed are told as they are stored (not only once the pass has topped up
        # again: a pass can end with the count it began with)
        assert log.of(ev.WorklistChanged)[len(told)] == ev.WorklistChanged({QUEUE: 4})
    finally:
        engine.close()


def test_leases_that_ran_out_during_a_pass_and_are_renewed_are_told(
    timed: tuple[LiveServer, ManualClock], tmp_path: Path
) -> None:
    """The leases run out while a pass runs (a slow network, a machine asleep): the window,
    asking for its next post then, finds none. The renewal revives them (nobody took the
    items), which puts the count back where the window was last told: it is told all the
    same, or it would wait with posts held and nothing on screen."""
    server, clock = timed
    client = login(server, "una")
    engine, log = _engine(server.url, tmp_path, client, clock, prefetch_target=4, lease_seconds=90)
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        store = engine.store
        api = engine.api
        assert store is not None and api is not None
        assert log.last(ev.WorklistChanged) == ev.WorklistChanged({QUEUE: 4})
        renew = api.renew
        found: list[object] = []

        def leases_run_out_then_renew(*args: Any, **kwargs: Any) -> Any:
            api.renew = renew  # type: ignore[method-assign]
            clock.advance(60)  # 91 s after the claim: past the 90 s lease
            found.append(store.next_item(QUEUE))  # the window looks: nothing to show
            return renew(*args, **kwargs)

        clock.advance(31)  # past a third of the lease: this pass renews
        api.renew = leases_run_out_then_renew  # type: ignore[method-assign]
        told = len(log.of(ev.WorklistChanged))
        engine.run_once()
        assert found == [None]
        assert store.ready_counts() == {QUEUE: 4}  # renewed: all four back
        assert log.of(ev.WorklistChanged)[told:] == [ev.WorklistChanged({QUEUE: 4})]
    finally:
        engine.close()


def test_leases_are_renewed_at_a_third_of_their_life_and_lost_ones_leave(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    server = LiveServer(f"sqlite:///{tmp_path / 'small.db'}", clock=clock).start()
    seed_load_queue(server.service, 4)
    client = login(server, "quin")
    proxy = FaultProxy(server.port).start()
    engine, log = _engine(proxy.url, tmp_path, client, clock, prefetch_target=4, lease_seconds=90)
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        store = engine.store
        assert store is not None
        before = {r.item_id: r.lease_expires_at for r in store.worklist()}
        assert len(before) == 4
        clock.advance(29)
        engine.run_once()
        assert proxy.count("POST", "/api/v1/leases/renew") == 0
        clock.advance(2)  # past 30 s, a third of 90
        engine.run_once()
        assert proxy.count("POST", "/api/v1/leases/renew") == 1
        after = {r.item_id: r.lease_expires_at for r in store.worklist()}
        assert after.keys() == before.keys()
        assert all(after[i] >= before[i] + 30 for i in before)

        # offline past the lease: a rival takes two items; back online they leave here
        proxy.offline()
        clock.advance(200)
        engine.run_once()
        expiring = log.last(ev.LeasesExpiring)
        assert expiring is not None and {i for i, _ in expiring.items} == set(before)
        rival = login(server, "rival")
        taken = {li.item.id for li in rival.claim(QUEUE, 2, 300).items}
        assert len(taken) == 2 and taken <= set(before)
        proxy.online()
        engine.retry_at = 0
        engine.run_once()
        assert log.last(ev.OnlineChanged).online is True
        lost = log.last(ev.LeasesLost)
        assert lost is not None and taken <= set(lost.item_ids)
        kept = {r.item_id for r in store.worklist()}
        assert not kept & taken
        # the two nobody took are ours again (leased anew, or the old lease revived)
        assert kept == set(before) - taken and store.ready_counts() == {QUEUE: 2}
    finally:
        engine.close()
        proxy.stop()
        server.stop()


def test_a_late_verdict_on_an_expired_untaken_lease_still_counts(
    timed: tuple[LiveServer, ManualClock], tmp_path: Path
) -> None:
    server, clock = timed
    client = login(server, "ravi")
    proxy = FaultProxy(server.port).start()
    engine, _log = _engine(proxy.url, tmp_path, client, clock, prefetch_target=2)
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        engine.set_active_queues([])
        store = engine.store
        assert store is not None
        proxy.offline()
        clock.advance(3_000)  # every lease ran out while we were away
        assert store.next_item(QUEUE) is None
        stored = store.next_item(QUEUE, include_expired=True)
        assert stored is not None
        entry = store.record_verdict(stored.item.id, action="keep")
        engine.run_once()
        proxy.online()
        engine.retry_at = 0
        engine.run_once()
        settled = store.journal_entry(entry.key)
        assert settled is not None and settled.status == "accepted"
    finally:
        engine.close()
        proxy.stop()


def test_work_offline_reports_progress_and_is_capped_by_the_server(
    timed: tuple[LiveServer, ManualClock], tmp_path: Path
) -> None:
    server, clock = timed
    client = login(server, "sol")
    engine, log = _engine(server.url, tmp_path, client, clock)
    try:
        engine.work_offline(QUEUE, 200)
        engine.run_once()
        progress = log.of(ev.Progress)
        assert progress[0] == ev.Progress("offline", 0, 30)  # the server's cap per reviewer
        assert progress[-1].finished and progress[-1].done == 30 and progress[-1].error is None
        assert engine.store is not None and engine.store.ready_counts() == {QUEUE: 30}
        expires = {r.lease_expires_at for r in engine.store.worklist()}
        assert min(expires) >= clock() + 3_600 - 5  # the longest lease the server allows
    finally:
        engine.close()


def test_media_is_fetched_ahead_and_served_from_the_store(tmp_path: Path) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    server = LiveServer(f"sqlite:///{tmp_path / 'demo.db'}").start()
    try:
        seed_demo(server.service, now)
        client = login(server, "tia")
        engine, _log = _engine(server.url, tmp_path, client, ManualClock(), prefetch_target=40)
        try:
            queue = "spam-scams"
            engine.set_active_queues([queue])
            engine.run_once()
            store = engine.store
            assert store is not None
            with_media = [
                r.item_id
                for r in store.worklist(queue)
                if store.stored_item(r.item_id).item.post.media  # type: ignore[union-attr]
            ]
            assert with_media, "the demo queue has posts with media"
            engine.run_once()
            for item_id in with_media:
                item = store.stored_item(item_id)
                assert item is not None
                for media in item.item.post.media:
                    cached = store.media(media.id)
                    assert cached is not None, media.id
                    data, kind = cached
                    assert kind == media.mime_type and len(data) == media.size_bytes
                    assert client.media(media.id)[0] == data
        finally:
            engine.close()
    finally:
        server.stop()


def test_backoff_is_exponential_with_full_jitter_capped_and_resets(
    server: LiveServer, tmp_path: Path
) -> None:
    client = login(server, "uma")
    path = tmp_path / "uma.sqlite3"
    fast_settings(path, backoff_cap_seconds=8.0)
    clock = ManualClock()
    log = EventLog()
    closing = ExitStack()
    dead = closing.enter_context(dead_address())
    engine = SyncEngine(
        dead, path, token=client.token, listener=log, clock=clock, rng=random.Random(7)
    )
    engine.open()
    try:
        waits = []
        for _ in range(8):
            waits.append(engine.run_once())
            clock.advance(waits[-1])
        for n, wait in enumerate(waits, start=1):
            assert 0 <= wait <= min(8.0, BACKOFF_BASE * 2**n)
        assert max(waits[4:]) > 2, "later waits grow (some jitter draw is large)"
        assert len(set(waits)) == len(waits), "jittered"
        assert engine.failures == 8
        offline = log.of(ev.OnlineChanged)
        assert offline[0].online is False and "127.0.0.1" in (offline[0].reason or "")

        engine.api = ApiClient(server.url, token=client.token)  # the network is back
        assert engine.run_once() > 0
        assert engine.failures == 0 and log.last(ev.OnlineChanged).online is True
    finally:
        engine.close()
        closing.close()


@pytest.mark.parametrize("ahead", [700.0, -700.0])
def test_a_clock_off_from_the_servers_keeps_its_leases_and_claims_no_more(
    timed: tuple[LiveServer, ManualClock], tmp_path: Path, ahead: float
) -> None:
    """The lease times the server gives are placed on this computer's clock: a clock 700 s
    ahead (more than a lease) saw every lease as run out, showed no post and claimed again
    at every pass until the server's cap."""
    server, server_clock = timed
    client = login(server, f"tess{int(ahead)}")
    mine = ManualClock(server_clock.now + ahead)
    engine, log = _engine(server.url, tmp_path, client, mine, prefetch_target=5, lease_seconds=600)
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        store = engine.store
        assert store is not None
        assert store.ready_counts() == {QUEUE: 5}
        assert store.next_item(QUEUE) is not None, "a post to review"
        for _ in range(3):
            engine.run_once()
        assert _leased_count(client) == 5, "no more claimed"
        assert log.last(ev.LeasesExpiring) is None
        # renewed at a third of the leases' life by either clock, and still ours
        mine.advance(250)
        server_clock.advance(250)
        engine.run_once()
        assert store.ready_counts() == {QUEUE: 5} and log.last(ev.LeasesLost) is None
        assert all(r.lease_expires_at > mine.now + 500 for r in store.worklist())
    finally:
        engine.close()
