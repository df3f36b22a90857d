"""The demo shows offline work: it logs in the way ``reviewer-app --demo`` does (in the
background, memory-only login, the store in the demo's own folder under a key wrapped with
its published password), says nothing alarming, and "Work offline" fills the worklist; the
store survives a restart of the demo."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from reviewer_app.core import keyfile
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.paths import store_path
from reviewer_app.core.session import KeyMode
from reviewer_app.demo import DEMO_ACCOUNTS, demo_client_root
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import close_session, start_with_login
from reviewer_app.ui.main_window import MainWindow
from tests.support.servers import LiveServer


def _open_demo(qtbot: QtBot, server: LiveServer, folder: Path) -> MainWindow:
    windows: list[MainWindow] = []
    failures: list[BaseException] = []
    user, password = DEMO_ACCOUNTS["reviewer"]
    start_with_login(
        server.url,
        user,
        password,
        credentials=Credentials(memory_only=True),
        prefs=P.Preferences(QSettings(str(folder / "ui.ini"), QSettings.Format.IniFormat)),
        on_window=windows.append,
        on_failure=failures.append,
        data_root=demo_client_root(folder),
        demo=True,
    )
    qtbot.waitUntil(lambda: bool(windows) or bool(failures), timeout=30_000)
    assert not failures, failures
    window = windows[0]
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.review.current is not None, timeout=30_000)
    return window


def test_the_demo_works_offline_without_an_alarming_banner(
    demo_server: LiveServer, qtbot: QtBot, tmp_path: Path
) -> None:
    folder = tmp_path / "demo"
    window = _open_demo(qtbot, demo_server, folder)
    try:
        session = window.session
        assert session.key_mode is KeyMode.password and not session.memory_only
        assert not window.banner.isVisibleTo(window), window.banner.text()
        assert "Nothing you review is kept" not in window.message.text()
        path = store_path(session.server_url, "reviewer", demo_client_root(folder))
        assert session.path == path and path.exists()
        wrapped = keyfile.key_file_path(path)
        assert keyfile.exists(wrapped), "the key wrapped beside the store"
        # under the published password, at the KDF's least costs (the demo's start waits
        # for nothing a costly KDF would protect)
        costs = json.loads(wrapped.read_text(encoding="ascii"))
        assert (costs["time_cost"], costs["memory_cost"], costs["parallelism"]) == (1, 8192, 1)
        if os.name == "posix":
            assert stat.S_IMODE(path.stat().st_mode) == 0o600

        finished: list[tuple[int, int]] = []
        window.bridge.progress_changed.connect(
            lambda _t, done, total, end, _k: finished.append((done, total)) if end else None
        )
        window.offline_button.click()
        assert window.progress.isVisibleTo(window)
        qtbot.waitUntil(lambda: bool(finished), timeout=60_000)
        done, _total = finished[-1]
        assert done > 0 and "Work offline is unavailable" not in window.message.text()
        assert not window.banner.isVisibleTo(window), window.banner.text()
        qtbot.waitUntil(lambda: window.worklist.rowCount() >= done, timeout=10_000)
        held = sum(window.store.ready_counts().values())
    finally:
        close_session(window)
        window.close()

    # the demo again: what it leased and the last sync are still there
    again = _open_demo(qtbot, demo_server, folder)
    try:
        assert again.sync_label.text().startswith("last sync ")
        assert sum(again.store.ready_counts().values()) >= 1
        assert not again.banner.isVisibleTo(again)
        assert held >= 1
    finally:
        close_session(again)
        again.close()


def test_a_window_is_on_screen_at_once_and_answers_while_the_login_runs(
    demo_server: LiveServer, qtbot: QtBot, tmp_path: Path
) -> None:
    """The login (a KDF and a round trip: 4-6 s on a busy machine) runs in the background
    behind a window that is shown at once; the event loop keeps turning meanwhile, and the
    review window takes its place."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from tests.support.proxy import FaultProxy

    proxy = FaultProxy(demo_server.port, delay=1.5).start()  # a slow network
    ticks: list[int] = []
    timer = QTimer()
    timer.setInterval(20)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    windows: list[MainWindow] = []
    failures: list[BaseException] = []
    user, password = DEMO_ACCOUNTS["reviewer"]
    folder = tmp_path / "demo"

    def starting() -> list[object]:
        return [
            w
            for w in QApplication.topLevelWidgets()
            if w.objectName() == "startingWindow" and w.isVisible()
        ]

    try:
        start_with_login(
            proxy.url,
            user,
            password,
            credentials=Credentials(memory_only=True),
            prefs=P.Preferences(QSettings(str(folder / "ui.ini"), QSettings.Format.IniFormat)),
            on_window=windows.append,
            on_failure=failures.append,
            data_root=demo_client_root(folder),
            demo=True,
        )
        assert len(starting()) == 1 and not windows, "a window at once, the login still running"
        shown = starting()[0]
        assert user in shown.words.text() and shown.windowTitle()
        qtbot.waitUntil(lambda: bool(windows) or bool(failures), timeout=60_000)
        assert not failures, failures
        assert len(ticks) >= 10, "the event loop turned while the login ran"
        window = windows[0]
        qtbot.addWidget(window)
        assert window.isVisible()
        qtbot.waitUntil(lambda: not starting(), timeout=5_000)
    finally:
        timer.stop()
        for window in windows:
            close_session(window)
            window.close()
        proxy.stop()
