"""The login dialog when the work saved on this computer cannot be opened, in the real app
against the real service: the dialog says why and stays (the reviewer tries again or
quits), and the file is left as it is.

- A store written by a newer release: a login with the server had closed the dialog and
  quit the app without a word (the error went to stderr), and a start with no network said
  the disk may be full.
- A store another program holds locked: said in the dialog, and a new attempt once it is
  free opens the window. A store another copy of the app holds: said before any login (the
  keyring keeps that copy's token).
- With no network, a store of a release before encryption is said to be upgraded by a
  login (it had been "nothing of yours is saved here" with a keyring, and "locked with a
  key the keyring holds" without one), and a store whose key left the keyring is said to be
  here with its key missing."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
import shiboken6
from keyring.backends import fail
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient, normalise_server_url
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import StoreInUse, StoreTooNew
from reviewer_app.core.paths import store_path
from reviewer_app.core.session import NothingSaved
from reviewer_app.core.store import SCHEMA_VERSION, Store
from reviewer_app.core.store.hold import hold
from reviewer_app.server.feeds.seed import seed_demo
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import close_session, run_login
from reviewer_app.ui.dialogs import LoginDialog
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.messages import describe, offline_nothing_saved
from tests.core.test_store_at_rest import _as_schema_2
from tests.support.keyring_memory import MemoryKeyring
from tests.support.servers import LiveServer
from tests.ui.conftest import REVIEWER

SERVER_DOWN = "The server cannot be reached while logging in."


@pytest.fixture
def service(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'demo.db'}").start()
    seed_demo(server.service)
    try:
        yield server
    finally:
        server.stop()


class Login:
    """Login dialogs made as the app makes them, on one data folder and one keyring."""

    def __init__(self, qtbot: QtBot, tmp_path: Path, credentials: Credentials) -> None:
        self.qtbot = qtbot
        self.data = tmp_path / "data"
        self.prefs = P.Preferences(QSettings(str(tmp_path / "ui.ini"), QSettings.Format.IniFormat))
        self.credentials = credentials
        self.windows: list[MainWindow] = []
        self.dialogs: list[LoginDialog] = []

    def dialog(self, url: str) -> LoginDialog:
        dialog = run_login(self.prefs, self.credentials, self.windows.append, data_root=self.data)
        self.dialogs.append(dialog)
        dialog.server.setText(url)
        dialog.username.setText(REVIEWER[0])
        return dialog

    def attempt(self, dialog: LoginDialog, password: str = REVIEWER[1]) -> None:
        dialog.password.setText(password)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    def refused(self, dialog: LoginDialog) -> str:
        """Waits for the dialog's error; nothing opened, the dialog still there."""
        self.qtbot.waitUntil(lambda: dialog.error.isVisibleTo(dialog), timeout=60_000)
        assert dialog.isVisible() and dialog.buttons.isEnabled()
        assert self.windows == []
        return dialog.error.text()

    def first_session(self, url: str) -> Path:
        """A login that opens the window and keeps its work here; closed again."""
        self.attempt(self.dialog(url))
        self.qtbot.waitUntil(
            lambda: bool(self.windows) and self.windows[0].review.current is not None,
            timeout=60_000,
        )
        window = self.windows.pop()
        path = window.session.path
        close_session(window)
        window.close()
        return path

    def close(self) -> None:
        for window in self.windows:
            close_session(window)
            window.close()
        for dialog in self.dialogs:
            if shiboken6.isValid(dialog) and dialog.isVisible():
                with self.qtbot.waitSignal(dialog.destroyed, timeout=5_000):
                    dialog.close()


@pytest.fixture
def no_keyring(qtbot: QtBot, tmp_path: Path) -> Iterator[Login]:
    login = Login(qtbot, tmp_path, Credentials(fail.Keyring()))
    try:
        yield login
    finally:
        login.close()


@pytest.fixture
def keyring(qtbot: QtBot, tmp_path: Path) -> Iterator[Login]:
    login = Login(qtbot, tmp_path, Credentials(MemoryKeyring()))
    try:
        yield login
    finally:
        login.close()


def _digest(path: Path) -> str:
    found = [Path(str(path) + s) for s in ("", "-wal", "-shm", ".key")]
    return hashlib.sha256(b"".join(p.read_bytes() for p in found if p.exists())).hexdigest()


def _as_newer_release(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()


def test_a_store_of_a_newer_release_is_said_in_the_dialog_online_and_offline(
    service: LiveServer, no_keyring: Login
) -> None:
    path = no_keyring.first_session(service.url)
    _as_newer_release(path)
    before = _digest(path)
    newer = describe(StoreTooNew(path, SCHEMA_VERSION + 1, SCHEMA_VERSION)).line()
    assert "newer release" in newer and "Update the app" in newer

    online = no_keyring.dialog(service.url)
    no_keyring.attempt(online)
    assert no_keyring.refused(online) == newer
    assert _digest(path) == before
    with no_keyring.qtbot.waitSignal(online.destroyed, timeout=5_000):  # or quits
        online.buttons.button(QDialogButtonBox.StandardButton.Cancel).click()

    service.stop()
    offline = no_keyring.dialog(service.url)
    no_keyring.attempt(offline)
    said = no_keyring.refused(offline)
    assert said == newer and "cannot be written" not in said
    assert _digest(path) == before


def test_a_store_held_locked_is_said_in_the_dialog_and_a_new_attempt_opens_the_window(
    service: LiveServer, no_keyring: Login
) -> None:
    path = no_keyring.first_session(service.url)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program writing to it, for as long as it likes
    try:
        dialog = no_keyring.dialog(service.url)
        no_keyring.attempt(dialog)
        said = no_keyring.refused(dialog)
        assert said.startswith("The local store cannot be written."), said
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    no_keyring.attempt(dialog)  # the same dialog: tried again
    no_keyring.qtbot.waitUntil(lambda: bool(no_keyring.windows), timeout=60_000)
    assert not shiboken6.isValid(dialog) or not dialog.isVisible()


def test_a_store_another_copy_holds_is_said_before_any_login(
    service: LiveServer, keyring: Login
) -> None:
    """Another copy of the app works on this account here: the dialog says so, and the
    keyring keeps that copy's token (no login was made to be thrown away)."""
    path = keyring.first_session(service.url)
    url = normalise_server_url(service.url)
    kept = keyring.credentials.load(url, REVIEWER[0])
    assert kept is not None
    other = hold(path)  # the other copy's lock on the store
    try:
        dialog = keyring.dialog(service.url)
        keyring.attempt(dialog)
        said = keyring.refused(dialog)
        assert said.startswith(describe(StoreInUse(path)).title), said
        assert keyring.credentials.load(url, REVIEWER[0]) == kept
    finally:
        assert other is not None
        other.release()
    keyring.attempt(dialog)  # that copy closed: the same dialog opens the window
    keyring.qtbot.waitUntil(lambda: bool(keyring.windows), timeout=60_000)


def _store_before_encryption(service: LiveServer, data: Path) -> Path:
    """The reviewer's store as a release before encryption kept it: plain, schema 2, with
    unsent verdicts."""
    path = store_path(normalise_server_url(service.url), REVIEWER[0], data)
    with ApiClient(service.url) as client:
        client.login(*REVIEWER)
        queue = client.queues().queues[0]
        plain = next(
            a.id
            for a in queue.config.actions
            if not (a.requires_policy or a.requires_note or a.requires_rating)
        )
        with Store(path) as store:
            store.add_leased(client.claim(queue.id, 4, 600))
            for row in store.worklist(queue.id)[:2]:
                store.record_verdict(row.item_id, action=plain, undo_window=0)
            assert store.pending_count() == 2
    _as_schema_2(path)
    return path


@pytest.mark.parametrize("which", ["keyring", "no_keyring"])
def test_with_no_network_a_store_from_before_encryption_is_said_to_be_upgraded_at_a_login(
    service: LiveServer, request: pytest.FixtureRequest, which: str
) -> None:
    login: Login = request.getfixturevalue(which)
    path = _store_before_encryption(service, login.data)
    login.credentials.save(normalise_server_url(service.url), REVIEWER[0], "a saved token")
    service.stop()
    before = _digest(path)

    dialog = login.dialog(service.url)
    login.attempt(dialog)
    said = login.refused(dialog)
    upgrade = offline_nothing_saved(NothingSaved("", before_encryption=True))
    assert said == f"{SERVER_DOWN} {upgrade}"
    assert "earlier release" in said and "kept as it is" in said and "upgrade" in said
    assert "nothing of yours" not in said and "the keyring holds" not in said
    assert _digest(path) == before


def test_with_no_network_a_store_whose_key_left_the_keyring_is_said_to_be_here(
    service: LiveServer, keyring: Login
) -> None:
    path = keyring.first_session(service.url)
    keyring.credentials.delete_store_key(normalise_server_url(service.url), REVIEWER[0])
    service.stop()
    before = _digest(path)

    dialog = keyring.dialog(service.url)
    keyring.attempt(dialog)
    said = keyring.refused(dialog)
    missing = offline_nothing_saved(NothingSaved("", key_missing=True))
    assert said == f"{SERVER_DOWN} {missing}"
    assert "its key is missing" in said and "nothing was changed" in said
    assert "nothing of yours" not in said
    assert _digest(path) == before
