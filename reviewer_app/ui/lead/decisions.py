"""The Lead workspace's decisions browser: filters, a table that pages in as it scrolls, the
history timeline of the selected item, and Export CSV with a progress bar.

Nothing here waits on the network on the GUI thread. ``DecisionsModel.fetchMore`` starts a
background fetch of the next page (one at a time); the page's display strings are made on
the pool thread too, so ``data()`` is a tuple lookup and scrolling a million rows never
stalls. The export streams into a temporary file beside the chosen one, renamed only when
complete, so a cancelled or failed export leaves no file behind.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from datetime import datetime

from pydantic import ValidationError
from PySide6.QtCore import (
    QCoreApplication,
    QDateTime,
    QModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.protocol import DecisionQuery, QueueList

from ..background import Op, run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..plain import (
    bounded,
    isolate,
    keep_headers_fit,
    label,
    named,
    read_only_table,
    set_text,
    whole,
)
from ..words import plural
from .decision_history import fetch_history
from .decision_note import DecisionNoteDialog
from .decisions_export import ExportBar
from .decisions_model import ClientFactory, DecisionsModel, size_columns

log = logging.getLogger("ui")


AUDITED_CHOICES: tuple[tuple[str, bool | None], ...] = (
    (QT_TRANSLATE_NOOP("LeadDecisions", "Audited or not"), None),
    (QT_TRANSLATE_NOOP("LeadDecisions", "Audited only"), True),
    (QT_TRANSLATE_NOOP("LeadDecisions", "Not audited"), False),
)


# --- the widget -------------------------------------------------------------------------


class DecisionsBrowser(QWidget):
    """Filters above, the decisions table, the selected item's history beside it, and
    Export CSV with a progress bar and Cancel below."""

    export_finished = Signal(int, str)  # rows, path
    export_failed = Signal(str)  # plain words
    history_shown = Signal(str)  # item id

    #: screens of rows kept loaded ahead of the visible ones
    PREFETCH_SCREENS = 3

    def __init__(self, client_factory: ClientFactory, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        named(self, "decisionsBrowser", translate("LeadDecisions", "Decisions browser"))
        self._factory = client_factory
        self.model = DecisionsModel(client_factory, self)
        self._history_item: str | None = None  # the item whose history is wanted
        self._history_op: Op | None = None

        layout = QVBoxLayout(self)
        layout.addLayout(self._build_filters())

        self.table = read_only_table(
            QTableView(), "decisions", translate("LeadDecisions", "Decisions")
        )
        self.table.setModel(self.model)
        self.table.setWordWrap(False)
        self.table.setSortingEnabled(False)  # the service's order: newest first
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform heights, no scans
        rows.setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        rows.hide()
        keep_headers_fit(self.table)  # (its header first: the widths below are the header's)
        size_columns(self.table)

        detail = self._build_history()

        # the item's history under the table, as wide as the window: beside it, it took
        # the width of the table's last four columns at 1280 px
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(self.table)
        splitter.addWidget(detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout.addWidget(splitter, 1)

        self.status = label("", wrap=True)
        named(self.status, "decisionsStatus", translate("LeadDecisions", "Decisions status"))
        self.retry_button = QPushButton(translate("LeadDecisions", "Try again"))
        named(
            self.retry_button,
            "retryDecisions",
            translate("LeadDecisions", "Try loading the decisions again"),
        )
        self.retry_button.hide()
        self.retry_button.clicked.connect(self._on_retry_clicked)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status, 1)
        status_row.addWidget(self.retry_button)
        layout.addLayout(status_row)
        layout.addLayout(self._build_export_row())

        self.model.load_failed.connect(self._on_model_load_failed)
        self.model.page_loaded.connect(self._on_model_page_loaded)
        self.model.loading_changed.connect(self._on_model_loading_changed)
        self.table.verticalScrollBar().valueChanged.connect(self._on_scrolled)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        self.table.activated.connect(self._on_table_activated)  # Enter (or a double click)

        self._history_timer = QTimer(self)  # a held arrow key asks once it stops
        self._history_timer.setSingleShot(True)
        self._history_timer.setInterval(150)
        self._history_timer.timeout.connect(self._load_history)

        self._load_queue_names()
        self.apply_filters()

    # --- building ----------------------------------------------------------------------

    def _build_history(self) -> QWidget:
        """The selected item's history: a title and the timeline under it."""
        self.history = QPlainTextEdit()
        self.history.setReadOnly(True)
        named(self.history, "itemHistory", translate("LeadDecisions", "Item history"))
        self.history.setPlaceholderText(
            translate("LeadDecisions", "Select a decision to see its item's history.")
        )
        self.history.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.history_title = label(translate("LeadDecisions", "Item history"), wrap=False)
        named(
            self.history_title, "itemHistoryTitle", translate("LeadDecisions", "Item history title")
        )
        detail = QWidget()
        detail_layout = QVBoxLayout(detail)
        detail_layout.setContentsMargins(0, 0, 0, 0)
        detail_layout.addWidget(self.history_title)
        detail_layout.addWidget(self.history)
        return detail

    def _build_filters(self) -> QGridLayout:
        grid = QGridLayout()
        self.queue = bounded(QComboBox())
        named(self.queue, "queueFilter", translate("LeadDecisions", "Queue filter"))
        self.queue.addItem(translate("LeadDecisions", "Any queue"), None)
        self.reviewer = self._line_edit(
            "reviewerFilter",
            translate("LeadDecisions", "any reviewer"),
            translate("LeadDecisions", "Reviewer filter"),
        )
        self.action = self._line_edit(
            "actionFilter",
            translate("LeadDecisions", "any action"),
            translate("LeadDecisions", "Action filter"),
        )
        self.policy = self._line_edit(
            "policyFilter",
            translate("LeadDecisions", "any policy code"),
            translate("LeadDecisions", "Policy filter"),
        )
        self.item = self._line_edit(
            "itemFilter",
            translate("LeadDecisions", "any item"),
            translate("LeadDecisions", "Item filter"),
        )
        self.audited = QComboBox()
        named(self.audited, "auditedFilter", translate("LeadDecisions", "Audited filter"))
        for words, value in AUDITED_CHOICES:
            self.audited.addItem(translate("LeadDecisions", words), value)

        now = QDateTime.currentDateTime()
        self.since_on = QCheckBox(translate("LeadDecisions", "From"))
        named(
            self.since_on, "sinceOn", translate("LeadDecisions", "Limit to decisions from a time")
        )
        self.since = self._time_edit(
            now.addDays(-7), "since", translate("LeadDecisions", "Decided from")
        )
        self.until_on = QCheckBox(translate("LeadDecisions", "Until"))
        named(
            self.until_on, "untilOn", translate("LeadDecisions", "Limit to decisions before a time")
        )
        self.until = self._time_edit(now, "until", translate("LeadDecisions", "Decided before"))
        self.since_on.toggled.connect(self.since.setEnabled)
        self.until_on.toggled.connect(self.until.setEnabled)

        self.apply_button = QPushButton(translate("LeadDecisions", "Apply filters"))
        named(self.apply_button, "applyFilters", translate("LeadDecisions", "Apply filters"))
        self.apply_button.setDefault(True)
        self.apply_button.clicked.connect(self.apply_filters)
        self.clear_button = QPushButton(translate("LeadDecisions", "Clear"))
        named(self.clear_button, "clearFilters", translate("LeadDecisions", "Clear filters"))
        self.clear_button.clicked.connect(self.clear_filters)

        cells: Sequence[tuple[str, QWidget]] = (
            (translate("LeadDecisions", "Queue"), self.queue),
            (translate("LeadDecisions", "Reviewer"), self.reviewer),
            (translate("LeadDecisions", "Action"), self.action),
            (translate("LeadDecisions", "Policy"), self.policy),
            (translate("LeadDecisions", "Item"), self.item),
            (translate("LeadDecisions", "Audit"), self.audited),
        )
        for column, (words, widget) in enumerate(cells):
            caption = label(words, wrap=False)
            caption.setBuddy(widget)
            grid.addWidget(caption, 0, column)
            grid.addWidget(widget, 1, column)
        times = QHBoxLayout()
        for widget in (self.since_on, self.since, self.until_on, self.until):
            times.addWidget(widget)
        times.addStretch(1)
        times.addWidget(self.clear_button)
        times.addWidget(self.apply_button)
        grid.addLayout(times, 2, 0, 1, len(cells))
        return grid

    def _line_edit(self, object_name: str, placeholder: str, name: str) -> QLineEdit:
        edit = named(QLineEdit(), object_name, name)
        edit.setPlaceholderText(placeholder)
        edit.setClearButtonEnabled(True)
        edit.setMaxLength(200)
        edit.returnPressed.connect(self.apply_filters)
        return edit

    def _time_edit(self, value: QDateTime, object_name: str, name: str) -> QDateTimeEdit:
        edit = named(QDateTimeEdit(value), object_name, name)
        edit.setCalendarPopup(True)
        edit.setDisplayFormat("yyyy-MM-dd HH:mm")
        edit.setEnabled(False)
        return edit

    def _build_export_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.note_button = QPushButton(translate("LeadDecisions", "Note to reviewer…"))
        named(
            self.note_button,
            "noteToReviewer",
            translate("LeadDecisions", "Write a note to the selected decision's reviewer"),
        )
        self.note_button.setEnabled(False)
        self.note_button.clicked.connect(self.write_note)
        self.note_dialog: DecisionNoteDialog | None = None
        self.export_bar = ExportBar(self._factory, lambda: self.model.filters)
        self.export_bar.finished.connect(self.export_finished)
        self.export_bar.failed.connect(self.export_failed)
        # the bar's parts, by the names the browser always had
        self.export_button = self.export_bar.button
        self.export_progress = self.export_bar.progress
        self.export_status = self.export_bar.status
        self.export_cancel_button = self.export_bar.cancel_button
        row.addWidget(self.note_button)
        row.addWidget(self.export_bar, 1)
        return row

    @property
    def exporting(self) -> bool:
        return self.export_bar.exporting

    def export_to(self, path: str | os.PathLike[str]) -> bool:
        """Export the decisions matching the applied filters (``ExportBar.export_to``)."""
        return self.export_bar.export_to(path)

    def cancel_export(self) -> None:
        self.export_bar.cancel()

    # --- filters -----------------------------------------------------------------------

    def current_filters(self) -> DecisionQuery | None:
        """The filters the widgets say, or None (with a message) when they cannot work."""

        def text(edit: QLineEdit) -> str | None:
            return edit.text().strip() or None

        since = self.since.dateTime().toPython() if self.since_on.isChecked() else None
        until = self.until.dateTime().toPython() if self.until_on.isChecked() else None
        since = since.astimezone() if isinstance(since, datetime) else None
        until = until.astimezone() if isinstance(until, datetime) else None
        if since is not None and until is not None and until <= since:
            set_text(
                self.status,
                translate(
                    "LeadDecisions", "“Until” must be later than “From”; nothing was changed."
                ),
            )
            return None
        try:
            return DecisionQuery(
                queue_id=self.queue.currentData(),
                reviewer=text(self.reviewer),
                action=text(self.action),
                policy=text(self.policy),
                item_id=text(self.item),
                since=since,
                until=until,
                audited=self.audited.currentData(),
            )
        except ValidationError as err:
            named_by = {
                "reviewer": translate("LeadDecisions", "Reviewer"),
                "action": translate("LeadDecisions", "Action"),
                "policy": translate("LeadDecisions", "Policy"),
                "item_id": translate("LeadDecisions", "Item"),
            }
            wrong = str(err.errors()[0]["loc"][0])
            set_text(
                self.status,
                translate(
                    "LeadDecisions",
                    "“{field}” cannot match any decision as written (reviewers and "
                    "actions are written in lower case, policy codes in capitals such as "
                    "HATE.2); nothing was changed.",
                ).format(field=named_by.get(wrong, wrong)),
            )
            return None

    def apply_filters(self) -> None:
        """Load the decisions matching the filter widgets, from the top."""
        filters = self.current_filters()
        if filters is None:
            return
        self.retry_button.hide()
        self.history.clear()
        self._history_item = None
        self.model.set_filters(filters)

    def clear_filters(self) -> None:
        for edit in (self.reviewer, self.action, self.policy, self.item):
            edit.clear()
        self.queue.setCurrentIndex(0)
        self.audited.setCurrentIndex(0)
        self.since_on.setChecked(False)
        self.until_on.setChecked(False)
        self.apply_filters()

    def set_filters(self, filters: DecisionQuery) -> None:
        """Show ``filters`` in the widgets and apply them (a drill-down from elsewhere)."""
        at = self.queue.findData(filters.queue_id)
        if filters.queue_id is not None and at < 0:
            self.queue.addItem(filters.queue_id, filters.queue_id)
            at = self.queue.count() - 1
        self.queue.setCurrentIndex(max(0, at))
        self.reviewer.setText(filters.reviewer or "")
        self.action.setText(filters.action or "")
        self.policy.setText(filters.policy or "")
        self.item.setText(filters.item_id or "")
        self.audited.setCurrentIndex(max(0, self.audited.findData(filters.audited)))
        for box, edit, value in (
            (self.since_on, self.since, filters.since),
            (self.until_on, self.until, filters.until),
        ):
            box.setChecked(value is not None)
            if value is not None:
                edit.setDateTime(QDateTime.fromMSecsSinceEpoch(int(value.timestamp() * 1000)))
        self.apply_filters()

    def show_reviewer(self, reviewer: str) -> None:
        """Every decision of one reviewer (the drill-down from the reviewer figures)."""
        self.set_filters(DecisionQuery(reviewer=reviewer))

    def _load_queue_names(self) -> None:
        factory = self._factory

        def job() -> QueueList:
            return factory().queues()

        def failed(err: BaseException) -> None:
            log.info("queue names for the filter: %s", type(err).__name__)

        run_op(self, job, self._on_queue_names_loaded, failed, key="queues")

    def _on_queue_names_loaded(self, queues: QueueList) -> None:
        self.model.set_queues(queues.queues)
        for queue in queues.queues:
            if self.queue.findData(queue.id) < 0:
                self.queue.addItem(f"{isolate(queue.name)} ({queue.id})", queue.id)

    # --- table -------------------------------------------------------------------------

    def _on_scrolled(self, _value: int = 0) -> None:
        """Keep a few screens of rows loaded below the visible ones (the view itself asks
        only once its last row is on screen). Counted in rows from the header, which is
        up to date at once, unlike the scroll bar's range after rows arrive."""
        if not self.model.canFetchMore(QModelIndex()):
            return
        height = self.table.viewport().height()
        top = max(0, self.table.rowAt(0))
        bottom = self.table.rowAt(height - 1)
        rows = self.model.rowCount()
        if bottom < 0:  # the rows end above the bottom of the viewport
            self.model.fetchMore(QModelIndex())
            return
        screen = max(1, bottom - top + 1)
        if rows - 1 - bottom <= screen * self.PREFETCH_SCREENS:
            self.model.fetchMore(QModelIndex())

    def _on_model_page_loaded(self, rows: int) -> None:
        if rows == 0:
            set_text(self.status, translate("LeadDecisions", "No decisions match these filters."))
        elif self.model.exhausted:
            set_text(
                self.status,
                plural(
                    QCoreApplication.translate("LeadDecisions", "%Ln decision(s), all shown."),
                    rows,
                ),
            )
        else:
            set_text(
                self.status,
                plural(
                    QCoreApplication.translate(
                        "LeadDecisions",
                        "%Ln decision(s) loaded so far; scroll down for more.",
                    ),
                    rows,
                ),
            )
        self.retry_button.hide()
        # keep a few screens loaded ahead of the visible rows (the view asks only at the end)
        self._on_scrolled()

    def _on_model_loading_changed(self, loading: bool) -> None:
        if loading and self.model.rowCount() == 0:
            set_text(self.status, translate("LeadDecisions", "Loading decisions…"))

    def _on_model_load_failed(self, message: str) -> None:
        set_text(self.status, message)
        self.retry_button.show()

    def _on_retry_clicked(self) -> None:
        self.retry_button.hide()
        set_text(self.status, translate("LeadDecisions", "Loading decisions…"))
        self.model.retry()

    # --- history -----------------------------------------------------------------------

    def write_note(self) -> DecisionNoteDialog | None:
        """Open the note dialog for the selected decision (None when none is selected)."""
        current = self.table.currentIndex()
        decision_id = self.model.decision_id(current.row()) if current.isValid() else None
        reviewer = self.model.reviewer(current.row()) if current.isValid() else None
        if decision_id is None or reviewer is None:
            return None
        dialog = DecisionNoteDialog(self._factory, decision_id, reviewer, self)
        dialog.sent.connect(
            lambda _note: set_text(
                self.status,
                translate("LeadDecisions", "Note sent to {reviewer}.").format(
                    reviewer=isolate(reviewer)
                ),
            )
        )
        self.note_dialog = dialog
        dialog.open()
        return dialog

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.note_button.setEnabled(current.isValid())
        item_id = self.model.item_id(current.row()) if current.isValid() else None
        if item_id is None or item_id == self._history_item:
            return
        self._history_item = item_id
        set_text(
            self.history_title,
            translate("LeadDecisions", "History of item {item}").format(item=isolate(item_id)),
        )
        self.history.setPlainText(translate("LeadDecisions", "Loading the history…"))
        self._history_timer.start()

    def _on_table_activated(self, index: QModelIndex) -> None:
        """Enter on a decision opens its item's history now, without the wait for a held
        arrow key, and the focus goes to it (Shift+Tab comes back)."""
        item_id = self.model.item_id(index.row()) if index.isValid() else None
        if item_id is not None:
            self.show_history(item_id)
            self.history.setFocus(Qt.FocusReason.OtherFocusReason)

    def blank(self) -> None:
        """Hide every decision (a blind audit is under way in this window)."""
        self.model.blank()
        self.note_button.setEnabled(False)
        self._history_item = None
        self._drop_history()
        set_text(self.history_title, translate("LeadDecisions", "History"))
        self.history.setPlainText("")
        set_text(self.status, translate("LeadDecisions", "Hidden while you audit blind."))

    def show_history(self, item_id: str) -> None:
        """Load and show ``item_id``'s history now (also what selecting a row does)."""
        self._history_item = item_id
        set_text(
            self.history_title,
            translate("LeadDecisions", "History of item {item}").format(item=isolate(item_id)),
        )
        self.history.setPlainText(translate("LeadDecisions", "Loading the history…"))
        self._load_history()

    def _load_history(self) -> None:
        item_id, factory = self._history_item, self._factory
        queues = self.model.queues  # replaced whole, never changed: the pool may read it
        if item_id is None:
            return

        def arrived(result: tuple[list[str], bool]) -> None:
            self._history_op = None
            lines, more = result
            if more:
                lines.append(
                    "… "
                    + translate("LeadDecisions", "only the first {n} events are shown.").format(
                        n=whole(len(lines))
                    )
                )
            self.history.setPlainText(
                "\n".join(lines) or translate("LeadDecisions", "No events recorded for this item.")
            )
            self.history_shown.emit(item_id)

        def failed(err: BaseException) -> None:
            self._history_op = None
            self.history.setPlainText(
                describe(err, during=translate("LeadDecisions", "loading the history")).text()
            )

        # another row selected meanwhile: that one's history supersedes this one
        self._history_op = run_op(
            self, lambda: fetch_history(factory(), item_id, queues), arrived, failed, key="history"
        )

    def _drop_history(self) -> None:
        self._history_timer.stop()
        if self._history_op is not None:
            self._history_op.cancel()
            self._history_op = None

    # --- closing -----------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop what runs in the background: the export is stopped, loads dropped."""
        self.cancel_export()
        self._drop_history()
        self.model.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)
