"""The review desk (the real app: login dialog, window, sync engine) in its own process, for
tests that kill it with SIGKILL mid-shift (tests/ui/test_offline_train.py).

Usage: python -m tests.support.desk_proc SERVER_URL USER PASSWORD KEYRING UI_INI

KEYRING is ``file:<path>`` (``FileKeyring``: a keyring that outlives the process) or
``none`` (``keyring.backends.fail``: a workstation with no keyring). The data folder comes
from ``REVIEWER_APP_DATA_DIR``; Qt runs offscreen. The driving test sends lines on stdin;
each step answers with one JSON line on stdout:

- at start: logs in through the login dialog, waits for the first post, answers ``login``;
- ``offline``: presses Ctrl+O, waits for the batch, answers ``offline`` (posts held);
- ``decide N``: decides the next N posts with key 1, answers ``decided`` (their item ids
  and the verdicts saved here).

Between steps the event loop runs (the sync engine too), until the test kills the process.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import keyring
from keyring.backends import fail
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from reviewer_app.core.credentials import Credentials
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import application, run_login
from reviewer_app.ui.main_window import MainWindow
from tests.support.keyring_memory import FileKeyring

STEP_TIMEOUT = 90.0


def say(step: str, **values: object) -> None:
    print(json.dumps({"step": step, **values}), flush=True)


def pump_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + STEP_TIMEOUT
    while not condition():
        if time.monotonic() > deadline:
            say("timeout", what=what)
            sys.exit(2)
        QApplication.processEvents()
        time.sleep(0.005)


def lines() -> queue.Queue[str]:
    """stdin, line by line, read off the GUI thread."""
    found: queue.Queue[str] = queue.Queue()

    def read() -> None:
        for line in sys.stdin:
            found.put(line.strip())

    threading.Thread(target=read, daemon=True).start()
    return found


def next_line(found: queue.Queue[str]) -> str:
    while True:
        try:
            return found.get_nowait()
        except queue.Empty:
            QApplication.processEvents()
            time.sleep(0.005)


def press(window: MainWindow, key: Qt.Key, mods: Qt.KeyboardModifier) -> None:
    window.activateWindow()
    QApplication.processEvents()
    QTest.keyClick(QApplication.focusWidget() or window, key, mods)


def main() -> int:
    url, user, password, backend, ini = sys.argv[1:6]
    keyring.set_keyring(
        FileKeyring(Path(backend.removeprefix("file:"))) if backend != "none" else fail.Keyring()
    )
    application()
    prefs = P.Preferences(QSettings(ini, QSettings.Format.IniFormat))
    windows: list[MainWindow] = []
    dialog = run_login(prefs, Credentials(), windows.append)
    dialog.server.setText(url)
    dialog.username.setText(user)
    dialog.password.setText(password)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    pump_until(lambda: bool(windows) and windows[0].review.current is not None, "the first post")
    window = windows[0]
    window.review.guard_seconds = 0.0
    store = window.store
    for name, value in (("undo_window_seconds", 0.0), ("backoff_cap_seconds", 1.0)):
        store.settings.set(name, value)
    say("login", key_mode=str(window.session.key_mode), online=window.online)
    found = lines()
    finished: list[int] = []  # offline batches that ended, and how many posts each leased
    window.bridge.progress_changed.connect(
        lambda _t, done, _total, end, _kind: finished.append(done) if end else None
    )
    while True:
        command = next_line(found)
        if command == "offline":
            finished.clear()
            press(window, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
            pump_until(lambda: bool(finished), "the offline batch")
            say("offline", done=finished[-1], held=sum(store.ready_counts().values()))
        elif command.startswith("decide "):
            decided: list[str] = []
            for _ in range(int(command.split()[1])):
                pump_until(lambda: window.review.current is not None, "a post to decide")
                current = window.review.current
                assert current is not None
                press(window, Qt.Key.Key_1, Qt.KeyboardModifier.NoModifier)
                pump_until(lambda c=current: window.review.current is not c, "the next post")
                decided.append(current.item.id)
            say("decided", items=decided, pending=store.pending_count())
        # and the event loop runs on (sync engine and all) until the test kills the process


if __name__ == "__main__":
    sys.exit(main())
