"""The Lead workspace by keyboard (real service over HTTP, offscreen): where the focus goes
after a step, and what Enter does.

Decide together: confirmed, the focus is on Undo (the default button) while the undo
window runs, never on Close (Space or Enter there closed the dialog and its Undo). Search
offers "Decide these together…" only while results are selected. Administration: Enter in
a key's name makes the key, the key shown once has its Copy button focused, Done gives
the focus back to the name; Enter in the Add-user form adds. Escalations: Enter in the
lead box assigns (a name that is no lead is refused in words, never added to the list).
Queue health: tabbing into the table sets no unseen current row (Down selects the first).
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QTableView

from reviewer_app.protocol import Role, SearchKind
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk
from tests.ui.test_lead_admin import ADMIN, role_of

K = Qt.Key


def lead_of(desk: Desk):  # the Lead workspace, shown
    lead = desk.window.lead
    assert lead is not None
    desk.window.show_mode(1)
    return lead


def search_tab(desk: Desk):
    lead = lead_of(desk)
    lead.setCurrentWidget(lead.search)
    return lead.search


def find_wave(desk: Desk, pane) -> None:
    """A spam wave's posts found (by their author)."""
    pane.kind.setCurrentIndex(pane.kind.findData(SearchKind.author))
    pane.query.setText("cheap_kicks")
    pane.search()
    desk.wait(lambda: pane.model.rowCount() > 0 and not pane.loading)


def test_decide_these_together_is_offered_only_while_results_are_selected(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    pane = search_tab(desk)
    assert not pane.bulk_button.isEnabled()  # nothing found
    find_wave(desk, pane)
    assert not pane.bulk_button.isEnabled()  # found, none selected
    selection = pane.table.selectionModel()
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    selection.select(pane.model.index(0, 0), flags)
    assert pane.bulk_button.isEnabled()
    selection.clearSelection()
    assert not pane.bulk_button.isEnabled()
    pane.table.selectAll()
    assert pane.bulk_button.isEnabled()
    pane.search()  # new rows: the selection is gone, and the offer with it
    assert not pane.bulk_button.isEnabled()
    desk.wait(lambda: pane.model.rowCount() > 0 and not pane.loading)
    assert not pane.bulk_button.isEnabled()


def test_decide_together_by_keyboard_focuses_undo_and_enter_undoes(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD, undo=60.0)
    pane = search_tab(desk)
    find_wave(desk, pane)
    pane.table.selectAll()
    pane.bulk_button.click()
    desk.wait(lambda: desk.window.bulk_dialog is not None)
    dialog = desk.window.bulk_dialog
    assert dialog is not None and dialog.candidates
    dialog.choose(str(dialog.action.itemData(0)), note="one wave")
    dialog.decide.setFocus()
    QTest.keyClick(dialog.decide, K.Key_Space)
    desk.wait(lambda: dialog.confirmation is not None)
    dialog.confirmation.button(QMessageBox.StandardButton.Yes).click()
    desk.wait(lambda: dialog.bulk_id is not None and dialog.undo_button.isVisible())
    close = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Close")
    assert dialog.focusWidget() is dialog.undo_button, dialog.focusWidget()
    assert dialog.undo_button.isDefault() and not close.isDefault()
    QTest.keyClick(dialog.focusWidget(), K.Key_Return)  # Enter: undone, the dialog stays
    desk.wait(lambda: dialog.bulk_id is None)
    assert dialog.isVisible() and dialog.status.text() == "Undone: nothing was sent."
    assert desk.window.store.held_bulks() == []
    assert dialog.focusWidget() is dialog.decide and not dialog.undo_button.isVisible()
    dialog.close()


def test_api_keys_by_keyboard(demo_server: LiveServer, desk_factory) -> None:
    demo_server.add_user(ADMIN[0], Role.admin)
    desk: Desk = desk_factory(demo_server.url, user=ADMIN)
    window = desk.window
    lead = lead_of(desk)
    admin = lead.admin
    assert admin is not None
    lead.setCurrentWidget(admin)
    admin.setCurrentWidget(admin.keys)
    keys = admin.keys
    keys.name.setFocus()
    QTest.keyClicks(keys.name, "probe-bridge")
    QTest.keyClick(keys.name, K.Key_Return)  # Enter in the name: as Create key
    desk.wait(lambda: keys.key_field.text().startswith("rdk_"))
    assert keys.made.isVisible()
    assert window.focusWidget() is keys.copy_button  # the key shown once: Copy it
    QTest.keyClick(keys.copy_button, K.Key_Space)
    assert QApplication.clipboard().text() == keys.key_field.text()
    done = next(b for b in keys.made.findChildren(QPushButton) if b.text() == "Done")
    done.setFocus()
    QTest.keyClick(done, K.Key_Space)
    assert not keys.made.isVisible() and keys.key_field.text() == ""
    assert window.focusWidget() is keys.name
    # by the button, too: the focus stays on the page while the key is made
    keys.name.setText("probe-two")
    keys.create_button.setFocus()
    QTest.keyClick(keys.create_button, K.Key_Space)
    assert keys.isAncestorOf(window.focusWidget())
    desk.wait(lambda: keys.made.isVisible())
    assert window.focusWidget() is keys.copy_button


def test_enter_in_the_add_user_form_adds(demo_server: LiveServer, desk_factory) -> None:
    demo_server.add_user(ADMIN[0], Role.admin)
    desk: Desk = desk_factory(demo_server.url, user=ADMIN)
    lead = lead_of(desk)
    admin = lead.admin
    assert admin is not None
    lead.setCurrentWidget(admin)
    users = admin.users
    admin.setCurrentWidget(users)
    desk.wait(lambda: users.model.rowCount() > 0)
    users.username.setText("new-kim")
    users.password.setText("a long enough password")
    users.password_again.setFocus()
    QTest.keyClicks(users.password_again, "a long enough password")
    QTest.keyClick(users.password_again, K.Key_Return)
    desk.wait(lambda: "Added new-kim" in users.status.text())
    assert role_of(demo_server, "new-kim") is Role(users.role.currentData())


def test_enter_in_the_assignee_box_assigns_and_never_lists_a_typo(
    demo_server: LiveServer, desk_factory
) -> None:
    demo_server.add_user(ADMIN[0], Role.admin)
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    lead = lead_of(desk)
    view = lead.escalations
    lead.setCurrentWidget(view)
    desk.wait(lambda: view.model.rowCount() > 0 and view.lead_picker.count() > 0)
    view.table.selectRow(0)
    entry = view.selected()
    assert entry is not None
    picker, listed = view.lead_picker, view.lead_picker.count()
    picker.setFocus()
    picker.lineEdit().selectAll()
    QTest.keyClicks(picker.lineEdit(), "typo-lead")
    QTest.keyClick(picker.lineEdit(), K.Key_Return)
    desk.wait(lambda: "typo-lead" in view.status.text())
    assert "refused" in view.status.text()  # the service's words: no such lead
    assert picker.count() == listed  # not added to the list
    assert all(picker.itemText(i) != "typo-lead" for i in range(picker.count()))
    picker.lineEdit().selectAll()
    QTest.keyClicks(picker.lineEdit(), ADMIN[0])
    QTest.keyClick(picker.lineEdit(), K.Key_Return)
    desk.wait(lambda: view.status.text() == f"Assigned to \u2068{ADMIN[0]}\u2069.")
    found = desk.lead().all_escalations()
    assert next(e for e in found if e.item_id == entry.item_id).escalation.assigned_to == ADMIN[0]


def test_tabbing_into_queue_health_then_down_selects_the_first_queue(
    demo_server: LiveServer, desk_factory
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    lead = lead_of(desk)
    page = lead.queues_view
    lead.setCurrentWidget(page)
    table = page.findChild(QTableView, "queueHealth")
    desk.wait(lambda: table.model().rowCount() > 1 and not page.loading)
    lead.focus_page()
    for _ in range(20):  # Tab from the page's first control to the table
        if window.focusWidget() is table:
            break
        QTest.keyClick(window.focusWidget(), K.Key_Tab)
    assert window.focusWidget() is table
    current = table.currentIndex()
    assert not current.isValid() or table.selectionModel().isRowSelected(current.row())
    QTest.keyClick(table, K.Key_Down)
    assert [i.row() for i in table.selectionModel().selectedRows()] == [0]
