"""Administration: the running queue configuration (read-only), its versions, and a diff
against a local file."""

from __future__ import annotations

import codecs
import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import Forbidden
from reviewer_app.protocol import QueueFileHistory, RunningQueueFile
from reviewer_app.protocol.meta import QueueFileVersion

from ..background import run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table
from ..plain import clean, isolate, label, named, set_text, tooltip
from ..words import plural
from .admin_users import moment, refused_words
from .stats_views import SORT, Index, sortable, table_view

# the largest local queue file "Compare with a file…" reads
MAX_COMPARED_BYTES = 4_000_000


@dataclass(frozen=True)
class Comparison:
    """The running queue file against a local one."""

    diff: list[str]  # a unified diff, every line ending in "\n" (empty: the same lines)
    changed: int  # lines changed: in each run of changes, the more of removed and added
    line_endings: bool  # the local file's line endings (CRLF or CR) differ: not in the diff
    bom: bool  # the local file starts with a UTF-8 byte-order mark: not in the diff


def _lines(text: str) -> list[str]:
    """``text``'s lines, each with its "\n" (the last without one if the text has none),
    CRLF and CR read as LF; only a line feed ends a line, as in diff."""
    parts = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def compare(running: str, raw: bytes, fromfile: str, tofile: str) -> Comparison:
    """The local file's bytes ``raw`` (UTF-8, or UnicodeDecodeError) against ``running``:
    a last line without its newline is marked as diff marks it."""
    bom = raw.startswith(codecs.BOM_UTF8)
    local = raw.decode("utf-8-sig")
    diff: list[str] = []
    for line in difflib.unified_diff(_lines(running), _lines(local), fromfile, tofile):
        if line.endswith("\n"):
            diff.append(line)
        else:
            diff += [line + "\n", "\\ No newline at end of file\n"]
    changed = removed = added = 0
    for line in diff[2:]:  # (after the two file names)
        if line[:1] in ("-", "+"):
            removed += line[0] == "-"
            added += line[0] == "+"
        elif line[:1] in (" ", "@"):  # a run of changes ends
            changed, removed, added = changed + max(removed, added), 0, 0
    changed += max(removed, added)
    line_endings = ("\r" in local) != ("\r" in running)
    return Comparison(diff, changed, line_endings, bom)


def summary(found: Comparison, file: str) -> str:
    """What the status line says of a comparison with ``file`` (isolated)."""
    if found.diff:
        words = translate("LeadAdmin", "{file} differs from the running queue file: {lines}.")
        lines = plural(translate("LeadAdmin", "%Ln line(s) changed"), found.changed)
        extra = []
        if found.line_endings:
            extra.append(translate("LeadAdmin", "Its line endings differ too (not shown)."))
        if found.bom:
            extra.append(
                translate("LeadAdmin", "It starts with a byte-order mark too (not shown).")
            )
        return " ".join([words.format(file=file, lines=lines), *extra])
    if found.line_endings and found.bom:
        words = translate(
            "LeadAdmin",
            "{file} differs from the running queue file only in its line endings and its "
            "byte-order mark.",
        )
    elif found.line_endings:
        words = translate(
            "LeadAdmin", "{file} differs from the running queue file only in its line endings."
        )
    elif found.bom:
        words = translate(
            "LeadAdmin", "{file} differs from the running queue file only in its byte-order mark."
        )
    else:
        words = translate("LeadAdmin", "{file} is the same as the running queue file.")
    return words.format(file=file)


class HistoryModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadAdmin", "Version"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Applied"),
        QT_TRANSLATE_NOOP("LeadAdmin", "By"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Queues"),
    )
    TR_CONTEXT = "LeadAdmin"

    def __init__(self) -> None:
        super().__init__()
        self.versions: list[QueueFileVersion] = []

    def _rows(self) -> Sequence[object]:
        return self.versions

    def set_history(self, found: QueueFileHistory) -> None:
        self.beginResetModel()
        self.versions = list(found.versions)
        self.endResetModel()

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.versions):
            return None
        v = self.versions[index.row()]
        column = index.column()
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            text = (
                str(v.version),
                moment(v.applied_at),
                isolate(v.applied_by) if v.applied_by else translate("LeadAdmin", "the service"),
                ", ".join(v.queues),
            )[column]
            return tooltip(text) if role == Qt.ItemDataRole.ToolTipRole else text
        if role == SORT:
            return (v.version, v.applied_at.timestamp(), v.applied_by or "", len(v.queues))[column]
        return None


class QueueConfigPage(QWidget):
    """The running queue file (read-only), its versions, and a diff against a local file."""

    #: a call refused with 403 (this account no longer an admin): the words that say so
    no_longer_admin = Signal(str)
    closed = False  # (the tab's pages closed: a load still under way shows nothing)

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "adminQueues", translate("LeadAdmin", "Queue configuration"))
        self.client_factory = client_factory
        self.running: RunningQueueFile | None = None
        self.version = label("")
        named(self.version, "adminQueueVersion", translate("LeadAdmin", "Running version"))
        self.text = QPlainTextEdit()
        named(self.text, "adminQueueFile", translate("LeadAdmin", "The running queue file"))
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff = QPlainTextEdit()
        named(self.diff, "adminQueueDiff", translate("LeadAdmin", "Difference with a file"))
        self.diff.setReadOnly(True)
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff.hide()
        self.model = HistoryModel()
        self.history = table_view(
            "adminQueueHistory", translate("LeadAdmin", "Configuration versions")
        )
        self.history.setModel(sortable(self.model, self))
        self.history.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # newest first
        self.status = label("")
        named(self.status, "adminQueueStatus", translate("LeadAdmin", "Queue file status"))
        compare = QPushButton(translate("LeadAdmin", "Compare with a file…"))
        compare.clicked.connect(self.pick_file)
        refresh = QPushButton(translate("LeadAdmin", "Refresh"))
        refresh.clicked.connect(self.refresh)
        row = QHBoxLayout()
        row.addWidget(refresh)
        row.addWidget(compare)
        row.addWidget(self.version, 1)
        texts = QSplitter(Qt.Orientation.Horizontal)
        texts.addWidget(self.text)
        texts.addWidget(self.diff)
        parts = QSplitter(Qt.Orientation.Vertical)
        parts.addWidget(texts)
        parts.addWidget(self.history)
        parts.setStretchFactor(0, 3)
        parts.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(
            label(
                translate(
                    "LeadAdmin",
                    "The queues as they run, as a queue file. Change them with "
                    "reviewer-app server queues apply FILE on the service's machine; every "
                    "applied file is a version below.",
                )
            )
        )
        layout.addLayout(row)
        layout.addWidget(parts, 1)
        layout.addWidget(self.status)
        self.dialog: QFileDialog | None = None
        self.load_failed = False  # the status line says a load failed

    def refresh(self) -> None:
        """Read the running file and its versions again (at every showing of the tab): a
        comparison and its summary stay while the running file is the same."""
        factory = self.client_factory

        def work() -> tuple[RunningQueueFile, QueueFileHistory]:
            api = factory()
            return api.queue_file(), api.queue_file_history()

        failed = self._failed(translate("LeadAdmin", "loading the queue file"))
        run_op(self, work, self._show, failed, key="load")

    def _show(self, found: tuple[RunningQueueFile, QueueFileHistory]) -> None:
        if self.closed:
            return
        running, history = found
        same = self.running is not None and self.running.toml == running.toml
        self.running = running
        if not same:  # (setting it again would lose the reader's place in it)
            # plain text; bidi controls and invisible characters shown as markers
            self.text.setPlainText(isolate(running.toml, wrap=False))
        self.model.set_history(history)
        v = running.version
        if v is None:
            words = translate("LeadAdmin", "No configuration version yet.")
        else:
            words = translate("LeadAdmin", "Version {version}, applied {when} by {who}.").format(
                version=v.version,
                when=moment(v.applied_at),
                who=isolate(v.applied_by)
                if v.applied_by
                else translate("LeadAdmin", "the service"),
            )
        set_text(self.version, words)
        if not same:  # a comparison with the file that ran before says nothing now
            self.diff.clear()
            self.diff.hide()
        if not same or self.load_failed:
            set_text(self.status, "")
        self.load_failed = False

    def _failed(self, during: str) -> Callable[[BaseException], None]:
        def failed(err: BaseException) -> None:
            self.load_failed = True
            said = describe(err, during=during).line()
            if isinstance(err, Forbidden):  # another admin demoted this one meanwhile
                self.no_longer_admin.emit(refused_words(said))
                return
            set_text(self.status, said)

        return failed

    def pick_file(self) -> None:
        dialog = QFileDialog(self, translate("LeadAdmin", "Compare with a queue file"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilter(translate("LeadAdmin", "Queue files (*.toml);;All files (*)"))
        dialog.fileSelected.connect(self.compare_with)
        self.dialog = dialog
        dialog.open()  # not exec(): no nested loop on the GUI thread

    def compare_with(self, path: str) -> None:
        """Diff the running file against the local file at ``path`` (read off the GUI
        thread): a unified diff, shown as plain text; line endings and a byte-order mark
        are not differences of the queues, and are said apart."""
        running = self.running
        if running is None:
            set_text(
                self.status, translate("LeadAdmin", "The running queue file is not loaded yet.")
            )
            return
        name = Path(path).name
        title = f"running (version {running.version.version})" if running.version else "running"

        def work() -> Comparison:
            raw = Path(path).read_bytes()[: MAX_COMPARED_BYTES + 1]
            if len(raw) > MAX_COMPARED_BYTES:
                raise ValueError("too_large")
            return compare(running.toml, raw, title, name)

        def done(found: Comparison) -> None:
            self.diff.show()
            self.diff.setPlainText(isolate("".join(found.diff), wrap=False))
            set_text(self.status, summary(found, isolate(name)))

        def failed(err: BaseException) -> None:
            shown = isolate(name)
            if isinstance(err, UnicodeDecodeError):
                words = translate("LeadAdmin", "{file} is not UTF-8 text.").format(file=shown)
            elif isinstance(err, ValueError):
                words = translate("LeadAdmin", "{file} is too large for a queue file.").format(
                    file=shown
                )
            elif isinstance(err, OSError):
                words = translate("LeadAdmin", "{file} could not be read: {reason}").format(
                    file=shown, reason=clean(err.strerror or str(err))
                )
            else:
                words = describe(err, during=translate("LeadAdmin", "comparing")).line()
            set_text(self.status, words)

        run_op(self, work, done, failed)
