"""What the sync engine keeps for offline work, against the real service: an offline batch
keeps its length through renewals and the items leased ahead before it are lengthened to it
(capped by the server); a verdict refused for now because another reviewer holds the post
says so and until when, and counts once their hold ends; the last sync survives a restart;
the store's files are 0600 in 0700 folders."""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Iterable
from pathlib import Path

import pytest
from keyring.backends import fail
from sqlalchemy import select

from reviewer_app.core import events as ev
from reviewer_app.core import keyfile
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.session import ReviewSession
from reviewer_app.core.store import HELD_BY_OTHER, Store
from reviewer_app.core.sync import SyncEngine
from reviewer_app.protocol import Role, VerdictStatus
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.storage.tables import items
from tests.support.client import (
    EventLog,
    all_decisions,
    engine_for,
    fast_settings,
    login,
    wait_until,
)
from tests.support.clock import ManualClock
from tests.support.servers import PASSWORD, LiveServer

QUEUE = LOAD_QUEUE.id


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(float(int(time.time())))


def _ends(values: Iterable[float]) -> set[int]:
    """Lease ends to the second (the wire carries microseconds)."""
    return {round(v) for v in values}


def _service(url: str, clock: ManualClock, **settings: object) -> LiveServer:
    server = LiveServer(url, clock=clock, max_leased_per_reviewer=60, **settings).start()
    seed_load_queue(server.service, 40)
    server.add_user("lead", Role.lead)
    return server


def _engine(server: LiveServer, tmp_path: Path, user: str, clock: ManualClock, **settings: object):
    client = login(server, user)
    path = tmp_path / f"{user}.sqlite3"
    fast_settings(path, **settings)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log, clock=clock)
    engine.open()
    assert engine.store is not None
    return engine, engine.store, log


def _server_leases(server: LiveServer) -> dict[str, float]:
    """Each leased item's lease end, as the service holds it."""
    with server.service.db.read() as conn:
        rows = conn.execute(
            select(items.c.id, items.c.lease_expires_at).where(items.c.state == "leased")
        ).all()
    return {r.id: float(r.lease_expires_at) for r in rows}


def test_an_offline_batch_keeps_its_length_and_lengthens_what_was_leased_ahead(
    database_url: str, clock: ManualClock, tmp_path: Path
) -> None:
    server = _service(database_url, clock)
    engine, store, log = _engine(
        server,
        tmp_path,
        "tove",
        clock,
        prefetch_target=5,
        lease_seconds=600,
        offline_lease_seconds=3_600,
        offline_batch_size=20,
    )
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        ahead = [r.item_id for r in store.worklist(QUEUE)]
        assert len(ahead) == 5
        assert _ends(_server_leases(server).values()) == {clock.now + 600}

        engine.work_offline(QUEUE)  # Ctrl+O
        engine.run_once()
        finished = [p for p in log.of(ev.Progress) if p.finished]
        assert finished and (finished[-1].done, finished[-1].total) == (20, 20)
        leases = _server_leases(server)
        assert len(leases) == 25
        assert _ends(leases.values()) == {clock.now + 3_600}, "the ones leased ahead too"
        assert _ends(r.lease_expires_at for r in store.worklist(QUEUE)) == {clock.now + 3_600}
        # the items leased ahead are still the first shown
        assert [r.item_id for r in store.worklist(QUEUE)][:5] == ahead
        first = store.next_item(QUEUE)
        assert first is not None and first.item.id == ahead[0]

        # briefly online 25 minutes on (past a third of the hour): renewed for an hour
        clock.advance(1_500)
        engine.run_once()
        leases = _server_leases(server)
        assert len(leases) == 25 and _ends(leases.values()) == {clock.now + 3_600}
        assert _ends(r.lease_expires_at for r in store.worklist(QUEUE)) == {clock.now + 3_600}
    finally:
        engine.close()
        server.stop()


def test_lease_lengths_are_capped_by_the_server(clock: ManualClock, tmp_path: Path) -> None:
    server = _service(f"sqlite:///{tmp_path / 'capped.db'}", clock, max_lease_seconds=1_800)
    engine, _store, _log = _engine(
        server,
        tmp_path,
        "uma",
        clock,
        prefetch_target=4,
        lease_seconds=600,
        offline_lease_seconds=3_600,
        offline_batch_size=6,
    )
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        engine.work_offline(QUEUE)
        engine.run_once()
        assert _ends(_server_leases(server).values()) == {clock.now + 1_800}
        clock.advance(700)
        engine.run_once()
        leases = _server_leases(server)
        assert len(leases) == 10 and _ends(leases.values()) == {clock.now + 1_800}
    finally:
        engine.close()
        server.stop()


def test_a_verdict_held_by_another_reviewer_says_why_and_counts_when_their_hold_ends(
    clock: ManualClock, tmp_path: Path
) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'held.db'}", clock=clock).start()
    seed_load_queue(server.service, 2)
    server.add_user("lead", Role.lead)
    engine, store, log = _engine(
        server, tmp_path, "ann", clock, prefetch_target=1, lease_seconds=60
    )
    try:
        engine.set_active_queues([QUEUE])
        engine.run_once()
        (mine,) = [r.item_id for r in store.worklist(QUEUE)]
        engine.set_active_queues([])
        clock.advance(120)  # offline past the lease: ben takes the post
        ben = login(server, "ben")
        assert mine in {i.item.id for i in ben.claim(QUEUE, 2, 300).items}
        held_until = clock.now + 300
        entry = store.record_verdict(mine, action="keep", time_spent_ms=1)
        engine.run_once()

        waiting = store.pending()
        assert (waiting.pending, waiting.held) == (1, 1)
        assert waiting.held_until == pytest.approx(held_until)
        assert log.last(ev.PendingChanged) == ev.PendingChanged(1, 1, 1)
        answer = store.journal_entry(entry.key)
        assert answer is not None and answer.status == "pending"
        assert answer.result is not None and answer.result.reason is not None
        assert answer.result.reason.code == HELD_BY_OTHER
        assert answer.result.reason.held_until is not None
        assert answer.result.reason.held_until.timestamp() == pytest.approx(held_until)

        clock.advance(61)  # tried again within a minute: still held
        engine.run_once()
        assert store.pending().held == 1

        clock.advance(300)  # ben let it go (his lease ran out): the late verdict counts
        engine.run_once()
        assert store.pending() == type(waiting)(0, 0, None)
        settled = store.journal_entry(entry.key)
        assert settled is not None and settled.status == VerdictStatus.accepted.value
        lead = login(server.url, "lead")
        assert [d.item_id for d in all_decisions(lead, "ann")] == [mine]
    finally:
        engine.close()
        server.stop()


def test_the_last_sync_survives_a_restart(server: LiveServer, tmp_path: Path) -> None:
    client = login(server, "vic")
    path = tmp_path / "vic.sqlite3"
    fast_settings(path)
    first = SyncEngine(server.url, path, token=client.token)
    first.open()
    assert first.last_sync is None
    first.run_once()
    synced = first.last_sync
    assert synced is not None
    first.close()
    again = SyncEngine(server.url, path, token=None)
    again.open()
    try:
        assert again.last_sync == synced
    finally:
        again.close()
    with Store(path) as store:
        assert store.last_sync() == synced


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
def test_the_store_files_are_0600_in_0700_folders(server: LiveServer, tmp_path: Path) -> None:
    server.add_user("wen")
    data = tmp_path / "data"
    credentials = Credentials(fail.Keyring())
    old_umask = os.umask(0o022)  # what most desktops run with
    try:
        result, token = ReviewSession.log_in(server.url, "wen", PASSWORD, credentials=credentials)
        key = ReviewSession.profile_key(
            server.url, "wen", PASSWORD, credentials=credentials, data_root=data
        )
        session = ReviewSession(
            server.url, result.user, token, credentials=credentials, data_root=data, key=key
        )
        session.store.settings.set("undo_window_seconds", 0.0)
        session.start([QUEUE])
        wait_until(lambda: session.store.next_item(QUEUE) is not None, 30, "a post")
        item = session.store.next_item(QUEUE)
        assert item is not None
        session.store.record_verdict(item.item.id, action="keep")
        files = [session.path, Path(f"{session.path}-wal"), Path(f"{session.path}-shm")]
        files.append(keyfile.key_file_path(session.path))
        folders = [data, data / "stores", session.path.parent]
        for path in files:
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        for folder in folders:
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
        session.close()

        # an older release's files and folders, made with the umask's modes, are narrowed
        for path in files:
            if path.exists():
                path.chmod(0o644)
        for folder in folders:
            folder.chmod(0o755)
        key = ReviewSession.profile_key(
            server.url, "wen", PASSWORD, credentials=credentials, data_root=data
        )
        again = ReviewSession(
            server.url, result.user, token, credentials=credentials, data_root=data, key=key
        )
        for path in files:
            if path.exists():
                assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
        for folder in folders:
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
        again.close()
    finally:
        os.umask(old_umask)
