"""A queue configuration applied while the desktop client runs: the verdict bar and the
keys follow it without a restart, and the post on screen stays."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from reviewer_app.protocol import ActionConfig, ActionKind, QueueFile, Role
from reviewer_app.server.domain.queuefile.parse import parse_queue_file
from reviewer_app.server.feeds.seed import seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.ui.plain import isolate
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import Desk

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
