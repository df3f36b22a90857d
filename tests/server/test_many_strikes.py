"""An author with more strike policies than an item carries (both databases, over HTTP).

``Author.strikes`` holds at most 64 policies: an author the platform sent 128 (64 with each
of two posts) is still reviewable; the claim and ``GET /items/{id}`` both send the 64 most
recent, newest first, and each is a valid ``Item``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest

from reviewer_app.protocol import Item
from tests.support.api import ApiSession
from tests.support.intake import (
    MISINFO,
    NOW,
    apply_queues,
    author,
    classifier,
    key_session,
    post,
    send,
)
from tests.support.servers import LiveServer

POLICIES = 128
SHOWN = 64


@pytest.fixture
def server(database_url: str) -> Any:
    live = LiveServer(database_url).start()
    try:
        apply_queues(live)
        yield live
    finally:
        live.stop()


def strikes(first: int, last: int) -> list[dict[str, str]]:
    """Prior strikes under policies P{first}..P{last}: the higher the number, the newer."""
    return [
        {"policy": f"P{n}", "at": (NOW - timedelta(minutes=POLICIES - n)).isoformat()}
        for n in range(first, last + 1)
    ]


def newest_first(found: dict[str, Any]) -> list[str]:
    return [s["policy"] for s in found["author"]["strikes"]]


def test_an_author_with_128_strike_policies_gets_the_64_newest_on_claim_and_get(
    server: LiveServer,
) -> None:
    platform: ApiSession = key_session(server, "feed-bridge")
    send(
        platform,
        "posts",
        [
            post("strikes-1", author=author("striker", prior_strikes=strikes(0, 63))),
            post("strikes-2", author=author("striker", prior_strikes=strikes(64, 127))),
        ],
    )
    results = send(platform, "signals", [classifier("strikes-1"), classifier("strikes-2")])
    item_ids = {i for r in results for i in r["item_ids"]}
    assert len(item_ids) == 2

    expected = [f"P{n}" for n in range(POLICIES - 1, POLICIES - 1 - SHOWN, -1)]
    bob = server.login("bob")
    grants = bob.claim(MISINFO, count=10)
    assert {g["item"]["id"] for g in grants} == item_ids
    for grant in grants:
        Item.model_validate(grant["item"])
        assert newest_first(grant["item"]) == expected
        got = bob.get(f"/items/{grant['item']['id']}")
        assert got.status_code == 200, got.text
        assert newest_first(Item.model_validate(got.json()).model_dump(mode="json")) == expected
        assert got.json()["author"]["strikes"][0]["count"] == 1
