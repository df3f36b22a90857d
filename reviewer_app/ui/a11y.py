"""What assistive technology (a screen reader) is told of the texts the app shows.

Qt gives a screen reader a label's text as its name, and tells it when the text changes,
only while the label has no accessible name of its own. The app names its message labels
("Last message", "Notice", "What happened"), so their text is their accessible description
(``described``, from ``plain.set_text`` and ``plain.named``), and the status bar's message
and the banner are announced (``announce``: Qt 6.8 and later). Both cost next to nothing
while no assistive technology listens (``QAccessible.isActive``: no event is built); the
description is set all the same, so the accessible tree is right when one starts.
"""

from __future__ import annotations

from typing import Any

from PySide6 import QtGui
from PySide6.QtGui import QAccessible, QAccessibleEvent
from PySide6.QtWidgets import QLabel, QWidget

#: ``QAccessibleAnnouncementEvent`` (Qt 6.8 and later); without it a screen reader hears
#: of a message by its label's description changing
ANNOUNCEMENT: Any = getattr(QtGui, "QAccessibleAnnouncementEvent", None)


def described(widget: QWidget) -> None:
    """A named label's text (the whole text of an elided one) as its accessible
    description, none when it is the name itself; assistive tech is told of a change."""
    name = widget.accessibleName()
    if not name or not isinstance(widget, QLabel):
        return
    text = widget.text()
    if text == name:
        text = ""
    if widget.accessibleDescription() != text:
        widget.setAccessibleDescription(text)
        if QAccessible.isActive():
            event = QAccessibleEvent(widget, QAccessible.Event.DescriptionChanged)
            QAccessible.updateAccessibility(event)


def announce(widget: QWidget, text: str, *, assertive: bool = False) -> None:
    """``text`` said by the screen reader now (a message that must not be missed
    ``assertive``: it interrupts), where Qt can announce and someone listens."""
    if not text or ANNOUNCEMENT is None or not QAccessible.isActive():
        return
    event = ANNOUNCEMENT(widget, text)
    if assertive:
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
    QAccessible.updateAccessibility(event)
