"""A verdict the service refuses for not fitting its queue's config (422 ``verdict_invalid``:
a lead applied a queue file that removed the action after the item was leased, before this
client refreshed its queue list), against the real service over HTTP. The refusal is told
(the journal keeps it as rejected) but the post is not lost: the queue list is fetched
again at once, the item, still leased here, is ready again and decided under the new
config; in a batch, the verdicts that fit are all delivered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from reviewer_app.core import events as ev
from reviewer_app.core.store import JournalEntry, Store
from reviewer_app.core.sync import SyncEngine
from reviewer_app.protocol import QueueFile, Role, VerdictStatus
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from reviewer_app.server.storage.tables import items
from tests.support.client import EventLog, all_decisions, engine_for, fast_settings, login
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id


def remove_the_remove_action(server: LiveServer) -> None:
    """A lead applies a queue file whose load-test queue no longer has ``remove`` (nor
    ``escalate``: a file with no escalations queue cannot have it)."""
    running = server.service.running_queue_file()
    assert running is not None
    queues = [
        q.model_copy(
            update={
                "config": q.config.model_copy(
                    update={"actions": [a for a in q.config.actions if a.id == "keep"]}
                )
            }
        )
        if q.id == QUEUE
        else q
        for q in running.queues
    ]
    assert server.service.apply_queue_file(QueueFile(queues=queues), "admin").applied


def actions_here(store: Store) -> set[str]:
    queue = store.queue(QUEUE)
    assert queue is not None
    return {a.id for a in queue.config.actions}


def entry_of(store: Store, item_id: str) -> JournalEntry:
    return next(e for e in store.journal() if e.item_id == item_id)


def leased_to(server: LiveServer, item_id: str) -> int | None:
    with server.service.db.read() as conn:
        row = conn.execute(select(items.c.lease_user_id).where(items.c.id == item_id)).one()
    return row.lease_user_id


@pytest.fixture
def engine(server: LiveServer, tmp_path: Path) -> Iterator[tuple[SyncEngine, EventLog]]:
    """An engine whose queue list says ``remove`` while the items it holds were leased
    under the config without it (the bar is stale until its next refresh)."""
    client = login(server, "rita")
    path = tmp_path / "rita.sqlite3"
    fast_settings(path, prefetch_target=3, undo_window_seconds=0)
    log = EventLog()
    engine = engine_for(server.url, path, client.token, log, clock=ManualClock())
    engine.open()
    try:
        engine.run_once()  # no queue worked yet: the queue list only
        assert engine.store is not None and "remove" in actions_here(engine.store)
        remove_the_remove_action(server)
        engine.set_active_queues([QUEUE])
        engine.run_once()  # leased under the new config; the list is not fetched again yet
        assert "remove" in actions_here(engine.store)
        assert len(engine.store.worklist(QUEUE)) == 3
        yield engine, log
    finally:
        engine.close()


def test_a_verdict_refused_for_the_config_sends_the_post_back_to_decide_again(
    server: LiveServer, engine: tuple[SyncEngine, EventLog]
) -> None:
    sync, log = engine
    store = sync.store
    assert store is not None
    item_id = store.worklist(QUEUE)[0].item_id
    store.record_verdict(item_id, action="remove", policies=["SPAM.SCAM"])
    queue_lists = len(log.of(ev.QueuesChanged))
    sync.run_once()

    # told, as before: the journal keeps the refusal with the service's reason
    refused = entry_of(store, item_id)
    assert refused.status == "rejected"
    assert refused.result is not None and refused.result.reason is not None
    assert refused.result.reason.code == "unknown_action"
    # the queue list was fetched again at once: the bar no longer offers remove
    assert len(log.of(ev.QueuesChanged)) > queue_lists
    assert "remove" not in actions_here(store)
    # the post is not lost: still leased to this reviewer, ready here, shown first
    assert leased_to(server, item_id) is not None
    rows = {r.item_id: r for r in store.worklist(QUEUE)}
    assert rows[item_id].state == "ready" and not rows[item_id].lease_lost
    shown = store.next_item(QUEUE)
    assert shown is not None and shown.item.id == item_id

    store.record_verdict(item_id, action="keep")
    sync.run_once()
    assert entry_of(store, item_id).status == "accepted"
    assert item_id not in {r.item_id for r in store.worklist(QUEUE)}
    lead = login(server, "lena", Role.lead)
    [decision] = [d for d in all_decisions(lead, "rita") if d.item_id == item_id]
    assert decision.action == "keep"


def test_a_batch_with_one_verdict_that_does_not_fit_delivers_the_others(
    server: LiveServer, engine: tuple[SyncEngine, EventLog]
) -> None:
    sync, log = engine
    store = sync.store
    assert store is not None
    first, bad, last = (r.item_id for r in store.worklist(QUEUE))
    store.record_verdict(first, action="keep")
    store.record_verdict(bad, action="remove", policies=["SPAM.SCAM"])
    store.record_verdict(last, action="keep")
    sync.run_once()  # one batch of three: the service refuses it whole, naming one

    settled = [e for s in log.of(ev.VerdictsSettled) for e in s.entries]
    assert {e.item_id: e.status for e in settled} == {
        first: VerdictStatus.accepted.value,
        bad: VerdictStatus.rejected.value,
        last: VerdictStatus.accepted.value,
    }
    assert store.pending_count() == 0
    assert [r.item_id for r in store.worklist(QUEUE) if r.state == "ready"][:1] == [bad]

    store.record_verdict(bad, action="keep")
    sync.run_once()
    lead = login(server, "lena", Role.lead)
    decided = {d.item_id: d.action for d in all_decisions(lead, "rita")}
    assert decided == {first: "keep", bad: "keep", last: "keep"}
    assert [e.status for e in store.journal() if e.item_id == bad] == ["accepted", "rejected"]
