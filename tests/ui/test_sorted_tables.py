"""The lead's tables sort as their header's arrow says from the first rows on: sorting was
switched on before a model was set, so the arrow showed and the rows stayed in the order
they came (the queue health, the webhooks, the users and the API keys)."""

from __future__ import annotations

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

from reviewer_app.ui.lead.stats_views import table_view


def test_a_table_shows_its_rows_in_the_order_its_arrow_says(qtbot) -> None:
    source = QStandardItemModel()
    for name in ("spam", "hate", "misinformation"):
        source.appendRow([QStandardItem(name)])
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(source)
    view = table_view("someTable", "Some table")
    qtbot.addWidget(view)
    view.setModel(proxy)
    header = view.horizontalHeader()
    assert header.isSortIndicatorShown()
    assert (header.sortIndicatorSection(), header.sortIndicatorOrder()) == (
        0,
        Qt.SortOrder.AscendingOrder,
    )
    shown = [proxy.index(row, 0).data() for row in range(proxy.rowCount())]
    assert shown == ["hate", "misinformation", "spam"]
    source.appendRow([QStandardItem("appeals")])  # rows that come later take their place
    assert proxy.index(0, 0).data() == "appeals"
