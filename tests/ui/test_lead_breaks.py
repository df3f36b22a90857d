"""A lead sets a queue's break reminders from the Queues page (the only way was the queue
file, applied on the server), and the reviewers' windows follow without a restart."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import DEFAULT_HIGH_HARM, BreakRule, HarmKind
from reviewer_app.ui.lead.breaks import BreaksDialog, rule_of
from reviewer_app.ui.plain import isolate
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk
from tests.ui.fit import text_problems

QUEUE = "misinformation"


def test_the_two_numbers_make_the_rule() -> None:
    assert rule_of(0, 0) is None
    minutes = rule_of(50, 0)
    assert minutes is not None and (minutes.after_minutes, minutes.after_high_harm) == (50, None)
    both = rule_of(30, 12, [HarmKind.hate])
    assert both is not None and (both.after_minutes, both.after_high_harm) == (30, 12)
    assert [k.value for k in both.high_harm] == ["hate"]
    # the queue's kinds as they are, none included; a queue without a rule: the defaults
    none = rule_of(30, 0, [])
    assert none is not None and none.high_harm == []
    assert minutes.high_harm == list(DEFAULT_HIGH_HARM)


def test_a_lead_sets_a_queues_break_reminders_from_the_queues_page(
    demo_server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(demo_server.url, user=LEAD, queue=QUEUE)
    lead = desk.window.lead
    assert lead is not None
    desk.window.show_mode(1)
    page = lead.queues_view
    lead.setCurrentWidget(page)
    desk.wait(lambda: page.model.rowCount() > 0)
    row = next(i for i, q in enumerate(page.model.queues) if q.queue_id == QUEUE)
    proxy = page.view.model()
    page.view.setCurrentIndex(proxy.mapFromSource(page.model.index(row, 0)))
    page.breaks_button.click()
    dialog = page.findChild(BreaksDialog)
    assert dialog is not None
    desk.wait(lambda: not dialog.busy and dialog.picker.count() > 0)
    assert dialog.picker.currentData() == QUEUE, "the queue selected on the page"
    hate = dialog.picker.findText("Hate and harassment")
    dialog.picker.setCurrentIndex(hate)
    desk.qtbot.wait(50)
    assert text_problems(dialog) == [], "the queue's name was cut to 74 px: 'Hate and h'"
    dialog.picker.setCurrentIndex(dialog.picker.findData(QUEUE))

    # keys only: the minutes box has the focus; 50 minutes, never by posts, Enter saves
    assert dialog.minutes.hasFocus()
    dialog.minutes.selectAll()
    QTest.keyClicks(dialog.minutes, "50")
    dialog.items.setValue(0)
    save = dialog.buttons.button(QDialogButtonBox.StandardButton.Save)
    assert save.isDefault() or save.autoDefault()
    QTest.keyClick(dialog.minutes, Qt.Key.Key_Return)
    desk.wait(lambda: "saved" in page.status.text())
    shown = next(q.name for q in dialog.queues if q.id == QUEUE)
    assert f"Break reminders of {isolate(shown)} saved" in page.status.text(), "its name"

    with desk.lead() as api:
        queue = next(q for q in api.queues().queues if q.id == QUEUE)
    assert queue.config.breaks is not None
    assert (queue.config.breaks.after_minutes, queue.config.breaks.after_high_harm) == (50, None)
    newest = demo_server.service.config_versions()[0]
    assert newest["applied_by"] == LEAD[0]


@pytest.mark.parametrize("kinds", [[], [HarmKind.hate, HarmKind.harassment]])
def test_new_numbers_keep_the_queues_own_high_harm_kinds(
    demo_server: LiveServer, qtbot: QtBot, kinds: list[HarmKind]
) -> None:
    def lead() -> ApiClient:
        client = ApiClient(demo_server.url)
        client.login(*LEAD)
        return client

    with lead() as api:
        api.set_breaks(QUEUE, BreakRule(after_high_harm=5, high_harm=kinds))
    dialog = BreaksDialog(lead, QUEUE)
    qtbot.addWidget(dialog)
    qtbot.waitUntil(lambda: not dialog.busy and dialog.picker.count() > 0, timeout=20_000)
    assert (dialog.minutes.value(), dialog.items.value()) == (0, 5)
    dialog.minutes.setValue(40)
    dialog.items.setValue(8)
    with qtbot.waitSignal(dialog.saved, timeout=20_000):
        dialog.save()
    with lead() as api:
        rule = next(q for q in api.queues().queues if q.id == QUEUE).config.breaks
    assert rule is not None
    assert (rule.after_minutes, rule.after_high_harm, rule.high_harm) == (40, 8, kinds)
