"""The Administration tab, for admins only: users and their roles, API keys (create, shown
once; revoke), and the running queue configuration (read-only, its versions, and a diff
against a local file). The ``reviewer-app server`` commands stay; this is the common cases.
The service refuses every call here from anyone who is not an admin, whatever this client
is told. Every call runs off the GUI thread; every string from the wire is plain text."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import QueueFileHistory, Role, RunningQueueFile, User
from reviewer_app.protocol.intake import ApiKeyCreate, ApiKeyCreated, ApiKeyInfo, ApiKeyList
from reviewer_app.protocol.meta import QueueFileVersion, RoleChange, UserCreate, UserList

from ..background import run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table
from ..plain import clean, isolate, label, named, set_text
from .stats_views import SORT, Index, sortable, table_view

USERNAME = re.compile(r"^[a-z0-9][a-z0-9_.-]{1,63}$")
MIN_PASSWORD = 10
#: the largest local queue file "Compare with a file…" reads
MAX_COMPARED_BYTES = 4_000_000

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
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            return texts[index.column()]
        if role == SORT:
            return (u.username, u.display_name.casefold(), u.role.value)[index.column()]
        if role == Qt.ItemDataRole.UserRole:
            return u.username
        return None


class KeysModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadAdmin", "Name"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Account"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Role"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Created"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Last used"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Revoked"),
    )
    TR_CONTEXT = "LeadAdmin"

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[ApiKeyInfo] = []

    def _rows(self) -> Sequence[object]:
        return self.keys

    def set_keys(self, found: ApiKeyList) -> None:
        self.beginResetModel()
        self.keys = list(found.keys)
        self.endResetModel()

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.keys):
            return None
        k = self.keys[index.row()]
        column = index.column()
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            texts = (
                isolate(k.name),
                isolate(k.account),
                role_words(k.role),
                moment(k.created_at),
                moment(k.last_used_at) or translate("LeadAdmin", "never"),
                moment(k.revoked_at) or translate("LeadAdmin", "live"),
            )
            return texts[column]
        if role == SORT:
            stamps = (k.created_at, k.last_used_at, k.revoked_at)
            if column >= 3:
                stamp = stamps[column - 3]
                return stamp.timestamp() if stamp else 0.0
            return (k.name.casefold(), k.account, k.role)[column]
        if role == Qt.ItemDataRole.UserRole:
            return k.id
        return None


class HistoryModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadAdmin", "Version"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Applied"),
        QT_TRANSLATE_NOOP("LeadAdmin", "By"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Queues"),
    )
    TR_CONTEXT = "LeadAdmin"

    def __init__(self) -> None:
        super().__init__()
        self.versions: list[QueueFileVersion] = []

    def _rows(self) -> Sequence[object]:
        return self.versions

    def set_history(self, found: QueueFileHistory) -> None:
        self.beginResetModel()
        self.versions = list(found.versions)
        self.endResetModel()

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.versions):
            return None
        v = self.versions[index.row()]
        column = index.column()
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.ToolTipRole):
            return (
                str(v.version),
                moment(v.applied_at),
                isolate(v.applied_by) if v.applied_by else translate("LeadAdmin", "the service"),
                ", ".join(v.queues),
            )[column]
        if role == SORT:
            return (v.version, v.applied_at.timestamp(), v.applied_by or "", len(v.queues))[column]
        return None


def _selected(view: Any, model: _Table) -> Any:
    """The UserRole value of the selected row (through the sorting proxy), or None."""
    rows = view.selectionModel().selectedRows() if view.selectionModel() else []
    if not rows:
        return None
    return view.model().mapToSource(rows[0]).siblingAtColumn(0).data(Qt.ItemDataRole.UserRole)


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

        self.new_role = QComboBox()
        named(self.new_role, "adminNewRole", translate("LeadAdmin", "New role"))
        for r in PERSON_ROLES:
            self.new_role.addItem(role_words(r), r.value)
        self.change_button = QPushButton(translate("LeadAdmin", "Change role"))
        self.change_button.setEnabled(False)
        self.change_button.clicked.connect(self.change_role)
        change_row = QHBoxLayout()
        change_row.addWidget(label(translate("LeadAdmin", "Selected user's role:"), wrap=False))
        change_row.addWidget(self.new_role)
        change_row.addWidget(self.change_button)
        change_row.addStretch(1)

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
        layout.addLayout(change_row)
        layout.addWidget(adding)
        layout.addWidget(self.status)
        self.busy = False

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
        self.change_button.setEnabled(
            not self.busy and _selected(self.table, self.model) is not None
        )

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
        username = _selected(self.table, self.model)
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


class KeysPage(QWidget):
    """Platforms' and fact-checkers' API keys: never the key, except once when made."""

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "adminKeys", translate("LeadAdmin", "API keys"))
        self.client_factory = client_factory
        self.model = KeysModel()
        self.table = table_view("adminKeyTable", translate("LeadAdmin", "API keys"))
        self.table.setModel(sortable(self.model, self))
        self.table.selectionModel().selectionChanged.connect(self._selection)
        self.status = label("")
        named(self.status, "adminKeysStatus", translate("LeadAdmin", "API keys status"))
        self.revoke_button = QPushButton(translate("LeadAdmin", "Revoke…"))
        self.revoke_button.setEnabled(False)
        self.revoke_button.clicked.connect(self.ask_revoke)
        self.confirmation: QMessageBox | None = None

        self.name = named(QLineEdit(), "adminKeyName", translate("LeadAdmin", "Key name"))
        self.name.setMaxLength(64)
        self.name.setPlaceholderText(translate("LeadAdmin", "e.g. feed-bridge"))
        self.key_role = QComboBox()
        named(self.key_role, "adminKeyRole", translate("LeadAdmin", "Key role"))
        for r in KEY_ROLES:
            self.key_role.addItem(role_words(r), r.value)
        self.create_button = QPushButton(translate("LeadAdmin", "Create key"))
        self.create_button.clicked.connect(self.create_key)
        make_row = QHBoxLayout()
        make_row.addWidget(label(translate("LeadAdmin", "New key:"), wrap=False))
        make_row.addWidget(self.name, 1)
        make_row.addWidget(self.key_role)
        make_row.addWidget(self.create_button)

        # the new key, shown once
        self.made = QGroupBox(translate("LeadAdmin", "The new key"))
        self.made.setObjectName("adminNewKey")
        self.key_field = named(QLineEdit(), "adminKeyValue", translate("LeadAdmin", "The new key"))
        self.key_field.setReadOnly(True)
        copy = QPushButton(translate("LeadAdmin", "Copy"))
        copy.clicked.connect(self.copy_key)
        done = QPushButton(translate("LeadAdmin", "Done"))
        done.clicked.connect(self.forget_key)
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_field, 1)
        key_row.addWidget(copy)
        key_row.addWidget(done)
        made_layout = QVBoxLayout(self.made)
        made_layout.addWidget(
            label(
                translate(
                    "LeadAdmin",
                    "Copy this key now and give it to the platform: it is not shown again. "
                    "The service keeps only its hash.",
                )
            )
        )
        made_layout.addLayout(key_row)
        self.made.hide()

        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.revoke_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addLayout(make_row)
        layout.addWidget(self.made)
        layout.addWidget(self.status)
        self.busy = False

    def refresh(self) -> None:
        factory = self.client_factory

        def work() -> ApiKeyList:
            api = factory()
            return api.api_keys()

        run_op(self, work, self._show, self._failed("loading the API keys"), key="load")

    def _show(self, found: ApiKeyList) -> None:
        self.model.set_keys(found)
        self._selection()

    def _failed(self, during: str) -> Callable[[BaseException], None]:
        def failed(err: BaseException) -> None:
            self.busy = False
            self.create_button.setEnabled(True)
            self._selection()
            set_text(self.status, describe(err, during=translate("LeadAdmin", during)).line())

        return failed

    def _selected_key(self) -> ApiKeyInfo | None:
        key_id = _selected(self.table, self.model)
        return next((k for k in self.model.keys if k.id == key_id), None)

    def _selection(self, *_: Any) -> None:
        key = self._selected_key()
        self.revoke_button.setEnabled(not self.busy and key is not None and not key.revoked_at)

    def create_key(self) -> None:
        name = self.name.text().strip()
        if not USERNAME.fullmatch(name):
            set_text(
                self.status,
                translate(
                    "LeadAdmin",
                    "A key's name is 2 to 64 characters: lower-case letters, digits, '.', '_' "
                    "or '-' (it names the platform's account too).",
                ),
            )
            return
        body = ApiKeyCreate(role=Role(self.key_role.currentData()), name=name)
        self.busy = True
        self.create_button.setEnabled(False)
        factory = self.client_factory

        def work() -> ApiKeyCreated:
            api = factory()
            return api.create_api_key(body)

        def done(made: ApiKeyCreated) -> None:
            self.busy = False
            self.create_button.setEnabled(True)
            self.name.clear()
            self.key_field.setText(made.key)
            self.key_field.setCursorPosition(0)
            self.made.show()
            set_text(
                self.status,
                translate("LeadAdmin", "Made the key {name} for {account}.").format(
                    name=isolate(made.info.name), account=isolate(made.info.account)
                ),
            )
            self.refresh()

        run_op(self, work, done, self._failed("creating the API key"))

    def copy_key(self) -> None:
        QGuiApplication.clipboard().setText(self.key_field.text())

    def forget_key(self) -> None:
        self.key_field.clear()
        self.made.hide()

    def ask_revoke(self) -> None:
        key = self._selected_key()
        if key is None or key.revoked_at:
            return
        box = QMessageBox(self)
        box.setObjectName("confirmRevokeKey")
        box.setIcon(QMessageBox.Icon.Warning)
        box.setWindowTitle(translate("LeadAdmin", "Revoke API key"))
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setText(
            translate(
                "LeadAdmin",
                "Revoke the key {name} of {account}? Every request with it is refused from "
                "now on; this cannot be undone (make a new key instead).",
            ).format(name=isolate(key.name), account=isolate(key.account))
        )
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.button(QMessageBox.StandardButton.Yes).setText(translate("LeadAdmin", "Revoke"))
        box.button(QMessageBox.StandardButton.Cancel).setText(translate("LeadAdmin", "Cancel"))
        box.finished.connect(lambda result: self._confirmed(result, key))
        self.confirmation = box
        box.open()  # not exec(): the GUI thread never waits in a nested loop here

    def _confirmed(self, result: int, key: ApiKeyInfo) -> None:
        box, self.confirmation = self.confirmation, None
        if box is not None:
            box.deleteLater()
        if result != QMessageBox.StandardButton.Yes.value:
            return
        self.busy = True
        self._selection()
        factory = self.client_factory

        def work() -> ApiKeyInfo:
            api = factory()
            return api.revoke_api_key(key.id)

        def done(info: ApiKeyInfo) -> None:
            self.busy = False
            set_text(
                self.status,
                translate("LeadAdmin", "Revoked the key {name}.").format(name=isolate(info.name)),
            )
            self.refresh()

        run_op(self, work, done, self._failed("revoking the API key"))


class QueueConfigPage(QWidget):
    """The running queue file (read-only), its versions, and a diff against a local file."""

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "adminQueues", translate("LeadAdmin", "Queue configuration"))
        self.client_factory = client_factory
        self.running: RunningQueueFile | None = None
        self.version = label("")
        named(self.version, "adminQueueVersion", translate("LeadAdmin", "Running version"))
        self.text = QPlainTextEdit()
        named(self.text, "adminQueueFile", translate("LeadAdmin", "The running queue file"))
        self.text.setReadOnly(True)
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff = QPlainTextEdit()
        named(self.diff, "adminQueueDiff", translate("LeadAdmin", "Difference with a file"))
        self.diff.setReadOnly(True)
        self.diff.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.diff.hide()
        self.model = HistoryModel()
        self.history = table_view(
            "adminQueueHistory", translate("LeadAdmin", "Configuration versions")
        )
        self.history.setModel(sortable(self.model, self))
        self.history.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # newest first
        self.status = label("")
        named(self.status, "adminQueueStatus", translate("LeadAdmin", "Queue file status"))
        compare = QPushButton(translate("LeadAdmin", "Compare with a file…"))
        compare.clicked.connect(self.pick_file)
        refresh = QPushButton(translate("LeadAdmin", "Refresh"))
        refresh.clicked.connect(self.refresh)
        row = QHBoxLayout()
        row.addWidget(refresh)
        row.addWidget(compare)
        row.addWidget(self.version, 1)
        texts = QSplitter(Qt.Orientation.Horizontal)
        texts.addWidget(self.text)
        texts.addWidget(self.diff)
        parts = QSplitter(Qt.Orientation.Vertical)
        parts.addWidget(texts)
        parts.addWidget(self.history)
        parts.setStretchFactor(0, 3)
        parts.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(
            label(
                translate(
                    "LeadAdmin",
                    "The queues as they run, as a queue file. Change them with "
                    "reviewer-app server queues apply FILE on the service's machine; every "
                    "applied file is a version below.",
                )
            )
        )
        layout.addLayout(row)
        layout.addWidget(parts, 1)
        layout.addWidget(self.status)
        self.dialog: QFileDialog | None = None

    def refresh(self) -> None:
        factory = self.client_factory

        def work() -> tuple[RunningQueueFile, QueueFileHistory]:
            api = factory()
            return api.queue_file(), api.queue_file_history()

        run_op(self, work, self._show, self._failed("loading the queue file"), key="load")

    def _show(self, found: tuple[RunningQueueFile, QueueFileHistory]) -> None:
        running, history = found
        self.running = running
        # plain text; bidi controls and invisible characters shown as markers
        self.text.setPlainText(isolate(running.toml, wrap=False))
        self.model.set_history(history)
        v = running.version
        if v is None:
            words = translate("LeadAdmin", "No configuration version yet.")
        else:
            words = translate("LeadAdmin", "Version {version}, applied {when} by {who}.").format(
                version=v.version,
                when=moment(v.applied_at),
                who=isolate(v.applied_by)
                if v.applied_by
                else translate("LeadAdmin", "the service"),
            )
        set_text(self.version, words)
        set_text(self.status, "")

    def _failed(self, during: str) -> Callable[[BaseException], None]:
        def failed(err: BaseException) -> None:
            set_text(self.status, describe(err, during=translate("LeadAdmin", during)).line())

        return failed

    def pick_file(self) -> None:
        dialog = QFileDialog(self, translate("LeadAdmin", "Compare with a queue file"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilter(translate("LeadAdmin", "Queue files (*.toml);;All files (*)"))
        dialog.fileSelected.connect(self.compare_with)
        self.dialog = dialog
        dialog.open()  # not exec(): no nested loop on the GUI thread

    def compare_with(self, path: str) -> None:
        """Diff the running file against the local file at ``path`` (read off the GUI
        thread): a unified diff, shown as plain text."""
        running = self.running
        if running is None:
            set_text(
                self.status, translate("LeadAdmin", "The running queue file is not loaded yet.")
            )
            return
        name = Path(path).name

        def work() -> list[str]:
            raw = Path(path).read_bytes()[: MAX_COMPARED_BYTES + 1]
            if len(raw) > MAX_COMPARED_BYTES:
                raise ValueError("too_large")
            local = raw.decode("utf-8")
            return list(
                difflib.unified_diff(
                    running.toml.splitlines(keepends=True),
                    local.splitlines(keepends=True),
                    fromfile=f"running (version {running.version.version})"
                    if running.version
                    else "running",
                    tofile=name,
                )
            )

        def done(lines: list[str]) -> None:
            self.diff.show()
            if not lines:
                self.diff.setPlainText("")
                set_text(
                    self.status,
                    translate("LeadAdmin", "{file} is the same as the running queue file.").format(
                        file=isolate(name)
                    ),
                )
                return
            text = "".join(line if line.endswith("\n") else line + "\n" for line in lines)
            self.diff.setPlainText(isolate(text, wrap=False))
            changed = sum(
                1 for line in lines if line[:1] in "+-" and not line.startswith(("+++", "---"))
            )
            set_text(
                self.status,
                translate(
                    "LeadAdmin", "{file} differs from the running queue file in {n} lines."
                ).format(file=isolate(name), n=changed),
            )

        def failed(err: BaseException) -> None:
            shown = isolate(name)
            if isinstance(err, UnicodeDecodeError):
                words = translate("LeadAdmin", "{file} is not UTF-8 text.").format(file=shown)
            elif isinstance(err, ValueError):
                words = translate("LeadAdmin", "{file} is too large for a queue file.").format(
                    file=shown
                )
            elif isinstance(err, OSError):
                words = translate("LeadAdmin", "{file} could not be read: {reason}").format(
                    file=shown, reason=clean(err.strerror or str(err))
                )
            else:
                words = describe(err, during=translate("LeadAdmin", "comparing")).line()
            set_text(self.status, words)

        run_op(self, work, done, failed)


class AdminView(QTabWidget):
    """The Administration tab: Users, API keys, Queue configuration."""

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "adminView", translate("LeadWorkspace", "Administration"))
        self.users = UsersPage(client_factory)
        self.keys = KeysPage(client_factory)
        self.queue_config = QueueConfigPage(client_factory)
        self.addTab(self.users, translate("LeadAdmin", "Users and roles"))
        self.addTab(self.keys, translate("LeadAdmin", "API keys"))
        self.addTab(self.queue_config, translate("LeadAdmin", "Queue configuration"))

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.refresh()

    def refresh(self) -> None:
        self.users.refresh()
        self.keys.refresh()
        self.queue_config.refresh()
