"""Lease renewals are in the event log: from the log alone a renewed lease is seen to last
past its first expiry. One ``renewed`` entry per renewal call and queue names the items it
renewed and their new expiry (an item's own history keeps claims, releases, expiries and
decisions; see README, "The event log")."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import ApiSession, claim, verdict
from tests.support.clock import ManualClock
from tests.support.servers import running

QUEUE = LOAD_QUEUE.id


def _events(lead: ApiSession, kind: str | None = None) -> list[dict[str, Any]]:
    params: dict[str, Any] = {"limit": 500}
    if kind:
        params["kind"] = kind
    response = lead.get("/events", params=params)
    assert response.status_code == 200, response.text
    assert response.json()["next_cursor"] is None
    found: list[dict[str, Any]] = response.json()["events"]
    return found


def _renew(session: ApiSession, tokens: list[str], seconds: int) -> list[str]:
    response = session.post("/leases/renew", json={"tokens": tokens, "lease_seconds": seconds})
    assert response.status_code == 200, response.text
    return [r["status"] for r in response.json()["results"]]


def test_renewals_are_logged(database_url: str) -> None:
    clock = ManualClock()
    with running(database_url, clock=clock) as server:
        seed_load_queue(server.service, 10)
        alice, bob = server.login("alice"), server.login("bob")
        lead = server.login("lead", Role.lead)
        mine = claim(alice, QUEUE, count=3, lease_seconds=60)
        (theirs,) = claim(bob, QUEUE, count=1, lease_seconds=60)
        renewed_ids = sorted(e["item"]["id"] for e in mine[:2])

        clock.advance(40)
        tokens = [e["lease_token"] for e in mine[:2]] + [theirs["lease_token"]]
        assert _renew(alice, tokens, 300) == ["renewed", "renewed", "unknown"]
        until = clock.now + 300
        # a call that renews nothing logs nothing
        assert _renew(alice, [theirs["lease_token"]], 300) == ["unknown"]

        (entry,) = _events(lead, "renewed")
        assert (entry["actor"], entry["queue_id"], entry["item_id"]) == ("alice", QUEUE, None)
        assert sorted(entry["data"]["item_ids"]) == renewed_ids, entry
        expires = datetime.fromisoformat(entry["data"]["lease_expires_at"]).timestamp()
        assert abs(expires - until) < 0.01, entry
        assert entry["seq"] is not None and entry["hash"] is not None, "the entry is sealed"

        # In log order: the claims, then the renewal, then what the reviewer did with it.
        clock.advance(100)  # past the first expiry, within the renewed one
        results = alice.decide([verdict(e) for e in mine[:2]])
        assert [r["status"] for r in results] == ["accepted", "accepted"], results
        leasing = {"claimed", "renewed", "decided"}
        kinds = [e["kind"] for e in _events(lead) if e["kind"] in leasing]
        assert kinds == ["claimed"] * 4 + ["renewed", "decided", "decided"], kinds
