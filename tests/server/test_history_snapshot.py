"""An item's history is read in two parts, the entries the sequencer has sealed and then
those it has not sealed yet. Both parts come from one snapshot, so an entry sealed between
the two reads is in neither only if the reads saw two moments. Here the sequencer's round
is made to happen just there, on each database."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from reviewer_app.protocol import Role
from reviewer_app.server.domain import history
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.storage.tables import events
from tests.support.servers import LiveServer


def test_an_entry_sealed_while_the_history_is_read_is_shown_once(
    live_server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_load_queue(live_server.service, 3)
    live_server.service.seal_now()
    alice = live_server.login("alice")
    lead = live_server.login("lead", Role.lead)
    live_server.service.sequencer.stop()  # its rounds only where this test makes them
    [held] = alice.claim(LOAD_QUEUE.id, 1)  # its 'leased' entry, not sealed yet
    item_id = held["item"]["id"]
    with live_server.service.db.read() as conn:
        unsealed = conn.execute(
            select(func.count())
            .select_from(events)
            .where(events.c.item_id == item_id, events.c.seq.is_(None))
        ).scalar_one()
    assert unsealed >= 1

    read_sealed = history.sealed_rows
    rounds: list[int] = []

    def sealed_then_a_sequencer_round(*args: object, **kwargs: object) -> list[object]:
        rows = read_sealed(*args, **kwargs)  # type: ignore[arg-type]
        rounds.append(live_server.service.seal_now())  # between the two reads
        return rows

    monkeypatch.setattr(history, "sealed_rows", sealed_then_a_sequencer_round)
    shown = lead.get(f"/items/{item_id}/history").json()["events"]
    monkeypatch.undo()
    assert rounds and rounds[0] >= 1, "the round sealed the claim's entry"

    with live_server.service.db.read() as conn:
        stored = conn.execute(
            select(func.count()).select_from(events).where(events.c.item_id == item_id)
        ).scalar_one()
    assert len(shown) == stored
    assert len({e["id"] for e in shown}) == len(shown)
