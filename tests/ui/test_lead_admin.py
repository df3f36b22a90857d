"""The Lead workspace's Administration tab against the real service over HTTP: an admin
adds a user (the passwords typed twice), changes a role, makes an API key (shown once; it
works against intake) and revokes it (refused from then on), and reads the running queue
file, its versions and a diff against a local file. A lead who is not an admin has no
Administration tab."""

from __future__ import annotations

from pathlib import Path

import requests
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox, QTableView

from reviewer_app.protocol import Role
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession
from tests.support.intake import post
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import LEAD, Desk
from tests.ui.test_lead_workspace import every_text, model_texts

ADMIN = ("desk-admin", PASSWORD)
SHOWN_NAME = "Rüya \u202eneve\u202c K"  # a right-to-left override in a display name


def select(table: QTableView, value: object) -> None:
    """Select the row whose first cell carries ``value`` (UserRole), through the proxy."""
    proxy = table.model()
    for row in range(proxy.rowCount()):
        if proxy.index(row, 0).data(Qt.ItemDataRole.UserRole) == value:
            table.selectRow(row)
            return
    raise AssertionError(f"no row for {value!r}")


def role_of(server: LiveServer, username: str) -> Role | None:
    return next((u.role for u in server.service.list_users().users if u.username == username), None)


def test_an_admin_manages_users_keys_and_reads_the_queue_file(
    demo_server: LiveServer, desk_factory, qtbot, tmp_path: Path
) -> None:
    demo_server.add_user(ADMIN[0], Role.admin)
    desk: Desk = desk_factory(demo_server.url, user=ADMIN)
    window = desk.window
    assert window.lead is not None and window.lead.admin is not None
    window.show_mode(1)
    lead = window.lead
    admin = lead.admin
    lead.setCurrentWidget(admin)
    tab = lead.tabText(lead.indexOf(admin))
    assert tab == "Administration"

    # -- users: add one (the passwords must match), then change their role
    users = admin.users
    desk.wait(lambda: users.model.rowCount() > 0)
    assert "desk-admin" in list(model_texts(users.model))
    users.username.setText("new-rita")
    users.display_name.setText(SHOWN_NAME)
    users.role.setCurrentIndex(users.role.findData(Role.reviewer.value))
    users.password.setText("a long enough password")
    users.password_again.setText("a long enough passwort")
    users.add_button.click()
    assert "differ" in users.status.text()
    assert role_of(demo_server, "new-rita") is None  # nothing sent
    users.password_again.setText("a long enough password")
    users.add_button.click()
    desk.wait(lambda: "new-rita" in list(model_texts(users.model)))
    assert role_of(demo_server, "new-rita") is Role.reviewer
    assert users.password.text() == users.password_again.text() == ""  # not kept on screen
    texts = list(model_texts(users.model))
    assert isolate(SHOWN_NAME) in texts and SHOWN_NAME not in texts  # the override is shown
    assert "Added new-rita" in users.status.text()
    ApiSession.login(demo_server.url, "new-rita", "a long enough password")  # the password works
    # the same username again: the service's refusal in words, and the form keeps its input
    users.username.setText("new-rita")
    users.password.setText("another long password")
    users.password_again.setText("another long password")
    users.add_button.click()
    desk.wait(lambda: "already exists" in users.status.text())
    assert users.username.text() == "new-rita" and users.add_button.isEnabled()
    assert [u.username for u in users.model.users].count("new-rita") == 1

    select(users.table, "new-rita")
    assert users.new_role.currentData() == Role.reviewer.value  # her role, offered as it is
    assert not users.change_button.isEnabled()
    users.new_role.setCurrentIndex(users.new_role.findData(Role.lead.value))
    assert users.change_button.isEnabled()
    users.change_button.click()
    desk.wait(lambda: users.confirmation is not None)
    assert users.confirmation is not None and "new-rita" in users.confirmation.text()
    users.confirmation.button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: role_of(demo_server, "new-rita") is Role.lead)
    desk.wait(lambda: "new-rita is now lead." in users.status.text())

    # -- the selected person's password, typed twice; then their access ended, after a
    # confirmation (there was no way to take access away)
    def logs_in(password: str) -> int:
        url = f"{demo_server.url}/api/v1/sessions"
        body = {"username": "new-rita", "password": password}
        return requests.post(url, json=body, timeout=30).status_code

    session = ApiSession.login(demo_server.url, "new-rita", "a long enough password")
    desk.wait(
        lambda: any(u.role is Role.lead for u in users.model.users if u.username == "new-rita")
    )
    select(users.table, "new-rita")  # the list was read again after the role change
    assert users.set_password_button.isEnabled() and users.end_access_button.isEnabled()
    users.new_password.setText("a brand new password")
    users.new_password_again.setText("a brand new passwort")
    users.set_password_button.click()
    assert "differ" in users.status.text()
    users.new_password_again.setText("a brand new password")
    users.set_password_button.click()
    desk.wait(lambda: users.confirmation is not None)
    assert users.confirmation is not None and "new-rita" in users.confirmation.text()
    users.confirmation.button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: "password is set" in users.status.text())
    assert users.new_password.text() == users.new_password_again.text() == ""
    assert session.get("/me").status_code == 401, "her sessions ended"
    assert logs_in("a long enough password") == 401 and logs_in("a brand new password") == 201
    users.end_access_button.click()
    desk.wait(lambda: users.confirmation is not None)
    assert users.confirmation is not None and "new-rita" in users.confirmation.text()
    users.confirmation.button(QMessageBox.StandardButton.Cancel).click()
    assert logs_in("a brand new password") == 201, "cancelled: nothing changed"
    users.end_access_button.click()
    desk.wait(lambda: users.confirmation is not None)
    users.confirmation.button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: "can no longer log in" in users.status.text())
    assert logs_in("a brand new password") == 401

    # -- API keys: made, shown once, works against intake; revoked after a confirmation
    keys = admin.keys
    admin.setCurrentWidget(keys)
    keys.name.setText("feed-test")
    keys.key_role.setCurrentIndex(keys.key_role.findData(Role.platform.value))
    keys.create_button.click()
    desk.wait(lambda: keys.key_field.text().startswith("rdk_"))
    key = keys.key_field.text()
    assert keys.key_field.isReadOnly() and keys.made.isVisible()
    assert "not shown again" in every_text(keys.made)
    desk.wait(lambda: any(k.name == "feed-test" for k in keys.model.keys))
    assert key not in "\n".join(model_texts(keys.model))
    platform = ApiSession(demo_server.url, key)
    accepted = platform.post("/intake/posts", json={"posts": [post("admin-made-key-1")]})
    assert accepted.status_code == 200, accepted.text
    keys.copy_key()
    assert QGuiApplication.clipboard().text() == key
    keys.forget_key()
    assert keys.key_field.text() == "" and not keys.made.isVisible()
    assert key not in every_text(window)

    made = next(k for k in keys.model.keys if k.name == "feed-test")
    select(keys.table, made.id)
    assert keys.revoke_button.isEnabled()
    keys.revoke_button.click()
    desk.wait(lambda: keys.confirmation is not None)
    box = keys.confirmation
    assert box is not None and "feed-test" in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()  # cancelled: still live
    assert platform.post("/intake/posts", json={"posts": [post("p2")]}).status_code == 200
    keys.revoke_button.click()
    desk.wait(lambda: keys.confirmation is not None)
    keys.confirmation.button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: "Revoked the key" in keys.status.text())
    refused = platform.post("/intake/posts", json={"posts": [post("admin-made-key-3")]})
    assert refused.status_code == 401
    desk.wait(lambda: next(k for k in keys.model.keys if k.id == made.id).revoked_at is not None)
    assert not keys.revoke_button.isEnabled() or keys._selected_key() is None

    # -- the queue file: the running text, its version, the history; a diff with a file
    svc = demo_server.service
    running = svc.running_queue_file()
    assert running is not None
    first = running.queues[0]
    renamed = running.model_copy(
        update={
            "queues": [first.model_copy(update={"name": "Renamed by ops"}), *running.queues[1:]]
        }
    )
    svc.apply_queue_file(renamed, "ops-bob")
    versions = svc.config_versions()
    page = admin.queue_config
    admin.setCurrentWidget(page)
    page.refresh()
    desk.wait(lambda: f"Version {versions[0]['version']}," in page.version.text())
    assert page.version.text().endswith(f"by {isolate('ops-bob')}.")
    assert page.text.isReadOnly()
    shown = page.text.toPlainText()
    assert shown.startswith("# Queue configuration of the review desk: version ")
    assert 'name = "Renamed by ops"' in shown
    assert page.model.rowCount() == len(versions)
    history = list(model_texts(page.model))
    assert isolate("ops-bob") in history

    local = tmp_path / "desk.toml"
    local.write_text(shown.replace("Renamed by ops", "Spam and scams, again"), encoding="utf-8")
    page.compare_with(str(local))
    desk.wait(lambda: "differs" in page.status.text())
    diff = page.diff.toPlainText()
    assert '-name = "Renamed by ops"' in diff and '+name = "Spam and scams, again"' in diff
    assert diff.startswith("--- running (version")
    assert "1 line changed" in page.status.text()  # a changed line counts once
    same = tmp_path / "same.toml"
    same.write_text(shown, encoding="utf-8")
    page.compare_with(str(same))
    desk.wait(lambda: "is the same as the running queue file" in page.status.text())
    page.compare_with(str(tmp_path / "missing.toml"))
    desk.wait(lambda: "could not be read" in page.status.text())


def test_a_lead_who_is_not_an_admin_has_no_administration_tab(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    lead = desk.window.lead
    assert lead is not None and lead.admin is None
    tabs = [lead.tabText(i) for i in range(lead.count())]
    assert "Administration" not in tabs and "Search" in tabs
