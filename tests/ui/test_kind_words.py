"""Every kind the protocol can send is shown in words, never as its wire value: a new
``EventKind`` or ``QueueReasonKind`` fails here until the UI has words (and translations)
for it."""

from __future__ import annotations

import pytest

from reviewer_app.protocol import EventKind
from reviewer_app.protocol.items import QueueReasonKind
from reviewer_app.ui import context_panels
from reviewer_app.ui.lead import decision_history as decisions
from reviewer_app.ui.plain import isolate

TABLES = {
    "item history (ContextPanels)": (context_panels.EVENT_WORDS, EventKind),
    "event log and history (LeadDecisions)": (decisions.EVENT_WORDS, EventKind),
    "why queued (ContextPanels)": (context_panels.REASON_WORDS, QueueReasonKind),
}


@pytest.mark.parametrize("where", sorted(TABLES))
def test_every_kind_has_words(where: str) -> None:
    table, kinds = TABLES[where]
    missing = [k.value for k in kinds if k.value not in table]
    assert not missing, f"{where} has no words for {missing}"
    unknown = set(table) - {k.value for k in kinds}
    assert not unknown, f"{where} has words for kinds the protocol does not have: {unknown}"


def test_an_intake_event_is_told_in_words() -> None:
    from datetime import UTC, datetime

    from reviewer_app.protocol import Event

    event = Event(
        id=7,
        at=datetime(2026, 12, 1, 12, 0, tzinfo=UTC),
        kind=EventKind.withdrawn,
        actor="feed-bridge",
        item_id="it-1",
        queue_id="misinformation",
        data={"post": "p-1", "reason": "deleted", "lease_ended": True},
    )
    line = decisions.event_line(event)
    # names and values from the wire are isolated (FSI…PDI) inside the app's words
    assert f"withdrawn by the platform by {isolate('feed-bridge')}" in line
    assert f"post: {isolate('p-1')}; reason: {isolate('deleted')}; lease ended: yes" in line
