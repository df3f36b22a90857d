"""Quality signals in the Reviewers tab: the lead's thresholds (kept in their own settings,
sent with each request), each reviewer's flags in words, and the selected reviewer's trend
day by day. The service computes the flags (server/domain/quality.py); nothing here judges."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from PySide6.QtCore import QDateTime, QLocale, QPoint, QRect, QSize, Qt, QTimeZone, Signal
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QHBoxLayout,
    QHeaderView,
    QLayout,
    QLayoutItem,
    QSpinBox,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core import settings as core_settings
from reviewer_app.core.api import ApiClient
from reviewer_app.core.settings import Settings
from reviewer_app.protocol import (
    MAX_TREND_DAYS,
    QualityFlag,
    QualityThresholds,
    ReviewerQuality,
    ReviewerTrend,
    TrendDay,
)

from ..background import run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import RowsTable
from ..plain import isolate, label, local_day, named, read_only_table, set_text, whole
from ..words import decimal, percent

log = logging.getLogger("ui")


def share(value: float | None) -> str:
    return "—" if value is None else percent(value)


def flag_words(q: ReviewerQuality, queue_names: dict[str, str] | None = None) -> str:
    """The reviewer's flags as short phrases ('' when none)."""
    parts = []
    if QualityFlag.fast in q.flags and q.handle_time_median_ms is not None:
        parts.append(
            translate("LeadQuality", "fast: median {s} s").format(
                s=decimal(q.handle_time_median_ms / 1000)
            )
        )
    if QualityFlag.mix in q.flags and q.mix_distance is not None:
        queue = (queue_names or {}).get(q.mix_queue_id or "", q.mix_queue_id or "")
        parts.append(
            translate("LeadQuality", "action mix far from the others' in {queue} ({d})").format(
                queue=isolate(queue), d=decimal(q.mix_distance, 2)
            )
        )
    if QualityFlag.overturns in q.flags:
        parts.append(
            translate("LeadQuality", "overturns up: {before} → {now}").format(
                before=share(q.previous_overturn_rate), now=share(q.overturn_rate)
            )
        )
    return "; ".join(parts)


def thresholds_from(settings: Settings | None) -> QualityThresholds:
    if settings is None:
        return QualityThresholds()
    return QualityThresholds(
        min_median_ms=settings.get(core_settings.QUALITY_MIN_MEDIAN_MS),
        max_mix_distance=settings.get(core_settings.QUALITY_MAX_MIX_DISTANCE),
        min_decisions=settings.get(core_settings.QUALITY_MIN_DECISIONS),
        overturn_jump=settings.get(core_settings.QUALITY_OVERTURN_JUMP),
    )


class WrappingRow(QLayout):
    """Widgets left to right at their preferred sizes, a line wrapping where the width ends:
    its minimum width is its widest item's, not their sum."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []

    def addItem(self, item: QLayoutItem) -> None:
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:  # every item on one line
        hints = [item.sizeHint() for item in self._items]
        width = sum(h.width() for h in hints) + self._gaps()[0] * max(0, len(hints) - 1)
        height = max((h.height() for h in hints), default=0)
        return QSize(width, height).grownBy(self.contentsMargins())

    def minimumSize(self) -> QSize:
        size = QSize(0, 0)
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        return size.grownBy(self.contentsMargins())

    def _gaps(self) -> tuple[int, int]:
        """Between two items on a line, and between lines: the style's."""
        widget = self.parentWidget()
        style = widget.style() if widget is not None else None
        if style is None:
            return 6, 6
        across = style.pixelMetric(QStyle.PixelMetric.PM_LayoutHorizontalSpacing)
        down = style.pixelMetric(QStyle.PixelMetric.PM_LayoutVerticalSpacing)
        return max(across, 0), max(down, 0)

    def _place(self, rect: QRect, *, move: bool) -> int:
        """Lay the items out in ``rect`` (``move``: else only measure); the height used."""
        area = rect.marginsRemoved(self.contentsMargins())
        across, down = self._gaps()
        x, y, line = area.x(), area.y(), 0
        for item in self._items:
            hint = item.sizeHint()
            if x > area.x() and x + hint.width() > area.x() + area.width():
                x, y, line = area.x(), y + line + down, 0
            if move:
                item.setGeometry(QRect(QPoint(x, y), hint))
            x += hint.width() + across
            line = max(line, hint.height())
        return y + line + self.contentsMargins().bottom() - rect.y()


class ThresholdsBar(QWidget):
    """The lead's thresholds; a change is saved in their settings and asks for new flags."""

    changed = Signal()

    def __init__(self, settings: Settings | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        named(self, "qualityThresholds", translate("LeadQuality", "Quality flag thresholds"))
        self.settings = settings
        t = thresholds_from(settings)
        self.median = QDoubleSpinBox()
        self.median.setRange(0.0, 3_600.0)
        self.median.setDecimals(1)
        self.median.setSingleStep(0.5)
        self.median.setSuffix(translate("LeadQuality", " s"))
        self.median.setValue(t.min_median_ms / 1000)
        named(self.median, "minMedian", translate("LeadQuality", "Flag a median handle time under"))
        self.distance = QDoubleSpinBox()
        self.distance.setRange(0.0, 1.0)
        self.distance.setDecimals(2)
        self.distance.setSingleStep(0.05)
        self.distance.setValue(t.max_mix_distance)
        named(
            self.distance,
            "maxMixDistance",
            translate("LeadQuality", "Flag an action mix farther from the others' than"),
        )
        self.jump = QSpinBox()
        self.jump.setRange(0, 100)
        self.jump.setSuffix(translate("LeadQuality", " points"))
        self.jump.setValue(round(t.overturn_jump * 100))
        named(self.jump, "overturnJump", translate("LeadQuality", "Flag an overturn rate up by"))
        self.minimum = QSpinBox()
        self.minimum.setRange(1, 1_000_000)
        self.minimum.setValue(t.min_decisions)
        named(self.minimum, "minDecisions", translate("LeadQuality", "with at least decisions"))
        # each threshold beside its words, the pairs wrapping where the width ends: on one
        # line their words (long in Spanish and German) set the window's minimum width
        row = WrappingRow(self)
        row.setContentsMargins(0, 0, 0, 0)
        for words, box in (
            (translate("LeadQuality", "Flag: median under"), self.median),
            (translate("LeadQuality", "mix distance over"), self.distance),
            (translate("LeadQuality", "overturns up by"), self.jump),
            (translate("LeadQuality", "with at least"), self.minimum),
        ):
            pair = QWidget(self)
            beside = QHBoxLayout(pair)
            beside.setContentsMargins(0, 0, 0, 0)
            beside.addWidget(label(words, wrap=False))
            beside.addWidget(box)
            if box is self.minimum:
                beside.addWidget(label(translate("LeadQuality", "decisions"), wrap=False))
            row.addWidget(pair)
            box.editingFinished.connect(self._save)

    def thresholds(self) -> QualityThresholds:
        return QualityThresholds(
            min_median_ms=round(self.median.value() * 1000),
            max_mix_distance=round(self.distance.value(), 2),
            min_decisions=self.minimum.value(),
            overturn_jump=self.jump.value() / 100,
        )

    def _save(self) -> None:
        t = self.thresholds()
        if self.settings is not None:
            self.settings.set(core_settings.QUALITY_MIN_MEDIAN_MS, t.min_median_ms)
            self.settings.set(core_settings.QUALITY_MAX_MIX_DISTANCE, t.max_mix_distance)
            self.settings.set(core_settings.QUALITY_OVERTURN_JUMP, t.overturn_jump)
            self.settings.set(core_settings.QUALITY_MIN_DECISIONS, t.min_decisions)
        self.changed.emit()


def lead_zone() -> str | None:
    """The IANA time zone this machine shows local times in (Qt's, on every platform): the
    lead's days, which figures by day are asked for. None when it is no IANA name (a POSIX
    ``TZ`` rule, say): the client's own guess is sent then, or none (UTC's days)."""
    name = bytes(QTimeZone.systemTimeZoneId().data()).decode()
    try:
        ZoneInfo(name)
    except (ValueError, OSError, ZoneInfoNotFoundError):
        return None
    return name


def day_in(moment: datetime, zone: str | None, pattern: str) -> str:
    """``moment``'s day in ``zone`` (None, or one Qt does not know: local time), its names
    in the user's language (``pattern``: Qt's)."""
    found = QTimeZone(zone.encode()) if zone else None
    if found is None or not found.isValid():
        return local_day(moment, pattern)
    when = QDateTime.fromMSecsSinceEpoch(round(moment.timestamp() * 1000), found)
    return QLocale().toString(when, pattern)


class TrendModel(RowsTable):
    TR_CONTEXT = "LeadQuality"
    TWO_LINE_TITLES = True
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadQuality", "Day"),
        QT_TRANSLATE_NOOP("LeadQuality", "Decisions"),
        QT_TRANSLATE_NOOP("LeadQuality", "Median handle"),
        QT_TRANSLATE_NOOP("LeadQuality", "Overturned"),
    )

    def __init__(self) -> None:
        super().__init__()
        #: the time zone the days are of (``ReviewerTrend.time_zone``); None: this machine's
        self.zone: str | None = None

    def set_trend(self, trend: ReviewerTrend) -> None:
        """The trend's days, each named in the time zone the service counted it in."""
        self.zone = trend.time_zone
        self.set_rows(trend.days)

    def cells(self, d: TrendDay) -> tuple[object, ...]:
        median = d.handle_time_median_ms
        return (
            day_in(d.start, self.zone, "ddd dd MMM"),
            whole(d.decisions),
            "—" if median is None else f"{decimal(median / 1000)} s",
            whole(d.overturned),
        )


class TrendPanel(QWidget):
    """The selected reviewer's days: decisions, median handle time, overturned."""

    loaded = Signal(str)  # reviewer

    def __init__(
        self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.factory = client_factory
        self.wanted: str | None = None
        self.title = label(translate("LeadQuality", "Select a reviewer for their trend."))
        named(self.title, "trendTitle", translate("LeadQuality", "Trend"))
        self.model = TrendModel()
        self.table = read_only_table(
            QTableView(), "reviewerTrend", translate("LeadQuality", "Reviewer's trend by day")
        )
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setStretchLastSection(True)
        # each column as wide as its title and cells at any text size (a default section
        # cut "Median handle" once an earlier window had grown the text)
        for column in range(len(TrendModel.HEADERS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)

    def show_trend(self, reviewer: str, since: datetime, until: datetime) -> None:
        since = max(since, until - timedelta(days=MAX_TREND_DAYS))
        self.wanted = reviewer
        set_text(
            self.title,
            translate("LeadQuality", "Loading the trend of {name}…").format(name=isolate(reviewer)),
        )
        factory, zone = self.factory, lead_zone()  # the lead's days, as the rows name them

        def work() -> ReviewerTrend:
            api = factory()
            return api.reviewer_trend(reviewer, since, until, tz=zone)

        def done(trend: ReviewerTrend) -> None:
            self.model.set_trend(trend)
            title = translate("LeadQuality", "{name}, day by day").format(name=isolate(reviewer))
            if trend.staleness_seconds >= 1:  # read from the service's replica while behind
                title += " " + translate("LeadStats", "(figures as of {n} s ago)").format(
                    n=round(trend.staleness_seconds)
                )
            set_text(self.title, title)
            self.loaded.emit(reviewer)

        def failed(err: BaseException) -> None:
            set_text(
                self.title,
                describe(err, during=translate("LeadQuality", "loading the trend")).line(),
            )

        run_op(self, work, done, failed, key="trend")  # another reviewer's: dropped
