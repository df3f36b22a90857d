"""The lead's queue figures say how far behind they are when the service read them from a
replica that was behind (``staleness_seconds``, ``from_replica`` of the report), and say
nothing of it when they came from the primary or from a replica that had caught up.

The view gets its figures the way it always does: ``refresh`` runs its ``fetch`` on a
worker thread with the client its factory makes (here a stand-in client answering with
protocol models, as ``ApiClient`` returns them) and shows the result on the GUI thread.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from pytestqt.qtbot import QtBot

from reviewer_app.protocol import QueueStatsReport
from reviewer_app.protocol.queues import Queue, QueueCounts, QueueList
from reviewer_app.protocol.stats import (
    QualityReport,
    QualityThresholds,
    QueueStats,
    ReviewerStatsReport,
    ReviewerTrend,
    StatsBucket,
)
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from reviewer_app.ui.lead.quality import TrendPanel
from reviewer_app.ui.lead.stats_views import QueuesOverview, ReviewersView

STALE_WORDS = "figures as of"


class FiguresClient:
    """What ``QueuesOverview.fetch`` asks of its client, answered with protocol models."""

    def __init__(self, report: QueueStatsReport) -> None:
        self.report = report
        self.asked: list[str] = []

    def queues(self) -> QueueList:
        self.asked.append("queues")
        counts = QueueCounts(pending=4, leased=1, decided_today=5)
        queue = Queue(
            id=LOAD_QUEUE.id, name=LOAD_QUEUE.name, counts=counts, config=LOAD_QUEUE.config
        )
        return QueueList(queues=[queue])

    def queue_stats(
        self,
        since: datetime,
        until: datetime,
        *,
        queue_id: str | None = None,
        bucket: str = "hour",
        tz: str | None = None,
    ) -> QueueStatsReport:
        self.asked.append("queue_stats")
        return self.report


def report(*, from_replica: bool, staleness: float) -> QueueStatsReport:
    until = datetime.now(UTC).replace(microsecond=0)
    since = until - timedelta(hours=24)
    return QueueStatsReport(
        since=since,
        until=until,
        bucket=StatsBucket.hour,
        generated_at=until,
        queues=[
            QueueStats(
                queue_id=LOAD_QUEUE.id,
                name=LOAD_QUEUE.name,
                backlog=4,
                leased=1,
                oldest_pending_age_seconds=600,
                sla_seconds=86_400,
                sla_breached=False,
                pending_over_sla=0,
                decided=5,
                decided_series=[],
                action_mix=[],
                escalations_open=0,
            )
        ],
        staleness_seconds=staleness,
        from_replica=from_replica,
    )


def loaded(qtbot: QtBot, figures: QueueStatsReport) -> QueuesOverview:
    """A queue figures view that has fetched ``figures`` and shown them."""
    client = FiguresClient(figures)
    overview = QueuesOverview(lambda: client)  # type: ignore[arg-type, return-value]
    qtbot.addWidget(overview)
    overview.refresh()
    qtbot.waitUntil(lambda: not overview.loading, timeout=10_000)
    assert client.asked == ["queues", "queue_stats"]
    assert overview.model.rowCount() == 1, overview.status.text()  # the figures are shown
    assert overview.model.queues[0].decided == 5
    assert overview.status.text().startswith("Updated "), overview.status.text()
    return overview


@pytest.mark.parametrize(("staleness", "shown"), [(2.0, "2"), (7.4, "7"), (42.6, "43")])
def test_figures_from_a_replica_behind_say_how_old_they_are(
    qtbot: QtBot, staleness: float, shown: str
) -> None:
    overview = loaded(qtbot, report(from_replica=True, staleness=staleness))
    assert f"(figures as of {shown} s ago)" in overview.status.text(), overview.status.text()


@pytest.mark.parametrize(
    ("from_replica", "staleness"),
    [(False, 0.0), (True, 0.0)],
    ids=["the primary", "a replica caught up"],
)
def test_current_figures_say_nothing_of_staleness(
    qtbot: QtBot, from_replica: bool, staleness: float
) -> None:
    overview = loaded(qtbot, report(from_replica=from_replica, staleness=staleness))
    assert STALE_WORDS not in overview.status.text(), overview.status.text()


def test_fresher_figures_drop_the_staleness_words(qtbot: QtBot) -> None:
    """A refresh that reads the primary after one that read a replica behind: the old
    figures' age does not stay on the status line."""
    client = FiguresClient(report(from_replica=True, staleness=9.0))
    overview = QueuesOverview(lambda: client)  # type: ignore[arg-type, return-value]
    qtbot.addWidget(overview)
    overview.refresh()
    qtbot.waitUntil(lambda: not overview.loading, timeout=10_000)
    assert "(figures as of 9 s ago)" in overview.status.text(), overview.status.text()
    client.report = report(from_replica=False, staleness=0.0)
    overview.refresh()
    qtbot.waitUntil(lambda: not overview.loading, timeout=10_000)
    assert overview.status.text().startswith("Updated "), overview.status.text()
    assert STALE_WORDS not in overview.status.text(), overview.status.text()


class ReviewerFiguresClient(FiguresClient):
    """What ``ReviewersView.fetch`` asks: the reviewers' figures, then their quality
    signals, each read on its own (one from the primary, one from a replica behind)."""

    def __init__(self, quality_staleness: float) -> None:
        super().__init__(report(from_replica=False, staleness=0.0))
        self.quality_staleness = quality_staleness

    def reviewer_stats(self, since: datetime, until: datetime) -> ReviewerStatsReport:
        self.asked.append("reviewer_stats")
        return ReviewerStatsReport(since=since, until=until, generated_at=until, reviewers=[])

    def quality(
        self, since: datetime, until: datetime, thresholds: QualityThresholds
    ) -> QualityReport:
        self.asked.append("quality")
        return QualityReport(
            since=since,
            until=until,
            previous_since=since - (until - since),
            thresholds=thresholds,
            generated_at=until,
            reviewers=[],
            staleness_seconds=self.quality_staleness,
            from_replica=True,
        )


def test_the_reviewers_page_says_the_age_of_its_oldest_figures(qtbot: QtBot) -> None:
    """The reviewers' figures came from the primary and their quality signals from a
    replica 12 s behind: the page says 12 s (it said nothing, reading the first alone)."""
    client = ReviewerFiguresClient(quality_staleness=12.2)
    view = ReviewersView(lambda: client)  # type: ignore[arg-type, return-value]
    qtbot.addWidget(view)
    view.refresh()
    qtbot.waitUntil(lambda: not view.loading, timeout=10_000)
    assert client.asked == ["reviewer_stats", "quality", "queues"]
    assert "(figures as of 12 s ago)" in view.status.text(), view.status.text()
    client.quality_staleness = 0.0
    view.refresh()
    qtbot.waitUntil(lambda: not view.loading, timeout=10_000)
    assert STALE_WORDS not in view.status.text(), view.status.text()


@pytest.mark.parametrize(("staleness", "said"), [(6.6, True), (0.0, False)])
def test_a_reviewers_trend_says_how_old_it_is(qtbot: QtBot, staleness: float, said: bool) -> None:
    """The trend under the reviewers' figures is read on its own: its title says its age."""

    class TrendClient:
        def reviewer_trend(
            self, reviewer: str, since: datetime, until: datetime, tz: str | None = None
        ) -> ReviewerTrend:
            return ReviewerTrend(
                reviewer=reviewer,
                since=since,
                until=until,
                days=[],
                staleness_seconds=staleness,
                from_replica=True,
            )

    panel = TrendPanel(lambda: TrendClient())  # type: ignore[arg-type, return-value]
    qtbot.addWidget(panel)
    with qtbot.waitSignal(panel.loaded, timeout=10_000):
        until = datetime.now(UTC)
        panel.show_trend("rita", until - timedelta(days=7), until)
    assert ", day by day" in panel.title.text(), panel.title.text()
    assert ("(figures as of 7 s ago)" in panel.title.text()) is said, panel.title.text()
