"""A post appeal contests the newest decision that still restricts the post, over real HTTP
on SQLite and PostgreSQL: a reduction in one queue stands when a later signal takes the
post to another queue that finds no violation there, and the user, told they could appeal
the reduction, can (the later "no violation" was contested, and refused as restricting
nothing)."""

from __future__ import annotations

from tests.support.api import claim, verdict
from tests.support.appeals import (
    APPEALS,
    appeal,
    appeals_on_a_manual_clock,  # noqa: F401 - the server fixture
    feed,
    platform_of,
)
from tests.support.enforcement import queue_posts
from tests.support.intake import HATE, MISINFO, classifier, send
from tests.support.servers import LiveServer


def test_a_reduction_standing_under_a_later_no_violation_is_appealed(server: LiveServer) -> None:
    platform = platform_of(server)
    [reduced_item] = queue_posts(platform, ["p-1"])
    rita = server.login("rita")
    [leased] = claim(rita, MISINFO, 1)
    [reduced] = rita.decide([verdict(leased, "reduce")])
    assert reduced["status"] == "accepted", reduced

    [routed] = send(platform, "signals", [classifier("p-1", 0.95, model="hate-bert")])
    assert routed["queue_ids"] == [HATE] and routed["item_ids"] != [reduced_item], routed
    sam = server.login("sam")
    [hate] = claim(sam, HATE, 1)
    [kept] = sam.decide([verdict(hate, "keep")])
    assert kept["status"] == "accepted", kept
    assert [a["kind"] for a in feed(server, platform)] == ["reduce", "keep"]

    [sent] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-1")])
    assert sent["status"] == "created", sent
    assert sent["item_ids"] == [reduced_item], "the reduction's item is the one appealed"
    tom = server.login("tom")
    [held] = claim(tom, APPEALS, 1)
    contested = held["item"]["appeal"]["contested"]
    assert (contested["id"], contested["action"]) == (reduced["decision"]["id"], "reduce")
    [reversed_] = tom.decide([verdict(held, "reverse")])
    assert reversed_["status"] == "accepted", reversed_
    restore = feed(server, platform)[-1]
    assert (restore["kind"], restore["appeal_id"]) == ("restore", "ap-1")
    assert restore["reverses_action_id"] == feed(server, platform)[0]["id"]

    # nothing restricts the post now
    [again] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-2")])
    assert again["reason"]["code"] == "not_restrictive", again
