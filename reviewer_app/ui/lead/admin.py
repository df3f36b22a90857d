"""The Administration tab, for admins only: users and their roles, API keys (create, shown
once; revoke), and the running queue configuration (read-only, its versions, and a diff
against a local file). The ``reviewer-app server`` commands stay; this is the common cases.
The service refuses every call here from anyone who is not an admin, whatever this client
is told. Every call runs off the GUI thread; every string from the wire is plain text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QTabWidget,
    QWidget,
)

from reviewer_app.core.api import ApiClient

from ..i18n import translate
from ..plain import named, set_text
from .admin_keys import KeysPage
from .admin_queue_file import QueueConfigPage
from .admin_users import UsersPage


class _StayDisabled(QObject):
    """Keeps the widgets it watches disabled: a page's own handlers (a call that finished,
    Done on a new key) enable their buttons again, which the service would only refuse."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            event.type() == QEvent.Type.EnabledChange
            and isinstance(watched, QWidget)
            and watched.isEnabled()
        ):
            watched.setEnabled(False)
        return False


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
        # no longer an admin: this one made themselves something else, or another admin
        # did (a call refused with 403)
        self.closed = False
        for page in (self.users, self.keys, self.queue_config):
            page.no_longer_admin.connect(self.close_pages)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.refresh()

    def refresh(self) -> None:
        """Read every page again; each keeps its selection, and the queue file's page its
        comparison while the running file is the same."""
        if self.closed:  # the service refuses it now: the words stay
            return
        self.users.refresh()
        self.keys.refresh()
        self.queue_config.refresh()

    def close_pages(self, words: str) -> None:
        """This account is no longer an admin: the lists of users and keys cleared (no
        longer this account's to see), every page disabled but its status line, which says
        so, and a new key still on screen (the tab goes at the next login)."""
        if self.closed:  # the first words stay: a later refusal says no more
            return
        self.closed = True
        self.users.closed = self.keys.closed = self.queue_config.closed = True
        self.users.clear()
        self.keys.clear()
        stay = _StayDisabled(self)
        for page in (self.users, self.keys, self.queue_config):
            for child in page.findChildren(
                QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly
            ):
                if child not in (page.status, self.keys.made):  # (a new key: copied)
                    child.setEnabled(False)
                    child.installEventFilter(stay)
            set_text(page.status, words)
