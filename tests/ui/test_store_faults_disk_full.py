"""A verdict key pressed when the disk is full: the window says the verdict was not saved
(in words: the local store cannot be written) and the post stays on screen, to decide once
there is room; nothing escapes as an unexpected error. The real service, a real store whose
connection may not grow (SQLite's ``max_page_count``: a real SQLITE_FULL)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import close_session, open_desk

USER = ("fern", PASSWORD)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'service.db'}").start()
    seed_load_queue(server.service, 100)
    server.add_user(USER[0])
    try:
        yield server
    finally:
        server.stop()


def test_a_verdict_on_a_full_disk_is_said_and_the_post_stays(
    service: LiveServer, qtbot, tmp_path: Path
) -> None:
    desk = open_desk(
        qtbot,
        service.url,
        tmp_path / "client",
        undo=120.0,
        prefetch=60,
        queue=LOAD_QUEUE.id,
        user=USER,
    )
    window = desk.window
    try:
        desk.wait(lambda: window.worklist.rowCount() >= 60)
        conn = window.store.conn  # the window's own connection: its verdicts
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count={pages}")  # the disk is full from now on
        refused = None
        for _ in range(60):  # verdicts fill the last free room, then one is refused
            item_id = desk.current_id()
            assert item_id is not None
            qtbot.wait(100)  # the post seen: a key pressed at once would not decide it
            desk.press(Qt.Key.Key_1)
            desk.wait(
                lambda shown=item_id: (
                    desk.current_id() != shown or "not be saved" in window.message.text()
                ),
                10_000,
            )
            if desk.current_id() == item_id:
                refused = item_id
                break
        assert refused is not None, "the disk never filled"
        said = window.message.text()
        assert "The verdict could not be saved" in said and "cannot be written" in said, said
        assert not conn.in_transaction
        conn.execute("PRAGMA max_page_count=1073741823")  # room again: the same key saves it
        qtbot.wait(100)
        desk.press(Qt.Key.Key_1)
        desk.wait(lambda: desk.current_id() != refused, 10_000)
        assert refused in {e.item_id for e in window.store.journal(limit=100)}
    finally:
        close_session(window)
        window.close()
