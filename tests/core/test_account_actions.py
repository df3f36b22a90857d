"""An author suspended while this reviewer holds their posts, as the sync engine sees it,
against the real service on both databases: the author has items open in three queues,
this reviewer holds some of them and decides one offline; a lead suspends the author. The
items held here leave the worklist as resolved (not as leases someone else took), with
the author's status; the offline verdict comes back ``rejected`` with reason
``author_actioned`` (no conflict); every queue is cleared of the author's open items and
one ``author:suspend`` action goes out."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select, text

from reviewer_app.core import events as ev
from reviewer_app.core.store import JournalEntry, Store
from reviewer_app.protocol import Role
from reviewer_app.server.domain.intake.rows import post_id_for
from reviewer_app.server.storage.tables import items
from tests.support.api import verdict
from tests.support.client import EventLog, engine_for, fast_settings, login
from tests.support.clock import ManualClock
from tests.support.intake import (
    HATE,
    INAUTH,
    MISINFO,
    account_queues,
    apply_queues,
    author,
    classifier,
    key_session,
    post,
    send,
    shady,
)
from tests.support.servers import LiveServer

HELD = ("s-held-1", "s-held-2", "s-decided")


def _entry(store: Store, item_id: str) -> JournalEntry:
    return next(e for e in store.journal() if e.item_id == item_id)


def test_an_author_suspended_elsewhere_leaves_this_worklist_and_the_offline_verdict_is_told_why(
    live_server: LiveServer, tmp_path: Path
) -> None:
    server = live_server
    apply_queues(server, account_queues())
    platform = key_session(server, "feed-bridge")
    a = shady("spammer")
    send(platform, "posts", [post(p, author=a) for p in HELD])
    send(platform, "posts", [post("s-hate", author=a), post("s-inauth", author=a)])
    send(platform, "posts", [post("other", author=author("someone-else"))])
    send(platform, "signals", [classifier(p, 0.9) for p in (*HELD, "other")])
    send(platform, "signals", [classifier("s-hate", 0.95, model="hate-bert", label="hate")])
    send(platform, "signals", [classifier("s-inauth", 0.1, model="spam", label="spam")])

    client = login(server, "rita")
    clock = ManualClock()
    path = tmp_path / "rita.sqlite3"
    fast_settings(path, prefetch_target=10, lease_seconds=90, undo_window_seconds=0)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log, clock=clock)
    engine.open()
    try:
        engine.set_active_queues([MISINFO])
        engine.run_once()
        store = engine.store
        assert store is not None
        held = {r.item_id: store.stored_item(r.item_id) for r in store.worklist(MISINFO)}
        by_post = {s.item.post.id: item_id for item_id, s in held.items() if s is not None}
        assert set(by_post) == {*HELD, "other"}, by_post
        first, second, decided = (by_post[p] for p in HELD)

        # decided here while offline: not sent yet when the author is suspended
        store.record_verdict(decided, action="keep", undo_window=3_600)

        lead = server.login("lena", Role.lead)
        [grant] = lead.claim(INAUTH, count=1)
        assert grant["item"]["post"]["id"] == "s-inauth"
        [suspended] = lead.decide([verdict(grant, "suspend")])
        assert suspended["status"] == "accepted", suspended

        clock.advance(31)  # past a third of the lease: the renewal tells
        engine.run_once()
        resolved = log.last(ev.ItemsResolved)
        assert resolved is not None
        assert dict(resolved.author_status) == {
            first: "suspended",
            second: "suspended",
            decided: "suspended",
        }
        assert log.of(ev.LeasesLost) == [], "resolved is not a lease someone else took"
        worklist = {r.item_id: r for r in store.worklist(MISINFO)}
        assert first not in worklist and second not in worklist
        assert by_post["other"] in worklist and not worklist[by_post["other"]].lease_lost
        assert _entry(store, decided).status == "pending"  # still to be sent

        store.flush_all(clock())
        engine.run_once()
        entry = _entry(store, decided)
        assert entry.status == "rejected"
        assert entry.result is not None and entry.result.reason is not None
        assert entry.result.reason.code == "author_actioned"
        assert entry.result.reason.author_status is not None
        assert entry.result.reason.author_status.value == "suspended"
        assert store.conflicts() == [] and store.counts().conflicts_open == 0
        assert decided not in {r.item_id for r in store.worklist()}

        # closed everywhere, one author action for the account
        with server.service.db.read() as conn:
            states = dict(conn.execute(select(items.c.post_id, items.c.state)).all())
            kinds = [
                r.kind
                for r in conn.execute(
                    text(
                        "SELECT kind FROM enforcement_actions WHERE author_id = :a "
                        "AND kind LIKE 'author:%'"
                    ),
                    {"a": grant["item"]["author"]["id"]},
                )
            ]
        posts = (*HELD, "s-hate", "s-inauth", "other")
        assert {p: states[post_id_for("feed-bridge", p)] for p in posts} == {
            "s-held-1": "resolved",
            "s-held-2": "resolved",
            "s-decided": "resolved",
            "s-hate": "resolved",
            "s-inauth": "decided",
            "other": "leased",
        }
        assert kinds == ["author:suspend"]
        assert client.item(first).author.status.value == "suspended"
        hate = next(q for q in lead.get("/queues").json()["queues"] if q["id"] == HATE)
        assert hate["counts"]["pending"] == 0
    finally:
        engine.close()


def test_a_verdict_here_that_suspends_an_author_renews_at_once(
    live_server: LiveServer, tmp_path: Path
) -> None:
    """The reviewer suspends an author whose other posts they hold: those leave the
    worklist at the next pass, not a third of a lease later."""
    server = live_server
    apply_queues(server, account_queues())
    platform = key_session(server, "feed-bridge")
    a = shady("flooder")
    send(platform, "posts", [post(p, author=a) for p in ("f-1", "f-2", "f-3")])
    send(
        platform,
        "signals",
        [classifier(p, 0.1, model="spam", label="spam") for p in ("f-1", "f-2", "f-3")],
    )

    client = login(server, "rita", Role.lead)
    clock = ManualClock()
    path = tmp_path / "rita.sqlite3"
    fast_settings(path, prefetch_target=10, lease_seconds=300, undo_window_seconds=0)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log, clock=clock)
    engine.open()
    try:
        engine.set_active_queues([INAUTH])
        engine.run_once()
        store = engine.store
        assert store is not None
        held = [r.item_id for r in store.worklist(INAUTH)]
        assert len(held) == 3
        store.record_verdict(held[0], action="suspend", undo_window=0)
        engine.run_once()  # sends it, then renews every lease: no clock advance needed
        assert _entry(store, held[0]).status == "accepted"
        resolved = log.last(ev.ItemsResolved)
        assert resolved is not None and set(resolved.item_ids) == set(held[1:])
        assert store.worklist(INAUTH) == []
    finally:
        engine.close()
