"""Escalations carry a reason, at the keyboard, against the real demo service.

E opens the reason picker with the queue's own reasons (the demo's misinformation queue
has its list; the inauthentic-accounts queue has none and offers the defaults); Esc
cancels and nothing is recorded; a number key picks, the note takes words, Enter
escalates. The verdict goes out with the reason, and the lead reviewing that escalation
sees who escalated it, when and why above the post, in "Why queued" and in its history.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from reviewer_app.protocol import DEFAULT_ESCALATION_REASONS
from reviewer_app.ui.plain import isolate
from reviewer_app.ui.words import language_words
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

K = Qt.Key
QUEUE = "misinformation"
NOTE = "same claim as the flood of 12 May"


def _picker(desk: Desk):  # -> EscalationDialog
    desk.wait(lambda: desk.window.escalation_dialog is not None, 5_000)
    dialog = desk.window.escalation_dialog
    assert dialog is not None and dialog.isVisible()
    return dialog


def test_escalating_asks_for_a_reason_and_the_lead_sees_it(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, queue=QUEUE)
    window = desk.window
    item_id = desk.current_id()
    assert item_id is not None
    # the post's language by its name, its own queue by name, no "came from" naming it again
    stored = window.store.stored_item(item_id)
    assert stored is not None
    language = language_words(stored.item.post.language)
    assert language[0].isupper() and window.post.facts.text().startswith(f"Language: {language} ·")
    mine = window.context.text_of("Why queued")
    assert mine.startswith(f"Queue: {isolate('Misinformation')}\n"), mine

    # E opens the picker with the queue's reasons, numbered; Esc leaves everything as it was
    desk.press(K.Key_E)
    dialog = _picker(desk)
    reasons = window.review.queue.config.reasons_for_escalation()
    assert [r.id for r in reasons][:3] == ["no_fact_check", "health_harm", "election"]
    shown = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert shown[2].startswith("3  " + isolate("Election or civic process"))
    # every reason read whole, its description too: wrapped, never cut at the side
    assert dialog.list.wordWrap() and not dialog.list.horizontalScrollBar().isVisible()
    for row in range(dialog.list.count()):
        rect = dialog.list.visualItemRect(dialog.list.item(row))
        assert rect.width() <= dialog.list.viewport().width(), shown[row]
    QTest.keyClick(dialog.list, K.Key_Escape)
    desk.wait(lambda: window.escalation_dialog is None, 5_000)
    assert desk.current_id() == item_id and window.store.journal() == []

    # E again: 3 picks "Election or civic process", the arrows move, the note takes words
    desk.press(K.Key_E)
    dialog = _picker(desk)
    QTest.keyClick(dialog.list, K.Key_5)
    assert dialog.reason() is not None and dialog.reason().id == "satire_unclear"
    QTest.keyClick(dialog.list, K.Key_Up)
    QTest.keyClick(dialog.list, K.Key_Up)
    assert dialog.reason().id == "election"
    dialog.note.setFocus()
    QTest.keyClicks(dialog.note, NOTE)
    QTest.keyClick(dialog.note, K.Key_Return)
    desk.wait(lambda: desk.current_id() != item_id, 10_000)
    (entry,) = window.store.journal()
    assert entry.verdict.action == "escalate"
    assert entry.verdict.escalation_reason == "election"  # (its note leaves once sent)
    desk.wait(lambda: window.store.pending_count() == 0, 30_000)

    # the lead: assigned to them (their "review now" takes it first) and reviewed
    lead_api = desk.lead()
    with lead_api:
        assert lead_api.assign_escalation(item_id, LEAD[0]).escalation.reason == "election"
    lead: Desk = desk_factory(demo_server.url, user=LEAD, queue="escalations")
    lead.wait(lambda: lead.current_id() == item_id, 20_000)
    banner = lead.window.post.escalation
    assert banner.isVisible()
    text = banner.text()
    assert f"Escalated by {isolate(REVIEWER[0])}" in text
    assert isolate("Election or civic process") in text
    # the queue by its name and the time in local time (it said the id, and the time in UTC)
    assert f"from {isolate('Misinformation')}" in text and "UTC" not in text
    assert re.search(r"\(\d{4}-\d\d-\d\d \d\d:\d\d\)", text), text
    assert isolate(NOTE) in text
    assert f"Assigned to {isolate(LEAD[0])}" in text
    why = lead.window.context.text_of("Why queued")
    assert isolate("Election or civic process") in why and isolate(REVIEWER[0]) in why
    assert f"from {isolate('Misinformation')}" in why and "UTC" not in why
    # the queues by their names, not their ids
    came = f"Queue: {isolate('Escalations')} (came from {isolate('Misinformation')})"
    assert why.startswith(came), why
    history = lead.window.context.text_of("History")
    assert f"escalated by {isolate(REVIEWER[0])} — why: {isolate('Election or civic process')}" in (
        history
    )
    assert f"escalation assigned by {isolate(LEAD[0])} — to {isolate(LEAD[0])}" in history


def test_a_queue_without_reasons_offers_the_defaults_and_a_reason_may_need_a_note(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, queue="inauthentic-accounts")
    window = desk.window
    item_id = desk.current_id()
    desk.press(K.Key_E)
    dialog = _picker(desk)
    assert dialog.list.count() == len(DEFAULT_ESCALATION_REASONS)
    # "Other" is the last and needs a note: Enter without one is refused, in words
    QTest.keyClick(dialog.list, getattr(K, f"Key_{len(DEFAULT_ESCALATION_REASONS)}"))
    assert dialog.reason().id == "other"
    QTest.keyClick(dialog.list, K.Key_Return)
    assert dialog.isVisible() and dialog.problem.isVisible()
    assert "needs a note" in dialog.problem.text()
    assert window.store.journal() == []
    QTest.keyClicks(dialog.note, "three accounts, one phone number")
    QTest.keyClick(dialog.note, K.Key_Return)
    desk.wait(lambda: desk.current_id() != item_id, 10_000)
    (entry,) = window.store.journal()
    assert entry.verdict.escalation_reason == "other"
    desk.wait(lambda: window.store.pending_count() == 0, 30_000)
    (settled,) = window.store.journal()
    assert settled.status == "accepted", settled
