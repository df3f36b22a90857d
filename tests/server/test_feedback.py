"""Feedback reaches reviewers (real HTTP, both databases): My decisions shows only the
caller's own decisions with what became of each (an audit's result with the auditor's note,
a lead's note), a lead writes notes on any decision and only leads and the decision's
reviewer read them, and the login notice counts what came since the reviewer last looked."""

from __future__ import annotations

from typing import Any

import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
ALL_TIME = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}
# Untrusted text: bidi controls and markup go through as they were written.
AUDITOR_NOTE = "satire, not a scam \u202eevil\u202c <b>bold</b>"


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    seed_load_queue(live_server.service, 30)
    return live_server


def decide(session: ApiSession, actions: list[str]) -> list[dict[str, Any]]:
    leased = claim(session, QUEUE, len(actions))
    results = session.decide(
        [
            verdict(x, a, policies=["SPAM.SCAM"] if a == "remove" else [])
            for x, a in zip(leased, actions, strict=True)
        ]
    )
    assert [r["status"] for r in results] == ["accepted"] * len(actions)
    return [r["decision"] for r in results]


def audit_all(lead: ApiSession, judge: dict[int, dict[str, Any]]) -> None:
    """Audit every decision of all time, with the result ``judge`` names per decision."""
    made = lead.post("/audits/samples", json={**ALL_TIME, "size": len(judge)})
    assert made.status_code == 201, made.text
    for _ in range(len(judge)):
        task = lead.post(f"/audits/samples/{made.json()['id']}/next").json()["task"]
        grant = lead.get(f"/items/{task['item']['id']}").json()
        body = judge[grant["decision"]["id"]]
        recorded = lead.post(f"/audits/tasks/{task['audit_id']}/result", json=body)
        assert recorded.status_code == 201, recorded.text


def mine(session: ApiSession, **params: Any) -> dict[str, Any]:
    response = session.get("/me/decisions", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_my_decisions_show_only_mine_with_the_auditors_note_and_the_notice(
    server: LiveServer,
) -> None:
    rita = server.login("rita")
    sam = server.login("sam")
    lead = server.login("lead", Role.lead)
    kept, removed = decide(rita, ["keep", "remove"])
    (sams,) = decide(sam, ["keep"])

    # Before any feedback: each sees their own, newest first, accepted; nothing to notice.
    page = mine(rita)
    assert [d["id"] for d in page["decisions"]] == [removed["id"], kept["id"]]
    for d in page["decisions"]:  # which post: its text cut for a row, as the item has it
        text = " ".join(rita.get(f"/items/{d['item_id']}").json()["post"]["text"].split())
        assert d["excerpt"] == (text if len(text) <= 280 else text[:280] + "…")
    assert {d["outcome"] for d in page["decisions"]} == {"accepted"}
    assert [d["id"] for d in mine(sam)["decisions"]] == [sams["id"]]
    assert [d["id"] for d in mine(lead)["decisions"]] == []
    notice = rita.get("/me/feedback").json()
    assert (notice["overturned"], notice["notes"], notice["seen_at"]) == (0, 0, None)

    audit_all(
        lead,
        {
            kept["id"]: {"result": "agree"},
            removed["id"]: {"result": "overturn", "action": "keep", "note": AUDITOR_NOTE},
            sams["id"]: {"result": "agree", "note": "well spotted"},
        },
    )
    written = lead.post(f"/decisions/{kept['id']}/notes", json={"note": "Good call on this one."})
    assert written.status_code == 201, written.text
    assert (written.json()["reviewer"], written.json()["author"]) == ("rita", "lead")

    by_id = {d["id"]: d for d in mine(rita)["decisions"]}
    assert set(by_id) == {kept["id"], removed["id"]}  # sam's decision is not rita's
    overturned = by_id[removed["id"]]
    assert overturned["outcome"] == "overturned"
    (audit,) = overturned["feedback"]
    assert (audit["kind"], audit["by"], audit["action"]) == ("audit", "lead", "keep")
    assert audit["note"] == AUDITOR_NOTE  # as written, for the client to show as plain text
    confirmed = by_id[kept["id"]]
    assert confirmed["outcome"] == "confirmed"
    assert [f["kind"] for f in confirmed["feedback"]] == ["audit", "note"]
    assert confirmed["feedback"][1]["note"] == "Good call on this one."

    notice = rita.get("/me/feedback").json()
    assert (notice["overturned"], notice["notes"]) == (1, 1)
    assert sam.get("/me/feedback").json()["overturned"] == 0  # an agreement is not news
    seen = rita.post("/me/feedback/seen", json={"until": notice["as_of"]})
    assert seen.status_code == 200, seen.text
    assert (seen.json()["overturned"], seen.json()["notes"]) == (0, 0)
    assert seen.json()["seen_at"] is not None
    # A later note counts again; marking seen never goes back.
    lead.post(f"/decisions/{removed['id']}/notes", json={"note": "See the guideline on satire."})
    again = rita.get("/me/feedback").json()
    assert (again["overturned"], again["notes"]) == (0, 1)
    rita.post("/me/feedback/seen", json={"until": "2001-01-01T00:00:00Z"})
    assert rita.get("/me/feedback").json()["notes"] == 1


def test_decision_notes_are_for_leads_and_the_decisions_reviewer(server: LiveServer) -> None:
    rita = server.login("rita")
    sam = server.login("sam")
    lead = server.login("lead", Role.lead)
    (made,) = decide(rita, ["keep"])
    path = f"/decisions/{made['id']}/notes"
    expect_problem(rita.post(path, json={"note": "self-praise"}), 403, "lead_only")
    expect_problem(lead.post(path, json={"note": ""}), 422)
    expect_problem(lead.post("/decisions/999999/notes", json={"note": "x"}), 404)
    assert lead.post(path, json={"note": "first"}).status_code == 201
    assert lead.post(path, json={"note": "second"}).status_code == 201
    assert [n["note"] for n in rita.get(path).json()["notes"]] == ["first", "second"]
    assert [n["note"] for n in lead.get(path).json()["notes"]] == ["first", "second"]
    expect_problem(sam.get(path), 403, "not_your_decision")


def test_my_decisions_page_by_keyset_and_window(server: LiveServer) -> None:
    rita = server.login("rita")
    made = decide(rita, ["keep"] * 5)
    seen: list[int] = []
    cursor = None
    while True:
        page = mine(rita, limit=2, **({"cursor": cursor} if cursor else {}))
        seen += [d["id"] for d in page["decisions"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == sorted((d["id"] for d in made), reverse=True)
    assert mine(rita, until="2001-01-01T00:00:00Z")["decisions"] == []
    expect_problem(rita.get("/me/decisions", params=ALL_TIME), 422, "window_too_long")
    expect_problem(rita.get("/me/decisions", params={"cursor": "junk"}), 400, "invalid_cursor")
