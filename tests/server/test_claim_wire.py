"""Claims are sent as built from stored parts: every one must still be a valid LeaseGrant."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from reviewer_app.protocol import ActionConfig, ActionKind, LeaseGrant, QueueList, Role
from reviewer_app.server.demo_data import build_demo_dataset
from reviewer_app.server.seed import LOAD_QUEUE, seed_dataset, synthetic_items
from reviewer_app.server.seed_types import Dataset
from tests.support.api import claim, verdict
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


def test_an_items_author_shows_their_five_newest_decisions_newest_first(
    live_server: LiveServer,
) -> None:
    """Each author's newest decisions are looked up per author (LIMIT 5 each): an author
    with more than five, one with fewer and one with none must each come out right."""
    authors, made = synthetic_items(14, LOAD_QUEUE.id, datetime.now(UTC), authors_count=1)
    prolific = authors[0]
    few = replace(prolific, id="few-decisions", handle="few")
    none = replace(prolific, id="no-decisions", handle="none")
    items = [
        replace(item, author_id=(few.id if i in (10, 11) else none.id) if i >= 10 else prolific.id)
        for i, item in enumerate(made)
    ]
    seed_dataset(
        live_server.service,
        Dataset(queues=(LOAD_QUEUE,), authors=(prolific, few, none), items=tuple(items)),
    )
    reviewer = live_server.login("rita")
    leased = {e["item"]["id"]: e for e in claim(reviewer, LOAD_QUEUE.id, 14)}
    # One batch each, in this order: decision ids rise with it.
    decided = [i.id for i in items[:10]] + [items[10].id]
    for item_id in decided:
        results = reviewer.decide([verdict(leased[item_id], "keep")])
        assert [r["status"] for r in results] == ["accepted"]

    def recent(item_id: str) -> list[str]:
        whole = reviewer.get(f"/items/{item_id}").json()
        return [d["item_id"] for d in whole["author"]["recent_decisions"]]

    assert recent(items[0].id) == list(reversed(decided[5:10]))
    assert recent(items[11].id) == [items[10].id]
    assert recent(items[12].id) == []
