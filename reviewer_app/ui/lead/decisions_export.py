"""Export CSV of the decisions browser: the file written on a pool thread (streamed into a
temporary file beside the chosen one, renamed only when complete, so a cancelled or failed
export leaves no file behind), and the row of controls that starts, follows and cancels it."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import (
    QCoreApplication,
    Signal,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.core.decision_csv import ExportCancelled
from reviewer_app.core.export import replaced_atomically
from reviewer_app.protocol import DecisionQuery

from ..background import Op
from ..i18n import translate
from ..messages import describe
from ..plain import label, named, set_text
from ..words import plural

log = logging.getLogger("ui")


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
        return plural(
            translate(
                "LeadDecisions", "Export cancelled after %Ln decision(s); no file was written."
            ),
            err.rows,
        )
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


class ExportBar(QWidget):
    """Export CSV…, a progress bar while it runs, what happened, and Cancel export."""

    finished = Signal(int, str)  # rows, path
    failed = Signal(str)  # plain words

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        filters: Callable[[], DecisionQuery],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._factory = client_factory
        self._filters = filters
        self._op: Op | None = None
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.button = QPushButton(translate("LeadDecisions", "Export CSV…"))
        named(
            self.button,
            "exportCsv",
            translate("LeadDecisions", "Export the decisions shown as CSV"),
        )
        self.button.clicked.connect(self._on_clicked)
        self.progress = QProgressBar()
        named(self.progress, "exportProgress", translate("LeadDecisions", "Export progress"))
        self.progress.setRange(0, 0)  # the total is not known ahead
        self.progress.setTextVisible(False)
        self.progress.hide()
        self.status = label("", wrap=True)
        named(self.status, "exportStatus", translate("LeadDecisions", "Export status"))
        self.cancel_button = QPushButton(translate("LeadDecisions", "Cancel export"))
        named(self.cancel_button, "cancelExport", translate("LeadDecisions", "Cancel the export"))
        self.cancel_button.clicked.connect(self.cancel)
        self.cancel_button.hide()
        row.addWidget(self.button)
        row.addWidget(self.progress)
        row.addWidget(self.status, 1)
        row.addWidget(self.cancel_button)

    def _on_clicked(self) -> None:
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
        return self._op is not None

    def export_to(self, path: str | os.PathLike[str]) -> bool:
        """Export the decisions matching the applied filters to ``path`` in the background;
        False (with a message) when it cannot start."""
        target = Path(path)
        if self.exporting:
            return False
        if target.is_dir() or not target.absolute().parent.is_dir():
            set_text(
                self.status,
                translate(
                    "LeadDecisions", "Cannot write {path}: choose a file in a folder."
                ).format(path=target),
            )
            return False
        factory, filters = self._factory, self._filters()
        self._show_running(True)
        set_text(
            self.status, translate("LeadDecisions", "Exporting to {path}…").format(path=target)
        )

        def succeeded(rows: int) -> None:
            self._show_running(False)
            set_text(
                self.status,
                plural(
                    QCoreApplication.translate(
                        "LeadDecisions", "Exported %Ln decision(s) to {path}."
                    ),
                    rows,
                ).format(path=target),
            )
            self.finished.emit(rows, str(target))

        def failed(err: BaseException) -> None:
            self._show_running(False)
            words = export_failure_words(err, target)
            set_text(self.status, words)
            self.failed.emit(words)

        # Cancel stops the work early and still says how far it got (``Op.stop``)
        op = self._op = Op(self, success=succeeded, failure=failed, progress=self._on_progressed)
        op.run(lambda: export_to_file(factory(), target, filters, op.report, lambda: op.cancelled))
        return True

    def _show_running(self, running: bool) -> None:
        if not running:
            self._op = None
        self.button.setEnabled(not running)
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.cancel_button.setEnabled(running)

    def cancel(self) -> None:
        if self._op is not None:
            self._op.stop()
            self.cancel_button.setEnabled(False)
            set_text(self.status, translate("LeadDecisions", "Cancelling the export…"))

    def _on_progressed(self, rows: int) -> None:
        if self._op is not None and not self._op.cancelled:
            set_text(
                self.status,
                plural(
                    QCoreApplication.translate(
                        "LeadDecisions", "Exporting… %Ln decision(s) written so far."
                    ),
                    rows,
                ),
            )
