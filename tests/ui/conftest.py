"""The review window against the real service (the demo dataset) over HTTP, offscreen."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QFont, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QStyle, QStyleFactory
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.session import ReviewSession
from reviewer_app.server.demo.whole import seed_whole
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import close_session, open_window
from reviewer_app.ui.main_window import MainWindow
from reviewer_app.ui.style import style_name
from tests.support.keyring_memory import MemoryKeyring
from tests.support.servers import LiveServer

REVIEWER = ("reviewer", "review-desk-demo")
LEAD = ("lead", "review-desk-lead")


#: how old the seeded demo database that tests copy may be before it is seeded again: the
#: demo's times (waiting, over SLA, decided today) are set relative to its seeding
DEMO_COPY_MAX_AGE = 240.0


@dataclass
class _Seeded:
    database: Path
    at: float


@pytest.fixture(scope="session")
def _demo_seeded(tmp_path_factory: pytest.TempPathFactory) -> Callable[[], Path]:
    """The demo seeded whole into a file once for a few minutes of tests (seeding takes
    5-6 s, copying the file milliseconds; as ``reviewer-app --demo`` seeds it)."""
    seeded: list[_Seeded] = []

    def latest() -> Path:
        if not seeded or time.monotonic() - seeded[-1].at > DEMO_COPY_MAX_AGE:
            database = tmp_path_factory.mktemp("demo-seeded") / "demo.db"
            started = time.monotonic()
            seed_whole(database)
            seeded.append(_Seeded(database, started))
        return seeded[-1].database

    return latest


@pytest.fixture
def demo_server(tmp_path: Path, _demo_seeded: Callable[[], Path]) -> Iterator[LiveServer]:
    """The service over a copy of the seeded demo database (see ``_demo_seeded``)."""
    database = tmp_path / "demo.db"
    shutil.copyfile(_demo_seeded(), database)
    server = LiveServer(f"sqlite:///{database}").start()
    try:
        yield server
    finally:
        server.stop()


@dataclass
class Desk:
    """The window under test and what a test needs around it."""

    window: MainWindow
    server_url: str
    qtbot: QtBot

    def press(
        self, key: Qt.Key, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    ) -> None:
        target = QApplication.focusWidget() or self.window
        QTest.keyClick(target, key, mods)

    def lead(self) -> ApiClient:
        client = ApiClient(self.server_url)
        client.login(*LEAD)
        return client

    def wait(self, condition: Callable[[], bool], timeout: int = 30_000) -> None:
        self.qtbot.waitUntil(condition, timeout=timeout)

    def current_id(self) -> str | None:
        current = self.window.review.current
        return current.item.id if current else None


def open_desk(
    qtbot: QtBot,
    server_url: str,
    data_root: Path,
    *,
    undo: float = 0.0,
    prefetch: int = 20,
    queue: str | None = None,
    user: tuple[str, str] = REVIEWER,
    store_settings: dict[str, float | int] | None = None,
) -> Desk:
    credentials = Credentials(MemoryKeyring())
    result, token = ReviewSession.log_in(server_url, *user, credentials=credentials)
    settings = QSettings(str(data_root / "ui.ini"), QSettings.Format.IniFormat)
    prefs = P.Preferences(settings)
    from reviewer_app.core.paths import store_path
    from reviewer_app.core.store import Store

    with Store(store_path(server_url.rstrip("/"), user[0], data_root)) as store:
        store.settings.set("undo_window_seconds", undo)
        store.settings.set("prefetch_target", prefetch)
        store.settings.set("backoff_cap_seconds", 1.0)
        store.settings.set("queue_refresh_seconds", 2.0)
        for name, value in (store_settings or {}).items():
            store.settings.set(name, value)
    window = open_window(
        server_url, result, token, credentials=credentials, prefs=prefs, data_root=data_root
    )
    qtbot.addWidget(window)
    window.review.guard_seconds = 0.05
    if window.lead is not None:  # the blind audit desk runs the same review flow
        window.lead.audits.desk.review.guard_seconds = 0.05
    window.activateWindow()
    qtbot.waitUntil(lambda: window.queues.rowCount() > 0, timeout=20_000)
    if queue is not None:
        window.queue_picker.setCurrentIndex(window.queues.row_of(queue))
    qtbot.waitUntil(lambda: window.review.current is not None, timeout=20_000)
    return Desk(window, server_url, qtbot)


@pytest.fixture
def desk_factory(qtbot: QtBot, tmp_path: Path) -> Iterator[Callable[..., Desk]]:
    opened: list[Desk] = []

    def make(server_url: str, **kw: object) -> Desk:
        desk = open_desk(qtbot, server_url, tmp_path / f"client{len(opened)}", **kw)  # type: ignore[arg-type]
        opened.append(desk)
        return desk

    yield make
    for desk in opened:
        close_session(desk.window)
        desk.window.close()


@pytest.fixture(autouse=True)
def _quiet_offscreen_size_hints() -> Iterator[None]:
    """The offscreen platform warns that it ignores size hints; nothing else is hidden."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(mode: object, context: object, message: str) -> None:
        if "propagateSizeHints" not in message:
            previous(mode, context, message)  # type: ignore[misc]

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)


def conflict_store(root: Path, *, queues: bool = False):
    """A store holding one conflict, made the real way: A's lease expires, B decides;
    ``queues``: with the queues stored, as the sync engine stores them."""
    from reviewer_app.core.store import Store
    from reviewer_app.protocol import Role
    from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
    from tests.support.api import ApiSession, verdict
    from tests.support.client import login
    from tests.support.clock import ManualClock

    clock = ManualClock()
    server = LiveServer(f"sqlite:///{root / 'conflict.db'}", clock=clock).start()
    try:
        seed_load_queue(server.service, 3)
        a, b = login(server, "ann"), login(server, "ben")
        server.add_user("lead", Role.lead)
        store = Store(root / "ann.sqlite3")
        if queues:
            store.save_queues(a.queues().queues)
        store.add_leased(a.claim(LOAD_QUEUE.id, 1, 60))
        item_id = store.worklist()[0].item_id
        clock.advance(120)
        grant = b.claim(LOAD_QUEUE.id, 3, 300)
        rival = next(i for i in grant.items if i.item.id == item_id)
        ApiSession(server.url, b.token).decide(
            [verdict(json.loads(rival.model_dump_json()), "remove", policies=["SPAM.SCAM"])]
        )
        store.record_verdict(item_id, action="keep", note="looks fine to me", undo_window=0)
        out = store.take_due(time.time() + 1, 10)
        store.settle(a.verdicts([o.verdict for o in out]).results)
        return store
    finally:
        server.stop()


@pytest.fixture(scope="session", autouse=True)
def _english_ui(qapp: QApplication) -> None:
    """Tests read the English texts, whatever the machine's locale: the app's catalogues are
    only installed by ``reviewer_app.ui.app.application()``, which returns this (pytest-qt's)
    application untouched, and the default locale is English."""
    from PySide6.QtCore import QLocale

    QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))


@pytest.fixture(scope="session")
def _qt_own_look(qapp: QApplication) -> tuple[QFont, QPalette, str, type[QStyle]]:
    """The application's font, palette and style (its name and kind: the app's own look
    draws Fusion through a proxy) before any test changed them."""
    style = qapp.style()
    return QFont(qapp.font()), QPalette(qapp.palette()), style_name(style), type(style)


@pytest.fixture(autouse=True)
def _each_test_starts_with_qt_own_look(
    qapp: QApplication, _qt_own_look: tuple[QFont, QPalette, str, type[QStyle]]
) -> Iterator[None]:
    """A test that applies the app's look (its 11-point text, a theme, its scroll bars)
    leaves it behind for the next test in the process otherwise (which tests share a
    process depends on how the run is split)."""
    yield
    font, palette, name, kind = _qt_own_look
    style = qapp.style()
    if type(style) is not kind or style_name(style) != name:
        qapp.setStyle(QStyleFactory.create(name))
    if qapp.font() != font:
        qapp.setFont(font)
    if qapp.palette() != palette:
        qapp.setPalette(palette)
