"""Wellbeing in the review window: the break reminder (a strip above the post, never a
dialog: verdict keys keep working while it shows) and the break screen (no post content;
the posts held were given back)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from reviewer_app.core.wellbeing import Due

from .plain import label, named, set_text
from .theme import Tone, TypeRole, set_tone, set_type, space
from .words import plural

translate = QCoreApplication.translate


def _button(text: str, object_name: str) -> QPushButton:
    button = named(QPushButton(text), object_name, text)
    # never takes the focus on its own (the reviewer's keys go on deciding posts), but Tab
    # reaches it: Later had no key, and a reviewer without a mouse could not put it off
    button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
    return button


class BreakReminder(QFrame):
    """A non-modal reminder that a break is due, with Take a break (its key) and Later;
    ``key`` gives the break key's text as the reviewer has it mapped."""

    break_requested = Signal()
    later_requested = Signal()

    def __init__(self, key: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        named(self, "breakReminder", translate("Wellbeing", "Break reminder"))
        set_tone(self, Tone.info)
        row = QHBoxLayout(self)
        row.setContentsMargins(space(2), space(1), space(2), space(1))
        self.text = label("")
        named(self.text, "breakReminderText", translate("Wellbeing", "Break reminder"))
        self.take = _button(translate("Wellbeing", "Take a break (B)"), "breakReminderTake")
        self.later = _button(translate("Wellbeing", "Later"), "breakReminderLater")
        self.take.clicked.connect(self.break_requested)
        self.later.clicked.connect(self.later_requested)
        row.addWidget(self.text, 1)
        row.addWidget(self.take)
        row.addWidget(self.later)
        self.setVisible(False)

    def remind(self, due: Due, minutes: int, high_harm: int) -> None:
        if due is Due.high_harm:
            text = plural(
                translate(
                    "Wellbeing",
                    "You have reviewed %Ln post(s) with graphic or distressing content since "
                    "your last break. Time for a short break?",
                ),
                high_harm,
            )
        else:
            text = plural(
                translate(
                    "Wellbeing",
                    "You have been reviewing for %Ln minute(s). Time for a short break?",
                ),
                minutes,
            )
        set_text(self.text, text)
        self.take.setText(translate("Wellbeing", "Take a break ({key})").format(key=self.key()))
        self.setVisible(True)


class BreakScreen(QFrame):
    """What the review page shows during a break: no post, no names, no media."""

    resume_requested = Signal()

    def __init__(self, key: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.key = key
        named(self, "breakScreen", translate("Wellbeing", "On a break"))
        column = QVBoxLayout(self)
        column.addStretch(1)
        self.title = label(translate("Wellbeing", "On a break"))
        set_type(self.title, TypeRole.title)
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.text = label("")
        named(self.text, "breakScreenText", translate("Wellbeing", "On a break"))
        self.text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.resume = _button(translate("Wellbeing", "Resume reviewing (B)"), "breakResume")
        self.resume.clicked.connect(self.resume_requested)
        column.addWidget(self.title)
        column.addWidget(self.text)
        column.addWidget(self.resume, 0, Qt.AlignmentFlag.AlignHCenter)
        column.addStretch(1)
        self.setVisible(False)

    def show_since(self, started: datetime) -> None:
        set_text(
            self.text,
            translate(
                "Wellbeing",
                "Since {time}. The posts you held were given back to the queue and nothing is "
                "leased for you until you resume. Step away from the screen for a while.",
            ).format(time=f"{started.astimezone():%H:%M}"),
        )
        self.resume.setText(
            translate("Wellbeing", "Resume reviewing ({key})").format(key=self.key())
        )
        self.setVisible(True)
