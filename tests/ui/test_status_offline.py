"""What the window says around offline work, against the real service: a verdict the
service refuses for now because another reviewer holds the post says so in the status bar
(and until when); the yellow conflicts banner follows the count (accepting their decision
takes it away); the last sync of an earlier start is shown instead of "never synced"."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import ApiSession, verdict
from tests.support.clock import ManualClock
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import Desk

QUEUE = LOAD_QUEUE.id


@pytest.fixture
def timed(tmp_path: Path) -> Iterator[tuple[LiveServer, ManualClock]]:
    clock = ManualClock()
    server = LiveServer(f"sqlite:///{tmp_path / 'timed.db'}", clock=clock).start()
    seed_load_queue(server.service, 2)
    server.service.create_user(UserCreate(username="ria", password=PASSWORD, role=Role.reviewer))
    server.add_user("rival")
    try:
        yield server, clock
    finally:
        server.stop()


def test_held_posts_and_conflicts_are_told_and_the_banner_follows_the_count(
    timed: tuple[LiveServer, ManualClock], desk_factory
) -> None:
    server, clock = timed
    desk: Desk = desk_factory(server.url, queue=QUEUE, prefetch=2, user=("ria", PASSWORD))
    window = desk.window
    window.review.guard_seconds = 0.0  # two keys in a row are meant here
    desk.wait(lambda: len(window.store.worklist(QUEUE)) == 2)
    first, second = (r.item_id for r in window.store.worklist(QUEUE))
    assert desk.current_id() == first

    # the reviewer's leases run out on the service; a rival takes both posts, decides one
    clock.advance(700)
    rival = ApiSession.login(server.url, "rival", PASSWORD)
    taken = {x["item"]["id"]: x for x in rival.claim(QUEUE, 2, 600)}
    assert set(taken) == {first, second}
    rival.decide([verdict(taken[first], "remove", policies=["SPAM.SCAM"])])
    held_until = clock.now + 600

    desk.press(Qt.Key.Key_1)  # keep the first: it conflicts
    desk.wait(lambda: desk.current_id() == second)
    desk.press(Qt.Key.Key_1)  # keep the second: the rival holds it
    desk.wait(lambda: window.conflict_count == 1 and window.held == 1, 60_000)
    desk.wait(lambda: window.pending == 1)
    assert window.pending_label.text() == (
        "1 pending: the post is held by another reviewer; retrying"
    )
    assert window.held_until == pytest.approx(held_until, abs=1)
    tip = window.pending_label.toolTip()
    assert "Another reviewer holds the post" in tip and "Their hold ends at" in tip
    assert window.banner.isVisibleTo(window)
    assert window.banner.text().startswith("1 of your verdicts conflict")
    assert window.conflicts_button.text() == "1 conflict"

    window.show_conflicts()
    view = window.conflicts_view
    assert view is not None and view.model.rowCount() == 1
    view.accept_button.click()  # "Accept their decision"
    assert window.conflicts_button.text() == "0 conflicts"
    assert not window.banner.isVisibleTo(window), window.banner.text()
    assert window.message.text() == "No open conflicts left."
    view.close()

    # the rival lets the post go: the late verdict counts, and the count says so
    rival.post("/leases/release", json={"tokens": [taken[second]["lease_token"]]})
    window.store.flush_all(time.time())  # its retry is due now rather than in a minute
    window.session.engine.nudge()
    desk.wait(lambda: window.pending == 0 and window.held == 0, 60_000)
    assert window.pending_label.text() == "0 pending"
    assert window.pending_label.toolTip() == ""
