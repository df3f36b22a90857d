"""The Escalations tab as a worklist, with two leads, against the real demo service.

Each open escalation is a row (excerpt, queue, who escalated it, when, why, wait against
the SLA, holder, assignee), untrusted strings isolated with the whole text in the tooltip.
The lead assigns one to a second lead (whose claim then takes it first) and picks another
to review now with Enter: the review flow opens on exactly that post, and the other lead's
claims never get it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.protocol import Role
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession, claim, verdict
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

K = Qt.Key
QUEUE = "spam-scams"
SECOND = "lead-two"


def _escalate_two(server: LiveServer) -> list[str]:
    reviewer = ApiSession.login(server.url, *REVIEWER)
    leased = claim(reviewer, QUEUE, 2)
    bodies = [
        verdict(leased[0], "escalate", escalation_reason="impersonation", note="a bank's logo"),
        verdict(leased[1], "escalate", escalation_reason="network"),
    ]
    assert {r["status"] for r in reviewer.decide(bodies)} == {"accepted"}
    return [x["item"]["id"] for x in leased]


def _row(view, item_id: str) -> int:
    return next(i for i, e in enumerate(view.model.entries) if e.item_id == item_id)


def test_two_leads_assign_and_pick_escalations(demo_server: LiveServer, desk_factory) -> None:
    demo_server.add_user(SECOND, Role.lead)
    second = ApiSession.login(demo_server.url, SECOND, PASSWORD)
    # the lead's desk opens on the escalation queue and holds one of the demo's (triage)
    desk: Desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    window = desk.window
    assert desk.current_id() is not None
    assigned, picked = _escalate_two(demo_server)
    lead = window.lead
    assert lead is not None
    window.show_mode(1)
    lead.setCurrentWidget(lead.escalations)
    view = lead.escalations
    desk.wait(lambda: {assigned, picked} <= {e.item_id for e in view.model.entries}, 20_000)

    # the rows say who escalated each, why (the queue's label), from where; tooltips whole
    model = view.model
    row = _row(view, assigned)
    cells = [model.index(row, c).data() for c in range(model.columnCount())]
    assert cells[3] == isolate(REVIEWER[0])
    assert cells[5] == isolate("Impersonates a brand or person")
    assert cells[2] == isolate(lead.escalations.model.queue_names[QUEUE])
    tip = model.index(row, 5).data(Qt.ItemDataRole.ToolTipRole)
    assert "a bank" in tip and "logo" in tip
    excerpt_tip = model.index(row, 1).data(Qt.ItemDataRole.ToolTipRole)
    assert excerpt_tip and len(model.index(row, 1).data()) > 2
    triaged = [e for e in model.entries if e.escalation.escalated_by is None]
    assert triaged, "the demo's triage escalations are listed too"
    assert model.index(_row(view, triaged[0].item_id), 3).data() == "triage"

    # assign one to the second lead: it shows, and their claim takes it first
    view.table.setFocus()
    view.table.selectRow(row)
    view.lead_picker.setCurrentText(SECOND)
    view.assign_button.click()
    desk.wait(
        lambda: (
            next(e for e in view.model.entries if e.item_id == assigned).escalation.assigned_to
            == SECOND
        ),
        20_000,
    )
    assert model.index(_row(view, assigned), 7).data() == isolate(SECOND)
    (theirs,) = claim(second, "escalations", 1)
    assert theirs["item"]["id"] == assigned

    # pick the other with Enter: assigned to me, and the review flow opens on it (before
    # the one the lead had on screen, which stays theirs)
    view.table.selectRow(_row(view, picked))
    QTest.keyClick(view.table, K.Key_Return)
    desk.wait(lambda: window.modes is not None and window.modes.currentIndex() == 0, 20_000)
    desk.wait(lambda: desk.current_id() == picked, 30_000)
    assert window.review.queue is not None and window.review.queue.id == "escalations"
    banner = window.post.escalation.text()
    assert isolate("Part of a network") in banner and f"Assigned to {isolate(LEAD[0])}" in banner
    # the second lead's "review now" never gets it
    rest = claim(second, "escalations", 50, exactly=False)
    assert picked not in {x["item"]["id"] for x in rest}

    # back on the list: who holds what (once the list shows the second lead's claims)
    theirs_now = {assigned} | {x["item"]["id"] for x in rest}
    window.show_mode(1)
    view.refresh()

    def holders() -> dict[str, str | None]:
        return {e.item_id: e.held_by for e in view.model.entries}

    desk.wait(lambda: all(holders().get(i) == SECOND for i in theirs_now), 20_000)
    assert holders()[picked] == LEAD[0]
    held, assignees = view.holders.text().split("Assigned to:")
    assert f"{isolate(SECOND)} ({len(theirs_now)})" in held
    assert f"{isolate(LEAD[0])} (" in held
    assert f"{isolate(SECOND)} (1)" in assignees and f"{isolate(LEAD[0])} (1)" in assignees
