"""Administration: the running queue configuration (read-only), its versions, and a diff
against a local file."""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
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
from reviewer_app.protocol import QueueFileHistory, RunningQueueFile
from reviewer_app.protocol.meta import QueueFileVersion

from ..background import run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table
from ..plain import clean, isolate, label, named, set_text, tooltip
from .admin_users import moment
from .stats_views import SORT, Index, sortable, table_view

#: the largest local queue file "Compare with a file…" reads
MAX_COMPARED_BYTES = 4_000_000


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

    def refresh(self) -> None:
        factory = self.client_factory

        def work() -> tuple[RunningQueueFile, QueueFileHistory]:
            api = factory()
            return api.queue_file(), api.queue_file_history()

        run_op(self, work, self._show, self._failed("loading the queue file"), key="load")

    def _show(self, found: tuple[RunningQueueFile, QueueFileHistory]) -> None:
        running, history = found
        self.running = running
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
        set_text(self.status, "")

    def _failed(self, during: str) -> Callable[[BaseException], None]:
        def failed(err: BaseException) -> None:
            set_text(self.status, describe(err, during=translate("LeadAdmin", during)).line())

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
        thread): a unified diff, shown as plain text."""
        running = self.running
        if running is None:
            set_text(
                self.status, translate("LeadAdmin", "The running queue file is not loaded yet.")
            )
            return
        name = Path(path).name

        def work() -> list[str]:
            raw = Path(path).read_bytes()[: MAX_COMPARED_BYTES + 1]
            if len(raw) > MAX_COMPARED_BYTES:
                raise ValueError("too_large")
            local = raw.decode("utf-8")
            return list(
                difflib.unified_diff(
                    running.toml.splitlines(keepends=True),
                    local.splitlines(keepends=True),
                    fromfile=f"running (version {running.version.version})"
                    if running.version
                    else "running",
                    tofile=name,
                )
            )

        def done(lines: list[str]) -> None:
            self.diff.show()
            if not lines:
                self.diff.setPlainText("")
                set_text(
                    self.status,
                    translate("LeadAdmin", "{file} is the same as the running queue file.").format(
                        file=isolate(name)
                    ),
                )
                return
            text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
            self.diff.setPlainText(isolate(text, wrap=False))
            changed = sum(
                1 for line in lines if line[:1] in "+-" and not line.startswith(("+++", "---"))
            )
            set_text(
                self.status,
                translate(
                    "LeadAdmin", "{file} differs from the running queue file in {n} lines."
                ).format(file=isolate(name), n=changed),
            )

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
