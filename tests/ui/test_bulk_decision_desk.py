"""Decide together, end to end (real service over HTTP, offscreen).

A lead on the review pane asks for "All open posts by this author…": the author's open
posts in two queues are listed in the Decide together dialog. The confirmation says how
many posts in which queues; the decision is held for the undo window with a countdown and
can be taken back (nothing reaches the service). Sent while a reviewer decided one of the
posts meanwhile, it is refused whole: nothing is decided, and the dialog marks that post
with who decided it and unchecks it. Decided again, the rest go through, one decision each.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from reviewer_app.core.api import ApiClient
from reviewer_app.core.bulk import Candidate, new_request
from reviewer_app.core.store import Store
from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.domain.intake.rows import author_id_for
from reviewer_app.ui.lead.bulk import BulkSender
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession, verdict
from tests.support.intake import (
    HATE,
    MISINFO,
    account_queues,
    apply_queues,
    author,
    classifier,
    key_session,
    post,
    send,
)
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

SOURCE = "feed-bridge"


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


def push(
    platform: ApiSession, external_id: str, who: dict[str, Any], text: str = "", **signal: Any
) -> None:
    body = post(external_id, author=who, **({"text": text} if text else {}))
    assert send(platform, "posts", [body])[0]["status"] == "created"
    assert send(platform, "signals", [classifier(external_id, **signal)])[0]["item_ids"]


def lead_decisions(lead: ApiSession) -> list[dict[str, Any]]:
    found = lead.get("/decisions", params={"reviewer": LEAD[0]})
    assert found.status_code == 200, found.text
    decisions: list[dict[str, Any]] = found.json()["decisions"]
    return decisions


def confirm(desk: Desk, dialog: Any) -> QMessageBox:
    desk.qtbot.mouseClick(dialog.decide, Qt.MouseButton.LeftButton)
    desk.wait(lambda: dialog.confirmation is not None)
    box: QMessageBox = dialog.confirmation
    return box


def test_decide_together_confirms_undoes_refuses_and_records(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    platform = key_session(server, SOURCE)
    waver = author("waver")
    push(platform, "w-1", waver, score=0.99)
    push(platform, "w-2", waver, text="Buy now \u202egnp.exe\u202c cheap", score=0.98)
    push(platform, "w-3", waver, model="hate-bert", label="hate", score=0.95)
    push(platform, "calm", author("calm"), score=0.8)
    lead = ApiSession.login(server.url, *LEAD)

    desk = desk_factory(server.url, queue=MISINFO, user=LEAD, undo=3.0)
    window = desk.window
    desk.wait(lambda: (c := window.review.current) is not None and c.item.post.id == "w-1")
    context = window.context
    author_tab = next(
        i for i in range(context.count()) if context.widget(i).objectName() == "authorPage"
    )
    context.setCurrentIndex(author_tab)
    panel = context.linked
    assert panel.author_posts.isVisible()
    desk.qtbot.mouseClick(panel.author_posts, Qt.MouseButton.LeftButton)
    desk.wait(lambda: window.bulk_dialog is not None)
    dialog = window.bulk_dialog
    assert dialog is not None
    assert dialog.intro.text() == "Open posts by the author: 3 posts in 2 queues."
    assert sorted(c.queue_id for c in dialog.candidates) == [HATE, MISINFO, MISINFO]
    assert all(dialog.table.item(r, 0).text() for r in range(3))  # the excerpts
    # a post's text is plain text with its bidi controls shown, never obeyed
    texts = [dialog.table.item(r, 0).text() for r in range(3)]
    assert any("Buy now ⟦U+202E⟧gnp.exe⟦U+202C⟧ cheap" in t for t in texts)
    assert not any("\u202e" in t for t in texts)
    # the actions both queues can take: remove needs a policy they do not share
    assert [dialog.action.itemData(i) for i in range(dialog.action.count())] == ["keep"]
    dialog.choose("keep", note="one wave")

    # the confirmation says how many posts in which queues
    box = confirm(desk, dialog)
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert box.text() == (
        f"{isolate('No violation')}: 3 posts in 2 queues "
        f"({isolate('Hate and harassment')}, {isolate('Misinformation')})?"
    )
    assert "in 3 s" in box.informativeText()
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert dialog.bulk_id is None

    # held for the undo window, counted down, taken back: nothing reaches the service
    confirm(desk, dialog).button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: "Sending 3 decisions in" in dialog.status.text())
    assert dialog.undo_button.isVisible() and not dialog.decide.isEnabled()
    assert len(window.store.held_bulks()) == 1
    desk.qtbot.mouseClick(dialog.undo_button, Qt.MouseButton.LeftButton)
    assert dialog.status.text() == "Undone: nothing was sent."
    assert window.store.held_bulks() == []
    desk.qtbot.wait(3500)
    assert lead_decisions(lead) == []

    # a reviewer decides one of them while it is held: the whole bulk is refused
    confirm(desk, dialog).button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: "Sending 3 decisions in" in dialog.status.text())
    reviewer = ApiSession.login(server.url, *REVIEWER)
    [taken] = reviewer.claim(HATE, count=1)
    assert taken["item"]["post"]["id"] == "w-3"
    assert reviewer.decide([verdict(taken, "keep")])[0]["status"] == "accepted"
    desk.wait(lambda: dialog.status.text().startswith("Nothing was decided"), timeout=15_000)
    assert "someone else meanwhile: 1 post." in dialog.status.text()
    row = next(r for r, c in enumerate(dialog.candidates) if c.item_id == taken["item"]["id"])
    assert dialog.table.item(row, 3).text() == isolate(f"Decided meanwhile by {REVIEWER[0]}: keep.")
    assert dialog.table.item(row, 0).checkState() == Qt.CheckState.Unchecked
    assert lead_decisions(lead) == []  # nothing of it was recorded
    assert window.store.held_bulks() == []

    # decided again without it: the other two go through, one decision each
    box = confirm(desk, dialog)
    assert (
        box.text()
        == f"{isolate('No violation')}: 2 posts in 1 queue ({isolate('Misinformation')})?"
    )
    box.button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: dialog.status.text().startswith("Done:"), timeout=15_000)
    assert dialog.status.text() == f"Done: 2 decisions recorded ({isolate('Misinformation')})."
    made = lead_decisions(lead)
    assert len(made) == 2 and {d["note"] for d in made} == {"one wave"}
    assert {d["item_id"] for d in made} == {
        c.item_id for c in dialog.candidates if c.queue_id == MISINFO
    }
    assert window.store.held_bulks() == []


def test_a_bulk_held_when_the_app_was_killed_is_sent_at_the_next_start(
    server: LiveServer, tmp_path: Path, qtbot: Any
) -> None:
    platform = key_session(server, SOURCE)
    for n in range(3):
        push(platform, f"k-{n}", author("killed"), score=0.9)
    lead = ApiSession.login(server.url, *LEAD)
    [listed] = [lead.get(f"/authors/{author_id_for(SOURCE, 'killed')}/open-items").json()]
    chosen = [Candidate(i["item_id"], i["queue_id"]) for i in listed["items"]]
    assert len(chosen) == 3
    path = tmp_path / "lead.sqlite3"
    key = os.urandom(32)
    # the lead confirmed, and the app was killed inside the undo window
    with Store(path, key=key) as before:
        before.hold_bulk(new_request(chosen, "keep", note="killed", at=time.time()), undo_window=1)
    assert lead_decisions(lead) == []

    # the next start: sent once its undo window has passed, as a verdict left in its window
    with Store(path, key=key) as store:
        holder = QWidget()  # the window that owns the sender in the app
        qtbot.addWidget(holder)
        sender = BulkSender(store, lambda: ApiClient(server.url, token=lead.token), holder)
        with qtbot.waitSignal(sender.recorded, timeout=20_000) as recorded:
            assert sender.resume() == 1
        _bulk_id, results = recorded.args
        assert {r.status.value for r in results.results} == {"accepted"}
        assert store.held_bulks() == []
        sender.timer.stop()
    made = lead_decisions(lead)
    assert sorted(d["item_id"] for d in made) == sorted(c.item_id for c in chosen)
    assert {d["note"] for d in made} == {"killed"}
