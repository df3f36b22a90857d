"""The blind audit desk takes the reviewers' pane keys (real service, the demo dataset):
T the post's text, C the context, D the verdict bar, F6 and Shift+F6 from pane to pane,
"]" and "[" its context tabs (they moved the focus to the post text and switched no tab);
W, with no worklist here, moves nothing. None of them decides anything."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QWidget

from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk
from tests.ui.test_lead_workspace import QUEUE, reviewer_decides

K = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def inside(pane: QWidget) -> bool:
    focus = focused()
    return focus is not None and (focus is pane or pane.isAncestorOf(focus))


def test_the_audit_desk_moves_between_its_panes_and_context_tabs_by_keys(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    reviewer_decides(demo_server, 2)
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    lead = window.lead
    assert lead is not None
    desk.press(K.Key_2, CTRL)
    audits = lead.audits
    lead.setCurrentWidget(audits)
    audits.sample_size.setValue(2)
    audits.queue_picker.setCurrentIndex(audits.queue_picker.findData(QUEUE))
    audits.create_sample()
    qtbot.waitUntil(lambda: audits.samples.rowCount() == 1, timeout=20_000)
    audits.start_selected()
    view = audits.desk
    qtbot.waitUntil(lambda: view.task is not None and not view.busy, timeout=20_000)
    assert lead.auditing
    task = view.task
    window.activateWindow()
    view.setFocus()
    qtbot.wait(100)  # past the doubled-key guard: nothing here may decide anyway

    desk.press(K.Key_T)
    assert focused() is view.post.text
    desk.press(K.Key_C)
    assert inside(view.context)
    desk.press(K.Key_D)
    assert inside(view.verdicts)
    desk.press(K.Key_F6)
    assert focused() is view.post.text  # round: no worklist on this desk
    desk.press(K.Key_F6)
    assert inside(view.context)
    desk.press(K.Key_F6, SHIFT)
    assert focused() is view.post.text
    desk.press(K.Key_F6, SHIFT)
    assert inside(view.verdicts)
    desk.press(K.Key_W)
    assert inside(view.verdicts)

    # the context tabs, each filled when it opens; the workspace stays on its Audits tab
    desk.press(K.Key_C)
    seen = []
    for _ in range(view.context.count()):
        desk.press(K.Key_BracketRight)
        index = view.context.currentIndex()
        title = view.context.TABS[index][0]
        assert view.context.boxes[title].toPlainText().strip(), title
        seen.append(index)
        assert lead.currentWidget() is audits
    assert sorted(seen) == list(range(view.context.count()))
    desk.press(K.Key_BracketLeft)
    assert view.context.currentIndex() == seen[-2]
    desk.press(K.Key_PageDown, CTRL)
    assert view.context.currentIndex() == seen[-1]
    assert lead.currentWidget() is audits and lead.auditing

    # none of it judged the post
    assert view.task is task and not view.busy
    assert window.on_lead_page()
