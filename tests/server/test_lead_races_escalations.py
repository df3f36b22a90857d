"""Two ways an escalation's assignment went wrong with nobody told, over real HTTP on both
databases: one assigned to a lead whose access was ended (only a person who cannot log in
could lease it), and two leads assigning the same one from their own, stale lists (the
second silently overwrote the first).
"""

from __future__ import annotations

import requests

from reviewer_app.protocol import Role
from tests.server.test_escalations import (
    ESCALATIONS,
    REASONED,
    _assign,
    _escalate,
    _escalations,
    world,
)
from tests.support.api import ApiSession, claim, expect_problem
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

__all__ = ["world"]  # the fixture, shared with test_escalations


def _one_escalation(srv: LiveServer) -> str:
    rita = srv.login("rita")
    (leased,) = claim(rita, REASONED.id, 1)
    assert _escalate(rita, leased, "network")["status"] == "accepted"
    return str(leased["item"]["id"])


def _assign_expecting(
    lead: ApiSession, item_id: str, assignee: str | None, seen: str | None
) -> requests.Response:
    body = {"assignee": assignee, "expected": {"assignee": seen}}
    return lead.request("PUT", f"/escalations/{item_id}/assignee", json=body)


def test_an_escalation_is_not_assigned_to_a_lead_whose_access_was_ended(
    world: tuple[LiveServer, ManualClock],
) -> None:
    srv, _ = world
    target = _one_escalation(srv)
    ana = srv.login("ana", Role.lead)
    srv.login("lead3", Role.lead)
    admin = srv.login("root", Role.admin)
    ended = admin.request("DELETE", "/users/lead3/password")
    assert ended.status_code == 204, ended.text

    body = expect_problem(_assign(ana, target, "lead3"), 422, "assignee_access_ended")
    assert "lead3" in body["detail"]
    [entry] = _escalations(ana)["escalations"]
    assert entry["escalation"]["assigned_to"] is None
    kinds = [e["kind"] for e in ana.get(f"/items/{target}").json()["history"]]
    assert "escalation_assigned" not in kinds
    # any lead who can log in may still take it
    assert [e["item"]["id"] for e in claim(ana, ESCALATIONS, 5, exactly=False)] == [target]


def test_a_stale_assignment_is_refused_naming_who_holds_it_now(
    world: tuple[LiveServer, ManualClock],
) -> None:
    srv, _ = world
    target = _one_escalation(srv)
    ana = srv.login("ana", Role.lead)
    ben = srv.login("ben", Role.lead)
    # both lists show it assigned to nobody; ben takes it first
    assert _escalations(ana)["escalations"][0]["escalation"]["assigned_to"] is None
    taken = _assign_expecting(ben, target, "ben", None)
    assert taken.status_code == 200, taken.text
    # the same request again (a retry whose first reply was lost) is no conflict
    again = _assign_expecting(ben, target, "ben", None)
    assert again.status_code == 200, again.text

    # ana, from her stale list, "assign to me": refused, naming ben; nothing changed
    body = expect_problem(_assign_expecting(ana, target, "ana", None), 409, "assigned_to_other")
    assert "ben" in body["detail"]
    assert body["errors"][0]["message"] == "ben"
    [entry] = _escalations(ana)["escalations"]
    assert (entry["escalation"]["assigned_to"], entry["escalation"]["assigned_by"]) == (
        "ben",
        "ben",
    )
    # seen afresh, her change goes through (the precondition is what she saw)
    assert _assign_expecting(ana, target, "ana", "ben").status_code == 200
    # given back to nobody meanwhile: a change based on "ana" is refused too
    assert _assign_expecting(ben, target, None, "ana").status_code == 200
    expect_problem(_assign_expecting(ana, target, "ben", "ana"), 409, "assignment_changed")
    # an old client (no expected) still assigns as before
    assert _assign(ana, target, "ana").json()["escalation"]["assigned_to"] == "ana"
