"""Item models: the local worklist, the queues with live counts, the conflicts.

Each tells its views what changed (rows inserted/removed, cells changed) rather than
resetting on every update; the worklist's lease countdown changes one column a second.
"""

from __future__ import annotations

import difflib
import time
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations, pairwise
from typing import Any

from PySide6.QtCore import (
    QAbstractListModel,
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)

from reviewer_app.core.store import Conflict, WorklistRow
from reviewer_app.protocol import Queue, QueueCounts

from .i18n import QT_TRANSLATE_NOOP, translate
from .plain import isolate, tooltip
from .words import clock_time, code_words, decimal

Index = QModelIndex | QPersistentModelIndex
DISPLAY = Qt.ItemDataRole.DisplayRole
#: the roles the worklist answers
ROLES = frozenset(
    int(role)
    for role in (
        DISPLAY,
        Qt.ItemDataRole.AccessibleTextRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.UserRole,
    )
)
#: how many characters of a post the worklist's Item column shows
EXCERPT = 60
#: the worklist's State and Sync columns: a word or two (their columns are narrow: the
#: Item column takes the rest), each the whole cell's text ("decided (keep)" and "waiting
#: to send" were cut to "decide…" and "wait…"); a decided row's action is in its tooltip
STATE_WORDS = {
    "ready": QT_TRANSLATE_NOOP("Models", "to review"),
    "decided": QT_TRANSLATE_NOOP("Models", "decided"),
    "skipped": QT_TRANSLATE_NOOP("Models", "skipped"),
}
SYNC_WORDS = {
    None: "",
    "pending": QT_TRANSLATE_NOOP("Models", "to send"),
    "accepted": QT_TRANSLATE_NOOP("Models", "sent"),
    "duplicate": QT_TRANSLATE_NOOP("Models", "sent"),
    "conflict": QT_TRANSLATE_NOOP("Models", "conflict"),
    "rejected": QT_TRANSLATE_NOOP("Models", "refused"),
    "undone": "",
}


def _runs(rows: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted row numbers as (first, last) runs of consecutive rows."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


#: a title longer than this (in characters) and of several words goes on more lines
TWO_LINES_FROM = 11
#: the most lines a column's title takes
TITLE_LINES = 3
#: where a translation lets a long word break ("Überein\u00adstimmung"), as in print
SOFT_HYPHEN = "\u00ad"


def one_line(title: str) -> str:
    """``title`` as one line reads: without the soft hyphens that mark where it may break."""
    return title.replace(SOFT_HYPHEN, "")


def two_lines(title: str) -> str:
    """``title`` on as few lines as keep each within ``TWO_LINES_FROM`` characters (at most
    ``TITLE_LINES``; the longest line as short as it can be), broken at spaces, never before
    a mark ("/ reversed"), and inside a word only where a soft hyphen says, with a hyphen
    ("Überein-\\nstimmung"): "High-harm\\nposts\\nthis shift". A short title, or one of one
    word with no soft hyphen, stays on one line."""
    whole = one_line(title)
    if len(whole) <= TWO_LINES_FROM:
        return whole
    # the places a line may end: a space whose next character is not a mark, a soft hyphen
    ends = [
        i
        for i, ch in enumerate(title[:-1])
        if (ch == " " and title[i + 1] not in "/·—-") or ch == SOFT_HYPHEN
    ]
    best = (len(whole), whole)
    for count in range(1, min(TITLE_LINES - 1, len(ends)) + 1):
        for breaks in combinations(ends, count):
            bounds = (-1, *breaks, len(title))
            lines = [
                one_line(title[a + 1 : b]) + ("-" if title[b : b + 1] == SOFT_HYPHEN else "")
                for a, b in pairwise(bounds)
            ]
            longest = max(len(line) for line in lines)
            if longest < best[0]:
                best = (longest, "\n".join(lines))
        if best[0] <= TWO_LINES_FROM:
            break  # the fewest lines that do
    return best[1]


def item_words(handle: str, text: str) -> str:
    """An item as a list shows it: "@handle: the post's first words" (isolated)."""
    words = " ".join(text.split())
    if len(words) > EXCERPT:
        words = words[:EXCERPT].rstrip() + "…"
    return f"@{isolate(handle)}: {isolate(words)}" if words else f"@{isolate(handle)}"


def countdown(seconds: float) -> str:
    if seconds <= 0:
        return translate("Models", "expired")
    minutes, secs = divmod(int(seconds), 60)
    return f"{minutes}:{secs:02d}"


class _Table(QAbstractTableModel):
    """A flat table: ``HEADERS`` name the columns, ``rows()`` holds the rows."""

    HEADERS: tuple[str, ...] = ()
    #: the translation context of ``HEADERS`` (each marked with ``QT_TRANSLATE_NOOP``)
    TR_CONTEXT = "Models"
    #: long titles of several words shown on two lines (``two_lines``): a table of many
    #: figures then fits its window (the Reviewers and Wellbeing tables scrolled sideways
    #: at 1280 px, each column as wide as its title on one line)
    TWO_LINE_TITLES = False

    def _rows(self) -> Sequence[object]:
        raise NotImplementedError

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows())

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.HEADERS)

    def raw_title(self, section: int) -> str | None:
        """Column ``section``'s title as its translation gives it (a soft hyphen may mark
        where a long word breaks)."""
        if 0 <= section < len(self.HEADERS):
            return translate(self.TR_CONTEXT, self.HEADERS[section])
        return None

    def title(self, section: int) -> str | None:
        """Column ``section``'s title on one line (what a screen reader and an export use)."""
        raw = self.raw_title(section)
        return one_line(raw) if raw is not None else None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = DISPLAY) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == DISPLAY:
            raw = self.raw_title(section)
            return two_lines(raw) if raw and self.TWO_LINE_TITLES else self.title(section)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self.title(section)
        return None


class WorklistModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("Models", "Item"),
        QT_TRANSLATE_NOOP("Models", "State"),
        QT_TRANSLATE_NOOP("Models", "Lease"),
        QT_TRANSLATE_NOOP("Models", "Sync"),
    )
    LEASE_COLUMN = 2

    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        action_labels: Callable[[str], Mapping[str, str] | None] = lambda _queue_id: None,
    ) -> None:
        super().__init__()
        self.rows: list[WorklistRow] = []
        self.clock = clock
        #: a queue's action labels by its id (a decided row's action in its words)
        self.action_labels = action_labels
        self.current_id: str | None = None
        #: what the Item column shows of each item: its author and the start of its post
        #: (``describe``), kept for as long as the item is on the list
        self.labels: dict[str, str] = {}
        #: each described item's author's handle (as given: isolate it to show it)
        self.handles: dict[str, str] = {}

    def describe(self, item_id: str, handle: str, text: str) -> None:
        """The Item column's words for ``item_id``: "@handle: the post's first words"."""
        self.handles[item_id] = handle
        self.labels[item_id] = item_words(handle, text)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        # first: a cell's paint asks for seven roles (its text, font, colours, alignment,
        # check state and icon) and six of them are the view's to choose
        if role not in ROLES or not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        if role == Qt.ItemDataRole.ToolTipRole:  # tooltips guess HTML
            shown = self.data(index, DISPLAY)
            if index.column() == 1 and row.action and row.state == "decided":
                shown = f"{shown}: {self.action(row)}"
            return tooltip(f"{shown}\n{row.item_id}" if index.column() == 0 else shown)
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            column = index.column()
            if column == 0:
                on_screen = row.item_id == self.current_id
                mark = "◀ " if on_screen else ""
                return mark + self.labels.get(row.item_id, row.item_id)
            if column == 1:
                words = translate("Models", STATE_WORDS.get(row.state, row.state))
                spoken = role == Qt.ItemDataRole.AccessibleTextRole
                if spoken and row.action and row.state == "decided":
                    return f"{words}: {self.action(row)}"
                return words
            if column == 2:
                if row.lease_lost:
                    return translate("Models", "lost")
                return countdown(row.lease_expires_at - self.clock())
            if column == 3:
                words = SYNC_WORDS.get(row.verdict_status, row.verdict_status or "")
                return translate("Models", words) if words else ""
        if role == Qt.ItemDataRole.UserRole:
            return row.item_id
        return None

    def action(self, row: WorklistRow) -> str:
        """``row``'s action by its label on the row's queue ("Remove and restrict author"),
        its code in words when the queue is not known here."""
        return code_words(row.action or "", self.action_labels(row.queue_id))

    def set_rows(self, rows: Sequence[WorklistRow]) -> None:
        """Show ``rows``, telling the view only what changed: rows that left or arrived,
        and cells whose text changed (a reset would make the view lay out every row)."""
        new = list(rows)
        old_ids = [r.item_id for r in self.rows]
        new_ids = [r.item_id for r in new]
        if old_ids != new_ids:
            matcher = difflib.SequenceMatcher(a=old_ids, b=new_ids, autojunk=False)
            # from the end, so the positions of the operations still to come stay valid
            for tag, i1, i2, j1, j2 in reversed(matcher.get_opcodes()):
                if tag in ("delete", "replace"):
                    self.beginRemoveRows(QModelIndex(), i1, i2 - 1)
                    del self.rows[i1:i2]
                    self.endRemoveRows()
                if tag in ("insert", "replace"):
                    self.beginInsertRows(QModelIndex(), i1, i1 + (j2 - j1) - 1)
                    self.rows[i1:i1] = new[j1:j2]
                    self.endInsertRows()
        changed = [i for i, (a, b) in enumerate(zip(self.rows, new, strict=True)) if a != b]
        self.rows = new
        kept = set(new_ids)
        for gone in [i for i in self.labels if i not in kept]:
            del self.labels[gone]
            self.handles.pop(gone, None)
        for first, last in _runs(changed):
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(self.HEADERS) - 1))

    def row_of(self, item_id: str) -> int:
        return next((row for row, r in enumerate(self.rows) if r.item_id == item_id), -1)

    def set_current(self, item_id: str | None) -> None:
        before, self.current_id = self.current_id, item_id
        for row, entry in enumerate(self.rows):
            if entry.item_id in (before, item_id) and before != item_id:
                self.dataChanged.emit(self.index(row, 0), self.index(row, 0))

    def tick(self) -> None:
        """The countdown column changed (once a second)."""
        if self.rows:
            col = self.LEASE_COLUMN
            self.dataChanged.emit(self.index(0, col), self.index(len(self.rows) - 1, col))

    def _rows(self) -> Sequence[object]:
        return self.rows


def for_you(counts: QueueCounts) -> int:
    """The pending items the reviewer's claim may take."""
    return max(0, counts.pending - counts.not_for_you)


def _oldest(counts: QueueCounts) -> str:
    age = counts.oldest_pending_age_seconds
    if age is None:
        return ""
    if age >= 3600:
        return translate("Models", ", oldest {n} h").format(n=decimal(age / 3600))
    return translate("Models", ", oldest {n} min").format(n=age // 60)


def picker_row(queue: Queue, as_of: str = "") -> str:
    """A queue's row: name, what waits for the reviewer, for someone else (when any), being
    reviewed, decided today, the oldest's age; ``as_of``: how old the counts are, when they
    are not live ("counts as of 10:42", "last known counts")."""
    c = queue.counts
    if c.not_for_you:
        counts = translate(
            "QueuePicker",
            "{pending} waiting, {others} waiting for someone else, {leased} being reviewed, "
            "{decided} decided today",
        ).format(pending=for_you(c), others=c.not_for_you, leased=c.leased, decided=c.decided_today)
    else:
        counts = translate(
            "Models", "{pending} waiting, {leased} being reviewed, {decided} decided today"
        ).format(pending=c.pending, leased=c.leased, decided=c.decided_today)
    row = f"{isolate(queue.name)} — {counts}{_oldest(c)}"
    return f"{row} ({as_of})" if as_of else row


def counts_age(counted_at: float | None) -> str:
    """How old counts no longer kept up to date are: the time the service gave them, or
    "last known" when they came from an earlier start (kept on this computer)."""
    if counted_at is None:
        return translate("QueuePicker", "last known counts")
    return translate("QueuePicker", "counts as of {time}").format(time=clock_time(counted_at))


class QueueListModel(QAbstractListModel):
    """Queues with their live counts, for the queue picker (``picker_row``); while the desk
    is offline (``set_live``) each row says how old its counts are."""

    def __init__(self) -> None:
        super().__init__()
        self.queues: list[Queue] = []
        # when the service last gave the counts (None: kept from an earlier start)
        self.counted_at: float | None = None
        # whether the counts are kept up to date (the desk reaches the service)
        self.live = True

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.queues)

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.queues):
            return None
        queue = self.queues[index.row()]
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            return picker_row(queue, "" if self.live else counts_age(self.counted_at))
        if role == Qt.ItemDataRole.ToolTipRole:  # tooltips guess HTML: escaped
            return tooltip(queue.description) if queue.description else None
        if role == Qt.ItemDataRole.UserRole:
            return queue.id
        return None

    def action_labels(self, queue_id: str) -> Mapping[str, str] | None:
        """The action labels of queue ``queue_id`` (None when it is not listed)."""
        queue = next((q for q in self.queues if q.id == queue_id), None)
        return queue.config.action_labels() if queue is not None else None

    def set_live(self, live: bool) -> None:
        """The desk reaches the service (the counts are live) or not (they are old)."""
        if live != self.live:
            self.live = live
            if self.queues:
                self.dataChanged.emit(self.index(0, 0), self.index(len(self.queues) - 1, 0))

    def set_queues(self, queues: Sequence[Queue], *, counted_at: float | None = None) -> None:
        """The queues and their counts; ``counted_at``: when the service gave them (None:
        kept on this computer from an earlier start)."""
        self.counted_at = counted_at
        new = list(queues)
        if [q.id for q in new] == [q.id for q in self.queues]:
            self.queues = new
            if new:
                self.dataChanged.emit(self.index(0, 0), self.index(len(new) - 1, 0))
            return
        self.beginResetModel()
        self.queues = new
        self.endResetModel()

    def row_of(self, queue_id: str) -> int:
        return next((i for i, q in enumerate(self.queues) if q.id == queue_id), -1)

    def name_of(self, queue_id: str) -> str | None:
        """The queue's name (None for a queue not listed here: another role's)."""
        return next((q.name for q in self.queues if q.id == queue_id), None)


class RowsTable(_Table):
    """A table whose rows are replaced whole (a few at a time): a subclass says what a row
    shows (``cells``) and what ``UserRole`` gives for it (``key``)."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[Any] = []

    def _rows(self) -> Sequence[object]:
        return self.rows

    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def cells(self, row: Any) -> tuple[object, ...]:
        raise NotImplementedError

    def key(self, row: Any) -> Any:
        return None

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.rows):
            return None
        row = self.rows[index.row()]
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            return self.cells(row)[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:  # a cell cut at its column's end, whole
            text = self.cells(row)[index.column()]
            return tooltip(str(text)) if text not in (None, "") else None
        if role == Qt.ItemDataRole.UserRole:
            return self.key(row)
        return None


class ConflictsModel(RowsTable):
    HEADERS = (
        QT_TRANSLATE_NOOP("Models", "Item"),
        QT_TRANSLATE_NOOP("Models", "Your decision"),
        QT_TRANSLATE_NOOP("Models", "Decision that counts"),
        QT_TRANSLATE_NOOP("Models", "By"),
    )

    def __init__(self, action_words: Callable[[Conflict, str], str] | None = None) -> None:
        super().__init__()
        #: an action of a conflict's item in words (its label on the item's queue)
        self.action_words = action_words or (lambda _c, action: code_words(action))

    def cells(self, c: Conflict) -> tuple[object, ...]:
        return (
            item_words(c.item.author.handle, c.item.post.text) if c.item else c.item_id,
            " ".join([self.action_words(c, c.mine.action), *c.mine.policies]),
            " ".join([self.action_words(c, c.theirs.action), *c.theirs.policies]),
            isolate(c.theirs.reviewer),
        )

    def key(self, c: Conflict) -> str:
        return c.key
