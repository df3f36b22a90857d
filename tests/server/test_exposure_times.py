"""Exposure (GET /stats/exposure) times each decision by when the reviewer made it, not by
when it reached the service, and counts an escalated or appealed post with the harm of the
queue it came from; over real HTTP on both databases.

- Verdicts made offline and sent hours later count in the shift they were made in: the
  client's time, clamped between the reviewer's claim of the item and its arrival (a wrong
  clock cannot move work into another day); the same before and after the roller.
- A lead deciding an escalated hate post, and a reviewer deciding an appeal, count the
  harm of the post's own queue (the escalation and appeals queues name none).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from reviewer_app.server.feeds.seed import seed_demo
from tests.server.test_exposure import (
    HOUR,
    _break,
    _decide,
    _exposure,
    exposure_server,
)
from tests.support.api import ApiSession, claim, verdict
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

MINUTE = 60.0


@pytest.fixture
def server(database_url: str) -> Iterator[tuple[LiveServer, ManualClock]]:
    yield from exposure_server(database_url, gore=20)


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat()


def _offline(session: ApiSession, queue: str, made: list[float]) -> list[dict[str, Any]]:
    """Verdicts on items claimed now, made (the client's time) at ``made``: send them
    later with ``_send``."""
    leased = claim(session, queue, len(made), lease_seconds=3600)
    return [verdict(x, "keep", decided_at=_iso(at)) for x, at in zip(leased, made, strict=True)]


def _send(session: ApiSession, bodies: list[dict[str, Any]]) -> None:
    assert [r["status"] for r in session.decide(bodies)] == ["accepted"] * len(bodies)


def _started(figures: dict[str, Any]) -> float | None:
    at = figures["shift_started_at"]
    return datetime.fromisoformat(at).timestamp() if at else None


def test_verdicts_sent_late_count_when_they_were_made(
    server: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = server
    eight = clock.now
    ana, ben = srv.login("ana", create=False), srv.login("ben", create=False)
    # ana: five gore posts decided offline 08:10-08:50 after a break she never closed, and
    # a hate post at 08:55 whose verdict waits longer still
    morning = _offline(ana, "gore", [eight + k * 10 * MINUTE for k in range(1, 6)])
    kept = _offline(ana, "talk", [eight + 55 * MINUTE])
    # ben: a client clock a day behind, and one three days ahead
    behind = _offline(ben, "talk", [eight - 24 * HOUR])
    clock.advance(5 * MINUTE)  # the break's start is sent as it starts (never ahead of it)
    assert _break(ana, clock.now, None).status_code == 200
    clock.advance(25 * MINUTE)
    ahead = _offline(ben, "talk", [clock.now + 72 * HOUR])
    clock.advance(2 * HOUR)  # 10:30: ana's laptop is back online
    _send(ana, morning)
    _send(ben, behind + ahead)
    clock.advance(MINUTE)
    found = _exposure(srv)
    figures = found["ana"]
    assert _started(figures) == eight + 5 * MINUTE, "her shift began with the break at 08:05"
    assert (figures["shift_items"], figures["high_harm_shift"]) == (5, 5)
    assert (figures["breaks_shift"], figures["break_minutes_shift"]) == (1, 5)  # to 08:10
    # never before the claim (08:00), never after the arrival (10:30)
    assert _started(found["ben"]) == eight
    assert found["ben"]["shift_items"] == 2

    # 14:30: the morning is over (08:55 is more than four hours ago) though it arrived at
    # 10:30; two gore posts online begin this shift. The hate post made at 08:55 arrives
    # now and stays out of it; a gore post claimed now, on a clock eight hours behind,
    # counts now.
    clock.advance(4 * HOUR - MINUTE)
    for _ in range(2):
        _decide(srv, "ana", "gore")
    _send(ana, kept + _offline(ana, "gore", [clock.now - 8 * HOUR]))
    clock.advance(MINUTE)
    figures = _exposure(srv)["ana"]
    assert _started(figures) == clock.now - MINUTE
    assert (figures["shift_items"], figures["week_items"]) == (3, 9)
    assert figures["high_harm_shift"] == 3
    assert _harm(figures) == {"graphic_violence": (3, 8), "hate": (0, 1)}

    # 22:31: nothing for more than four hours, whatever arrived when
    clock.advance(8 * HOUR)
    figures = _exposure(srv)["ana"]
    assert (_started(figures), figures["shift_items"], figures["week_items"]) == (None, 0, 9)
    # the roller's hours give the same figures as the decisions
    before = _exposure(srv)
    srv.service.roll_now()
    assert _exposure(srv) == before


def _harm(figures: dict[str, Any]) -> dict[str, tuple[int, int]]:
    return {h["kind"]: (h["shift"], h["week"]) for h in figures["harm"]}


def _figures(lead: ApiSession) -> dict[str, dict[str, Any]]:
    response = lead.get("/stats/exposure")
    assert response.status_code == 200, response.text
    return {r["reviewer"]: r for r in response.json()["reviewers"]}


def _plus_one(before: dict[str, Any], after: dict[str, Any], kinds: set[str]) -> None:
    """``after`` is ``before`` with one more post decided, of the harm ``kinds``."""
    assert kinds
    assert (after["shift_items"], after["week_items"]) == (
        before["shift_items"] + 1,
        before["week_items"] + 1,
    )
    old, new = _harm(before), _harm(after)
    for kind in {*old, *new}:
        shift, week = old.get(kind, (0, 0))
        grown = (shift + 1, week + 1) if kind in kinds else (shift, week)
        assert new.get(kind) == grown, (kind, old, new)


def test_escalated_and_appealed_posts_count_the_harm_of_their_queue(
    live_server: LiveServer,
) -> None:
    seed_demo(live_server.service)
    reviewer = ApiSession.login(live_server.url, "reviewer", "review-desk-demo")
    lead = ApiSession.login(live_server.url, "lead", "review-desk-lead")
    harm = {q["id"]: set(q["config"]["harm"]) for q in lead.get("/queues").json()["queues"]}
    assert harm["hate-harassment"] == {"hate"} and not harm["escalations"]
    assert not harm["appeals"]

    [item] = claim(reviewer, "hate-harassment", 1)
    _send(reviewer, [verdict(item, "escalate", escalation_reason="context_needed")])
    got = claim(lead, "escalations", 20, exactly=False)
    [escalated] = [x for x in got if x["item"]["id"] == item["item"]["id"]]
    before = _figures(lead)["lead"]
    _send(lead, [verdict(escalated, "no-violation", note="Fine in context.")])
    _plus_one(before, _figures(lead)["lead"], {"hate"})

    [appealed] = claim(reviewer, "appeals", 1)
    origin = appealed["item"]["origin_queue_id"]
    before = _figures(lead)["reviewer"]
    _send(reviewer, [verdict(appealed, "uphold", note="The decision stands.")])
    _plus_one(before, _figures(lead)["reviewer"], harm[origin])
