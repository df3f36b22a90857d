"""Administration: platforms' and fact-checkers' API keys (create one, shown once; revoke)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QComboBox,
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
from reviewer_app.protocol import Role
from reviewer_app.protocol.intake import ApiKeyCreate, ApiKeyCreated, ApiKeyInfo, ApiKeyList

from ..background import run_op
from ..confirm import ask_first
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table
from ..plain import fit_columns, isolate, label, named, set_text, stretch_column, tooltip
from .admin_users import (
    KEY_ROLES,
    USERNAME,
    moment,
    refused_words,
    reselect,
    role_words,
    selected_value,
)
from .stats_views import SORT, Index, sortable, table_view

CREATED = 4  # the column of the key's creation time; the other times follow it


def shown_prefix(key: ApiKeyInfo) -> str:
    """The key's first characters (the service keeps them to tell keys apart), then "…"."""
    return isolate(f"{key.prefix}…")


class KeysModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadAdmin", "Name"),
        QT_TRANSLATE_NOOP("LeadAdmin", "Key starts"),
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
                shown_prefix(k),  # a rotated key's two rows: the same name, two keys
                isolate(k.account),
                role_words(k.role),
                moment(k.created_at, seconds=True),
                moment(k.last_used_at, seconds=True) or translate("LeadAdmin", "never"),
                moment(k.revoked_at, seconds=True) or translate("LeadAdmin", "live"),
            )
            return tooltip(texts[column]) if role == Qt.ItemDataRole.ToolTipRole else texts[column]
        if role == SORT:
            stamps = (k.created_at, k.last_used_at, k.revoked_at)
            if column >= CREATED:
                stamp = stamps[column - CREATED]
                return stamp.timestamp() if stamp else 0.0
            return (k.name.casefold(), k.prefix, k.account, k.role)[column]
        if role == Qt.ItemDataRole.UserRole:
            return k.id
        return None


class KeysPage(QWidget):
    """Platforms' and fact-checkers' API keys: never the key, except once when made."""

    #: a call refused with 403 (this account no longer an admin): the words that say so
    no_longer_admin = Signal(str)
    closed = False  # (the tab's pages closed: see AdminView.close_pages)

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "adminKeys", translate("LeadAdmin", "API keys"))
        self.client_factory = client_factory
        self.model = KeysModel()
        self.table = table_view("adminKeyTable", translate("LeadAdmin", "API keys"))
        self.table.setModel(sortable(self.model, self))
        self.table.sortByColumn(CREATED, Qt.SortOrder.DescendingOrder)  # the newest first
        stretch_column(self.table, 2)  # the account; the times fit their text
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
        self.name.returnPressed.connect(self.create_button.click)  # (not while it is disabled)
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
        self.copy_button = QPushButton(translate("LeadAdmin", "Copy"))
        self.copy_button.clicked.connect(self.copy_key)
        done = QPushButton(translate("LeadAdmin", "Done"))
        done.clicked.connect(self.forget_key)
        key_row = QHBoxLayout()
        key_row.addWidget(self.key_field, 1)
        key_row.addWidget(self.copy_button)
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

        failed = self._failed(translate("LeadAdmin", "loading the API keys"))
        run_op(self, work, self._show, failed, key="load")

    def _show(self, found: ApiKeyList) -> None:
        if self.closed:  # a load under way when the tab closed: its list stays empty
            return
        kept = selected_value(self.table, self.model)  # the same key, after the reload
        self.model.set_keys(found)
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
            self._may_create()
            self._selection()
            set_text(self.status, said)

        return failed

    def clear(self) -> None:
        """No key listed (this account may no longer see them), and none selected."""
        self.model.set_keys(ApiKeyList(keys=[]))
        self._selection()

    def _selected_key(self) -> ApiKeyInfo | None:
        key_id = selected_value(self.table, self.model)
        return next((k for k in self.model.keys if k.id == key_id), None)

    def _may_create(self) -> None:
        """Create is offered unless a call runs or a new key is still on screen: a second
        key would replace it there, lost but live."""
        shown = not self.made.isHidden()
        self.create_button.setEnabled(not self.busy and not shown)
        self.create_button.setToolTip(
            tooltip(
                translate(
                    "LeadAdmin",
                    "Copy the new key below and press Done before making another.",
                )
            )
            if shown
            else ""
        )

    def _selection(self, *_: Any) -> None:
        key = self._selected_key()
        self.revoke_button.setEnabled(not self.busy and key is not None and not key.revoked_at)

    def create_key(self) -> None:
        if not self.made.isHidden():  # the new key not yet taken: never overwrite it
            self._may_create()
            return
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
        if self.create_button.hasFocus():  # disabled below: the focus stays on this page
            self.name.setFocus()
        self.create_button.setEnabled(False)
        factory = self.client_factory

        def work() -> ApiKeyCreated:
            api = factory()
            return api.create_api_key(body)

        def done(made: ApiKeyCreated) -> None:
            self.busy = False
            self.name.clear()
            self.key_field.setText(made.key)
            self.key_field.setCursorPosition(0)
            self.made.show()
            if self.made.isVisible():  # (this page on screen) the key shown once: Copy it
                self.copy_button.setFocus()
            self._may_create()
            set_text(
                self.status,
                translate(
                    "LeadAdmin",
                    "Made the key {name} for {account}. Copy it and press Done before "
                    "making another.",
                ).format(name=isolate(made.info.name), account=isolate(made.info.account)),
            )
            self.refresh()

        run_op(self, work, done, self._failed(translate("LeadAdmin", "creating the API key")))

    def copy_key(self) -> None:
        QGuiApplication.clipboard().setText(self.key_field.text())

    def forget_key(self) -> None:
        self.key_field.clear()
        self.made.hide()
        self._may_create()
        self.name.setFocus()  # Done had it, hidden now: the next key's name, not the tab bar

    def ask_revoke(self) -> None:
        key = self._selected_key()
        if key is None or key.revoked_at:
            return
        ask_first(
            self,
            self,
            name="confirmRevokeKey",
            title=translate("LeadAdmin", "Revoke API key"),
            text=translate(
                "LeadAdmin",
                "Revoke the key {name} of {account} that starts {prefix}, made {created}? "
                "Every request with it is refused from now on; this cannot be undone (make a "
                "new key instead).",
            ).format(
                name=isolate(key.name),
                account=isolate(key.account),
                prefix=shown_prefix(key),
                created=moment(key.created_at, seconds=True),
            ),
            yes=translate("LeadAdmin", "Revoke"),
            cancel=translate("LeadAdmin", "Cancel"),
            on_yes=lambda: self._revoke(key),
        )

    def _revoke(self, key: ApiKeyInfo) -> None:
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

        run_op(self, work, done, self._failed(translate("LeadAdmin", "revoking the API key")))
