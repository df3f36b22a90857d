"""Starting the desktop app: log in, or start offline from what this computer keeps when
the server cannot be reached, then the review window.

Network work (checking the server, logging in), deriving a store key from a password and
opening the saved work for an offline start run in the background; the window opens once
there is a session, and the sync engine starts with it.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from PySide6.QtCore import QLocale, Qt, QTimer
from PySide6.QtGui import QIcon, QImageReader
from PySide6.QtWidgets import QApplication, QMessageBox, QProgressBar, QVBoxLayout, QWidget

from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import (
    CertificateError,
    NetworkError,
    ProtocolError,
    ServiceUnavailable,
    StoreError,
)
from reviewer_app.core.keyfile import DEFAULT_PARAMS, PUBLISHED_PASSWORD_PARAMS, WrongPassword
from reviewer_app.core.session import (
    KeyMode,
    LoginResult,
    NothingSaved,
    OfflineStart,
    ProfileKey,
    ReviewSession,
)

from . import preferences as P
from .background import run_in_background
from .bridge import SyncBridge
from .dialogs import LoginDialog
from .i18n import install_translators, language_for, translate
from .main_window import MainWindow
from .messages import (
    bad_address,
    describe,
    keyring_reason,
    offline_nothing_saved,
    offline_opening,
    offline_start,
    offline_wrong_password,
    saved_work_waits,
    store_moved_aside,
)
from .plain import isolate, label, named
from .previous_password import PreviousPasswordDialog, previous_password_wrong, started_afresh

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
#: what a login that failed this way falls back on: the work saved on this computer
UNREACHABLE = (NetworkError, ServiceUnavailable, ProtocolError)


def icon_file() -> Path | None:
    """The app's icon: in the desktop bundle (resources/icons beside its code) or in a
    checkout; None from a wheel (the desktop entry names the installed icon there)."""
    bundle = getattr(sys, "_MEIPASS", None)
    root = Path(bundle) if bundle else Path(__file__).resolve().parents[2]
    found = root / "resources" / "icons" / "reviewer-app.png"
    return found if found.is_file() else None


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
    app.setDesktopFileName("reviewer-app")  # the desktop entry's icon under Wayland
    icon = icon_file()
    if icon is not None:  # X11 takes the window's own (_NET_WM_ICON)
        app.setWindowIcon(QIcon(str(icon)))
    # the language: the preference, else the system's (English when neither has a catalogue)
    language = language_for(P.Preferences().get(P.LANGUAGE))
    install_translators(app, language)
    if QLocale.system().language() != QLocale(language).language():
        # dates and numbers in the language chosen (German words, English "1,015": about 1)
        QLocale.setDefault(QLocale(language))
    app.setApplicationDisplayName(translate("App", "Review desk"))
    return app


def memory_only_note() -> str:
    """Said when the session's local store is in memory (no keyring holds its key)."""
    return translate(
        "App",
        "Nothing you review is kept on this computer: offline work is unavailable, and "
        "verdicts not yet sent are lost if the app stops before they are sent.",
    )


def keyring_note(result: LoginResult, key: ProfileKey | None = None) -> str | None:
    """What to tell a reviewer whose login the keyring does not keep (None when it does).
    With a store key protected by the password (``KeyMode.password``) their work is kept
    and offline work is there: a plain sentence, not a warning."""
    if result.saved.persistent:
        return None
    first = translate(
        "App",
        "Your login is kept for this session only ({reason}); you will be asked to log in "
        "again next time.",
    ).format(reason=keyring_reason(result.saved.problem, result.saved.culprit))
    if key is not None and key.mode is KeyMode.password and key.key is not None:
        return (
            first
            + " "
            + translate(
                "App",
                "Your work on this computer is encrypted with a key that only your password "
                "opens, so you can work offline and start the app without a network.",
            )
        )
    return first + " " + memory_only_note()


def open_session(
    server_url: str,
    result: LoginResult | None,
    token: str | None,
    *,
    credentials: Credentials,
    data_root: Path | None = None,
    key: ProfileKey | None = None,
    offline: OfflineStart | None = None,
) -> tuple[ReviewSession, SyncBridge]:
    """The session ``open_window`` shows (its store opened, its engine not started) and the
    bridge its engine reports through. Made before the login dialog closes, so that a
    store that cannot be opened (``StoreError``: written by a newer release, locked, …) is
    said in the dialog, which stays (the reviewer tries again or quits)."""
    bridge = SyncBridge()
    if offline is not None:
        user, token, key = offline.user, offline.token, offline.key
    else:
        assert result is not None
        user = result.user
    session = ReviewSession(
        server_url,
        user,
        token,
        credentials=credentials,
        data_root=data_root,
        listener=bridge,
        key=key,
        offline=offline is not None,
    )
    return session, bridge


def open_window(
    server_url: str,
    result: LoginResult | None,
    token: str | None,
    *,
    credentials: Credentials,
    prefs: P.Preferences,
    data_root: Path | None = None,
    note: str | None = None,
    key: ProfileKey | None = None,
    offline: OfflineStart | None = None,
    quiet: bool = False,
    opened: tuple[ReviewSession, SyncBridge] | None = None,
) -> MainWindow:
    """A session, its sync engine (started) and the review window (shown). ``key``: the
    store's key (``ReviewSession.profile_key``; without one the keyring's, else a memory
    store). ``offline``: a start with no network from what this computer keeps (instead of
    ``result`` and ``token``). ``note``: a notice for the banner; ``quiet``: none at all
    (the demo, whose login is published and whose store is its own). ``opened``: the
    session and bridge ``open_session`` made for these (else they are made here)."""
    if opened is None:
        opened = open_session(
            server_url,
            result,
            token,
            credentials=credentials,
            data_root=data_root,
            key=key,
            offline=offline,
        )
    session, bridge = opened
    if offline is not None:
        key = offline.key
    if session.memory_only and note is None and not quiet:
        note = memory_only_note()  # the keyring keeps the login but would not keep the store key
    said = None  # what became of the work here, then the note: the banner stays (not the status)
    if session.store.moved_aside_to is not None:
        said = store_moved_aside(session.store.moved_aside_to)
    elif key is not None and key.moved_aside is not None:
        said = (started_afresh if key.afresh else store_moved_aside)(key.moved_aside)
    elif key is not None and key.waiting is not None:
        said = saved_work_waits(keyring_reason(credentials.problem, credentials.culprit))
    note = None if quiet else note
    banner = " ".join(text for text in (said, note) if text)
    window = MainWindow(session, bridge, prefs, keyring_note=banner or None, standing_note=note)
    bridge.setParent(window)
    if offline is not None:
        window.started_offline(offline_start(offline.summary.unsent, offline.summary.posts))
    session.start()
    window.show()
    window.destroyed.connect(lambda *_: session.engine.stop())
    _freeze_after_first_post(window)
    if os.environ.get(STARTUP_PROBE_ENV):
        _probe_startup(window)
    return window


def _freeze_after_first_post(window: MainWindow) -> None:
    """Once the first post is on screen, what the start made (modules, Qt wrappers, the
    window) is moved out of the cyclic collector's sight (``gc.freeze``): a full
    collection otherwise walks all of it again, a pause of tens of milliseconds that
    lands on some keypress of the shift. Once a process: what later windows make is the
    collector's as usual."""
    if _frozen:
        return

    def on_painted() -> None:
        window.post.text.first_painted.disconnect(on_painted)
        QTimer.singleShot(0, _freeze)

    window.post.text.first_painted.connect(on_painted)


_frozen: list[bool] = []


def _freeze() -> None:
    if not _frozen:
        _frozen.append(True)
        gc.collect()
        gc.freeze()


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


class _Unreachable:
    """The login could not reach the server (``error``): the offline start is tried next."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def start_offline(
    dialog: LoginDialog,
    login: tuple[str, str, str],
    why: BaseException,
    *,
    prefs: P.Preferences,
    credentials: Credentials,
    on_window: Callable[[MainWindow], None],
    data_root: Path | None,
) -> None:
    """The server cannot be reached (``why``): open the work this computer keeps for the
    ``login``'s server and user (server, user name, password) and start the window offline."""
    server, username, password = login
    dialog.show_status(offline_opening())

    def work() -> OfflineStart:
        return ReviewSession.open_offline(
            server, username, password, credentials=credentials, data_root=data_root
        )

    def done(start: OfflineStart) -> None:
        dialog.show_status(offline_start(start.summary.unsent, start.summary.posts))
        try:
            opened = open_session(
                server, None, None, credentials=credentials, data_root=data_root, offline=start
            )
        except StoreError as err:  # said in the dialog, which stays: try again, or quit
            dialog.show_error(describe(err).line())
            return
        dialog.succeeded()
        window = open_window(
            server,
            None,
            None,
            credentials=credentials,
            prefs=prefs,
            data_root=data_root,
            offline=start,
            opened=opened,
        )
        on_window(window)

    def failed(err: BaseException) -> None:
        if isinstance(err, WrongPassword):
            dialog.show_error(offline_wrong_password())
        elif isinstance(err, NothingSaved):
            said = offline_nothing_saved(err)
            if err.before_encryption or err.key_missing:  # words that leave the server out
                unreachable = describe(why, during=translate("App", "logging in")).title
                said = f"{unreachable} {said}"
            dialog.show_error(said)  # the others begin "The server cannot be reached"
        else:
            dialog.show_error(describe(err).line())

    run_in_background(dialog, work, done, failed)


def ask_previous_password(
    dialog: LoginDialog,
    login: tuple[str, str, str],
    key: ProfileKey,
    then: Callable[[ProfileKey], None],
    data_root: Path | None,
) -> None:
    """The ``login``'s password (server, user, password) does not open the work kept here
    (``key.locked``): the previous one opens it, or it is moved aside; then ``then``."""
    server, user, password = login
    ask = PreviousPasswordDialog(key.unsent, dialog)

    def run(work: Callable[[], ProfileKey]) -> None:
        def done(found: ProfileKey) -> None:
            ask.accept()
            then(found)

        def failed(err: BaseException) -> None:
            wrong = isinstance(err, WrongPassword)
            ask.show_error(previous_password_wrong() if wrong else describe(err).line())

        run_in_background(ask, work, done, failed)

    reopen = partial(ReviewSession.reopen, server, user, data_root=data_root)
    afresh = partial(ReviewSession.start_afresh, server, user, data_root=data_root)
    ask.unlock_requested.connect(lambda old: run(lambda: reopen(old, password)))
    ask.afresh_requested.connect(lambda: run(lambda: afresh(password)))
    left = translate("App", "Your saved work was left as it is; log in again to open it.")
    ask.rejected.connect(lambda: dialog.show_error(left))
    ask.open()


def _login_failed(dialog: LoginDialog, server: str, err: BaseException) -> None:
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


def run_login(
    prefs: P.Preferences,
    credentials: Credentials,
    on_window: Callable[[MainWindow], None],
    *,
    data_root: Path | None = None,
) -> LoginDialog:
    """The login dialog. When the server cannot be reached, the work this computer keeps
    for that server and user is opened instead (the saved login and the keyring's key, or
    the key the password opens): the dialog says so and the window starts offline."""
    dialog: LoginDialog

    def attempt(server: str, username: str, password: str) -> None:
        def work() -> tuple[LoginResult, str, ProfileKey] | _Unreachable:
            try:
                return ReviewSession.log_in_with_key(
                    server, username, password, credentials=credentials, data_root=data_root
                )
            except CertificateError:
                raise  # reachable but not trusted: said as such, never an offline start
            except UNREACHABLE as err:
                return _Unreachable(err)

        def done(value: tuple[LoginResult, str, ProfileKey] | _Unreachable) -> None:
            if isinstance(value, _Unreachable):
                log.info("login: the server cannot be reached (%s)", type(value.error).__name__)
                start_offline(
                    dialog,
                    (server, username, password),
                    value.error,
                    prefs=prefs,
                    credentials=credentials,
                    on_window=on_window,
                    data_root=data_root,
                )
                return
            result, token, key = value
            if key.locked is not None:  # the password changed since the work here was saved
                login = (server, result.user.username, password)
                ask_previous_password(dialog, login, key, partial(go_on, result, token), data_root)
                return
            go_on(result, token, key)

        def go_on(result: LoginResult, token: str, key: ProfileKey) -> None:
            try:  # the store opens before the dialog closes: a failure is said there
                opened = open_session(
                    server, result, token, credentials=credentials, data_root=data_root, key=key
                )
            except StoreError as err:  # (a newer release's, locked, …): try again, or quit
                log.warning("login: the local store cannot be opened: %s", err)
                dialog.show_error(describe(err).line())
                return
            dialog.succeeded()
            window = open_window(
                server,
                result,
                token,
                credentials=credentials,
                prefs=prefs,
                data_root=data_root,
                key=key,
                note=keyring_note(result, key),
                opened=opened,
            )
            on_window(window)

        run_in_background(dialog, work, done, partial(_login_failed, dialog, server))

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


class StartingWindow(QWidget):
    """On screen at once while the login runs in the background (it took 4-6 s on a busy
    machine, with nothing on screen); the review window takes its place."""

    def __init__(self, server_url: str, username: str) -> None:
        super().__init__()
        named(self, "startingWindow", translate("App", "Starting the review desk"))
        self.setWindowTitle(translate("App", "Review desk"))
        layout = QVBoxLayout(self)
        self.words = label(
            translate("App", "Logging in to {server} as {user}…").format(
                server=isolate(server_url), user=isolate(username)
            )
        )
        named(self.words, "startingWords", translate("App", "What the app is doing"))
        busy = QProgressBar()
        busy.setRange(0, 0)  # no figure to show: it moves while the login runs
        named(busy, "startingBusy", translate("App", "Logging in"))
        layout.addWidget(self.words)
        layout.addWidget(busy)
        self.resize(460, 120)


def start_with_login(
    server_url: str,
    username: str,
    password: str,
    *,
    credentials: Credentials,
    prefs: P.Preferences,
    on_window: Callable[[MainWindow], None],
    on_failure: Callable[[BaseException], None],
    data_root: Path | None = None,
    demo: bool = False,
    ready: Callable[[], None] | None = None,
) -> None:
    """Log in with known credentials (the demo) in the background, then open the window;
    a small window says so meanwhile. ``ready``, when given, is waited for first, in the
    background too (the demo's service starting in its own process).

    The demo's login is in memory only (it has no place in the reviewer's keyring) and its
    store lives in its own data folder (``data_root``) under a key wrapped with its
    password, as on a workstation without a keyring: the password is published, so that
    key keeps nothing secret, but the demo shows the real offline work (the store survives
    a restart, "Work offline" fills it) and says nothing alarming."""
    holder = StartingWindow(server_url, username)  # the callbacks' home until the window
    holder.show()

    def work() -> tuple[LoginResult, str, ProfileKey]:
        return ReviewSession.log_in_with_key(
            server_url,
            username,
            password,
            credentials=credentials,
            data_root=data_root,
            first=ready,  # the store key's KDF runs while the service starts
            # the demo's password is published: its key file's KDF at the least cost
            kdf=PUBLISHED_PASSWORD_PARAMS if demo else DEFAULT_PARAMS,
        )

    def done(value: tuple[LoginResult, str, ProfileKey]) -> None:
        result, token, key = value
        try:
            window = open_window(
                server_url,
                result,
                token,
                credentials=credentials,
                prefs=prefs,
                data_root=data_root,
                key=key,
                note=None if demo else keyring_note(result, key),
                quiet=demo,
            )
        except StoreError as err:  # (a newer release's, locked, …): said, not dropped
            failed(err)
            return
        holder.hide()  # after the window is up: never a moment with nothing on screen
        holder.deleteLater()
        on_window(window)

    def failed(err: BaseException) -> None:
        on_failure(err)  # (a message box) while the small window still keeps the app open
        holder.hide()
        holder.deleteLater()

    run_in_background(holder, work, done, failed)


def run_with_login(
    server_url: str,
    username: str,
    password: str,
    *,
    data_root: Path | None = None,
    demo: bool = False,
    ready: Callable[[], None] | None = None,
) -> int:
    """Log in with known credentials (the demo), then the review window; the login runs in
    the background while the event loop runs (after ``ready``, when given, returns)."""
    app = application()
    prefs = P.Preferences()
    P.apply_look(prefs)
    windows: list[MainWindow] = []

    def failed(err: BaseException) -> None:  # shown to the person who started the app
        message = describe(err, during=translate("App", "logging in to the demo server"))
        QMessageBox.critical(None, translate("App", "Review desk"), message.text())
        app.exit(1)

    start_with_login(
        server_url,
        username,
        password,
        credentials=Credentials(memory_only=demo),
        prefs=prefs,
        on_window=windows.append,
        on_failure=failed,
        data_root=data_root,
        demo=demo,
        ready=ready,
    )
    code = app.exec()
    for window in windows:
        close_session(window)
    return code
