"""A blind audit task that can no longer be overturned (its decision was appealed after the
sample was drawn) no longer traps its auditor (over real HTTP, on both databases).

A blind auditor who disagrees has nothing to record (the overturn is refused, and agreeing
would be a lie), and drawing again handed the same task first for ever, so the sample could
not finish. Drawing again now sets that task aside, with the service's reason, and hands the
next; the sample finishes and says how many were set aside. A task still auditable is handed
again, as before.
"""

from __future__ import annotations

from tests.server.test_audit_guards import ALL_TIME, clock, decide, server
from tests.support.api import claim, expect_problem, verdict
from tests.support.appeals import APPEALS, appeal, platform_of
from tests.support.enforcement import queue_posts
from tests.support.intake import send
from tests.support.servers import LiveServer

__all__ = ["clock", "server"]  # the fixtures, shared with test_audit_guards

from reviewer_app.protocol import Role


def test_a_task_appealed_meanwhile_is_set_aside_when_drawn_again(server: LiveServer) -> None:
    platform = platform_of(server)
    item_ids = queue_posts(platform, ["p-1", "p-2"])
    decide(server.login("rita"), 2, "remove")
    lead = server.login("lena", Role.lead)
    made = lead.post("/audits/samples", json={**ALL_TIME, "size": 2})
    assert made.status_code == 201, made.text
    sample_id = made.json()["id"]
    first = lead.post(f"/audits/samples/{sample_id}/next").json()
    task = first["task"]
    assert first["remaining"] == 2 and first["set_aside"] == []
    again = lead.post(f"/audits/samples/{sample_id}/next").json()
    assert again["task"]["audit_id"] == task["audit_id"], again

    appealed = "p-1" if task["item"]["id"] == item_ids[0] else "p-2"
    [sent] = send(platform, "appeals", [appeal(appealed, appeal_id="ap-1")])
    assert sent["status"] == "created", sent
    path = f"/audits/tasks/{task['audit_id']}/result"
    judged = lead.post(path, json={"result": "judge", "action": "keep"})
    expect_problem(judged, 409, "not_decision_of_record")

    # the auditor leaves it: the next draw sets it aside and hands the other one
    moved = lead.post(f"/audits/samples/{sample_id}/next")
    assert moved.status_code == 200, moved.text
    grant = moved.json()
    assert [s["audit_id"] for s in grant["set_aside"]] == [task["audit_id"]]
    assert "cannot be overturned" in grant["set_aside"][0]["reason"]
    assert grant["task"]["audit_id"] != task["audit_id"] and grant["remaining"] == 1
    expect_problem(lead.post(path, json={"result": "agree"}), 409, "audit_set_aside")

    other = f"/audits/tasks/{grant['task']['audit_id']}/result"
    assert lead.post(other, json={"result": "agree"}).status_code == 201
    done = lead.post(f"/audits/samples/{sample_id}/next").json()
    assert (done["task"], done["remaining"]) == (None, 0), "the sample finishes"
    head = lead.get(f"/audits/samples/{sample_id}").json()
    assert (head["recorded"], head["set_aside"]) == (1, 1)
    results = lead.get(f"/audits/samples/{sample_id}/results").json()
    assert [r["audit_id"] for r in results["results"]] != [task["audit_id"]]

    # the appeal still settles the decision: the audit changed nothing of it
    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 1)
    [upheld] = sam.decide([verdict(held, "uphold", note="Right call.")])
    assert upheld["status"] == "accepted", upheld
