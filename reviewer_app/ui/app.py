"""Starting the desktop app: log in (or resume a saved login), then the review window.

Network work (checking the server, logging in) runs in the background; the window opens
once there is a session, and the sync engine starts with it.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QImageReader
from PySide6.QtWidgets import QApplication, QMessageBox

from reviewer_app.core.credentials import Credentials
from reviewer_app.core.session import LoginResult, ReviewSession

from . import preferences as P
from .background import run_in_background
from .bridge import SyncBridge
from .dialogs import LoginDialog
from .i18n import install_translators, language_for, translate
from .main_window import MainWindow
from .messages import bad_address, describe, keyring_reason, store_moved_aside

log = logging.getLogger("ui")

#: Set (to anything) for startup benchmarks: at the first paint of a post the window prints
#: ``first-post-painted <time.time()>`` on stdout and the app quits (benchmarks/ui_latency.py).
STARTUP_PROBE_ENV = "REVIEWER_APP_STARTUP_PROBE"
#: Qt's cap on the memory one image may take while decoding (its default is 256 MB).
IMAGE_ALLOCATION_LIMIT_MB = 128
#: How long a Python thread may keep the GIL while another waits for it (Python's default
#: is 5 ms). The GUI thread calls into Python for every cell a view paints; while a worker
#: parses a page of decisions, 5 ms waits added up to frames of 20-40 ms
#: (benchmarks/lead_browser.py); at 1 ms the longest stall stays under 16 ms.
GIL_SWITCH_SECONDS = 0.001


def application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance()
    if isinstance(app, QApplication):
        return app
    sys.setswitchinterval(GIL_SWITCH_SECONDS)
    # no image may make Qt allocate more than this, whatever its header declares
    QImageReader.setAllocationLimit(IMAGE_ALLOCATION_LIMIT_MB)
    app = QApplication(argv or sys.argv[:1])
    app.setApplicationName("reviewer-app")
    app.setOrganizationName("reviewer-app")
    # the language: the preference, else the system's (English when neither has a catalogue)
    install_translators(app, language_for(P.Preferences().get(P.LANGUAGE)))
    app.setApplicationDisplayName(translate("App", "Review desk"))
    return app


def memory_only_note() -> str:
    """Said when the session's local store is in memory (no keyring holds its key)."""
    return translate(
        "App",
        "Nothing you review is kept on this computer: offline work is unavailable, and "
        "verdicts not yet sent are lost if the app stops before they are sent.",
    )


def keyring_note(result: LoginResult) -> str | None:
    if result.saved.persistent:
        return None
    return (
        translate(
            "App",
            "Your login is kept for this session only ({reason}); you will be asked to log in "
            "again next time.",
        ).format(reason=keyring_reason(result.saved.problem, result.saved.culprit))
        + " "
        + memory_only_note()
    )


def open_window(
    server_url: str,
    result: LoginResult,
    token: str,
    *,
    credentials: Credentials,
    prefs: P.Preferences,
    data_root: Path | None = None,
    note: str | None = None,
) -> MainWindow:
    """A session, its sync engine (started) and the review window (shown)."""
    bridge = SyncBridge()
    session = ReviewSession(
        server_url,
        result.user,
        token,
        credentials=credentials,
        data_root=data_root,
        listener=bridge,
    )
    if session.memory_only and note is None:
        note = memory_only_note()  # the keyring keeps the login but would not keep the store key
    window = MainWindow(session, bridge, prefs, keyring_note=note)
    bridge.setParent(window)
    if session.store.moved_aside_to is not None:
        window.notify(store_moved_aside(session.store.moved_aside_to))
    session.start()
    window.show()
    window.destroyed.connect(lambda *_: session.engine.stop())
    if os.environ.get(STARTUP_PROBE_ENV):
        _probe_startup(window)
    return window


def _probe_startup(window: MainWindow) -> None:
    """Report when the first post is painted, then quit (see ``STARTUP_PROBE_ENV``)."""

    def on_painted() -> None:
        if window.review.current is not None:
            window.post.text.first_painted.disconnect(on_painted)
            print(f"first-post-painted {time.time():.6f}", flush=True)
            QApplication.quit()

    window.post.text.first_painted.connect(on_painted)


def close_session(window: MainWindow) -> None:
    """A clean exit: send what was decided, give back the rest (bounded wait)."""
    window.shutdown()


def run_login(
    prefs: P.Preferences,
    credentials: Credentials,
    on_window: Callable[[MainWindow], None],
) -> LoginDialog:
    dialog: LoginDialog

    def attempt(server: str, username: str, password: str) -> None:
        def work() -> tuple[LoginResult, str]:
            return ReviewSession.log_in(server, username, password, credentials=credentials)

        def done(value: tuple[LoginResult, str]) -> None:
            result, token = value
            dialog.succeeded()
            window = open_window(
                server,
                result,
                token,
                credentials=credentials,
                prefs=prefs,
                note=keyring_note(result),
            )
            on_window(window)

        def failed(err: BaseException) -> None:
            if isinstance(err, ValueError):  # the address (normalise_server_url)
                dialog.show_error(
                    bad_address(server)
                    + " "
                    + translate("App", "Write it like {example}").format(
                        example="https://review.example.org"
                    )
                )
                return
            message = describe(err, during=translate("App", "logging in"))
            dialog.show_error(message.line())

        run_in_background(dialog, work, done, failed)

    dialog = LoginDialog(prefs, attempt)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


def run_app(argv: list[str] | None = None) -> int:
    """``reviewer-app`` with no options: the login dialog, then the review window."""
    app = application(argv)
    prefs = P.Preferences()
    P.apply_look(prefs)
    credentials = Credentials()
    windows: list[MainWindow] = []
    run_login(prefs, credentials, windows.append)
    code = app.exec()
    for window in windows:
        close_session(window)
    return code


def run_with_login(
    server_url: str,
    username: str,
    password: str,
    *,
    data_root: Path | None = None,
    demo: bool = False,
) -> int:
    """Log in with known credentials (the demo), then the review window. A demo login is
    kept in memory only (it has no place in the reviewer's keyring)."""
    app = application()
    prefs = P.Preferences()
    P.apply_look(prefs)
    credentials = Credentials(memory_only=demo)
    try:
        result, token = ReviewSession.log_in(
            server_url, username, password, credentials=credentials
        )
    except Exception as err:  # shown to the person who started the app, then exit
        message = describe(err, during=translate("App", "logging in to the demo server"))
        QMessageBox.critical(None, translate("App", "Review desk"), message.text())
        return 1
    window = open_window(
        server_url,
        result,
        token,
        credentials=credentials,
        prefs=prefs,
        data_root=data_root,
        note=None if demo else keyring_note(result),
    )
    code = app.exec()
    close_session(window)
    return code
