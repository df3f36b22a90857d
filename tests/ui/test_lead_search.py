"""The Lead workspace's Search tab against the real service over HTTP, offscreen: hostile
authors and posts shown as plain, isolated text, a result opened on the Decisions tab, and
saved views: one lead saves and shares a view, another sees it and opens it with
Ctrl+Shift+1; a private view stays its owner's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtTest import QTest

from reviewer_app.protocol import (
    DecisionQuery,
    DecisionsView,
    Role,
    SearchKind,
    SearchQuery,
    SearchView,
    UserCreate,
)
from reviewer_app.ui.lead.search import SearchPane
from reviewer_app.ui.plain import FSI, PDI, isolate
from tests.support.intake import apply_queues, author, classifier, key_session, post, send
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk

HOSTILE_NAME = "\u202eevil\u202c <b>Bold</b> Name"
HOSTILE_TEXT = "<img src=http://evil.example/x.png> wave-7f3 \u202ereversed\u202c\nsecond line"
LEAD_B = ("lead-b", "review-desk-lead-b")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'search.db'}").start()
    try:
        apply_queues(server)
        for (username, password), role in ((LEAD, Role.lead), (LEAD_B, Role.lead)):
            server.service.create_user(UserCreate(username=username, password=password, role=role))
        platform = key_session(server, "platform")
        for n in range(6):  # the leads' desks lease some; the search finds them all
            writer = author("hostile", display_name=HOSTILE_NAME) if n < 3 else author(f"a{n}")
            text = f"{HOSTILE_TEXT} {n}" if n < 3 else f"An ordinary post {n}"
            send(platform, "posts", [post(f"post-{n}", text, author=writer)])
            send(platform, "signals", [classifier(f"post-{n}", 0.9)])
        yield server
    finally:
        server.stop()


def pane_of(desk: Desk) -> SearchPane:
    window = desk.window
    assert window.lead is not None
    window.show_mode(1)
    window.lead.setCurrentWidget(window.lead.search)
    return window.lead.search


def test_results_are_plain_isolated_text_and_open_on_the_decisions_tab(
    server: LiveServer, desk_factory, qtbot
) -> None:
    desk: Desk = desk_factory(server.url, user=LEAD)
    pane = pane_of(desk)
    pane.kind.setCurrentIndex(pane.kind.findData(SearchKind.author))
    pane.query.setText("EVIL")
    pane.search()
    # the call is on a pool thread: the GUI says so and goes on
    assert pane.status.text() == "Searching…" and pane.model.rowCount() == 0
    qtbot.waitUntil(lambda: pane.model.rowCount() == 3, timeout=20_000)
    assert "3 items found" in pane.status.text()
    model = pane.model
    for row in range(3):
        author_cell = model.index(row, 3).data()
        post_cell = model.index(row, 4).data()
        assert author_cell.startswith(isolate("@hostile"))
        assert isolate(HOSTILE_NAME) in author_cell and "⟦U+202E⟧" in author_cell
        assert post_cell.startswith(FSI) and post_cell.endswith(PDI)
        assert "\n" not in post_cell and "⟦U+202E⟧" in post_cell
        tip = model.index(row, 4).data(Qt.ItemDataRole.ToolTipRole)
        assert "&lt;img" in tip and "<img" not in tip  # the tooltip shows the HTML as text
        author_tip = model.index(row, 3).data(Qt.ItemDataRole.ToolTipRole)
        assert "\u202e" not in author_tip and "⟦U+202E⟧" in author_tip  # marked, as the cell
    assert [h.post_id for h in model.hits] == ["post-2", "post-1", "post-0"]
    # the queue by its name (the Decisions tab's queue list), not its id "misinfo"
    lead = desk.window.lead
    assert lead is not None
    qtbot.waitUntil(lambda: bool(lead.decisions.model.queues), timeout=20_000)
    pane.search()
    qtbot.waitUntil(lambda: pane.model.rowCount() == 3, timeout=20_000)
    assert {model.index(row, 1).data() for row in range(3)} == {isolate("Misinformation")}
    # the state in words, never the wire's code ("pending")
    states = {model.index(row, 2).data() for row in range(3)}
    assert states <= {"waiting", "being reviewed", "decided"} and states, states

    # the open posts selected go to the Decide together dialog (the bulk helper's)
    selection = pane.table.selectionModel()
    for row in (0, 2):
        selection.select(
            model.index(row, 0),
            QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
        )
    pane.bulk_button.click()
    dialog = desk.window.bulk_dialog
    assert dialog is not None and dialog.isVisible()
    assert [c.item_id for c in dialog.candidates] == [model.hits[0].item_id, model.hits[2].item_id]
    assert dialog.candidates[0].handle == "@hostile"
    dialog.close()

    # too short: the service's words, nothing lost from the field
    pane.query.setText("ev")
    pane.search()
    qtbot.waitUntil(lambda: "at least 3 characters" in pane.status.text(), timeout=20_000)
    assert pane.query.text() == "ev"

    pane.query.setText("second line 2")
    pane.kind.setCurrentIndex(pane.kind.findData(SearchKind.text))
    pane.search()
    qtbot.waitUntil(lambda: pane.model.rowCount() == 1, timeout=20_000)
    item_id = pane.model.hits[0].item_id
    pane.table.setCurrentIndex(pane.model.index(0, 0))
    with qtbot.waitSignal(lead.decisions.history_shown, timeout=20_000) as shown:
        pane.table.activated.emit(pane.model.index(0, 0))
        assert lead.currentWidget() is lead.decisions
        assert lead.decisions.item.text() == item_id
    assert shown.args == [item_id]
    assert "Loading" not in lead.decisions.history.toPlainText()
    assert item_id in lead.decisions.history_title.text()


def test_a_shared_view_is_seen_and_opened_by_another_lead_a_private_one_is_not(
    server: LiveServer, desk_factory, qtbot
) -> None:
    a: Desk = desk_factory(server.url, user=LEAD)
    pane_a = pane_of(a)
    qtbot.waitUntil(lambda: pane_a._views_loaded_once, timeout=20_000)
    name = "Wave \u202eevil\u202c <b>x</b>"
    pane_a.save_view(name, True, SearchView(search=SearchQuery(kind=SearchKind.text, q="wave")))
    qtbot.waitUntil(lambda: [v.name for v in pane_a.views] == [name], timeout=20_000)
    pane_a.save_view("Only mine", False, DecisionsView(filter=DecisionQuery(action="remove")))
    qtbot.waitUntil(lambda: len(pane_a.views) == 2, timeout=20_000)
    assert {v.name for v in pane_a.views} == {name, "Only mine"}
    # a bad name: refused before any call, the picker unchanged
    pane_a.save_view(
        "two\nlines", True, SearchView(search=SearchQuery(kind=SearchKind.text, q="x"))
    )
    assert "Nothing was saved" in pane_a.status.text() and len(pane_a.views) == 2

    b: Desk = desk_factory(server.url, user=LEAD_B)
    window_b = b.window
    assert window_b.lead is not None
    window_b.show_mode(1)
    lead_b = window_b.lead
    lead_b.setCurrentWidget(lead_b.queues_view)
    pane_b = lead_b.search
    qtbot.waitUntil(lambda: len(pane_b.views) == 1, timeout=20_000)
    [shared] = pane_b.views
    assert shared.name == name and shared.owner == LEAD[0] and shared.shared
    shown = pane_b.picker.itemText(0)
    assert shown.startswith("Ctrl+Shift+1: " + isolate(name)) and "⟦U+202E⟧" in shown
    assert "Only mine" not in " ".join(
        pane_b.picker.itemText(i) for i in range(pane_b.picker.count())
    )

    lead_b.setFocus()
    QTest.keyClick(
        lead_b,
        Qt.Key.Key_1,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert lead_b.currentWidget() is pane_b
    qtbot.waitUntil(lambda: pane_b.model.rowCount() == 3, timeout=20_000)
    assert pane_b.query.text() == "wave" and pane_b.kind.currentData() == SearchKind.text

    # a's private decisions view opens the Decisions tab with its filter
    pane_a.open_view(next(i for i, v in enumerate(pane_a.views) if v.name == "Only mine"))
    lead_a = a.window.lead
    assert lead_a is not None and lead_a.currentWidget() is lead_a.decisions
    assert lead_a.decisions.action.text() == "remove"
