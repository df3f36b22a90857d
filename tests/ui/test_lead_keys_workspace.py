"""The Lead workspace's keys against the real service (the demo dataset): Alt+Down and
Alt+Up open a drop-down's list there (they switched the queue, claimed its posts and left
the workspace), the workspace's tab keys work on a break, and a tab switched by keys shows
its focused control's focus frame (the charts, with no keys of their own, are no Tab
stops)."""

from __future__ import annotations

from PySide6.QtCharts import QChartView
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QComboBox, QStyle, QStyleOption, QWidget

from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk

K = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier
ALT = Qt.KeyboardModifier.AltModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def open_lead(desk: Desk) -> None:
    """Ctrl+2: the Lead workspace, by its key."""
    desk.press(K.Key_2, CTRL)
    assert desk.window.on_lead_page()


def alt_opens_the_list(desk: Desk, combo: QComboBox, key: Qt.Key) -> None:
    """``key`` with Alt on ``combo`` (with the focus) opens its list, and nothing else."""
    combo.hidePopup()
    window = desk.window
    combo.setFocus(Qt.FocusReason.TabFocusReason)
    assert combo.hasFocus()
    page = window.modes.currentIndex()
    queue = window.review.queue.id if window.review.queue else None
    desk.press(key, ALT)
    try:
        desk.wait(combo.view().isVisible, 5_000)
        assert window.modes.currentIndex() == page, "the key left the page"
        assert (window.review.queue.id if window.review.queue else None) == queue
    finally:
        combo.hidePopup()


def alt_up_is_the_combos(desk: Desk, combo: QComboBox) -> None:
    """Alt+Up on ``combo`` is its own key (Qt's combo box: the choice above), nothing
    else."""
    window = desk.window
    combo.setCurrentIndex(combo.count() - 1)
    combo.setFocus(Qt.FocusReason.TabFocusReason)
    page = window.modes.currentIndex()
    queue = window.review.queue.id if window.review.queue else None
    desk.press(K.Key_Up, ALT)
    assert combo.currentIndex() == combo.count() - 2
    assert window.modes.currentIndex() == page, "the key left the page"
    assert (window.review.queue.id if window.review.queue else None) == queue


def test_alt_down_opens_a_drop_down_and_never_switches_the_queue(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    lead = window.lead
    assert lead is not None
    open_lead(desk)
    lead.setCurrentWidget(lead.queues_view)
    held = len(window.store.worklist())
    window_combo = lead.queues_view.findChild(QComboBox, "timeWindow")
    assert window_combo is not None
    alt_opens_the_list(desk, window_combo, K.Key_Down)
    alt_up_is_the_combos(desk, window_combo)
    lead.setCurrentWidget(lead.decisions)
    queue_filter = lead.decisions.findChild(QComboBox, "queueFilter")
    assert queue_filter is not None
    alt_opens_the_list(desk, queue_filter, K.Key_Down)
    assert window.on_lead_page()
    # nothing else on the lead page switches the queue with them either (the Review page's)
    lead.decisions.table.setFocus(Qt.FocusReason.TabFocusReason)
    queue = window.review.queue.id if window.review.queue else None
    for key in (K.Key_Down, K.Key_Up):
        desk.press(key, ALT)
        assert window.on_lead_page()
        assert (window.review.queue.id if window.review.queue else None) == queue
    assert len(window.store.worklist()) == held, "posts were claimed"
    # on the Review page too: the queue list opens, the queue stays until one is chosen
    desk.press(K.Key_1, CTRL)
    assert not window.on_lead_page()
    alt_opens_the_list(desk, window.queue_picker, K.Key_Down)
    # and elsewhere there Alt+Down is still the next queue
    window.setFocus(Qt.FocusReason.OtherFocusReason)
    here = window.review.queue.id
    desk.press(K.Key_Down, ALT)
    assert window.review.queue.id != here


def test_the_workspace_tab_keys_work_on_a_break(demo_server: LiveServer, desk_factory) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    lead = window.lead
    assert lead is not None
    window.setFocus(Qt.FocusReason.OtherFocusReason)
    desk.press(K.Key_B)
    desk.wait(lambda: window.tally.on_break is not None)
    open_lead(desk)
    start = lead.currentIndex()
    desk.press(K.Key_BracketRight)
    assert lead.currentIndex() == (start + 1) % lead.count()
    desk.press(K.Key_PageDown, CTRL)
    assert lead.currentIndex() == (start + 2) % lead.count()
    desk.press(K.Key_BracketLeft)
    desk.press(K.Key_PageUp, CTRL)
    assert lead.currentIndex() == start
    # the review keys stay held: no queue is reviewed on a break
    desk.press(K.Key_1, ALT)
    assert window.on_lead_page() and window.tally.on_break is not None
    # and the break key still ends it
    desk.press(K.Key_B)
    assert window.tally.on_break is None


def shows_focus_frame(widget: QWidget | None) -> bool:
    """Whether the style paints ``widget``'s focus frame: it has the focus, and a key moved
    the focus in its window (Qt's own test, ``QStyleOption.initFrom``)."""
    if widget is None:
        return False
    option = QStyleOption()
    option.initFrom(widget)
    state = option.state
    return bool(state & QStyle.StateFlag.State_HasFocus) and bool(
        state & QStyle.StateFlag.State_KeyboardFocusChange
    )


def test_a_tab_switched_by_keys_shows_the_focus_frame(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    lead = window.lead
    assert lead is not None
    open_lead(desk)
    for key, mods in (
        (K.Key_BracketRight, Qt.KeyboardModifier.NoModifier),
        (K.Key_PageDown, CTRL),
        (K.Key_BracketLeft, Qt.KeyboardModifier.NoModifier),
        (K.Key_PageUp, CTRL),
    ):
        before = lead.currentIndex()
        desk.press(key, mods)
        assert lead.currentIndex() != before
        page = lead.currentWidget()
        focus = focused()
        assert page is not None and focus is not None and page.isAncestorOf(focus), focus
        assert shows_focus_frame(focus), f"no focus frame on {focus!r} after {key!r}"


def test_the_charts_are_no_tab_stops(demo_server: LiveServer, desk_factory) -> None:
    """The charts do nothing with keys (the queue health table has their figures): Tab
    passes them by, where they showed no focus frame."""
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    lead = window.lead
    assert lead is not None
    open_lead(desk)
    lead.setCurrentWidget(lead.queues_view)
    lead.focus_page()
    charts = lead.queues_view.findChildren(QChartView)
    assert len(charts) == 2
    for chart in charts:
        assert not chart.focusPolicy() & Qt.FocusPolicy.TabFocus, chart.objectName()
    seen: list[QWidget | None] = []
    for _ in range(30):
        desk.press(K.Key_Tab)
        seen.append(focused())
    assert not any(isinstance(w, QChartView) for w in seen), seen
    assert any(shows_focus_frame(w) for w in seen)
