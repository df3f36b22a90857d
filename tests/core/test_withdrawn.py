"""Posts the platform withdraws (deleted or made private upstream) as the sync engine sees
them, against the real service on both databases: an item held here leaves the worklist
without a verdict and is reported as withdrawn (not as a lease someone else took); a
verdict made for one, here or offline, comes back ``rejected`` with reason ``withdrawn``
and is no conflict."""

from __future__ import annotations

from pathlib import Path

from reviewer_app.core import events as ev
from reviewer_app.core.api import ApiClient
from reviewer_app.core.store import JournalEntry, Store
from tests.support.client import EventLog, engine_for, fast_settings, login
from tests.support.clock import ManualClock
from tests.support.intake import MISINFO, apply_queues, classifier, key_session, post, send
from tests.support.servers import LiveServer

POSTS = ("wd-ready", "wd-decided", "wd-kept")


def _engine(server: LiveServer, tmp_path: Path, client: ApiClient, clock: ManualClock):
    path = tmp_path / "rita.sqlite3"
    fast_settings(path, prefetch_target=len(POSTS), lease_seconds=90, undo_window_seconds=0)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log, clock=clock)
    engine.open()
    return engine, log


def _entry(store: Store, item_id: str) -> JournalEntry:
    return next(e for e in store.journal() if e.item_id == item_id)


def test_withdrawn_posts_leave_the_worklist_and_their_verdicts_are_refused(
    live_server: LiveServer, tmp_path: Path
) -> None:
    server = live_server
    apply_queues(server)
    platform = key_session(server, "feed-bridge")
    assert {r["status"] for r in send(platform, "posts", [post(p) for p in POSTS])} == {"created"}
    send(platform, "signals", [classifier(p, 0.95) for p in POSTS])

    client = login(server, "rita")
    clock = ManualClock()
    engine, log = _engine(server, tmp_path, client, clock)
    try:
        engine.set_active_queues([MISINFO])
        engine.run_once()
        store = engine.store
        assert store is not None
        held = {r.item_id: store.stored_item(r.item_id) for r in store.worklist(MISINFO)}
        assert len(held) == len(POSTS)
        by_post = {s.item.post.id: item_id for item_id, s in held.items() if s is not None}
        assert set(by_post) == set(POSTS), by_post
        ready, decided, kept = (by_post[p] for p in POSTS)

        # a verdict made before the withdrawal is known here (as an offline one would be)
        store.record_verdict(decided, action="keep", undo_window=3_600)
        withdrawn = send(
            platform,
            "withdrawals",
            [
                {"post_external_id": "wd-ready", "reason": "deleted"},
                {"post_external_id": "wd-decided", "reason": "private"},
            ],
        )
        assert {r["status"] for r in withdrawn} == {"updated"}, withdrawn

        clock.advance(31)  # past a third of the lease: the renewal tells
        engine.run_once()
        gone = log.last(ev.ItemsWithdrawn)
        assert gone is not None and set(gone.item_ids) == {ready, decided}
        assert log.of(ev.LeasesLost) == [], "withdrawn is not a lease someone else took"
        worklist = {r.item_id: r for r in store.worklist(MISINFO)}
        assert ready not in worklist, "it left the worklist without a verdict"
        assert kept in worklist and not worklist[kept].lease_lost
        assert _entry(store, decided).status == "pending"  # still to be sent

        store.flush_all(clock())
        engine.run_once()
        entry = _entry(store, decided)
        assert entry.status == "rejected"
        assert entry.result is not None and entry.result.reason is not None
        assert entry.result.reason.code == "withdrawn"
        assert store.conflicts() == [] and store.counts().conflicts_open == 0
        assert decided not in {r.item_id for r in store.worklist()}
        settled = [e for s in log.of(ev.VerdictsSettled) for e in s.entries]
        assert [(e.item_id, e.status) for e in settled] == [(decided, "rejected")]

        # the item that stayed is decided as usual
        store.record_verdict(kept, action="keep", undo_window=0)
        engine.run_once()
        assert _entry(store, kept).status == "accepted"
        assert client.item(ready).state == "withdrawn"
    finally:
        engine.close()
