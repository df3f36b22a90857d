"""A lead's note to the reviewer of a decision (Decisions tab: "Note to reviewer…"). The
reviewer reads it in My decisions and in the notice at their next login."""

from __future__ import annotations

import logging
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import DecisionNote
from reviewer_app.protocol.common import MAX_NOTE

from ..background import run_op
from ..i18n import translate
from ..messages import describe
from ..plain import isolate, label, named, set_text

log = logging.getLogger("ui")


class DecisionNoteDialog(QDialog):
    """Write the note; Send posts it on a pool thread and closes once the service has it
    (a failure is shown here and the text stays)."""

    sent = Signal(object)  # DecisionNote

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        decision_id: int,
        reviewer: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("LeadDecisions", "Note to reviewer"))
        named(self, "decisionNoteDialog", translate("LeadDecisions", "Note to reviewer"))
        self.factory = client_factory
        self.decision_id = decision_id
        self.text = QPlainTextEdit()
        named(self.text, "decisionNoteText", translate("LeadDecisions", "Note to reviewer"))
        self.text.setPlaceholderText(
            translate("LeadDecisions", "What the reviewer should know about this decision")
        )
        self.text.setTabChangesFocus(True)  # Tab goes on to Send, as in the verdict's note
        self.status = label("")
        named(self.status, "decisionNoteStatus", translate("LeadDecisions", "Note status"))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        send = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        send.setText(translate("LeadDecisions", "Send"))
        self.buttons.accepted.connect(self.send)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            label(
                translate(
                    "LeadDecisions",
                    "{reviewer} reads this note in My decisions, and is told of it at their "
                    "next login.",
                ).format(reviewer=isolate(reviewer))
            )
        )
        layout.addWidget(self.text, 1)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.resize(520, 300)
        self.sending = False  # a send under way, or done: the keys send nothing more
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, self.send)

    def send(self) -> None:
        """Post the note once: Ctrl+Enter again (the keys are not the disabled buttons)
        while it is under way, or after it went, sends nothing."""
        if self.sending:
            return
        note = self.text.toPlainText().strip()
        if not note:
            set_text(self.status, translate("LeadDecisions", "Write the note first."))
            return
        if len(note) > MAX_NOTE:
            set_text(
                self.status,
                translate("LeadDecisions", "A note may be at most {n} characters.").format(
                    n=MAX_NOTE
                ),
            )
            return
        self.sending = True
        self.buttons.setEnabled(False)
        set_text(self.status, translate("LeadDecisions", "Sending…"))
        factory, decision_id = self.factory, self.decision_id

        def work() -> DecisionNote:
            api = factory()
            return api.add_decision_note(decision_id, note)

        def done(written: DecisionNote) -> None:
            self.sent.emit(written)
            self.accept()

        def failed(err: BaseException) -> None:
            self.sending = False  # the text stays: send it again
            self.buttons.setEnabled(True)
            set_text(
                self.status,
                describe(err, during=translate("LeadDecisions", "sending the note")).text(),
            )

        run_op(self, work, done, failed)
