"""The lead's figures by day are the lead's days, against the real service over HTTP,
offscreen: the reviewer's trend names each row by the day it counts (New York's, across
the clocks going forward), and the "Decided per day" chart puts its points on the lead's
midnights."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCharts import QLineSeries
from PySide6.QtCore import QDateTime, QThreadPool, QTimeZone
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.ui.lead import quality, stats_views
from reviewer_app.ui.lead.quality import TrendPanel
from reviewer_app.ui.lead.stats_views import QueuesOverview
from tests.support.api import claim, verdict
from tests.support.clock import ManualClock
from tests.support.servers import PASSWORD, LiveServer

NEW_YORK = "America/New_York"
#: Tuesday 10 March 2026, 15:00 in New York (EDT since Sunday 8 March: UTC-4)
TUESDAY_3PM = datetime(2026, 3, 10, 19, 0, tzinfo=UTC)


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LiveServer]:
    # the lead's machine is in New York, whatever this one's zone: its local time, and
    # the zone it asks for (as Qt would name it there)
    monkeypatch.setenv("TZ", NEW_YORK)
    time.tzset()
    monkeypatch.setattr(quality, "lead_zone", lambda: NEW_YORK, raising=False)
    monkeypatch.setattr(stats_views, "lead_zone", lambda: NEW_YORK, raising=False)
    clock = ManualClock(TUESDAY_3PM.timestamp())
    srv = LiveServer(f"sqlite:///{tmp_path / 'days.db'}", clock=clock).start()
    seed_load_queue(srv.service, 5)
    srv.add_user("ana", Role.reviewer)
    srv.add_user("lea", Role.lead)
    ana = srv.login("ana", create=False)
    assert ana.decide([verdict(claim(ana, LOAD_QUEUE.id, 1)[0])])[0]["status"] == "accepted"
    clock.advance(3600)
    try:
        yield srv
    finally:
        QThreadPool.globalInstance().waitForDone(30_000)
        srv.stop()
        monkeypatch.undo()
        time.tzset()


def factory(url: str) -> Callable[[], ApiClient]:
    with ApiClient(url) as client:
        token = client.login("lea", PASSWORD).token
    shared = ApiClient(url, token=token)
    return lambda: shared


def test_the_trend_names_each_row_by_the_day_it_counts(server: LiveServer, qtbot: QtBot) -> None:
    panel = TrendPanel(factory(server.url))
    qtbot.addWidget(panel)
    until = TUESDAY_3PM + timedelta(hours=1)
    with qtbot.waitSignal(panel.loaded, timeout=20_000):
        panel.show_trend("ana", until - timedelta(days=3), until)
    model = panel.model
    rows = [[model.index(r, c).data() for c in range(2)] for r in range(model.rowCount())]
    assert rows == [
        ["Sat 07 Mar", "0"],
        ["Sun 08 Mar", "0"],
        ["Mon 09 Mar", "0"],
        ["Tue 10 Mar", "1"],
    ]


def test_decided_per_day_is_drawn_on_the_leads_midnights(server: LiveServer, qtbot: QtBot) -> None:
    view = QueuesOverview(factory(server.url))
    qtbot.addWidget(view)
    view.window_picker.setCurrentIndex(2)  # the last 30 days: per day
    until = TUESDAY_3PM + timedelta(hours=1)
    result = view.fetch(view.client_factory(), until - timedelta(days=30), until)
    view.show_figures(result)
    assert view.throughput.title() == "Decided per day"
    (series,) = [s for s in view.throughput.series() if isinstance(s, QLineSeries)]
    zone = QTimeZone(NEW_YORK.encode())
    points = {
        QDateTime.fromMSecsSinceEpoch(round(p.x()), zone).toString("yyyy-MM-dd HH:mm"): p.y()
        for p in series.points()
    }
    assert len(points) == 31 and {at[-5:] for at in points} == {"00:00"}
    assert points["2026-03-10 00:00"] == 1 and sum(points.values()) == 1
