"""One way to ask before what cannot be taken back: a warning box with Cancel as its
default, opened (never ``exec``: the GUI thread does not wait in a nested loop), kept on
its owner's ``confirmation`` while it is open (tests answer it there), and what was asked
for run only on Yes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from .i18n import translate
from .words import plural


class Confirming(Protocol):
    """A widget that asks first: its open question, or None."""

    confirmation: QMessageBox | None


def ask_first(
    owner: Confirming,
    parent: QWidget,
    *,
    name: str,
    title: str,
    text: str,
    yes: str,
    cancel: str,
    on_yes: Callable[[], None],
    more: str | None = None,
) -> QMessageBox:
    """Open the question on ``parent`` (object name ``name``; ``text`` and ``more`` plain
    text) and run ``on_yes`` if the answer is ``yes``; Cancel, Escape or closing it does
    nothing."""
    box = QMessageBox(parent)
    box.setObjectName(name)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(title)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(text)
    if more:
        box.setInformativeText(more)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Yes).setText(yes)
    box.button(QMessageBox.StandardButton.Cancel).setText(cancel)

    def answered(result: int) -> None:
        if owner.confirmation is box:
            owner.confirmation = None
        box.deleteLater()
        if result == QMessageBox.StandardButton.Yes.value:
            on_yes()

    box.finished.connect(answered)
    owner.confirmation = box
    box.open()
    return box


def unsent_at_quit(
    pending: int, held: int, *, online: bool | None, memory_only: bool
) -> str | None:
    """What quitting now would leave unsent, as the question to ask (None: nothing, ask
    nothing). Offline, nothing goes on the way out: every verdict not sent waits for the next
    start, or is lost with a store kept in memory only. Online, the exit sends them, but a
    verdict held for another reviewer's lease is refused again: lost in memory only."""
    if online is False and pending:
        return plural(
            translate(
                "MainWindow",
                "Not sent yet: %Ln verdict(s), kept in memory only in this session "
                "and lost if you quit now. Quit anyway?",
            )
            if memory_only
            else translate(
                "MainWindow",
                "Saved on this computer but not sent yet: %Ln verdict(s), sent the "
                "next time you start the app. Quit now?",
            ),
            pending,
        )
    if memory_only and held:
        return plural(
            translate(
                "MainWindow",
                "Not sent yet: %Ln verdict(s) waiting while another reviewer holds the post, "
                "kept in memory only in this session and lost if you quit now. Quit anyway?",
            ),
            held,
        )
    return None
