"""Audit guards over real HTTP on SQLite and PostgreSQL: the blind task tells nothing of
the audited decision (its statement of reasons, the author status it set, an appeal of it),
an overturn is refused when an appeal or a re-review settles the post, and only the task's
assignee records its result."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from reviewer_app.protocol import Item, Role
from reviewer_app.server.storage.tables import audit_items
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.appeals import APPEALS, appeal, appeals_server, feed, platform_of
from tests.support.clock import ManualClock
from tests.support.enforcement import queue_posts
from tests.support.intake import MISINFO, author, report, send
from tests.support.servers import LiveServer

ALL_TIME = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}
CIVIC = ["MISINFO.CIVIC"]
MARKER = "ORIGINAL-NOTE-5c1e"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Any:
    srv = appeals_server(database_url, clock)
    try:
        yield srv
    finally:
        srv.stop()


def decide(reviewer: ApiSession, count: int, action: str) -> list[dict[str, Any]]:
    leased = claim(reviewer, MISINFO, count)
    fields: dict[str, Any] = {"policies": CIVIC} if action.startswith("remove") else {}
    results = reviewer.decide([verdict(x, action, note=MARKER, **fields) for x in leased])
    assert [r["status"] for r in results] == ["accepted"] * count, results
    return [r["decision"] for r in results]


def draw(lead: ApiSession, size: int = 1) -> tuple[int, dict[str, Any]]:
    """A new sample's id and the lead's first task of it."""
    made = lead.post("/audits/samples", json={**ALL_TIME, "size": size})
    assert made.status_code == 201, made.text
    grant = lead.post(f"/audits/samples/{made.json()['id']}/next")
    assert grant.status_code == 200, grant.text
    return made.json()["id"], grant.json()["task"]


def assert_blind(task: dict[str, Any], original: dict[str, Any], raw: str) -> None:
    item = Item.model_validate(task["item"])
    assert item.id == original["item_id"]
    assert MARKER not in raw and "restrict" not in raw.lower(), "nothing names the decision"
    assert item.statements == [], "no statement of reasons of the audited decision"
    assert item.author.status.value == "active", "the status as the decision found it"
    assert item.appeal is None
    assert (item.queue_id, item.state) == (MISINFO, "decided")
    assert all(r.kind.value != "appeal" for r in item.reasons)


def test_the_blind_task_of_a_remove_restrict_decision_tells_nothing_of_it(
    server: LiveServer, clock: ManualClock
) -> None:
    platform = platform_of(server)
    [item_id] = queue_posts(platform, ["p-1"], author=author("au-1"))
    [original] = decide(server.login("rita"), 1, "remove-restrict")
    lead = server.login("lena", Role.lead)
    seen = lead.get(f"/items/{item_id}").json()
    assert seen["author"]["status"] == "restricted"
    assert [s["decision_id"] for s in seen["statements"]] == [original["id"]]

    sample_id, task = draw(lead)
    grant = lead.post(f"/audits/samples/{sample_id}/next")
    assert grant.json()["task"] == task
    assert_blind(task, original, grant.text)

    # the user appeals after the sample was drawn: the task still tells nothing to whoever
    # draws it next (lena's hold lapsed; her own draw would set it aside: it can no longer
    # be overturned, see test_lead_races_audits)
    [sent] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-1")])
    assert sent["status"] == "created", sent
    assert lead.get(f"/items/{item_id}").json()["appeal"]["contested"]["id"] == original["id"]
    clock.advance(31 * 60)
    grant = server.login("leo", Role.lead).post(f"/audits/samples/{sample_id}/next")
    again = grant.json()["task"]
    assert again["audit_id"] == task["audit_id"]
    assert_blind(again, original, grant.text)


def test_a_lead_account_action_since_does_not_tell_the_decision(server: LiveServer) -> None:
    """The status shown is the one before the decision's own account action, also when a
    lead acted on the account since (its row has no decision: on PostgreSQL it sorted
    first and showed the decision's "restricted")."""
    platform = platform_of(server)
    [item_id] = queue_posts(platform, ["p-1"], author=author("au-1"))
    [original] = decide(server.login("rita"), 1, "remove-restrict")
    lead = server.login("lena", Role.lead)
    author_id = lead.get(f"/items/{item_id}").json()["author"]["id"]
    acted = lead.post("/authors/actions", json={"author_ids": [author_id], "action": "suspend"})
    assert acted.status_code == 200, acted.text
    sample_id, task = draw(lead)
    assert_blind(task, original, lead.post(f"/audits/samples/{sample_id}/next").text)


def test_an_overturn_after_an_upheld_appeal_is_refused(server: LiveServer) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-1"])
    [original] = decide(server.login("rita"), 1, "remove")
    lead = server.login("lena", Role.lead)
    _, task = draw(lead)
    [sent] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-1")])
    assert sent["status"] == "created", sent
    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 1)
    [upheld] = sam.decide([verdict(held, "uphold", note="The post names the wrong date.")])
    assert upheld["status"] == "accepted", upheld

    path = f"/audits/tasks/{task['audit_id']}/result"
    overturn = {"result": "overturn", "action": "keep", "note": "not misinformation"}
    refused = expect_problem(lead.post(path, json=overturn), 409, "not_decision_of_record")
    assert "appealed after it was sampled" in refused["detail"], refused
    judged = lead.post(path, json={"result": "judge", "action": "keep"})
    expect_problem(judged, 409, "not_decision_of_record")
    assert [a["kind"] for a in feed(server, platform)] == ["remove", "appeal_upheld"]
    agreed = lead.post(path, json={"result": "agree"})
    assert agreed.status_code == 201, agreed.text
    assert agreed.json()["original"]["id"] == original["id"]


def test_an_overturn_while_the_post_is_back_in_review_is_refused(server: LiveServer) -> None:
    platform = platform_of(server)
    [first] = queue_posts(platform, ["p-1"])
    decide(server.login("rita"), 1, "keep")
    lead = server.login("lena", Role.lead)
    _, task = draw(lead)
    results = send(platform, "signals", [report("p-1") for _ in range(3)])
    reopened = {i for r in results for i in r["item_ids"]} - {first}
    assert len(reopened) == 1, results
    assert lead.get(f"/items/{reopened.pop()}").json()["state"] == "pending"

    path = f"/audits/tasks/{task['audit_id']}/result"
    overturn = {"result": "overturn", "action": "remove", "policies": CIVIC, "note": "a lie"}
    refused = expect_problem(lead.post(path, json=overturn), 409, "not_decision_of_record")
    assert "back in review" in refused["detail"], refused
    assert [a["kind"] for a in feed(server, platform)] == ["keep"]
    assert lead.post(path, json={"result": "agree"}).status_code == 201


def test_only_the_tasks_assignee_records_its_result(server: LiveServer, clock: ManualClock) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-1", "p-2", "p-3"])
    decide(server.login("rita"), 3, "keep")
    lena = server.login("lena", Role.lead)
    omar = server.login("omar", Role.lead)
    _, task = draw(lena)
    path = f"/audits/tasks/{task['audit_id']}/result"
    held = expect_problem(omar.post(path, json={"result": "agree"}), 409, "audit_not_assigned")
    assert "another auditor holds it" in held["detail"], held

    # a task nobody drew: draw it first
    undrawn = omar.post("/audits/samples", json={**ALL_TIME, "size": 1}).json()["id"]
    with server.service.db.read() as conn:
        [other] = conn.execute(
            select(audit_items.c.id).where(audit_items.c.sample_id == undrawn)
        ).scalars()
    refused = omar.post(f"/audits/tasks/{other}/result", json={"result": "agree"})
    expect_problem(refused, 409, "audit_not_assigned")

    # lapsed and not drawn since: still the assignee's
    clock.advance(31 * 60)
    expect_problem(omar.post(path, json={"result": "agree"}), 409, "audit_not_assigned")
    lapsed = lena.post(path, json={"result": "judge", "action": "keep"})
    assert lapsed.status_code == 201, lapsed.text
    assert lapsed.json()["auditor"] == "lena"

    # lapsed and drawn by another since: theirs
    sample_id, again = draw(lena)
    clock.advance(31 * 60)
    taken = omar.post(f"/audits/samples/{sample_id}/next").json()["task"]
    assert taken["audit_id"] == again["audit_id"]
    again_path = f"/audits/tasks/{again['audit_id']}/result"
    expect_problem(lena.post(again_path, json={"result": "agree"}), 409, "audit_not_assigned")
    assert omar.post(again_path, json={"result": "agree"}).status_code == 201
