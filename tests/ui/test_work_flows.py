"""Work that flows, in the real window on the demo service: Alt+N switches queues; leaving
a queue gives back what was leased ahead there (the post on screen stays, and is there on
coming back); the queue picker's counts follow each claim and release at once (the periodic
refresh is turned off here); an empty queue says so and names the queues with posts
waiting and their keys; a lead in the escalations queue holds one item."""

from __future__ import annotations

from PySide6.QtCore import Qt

from reviewer_app.core.api import ApiClient
from reviewer_app.ui.plain import isolate
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import LEAD, Desk

ALT = Qt.KeyboardModifier.AltModifier
#: no periodic refresh of the queue list: what changes, changes because of the event
NO_REFRESH = {"queue_refresh_seconds": 600.0}


def _picker_line(desk: Desk, queue_id: str) -> str:
    model = desk.window.queues
    return str(model.data(model.index(model.row_of(queue_id), 0)))


def _digit(row: int) -> Qt.Key:
    return getattr(Qt.Key, f"Key_{row + 1}")


def test_switching_queues_gives_back_the_prefetch_and_an_empty_queue_says_where_work_is(
    demo_server: LiveServer, desk_factory
) -> None:
    # another reviewer holds every inauthentic-accounts post: nothing there for ours
    other = ApiClient(demo_server.url)
    demo_server.add_user("olga")
    other.login("olga", PASSWORD)
    held = other.claim("inauthentic-accounts", 100, 600).items
    assert len(held) == 52

    desk = desk_factory(demo_server.url, queue="hate-harassment", store_settings=NO_REFRESH)
    window = desk.window
    opened = desk.current_id()
    assert opened is not None
    desk.wait(lambda: "20 being reviewed" in _picker_line(desk, "hate-harassment"), 10_000)
    # the window opened on the first queue: what it leased ahead there went back (the post
    # shown there, if one was, stays)
    desk.wait(lambda: window.store.ready_counts().get("misinformation", 0) <= 1, 10_000)
    assert window.store.ready_counts()["hate-harassment"] == 20

    # Alt+N: the inauthentic-accounts queue; the 19 unopened hate posts go back at once
    empty_row = window.queues.row_of("inauthentic-accounts")
    hate_row = window.queues.row_of("hate-harassment")
    desk.press(_digit(empty_row), ALT)
    assert window.review.queue is not None and window.review.queue.id == "inauthentic-accounts"
    desk.wait(lambda: "1 being reviewed" in _picker_line(desk, "hate-harassment"), 10_000)
    assert window.store.ready_counts()["hate-harassment"] == 1
    assert "0 waiting, 52 being reviewed" in _picker_line(desk, "inauthentic-accounts")

    # the empty queue says so, and where the work is, with the keys
    desk.wait(lambda: "inauthentic-accounts" in window.drained, 15_000)
    said = window.post.byline.text()
    assert f"Nothing in {isolate('Inauthentic accounts')} is waiting for you." in said, said
    assert "Queues with posts waiting:" in said
    hate = window.queues.queues[hate_row]
    assert f"Alt+{hate_row + 1}  {isolate(hate.name)}: {hate.counts.pending} waiting" in said
    assert f"{isolate('Inauthentic accounts')}:" not in said

    # back with Alt+N: the post that was on screen is still there, first
    desk.press(_digit(hate_row), ALT)
    assert desk.current_id() == opened
    desk.wait(lambda: "20 being reviewed" in _picker_line(desk, "hate-harassment"), 15_000)
    other.release([e.lease_token for e in held])
    other.close()


def test_a_lead_holds_one_escalation_and_nothing_ahead_on_the_lead_workspace(
    demo_server: LiveServer, desk_factory
) -> None:
    desk = desk_factory(
        demo_server.url, queue="misinformation", user=LEAD, store_settings=NO_REFRESH
    )
    window = desk.window
    assert window.modes is not None
    desk.wait(lambda: "20 being reviewed" in _picker_line(desk, "misinformation"), 10_000)
    on_screen = desk.current_id()

    # the lead workspace: what was leased ahead goes back; the post on screen stays
    window.modes.setCurrentIndex(1)
    desk.wait(lambda: "1 being reviewed" in _picker_line(desk, "misinformation"), 10_000)
    assert window.store.ready_counts() == {"misinformation": 1}
    assert desk.current_id() == on_screen

    # Alt+N from the lead workspace: reviewing escalations, one at a time
    row = window.queues.row_of("escalations")
    desk.press(_digit(row), ALT)
    assert window.modes.currentIndex() == 0
    desk.wait(lambda: "1 being reviewed" in _picker_line(desk, "escalations"), 10_000)
    desk.wait(lambda: desk.current_id() is not None and desk.current_id() != on_screen, 10_000)
    assert window.store.ready_counts() == {"escalations": 1, "misinformation": 1}
