"""Wellbeing in the review window, against the real service: a break reminder after the
queue's N high-harm posts (a strip, not a dialog: verdict keys keep working), off when the
reviewer turns it off; the break key gives every held post back (the service sees the
leases end), hides the post and records the break; the lead's exposure view shows figures
and no post text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QPlainTextEdit
from sqlalchemy import func, select

from reviewer_app.core.settings import BREAK_REMINDERS
from reviewer_app.protocol import Role
from reviewer_app.server.domain.queuefile.parse import parse_queue_file
from reviewer_app.server.feeds.seed import seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.storage.tables import breaks, leases, users
from reviewer_app.ui.app import close_session
from reviewer_app.ui.dialogs import SettingsDialog
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import Desk

HIGH_HARM = 3

QUEUE_FILE = f"""\
[[queues]]
id = "gore"
name = "Graphic violence"

[queues.config]
harm = ["graphic_violence"]

[queues.config.breaks]
after_high_harm = {HIGH_HARM}

[[queues.config.actions]]
id = "keep"
label = "No violation"
kind = "keep"
key = "1"

[[queues.config.actions]]
id = "remove"
label = "Remove"
kind = "remove"
key = "2"
requires_policy = true

[[queues.config.policies]]
code = "VIOLENCE.GORE"
label = "Gore"
terms_clause = "Community Guidelines 3.1"
category = "violence"
harm = ["graphic_violence"]
"""


@pytest.fixture
def gore_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'desk.db'}").start()
    try:
        server.service.apply_queue_file(parse_queue_file(QUEUE_FILE), "admin")
        config = server.service.configs()["gore"]
        seed_load_queue(server.service, 40, queue=SeedQueue("gore", "Gore", "", config))
        server.add_user("alice")
        server.add_user("lena", Role.lead)
        yield server
    finally:
        server.stop()


def _held_by(server: LiveServer, username: str) -> int:
    """Leases the service holds open for ``username`` (its own tables, not the client's)."""
    with server.service.db.read() as conn:
        user_id = conn.execute(select(users.c.id).where(users.c.username == username)).scalar()
        return int(
            conn.execute(
                select(func.count())
                .select_from(leases)
                .where(
                    leases.c.user_id == user_id,
                    leases.c.ended_at.is_(None),
                    leases.c.expires_at > server.service.clock(),
                )
            ).scalar_one()
        )


def _decide(desk: Desk, count: int) -> None:
    for _ in range(count):
        shown = desk.current_id()
        desk.qtbot.wait(60)  # past the doubled-key guard
        desk.press(Qt.Key.Key_1)
        desk.wait(lambda shown=shown: desk.current_id() not in (None, shown), 10_000)


def _visible_texts(root: object) -> list[str]:
    texts: list[str] = []
    for widget in QApplication.allWidgets():
        if not widget.isVisible() or widget.window() is not root:
            continue
        if isinstance(widget, QLabel | QAbstractButton):
            texts.append(widget.text())
        elif isinstance(widget, QPlainTextEdit):
            texts.append(widget.toPlainText())
    return texts


def test_a_reminder_after_n_high_harm_posts_then_the_break_key_gives_posts_back(
    gore_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(gore_server.url, queue="gore", user=("alice", PASSWORD))
    window = desk.window
    reminder = window.break_reminder
    _decide(desk, HIGH_HARM - 1)
    assert not reminder.isVisible()
    _decide(desk, 1)
    desk.wait(reminder.isVisible, 5_000)
    assert str(HIGH_HARM) in reminder.text.text()
    assert reminder.take.text() == "Take a break (B)"
    # a strip, not a dialog: the verdict keys still decide posts while it shows
    assert QApplication.activeModalWidget() is None
    _decide(desk, 1)
    assert reminder.isVisible()

    desk.wait(lambda: _held_by(gore_server, "alice") > 0, 20_000)
    shown = window.review.current
    assert shown is not None
    post_text = shown.item.post.text
    assert any(post_text in t for t in _visible_texts(window))

    desk.press(Qt.Key.Key_B)
    assert window.break_screen.isVisible()
    assert not reminder.isVisible()
    assert not window.post.isVisible() and not window.verdicts.isVisible()
    assert not any(post_text in t for t in _visible_texts(window))
    # the service sees every post held here given back; nothing is leased ahead on a break
    desk.wait(lambda: _held_by(gore_server, "alice") == 0, 20_000)
    desk.qtbot.wait(2_500)  # a queue refresh and another pass: still nothing taken
    assert _held_by(gore_server, "alice") == 0
    # verdict keys do nothing on a break
    desk.press(Qt.Key.Key_1)
    assert window.review.current is None

    lead = gore_server.login("lena", create=False)
    desk.wait(
        lambda: lead.get("/stats/exposure").json()["reviewers"][0]["breaks_week"] == 1, 10_000
    )
    [alice] = [
        r for r in lead.get("/stats/exposure").json()["reviewers"] if r["reviewer"] == "alice"
    ]
    assert alice["shift_items"] == HIGH_HARM + 1
    assert alice["high_harm_shift"] == HIGH_HARM + 1
    assert alice["harm"] == [
        {"kind": "graphic_violence", "shift": HIGH_HARM + 1, "week": HIGH_HARM + 1}
    ]

    desk.press(Qt.Key.Key_B)  # back to work: posts are leased again
    assert not window.break_screen.isVisible() and window.post.isVisible()
    desk.wait(lambda: window.review.current is not None, 20_000)
    desk.wait(lambda: _held_by(gore_server, "alice") > 0, 20_000)
    assert not reminder.isVisible()  # the count starts again after a break
    assert window.tally.high_since_break == 0


def test_break_reminders_can_be_turned_off(gore_server: LiveServer, desk_factory) -> None:
    desk: Desk = desk_factory(
        gore_server.url,
        queue="gore",
        user=("alice", PASSWORD),
        store_settings={"break_reminders": False},
    )
    _decide(desk, HIGH_HARM + 1)
    desk.qtbot.wait(1_200)  # a timer tick checks again
    assert desk.window.tally.high_since_break == HIGH_HARM + 1
    assert not desk.window.break_reminder.isVisible()


def test_turning_reminders_off_in_settings_hides_the_reminder(
    gore_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(gore_server.url, queue="gore", user=("alice", PASSWORD))
    window = desk.window
    _decide(desk, HIGH_HARM)
    desk.wait(window.break_reminder.isVisible, 5_000)

    def untick() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, SettingsDialog)
        dialog.break_reminders.setChecked(False)
        dialog.accept()

    QTimer.singleShot(0, untick)
    window.show_settings()
    assert not window.break_reminder.isVisible()
    assert window.store.settings.get(BREAK_REMINDERS) is False  # this reviewer's setting
    _decide(desk, HIGH_HARM)
    desk.qtbot.wait(1_200)
    assert not window.break_reminder.isVisible()


def test_the_lead_sees_exposure_figures_and_no_post_text(
    gore_server: LiveServer, desk_factory
) -> None:
    reviewer: Desk = desk_factory(gore_server.url, queue="gore", user=("alice", PASSWORD))
    decided = []
    for _ in range(2):
        current = reviewer.window.review.current
        assert current is not None
        decided.append(current.item.post.text)
        _decide(reviewer, 1)
    reviewer.wait(lambda: reviewer.window.store.pending_count() == 0, 30_000)

    lead: Desk = desk_factory(gore_server.url, queue="gore", user=("lena", PASSWORD))
    window = lead.window
    assert window.lead is not None and window.modes is not None
    window.show_mode(1)
    workspace = window.lead
    view = workspace.exposure
    workspace.setCurrentWidget(view)
    lead.wait(lambda: view.model.rowCount() > 0 and view.row_of("alice") >= 0, 20_000)
    row = view.model.row_figures(view.row_of("alice"))
    assert row["Posts this shift"] == "2"
    assert row["Graphic violence (shift / 7 days)"] == "2 / 2"
    assert row["Breaks this shift"] == "0"
    shown = [
        str(view.model.data(view.model.index(r, c)))
        for r in range(view.model.rowCount())
        for c in range(view.model.columnCount())
    ]
    shown += _visible_texts(window)
    for text in decided:
        assert not any(text in s for s in shown)


def test_closing_the_app_on_a_break_ends_the_break(gore_server: LiveServer, desk_factory) -> None:
    desk: Desk = desk_factory(gore_server.url, queue="gore", user=("alice", PASSWORD))
    desk.press(Qt.Key.Key_B)
    assert desk.window.break_screen.isVisible()
    desk.wait(lambda: _breaks(gore_server) == [False], 20_000)
    close_session(desk.window)  # a clean exit: the break's end is sent on the way out
    assert _breaks(gore_server) == [True]


def _breaks(server: LiveServer) -> list[bool]:
    """For each break the service holds: whether it has ended."""
    with server.service.db.read() as conn:
        return [r.ended_at is not None for r in conn.execute(select(breaks.c.ended_at))]
