"""Fact-checks in the review window (real service over HTTP): the label actions start at
the fact-checkers' rating and record it with one key; another rating asks for a note; a
reducing rating is labelled and reduced; with no fact-check at all the label actions are
disabled, and their key says why instead of deciding."""

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
CTRL = Qt.KeyboardModifier.ControlModifier

ITEMS = {
    "fc-false": ("missing_context", "false"),  # preset: false, the most severe
    "fc-none": (),
    "fc-context": ("missing_context",),
    "fc-override": ("missing_context",),
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'fc.db'}").start()
    users = (
        SeedUser(REVIEWER[0], "Rita Reviewer", REVIEWER[1], Role.reviewer),
        SeedUser(LEAD[0], "Lee Lead", LEAD[1], Role.lead),
    )
    seed_misinformation(server.service, ITEMS, users)
    try:
        yield server
    finally:
        server.stop()


def _next(desk: Desk, item_id: str) -> None:
    desk.wait(lambda: desk.current_id() != item_id, 10_000)
    desk.qtbot.wait(80)  # past the doubled-key guard


def test_the_fact_checkers_rating_is_preset_and_a_label_needs_one(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(server.url, queue=QUEUE_ID, prefetch=10)
    window, bar = desk.window, desk.window.verdicts
    desk.wait(lambda: window.store.ready_counts().get(QUEUE_ID, 0) == len(ITEMS))
    expected: dict[str, tuple[str, str | None]] = {}
    while len(expected) < len(ITEMS) and desk.current_id() is not None:
        item_id = desk.current_id()
        assert item_id is not None
        desk.qtbot.wait(80)
        journal = len(window.store.journal())
        label_only, both = bar.buttons["label"], bar.buttons["label-reduce"]
        if item_id == "fc-none":
            assert not label_only.isEnabled() and not both.isEnabled()
            assert "no fact-checker has rated this post" in label_only.toolTip()
            assert bar.fact_hint.isVisible() and "No fact-check" in bar.fact_hint.text()
            assert bar.fact_hint.textFormat() == Qt.TextFormat.PlainText
            desk.press(K.Key_3)  # the key says why instead of recording
            assert f"{isolate('Label only')} is not available" in window.message.text()
            assert desk.current_id() == item_id and len(window.store.journal()) == journal
            assert window.review.state == "reviewing"
            desk.press(K.Key_4)  # reduce alone needs no fact-check
            expected[item_id] = ("reduce", None)
        elif item_id == "fc-false":
            assert label_only.isEnabled() and both.isEnabled()
            assert bar.selected_rating() == "false", "the most severe rating given"
            assert "False" in bar.fact_hint.text() and "note" in bar.fact_hint.text()
            desk.press(K.Key_3)  # label only: a false rating is labelled and reduced
            assert window.review.state == "input"
            assert "labelled and reduced" in bar.prompt.text()
            assert f"{isolate('Label and reduce')} (key 2)" in bar.prompt.text()
            desk.press(K.Key_Escape)
            desk.press(K.Key_2)  # one key: label and reduce with the fact-checkers' rating
            expected[item_id] = ("label-reduce", "false")
        elif item_id == "fc-context":
            assert bar.selected_rating() == "missing_context"
            desk.press(K.Key_3)  # one key: label with their rating
            expected[item_id] = ("label", "missing_context")
        else:
            assert item_id == "fc-override"
            desk.press(K.Key_R)
            assert bar.rating.hasFocus()
            bar.rating.setCurrentIndex(bar.rating.findData("satire"))
            window.setFocus()
            desk.press(K.Key_3)  # a rating no fact-checker gave: a note says why
            assert window.review.state == "input"
            assert (
                f"No fact-checker gave this post the rating {isolate('Satire')}"
                in bar.prompt.text()
            )
            assert "a note" in bar.prompt.text() and bar.note.hasFocus()
            assert len(window.store.journal()) == journal
            desk.qtbot.keyClicks(bar.note, "The article is satire, the checker missed it")
            desk.press(K.Key_Return, CTRL)
            expected[item_id] = ("label", "satire")
        _next(desk, item_id)
    assert set(expected) == set(ITEMS)
    mine = {e.item_id: (e.action, e.verdict.rating) for e in window.store.journal()}
    assert mine == expected
    desk.wait(lambda: window.store.pending_count() == 0)
    decided = {d.item_id: (d.action, d.rating) for d in all_decisions(desk.lead(), REVIEWER[0])}
    assert decided == expected
    rejected = [e for e in window.store.journal() if e.status == "rejected"]
    assert rejected == []
