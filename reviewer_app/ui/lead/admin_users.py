"""Administration: users and their roles (add one, change a role), and what the other
Administration pages share (roles in words, times, the selected row)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt, Signal
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
from reviewer_app.core.errors import Forbidden
from reviewer_app.protocol import Role, User
from reviewer_app.protocol.meta import PasswordSet, RoleChange, UserCreate, UserList

from ..background import run_op
from ..confirm import ask_first
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table
from ..plain import clean, fit_columns, isolate, label, named, set_text, stretch_column, tooltip
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


def moment(value: datetime | None, *, seconds: bool = False) -> str:
    """A time from the wire in local time, to the minute, or the second ("" for none)."""
    pattern = "%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M"
    return value.astimezone().strftime(pattern) if value else ""


def selected_value(view: Any, model: _Table) -> Any:
    """The UserRole value of the selected row (through the sorting proxy), or None."""
    rows = view.selectionModel().selectedRows() if view.selectionModel() else []
    if not rows:
        return None
    return view.model().mapToSource(rows[0]).siblingAtColumn(0).data(Qt.ItemDataRole.UserRole)


def reselect(view: Any, value: Any) -> bool:
    """Select the row whose first cell's UserRole value is ``value`` (a reloaded table
    keeps what was selected); False when it is gone."""
    proxy = view.model()
    for row in range(proxy.rowCount()):
        if proxy.index(row, 0).data(Qt.ItemDataRole.UserRole) == value:
            view.selectRow(row)
            return True
    return False


def refused_words(said: str) -> str:
    """A page's call refused with 403: the account may no longer administer (another admin
    made it something else); ``said``: the refusal in words."""
    return (
        translate(
            "LeadAdmin",
            "The service no longer lets this account administer (another admin may have "
            "made it a lead or a reviewer), so the lists were cleared and the actions "
            "disabled.",
        )
        + " "
        + said
    )


def access_words(user: User) -> str:
    """Whether ``user`` can log in: a service account calls with API keys instead."""
    if Role(user.role) in KEY_ROLES:
        return translate("LeadAdmin", "API keys")
    if user.access_ended:
        return translate("LeadAdmin", "ended")
    return translate("LeadAdmin", "can log in")


class UsersModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadAdmin", "Username"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Display name"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Role"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Access"),
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
        texts = (
            clean(u.username),
            isolate(u.display_name),
            role_words(u.role),
            access_words(u),
        )
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            return texts[index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:  # tooltips guess HTML
            return tooltip(texts[index.column()])
        if role == SORT:
            sort = (u.username, u.display_name.casefold(), u.role.value, access_words(u))
            return sort[index.column()]
        if role == Qt.ItemDataRole.UserRole:
            return u.username
        return None


class UsersPage(QWidget):
    """Everyone with an account; add a person; change a person's role, set their password
    or end their access (each asked first, with a word more when it is the admin's own
    account)."""

    #: this admin made themselves something else, or a call was refused with 403 (another
    #: admin did): the words that say so
    no_longer_admin = Signal(str)
    closed = False  # (the tab's pages closed: see AdminView.close_pages)

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "adminUsers", translate("LeadAdmin", "Users and roles"))
        self.client_factory = client_factory
        self.busy = False
        self.me = ""  # the logged-in admin's username, read with the list
        self.model = UsersModel()
        self.table = table_view("adminUserTable", translate("LeadAdmin", "Users and their roles"))
        self.table.setModel(sortable(self.model, self))
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # sorted as the arrow says
        stretch_column(self.table, 1)  # the display name; the others fit their text
        self.table.selectionModel().selectionChanged.connect(self._picked)
        self.status = label("")
        named(self.status, "adminUsersStatus", translate("LeadAdmin", "Users status"))

        selected = self._build_selected()
        adding = self._build_adding()
        forms = QHBoxLayout()  # side by side: the table keeps the height
        forms.addWidget(selected, 1)
        forms.addWidget(adding, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(forms)
        layout.addWidget(self.status)

    def _build_adding(self) -> QGroupBox:
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
        for field in (self.username, self.display_name, self.password, self.password_again):
            field.returnPressed.connect(self.add_button.click)  # (not while one is added)
        form = QFormLayout()
        form.addRow(translate("LeadAdmin", "Username"), self.username)
        form.addRow(translate("LeadAdmin", "Display name"), self.display_name)
        form.addRow(translate("LeadAdmin", "Role"), self.role)
        form.addRow(translate("LeadAdmin", "Password"), self.password)
        form.addRow(translate("LeadAdmin", "Password again"), self.password_again)
        form.addRow("", self.add_button)
        adding = QGroupBox(translate("LeadAdmin", "Add a user"))
        adding.setLayout(form)
        return adding

    def _build_selected(self) -> QGroupBox:
        """What is done to the selected person: their role, a new password (every session
        of theirs ends), and ending their access."""
        self.confirmation: QMessageBox | None = None
        self.who = label("")
        named(self.who, "adminSelectedUser", translate("LeadAdmin", "The selected user"))
        self.new_role = QComboBox()
        named(self.new_role, "adminNewRole", translate("LeadAdmin", "New role"))
        for r in PERSON_ROLES:
            self.new_role.addItem(role_words(r), r.value)
        self.new_role.currentIndexChanged.connect(self._selection)
        self.change_button = QPushButton(translate("LeadAdmin", "Change role…"))
        self.change_button.clicked.connect(self.ask_change_role)
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
        self.set_password_button = QPushButton(translate("LeadAdmin", "Set password…"))
        self.set_password_button.clicked.connect(self.set_password)
        self.end_access_button = QPushButton(translate("LeadAdmin", "End access…"))
        self.end_access_button.clicked.connect(self.ask_end_access)
        for button in (self.change_button, self.set_password_button, self.end_access_button):
            button.setEnabled(False)
        form = QFormLayout()
        form.addRow(self.who)
        form.addRow(translate("LeadAdmin", "Role"), role_row)
        form.addRow(translate("LeadAdmin", "New password"), self.new_password)
        form.addRow(translate("LeadAdmin", "New password again"), self.new_password_again)
        form.addRow("", self.set_password_button)
        form.addRow("", self.end_access_button)
        box = QGroupBox(translate("LeadAdmin", "The selected user"))
        box.setLayout(form)
        self._say_who(None)
        return box

    def refresh(self) -> None:
        factory = self.client_factory

        def work() -> tuple[User, UserList]:
            api = factory()
            return api.me(), api.users()

        failed = self._failed(translate("LeadAdmin", "loading the users"))
        run_op(self, work, self._show, failed, key="load")

    def _show(self, found: tuple[User, UserList]) -> None:
        if self.closed:  # a load under way when the tab closed: its list stays empty
            return
        me, users = found
        self.me = me.username
        kept = selected_value(self.table, self.model)  # the same person, after the reload
        self.model.set_users(users)
        if kept is None or not reselect(self.table, kept):
            self._selection()
        fit_columns(self.table)

    def _failed(self, during: str) -> Callable[[BaseException], None]:
        def failed(err: BaseException) -> None:
            self.busy = False
            said = describe(err, during=during).line()
            if isinstance(err, Forbidden):  # another admin demoted this one meanwhile
                self.no_longer_admin.emit(refused_words(said))
                return
            self._selection()
            self.add_button.setEnabled(True)
            set_text(self.status, said)

        return failed

    def clear(self) -> None:
        """No one listed (this account may no longer see them), and no one selected."""
        self.model.set_users(UserList(users=[]))
        self._selection()

    def _picked(self, *_: Any) -> None:
        """Another row selected: the role offered is that person's own."""
        user = self.selected_user()
        if user is not None and Role(user.role) in PERSON_ROLES:
            self.new_role.setCurrentIndex(self.new_role.findData(Role(user.role).value))
        self._selection()

    def _selection(self, *_: Any) -> None:
        user = None if self.busy else self.selected_user()
        person = user is not None and Role(user.role) not in KEY_ROLES
        other = person and user is not None and self.new_role.currentData() != user.role
        self.new_role.setEnabled(person)
        self.change_button.setEnabled(other)
        self.set_password_button.setEnabled(person)  # an ended access: it gives it back
        self.end_access_button.setEnabled(person and user is not None and not user.access_ended)
        self._say_who(self.selected_user())

    def _say_who(self, user: User | None) -> None:
        """Name the selected person in the box, and what their account is."""
        if user is None:
            set_text(self.who, translate("LeadAdmin", "No one selected: pick a user above."))
            return
        words = translate("LeadAdmin", "{name} ({user}), {role}.").format(
            name=isolate(user.display_name), user=clean(user.username), role=role_words(user.role)
        )
        if Role(user.role) in KEY_ROLES:
            words += " " + translate(
                "LeadAdmin",
                "A service account: it calls with API keys (see API keys), and has no "
                "password and no other role.",
            )
        elif user.access_ended:
            words += " " + translate(
                "LeadAdmin", "Their access was ended: setting a password gives it back."
            )
        if user.username == self.me:
            words += " " + translate("LeadAdmin", "This is your own account.")
        set_text(self.who, words)

    def selected_user(self) -> User | None:
        username = selected_value(self.table, self.model)
        return next((u for u in self.model.users if u.username == username), None)

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

        run_op(self, work, done, self._failed(translate("LeadAdmin", "adding the user")))

    def _ask(self, name: str, title: str, text: str, yes: str, on_yes: Callable[[], None]) -> None:
        """Ask first (Cancel the default), as End access and Revoke do."""
        ask_first(
            self,
            self,
            name=name,
            title=title,
            text=text,
            yes=yes,
            cancel=translate("LeadAdmin", "Cancel"),
            on_yes=on_yes,
        )

    def ask_change_role(self) -> None:
        user = self.selected_user()
        if user is None or self.new_role.currentData() == user.role:
            return
        role = Role(self.new_role.currentData())
        text = translate("LeadAdmin", "Make {user} ({name}) {role} instead of {old}?").format(
            user=clean(user.username),
            name=isolate(user.display_name),
            role=role_words(role),
            old=role_words(user.role),
        )
        if role is Role.reviewer:
            text += " " + translate(
                "LeadAdmin",
                "What they hold in leads-only queues and the escalations assigned to them "
                "go back at once.",
            )
        if user.username == self.me and role is not Role.admin:
            text += " " + translate(
                "LeadAdmin",
                "This is your own account: it will no longer be an admin, and cannot make "
                "itself one again.",
            )
        self._ask(
            "confirmChangeRole",
            translate("LeadAdmin", "Change role"),
            text,
            translate("LeadAdmin", "Change role"),
            lambda: self._change_role(user.username, role),
        )

    def _change_role(self, username: str, role: Role) -> None:
        body = RoleChange(role=role)
        self.busy = True
        self._selection()
        factory = self.client_factory

        def work() -> User:
            api = factory()
            return api.change_role(username, body)

        def done(user: User) -> None:
            self.busy = False
            if user.username == self.me and Role(user.role) is not Role.admin:
                self.no_longer_admin.emit(  # no reload: the service refuses it now
                    translate(
                        "LeadAdmin",
                        "This account is now {role} and no longer an admin: the "
                        "Administration tab closes at the next login.",
                    ).format(role=role_words(user.role))
                )
                return
            set_text(
                self.status,
                translate("LeadAdmin", "{user} is now {role}.").format(
                    user=clean(user.username), role=role_words(user.role)
                ),
            )
            self.refresh()

        run_op(self, work, done, self._failed(translate("LeadAdmin", "changing the role")))

    def set_password(self) -> None:
        """The selected person's new password, typed twice, asked first: every session of
        theirs ends (someone whose access was ended can log in again with it)."""
        user = self.selected_user()
        if user is None:
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
        text = translate(
            "LeadAdmin",
            "Set a new password for {user} ({name})? Every session of theirs ends at once; "
            "they log in with the new one.",
        ).format(user=clean(user.username), name=isolate(user.display_name))
        if user.access_ended:
            text += " " + translate("LeadAdmin", "This gives them their access back.")
        if user.username == self.me:
            text += " " + translate(
                "LeadAdmin",
                "This is your own account: this session ends too, and you log in again "
                "with the new password.",
            )
        self._ask(
            "confirmSetPassword",
            translate("LeadAdmin", "Set password"),
            text,
            translate("LeadAdmin", "Set password"),
            lambda: self._set_password(user.username, password),
        )

    def _set_password(self, username: str, password: str) -> None:
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
            if username != self.me:  # (this session ended: the next call asks to log in)
                self.refresh()  # an ended access is back

        run_op(self, work, done, self._failed(translate("LeadAdmin", "setting the password")))

    def ask_end_access(self) -> None:
        user = self.selected_user()
        if user is None or user.access_ended:
            return
        text = translate(
            "LeadAdmin",
            "End {user}'s access? No password opens their account from now on, every "
            "session of theirs ends at once, and the posts they hold and the escalations "
            "assigned to them go back. Setting a password gives access back.",
        ).format(user=clean(user.username))
        if user.username == self.me:
            text += " " + translate(
                "LeadAdmin",
                "This is your own account: this session ends at once, and you cannot log "
                "in again until another admin sets you a password.",
            )
        self._ask(
            "confirmEndAccess",
            translate("LeadAdmin", "End access"),
            text,
            translate("LeadAdmin", "End access"),
            lambda: self._end_access(user.username),
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
            if username != self.me:  # (this session ended: the next call asks to log in)
                self.refresh()  # the list says so

        run_op(self, work, done, self._failed(translate("LeadAdmin", "ending the access")))
