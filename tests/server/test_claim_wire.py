"""Claims are sent as built from stored parts: every one must still be a valid LeaseGrant."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from reviewer_app.protocol import ActionConfig, ActionKind, LeaseGrant, QueueList, Role
from reviewer_app.server.demo_data import build_demo_dataset
from reviewer_app.server.seed import seed_dataset
from tests.support.api import verdict
from tests.support.servers import LiveServer


def _verdict_for(leased: dict[str, Any], action: ActionConfig, policy: str) -> dict[str, Any]:
    fields: dict[str, Any] = {"note": "checked in test"} if action.requires_note else {}
    if action.requires_policy or action.strike:
        fields["policies"] = [policy]
    if action.requires_rating:
        fields["rating"] = "false"
    return verdict(leased, action.id, **fields)


def test_every_demo_item_claims_as_a_valid_lease_grant(live_server: LiveServer) -> None:
    seed_dataset(live_server.service, build_demo_dataset(datetime.now(UTC)))
    lead = live_server.login("lena", Role.lead)
    queues = QueueList.model_validate_json(lead.get("/queues").content).queues
    for queue in queues:
        config = queue.config
        keep = next(a for a in config.actions if a.kind is ActionKind.keep)
        strike = next((a for a in config.actions if a.strike), keep)
        policy = config.policies[0].code
        claimed = 0
        while True:
            response = lead.post(f"/queues/{queue.id}/leases", json={"count": 50})
            assert response.status_code == 200, response.text
            grant = LeaseGrant.model_validate_json(response.content)  # the whole wire shape
            if not grant.items:
                break
            claimed += len(grant.items)
            # Every other item gets a strike, so later claims carry the authors' strikes and
            # recent decisions too.
            leased = response.json()["items"]
            bodies = [
                _verdict_for(one, strike if i % 2 else keep, policy) for i, one in enumerate(leased)
            ]
            assert {r["status"] for r in lead.decide(bodies)} == {"accepted"}
        assert claimed == queue.counts.pending, queue.id
