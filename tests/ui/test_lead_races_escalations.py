"""Two leads assigning the same escalation from their own lists (real demo service over
HTTP, offscreen): the one whose list is stale is refused, told who has it now, and sees the
list read again; the other lead's assignment stands. An escalation is never assigned to a
lead whose access was ended."""

from __future__ import annotations

from collections.abc import Callable

from reviewer_app.protocol import Role
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import LEAD, Desk
from tests.ui.test_escalations_desk_changes import SECOND, _escalate, _open, _row

ADMIN = ("admin", "review-desk-admin")


def test_assign_to_me_from_a_stale_list_says_who_has_it_and_reads_the_list_again(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    demo_server.add_user(SECOND, Role.lead)
    desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    escalated = _escalate(demo_server)
    view = _open(desk, escalated)
    assert view.model.entries[_row(view, escalated)].escalation.assigned_to is None

    second = ApiSession.login(demo_server.url, SECOND, PASSWORD)
    taken = second.request("PUT", f"/escalations/{escalated}/assignee", json={"assignee": SECOND})
    assert taken.status_code == 200, taken.text

    view.table.selectRow(_row(view, escalated))  # the list still shows it unassigned
    view.mine_button.click()
    desk.wait(lambda: "Not changed" in view.status.text())
    status = view.status.text()
    assert status.startswith(f"Not changed: {isolate(SECOND)} has this escalation now."), status
    desk.wait(
        lambda: (
            not view.loading
            and view.model.entries[_row(view, escalated)].escalation.assigned_to == SECOND
        )
    )
    now = second.get("/escalations").json()["escalations"]
    assert {e["item_id"]: e["escalation"]["assigned_to"] for e in now}[escalated] == SECOND


def test_a_lead_whose_access_was_ended_is_refused_as_assignee(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    demo_server.add_user("lead3", Role.lead)
    admin = ApiSession.login(demo_server.url, *ADMIN)
    assert admin.request("DELETE", "/users/lead3/password").status_code == 204
    desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    escalated = _escalate(demo_server)
    view = _open(desk, escalated)
    view.table.selectRow(_row(view, escalated))
    view.lead_picker.setCurrentText("lead3")
    view.assign_button.click()
    desk.wait(lambda: view.status.text() != "" and not view.loading)
    status = view.status.text()
    assert "Assigned to" not in status and "can no longer log in" in status, status
    assert view.model.entries[_row(view, escalated)].escalation.assigned_to is None
