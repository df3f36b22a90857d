"""Exposure to harm per reviewer (GET /stats/exposure) and breaks (POST /breaks): a seeded
history of decisions and breaks at times the test sets, over real HTTP on both databases,
against figures worked out by hand from the queues' harm mapping."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    BreakRule,
    HarmKind,
    PolicyConfig,
    QueueConfig,
    Role,
    StatementCategory,
)
from reviewer_app.server.feeds.seed import seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

HOUR = 3600.0
DAY = 24 * HOUR


def _queue(queue_id: str, harm: list[HarmKind], policies: list[PolicyConfig]) -> SeedQueue:
    return SeedQueue(
        id=queue_id,
        name=queue_id.title(),
        description="",
        config=QueueConfig(
            actions=[
                ActionConfig(id="keep", label="No violation", kind=ActionKind.keep, key="1"),
                ActionConfig(
                    id="remove",
                    label="Remove",
                    kind=ActionKind.remove,
                    key="2",
                    requires_policy=True,
                ),
            ],
            policies=policies,
            harm=harm,
            breaks=BreakRule(after_high_harm=3),
        ),
    )


def _policy(code: str, harm: list[HarmKind]) -> PolicyConfig:
    return PolicyConfig(
        code=code,
        label=code.title(),
        terms_clause="Community Guidelines 1",
        category=StatementCategory.violence,
        harm=harm,
    )


# Every post in "gore" shows graphic violence; citing SELF.HARM adds self-harm.
GORE = _queue("gore", [HarmKind.graphic_violence], [_policy("SELF.HARM", [HarmKind.self_harm])])
# Every post in "talk" is hate; citing HARASS.TARGETED adds harassment.
TALK = _queue("talk", [HarmKind.hate], [_policy("HARASS.TARGETED", [HarmKind.harassment])])


def exposure_server(database_url: str, gore: int = 10) -> Iterator[tuple[LiveServer, ManualClock]]:
    """The service on a clock of its own at 08:00, with ``gore`` posts in GORE, 10 in TALK,
    reviewers ana and ben and the lead lea."""
    clock = ManualClock(datetime(2026, 11, 20, 8, 0, tzinfo=UTC).timestamp())
    srv = LiveServer(database_url, clock=clock).start()
    try:
        seed_load_queue(srv.service, gore, queue=GORE)
        seed_load_queue(srv.service, 10, queue=TALK)
        srv.add_user("ana", Role.reviewer)
        srv.add_user("ben", Role.reviewer)
        srv.add_user("lea", Role.lead)
        yield srv, clock
    finally:
        srv.stop()


@pytest.fixture
def server(database_url: str) -> Iterator[tuple[LiveServer, ManualClock]]:
    yield from exposure_server(database_url)


def _decide(srv: LiveServer, who: str, queue: str, *policies: str) -> None:
    session = srv.login(who, create=False)
    leased = claim(session, queue, 1)[0]
    body = verdict(leased, "remove" if policies else "keep")
    if policies:
        body["policies"] = list(policies)
    assert [r["status"] for r in session.decide([body])] == ["accepted"]


def _break(session: ApiSession, started: float, ended: float | None, key: str = "") -> Any:
    body: dict[str, Any] = {
        "id": key or str(uuid.uuid4()),
        "started_at": datetime.fromtimestamp(started, UTC).isoformat(),
    }
    if ended is not None:
        body["ended_at"] = datetime.fromtimestamp(ended, UTC).isoformat()
    return session.post("/breaks", json=body)


def _exposure(srv: LiveServer) -> dict[str, dict[str, Any]]:
    response = srv.login("lea", create=False).get("/stats/exposure")
    assert response.status_code == 200, response.text
    return {r["reviewer"]: r for r in response.json()["reviewers"]}


def test_exposure_counts_each_kind_per_shift_and_week(
    server: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = server
    # 8 days ago: out of the week
    _decide(srv, "ana", "gore")
    clock.advance(6 * DAY)
    # 2 days ago: two hate posts, one citing harassment, and a break (an earlier shift)
    _decide(srv, "ana", "talk")
    _decide(srv, "ana", "talk", "HARASS.TARGETED")
    ana = srv.login("ana", create=False)
    assert _break(ana, clock.now, clock.now + 900).status_code == 200
    clock.advance(2 * DAY - HOUR)
    # this shift: three gore posts (one citing self-harm), a 20 minute break, a hate post
    _decide(srv, "ana", "gore")
    _decide(srv, "ana", "gore", "SELF.HARM")
    _decide(srv, "ana", "gore")
    shift_began = clock.now
    clock.advance(10 * 60)
    ana = srv.login("ana", create=False)
    key = str(uuid.uuid4())
    assert _break(ana, clock.now, None, key).status_code == 200
    clock.advance(20 * 60)
    # its end, with the same id; sent twice (a retry) it still counts once
    for _ in range(2):
        assert _break(ana, clock.now - 20 * 60, clock.now, key).status_code == 200
    clock.advance(30 * 60)
    _decide(srv, "ana", "talk")
    clock.advance(60)

    found = _exposure(srv)
    figures = found["ana"]
    assert datetime.fromisoformat(figures["shift_started_at"]).timestamp() == pytest.approx(
        shift_began, abs=1
    )
    assert figures["shift_items"] == 4
    assert figures["week_items"] == 6
    assert figures["high_harm_shift"] == 3  # the gore posts: graphic violence is high-harm
    assert {h["kind"]: (h["shift"], h["week"]) for h in figures["harm"]} == {
        "graphic_violence": (3, 3),
        "self_harm": (1, 1),
        "hate": (1, 3),
        "harassment": (0, 1),
    }
    assert (figures["breaks_shift"], figures["breaks_week"]) == (1, 2)
    assert figures["break_minutes_shift"] == 20
    # a reviewer with nothing this week is listed with zeros, not on shift
    assert found["ben"]["shift_started_at"] is None
    assert (found["ben"]["week_items"], found["ben"]["harm"]) == (0, [])
    assert "lea" not in found

    # four hours after her last decision the shift is over; the week stays
    clock.advance(4 * HOUR)
    later = _exposure(srv)["ana"]
    assert (later["shift_started_at"], later["shift_items"], later["week_items"]) == (None, 0, 6)


def test_exposure_is_for_leads_and_a_break_id_is_its_owners(
    server: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = server
    ana = srv.login("ana", create=False)
    ben = srv.login("ben", create=False)
    expect_problem(ana.get("/stats/exposure"), 403)
    key = str(uuid.uuid4())
    assert _break(ana, clock.now, None, key).status_code == 200
    expect_problem(_break(ben, clock.now, clock.now + 60, key), 409, "break_of_another_user")
    # an end before its start is bad input, refused with a clear error
    expect_problem(_break(ana, clock.now, clock.now - 60), 422)
    assert _exposure(srv)["ana"]["breaks_week"] == 1


def test_a_break_never_closed_ends_at_the_next_decision(
    server: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = server
    _decide(srv, "ana", "gore")
    ana = srv.login("ana", create=False)
    assert _break(ana, clock.now, None).status_code == 200  # its end never arrives
    clock.advance(10 * 60)
    assert _exposure(srv)["ana"]["break_minutes_shift"] == 10  # still on it
    clock.advance(5 * 60)
    _decide(srv, "ana", "gore")  # back at work: the break ended here
    clock.advance(60 * 60)
    figures = _exposure(srv)["ana"]
    assert (figures["breaks_shift"], figures["break_minutes_shift"]) == (1, 15)
