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
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QDateTime,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QCloseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDateTimeEdit,
    QFileDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.core.decision_csv import ExportCancelled
from reviewer_app.core.export import replaced_atomically
from reviewer_app.protocol import Decision, DecisionQuery, Event, QueueList

from ..accounts import status_words
from ..background import Op, run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..plain import bounded, clean, isolate, label, named, set_text, tooltip
from ..words import code_words, plural, value_words
from .decision_note import DecisionNoteDialog

log = logging.getLogger("ui")

Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
# roles as plain ints: data() compares them thousands of times a paint
_DISPLAY = int(Qt.ItemDataRole.DisplayRole.value)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole.value)
_ACCESSIBLE = int(Qt.ItemDataRole.AccessibleTextRole.value)
_USER = int(Qt.ItemDataRole.UserRole.value)
_ROLES = frozenset((_DISPLAY, _TOOLTIP, _ACCESSIBLE, _USER))
ClientFactory = Callable[[], ApiClient]

#: decisions asked for per page (the service allows up to 500); small pages keep the
#: worker's hold on the GIL short while the view paints
PAGE_SIZE = 100
#: events of one item's history shown at most (pages of 100)
HISTORY_PAGES = 20
#: characters of a note's first line shown in the table
NOTE_CHARS = 160
TIME_FORMAT = "%Y-%m-%d %H:%M:%S"

AUDITED_CHOICES: tuple[tuple[str, bool | None], ...] = (
    (QT_TRANSLATE_NOOP("LeadDecisions", "Audited or not"), None),
    (QT_TRANSLATE_NOOP("LeadDecisions", "Audited only"), True),
    (QT_TRANSLATE_NOOP("LeadDecisions", "Not audited"), False),
)

EVENT_WORDS = {
    "enqueued": QT_TRANSLATE_NOOP("LeadDecisions", "entered the queue"),
    "claimed": QT_TRANSLATE_NOOP("LeadDecisions", "claimed"),
    "renewed": QT_TRANSLATE_NOOP("LeadDecisions", "lease renewed"),
    "released": QT_TRANSLATE_NOOP("LeadDecisions", "given back"),
    "expired": QT_TRANSLATE_NOOP("LeadDecisions", "lease expired"),
    "decided": QT_TRANSLATE_NOOP("LeadDecisions", "decided"),
    "escalated": QT_TRANSLATE_NOOP("LeadDecisions", "escalated"),
    "escalation_assigned": QT_TRANSLATE_NOOP("LeadDecisions", "escalation assigned"),
    "user_created": QT_TRANSLATE_NOOP("LeadDecisions", "user created"),
    "role_changed": QT_TRANSLATE_NOOP("LeadDecisions", "role changed"),
    "audit_sampled": QT_TRANSLATE_NOOP("LeadDecisions", "picked for an audit"),
    "audited": QT_TRANSLATE_NOOP("LeadDecisions", "audited"),
    "overturned": QT_TRANSLATE_NOOP("LeadDecisions", "overturned"),
    "post_updated": QT_TRANSLATE_NOOP("LeadDecisions", "new version of the post from the platform"),
    "signal_added": QT_TRANSLATE_NOOP("LeadDecisions", "new signal"),
    "withdrawn": QT_TRANSLATE_NOOP("LeadDecisions", "withdrawn by the platform"),
    "rereview": QT_TRANSLATE_NOOP("LeadDecisions", "back for review"),
    "config_applied": QT_TRANSLATE_NOOP("LeadDecisions", "queue configuration applied"),
    "moved": QT_TRANSLATE_NOOP("LeadDecisions", "moved to another queue"),
    "api_key_created": QT_TRANSLATE_NOOP("LeadDecisions", "API key created"),
    "api_key_revoked": QT_TRANSLATE_NOOP("LeadDecisions", "API key revoked"),
    "account_actioned": QT_TRANSLATE_NOOP("LeadDecisions", "account action on the author"),
    "resolved": QT_TRANSLATE_NOOP("LeadDecisions", "resolved by an account action"),
    "held_back": QT_TRANSLATE_NOOP("LeadDecisions", "held back: the author is actioned"),
    "webhook_added": QT_TRANSLATE_NOOP("LeadDecisions", "webhook endpoint added"),
    "webhook_disabled": QT_TRANSLATE_NOOP("LeadDecisions", "webhook endpoint disabled"),
    "webhook_enabled": QT_TRANSLATE_NOOP("LeadDecisions", "webhook endpoint enabled"),
    "webhook_secret_rotated": QT_TRANSLATE_NOOP("LeadDecisions", "webhook signing secret changed"),
    "webhook_replayed": QT_TRANSLATE_NOOP("LeadDecisions", "webhook actions sent again"),
    "unservable": QT_TRANSLATE_NOOP("LeadDecisions", "could not be shown to reviewers: set aside"),
    "appealed": QT_TRANSLATE_NOOP("LeadDecisions", "appealed by the user"),
}

DETAIL_WORDS = {
    "action": QT_TRANSLATE_NOOP("LeadDecisions", "action"),
    "policies": QT_TRANSLATE_NOOP("LeadDecisions", "policies"),
    "rating": QT_TRANSLATE_NOOP("LeadDecisions", "rating"),
    "result": QT_TRANSLATE_NOOP("LeadDecisions", "audit result"),
    "decision_id": QT_TRANSLATE_NOOP("LeadDecisions", "decision"),
    "overturned_decision_id": QT_TRANSLATE_NOOP("LeadDecisions", "replaces decision"),
    "to_queue": QT_TRANSLATE_NOOP("LeadDecisions", "to queue"),
    "reasons": QT_TRANSLATE_NOOP("LeadDecisions", "why queued"),
    "lease_expires_at": QT_TRANSLATE_NOOP("LeadDecisions", "lease until"),
    "sample_id": QT_TRANSLATE_NOOP("LeadDecisions", "audit sample"),
    "audit_id": QT_TRANSLATE_NOOP("LeadDecisions", "audit"),
    "note": QT_TRANSLATE_NOOP("LeadDecisions", "note"),
    # intake, queue files and API keys
    "post": QT_TRANSLATE_NOOP("LeadDecisions", "post"),
    "version": QT_TRANSLATE_NOOP("LeadDecisions", "version"),
    "previous_version": QT_TRANSLATE_NOOP("LeadDecisions", "previous version"),
    "signal": QT_TRANSLATE_NOOP("LeadDecisions", "signal"),
    "signal_kind": QT_TRANSLATE_NOOP("LeadDecisions", "kind of signal"),
    "model": QT_TRANSLATE_NOOP("LeadDecisions", "model"),
    "label": QT_TRANSLATE_NOOP("LeadDecisions", "label"),
    "score": QT_TRANSLATE_NOOP("LeadDecisions", "score"),
    "reason": QT_TRANSLATE_NOOP("LeadDecisions", "reason"),
    "organisation": QT_TRANSLATE_NOOP("LeadDecisions", "organisation"),
    "rule": QT_TRANSLATE_NOOP("LeadDecisions", "routing rule"),
    "source": QT_TRANSLATE_NOOP("LeadDecisions", "source"),
    "earlier_item_id": QT_TRANSLATE_NOOP("LeadDecisions", "earlier item"),
    "earlier_decision_id": QT_TRANSLATE_NOOP("LeadDecisions", "earlier decision"),
    "earlier_action": QT_TRANSLATE_NOOP("LeadDecisions", "earlier action"),
    "new_item_id": QT_TRANSLATE_NOOP("LeadDecisions", "new item"),
    "from_queue": QT_TRANSLATE_NOOP("LeadDecisions", "from queue"),
    "state": QT_TRANSLATE_NOOP("LeadDecisions", "state"),
    "lease_ended": QT_TRANSLATE_NOOP("LeadDecisions", "lease ended"),
    "name": QT_TRANSLATE_NOOP("LeadDecisions", "name"),
    "account": QT_TRANSLATE_NOOP("LeadDecisions", "account"),
    "role": QT_TRANSLATE_NOOP("LeadDecisions", "role"),
    "prefix": QT_TRANSLATE_NOOP("LeadDecisions", "key prefix"),
    "key_id": QT_TRANSLATE_NOOP("LeadDecisions", "key"),
    "username": QT_TRANSLATE_NOOP("LeadDecisions", "user"),
    "service_account": QT_TRANSLATE_NOOP("LeadDecisions", "service account"),
    "queues": QT_TRANSLATE_NOOP("LeadDecisions", "queues"),
    "added": QT_TRANSLATE_NOOP("LeadDecisions", "added"),
    "removed": QT_TRANSLATE_NOOP("LeadDecisions", "removed"),
    "changed": QT_TRANSLATE_NOOP("LeadDecisions", "changed"),
    "drained": QT_TRANSLATE_NOOP("LeadDecisions", "emptied into"),
    "sha256": QT_TRANSLATE_NOOP("LeadDecisions", "file hash"),
    "added_count": QT_TRANSLATE_NOOP("LeadDecisions", "queues added"),
    "removed_count": QT_TRANSLATE_NOOP("LeadDecisions", "queues removed"),
    "changed_count": QT_TRANSLATE_NOOP("LeadDecisions", "queues changed"),
    "moved_pending_count": QT_TRANSLATE_NOOP("LeadDecisions", "waiting items moved"),
    "moved_leased_count": QT_TRANSLATE_NOOP("LeadDecisions", "reserved items moved"),
    # account actions
    "author": QT_TRANSLATE_NOOP("LeadDecisions", "author"),
    "author_id": QT_TRANSLATE_NOOP("LeadDecisions", "author id"),
    "author_action": QT_TRANSLATE_NOOP("LeadDecisions", "account action"),
    "status_before": QT_TRANSLATE_NOOP("LeadDecisions", "account status before"),
    "status": QT_TRANSLATE_NOOP("LeadDecisions", "account status"),
    "account_action_id": QT_TRANSLATE_NOOP("LeadDecisions", "account decision"),
    "closed_items": QT_TRANSLATE_NOOP("LeadDecisions", "open items closed"),
    "reverses_account_action_id": QT_TRANSLATE_NOOP("LeadDecisions", "reverses account decision"),
    # webhook endpoints
    "endpoint": QT_TRANSLATE_NOOP("LeadDecisions", "webhook endpoint"),
    "url": QT_TRANSLATE_NOOP("LeadDecisions", "address"),
    "kinds": QT_TRANSLATE_NOOP("LeadDecisions", "action kinds"),
    "from_seq": QT_TRANSLATE_NOOP("LeadDecisions", "from cursor"),
    "previous_seq": QT_TRANSLATE_NOOP("LeadDecisions", "cursor before"),
    "previous_secret_until": QT_TRANSLATE_NOOP("LeadDecisions", "old secret signs until"),
}


# --- rows: made on the pool thread, read by data() ---------------------------------------

# A row is a plain tuple: the display string of each column, then what the other roles
# need. Tuples of shared strings keep a million rows in a few hundred megabytes.
COLUMNS = (
    QT_TRANSLATE_NOOP("LeadDecisions", "Decided at"),
    QT_TRANSLATE_NOOP("LeadDecisions", "Item"),
    QT_TRANSLATE_NOOP("LeadDecisions", "Queue"),
    QT_TRANSLATE_NOOP("LeadDecisions", "Reviewer"),
    QT_TRANSLATE_NOOP("LeadDecisions", "Action"),
    QT_TRANSLATE_NOOP("LeadDecisions", "Policies"),
    QT_TRANSLATE_NOOP("LeadDecisions", "Rating"),
    QT_TRANSLATE_NOOP("LeadDecisions", "Note"),
    QT_TRANSLATE_NOOP("LeadDecisions", "Kind / audit"),
    QT_TRANSLATE_NOOP("LeadDecisions", "Author now"),
)
NOTE_COLUMN = COLUMNS.index("Note")
ITEM_COLUMN = COLUMNS.index("Item")
_FULL_NOTE = len(COLUMNS)  # the whole note (or None) for the tooltip
_DECISION_ID = _FULL_NOTE + 1
_ITEM_ID = _DECISION_ID + 1  # the raw id, for the history and the service
_REVIEWER = _ITEM_ID + 1  # the raw username (a lead's note names whom it goes to)
Row = tuple[Any, ...]


def note_line(note: str | None) -> str:
    """The note's first line, plain and short, with a mark when there is more."""
    if not note:
        return ""
    lines = note.strip().splitlines() or [""]
    first = lines[0]
    more = len(lines) > 1
    if len(first) > NOTE_CHARS:
        first, more = first[:NOTE_CHARS], True
    return isolate(first) + (" …" if more else "")


def kind_words(decision: Decision) -> str:
    kind = decision.kind.value
    words = (
        translate("LeadDecisions", "review")
        if kind == "review"
        else translate("LeadDecisions", "overturn")
    )
    if decision.overturns_decision_id is not None:
        words += " " + translate("LeadDecisions", "of #{id}").format(
            id=decision.overturns_decision_id
        )
    if decision.audit_result is not None:
        result = decision.audit_result.value
        words += (
            translate("LeadDecisions", ", audit agreed")
            if result == "agree"
            else translate("LeadDecisions", ", audit overturned it")
        )
    return words


def author_words(decision: Decision) -> str:
    """The post's author's status now ('' when active or not known): a suspended or
    inauthentic author stands out in the table."""
    status = decision.author_status
    if status is None or status.value == "active":
        return ""
    words = status_words(status)
    return f"⛔ {words}" if status.value in ("suspended", "inauthentic") else words


def display_row(decision: Decision, shared: dict[str, str]) -> Row:
    """The strings a table row shows (``shared`` makes repeated strings one object)."""
    d = decision

    def one(text: str) -> str:
        return shared.setdefault(text, text)

    return (
        d.decided_at.astimezone().strftime(TIME_FORMAT),
        isolate(d.item_id),
        one(d.queue_id),
        one(isolate(d.reviewer)),
        one(code_words(d.action)),
        one(", ".join(d.policies)),
        one(code_words(d.rating) if d.rating else ""),
        note_line(d.note),
        one(kind_words(d)),
        one(author_words(d)),
        clean(d.note) if d.note else None,
        d.id,
        d.item_id,
        d.reviewer,
    )


def fetch_page(
    client: ApiClient, filters: DecisionQuery, cursor: str | None, limit: int
) -> tuple[list[Row], str | None]:
    """One page of decisions as display rows (runs on a pool thread)."""
    page = client.decisions(filters, order="desc", cursor=cursor, limit=limit)
    shared: dict[str, str] = {}
    return [display_row(d, shared) for d in page.decisions], page.next_cursor


class DecisionsModel(QAbstractTableModel):
    """The decisions matching the filters, newest first, fetched a page at a time as the
    view scrolls (``canFetchMore``/``fetchMore``). One fetch is in flight at most; a
    result that arrives after the filters changed is dropped."""

    load_failed = Signal(str)  # plain words: what failed and what to do
    loading_changed = Signal(bool)
    page_loaded = Signal(int)  # rows now in the model

    def __init__(
        self,
        client_factory: ClientFactory,
        parent: QObject | None = None,
        *,
        page_size: int = PAGE_SIZE,
    ) -> None:
        super().__init__(parent)
        self._factory = client_factory
        self.page_size = page_size
        self.filters = DecisionQuery()
        self._rows: list[Row] = []
        self._cursor: str | None = None
        self._exhausted = False
        self._failed = False
        self._loading = False
        #: the page being fetched; a newer one (filters changed) drops its result
        self._page_op: Op | None = None

    # --- the Qt model ------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if role == DISPLAY and horizontal and 0 <= section < len(COLUMNS):
            return translate("LeadDecisions", COLUMNS[section])
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        # Called for seven roles of every visible cell on every paint: the roles this model
        # has nothing for return at once, before any call into Qt.
        if role not in _ROLES:
            return None
        row, column = index.row(), index.column()
        if not (0 <= row < len(self._rows) and 0 <= column < len(COLUMNS)):
            return None  # also an invalid index (row -1)
        values = self._rows[row]
        if role in (_DISPLAY, _ACCESSIBLE):
            return values[column]
        if role == _TOOLTIP:
            text = values[_FULL_NOTE] if column == NOTE_COLUMN else values[column]
            return tooltip(text) if text else None
        return values[_DECISION_ID]  # UserRole

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:
        if parent.isValid():
            return False
        return not (self._exhausted or self._failed or self._loading)

    def fetchMore(self, parent: Index = QModelIndex()) -> None:
        if parent.isValid() or not self.canFetchMore(parent):
            return
        self._start_fetch()

    # --- what the browser uses ---------------------------------------------------------

    @property
    def loading(self) -> bool:
        return self._loading

    @property
    def exhausted(self) -> bool:
        """True once the last page arrived (every matching decision is in the model)."""
        return self._exhausted

    def item_id(self, row: int) -> str | None:
        """The item of the decision in ``row`` (the raw id, as the service knows it)."""
        return self._rows[row][_ITEM_ID] if 0 <= row < len(self._rows) else None

    def decision_id(self, row: int) -> int | None:
        return self._rows[row][_DECISION_ID] if 0 <= row < len(self._rows) else None

    def reviewer(self, row: int) -> str | None:
        return self._rows[row][_REVIEWER] if 0 <= row < len(self._rows) else None

    def set_filters(self, filters: DecisionQuery | None = None) -> None:
        """Show the decisions matching ``filters`` (all when None): empties the table and
        loads page 1 in the background."""
        self.filters = filters or DecisionQuery()
        self.reload()

    def reload(self) -> None:
        """Drop every row and load page 1 again (a fetch in flight is forgotten)."""
        self._drop_fetch()
        self.beginResetModel()
        self._rows = []
        self._cursor = None
        self._exhausted = False
        self._failed = False
        self.endResetModel()
        self._set_loading(False)
        self._start_fetch()

    def blank(self) -> None:
        """Show nothing and fetch nothing until ``reload`` (during a blind audit)."""
        self._drop_fetch()
        self.beginResetModel()
        self._rows = []
        self._cursor = None
        self._exhausted = True
        self._failed = False
        self.endResetModel()
        self._set_loading(False)

    def retry(self) -> None:
        """After a failure: fetch the page that failed again."""
        if self._failed:
            self._failed = False
            self._start_fetch()

    def close(self) -> None:
        """Forget any fetch in flight (the model stays usable)."""
        self._drop_fetch()
        self._set_loading(False)

    def _drop_fetch(self) -> None:
        if self._page_op is not None:
            self._page_op.cancel()
            self._page_op = None

    # --- fetching ----------------------------------------------------------------------

    def _set_loading(self, loading: bool) -> None:
        if loading != self._loading:
            self._loading = loading
            self.loading_changed.emit(loading)

    def _start_fetch(self) -> None:
        if self._loading or self._exhausted:
            return
        factory, filters, cursor, limit = self._factory, self.filters, self._cursor, self.page_size
        self._set_loading(True)

        def arrived(result: tuple[list[Row], str | None]) -> None:
            self._page_op = None
            self._on_page_arrived(*result)

        def failed(err: BaseException) -> None:
            self._page_op = None
            self._on_page_failed(err)

        self._page_op = run_op(
            self, lambda: fetch_page(factory(), filters, cursor, limit), arrived, failed, key="page"
        )

    def _on_page_arrived(self, rows: list[Row], next_cursor: str | None) -> None:
        self._cursor = next_cursor
        self._exhausted = next_cursor is None
        if rows:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(rows) - 1)
            self._rows.extend(rows)
            self.endInsertRows()
        self._set_loading(False)
        self.page_loaded.emit(len(self._rows))

    def _on_page_failed(self, err: BaseException) -> None:
        log.info("loading decisions failed: %s", type(err).__name__)
        self._failed = True
        self._set_loading(False)
        self.load_failed.emit(
            describe(err, during=translate("LeadDecisions", "loading decisions")).text()
        )


# --- the item history timeline ----------------------------------------------------------


def event_line(event: Event) -> str:
    """One event as a plain line: local time, what happened, who, and the details."""
    when = event.at.astimezone().strftime(TIME_FORMAT)
    kind = event.kind.value
    words = translate("LeadDecisions", EVENT_WORDS.get(kind, kind.replace("_", " ")))
    who = (
        " " + translate("LeadDecisions", "by {actor}").format(actor=isolate(event.actor))
        if event.actor
        else ""
    )
    queue = (
        " " + translate("LeadDecisions", "in {queue}").format(queue=event.queue_id)
        if event.queue_id and kind == "enqueued"
        else ""
    )
    details = []
    for key, value in event.data.items():
        if value is None or value == [] or value == "":
            continue
        if isinstance(value, list):
            shown = ", ".join(value_words(v) for v in value)
        elif isinstance(value, bool):
            shown = translate("LeadDecisions", "yes") if value else translate("LeadDecisions", "no")
        else:  # times in local time, codes in words ("false_information": false information)
            shown = value_words(value)
        name = translate("LeadDecisions", DETAIL_WORDS.get(key, key.replace("_", " ")))
        details.append(f"{name}: {shown}")
    tail = f" — {'; '.join(details)}" if details else ""
    return f"{when}  {words}{who}{queue}{tail}"


def fetch_history(client: ApiClient, item_id: str) -> tuple[list[str], bool]:
    """The lines of an item's history (oldest first) and whether more were left out."""
    lines: list[str] = []
    cursor: str | None = None
    for _ in range(HISTORY_PAGES):
        page = client.history(item_id, cursor)
        lines.extend(event_line(e) for e in page.events)
        cursor = page.next_cursor
        if cursor is None:
            return lines, False
    return lines, True


# --- the export -------------------------------------------------------------------------


def export_to_file(
    client: ApiClient,
    path: Path,
    filters: DecisionQuery,
    progress: Callable[[int], None],
    cancelled: Callable[[], bool],
) -> int:
    """Stream the export into a temporary file beside ``path`` and rename it over ``path``
    when complete; on any error (and on cancel) no file is left. Runs on a pool thread."""
    with replaced_atomically(path) as out:
        return client.export_decisions(out, filters, progress=progress, cancelled=cancelled)


def export_failure_words(err: BaseException, path: Path) -> str:
    if isinstance(err, ExportCancelled):
        return translate(
            "LeadDecisions", "Export cancelled after {n} decisions; no file was written."
        ).format(n=f"{err.rows:,}")
    if isinstance(err, OSError):
        return translate(
            "LeadDecisions",
            "Could not write {path}: {reason}. No file was written; choose another folder or "
            "free some disk space.",
        ).format(path=path, reason=err.strerror or err)
    return (
        describe(err, during=translate("LeadDecisions", "exporting decisions")).text()
        + "\n"
        + translate("LeadDecisions", "No file was written.")
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
        self._export_op: Op | None = None

        layout = QVBoxLayout(self)
        layout.addLayout(self._build_filters())

        self.table = QTableView()
        named(self.table, "decisions", translate("LeadDecisions", "Decisions"))
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(False)
        self.table.setSortingEnabled(False)  # the service's order: newest first
        rows = self.table.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # uniform heights, no scans
        rows.setDefaultSectionSize(self.table.fontMetrics().height() + 8)
        rows.hide()
        columns = self.table.horizontalHeader()
        columns.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate((150, 150, 120, 110, 110, 120, 90, 260, 150)):
            self.table.setColumnWidth(column, width)
        columns.setStretchLastSection(True)

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

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.table)
        splitter.addWidget(detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
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
        self.export_button = QPushButton(translate("LeadDecisions", "Export CSV…"))
        named(
            self.export_button,
            "exportCsv",
            translate("LeadDecisions", "Export the decisions shown as CSV"),
        )
        self.export_button.clicked.connect(self._on_export_clicked)
        self.export_progress = QProgressBar()
        named(self.export_progress, "exportProgress", translate("LeadDecisions", "Export progress"))
        self.export_progress.setRange(0, 0)  # the total is not known ahead
        self.export_progress.setTextVisible(False)
        self.export_progress.hide()
        self.export_status = label("", wrap=True)
        named(self.export_status, "exportStatus", translate("LeadDecisions", "Export status"))
        self.export_cancel_button = QPushButton(translate("LeadDecisions", "Cancel export"))
        named(
            self.export_cancel_button,
            "cancelExport",
            translate("LeadDecisions", "Cancel the export"),
        )
        self.export_cancel_button.clicked.connect(self.cancel_export)
        self.export_cancel_button.hide()
        self.note_button = QPushButton(translate("LeadDecisions", "Note to reviewer…"))
        named(
            self.note_button,
            "noteToReviewer",
            translate("LeadDecisions", "Write a note to the selected decision's reviewer"),
        )
        self.note_button.setEnabled(False)
        self.note_button.clicked.connect(self.write_note)
        self.note_dialog: DecisionNoteDialog | None = None
        row.addWidget(self.note_button)
        row.addWidget(self.export_button)
        row.addWidget(self.export_progress)
        row.addWidget(self.export_status, 1)
        row.addWidget(self.export_cancel_button)
        return row

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
                    QCoreApplication.translate(
                        "LeadDecisions", "%Ln decision(s), all shown.", None, rows
                    ),
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
                        None,
                        rows,
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
        if item_id is None:
            return

        def arrived(result: tuple[list[str], bool]) -> None:
            self._history_op = None
            lines, more = result
            if more:
                lines.append(
                    "… "
                    + translate("LeadDecisions", "only the first {n} events are shown.").format(
                        n=f"{len(lines):,}"
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
            self, lambda: fetch_history(factory(), item_id), arrived, failed, key="history"
        )

    def _drop_history(self) -> None:
        self._history_timer.stop()
        if self._history_op is not None:
            self._history_op.cancel()
            self._history_op = None

    # --- export ------------------------------------------------------------------------

    def _on_export_clicked(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self,
            translate("LeadDecisions", "Export decisions as CSV"),
            str(Path.home() / "decisions.csv"),
            translate("LeadDecisions", "CSV files (*.csv);;All files (*)"),
        )
        if path:
            self.export_to(path)

    @property
    def exporting(self) -> bool:
        return self._export_op is not None

    def export_to(self, path: str | os.PathLike[str]) -> bool:
        """Export the decisions matching the applied filters to ``path`` in the background;
        False (with a message) when it cannot start."""
        target = Path(path)
        if self.exporting:
            return False
        if target.is_dir() or not target.absolute().parent.is_dir():
            set_text(
                self.export_status,
                translate(
                    "LeadDecisions", "Cannot write {path}: choose a file in a folder."
                ).format(path=target),
            )
            return False
        factory, filters = self._factory, self.model.filters
        self.export_button.setEnabled(False)
        self.export_progress.show()
        self.export_cancel_button.show()
        self.export_cancel_button.setEnabled(True)
        set_text(
            self.export_status,
            translate("LeadDecisions", "Exporting to {path}…").format(path=target),
        )

        def finished() -> None:
            self._export_op = None
            self.export_button.setEnabled(True)
            self.export_progress.hide()
            self.export_cancel_button.hide()

        def succeeded(rows: int) -> None:
            finished()
            set_text(
                self.export_status,
                translate("LeadDecisions", "Exported {n} decisions to {path}.").format(
                    n=f"{rows:,}", path=target
                ),
            )
            self.export_finished.emit(rows, str(target))

        def failed(err: BaseException) -> None:
            finished()
            words = export_failure_words(err, target)
            set_text(self.export_status, words)
            self.export_failed.emit(words)

        # Cancel stops the work early and still says how far it got (``Op.stop``)
        op = self._export_op = Op(
            self, success=succeeded, failure=failed, progress=self._on_export_progressed
        )
        op.run(lambda: export_to_file(factory(), target, filters, op.report, lambda: op.cancelled))
        return True

    def cancel_export(self) -> None:
        if self._export_op is not None:
            self._export_op.stop()
            self.export_cancel_button.setEnabled(False)
            set_text(self.export_status, translate("LeadDecisions", "Cancelling the export…"))

    def _on_export_progressed(self, rows: int) -> None:
        if self._export_op is not None and not self._export_op.cancelled:
            set_text(
                self.export_status,
                translate("LeadDecisions", "Exporting… {n} decisions written so far.").format(
                    n=f"{rows:,}"
                ),
            )

    # --- closing -----------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop what runs in the background: the export is stopped, loads dropped."""
        self.cancel_export()
        self._drop_history()
        self.model.close()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.shutdown()
        super().closeEvent(event)
