"""Ctrl+O, then Ctrl+Q while online: the "work offline" batch stays leased on the service
and cached here (README: close the app, start it again anywhere with no network and find
the work); a logout still gives it all back. The window against the real service (its
load queue: these tests need no demo data)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from sqlalchemy import select

from reviewer_app.core.paths import store_path
from reviewer_app.core.store import Store
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.storage.tables import items
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import Desk, close_session, open_desk

QUEUE = LOAD_QUEUE.id
USER = ("rita", PASSWORD)


@pytest.fixture
def service(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'service.db'}").start()
    seed_load_queue(server.service, 100)
    server.add_user(USER[0])
    try:
        yield server
    finally:
        server.stop()


def _leased(server: LiveServer) -> set[str]:
    with server.service.db.read() as conn:
        rows = conn.execute(select(items.c.id).where(items.c.state == "leased")).all()
    return {r.id for r in rows}


def _offline_batch(qtbot, server: LiveServer, root: Path) -> tuple[Desk, set[str]]:
    desk = open_desk(
        qtbot,
        server.url,
        root,
        prefetch=5,
        queue=QUEUE,
        user=USER,
        store_settings={"offline_batch_size": 20},
    )
    seen: list[tuple[object, ...]] = []
    desk.window.bridge.progress_changed.connect(lambda *args: seen.append(args))
    desk.window.offline_button.click()
    desk.wait(lambda: any(args[3] for args in seen), 30_000)
    held = _leased(server)
    assert len(held) >= 20, held
    return desk, held


def test_quitting_keeps_the_offline_batch_for_a_start_with_no_network(
    service: LiveServer, qtbot, tmp_path: Path
) -> None:
    root = tmp_path / "client"
    desk, held = _offline_batch(qtbot, service, root)
    window = desk.window
    key = window.session.key.key
    try:
        window.setFocus()
        desk.press(Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)  # Quit: the window closes
        assert not window.isVisible()
    finally:
        close_session(window)  # what the app does once its event loop has ended
    assert _leased(service) == held, "the batch was given back on quitting"
    # what a start with no network opens: the batch, ready to decide
    with Store(store_path(service.url.rstrip("/"), USER[0], root), key=key) as store:
        assert {r.item_id for r in store.worklist(QUEUE)} == held
        assert store.offline_summary().posts == len(held)


def test_logging_out_gives_the_offline_batch_back(
    service: LiveServer, qtbot, tmp_path: Path
) -> None:
    desk, _held = _offline_batch(qtbot, service, tmp_path / "client")
    window = desk.window
    try:
        window.log_out()
        desk.wait(lambda: not window.isVisible(), 30_000)
    finally:
        close_session(window)
    assert _leased(service) == set()
