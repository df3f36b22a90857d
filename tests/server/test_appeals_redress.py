"""Statements of reasons offer only the redress the service gives, over real HTTP on SQLite
and PostgreSQL: an upheld appeal's statement and a lead's account action (made on no item)
are not appealable here, so theirs offer out-of-court dispute settlement and the courts
(DSA Art. 21), not the appeal the service then refuses; every other restriction's offers
the appeal."""

from __future__ import annotations

from reviewer_app.protocol import Role, Statement
from reviewer_app.protocol.statements import REDRESS
from reviewer_app.server.domain.intake.rows import author_id_for
from tests.support.api import claim, verdict
from tests.support.appeals import (
    APPEALS,
    SOURCE,
    appeal,
    appeals_on_a_manual_clock,  # noqa: F401 - the server fixture
    feed,
    platform_of,
)
from tests.support.enforcement import queue_posts
from tests.support.intake import MISINFO, send
from tests.support.servers import LiveServer

CIVIC = ["MISINFO.CIVIC"]


def assert_no_appeal_offered(statement: Statement) -> None:
    assert "You can appeal" not in statement.redress, statement.redress
    assert "cannot be appealed" in statement.redress, statement.redress
    assert "out-of-court dispute settlement body" in statement.redress
    assert "redress in court" in statement.redress
    assert f"Your options\n{statement.redress}" in statement.text, "the text says the same"


def test_an_upheld_appeal_offers_what_is_left_after_the_appeal(server: LiveServer) -> None:
    platform = platform_of(server)
    [item_id] = queue_posts(platform, ["p-1"])
    rita = server.login("rita")
    [leased] = claim(rita, MISINFO, 1)
    assert rita.decide([verdict(leased, "remove", policies=CIVIC)])[0]["status"] == "accepted"
    assert send(platform, "appeals", [appeal("p-1", appeal_id="ap-1")])[0]["status"] == "created"
    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 1)
    [upheld] = sam.decide([verdict(held, "uphold", note="It names the wrong date.")])
    assert upheld["status"] == "accepted", upheld

    removed, stands = feed(server, platform)
    assert Statement.model_validate(removed["statement"]).redress == REDRESS
    restated = Statement.model_validate(stands["statement"])
    assert stands["kind"] == "appeal_upheld"
    assert_no_appeal_offered(restated)
    shown = sam.get(f"/items/{item_id}/statements").json()["statements"]
    assert [s["redress"] for s in shown] == [REDRESS, restated.redress]
    # what the statement says is so: the decision's one appeal was this one
    [second] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-2")])
    assert second["reason"]["code"] == "already_appealed", second


def test_a_leads_account_action_offers_no_appeal_it_would_refuse(server: LiveServer) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-1"])
    lead = server.login("lena", Role.lead)
    suspended = lead.post(
        "/authors/actions",
        json={
            "author_ids": [author_id_for(SOURCE, "author-1")],
            "action": "suspend",
            "policies": CIVIC,
            "note": "a network",
        },
    )
    assert suspended.status_code == 200, suspended.text
    [action] = feed(server, platform)
    assert action["kind"] == "author:suspend"
    assert_no_appeal_offered(Statement.model_validate(action["statement"]))
    [refused] = send(platform, "appeals", [appeal(author_id="author-1")])
    assert refused["reason"]["code"] == "not_appealable", refused
