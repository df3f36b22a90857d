"""A break taken with no network reaches the service: kept in the local store (not only
in the sync engine's memory) until the service has it, so an app closed before the
network came back sends it at its next start, start and end, as one break."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.support.keyring_memory import MemoryKeyring
from tests.support.proxy import FaultProxy
from tests.support.servers import LiveServer
from tests.ui.test_shift_tally import _close, _open
from tests.ui.test_wellbeing import _breaks, _decide, gore_server  # noqa: F401 - a fixture


def test_a_break_taken_offline_is_sent_at_the_next_start(
    gore_server: LiveServer,  # noqa: F811 - the fixture
    qtbot: QtBot,
    tmp_path: Path,
) -> None:
    proxy = FaultProxy(gore_server.port).start()
    root, keyring = tmp_path / "client", MemoryKeyring()
    try:
        desk = _open(qtbot, proxy.url, root, keyring)
        try:
            _decide(desk, 1)
            desk.wait(lambda: desk.window.store.pending_count() == 0, 30_000)
            proxy.offline()
            desk.wait(lambda: desk.window.online is False, 20_000)
            desk.press(Qt.Key.Key_B)
            assert desk.window.break_screen.isVisible()
            desk.qtbot.wait(1_500)
            desk.press(Qt.Key.Key_B)  # back to work, still offline
            assert not desk.window.break_screen.isVisible()
            desk.qtbot.wait(500)
        finally:
            _close(desk)  # closed before the network came back
        proxy.online()
        qtbot.wait(1_000)
        assert _breaks(gore_server) == []  # nothing could send it meanwhile

        again = _open(qtbot, proxy.url, root, keyring)  # the next start, online
        try:
            again.wait(lambda: _breaks(gore_server) == [True], 20_000)
            again.qtbot.wait(2_500)  # more passes: sent once, one break, kept no longer
            assert _breaks(gore_server) == [True]
            assert again.window.store.unsent_breaks() == []
        finally:
            _close(again)
    finally:
        proxy.stop()
