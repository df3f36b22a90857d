"""The Lead workspace: one tab per job a lead does. Shown only to leads and admins; the
service refuses every lead call from anyone else, whatever this client is told."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QTabWidget, QWidget

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import AuthenticationRequired
from reviewer_app.core.settings import Settings
from reviewer_app.protocol import DecisionQuery, Queue

from ..i18n import translate
from ..keys import Binding, Command, Keymap
from ..plain import named
from .admin import AdminView
from .audits import AuditsView
from .decisions import DecisionsBrowser
from .escalations import EscalationsView
from .exposure import ExposureView
from .search import VIEW_KEYS, SearchPane
from .stats_views import QueuesOverview, ReviewersView
from .webhooks import WebhooksView


class _AuthRelay(QObject):
    """A 401 seen on a pool thread, to the GUI thread (queued). No parent: the client's
    hook holds it, so it outlives the workspace rather than die under a running op."""

    refused = Signal(str)


class LeadWorkspace(QTabWidget):
    """Queues, Reviewers, Audits, Escalations, Decisions, Search, Webhooks, Wellbeing.

    Every tab's calls go through one client (``client_factory()`` is asked once: the
    session's ``shared_client``), with the sync engine's retry policy; no tab closes it.
    A 401 on any of them is ``auth_required``: the window asks for the login as it does
    when the engine meets one, and the new token reaches this client too."""

    review_queue_requested = Signal(str)
    review_item_requested = Signal(str, str)  # queue id, item id (an escalation picked)
    message_posted = Signal(str)
    bulk_requested = Signal(object)  # list[Candidate]: posts a lead chose to decide together
    auth_required = Signal(str, bool)  # what the server said; False: not a "server back"

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        queues: Callable[[], list[Queue]],
        parent: QWidget | None = None,
        *,
        settings: Settings | None = None,
        admin: bool = False,
        me: str = "",
        service_clock: Callable[[], float] = time.time,
    ) -> None:
        """``service_clock``: now on the service's clock (the session's store's measure),
        which the windows of figures asked for end at."""
        super().__init__(parent)
        named(self, "leadWorkspace", translate("LeadWorkspace", "Lead workspace"))
        client_factory = self._share(client_factory())
        self.queues_view = QueuesOverview(client_factory)
        # the quality flags' thresholds are the lead's own (kept in their settings)
        self.reviewers = ReviewersView(client_factory, settings=settings)
        for figures in (self.queues_view, self.reviewers):
            figures.service_clock = service_clock  # the windows of figures end at its now
        self.audits = AuditsView(client_factory, queues, service_clock=service_clock)
        self.escalations = EscalationsView(client_factory, me=me, service_clock=service_clock)
        self.decisions = DecisionsBrowser(client_factory)
        self.search = SearchPane(
            client_factory,
            self.decisions.current_filters,
            queue_words=lambda: self.decisions.model.queues,
        )
        self.webhooks = WebhooksView(client_factory)
        self.exposure = ExposureView(client_factory)
        for widget, title in (
            (self.queues_view, translate("LeadWorkspace", "Queues")),
            (self.reviewers, translate("LeadWorkspace", "Reviewers")),
            (self.audits, translate("LeadWorkspace", "Audits")),
            (self.escalations, translate("LeadWorkspace", "Escalations")),
            (self.decisions, translate("LeadWorkspace", "Decisions")),
            (self.search, translate("LeadWorkspace", "Search")),
            (self.webhooks, translate("LeadWorkspace", "Webhooks")),
            (self.exposure, translate("LeadWorkspace", "Wellbeing")),
        ):
            self.addTab(widget, title)
        # admins only: the service refuses these calls to anyone else in any case
        self.admin = AdminView(client_factory) if admin else None
        if self.admin is not None:
            self.addTab(self.admin, translate("LeadWorkspace", "Administration"))
        self.escalations.review_requested.connect(self.review_queue_requested)
        self.escalations.item_requested.connect(self.review_item_requested)
        self.escalations.message_posted.connect(self.message_posted)
        self.reviewers.drill_down.connect(self.show_reviewer)
        self.audits.desk.message_posted.connect(self.message_posted)
        self.audits.blind_started.connect(self._blind)
        self.audits.blind_ended.connect(self._unblind)
        self.search.item_requested.connect(self.show_item)
        self.search.decisions_view_requested.connect(self.show_decisions)
        self.search.bulk_requested.connect(self.bulk_requested)
        self.keymap: Keymap | None = None
        self.view_keys: list[QShortcut] = []
        for n in range(1, VIEW_KEYS + 1):  # saved views, in the Search tab's picker order
            # the key itself: keys.COMMANDS (VIEW_n), the user's own over it (apply_keys)
            key = QShortcut(QKeySequence(f"Ctrl+Shift+{n}"), self)
            key.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            key.setAutoRepeat(False)
            key.activated.connect(lambda n=n: self.open_view(n - 1))
            self.view_keys.append(key)

    def _share(self, client: ApiClient) -> Callable[[], ApiClient]:
        """``client`` for every tab; its 401s told here, on the GUI thread."""
        self.client = client
        relay = self._auth_relay = _AuthRelay()
        relay.refused.connect(self._on_auth_refused)

        def refused(err: AuthenticationRequired) -> None:  # any thread
            relay.refused.emit(str(err))

        client.on_auth_required = refused
        return lambda: client

    def _on_auth_refused(self, said: str) -> None:
        self.auth_required.emit(said, False)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.search.load_views_once()  # for the keys, before the Search tab is shown

    def open_view(self, position: int) -> None:
        """Open the saved view at ``position`` (Ctrl+Shift+1 is 0): a search on the Search
        tab, a decisions filter on the Decisions tab. Not during a blind audit."""
        if self.auditing or not self.isTabEnabled(self.indexOf(self.search)):
            return
        self.setCurrentWidget(self.search)
        self.search.open_view(position)

    def show_decisions(self, filters: DecisionQuery) -> None:
        self.setCurrentWidget(self.decisions)
        self.decisions.set_filters(filters)

    def show_item(self, item_id: str) -> None:
        """An item from the search: its decisions and its history, on the Decisions tab."""
        self.show_decisions(DecisionQuery(item_id=item_id))
        self.decisions.show_history(item_id)

    def _blind(self) -> None:
        """A blind audit: nothing else in the workspace may show a decision meanwhile."""
        self.decisions.blank()
        for index in range(self.count()):
            self.setTabEnabled(index, self.widget(index) is self.audits)

    def _unblind(self) -> None:
        for index in range(self.count()):
            self.setTabEnabled(index, True)
        self.decisions.model.reload()

    def show_reviewer(self, reviewer: str) -> None:
        """The Decisions tab, filtered to one reviewer's decisions."""
        self.setCurrentWidget(self.decisions)
        self.decisions.show_reviewer(reviewer)

    @property
    def auditing(self) -> bool:
        return self.currentWidget() is self.audits and self.audits.auditing

    def run_command(self, binding: Binding) -> bool:
        """A key while the workspace is on screen: the next or previous tab; on the blind
        audit's desk the review keys instead ("]" and "[" its context tabs, as on the Review
        page: the workspace's other tabs are closed during the audit)."""
        if self.auditing:
            return self.audits.desk.run_command(binding)
        if binding.command in (Command.NEXT_TAB, Command.PREVIOUS_TAB):
            return self.step_tab(1 if binding.command is Command.NEXT_TAB else -1)
        return False

    def keyed_queue(self) -> Queue | None:
        """The queue whose action keys are in force here: the audited item's."""
        return self.audits.desk.queue if self.auditing else None

    def set_keys(self, keymap: Keymap) -> None:
        """The keys in force: the saved views' and, on the blind audit's verdict bar, each
        action's."""
        self.keymap = keymap
        self.audits.desk.keys_for = keymap.action_keys
        self.apply_keys()

    def apply_keys(self) -> None:
        if self.keymap is None:
            return
        for n, shortcut in enumerate(self.view_keys, start=1):
            keys = self.keymap.keys(Command(f"view_{n}"))
            shortcut.setKey(keys[0] if keys else QKeySequence())

    def keys_changed(self) -> None:
        self.apply_keys()
        desk = self.audits.desk
        if desk.queue is not None and desk.keys_for is not None:
            desk.verdicts.set_config(desk.queue.config, keys=desk.keys_for(desk.queue))
            desk.verdicts.set_item(desk.task.item if desk.task else None)

    def step_tab(self, step: int) -> bool:
        """The next (or previous) enabled tab, with the focus on its first control."""
        count = self.count()
        index = self.currentIndex()
        for _ in range(count):
            index = (index + step) % count
            if self.isTabEnabled(index):
                break
        self.setCurrentIndex(index)
        self.focus_page()
        return True

    def focus_page(self) -> None:
        """The focus on the open tab's first control (Tab goes on from there), with its
        focus frame: a key moved it."""
        page = self.currentWidget()
        if page is None:
            return
        target = _first_control(page) or page
        if target.hasFocus():
            # the page took it as it opened (Qt's own move, for no keyboard reason): its
            # focus frame showed only after the next Tab
            self.window().setAttribute(Qt.WidgetAttribute.WA_KeyboardFocusChange, True)
            target.update()
        else:
            target.setFocus(Qt.FocusReason.ShortcutFocusReason)


def _first_control(page: QWidget) -> QWidget | None:
    """The first control of ``page`` Tab reaches."""
    widget = page.nextInFocusChain()
    while widget is not None and widget is not page:
        if (
            page.isAncestorOf(widget)
            and widget.isVisibleTo(page)
            and widget.isEnabled()
            and widget.focusPolicy() & Qt.FocusPolicy.TabFocus
        ):
            return widget
        widget = widget.nextInFocusChain()
    return None
