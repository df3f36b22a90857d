"""The lead workspace's time charts: a view that keeps its time axis' labels whole at any
width, and the axes and scale the figures' charts share."""

from __future__ import annotations

from PySide6.QtCharts import (
    QChart,
    QChartView,
    QDateTimeAxis,
    QLineSeries,
    QValueAxis,
)
from PySide6.QtCore import (
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPen, QResizeEvent

from ..plain import named
from ..theme import SERIES_COLOURS

#: a chart view's least height; and what a chart takes beside its legend's rows (title,
#: margins), and a legend row beside its text
MIN_HEIGHT, CHROME, ROW_SPACING = 220, 96, 10
#: the most series a legend lists in a column beside the plot; more go in rows under it
#: (names shortened, whole in their tooltips), so the window's least height never grows
#: with the number of queues
COLUMN_ROWS = 6


def fit_time_ticks(chart: QChart) -> None:
    """As many ticks on a time axis as its labels fit side by side in the plot's width
    (five fixed ticks cut the labels to "…" on a narrow chart)."""
    width = chart.plotArea().width()
    for axis in chart.axes(Qt.Orientation.Horizontal):
        if not isinstance(axis, QDateTimeAxis) or width <= 0:
            continue
        metrics = QFontMetrics(axis.labelsFont())
        label = metrics.horizontalAdvance(axis.max().toString(axis.format())) + 16
        ticks = max(2, min(7, int(width // label)))
        if axis.tickCount() != ticks:
            axis.setTickCount(ticks)


class TimeChartView(QChartView):
    """A chart view that keeps its time axis' labels whole at any width."""

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit)

    def _fit(self) -> None:
        chart = self.chart()
        if chart is not None:
            fit_time_ticks(chart)


def new_chart(object_name: str, title: str) -> tuple[QChart, QChartView]:
    chart = QChart()
    chart.setTitle(title)
    # a column beside the plot: in a row under it six queue names were cut to "Misinfor..."
    chart.legend().setAlignment(Qt.AlignmentFlag.AlignRight)
    chart.legend().setShowToolTips(True)  # a name the legend had to shorten, in full
    view = TimeChartView(chart)
    # no keys of its own (the queue health table has the figures): no Tab stop, where it
    # showed no focus frame
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    view.setRenderHint(QPainter.RenderHint.Antialiasing)
    view.setMinimumHeight(MIN_HEIGHT)
    named(view, object_name, title)
    return chart, view


def nice_top(value: float) -> int:
    """The y axis' top: a multiple of 4 (five whole-number ticks), at least 4."""
    return max(4, -(-int(value) // 4) * 4)


def time_axes(chart: QChart, fmt: str) -> tuple[QDateTimeAxis, QValueAxis]:
    for axis in chart.axes():
        chart.removeAxis(axis)
    x = QDateTimeAxis()
    x.setFormat(fmt)
    y = QValueAxis()
    y.setLabelFormat("%d")
    y.setTickCount(5)
    chart.addAxis(x, Qt.AlignmentFlag.AlignBottom)
    chart.addAxis(y, Qt.AlignmentFlag.AlignLeft)
    return x, y


def colour_series(series: QLineSeries, index: int) -> None:
    """The ``index``th series of a chart in its own colour (SERIES_COLOURS, then again)."""
    pen = QPen(QColor(SERIES_COLOURS[index % len(SERIES_COLOURS)]))
    pen.setWidth(2)
    series.setPen(pen)


def fit_legend(chart: QChart) -> None:
    """``chart``'s legend in a column beside the plot and its view tall enough for it, a row
    a series (a row too few and the last queue was left out of the legend); beyond
    COLUMN_ROWS series, in rows under the plot at the least height."""
    scene = chart.scene()
    if scene is None:
        return
    rows = len(chart.series())
    column = rows <= COLUMN_ROWS
    chart.legend().setAlignment(
        Qt.AlignmentFlag.AlignRight if column else Qt.AlignmentFlag.AlignBottom
    )
    line = QFontMetrics(chart.legend().font()).height() + ROW_SPACING
    wanted = max(MIN_HEIGHT, rows * line + CHROME) if column else MIN_HEIGHT
    for view in scene.views():
        if view.minimumHeight() != wanted:
            view.setMinimumHeight(wanted)
