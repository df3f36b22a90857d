"""Webhook endpoints' health for leads: where each platform endpoint's deliveries stand
(status, last success, backlog, failures, the last error). Read-only: endpoints are
managed with ``reviewer-app server webhook`` on the service's machine."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol.webhooks import WebhookEndpoint, WebhookList, WebhookStatus

from ..background import run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table
from ..plain import ago, clean, isolate, label, named, set_text, tooltip, whole
from ..words import plural
from .stats_views import SORT, Index, sortable, table_view

REFRESH_MS = 30_000
TROUBLE = QColor(198, 40, 40, 70)

STATUS_WORDS = {
    WebhookStatus.active: QT_TRANSLATE_NOOP("LeadWebhooks", "delivering"),
    WebhookStatus.failing: QT_TRANSLATE_NOOP("LeadWebhooks", "failing"),
    WebhookStatus.disabled: QT_TRANSLATE_NOOP("LeadWebhooks", "disabled"),
}


class WebhookModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadWebhooks", "Endpoint"),
        QT_TRANSLATE_NOOP("LeadWebhooks", "Platform"),
        QT_TRANSLATE_NOOP("LeadWebhooks", "Status"),
        QT_TRANSLATE_NOOP("LeadWebhooks", "Last success"),
        QT_TRANSLATE_NOOP("LeadWebhooks", "Backlog"),
        QT_TRANSLATE_NOOP("LeadWebhooks", "Failures in a row"),
        QT_TRANSLATE_NOOP("LeadWebhooks", "Last error"),
    )
    TR_CONTEXT = "LeadWebhooks"

    def __init__(self) -> None:
        super().__init__()
        self.endpoints: list[WebhookEndpoint] = []

    def _rows(self) -> Sequence[object]:
        return self.endpoints

    def set_list(self, found: WebhookList) -> None:
        self.beginResetModel()
        self.endpoints = list(found.endpoints)
        self.endResetModel()

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.endpoints):
            return None
        e = self.endpoints[index.row()]
        column = index.column()
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(TROUBLE) if e.status is not WebhookStatus.active else None
        if role == SORT:
            last = e.last_success_at.timestamp() if e.last_success_at else 0.0
            keys = (e.id, e.account, e.status.value, last, e.backlog, e.consecutive_failures)
            return keys[column] if column < len(keys) else (e.last_error or "")
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            return self._text(e, column)
        if role == Qt.ItemDataRole.ToolTipRole:  # a receiver's words: tooltips guess HTML
            return tooltip(self._text(e, column))
        if role == Qt.ItemDataRole.UserRole:
            return e.id
        return None

    @staticmethod
    def _text(e: WebhookEndpoint, column: int) -> str:
        if column == 0:
            return f"{e.id}: {isolate(e.url)}"
        if column == 1:
            return clean(e.account)
        if column == 2:
            words = translate("LeadWebhooks", STATUS_WORDS[e.status])
            if e.disabled_reason:
                words += " — " + isolate(e.disabled_reason)
            return words
        if column == 3:
            if e.last_success_at is None:
                return translate("LeadWebhooks", "never")
            return ago(e.last_success_at, datetime.now(UTC))
        if column == 4:
            return whole(e.backlog)
        if column == 5:
            return whole(e.consecutive_failures)
        return clean(e.last_error or "")


class WebhooksView(QWidget):
    """The Webhooks tab: a table of endpoints, refreshed while it is on screen."""

    def __init__(self, client_factory: Callable[[], ApiClient], parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "webhooksView", translate("LeadWorkspace", "Webhooks"))
        self.client_factory = client_factory
        self.model = WebhookModel()
        self.table = table_view(
            "webhookEndpoints", translate("LeadWebhooks", "Webhook endpoints and their health")
        )
        self.table.setModel(sortable(self.model, self))
        self.status = label("", wrap=False)
        named(self.status, "webhooksStatus", translate("LeadWebhooks", "Webhooks status"))
        refresh = QPushButton(translate("LeadWebhooks", "Refresh"))
        refresh.clicked.connect(self.refresh)
        row = QHBoxLayout()
        row.addWidget(refresh)
        row.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(
            label(
                translate(
                    "LeadWebhooks",
                    "Decisions reach each platform's endpoints as signed webhooks, in order. "
                    "The backlog is what an endpoint has not acknowledged yet; a failing "
                    "endpoint is retried with growing waits, a disabled one gets nothing "
                    "until an operator enables it (reviewer-app server webhook).",
                )
            )
        )
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.loading = False

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.refresh()
        self.timer.start()

    def hideEvent(self, event: Any) -> None:
        super().hideEvent(event)
        self.timer.stop()

    def refresh(self) -> None:
        if self.loading:
            return
        self.loading = True
        set_text(self.status, translate("LeadWebhooks", "Loading…"))
        factory = self.client_factory

        def work() -> WebhookList:
            api = factory()
            return api.webhooks()

        run_op(self, work, self._show, self._failed, key="load")

    def _show(self, found: WebhookList) -> None:
        self.loading = False
        self.model.set_list(found)
        troubled = sum(1 for e in found.endpoints if e.status is not WebhookStatus.active)
        if not found.endpoints:
            text = translate("LeadWebhooks", "No webhook endpoints.")
        else:
            endpoints = len(found.endpoints)  # a name: lupdate reads no call as the count
            text = plural(
                translate(
                    "LeadWebhooks",
                    "%Ln endpoint(s), {troubled} failing or disabled; {backlog} to send.",
                ),
                endpoints,
            ).format(
                troubled=whole(troubled), backlog=whole(sum(e.backlog for e in found.endpoints))
            )
        set_text(self.status, text)

    def _failed(self, err: BaseException) -> None:
        self.loading = False
        message = describe(err, during=translate("LeadWebhooks", "loading the webhooks"))
        set_text(self.status, message.line())
