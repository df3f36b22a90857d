"""Account actions in the window, end to end (real service over HTTP, offscreen).

A reviewer holds posts of an author whom a lead suspends elsewhere: the post on screen
leaves with "Resolved: the author was suspended", the other held ones leave the worklist,
and the verdict they made offline for one is told as resolved (no conflict to resolve).
An actioned author's status stands out above the post and on the Author tab.

A lead's Author tab lists the accounts linked to the author with their status and open
items, and applies one account action to the accounts they check, after a confirmation
that says what it will close; a refusal (an account actioned meanwhile) applies nothing
and says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QMessageBox

from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.domain.intake.rows import author_id_for
from tests.support.api import ApiSession, verdict
from tests.support.intake import (
    HATE,
    INAUTH,
    MISINFO,
    account_queues,
    apply_queues,
    author,
    classifier,
    key_session,
    post,
    send,
    shady,
)
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

K = Qt.Key
SOURCE = "feed-bridge"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'accounts.db'}").start()
    apply_queues(server, account_queues())
    for (username, password), role in ((REVIEWER, Role.reviewer), (LEAD, Role.lead)):
        server.service.create_user(UserCreate(username=username, password=password, role=role))
    try:
        yield server
    finally:
        server.stop()


def push(platform: ApiSession, external_id: str, who: dict[str, Any], **signal: Any) -> None:
    assert send(platform, "posts", [post(external_id, author=who)])[0]["status"] == "created"
    assert send(platform, "signals", [classifier(external_id, **signal)])[0]["item_ids"]


def post_id(desk: Desk) -> str | None:
    current = desk.window.review.current
    return current.item.post.id if current else None


def lead_session(server: LiveServer) -> ApiSession:
    return ApiSession.login(server.url, *LEAD)


def test_a_reviewer_sees_why_the_posts_of_a_suspended_author_left(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    platform = key_session(server, SOURCE)
    spammer = shady("spammer")
    for n in range(3):
        push(platform, f"spam-{n}", spammer, score=0.99)
    push(platform, "spam-inauth", spammer, model="spam", label="spam", score=0.1)
    push(platform, "calm", author("calm-author"), score=0.8)
    lead = lead_session(server)
    restricted = lead.post(
        "/authors/actions",
        json={"author_ids": [author_id_for(SOURCE, "calm-author")], "action": "restrict"},
    )
    assert restricted.status_code == 200, restricted.text

    desk = desk_factory(server.url, queue=MISINFO, undo=120.0, store_settings={"lease_seconds": 30})
    window = desk.window
    desk.wait(lambda: len(window.store.worklist(MISINFO)) == 4)
    assert (post_id(desk) or "").startswith("spam-")
    assert not window.post.account.isVisible()  # an active author: nothing above the post

    # decided here (still inside the undo window when the author is suspended)
    decided, decided_item = post_id(desk), desk.current_id()
    desk.qtbot.wait(80)
    desk.press(K.Key_1)
    desk.wait(lambda: post_id(desk) not in (decided, None))
    on_screen = post_id(desk)
    assert on_screen is not None and on_screen.startswith("spam-")

    [grant] = lead.claim(INAUTH, count=1)
    assert lead.decide([verdict(grant, "suspend")])[0]["status"] == "accepted"

    # the renewal tells: the post on screen leaves, with why; the other held one too
    desk.wait(lambda: post_id(desk) == "calm")
    assert "Resolved: the author was suspended" in window.message.text()
    held = {r.item_id for r in window.store.worklist()}
    assert all(
        (s := window.store.stored_item(i)) is None or not s.item.post.id.startswith("spam-")
        for i in held
        if i != decided_item
    )
    assert not window.banner.isVisible(), "nothing for the reviewer to resolve"

    # the status of an actioned author shows above the post and on the Author tab
    assert window.post.account.isVisible()
    assert "restricted" in window.post.account.text()
    author_tab = next(
        i
        for i in range(window.context.count())
        if window.context.widget(i).objectName() == "authorPage"
    )
    # the tab titles follow once the post is painted
    desk.wait(lambda: "⚠" in window.context.tabText(author_tab))  # the status in words in its tip
    assert "restricted" in window.context.tabToolTip(author_tab)
    assert "restricted" in window.context.text_of("Author")

    # the verdict made before it arrived: refused as resolved, told so, no conflict
    window.store.flush_all(time.time())
    window.session.engine.nudge()
    desk.wait(lambda: window.store.pending_count() == 0)
    (entry,) = window.store.journal()
    assert entry.item_id == decided_item and entry.status == "rejected"
    assert entry.result is not None and entry.result.reason is not None
    assert entry.result.reason.code == "author_actioned"
    desk.wait(lambda: "Your verdict on" in window.message.text())
    assert "Resolved: the author was suspended" in window.message.text()
    assert not window.banner.isVisible()
    assert window.conflict_count == 0 and window.store.conflicts() == []


def test_a_lead_suspends_checked_linked_accounts_after_a_confirmation(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    platform = key_session(server, SOURCE)
    hub = shady("hub", shared_signal_accounts=["spoke_one", "spoke_two", "spoke_three"])
    one = shady("one", handle="spoke_one")
    two = shady("two", handle="spoke_two")
    three = shady("three", handle="spoke_three")
    push(platform, "hub-post", hub, score=0.99)
    push(platform, "one-a", one, score=0.8)
    push(platform, "one-b", one, model="hate-bert", label="hate", score=0.95)
    push(platform, "two-a", two, model="hate-bert", label="hate", score=0.95)
    push(platform, "three-a", three, score=0.8)
    ids = {name: author_id_for(SOURCE, name) for name in ("hub", "one", "two", "three")}

    desk = desk_factory(server.url, queue=MISINFO, user=LEAD)
    window = desk.window
    desk.wait(lambda: post_id(desk) == "hub-post")
    context = window.context
    author_tab = next(
        i for i in range(context.count()) if context.widget(i).objectName() == "authorPage"
    )
    context.setCurrentIndex(author_tab)
    panel = context.linked
    desk.wait(lambda: not panel.loading and len(panel.accounts) == 3)
    rows = {a.author_id: a for a in panel.accounts}
    assert set(rows) == {ids["one"], ids["two"], ids["three"]}
    assert rows[ids["one"]].open_items == 2 and rows[ids["two"]].open_items == 1
    assert panel.table.item(0, 1).text() == "active"
    for row, account in enumerate(panel.accounts):  # queues in words, handles whole on hover
        assert "-" not in panel.table.item(row, 3).text() or not account.queue_ids
        assert account.handle.lstrip("@") in panel.table.item(row, 0).toolTip()
    assert panel.apply.isVisible() and not panel.apply.isEnabled()  # nothing checked yet

    # check two accounts with the keys (Tab reaches the table, the arrows move, Space
    # ticks; only a mouse could before) and ask to suspend them
    panel.table.setFocus()
    desk.wait(panel.table.hasFocus)
    assert panel.table.focusPolicy() & Qt.FocusPolicy.TabFocus
    for row, account in enumerate(panel.accounts):
        if row:
            QTest.keyClick(panel.table, Qt.Key.Key_Down)
        assert panel.table.currentRow() == row
        if account.author_id in (ids["one"], ids["two"]):
            QTest.keyClick(panel.table, Qt.Key.Key_Space)
    checked = {
        panel.accounts[r].author_id
        for r in range(panel.table.rowCount())
        if panel.table.item(r, 0).checkState() == Qt.CheckState.Checked
    }
    assert checked == {ids["one"], ids["two"]}
    assert panel.apply.isEnabled()
    panel.action.setCurrentIndex(panel.action.findData("suspend"))
    panel.note.setText("one network")
    desk.qtbot.mouseClick(panel.apply, Qt.MouseButton.LeftButton)
    desk.wait(lambda: panel.confirmation is not None)
    box = panel.confirmation
    assert box is not None
    assert box.text() == "Suspend 2 accounts (3 open items in 2 queues)?"
    assert box.textFormat() == Qt.TextFormat.PlainText
    yes = box.button(QMessageBox.StandardButton.Yes)
    assert yes.text() == "Suspend"
    yes.click()
    desk.wait(lambda: "accounts done" in panel.status.text())
    assert "3 open items closed" in panel.status.text()
    desk.wait(lambda: not panel.loading and not panel.busy)
    desk.wait(
        lambda: (
            {a.author_id: a.status.value for a in panel.accounts}
            == {ids["one"]: "suspended", ids["two"]: "suspended", ids["three"]: "active"}
        )
    )
    assert all(a.open_items == 0 for a in panel.accounts if a.author_id != ids["three"])
    lead = lead_session(server)
    assert lead.claim(HATE, count=10) == []  # the spokes' hate items are closed

    # the lead's own worklist held one-a: the engine renewed at once, so it left
    desk.wait(
        lambda: (
            "one-a"
            not in {
                s.item.post.id
                for r in window.store.worklist()
                if (s := window.store.stored_item(r.item_id)) is not None
            }
        )
    )

    # an account actioned meanwhile (the list here is older): nothing is applied, and said
    taken = lead.post("/authors/actions", json={"author_ids": [ids["three"]], "action": "warn"})
    assert taken.status_code == 200
    panel.set_checked([ids["three"]])
    panel.action.setCurrentIndex(panel.action.findData("warn"))
    desk.qtbot.mouseClick(panel.apply, Qt.MouseButton.LeftButton)
    desk.wait(lambda: panel.confirmation is not None)
    assert panel.confirmation is not None
    assert panel.confirmation.text() == "Warn 1 account?"
    panel.confirmation.button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: "Nothing was applied" in panel.status.text())
    # ... and an account the list already shows as suspended is not even sent
    panel.refresh()
    desk.wait(lambda: not panel.loading)
    panel.set_checked([ids["one"]])
    panel.action.setCurrentIndex(panel.action.findData("suspend"))
    desk.qtbot.mouseClick(panel.apply, Qt.MouseButton.LeftButton)
    assert panel.confirmation is None
    assert "Nothing was applied" in panel.status.text() and "spoke_one" in panel.status.text()
