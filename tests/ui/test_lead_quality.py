"""Quality flags in the Lead workspace's Reviewers table, against the real service over
HTTP, offscreen: the lead's thresholds (kept in their settings) are sent, the flagged
reviewers are marked in words with the figures behind them, and the selected reviewer's
trend is shown day by day."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QThreadPool
from pytestqt.qtbot import QtBot

from reviewer_app.core import settings as core_settings
from reviewer_app.core.api import ApiClient
from reviewer_app.core.store import Store
from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.ui.lead.quality import ThresholdsBar
from reviewer_app.ui.lead.stats_views import ReviewerStatsModel, ReviewersView
from tests.support.api import ApiSession, claim, verdict
from tests.support.servers import PASSWORD, LiveServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(f"sqlite:///{tmp_path / 'quality.db'}").start()
    seed_load_queue(srv.service, 40)
    srv.add_user("lead", Role.lead)
    try:
        yield srv
    finally:
        QThreadPool.globalInstance().waitForDone(30_000)
        srv.stop()


def factory(url: str) -> Callable[[], ApiClient]:
    with ApiClient(url) as client:
        token = client.login("lead", PASSWORD).token
    shared = ApiClient(url, token=token)  # the lead's one client, as the workspace shares it
    return lambda: shared


def decide(server: LiveServer, name: str, action: str, ms: int, count: int) -> None:
    server.add_user(name)
    session = ApiSession.login(server.url, name, PASSWORD)
    policies = ["SPAM.SCAM"] if action == "remove" else []
    results = session.decide(
        [
            verdict(x, action, policies=policies, time_spent_ms=ms)
            for x in claim(session, LOAD_QUEUE.id, count)
        ]
    )
    assert {r["status"] for r in results} == {"accepted"}


def test_flags_follow_the_leads_thresholds_and_the_trend_shows_the_days(
    server: LiveServer, qtbot: QtBot, tmp_path: Path
) -> None:
    decide(server, "quick", "keep", 300, 4)  # 0.3 s each, keeps only
    decide(server, "steady", "remove", 5_000, 4)  # 5 s each, removes only
    with Store(tmp_path / "lead.sqlite3") as store:
        view = ReviewersView(factory(server.url), settings=store.settings)
        qtbot.addWidget(view)
        view.resize(1400, 700)
        view.show()
        model: ReviewerStatsModel = view.model
        qtbot.waitUntil(lambda: model.rowCount() == 2 and not view.loading, timeout=20_000)
        # the defaults ask for 20 decisions before judging: nobody is flagged
        assert [model.flag_text(r.reviewer) for r in model.reviewers] == ["", ""]

        view.thresholds.minimum.setValue(4)
        view.thresholds._save()  # what editingFinished does
        qtbot.waitUntil(lambda: bool(model.flag_text("quick")) and not view.loading, timeout=20_000)
        quick = model.flag_text("quick")
        # k4 against the other's r4: total variation distance 1.00; median about 0.3 s
        assert "fast: median 0.3 s" in quick
        assert "action mix far from the others' in" in quick and "(1.00)" in quick
        assert "Load test" in quick or LOAD_QUEUE.name in quick  # the queue's name, isolated
        assert "fast" not in model.flag_text("steady") and "(1.00)" in model.flag_text("steady")
        row = next(r for r in range(2) if model.reviewers[r].reviewer == "quick")
        index = model.index(row, model.FLAGS)
        assert index.data() == quick
        assert index.data(Qt.ItemDataRole.BackgroundRole) is not None
        # kept in the lead's settings: a new bar reads them back
        assert store.settings.get(core_settings.QUALITY_MIN_DECISIONS) == 4
        assert ThresholdsBar(store.settings).thresholds().min_decisions == 4

        # the selected reviewer's days
        view.view.selectRow(view.proxy.mapFromSource(model.index(row, 0)).row())
        qtbot.waitUntil(lambda: view.trend.model.rowCount() >= 1, timeout=20_000)
        days = [
            [view.trend.model.index(r, c).data() for c in range(4)]
            for r in range(view.trend.model.rowCount())
        ]
        assert sum(int(d[1]) for d in days) == 4
        assert any(d[2] == "0.3 s" for d in days)
        assert "quick" in view.trend.title.text()
        view.close()
