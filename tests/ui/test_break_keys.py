"""On a break nothing but the break's own keys does anything where the review is (real
demo service over HTTP, offscreen): the break key ends it, the help key lists the keys, Tab
on the Review page reaches the Resume button, whose Space ends it, and the menu's keys (the
pages) stay. The keys a break does not use reached the focused control: the queue list,
focused before the break, moved and chose another queue. The Lead workspace, which shows
no post of the review, works by keyboard on a break as it does by mouse."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk

K = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def on_break(desk: Desk) -> None:
    window = desk.window
    window.setFocus(Qt.FocusReason.OtherFocusReason)
    desk.press(K.Key_B)
    desk.wait(lambda: window.tally.on_break is not None)


def test_on_a_break_the_lead_workspace_works_by_keyboard_as_by_mouse(
    demo_server: LiveServer, desk_factory
) -> None:
    """No post of the review is shown there: its filters, tables and tab keys work on a
    break (as its mouse does), while the review keys stay held and the break key ends it."""
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    lead = window.lead
    assert lead is not None
    on_break(desk)
    desk.press(K.Key_2, CTRL)  # the menu's key: the Lead workspace
    assert window.on_lead_page()
    decisions = lead.decisions
    lead.setCurrentWidget(decisions)
    desk.wait(lambda: decisions.table.model().rowCount() > 1)

    decisions.reviewer.setFocus(Qt.FocusReason.TabFocusReason)
    desk.press(K.Key_X)
    assert decisions.reviewer.text() == "x"
    tab = lead.currentIndex()
    desk.press(K.Key_PageDown, CTRL)
    assert lead.currentIndex() == (tab + 1) % lead.count()
    desk.press(K.Key_1, Qt.KeyboardModifier.AltModifier)  # a review key: held
    assert window.on_lead_page() and window.review.queue is None
    assert window.tally.on_break is not None

    desk.press(K.Key_B)  # the break key ends it, from here too
    assert window.tally.on_break is None


def test_on_a_break_the_review_page_takes_only_the_breaks_keys(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url)
    window = desk.window
    row = window.queue_picker.currentIndex()
    on_break(desk)
    window.queue_picker.setFocus(Qt.FocusReason.MouseFocusReason)  # clicked before
    for key in (K.Key_End, K.Key_Home, K.Key_PageDown, K.Key_Space, K.Key_Return):
        desk.press(key)
    desk.qtbot.wait(200)
    assert window.queue_picker.currentIndex() == row, "the queue list moved on a break"
    assert window.review.queue is None, "a queue was taken up on a break"
    assert not window.queue_picker.view().isVisible()

    desk.press(K.Key_Tab)  # reaches the Resume button, and Space presses it
    assert focused() is window.break_screen.resume
    desk.press(K.Key_Space)
    assert window.tally.on_break is None
    desk.wait(lambda: window.review.queue is not None)


def test_work_offline_on_a_break_leases_nothing_and_says_to_resume(
    demo_server: LiveServer, desk_factory
) -> None:
    """Work offline's key is the menu's, so it works on a break: it leases no batch then
    (a break holds no posts) and says why, instead of asking for a queue."""
    desk: Desk = desk_factory(demo_server.url)
    window = desk.window
    on_break(desk)
    desk.wait(lambda: not window.store.ready_counts())  # the break gave the posts back
    desk.press(K.Key_O, CTRL)
    desk.qtbot.wait(300)
    assert "resume first" in window.message.text()
    assert not window.progress.isVisible()
    assert not window.store.ready_counts(), "posts were leased on a break"
