"""The client asks for the user's own days, against the real service over HTTP: the queue
list's "decided today" from this machine's last local midnight, and the lead's figures by
day in this machine's time zone, unless told otherwise. The machine is put in New York
(``TZ``) for the test."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import claim, verdict
from tests.support.client import login
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

NEW_YORK = "America/New_York"


@pytest.fixture
def in_new_york(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", NEW_YORK)
    time.tzset()
    try:
        yield
    finally:
        monkeypatch.undo()
        time.tzset()


def test_this_machines_zone_and_midnight(
    in_new_york: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from reviewer_app.core.api.lead import local_zone
    from reviewer_app.core.api.review import local_midnight

    assert local_zone() == NEW_YORK
    midnight = local_midnight()
    here = midnight.astimezone(ZoneInfo(NEW_YORK))
    assert (here.hour, here.minute, here.date()) == (0, 0, datetime.now(ZoneInfo(NEW_YORK)).date())
    monkeypatch.setenv("TZ", "Nowhere/Special")
    assert local_zone() is None  # then no zone is sent: UTC days, as before


def test_decided_today_and_the_trend_are_this_machines_days(
    in_new_york: None, tmp_path: Path
) -> None:
    ny = ZoneInfo(NEW_YORK)
    midnight = datetime.combine(datetime.now(ny).date(), datetime.min.time(), ny).timestamp()
    clock = ManualClock(midnight - 60)
    srv = LiveServer(f"sqlite:///{tmp_path / 's.db'}", clock=clock).start()
    try:
        seed_load_queue(srv.service, 5)
        srv.add_user("ana", Role.reviewer)
        ana = srv.login("ana", create=False)
        # a minute before and a minute after New York's last midnight: whatever UTC's
        # day now, it holds both or neither
        for at in (midnight - 60, midnight + 60):
            clock.now = at
            assert ana.decide([verdict(claim(ana, LOAD_QUEUE.id, 1)[0])])[0]["status"] == (
                "accepted"
            )
        clock.now = max(time.time(), midnight + 120)
        reviewer = login(srv.url, "ana")
        (queue,) = [q for q in reviewer.queues().queues if q.id == LOAD_QUEUE.id]
        assert queue.counts.decided_today == 1

        lead = login(srv, "lea", Role.lead)
        until = datetime.fromtimestamp(clock.now, UTC)
        trend = lead.reviewer_trend("ana", until - timedelta(days=2), until)
        assert trend.time_zone == NEW_YORK
        assert [d.decisions for d in trend.days][-2:] == [1, 1]
        assert trend.days[-1].start.timestamp() == midnight
    finally:
        srv.stop()
