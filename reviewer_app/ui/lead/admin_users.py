"""Administration: users and their roles (add one, change a role), and what the other
Administration pages share (roles in words, times, the selected row)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Role, User
from reviewer_app.protocol.meta import PasswordSet, RoleChange, UserCreate, UserList

from ..background import run_op
from ..confirm import ask_first
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table
from ..plain import clean, isolate, label, named, set_text, tooltip
from .stats_views import SORT, Index, sortable, table_view

USERNAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{1,63}$")
MIN_PASSWORD = 10

PERSON_ROLES = (Role.reviewer, Role.lead, Role.admin)
KEY_ROLES = (Role.platform, Role.fact_checker)
ROLE_WORDS = {
    Role.reviewer: QT_TRANSLATE_NOOP("LeadAdmin", "reviewer"),
    Role.lead: QT_TRANSLATE_NOOP("LeadAdmin", "lead"),
    Role.admin: QT_TRANSLATE_NOOP("LeadAdmin", "admin"),
    Role.platform: QT_TRANSLATE_NOOP("LeadAdmin", "platform"),
    Role.fact_checker: QT_TRANSLATE_NOOP("LeadAdmin", "fact-checker"),
}


def role_words(role: str) -> str:
    try:
        return translate("LeadAdmin", ROLE_WORDS[Role(role)])
    except (ValueError, KeyError):
        return clean(role)


def moment(value: datetime | None) -> str:
    """A time from the wire in local time, to the minute ("" for none)."""
    return value.astimezone().strftime("%Y-%m-%d %H:%M") if value else ""


def selected_value(view: Any, model: _Table) -> Any:
    """The UserRole value of the selected row (through the sorting proxy), or None."""
    rows = view.selectionModel().selectedRows() if view.selectionModel() else []
    if not rows:
        return None
    return view.model().mapToSource(rows[0]).siblingAtColumn(0).data(Qt.ItemDataRole.UserRole)


class UsersModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadAdmin", "Username"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Display name"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Role"),
    )
    TR_CONTEXT = "LeadAdmin"

    def __init__(self) -> None:
        super().__init__()
        self.users: list[User] = []

    def _rows(self) -> Sequence[object]:
        return self.users

    def set_users(self, found: UserList) -> None:
        self.beginResetModel()
        self.users = list(found.users)
        self.endResetModel()

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.users):
            return None
        u = self.users[index.row()]
        texts = (clean(u.username), isolate(u.display_name), role_words(u.role))
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            return texts[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:  # tooltips guess HTML
            return tooltip(texts[index.column()])
        if role == SORT:
            return (u.username, u.display_name.casefold(), u.role.value)[index.column()]
        if role == Qt.ItemDataRole.UserRole:
            return u.username
        return None


class UsersPage(QWidget):
    """Everyone with an account; add a person; change a person's role."""

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "adminUsers", translate("LeadAdmin", "Users and roles"))
        self.client_factory = client_factory
        self.model = UsersModel()
        self.table = table_view("adminUserTable", translate("LeadAdmin", "Users and their roles"))
        self.table.setModel(sortable(self.model, self))
        self.table.selectionModel().selectionChanged.connect(self._selection)
        self.status = label("")
        named(self.status, "adminUsersStatus", translate("LeadAdmin", "Users status"))

        selected = self._build_selected()

        self.username = named(QLineEdit(), "adminUsername", translate("LeadAdmin", "Username"))
        self.username.setMaxLength(64)
        self.display_name = named(
            QLineEdit(), "adminDisplayName", translate("LeadAdmin", "Display name")
        )
        self.display_name.setMaxLength(200)
        self.role = QComboBox()
        named(self.role, "adminRole", translate("LeadAdmin", "Role"))
        for r in PERSON_ROLES:
            self.role.addItem(role_words(r), r.value)
        self.password = named(QLineEdit(), "adminPassword", translate("LeadAdmin", "Password"))
        self.password_again = named(
            QLineEdit(), "adminPasswordAgain", translate("LeadAdmin", "Password again")
        )
        for field in (self.password, self.password_again):
            field.setEchoMode(QLineEdit.EchoMode.Password)
            field.setMaxLength(1_024)
        self.add_button = QPushButton(translate("LeadAdmin", "Add user"))
        self.add_button.clicked.connect(self.add_user)
        form = QFormLayout()
        form.addRow(translate("LeadAdmin", "Username"), self.username)
        form.addRow(translate("LeadAdmin", "Display name"), self.display_name)
        form.addRow(translate("LeadAdmin", "Role"), self.role)
        form.addRow(translate("LeadAdmin", "Password"), self.password)
        form.addRow(translate("LeadAdmin", "Password again"), self.password_again)
        form.addRow("", self.add_button)
        adding = QGroupBox(translate("LeadAdmin", "Add a user"))
        adding.setLayout(form)

        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(selected)
        layout.addWidget(adding)
        layout.addWidget(self.status)
        self.busy = False

    def _build_selected(self) -> QGroupBox:
        """What is done to the selected person: their role, a new password (every session
        of theirs ends), and ending their access."""
        self.confirmation: QMessageBox | None = None
        self.new_role = QComboBox()
        named(self.new_role, "adminNewRole", translate("LeadAdmin", "New role"))
        for r in PERSON_ROLES:
            self.new_role.addItem(role_words(r), r.value)
        self.change_button = QPushButton(translate("LeadAdmin", "Change role"))
        self.change_button.clicked.connect(self.change_role)
        role_row = QHBoxLayout()
        role_row.addWidget(self.new_role)
        role_row.addWidget(self.change_button)
        role_row.addStretch(1)
        self.new_password = named(
            QLineEdit(), "adminNewPassword", translate("LeadAdmin", "New password")
        )
        self.new_password_again = named(
            QLineEdit(), "adminNewPasswordAgain", translate("LeadAdmin", "New password again")
        )
        for field in (self.new_password, self.new_password_again):
            field.setEchoMode(QLineEdit.EchoMode.Password)
            field.setMaxLength(1_024)
        self.set_password_button = QPushButton(translate("LeadAdmin", "Set password"))
        self.set_password_button.clicked.connect(self.set_password)
        self.end_access_button = QPushButton(translate("LeadAdmin", "End access…"))
        self.end_access_button.clicked.connect(self.ask_end_access)
        for button in (self.change_button, self.set_password_button, self.end_access_button):
            button.setEnabled(False)
        form = QFormLayout()
        form.addRow(translate("LeadAdmin", "Role"), role_row)
        form.addRow(translate("LeadAdmin", "New password"), self.new_password)
        form.addRow(translate("LeadAdmin", "New password again"), self.new_password_again)
        form.addRow("", self.set_password_button)
        form.addRow("", self.end_access_button)
        box = QGroupBox(translate("LeadAdmin", "The selected user"))
        box.setLayout(form)
        return box

    def refresh(self) -> None:
        factory = self.client_factory

        def work() -> UserList:
            api = factory()
            return api.users()

        run_op(self, work, self._show, self._failed("loading the users"), key="load")

    def _show(self, found: UserList) -> None:
        self.model.set_users(found)
        self._selection()

    def _failed(self, during: str) -> Callable[[BaseException], None]:
        def failed(err: BaseException) -> None:
            self.busy = False
            self._selection()
            self.add_button.setEnabled(True)
            set_text(self.status, describe(err, during=translate("LeadAdmin", during)).line())

        return failed

    def _selection(self, *_: Any) -> None:
        chosen = not self.busy and selected_value(self.table, self.model) is not None
        person = chosen and self._selected_role() not in KEY_ROLES
        self.change_button.setEnabled(chosen)
        self.set_password_button.setEnabled(person)
        self.end_access_button.setEnabled(person)

    def _selected_role(self) -> Role | None:
        username = selected_value(self.table, self.model)
        found = next((u.role for u in self.model.users if u.username == username), None)
        return Role(found) if found is not None else None

    def add_user(self) -> None:
        username = self.username.text().strip()
        display = self.display_name.text().strip() or None
        password = self.password.text()
        problem = ""
        if not USERNAME.fullmatch(username):
            problem = translate(
                "LeadAdmin",
                "A username is 2 to 64 characters: lower-case letters, digits, '.', '_' or "
                "'-', starting with a letter or digit.",
            )
        elif len(password) < MIN_PASSWORD:
            problem = translate("LeadAdmin", "The password needs at least {n} characters.").format(
                n=MIN_PASSWORD
            )
        elif password != self.password_again.text():
            problem = translate("LeadAdmin", "The two passwords differ: type the same twice.")
        if problem:
            set_text(self.status, problem)
            return
        body = UserCreate(
            username=username,
            display_name=display,
            password=password,
            role=Role(self.role.currentData()),
        )
        self.busy = True
        self.add_button.setEnabled(False)
        set_text(self.status, translate("LeadAdmin", "Adding {user}…").format(user=username))
        factory = self.client_factory

        def work() -> User:
            api = factory()
            return api.create_user(body)

        def done(user: User) -> None:
            self.busy = False
            self.add_button.setEnabled(True)
            for field in (self.username, self.display_name, self.password, self.password_again):
                field.clear()
            set_text(
                self.status,
                translate("LeadAdmin", "Added {user} ({name}) as {role}.").format(
                    user=clean(user.username),
                    name=isolate(user.display_name),
                    role=role_words(user.role),
                ),
            )
            self.refresh()

        run_op(self, work, done, self._failed("adding the user"))

    def change_role(self) -> None:
        username = selected_value(self.table, self.model)
        if username is None:
            return
        body = RoleChange(role=Role(self.new_role.currentData()))
        self.busy = True
        self._selection()
        factory = self.client_factory

        def work() -> User:
            api = factory()
            return api.change_role(username, body)

        def done(user: User) -> None:
            self.busy = False
            set_text(
                self.status,
                translate("LeadAdmin", "{user} is now {role}.").format(
                    user=clean(user.username), role=role_words(user.role)
                ),
            )
            self.refresh()

        run_op(self, work, done, self._failed("changing the role"))

    def set_password(self) -> None:
        """The selected person's new password, typed twice: every session of theirs ends
        (someone whose access was ended can log in again with it)."""
        username = selected_value(self.table, self.model)
        if username is None:
            return
        password = self.new_password.text()
        if len(password) < MIN_PASSWORD:
            problem = translate("LeadAdmin", "The password needs at least {n} characters.")
            set_text(self.status, problem.format(n=MIN_PASSWORD))
            return
        if password != self.new_password_again.text():
            set_text(
                self.status,
                translate("LeadAdmin", "The two passwords differ: type the same twice."),
            )
            return
        body = PasswordSet(password=password)
        self.busy = True
        self._selection()
        factory = self.client_factory

        def work() -> None:
            factory().set_password(username, body)

        def done(_nothing: None) -> None:
            self.busy = False
            self._selection()
            for field in (self.new_password, self.new_password_again):
                field.clear()
            set_text(
                self.status,
                translate(
                    "LeadAdmin",
                    "{user}'s password is set: every session of theirs has ended, and they "
                    "log in with the new one.",
                ).format(user=clean(username)),
            )

        run_op(self, work, done, self._failed("setting the password"))

    def ask_end_access(self) -> None:
        username = selected_value(self.table, self.model)
        if username is None:
            return
        ask_first(
            self,
            self,
            name="confirmEndAccess",
            title=translate("LeadAdmin", "End access"),
            text=translate(
                "LeadAdmin",
                "End {user}'s access? No password opens their account from now on, every "
                "session of theirs ends at once, and the posts they hold and the escalations "
                "assigned to them go back. Setting a password gives access back.",
            ).format(user=clean(username)),
            yes=translate("LeadAdmin", "End access"),
            cancel=translate("LeadAdmin", "Cancel"),
            on_yes=lambda: self._end_access(username),
        )

    def _end_access(self, username: str) -> None:
        self.busy = True
        self._selection()
        factory = self.client_factory

        def work() -> None:
            factory().end_access(username)

        def done(_nothing: None) -> None:
            self.busy = False
            self._selection()
            set_text(
                self.status,
                translate(
                    "LeadAdmin",
                    "{user} can no longer log in; every session of theirs has ended.",
                ).format(user=clean(username)),
            )

        run_op(self, work, done, self._failed("ending the access"))
