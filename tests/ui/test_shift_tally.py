"""The review window's shift tally survives a restart of the app (the same user on the same
computer: the store kept under the keyring's key): with a rule of 3 high-harm posts, 2
decided, a restart and 1 more bring the reminder, as the service counts the shift."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from reviewer_app.core.credentials import Credentials
from reviewer_app.core.session import ReviewSession
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import close_session, open_window
from tests.support.keyring_memory import MemoryKeyring
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import Desk
from tests.ui.test_wellbeing import HIGH_HARM, _decide, gore_server  # noqa: F401 - a fixture

USER = ("alice", PASSWORD)


def _open(qtbot: QtBot, url: str, root: Path, keyring: MemoryKeyring) -> Desk:
    """The app started for alice on this computer: its data folder and keyring (so the
    store of an earlier start opens with its key)."""
    credentials = Credentials(keyring)
    result, token = ReviewSession.log_in(url, *USER, credentials=credentials)
    prefs = P.Preferences(QSettings(str(root / "ui.ini"), QSettings.Format.IniFormat))
    window = open_window(url, result, token, credentials=credentials, prefs=prefs, data_root=root)
    qtbot.addWidget(window)
    window.store.settings.set("undo_window_seconds", 0.0)
    window.store.settings.set("backoff_cap_seconds", 1.0)
    window.store.settings.set("queue_refresh_seconds", 2.0)
    window.review.guard_seconds = 0.05
    window.activateWindow()
    qtbot.waitUntil(lambda: window.queues.rowCount() > 0, timeout=20_000)
    window.queue_picker.setCurrentIndex(window.queues.row_of("gore"))
    qtbot.waitUntil(lambda: window.review.current is not None, timeout=20_000)
    return Desk(window, url, qtbot)


def _close(desk: Desk) -> None:
    if desk.window.is_open:
        close_session(desk.window)
        desk.window.close()


def _high_harm_on_the_service(server: LiveServer) -> int:
    lead = server.login("lena", create=False)
    reviewers = lead.get("/stats/exposure").json()["reviewers"]
    [alice] = [r for r in reviewers if r["reviewer"] == "alice"]
    return int(alice["high_harm_shift"])


def test_the_tally_goes_on_after_a_restart(
    gore_server: LiveServer,  # noqa: F811 - the fixture
    qtbot: QtBot,
    tmp_path: Path,
) -> None:
    root, keyring = tmp_path / "client", MemoryKeyring()
    desk = _open(qtbot, gore_server.url, root, keyring)
    try:
        _decide(desk, HIGH_HARM - 1)
        desk.wait(lambda: desk.window.store.pending_count() == 0, 30_000)
        assert not desk.window.break_reminder.isVisible()
    finally:
        _close(desk)

    began = desk.window.tally.started_at
    again = _open(qtbot, gore_server.url, root, keyring)  # a new login on this computer
    try:
        assert again.window.store.moved_aside_to is None  # the same store, not a new one
        assert again.window.tally.high_since_break == HIGH_HARM - 1
        # My decisions' "this shift" is the same shift, not since this window opened
        assert began is not None and again.window.tally.started_at == began
        assert not again.window.break_reminder.isVisible()
        _decide(again, 1)
        again.wait(again.window.break_reminder.isVisible, 5_000)
        assert str(HIGH_HARM) in again.window.break_reminder.text.text()
        again.wait(lambda: again.window.store.pending_count() == 0, 30_000)
        assert _high_harm_on_the_service(gore_server) == again.window.tally.high_since_break
        again.window.show_my_decisions()
        view = again.window.my_decisions_view
        assert view is not None and abs(view.shift_start.timestamp() - began) < 0.001
        view.close()
    finally:
        _close(again)
