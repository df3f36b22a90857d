"""A lead's bulk decision through the client core, against the real service on both
databases: made once with a key per item, held in the (encrypted) local store for the undo
window, where it can be taken back; sent once the window has passed; still held (and sent)
after the app was killed inside the window; a refusal names the items decided meanwhile;
the same request sent again answers the same decisions. A wave found by the lead's search
is decided together, the hits already decided left out."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from sqlalchemy import select

from reviewer_app.core.bulk import (
    Candidate,
    answered,
    candidates_from_hits,
    new_request,
    refusal,
)
from reviewer_app.core.errors import NetworkError, ProblemError
from reviewer_app.core.store import NothingToUndo, Store
from reviewer_app.protocol import Role, VerdictStatus
from reviewer_app.protocol.search import SearchKind
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.storage.tables import items
from tests.support.api import verdict
from tests.support.client import login
from tests.support.clock import ManualClock
from tests.support.intake import (
    MISINFO,
    account_queues,
    apply_queues,
    author,
    classifier,
    key_session,
    post,
    send,
)
from tests.support.servers import LiveServer

KEY = os.urandom(32)


def candidates(server: LiveServer, lead_client: object, n: int) -> list[Candidate]:
    found = []
    with server.service.db.read() as conn:
        rows = conn.execute(
            select(items.c.id, items.c.queue_id)
            .where(items.c.state == "pending")
            .order_by(items.c.id)
            .limit(n)
        ).all()
    for item_id, queue_id in rows:
        found.append(Candidate(item_id, queue_id))
    return found


def test_held_for_the_undo_window_then_sent_refused_or_replayed(
    live_server: LiveServer, tmp_path: Path
) -> None:
    seed_load_queue(live_server.service, 60)
    lead = login(live_server, "bulk-lead", Role.lead)
    reviewer = live_server.login("bulk-reviewer", Role.reviewer)
    clock = ManualClock()
    path = tmp_path / "lead.sqlite3"
    chosen = candidates(live_server, lead, 20)

    with Store(path, key=KEY, clock=clock) as store:
        # taken back inside the window: nothing is sent
        undone = store.hold_bulk(
            new_request(chosen, "remove", policies=["SPAM.SCAM"], at=clock()), undo_window=5
        )
        assert store.take_bulk(undone.id) is None  # not due yet
        store.undo_bulk(undone.id)
        assert store.held_bulks() == []

        held = store.hold_bulk(
            new_request(chosen, "remove", policies=["SPAM.SCAM"], note="wave", at=clock()),
            undo_window=5,
        )
    # the app is killed inside the window: the bulk is still there at the next start
    clock.advance(6)
    with Store(path, key=KEY, clock=clock) as store:
        [again] = store.held_bulks()
        assert again.id == held.id and again.request == held.request
        with pytest.raises(NothingToUndo):
            store.undo_bulk(held.id)  # its window has passed
        taken = store.take_bulk(held.id)
        assert taken is not None
        results = lead.bulk_decide(taken.request)
        store.settle_bulk(held.id)
        assert store.held_bulks() == []
    assert [r.item_id for r in results.results] == [c.item_id for c in chosen]
    assert {r.status for r in results.results} == {VerdictStatus.accepted}
    assert results.queue_ids == [LOAD_QUEUE.id]

    # the same request again (a retry after a lost answer): the same decisions
    replay = lead.bulk_decide(taken.request)
    assert {r.status for r in replay.results} == {VerdictStatus.duplicate}
    assert [r.decision.id for r in replay.results if r.decision] == [
        r.decision.id for r in results.results if r.decision
    ]

    # one item decided meanwhile: nothing recorded, and the refusal says which
    more = candidates(live_server, lead, 30)
    [mine] = reviewer.claim(LOAD_QUEUE.id, count=1)
    assert reviewer.decide([verdict(mine)])[0]["status"] == "accepted"
    wave = [*more[:5], Candidate(mine["item"]["id"], LOAD_QUEUE.id)]
    with pytest.raises(ProblemError) as refused:
        lead.bulk_decide(new_request(wave, "keep", at=clock()))
    assert answered(refused.value)
    said = refusal(refused.value)
    assert said is not None and said.code == "bulk_refused"
    assert said.detail == "1 of 6 items cannot be decided now; nothing was recorded."
    assert [(r.item_id, r.code) for r in said.items] == [(mine["item"]["id"], "already_decided")]
    assert said.items[0].message == "Decided meanwhile by bulk-reviewer: keep."

    # the open items of one author, as the client reads them
    item = lead.item(more[0].item_id)
    listed = lead.open_items(item.author.id)
    assert more[0].item_id in [i.item_id for i in listed.items]
    assert all(i.author_id == item.author.id for i in listed.items)
    assert listed.author_ids == [item.author.id]


def test_a_network_failure_is_not_an_answer() -> None:
    assert not answered(NetworkError("down", maybe_applied=True))
    assert refusal(NetworkError("down")) is None


def test_a_wave_found_by_search_is_decided_together(live_server: LiveServer) -> None:
    apply_queues(live_server, account_queues())
    platform = key_session(live_server, "feed-bridge")
    for n in range(6):
        who = author(f"wave-{n}")
        text = f"Crypto giveaway {n}: send 1 coin, get 2 back"
        send(platform, "posts", [post(f"g-{n}", text=text, author=who)])
        send(platform, "signals", [classifier(f"g-{n}", 0.9)])
    lead = login(live_server, "search-lead", Role.lead)
    reviewer = live_server.login("search-reviewer", Role.reviewer)
    [mine] = reviewer.claim(MISINFO, count=1)
    assert reviewer.decide([verdict(mine)])[0]["status"] == "accepted"

    hits = lead.search(SearchKind.text, "giveaway", limit=50).hits
    assert len(hits) == 6
    chosen, closed = candidates_from_hits([*hits, hits[0]])  # a hit selected twice
    assert closed == 1 and len(chosen) == 5
    assert mine["item"]["id"] not in {c.item_id for c in chosen}
    assert all(c.excerpt.startswith("Crypto giveaway") for c in chosen)
    results = lead.bulk_decide(new_request(chosen, "keep", note="giveaway wave", at=time.time()))
    assert {r.status for r in results.results} == {VerdictStatus.accepted}
    again = lead.search(SearchKind.text, "giveaway", limit=50).hits
    assert {h.state for h in again} == {"decided"}
