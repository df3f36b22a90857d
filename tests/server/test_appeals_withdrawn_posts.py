"""A post's withdrawal and the appeals of its decision, over real HTTP on SQLite and
PostgreSQL: a waiting appeal of the account outlives the post (deleting it ended the appeal
for good, and the suspension it contested stood with no appeal left), and an appeal that
ended withdrawn does not count as the decision's one appeal."""

from __future__ import annotations

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from reviewer_app.server.storage.tables import appeals, authors
from tests.support.api import ApiSession, claim, verdict
from tests.support.appeals import (
    APPEALS,
    appeal,
    feed,
    platform_of,
    suspending_appeals_on_a_manual_clock,  # noqa: F401 - the server fixture
)
from tests.support.enforcement import queue_posts
from tests.support.intake import MISINFO, send
from tests.support.servers import LiveServer

AUTHOR = "author-1"  # every post's author (tests.support.intake)
GONE = {"post_external_id": "p-1", "reason": "deleted"}


def suspended_on_p1(server: LiveServer, platform: ApiSession) -> str:
    """p-1 removed and its author suspended (rita): the item's id."""
    [item_id] = queue_posts(platform, ["p-1"])
    rita = server.login("rita")
    [leased] = claim(rita, MISINFO, 1)
    [made] = rita.decide([verdict(leased, "remove-suspend", policies=["MISINFO.CIVIC"])])
    assert made["status"] == "accepted", made
    return item_id


def status(server: LiveServer) -> str:
    with server.service.db.read() as conn:
        return str(conn.execute(select(authors.c.status)).scalar())


def test_an_account_appeal_outlives_the_withdrawal_of_its_post(server: LiveServer) -> None:
    platform = platform_of(server)
    item_id = suspended_on_p1(server, platform)
    [sent] = send(platform, "appeals", [appeal(author_id=AUTHOR, appeal_id="ap-account")])
    assert sent["status"] == "created" and sent["item_ids"] == [item_id], sent

    [gone] = send(platform, "withdrawals", [GONE])
    assert gone["status"] == "updated" and gone["item_ids"] == [], gone
    assert [a["kind"] for a in feed(server, platform)] == ["remove"], "no withdrawn action"
    # the same appeal sent again is still the waiting one
    [again] = send(platform, "appeals", [appeal(author_id=AUTHOR, appeal_id="ap-account")])
    assert again["status"] == "unchanged" and again["queue_ids"] == [APPEALS], again

    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 1)
    assert held["item"]["id"] == item_id
    assert held["item"]["appeal"]["id"] == "ap-account"
    assert held["item"]["appeal"]["outcome"] is None
    [reversed_] = sam.decide([verdict(held, "reverse")])
    assert reversed_["status"] == "accepted", reversed_
    actions = feed(server, platform)
    assert [(a["kind"], a["appeal_id"]) for a in actions] == [
        ("remove", None),
        ("restore", "ap-account"),
    ]
    assert actions[1]["undo_author_action"] is True
    assert status(server) == "active"


def test_an_appeal_that_ended_withdrawn_leaves_the_decision_appealable(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    item_id = suspended_on_p1(server, platform)
    [post_appeal] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-post")])
    assert post_appeal["status"] == "created", post_appeal
    [gone] = send(platform, "withdrawals", [GONE])
    assert gone["item_ids"] == [item_id], "the appeal of the post ended with it"
    assert [(a["kind"], a["appeal_id"]) for a in feed(server, platform)][-1] == (
        "withdrawn",
        "ap-post",
    )

    # the suspension it left standing can still be appealed, once
    [account] = send(platform, "appeals", [appeal(author_id=AUTHOR, appeal_id="ap-account")])
    assert account["status"] == "created" and account["item_ids"] == [item_id], account
    [twice] = send(platform, "appeals", [appeal(author_id=AUTHOR, appeal_id="ap-twice")])
    assert twice["reason"]["code"] == "already_appealed", twice
    # the ended appeal is still answered as it was
    [ended] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-post")])
    assert ended["status"] == "unchanged", ended
    # and the database holds the rule: one appeal per decision, not counting one withdrawn
    with server.service.db.read() as conn:
        rows = [dict(r) for r in conn.execute(select(appeals).order_by(appeals.c.id)).mappings()]
    assert [(r["external_id"], r["outcome"]) for r in rows] == [
        ("ap-post", "withdrawn"),
        ("ap-account", None),
    ]
    assert rows[0]["decision_id"] == rows[1]["decision_id"]
    copy = {k: v for k, v in rows[1].items() if k != "id"} | {"external_id": "ap-copy"}
    with pytest.raises(IntegrityError), server.service.db.write() as conn:
        conn.execute(insert(appeals).values(**copy))

    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 1)
    assert held["item"]["appeal"]["id"] == "ap-account"
    [upheld] = sam.decide([verdict(held, "uphold", note="A network of fake accounts.")])
    assert upheld["status"] == "accepted", upheld
    assert [(a["kind"], a["appeal_id"]) for a in feed(server, platform)][-1] == (
        "appeal_upheld",
        "ap-account",
    )
    [after] = send(platform, "appeals", [appeal(author_id=AUTHOR, appeal_id="ap-after")])
    assert after["reason"]["code"] == "already_appealed", "decided: that was its one appeal"
    assert status(server) == "suspended"
