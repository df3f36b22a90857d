"""Days as the caller lives them, over real HTTP on both databases: a reviewer's trend and
the queues' decisions per day by the lead's time zone (``tz``: its midnights, a 23-hour
day where the clocks go forward), and "decided today" from the reviewer's own midnight
(``day_start``). Without them, UTC days, as before."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

HOUR = 3600.0
NEW_YORK = "America/New_York"
#: Tuesday 10 March 2026, 15:00 in New York (EDT since Sunday 8 March: UTC-4)
TUESDAY_3PM = datetime(2026, 3, 10, 19, 0, tzinfo=UTC).timestamp()


@pytest.fixture
def server(database_url: str) -> Iterator[tuple[LiveServer, ManualClock]]:
    clock = ManualClock(TUESDAY_3PM)
    srv = LiveServer(database_url, clock=clock).start()
    try:
        seed_load_queue(srv.service, 20)
        srv.add_user("ana", Role.reviewer)
        srv.add_user("lea", Role.lead)
        yield srv, clock
    finally:
        srv.stop()


def _decide_at(srv: LiveServer, clock: ManualClock, at: float) -> None:
    clock.now = at
    ana = srv.login("ana", create=False)
    leased = claim(ana, LOAD_QUEUE.id, 1)[0]
    assert [r["status"] for r in ana.decide([verdict(leased)])] == ["accepted"]


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat()


def _utc(day: str) -> str:
    return datetime.fromisoformat(day).astimezone(UTC).isoformat()


def _trend(lead: ApiSession, until: float, **extra: str) -> Any:
    params = {"since": _iso(until - 3 * 24 * HOUR), "until": _iso(until), **extra}
    return lead.get("/stats/reviewers/ana/trend", params=params)


def test_a_trend_by_the_leads_days(server: tuple[LiveServer, ManualClock]) -> None:
    srv, clock = server
    _decide_at(srv, clock, TUESDAY_3PM)
    until = TUESDAY_3PM + HOUR
    lead = srv.login("lea", create=False)
    found = _trend(lead, until, tz=NEW_YORK)
    assert found.status_code == 200, found.text
    trend = found.json()
    assert trend["time_zone"] == NEW_YORK
    # the window's start (Sat 15:00), then New York's midnights: Sunday's day is 23 hours
    assert [_utc(d["start"]) for d in trend["days"]] == [
        datetime(2026, 3, 7, 20, 0, tzinfo=UTC).isoformat(),  # the window's start
        datetime(2026, 3, 8, 5, 0, tzinfo=UTC).isoformat(),  # 00:00 EST
        datetime(2026, 3, 9, 4, 0, tzinfo=UTC).isoformat(),  # 00:00 EDT
        datetime(2026, 3, 10, 4, 0, tzinfo=UTC).isoformat(),
    ]
    assert [d["decisions"] for d in trend["days"]] == [0, 0, 0, 1]  # on Tuesday

    # without a zone: UTC days, as an older client gets them
    old = _trend(lead, until).json()
    assert old["time_zone"] == "UTC"
    assert [_utc(d["start"])[:19] for d in old["days"]][1:] == [
        f"2026-03-{day:02d}T00:00:00" for day in (8, 9, 10)
    ]
    expect_problem(_trend(lead, until, tz="Mars/Olympus_Mons"), 422, "unknown_time_zone")


def _series(lead: ApiSession, since: float, until: float, **extra: str) -> list[tuple[str, int]]:
    params = {"since": _iso(since), "until": _iso(until), "bucket": "day", **extra}
    found = lead.get("/stats/queues", params=params)
    assert found.status_code == 200, found.text
    (queue,) = [q for q in found.json()["queues"] if q["queue_id"] == LOAD_QUEUE.id]
    return [(_utc(p["start"]), p["decided"]) for p in queue["decided_series"]]


def test_decisions_per_day_by_the_leads_days(server: tuple[LiveServer, ManualClock]) -> None:
    srv, clock = server
    # Monday 21:00 and Tuesday 15:00 in New York: Tuesday 01:00Z and 19:00Z, one UTC day
    _decide_at(srv, clock, TUESDAY_3PM - 18 * HOUR)
    _decide_at(srv, clock, TUESDAY_3PM)
    # Kolkata (UTC+5:30) turns to Wednesday at 18:30Z: one decision before, one after
    _decide_at(srv, clock, TUESDAY_3PM - 40 * 60)
    _decide_at(srv, clock, TUESDAY_3PM - 20 * 60)
    clock.now = TUESDAY_3PM + 2 * HOUR
    since, until = TUESDAY_3PM - 3 * 24 * HOUR, clock.now
    lead = srv.login("lea", create=False)
    for rolled in (False, True):  # from the decisions, then from the roller's hours
        ny = _series(lead, since, until, tz=NEW_YORK)
        assert ny[-2:] == [
            (datetime(2026, 3, 9, 4, 0, tzinfo=UTC).isoformat(), 1),  # Monday
            (datetime(2026, 3, 10, 4, 0, tzinfo=UTC).isoformat(), 3),  # Tuesday
        ]
        assert len({s for s, _ in ny}) == len(ny) == 4
        kolkata = _series(lead, since, until, tz="Asia/Kolkata")
        assert kolkata[-2:] == [
            (datetime(2026, 3, 9, 18, 30, tzinfo=UTC).isoformat(), 2),  # Tuesday there
            (datetime(2026, 3, 10, 18, 30, tzinfo=UTC).isoformat(), 2),  # Wednesday
        ]
        assert _series(lead, since, until)[-1] == (
            datetime(2026, 3, 10, 0, 0, tzinfo=UTC).isoformat(),
            4,
        )
        if not rolled:  # the roller's hours hold every decision now (the background
            srv.service.roll_now()  # roller may have taken some already: nothing to assert)
            assert srv.service.roll_now() == 0


def _decided_today(session: ApiSession, day_start: float | None = None) -> int:
    params = {"day_start": _iso(day_start)} if day_start is not None else {}
    found = session.get("/queues", params=params)
    assert found.status_code == 200, found.text
    (queue,) = [q for q in found.json()["queues"] if q["id"] == LOAD_QUEUE.id]
    return int(queue["counts"]["decided_today"])


def test_decided_today_from_the_reviewers_midnight(
    server: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = server
    # Tuesday in New York: 14:00, 18:00 and 20:30 (the last on Wednesday in UTC)
    for hour in (18.0, 22.0, 24.5):
        _decide_at(srv, clock, datetime(2026, 3, 10, tzinfo=UTC).timestamp() + hour * HOUR)
    clock.advance(15 * 60)  # 20:45 in New York
    ana = srv.login("ana", create=False)
    midnight = datetime(2026, 3, 10, 4, 0, tzinfo=UTC).timestamp()
    assert _decided_today(ana, midnight) == 3
    assert _decided_today(ana) == 1  # no day_start: since UTC midnight, as before
    # a workstation clock a day and some hours off still counts from a New York midnight
    assert _decided_today(ana, midnight + timedelta(days=1).total_seconds()) == 3
    assert _decided_today(ana, midnight - timedelta(days=2).total_seconds()) == 3


def test_zones_are_known_where_the_system_has_no_zone_database() -> None:
    """Windows and slim containers have no /usr/share/zoneinfo: the tzdata package is the
    service's zone database there (a lead's figures by day were refused as an unknown zone)."""
    code = (
        "from reviewer_app.server.domain import local_days\n"
        "for name in ('UTC', 'Europe/Paris', 'Asia/Kolkata'): local_days.zone(name)\n"
    )
    env = {**os.environ, "PYTHONTZPATH": "/nonexistent"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
