"""A queue configuration applied while the desktop client runs: the verdict bar and the
keys follow it without a restart, and the post on screen stays."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QKeyEvent

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    PolicyConfig,
    QueueFile,
    RatingConfig,
    Role,
)
from reviewer_app.server.domain.queuefile.parse import parse_queue_file
from reviewer_app.server.feeds.seed import seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.ui.models import item_words
from reviewer_app.ui.plain import isolate
from reviewer_app.ui.window_keys import _uses_keys
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import Desk

KEY_PRESS = QEvent.Type.KeyPress
NO_MODS = Qt.KeyboardModifier.NoModifier

QUEUE_FILE = """\
[[queues]]
id = "spam"
name = "Spam and scams"

[[queues.config.actions]]
id = "keep"
label = "Not spam"
kind = "keep"
key = "1"

[[queues.config.actions]]
id = "remove"
label = "Remove"
kind = "remove"
key = "2"
requires_policy = true

[[queues.config.policies]]
code = "SPAM.SCAM"
label = "Scam"
terms_clause = "Terms of Service 6.1"
category = "scams_and_fraud"
"""


@pytest.fixture
def spam_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'desk.db'}").start()
    try:
        server.service.apply_queue_file(parse_queue_file(QUEUE_FILE), "admin")
        config = server.service.configs()["spam"]
        seed_load_queue(server.service, 30, queue=SeedQueue("spam", "Spam", "", config))
        server.add_user("alice")
        yield server
    finally:
        server.stop()


def with_quarantine_instead_of_remove(file: QueueFile) -> QueueFile:
    [queue] = file.queues
    actions = [a for a in queue.config.actions if a.id != "remove"]
    actions.append(
        ActionConfig(id="quarantine", label="Quarantine", kind=ActionKind.reduce, key="3")
    )
    config = queue.config.model_copy(update={"actions": actions})
    return QueueFile(queues=[queue.model_copy(update={"config": config})])


def test_a_new_configuration_reaches_the_verdict_bar_without_a_restart(
    spam_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(spam_server.url, queue="spam", user=("alice", PASSWORD))
    bar = desk.window.verdicts
    assert list(bar.buttons) == ["keep", "remove"]
    shown = desk.current_id()
    assert shown is not None

    result = spam_server.service.apply_queue_file(
        with_quarantine_instead_of_remove(parse_queue_file(QUEUE_FILE)), "admin"
    )
    assert result.version == 2
    # the sync engine's queue refresh brings it: the bar is rebuilt for the queue on screen
    desk.wait(lambda: list(bar.buttons) == ["keep", "quarantine"], 20_000)
    assert bar.buttons["quarantine"].full_text.startswith(f"3 {isolate('Quarantine')}")
    assert desk.current_id() == shown  # the reviewer keeps the post they were reading
    assert desk.window.review.queue is not None
    assert desk.window.review.queue.config.action("quarantine") is not None

    desk.qtbot.wait(60)  # past the doubled-key guard
    desk.press(Qt.Key.Key_3)
    desk.wait(lambda: desk.current_id() != shown, 10_000)
    desk.wait(lambda: desk.window.store.pending_count() == 0, 30_000)
    lead = spam_server.login("lead", Role.lead)
    [decision] = lead.get("/decisions", params={"queue_id": "spam"}).json()["decisions"]
    assert (decision["item_id"], decision["action"]) == (shown, "quarantine")
    assert decision["config_version"] == 2


def with_config(file: QueueFile, **update: object) -> QueueFile:
    """``file`` with its queue's configuration changed by ``update``."""
    [queue] = file.queues
    config = queue.config.model_copy(update=update)
    return QueueFile(queues=[queue.model_copy(update={"config": config})])


BULK = PolicyConfig(
    code="SPAM.BULK",
    label="Bulk messaging",
    terms_clause="Terms of Service 6.2",
    category="scams_and_fraud",
)
RATINGS = [RatingConfig(id="false", label="False"), RatingConfig(id="missing", label="No context")]


def test_the_queue_on_screen_removed_is_said_and_its_leases_go_back(
    spam_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(spam_server.url, queue="spam", user=("alice", PASSWORD))
    window = desk.window
    shown = desk.current_id()
    assert shown is not None
    [spam] = parse_queue_file(QUEUE_FILE).queues
    other = spam.model_copy(update={"id": "scams", "name": "Other scams"})

    spam_server.service.apply_queue_file(QueueFile(queues=[other]), "admin", drain_to="scams")
    # the reviewer is told, by the name the picker showed, and where the window is now
    desk.wait(lambda: "was removed on the server" in window.message.text(), 20_000)
    assert isolate("Spam and scams") in window.message.text()
    assert isolate("Other scams") in window.message.text()
    assert window.review.queue is not None and window.review.queue.id == "scams"
    assert window.queue_picker.currentText().startswith(isolate("Other scams"))
    # the post opened in the removed queue is given back (not renewed for good): held
    # here again only if claimed anew from the queue it went to
    desk.wait(
        lambda: (held := window.store.stored_item(shown)) is None or held.queue_id == "scams",
        20_000,
    )


def test_the_queue_left_for_a_break_removed_meanwhile_is_said_on_return(
    spam_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(spam_server.url, queue="spam", user=("alice", PASSWORD))
    window = desk.window
    [spam] = parse_queue_file(QUEUE_FILE).queues
    other = spam.model_copy(update={"id": "scams", "name": "Other scams"})
    window.take_break()
    spam_server.service.apply_queue_file(QueueFile(queues=[other]), "admin", drain_to="scams")
    desk.wait(lambda: window.queues.row_of("spam") < 0, 20_000)
    window.end_break()
    said = window.message.text()
    assert said.startswith("Welcome back. The queue"), said
    assert isolate("Spam and scams") in said and isolate("Other scams") in said
    assert window.review.queue is not None and window.review.queue.id == "scams"


def test_an_action_added_during_a_break_decides_on_return(
    spam_server: LiveServer, desk_factory
) -> None:
    """The queue's keys were looked up before the break and kept: a change of its actions
    during the break (not followed then) left the new action's key deciding nothing."""
    desk: Desk = desk_factory(spam_server.url, queue="spam", user=("alice", PASSWORD))
    window, bar = desk.window, desk.window.verdicts
    desk.press(Qt.Key.Key_P)  # a key pressed before: the queue's keys are looked up now
    desk.press(Qt.Key.Key_Escape)
    window.take_break()
    spam_server.service.apply_queue_file(
        with_quarantine_instead_of_remove(parse_queue_file(QUEUE_FILE)), "admin"
    )
    desk.wait(lambda: "quarantine" in [a.id for a in window.queues.queues[0].config.actions])
    window.end_break()
    desk.wait(lambda: list(bar.buttons) == ["keep", "quarantine"], 20_000)
    desk.wait(lambda: desk.current_id() is not None, 20_000)
    shown = desk.current_id()
    desk.qtbot.wait(60)  # past the doubled-key guard
    desk.press(Qt.Key.Key_3)  # the new action's key decides
    desk.wait(lambda: desk.current_id() != shown, 10_000)


def test_a_config_change_keeps_the_verdict_being_prepared(
    spam_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(spam_server.url, queue="spam", user=("alice", PASSWORD))
    window, bar = desk.window, desk.window.verdicts
    file = parse_queue_file(QUEUE_FILE)
    [scam] = file.queues[0].config.policies
    spam_server.service.apply_queue_file(
        with_config(file, policies=[scam, BULK], ratings=RATINGS), "admin"
    )
    desk.wait(lambda: bar.rating.count() == 3 and bar.policies.count() == 2, 20_000)
    shown = desk.current_id()

    # the verdict being prepared: "Remove" waits for its policy; a note, a rating, a policy
    desk.qtbot.wait(60)  # past the doubled-key guard
    desk.press(Qt.Key.Key_2)
    assert window.review.state == "input"
    bar.note.setPlainText("Same scam as yesterday")
    bar.rating.setCurrentIndex(bar.rating.findData("missing"))
    for row in range(bar.policies.count()):
        bar.policies.item(row).setCheckState(Qt.CheckState.Checked)

    # only its deadline and order change: nothing of the draft goes
    spam_server.service.apply_queue_file(
        with_config(
            file,
            policies=[scam, BULK],
            ratings=RATINGS,
            sla_minutes=30,
            priority=file.queues[0].config.priority.model_copy(update={"age": 5.0}),
        ),
        "admin",
    )
    desk.wait(lambda: window.review.queue.config.sla_minutes == 30, 20_000)  # type: ignore[union-attr]
    assert desk.current_id() == shown
    assert bar.note_text() == "Same scam as yesterday"
    assert bar.selected_rating() == "missing"
    assert bar.selected_policies() == ["SPAM.SCAM", "SPAM.BULK"]
    assert window.review.state == "input", "the action waiting for its policy still waits"

    # a policy and the rating chosen removed: the rest stays, and what went is said
    spam_server.service.apply_queue_file(
        with_config(file, policies=[BULK], ratings=RATINGS[:1], sla_minutes=30), "admin"
    )
    desk.wait(lambda: bar.policies.count() == 1, 20_000)
    assert desk.current_id() == shown
    assert bar.note_text() == "Same scam as yesterday"
    assert bar.selected_policies() == ["SPAM.BULK"]
    assert bar.selected_rating() is None
    said = window.message.text()
    assert "taken off your verdict" in said
    assert "SPAM.SCAM" in said and isolate("No context") in said


def test_a_removed_actions_key_says_so_and_a_new_one_decides(
    spam_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(spam_server.url, queue="spam", user=("alice", PASSWORD))
    window, bar = desk.window, desk.window.verdicts
    shown = desk.current_id()
    desk.press(Qt.Key.Key_P)  # a key pressed before: the queue's keys are looked up now
    desk.press(Qt.Key.Key_Escape)

    spam_server.service.apply_queue_file(
        with_quarantine_instead_of_remove(parse_queue_file(QUEUE_FILE)), "admin"
    )
    desk.wait(lambda: list(bar.buttons) == ["keep", "quarantine"], 20_000)
    said = window.message.text()
    assert f"added {isolate('Quarantine')}" in said
    assert f"removed {isolate('Remove')}" in said

    desk.qtbot.wait(60)  # past the doubled-key guard
    desk.press(Qt.Key.Key_2)
    assert window.message.text().startswith("Key 2 decides nothing in")
    assert isolate("Remove") in window.message.text()
    assert desk.current_id() == shown
    # in the worklist (where choosing a post leaves the focus) a digit still says so; a
    # key the focused control uses itself goes to it (a button's Space)
    window.say("")
    window.worklist_view.setFocus()
    desk.press(Qt.Key.Key_2)
    assert window.message.text().startswith("Key 2 decides nothing in")
    assert _uses_keys(bar.buttons["keep"], QKeyEvent(KEY_PRESS, Qt.Key.Key_Space, NO_MODS, " "))
    assert not _uses_keys(bar.buttons["keep"], QKeyEvent(KEY_PRESS, Qt.Key.Key_2, NO_MODS, "2"))
    desk.press(Qt.Key.Key_3)  # the new action's key decides
    desk.wait(lambda: desk.current_id() != shown, 10_000)


def test_a_refused_verdict_names_the_post_as_the_worklist_does(
    spam_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(spam_server.url, queue="spam", user=("alice", PASSWORD), undo=120.0)
    window, bar = desk.window, desk.window.verdicts
    file = parse_queue_file(QUEUE_FILE)
    spam_server.service.apply_queue_file(with_quarantine_instead_of_remove(file), "admin")
    desk.wait(lambda: list(bar.buttons) == ["keep", "quarantine"], 20_000)
    current = window.review.current
    assert current is not None
    desk.qtbot.wait(60)
    desk.press(Qt.Key.Key_3)  # within its undo window: not sent yet
    desk.wait(lambda: desk.current_id() != current.item.id, 10_000)

    spam_server.service.apply_queue_file(file, "admin")  # "Quarantine" is gone again
    desk.wait(lambda: list(bar.buttons) == ["keep", "remove"], 20_000)
    window.store.flush_all(window.store.clock())
    window.session.engine.nudge()
    desk.wait(lambda: "refused your verdict" in window.banner.text(), 20_000)
    post = item_words(current.item.author.handle, current.item.post.text)
    assert window.banner.text().startswith(f"The server refused your verdict on {post}:")
    assert current.item.id not in window.banner.text()
