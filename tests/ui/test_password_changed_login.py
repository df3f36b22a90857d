"""A password changed on the service while the app was closed, in the real app against the
real service over HTTP, with no keyring (the store key wrapped under the password in a file
beside the store): verdicts decided offline and kept under the old password are not moved
aside at the next start with the new one. The previous password is asked for (a wrong one
is refused and asked again), opens the work, which is sent, and keeps its leases; "Start
afresh" moves it aside with words that say why and where. And the note that the login is
kept for this session only stays in the banner (the status line's next word replaced it)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backends import fail
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from reviewer_app.core import keyfile
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.paths import DATA_ENV
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import close_session, run_login
from reviewer_app.ui.dialogs import LoginDialog
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.previous_password import PreviousPasswordDialog, previous_password_wrong
from tests.core.test_offline_start import Service
from tests.support.servers import PASSWORD

REVIEWER = ("rev", PASSWORD)

NEW = "changed by an admin"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    running = Service(tmp_path)
    running.add_user(REVIEWER[0])
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_ENV, str(folder))
    return folder


def _dialog(tmp_path: Path, windows: list[MainWindow]) -> LoginDialog:
    prefs = P.Preferences(QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
    return run_login(prefs, Credentials(fail.Keyring()), windows.append)


def _log_in(dialog: LoginDialog, url: str, user: str, password: str) -> None:
    dialog.server.setText(url)
    dialog.username.setText(user)
    dialog.password.setText(password)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def _offline_work(
    service: Service, qtbot: QtBot, tmp_path: Path
) -> tuple[Path, list[str], set[str]]:
    """Logged in with no keyring, 3 verdicts decided with no network, the app closed, the
    password changed on the service. The store, what was decided, the posts still held."""
    windows: list[MainWindow] = []
    _log_in(_dialog(tmp_path, windows), service.url, *REVIEWER)
    qtbot.waitUntil(lambda: bool(windows) and windows[0].review.current is not None, timeout=30_000)
    window = windows[0]
    qtbot.waitUntil(lambda: window.store.last_sync() is not None, timeout=30_000)
    window.store.settings.set("undo_window_seconds", 0.0)
    service.stop()
    decided = []
    for row in window.store.worklist()[:3]:
        window.store.record_verdict(row.item_id, action="keep", time_spent_ms=1)
        decided.append(row.item_id)
    held = {row.item_id for row in window.store.worklist() if row.verdict_status is None}
    path = window.session.path
    close_session(window)  # offline: nothing sent, the leases not given back
    window.close()
    service.start()
    service.set_password(REVIEWER[0], NEW)
    return path, decided, held


def _asked(dialog: LoginDialog, qtbot: QtBot, windows: list[MainWindow]) -> PreviousPasswordDialog:
    """The previous password asked for over the login dialog (never a window opened first)."""
    found: list[PreviousPasswordDialog] = []

    def shown() -> bool:
        assert not windows, "a window opened without asking for the previous password"
        found[:] = [d for d in dialog.findChildren(PreviousPasswordDialog) if d.isVisible()]
        return bool(found)

    qtbot.waitUntil(shown, timeout=60_000)
    return found[0]


def test_password_changed_the_previous_password_opens_and_sends_the_offline_work(
    service: Service, data: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    path, decided, held = _offline_work(service, qtbot, tmp_path)
    assert service.decisions(REVIEWER[0]) == Counter()

    windows: list[MainWindow] = []
    dialog = _dialog(tmp_path, windows)
    _log_in(dialog, service.url, REVIEWER[0], NEW)
    ask = _asked(dialog, qtbot, windows)
    assert "3 decisions not sent yet" in ask.intro.text()
    assert "previous password" in ask.intro.text()
    assert not windows and not keyfile.stores_moved_aside(path), "nothing moved aside"

    ask.password.setText("not the previous one")
    ask.open_button.click()
    qtbot.waitUntil(lambda: ask.error.isVisibleTo(ask), timeout=60_000)
    assert ask.error.text() == previous_password_wrong() and ask.isVisible()
    assert ask.buttons.isEnabled() and not windows

    ask.password.setText(REVIEWER[1])
    ask.open_button.click()
    ask.reject()  # Esc while the work opens: it goes on, and the dialog says nothing false
    assert ask.isVisible() or windows, "closed while its request ran"
    qtbot.waitUntil(lambda: bool(windows), timeout=60_000)
    window = windows[0]
    qtbot.addWidget(window)
    try:
        assert window.store.moved_aside_to is None and not keyfile.stores_moved_aside(path)
        assert not window.session.memory_only and window.session.path == path
        qtbot.waitUntil(lambda: window.store.pending_count() == 0, timeout=60_000)
        assert service.decisions(REVIEWER[0]) == Counter(decided), "each sent once"
        qtbot.waitUntil(lambda: window.review.current is not None, timeout=30_000)
        assert window.review.current is not None
        assert window.review.current.item.id in held, "the posts leased before are kept"
        assert not window.banner.text().startswith("The local store could not be used")
        opened = keyfile.unlock(
            keyfile.key_file_path(path), NEW, window.session.server_url, REVIEWER[0]
        )
        assert opened == window.session.key.key, "the new password opens it from now on"
    finally:
        close_session(window)
        window.close()


def test_password_changed_starting_afresh_says_why_and_where_the_work_went(
    service: Service, data: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    path, _decided, _held = _offline_work(service, qtbot, tmp_path)
    windows: list[MainWindow] = []
    dialog = _dialog(tmp_path, windows)
    _log_in(dialog, service.url, REVIEWER[0], NEW)
    ask = _asked(dialog, qtbot, windows)
    ask.afresh.click()
    qtbot.waitUntil(lambda: bool(windows), timeout=60_000)
    window = windows[0]
    qtbot.addWidget(window)
    try:
        aside = keyfile.stores_moved_aside(path)
        assert len(aside) == 1
        words = window.banner.text()
        assert window.banner.isVisibleTo(window)
        assert str(aside[0]) in words and "password was changed" in words, words
        assert "damaged" not in words, words
        kept = Path(str(aside[0]) + keyfile.SUFFIX)
        keyfile.unlock(kept, REVIEWER[1], window.session.server_url, REVIEWER[0])  # opens
    finally:
        close_session(window)
        window.close()


def test_password_changed_cancelled_leaves_the_work_and_the_dialog_asks_again(
    service: Service, data: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    path, _decided, _held = _offline_work(service, qtbot, tmp_path)
    windows: list[MainWindow] = []
    dialog = _dialog(tmp_path, windows)
    _log_in(dialog, service.url, REVIEWER[0], NEW)
    ask = _asked(dialog, qtbot, windows)
    ask.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()
    qtbot.waitUntil(lambda: dialog.buttons.isEnabled(), timeout=10_000)
    assert "left as it is" in dialog.error.text()
    assert not windows and not keyfile.stores_moved_aside(path) and path.exists()
    dialog.close()


def test_the_note_that_the_login_is_kept_for_this_session_only_stays_in_the_banner(
    service: Service, data: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    windows: list[MainWindow] = []
    _log_in(_dialog(tmp_path, windows), service.url, *REVIEWER)
    qtbot.waitUntil(lambda: bool(windows), timeout=60_000)
    window = windows[0]
    qtbot.addWidget(window)
    try:
        qtbot.waitUntil(lambda: window.online is True, timeout=30_000)
        qtbot.waitUntil(lambda: window.store.last_sync() is not None, timeout=30_000)
        qtbot.wait(600)  # the sync has said its word in the status line meanwhile
        assert window.banner.isVisibleTo(window), window.message.text()
        words = window.banner.text()
        assert "kept for this session only" in words and "only your password opens" in words
    finally:
        close_session(window)
        window.close()
