"""The desktop client and a platform, end to end (real service over HTTP, offscreen): a post
the platform pushes through intake, with a fact-checker's rating it relays, appears in the
reviewer's window and is labelled and reduced with one key; a post the platform withdraws
leaves the window without a verdict, and a verdict already made for one is told apart from
a refusal the reviewer must act on."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from reviewer_app.protocol import Role, UserCreate
from tests.support.api import ApiSession
from tests.support.client import all_decisions
from tests.support.intake import (
    MISINFO,
    apply_queues,
    classifier,
    fact_check,
    key_session,
    post,
    send,
)
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

K = Qt.Key


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'intake.db'}").start()
    apply_queues(server)
    for (username, password), role in ((REVIEWER, Role.reviewer), (LEAD, Role.lead)):
        server.service.create_user(UserCreate(username=username, password=password, role=role))
    try:
        yield server
    finally:
        server.stop()


def push(platform: ApiSession, external_id: str, text: str, *signals: dict[str, Any]) -> None:
    """A post and its signals, as the platform's backend sends them."""
    assert send(platform, "posts", [post(external_id, text)])[0]["status"] == "created"
    signals = signals or (classifier(external_id, 0.95),)
    assert {r["status"] for r in send(platform, "signals", list(signals))} == {"created"}


def withdraw(platform: ApiSession, external_id: str) -> None:
    body = [{"post_external_id": external_id, "reason": "deleted"}]
    assert send(platform, "withdrawals", body)[0]["status"] == "updated"


def post_id(desk: Desk) -> str | None:
    current = desk.window.review.current
    return current.item.post.id if current else None


def test_a_post_pushed_through_intake_appears_in_the_reviewers_window(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    platform = key_session(server, "feed-bridge")
    push(platform, "e2e-first", "Polls open at eight tomorrow.")
    desk = desk_factory(server.url, queue=MISINFO)
    window = desk.window
    assert post_id(desk) == "e2e-first"
    assert "Polls open at eight" in window.post.text.toPlainText()

    text = "Breaking: every polling station closes at noon on Thursday (e2e-7c1)"
    push(platform, "e2e-second", text, fact_check("e2e-second", "false"))
    desk.press(K.Key_1)  # the first is kept; the next post comes from the server
    window.session.engine.nudge()
    desk.wait(lambda: post_id(desk) == "e2e-second")
    assert window.post.text.toPlainText() == text
    second = desk.current_id()
    assert second is not None
    # the worklist catches up after the post is painted (MainWindow._later)
    desk.wait(lambda: any(r.item_id == second for r in window.worklist.rows))
    assert [f.organisation for f in window.review.current.item.fact_checks] == ["Check Desk"]
    bar = window.verdicts
    assert bar.selected_rating() == "false" and "False" in bar.fact_hint.text()
    desk.qtbot.wait(80)  # past the doubled-key guard
    desk.press(K.Key_3)  # Label and reduce, with the fact-checker's rating: one key
    desk.wait(lambda: window.store.pending_count() == 0 and len(window.store.journal()) == 2)
    decided = {d.item_id: (d.action, d.rating) for d in all_decisions(desk.lead(), REVIEWER[0])}
    assert decided[second] == ("label-reduce", "false")


def test_a_withdrawn_post_leaves_the_window_without_a_verdict(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    platform = key_session(server, "feed-bridge")
    for n in range(3):
        push(platform, f"wd-{n}", f"Post number {n} about the count.")
    desk = desk_factory(server.url, queue=MISINFO, undo=120.0, store_settings={"lease_seconds": 30})
    window = desk.window
    desk.wait(lambda: len(window.store.worklist(MISINFO)) == 3)

    # on screen: the next renewal of its lease says so, and the next post is shown
    shown, shown_item = post_id(desk), desk.current_id()
    assert shown is not None
    withdraw(platform, shown)
    desk.wait(lambda: post_id(desk) not in (shown, None))
    assert "Withdrawn by the platform" in window.message.text()
    assert window.store.journal() == []
    assert shown_item not in {r.item_id for r in window.store.worklist()}
    assert not window.banner.isVisible()

    # decided here, withdrawn before the verdict went: it is refused, and told as withdrawn
    decided, decided_item = post_id(desk), desk.current_id()
    desk.qtbot.wait(80)
    desk.press(K.Key_1)
    desk.wait(lambda: post_id(desk) not in (decided, None))
    assert decided is not None
    withdraw(platform, decided)
    window.store.flush_all(time.time())  # the undo window ends now (as on a clean exit)
    window.session.engine.nudge()
    desk.wait(lambda: window.store.pending_count() == 0)
    (entry,) = window.store.journal()
    assert entry.item_id == decided_item and entry.status == "rejected"
    assert entry.result is not None and entry.result.reason is not None
    assert entry.result.reason.code == "withdrawn"
    desk.wait(lambda: "your verdict on" in window.message.text())
    assert "Withdrawn by the platform" in window.message.text()
    assert not window.banner.isVisible(), "nothing for the reviewer to resolve"
    assert window.conflict_count == 0 and window.store.conflicts() == []
    assert all_decisions(desk.lead(), REVIEWER[0]) == []
