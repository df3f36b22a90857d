"""The Lead workspace's Webhooks tab against the real service: each endpoint with its status
(and why it is disabled), last success, backlog and failures, in plain text, never a secret."""

from __future__ import annotations

from typing import Any

from reviewer_app.protocol.webhooks import WebhookStatus
from reviewer_app.ui.plain import FSI, isolate
from tests.support.servers import LiveServer
from tests.support.webhook_receiver import Answer, Receiver
from tests.ui.conftest import LEAD, Desk
from tests.ui.test_lead_workspace import every_text, model_texts, reviewer_decides

DEMO_PLATFORM = "demo-platform"


def open_webhooks(desk: Desk) -> tuple[Any, Any]:
    """The lead workspace's webhooks page of ``desk``: its window and the page."""
    window = desk.window
    assert window.lead is not None
    window.show_mode(1)
    window.lead.setCurrentWidget(window.lead.webhooks)
    return window, window.lead.webhooks


def test_webhook_health_is_shown_to_leads(demo_server: LiveServer, desk_factory, qtbot) -> None:
    svc = demo_server.service
    with Receiver(lambda _p, _h, _b: Answer(410)) as gone, Receiver() as fine:
        broken, broken_secret = svc.add_webhook(gone.url("/gone"), DEMO_PLATFORM, None, "ops")
        working, working_secret = svc.add_webhook(
            fine.url("/fine"), DEMO_PLATFORM, ["remove"], "ops"
        )
        reviewer_decides(demo_server, 3)  # three removals of demo-platform's posts
        svc.seal_now()
        qtbot.waitUntil(
            lambda: svc.webhook(broken.id).status is WebhookStatus.disabled, timeout=30_000
        )
        qtbot.waitUntil(lambda: svc.webhook(working.id).delivered_total == 3, timeout=30_000)

        window, view = open_webhooks(desk_factory(demo_server.url, user=LEAD))
        qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=20_000)
        rows = {
            view.model.endpoints[r].id: [
                view.model.index(r, c).data() for c in range(view.model.columnCount())
            ]
            for r in range(view.model.rowCount())
        }
        endpoint, platform, status, last, backlog, failures, _error = rows[broken.id]
        assert endpoint == f"{broken.id}: {isolate(gone.url('/gone'))}"
        assert platform == DEMO_PLATFORM
        assert status.startswith(f"disabled — {FSI}the receiver answered 410 Gone")
        assert (last, backlog, failures) == ("never", "3", "0")
        endpoint, platform, status, last, backlog, failures, error = rows[working.id]
        assert (status, backlog, failures, error) == ("delivering", "0", "0", "")
        assert last.endswith("s ago")
        assert "1 failing or disabled" in view.status.text()
        shown = every_text(window) + "\n".join(model_texts(view.model))
        for secret in (broken_secret, working_secret):
            assert secret not in shown and secret[6:] not in shown


def test_one_endpoint_is_counted_in_the_singular(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    """'1 endpoint, …' (it read '1 endpoints'), '2 endpoints, …'."""
    svc = demo_server.service
    with Receiver() as first, Receiver() as second:
        svc.add_webhook(first.url("/one"), DEMO_PLATFORM, None, "ops")
        _window, view = open_webhooks(desk_factory(demo_server.url, user=LEAD))
        qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=20_000)
        assert view.status.text() == "1 endpoint, 0 failing or disabled; 0 to send."
        svc.add_webhook(second.url("/two"), DEMO_PLATFORM, None, "ops")
        view.refresh()
        qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=20_000)
        assert view.status.text() == "2 endpoints, 0 failing or disabled; 0 to send."
