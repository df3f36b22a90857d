"""A lead sets a queue's break reminders (``PUT /queues/{id}/breaks``) without the queue
file: the only way was ``reviewer-app server queues apply`` on the server. Each change is
a configuration version by that lead; the reviewers' queue list carries the rule at once."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from reviewer_app.protocol import Role
from reviewer_app.server.storage.db import normalise_url
from tests.support.api import ApiSession, expect_problem
from tests.support.intake import MISINFO, apply_queues
from tests.support.servers import LiveServer


def _misinfo(session: ApiSession) -> dict[str, Any]:
    queues = session.get("/queues").json()["queues"]
    found: dict[str, Any] = next(q for q in queues if q["id"] == MISINFO)
    return found


def test_a_lead_sets_and_clears_a_queues_break_reminders(live_server: LiveServer) -> None:
    apply_queues(live_server)
    lead, rita = live_server.login("lena", Role.lead), live_server.login("rita")
    before = _misinfo(rita)["config_version"]
    rule = {
        "after_minutes": 45,
        "after_high_harm": 20,
        "high_harm": ["graphic_violence", "child_safety"],
    }

    set_ = lead.request("PUT", f"/queues/{MISINFO}/breaks", json={"breaks": rule})
    assert set_.status_code == 200, set_.text
    changed = set_.json()
    assert changed["queue_id"] == MISINFO and changed["config_version"] > before
    queue = _misinfo(rita)  # what the reviewers' windows read
    assert queue["config_version"] == changed["config_version"]
    assert queue["config"]["breaks"] == rule
    newest = live_server.service.config_versions()[0]
    assert (newest["version"], newest["applied_by"]) == (changed["config_version"], "lena")

    again = lead.request("PUT", f"/queues/{MISINFO}/breaks", json={"breaks": rule})
    assert again.json()["config_version"] == changed["config_version"], "no new version"

    cleared = lead.request("PUT", f"/queues/{MISINFO}/breaks", json={"breaks": None})
    assert (
        cleared.status_code == 200 and cleared.json()["config_version"] > changed["config_version"]
    )
    assert _misinfo(rita)["config"]["breaks"] is None

    expect_problem(
        lead.request("PUT", "/queues/no-such-queue/breaks", json={"breaks": rule}),
        404,
        "unknown_queue",
    )
    expect_problem(
        rita.request("PUT", f"/queues/{MISINFO}/breaks", json={"breaks": rule}), 403, None
    )
    refused = lead.request("PUT", f"/queues/{MISINFO}/breaks", json={"breaks": {}})
    assert refused.status_code == 422, "a rule needs a limit"


@pytest.mark.postgres
def test_two_leads_changing_two_queues_at_once_both_keep_their_change(pg_url: str) -> None:
    """Each change is the running file with one rule changed: on PostgreSQL both read the
    running file, then queued for the configuration lock, and the second undid the first."""
    server = LiveServer(pg_url).start()
    try:
        apply_queues(server)
        lena, lars = server.login("lena", Role.lead), server.login("lars", Role.lead)
        first, second = [q["id"] for q in lena.get("/queues").json()["queues"]][:2]
        holder = create_engine(normalise_url(pg_url))
        answers: dict[str, int] = {}

        def put(session: ApiSession, queue: str, minutes: int) -> None:
            body = {"breaks": {"after_minutes": minutes}}
            answers[queue] = session.request(
                "PUT", f"/queues/{queue}/breaks", json=body
            ).status_code

        with holder.connect() as conn, conn.begin():  # another change holds the lock a while
            conn.execute(text("LOCK TABLE config_versions IN SHARE ROW EXCLUSIVE MODE"))
            puts = [
                threading.Thread(target=put, args=(lena, first, 11)),
                threading.Thread(target=put, args=(lars, second, 22)),
            ]
            for thread in puts:
                thread.start()
            time.sleep(1.0)  # both wait for it
        for thread in puts:
            thread.join()
        holder.dispose()
        assert answers == {first: 200, second: 200}
        now = {q["id"]: q["config"]["breaks"] for q in lena.get("/queues").json()["queues"]}
        assert (now[first] or {}).get("after_minutes") == 11
        assert (now[second] or {}).get("after_minutes") == 22
    finally:
        server.stop()
