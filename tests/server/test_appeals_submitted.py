"""An appeal waits from when the user made it, over real HTTP on SQLite and PostgreSQL: the
appeals queue's figures (oldest waiting, over the SLA) and its order count from the
appeal's ``submitted_at`` (they counted from when the service received it: three days'
wait showed as seconds and sorted as the newest), never from later than now, and a
``submitted_at`` more than a few minutes ahead of the service's clock is refused."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

import pytest

from reviewer_app.protocol import QueueFile, Role
from tests.support.api import ApiSession, claim, verdict
from tests.support.appeals import APPEALS, appeal, appeals_server, platform_of, queue_file
from tests.support.clock import ManualClock
from tests.support.enforcement import queue_posts
from tests.support.intake import MISINFO, send
from tests.support.servers import LiveServer

HOUR = 3600


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Any:
    srv = appeals_server(database_url, clock)
    document = copy.deepcopy(queue_file())  # its appeals queue is a shared dict
    appeals = next(q for q in document["queues"] if q["id"] == APPEALS)
    appeals["config"]["priority"] = {"score": 0.0, "age": 1.0}  # the longest waiting first
    srv.service.apply_queue_file(QueueFile.model_validate(document), actor=None)
    try:
        yield srv
    finally:
        srv.stop()


def removed(server: LiveServer, platform: ApiSession, names: list[str]) -> None:
    queue_posts(platform, names)
    rita = server.login("rita")
    made = rita.decide(
        [verdict(x, "remove", policies=["MISINFO.CIVIC"]) for x in claim(rita, MISINFO, len(names))]
    )
    assert [r["status"] for r in made] == ["accepted"] * len(names), made


def made_at(clock: ManualClock, seconds_from_now: float, name: str) -> dict[str, Any]:
    body = appeal(name, appeal_id=f"ap-{name}")
    body["submitted_at"] = datetime.fromtimestamp(clock.now + seconds_from_now, UTC).isoformat()
    return body


def appeals_figures(lead: ApiSession) -> dict[str, Any]:
    response = lead.get("/stats/queues")
    assert response.status_code == 200, response.text
    return next(q for q in response.json()["queues"] if q["queue_id"] == APPEALS)


def test_an_appeal_waits_and_is_ordered_from_when_the_user_made_it(
    server: LiveServer, clock: ManualClock
) -> None:
    platform = platform_of(server)
    removed(server, platform, ["p-recent", "p-old"])
    clock.advance(4 * 24 * HOUR)  # the removals were four days ago
    [recent] = send(platform, "appeals", [made_at(clock, -HOUR, "p-recent")])
    assert recent["status"] == "created", recent
    clock.advance(60)  # the older appeal reaches the service later (a platform's backlog)
    [old] = send(platform, "appeals", [made_at(clock, -3 * 24 * HOUR, "p-old")])
    assert old["status"] == "created", old

    figures = appeals_figures(server.login("lena", Role.lead))
    # (whole seconds, of times sent to the microsecond)
    assert abs(figures["oldest_pending_age_seconds"] - 3 * 24 * HOUR) <= 1, figures
    assert figures["pending_over_sla"] == 2, "both waited longer than the 60 minutes"
    [first] = claim(server.login("sam"), APPEALS, 1)
    assert first["item"]["id"] == old["item_ids"][0], "the longest waiting comes first"
    assert first["item"]["appeal"]["submitted_at"].startswith(
        datetime.fromtimestamp(clock.now - 3 * 24 * HOUR, UTC).strftime("%Y-%m-%dT%H:%M")
    )


def test_a_submitted_at_ahead_of_the_clock_is_refused_beyond_a_few_minutes(
    server: LiveServer, clock: ManualClock
) -> None:
    platform = platform_of(server)
    removed(server, platform, ["p-skewed", "p-future"])
    results = send(
        platform,
        "appeals",
        [made_at(clock, 60, "p-skewed"), made_at(clock, 300 * 86_400, "p-future")],
    )
    assert results[0]["status"] == "created", results  # a minute's clock skew is taken
    assert results[1]["status"] == "rejected", results
    assert results[1]["reason"]["code"] == "submitted_in_future"
    assert "ahead of this service's clock" in results[1]["reason"]["message"]
    # the one taken waits from now, not from a minute on
    figures = appeals_figures(server.login("lena", Role.lead))
    assert figures["oldest_pending_age_seconds"] == 0, figures
    [held] = claim(server.login("sam"), APPEALS, 5, exactly=False)
    enqueued = datetime.fromisoformat(held["item"]["enqueued_at"]).timestamp()
    assert enqueued == pytest.approx(clock.now, abs=0.01)
    # refused, it was not stored: sent again with a true time it is taken
    [fixed] = send(platform, "appeals", [made_at(clock, -60, "p-future")])
    assert fixed["status"] == "created", fixed


def test_an_appeal_made_before_its_decision_waits_from_the_decision(
    server: LiveServer, clock: ManualClock
) -> None:
    """A ``submitted_at`` before the contested decision (the post's time, or 1971, sent by
    mistake) would put the appeal decades over its SLA and first in the queue for good."""
    platform = platform_of(server)
    removed(server, platform, ["p-early"])
    decided = clock.now
    clock.advance(HOUR)
    body = appeal("p-early", appeal_id="ap-early")
    body["submitted_at"] = "1971-01-01T00:00:00+00:00"
    [taken] = send(platform, "appeals", [body])
    assert taken["status"] == "created", taken
    figures = appeals_figures(server.login("lena", Role.lead))
    assert abs(figures["oldest_pending_age_seconds"] - HOUR) <= 1, figures
    [held] = claim(server.login("sam"), APPEALS, 1)
    enqueued = datetime.fromisoformat(held["item"]["enqueued_at"]).timestamp()
    assert enqueued == pytest.approx(decided, abs=1)
