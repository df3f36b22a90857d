"""A workstation clock off from the service's, against the real service over HTTP.

How far this computer's clock is ahead of the service's is kept in the store, so a restart
still places renewed leases on this clock: 2 h fast, the held posts looked run out (no post,
renewals in a busy loop, claims past the prefetch target); 2 h slow, a lease looked 7,800 s
long and was never renewed, so it went to a rival. A renewal measures it again, unless the
service may have granted less than asked (its cap, which a claim shows). A clock set back
(NTP correcting a fast clock) neither holds verdicts past their undo window nor lets leases
run out for the hours it went back, and never sends a verdict before its undo window really
passed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from reviewer_app.core.bulk import Candidate, new_request
from reviewer_app.core.store import Store
from reviewer_app.core.sync import SyncEngine
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.client import EventLog, engine_for, fast_settings, login
from tests.support.clock import ManualClock
from tests.support.proxy import FaultProxy
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
CLAIMS = f"/api/v1/queues/{QUEUE}/leases"
RENEWALS = "/api/v1/leases/renew"


@pytest.fixture
def timed(tmp_path: Path) -> Iterator[tuple[LiveServer, ManualClock, FaultProxy]]:
    """A service whose clock the test moves, behind a proxy that counts the calls."""
    clock = ManualClock()
    server = LiveServer(f"sqlite:///{tmp_path / 'skew.db'}", clock=clock).start()
    seed_load_queue(server.service, 40)
    proxy = FaultProxy(server.port).start()
    try:
        yield server, clock, proxy
    finally:
        proxy.stop()
        server.stop()


def _engine(
    proxy: FaultProxy, path: Path, token: str | None, clock: Callable[[], float]
) -> SyncEngine:
    engine = engine_for(proxy.url, path, token, EventLog(), clock=clock)
    engine.open()
    engine.set_active_queues([QUEUE])
    return engine


def _taken_by_rival(server: LiveServer, name: str, held: set[str]) -> set[str]:
    rival = login(server, name)
    return held & {x.item.id for x in rival.claim(QUEUE, 40, 300).items}


@pytest.mark.parametrize("ahead", [7_200.0, -7_200.0])
def test_a_restart_keeps_the_offset_so_renewals_stay_on_this_clock(
    timed: tuple[LiveServer, ManualClock, FaultProxy], tmp_path: Path, ahead: float
) -> None:
    server, clock, proxy = timed
    client = login(server, f"quin{int(ahead)}")
    mine = lambda: clock.now + ahead  # noqa: E731 - this workstation's clock
    path = tmp_path / "quin.sqlite3"
    fast_settings(path, prefetch_target=6, lease_seconds=600)
    first = _engine(proxy, path, client.token, mine)
    try:
        first.run_once()
        assert first.store is not None and first.store.ready_counts() == {QUEUE: 6}
    finally:
        first.close()  # killed, or closed without giving the leases back
    clock.advance(250)  # the next start, past a third of the leases' life

    engine = _engine(proxy, path, client.token, mine)
    store = engine.store
    assert store is not None
    try:
        held = {r.item_id for r in store.worklist(QUEUE)}
        for _ in range(9):  # 800 s on: past the leases' first length
            assert engine.run_once() > 1.0, "no busy loop"
            assert store.ready_counts() == {QUEUE: 6}, "the held posts are shown"
            clock.advance(100)
        assert proxy.count("POST", CLAIMS) == 1, "nothing claimed past the target"
        assert 3 <= proxy.count("POST", RENEWALS) <= 6
        left = [r.lease_expires_at - mine() for r in store.worklist(QUEUE)]
        assert all(0 < s <= 600 + 5 for s in left), left
        assert not _taken_by_rival(server, f"rival{int(ahead)}", held)
        assert store.server_offset == pytest.approx(ahead, abs=5)
    finally:
        engine.close()


def test_a_renewal_the_service_may_have_capped_does_not_move_the_offset(
    tmp_path: Path,
) -> None:
    clock = ManualClock()
    server = LiveServer(
        f"sqlite:///{tmp_path / 'capped.db'}", clock=clock, max_lease_seconds=1_800
    ).start()
    try:
        seed_load_queue(server.service, 10)
        client = login(server, "cap")
        mine = ManualClock(clock.now + 300)  # five minutes fast
        path = tmp_path / "cap.sqlite3"
        with Store(path, clock=mine) as store:
            store.add_leased(client.claim(QUEUE, 2, 600), asked=600)  # granted whole
            assert store.server_offset == pytest.approx(300, abs=2)
            tokens = [t for _, t in store.ready_leases()]
            # a renewal asking longer than any lease granted whole, and no cap seen: how
            # much was granted is not known, so the offset stays (asked was not granted)
            clock.advance(200)
            mine.advance(200)
            store.apply_lease_results(client.renew(tokens, 3_600).results, asked=3_600)
            assert store.server_offset == pytest.approx(300, abs=2)
            assert all(r.lease_expires_at <= mine() + 3_600 for r in store.worklist(QUEUE))
            # a claim granted less than it asked shows the cap
            store.add_leased(client.claim(QUEUE, 2, 3_600), asked=3_600)
        clock.advance(700)
        mine.advance(700)
        with Store(path, clock=mine) as store:  # the next start knows offset and cap
            assert store.server_offset == pytest.approx(300, abs=2)
            tokens = [t for _, t in store.ready_leases()]
            store.apply_lease_results(client.renew(tokens, 3_600).results, asked=3_600)
            assert store.server_offset == pytest.approx(300, abs=2)
            ends = {round(r.lease_expires_at - mine()) for r in store.worklist(QUEUE)}
            assert ends == {1_800}
    finally:
        server.stop()


@pytest.mark.parametrize("step", [420.0, 7_200.0])
def test_a_clock_set_back_neither_holds_verdicts_nor_lets_leases_run_out(
    timed: tuple[LiveServer, ManualClock, FaultProxy], tmp_path: Path, step: float
) -> None:
    server, clock, proxy = timed
    client = login(server, f"ned{int(step)}")
    skew = [step]  # the workstation starts fast
    mine = lambda: clock.now + skew[0]  # noqa: E731
    path = tmp_path / "ned.sqlite3"
    fast_settings(path, prefetch_target=4, lease_seconds=600, undo_window_seconds=5.0)
    engine = _engine(proxy, path, client.token, mine)
    store = engine.store
    assert store is not None
    try:
        engine.run_once()
        item = store.next_item(QUEUE)
        assert item is not None
        entry = store.record_verdict(item.item.id, action="keep", time_spent_ms=1_000)
        skew[0] = 0.0  # NTP sets the clock back to the service's time

        # not sent before the reviewer's undo window has really passed
        assert engine.run_once() > 1.0
        assert store.pending().pending == 1 and proxy.count("POST", "/api/v1/verdicts") == 0
        clock.advance(6)
        engine.run_once()
        assert store.pending().pending == 0
        assert store.journal_entry(entry.key).status == "accepted"  # type: ignore[union-attr]

        held = {r.item_id for r in store.worklist(QUEUE)}
        assert len(held) == 3
        for _ in range(61):  # past the first lease's end (600 s)
            clock.advance(10)
            assert engine.run_once() > 1.0, "no busy loop"
        assert proxy.count("POST", RENEWALS) <= 5
        assert not _taken_by_rival(server, f"rival{int(step)}", held)
        assert all(r.lease_expires_at - mine() <= 600 + 5 for r in store.worklist(QUEUE))
    finally:
        engine.close()


def test_a_verdict_waits_its_whole_undo_window_when_the_clock_does_not_move(
    timed: tuple[LiveServer, ManualClock, FaultProxy], tmp_path: Path
) -> None:
    server, clock, proxy = timed
    client = login(server, "una")
    path = tmp_path / "una.sqlite3"
    fast_settings(path, prefetch_target=2, lease_seconds=600, undo_window_seconds=120.0)
    engine = _engine(proxy, path, client.token, clock)
    store = engine.store
    assert store is not None
    try:
        engine.run_once()
        item = store.next_item(QUEUE)
        assert item is not None
        store.record_verdict(item.item.id, action="keep", time_spent_ms=1)
        for _ in range(11):
            clock.advance(10)
            engine.run_once()
        assert store.pending().pending == 1
        assert store.undo().item_id == item.item.id  # still inside its window
        store.record_verdict(item.item.id, action="keep", time_spent_ms=1)
        clock.advance(119)
        engine.run_once()
        assert store.pending().pending == 1
        clock.advance(2)
        engine.run_once()
        assert store.pending().pending == 0
    finally:
        engine.close()


def test_times_set_down_before_the_clock_went_back_are_rebased_in_the_store(
    timed: tuple[LiveServer, ManualClock, FaultProxy], tmp_path: Path
) -> None:
    server, clock, _proxy = timed
    client = login(server, "ida")
    mine = ManualClock(clock.now + 7_200)
    with Store(tmp_path / "ida.sqlite3", clock=mine) as store:
        store.add_leased(client.claim(QUEUE, 3, 600))
        first = store.next_item(QUEUE)
        assert first is not None
        store.record_verdict(first.item.id, action="keep", undo_window=5)
        mine.now = clock.now  # set back two hours
        now = mine()
        # every lease is renewed now (and when to look again says so)
        assert len(store.leases_to_renew(now)) == 3
        assert store.next_renewal_at() == pytest.approx(now)
        # the verdict gets its whole undo window again, from now: not two hours on
        assert store.take_due(now, 10) == []
        assert store.next_due_at() == pytest.approx(now + 5)
        assert store.take_due(now + 4, 10) == []
        assert [o.verdict.item_id for o in store.take_due(now + 5, 10)] == [first.item.id]


def test_a_clock_set_back_by_less_than_the_undo_window_still_waits_the_whole_window(
    timed: tuple[LiveServer, ManualClock, FaultProxy], tmp_path: Path
) -> None:
    """Re-based once: passes after the first do not take the step off the window again."""
    server, clock, _proxy = timed
    client = login(server, "ola")
    mine = ManualClock(clock.now)
    with Store(tmp_path / "ola.sqlite3", clock=mine) as store:
        store.add_leased(client.claim(QUEUE, 1, 600))
        first = store.next_item(QUEUE)
        assert first is not None
        store.record_verdict(first.item.id, action="keep", undo_window=30)
        mine.now -= 10  # set back by a third of the window
        now = mine()
        for _ in range(5):  # as the engine's passes do
            assert store.take_due(now, 10) == []
            assert store.next_due_at() == pytest.approx(now + 30)
        assert store.take_due(now + 29, 10) == []
        assert [o.verdict.item_id for o in store.take_due(now + 30, 10)] == [first.item.id]


def test_a_renewal_cut_short_by_a_cap_lowered_since_does_not_move_the_offset(
    timed: tuple[LiveServer, ManualClock, FaultProxy], tmp_path: Path
) -> None:
    server, clock, _proxy = timed
    client = login(server, "pia")
    mine = ManualClock(clock.now + 60)  # a minute fast
    with Store(tmp_path / "pia.sqlite3", clock=mine) as store:
        grant = client.claim(QUEUE, 2, 600)
        store.add_leased(grant, asked=600)  # granted whole
        assert store.server_offset == pytest.approx(60, abs=1)
        # the service restarts with a lower cap; a renewal asking 600 gets 120
        service = server.service
        service.settings = service.settings.model_copy(update={"max_lease_seconds": 120})
        renewed = client.renew([i.lease_token for i in grant.items], 600)
        assert {r.status for r in renewed.results} == {"renewed"}
        store.apply_lease_results(renewed.results, asked=600)
        assert store.server_offset == pytest.approx(60, abs=1)
        # renewed again before the 120 s run out (a third of the lease before its end)
        renew_at = store.next_renewal_at()
        assert renew_at is not None and renew_at <= mine() + 120


def test_a_bulk_taken_once_before_the_clock_went_back_is_due_now(tmp_path: Path) -> None:
    """A bulk decision whose send failed (taken, held for a retry) keeps no due time the
    clock set back would make it wait out."""
    mine = ManualClock(1_800_000_000.0)
    chosen = [Candidate(f"{QUEUE}-{n:07d}", QUEUE) for n in range(2)]
    with Store(tmp_path / "lead.sqlite3", clock=mine) as store:
        held = store.hold_bulk(new_request(chosen, "keep", note="held", at=mine()), undo_window=5)
        mine.now += 6
        assert store.take_bulk(held.id) is not None  # sent; the service did not answer
        mine.now -= 3_600  # NTP set the clock back an hour
        assert store.take_bulk(held.id) is None  # its stored due time is "an hour ahead"
        assert store.rebase_bulk(held.id) == pytest.approx(mine())
        assert store.rebase_bulk(held.id) == pytest.approx(mine())  # once: nothing moves
        assert store.take_bulk(held.id) is not None


def test_a_clock_set_forward_is_followed_by_the_next_renewal(
    timed: tuple[LiveServer, ManualClock, FaultProxy], tmp_path: Path
) -> None:
    """A workstation clock set forward 2 h (its time, not the time the process counts)
    made every held lease look run out; renewals only lowered the offset, so each pass
    renewed them all again until a claim measured it afresh."""
    server, clock, _proxy = timed
    client = login(server, "quin")
    mine = ManualClock(clock.now)
    with Store(tmp_path / "quin.sqlite3", clock=mine) as store:
        grant = client.claim(QUEUE, 2, 600)
        store.add_leased(grant, asked=600)
        assert store.server_offset == pytest.approx(0, abs=1)
        mine.advance(7_200)  # set forward; time.monotonic() did not move
        assert store.next_item(QUEUE) is None  # every lease looks run out
        renewed = client.renew([i.lease_token for i in grant.items], 600)
        store.apply_lease_results(renewed.results, asked=600)
        assert store.server_offset == pytest.approx(7_200, abs=5)
        assert store.next_item(QUEUE) is not None
        renew_at = store.next_renewal_at()
        assert renew_at is not None and renew_at > mine() + 60  # not at the next pass
        # a renewal that reads higher while the clock did not move is still not taken
        service = server.service
        service.settings = service.settings.model_copy(update={"max_lease_seconds": 120})
        renewed = client.renew([i.lease_token for i in grant.items], 600)
        store.apply_lease_results(renewed.results, asked=600)
        assert store.server_offset == pytest.approx(7_200, abs=5)


def test_a_clock_set_forward_during_a_suspend_is_followed(
    timed: tuple[LiveServer, ManualClock, FaultProxy], tmp_path: Path, monkeypatch
) -> None:
    """A laptop suspended for an hour whose clock was also set forward 2 h: with the time
    the process counted (which stops while suspended) the step read as 3 h, no renewal's
    offset matched it, and it was never taken. The time since boot moves with a suspend.
    (The suspend is the one thing here a test cannot make happen: its clock is stood in.)"""
    from reviewer_app.core.store import items as store_items

    server, clock, _proxy = timed
    client = login(server, "rae")
    mine = ManualClock(clock.now)
    boot = [1_000.0]
    monkeypatch.setattr(store_items, "_since_boot", lambda: boot[0])
    with Store(tmp_path / "rae.sqlite3", clock=mine) as store:
        grant = client.claim(QUEUE, 2, 3_600)
        store.add_leased(grant, asked=3_600)
        boot[0] += 3_600  # suspended an hour: the service's clock and this one move alike
        clock.advance(3_600)
        mine.advance(3_600 + 7_200)  # and this one set forward 2 h
        renewed = client.renew([i.lease_token for i in grant.items], 3_600)
        store.apply_lease_results(renewed.results, asked=3_600)
        assert store.server_offset == pytest.approx(7_200, abs=5)
        assert store.next_item(QUEUE) is not None
