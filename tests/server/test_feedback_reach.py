"""The login notice counts only what My decisions can show and says how far back it reaches;
a "seen" mark covers only the decisions the reviewer was shown; a decision's notes are
capped (409) and its lists never outgrow the wire's limit (no 500); My decisions says when
a decision was made (offline work is sent later) and what the lead decided on an escalation.
Real HTTP over both databases."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert, select

from reviewer_app.protocol import ESCALATION_QUEUE, Role
from reviewer_app.protocol.feedback import FEEDBACK_PER_DECISION, NOTES_PER_DECISION
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_demo, seed_load_queue
from reviewer_app.server.storage.tables import decision_notes, decisions, users
from tests.server.test_feedback import mine
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.servers import LiveServer

DAY = 86_400.0


class Clock:
    def __init__(self) -> None:
        self.skew = 0.0

    def __call__(self) -> float:
        return time.time() + self.skew


@pytest.fixture
def clocked(database_url: str) -> Any:
    clock = Clock()
    server = LiveServer(database_url, clock=clock).start()
    try:
        yield server, clock
    finally:
        server.stop()


def decide_one(session: ApiSession, **fields: Any) -> dict[str, Any]:
    (leased,) = claim(session, LOAD_QUEUE.id, 1)
    (result,) = session.decide([verdict(leased, "keep", **fields)])
    assert result["status"] == "accepted", result
    decision: dict[str, Any] = result["decision"]
    return decision


def notice(session: ApiSession) -> dict[str, Any]:
    body: dict[str, Any] = session.get("/me/feedback").json()
    return body


def when(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


def test_the_notice_reaches_what_the_view_shows_and_seen_covers_only_what_was_shown(
    clocked: Any,
) -> None:
    server, clock = clocked
    seed_load_queue(server.service, 10)
    rita = server.login("rita")
    lead = server.login("lead", Role.lead)
    clock.skew = -40 * DAY  # older than My decisions can list
    ancient = decide_one(rita)
    clock.skew = -10 * DAY  # an earlier shift, older than a week
    earlier = decide_one(rita)
    clock.skew = 0.0
    today = decide_one(rita)
    for decision in (ancient, today, earlier):  # the earlier one's note comes last
        made = lead.post(f"/decisions/{decision['id']}/notes", json={"note": "look"})
        assert made.status_code == 201, made.text

    first = notice(rita)
    # the 40-day-old decision's note cannot be shown: not counted
    assert first["notes"] == 2, first
    assert abs(when(first["oldest"]) - when(earlier["decided_at"])) < 1.0

    # shown this shift only (today's decision): today's note is seen, the earlier
    # decision's note is not
    shift = when(today["decided_at"]) - 60
    body = {"until": first["as_of"], "shown_since": datetime.fromtimestamp(shift, UTC).isoformat()}
    marked = rita.post("/me/feedback/seen", json=body)
    assert marked.status_code == 200, marked.text
    after = notice(rita)
    assert after["notes"] == 1, after
    assert abs(when(after["oldest"]) - when(earlier["decided_at"])) < 1.0

    # shown far enough back: all of it seen
    reach = datetime.fromisoformat(after["oldest"]) - timedelta(seconds=1)
    body = {"until": after["as_of"], "shown_since": reach.isoformat()}
    assert rita.post("/me/feedback/seen", json=body).status_code == 200
    final = notice(rita)
    assert final["notes"] == 0 and final["overturned"] == 0 and final["oldest"] is None


def test_notes_are_capped_and_lists_never_outgrow_the_wire(live_server: LiveServer) -> None:
    seed_load_queue(live_server.service, 5)
    rita = live_server.login("rita")
    lead = live_server.login("lead", Role.lead)
    decision = decide_one(rita)
    path = f"/decisions/{decision['id']}/notes"
    assert lead.post(path, json={"note": "first"}).status_code == 201
    (first,) = lead.get(path).json()["notes"]
    now = time.time()
    with live_server.service.db.write() as conn:
        ids = dict(conn.execute(select(users.c.username, users.c.id)).all())
        conn.execute(
            insert(decision_notes),
            [
                {
                    "decision_id": decision["id"],
                    "reviewer_id": ids[first["reviewer"]],
                    "author_id": ids[first["author"]],
                    "note": f"note {n}",
                    "created_at": now + n / 1000,
                }
                for n in range(FEEDBACK_PER_DECISION + 10 - 1)
            ],
        )
    expect_problem(lead.post(path, json={"note": "one more"}), 409, "too_many_notes")
    listed = lead.get(path)
    assert listed.status_code == 200, listed.text
    notes = listed.json()["notes"]
    assert len(notes) == FEEDBACK_PER_DECISION
    assert notes[-1]["note"] == f"note {FEEDBACK_PER_DECISION + 8}"  # the newest kept
    (row,) = mine(rita)["decisions"]
    assert len(row["feedback"]) == FEEDBACK_PER_DECISION


def test_a_note_past_the_cap_is_refused(live_server: LiveServer) -> None:
    seed_load_queue(live_server.service, 5)
    rita = live_server.login("rita")
    lead = live_server.login("lead", Role.lead)
    decision = decide_one(rita)
    path = f"/decisions/{decision['id']}/notes"
    for n in range(NOTES_PER_DECISION):
        assert lead.post(path, json={"note": f"n{n}"}).status_code == 201
    expect_problem(lead.post(path, json={"note": "too many"}), 409, "too_many_notes")
    assert len(lead.get(path).json()["notes"]) == NOTES_PER_DECISION


def test_my_decisions_say_when_a_decision_was_made(clocked: Any) -> None:
    """When the reviewer made it, as the exposure figures place it (``wellbeing.made_at``):
    the device's time for a verdict sent late, but never before the reviewer claimed the
    post nor after it arrived (a device clock that is wrong is not shown as such)."""
    server, clock = clocked
    seed_load_queue(server.service, 5)
    rita = server.login("rita")
    clock.skew = -600.0  # claimed ten minutes ago (the service's time), for 15 minutes
    (leased,) = claim(rita, LOAD_QUEUE.id, 1, lease_seconds=900)
    clock.skew = 0.0
    made = datetime.now(UTC) - timedelta(seconds=420)  # decided offline, sent 7 min later
    (result,) = rita.decide([verdict(leased, "keep", decided_at=made.isoformat())])
    assert result["status"] == "accepted", result

    slow = datetime.now(UTC) - timedelta(hours=2)  # a device clock two hours slow
    decide_one(rita, decided_at=slow.isoformat())
    fast = datetime.now(UTC) + timedelta(hours=1)  # and one an hour fast
    decide_one(rita, decided_at=fast.isoformat())
    fast_row, slow_row, late_row = mine(rita)["decisions"]
    assert abs(when(late_row["made_at"]) - made.timestamp()) < 1.0  # sent late: its time
    for row in (slow_row, fast_row):
        assert when(row["decided_at"]) - 60 < when(row["made_at"]) <= when(row["decided_at"])


def test_an_escalation_says_what_the_lead_decided(live_server: LiveServer) -> None:
    seed_demo(live_server.service)
    rita = live_server.login("rita")
    lead = live_server.login("boss", Role.lead)
    config = next(q for q in rita.get("/queues").json()["queues"] if q["id"] == "spam-scams")
    escalate = next(a for a in config["config"]["actions"] if a["kind"] == "escalate")
    reasons = config["config"].get("escalation_reasons") or []
    extra = {"escalation_reason": reasons[0]["id"]} if reasons else {}
    (leased,) = claim(rita, "spam-scams", 1)
    item_id = leased["item"]["id"]
    (result,) = rita.decide([verdict(leased, escalate["id"], note="lead please", **extra)])
    assert result["status"] == "accepted", result
    (row,) = mine(rita)["decisions"]
    assert row["lead_action"] is None  # no one has decided it yet

    got = None
    for _ in range(50):
        got = next((x for x in lead.claim("escalations", 20) if x["item"]["id"] == item_id), None)
        if got is not None:
            break
    assert got is not None
    (decided,) = lead.decide([verdict(got, "remove", policies=["SPAM.SCAM"], note="scam")])
    assert decided["status"] == "accepted", decided
    (row,) = mine(rita)["decisions"]
    assert row["lead_action"] == "remove" and row["lead_decided_at"] is not None


def test_only_an_escalation_gains_the_leads_decision(live_server: LiveServer) -> None:
    """A decision that did not escalate (a keep) reads as itself even when the next
    decision on its post was made in the escalation queue (the post came back and was
    routed there)."""
    seed_load_queue(live_server.service, 5)
    rita = live_server.login("rita")
    kept = decide_one(rita)
    with live_server.service.db.write() as conn:
        row = dict(
            conn.execute(select(decisions).where(decisions.c.id == kept["id"])).one()._mapping
        )
        row.pop("id")
        row.update(epoch=row["epoch"] + 1, queue_id=ESCALATION_QUEUE, action="remove")
        conn.execute(insert(decisions).values(**row))
    (mine_row,) = mine(rita)["decisions"][-1:]
    assert mine_row["id"] == kept["id"] and mine_row["action"] == "keep"
    assert mine_row["lead_action"] is None
