"""An admin made a lead by another admin while the Administration tab is open: only their
own demotion closed the tab, so the list of users stayed and Add user, Set password… and
End access… stayed enabled, each click refused with 403 in a status line. A 403 now clears
the lists, disables the actions and says in words that the account may no longer
administer (as the Escalations tab does on a 403)."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Role
from reviewer_app.protocol.meta import RoleChange
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.test_admin_desk import open_admin
from tests.ui.test_lead_admin import ADMIN, role_of, select


def demote(server: LiveServer, username: str) -> None:
    """Another admin makes ``username`` a lead, over HTTP as the desk would."""
    with ApiClient(server.url) as other:
        other.login("other-admin", PASSWORD)
        other.change_role(username, RoleChange(role=Role.lead))
    assert role_of(server, username) is Role.lead


def test_a_refused_call_after_another_admin_demoted_this_one_closes_the_tab(
    demo_server: LiveServer, desk_factory
) -> None:
    demo_server.add_user("other-admin", Role.admin)
    demo_server.add_user("ada")
    demo_server.service.create_api_key(Role.platform, "feed-bridge")
    desk, admin = open_admin(demo_server, desk_factory)
    users, keys = admin.users, admin.keys
    desk.wait(lambda: keys.model.rowCount() > 0)
    select(users.table, "ada")
    assert users.set_password_button.isEnabled() and users.end_access_button.isEnabled()

    demote(demo_server, ADMIN[0])
    users.username.setText("new-rita")
    users.password.setText("a long enough password")
    users.password_again.setText("a long enough password")
    users.add_button.click()  # refused: 403
    desk.wait(lambda: "no longer lets this account administer" in users.status.text())
    assert users.model.rowCount() == 0 and keys.model.rowCount() == 0  # not theirs to see
    assert "No one selected" in users.who.text()
    assert role_of(demo_server, "new-rita") is None
    for page in (users, keys, admin.queue_config):
        assert page.status.text() == users.status.text()
        for button in page.findChildren(QPushButton):
            if button.parent() is not keys.made:  # (a new key on screen keeps its Copy)
                assert not button.isEnabled(), button.text()
    for button in (users.add_button, users.set_password_button, users.end_access_button):
        assert not button.isEnabled()
    assert not users.table.isEnabled() and not keys.create_button.isEnabled()


def test_the_keys_page_refused_closes_the_tab_too(demo_server: LiveServer, desk_factory) -> None:
    demo_server.add_user("other-admin", Role.admin)
    desk, admin = open_admin(demo_server, desk_factory)
    keys = admin.keys
    admin.setCurrentWidget(keys)
    demote(demo_server, ADMIN[0])
    keys.name.setText("feed-new")
    keys.create_button.click()  # refused: 403
    desk.wait(lambda: "no longer lets this account administer" in keys.status.text())
    assert admin.users.model.rowCount() == 0 and keys.model.rowCount() == 0
    assert admin.users.status.text() == keys.status.text()
    assert not keys.create_button.isEnabled() and not admin.users.add_button.isEnabled()
    assert not any(k.name == "feed-new" for k in demo_server.service.api_keys())


def test_the_queue_file_page_refused_closes_the_tab_and_late_lists_stay_empty(
    demo_server: LiveServer, desk_factory
) -> None:
    """The queue configuration page's 403 said only its generic line; and a list read
    before the demotion, arriving after the tab closed, filled its table again."""
    demo_server.add_user("other-admin", Role.admin)
    demo_server.service.create_api_key(Role.platform, "feed-bridge")
    desk, admin = open_admin(demo_server, desk_factory)
    desk.wait(lambda: admin.keys.model.rowCount() > 0 and admin.users.model.rowCount() > 0)
    with ApiClient(demo_server.url) as before:  # answered while still an admin
        before.login(*ADMIN)
        late_keys, late_users = before.api_keys(), (before.me(), before.users())
    demote(demo_server, ADMIN[0])
    admin.queue_config.refresh()  # refused: 403
    desk.wait(lambda: "no longer lets this account administer" in admin.users.status.text())
    assert admin.queue_config.status.text() == admin.users.status.text()
    assert admin.users.model.rowCount() == 0 and admin.keys.model.rowCount() == 0
    admin.keys._show(late_keys)  # the replies of loads under way, arriving now
    admin.users._show(late_users)
    assert admin.users.model.rowCount() == 0 and admin.keys.model.rowCount() == 0
