"""A bulk decision refused, or not sent, where its dialog does not show it (real service
over HTTP, offscreen): the lead confirms, closes the Decide together dialog, and a reviewer
decides one of the posts meanwhile. The main window says it was refused, why, how many
posts and which (the details), and offers to open them again: the dialog comes back on
them with the action and note chosen and the post taken meanwhile unchecked. A bulk that
cannot be sent (the network) is said in the window once, however often it is retried,
until it goes through."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from reviewer_app.protocol import Role, UserCreate
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession, verdict
from tests.support.intake import HATE, account_queues, apply_queues, author, key_session
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk
from tests.ui.test_bulk_decision_desk import SOURCE, confirm, lead_decisions, push


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'bulk.db'}").start()
    apply_queues(server, account_queues())
    for (username, password), role in ((REVIEWER, Role.reviewer), (LEAD, Role.lead)):
        server.service.create_user(UserCreate(username=username, password=password, role=role))
    try:
        yield server
    finally:
        server.stop()


def open_author_posts(desk: Desk) -> Any:
    window = desk.window
    desk.wait(lambda: (c := window.review.current) is not None and c.item.post.id == "w-1")
    context = window.context
    tab = next(i for i in range(context.count()) if context.widget(i).objectName() == "authorPage")
    context.setCurrentIndex(tab)
    desk.qtbot.mouseClick(context.linked.author_posts, Qt.MouseButton.LeftButton)
    desk.wait(lambda: window.bulk_dialog is not None)
    return window.bulk_dialog


def waves(server: LiveServer) -> None:
    platform = key_session(server, SOURCE)
    waver = author("waver")
    push(platform, "w-1", waver, score=0.99)
    push(platform, "w-2", waver, score=0.98)
    push(platform, "w-3", waver, model="hate-bert", label="hate", score=0.95)


def test_a_bulk_refused_after_its_dialog_closed_is_said_with_its_posts_and_reopened(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    waves(server)
    desk = desk_factory(server.url, queue="misinfo", user=LEAD, undo=2.0)
    window = desk.window
    dialog = open_author_posts(desk)
    ids = [c.item_id for c in dialog.candidates]
    dialog.choose("keep", note="one wave")
    confirm(desk, dialog).button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: "Sending 3 decisions in" in dialog.status.text())
    dialog.close()  # the lead goes on with other work
    reviewer = ApiSession.login(server.url, *REVIEWER)
    [taken] = reviewer.claim(HATE, count=1)
    assert reviewer.decide([verdict(taken, "keep")])[0]["status"] == "accepted"

    desk.wait(lambda: window.findChild(QMessageBox, "bulkRefused") is not None, timeout=15_000)
    box = window.findChild(QMessageBox, "bulkRefused")
    assert box.textFormat() == Qt.TextFormat.PlainText
    text = box.text()
    assert "A bulk decision on 3 posts was refused." in text, text
    assert "Decided or taken by someone else meanwhile: 1 post." in text, text
    details = box.detailedText()
    assert all(i in details for i in ids), details
    assert f"Decided meanwhile by {REVIEWER[0]}: keep." in details, details
    assert lead_decisions(lead := ApiSession.login(server.url, *LEAD)) == []
    assert window.store.held_bulks() == []

    again = next(b for b in box.buttons() if b.text() == "Open them again…")
    again.click()
    desk.wait(lambda: window.bulk_dialog is not None and window.bulk_dialog is not dialog)
    redo = window.bulk_dialog
    assert redo.isVisible()
    assert sorted(c.item_id for c in redo.candidates) == sorted(ids)
    assert redo.action.currentData() == "keep" and redo.note.text() == "one wave"
    assert sorted(c.item_id for c in redo.checked()) == sorted(set(ids) - {taken["item"]["id"]})
    row = next(r for r, c in enumerate(redo.candidates) if c.item_id == taken["item"]["id"])
    assert redo.table.item(row, 3).text() == isolate(f"Decided meanwhile by {REVIEWER[0]}: keep.")
    # decided again: the rest go through
    confirm(desk, redo).button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: redo.status.text().startswith("Done:"), timeout=15_000)
    assert len(lead_decisions(lead)) == 2


def test_a_bulk_that_cannot_be_sent_is_said_once_until_it_goes_through(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    waves(server)
    desk = desk_factory(server.url, queue="misinfo", user=LEAD, undo=1.0)
    window = desk.window
    sender = window.bulk_sender
    assert sender is not None
    dialog = open_author_posts(desk)
    dialog.choose("keep", note="one wave")
    dialog.close()
    said: list[str] = []
    shown = window.notify

    def notify(text: str, *, kind: str = "") -> None:
        said.append(text)
        shown(text, kind=kind)

    window.notify = notify  # type: ignore[method-assign]
    working = sender.client_factory

    def unreachable() -> Any:
        raise ConnectionRefusedError(111, "Connection refused")

    sender.client_factory = unreachable
    dialog.show()
    confirm(desk, dialog).button(QMessageBox.StandardButton.Yes).click()
    dialog.close()
    failures: list[str] = []
    sender.failed.connect(lambda _bulk, why: failures.append(why))
    for attempt in range(3):  # the retries, without waiting 30 s for each
        desk.wait(lambda n=attempt: len(failures) > n, timeout=10_000)
        for bulk_id in list(sender._due):
            sender._due[bulk_id] = time.time() - 1
    desk.wait(lambda: len(failures) >= 3, timeout=10_000)
    unsent = [t for t in said if "is not sent yet" in t]
    assert len(unsent) == 1, said
    assert "A bulk decision on 3 posts is not sent yet" in unsent[0]
    assert window.banner.isVisible() and "is not sent yet" in window.banner.text()

    sender.client_factory = working
    sender._stuck.add("another bulk")  # another bulk held here, still not sent
    for bulk_id in list(sender._due):
        sender._due[bulk_id] = time.time() - 1
    desk.wait(lambda: not sender._due and not sender._sending, timeout=15_000)
    assert window.banner.isVisible()  # the banner stays for the bulk still not sent
    sender._stuck.discard("another bulk")  # which is recorded in turn
    window._on_bulk_sender_recorded("another bulk", None)
    desk.wait(lambda: not window.banner.isVisible(), timeout=15_000)
    assert "recorded now" in window.message.text()
    assert len(lead_decisions(ApiSession.login(server.url, *LEAD))) == 3
