"""The lead's view of what each reviewer was exposed to: per reviewer and kind of harm,
this shift and the last 7 days, and the breaks they took. Figures only: nothing of any
post is fetched or shown here (the service's report holds none)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import ExposureReport, HarmKind, ReviewerExposure

from ..background import run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table, two_lines
from ..plain import fit_columns, isolate, label, local_day, named, set_text, tooltip, whole
from .stats_views import REFRESH_MS, SORT, sortable, table_view

HARM_WORDS: dict[HarmKind, str] = {
    HarmKind.graphic_violence: QT_TRANSLATE_NOOP("Exposure", "Graphic violence"),
    HarmKind.hate: QT_TRANSLATE_NOOP("Exposure", "Hate"),
    HarmKind.harassment: QT_TRANSLATE_NOOP("Exposure", "Harassment"),
    HarmKind.sexual_content: QT_TRANSLATE_NOOP("Exposure", "Sexual content"),
    HarmKind.child_safety: QT_TRANSLATE_NOOP("Exposure", "Child safety"),
    HarmKind.self_harm: QT_TRANSLATE_NOOP("Exposure", "Self-harm"),
    HarmKind.violent_extremism: QT_TRANSLATE_NOOP("Exposure", "Violent extremism"),
    HarmKind.animal_cruelty: QT_TRANSLATE_NOOP("Exposure", "Animal cruelty"),
    HarmKind.scams: QT_TRANSLATE_NOOP("Exposure", "Scams"),
    HarmKind.misinformation: QT_TRANSLATE_NOOP("Exposure", "Misinformation"),
}


def harm_words(kind: HarmKind) -> str:
    return translate("Exposure", HARM_WORDS.get(kind, kind.value))


class ExposureModel(_Table):
    """One row per reviewer; after the fixed columns, one per kind of harm in the report."""

    HEADERS = (
        QT_TRANSLATE_NOOP("Exposure", "Reviewer"),
        QT_TRANSLATE_NOOP("Exposure", "On shift since"),
        QT_TRANSLATE_NOOP("Exposure", "Posts this shift"),
        QT_TRANSLATE_NOOP("Exposure", "Posts in 7 days"),
        QT_TRANSLATE_NOOP("Exposure", "High-harm posts this shift"),
        QT_TRANSLATE_NOOP("Exposure", "Breaks this shift"),
        QT_TRANSLATE_NOOP("Exposure", "Break minutes this shift"),
        QT_TRANSLATE_NOOP("Exposure", "Breaks in 7 days"),
    )
    TR_CONTEXT = "Exposure"
    TWO_LINE_TITLES = True

    def __init__(self) -> None:
        super().__init__()
        self.reviewers: list[ReviewerExposure] = []
        self.kinds: list[HarmKind] = []

    def _rows(self) -> Sequence[object]:
        return self.reviewers

    def set_report(self, report: ExposureReport) -> None:
        self.beginResetModel()
        self.reviewers = list(report.reviewers)
        present = {h.kind for r in report.reviewers for h in r.harm}
        self.kinds = [kind for kind in HarmKind if kind in present]
        self.endResetModel()

    def columnCount(self, parent: Any = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS) + len(self.kinds)

    def raw_title(self, section: int) -> str | None:
        fixed = len(self.HEADERS)
        if section >= fixed:
            if section - fixed < len(self.kinds):
                return translate("Exposure", "{kind} (shift / 7 days)").format(
                    kind=harm_words(self.kinds[section - fixed])
                )
            return None
        return super().raw_title(section)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        """A kind of harm's column is titled by the kind alone ("Hate"), what its figures
        are ("shift / 7 days") said once above the table, in its tooltip, and to a screen
        reader in its whole title: fifteen characters fewer a column."""
        fixed = len(self.HEADERS)
        if orientation == Qt.Orientation.Horizontal and fixed <= section < self.columnCount():
            if role == DISPLAY:
                return two_lines(harm_words(self.kinds[section - fixed]))
            if role == Qt.ItemDataRole.ToolTipRole:
                return tooltip(str(self.title(section)))
        return super().headerData(section, orientation, role)

    def data(self, index: Any, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.reviewers):
            return None
        r = self.reviewers[index.row()]
        column = index.column()
        if column >= len(self.HEADERS):
            kind = self.kinds[column - len(self.HEADERS)]
            found = next((h for h in r.harm if h.kind is kind), None)
            shift, week = (found.shift, found.week) if found else (0, 0)
            if role == SORT:
                return (shift, week)
            if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
                return f"{whole(shift)} / {whole(week)}"
            return None
        since = r.shift_started_at
        values: tuple[Any, ...] = (
            f"{isolate(r.display_name)} ({r.reviewer})".casefold(),  # sorted as shown
            since.timestamp() if since else -1.0,
            r.shift_items,
            r.week_items,
            r.high_harm_shift,
            r.breaks_shift,
            r.break_minutes_shift,
            r.breaks_week,
        )
        if role == SORT:
            return values[column]
        if role == Qt.ItemDataRole.ToolTipRole and column == 0:
            return tooltip(f"{isolate(r.display_name)} ({r.reviewer})")  # what it shows
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            if column == 0:
                return f"{isolate(r.display_name)} ({r.reviewer})"
            if column == 1:
                return (
                    local_day(since, "ddd HH:mm")
                    if since
                    else translate("Exposure", "not on shift")
                )
            return whole(values[column])
        if role == Qt.ItemDataRole.UserRole:
            return r.reviewer
        return None

    def row_figures(self, row: int) -> dict[str, str]:
        """What row ``row`` shows, by column header (for tests and screen readers)."""
        return {
            str(self.title(c)): str(self.data(self.index(row, c)))
            for c in range(self.columnCount())
        }


class ExposureView(QWidget):
    """Per reviewer: posts by kind of harm this shift and in 7 days, and breaks."""

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "exposureView", translate("Exposure", "Wellbeing"))
        self.client_factory = client_factory
        self.model = ExposureModel()
        self.proxy = sortable(self.model, self)
        self.view = table_view("exposureFigures", translate("Exposure", "Exposure per reviewer"))
        self.view.setModel(self.proxy)
        self.view.sortByColumn(4, Qt.SortOrder.DescendingOrder)
        self.refresh_button = QPushButton(translate("Exposure", "Refresh"))
        self.refresh_button.clicked.connect(self.refresh)
        self.status = label("", wrap=False)
        named(self.status, "exposureStatus", translate("Exposure", "Figures status"))
        self.loading = False
        self.loaded_at: float | None = None
        row = QHBoxLayout()
        row.addWidget(self.refresh_button)
        row.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(
            label(
                translate(
                    "Exposure",
                    "What each reviewer decided, by the kind of harm their queues and the "
                    "policies they cited say the posts carry: this shift (activity with no gap "
                    "of 4 hours) and the last 7 days, with the breaks they took; a kind of "
                    "harm's column reads posts this shift / in 7 days. Figures only; no post "
                    "is shown here.",
                )
            )
        )
        layout.addWidget(self.view, 1)
        #: fetched again every REFRESH_MS while the page is shown, as the Queues page is
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)

    def row_of(self, reviewer: str) -> int:
        """The model row of ``reviewer`` (-1 when not listed)."""
        return next((i for i, r in enumerate(self.model.reviewers) if r.reviewer == reviewer), -1)

    def refresh(self) -> None:
        if self.loading:
            return
        self.loading = True
        set_text(self.status, translate("Exposure", "Loading…"))
        factory = self.client_factory

        def work() -> ExposureReport:
            api = factory()
            return api.exposure()

        run_op(self, work, self._loaded, self._failed, key="load")

    def _loaded(self, report: ExposureReport) -> None:
        self.loading = False
        self.loaded_at = time.time()
        self.model.set_report(report)
        fit_columns(self.view)
        status = translate("Exposure", "Updated {time}").format(time=f"{datetime.now():%H:%M:%S}")
        if report.staleness_seconds >= 1:  # read from the service's replica while it was behind
            status += " " + translate("LeadStats", "(figures as of {n} s ago)").format(
                n=round(report.staleness_seconds)
            )
        set_text(self.status, status)

    def _failed(self, err: BaseException) -> None:
        self.loading = False
        set_text(
            self.status, describe(err, during=translate("Exposure", "loading the figures")).line()
        )

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.timer.start()
        self.refresh()

    def hideEvent(self, event: Any) -> None:
        super().hideEvent(event)
        self.timer.stop()
