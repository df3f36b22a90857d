"""A queue for leads that leaves a lead's queue list while the review window is open: the
lead is told why. Made a reviewer, the queue is no longer listed for them (it was not
removed, its posts did not move); a queue really removed keeps its own words. Against the
real demo service.
"""

from __future__ import annotations

from reviewer_app.protocol import ESCALATION_QUEUE, Role
from reviewer_app.server.domain.queuefile.parse import parse_queue_file
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk

ADMIN = ("admin", "review-desk-admin")

LEADS_QUEUE = """\
[[queues]]
id = "leads-spot-checks"
name = "Leads' spot checks"

[queues.config]
lead_only = true

[[queues.config.actions]]
id = "keep"
label = "Keep"
kind = "keep"
key = "1"
"""


def test_a_lead_made_a_reviewer_is_told_so_not_that_the_queue_was_removed(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD, queue=ESCALATION_QUEUE)
    window = desk.window
    assert window.review.queue is not None and window.review.queue.config.lead_only
    admin = ApiSession.login(demo_server.url, *ADMIN)
    changed = admin.request("PUT", "/users/lead/role", json={"role": "reviewer"})
    assert changed.status_code == 200, changed.text

    # the sync engine's queue refresh no longer lists Escalations: the window moves on and
    # asks the service who the user is now
    desk.wait(lambda: "You are no longer a lead" in window.message.text(), 20_000)
    said = window.message.text()
    assert window.review.queue is not None and window.review.queue.id != ESCALATION_QUEUE
    assert "removed" not in said and "moved to another queue" not in said, said
    assert isolate("Escalations") in said and "for leads only" in said, said
    assert isolate(window.review.queue.name) in said, said
    # the session's profile is the server's now (the role it knew was the login's)
    assert window.session.user.role is Role.reviewer
    assert not window.session.is_lead


def test_a_lead_made_a_reviewer_during_a_break_is_told_so_on_return(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD, queue=ESCALATION_QUEUE)
    window = desk.window
    window.take_break()
    admin = ApiSession.login(demo_server.url, *ADMIN)
    changed = admin.request("PUT", "/users/lead/role", json={"role": "reviewer"})
    assert changed.status_code == 200, changed.text
    desk.wait(lambda: window.queues.row_of(ESCALATION_QUEUE) < 0, 20_000)
    window.end_break()
    desk.wait(lambda: "You are no longer a lead" in window.message.text(), 20_000)
    said = window.message.text()
    assert said.startswith("Welcome back. You are no longer a lead"), said
    assert "removed" not in said, said


def test_a_queue_for_leads_really_removed_keeps_its_words(
    demo_server: LiveServer, desk_factory
) -> None:
    """(A guard: a lead whose role did not change hears the queue was removed.)"""
    service = demo_server.service
    running = service.running_queue_file()
    assert running is not None
    [extra] = parse_queue_file(LEADS_QUEUE).queues
    with_extra = running.model_copy(update={"queues": [*running.queues, extra]})
    service.apply_queue_file(with_extra, "admin")
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    window.queue_picker.setCurrentIndex(window.queues.row_of(extra.id))
    desk.wait(lambda: window.review.queue is not None and window.review.queue.id == extra.id)

    service.apply_queue_file(running, "admin")
    desk.wait(lambda: "was removed on the server" in window.message.text(), 20_000)
    assert isolate(extra.name) in window.message.text()
    assert window.session.is_lead
