"""Audits over real HTTP: blind review, overturns as the decision of record, stratified
samples, and the problems a lead can run into."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.storage.eventlog import verify
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
ALL_TIME = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}
MARKER = "ORIGINAL-NOTE-7f3a"


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    seed_load_queue(live_server.service, 60)
    return live_server


def decide_many(session: ApiSession, actions: list[str]) -> list[dict[str, Any]]:
    leased = claim(session, QUEUE, len(actions))
    results = session.decide(
        [
            verdict(
                x,
                action,
                policies=["SPAM.SCAM"] if action == "remove" else [],
                note=f"{MARKER} by {x['item']['id']}",
            )
            for x, action in zip(leased, actions, strict=True)
        ]
    )
    assert {r["status"] for r in results} == {"accepted"}
    return [r["decision"] for r in results]


def new_sample(lead: ApiSession, **fields: Any) -> dict[str, Any]:
    response = lead.post("/audits/samples", json={**ALL_TIME, **fields})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_blind_review_then_overturn_becomes_the_decision_of_record(server: LiveServer) -> None:
    rita = server.login("rita")
    lead = server.login("lead", Role.lead)
    (original,) = decide_many(rita, ["remove"])
    item_id = original["item_id"]
    before = lead.get(f"/items/{item_id}").json()
    assert before["decision"]["id"] == original["id"]
    assert sum(s["count"] for s in before["author"]["strikes"]) >= 1

    sample = new_sample(lead, size=5)
    assert (sample["size"], sample["recorded"], sample["method"]) == (1, 0, "random")
    grant = lead.post(f"/audits/samples/{sample['id']}/next")
    assert grant.status_code == 200, grant.text
    task = grant.json()["task"]
    assert grant.json()["remaining"] == 1
    # Blind: nothing in the answer tells the original decision.
    assert MARKER not in grant.text
    assert task["item"]["id"] == item_id
    assert task["item"]["decision"] is None
    assert [e["kind"] for e in task["item"]["history"]] == ["enqueued"]
    assert all(d["item_id"] != item_id for d in task["item"]["author"]["recent_decisions"])
    strikes_before = sum(s["count"] for s in before["author"]["strikes"])
    assert sum(s["count"] for s in task["item"]["author"]["strikes"]) == strikes_before - 1
    # Asking again hands the same item back until a result is recorded.
    assert lead.post(f"/audits/samples/{sample['id']}/next").json()["task"] == task

    recorded = lead.post(
        f"/audits/tasks/{task['audit_id']}/result",
        json={"result": "overturn", "action": "keep", "note": "satire, not a scam"},
    )
    assert recorded.status_code == 201, recorded.text
    result = recorded.json()
    assert result["original"]["id"] == original["id"] and MARKER in result["original"]["note"]
    assert result["original"]["audit_result"] == "overturn"
    corrected = result["corrected"]
    assert (corrected["kind"], corrected["action"], corrected["reviewer"]) == (
        "overturn",
        "keep",
        "lead",
    )
    assert corrected["overturns_decision_id"] == original["id"]

    after = lead.get(f"/items/{item_id}").json()
    assert after["decision"]["id"] == corrected["id"], "the overturn is the decision of record"
    assert sum(s["count"] for s in after["author"]["strikes"]) == strikes_before - 1
    history = lead.get(f"/items/{item_id}/history").json()["events"]
    assert [e["kind"] for e in history][-2:] == ["decided", "overturned"]
    assert history[-1]["data"]["overturned_decision_id"] == original["id"]
    both = lead.get("/decisions", params={"item_id": item_id}).json()["decisions"]
    assert [d["id"] for d in both] == [original["id"], corrected["id"]], "history is kept"
    assert both[0]["audit_result"] == "overturn"

    stats = {r["reviewer"]: r for r in lead.get("/stats/reviewers").json()["reviewers"]}
    assert stats["rita"]["audit_overturned"] == 1 and stats["rita"]["overturn_rate"] == 1.0
    assert "lead" not in stats, "an overturn is not throughput"
    assert lead.post(f"/audits/samples/{sample['id']}/next").json() == {
        "sample_id": sample["id"],
        "remaining": 0,
        "task": None,
        "set_aside": [],
    }
    assert lead.get(f"/audits/samples/{sample['id']}").json()["recorded"] == 1
    # The overturned decision is not the decision of record any more: never sampled again.
    expect_problem(lead.post("/audits/samples", json={**ALL_TIME, "size": 5}), 422, "empty_sample")
    with server.service.db.read() as conn:
        assert verify(conn).intact


def test_agree_keeps_the_decision_and_results_list_agreement(server: LiveServer) -> None:
    rita = server.login("rita")
    lead = server.login("lead", Role.lead)
    admin = server.login("admin", Role.admin)
    decide_many(rita, ["keep", "keep", "remove"])
    sample = new_sample(lead, size=3)
    seen = set()
    for auditor in (lead, admin, lead):
        task = auditor.post(f"/audits/samples/{sample['id']}/next").json()["task"]
        assert task["audit_id"] not in seen, "two auditors never get the same item"
        seen.add(task["audit_id"])
        response = auditor.post(
            f"/audits/tasks/{task['audit_id']}/result", json={"result": "agree"}
        )
        assert response.status_code == 201, response.text
        assert response.json()["corrected"] is None
        expect_problem(
            auditor.post(f"/audits/tasks/{task['audit_id']}/result", json={"result": "agree"}),
            409,
            "audit_already_recorded",
        )
    results = lead.get(f"/audits/samples/{sample['id']}/results").json()
    assert results["reviewers"] == [
        {
            "reviewer": "rita",
            "audited": 3,
            "agreed": 3,
            "overturned": 0,
            "agreement_rate": 1.0,
            "kappa": 1.0,
        }
    ]
    audited = lead.get("/decisions", params={"audited": "true"}).json()["decisions"]
    assert len(audited) == 3 and {d["audit_result"] for d in audited} == {"agree"}
    assert lead.get("/decisions", params={"audited": "false"}).json()["decisions"] == []
    listed = lead.get("/audits/samples").json()
    assert [s["id"] for s in listed["samples"]] == [sample["id"]]


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        # Round by round, one more from each stratum that still has some.
        ("by_reviewer", {"ana": 4, "ben": 4, "cid": 1}),
        ("random", None),
    ],
)
def test_stratified_samples_take_equal_shares(
    server: LiveServer, method: str, expected: dict[str, int] | None
) -> None:
    lead = server.login("lead", Role.lead)
    for name, count in (("ana", 10), ("ben", 5), ("cid", 1)):
        decide_many(server.login(name), ["keep"] * count)
    sample = new_sample(lead, size=9, method=method)
    assert sample["size"] == 9
    reviewers: Counter[str] = Counter()
    while task := lead.post(f"/audits/samples/{sample['id']}/next").json()["task"]:
        result = lead.post(f"/audits/tasks/{task['audit_id']}/result", json={"result": "agree"})
        reviewers[result.json()["original"]["reviewer"]] += 1
    assert sum(reviewers.values()) == 9
    if expected:
        assert dict(reviewers) == expected


def test_by_action_sample(server: LiveServer) -> None:
    lead = server.login("lead", Role.lead)
    decide_many(server.login("ana"), ["keep"] * 8 + ["remove"] * 2)
    sample = new_sample(lead, size=4, method="by_action", queue_id=QUEUE)
    actions: Counter[str] = Counter()
    while task := lead.post(f"/audits/samples/{sample['id']}/next").json()["task"]:
        result = lead.post(f"/audits/tasks/{task['audit_id']}/result", json={"result": "agree"})
        actions[result.json()["original"]["action"]] += 1
    assert dict(actions) == {"keep": 2, "remove": 2}


def test_audit_problems(server: LiveServer) -> None:
    lead = server.login("lead", Role.lead)
    decide_many(server.login("ana"), ["keep", "keep"])
    expect_problem(lead.post("/audits/samples/999/next"), 404, "unknown_sample")
    expect_problem(lead.get("/audits/samples/999"), 404, "unknown_sample")
    expect_problem(lead.get("/audits/samples/999/results"), 404, "unknown_sample")
    expect_problem(
        lead.post("/audits/tasks/999/result", json={"result": "agree"}), 404, "unknown_audit"
    )
    expect_problem(
        lead.post(
            "/audits/samples",
            json={"size": 1, "since": "2030-01-02T00:00:00Z", "until": "2030-01-01T00:00:00Z"},
        ),
        422,
        "invalid_window",
    )
    expect_problem(
        lead.post("/audits/samples", json={**ALL_TIME, "size": 1, "queue_id": "nope"}),
        404,
        "unknown_queue",
    )
    expect_problem(
        lead.post(
            "/audits/samples",
            json={"size": 1, "since": "2001-01-01T00:00:00Z", "until": "2001-01-02T00:00:00Z"},
        ),
        422,
        "empty_sample",
    )
    sample = new_sample(lead, size=2)
    task = lead.post(f"/audits/samples/{sample['id']}/next").json()["task"]
    path = f"/audits/tasks/{task['audit_id']}/result"
    expect_problem(
        lead.post(path, json={"result": "overturn", "action": "ban", "note": "x"}),
        422,
        "overturn_invalid",
    )
    problem = expect_problem(
        lead.post(path, json={"result": "overturn", "action": "remove", "note": "x"}),
        422,
        "overturn_invalid",
    )
    assert [e["code"] for e in problem["errors"]] == ["policy_required"]
    expect_problem(
        lead.post(path, json={"result": "overturn", "action": "escalate", "note": "x"}),
        422,
        "overturn_cannot_escalate",
    )
    # An overturn without a note, or without an action, does not match the contract.
    expect_problem(lead.post(path, json={"result": "overturn", "action": "keep"}), 422)
    expect_problem(lead.post(path, json={"result": "overturn", "note": "x"}), 422)
    expect_problem(lead.post(path, json={"result": "maybe"}), 422)
    # An "overturn" to what the reviewer decided changes nothing: it is an agreement, and
    # counted as an overturn it gave the reviewer one for the auditor repeating them.
    original = lead.get(f"/items/{task['item']['id']}").json()["decision"]
    same = {"result": "overturn", "action": original["action"], "note": "the same"}
    expect_problem(lead.post(path, json=same), 422, "overturn_unchanged")
    # Nothing was recorded by the refusals.
    assert lead.post(path, json={"result": "agree"}).status_code == 201


def test_a_blind_judgement_agrees_or_overturns_by_comparing(server: LiveServer) -> None:
    """The auditor decides as a reviewer would; the service compares with the original."""
    rita = server.login("rita")
    lead = server.login("lead", Role.lead)
    decide_many(rita, ["remove", "keep"])
    sample = new_sample(lead, size=2)
    outcomes = {}
    for _ in range(2):
        task = lead.post(f"/audits/samples/{sample['id']}/next").json()["task"]
        item = lead.get(f"/items/{task['item']['id']}").json()
        original = item["decision"]
        # the auditor keeps everything: the same as a keep, an overturn of a remove
        recorded = lead.post(
            f"/audits/tasks/{task['audit_id']}/result", json={"result": "judge", "action": "keep"}
        )
        assert recorded.status_code == 201, recorded.text
        body = recorded.json()
        outcomes[original["action"]] = body["result"]
        assert body["original"]["id"] == original["id"]
        if body["result"] == "overturn":
            assert body["corrected"]["action"] == "keep"
            assert body["note"] == "Blind audit: the auditor decided keep."
            assert lead.get(f"/items/{item['id']}").json()["decision"]["action"] == "keep"
        else:
            assert body["corrected"] is None
    assert outcomes == {"remove": "overturn", "keep": "agree"}
    bad = lead.post("/audits/tasks/1/result", json={"result": "judge"})
    assert bad.status_code == 422
