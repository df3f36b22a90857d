"""'Label and reduce' in the review window (real service over HTTP): on a post fact-checkers
rated only true the rating starts at true, which does not reduce; its key asks for another
rating inline, saying to use Label only (its key), as Label only does for a false rating;
nothing is sent, and Label only then records the label with one key."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed_types import SeedUser
from reviewer_app.ui.plain import isolate
from tests.support.client import all_decisions
from tests.support.misinfo import QUEUE_ID, seed_misinformation
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

K = Qt.Key

ITEMS = {"lr-true": ("true",), "lr-false": ("false",)}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'lr.db'}").start()
    users = (
        SeedUser(REVIEWER[0], "Rita Reviewer", REVIEWER[1], Role.reviewer),
        SeedUser(LEAD[0], "Lee Lead", LEAD[1], Role.lead),
    )
    seed_misinformation(server.service, ITEMS, users)
    try:
        yield server
    finally:
        server.stop()


def test_label_reduce_key_on_a_true_rating_asks_for_another(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(server.url, queue=QUEUE_ID, prefetch=10)
    window, bar = desk.window, desk.window.verdicts
    desk.wait(lambda: window.store.ready_counts().get(QUEUE_ID, 0) == len(ITEMS))
    desk.wait(lambda: desk.current_id() == "lr-true", 10_000)
    desk.qtbot.wait(80)
    assert bar.selected_rating() == "true", "the fact-checkers' rating"
    desk.press(K.Key_2)  # label and reduce with true: refused before anything is sent
    assert window.review.state == "input"
    prompt = bar.prompt.text()
    assert f"{isolate('True')} ratings are labelled, not reduced" in prompt, prompt
    assert f"{isolate('Label only')} (key 3)" in prompt, prompt
    assert bar.rating.hasFocus()
    assert window.store.journal() == []
    desk.press(K.Key_Escape)
    window.setFocus()
    desk.press(K.Key_3)  # label only, one key, with their rating
    desk.wait(lambda: desk.current_id() == "lr-false", 10_000)
    desk.qtbot.wait(80)
    assert bar.selected_rating() == "false"
    desk.press(K.Key_2)  # a false rating is labelled and reduced with one key
    desk.wait(lambda: desk.current_id() != "lr-false", 10_000)
    expected = {"lr-true": ("label", "true"), "lr-false": ("label-reduce", "false")}
    mine = {e.item_id: (e.action, e.verdict.rating) for e in window.store.journal()}
    assert mine == expected
    desk.wait(lambda: window.store.pending_count() == 0)
    decided = {d.item_id: (d.action, d.rating) for d in all_decisions(desk.lead(), REVIEWER[0])}
    assert decided == expected
    assert [e for e in window.store.journal() if e.status == "rejected"] == []
