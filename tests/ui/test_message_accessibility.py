"""What a screen reader gets of the app's messages: a named label (the status bar's message,
the banner, "What happened") exposes its text as its accessible description, whole when it
is drawn elided, and assistive tech is told when it changes (only then, and only when one
listens); the status bar's message and the banner are announced each time they are said.

Qt gives a screen reader a label's text as its name only while the label has no accessible
name of its own, so before this every message read as "Last message" or "Notice".
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleEvent
from PySide6.QtWidgets import QApplication, QLabel

from reviewer_app.ui import a11y
from reviewer_app.ui.plain import ElidedLabel, label, named, set_text
from tests.support.servers import LiveServer
from tests.ui.conftest import Desk

DESCRIPTION = QAccessible.Text.Description
EVENT = QAccessible.Event


def description(widget: QLabel) -> str:
    """What the accessible tree says of ``widget`` beyond its name."""
    iface = QAccessible.queryAccessibleInterface(widget)
    assert iface is not None
    return iface.text(DESCRIPTION)


@pytest.fixture
def told(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[EVENT, str, object]]]:
    """Assistive tech listening: every event Qt would send it, as (type, message of an
    announcement, its politeness)."""
    events: list[tuple[EVENT, str, object]] = []

    def update(event: QAccessibleEvent) -> None:
        message = getattr(event, "message", lambda: "")()
        politeness = getattr(event, "politeness", lambda: None)()
        events.append((event.type(), message, politeness))

    monkeypatch.setattr(QAccessible, "isActive", staticmethod(lambda: True))
    monkeypatch.setattr(QAccessible, "updateAccessibility", staticmethod(update))
    yield events


def test_the_status_message_and_banner_reach_a_screen_reader(
    demo_server: LiveServer, desk_factory, told: list[tuple[EVENT, str, object]]
) -> None:
    desk: Desk = desk_factory(demo_server.url)
    window = desk.window
    told.clear()

    window.notify("Something the reviewer must not miss")
    for widget in (window.message, window.banner):
        assert description(widget) == "Something the reviewer must not miss", widget.objectName()
    announced = [(m, p) for kind, m, p in told if kind == EVENT.Announcement]
    if a11y.ANNOUNCEMENT is not None:  # (Qt 6.8 and later) said once, interrupting
        assert announced == [
            ("Something the reviewer must not miss", QAccessible.AnnouncementPoliteness.Assertive)
        ]
    assert (EVENT.DescriptionChanged, "", None) in told

    told.clear()
    window.say("Saved.")
    assert description(window.message) == "Saved."
    assert description(window.banner) == "Something the reviewer must not miss"
    if a11y.ANNOUNCEMENT is not None:
        assert [(m, p) for kind, m, p in told if kind == EVENT.Announcement] == [
            ("Saved.", QAccessible.AnnouncementPoliteness.Polite)
        ]
    told.clear()
    window.say("Saved.")  # the same words again (the next verdict's): said again, no more
    if a11y.ANNOUNCEMENT is not None:
        assert told == [(EVENT.Announcement, "Saved.", QAccessible.AnnouncementPoliteness.Polite)]
    else:
        assert told == []

    window.notify("")
    assert description(window.banner) == ""


def test_an_elided_message_is_described_whole(qapp: QApplication) -> None:
    message = named(ElidedLabel(), "message", "Last message")
    message.resize(80, 20)
    whole = "The queue Escalations was removed on the server; you have no queue left."
    set_text(message, whole)
    shown = message.fontMetrics().elidedText(whole, Qt.TextElideMode.ElideRight, 80)
    assert shown != whole  # (drawn cut short)
    assert description(message) == whole


def test_a_named_label_is_described_from_its_first_text(qapp: QApplication) -> None:
    summary = named(label("3 escalated posts waiting"), "summary", "Escalations waiting")
    assert description(summary) == "3 escalated posts waiting"
    # a label whose text is its name says it once
    assert description(named(label("Notes"), "notes", "Notes")) == ""
    # an unnamed label is Qt's: its text is its name
    plain = label("Queue:")
    set_text(plain, "Queue now:")
    assert plain.accessibleDescription() == ""
    iface = QAccessible.queryAccessibleInterface(plain)
    assert iface is not None and iface.text(QAccessible.Text.Name) == "Queue now:"


def test_untrusted_text_is_described_as_the_plain_text_shown(qapp: QApplication) -> None:
    status = named(label(""), "status", "What happened")
    hostile = "<b>Assigned</b> to <img src=x> \ud800"
    set_text(status, hostile)
    assert description(status) == status.text()
    assert description(status).startswith("<b>Assigned</b> to <img src=x>")
    assert "\ud800" not in description(status)  # (a lone surrogate, replaced as shown)


def test_assistive_tech_is_told_of_a_change_only(
    qapp: QApplication, told: list[tuple[EVENT, str, object]]
) -> None:
    status = named(label(""), "status", "What happened")
    told.clear()
    assert set_text(status, "Assigned to lead.")
    assert told == [(EVENT.DescriptionChanged, "", None)]
    told.clear()
    assert not set_text(status, "Assigned to lead.")  # the keypress path: nothing to do
    assert told == []


def test_no_event_is_built_when_no_one_listens(
    qapp: QApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[QAccessibleEvent] = []
    monkeypatch.setattr(QAccessible, "isActive", staticmethod(lambda: False))
    monkeypatch.setattr(QAccessible, "updateAccessibility", staticmethod(sent.append))
    status = named(label(""), "status", "What happened")
    set_text(status, "Assigned to lead.")
    a11y.announce(status, "Assigned to lead.")
    assert sent == []
    assert description(status) == "Assigned to lead."  # the tree is right all the same
