"""A reviewer at the keyboard: 50 decisions with the right actions and policies on the
server; undo inside the window leaves nothing on the server; offline and back."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import Qt

from reviewer_app.ui.plain import isolate
from tests.support.client import all_decisions
from tests.support.servers import LiveServer
from tests.ui.conftest import Desk

K = Qt.Key
CTRL = Qt.KeyboardModifier.ControlModifier


def decide_keep(desk: Desk) -> str:
    item_id = desk.current_id()
    assert item_id is not None
    desk.press(K.Key_1)
    desk.wait(lambda: desk.current_id() != item_id, 10_000)
    return item_id


def decide_remove_with_policy(desk: Desk) -> tuple[str, str]:
    """2 (Remove) asks for a policy inline; pick the second with the keyboard; Ctrl+Enter."""
    item_id = desk.current_id()
    assert item_id is not None
    desk.press(K.Key_2)
    bar = desk.window.verdicts
    assert desk.window.review.state == "input"
    assert bar.prompt.isVisible() and "policy" in bar.prompt.text()
    assert bar.policies.hasFocus()
    desk.press(K.Key_Down)
    desk.press(K.Key_Space)
    policy = bar.selected_policies()
    assert len(policy) == 1
    desk.press(K.Key_Return, CTRL)
    desk.wait(lambda: desk.current_id() != item_id, 10_000)
    return item_id, policy[0]


def test_keyboard_only_session_decides_50_items(demo_server: LiveServer, desk_factory) -> None:
    desk = desk_factory(demo_server.url, queue="hate-harassment")
    expected: dict[str, tuple[str, list[str]]] = {}
    for n in range(50):
        desk.qtbot.wait(60)  # past the doubled-key guard, as a person would be
        if n % 2:
            item_id, policy = decide_remove_with_policy(desk)
            expected[item_id] = ("remove", [policy])
        else:
            expected[decide_keep(desk)] = ("no-violation", [])
    desk.wait(lambda: desk.window.store.pending_count() == 0 and desk.window.pending == 0, 30_000)
    decisions = all_decisions(desk.lead(), "reviewer")
    got = {d.item_id: (d.action, d.policies) for d in decisions}
    assert got == expected
    assert desk.window.pending_label.text() == "0 pending"


def test_a_doubled_or_held_key_decides_once(demo_server: LiveServer, desk_factory) -> None:
    desk = desk_factory(demo_server.url, queue="spam-scams")
    desk.window.review.guard_seconds = 0.5
    first = desk.current_id()
    desk.press(K.Key_1)
    desk.press(K.Key_1)  # the same key again at once: the next post is not decided unseen
    assert len(desk.window.store.journal()) == 1
    second = desk.current_id()
    assert second not in (None, first)
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    desk.qtbot.wait(600)
    held = QKeyEvent(QKeyEvent.Type.KeyPress, K.Key_1, Qt.KeyboardModifier.NoModifier, "1", True)
    QApplication.sendEvent(desk.window, held)  # an auto-repeat of a held key
    assert desk.current_id() == second and len(desk.window.store.journal()) == 1


def test_undo_inside_the_window_leaves_nothing_on_the_server(
    demo_server: LiveServer, desk_factory
) -> None:
    desk = desk_factory(demo_server.url, undo=2.0, queue="spam-scams")
    first = decide_keep(desk)
    desk.press(K.Key_Z, CTRL)
    assert desk.current_id() == first, "the undone post is shown again"
    # the verdict's "Saved" waits for the next post's paint; the undo said later stands
    desk.qtbot.wait(250)
    stored = desk.window.store.stored_item(first)
    assert stored is not None
    by = f"the post by @{isolate(stored.item.author.handle)}"  # not the item's id
    assert desk.window.message.text() == f"Undone: {isolate('Not spam')} on {by}."
    assert desk.window.store.counts().pending == 0
    desk.qtbot.wait(2_500)
    assert all_decisions(desk.lead(), "reviewer") == []

    desk.qtbot.wait(60)
    again = decide_keep(desk)
    assert again == first
    desk.wait(lambda: desk.window.message.text().startswith("Saved:"))
    said = f"Saved: {isolate('Not spam')} on {by}. Ctrl+Z undoes it for a few seconds."
    assert desk.window.message.text() == said
    desk.qtbot.wait(2_300)
    desk.press(K.Key_Z, CTRL)  # too late: its undo window has passed
    assert "no verdict left to undo" in desk.window.message.text()
    desk.wait(lambda: len(all_decisions(desk.lead(), "reviewer")) == 1, 15_000)


def test_a_verdict_before_the_worklist_is_read_names_the_post_by_its_author(
    demo_server: LiveServer, desk_factory
) -> None:
    """A key pressed before the worklist's first read (its rows come after the first paint)
    said "Undone: Not spam on i-30f002793f4c" (seen on a busy machine)."""
    desk = desk_factory(demo_server.url, undo=2.0, queue="spam-scams")
    desk.wait(lambda: desk.current_id() is not None)
    desk.window.worklist.handles.clear()  # as before its first read
    first = desk.current_id()
    author = desk.window.review.current.item.author.handle
    desk.press(K.Key_1)
    assert f"@{isolate(author)}" in desk.window._saying, desk.window._saying
    desk.window.worklist.handles.clear()
    desk.press(K.Key_Z, CTRL)
    assert desk.current_id() == first
    desk.qtbot.wait(250)
    assert desk.window.message.text() == (
        f"Undone: {isolate('Not spam')} on the post by @{isolate(author)}."
    )


def test_offline_mid_session_then_back(demo_server: LiveServer, desk_factory) -> None:
    desk = desk_factory(demo_server.url, prefetch=30, queue="misinformation")
    desk.wait(lambda: desk.window.store.ready_counts().get("misinformation", 0) >= 25, 20_000)
    desk.wait(lambda: desk.window.online is True)
    demo_server.stop()
    decided = []
    for _ in range(20):
        desk.qtbot.wait(60)
        decided.append(decide_keep(desk))
    desk.wait(lambda: desk.window.online is False, 20_000)
    desk.wait(lambda: desk.window.pending == 20, 10_000)
    assert desk.window.net_label.text() == "● Offline"
    assert desk.window.pending_label.text() == "20 pending"

    back = LiveServer(demo_server.settings.database_url, port=demo_server.port).start()
    try:
        desk.window.session.engine.nudge()
        desk.wait(lambda: desk.window.pending == 0 and desk.window.online is True, 30_000)
        assert desk.window.pending_label.text() == "0 pending"
        per_item = Counter(d.item_id for d in all_decisions(desk.lead(), "reviewer"))
        assert set(per_item) == set(decided) and set(per_item.values()) == {1}
    finally:
        back.stop()
