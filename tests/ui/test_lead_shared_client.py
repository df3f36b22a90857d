"""The lead workspace's tabs share the session's one client, and a 401 on any of them asks
for the login the way the sync engine's 401 does; the new token reaches that client."""

from __future__ import annotations

from PySide6.QtWidgets import QDialogButtonBox
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk


def test_one_client_for_the_workspace_and_a_401_asks_for_the_login(
    demo_server: LiveServer, desk_factory, qtbot: QtBot
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    lead = window.lead
    assert lead is not None
    shared = window.session.shared_client()
    assert lead.client is shared
    for factory in (
        lead.queues_view.client_factory,
        lead.escalations.client_factory,
        lead.search.client_factory,
        lead.decisions._factory,
        lead.webhooks.client_factory,
    ):
        assert factory() is shared
    overview = lead.queues_view
    window.show_mode(1)
    lead.setCurrentWidget(overview)
    desk.wait(lambda: not overview.loading and overview.model.rowCount() > 0)

    ApiClient(demo_server.url, token=shared.token).logout()  # the token ends elsewhere
    with qtbot.waitSignal(lead.auth_required, timeout=30_000) as refused:
        overview.refresh()
    assert refused.args[1] is False
    desk.wait(lambda: window.relogin is not None)
    relogin = window.relogin
    assert relogin is not None and relogin.username.text() == LEAD[0]
    assert relogin.intro.text() == "The server asks you to log in again."
    assert window.needs_login

    relogin.password.setText(LEAD[1])
    relogin.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    desk.wait(lambda: window.relogin is None, 60_000)
    assert shared.token == window.session._token, "the new token reaches the shared client"
    desk.wait(lambda: not overview.loading)
    overview.refresh()
    desk.wait(lambda: not overview.loading)
    assert "log in" not in overview.status.text().lower()
    assert overview.model.rowCount() > 0
