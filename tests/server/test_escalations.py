"""Escalations carry a reason, and leads work them as a list.

Over real HTTP on both databases: a reviewer's escalation gives one of its queue's reasons
(or the defaults of a queue that lists none) and a note; the lead sees who escalated, when
and why on the item, in its history and in ``GET /escalations`` (with the wait against the
SLA, who holds it and to whom it is assigned). A reason the queue does not have is refused
with a problem document and nothing recorded. ``PUT /escalations/{id}/assignee`` gives an
escalation to one lead: another lead's claims never take it, and the assignee's claim takes
it first, whatever its priority.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select, update

from reviewer_app.protocol import (
    DEFAULT_ESCALATION_REASONS,
    EXCERPT_CHARS,
    ActionConfig,
    ActionKind,
    EscalationReason,
    QueueConfig,
    Role,
)
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.storage.tables import items
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

ESCALATIONS = "escalations"
SLA_MINUTES = 120

REASONED = SeedQueue(
    id="reasoned",
    name="Reasoned",
    description="A queue with its own escalation reasons",
    config=LOAD_QUEUE.config.model_copy(
        update={
            "escalation_reasons": [
                EscalationReason(id="network", label="Part of a network"),
                EscalationReason(id="money_lost", label="People are losing money"),
                EscalationReason(id="other", label="Other", requires_note=True),
            ]
        }
    ),
)

ESCALATION_QUEUE = SeedQueue(
    id=ESCALATIONS,
    name="Escalations",
    description="Hard cases for leads",
    config=QueueConfig(
        actions=[
            ActionConfig(
                id="keep", label="No violation", kind=ActionKind.keep, key="1", requires_note=True
            )
        ],
        lead_only=True,
        sla_minutes=SLA_MINUTES,
    ),
)


@pytest.fixture
def world(database_url: str) -> Iterator[tuple[LiveServer, ManualClock]]:
    clock = ManualClock()
    srv = LiveServer(database_url, clock=clock).start()
    try:
        seed_load_queue(srv.service, 12, queue=REASONED)
        seed_load_queue(srv.service, 6)  # the load queue: no reasons of its own (defaults)
        with srv.service.db.write() as conn:
            insert_queues(conn, [ESCALATION_QUEUE])
        srv.service.forget_configs()
        yield srv, clock
    finally:
        srv.stop()


def _escalate(
    session: ApiSession, leased: dict[str, Any], reason: str | None, note: str | None = None
) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if reason is not None:
        fields["escalation_reason"] = reason
    if note is not None:
        fields["note"] = note
    (result,) = session.decide([verdict(leased, "escalate", **fields)])
    return result


def _escalations(lead: ApiSession, **params: Any) -> dict[str, Any]:
    response = lead.get("/escalations", params=params)
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


def _assign(lead: ApiSession, item_id: str, assignee: str | None) -> Any:
    return lead.request("PUT", f"/escalations/{item_id}/assignee", json={"assignee": assignee})


def test_the_reason_travels_with_the_escalation_to_the_lead(
    world: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = world
    rita = srv.login("rita")
    lead = srv.login("lena", Role.lead)
    (leased,) = claim(rita, REASONED.id, 1)
    item_id = leased["item"]["id"]
    result = _escalate(rita, leased, "network", "same wording as yesterday's wave")
    assert result["status"] == "accepted", result
    assert result["decision"]["escalation_reason"] == "network"
    escalated_at = clock()

    clock.advance(3 * 3600)  # over the escalation queue's two-hour SLA
    item = lead.get(f"/items/{item_id}").json()
    escalation = item["escalation"]
    assert escalation["escalated_by"] == "rita"
    assert escalation["from_queue_id"] == REASONED.id
    assert escalation["reason"] == "network"
    assert escalation["reason_label"] == "Part of a network"
    assert escalation["note"] == "same wording as yesterday's wave"
    assert escalation["assigned_to"] is None
    assert abs(_epoch(escalation["escalated_at"]) - escalated_at) < 1
    last = item["history"][-1]
    assert last["kind"] == "escalated" and last["actor"] == "rita"
    assert (last["data"]["reason"], last["data"]["reason_label"]) == (
        "network",
        "Part of a network",
    )

    page = _escalations(lead)
    assert page["total"] == 1 and page["next_cursor"] is None
    (entry,) = page["escalations"]
    assert entry["item_id"] == item_id
    assert entry["excerpt"] == " ".join(leased["item"]["post"]["text"].split())[:280]
    assert entry["escalation"]["reason_label"] == "Part of a network"
    assert entry["escalation"]["escalated_by"] == "rita"
    assert entry["waiting_seconds"] == 3 * 3600
    assert entry["sla_seconds"] == SLA_MINUTES * 60 and entry["over_sla"] is True
    assert (entry["state"], entry["held_by"]) == ("waiting", None)

    # the lead claims it: it shows as held by them, and the claim carries the escalation
    (held,) = claim(lead, ESCALATIONS, 1)
    assert held["item"]["escalation"]["reason"] == "network"
    (entry,) = _escalations(lead)["escalations"]
    assert (entry["state"], entry["held_by"]) == ("held", "lena")
    decided = lead.decide([verdict(held, "keep", note="not coordinated after all")])
    assert decided[0]["status"] == "accepted", decided
    assert _escalations(lead) == {"escalations": [], "total": 0, "next_cursor": None}


def test_a_queue_without_reasons_offers_the_defaults_and_an_escalation_may_give_none(
    world: tuple[LiveServer, ManualClock],
) -> None:
    srv, _ = world
    rita = srv.login("rita")
    lead = srv.login("lena", Role.lead)
    queues = {q["id"]: q for q in rita.get("/queues").json()["queues"]}
    assert queues[LOAD_QUEUE.id]["config"]["escalation_reasons"] == []
    first, second = claim(rita, LOAD_QUEUE.id, 2)
    default = DEFAULT_ESCALATION_REASONS[0]
    assert _escalate(rita, first, default.id)["status"] == "accepted"
    # API v1: a client that asks for no reason still escalates (the desk always asks)
    assert _escalate(rita, second, None)["status"] == "accepted"
    by_item = {e["item_id"]: e["escalation"] for e in _escalations(lead)["escalations"]}
    assert by_item[first["item"]["id"]]["reason_label"] == default.label
    assert by_item[second["item"]["id"]]["reason"] is None
    assert by_item[second["item"]["id"]]["escalated_by"] == "rita"


@pytest.mark.parametrize(
    ("action", "fields", "code"),
    [
        ("escalate", {"escalation_reason": "policy_unclear"}, "unknown_escalation_reason"),
        ("escalate", {"escalation_reason": "no-such-reason"}, "unknown_escalation_reason"),
        ("escalate", {"escalation_reason": "other"}, "escalation_note_required"),
        ("escalate", {"escalation_reason": "other", "note": "  "}, "escalation_note_required"),
        ("keep", {"escalation_reason": "network"}, "escalation_reason_not_allowed"),
    ],
)
def test_a_reason_the_queue_does_not_have_is_refused_and_nothing_is_recorded(
    world: tuple[LiveServer, ManualClock], action: str, fields: dict[str, Any], code: str
) -> None:
    srv, _ = world
    rita = srv.login("rita")
    lead = srv.login("lena", Role.lead)
    (leased,) = claim(rita, REASONED.id, 1)
    response = rita.post("/verdicts", json={"verdicts": [verdict(leased, action, **fields)]})
    problem = expect_problem(response, 422, "verdict_invalid")
    found = [e for e in problem["errors"] if e["code"] == code]
    assert found, problem
    assert found[0]["loc"][:2] == ["verdicts", 0]
    if code == "unknown_escalation_reason":
        # the message names the reasons the queue does have
        assert "network, money_lost, other" in found[0]["message"], found
    # nothing recorded: the item is still hers and undecided, no escalation waits
    item = lead.get(f"/items/{leased['item']['id']}").json()
    assert (item["queue_id"], item["state"], item["decision"]) == (REASONED.id, "leased", None)
    assert _escalations(lead)["total"] == 0
    # and the same verdict with a reason of the queue goes through
    fixed = verdict(leased, "escalate", escalation_reason="other", note="unsure")
    assert rita.decide([fixed])[0]["status"] == "accepted"


def test_an_escalation_assigned_to_one_lead_is_claimed_by_that_lead_only(
    world: tuple[LiveServer, ManualClock],
) -> None:
    srv, _ = world
    rita = srv.login("rita")
    ana = srv.login("ana", Role.lead)
    ben = srv.login("ben", Role.lead)
    leased = claim(rita, REASONED.id, 4)
    for entry in leased:
        assert _escalate(rita, entry, "money_lost")["status"] == "accepted"
    page = _escalations(ana, limit=2)
    assert page["total"] == 4 and len(page["escalations"]) == 2 and page["next_cursor"]
    rest = _escalations(ana, limit=2, cursor=page["next_cursor"])
    assert len(rest["escalations"]) == 2 and rest["next_cursor"] is None
    listed = [e["item_id"] for e in page["escalations"] + rest["escalations"]]
    assert sorted(listed) == sorted(e["item"]["id"] for e in leased)

    # the one ana would claim first (highest priority) goes to ben
    (probe,) = claim(ana, ESCALATIONS, 1)
    target = probe["item"]["id"]
    released = ana.post("/leases/release", json={"tokens": [probe["lease_token"]]})
    assert released.status_code == 200
    response = _assign(ana, target, "ben")
    assert response.status_code == 200, response.text
    entry = response.json()
    assert entry["escalation"]["assigned_to"] == "ben"
    assert entry["escalation"]["assigned_by"] == "ana"
    assert ana.get(f"/items/{target}").json()["history"][-1]["kind"] == "escalation_assigned"

    # ana's "review now" takes everything else, never ben's
    others = claim(ana, ESCALATIONS, 10, exactly=False)
    assert len(others) == 3 and target not in {e["item"]["id"] for e in others}
    ana.post("/leases/release", json={"tokens": [e["lease_token"] for e in others]})

    # an escalation ana picks for herself comes first in her next claim, whatever its
    # priority (the lowest of the rest here)
    lowest = others[-1]["item"]["id"]
    assert _assign(ana, lowest, "ana").status_code == 200
    (picked,) = claim(ana, ESCALATIONS, 1)
    assert picked["item"]["id"] == lowest
    # ben's claim takes his first too
    (his,) = claim(ben, ESCALATIONS, 1)
    assert his["item"]["id"] == target
    holders = {e["item_id"]: e for e in _escalations(ben)["escalations"]}
    assert (holders[target]["held_by"], holders[target]["escalation"]["assigned_to"]) == (
        "ben",
        "ben",
    )
    assert holders[lowest]["held_by"] == "ana"

    # assigned to nobody again: anyone's claim may take it
    ben.post("/leases/release", json={"tokens": [his["lease_token"]]})
    assert _assign(ben, target, None).json()["escalation"]["assigned_to"] is None
    again = claim(ana, ESCALATIONS, 10, exactly=False)
    assert target in {e["item"]["id"] for e in again}


def test_assignment_is_checked(world: tuple[LiveServer, ManualClock]) -> None:
    srv, _ = world
    rita = srv.login("rita")
    ana = srv.login("ana", Role.lead)
    first, second = claim(rita, REASONED.id, 2)
    assert _escalate(rita, first, "network")["status"] == "accepted"
    escalated = first["item"]["id"]
    expect_problem(_assign(ana, escalated, "rita"), 422, "assignee_not_lead")
    expect_problem(_assign(ana, escalated, "nobody-here"), 422, "unknown_user")
    expect_problem(_assign(ana, second["item"]["id"], "ana"), 409, "not_open_escalation")
    expect_problem(_assign(ana, "no-such-item", "ana"), 404, "unknown_item")
    expect_problem(_assign(rita, escalated, "ana"), 403)
    expect_problem(rita.get("/escalations"), 403)
    assert _escalations(ana)["escalations"][0]["escalation"]["assigned_to"] is None


def test_a_lead_made_a_reviewer_leaves_no_escalation_waiting_for_them(
    world: tuple[LiveServer, ManualClock],
) -> None:
    """An escalation assigned to a lead who is then made a reviewer goes back to nobody:
    otherwise every other lead's claim passes it by, and its assignee can no longer claim
    in the leads-only queue at all."""
    srv, _ = world
    rita = srv.login("rita")
    ana = srv.login("ana", Role.lead)
    ben = srv.login("ben", Role.lead)
    admin = srv.login("root", Role.admin)
    (leased,) = claim(rita, REASONED.id, 1)
    assert _escalate(rita, leased, "network")["status"] == "accepted"
    target = leased["item"]["id"]
    assert _assign(ana, target, "ben").status_code == 200
    assert claim(ana, ESCALATIONS, 5, exactly=False) == [], "kept for ben"

    demoted = admin.request("PUT", "/users/ben/role", json={"role": "reviewer"})
    assert demoted.status_code == 200, demoted.text
    [entry] = _escalations(ana)["escalations"]
    assert entry["escalation"]["assigned_to"] is None
    last = ana.get(f"/items/{target}").json()["history"][-1]
    assert (last["kind"], last["actor"]) == ("escalation_assigned", "root")
    assert (last["data"]["assignee"], last["data"]["previous"]) == (None, "ben")
    assert [e["item"]["id"] for e in claim(ana, ESCALATIONS, 5, exactly=False)] == [target]
    expect_problem(ben.post(f"/queues/{ESCALATIONS}/leases", json={"count": 1}), 403)


def test_a_long_post_is_cut_for_the_worklist_not_refused(
    world: tuple[LiveServer, ManualClock],
) -> None:
    """A post of more than 200 characters in the escalations worklist: its row's excerpt
    was cut to 280 characters and then refused by the wire's own 200-character limit, so
    every lead's worklist answered 500 for as long as it was open."""
    srv, _ = world
    rita = srv.login("rita")
    ana = srv.login("ana", Role.lead)
    (leased,) = claim(rita, REASONED.id, 1)
    item_id = leased["item"]["id"]
    text = "A long post\n\nwith   spaces " + "word " * 200
    with srv.service.db.write() as conn:
        payload = conn.execute(select(items.c.payload).where(items.c.id == item_id)).scalar_one()
        document = json.loads(payload)
        document["post"]["text"] = text
        conn.execute(
            update(items).where(items.c.id == item_id).values(payload=json.dumps(document))
        )
    assert _escalate(rita, leased, "network")["status"] == "accepted"
    [entry] = _escalations(ana)["escalations"]
    cut = " ".join(text.split())[:EXCERPT_CHARS]
    assert entry["excerpt"] == cut + "…"


def _epoch(text: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def test_an_escalation_decided_while_a_lead_pages_on_makes_none_skipped(
    world: tuple[LiveServer, ManualClock],
) -> None:
    """The next page starts after the last escalation shown, not after a count of them: one
    decided from the first page made an offset skip the first of the next page."""
    srv, _ = world
    rita = srv.login("rita")
    ana = srv.login("ana", Role.lead)
    ben = srv.login("ben", Role.lead)
    for entry in claim(rita, REASONED.id, 5):
        assert _escalate(rita, entry, "money_lost")["status"] == "accepted"
    everything = [e["item_id"] for e in _escalations(ana, limit=50)["escalations"]]
    first = _escalations(ana, limit=2)
    shown = [e["item_id"] for e in first["escalations"]]
    assert shown == everything[:2]
    held = claim(ben, ESCALATIONS, 5, exactly=False)
    (taken,) = [x for x in held if x["item"]["id"] == shown[0]]
    assert ben.decide([verdict(taken, "keep", note="seen")])[0]["status"] == "accepted"
    others = [x["lease_token"] for x in held if x is not taken]
    assert ben.post("/leases/release", json={"tokens": others}).status_code == 200
    seen, cursor = list(shown), first["next_cursor"]
    while cursor:
        page = _escalations(ana, limit=2, cursor=cursor)
        seen += [e["item_id"] for e in page["escalations"]]
        cursor = page["next_cursor"]
    assert seen == everything, "none skipped, none twice"
    expect_problem(ana.get("/escalations", params={"cursor": "bm90IGEgY3Vyc29y"}), 400)
