"""Feedback that commits late is never hidden by a "seen" mark (both databases, real
concurrency: a second connection holds the lock the write waits for, as a slow
transaction would), and My decisions shows the latest word on a decision by time, naming
auditors and leads but never the peer who decided an appeal."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import text

from reviewer_app.protocol import DecisionOutcome, FeedbackKind, Role
from reviewer_app.server.domain import feedback
from reviewer_app.server.domain.appeals import REVERSED
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.server.test_feedback import ALL_TIME, decide
from tests.support.servers import LiveServer

T = 1_900_000_000.0  # feedback times, for the rows made up below


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    seed_load_queue(live_server.service, 10)
    return live_server


@pytest.mark.parametrize("kind", ["overturn", "note"])
def test_feedback_committed_after_a_seen_mark_still_counts(server: LiveServer, kind: str) -> None:
    postgres = not server.service.db.is_sqlite
    if kind == "note" and postgres:
        pytest.skip("a note waits for no row lock on PostgreSQL: nothing to hold it")
    rita = server.login("rita")
    lead = server.login("lead", Role.lead)
    (removed,) = decide(rita, ["remove"])
    audit_id = 0
    if kind == "overturn":
        made = lead.post("/audits/samples", json={**ALL_TIME, "size": 1, "queue_id": LOAD_QUEUE.id})
        assert made.status_code == 201, made.text
        audit_id = lead.post(f"/audits/samples/{made.json()['id']}/next").json()["task"]["audit_id"]

    def write() -> Any:
        if kind == "overturn":
            body = {"result": "overturn", "action": "keep", "note": "fine"}
            return lead.post(f"/audits/tasks/{audit_id}/result", json=body)
        return lead.post(f"/decisions/{removed['id']}/notes", json={"note": "see me"})

    done: dict[str, Any] = {}
    blocker = server.service.db.engine.connect()
    try:
        if postgres:  # the probe's psql: the audit row held FOR UPDATE
            blocker.begin()
            blocker.execute(
                text("SELECT id FROM audit_items WHERE id = :a FOR UPDATE"), {"a": audit_id}
            )
        else:  # another writer holds SQLite's one write lock
            blocker = blocker.execution_options(write=True)
            blocker.begin()
        writer = threading.Thread(target=lambda: done.setdefault("write", write()))
        writer.start()
        time.sleep(0.5)  # the write is waiting for the lock now

        def look() -> None:
            shown = rita.get("/me/feedback").json()
            done["shown"] = shown
            done["seen"] = rita.post("/me/feedback/seen", json={"until": shown["as_of"]})

        reader = threading.Thread(target=look)
        reader.start()
        reader.join(1.0)  # answered at once, or waits for the write under way
        blocker.rollback()
    finally:
        blocker.close()
    writer.join(30)
    reader.join(30)
    assert done["write"].status_code == 201, done["write"].text
    assert done["seen"].status_code == 200, done["seen"].text
    after = rita.get("/me/feedback").json()
    counted = after["overturned"] if kind == "overturn" else after["notes"]
    shown = done["shown"]["overturned"] if kind == "overturn" else done["shown"]["notes"]
    assert shown + counted == 1, (done["shown"], after)  # seen once: before, or still news


def test_the_latest_word_decides_the_outcome_and_appeal_reviewers_are_not_named(
    server: LiveServer,
) -> None:
    rita = server.login("rita")
    sam = server.login("sam")
    (contested,) = decide(rita, ["remove"])
    (peers,) = decide(sam, ["keep"])  # stands in for the appeal's decision, by a peer
    audit = SimpleNamespace(
        decision_id=contested["id"],
        result="overturn",
        auditor_id=None,
        final_action="keep",
        note="no",
        recorded_at=T + 300,
    )

    def appeal(outcome: str, decided_at: float) -> SimpleNamespace:
        return SimpleNamespace(
            decision_id=contested["id"],
            outcome=outcome,
            outcome_decision_id=peers["id"],
            received_at=T + 100,
            decided_at=T + decided_at,
        )

    with server.service.db.read() as conn:
        # upheld on appeal, then overturned by an audit: the audit is the latest word
        _, outcome = feedback._feedback(conn, [audit], [appeal("upheld", 200.0)], [])
        assert outcome[contested["id"]] is DecisionOutcome.overturned
        # and the other way round
        found, outcome = feedback._feedback(conn, [audit], [appeal(REVERSED, 400.0)], [])
        assert outcome[contested["id"]] is DecisionOutcome.appeal_reversed
    (word,) = [f for f in found[contested["id"]] if f.kind is FeedbackKind.appeal]
    assert (word.by, word.by_display_name, word.action) == (None, None, "keep")
