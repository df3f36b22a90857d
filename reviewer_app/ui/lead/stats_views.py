"""Queue health and reviewer figures for leads: tables (sortable), charts (QtCharts) of
throughput and backlog over time, SLA breaches highlighted, and a drill-down from a
reviewer to their decisions. Figures come from the service on a worker thread."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, cast

from PySide6.QtCharts import QLineSeries
from PySide6.QtCore import (
    QDateTime,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.core.settings import Settings
from reviewer_app.protocol import (
    QualityReport,
    QueueStats,
    QueueStatsReport,
    ReviewerQuality,
    ReviewerStats,
    ReviewerStatsReport,
)

from ..background import run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table
from ..plain import (
    SortedTable,
    fit_columns,
    isolate,
    keep_headers_fit,
    label,
    named,
    read_only_table,
    rich_escaped,
    set_text,
    tooltip,
    whole,
)
from ..theme import Tone, set_tone
from ..words import code_words, decimal, percent, plural
from .breaks import open_breaks
from .charts import colour_series, fit_legend, fit_time_ticks, new_chart, nice_top, time_axes
from .quality import ThresholdsBar, TrendPanel, flag_words, lead_zone, share
from .stats_words import held_back_words

Index = QModelIndex | QPersistentModelIndex
SORT = Qt.ItemDataRole.UserRole + 1
BREACH = QColor(198, 40, 40, 70)
FLAGGED = QColor(230, 150, 0, 60)
#: Windows a lead can pick: (words, hours).
WINDOWS = (
    (QT_TRANSLATE_NOOP("LeadStats", "last 24 hours"), 24),
    (QT_TRANSLATE_NOOP("LeadStats", "last 7 days"), 24 * 7),
    (QT_TRANSLATE_NOOP("LeadStats", "last 30 days"), 24 * 30),
)
REFRESH_MS = 30_000
#: Backlog samples kept per queue (one per refresh: 12 hours at 30 s).
BACKLOG_POINTS = 1_440


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    if seconds >= 86_400:
        return translate("LeadStats", "{n} d").format(n=decimal(seconds / 86_400))
    if seconds >= 3_600:
        return translate("LeadStats", "{n} h").format(n=decimal(seconds / 3_600))
    return translate("LeadStats", "{n} min").format(n=int(seconds // 60))


def mix(counts: Sequence[Any], labels: Mapping[str, str] | None = None) -> str:
    """The leading actions' shares, each by its label in the queue's configuration."""
    total = sum(c.count for c in counts) or 1
    return ", ".join(
        f"{code_words(c.action, labels)} {percent(c.count / total)}" for c in counts[:4]
    )


class QueueStatsModel(_Table):
    labels: Mapping[str, Mapping[str, str]] = {}  # each queue's actions' labels
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadStats", "Queue"),
        QT_TRANSLATE_NOOP("LeadStats", "Waiting"),
        QT_TRANSLATE_NOOP("LeadStats", "Being reviewed"),
        QT_TRANSLATE_NOOP("LeadStats", "Oldest waiting"),
        QT_TRANSLATE_NOOP("LeadStats", "SLA"),
        QT_TRANSLATE_NOOP("LeadStats", "Over SLA"),
        QT_TRANSLATE_NOOP("LeadStats", "Decided"),
        QT_TRANSLATE_NOOP("LeadStats", "Per hour"),
        QT_TRANSLATE_NOOP("LeadStats", "Escalations open"),
        QT_TRANSLATE_NOOP("LeadStats", "Action mix"),
    )
    TR_CONTEXT = "LeadStats"
    TWO_LINE_TITLES = True

    def __init__(self) -> None:
        super().__init__()
        self.queues: list[QueueStats] = []
        self.hours = 24.0

    def _rows(self) -> Sequence[object]:
        return self.queues

    def set_report(self, report: QueueStatsReport) -> None:
        self.beginResetModel()
        self.queues = list(report.queues)
        self.hours = max((report.until - report.since).total_seconds() / 3_600, 1 / 60)
        self.endResetModel()

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.queues):
            return None
        q = self.queues[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(BREACH) if q.sla_breached else None
        if role == Qt.ItemDataRole.ToolTipRole and column == 0:  # a long name is elided
            return tooltip(isolate(q.name))
        if role == Qt.ItemDataRole.ToolTipRole and q.sla_breached:
            return translate("LeadStats", "The oldest waiting post is older than this queue's SLA.")
        values = (
            isolate(q.name),
            q.backlog,
            q.leased,
            q.oldest_pending_age_seconds if q.oldest_pending_age_seconds is not None else -1,
            q.sla_seconds,
            q.pending_over_sla,
            q.decided,
            q.decided / self.hours,
            q.escalations_open,
            mix(q.action_mix, self.labels.get(q.queue_id)),
        )
        if role == SORT:
            return values[column]
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            if column == 3:
                text = duration(q.oldest_pending_age_seconds)
                return text + (
                    "  ⚠ " + translate("LeadStats", "over SLA") if q.sla_breached else ""
                )
            if column == 4:
                return duration(q.sla_seconds)
            if column == 7:
                return decimal(values[7])
            return values[column] if column in (0, 9) else whole(cast(int, values[column]))
        if role == Qt.ItemDataRole.UserRole:
            return q.queue_id
        return None


class ReviewerStatsModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadStats", "Reviewer"),
        QT_TRANSLATE_NOOP("LeadStats", "Decisions"),
        QT_TRANSLATE_NOOP("LeadStats", "Median handle"),
        QT_TRANSLATE_NOOP("LeadStats", "p90 handle"),
        QT_TRANSLATE_NOOP("LeadStats", "Audited"),
        QT_TRANSLATE_NOOP("LeadStats", "Agreement"),
        QT_TRANSLATE_NOOP("LeadStats", "Overturn rate"),
        QT_TRANSLATE_NOOP("LeadStats", "Kappa"),
        QT_TRANSLATE_NOOP("LeadStats", "Conflicts"),
        QT_TRANSLATE_NOOP("LeadStats", "Appeals upheld / reversed"),
        QT_TRANSLATE_NOOP("LeadStats", "Action mix"),
        QT_TRANSLATE_NOOP("LeadStats", "Flags"),
    )
    TR_CONTEXT = "LeadStats"
    FLAGS = 11
    TWO_LINE_TITLES = True

    def __init__(self) -> None:
        super().__init__()
        self.reviewers: list[ReviewerStats] = []
        #: the quality signals by reviewer (GET /stats/quality), with the queues' names
        self.quality: dict[str, ReviewerQuality] = {}
        self.queue_names: dict[str, str] = {}
        self.action_labels: dict[str, str] = {}  # an action's label in any queue

    def _rows(self) -> Sequence[object]:
        return self.reviewers

    def set_report(self, report: ReviewerStatsReport, quality: QualityReport | None = None) -> None:
        self.beginResetModel()
        self.reviewers = list(report.reviewers)
        self.quality = {q.reviewer: q for q in quality.reviewers} if quality else {}
        self.endResetModel()

    def flag_text(self, reviewer: str) -> str:
        found = self.quality.get(reviewer)
        return flag_words(found, self.queue_names) if found else ""

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.reviewers):
            return None
        r = self.reviewers[index.row()]
        column = index.column()
        missing = -1.0
        values = (
            f"{isolate(r.display_name)} ({r.reviewer})".casefold(),  # sorted as shown
            r.decisions,
            r.handle_time_median_ms if r.handle_time_median_ms is not None else missing,
            r.handle_time_p90_ms if r.handle_time_p90_ms is not None else missing,
            r.audited,
            r.audit_agreement_rate if r.audit_agreement_rate is not None else missing,
            r.overturn_rate if r.overturn_rate is not None else missing,
            r.kappa if r.kappa is not None else -2.0,
            r.conflicts,
            r.appeals_reversed,  # sorted by the reversals: the overturns among them
            mix(r.action_mix, self.action_labels),
            len(self.quality[r.reviewer].flags) if r.reviewer in self.quality else 0,
        )
        if role == SORT:
            return values[column]
        flagged = self.flag_text(r.reviewer)
        if role == Qt.ItemDataRole.BackgroundRole and flagged:
            return QBrush(FLAGGED)
        if role == Qt.ItemDataRole.ToolTipRole and column == self.FLAGS and flagged:
            return tooltip(flagged)
        if role == Qt.ItemDataRole.ToolTipRole and column == 0:  # a long name is elided
            return tooltip(f"{isolate(r.display_name)} ({r.reviewer})")  # what it shows
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            if column == 0:
                return f"{isolate(r.display_name)} ({r.reviewer})"
            if column in (2, 3):
                ms = float(values[column])
                return "—" if ms == missing else f"{decimal(ms / 1000)} s"
            if column in (5, 6):
                return share(None if values[column] == missing else float(values[column]))
            if column == 7:
                return "—" if r.kappa is None else decimal(r.kappa, 2)
            if column == 9:
                return f"{whole(r.appeals_upheld)} / {whole(r.appeals_reversed)}"
            if column == 10:
                return values[10]
            if column == self.FLAGS:
                return flagged
            return whole(cast(int, values[column]))
        if role == Qt.ItemDataRole.UserRole:
            return r.reviewer
        return None


def sortable(model: _Table, parent: QWidget) -> QSortFilterProxyModel:
    proxy = QSortFilterProxyModel(parent)
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT)
    proxy.setSortLocaleAware(True)  # text in the user's language's order
    return proxy


def table_view(object_name: str, name: str) -> QTableView:
    """A sortable, read-only table; ``name`` is what a screen reader calls it (translated)."""
    view = read_only_table(SortedTable(), object_name, name)
    view.setSortingEnabled(True)
    view.verticalHeader().hide()
    keep_headers_fit(view)  # (its header first: the settings below are the header's)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    view.horizontalHeader().setStretchLastSection(True)
    return view


class _Figures(QWidget):
    """A window picker, a Refresh button, a status line, and a fetch on a worker thread."""

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None) -> None:
        super().__init__(parent)
        self.client_factory = client_factory
        self.window_picker = QComboBox()
        named(self.window_picker, "timeWindow", translate("LeadStats", "Time window"))
        for words, hours in WINDOWS:
            self.window_picker.addItem(translate("LeadStats", words), hours)
        self.window_picker.currentIndexChanged.connect(lambda _i: self.refresh())
        self.refresh_button = QPushButton(translate("LeadStats", "Refresh"))
        self.refresh_button.clicked.connect(self.refresh)
        self.status = label("", wrap=False)
        named(self.status, "figuresStatus", translate("LeadStats", "Figures status"))
        self.loading, self.loaded_at = False, cast(float | None, None)
        self.service_clock: Callable[[], float] = time.time  # now on the service's clock

    def controls(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(label(translate("LeadStats", "Window:"), wrap=False))
        row.addWidget(self.window_picker)
        row.addWidget(self.refresh_button)
        row.addWidget(self.status, 1)
        return row

    def span(self) -> tuple[datetime, datetime]:
        until = datetime.fromtimestamp(int(self.service_clock()) + 1, UTC)
        return until - timedelta(hours=int(self.window_picker.currentData())), until

    def refresh(self) -> None:
        if self.loading:
            return
        self.loading = True
        set_text(self.status, translate("LeadStats", "Loading…"))
        since, until = self.span()
        factory, fetch = self.client_factory, self.fetch

        def work() -> Any:
            api = factory()
            return fetch(api, since, until)

        run_op(self, work, self._loaded, self._failed, key="load")

    def fetch(self, api: ApiClient, since: datetime, until: datetime) -> Any:
        raise NotImplementedError

    def show_figures(self, result: Any) -> None:
        raise NotImplementedError

    def _loaded(self, result: Any) -> None:
        self.loading = False
        self.loaded_at = time.time()
        self.show_figures(result)
        status = translate("LeadStats", "Updated {time}").format(time=f"{datetime.now():%H:%M:%S}")
        # the oldest of the reports ``fetch`` gives (with the names it shows them by): each
        # was read on its own, from the primary or the replica
        reports = result if isinstance(result, tuple) else (result,)
        behind = max(float(getattr(r, "staleness_seconds", 0.0) or 0.0) for r in reports)
        if behind >= 1:  # read from the service's replica while it was behind
            status += " " + translate("LeadStats", "(figures as of {n} s ago)").format(
                n=round(behind)
            )
        set_text(self.status, status)

    def _failed(self, err: BaseException) -> None:
        self.loading = False
        message = describe(err, during=translate("LeadStats", "loading the figures"))
        set_text(self.status, message.line())


class QueuesOverview(_Figures):
    """Every queue's health now, its throughput over the window and its backlog over the
    time this view has been open (sampled at each refresh)."""

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(client_factory, parent)
        named(self, "queuesOverview", translate("LeadStats", "Queues overview"))
        self.model = QueueStatsModel()
        self.view = table_view("queueHealth", translate("LeadStats", "Queue health"))
        self.view.setModel(sortable(self.model, self))
        self.throughput, throughput_view = new_chart(
            "throughputChart", translate("LeadStats", "Decided per hour")
        )
        self.backlog_chart, backlog_view = new_chart(
            "backlogChart", translate("LeadStats", "Waiting posts (sampled while open)")
        )
        self.backlog: dict[str, list[tuple[float, int]]] = {}
        self.breaches = label("")
        named(self.breaches, "slaBreaches", translate("LeadStats", "SLA breaches"))
        self.held_back = label("")
        held = translate("LeadStats", "Posts of suspended or inauthentic accounts held back")
        named(self.held_back, "heldBack", held)
        charts = QSplitter(Qt.Orientation.Horizontal)
        charts.addWidget(throughput_view)
        charts.addWidget(backlog_view)
        body = QSplitter(Qt.Orientation.Vertical)
        body.addWidget(self.view)
        body.addWidget(charts)
        row = self.controls()
        self.breaks_button = QPushButton(translate("LeadStats", "Break reminders…"))
        self.breaks_button.clicked.connect(
            lambda: open_breaks(self, client_factory, self.view, self.model.queues, self.status)
        )
        row.insertWidget(3, self.breaks_button)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.breaches)
        layout.addWidget(self.held_back)
        layout.addWidget(body, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)

    def fetch(self, api: ApiClient, since: datetime, until: datetime) -> Any:
        bucket = "hour" if until - since <= timedelta(days=7) else "day"
        labels = {q.id: q.config.action_labels() for q in api.queues().queues}
        return api.queue_stats(since, until, bucket=bucket, tz=lead_zone()), labels

    def show_figures(self, result: Any) -> None:
        report: QueueStatsReport
        report, self.model.labels = result
        self.model.set_report(report)
        self.view.setCurrentIndex(QModelIndex())  # Tab sets no unseen current: Down selects row 0
        fit_columns(self.view)  # a few rows: cheap; long names elided
        breached = [q for q in report.queues if q.sla_breached]
        set_text(
            self.breaches,
            "⚠ "
            + translate("LeadStats", "Over SLA: {queues}").format(
                queues="; ".join(
                    plural(
                        translate(
                            "LeadStats", "{queue} (oldest {oldest}, SLA {sla}, %Ln post(s) over)"
                        ),
                        q.pending_over_sla,
                    ).format(
                        queue=isolate(q.name),
                        oldest=duration(q.oldest_pending_age_seconds),
                        sla=duration(q.sla_seconds),
                    )
                    for q in breached
                )
            )
            if breached
            else translate("LeadStats", "Every queue is within its SLA."),
        )
        set_tone(self.breaches, Tone.alarm if breached else None)
        set_text(self.held_back, held_back_words(report.held_back))
        self._chart_throughput(report)
        now = time.time()
        for q in report.queues:
            points = self.backlog.setdefault(q.queue_id, [])
            points.append((now, q.backlog))
            del points[:-BACKLOG_POINTS]
        self._chart_backlog(report)

    def _chart_throughput(self, report: QueueStatsReport) -> None:
        chart = self.throughput
        chart.removeAllSeries()
        fmt = "dd MMM HH:mm" if report.bucket.value == "hour" else "dd MMM"
        x, y = time_axes(chart, fmt)
        chart.setTitle(
            translate("LeadStats", "Decided per hour")
            if report.bucket.value == "hour"
            else translate("LeadStats", "Decided per day")
        )
        top = 1
        for index, q in enumerate(report.queues):
            series = QLineSeries()
            series.setName(rich_escaped(q.name))  # legends render HTML
            colour_series(series, index)
            for point in q.decided_series:
                series.append(point.start.timestamp() * 1000, point.decided)
                top = max(top, point.decided)
            chart.addSeries(series)
            series.attachAxis(x)
            series.attachAxis(y)
        x.setRange(
            QDateTime.fromSecsSinceEpoch(int(report.since.timestamp())),
            QDateTime.fromSecsSinceEpoch(int(report.until.timestamp())),
        )
        y.setRange(0, nice_top(top))
        fit_legend(chart)
        QTimer.singleShot(0, lambda: fit_time_ticks(chart))

    def _chart_backlog(self, report: QueueStatsReport) -> None:
        chart = self.backlog_chart
        chart.removeAllSeries()
        x, y = time_axes(chart, "HH:mm:ss")
        top, first, last = 1, time.time(), time.time()
        for index, q in enumerate(report.queues):
            series = QLineSeries()
            series.setName(rich_escaped(q.name))  # legends render HTML
            colour_series(series, index)  # the same colour a queue as in the other chart
            series.setPointsVisible(True)  # the first sample is a point, not yet a line
            for at, backlog in self.backlog.get(q.queue_id, []):
                series.append(at * 1000, backlog)
                top, first = max(top, backlog), min(first, at)
            chart.addSeries(series)
            series.attachAxis(x)
            series.attachAxis(y)
        x.setRange(
            QDateTime.fromSecsSinceEpoch(int(first) - 60),
            QDateTime.fromSecsSinceEpoch(int(last) + 60),
        )
        y.setRange(0, nice_top(top))
        fit_legend(chart)
        QTimer.singleShot(0, lambda: fit_time_ticks(chart))

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.timer.start()
        if self.loaded_at is None or time.time() - self.loaded_at > REFRESH_MS / 1000:
            self.refresh()

    def hideEvent(self, event: Any) -> None:
        super().hideEvent(event)
        self.timer.stop()


class ReviewersView(_Figures):
    """Per-reviewer figures, sortable; a double click (or Enter) opens their decisions."""

    drill_down = Signal(str)  # reviewer username

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        parent: QWidget | None = None,
        *,
        settings: Settings | None = None,
    ):
        super().__init__(client_factory, parent)
        named(self, "reviewersView", translate("LeadStats", "Reviewers"))
        self.model = ReviewerStatsModel()
        self.thresholds = ThresholdsBar(settings)
        self._asked = self.thresholds.thresholds()
        self.thresholds.changed.connect(self.refresh)
        self.trend = TrendPanel(client_factory)
        self.proxy = sortable(self.model, self)
        self.view = table_view("reviewerFigures", translate("LeadStats", "Reviewer figures"))
        self.view.setModel(self.proxy)
        self.view.sortByColumn(1, Qt.SortOrder.DescendingOrder)
        self.view.activated.connect(self._open)
        self.open_button = QPushButton(translate("LeadStats", "Show this reviewer's decisions"))
        self.open_button.clicked.connect(lambda: self._open(self.view.currentIndex()))
        layout = QVBoxLayout(self)
        layout.addLayout(self.controls())
        layout.addWidget(
            label(
                translate(
                    "LeadStats",
                    "Agreement and kappa compare each reviewer with the auditors on audited "
                    "decisions; overturn rate is overturned decisions (by an audit or a "
                    "reversed appeal) per decision. "
                    "Double-click a reviewer (or press Enter) for their decisions. "
                    "Flags: a median handle time under your threshold, an action mix far "
                    "from the other reviewers' in a queue (total variation distance), or an "
                    "overturn rate up against the window before; each only with enough "
                    "decisions. Select a reviewer for their days.",
                )
            )
        )
        layout.addWidget(self.thresholds)
        # the trend under the figures, not beside them: the figures' twelve columns take
        # the window's width (beside the trend they scrolled sideways at 1280 px)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.view)
        split.addWidget(self.trend)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 1)
        layout.addWidget(split, 1)
        layout.addWidget(self.open_button)
        self.view.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        # the flags beside the name, where the eye starts (the model keeps them last)
        self.view.horizontalHeader().moveSection(ReviewerStatsModel.FLAGS, 1)

    def fetch(self, api: ApiClient, since: datetime, until: datetime) -> Any:
        stats = api.reviewer_stats(since, until)
        quality = api.quality(since, until, self._asked)
        queues = api.queues().queues
        labels = {a: x for q in reversed(queues) for a, x in q.config.action_labels().items()}
        return stats, quality, ({q.id: q.name for q in queues}, labels)

    def refresh(self) -> None:
        self._asked = self.thresholds.thresholds()  # read on the GUI thread
        super().refresh()

    def show_figures(self, result: Any) -> None:
        stats, quality, (self.model.queue_names, self.model.action_labels) = result
        self.model.set_report(stats, quality)
        fit_columns(self.view)

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        reviewer = self.proxy.data(current, Qt.ItemDataRole.UserRole) if current.isValid() else None
        if reviewer:
            since, until = self.span()
            self.trend.show_trend(str(reviewer), since, until)

    def _open(self, index: QModelIndex) -> None:
        if index.isValid():
            reviewer = self.proxy.data(index, Qt.ItemDataRole.UserRole)
            if reviewer:
                self.drill_down.emit(str(reviewer))

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self.loaded_at is None:
            self.refresh()
