"""The keyboard everywhere (issue 19): a lead's shift without one mouse event (review,
switch queues, move between panes, open every context tab, reach the Lead workspace's
Decisions and open one), and the Shortcuts page of the settings: a new key works at once
and after a restart, a key another command holds is refused with that command named, and
a queue's action takes another key in that queue only. Real service, keys only."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractItemView, QApplication, QLabel, QTableView, QWidget

from reviewer_app.ui.app import close_session
from reviewer_app.ui.dialogs import SettingsDialog, ShortcutsDialog
from reviewer_app.ui.keys import SPECS, Command, what
from reviewer_app.ui.plain import isolate
from reviewer_app.ui.shortcuts_page import ShortcutsPage
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk, open_desk

K = Qt.Key
NO = Qt.KeyboardModifier.NoModifier
CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier
MOUSE = {
    QEvent.Type.MouseButtonPress,
    QEvent.Type.MouseButtonRelease,
    QEvent.Type.MouseButtonDblClick,
}
HATE = "hate-harassment"
MISINFO = "misinformation"


class MouseWatch(QObject):
    """Counts every mouse button event the application sees."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[QEvent.Type] = []

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() in MOUSE:
            self.seen.append(event.type())
        return False


@pytest.fixture
def no_mouse(qapp: QApplication) -> Iterator[MouseWatch]:
    watch = MouseWatch()
    qapp.installEventFilter(watch)
    try:
        yield watch
    finally:
        qapp.removeEventFilter(watch)
    assert watch.seen == [], "a mouse event was sent"


@pytest.fixture
def desks(qtbot, tmp_path: Path) -> Iterator[Callable[..., Desk]]:
    """Open desks (``root`` picks the data folder, so a second desk is a restart)."""
    opened: list[Desk] = []

    def make(url: str, root: str = "client", **kw: object) -> Desk:
        desk = open_desk(qtbot, url, tmp_path / root, **kw)  # type: ignore[arg-type]
        opened.append(desk)
        return desk

    yield make
    for desk in opened:
        if desk.window.is_open:
            close_session(desk.window)
            desk.window.close()


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def tab_until(desk: Desk, reached: Callable[[], bool], limit: int = 40) -> None:
    for _ in range(limit):
        if reached():
            return
        desk.press(K.Key_Tab)
    assert reached(), f"Tab never reached it (focus on {focused()!r})"


def in_settings(desk: Desk, drive: Callable[[SettingsDialog, ShortcutsPage], None]) -> None:
    """Ctrl+, opens the settings (modal); ``drive`` works its Shortcuts page by keys while
    it is open; Esc closes it."""
    problems: list[BaseException] = []

    def work() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, SettingsDialog):
            QTimer.singleShot(20, work)
            return
        try:
            desk.qtbot.waitUntil(lambda: focused() is not None and dialog.isAncestorOf(focused()))
            QTest.keyClick(focused(), K.Key_Tab, CTRL)  # the next page: Shortcuts
            page = dialog.shortcuts
            assert page is not None and dialog.pages.currentWidget() is page
            desk.qtbot.waitUntil(lambda: page.table.hasFocus())
            drive(dialog, page)
            QTest.keyClick(focused(), K.Key_Escape)  # changes are kept already
        except BaseException as err:  # reported once the dialog is closed
            problems.append(err)
        finally:
            if dialog.isVisible():
                dialog.reject()

    QTimer.singleShot(0, work)
    desk.press(K.Key_Comma, CTRL)
    if problems:
        raise problems[0]
    desk.wait(desk.window.isActiveWindow, 5_000)


def shortcut_list(desk: Desk) -> str:
    """? opens the shortcuts list (modal); its text, then Esc closes it."""
    texts: list[str] = []

    def work() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, ShortcutsDialog):
            QTimer.singleShot(20, work)
            return
        texts.extend(label.text() for label in dialog.findChildren(QLabel))
        QTest.keyClick(dialog, K.Key_Escape)
        if dialog.isVisible():
            dialog.reject()

    QTimer.singleShot(0, work)
    desk.press(K.Key_Question, SHIFT)
    desk.wait(desk.window.isActiveWindow, 5_000)
    return "\n".join(texts)


def choose_row(page: ShortcutsPage, row: tuple[str, ...]) -> None:
    """Down (from the top) until ``row`` is the current one."""
    QTest.keyClick(page.table, K.Key_Home, CTRL)
    for _ in range(len(page.rows)):
        if page.current_row() == row:
            return
        QTest.keyClick(page.table, K.Key_Down)
    assert page.current_row() == row


def give_key(page: ShortcutsPage, row: tuple[str, ...], key: Qt.Key, mods=NO) -> None:
    """Choose ``row``, Enter, press the new key."""
    choose_row(page, row)
    QTest.keyClick(page.table, K.Key_Return)
    assert page.edit.hasFocus(), "Enter waits for the new key"
    QTest.keyClick(page.edit, key, mods)


def test_a_leads_shift_without_the_mouse(
    demo_server: LiveServer, desks, no_mouse: MouseWatch
) -> None:
    desk = desks(demo_server.url, user=LEAD, queue=HATE)
    window = desk.window

    # a verdict: 1 is "No violation" in this queue
    first = desk.current_id()
    desk.qtbot.wait(60)
    desk.press(K.Key_1)
    desk.wait(lambda: desk.current_id() not in (None, first))
    assert window.store.worklist(HATE)[0].state == "decided"

    # the panes: W the worklist (arrows open the post chosen), F6 onwards
    desk.wait(lambda: window.worklist.rowCount() >= 3)
    desk.press(K.Key_W)
    assert window.worklist_view.hasFocus()
    on_screen = desk.current_id()
    row = window.worklist.row_of(on_screen)
    desk.press(K.Key_Down)
    chosen = window.worklist.rows[row + 1].item_id
    assert desk.current_id() == chosen != on_screen
    assert window.worklist_view.hasFocus()  # choosing stays in the list
    desk.press(K.Key_F6)
    assert focused() is window.post.text
    desk.press(K.Key_F6)
    assert window.context.isAncestorOf(focused())
    desk.press(K.Key_F6)
    assert window.verdicts.isAncestorOf(focused())
    desk.press(K.Key_F6, SHIFT)
    assert window.context.isAncestorOf(focused())
    for key, pane in ((K.Key_T, window.post.text), (K.Key_W, window.worklist_view)):
        desk.press(key)
        assert focused() is pane

    # every context tab, each filled when it opens
    seen = []
    for _ in range(window.context.count()):
        desk.press(K.Key_BracketRight)
        index = window.context.currentIndex()
        title = window.context.TABS[index][0]
        assert window.context.boxes[title].toPlainText().strip(), title
        seen.append(index)
    assert sorted(seen) == list(range(window.context.count()))
    desk.press(K.Key_BracketLeft)
    assert window.context.currentIndex() == seen[-2]

    # switching queues: Alt+Down, Alt+Up, Alt+n
    here = window.review.queue.id
    desk.press(K.Key_Down, ALT)
    assert window.review.queue.id != here
    desk.press(K.Key_Up, ALT)
    assert window.review.queue.id == here
    row = window.queues.row_of(MISINFO)
    desk.press(getattr(K, f"Key_{row + 1}"), ALT)
    assert window.review.queue.id == MISINFO

    # the Lead workspace: Ctrl+2, its tabs by keys, Tab to the decisions, Enter opens one
    desk.press(K.Key_2, CTRL)
    lead = window.lead
    assert lead is not None and window.modes.currentWidget() is lead
    assert lead.isAncestorOf(focused())
    for _ in range(lead.count()):
        if lead.currentWidget() is lead.decisions:
            break
        desk.press(K.Key_PageDown, CTRL)
    decisions = lead.decisions
    assert lead.currentWidget() is decisions
    assert decisions.isAncestorOf(focused())
    desk.wait(lambda: decisions.model.rowCount() > 1)
    tab_until(desk, decisions.table.hasFocus)
    desk.press(K.Key_Down)
    row = decisions.table.currentIndex().row()
    wanted = decisions.model.item_id(row)
    with desk.qtbot.waitSignal(decisions.history_shown, timeout=20_000) as shown:
        desk.press(K.Key_Return)
    assert shown.args == [wanted]
    assert decisions.history.hasFocus(), focused()
    desk.wait(lambda: wanted in decisions.history_title.text())
    # Tab leaves a table (its arrows move in it): Tab from the list went from cell to cell
    # and never reached the buttons after it
    decisions.table.setFocus()
    desk.press(K.Key_Tab)
    assert not decisions.table.hasFocus(), "Tab stayed in the table"
    trapping = [
        t.objectName()
        for t in window.findChildren(QAbstractItemView)
        if isinstance(t, QTableView) and t.tabKeyNavigation()
    ]
    assert not trapping, trapping
    # and back to reviewing
    desk.press(K.Key_1, CTRL)
    assert window.modes.currentIndex() == 0


def test_a_new_key_works_at_once_and_after_a_restart(
    demo_server: LiveServer, desks, tmp_path: Path
) -> None:
    desk = desks(demo_server.url, queue=HATE)

    def drive(_dialog: SettingsDialog, page: ShortcutsPage) -> None:
        # every key read whole (a fixed 180 px column cut "Ctrl+Return / …")
        table, keys = page.table, page.table.horizontalHeader().sectionSize(1)
        widest = max(
            table.fontMetrics().horizontalAdvance(table.item(r, 1).text())
            for r in range(table.rowCount())
        )
        assert widest <= keys, (widest, keys)
        give_key(page, ("command", Command.SKIP.value), K.Key_J)
        assert "J is now the key of" in page.status.text()
        assert page.table.hasFocus()
        assert "J" in page.table.item(page.table.currentRow(), 1).text()

    in_settings(desk, drive)
    window = desk.window
    assert [k.toString() for k in window.keymap.keys(Command.SKIP)] == ["J"]
    first = desk.current_id()
    desk.qtbot.wait(60)
    desk.press(K.Key_S)  # the old key does nothing now
    desk.qtbot.wait(100)
    assert desk.current_id() == first
    desk.press(K.Key_J)
    desk.wait(lambda: desk.current_id() != first)
    assert next(r for r in window.store.worklist(HATE) if r.item_id == first).state == "skipped"
    assert window.message.text().startswith("Skipped:"), "the skip is told, not silent"
    close_session(window)
    window.close()

    # a restart: a new window reads the same preferences file (the store is new: its key
    # lived in this test's memory keyring)
    (tmp_path / "again").mkdir()
    shutil.copy(tmp_path / "client" / "ui.ini", tmp_path / "again" / "ui.ini")
    again = desks(demo_server.url, root="again", queue=HATE)
    assert [k.toString() for k in again.window.keymap.keys(Command.SKIP)] == ["J"]
    shown = again.current_id()
    again.qtbot.wait(60)
    again.press(K.Key_J)
    again.wait(lambda: again.current_id() != shown)

    def reset(_dialog: SettingsDialog, page: ShortcutsPage) -> None:
        choose_row(page, ("command", Command.SKIP.value))
        tab_until(again, page.reset_all_button.hasFocus)
        QTest.keyClick(page.reset_all_button, K.Key_Space)
        assert "back to its default" in page.status.text()

    in_settings(again, reset)
    assert [k.toString() for k in again.window.keymap.keys(Command.SKIP)] == ["S"]


def test_a_key_another_command_holds_is_refused_naming_it(demo_server: LiveServer, desks) -> None:
    desk = desks(demo_server.url, queue=HATE)
    said: list[str] = []

    def drive(_dialog: SettingsDialog, page: ShortcutsPage) -> None:
        give_key(page, ("command", Command.SKIP.value), K.Key_E)
        said.append(page.status.text())
        give_key(page, ("command", Command.SKIP.value), K.Key_2)
        said.append(page.status.text())
        give_key(page, ("action", HATE, "no-violation"), K.Key_F6)
        said.append(page.status.text())

    in_settings(desk, drive)
    escalate = what(SPECS[Command.ESCALATE])
    assert f"E is already the key of “{escalate}”" in said[0]
    assert "Nothing was changed" in said[0]
    holder = next(
        (q, a) for q in desk.window.queues.queues for a in q.config.actions if a.key == "2"
    )
    assert (
        f"action “{isolate(holder[1].label)}” in the queue {isolate(holder[0].name)}" in (said[1])
    )
    assert what(SPECS[Command.NEXT_PANE]) in said[2]
    keymap = desk.window.keymap
    assert [k.toString() for k in keymap.keys(Command.SKIP)] == ["S"]
    queue = desk.window.review.queue
    assert keymap.action_keys(queue)["no-violation"] == "1"


def test_a_queues_action_takes_another_key_in_that_queue_only(
    demo_server: LiveServer, desks
) -> None:
    desk = desks(demo_server.url, queue=HATE)
    window = desk.window

    def drive(_dialog: SettingsDialog, page: ShortcutsPage) -> None:
        give_key(page, ("action", HATE, "no-violation"), K.Key_J)
        assert "J is now the key of" in page.status.text()

    in_settings(desk, drive)
    button = window.verdicts.buttons["no-violation"]
    assert button.text().startswith("J ")
    listed = shortcut_list(desk).splitlines()  # the list says the key in force
    assert "J" in listed and listed[listed.index("J") + 1] == "Decide: \u2068No violation\u2069"
    assert "1" not in listed
    first = desk.current_id()
    desk.qtbot.wait(60)
    desk.press(K.Key_1)  # its old key: nothing in this queue now
    desk.qtbot.wait(100)
    assert desk.current_id() == first and window.review.state == "reviewing"
    desk.press(K.Key_J)
    desk.wait(lambda: desk.current_id() != first)
    decided = next(r for r in window.store.worklist(HATE) if r.item_id == first)
    assert decided.state == "decided" and decided.action == "no-violation"

    # another queue keeps the queue's own keys: 1 is its "No violation", J nothing
    desk.press(getattr(K, f"Key_{window.queues.row_of(MISINFO) + 1}"), ALT)
    desk.wait(lambda: window.review.queue.id == MISINFO and desk.current_id() is not None)
    assert window.verdicts.buttons["no-violation"].text().startswith("1 ")
    shown = desk.current_id()
    desk.qtbot.wait(60)
    desk.press(K.Key_J)
    desk.qtbot.wait(100)
    assert desk.current_id() == shown and window.review.state == "reviewing"
    desk.press(K.Key_1)
    desk.wait(lambda: desk.current_id() != shown)
    decided = next(r for r in window.store.worklist(MISINFO) if r.item_id == shown)
    assert decided.state == "decided" and decided.action == "no-violation"


def test_keys_reach_the_window_from_whichever_widget_has_the_focus(
    demo_server: LiveServer, desks
) -> None:
    """The window's key filter watches the window and the widget with the focus (it follows
    the focus, moved by a key or by the program), not every event of the application;
    detached (the window closing), the keys are the widgets' own again."""
    desk = desks(demo_server.url)
    window = desk.window
    window.worklist_view.setFocus()  # a widget that takes the focus after the window opened
    desk.wait(lambda: QApplication.focusWidget() is window.worklist_view)
    desk.press(K.Key_T)
    desk.wait(lambda: QApplication.focusWidget() is window.post.text)
    tabs = window.context
    first = tabs.currentIndex()
    desk.press(K.Key_BracketRight)
    assert tabs.currentIndex() == (first + 1) % tabs.count()
    window.key_filter.detach()
    try:
        desk.press(K.Key_BracketRight)
        assert tabs.currentIndex() == (first + 1) % tabs.count()
    finally:
        window.key_filter.attach()
    desk.press(K.Key_BracketRight)
    assert tabs.currentIndex() == (first + 2) % tabs.count()


def test_a_number_box_with_the_focus_lets_the_tab_keys_through(
    demo_server: LiveServer, desks
) -> None:
    """A number box takes digits, signs and separators; "]" and "[" still move between the
    tabs (the Audits tab's draw count took them, and the tab keys stopped working)."""
    desk = desks(demo_server.url, user=LEAD)
    window = desk.window
    desk.press(K.Key_2, CTRL)
    lead = window.lead
    assert lead is not None
    lead.setCurrentWidget(lead.audits)
    lead.audits.sample_size.setFocus()
    desk.wait(lambda: focused() is not None and lead.audits.isAncestorOf(focused()))
    at = lead.currentIndex()
    desk.press(K.Key_5)  # a digit is the box's
    assert lead.currentIndex() == at and "5" in lead.audits.sample_size.text()
    desk.press(K.Key_BracketRight)
    assert lead.currentIndex() == (at + 1) % lead.count()
