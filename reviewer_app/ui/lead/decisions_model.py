"""The decisions browser's table model: the decisions matching the filters, newest first,
a page at a time as the view scrolls. A page's display strings are made on the pool thread,
so ``data()`` is a tuple lookup and scrolling a million rows never stalls."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import QHeaderView, QTableView

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Decision, DecisionQuery, Queue

from ..accounts import status_words
from ..background import Op, run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import one_line, two_lines
from ..plain import clean, fit_headers, isolate, stretch_column, tooltip
from ..words import code_words
from .decision_history import TIME_FORMAT

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
#: characters of a note's first line shown in the table
NOTE_CHARS = 160


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
KIND_COLUMN = COLUMNS.index("Kind / audit")
ITEM_COLUMN = COLUMNS.index("Item")
_FULL_NOTE = len(COLUMNS)  # the whole note (or None) for the tooltip
_DECISION_ID = _FULL_NOTE + 1
_ITEM_ID = _DECISION_ID + 1  # the raw id, for the history and the service
_REVIEWER = _ITEM_ID + 1  # the raw username (a lead's note names whom it goes to)
_CODES = _REVIEWER + 1  # (queue id, action, rating): the words are made again from them
QUEUE_COLUMN, REVIEWER_COLUMN, ACTION_COLUMN, POLICIES_COLUMN, RATING_COLUMN = (
    COLUMNS.index("Queue"),
    COLUMNS.index("Reviewer"),
    COLUMNS.index("Action"),
    COLUMNS.index("Policies"),
    COLUMNS.index("Rating"),
)
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


def size_columns(table: QTableView) -> None:
    """The table's columns: the time whole, in the font in use; the rest as wide as their
    usual words, the rating and the author's status as wide as their titles; the note takes
    the rest (the ten columns fit a 1280 px screen; every cell's tooltip is whole)."""
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    metrics = table.fontMetrics()
    padding = 2 * metrics.averageCharWidth()
    samples = {
        0: "2026-12-31 23:59:59",
        ITEM_COLUMN: "i-9dbde4561f4f",
        QUEUE_COLUMN: "Hate and harassment",
        REVIEWER_COLUMN: "reviewer",
        ACTION_COLUMN: "Reduce distribution",
        POLICIES_COLUMN: "SPAM.PHISHING",
        KIND_COLUMN: translate("LeadDecisions", "overturn"),
    }
    for column in range(len(COLUMNS)):
        sample = samples.get(column)
        table.setColumnWidth(column, metrics.horizontalAdvance(sample) + padding if sample else 1)
    fit_headers(table)  # and never narrower than a title, at every text size
    stretch_column(table, NOTE_COLUMN)


class QueueWords:
    """A queue's name and its actions' and ratings' labels, for the table's words."""

    def __init__(self, queue: Queue) -> None:
        self.name = isolate(queue.name)
        self.title = queue.name  # as the wire gives it (``code_words`` isolates it)
        self.actions = queue.config.action_labels()
        self.ratings = queue.config.rating_labels()


def queue_words(queues: list[Queue]) -> dict[str, QueueWords]:
    return {q.id: QueueWords(q) for q in queues}


def display_row(
    decision: Decision, shared: dict[Any, Any], queues: dict[str, QueueWords] | None = None
) -> Row:
    """The strings a table row shows (``shared`` makes repeated strings one object): the
    queue by its name, the action and the rating by their labels in its configuration
    (``queues``; the codes in words where the lead's queue list has no such queue)."""
    d = decision

    def one(text: str) -> str:
        return shared.setdefault(text, text)

    def one_codes(codes: tuple[str, str, str | None]) -> tuple[str, str, str | None]:
        return shared.setdefault(codes, codes)  # a few kinds a page: one tuple each

    queue, action, rating = coded(d.queue_id, d.action, d.rating, queues)
    return (
        d.decided_at.astimezone().strftime(TIME_FORMAT),
        isolate(d.item_id),
        one(queue),
        one(isolate(d.reviewer)),
        one(action),
        one(", ".join(d.policies)),
        one(rating),
        note_line(d.note),
        one(kind_words(d)),
        one(author_words(d)),
        clean(d.note) if d.note else None,
        d.id,
        d.item_id,
        d.reviewer,
        one_codes((d.queue_id, d.action, d.rating)),
    )


def coded(
    queue_id: str, action: str, rating: str | None, queues: dict[str, QueueWords] | None
) -> tuple[str, str, str]:
    """The Queue, Action and Rating cells' words."""
    words = (queues or {}).get(queue_id)
    if words is None:
        return code_words(queue_id), code_words(action), code_words(rating) if rating else ""
    return (
        words.name,
        code_words(action, words.actions),
        code_words(rating, words.ratings) if rating else "",
    )


def fetch_page(
    client: ApiClient,
    filters: DecisionQuery,
    cursor: str | None,
    limit: int,
    queues: dict[str, QueueWords] | None = None,
) -> tuple[list[Row], str | None]:
    """One page of decisions as display rows (runs on a pool thread)."""
    page = client.decisions(filters, order="desc", cursor=cursor, limit=limit)
    shared: dict[Any, Any] = {}
    return [display_row(d, shared, queues) for d in page.decisions], page.next_cursor


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
        #: the words of the queues the lead sees (``set_queues``), by queue id
        self.queues: dict[str, QueueWords] = {}

    # --- the Qt model ------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if not (horizontal and 0 <= section < len(COLUMNS)):
            return None
        title = translate("LeadDecisions", COLUMNS[section])
        if role == DISPLAY:  # a long title on two lines: ten columns fit at 1280 px
            return two_lines(title)
        if role == _ACCESSIBLE:
            return one_line(title)
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

    def set_queues(self, queues: list[Queue]) -> None:
        """The lead's queues: their names and labels in the rows from now on, and in the
        rows loaded already (a page or two when the queue list arrives: made again here,
        in place; reloading them made the table start over under the lead's eyes)."""
        self.queues = queue_words(queues)
        if not self._rows:
            return
        self._rows = [self._recoded(row) for row in self._rows]
        self.dataChanged.emit(
            self.index(0, QUEUE_COLUMN), self.index(len(self._rows) - 1, RATING_COLUMN)
        )

    def _recoded(self, row: Row) -> Row:
        """``row`` with its Queue, Action and Rating words made from the queues known now."""
        queue_id, action_id, rating_id = row[_CODES]
        queue, action, rating = coded(queue_id, action_id, rating_id, self.queues)
        cells = list(row)
        cells[QUEUE_COLUMN], cells[ACTION_COLUMN], cells[RATING_COLUMN] = queue, action, rating
        return tuple(cells)

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
        queues = self.queues  # replaced whole, never changed: the pool thread may read it
        self._set_loading(True)

        def arrived(result: tuple[list[Row], str | None]) -> None:
            self._page_op = None
            rows, next_cursor = result
            if queues is not self.queues:  # the queue list came while the page was made
                rows = [self._recoded(row) for row in rows]
            self._on_page_arrived(rows, next_cursor)

        def failed(err: BaseException) -> None:
            self._page_op = None
            self._on_page_failed(err)

        self._page_op = run_op(
            self,
            lambda: fetch_page(factory(), filters, cursor, limit, queues),
            arrived,
            failed,
            key="page",
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
