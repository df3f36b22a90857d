"""The lead's Wellbeing page and Reviewers table show people as "Display name (username)":
the tooltip says the same, the name isolated (a hostile name's bidi controls shown as
markers, never working), and the Reviewer column sorts by what it shows, whatever the
case. The Wellbeing page says how far behind its figures were read (a replica behind) and
fetches them again while it is shown, as the Queues page does.

The views get their figures the way they always do (a worker thread, a client from their
factory); here a stand-in client answers with protocol models, as ``ApiClient`` does."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from reviewer_app.protocol import ExposureReport, ReviewerExposure
from reviewer_app.protocol.stats import ReviewerStats, ReviewerStatsReport
from reviewer_app.ui.lead import exposure as exposure_module
from reviewer_app.ui.lead.exposure import ExposureView
from reviewer_app.ui.lead.stats_views import ReviewerStatsModel, sortable, table_view

TOOLTIP = Qt.ItemDataRole.ToolTipRole
#: (username, display name): by username the order is not the order shown
PEOPLE = [
    ("aaa", "Zed"),
    ("bob", "bob"),
    ("carl", "Carl"),
    ("eve", "Eve \u202eniamda\u202c"),
    ("zed", "Anna"),
]
SHOWN_ORDER = ["zed", "bob", "carl", "eve", "aaa"]  # Anna, bob, Carl, Eve…, Zed


def _report(staleness: float = 0.0) -> ExposureReport:
    return ExposureReport(
        generated_at=datetime.now(UTC),
        shift_gap_hours=4,
        reviewers=[
            ReviewerExposure(
                reviewer=user,
                display_name=name,
                shift_items=0,
                week_items=0,
                high_harm_shift=0,
                harm=[],
                breaks_shift=0,
                breaks_week=0,
                break_minutes_shift=0,
            )
            for user, name in PEOPLE
        ],
        staleness_seconds=staleness,
        from_replica=staleness > 0,
    )


class ExposureClient:
    def __init__(self, staleness: float = 0.0) -> None:
        self.staleness = staleness
        self.asked = 0

    def exposure(self) -> ExposureReport:
        self.asked += 1
        return _report(self.staleness)


def _open(qtbot: QtBot, client: ExposureClient) -> ExposureView:
    view = ExposureView(lambda: client)  # type: ignore[arg-type,return-value]
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(
        lambda: view.model.rowCount() == len(PEOPLE) and not view.loading, timeout=10_000
    )
    return view


def _sorted_users(proxy: object, view: object) -> list[str]:
    view.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # type: ignore[attr-defined]
    return [
        proxy.index(r, 0).data(Qt.ItemDataRole.UserRole)  # type: ignore[attr-defined]
        for r in range(proxy.rowCount())  # type: ignore[attr-defined]
    ]


def test_exposure_names_tooltip_isolated_and_sorted_as_shown(qtbot: QtBot) -> None:
    view = _open(qtbot, ExposureClient())
    model = view.model
    for row in range(model.rowCount()):
        tip = str(model.index(row, 0).data(TOOLTIP))
        assert "\u202e" not in tip and "\u202c" not in tip, tip
    eve = model.index(view.row_of("eve"), 0)
    assert "⟦U+202E⟧" in str(eve.data(TOOLTIP)) and "(eve)" in str(eve.data(TOOLTIP))
    assert _sorted_users(view.proxy, view.view) == SHOWN_ORDER


def test_reviewer_figures_names_tooltip_isolated_and_sorted_as_shown(qtbot: QtBot) -> None:
    until = datetime.now(UTC)
    model = ReviewerStatsModel()
    model.set_report(
        ReviewerStatsReport(
            since=until - timedelta(days=1),
            until=until,
            generated_at=until,
            reviewers=[
                ReviewerStats(
                    reviewer=user,
                    display_name=name,
                    decisions=1,
                    action_mix=[],
                    audited=0,
                    audit_agreed=0,
                    audit_overturned=0,
                    conflicts=0,
                )
                for user, name in PEOPLE
            ],
        )
    )
    table = table_view("reviewerFigures", "Reviewer figures")
    qtbot.addWidget(table)
    proxy = sortable(model, table)
    table.setModel(proxy)
    for row in range(model.rowCount()):
        assert "\u202e" not in str(model.index(row, 0).data(TOOLTIP))
    assert _sorted_users(proxy, table) == SHOWN_ORDER


def test_exposure_says_how_far_behind_and_refreshes_while_shown(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(exposure_module, "REFRESH_MS", 300, raising=False)
    client = ExposureClient(staleness=42.4)
    view = _open(qtbot, client)
    assert "figures as of 42 s ago" in view.status.text()
    qtbot.waitUntil(lambda: client.asked >= 3, timeout=5_000)  # again while shown
    view.hide()
    qtbot.wait(400)
    asked = client.asked
    qtbot.wait(1_000)
    assert client.asked == asked  # not while hidden
    client.staleness = 0.0
    view.show()
    qtbot.waitUntil(lambda: client.asked > asked and not view.loading, timeout=5_000)
    qtbot.waitUntil(lambda: "figures as of" not in view.status.text(), timeout=5_000)
