"""The login dialog when the service cannot be reached, and a login asked for again, in the
real app against the real service: a wrong password at an offline start is told plainly and
changes nothing, a user with nothing saved here is told so, the right password starts
offline; a token the service revoked (401) asks for the password without dropping a
verdict."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backends import fail
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.paths import DATA_ENV, store_path
from reviewer_app.core.session import NothingSaved
from reviewer_app.protocol import DecisionQuery
from reviewer_app.server.feeds.seed import seed_demo
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import close_session, run_login
from reviewer_app.ui.dialogs import LoginDialog
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.messages import offline_nothing_saved, offline_start, offline_wrong_password
from tests.support.servers import LiveServer
from tests.ui.conftest import REVIEWER, Desk


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_ENV, str(folder))
    return folder


@pytest.fixture
def service(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'demo.db'}").start()
    seed_demo(server.service)
    try:
        yield server
    finally:
        server.stop()


def _dialog(tmp_path: Path, credentials: Credentials, windows: list[MainWindow]) -> LoginDialog:
    prefs = P.Preferences(QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
    return run_login(prefs, credentials, windows.append)


def _log_in(dialog: LoginDialog, url: str, user: str, password: str) -> None:
    dialog.server.setText(url)
    dialog.username.setText(user)
    dialog.password.setText(password)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()


def _digest(path: Path) -> str:
    found = [Path(str(path) + s) for s in ("", "-wal", "-shm", ".key")]
    return hashlib.sha256(b"".join(p.read_bytes() for p in found if p.exists())).hexdigest()


def test_an_offline_start_tells_a_wrong_password_and_nothing_saved_plainly(
    service: LiveServer, data: Path, qtbot: QtBot, tmp_path: Path
) -> None:
    windows: list[MainWindow] = []
    first = _dialog(tmp_path, Credentials(fail.Keyring()), windows)
    _log_in(first, service.url, *REVIEWER)
    qtbot.waitUntil(lambda: bool(windows) and windows[0].review.current is not None, timeout=30_000)
    window = windows.pop()
    qtbot.waitUntil(lambda: window.store.last_sync() is not None, timeout=30_000)
    posts = sum(window.store.ready_counts().values())
    path = window.session.path
    service.stop()
    close_session(window)  # offline: everything it holds stays
    window.close()
    before = _digest(path)

    dialog = _dialog(tmp_path, Credentials(fail.Keyring()), windows)
    said: list[str] = []
    dialog.status_shown.connect(said.append)
    _log_in(dialog, service.url, REVIEWER[0], "not the password")
    qtbot.waitUntil(lambda: dialog.error.isVisibleTo(dialog), timeout=60_000)
    assert dialog.error.text() == offline_wrong_password()
    assert said[-1] == "The server cannot be reached: opening the work saved on this computer…"
    assert not windows and _digest(path) == before, "a wrong password changes nothing"

    dialog.username.setText("someone-else")
    dialog.password.setText("any")
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: dialog.buttons.isEnabled(), timeout=60_000)
    nothing = offline_nothing_saved(NothingSaved("nothing here"))
    assert dialog.error.text() == nothing, "the server's absence said once"
    assert nothing.count("The server cannot be reached") == 1
    assert not store_path(service.url, "someone-else", data).exists()

    _log_in(dialog, service.url, *REVIEWER)
    qtbot.waitUntil(lambda: bool(windows), timeout=60_000)
    again = windows[0]
    qtbot.addWidget(again)
    try:
        assert said[-1] == offline_start(0, posts)
        assert again.session.started_offline and again.review.current is not None
    finally:
        close_session(again)
        again.close()


def test_a_revoked_token_asks_for_the_password_and_drops_nothing(
    service: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(service.url, undo=0.0)
    window = desk.window
    window.review.guard_seconds = 0.0
    desk.wait(lambda: window.online is True)
    ApiClient(service.url, token=window.session._token).logout()  # ended elsewhere
    decided = []
    for _ in range(2):
        current = desk.current_id()
        desk.press(Qt.Key.Key_1)
        desk.wait(lambda c=current: desk.current_id() != c)
        decided.append(current)
    desk.wait(lambda: window.relogin is not None, 60_000)
    relogin = window.relogin
    assert relogin is not None and relogin.username.text() == REVIEWER[0]
    assert relogin.intro.text() == "The server asks you to log in again."
    assert window.net_label.text() == "● Log in to sync"
    assert window.store.pending_count() == 2, "nothing dropped while it waits"
    relogin.password.setText("wrong")
    relogin.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    desk.wait(lambda: relogin.error.isVisibleTo(relogin))
    assert relogin.error.text().startswith("Wrong user name or password.")
    relogin.password.setText(REVIEWER[1])
    relogin.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    desk.wait(lambda: window.relogin is None and window.store.pending_count() == 0, 60_000)
    assert window.net_label.text() != "● Log in to sync"
    lead = desk.lead()
    for item_id in decided:
        assert [d.reviewer for d in lead.decisions(DecisionQuery(item_id=item_id)).decisions] == [
            "reviewer"
        ]
