"""The next post is prepared while the reviewer reads (``ReviewPane._prepare_next``): the
keypress uses that work only for the very post it then shows. When the worklist changed
between the preparation and the key, the prepared post is dropped and the right one shown."""

from __future__ import annotations

from PySide6.QtCore import Qt

from reviewer_app.ui.longtext import QtText
from reviewer_app.ui.post_pane import DISPLAY_LIMIT
from tests.support.servers import LiveServer
from tests.ui.conftest import Desk

K = Qt.Key


def prepared_id(desk: Desk) -> str | None:
    prepared = desk.window.pane._prepared
    return prepared.item.id if prepared is not None else None


def shown_text(desk: Desk) -> str:
    """The post's text as the box holds it once it is all in."""
    box = desk.window.pane.post.text
    desk.wait(lambda: not box.filling, 10_000)
    return box.toPlainText()


def expected_text(desk: Desk) -> str:
    current = desk.window.review.current
    assert current is not None
    return QtText(current.item.post.text[:DISPLAY_LIMIT]).text


def test_the_prepared_post_is_the_one_a_key_shows(demo_server: LiveServer, desk_factory) -> None:
    desk = desk_factory(demo_server.url, queue="spam-scams")
    desk.window.show()
    desk.wait(lambda: prepared_id(desk) is not None, 10_000)
    upcoming = prepared_id(desk)
    first = desk.current_id()
    assert upcoming != first
    desk.qtbot.wait(60)  # past the doubled-key guard
    desk.press(K.Key_1)
    assert desk.current_id() == upcoming
    assert desk.window.pane._prepared is None  # used up
    assert shown_text(desk) == expected_text(desk)


def test_a_prepared_post_no_longer_next_is_dropped(demo_server: LiveServer, desk_factory) -> None:
    desk = desk_factory(demo_server.url, queue="spam-scams")
    desk.window.show()
    desk.wait(lambda: prepared_id(desk) is not None, 10_000)
    stale = prepared_id(desk)
    current = desk.current_id()
    assert stale is not None and current is not None
    store = desk.window.store
    store.skip(stale)  # the worklist changes after the preparation, before the key
    queue = desk.window.review.queue
    assert queue is not None
    truth = store.next_after(queue.id, current)
    assert truth is not None and truth.item.id != stale
    desk.qtbot.wait(60)
    desk.press(K.Key_1)
    assert desk.current_id() == truth.item.id
    assert shown_text(desk) == expected_text(desk)
    # and the pane prepares afresh for the post now on screen
    desk.wait(lambda: prepared_id(desk) not in (None, stale), 10_000)


def test_describing_a_refill_in_the_worklist_keeps_the_prepared_post(
    demo_server: LiveServer, desk_factory
) -> None:
    """The worklist describes each item it lists by its author and first words without
    parsing it into the store's few kept items: describing a refill of ten used to push
    out the next post parsed (and prepared) while the one before was read, so its key made
    it again. Every key here, across refills, shows the very item prepared for it."""
    desk = desk_factory(demo_server.url, queue="spam-scams")
    desk.window.show()
    pane, store = desk.window.pane, desk.window.store
    used: list[bool] = []
    show = pane.post.show_item

    def recording(item, load_media, prepared=None):  # type: ignore[no-untyped-def]
        used.append(prepared is not None and prepared.item is item)
        show(item, load_media, prepared)

    pane.post.show_item = recording  # type: ignore[method-assign]
    listed = desk.window.worklist.labels
    for _ in range(14):
        desk.wait(lambda: prepared_id(desk) is not None, 10_000)
        queue = desk.window.review.queue
        assert queue is not None
        # the worklist has described every item held, refills included
        desk.wait(lambda q=queue: all(r.item_id in listed for r in store.worklist(q.id)))
        desk.qtbot.wait(60)  # past the doubled-key guard
        desk.press(K.Key_1)
        assert desk.current_id() is not None
    assert len(used) == 14 and all(used), used


def test_a_worklist_repaint_due_at_a_key_waits_for_the_next_post(
    demo_server: LiveServer, desk_factory
) -> None:
    """The lease countdown repaints the worklist's rows once a second (2-4 ms: every cell
    through Python). A key pressed while that repaint is due used to paint it in the same
    frame as the next post; now the list keeps what is on screen until the post is painted,
    then is repainted with the rows as they are."""
    desk = desk_factory(demo_server.url, queue="spam-scams")
    desk.window.show()
    window = desk.window
    view, model = window.worklist_view, window.worklist
    desk.wait(lambda: prepared_id(desk) is not None, 10_000)
    desk.wait(lambda: model.rowCount() > 0 and not view.paint_due)
    events: list[str] = []
    window.post.text.first_painted.connect(lambda: events.append("post"))
    data = model.data

    def painting(index, role=Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
        if role == Qt.ItemDataRole.DisplayRole:
            events.append("list")
        return data(index, role)

    model.data = painting  # type: ignore[method-assign]
    for _ in range(3):
        desk.qtbot.wait(60)  # past the doubled-key guard
        events.clear()
        model.tick()  # the countdown's second, just before the key
        assert view.paint_due
        desk.press(K.Key_1)
        desk.wait(lambda: "post" in events)
        desk.wait(lambda: not view.held and not view.paint_due)
        assert "list" in events, events  # repainted once released
        assert events.index("post") < events.index("list"), events
    queue = window.review.queue
    assert queue is not None
    desk.wait(
        lambda: (
            [r.item_id for r in model.rows] == [r.item_id for r in window.store.worklist(queue.id)]
        )
    )
