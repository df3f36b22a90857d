"""A rating published after the service's clock: up to five minutes ahead is clock skew and
taken; further ahead (a year 8999 was taken, shown, and sorted as the newest fact-check)
it is refused on its own, as an appeal submitted in the future is."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update

from reviewer_app.protocol import Role
from reviewer_app.server.storage.tables import users
from tests.support.api import ApiSession
from tests.support.clock import ManualClock
from tests.support.intake import MISINFO, NOW, apply_queues, key_session, post, send
from tests.support.servers import LiveServer


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(NOW.timestamp())


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Iterator[LiveServer]:
    """The service, its clock at NOW, over each database backend."""
    live = LiveServer(database_url, clock=clock).start()
    try:
        apply_queues(live)
        yield live
    finally:
        live.stop()


@pytest.fixture
def checker(server: LiveServer) -> ApiSession:
    session = key_session(server, "full-fact", Role.fact_checker)
    with server.service.db.write() as conn:
        conn.execute(
            update(users).where(users.c.username == "full-fact").values(display_name="Full Fact")
        )
    return session


def rating(rating_id: str, *post_ids: str, published_at: str) -> dict[str, Any]:
    return {
        "id": rating_id,
        "post_external_ids": list(post_ids),
        "rating": "false",
        "claim": "Ballots posted after Friday are not counted",
        "url": f"https://fullfact.example/{rating_id}",
        "published_at": published_at,
    }


def relayed(
    signal_id: str,
    post_id: str,
    *,
    published_at: str = NOW.isoformat(),
    claim: str = "Ballots posted after Friday are not counted",
) -> dict[str, Any]:
    """A fact-check relayed by the platform (a signal)."""
    return {
        "kind": "fact_check",
        "id": signal_id,
        "post_external_id": post_id,
        "organisation": "Full Fact",
        "rating": "false",
        "claim": claim,
        "url": f"https://fullfact.example/{signal_id}",
        "published_at": published_at,
    }


def test_a_rating_published_in_the_future_is_refused(
    server: LiveServer, checker: ApiSession, clock: ManualClock
) -> None:
    feed = key_session(server, "feed-bridge")
    send(feed, "posts", [post("p1")])
    ahead = [
        rating("fc-skew", "p1", published_at=(NOW + timedelta(seconds=300)).isoformat()),
        rating("fc-later", "p1", published_at=(NOW + timedelta(seconds=301)).isoformat()),
        rating("fc-8999", "p1", published_at="8999-01-01T00:00:00Z"),
        rating("fc-8999", "p1", published_at="8999-01-01T00:00:00Z"),  # a copy, refused alike
    ]
    results = send(checker, "fact-checks", ahead)
    assert [r["status"] for r in results] == ["created", "rejected", "rejected", "rejected"]
    for refused in results[1:]:
        assert refused["reason"]["code"] == "published_in_future"
        assert "ahead of this service's clock" in refused["reason"]["message"]
        assert refused["item_ids"] == []
    # five minutes of skew is taken: that rating routed the post
    assert results[0]["queue_ids"] == [MISINFO]

    # the refused ratings were not stored: neither listed nor on the post's item
    listed = checker.get("/intake/fact-checks").json()["ratings"]
    assert [r["id"] for r in listed] == ["fc-skew"]
    lead = server.login("lena", Role.lead)
    item = lead.get(f"/items/{results[0]['item_ids'][0]}").json()
    assert [f["published_at"][:4] for f in item["fact_checks"]] == ["2026"]

    # sent again once the clock has reached it, the rating is taken
    clock.advance(3600)
    [later] = send(
        checker,
        "fact-checks",
        [rating("fc-later", "p1", published_at=(NOW + timedelta(seconds=301)).isoformat())],
    )
    assert later["status"] == "created"


def test_a_relayed_rating_published_in_the_future_is_refused(server: LiveServer) -> None:
    """The platform relaying a fact-check is held to the same clock as the fact-checker."""
    feed = key_session(server, "feed-bridge")
    send(feed, "posts", [post("p2")])

    results = send(
        feed,
        "signals",
        [
            relayed("fc-r-8999", "p2", published_at="8999-01-01T00:00:00Z"),
            relayed("fc-r-skew", "p2", published_at=(NOW + timedelta(seconds=300)).isoformat()),
        ],
    )
    assert [r["status"] for r in results] == ["rejected", "created"]
    assert results[0]["reason"]["code"] == "published_in_future"
    lead = server.login("lena", Role.lead)
    [item_id] = results[1]["item_ids"]
    item = lead.get(f"/items/{item_id}").json()
    assert [f["url"] for f in item["fact_checks"]] == ["https://fullfact.example/fc-r-skew"]


def test_a_relayed_rating_of_no_claim_is_refused_on_its_own(server: LiveServer) -> None:
    """A relayed claim of spaces, zero-width or bidi characters alone would show as an empty
    claim: refused with its own reason while the rest of the batch is taken."""
    feed = key_session(server, "feed-bridge")
    send(feed, "posts", [post("p3")])

    blank = ["", "   ", "\u200b\u200b", "\u202e\u2066 \u2069"]
    results = send(
        feed,
        "signals",
        [relayed(f"fc-blank-{i}", "p3", claim=c) for i, c in enumerate(blank)]
        + [relayed("fc-said", "p3")],
    )
    assert [r["status"] for r in results] == ["rejected"] * len(blank) + ["created"]
    for refused in results[:-1]:
        assert refused["reason"]["code"] == "blank_claim", refused
        assert "names no claim" in refused["reason"]["message"]
    lead = server.login("lena", Role.lead)
    [item_id] = results[-1]["item_ids"]
    item = lead.get(f"/items/{item_id}").json()
    assert [f["claim"] for f in item["fact_checks"]] == [
        "Ballots posted after Friday are not counted"
    ]
