"""The Escalations tab when the service changed under it: a queue file that relabelled a
reason or removed a queue, another lead who took or decided an escalation after the list
loaded, and a lead made a reviewer while the tab is open. Against the real demo service.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.protocol import EscalationReason, Role
from reviewer_app.ui.lead.escalations import EscalationsView
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession, claim, verdict
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

QUEUE = "spam-scams"
SECOND = "lead-two"
ADMIN = ("admin", "review-desk-admin")
LABEL = "Impersonates a brand or person"


def _escalate(server: LiveServer) -> str:
    reviewer = ApiSession.login(server.url, *REVIEWER)
    (leased,) = claim(reviewer, QUEUE, 1)
    body = verdict(leased, "escalate", escalation_reason="impersonation")
    assert reviewer.decide([body])[0]["status"] == "accepted"
    return str(leased["item"]["id"])


def _open(desk: Desk, item_id: str) -> EscalationsView:
    window = desk.window
    assert window.lead is not None
    window.show_mode(1)
    window.lead.setCurrentWidget(window.lead.escalations)
    view = window.lead.escalations
    desk.wait(lambda: item_id in {e.item_id for e in view.model.entries} and not view.loading)
    return view


def _reload(desk: Desk, view: EscalationsView) -> None:
    view.refresh()
    desk.wait(lambda: not view.loading)


def _row(view: EscalationsView, item_id: str) -> int:
    return next(i for i, e in enumerate(view.model.entries) if e.item_id == item_id)


def _apply(server: LiveServer, edit: Callable[[list[Any]], list[Any]], **kw: Any) -> None:
    running = server.service.running_queue_file()
    assert running is not None
    changed = running.model_copy(update={"queues": edit(running.queues)})
    server.service.apply_queue_file(changed, "admin", **kw)


def test_a_dropped_reason_keeps_the_label_it_was_escalated_with(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    """The "Why" cell says what the item's banner says: the label recorded when it was
    escalated, not the reason's raw id once the queue file no longer has it."""
    desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    escalated = _escalate(demo_server)
    view = _open(desk, escalated)

    def only_other(queues: list[Any]) -> list[Any]:
        other = [EscalationReason(id="other", label="Other")]
        return [
            q.model_copy(
                update={"config": q.config.model_copy(update={"escalation_reasons": other})}
            )
            if q.id == QUEUE
            else q
            for q in queues
        ]

    _apply(demo_server, only_other)
    _reload(desk, view)
    why = view.model.index(_row(view, escalated), 5).data()
    lead = ApiSession.login(demo_server.url, *LEAD)
    banner = lead.get(f"/items/{escalated}").json()["escalation"]["reason_label"]
    assert banner == LABEL
    assert why == isolate(LABEL)


def test_escalations_from_a_removed_queue_are_counted(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    """A queue removed (its items drained to another) still has its open escalations
    counted above the list, by its id, said to be removed."""
    desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    escalated = _escalate(demo_server)
    view = _open(desk, escalated)
    _apply(demo_server, lambda qs: [q for q in qs if q.id != QUEUE], drain_to="misinformation")
    _reload(desk, view)
    assert escalated in {e.item_id for e in view.model.entries}
    lines = view.per_queue.text().splitlines()
    removed = f"{isolate(QUEUE)} (a queue since removed)"
    from_it = sum(e.from_queue_id == QUEUE for e in view.model.entries)
    assert f"{removed}: {from_it} open" in lines, lines
    assert view.model.index(_row(view, escalated), 2).data() == removed


def _held_by_second(server: LiveServer) -> list[dict[str, Any]]:
    second = ApiSession.login(server.url, SECOND, PASSWORD)
    return claim(second, "escalations", 50, exactly=False)


def test_reviewing_one_another_lead_holds_says_who(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    """The pick ("Review this one now") of a row another lead holds: assigned to me, and
    the status still says who decides it now (not replaced by "Assigned to lead.")."""
    demo_server.add_user(SECOND, Role.lead)
    desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    escalated = _escalate(demo_server)
    _held_by_second(demo_server)
    view = _open(desk, escalated)
    desk.wait(lambda: view.model.entries[_row(view, escalated)].held_by == SECOND)
    view.table.selectRow(_row(view, escalated))
    view.pick_button.click()
    desk.wait(lambda: "Assigned" in view.status.text())
    status = view.status.text()
    assert f"Assigned to {isolate(LEAD[0])}." in status
    assert f"{isolate(SECOND)} is deciding this escalation now" in status


def test_a_pick_another_lead_took_meanwhile_waits_for_them(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    """The list showed the escalation free; another lead took it before the pick: the
    reply says who holds it, so the lead is told, and the review flow neither opens on
    some other post nor waits for this one."""
    demo_server.add_user(SECOND, Role.lead)
    desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    window = desk.window
    before = desk.current_id()
    escalated = _escalate(demo_server)
    view = _open(desk, escalated)
    assert view.model.entries[_row(view, escalated)].held_by is None
    assert escalated in {x["item"]["id"] for x in _held_by_second(demo_server)}
    requested: list[str] = []
    view.item_requested.connect(lambda _queue, item: requested.append(item))
    view.table.setFocus()
    view.table.selectRow(_row(view, escalated))
    QTest.keyClick(view.table, Qt.Key.Key_Return)
    desk.wait(lambda: "Assigned" in window.message.text() and not view.loading)
    assert f"{isolate(SECOND)} is deciding this escalation now" in window.message.text()
    assert requested == []
    assert window.review.preferred is None
    assert window.modes is not None and window.modes.currentIndex() == 1
    assert desk.current_id() == before


def test_assigning_one_another_lead_decided_says_so(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    """Another lead decided the escalation after the list loaded: assigning it says that
    in words, with who (the service names them), not a generic refusal."""
    demo_server.add_user(SECOND, Role.lead)
    desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    escalated = _escalate(demo_server)
    view = _open(desk, escalated)
    taken = next(x for x in _held_by_second(demo_server) if x["item"]["id"] == escalated)
    second = ApiSession.login(demo_server.url, SECOND, PASSWORD)
    decided = second.decide([verdict(taken, "no-violation", note="not a scam")])
    assert decided[0]["status"] == "accepted", decided
    view.table.selectRow(_row(view, escalated))
    view.mine_button.click()
    desk.wait(lambda: "decided" in view.status.text())
    status = view.status.text()
    assert status.startswith("This escalation was decided already."), status
    assert f"{SECOND} decided this escalation already" in status
    assert "Change what it refused" not in status


def test_a_lead_made_a_reviewer_sees_the_list_cleared(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    """The service refuses the list (403) once the lead is made a reviewer: the rows they
    may no longer see go, with their actions, and the tab says why."""
    desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    escalated = _escalate(demo_server)
    view = _open(desk, escalated)
    view.table.selectRow(_row(view, escalated))
    assert view.pick_button.isEnabled()
    admin = ApiSession.login(demo_server.url, *ADMIN)
    changed = admin.request("PUT", "/users/lead/role", json={"role": "reviewer"})
    assert changed.status_code == 200, changed.text
    view.refresh()
    desk.wait(lambda: not view.loading)
    assert view.model.rowCount() == 0
    buttons = (view.pick_button, view.mine_button, view.assign_button, view.unassign_button)
    assert not any(b.isEnabled() for b in (*buttons, view.review_button))
    assert "no longer lets this account see the escalations" in view.summary.text()
    assert view.per_queue.text() == "" and view.holders.text() == ""
