"""A post a lead judges on the blind audit desk counts in their own shift tally (the break
reminders' count), as a verdict of the review flow does: they saw it. The service counts
it in their exposure too (tests/server/test_exposure_audits.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk
from tests.ui.test_lead_workspace import QUEUE, reviewer_decides


def test_an_audited_post_counts_in_the_auditors_shift_tally(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    reviewer_decides(demo_server, 2)
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    assert window.lead is not None
    window.show_mode(1)
    audits = window.lead.audits
    window.lead.setCurrentWidget(audits)
    audits.sample_size.setValue(2)
    audits.queue_picker.setCurrentIndex(audits.queue_picker.findData(QUEUE))
    audits.create_sample()
    qtbot.waitUntil(lambda: audits.samples.rowCount() == 1, timeout=20_000)
    audits.start_selected()
    view = audits.desk
    qtbot.waitUntil(lambda: view.task is not None and not view.busy, timeout=20_000)
    assert view.task is not None
    first = view.task.item.id
    assert window.tally.items == 0
    window.activateWindow()
    view.setFocus()
    desk.press(Qt.Key.Key_1)
    qtbot.waitUntil(lambda: window.tally.items == 1, timeout=20_000)
    assert window.tally.started_at is not None
    # the next post shown (nothing left in flight when the window closes)
    qtbot.waitUntil(
        lambda: not view.busy and view.task is not None and view.task.item.id != first,
        timeout=20_000,
    )
