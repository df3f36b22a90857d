"""``reviewer-app --demo``: the embedded reference service on 127.0.0.1, seeded once.

The one module allowed to join ``server`` and the client. ``--demo`` runs the service in a
process of its own (``DemoProcess``), started before the app imports Qt, and opens the
review window on it, logged in as a demo account; the self-test and the tests run it on a
background thread (``DemoServer``). The service's modules are imported only where it runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING

from reviewer_app.core.paths import data_dir as client_data_dir
from reviewer_app.core.paths import private_folder
from reviewer_app.demo_state import (
    DEMO_ACCOUNTS,
    demo_port,
    demo_url,
    failure_reason,
    free_port,
    listening_socket,
    plan_start,
    port_is_free,
)

if TYPE_CHECKING:
    from reviewer_app.ui.main_window import MainWindow

__all__ = ["DEMO_ACCOUNTS", "demo_port", "free_port", "port_is_free"]


def demo_folder() -> Path:
    """The demo's own data folder (its service's database and its client's store)."""
    return client_data_dir() / "demo"


def demo_database(data_dir: Path | None = None) -> Path:
    folder = data_dir or demo_folder()
    private_folder(folder)
    return folder / "demo-server.db"


def demo_client_root(data_dir: Path | None = None) -> Path:
    """Where the demo client keeps its store: in the demo's folder, never beside a real
    profile's (the demo's passwords are published)."""
    return (data_dir or demo_folder()) / "client"


class DemoServer:
    """The demo service on a background thread (127.0.0.1 only)."""

    def __init__(self, database: Path, port: int = 0) -> None:
        import uvicorn

        from reviewer_app.server.demo.whole import demo_settings, seed_lock, seed_whole, seeded
        from reviewer_app.server.http.app import create_app
        from reviewer_app.server.service import Service

        self.settings = demo_settings(database)
        # the port first: one taken (another demo starting on it) is said before any seed
        self._socket = listening_socket(port)
        self.port = int(self._socket.getsockname()[1])
        try:
            with seed_lock(database):  # another demo's first start may be seeding it now
                if not seeded(database):
                    seed_whole(database)
            self.service = Service(self.settings)
            self.service.start()
        except BaseException:
            self._socket.close()
            raise
        app = create_app(self.settings, service=self.service)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", access_log=False
        )
        self._server = uvicorn.Server(config)
        self._thread = threading.Thread(
            target=self._server.run,
            kwargs={"sockets": [self._socket]},
            name="demo-server",
            daemon=True,
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self._thread.start()
        while not self._server.started and self._thread.is_alive():
            self._thread.join(0.05)
        if not self._server.started:
            raise RuntimeError("the demo server did not start")

    def wait(self) -> None:
        """Block until the server stops (Ctrl+C ends the wait)."""
        while self._thread.is_alive():
            self._thread.join(1.0)

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread.is_alive():
            self._thread.join(10)
        self._socket.close()


def start_demo_server(database: Path, port: int = 0, role: str = "reviewer") -> DemoServer:
    """The demo service of ``role`` on the port its last demo used when it is free, else on
    another, where its account's store is carried (``demo_state.plan_start``); what that
    account held is given back only when its store could not be carried (a killed demo
    does not give its prefetched posts back: they would show as "being reviewed" by
    nobody until the leases ran out)."""
    start = plan_start(database.parent, role, port)
    if start.running:
        raise RuntimeError(f"a demo runs as {role} on {demo_url(start.port)}")
    server = DemoServer(database, start.port)
    if start.release:
        _release_held(server, role)
    server.start()
    return server


def _release_held(server: DemoServer, role: str) -> None:
    """What ``role``'s account holds, given back: that account's only (another role's demo
    may be running)."""
    server.service.release_everything_held(DEMO_ACCOUNTS[role][0])


#: the first argument of ``reviewer-app`` that makes it the demo's service process (started
#: by ``DemoProcess``; not a command for people, so not in ``--help``)
SERVICE_PROCESS = "--demo-service-process"
#: the line the service process prints once it serves
READY = "ready"
#: how long the app waits for its demo service (the first start seeds the database)
READY_TIMEOUT_SECONDS = 180.0


#: how the service process's last line on stderr begins when it stops on a failure (the
#: rest is the reason, which the app's message shows)
STOPPED = "The demo's service stopped: "


def service_command(
    database: Path, port: int, *, release_held: bool, role: str = "reviewer"
) -> list[str]:
    """The command that runs the demo's service process, from a checkout, a wheel or the
    bundle (whose executable is the app itself). ``-P``: not the working folder's
    ``reviewer_app`` (another checkout there) but this one (``service_env``).
    ``release_held``: give back what ``role``'s account holds (no other account's)."""
    program = [sys.executable]
    if not getattr(sys, "frozen", False):
        program += ["-P", "-m", "reviewer_app"]
    held = "release" if release_held else "keep"
    return [*program, SERVICE_PROCESS, str(database), str(port), held, role]


def service_env() -> dict[str, str]:
    """The app's environment, with this ``reviewer_app``'s folder first on the service's
    path (the same code as the app's) and UTF-8 on its pipes."""
    import os

    import reviewer_app

    env = dict(os.environ)
    env["PYTHONIOENCODING"] = "utf-8"
    if not getattr(sys, "frozen", False):
        home = str(Path(reviewer_app.__file__).resolve().parents[1])
        env["PYTHONPATH"] = os.pathsep.join(p for p in (home, env.get("PYTHONPATH")) if p)
    return env


class DemoProcess:
    """The demo service in a process of its own, started before the app imports Qt. Its
    imports and start (FastAPI's routes, the protocol's models, SQLAlchemy: most of what
    the demo's start used to wait for) run on another core while the app imports Qt and
    shows its first window. It prints ``READY`` once it serves, and ends when its input
    closes: when the app stops it, and when the app dies."""

    def __init__(
        self, database: Path, port: int, *, release_held: bool, role: str = "reviewer"
    ) -> None:
        self.port = port
        self._said_ready = False
        self._answered = threading.Event()  # it said it serves, or its output ended
        self._said: deque[str] = deque(maxlen=20)  # its last lines on stderr
        self._proc = subprocess.Popen(  # noqa: S603 (this program, its own arguments)
            service_command(database, port, release_held=release_held, role=role),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=service_env(),
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        threading.Thread(target=self._read, name="demo-service-output", daemon=True).start()
        self._errors = threading.Thread(
            target=self._read_errors, name="demo-service-errors", daemon=True
        )
        self._errors.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def exit_code(self) -> int | None:
        """None while it runs."""
        return self._proc.poll()

    def _read(self) -> None:
        assert self._proc.stdout is not None
        try:
            for line in self._proc.stdout:
                if not self._said_ready and line.strip() == READY:
                    self._said_ready = True
                    self._answered.set()
                else:  # anything else it prints is the terminal's, when there is one
                    with suppress(OSError, ValueError):
                        sys.stdout.write(line)
                        sys.stdout.flush()
        finally:
            with suppress(OSError):
                self._proc.stdout.close()
            self._answered.set()  # its output ended: it did too

    def _read_errors(self) -> None:
        """Its messages, to the terminal as they come, the last ones kept (``reason``)."""
        assert self._proc.stderr is not None
        try:
            for line in self._proc.stderr:
                self._said.append(line.rstrip("\r\n"))
                with suppress(OSError, ValueError, AttributeError):  # no terminal
                    sys.stderr.write(line)
                    sys.stderr.flush()
        finally:
            with suppress(OSError):
                self._proc.stderr.close()

    @property
    def reason(self) -> str | None:
        """Why it stopped, in its own last words (None when it did not say)."""
        said = [line for line in self._said if line.startswith(STOPPED)]
        return said[-1].removeprefix(STOPPED).strip() or None if said else None

    def wait_ready(self, timeout: float = READY_TIMEOUT_SECONDS) -> None:
        """Block until the service serves (a worker thread's wait); ``LocalServiceFailed``
        when it ended first or took longer than ``timeout``."""
        # here, not at the top: the protocol it imports is not for before the service starts
        from reviewer_app.core.errors import LocalServiceFailed

        if not self._answered.wait(timeout):
            raise LocalServiceFailed(timeout=timeout)
        if not self._said_ready or self._proc.poll() is not None:
            with suppress(subprocess.TimeoutExpired):
                self._proc.wait(5)
            self._errors.join(5)  # its last words, read
            raise LocalServiceFailed(exit_code=self._proc.returncode, reason=self.reason)

    def stop(self, timeout: float = 10.0) -> None:
        """Close its input and wait for it to end; killed after ``timeout``, or after
        ``READY_TIMEOUT_SECONDS`` while it has not said it serves (a first start seeds
        the database, and the seed is not cut short)."""
        if self._proc.stdin is not None:
            with suppress(OSError):
                self._proc.stdin.close()
        try:
            self._proc.wait(timeout if self._said_ready else READY_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


def serve_process(argv: list[str]) -> int:
    """``reviewer-app --demo-service-process DATABASE PORT release|keep ROLE``: the demo's
    service on 127.0.0.1:PORT (``DemoProcess``), until its input closes. A failure ends it
    with code 1 and one line on stderr that says why (``STOPPED``), never an abort."""
    import logging
    import signal

    # Ctrl+C in the terminal reaches both processes: the app's ending ends this one
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.basicConfig(level=logging.WARNING, format="%(name)s %(levelname)s %(message)s")
    database, port, held = Path(argv[0]), int(argv[1]), argv[2]
    role = argv[3] if len(argv) > 3 else "reviewer"
    app_gone = threading.Event()
    started: list[DemoServer] = []

    def watch_the_app() -> None:
        # os.read, not sys.stdin's buffer: a thread blocked in the buffer's read makes the
        # interpreter abort when it ends ("could not acquire lock ... at interpreter
        # shutdown") once the main thread stops on a failure
        with suppress(OSError):
            while os.read(0, 4096):
                pass  # the app writes nothing: the read ends when it closes its end or dies
        app_gone.set()
        if started:
            started[0].stop()

    # watched from the start: an app gone while this one seeds or starts ends it too
    threading.Thread(target=watch_the_app, name="demo-app-watch", daemon=True).start()
    try:
        _serve(database, port, role if held == "release" else None, app_gone, started)
    except Exception as err:  # said in one line: the app's message shows it
        with suppress(OSError, ValueError):
            print(f"{STOPPED}{failure_reason(err)}", file=sys.stderr, flush=True)
        return 1
    return 0


def _serve(
    database: Path,
    port: int,
    release: str | None,
    app_gone: threading.Event,
    started: list[DemoServer],
) -> None:
    server = DemoServer(database, port)
    try:
        if release is not None:
            _release_held(server, release)
        if app_gone.is_set():
            return
        server.start()
        started.append(server)
        if app_gone.is_set():
            server.stop()
        else:
            try:
                print(READY, flush=True)
            except OSError:  # the app went while this one started
                server.stop()
        server.wait()
    finally:
        server.stop()
        server.service.close()


def run_demo(role: str = "reviewer", port: int = 0) -> int:
    """Start the seeded demo service on 127.0.0.1 in its own process and open the review
    window on it; the app's imports run while the service's do. A demo of ``role`` already
    running starts no service: the login on its address says that copy has the store."""
    try:
        database = demo_database()
        start = plan_start(database.parent, role, port, demo_client_root())
    except OSError as err:  # before any window: one line, not a traceback
        print(
            f"reviewer-app: the demo cannot keep its data in {demo_folder()}: "
            f"{failure_reason(err)}",
            file=sys.stderr,
            flush=True,
        )
        return 1
    user, password = DEMO_ACCOUNTS[role]
    if start.running:
        from reviewer_app.ui.app import run_with_login

        print(
            f"A demo runs as {user} already, on {demo_url(start.port)}: use its window.",
            file=sys.stderr,
            flush=True,
        )
        return run_with_login(
            demo_url(start.port), user, password, demo=True, data_root=demo_client_root()
        )
    service = DemoProcess(database, start.port, release_held=start.release, role=role)
    try:
        from reviewer_app.ui.app import run_with_login

        print(
            f"Demo queue service on {service.url}/api/v1 (database {database}); "
            f"logging in as {user}",
            flush=True,
        )
        return run_with_login(
            service.url,
            user,
            password,
            demo=True,
            data_root=demo_client_root(),
            ready=service.wait_ready,
        )
    finally:
        service.stop()


#: how long ``--self-test`` may take before it fails (seconds)
SELF_TEST_TIMEOUT = 120.0


class SelfTestFailed(RuntimeError):
    """A step of ``--self-test`` did not happen in time or went wrong."""


def run_self_test(timeout: float = SELF_TEST_TIMEOUT) -> int:
    """``reviewer-app --self-test``: the real review window (offscreen when there is no
    display) on the embedded demo service in a temporary folder, with memory-only
    credentials. Decides one post with its verdict key, waits until the verdict is
    delivered, checks it on the service, prints one ``OK`` line with timings and returns 0;
    on any failure prints why on stderr and returns 1. A watchdog ends the process with
    code 3 if it hangs past ``timeout``."""
    import os
    import tempfile
    import time

    watchdog = threading.Timer(timeout + 30, _hung, args=(timeout + 30,))
    watchdog.daemon = True
    watchdog.start()
    started = time.monotonic()
    try:
        with tempfile.TemporaryDirectory(prefix="reviewer-app-self-test-") as folder:
            timings = _self_test(Path(folder), started + timeout)
    except Exception as err:
        print(f"reviewer-app self-test FAILED: {err}", file=sys.stderr, flush=True)
        return 1
    finally:
        watchdog.cancel()
    total = time.monotonic() - started
    steps = " ".join(f"{name}={seconds:.2f}s" for name, seconds in timings.items())
    platform = os.environ.get("QT_QPA_PLATFORM", "default")
    print(f"reviewer-app self-test OK in {total:.2f}s ({steps}; platform {platform})", flush=True)
    return 0


def _hung(seconds: float) -> None:
    import os

    print(f"reviewer-app self-test FAILED: hung for {seconds:.0f}s", file=sys.stderr, flush=True)
    os._exit(3)


def _quiet_size_hints() -> None:
    """The offscreen platform says it ignores size hints for every window; nothing else
    Qt says is hidden."""

    from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

    def handler(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if "propagateSizeHints" not in message:
            if previous is not None:
                previous(mode, context, message)
            else:
                print(message, file=sys.stderr)

    previous = qInstallMessageHandler(handler)


def _self_test(folder: Path, deadline: float) -> dict[str, float]:
    import time

    from PySide6.QtCore import QSettings

    from reviewer_app.core.credentials import Credentials
    from reviewer_app.core.session import ReviewSession
    from reviewer_app.ui import preferences as P
    from reviewer_app.ui.app import application, close_session, open_window

    timings: dict[str, float] = {}
    mark = time.monotonic()

    def step(name: str) -> None:
        nonlocal mark
        now = time.monotonic()
        timings[name] = now - mark
        mark = now

    app = application()
    _quiet_size_hints()

    def pump_until(condition: Callable[[], bool], what: str) -> None:
        while not condition():
            if time.monotonic() > deadline:
                raise SelfTestFailed(f"timed out waiting for {what}")
            app.processEvents()
            time.sleep(0.005)

    server = DemoServer(demo_database(folder / "server"))
    server.start()
    step("service")
    try:
        user, password = DEMO_ACCOUNTS["reviewer"]
        credentials = Credentials(memory_only=True)
        result, token = ReviewSession.log_in(server.url, user, password, credentials=credentials)
        prefs = P.Preferences(QSettings(str(folder / "ui.ini"), QSettings.Format.IniFormat))
        window = open_window(
            server.url,
            result,
            token,
            credentials=credentials,
            prefs=prefs,
            data_root=folder / "client",
        )
        try:
            _decide_one(window, server.url, pump_until, step)
        finally:
            close_session(window)
            window.close()
    finally:
        server.stop()
    _check_video_and_links()
    step("video_links")
    return timings


def _decide_one(
    window: MainWindow,
    server_url: str,
    pump_until: Callable[[Callable[[], bool], str], None],
    step: Callable[[str], None],
) -> None:
    """In the open window: the first post shown, decided by its action's key, the verdict
    delivered, and the service holding that decision (each step timed by ``step``)."""
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from reviewer_app.core.api import ApiClient
    from reviewer_app.core.settings import UNDO_WINDOW

    # the verdict is sent at once instead of after the undo window
    window.store.settings.set(UNDO_WINDOW.name, 0.0)
    window.activateWindow()
    pump_until(lambda: window.review.current is not None, "the first post")
    step("first_post")
    review = window.review
    queue, shown = review.queue, review.current
    assert queue is not None and shown is not None
    action = next(
        (
            a
            for a in queue.config.actions
            if a.key
            and not window.verdicts.selection(a).needs
            and not window.verdicts.selection(a).refusal
        ),
        None,
    )
    if action is None:
        raise SelfTestFailed(f"queue {queue.id} has no action that needs no input")
    item_id = shown.item.id
    # the action's shortcut, a digit 1-9 (protocol), typed into the focused widget
    QTest.keyClicks(QApplication.focusWidget() or window, action.key or "")
    if review.current is shown:
        raise SelfTestFailed(f"the key {action.key!r} ({action.id}) decided nothing")
    step("decide")
    pump_until(lambda: window.store.pending_count() == 0, "the verdict to be delivered")
    step("deliver")
    from reviewer_app.protocol import DecisionQuery

    with ApiClient(server_url) as api:
        api.login(*DEMO_ACCOUNTS["lead"])
        decisions = api.decisions(DecisionQuery(item_id=item_id)).decisions
    if [d.action for d in decisions] != [action.id]:
        raise SelfTestFailed(
            f"the service holds {[d.action for d in decisions]} for item {item_id}, "
            f"not [{action.id!r}]"
        )
    step("verify")


def _check_video_and_links() -> None:
    """What the bundle must carry for media and links: FFmpeg (PyAV) reads a video made
    here, IDNA and Unicode scripts (idna, fontTools) tell a homograph host."""
    import io

    import av
    from PySide6.QtCore import QUrl

    from reviewer_app.ui.links import examine
    from reviewer_app.ui.video import VideoFrames, read_video

    buffer = io.BytesIO()
    with av.open(buffer, "w", format="mp4") as out:
        stream = out.add_stream("mpeg4", rate=5)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        for _ in range(5):
            for packet in stream.encode(av.VideoFrame(64, 48, "yuv420p")):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    video = read_video(buffer.getvalue(), strip_frames=2)
    if not isinstance(video, VideoFrames) or video.poster.isNull():
        raise SelfTestFailed(f"a video could not be read: {video}")
    facts = examine(QUrl("https://p\u0430ypal.com/", QUrl.ParsingMode.StrictMode), "paypal.com")
    if facts.host_ascii != "xn--pypal-4ve.com" or not facts.mixed_scripts:
        raise SelfTestFailed(f"a homograph link was not told: {facts.host_ascii}")
