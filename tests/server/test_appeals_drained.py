"""Appeals drained into another appeals queue (``queues apply --drain-to``) are decided
there, over real HTTP on SQLite and PostgreSQL: waiting ones claimed in the new queue, one
leased when the file was applied with the lease it holds, and one released afterwards once
claimed again. The pending ones moved without their appeals, and every verdict on them was
rejected ``no_appeal``."""

from __future__ import annotations

import copy
from typing import Any

from reviewer_app.protocol import QueueFile
from tests.support.api import claim, verdict
from tests.support.appeals import (
    APPEALS,
    appeal,
    appeals_on_a_manual_clock,  # noqa: F401 - the server fixture
    feed,
    platform_of,
    queue_file,
)
from tests.support.enforcement import queue_posts
from tests.support.intake import MISINFO, send
from tests.support.servers import LiveServer

V2 = "appeals-v2"
POSTS = ["p-pending", "p-held", "p-released"]


def renamed() -> QueueFile:
    """The running file with the appeals queue renamed (as an exported file edited)."""
    document = copy.deepcopy(queue_file())  # its appeals queue is a shared dict
    for q in document["queues"]:
        if q["id"] == APPEALS:
            q["id"] = V2
    return QueueFile.model_validate(document)


def by_post(leased: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {x["item"]["post"]["url"].rsplit("/", 1)[-1]: x for x in leased}


def test_drained_appeals_are_decided_in_the_queue_they_moved_to(server: LiveServer) -> None:
    platform = platform_of(server)
    items = dict(zip(POSTS, queue_posts(platform, POSTS), strict=True))
    rita = server.login("rita")
    made = rita.decide(
        [verdict(x, "remove", policies=["MISINFO.CIVIC"]) for x in claim(rita, MISINFO, 3)]
    )
    assert [r["status"] for r in made] == ["accepted"] * 3, made
    sent = send(platform, "appeals", [appeal(p, appeal_id=f"ap-{p}") for p in POSTS])
    assert [r["status"] for r in sent] == ["created"] * 3, sent

    sam, tom = server.login("sam"), server.login("tom")
    held = by_post(claim(sam, APPEALS, 3))
    released = sam.post("/leases/release", json={"tokens": [held["p-pending"]["lease_token"]]})
    assert released.status_code == 200, released.text
    # p-pending waits, p-held and p-released are held by sam when the file is applied
    server.service.apply_queue_file(renamed(), actor=None, drain_to=V2)

    # held when the file was applied: decided with the lease it holds
    [kept] = sam.decide([verdict(held["p-held"], "reverse")])
    assert kept["status"] == "accepted", kept
    # released after: claimed again in the queue it moved to, and decided there
    gone = sam.post("/leases/release", json={"tokens": [held["p-released"]["lease_token"]]})
    assert gone.status_code == 200, gone.text
    again = by_post(claim(tom, V2, 5, exactly=False))
    assert set(again) == {"p-pending", "p-released"}, again
    results = tom.decide(
        [
            verdict(again["p-pending"], "reverse"),
            verdict(again["p-released"], "uphold", note="The removal stands."),
        ]
    )
    assert [r["status"] for r in results] == ["accepted", "accepted"], results

    outcomes = {
        a["post_external_id"]: (a["kind"], a["appeal_id"])
        for a in feed(server, platform)
        if a["appeal_id"] is not None
    }
    assert outcomes == {
        "p-pending": ("restore", "ap-p-pending"),
        "p-held": ("restore", "ap-p-held"),
        "p-released": ("appeal_upheld", "ap-p-released"),
    }
    for name, item_id in items.items():
        item = tom.get(f"/items/{item_id}").json()
        assert item["state"] == "decided" and item["queue_id"] == V2, (name, item["state"])
        assert item["appeal"]["outcome"] in ("reversed", "upheld"), item["appeal"]
    # a resent appeal names the queue it waits in now (here: decided in)
    [resent] = send(platform, "appeals", [appeal("p-pending", appeal_id="ap-p-pending")])
    assert resent["status"] == "unchanged" and resent["queue_ids"] == [V2], resent
