"""Places the keyboard was lost or did the wrong thing (a probe of keyboard-only use):

- after the escalation picker closed, no key reached the window until it was clicked;
- Ctrl+Z in the note undid the last verdict, not the typing, and wiped the note;
- "]" or "?" typed into the lead's assignee box changed tabs or opened the key list;
- Enter in the Conflicts list accepted the other decision without a word;
- Enter at "Verdicts not sent yet" quit, losing them in a session kept in memory;
- the break reminder's and the feedback strip's buttons were out of Tab's reach;
- Tab on the lead's escalations page jumped to the page's foot and back.
Real service, keys only."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QMessageBox, QPushButton, QWidget

from reviewer_app.ui.dialogs import ConflictsView
from reviewer_app.ui.lead.escalations import EscalationsView
from reviewer_app.ui.my_decisions import FeedbackBar
from reviewer_app.ui.wellbeing import BreakReminder
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk

K = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
QUEUE = "misinformation"


def test_the_keys_work_after_the_escalation_picker_closes(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(demo_server.url, queue=QUEUE)
    desk.wait(lambda: desk.current_id() is not None)
    window = desk.window
    desk.press(K.Key_E)
    desk.wait(lambda: window.escalation_dialog is not None)
    QTest.keyClick(window.escalation_dialog, K.Key_Escape)
    desk.wait(lambda: window.escalation_dialog is None)
    assert window.isActiveWindow(), "the window has the keys again"
    desk.press(K.Key_N)
    note = window.verdicts.note
    assert note.hasFocus()


def test_ctrl_z_in_the_note_takes_back_the_typing_before_the_verdict(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(demo_server.url, queue=QUEUE, undo=30.0)
    desk.wait(lambda: desk.current_id() is not None)
    decided = desk.current_id()
    desk.press(K.Key_1)
    desk.wait(lambda: desk.current_id() not in (None, decided))
    shown = desk.current_id()
    desk.press(K.Key_N)
    note = desk.window.verdicts.note
    QTest.keyClicks(note, "abc")
    assert note.toPlainText() == "abc"
    QTest.keyClick(note, K.Key_Z, CTRL)
    assert note.toPlainText() != "abc" and desk.current_id() == shown, "the typing, not the verdict"
    while note.document().isUndoAvailable():
        QTest.keyClick(note, K.Key_Z, CTRL)
    QTest.keyClick(note, K.Key_Z, CTRL)  # nothing typed is left: the verdict
    desk.wait(lambda: desk.current_id() == decided)


def test_typing_in_the_assignee_box_types(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    desk.press(K.Key_2, CTRL)
    lead = window.lead
    assert lead is not None
    lead.setCurrentWidget(lead.escalations)
    picker = lead.escalations.lead_picker
    picker.setFocus()
    desk.wait(picker.hasFocus)
    QTest.keyClicks(picker, "a]b?c")
    assert picker.currentText() == "a]b?c"
    assert lead.currentWidget() is lead.escalations
    assert not any(
        w.isVisible() and w.objectName() == "shortcuts" for w in QApplication.topLevelWidgets()
    )


def test_nothing_that_cannot_be_taken_back_is_enters(
    demo_server: LiveServer, desk_factory: Callable[..., Desk], qtbot
) -> None:
    desk = desk_factory(demo_server.url, queue=QUEUE)
    desk.wait(lambda: desk.current_id() is not None)
    window = desk.window
    conflicts = ConflictsView(window.store, window)
    qtbot.addWidget(conflicts)
    for button in (conflicts.accept_button, conflicts.escalate_button):
        assert not button.isDefault() and not button.autoDefault(), button.text()


def test_enter_at_verdicts_not_sent_keeps_the_window(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(demo_server.url, queue=QUEUE, undo=60.0)  # the verdict is held
    desk.wait(lambda: desk.current_id() is not None)
    window = desk.window
    desk.press(K.Key_1)
    desk.wait(lambda: window.pending > 0)
    window.online = False
    asked: list[QMessageBox] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        asked.append(box)
        QTest.keyClick(box, K.Key_Return)

    QTimer.singleShot(20, answer)
    window.close()
    assert asked, "it asked"
    assert window.isVisible(), "Enter did not quit"
    window.online = True  # the fixture closes it without asking


def test_quitting_online_asks_when_held_verdicts_would_be_lost_from_memory(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    """Online, a verdict held for another reviewer's lease is not sent on the way out:
    with a store kept in memory only (no keyring) it would be lost, so quitting asks; with
    a store on disk it is sent at the next start, so quitting does not."""
    desk = desk_factory(demo_server.url, queue=QUEUE, undo=60.0)
    desk.wait(lambda: desk.current_id() is not None)
    window = desk.window
    desk.press(K.Key_1)
    desk.wait(lambda: window.pending > 0)
    window.online, window.pending, window.held = True, 3, 1
    asked: list[str] = []

    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        asked.append(box.text())
        box.reject()

    window.session.memory_only = True  # as a login the keyring did not keep
    QTimer.singleShot(20, answer)
    window.close()
    # the one held is at risk, not the ones the exit sends
    assert asked and asked[0].startswith("Not sent yet: 1 verdict waiting while another")
    assert window.isVisible(), "it quit without asking"
    window.session.memory_only = False
    window.close()
    assert len(asked) == 1 and not window.isVisible(), "a store on disk keeps it: no question"


def test_the_reminders_buttons_are_in_tabs_reach(qtbot) -> None:
    reminder = BreakReminder(lambda: "B")
    notice = FeedbackBar()
    for widget in (reminder, notice):
        qtbot.addWidget(widget)
        buttons = widget.findChildren(QPushButton)
        assert buttons and all(b.focusPolicy() & Qt.FocusPolicy.TabFocus for b in buttons)


def test_a_read_only_text_box_shows_it_has_the_focus(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    """The post text and the context tabs' boxes have no cursor, and their frames looked
    the same with and without the focus: a keyboard user could not tell where they were."""
    desk = desk_factory(demo_server.url, queue=QUEUE)
    desk.wait(lambda: desk.current_id() is not None)
    window = desk.window
    boxes = [window.post.text, window.context.boxes["Why queued"]]
    for box in boxes:
        before, room = box.grab().toImage(), box.contentsRect()
        box.setFocus()
        desk.wait(box.hasFocus)
        assert box.grab().toImage() != before, f"{box.objectName()}: the focus shows"
        assert box.contentsRect() == room, "the text keeps its room (not laid out again)"
        window.worklist_view.setFocus()
        desk.wait(lambda b=box: not b.hasFocus())
        assert box.grab().toImage() == before, f"{box.objectName()}: as it was"


def test_tab_on_the_escalations_page_follows_its_layout(qtbot) -> None:
    """Tab went from the table to "Review escalations now" at the page's foot, then back
    up to the row of buttons under the table."""
    view = EscalationsView(lambda: pytest.fail("no request: the page is never shown"))
    qtbot.addWidget(view)
    expected = [
        view.table,
        view.pick_button,
        view.mine_button,
        view.lead_picker,
        view.assign_button,
        view.unassign_button,
        view.refresh_button,
        view.review_button,
    ]
    order: list[QWidget] = []
    widget = view.table
    while widget not in order:
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.focusProxy() is None:
            owner = widget.parentWidget() if isinstance(widget.parentWidget(), QComboBox) else None
            order.append(owner or widget)
        widget = widget.nextInFocusChain()
    assert [w for w in order if w in expected] == expected
