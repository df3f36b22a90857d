"""The rest of the window: conflicts beside the decision that won, work offline with a
progress bar, the shortcut list, settings, notices in plain words, the command line without
a display, and a long run of Qt calls (the PySide6 6.12.0 / CPython 3.11 crash)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, QSettings, QSize, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel

from reviewer_app.core.store import Store
from reviewer_app.ui import preferences as P
from reviewer_app.ui.dialogs import ConflictsView, SettingsDialog, ShortcutsDialog
from reviewer_app.ui.keys import COMMANDS, Command, what
from reviewer_app.ui.main_window import first_geometry
from reviewer_app.ui.models import item_words
from reviewer_app.ui.plain import isolate, tooltip
from reviewer_app.ui.words import code_words, local_time
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, close_session, conflict_store, open_desk

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("queue_stored", [True, False], ids=["queue stored", "no queue"])
def test_conflicts_view_shows_both_decisions_and_resolves(
    qtbot, tmp_path: Path, queue_stored: bool
) -> None:
    store = conflict_store(tmp_path, queues=queue_stored)  # with it, actions by their labels
    assert (store.queue(store.conflicts()[0].item.queue_id) is not None) == queue_stored
    view = ConflictsView(store)
    qtbot.addWidget(view)
    view.show()
    assert view.model.rowCount() == 1
    mine, theirs = view.mine.toPlainText(), view.theirs.toPlainText()
    conflict = store.conflicts()[0]
    queue = store.queue(conflict.item.queue_id)
    labels = queue.config.action_labels() if queue else None
    keep, remove = code_words("keep", labels), code_words("remove", labels)
    assert "Your decision" in mine and f"Action: {keep}\n" in mine
    assert "looks fine to me" in mine
    assert f"by {isolate('ben')}" in theirs and f"Action: {remove}\n" in theirs
    assert "SPAM.SCAM" in theirs
    # words and local times, not codes: the item by its author and first words, the times
    # as the rest of the window gives them
    assert f"Decided {local_time(conflict.mine.decided_at)}" in mine and "UTC" not in mine
    assert conflict.item_id not in view.post.text()
    row = [view.model.index(0, c).data() for c in range(view.model.columnCount())]
    assert row[0] == item_words(conflict.item.author.handle, conflict.item.post.text)
    assert row[1] == keep and row[2] == f"{remove} SPAM.SCAM"
    # a cell cut at its column's end has the whole text in its tooltip (plain text)
    tip = view.model.index(0, 2).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == tooltip(row[2]) and "SPAM.SCAM" in tip
    view.escalate_button.click()
    assert store.conflicts() == []
    assert store.conflicts(open_only=False)[0].resolution == "escalated"
    assert not view.accept_button.isEnabled()


def test_work_offline_shows_progress_and_fills_the_worklist(
    demo_server: LiveServer, desk_factory
) -> None:
    desk = desk_factory(demo_server.url, prefetch=5, queue="spam-scams")
    window = desk.window
    seen = []
    window.bridge.progress_changed.connect(lambda *args: seen.append(args))
    window.offline_button.click()
    assert window.progress.isVisibleTo(window)
    desk.wait(lambda: any(args[3] for args in seen), 30_000)
    assert not window.progress.isVisibleTo(window)
    done, total = seen[-1][1], seen[-1][2]
    assert total == 200 and 5 < done <= total  # the whole queue, up to the batch size
    assert [args[1] for args in seen] == sorted(args[1] for args in seen)
    if done < total:
        assert f"Only {done} of {total} items could be leased" in window.message.text()
    else:
        assert "Ready to work offline" in window.message.text()
    desk.wait(lambda: window.worklist.rowCount() >= done)


def test_shortcut_list_covers_every_key(qtbot) -> None:
    """The list (?) is made from the one table of commands: every command is in it with its
    keys, Ctrl+1/Ctrl+2 too, and nothing of the table is missing."""
    dialog = ShortcutsDialog()
    qtbot.addWidget(dialog)
    texts = " ".join(label.text() for label in dialog.findChildren(QLabel))
    for spec in COMMANDS:
        for key in spec.keys:
            assert QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText) in texts
        assert what(spec) in texts
    for key in ("1 … 9", "Alt+1", "Alt+9", "E", "Ctrl+Return", "Ctrl+Z", "Space", "?", "Esc"):
        assert key in texts
    for key in ("Ctrl+1", "Ctrl+2", "Ctrl+Q", "F6", "Ctrl+PgDown"):
        assert key in texts
    assert {spec.command for spec in COMMANDS} == set(Command) - {Command.ACTION}


def test_settings_are_stored_and_applied(qtbot, tmp_path: Path) -> None:
    prefs = P.Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
    with Store(tmp_path / "s.sqlite3") as store:
        dialog = SettingsDialog(prefs, store)
        qtbot.addWidget(dialog)
        dialog.prefetch.setValue(42)
        dialog.undo.setValue(8.5)
        dialog.blur.setChecked(False)
        dialog.theme.setCurrentText("dark")
        dialog.text_size.setValue(15)
        dialog.accept()
        assert store.settings.get_named("prefetch_target") == 42
        assert store.settings.get_named("undo_window_seconds") == 8.5
    again = P.Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
    assert again.get(P.BLUR) is False and again.get(P.THEME) == "dark"
    assert again.get(P.TEXT_SIZE) == 15
    from PySide6.QtWidgets import QApplication

    assert QApplication.font().pointSize() == 15
    P.apply_look(P.Preferences(QSettings(str(tmp_path / "q.ini"), QSettings.Format.IniFormat)))


def test_a_memory_only_login_is_told_in_the_window(
    demo_server: LiveServer, qtbot, tmp_path
) -> None:
    import keyring.errors

    from reviewer_app.core.credentials import Credentials
    from reviewer_app.core.session import ReviewSession
    from reviewer_app.ui.app import keyring_note, open_window
    from tests.support.keyring_memory import RefusingKeyring

    credentials = Credentials(RefusingKeyring(keyring.errors.KeyringLocked("locked")))
    result, token = ReviewSession.log_in(
        demo_server.url, "reviewer", "review-desk-demo", credentials=credentials
    )
    note = keyring_note(result)
    assert note and "this session only" in note and "KeyringLocked" in note
    prefs = P.Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
    window = open_window(
        demo_server.url,
        result,
        token,
        credentials=credentials,
        prefs=prefs,
        data_root=tmp_path,
        note=note,
    )
    try:
        assert window.banner.isVisibleTo(window) and window.banner.text() == note
        # a later notice takes the banner; once it is cleared, the note is back
        window.notify("2 of your verdicts conflict ...", kind="conflicts")
        assert window.banner.text().startswith("2 of your verdicts")
        window.notify("")
        assert window.banner.isVisibleTo(window) and window.banner.text() == note
    finally:
        window.shutdown()
        window.close()


def test_version_and_help_work_without_a_display() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("QT_QPA_PLATFORM", None)
    for flag, words in (("--version", "reviewer-app 0."), ("--help", "--demo")):
        out = subprocess.run(
            [sys.executable, "-m", "reviewer_app", flag],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        assert words in out.stdout


def test_a_long_run_of_qt_calls_does_not_crash(qtbot) -> None:
    """PySide6 6.12.0 on CPython 3.11 drops a reference to None on every Qt call that
    returns nothing and dies after some thousands ("none_dealloc"); the pin keeps it out.
    This run would die again if the pin went."""
    widget = QLabel()
    qtbot.addWidget(widget)
    for n in range(60_000):
        widget.setText(str(n))  # returns None
        widget.setTextFormat(Qt.TextFormat.PlainText)
    assert widget.text() == "59999"
    assert sys.getrefcount(None) > 1_000


def test_rejections_and_lost_leases_are_told_in_plain_words(
    qtbot, demo_server: LiveServer, desk_factory
) -> None:
    import uuid

    from reviewer_app.core.store import JournalEntry
    from reviewer_app.protocol import RejectReason, VerdictResult, VerdictStatus

    desk = desk_factory(demo_server.url, queue="spam-scams")
    window = desk.window
    current = window.review.current
    # the worklist names its posts once it has listed them (a refresh after the first post)
    qtbot.waitUntil(lambda: current.item.id in window.worklist.labels, timeout=10_000)
    verdict = window.store.record_verdict(current.item.id, action="not-spam", undo_window=60)
    result = VerdictResult(
        idempotency_key=uuid.UUID(verdict.key),
        item_id=current.item.id,
        status=VerdictStatus.rejected,
        reason=RejectReason(code="leased_to_other", message="<b>Someone else</b> has it now."),
    )
    entry = JournalEntry(**{**verdict.__dict__, "status": "rejected", "result": result})
    window.bridge.verdicts_settled.emit((entry,))
    named = window.worklist.labels.get(current.item.id)  # as the worklist names the post
    assert named and current.item.id not in named
    assert window.banner.text().startswith(f"The server refused your verdict on {named}")
    assert "<b>Someone else</b> has it now." in window.banner.text()
    shown = window.review.current.item.id
    window.bridge.leases_lost.emit((shown,))
    assert "taken back by the server" in window.message.text()


def test_focus_order_follows_the_review_flow(demo_server: LiveServer, desk_factory) -> None:
    desk = desk_factory(demo_server.url, queue="misinformation")
    window = desk.window
    order = []
    widget = window.post.text
    for _ in range(12):
        order.append(widget)
        widget = widget.nextInFocusChain()
        while not widget.focusPolicy() & Qt.FocusPolicy.TabFocus or not widget.isVisibleTo(window):
            widget = widget.nextInFocusChain()
    names = [w.objectName() or type(w).__name__ for w in order]
    assert names.index("postText") < names.index("policyCodes") < names.index("note")


def test_clear_local_data_asks_first_then_wipes_the_cache_and_its_key(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    desk = desk_factory(demo_server.url, queue="spam-scams")
    window = desk.window
    session = window.session
    path = session.path
    assert path.exists()
    assert session.credentials.store_key(session.server_url, session.user.username)
    texts: list[str] = []

    def answer(choose_clear: bool) -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        texts.append(box.text())
        wanted = (
            next(
                b
                for b in box.buttons()
                if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole
            )
            if choose_clear
            else box.button(QMessageBox.StandardButton.Cancel)
        )
        wanted.click()

    QTimer.singleShot(200, lambda: answer(False))
    window.clear_local_data()
    assert path.exists() and window.is_open  # Cancel (the default) keeps everything
    assert "logs you out" in texts[0] and "kept aside" not in texts[0]

    # a store moved aside earlier (unreadable then) is named, and left with its key
    aside = path.with_name(path.name + ".unusable-20261206T101500Z")
    aside.write_bytes(b"SQLite format 3\x00 damaged")
    QTimer.singleShot(200, lambda: answer(False))
    window.clear_local_data()
    assert "kept aside" in texts[1] and "ask support" in texts[1]

    QTimer.singleShot(200, lambda: answer(True))
    window.clear_local_data()
    assert not window.is_open
    qtbot.waitUntil(lambda: not path.exists() and not window.isVisible(), timeout=30_000)
    assert aside.exists(), "a store moved aside is never wiped"
    keyring = session.credentials._keyring()
    assert keyring is not None
    service = session.credentials.store_key_service_name(session.server_url)
    assert keyring.get_password(service, session.user.username) is not None, "its key stays"
    aside.unlink()


def test_logging_out_leaves_the_window_responsive_until_it_is_done(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    """Sending what was decided and revoking the token happen off the GUI thread (against
    a server that hangs, the window was frozen for over a minute): the window says what it
    is doing, takes no input meanwhile, then wipes the profile and closes."""
    desk = desk_factory(demo_server.url, queue="spam-scams")
    window = desk.window
    session = window.session
    path = session.path
    assert path.exists()
    window.log_out()
    # back at once: the network part runs on a pool thread, the wipe comes after it
    assert path.exists() and not window.isEnabled() and not window.is_open
    assert window.message.text().startswith("Logging out")
    qtbot.waitUntil(lambda: not path.exists() and not window.isVisible(), timeout=30_000)
    assert session.credentials.load(session.server_url, session.user.username) is None


def test_ctrl_q_quits_the_window(demo_server: LiveServer, desk_factory, qtbot) -> None:
    desk = desk_factory(demo_server.url, queue="misinformation")
    window = desk.window
    window.activateWindow()
    qtbot.waitUntil(lambda: window.post.text.toPlainText() != "", timeout=10_000)
    quit_action = next(a for a in window.findChildren(QAction) if a.text() == "Quit")
    assert quit_action.shortcut() == QKeySequence("Ctrl+Q")
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=5_000)


def test_the_first_size_fits_the_screen_left_by_its_panels() -> None:
    """1280 x 860 where there is room, else the screen's free area, centred in it (on the
    screen it is on: a second monitor's area starts at its own x)."""
    laptop = QRect(0, 0, 1280, 764)  # 1280 x 800 less a 36 px panel
    assert first_geometry(laptop) == laptop
    small = QRect(0, 27, 1366, 741)  # 1366 x 768, a panel at the top
    assert first_geometry(small) == QRect(43, 27, 1280, 741)
    second = QRect(1920, 0, 2560, 1400)
    placed = first_geometry(second)
    assert placed.size() == QSize(1280, 860) and second.contains(placed)
    assert placed.center() == second.center()


def test_the_window_opens_where_it_was_last_closed(
    demo_server: LiveServer, qtbot, tmp_path: Path
) -> None:
    data = tmp_path / "client"
    desk = open_desk(qtbot, demo_server.url, data)
    window = desk.window
    free = window.screen().availableGeometry()
    assert window.geometry() == first_geometry(free)  # a first start: nothing saved
    window.show()
    window.setGeometry(QRect(free.x() + 40, free.y() + 30, 1100, 700))
    qtbot.waitUntil(lambda: window.size() == QSize(1100, 700))
    close_session(window)
    window.close()

    # the same computer's settings (another user: each store has its own key)
    again = open_desk(qtbot, demo_server.url, data, user=LEAD).window
    again.show()
    qtbot.waitUntil(lambda: again.isVisible())
    assert again.geometry() == QRect(free.x() + 40, free.y() + 30, 1100, 700)
    close_session(again)
    again.close()


def test_several_refusals_are_told_in_one_notice(
    qtbot, demo_server: LiveServer, desk_factory
) -> None:
    """Refusals in one delivery each replaced the notice before (only the last post was
    named); a lease the service does not know is said in words (its data restored)."""
    import uuid

    from reviewer_app.core.store import JournalEntry
    from reviewer_app.protocol import RejectReason, VerdictResult, VerdictStatus

    desk = desk_factory(demo_server.url, queue="spam-scams")
    window = desk.window
    qtbot.waitUntil(lambda: len(window.worklist.labels) >= 3, timeout=10_000)
    ids = [row.item_id for row in window.worklist.rows[:3]]
    reasons = [
        ("unknown_lease", "This lease token was never issued for this item."),
        ("unknown_lease", "This lease token was never issued for this item."),
        ("not_your_lease", "This lease belongs to another reviewer."),
    ]
    entries = []
    for item_id, (code, message) in zip(ids, reasons, strict=True):
        verdict = window.store.record_verdict(item_id, action="not-spam", undo_window=60)
        result = VerdictResult(
            idempotency_key=uuid.UUID(verdict.key),
            item_id=item_id,
            status=VerdictStatus.rejected,
            reason=RejectReason(code=code, message=message),
        )
        entries.append(JournalEntry(**{**verdict.__dict__, "status": "rejected", "result": result}))
    named = [window.worklist.labels[i] for i in ids]
    window.bridge.verdicts_settled.emit(tuple(entries))
    said = window.banner.text()
    assert said.startswith("The server refused 3 of your verdicts: "), said
    assert all(name in said for name in named), said
    assert "no record of leasing it to you" in said and "never issued" not in said, said
    assert "belongs to another reviewer" in said, said
