"""The Administration tab, for admins only: users and their roles, API keys (create, shown
once; revoke), and the running queue configuration (read-only, its versions, and a diff
against a local file). The ``reviewer-app server`` commands stay; this is the common cases.
The service refuses every call here from anyone who is not an admin, whatever this client
is told. Every call runs off the GUI thread; every string from the wire is plain text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import (
    QTabWidget,
    QWidget,
)

from reviewer_app.core.api import ApiClient

from ..i18n import translate
from ..plain import named
from .admin_keys import KeysPage
from .admin_queue_file import QueueConfigPage
from .admin_users import UsersPage


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
