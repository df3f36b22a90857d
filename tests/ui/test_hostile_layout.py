"""Long names and labels from the wire never size a window: every free-text field of every
reply (queue names, action, policy and rating labels, display names...) made 200 characters
long, with and without spaces. The window's and the lead workspace's minimum sizes stay under
a 1280 x 800 screen, also after switching queues; names elide in buttons, combos, table columns
and chart legends, the whole text in the tooltip."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCharts import QChartView
from PySide6.QtWidgets import QApplication, QComboBox, QTableView, QWidget

from reviewer_app.ui.plain import LABEL_WIDTH, ElidedButton
from tests.support.proxy import FaultProxy
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD
from tests.ui.poison import Poisoner, poisoned_rules

SCREEN = (1280, 800)
LONG = (
    "Misinformation about elections and public health reported by users " * 4,
    "W" * 200,
    "قائمة انتظار طويلة جدا " * 9,
)


@pytest.fixture
def long_names(demo_server: LiveServer) -> Iterator[tuple[FaultProxy, Poisoner]]:
    poisoner = Poisoner([text[:200] for text in LONG])
    proxy = FaultProxy(demo_server.port).start()
    for rule in poisoned_rules(poisoner):
        proxy.add(rule)
    yield proxy, poisoner
    proxy.stop()


def widest(root) -> list[tuple[int, str]]:
    """The widgets that ask for the most width (for a failure's message)."""

    found = [
        (w.minimumSizeHint().width(), f"{type(w).__name__} {w.objectName()}")
        for w in root.findChildren(QWidget)
        if w.isVisible()
    ]
    return sorted(found, reverse=True)[:30]


def fits(size) -> bool:
    screen = QApplication.primaryScreen().availableGeometry()
    return size.width() <= max(SCREEN[0], screen.width()) and size.height() <= max(
        SCREEN[1], screen.height()
    )


def test_long_labels_never_size_the_window(
    demo_server: LiveServer, long_names, desk_factory
) -> None:
    from tests.ui.test_lead_workspace import reviewer_decides

    reviewer_decides(demo_server, 2)  # so the Reviewers table has a row
    proxy, poisoner = long_names
    desk = desk_factory(proxy.url, user=LEAD, queue="misinformation")
    window, qtbot = desk.window, desk.qtbot
    assert window.review.queue is not None
    actions = window.review.queue.config.actions
    assert actions and all(len(a.label) == 200 for a in actions), "labels came poisoned"
    window.resize(*SCREEN)
    window.show()
    qtbot.wait(200)
    for row in range(window.queues.rowCount()):  # every queue, and back to the first
        window.queue_picker.setCurrentIndex(row)
        qtbot.wait(150)
        hint = window.minimumSizeHint()
        assert hint.width() <= SCREEN[0] and fits(hint), (row, hint, widest(window))
        assert window.width() <= max(SCREEN[0], window.minimumSizeHint().width())
        buttons = window.findChildren(ElidedButton)
        assert buttons, "action buttons elide"
        for button in buttons:
            assert button.sizeHint().width() <= LABEL_WIDTH + 60
            assert "…" in button.text() or len(button.full_text) < 30
            assert button.full_text[2:40] in button.toolTip() or "&amp;" in button.toolTip()
    for combo in window.findChildren(QComboBox):
        assert combo.minimumSizeHint().width() <= LABEL_WIDTH + 100, combo.objectName()
    window.queue_picker.setCurrentIndex(0)
    assert fits(window.minimumSizeHint())

    window.show_mode(1)
    lead = window.lead
    assert lead is not None
    lead.setCurrentWidget(lead.queues_view)
    qtbot.waitUntil(lambda: lead.queues_view.model.rowCount() > 0, timeout=20_000)
    qtbot.wait(200)
    assert fits(lead.minimumSizeHint()) and fits(window.minimumSizeHint())
    for view in lead.findChildren(QTableView):
        header = view.horizontalHeader()
        last = header.logicalIndex(header.count() - 1)  # (stretched to the table's end)
        for column in range(header.count()):
            if column == last and header.stretchLastSection() and view.isVisible():
                assert view.horizontalScrollBar().maximum() == 0, view.objectName()
                continue  # as wide as the room the others leave
            assert header.sectionSize(column) <= LABEL_WIDTH, (view.objectName(), column)
    queues = lead.queues_view.model
    tip = queues.index(0, 0).data(3)  # ToolTipRole: the whole name
    assert isinstance(tip, str) and any(text[:40] in tip for text in LONG), tip
    for chart in lead.findChildren(QChartView):
        for marker in chart.chart().legend().markers():
            assert 0 < len(marker.label()) <= 60, marker.label()
    lead.setCurrentWidget(lead.reviewers)
    qtbot.waitUntil(lambda: lead.reviewers.model.rowCount() > 0, timeout=20_000)
    assert fits(lead.minimumSizeHint()) and fits(window.minimumSizeHint())
    assert "ReviewerStats.display_name" in poisoner.fields
