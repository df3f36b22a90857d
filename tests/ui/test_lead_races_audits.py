"""A blind audit task whose decision was appealed meanwhile does not trap the lead (real
service over HTTP, offscreen): the overturn is refused, the desk says in words that the post
can no longer be overturned and how to leave it, S (or Leave this post) sets it aside and
the next post comes; the sample then finishes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from reviewer_app.protocol import Role
from tests.support.api import ApiSession, claim, verdict
from tests.support.appeals import appeal, appeals_server
from tests.support.intake import MISINFO, classifier, key_session, post, send
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

K = Qt.Key


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    people = [(*REVIEWER, Role.reviewer), (*LEAD, Role.lead), ("rita", PASSWORD, Role.reviewer)]
    server = appeals_server(f"sqlite:///{tmp_path / 'audits.db'}", people=people)
    try:
        yield server
    finally:
        server.stop()


def test_a_post_appealed_meanwhile_is_left_with_s_and_the_sample_finishes(
    server: LiveServer, desk_factory: Callable[..., Desk], qtbot
) -> None:
    platform = key_session(server, "feed-bridge")
    send(platform, "posts", [post("p-1", "Polls close at noon."), post("p-2", "Vote by text.")])
    found = send(platform, "signals", [classifier("p-1", 0.95), classifier("p-2", 0.95)])
    posts = {r["item_ids"][0]: external for r, external in zip(found, ("p-1", "p-2"), strict=True)}
    rita = ApiSession.login(server.url, "rita", PASSWORD)
    leased = claim(rita, MISINFO, 2)
    removed = rita.decide([verdict(x, "remove", policies=["MISINFO.CIVIC"]) for x in leased])
    assert {r["status"] for r in removed} == {"accepted"}
    # one post still waits: the lead's review flow has something on screen when it opens
    send(platform, "posts", [post("p-3", "Ballots are due Friday.")])
    send(platform, "signals", [classifier("p-3", 0.95)])

    desk = desk_factory(server.url, user=LEAD)
    window = desk.window
    assert window.lead is not None
    window.show_mode(1)
    audits = window.lead.audits
    window.lead.setCurrentWidget(audits)
    audits.sample_size.setValue(2)
    audits.queue_picker.setCurrentIndex(audits.queue_picker.findData(MISINFO))
    audits.create_sample()
    qtbot.waitUntil(lambda: audits.samples.rowCount() == 1, timeout=20_000)
    audits.start_selected()
    view = audits.desk
    qtbot.waitUntil(lambda: view.task is not None and not view.busy, timeout=20_000)
    assert view.task is not None and not view.leave_button.isVisible()
    first = view.task.item.id
    [sent] = send(platform, "appeals", [appeal(posts[first], appeal_id="ap-1")])
    assert sent["status"] == "created", sent
    finished: list[int] = []
    view.finished.connect(finished.append)
    window.activateWindow()
    view.setFocus()

    desk.press(K.Key_1)  # no violation: an overturn of the removal, which the appeal settles
    qtbot.waitUntil(lambda: view.unauditable is not None and not view.busy, timeout=20_000)
    said = view.outcome.text()
    assert "can no longer be overturned" in said and "Press S" in said, said
    assert view.task is not None and view.task.item.id == first
    assert view.leave_button.isVisibleTo(view)

    view.setFocus()
    desk.press(K.Key_S)  # leave it: set aside, and the next post comes
    qtbot.waitUntil(
        lambda: view.task is not None and view.task.item.id != first and not view.busy,
        timeout=20_000,
    )
    assert "left the sample without a result" in view.outcome.text()
    assert not view.leave_button.isVisibleTo(view)

    view.setFocus()
    desk.press(K.Key_1)  # the other post is judged as usual; the sample is done
    qtbot.waitUntil(lambda: finished != [], timeout=20_000)
    with desk.lead() as api:
        sample = api.audit_results(finished[0]).sample
    assert (sample.recorded, sample.set_aside) == (1, 1)
