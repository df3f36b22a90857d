"""A reviewer's own keys are theirs, on that server (issue 19): two reviewers who share this
computer's account (one preferences file) each keep their own keys, and a queue of the same
id on another server keeps the queue's keys. The shared keys of an earlier release become
each reviewer's own once; a key press reads no settings. Real service for the desks."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QKeySequence

from reviewer_app.protocol import Queue, QueueCounts
from reviewer_app.server.demo.queues import DEMO_QUEUES
from reviewer_app.ui import preferences as P
from reviewer_app.ui.app import close_session
from reviewer_app.ui.keys import Command, Keymap
from reviewer_app.ui.shortcuts_page import ShortcutsPage
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk, open_desk
from tests.ui.test_keyboard import HATE, give_key, in_settings

K = Qt.Key
PROFILE = "ui.ini"


@pytest.fixture
def desks(qtbot, tmp_path: Path) -> Iterator[Callable[..., Desk]]:
    """Desks on one computer account: each opens with the preferences file the last one
    left (``ui.ini``, copied on), in a data folder of its own (each desk's store key lives
    in that desk's memory keyring, so a store is never opened twice)."""
    opened: list[Desk] = []

    def make(url: str, user: tuple[str, str]) -> Desk:
        root = tmp_path / f"desk{len(opened)}"
        root.mkdir()
        if opened:
            shutil.copy(tmp_path / f"desk{len(opened) - 1}" / PROFILE, root / PROFILE)
        desk = open_desk(qtbot, url, root, user=user, queue=HATE)
        opened.append(desk)
        return desk

    yield make
    for desk in opened:
        close(desk)


def close(desk: Desk) -> None:
    if desk.window.is_open:
        close_session(desk.window)
        desk.window.close()


def skip_keys(desk: Desk) -> list[str]:
    return [k.toString() for k in desk.window.keymap.keys(Command.SKIP)]


def remap_skip(desk: Desk, key: Qt.Key) -> None:
    def drive(_dialog: object, page: ShortcutsPage) -> None:
        give_key(page, ("command", Command.SKIP.value), key)
        assert "is now the key of" in page.status.text()

    in_settings(desk, drive)


def skips_with(desk: Desk, key: Qt.Key) -> None:
    """``key`` skips the post on screen."""
    shown = desk.current_id()
    desk.qtbot.wait(60)
    desk.press(key)
    desk.wait(lambda: desk.current_id() != shown)
    assert next(r for r in desk.window.store.worklist(HATE) if r.item_id == shown).state == (
        "skipped"
    )


def test_two_reviewers_on_one_account_each_keep_their_own_keys(
    demo_server: LiveServer, desks
) -> None:
    reviewer = desks(demo_server.url, REVIEWER)
    remap_skip(reviewer, K.Key_J)
    assert skip_keys(reviewer) == ["J"]
    skips_with(reviewer, K.Key_J)
    close(reviewer)

    # the lead, on the same account (the same preferences file): the default, S
    lead = desks(demo_server.url, LEAD)
    assert skip_keys(lead) == ["S"]
    assert lead.window.keymap.is_default(Command.SKIP)
    skips_with(lead, K.Key_S)
    remap_skip(lead, K.Key_K)  # and their own key, which the reviewer never gets
    assert skip_keys(lead) == ["K"]
    close(lead)

    # the reviewer after a restart: their key back, not the lead's
    again = desks(demo_server.url, REVIEWER)
    assert skip_keys(again) == ["J"]
    skips_with(again, K.Key_J)
    close(again)

    # and the lead's stays theirs
    lead_again = desks(demo_server.url, LEAD)
    assert skip_keys(lead_again) == ["K"]


# --- without a window -------------------------------------------------------------------

SERVER = "https://review.example"
OTHER_SERVER = "https://review.other.example"


def prefs_at(path: Path) -> P.Preferences:
    return P.Preferences(QSettings(str(path), QSettings.Format.IniFormat))


def demo_queue() -> Queue:
    seed = DEMO_QUEUES[0]
    return Queue(
        id=seed.id,
        name=seed.name,
        counts=QueueCounts(pending=0, leased=0, decided_today=0),
        config=seed.config,
    )


def test_a_queues_action_key_holds_on_its_server_only(qtbot, tmp_path: Path) -> None:
    queue = demo_queue()
    action = queue.config.actions[0]
    prefs = prefs_at(tmp_path / PROFILE)
    here = Keymap(prefs, SERVER, "reviewer")
    here.set_action_key(queue, action.id, QKeySequence("J"), [queue])
    assert here.action_key(queue.id, action) == QKeySequence("J")

    later = prefs_at(tmp_path / PROFILE)  # a restart
    assert Keymap(later, SERVER, "reviewer").action_key(queue.id, action) == QKeySequence("J")
    there = Keymap(later, OTHER_SERVER, "reviewer")
    assert there.action_is_default(queue.id, action.id)
    assert there.action_key(queue.id, action) == QKeySequence(action.key or "")


def test_the_shared_keys_of_an_earlier_release_are_each_reviewers_once(
    qtbot, tmp_path: Path
) -> None:
    shared = QSettings(str(tmp_path / PROFILE), QSettings.Format.IniFormat)
    shared.setValue(f"{P.SHARED_SHORTCUTS}/{Command.SKIP.value}", "J")
    shared.setValue(f"{P.SHARED_SHORTCUTS}/{Command.SETTINGS.value}", "Ctrl+;")
    shared.sync()

    keymap = Keymap(prefs_at(tmp_path / PROFILE), SERVER, "reviewer")
    assert [k.toString() for k in keymap.keys(Command.SKIP)] == ["J"]
    assert [k.toString() for k in keymap.keys(Command.SETTINGS)] == ["Ctrl+;"]
    keymap.reset_all()
    # read once: after a restart the defaults the reviewer chose stay
    again = Keymap(prefs_at(tmp_path / PROFILE), SERVER, "reviewer")
    assert [k.toString() for k in again.keys(Command.SKIP)] == ["S"]
    # another reviewer with no keys of their own yet starts from the shared ones too
    other = Keymap(prefs_at(tmp_path / PROFILE), SERVER, "lead")
    assert [k.toString() for k in other.keys(Command.SKIP)] == ["J"]


def test_a_key_press_reads_no_settings(qtbot, tmp_path: Path) -> None:
    prefs = prefs_at(tmp_path / PROFILE)
    keymap = Keymap(prefs, SERVER, "reviewer")
    keymap.set_key(Command.SKIP, QKeySequence("J"), [])
    prefs.qsettings.clear()  # what the key filter asks is in memory: it still knows J
    assert [k.toString() for k in keymap.keys(Command.SKIP)] == ["J"]
    assert not keymap.is_default(Command.SKIP)
