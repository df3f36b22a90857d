"""The blind audit desk runs the reviewers' review flow: the same pane and the same
controller, its judgements going to the server instead of the local store. So a verdict key
pressed twice records one audit result, and a key pressed just after the next post arrives
(inside the doubled-key guard) decides nothing."""

from __future__ import annotations

from PySide6.QtCore import Qt

from reviewer_app.ui.lead.audit_desk import AuditSink
from reviewer_app.ui.plain import isolate
from reviewer_app.ui.review import ReviewController
from reviewer_app.ui.review_pane import ReviewPane
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk
from tests.ui.test_lead_workspace import QUEUE, RECORDING, reviewer_decides

K = Qt.Key


def test_a_doubled_key_on_the_audit_desk_records_one_audit_result(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    reviewer_decides(demo_server, 3)
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    assert window.lead is not None
    window.show_mode(1)
    lead = window.lead
    audits = lead.audits
    lead.setCurrentWidget(audits)
    audits.sample_size.setValue(3)
    audits.queue_picker.setCurrentIndex(audits.queue_picker.findData(QUEUE))
    audits.create_sample()
    qtbot.waitUntil(lambda: audits.samples.rowCount() == 1, timeout=20_000)
    sample_id = audits.selected_sample()
    assert sample_id is not None
    audits.start_selected()
    view = audits.desk
    # one pane and one controller for both desks; the sink is the one difference
    assert type(view.pane) is type(window.pane) is ReviewPane
    assert type(view.review) is type(window.review) is ReviewController
    assert view.pane.review is view.review and isinstance(view.review.sink, AuditSink)
    qtbot.waitUntil(lambda: view.task is not None and not view.busy, timeout=20_000)
    assert view.task is not None
    first = view.task.item.id
    name = window.queues.name_of(QUEUE)  # "Why queued" names the queue here too
    assert name and view.context.text_of("Why queued").startswith(f"Queue: {isolate(name)}")
    window.activateWindow()
    view.setFocus()

    desk.press(K.Key_1)  # this queue's "no violation": an overturn of each removal
    desk.press(K.Key_1)  # ... pressed twice
    qtbot.waitUntil(
        lambda: view.task is not None and view.task.item.id != first and not view.busy,
        timeout=20_000,
    )
    assert view.outcome.text().startswith(f"Overturned on {first}")
    with desk.lead() as api:
        assert api.audit_results(sample_id).sample.recorded == 1

    # the next post is on screen; a key inside the guard decides nothing
    second = view.task.item.id
    view.review.guard_seconds = 3_600.0
    view.review._guard_until = view.review.clock() + 3_600.0
    desk.press(K.Key_1)
    qtbot.wait(300)
    assert not view.busy and view.outcome.text() != RECORDING
    assert view.task.item.id == second and view.review.state == "reviewing"
    with desk.lead() as api:
        assert api.audit_results(sample_id).sample.recorded == 1

    # once it has passed, the key judges the post on screen
    view.review._guard_until = 0.0
    desk.press(K.Key_1)
    qtbot.waitUntil(
        lambda: view.outcome.text().startswith(f"Overturned on {second}"), timeout=20_000
    )
    with desk.lead() as api:
        assert api.audit_results(sample_id).sample.recorded == 2
    qtbot.waitUntil(  # the third post is here (nothing left running in the background)
        lambda: (
            view.task is not None and view.task.item.id not in (first, second) and not view.busy
        ),
        timeout=20_000,
    )
