"""An overturn puts the author's account back only when nothing else holds it there (both
databases, over HTTP): another standing decision of record that restricts the author, or
a later account action, keeps the status, and the platform's reversal then undoes the post
part only (``undo_author_action`` false in its payload)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from sqlalchemy import select

from reviewer_app.protocol import QueueFile, Role
from reviewer_app.server.domain.intake.rows import author_id_for
from reviewer_app.server.storage.tables import enforcement_actions
from tests.support.api import ApiSession, claim, verdict
from tests.support.enforcement import queue_file, queue_posts, read_all
from tests.support.intake import MISINFO
from tests.support.servers import LiveServer

ALL_TIME = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}
SOURCE = "feed-bridge"
AUTHOR = author_id_for(SOURCE, "author-1")  # every post's author (tests.support.intake)


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    live_server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
    return live_server


def restrict_one(server: LiveServer, session: ApiSession) -> dict[str, Any]:
    [leased] = claim(session, MISINFO, 1)
    [made] = session.decide([verdict(leased, "remove-restrict", policies=["MISINFO.CIVIC"])])
    assert made["status"] == "accepted", made
    return dict(made["decision"])


def audit_task(lead: ApiSession) -> int:
    """A sample of the one decision made so far: its audit id."""
    made = lead.post("/audits/samples", json={**ALL_TIME, "size": 1, "queue_id": MISINFO})
    assert made.status_code == 201, made.text
    return int(lead.post(f"/audits/samples/{made.json()['id']}/next").json()["task"]["audit_id"])


def overturn_to_keep(lead: ApiSession, audit_id: int) -> dict[str, Any]:
    body = {"result": "overturn", "action": "keep", "note": "satire"}
    recorded = lead.post(f"/audits/tasks/{audit_id}/result", json=body)
    assert recorded.status_code == 201, recorded.text
    return dict(recorded.json())


def status(lead: ApiSession, item_id: str) -> str:
    return str(lead.get(f"/items/{item_id}").json()["author"]["status"])


def reversal(server: LiveServer, decision_id: int) -> tuple[str, dict[str, Any]]:
    with server.service.db.read() as conn:
        row = conn.execute(
            select(enforcement_actions).where(enforcement_actions.c.decision_id == decision_id)
        ).one()
    assert row.reverses_action_id is not None
    return row.kind, json.loads(row.payload)


def as_the_platform_reads_it(
    server: LiveServer, platform: ApiSession, decision_id: int
) -> dict[str, Any]:
    """The reversal in the enforcement feed, once sealed."""
    assert platform.token is not None
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        found = [a for a in read_all(server.url, platform.token) if a["decision_id"] == decision_id]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError("the reversal never reached the feed")


def test_an_overturn_alone_reinstates_and_undoes_the_account_part(server: LiveServer) -> None:
    platform = ApiSession(server.url, server.service.create_api_key(Role.platform, SOURCE).key)
    [item] = queue_posts(platform, ["p-a"])
    lead = server.login("lead", Role.lead)
    restrict_one(server, server.login("rita"))
    result = overturn_to_keep(lead, audit_task(lead))
    assert status(lead, item) == "active"
    kind, payload = reversal(server, result["corrected"]["id"])
    assert (kind, payload["undo_author_action"]) == ("restore", True)
    assert as_the_platform_reads_it(server, platform, result["corrected"]["id"])[
        "undo_author_action"
    ]


def test_another_standing_restriction_keeps_the_account_restricted(server: LiveServer) -> None:
    platform = ApiSession(server.url, server.service.create_api_key(Role.platform, SOURCE).key)
    item_a, item_b = queue_posts(platform, ["p-a", "p-b"])
    lead = server.login("lead", Role.lead)
    restrict_one(server, server.login("rita"))  # A: the author restricted
    audit_id = audit_task(lead)  # a sample of A alone
    restrict_one(server, server.login("sam"))  # B: the same author, still of record
    assert status(lead, item_b) == "restricted"
    result = overturn_to_keep(lead, audit_id)
    assert status(lead, item_a) == "restricted", "B still restricts the author"
    kind, payload = reversal(server, result["corrected"]["id"])
    assert (kind, payload["undo_author_action"]) == ("restore", False)  # the post only
    seen = as_the_platform_reads_it(server, platform, result["corrected"]["id"])
    assert seen["undo_author_action"] is False


def test_a_later_account_action_stands_and_the_reversal_is_post_only(
    server: LiveServer,
) -> None:
    platform = ApiSession(server.url, server.service.create_api_key(Role.platform, SOURCE).key)
    [item] = queue_posts(platform, ["p-a"])
    lead = server.login("lead", Role.lead)
    restrict_one(server, server.login("rita"))
    audit_id = audit_task(lead)
    suspended = lead.post("/authors/actions", json={"author_ids": [AUTHOR], "action": "suspend"})
    assert suspended.status_code == 200, suspended.text
    result = overturn_to_keep(lead, audit_id)
    assert status(lead, item) == "suspended"
    kind, payload = reversal(server, result["corrected"]["id"])
    assert (kind, payload["undo_author_action"]) == ("restore", False)
