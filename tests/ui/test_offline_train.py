"""A reviewer on a train, in the real app against the real service in its own process:
log in, work offline (Ctrl+O), the network goes (the service is stopped), decide, the laptop
dies (the app's process is killed with SIGKILL), start the app again with the service still
down (the login dialog starts offline from what this computer keeps), decide more, the
network comes back: every verdict is on the service exactly once, and nothing readable is
left on disk. Once with a keyring that outlives the process, once with no keyring at all
(the store key wrapped under the password; a login is asked for when the service is back).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from keyring.backends import fail
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.paths import DATA_ENV
from reviewer_app.core.session import KeyMode
from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import close_session, run_login
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.messages import offline_start
from tests.support.at_rest import (
    known_texts,
    needles_for,
    profile_secrets,
    scan,
    seed_known_posts,
)
from tests.support.client import all_decisions
from tests.support.keyring_memory import FileKeyring
from tests.support.servers import PASSWORD, ServerProcess

ROOT = Path(__file__).resolve().parents[2]
USER = "tara"
BEFORE_CRASH = 12
AFTER_RESTART = 8


class Desk:
    """The app in a child process, driven line by line."""

    def __init__(self, args: list[str], env: dict[str, str], log: Path) -> None:
        self.log = log.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.support.desk_proc", *args],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
        )

    def read(self, step: str) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the app exited ({self.proc.poll()}) before {step}: see {self.log.name}"
        answer = json.loads(line)
        assert answer["step"] == step, answer
        return dict(answer)

    def send(self, command: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)  # no clean exit of any kind
        self.proc.wait(30)
        for pipe in (self.proc.stdin, self.proc.stdout):
            if pipe is not None and not pipe.closed:
                pipe.close()
        self.log.close()


def _decide(window: MainWindow, qtbot: QtBot, count: int) -> list[str]:
    decided = []
    window.review.guard_seconds = 0.0
    for _ in range(count):
        qtbot.waitUntil(lambda: window.review.current is not None, timeout=30_000)
        current = window.review.current
        assert current is not None
        window.activateWindow()
        QTest.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_1)
        qtbot.waitUntil(lambda c=current: window.review.current is not c, timeout=10_000)
        decided.append(current.item.id)
    return decided


@pytest.mark.parametrize("with_keyring", [True, False], ids=["keyring", "no-keyring"])
def test_the_train(
    with_keyring: bool, qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    texts = known_texts(60, "POST")
    database = f"sqlite:///{tmp_path / 'service.db'}"
    setup = Service(ServerSettings(database_url=database, password_hash_profile="fast"))
    setup.start()
    seed_known_posts(setup, texts)
    setup.create_user(UserCreate(username=USER, password=PASSWORD, role=Role.reviewer))
    setup.create_user(UserCreate(username="lead", password=PASSWORD, role=Role.lead))
    setup.close()
    server = ServerProcess(database, log=tmp_path / "service.log").start()

    data = tmp_path / "data"  # the app's data folder, scanned at the end
    monkeypatch.setenv(DATA_ENV, str(data))
    keyring_file = tmp_path / "keyring.json"  # the "OS keyring", outside the data folder
    env = {**os.environ, DATA_ENV: str(data), "QT_QPA_PLATFORM": "offscreen"}
    env["PYTHONPATH"] = str(ROOT)
    backend = f"file:{keyring_file}" if with_keyring else "none"
    desk = Desk(
        [server.url, USER, PASSWORD, backend, str(tmp_path / "first-run.ini")],
        env,
        tmp_path / "desk.log",
    )
    window: MainWindow | None = None
    try:
        # --- on the platform: log in, Ctrl+O -----------------------------------------------
        started = desk.read("login")
        assert started["key_mode"] == (KeyMode.keyring if with_keyring else KeyMode.password)
        desk.send("offline")
        held = desk.read("offline")["held"]
        assert held == len(texts), "the whole queue is on this computer"

        # --- the train leaves: no network; decide; the battery dies ---------------------------
        server.stop()
        desk.send(f"decide {BEFORE_CRASH}")
        answer = desk.read("decided")
        before = answer["items"]
        assert len(set(before)) == BEFORE_CRASH and answer["pending"] == BEFORE_CRASH
        desk.kill()

        # --- the app again, the service still down: the login dialog starts offline ------------
        credentials = Credentials(FileKeyring(keyring_file) if with_keyring else fail.Keyring())
        prefs = P.Preferences(QSettings(str(tmp_path / "again.ini"), QSettings.Format.IniFormat))
        windows: list[MainWindow] = []
        dialog = run_login(prefs, credentials, windows.append)
        said: list[str] = []
        dialog.status_shown.connect(said.append)
        dialog.server.setText(server.url)
        dialog.username.setText(USER)
        dialog.password.setText(PASSWORD)
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        qtbot.waitUntil(lambda: bool(windows), timeout=60_000)
        window = windows[0]
        qtbot.addWidget(window)
        qtbot.waitUntil(lambda: window.review.current is not None, timeout=10_000)
        told = offline_start(BEFORE_CRASH, held - BEFORE_CRASH)
        assert told == (
            f"The server cannot be reached: working offline with {BEFORE_CRASH} saved "
            f"verdicts and {held - BEFORE_CRASH} posts."
        )
        assert told in said and window.message.text() == told
        assert window.session.started_offline and window.online is False
        assert window.net_label.text() == "● Offline"
        assert window.pending_label.text() == f"{BEFORE_CRASH} pending"
        assert window.sync_label.text().startswith("last sync "), "not 'never synced'"
        assert not window.banner.isVisible(), window.banner.text()

        after = _decide(window, qtbot, AFTER_RESTART)
        assert not set(after) & set(before)
        qtbot.waitUntil(
            lambda: window.pending_label.text() == f"{BEFORE_CRASH + AFTER_RESTART} pending"
        )

        # --- the network is back -----------------------------------------------------------------
        server.start()
        if not with_keyring:  # no saved login: the app asks for one once the service answers
            qtbot.waitUntil(lambda: window.relogin is not None, timeout=60_000)
            relogin = window.relogin
            assert relogin is not None and relogin.username.text() == USER
            assert window.net_label.text() == "● Log in to sync"
            relogin.password.setText(PASSWORD)
            relogin.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
        qtbot.waitUntil(lambda: window.store.pending_count() == 0, timeout=90_000)
        qtbot.waitUntil(lambda: window.pending_label.text() == "0 pending", timeout=10_000)
        qtbot.waitUntil(lambda: window.net_label.text() == "● Online", timeout=10_000)

        lead = ApiClient(server.url)
        lead.login("lead", PASSWORD)
        recorded = Counter(d.item_id for d in all_decisions(lead, USER))
        lead.close()
        assert recorded == Counter(before + after), "every verdict exactly once"

        # --- nothing readable on disk -------------------------------------------------------------
        tokens = [window.session._token]
        if with_keyring:
            kept = json.loads(keyring_file.read_text())
            tokens += [e[2] for e in kept if not e[0].endswith(":store-key")]
        secrets = {
            **needles_for(texts),
            **profile_secrets(tokens=tokens, password=PASSWORD, key=window.session.key.key),
        }
        close_session(window)
        window.close()
        window = None
        files = [p for p in data.rglob("*") if p.is_file()]
        assert any(p.suffix == ".sqlite3" for p in files)
        assert any(p.name.endswith(".key") for p in files) is (not with_keyring)
        assert scan(data, secrets) == []
    finally:
        desk.kill()
        if window is not None:
            close_session(window)
            window.close()
        server.stop()
