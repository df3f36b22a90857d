"""Breaks from a workstation whose clock is off (POST /breaks, GET /stats/exposure): the
service places a break on its own clock, as it places verdicts, and keeps its length."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.server.test_exposure import _break, _decide, _exposure, exposure_server
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

MINUTE = 60.0
KEY = "00000000-0000-4000-8000-000000000001"


@pytest.fixture
def server(database_url: str) -> Iterator[tuple[LiveServer, ManualClock]]:
    yield from exposure_server(database_url)


@pytest.mark.parametrize("ahead", [7 * MINUTE, 2 * 3600.0])
def test_a_break_from_a_clock_ahead_counts_whole(
    server: tuple[LiveServer, ManualClock], ahead: float
) -> None:
    srv, clock = server
    _decide(srv, "ana", "gore")
    clock.advance(50 * MINUTE)
    _decide(srv, "ana", "gore")
    ana = srv.login("ana", create=False)
    # a 20 minute break, its start sent as it starts and its end as it ends, both timed
    # by a workstation clock ``ahead`` of the service's
    start = clock.now + ahead
    assert _break(ana, start, None, KEY).status_code == 200
    clock.advance(10 * MINUTE)
    on_it = _exposure(srv)["ana"]
    assert (on_it["breaks_shift"], on_it["break_minutes_shift"]) == (1, 10)  # still on it
    clock.advance(10 * MINUTE)
    assert _break(ana, start, start + 20 * MINUTE, KEY).status_code == 200
    clock.advance(MINUTE)
    _decide(srv, "ana", "gore")
    figures = _exposure(srv)["ana"]
    assert (figures["breaks_shift"], figures["breaks_week"]) == (1, 1)
    assert figures["break_minutes_shift"] == 20


def test_a_break_sent_whole_keeps_its_length_and_one_sent_late_its_time(
    server: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = server
    _decide(srv, "ana", "gore")
    ana = srv.login("ana", create=False)
    # sent whole as it ended, from a clock 30 minutes ahead: it ended now, 15 minutes long
    assert _break(ana, clock.now + 15 * MINUTE, clock.now + 30 * MINUTE).status_code == 200
    clock.advance(MINUTE)
    assert _exposure(srv)["ana"]["break_minutes_shift"] == 15
    # kept offline for an hour, from a right clock: counted when it was taken
    clock.advance(59 * MINUTE)
    _decide(srv, "ana", "gore")
    clock.advance(2 * 3600)
    assert _break(ana, clock.now - 100 * MINUTE, clock.now - 90 * MINUTE).status_code == 200
    figures = _exposure(srv)["ana"]
    assert (figures["breaks_shift"], figures["break_minutes_shift"]) == (2, 25)
