"""The Administration tab as an outside tester found it, against the real demo service: the
role offered did not follow the selected row, a role change and a new password went out on
one click, the box never named who was selected, a second new API key overwrote the first
(lost but live), acting on one's own account gave no word of it and a self-demotion ended
in "Your account may not do this", nobody could tell whose access was ended, Change role
was offered on service accounts, the tables showed a sort arrow without being sorted, and
coming back to the tab lost the selection and the queue file comparison."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QTableView

from reviewer_app.protocol import Role
from reviewer_app.ui.lead.admin import AdminView
from reviewer_app.ui.lead.admin_queue_file import compare
from reviewer_app.ui.lead.stats_views import SORT
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import Desk
from tests.ui.test_lead_admin import ADMIN, role_of, select

SHOWN_NAME = "Ada \u202eevol\u202c L"


def open_admin(server: LiveServer, desk_factory) -> tuple[Desk, AdminView]:
    server.add_user(ADMIN[0], Role.admin)
    desk: Desk = desk_factory(server.url, user=ADMIN)
    lead = desk.window.lead
    assert lead is not None and lead.admin is not None
    desk.window.show_mode(1)
    lead.setCurrentWidget(lead.admin)
    desk.wait(lambda: lead.admin is not None and lead.admin.users.model.rowCount() > 0)
    return desk, lead.admin


def answer(desk: Desk, owner, button: QMessageBox.StandardButton) -> str:
    """Wait for ``owner``'s question, check Cancel is its default, answer it; its text."""
    desk.wait(lambda: owner.confirmation is not None)
    box = owner.confirmation
    assert box is not None
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    text = box.text()
    box.button(button).click()
    return text


def sorted_as_shown(table: QTableView) -> bool:
    """The rows are in the order the header's sort arrow says."""
    header = table.horizontalHeader()
    column, order = header.sortIndicatorSection(), header.sortIndicatorOrder()
    proxy = table.model()
    values = [proxy.index(row, column).data(SORT) for row in range(proxy.rowCount())]
    descending = order == Qt.SortOrder.DescendingOrder
    return header.isSortIndicatorShown() and values == sorted(values, reverse=descending)


def selected(table: QTableView) -> object:
    rows = table.selectionModel().selectedRows()
    return rows[0].data(Qt.ItemDataRole.UserRole) if rows else None


def reshow(desk: Desk, admin: AdminView) -> None:
    """Leave the Administration tab and come back (each page is read again)."""
    lead = desk.window.lead
    assert lead is not None
    with desk.qtbot.waitSignals(
        [admin.users.model.modelReset, admin.queue_config.model.modelReset], timeout=30_000
    ):
        lead.setCurrentWidget(lead.search)
        lead.setCurrentWidget(admin)


def test_the_selected_user_box_follows_the_row_and_asks_first(
    demo_server: LiveServer, desk_factory
) -> None:
    demo_server.service.create_api_key(Role.platform, "feed-bridge")
    demo_server.add_user("ada")
    desk, admin = open_admin(demo_server, desk_factory)
    users = admin.users
    desk.wait(lambda: any(u.username == "feed-bridge" for u in users.model.users))

    # sorted as the arrow says (the list comes in the order the accounts were made)
    assert [u.username for u in users.model.users] != sorted(u.username for u in users.model.users)
    assert sorted_as_shown(users.table)
    texts = [users.model.headerData(c, Qt.Orientation.Horizontal) for c in range(4)]
    assert texts[3] == "Access"

    # the role offered is the selected person's, and the box names them
    select(users.table, "lead")
    assert users.new_role.currentData() == Role.lead.value
    assert "lead" in users.who.text() and not users.change_button.isEnabled()
    select(users.table, "ada")
    assert users.new_role.currentData() == Role.reviewer.value
    assert users.who.text().startswith(f"{isolate('ada')} (ada), reviewer.")

    # a service account: no role to change, no password, no access to end
    select(users.table, "feed-bridge")
    for button in (users.change_button, users.set_password_button, users.end_access_button):
        assert not button.isEnabled()
    assert not users.new_role.isEnabled() and "API keys" in users.who.text()

    # a role change and a new password are asked first; Cancel changes nothing
    select(users.table, "ada")
    users.new_role.setCurrentIndex(users.new_role.findData(Role.admin.value))
    users.change_button.click()
    asked = answer(desk, users, QMessageBox.StandardButton.Cancel)
    assert "ada" in asked and "admin" in asked
    assert role_of(demo_server, "ada") is Role.reviewer
    users.new_password.setText("a brand new password")
    users.new_password_again.setText("a brand new password")
    users.set_password_button.click()
    asked = answer(desk, users, QMessageBox.StandardButton.Cancel)
    assert "ada" in asked and "session" in asked
    ApiSession.login(demo_server.url, "ada", PASSWORD)  # the old password still opens it

    # her access ended: the list says so, End access is no longer offered, and a new
    # password (which gives it back) still is
    users.end_access_button.click()
    answer(desk, users, QMessageBox.StandardButton.Yes)
    desk.wait(lambda: any(u.access_ended for u in users.model.users if u.username == "ada"))
    desk.wait(lambda: selected(users.table) == "ada")
    row = next(r for r in range(users.model.rowCount()) if users.model.users[r].username == "ada")
    assert users.model.index(row, 3).data() == "ended"
    assert not users.end_access_button.isEnabled() and users.set_password_button.isEnabled()
    assert "setting a password gives it back" in users.who.text()
    users.set_password_button.click()
    assert "access back" in answer(desk, users, QMessageBox.StandardButton.Yes)
    desk.wait(lambda: not any(u.access_ended for u in users.model.users if u.username == "ada"))
    assert users.model.index(row, 3).data() == "can log in"
    ApiSession.login(demo_server.url, "ada", "a brand new password")

    # coming back to the tab keeps the selected person
    select(users.table, "lead")
    demo_server.add_user("zed")
    reshow(desk, admin)
    assert "zed" in [u.username for u in users.model.users]
    assert selected(users.table) == "lead" and users.new_role.currentData() == Role.lead.value
    assert sorted_as_shown(users.table)


def test_a_new_key_on_screen_is_never_overwritten(demo_server: LiveServer, desk_factory) -> None:
    desk, admin = open_admin(demo_server, desk_factory)
    keys = admin.keys
    admin.setCurrentWidget(keys)
    for name in ("feed-one", "feed-two"):
        demo_server.service.create_api_key(Role.platform, name)
    keys.refresh()
    desk.wait(lambda: keys.model.rowCount() >= 2)
    assert sorted_as_shown(keys.table)

    keys.name.setText("feed-new")
    keys.create_button.click()
    desk.wait(lambda: keys.key_field.text().startswith("rdk_"))
    first = keys.key_field.text()
    assert not keys.create_button.isEnabled() and "Done" in keys.create_button.toolTip()
    assert "Done" in keys.status.text()
    desk.wait(lambda: any(k.name == "feed-new" for k in keys.model.keys))
    keys.name.setText("feed-newer")
    keys.create_key()  # however it is asked for: not while the first is on screen
    desk.qtbot.wait(300)
    assert keys.key_field.text() == first
    assert not any(k.name == "feed-newer" for k in keys.model.keys)
    assert not any(k.name == "feed-newer" for k in demo_server.service.api_keys())
    keys.forget_key()
    assert keys.create_button.isEnabled() and not keys.create_button.toolTip()


def test_acting_on_ones_own_account_is_said_and_a_self_demotion_closes_the_tab(
    demo_server: LiveServer, desk_factory
) -> None:
    demo_server.add_user("second-admin", Role.admin)  # so this one may stop being one
    desk, admin = open_admin(demo_server, desk_factory)
    users = admin.users
    select(users.table, ADMIN[0])
    assert "your own account" in users.who.text()
    users.new_password.setText("my own new password")
    users.new_password_again.setText("my own new password")
    users.set_password_button.click()
    assert "your own account" in answer(desk, users, QMessageBox.StandardButton.Cancel)
    users.end_access_button.click()
    assert "your own account" in answer(desk, users, QMessageBox.StandardButton.Cancel)
    select(users.table, "second-admin")  # another admin: no such word
    users.end_access_button.click()
    assert "your own account" not in answer(desk, users, QMessageBox.StandardButton.Cancel)

    select(users.table, ADMIN[0])
    users.new_role.setCurrentIndex(users.new_role.findData(Role.lead.value))
    users.change_button.click()
    assert "your own account" in answer(desk, users, QMessageBox.StandardButton.Yes)
    desk.wait(lambda: "no longer an admin" in users.status.text())
    assert role_of(demo_server, ADMIN[0]) is Role.lead
    assert "next login" in users.status.text()
    for page in (admin.users, admin.keys, admin.queue_config):
        assert page.status.text() == users.status.text() and page.status.isEnabled()
    assert not users.table.isEnabled() and not admin.keys.create_button.isEnabled()
    admin.keys.forget_key()  # Done on a new key offers Create again, on an open tab
    admin.keys.table.selectRow(0)  # and a selected key its Revoke
    assert not admin.keys.create_button.isEnabled()
    assert not admin.keys.revoke_button.isEnabled()
    lead = desk.window.lead
    assert lead is not None
    lead.setCurrentWidget(lead.search)
    lead.setCurrentWidget(admin)
    desk.qtbot.wait(500)  # no reload: it would only be refused
    assert "no longer an admin" in users.status.text()
    assert "may not" not in users.status.text()


def test_the_comparison_reads_past_line_endings_and_stays_on_return(
    demo_server: LiveServer, desk_factory, tmp_path: Path
) -> None:
    desk, admin = open_admin(demo_server, desk_factory)
    page = admin.queue_config
    admin.setCurrentWidget(page)
    desk.wait(lambda: page.running is not None)
    assert page.running is not None
    running = page.running.toml
    assert running.endswith("\n") and "\r" not in running

    def compared(name: str, data: bytes, wanted: str) -> str:
        path = tmp_path / name
        path.write_bytes(data)
        page.compare_with(str(path))
        desk.wait(lambda: isolate(name) in page.status.text() and wanted in page.status.text())
        return page.diff.toPlainText()

    crlf = running.replace("\n", "\r\n").encode()
    assert compared("crlf.toml", crlf, "only in its line endings") == ""
    bom = b"\xef\xbb\xbf" + running.encode()
    assert compared("bom.toml", bom, "only in its byte-order mark") == ""
    cut = running[:-1].encode()  # no newline at its end
    diff = compared("cut.toml", cut, "1 line changed")
    assert diff.endswith("\n\\ No newline at end of file\n")
    last = running[:-1].rsplit("\n", 1)[-1]
    assert f"-{last}\n+{last}\n\\ No newline" in diff
    first, rest = running.split("\n", 1)
    changed = f"# another first line\n{rest}".replace("\n", "\r\n").encode()
    compared("changed.toml", changed, "1 line changed")
    assert "line endings differ too" in page.status.text()
    summary = page.status.text()

    # coming back to the tab: the comparison and its summary stay
    reshow(desk, admin)
    assert page.status.text() == summary and page.diff.isVisible()
    assert f"-{first}" in page.diff.toPlainText()


def test_a_changed_line_counts_once() -> None:
    running = "a\nb\nc\nd\n"
    assert compare(running, b"a\nB\nc\nd\n", "running", "local").changed == 1
    assert compare(running, b"a\nB\nc\nD\nE\n", "running", "local").changed == 3
    assert compare(running, b"a\nd\n", "running", "local").changed == 2
    assert compare(running, b"a\r\nb\r\nc\r\nd\r\n", "running", "local").diff == []


def test_at_1280_by_800_the_users_table_has_the_room(demo_server: LiveServer, desk_factory) -> None:
    """The two forms took the height and left the table about two rows and a half; the
    key's times were cut while the last column took the spare width."""
    demo_server.service.create_api_key(Role.platform, "feed-bridge")
    desk, admin = open_admin(demo_server, desk_factory)
    window = desk.window
    window.resize(1280, 800 - 64)  # (a title bar and a panel)
    window.show()
    desk.qtbot.wait(300)
    table = admin.users.table
    assert table.viewport().height() >= 6 * table.verticalHeader().defaultSectionSize()
    keys = admin.keys
    admin.setCurrentWidget(keys)
    desk.wait(lambda: keys.model.rowCount() > 0)
    desk.qtbot.wait(200)
    header = keys.table.horizontalHeader()
    assert not header.stretchLastSection()
    for column in (4, 5, 6):  # created, last used, revoked: whole
        assert header.sectionSize(column) >= keys.table.sizeHintForColumn(column)


def test_a_column_the_admin_resized_keeps_its_width_when_the_table_reloads(
    demo_server: LiveServer, desk_factory
) -> None:
    desk, admin = open_admin(demo_server, desk_factory)
    users = admin.users
    header = users.table.horizontalHeader()
    widths = [header.sectionSize(c) for c in range(header.count())]
    header.resizeSection(0, widths[0] + 90)  # as a drag of the column's edge does
    loads = users.model.modelReset
    with desk.qtbot.waitSignal(loads, timeout=10_000):
        admin.refresh()
    assert header.sectionSize(0) == widths[0] + 90
