"""The escalation worklist says what was recorded, on both databases: the reason label an
escalation was made with (as the item's banner does), whatever the queue's reasons are
now; and assigning an escalation another lead decided first names that lead."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from sqlalchemy import update

from reviewer_app.protocol import ActionConfig, ActionKind, EscalationReason, QueueConfig, Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.storage.tables import queues
from tests.support.api import claim, expect_problem, verdict
from tests.support.servers import LiveServer

ESCALATIONS = "escalations"
REASONED = SeedQueue(
    id="reasoned",
    name="Reasoned",
    description="A queue with its own escalation reasons",
    config=LOAD_QUEUE.config.model_copy(
        update={"escalation_reasons": [EscalationReason(id="network", label="Part of a network")]}
    ),
)
LEADS_QUEUE = SeedQueue(
    id=ESCALATIONS,
    name="Escalations",
    description="Hard cases for leads",
    config=QueueConfig(
        actions=[ActionConfig(id="keep", label="No violation", kind=ActionKind.keep, key="1")],
        lead_only=True,
    ),
)


@pytest.fixture
def srv(database_url: str) -> Iterator[LiveServer]:
    server = LiveServer(database_url).start()
    try:
        seed_load_queue(server.service, 3, queue=REASONED)
        with server.service.db.write() as conn:
            insert_queues(conn, [LEADS_QUEUE])
        server.service.forget_configs()
        yield server
    finally:
        server.stop()


def _escalated(server: LiveServer, n: int) -> list[str]:
    rita = server.login("rita")
    leased = claim(rita, REASONED.id, n)
    bodies = [verdict(x, "escalate", escalation_reason="network") for x in leased]
    assert {r["status"] for r in rita.decide(bodies)} == {"accepted"}
    return [x["item"]["id"] for x in leased]


def test_the_list_keeps_the_label_a_reason_was_given_with(srv: LiveServer) -> None:
    escalated = _escalated(srv, 2)
    lead = srv.login("lena", Role.lead)
    # the queue's reasons change afterwards: "network" is gone
    others = REASONED.config.model_copy(
        update={"escalation_reasons": [EscalationReason(id="other", label="Other")]}
    )
    with srv.service.db.write() as conn:
        conn.execute(
            update(queues)
            .where(queues.c.id == REASONED.id)
            .values(config=json.dumps(others.model_dump(mode="json")))
        )
    srv.service.forget_configs()
    listed = lead.get("/escalations").json()["escalations"]
    assert {e["item_id"] for e in listed} == set(escalated)
    assert {e["escalation"]["reason_label"] for e in listed} == {"Part of a network"}
    banner = lead.get(f"/items/{escalated[0]}").json()["escalation"]
    assert banner["reason_label"] == "Part of a network"


def test_assigning_one_another_lead_decided_names_them(srv: LiveServer) -> None:
    (escalated,) = _escalated(srv, 1)
    lena = srv.login("lena", Role.lead)
    theo = srv.login("theo", Role.lead)
    (held,) = claim(theo, ESCALATIONS, 1)
    assert theo.decide([verdict(held, "keep")])[0]["status"] == "accepted"
    refused = lena.request("PUT", f"/escalations/{escalated}/assignee", json={"assignee": "lena"})
    problem = expect_problem(refused, 409, "escalation_decided")
    assert problem["detail"].startswith("theo decided this escalation already")
