"""Verdicts over real HTTP: idempotency keys, fencing by lease tokens, escalation, config checks.

Per verdict the service answers ``accepted``, ``duplicate`` (same key, same body),
``conflict`` (with the decision that won) or ``rejected`` (with why); the same key with
another body, or a verdict that does not fit the queue's config, is a 422 that records
nothing of its batch.
"""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import requests

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    PolicyConfig,
    QueueConfig,
    Role,
    StatementCategory,
    UserCreate,
)
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.service import Service
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.clock import ManualClock
from tests.support.servers import PASSWORD, LiveServer, ServerProcess, running

QUEUE = LOAD_QUEUE.id
ESCALATIONS = "escalations"

ESCALATION_QUEUE = SeedQueue(
    id=ESCALATIONS,
    name="Escalations",
    description="Hard cases for leads; every decision needs a note",
    config=QueueConfig(
        actions=[
            ActionConfig(
                id="keep", label="No violation", kind=ActionKind.keep, key="1", requires_note=True
            ),
            ActionConfig(
                id="remove",
                label="Remove",
                kind=ActionKind.remove,
                key="2",
                requires_policy=True,
                requires_note=True,
                strike=True,
            ),
        ],
        policies=[
            PolicyConfig(
                code="SPAM.SCAM",
                label="Scam",
                terms_clause="Terms of Service 6.1 (Scams)",
                category=StatementCategory.scams_and_fraud,
            )
        ],
        lead_only=True,
    ),
)


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    """The live service with a small load queue (keep / remove with SPAM.SCAM / escalate)."""
    seed_load_queue(live_server.service, 20)
    return live_server


# -- helpers ----------------------------------------------------------------------------------


def post_verdicts(session: ApiSession, verdicts: list[dict[str, Any]]) -> requests.Response:
    return session.post("/verdicts", json={"verdicts": verdicts})


def decide_one(session: ApiSession, body: dict[str, Any]) -> dict[str, Any]:
    results = session.decide([body])
    assert len(results) == 1, results
    assert results[0]["idempotency_key"] == body["idempotency_key"], results
    assert results[0]["item_id"] == body["item_id"], results
    return results[0]


def decisions_for(lead: ApiSession, item_id: str) -> list[dict[str, Any]]:
    """Every decision on the item, through the lead route (paged to the end)."""
    found: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        params: dict[str, Any] = {"limit": 500}
        if cursor:
            params["cursor"] = cursor
        response = lead.get("/decisions", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        found += [d for d in page["decisions"] if d["item_id"] == item_id]
        cursor = page["next_cursor"]
        if cursor is None:
            return found


def all_decisions(lead: ApiSession) -> list[dict[str, Any]]:
    response = lead.get("/decisions", params={"limit": 500})
    assert response.status_code == 200, response.text
    assert response.json()["next_cursor"] is None
    decisions: list[dict[str, Any]] = response.json()["decisions"]
    return decisions


def item(session: ApiSession, item_id: str) -> dict[str, Any]:
    response = session.get(f"/items/{item_id}")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def queues_by_id(session: ApiSession) -> dict[str, dict[str, Any]]:
    response = session.get("/queues")
    assert response.status_code == 200, f"GET /queues failed: {response.text}"
    return {q["id"]: q for q in response.json()["queues"]}


def events_of(lead: ApiSession, kind: str) -> list[dict[str, Any]]:
    response = lead.get("/events", params={"kind": kind, "limit": 500})
    assert response.status_code == 200, response.text
    events: list[dict[str, Any]] = response.json()["events"]
    return events


def decided_event_ids(lead: ApiSession, item_id: str) -> list[int]:
    return [e["data"]["decision_id"] for e in events_of(lead, "decided") if e["item_id"] == item_id]


def leased_to(session: ApiSession, item_id: str, reviewer: str) -> None:
    """The item is still undecided and its last claim was by ``reviewer``."""
    found = item(session, item_id)
    assert found["state"] == "leased", found["state"]
    assert found["decision"] is None, found["decision"]
    claims = [e["actor"] for e in found["history"] if e["kind"] == "claimed"]
    assert claims and claims[-1] == reviewer, found["history"]


# -- the same verdict again and again -----------------------------------------------------------


def test_same_verdict_twenty_times_in_a_row(server: LiveServer) -> None:
    alice = server.login("alice")
    lead = server.login("lead", Role.lead)
    (leased,) = claim(alice, QUEUE, count=1)
    body = verdict(leased, "remove", policies=["SPAM.SCAM"], note="prize scam")

    results = [decide_one(alice, body) for _ in range(20)]

    first = results[0]
    assert first["status"] == "accepted", first
    decision = first["decision"]
    assert decision["reviewer"] == "alice" and decision["action"] == "remove", decision
    assert decision["policies"] == ["SPAM.SCAM"], decision
    for again in results[1:]:
        assert again["status"] == "duplicate", again
        assert again["decision"] == decision, "a retry must return the stored decision"
    item_id = leased["item"]["id"]
    assert [d["id"] for d in decisions_for(lead, item_id)] == [decision["id"]]
    assert decided_event_ids(lead, item_id) == [decision["id"]]
    found = item(lead, item_id)
    assert found["state"] == "decided" and found["decision"]["id"] == decision["id"], found
    # One strike on the author, not twenty (the synthetic authors start with none).
    strikes = [(s["policy"], s["count"]) for s in found["author"]["strikes"]]
    assert strikes == [("SPAM.SCAM", 1)], strikes


def test_same_verdict_ten_times_at_once(server: LiveServer) -> None:
    alice = server.login("alice")
    lead = server.login("lead", Role.lead)
    machines = [server.login("alice", create=False) for _ in range(10)]
    _ten_at_once(alice, lead, machines)


@pytest.mark.slow
@pytest.mark.parametrize("workers", [2, 4])
def test_same_verdict_ten_times_at_once_through_several_processes(
    database_url: str, tmp_path: Path, workers: int
) -> None:
    """The same, each copy on its own connection to a server of several API processes:
    the copies land in different processes, which share only the database."""
    service = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    service.start()
    try:
        service.create_user(UserCreate(username="alice", password=PASSWORD))
        service.create_user(UserCreate(username="lead", password=PASSWORD, role=Role.lead))
        seed_load_queue(service, 20)
    finally:
        service.close()
    process = ServerProcess(database_url, workers=workers, log=tmp_path / "server.log").start()
    try:
        alice = ApiSession.login(process.url, "alice", PASSWORD)
        lead = ApiSession.login(process.url, "lead", PASSWORD)
        machines = [ApiSession.login(process.url, "alice", PASSWORD) for _ in range(10)]
        _ten_at_once(alice, lead, machines)
    finally:
        process.stop()
    log = (tmp_path / "server.log").read_text(errors="replace")
    assert "Traceback" not in log, log[-4_000:]


def _ten_at_once(alice: ApiSession, lead: ApiSession, machines: list[ApiSession]) -> None:
    leased_items = claim(alice, QUEUE, count=5)
    assert len(leased_items) == 5

    for leased in leased_items:
        body = verdict(leased)
        barrier = threading.Barrier(len(machines))

        def send(
            session: ApiSession, body: dict[str, Any] = body, barrier: threading.Barrier = barrier
        ) -> dict[str, Any]:
            barrier.wait(timeout=30)
            return decide_one(session, body)

        with ThreadPoolExecutor(len(machines)) as pool:
            results = list(pool.map(send, machines))

        statuses = sorted(r["status"] for r in results)
        assert statuses == ["accepted"] + ["duplicate"] * 9, statuses
        ids = {r["decision"]["id"] for r in results}
        assert len(ids) == 1, f"the same verdict made several decisions: {ids}"
        item_id = leased["item"]["id"]
        assert [d["id"] for d in decisions_for(lead, item_id)] == list(ids)
        assert decided_event_ids(lead, item_id) == list(ids)
    assert len(all_decisions(lead)) == 5


def test_same_key_with_another_body_is_refused(server: LiveServer) -> None:
    alice = server.login("alice")
    lead = server.login("lead", Role.lead)
    first, second, third = claim(alice, QUEUE, count=3)
    used = verdict(first)
    assert decide_one(alice, used)["status"] == "accepted"
    decision_id = decisions_for(lead, first["item"]["id"])[0]["id"]

    # The key already stands for a verdict on the first item.
    reused = verdict(second, idempotency_key=used["idempotency_key"])
    body = expect_problem(post_verdicts(alice, [reused]), 422, "idempotency_key_reused")
    assert used["idempotency_key"] in body["detail"], body
    leased_to(alice, second["item"]["id"], "alice")

    # The same key for the same item with another action is refused too.
    changed = {**used, "action": "remove", "policies": ["SPAM.SCAM"]}
    expect_problem(post_verdicts(alice, [changed]), 422, "idempotency_key_reused")
    assert [(d["id"], d["action"]) for d in decisions_for(lead, first["item"]["id"])] == [
        (decision_id, "keep")
    ]

    # A batch holding a reused key records none of its verdicts, valid ones included.
    valid = verdict(third)
    expect_problem(post_verdicts(alice, [valid, reused]), 422, "idempotency_key_reused")
    leased_to(alice, second["item"]["id"], "alice")
    leased_to(alice, third["item"]["id"], "alice")

    # Two different verdicts under one new key in one batch: refused, nothing recorded.
    key = str(uuid.uuid4())
    twins = [verdict(second, idempotency_key=key), verdict(third, idempotency_key=key)]
    expect_problem(post_verdicts(alice, twins), 422, "idempotency_key_reused")
    leased_to(alice, second["item"]["id"], "alice")
    leased_to(alice, third["item"]["id"], "alice")
    assert [d["item_id"] for d in all_decisions(lead)] == [first["item"]["id"]]

    # Refused batches leave no trace: the valid verdict goes through with its own key.
    assert decide_one(alice, valid)["status"] == "accepted"
    assert decide_one(alice, twins[0])["status"] == "accepted"
    assert len(all_decisions(lead)) == 3


def test_same_key_from_another_reviewer_is_refused(server: LiveServer) -> None:
    alice, bob = server.login("alice"), server.login("bob")
    lead = server.login("lead", Role.lead)
    (mine,) = claim(alice, QUEUE, count=1)
    (theirs,) = claim(bob, QUEUE, count=1)
    used = verdict(mine)
    assert decide_one(alice, used)["status"] == "accepted"

    # Bob cannot replay alice's verdict, nor reuse her key for his own item.
    expect_problem(post_verdicts(bob, [used]), 422, "idempotency_key_reused")
    reused = verdict(theirs, idempotency_key=used["idempotency_key"])
    expect_problem(post_verdicts(bob, [reused]), 422, "idempotency_key_reused")
    leased_to(bob, theirs["item"]["id"], "bob")
    assert [d["reviewer"] for d in all_decisions(lead)] == ["alice"]


# -- fencing by lease tokens ---------------------------------------------------------------------


def test_late_verdict_loses_to_the_reviewer_who_took_the_item(database_url: str) -> None:
    clock = ManualClock()
    with running(database_url, clock=clock) as server:
        seed_load_queue(server.service, 10)
        alice, bob = server.login("alice"), server.login("bob")
        lead = server.login("lead", Role.lead)

        (old,) = claim(alice, QUEUE, count=1, lease_seconds=30)
        clock.advance(31)
        (new,) = claim(bob, QUEUE, count=1, lease_seconds=300)
        assert new["item"]["id"] == old["item"]["id"], "bob should get the expired item"
        assert new["lease_token"] != old["lease_token"]

        won = decide_one(bob, verdict(new, "keep"))
        assert won["status"] == "accepted", won

        late = verdict(old, "remove", policies=["SPAM.SCAM"])
        lost = decide_one(alice, late)
        assert lost["status"] == "conflict", lost
        assert lost["decision"] == won["decision"], "the conflict must name the decision that won"
        assert (lost["decision"]["reviewer"], lost["decision"]["action"]) == ("bob", "keep")
        # A retry of the late verdict gets the same answer.
        assert decide_one(alice, late) == lost

        item_id = old["item"]["id"]
        assert [d["id"] for d in decisions_for(lead, item_id)] == [won["decision"]["id"]]
        found = item(lead, item_id)
        assert found["decision"]["reviewer"] == "bob" and found["decision"]["action"] == "keep"
        assert found["author"]["strikes"] == [], "a verdict that lost must not strike the author"


def test_late_verdict_counts_when_nobody_took_the_item(database_url: str) -> None:
    """The offline reviewer: the lease ran out, but the item is still undecided and free."""
    clock = ManualClock()
    with running(database_url, clock=clock) as server:
        seed_load_queue(server.service, 10)
        alice, bob, carol = server.login("alice"), server.login("bob"), server.login("carol")
        lead = server.login("lead", Role.lead)

        # The lease simply ran out.
        (first,) = claim(alice, QUEUE, count=1, lease_seconds=30)
        clock.advance(3_600)
        result = decide_one(alice, verdict(first, "keep"))
        assert result["status"] == "accepted", result
        assert result["decision"]["reviewer"] == "alice"

        # The lease ran out and the item went back to the queue, but nobody claimed it.
        ahead = claim(bob, QUEUE, count=3, lease_seconds=300)
        (second,) = claim(alice, QUEUE, count=1, lease_seconds=30)
        release = bob.post("/leases/release", json={"tokens": [e["lease_token"] for e in ahead]})
        assert [r["status"] for r in release.json()["results"]] == ["released"] * 3
        clock.advance(60)
        (taken,) = claim(carol, QUEUE, count=1, lease_seconds=300)
        assert taken["item"]["id"] == ahead[0]["item"]["id"]
        assert item(lead, second["item"]["id"])["history"][-1]["kind"] == "expired"

        result = decide_one(alice, verdict(second, "keep"))
        assert result["status"] == "accepted", result
        assert [d["reviewer"] for d in decisions_for(lead, second["item"]["id"])] == ["alice"]


def test_late_verdict_is_rejected_while_another_reviewer_holds_the_item(
    database_url: str,
) -> None:
    clock = ManualClock()
    with running(database_url, clock=clock) as server:
        seed_load_queue(server.service, 10)
        alice, bob = server.login("alice"), server.login("bob")
        lead = server.login("lead", Role.lead)

        (old,) = claim(alice, QUEUE, count=1, lease_seconds=30)
        clock.advance(31)
        (new,) = claim(bob, QUEUE, count=1, lease_seconds=300)
        item_id = old["item"]["id"]
        assert new["item"]["id"] == item_id

        late = verdict(old, "keep")
        result = decide_one(alice, late)
        assert result["status"] == "rejected", result
        assert result["reason"]["code"] == "leased_to_other", result
        assert result["decision"] is None, result
        assert decisions_for(lead, item_id) == []
        leased_to(lead, item_id, "bob")
        renewed = bob.post(
            "/leases/renew", json={"tokens": [new["lease_token"]], "lease_seconds": 300}
        )
        assert renewed.json()["results"][0]["status"] == "renewed", renewed.text

        # A rejection is not final: once bob decides, the same retry is a conflict.
        won = decide_one(bob, verdict(new, "remove", policies=["SPAM.SCAM"]))
        assert won["status"] == "accepted", won
        retry = decide_one(alice, late)
        assert retry["status"] == "conflict", retry
        assert retry["decision"]["id"] == won["decision"]["id"], retry


def test_verdict_with_someone_elses_lease_is_rejected(server: LiveServer) -> None:
    alice, bob = server.login("alice"), server.login("bob")
    lead = server.login("lead", Role.lead)
    (theirs,) = claim(bob, QUEUE, count=1)
    result = decide_one(alice, verdict(theirs))
    assert result["status"] == "rejected" and result["reason"]["code"] == "not_your_lease"
    forged = verdict(theirs, lease_token="forged-token-0000000000")
    result = decide_one(bob, forged)
    assert result["status"] == "rejected" and result["reason"]["code"] == "unknown_lease"
    assert all_decisions(lead) == []
    leased_to(lead, theirs["item"]["id"], "bob")


# -- escalation --------------------------------------------------------------------------------


def test_escalation_moves_the_item_to_the_leads(server: LiveServer) -> None:
    alice = server.login("alice")
    lead = server.login("lead", Role.lead)
    (leased,) = claim(alice, QUEUE, count=1)
    item_id = leased["item"]["id"]
    escalation = verdict(leased, "escalate", note="looks like a coordinated scam")

    # Without an escalation queue there is nowhere to send it.
    refused = decide_one(alice, escalation)
    assert refused["status"] == "rejected", refused
    assert refused["reason"]["code"] == "no_escalation_queue", refused
    leased_to(alice, item_id, "alice")
    assert all_decisions(lead) == []

    with server.service.db.write() as conn:
        insert_queues(conn, [ESCALATION_QUEUE])
    server.service.forget_configs()

    # A rejection is not final, so the same verdict now goes through.
    escalated = decide_one(alice, escalation)
    assert escalated["status"] == "accepted", escalated
    decision = escalated["decision"]
    assert (decision["action"], decision["reviewer"], decision["queue_id"]) == (
        "escalate",
        "alice",
        QUEUE,
    )

    moved = item(lead, item_id)
    assert (moved["queue_id"], moved["origin_queue_id"], moved["state"]) == (
        ESCALATIONS,
        QUEUE,
        "pending",
    )
    assert moved["decision"] is None, "an escalation is not the decision of record"
    assert moved["history"][-1]["kind"] == "escalated", moved["history"]
    assert moved["history"][-1]["data"]["to_queue"] == ESCALATIONS
    queues = queues_by_id(lead)
    assert queues[ESCALATIONS]["counts"]["pending"] == 1, queues[ESCALATIONS]
    assert ESCALATIONS not in queues_by_id(alice)

    # Alice's old lease now loses to her own escalation, retried or not.
    assert decide_one(alice, escalation)["status"] == "duplicate"
    second = decide_one(alice, verdict(leased, "keep"))
    assert second["status"] == "conflict", second
    assert second["decision"] == decision, second

    # Reviewers may not work the leads' queue.
    expect_problem(
        alice.post(f"/queues/{ESCALATIONS}/leases", json={"count": 1}), 403, "lead_only_queue"
    )

    (held,) = claim(lead, ESCALATIONS, count=1)
    assert held["item"]["id"] == item_id
    no_note = verdict(held, "keep")
    problem = expect_problem(post_verdicts(lead, [no_note]), 422, "verdict_invalid")
    assert [(e["loc"], e["code"]) for e in problem["errors"]] == [
        (["verdicts", 0, "note"], "note_required")
    ], problem
    leased_to(lead, item_id, "lead")

    final = decide_one(lead, verdict(held, "keep", note="parody account, no scam"))
    assert final["status"] == "accepted", final
    assert (final["decision"]["reviewer"], final["decision"]["queue_id"]) == ("lead", ESCALATIONS)
    done = item(lead, item_id)
    assert done["state"] == "decided" and done["decision"]["id"] == final["decision"]["id"]

    # After the lead's decision alice still gets her escalation as the decision that won
    # over her old lease.
    third = decide_one(alice, verdict(leased, "remove", policies=["SPAM.SCAM"]))
    assert third["status"] == "conflict", third
    assert third["decision"] == decision, third
    assert sorted(d["id"] for d in decisions_for(lead, item_id)) == sorted(
        [decision["id"], final["decision"]["id"]]
    )


# -- verdicts that do not fit the queue's config ---------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "loc", "code"),
    [
        ({"action": "ban"}, "action", "unknown_action"),
        ({"action": "remove"}, "policies", "policy_required"),
        ({"action": "remove", "policies": ["HATE.1"]}, "policies", "unknown_policy"),
        ({"action": "keep", "rating": "false"}, "rating", "unknown_rating"),
        (
            {"action": "keep", "author_action": "suspend"},
            "author_action",
            "author_action_not_allowed",
        ),
    ],
)
def test_verdict_that_does_not_fit_the_config_is_refused(
    server: LiveServer, fields: dict[str, Any], loc: str, code: str
) -> None:
    alice = server.login("alice")
    lead = server.login("lead", Role.lead)
    good, bad = claim(alice, QUEUE, count=2)
    valid = verdict(good, "keep")
    invalid = verdict(bad, **fields)

    problem = expect_problem(post_verdicts(alice, [valid, invalid]), 422, "verdict_invalid")
    assert [(e["loc"], e["code"]) for e in problem["errors"]] == [(["verdicts", 1, loc], code)]
    assert all_decisions(lead) == []
    assert events_of(lead, "decided") == []
    leased_to(alice, good["item"]["id"], "alice")
    leased_to(alice, bad["item"]["id"], "alice")
    counts = queues_by_id(lead)[QUEUE]["counts"]
    assert (counts["pending"], counts["leased"]) == (18, 2), counts

    # Nothing of the refused batch was kept: both keys are still free.
    assert decide_one(alice, valid)["status"] == "accepted"
    assert (
        decide_one(alice, verdict(bad, "keep", idempotency_key=invalid["idempotency_key"]))[
            "status"
        ]
        == "accepted"
    )


def test_a_rejected_key_keeps_naming_its_first_body(server: LiveServer) -> None:
    """A key's first use names its body even when that use was rejected: another body under
    it is a 422; the same body is looked at afresh (a rejection is not final), so it is
    answered as the item's state allows now."""
    alice = server.login("alice")
    lead = server.login("lead", Role.lead)
    (leased,) = claim(alice, QUEUE, count=1)
    item_id = leased["item"]["id"]
    bogus = verdict(leased, "keep", lease_token="bogus-token-0000000000")
    result = decide_one(alice, bogus)
    assert (result["status"], result["reason"]["code"]) == ("rejected", "unknown_lease"), result

    # The same key, the real lease token and another action: another body.
    other = {
        **bogus,
        "lease_token": leased["lease_token"],
        "action": "remove",
        "policies": ["SPAM.SCAM"],
    }
    body = expect_problem(post_verdicts(alice, [other]), 422, "idempotency_key_reused")
    assert bogus["idempotency_key"] in body["detail"], body
    leased_to(alice, item_id, "alice")
    assert all_decisions(lead) == []

    # The same body again: evaluated again, and still refused (its token is still bogus).
    again = decide_one(alice, bogus)
    assert (again["status"], again["reason"]["code"]) == ("rejected", "unknown_lease"), again
    # In a batch with another verdict the reused key still refuses the whole batch.
    fresh = verdict(leased, "keep")
    expect_problem(post_verdicts(alice, [fresh, other]), 422, "idempotency_key_reused")
    leased_to(alice, item_id, "alice")

    # The verdict under its own key goes through, once.
    accepted = decide_one(alice, fresh)
    assert accepted["status"] == "accepted", accepted
    assert [d["action"] for d in decisions_for(lead, item_id)] == ["keep"]


def test_a_rejected_verdict_is_looked_at_afresh_under_its_key(database_url: str) -> None:
    """Rejected for now (the lease ran out and another reviewer holds the item), the same
    verdict under the same key is accepted once the item is free again, and from then on
    its key answers ``duplicate``; another body under the key stays refused."""
    clock = ManualClock()
    with running(database_url, clock=clock) as server:
        seed_load_queue(server.service, 10)
        alice, bob = server.login("alice"), server.login("bob")
        lead = server.login("lead", Role.lead)
        (old,) = claim(alice, QUEUE, count=1, lease_seconds=30)
        clock.advance(31)
        (new,) = claim(bob, QUEUE, count=1, lease_seconds=30)
        assert new["item"]["id"] == old["item"]["id"]
        late = verdict(old, "keep")
        result = decide_one(alice, late)
        assert (result["status"], result["reason"]["code"]) == ("rejected", "leased_to_other")

        # bob's lease runs out and nobody takes the item: alice's verdict counts now
        clock.advance(31)
        changed = {**late, "action": "remove", "policies": ["SPAM.SCAM"]}
        expect_problem(post_verdicts(alice, [changed]), 422, "idempotency_key_reused")
        accepted = decide_one(alice, late)
        assert accepted["status"] == "accepted", accepted
        assert decide_one(alice, late) == {**accepted, "status": "duplicate"}
        expect_problem(post_verdicts(alice, [changed]), 422, "idempotency_key_reused")
        assert [(d["reviewer"], d["action"]) for d in decisions_for(lead, old["item"]["id"])] == [
            ("alice", "keep")
        ]
