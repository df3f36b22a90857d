"""The statement of reasons before submit, in the window against the real service (offscreen).

The reviewer sees what the author will read for the chosen action, policy codes and note,
and it follows each change; what the platform then receives with the enforcement action is
the same text. The item's History tab shows a statement given earlier on the post.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from reviewer_app.protocol import Item, QueueFile, Role, UserCreate
from tests.support.api import ApiSession
from tests.support.enforcement import queue_file, queue_posts, read_all
from tests.support.intake import MISINFO
from tests.support.servers import LiveServer
from tests.ui.conftest import REVIEWER, Desk

K = Qt.Key


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'statements.db'}").start()
    document: dict[str, Any] = queue_file()
    misinfo = next(q for q in document["queues"] if q["id"] == MISINFO)
    misinfo["config"]["notes_shareable"] = True
    for action in misinfo["config"]["actions"]:
        if action["id"] == "remove-restrict":
            action["requires_note"] = True
    server.service.apply_queue_file(QueueFile.model_validate(document), actor=None)
    username, password = REVIEWER
    server.service.create_user(UserCreate(username=username, password=password, role=Role.reviewer))
    try:
        yield server
    finally:
        server.stop()


def test_the_reviewer_reads_the_statement_before_submitting_and_the_platform_gets_it(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    key = server.service.create_api_key(Role.platform, "feed-bridge").key
    queue_posts(ApiSession(server.url, key), ["p-1"])
    desk = desk_factory(server.url, queue=MISINFO)
    bar = desk.window.verdicts
    preview = bar.statement

    def shown() -> str:
        return preview.toPlainText()

    assert preview.isVisible()
    assert "Choose an action" in shown()

    desk.press(K.Key_4)  # remove: needs a policy code
    desk.wait(lambda: "We removed your post." in shown())
    assert "Our terms of service as a whole" in shown(), "no policy chosen yet"
    assert "Automated means (a classifier) flagged the content" in shown()

    bar.policies.item(0).setCheckState(Qt.CheckState.Checked)  # MISINFO.CIVIC
    desk.wait(lambda: "Community Guidelines 4.2" in shown())
    assert "It breaks our policy on Civic misinformation." in shown()

    desk.press(K.Key_Escape)
    desk.press(K.Key_6)  # remove and restrict the author: needs a note now
    desk.wait(lambda: "We removed your post and restricted your account." in shown())
    bar.note.setFocus()
    desk.qtbot.keyClicks(bar.note, "Repeats the false polling-day claim.")
    desk.wait(lambda: "The reviewer's note: Repeats the false polling-day claim." in shown())
    seen = shown()

    desk.press(K.Key_Return, Qt.KeyboardModifier.ControlModifier)  # submit
    deadline = time.monotonic() + 30
    actions: list[dict[str, Any]] = []
    while time.monotonic() < deadline and not actions:
        desk.qtbot.wait(200)
        server.service.seal_now()
        actions = read_all(server.url, key)
    [action] = actions
    assert action["kind"] == "remove" and action["author_action"] == "restrict"
    assert action["statement"]["text"] == seen, "the platform gets the words the reviewer read"

    # the decided item's history (as the service serves it) shows the statement it gave
    reviewer = ApiSession.login(server.url, *REVIEWER)
    document = reviewer.get(f"/items/{action['item_id']}")
    assert document.status_code == 200, document.text
    item = Item.model_validate(document.json())
    desk.window.context.show_item(item)
    history = desk.window.context.text_of("History")
    assert f"Statement of reasons {action['statement']['puid']}" in history
    assert "The reviewer's note: Repeats the false polling-day claim." in history
