"""The previous password, asked for when the one the server just accepted does not open
the work kept on this computer (changed on the service while the app was closed)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QWidget

from .i18n import translate
from .plain import label, named, set_text
from .theme import Tone, set_tone


def previous_password_asked(unsent: int | None) -> str:
    """Why the previous password is asked for: the one the server accepted does not open
    the work kept here (``unsent``: what it holds not sent yet; None: not known)."""
    held = translate(
        "Dialogs", "Your password was changed since this computer last saved your work."
    )
    ask = translate(
        "Dialogs",
        "Enter your previous password to open that work and go on with it; from then on "
        "your new password opens it.",
    )
    if unsent:
        many = translate(
            "Dialogs",
            "Your password was changed since this computer last saved your work, which holds "
            "{n} decisions not sent yet.",
        )
        one = translate(
            "Dialogs",
            "Your password was changed since this computer last saved your work, which holds "
            "1 decision not sent yet.",
        )
        held = (one if unsent == 1 else many).format(n=unsent)
        ask = translate(
            "Dialogs",
            "Enter your previous password to open that work and send what is waiting; from "
            "then on your new password opens it.",
        )
    afresh = translate(
        "Dialogs",
        "If you do not know it, start afresh: the work is then moved aside unopened, "
        "and kept for support.",
    )
    return f"{held} {ask} {afresh}"


def previous_password_wrong() -> str:
    return translate(
        "Dialogs",
        "That is not your previous password: it does not open the work saved here. Try "
        "again, or start afresh.",
    )


def started_afresh(path: object) -> str:
    """The banner after "Start afresh": why the work kept here was moved aside, and where."""
    return translate(
        "Dialogs",
        "You started afresh: your password was changed and the previous one was not "
        "given, so the work saved on this computer could not be opened. It was moved aside, "
        "unopened, to {path}; your previous password still opens it, and decisions in it "
        "that were not sent are still there. Ask support before deleting it.",
    ).format(path=path)


class PreviousPasswordDialog(QDialog):
    """The server accepted a password that does not open the work kept here (it was
    changed since): asks for the previous one, or to start afresh. What the buttons ask
    for runs elsewhere (``unlock_requested``, ``afresh_requested``: off the GUI thread);
    ``show_error`` asks again. Closing it leaves the work as it is."""

    unlock_requested = Signal(str)
    afresh_requested = Signal()

    def __init__(self, unsent: int | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("Dialogs", "Your password was changed"))
        self.setObjectName("previousPasswordDialog")
        self.setMinimumWidth(480)
        form = QFormLayout(self)
        self.intro = named(
            label(previous_password_asked(unsent)), "previousIntro", translate("Dialogs", "Why")
        )
        self.password = named(
            QLineEdit(), "previousPassword", translate("Dialogs", "Previous password")
        )
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.error = named(label(""), "previousProblem", translate("Dialogs", "Problem"))
        set_tone(self.error, Tone.error)
        self.error.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.open_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.open_button.setText(translate("Dialogs", "Open my work"))
        self.afresh = self.buttons.addButton(
            translate("Dialogs", "Start afresh"), QDialogButtonBox.ButtonRole.DestructiveRole
        )
        self.afresh.setAutoDefault(False)  # Enter opens the work, never moves it aside
        self.buttons.accepted.connect(self._on_open)
        self.afresh.clicked.connect(lambda: self._busy(self.afresh_requested.emit))
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.intro)
        form.addRow(translate("Dialogs", "Previous password"), self.password)
        form.addRow(self.error)
        form.addRow(self.buttons)
        self.password.setFocus(Qt.FocusReason.OtherFocusReason)

    def _on_open(self) -> None:
        previous = self.password.text()
        self.password.clear()
        self._busy(lambda: self.unlock_requested.emit(previous))

    def _busy(self, then: Callable[[], None]) -> None:
        self.error.hide()
        self.buttons.setEnabled(False)  # one at a time
        then()

    def show_error(self, text: str) -> None:
        set_text(self.error, text)
        self.error.setVisible(bool(text))
        self.adjustSize()
        self.buttons.setEnabled(True)
        self.password.setFocus(Qt.FocusReason.OtherFocusReason)

    def reject(self) -> None:
        """Closed (Esc, the window's button, Cancel): not while a request runs, which goes
        on regardless (the key wrapped anew, the work moved aside) and opens the window
        ("left as it is" was said over work already moved)."""
        if self.buttons.isEnabled():
            super().reject()
