"""Feedback reaches the reviewer, in the real window against the real service (the demo
dataset) over HTTP, offscreen: a lead overturns one of the reviewer's decisions in an audit
with a note and writes a note on another from the Decisions tab; at the reviewer's next
login the notice says so and opens My decisions, whose rows carry the notes as plain,
isolated text; only the reviewer's own decisions are listed; once seen, the notice is gone."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import AuditAgree, AuditOverturn, AuditSampleCreate
from reviewer_app.protocol.verdicts import AuditOutcome
from reviewer_app.ui.keys import shortcut_rows
from reviewer_app.ui.lead.decisions import DecisionsBrowser
from reviewer_app.ui.my_decisions import MyDecisionsView
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession, claim, verdict
from tests.support.servers import PASSWORD, LiveServer

from .conftest import LEAD, Desk
from .test_lead_decisions import lead_factory, settle

SPAM = "spam-scams"
AUDITOR_NOTE = "Not a scam: \u202eevil\u202c <b>satire</b>"
LEAD_NOTE = "Good catch \u2067on\u2069 this one."


def test_an_overturn_and_a_leads_note_reach_the_reviewer(
    demo_server: LiveServer, desk_factory: Callable[..., Desk], qtbot: QtBot
) -> None:
    demo_server.add_user("rita")
    demo_server.add_user("sam")
    started = datetime.now(UTC) - timedelta(seconds=1)
    rita = ApiSession.login(demo_server.url, "rita", PASSWORD)
    leased = claim(rita, SPAM, 2)
    made = [
        r["decision"]
        for r in rita.decide(
            [verdict(leased[0], "remove", policies=["SPAM.SCAM"]), verdict(leased[1], "not-spam")]
        )
    ]
    sam = ApiSession.login(demo_server.url, "sam", PASSWORD)
    assert sam.decide([verdict(claim(sam, SPAM, 1)[0], "not-spam")])[0]["status"] == "accepted"

    # The lead overturns rita's removal in a blind-free audit, with a note.
    with ApiClient(demo_server.url) as lead:
        lead.login(*LEAD)
        sample = lead.create_sample(
            AuditSampleCreate(
                size=10,
                since=started,
                until=datetime.now(UTC) + timedelta(seconds=1),
                queue_id=SPAM,
            )
        )
        while (task := lead.next_audit(sample.id).task) is not None:
            overturn = task.item.id == made[0]["item_id"]
            lead.record_audit(
                task.audit_id,
                AuditOverturn(
                    result=AuditOutcome.overturn,
                    action="not-spam",
                    note=AUDITOR_NOTE,
                )
                if overturn
                else AuditAgree(result=AuditOutcome.agree),
            )

    # ... and writes a note on rita's other decision from the Decisions tab.
    browser = DecisionsBrowser(lead_factory(demo_server.url))
    qtbot.addWidget(browser)
    browser.resize(1200, 700)
    browser.show()
    browser.reviewer.setText("rita")
    browser.reviewer.returnPressed.emit()
    model = browser.model
    qtbot.waitUntil(lambda: model.rowCount() == 2 and not model.loading, timeout=20_000)
    assert not browser.note_button.isEnabled()
    row = next(r for r in range(2) if model.decision_id(r) == made[1]["id"])
    browser.table.selectRow(row)
    assert browser.note_button.isEnabled()
    browser.note_button.click()
    dialog = browser.note_dialog
    assert dialog is not None and dialog.isVisible()
    dialog.send()
    assert "Write the note first" in dialog.status.text()  # an empty note is not sent
    dialog.text.setPlainText(LEAD_NOTE)
    with qtbot.waitSignal(dialog.sent, timeout=20_000):
        dialog.send()
    qtbot.waitUntil(lambda: "Note sent to" in browser.status.text(), timeout=5_000)
    browser.shutdown()
    settle()

    # rita logs in: the notice says what came, and opens My decisions.
    desk = desk_factory(demo_server.url, user=("rita", PASSWORD), queue=SPAM)
    window = desk.window
    bar = window.feedback_bar
    qtbot.waitUntil(bar.isVisible, timeout=20_000)
    text = bar.text.text()
    assert "1 of your decisions was overturned" in text and "1 note from a lead came" in text
    assert "Ctrl+Shift+D" in text
    bar.open_button.click()
    view = window.my_decisions_view
    assert isinstance(view, MyDecisionsView)
    qtbot.waitUntil(lambda: view.model.rowCount() >= 1 and not view.busy, timeout=20_000)
    assert not bar.isVisible()
    rows = [
        [view.model.index(r, c).data() for c in range(view.model.columnCount())]
        for r in range(view.model.rowCount())
    ]
    # rita's two decisions only (not sam's, nor the demo's), newest first, in words
    assert len(rows) == 2, rows
    decided, post, queue, _action, outcome, note = rows[1]
    # which post it was: its first words, as plain isolated text (the reviewer's only way
    # to learn from an overturn is to see what they decided)
    removed_text = " ".join(leased[0]["item"]["post"]["text"].split())
    assert post.startswith(isolate(removed_text[:40])[:-1]), (post, removed_text)
    assert outcome == "Overturned in an audit"
    assert note == isolate(AUDITOR_NOTE)  # plain, bidi controls as markers, isolated
    assert "\u202e" not in note and "⟦U+202E⟧" in note
    assert "T" not in decided or ":" in decided  # a local time in words, not an ISO stamp
    assert not decided.startswith("20") and "+00:00" not in decided
    assert "Spam" in queue and SPAM not in queue  # the queue's name, not its id
    assert rows[0][4] == "Confirmed in an audit" and rows[0][5] == isolate(LEAD_NOTE)
    assert "(SPAM.SCAM)" in rows[1][3] and "SPAM.SCAM" not in rows[0][3]
    view.table.selectRow(1)
    detail = view.detail.toPlainText()
    assert f"The post: {post}" in detail
    assert "overturned it in an audit" in detail and isolate(AUDITOR_NOTE) in detail
    # the bold rows: overturned, or carrying a lead's note
    font = view.model.index(1, 0).data(Qt.ItemDataRole.FontRole)
    assert font is not None and font.bold()

    # seen: the notice at the next check says nothing
    with ApiClient(demo_server.url) as again:
        again.login("rita", PASSWORD)
        qtbot.waitUntil(lambda: again.feedback_notice().overturned == 0, timeout=20_000)
        assert again.feedback_notice().notes == 0
    view.close()

    # The key opens it from the review window, and the shortcuts dialog lists it.
    action = next(a for a in window.findChildren(QAction) if a.text() == "My decisions…")
    assert action.shortcut() == QKeySequence("Ctrl+Shift+D")
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=5_000)
    qtbot.keyClick(
        window,
        Qt.Key.Key_D,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    qtbot.waitUntil(
        lambda: window.my_decisions_view is not None and window.my_decisions_view.isVisible(),
        timeout=5_000,
    )
    assert any(
        keys == "Ctrl+Shift+D" and "My decisions" in what
        for keys, what in shortcut_rows(window.keymap)
    )
    window.my_decisions_view.close()
    settle()


def test_a_conflict_is_a_row_of_my_decisions_in_words(tmp_path: Path) -> None:
    """A verdict that lost to another reviewer's decision (kept in the local store) shows
    as a conflict: whose decision counts and what it was, the names isolated."""
    from reviewer_app.server.feeds.seed import LOAD_QUEUE
    from reviewer_app.ui.my_decisions import Names, conflict_row

    from .conftest import conflict_store

    store = conflict_store(tmp_path)
    try:
        (conflict,) = store.conflicts(open_only=False)
        queues = store.queues()
        row = conflict_row(conflict, Names(queues))
    finally:
        store.close()
    assert row.outcome == "Conflict: another decision counts"
    assert f"but {isolate('ben')} had decided" in row.detail
    names = {a.id: a.label for q in queues for a in q.config.actions}
    assert isolate(names.get("remove", "remove")) in row.detail
    assert row.queue in (isolate(LOAD_QUEUE.name), isolate(LOAD_QUEUE.id))
    assert conflict.item is not None and row.post
    assert row.post.startswith(isolate(" ".join(conflict.item.post.text.split())[:20])[:-1])
    assert f"The post: {row.post}" in row.detail


def test_ctrl_enter_twice_sends_the_note_once(demo_server: LiveServer, qtbot: QtBot) -> None:
    """The keys called send() itself: only OK and Cancel were disabled while it went, so a
    second Ctrl+Enter before the reply wrote the note twice."""
    from PySide6.QtGui import QShortcut

    from reviewer_app.ui.lead.decision_note import DecisionNoteDialog

    demo_server.add_user("rita")
    rita = ApiSession.login(demo_server.url, "rita", PASSWORD)
    [decided] = rita.decide([verdict(claim(rita, SPAM, 1)[0], "not-spam")])
    decision_id = decided["decision"]["id"]
    factory = lead_factory(demo_server.url)
    dialog = DecisionNoteDialog(factory, decision_id, "rita")
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.text.setPlainText(LEAD_NOTE)
    keys = dialog.findChildren(QShortcut)
    assert {k.key().toString() for k in keys} >= {"Ctrl+Return", "Ctrl+Enter"}
    with qtbot.waitSignal(dialog.sent, timeout=20_000):
        for key in (*keys, *keys):  # pressed again before the service answers
            key.activated.emit()
    for key in keys:  # and again once it went, as the dialog closes
        key.activated.emit()
    settle()
    qtbot.wait(200)
    notes = factory().decision_notes(decision_id).notes
    assert [n.note for n in notes] == [LEAD_NOTE]
