"""Audits: a lead draws a sample of decisions, then judges its items blind in the same
review pane reviewers use, with the same keys (``audit_desk``). Nothing on screen tells the
original decision until the auditor has decided: the service sends the item without it,
and the original appears here only in the result of the judgement. Results and
per-reviewer agreement are listed per sample."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import (
    QCoreApplication,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import (
    ESCALATION_QUEUE,
    AuditMethod,
    AuditResult,
    AuditResults,
    AuditSample,
    AuditSampleCreate,
    Queue,
    ReviewerAgreement,
)

from ..background import run_in_background, run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import RowsTable
from ..plain import bounded, clean, isolate, label, named, set_text
from ..words import decimal, local_time, plural
from .audit_desk import AuditDesk, decision_words
from .quality import share
from .stats_views import WINDOWS, table_view

Index = QModelIndex | QPersistentModelIndex
METHODS = (
    (QT_TRANSLATE_NOOP("LeadAudits", "random"), AuditMethod.random),
    (QT_TRANSLATE_NOOP("LeadAudits", "the same number per reviewer"), AuditMethod.by_reviewer),
    (QT_TRANSLATE_NOOP("LeadAudits", "the same number per action"), AuditMethod.by_action),
)


def method_words(method: AuditMethod) -> str:
    """How a sample was drawn, in words."""
    words = next((w for w, m in METHODS if m is method), method.value.replace("_", " "))
    return translate("LeadAudits", words)


def outcome_words(outcome: str) -> str:
    """An audit's result (``agree`` or ``overturn``) in words."""
    return {
        "agree": translate("LeadAudits", "agreed"),
        "overturn": translate("LeadAudits", "overturned"),
    }.get(outcome, outcome)


class SamplesModel(RowsTable):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadAudits", "Sample"),
        QT_TRANSLATE_NOOP("LeadAudits", "Created"),
        QT_TRANSLATE_NOOP("LeadAudits", "By"),
        QT_TRANSLATE_NOOP("LeadAudits", "Drawn"),
        QT_TRANSLATE_NOOP("LeadAudits", "Judged"),
        QT_TRANSLATE_NOOP("LeadAudits", "Method"),
        QT_TRANSLATE_NOOP("LeadAudits", "Queue"),
    )
    TR_CONTEXT = "LeadAudits"
    #: queue names by id (the page's queues): a sample's queue is shown by its name
    names: dict[str, str] = {}

    def cells(self, s: AuditSample) -> tuple[object, ...]:
        return (
            f"#{s.id}",
            local_time(s.created_at),
            s.created_by,
            translate("LeadAudits", "{n} of {total}").format(n=s.size, total=s.requested_size),
            translate("LeadAudits", "{n} of {total}").format(n=s.recorded, total=s.size),
            method_words(s.method),
            isolate(self.names.get(s.queue_id, s.queue_id))
            if s.queue_id
            else translate("LeadAudits", "all queues"),
        )

    def key(self, s: AuditSample) -> int:
        return s.id


class ResultsModel(RowsTable):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadAudits", "Item"),
        QT_TRANSLATE_NOOP("LeadAudits", "Original decision"),
        QT_TRANSLATE_NOOP("LeadAudits", "Result"),
        QT_TRANSLATE_NOOP("LeadAudits", "Decision of record"),
        QT_TRANSLATE_NOOP("LeadAudits", "Auditor"),
        QT_TRANSLATE_NOOP("LeadAudits", "Note"),
    )
    TR_CONTEXT = "LeadAudits"

    def cells(self, r: AuditResult) -> tuple[object, ...]:
        o, c = r.original, r.corrected
        return (
            r.item_id,
            decision_words(o.action, o.policies, o.reviewer),
            outcome_words(r.result.value),
            decision_words(c.action, c.policies, c.reviewer)
            if c
            else translate("LeadAudits", "unchanged"),
            r.auditor,
            isolate(clean(r.note or "").split("\n", 1)[0]),
        )


class AgreementModel(RowsTable):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadAudits", "Reviewer"),
        QT_TRANSLATE_NOOP("LeadAudits", "Judged"),
        QT_TRANSLATE_NOOP("LeadAudits", "Agreed"),
        QT_TRANSLATE_NOOP("LeadAudits", "Overturned"),
        QT_TRANSLATE_NOOP("LeadAudits", "Agreement"),
        QT_TRANSLATE_NOOP("LeadAudits", "Kappa"),
    )
    TR_CONTEXT = "LeadAudits"

    def cells(self, r: ReviewerAgreement) -> tuple[object, ...]:
        kappa = "—" if r.kappa is None else decimal(r.kappa, 2)
        return (
            r.reviewer,
            str(r.audited),
            str(r.agreed),
            str(r.overturned),
            share(r.agreement_rate),
            kappa,
        )


class AuditsView(QWidget):
    """Samples (create, list), the blind desk, and each sample's results."""

    blind_started = Signal()
    blind_ended = Signal()

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        queues: Callable[[], list[Queue]],
        parent: QWidget | None = None,
        *,
        service_clock: Callable[[], float] = time.time,
    ) -> None:
        """``service_clock``: now on the service's clock (the session's store knows how far
        this computer's is off), which a sample's window ends at."""
        super().__init__(parent)
        named(self, "auditsView", translate("LeadAudits", "Audits"))
        self.client_factory = client_factory
        self.queues = queues
        self.service_clock = service_clock
        lists = self._build_lists()
        self.desk = AuditDesk(client_factory, queues)
        self.desk.finished.connect(self._desk_finished)
        self.stack = QStackedWidget()
        self.stack.addWidget(lists)
        self.stack.addWidget(self.desk)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        self.loaded = False

    def _build_form(self) -> QHBoxLayout:
        """Draw [size] decisions [method] from the [window] in [queue] [Draw sample]."""
        self.method = QComboBox()
        named(self.method, "sampleMethod", translate("LeadAudits", "How to draw the sample"))
        for words, method in METHODS:
            self.method.addItem(translate("LeadAudits", words), method.value)
        self.sample_size = QSpinBox()
        named(self.sample_size, "sampleSize", translate("LeadAudits", "Sample size"))
        self.sample_size.setRange(1, 1_000)
        self.sample_size.setValue(20)
        self.window_picker = QComboBox()
        named(self.window_picker, "sampleWindow", translate("LeadAudits", "Decisions from"))
        for words, hours in WINDOWS:
            self.window_picker.addItem(translate("LeadStats", words), hours)
        self.queue_picker = bounded(QComboBox())
        named(self.queue_picker, "sampleQueue", translate("LeadAudits", "Queue of the sample"))
        self.create_button = QPushButton(translate("LeadAudits", "Draw sample"))
        self.create_button.clicked.connect(self.create_sample)
        form = QHBoxLayout()
        for text, widget in (
            (translate("LeadAudits", "Draw"), self.sample_size),
            (translate("LeadAudits", "decisions"), self.method),
            (translate("LeadAudits", "from the"), self.window_picker),
            (translate("LeadAudits", "in"), self.queue_picker),
        ):
            form.addWidget(label(text, wrap=False))
            form.addWidget(widget)
        form.addWidget(self.create_button)
        form.addStretch(1)
        return form

    def _build_tables(self) -> None:
        """The samples, the selected sample's results, and the agreement per reviewer."""
        self.samples = SamplesModel()
        self.samples_view = table_view("auditSamples", translate("LeadAudits", "Audit samples"))
        self.samples_view.setSortingEnabled(False)
        self.samples_view.setModel(self.samples)
        self.samples_view.activated.connect(lambda _i: self.start_selected())
        # the results follow the current sample, however it moved (a click, the arrow keys)
        self.samples_view.selectionModel().currentRowChanged.connect(
            lambda _now, _before: self.show_results()
        )
        self.start_button = QPushButton(translate("LeadAudits", "Audit this sample (blind)"))
        self.start_button.clicked.connect(self.start_selected)
        self.results_button = QPushButton(translate("LeadAudits", "Show results"))
        self.results_button.clicked.connect(self.show_results)
        self.results = ResultsModel()
        self.results_view = table_view("auditResults", translate("LeadAudits", "Audit results"))
        self.results_view.setSortingEnabled(False)
        self.results_view.setModel(self.results)
        self.agreement = AgreementModel()
        self.agreement_view = table_view(
            "auditAgreement", translate("LeadAudits", "Agreement per reviewer")
        )
        self.agreement_view.setSortingEnabled(False)
        self.agreement_view.setModel(self.agreement)

    def _build_lists(self) -> QWidget:
        """The page of samples and results (the desk is the other page)."""
        form = self._build_form()
        self.status = label("")
        named(self.status, "auditsStatus", translate("LeadAudits", "Audits status"))
        self._build_tables()
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.results_button)
        buttons.addStretch(1)
        lists = QWidget()
        lists_layout = QVBoxLayout(lists)
        lists_layout.addLayout(form)
        lists_layout.addWidget(self.status)
        lists_layout.addWidget(self.samples_view, 2)
        lists_layout.addLayout(buttons)
        self.results_status = label(translate("LeadAudits", "Results of the selected sample:"))
        named(
            self.results_status,
            "resultsStatus",
            translate("LeadAudits", "Results of the selected sample"),
        )
        lists_layout.addWidget(self.results_status)
        lists_layout.addWidget(self.results_view, 2)
        lists_layout.addWidget(
            label(translate("LeadAudits", "Agreement with the auditors, per reviewer:"))
        )
        lists_layout.addWidget(self.agreement_view, 1)
        return lists

    @property
    def auditing(self) -> bool:
        return self.stack.currentWidget() is self.desk

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if not self.loaded:
            self.loaded = True
            self.fill_queues()
            self.reload()

    def fill_queues(self) -> None:
        current = self.queue_picker.currentData()
        self.queue_picker.clear()
        self.queue_picker.addItem(translate("LeadAudits", "all queues"), None)
        queues = list(self.queues())
        self.samples.names = {q.id: q.name for q in queues}
        for queue in queues:
            if queue.id != ESCALATION_QUEUE:
                self.queue_picker.addItem(isolate(queue.name), queue.id)
        self.queue_picker.setCurrentIndex(max(0, self.queue_picker.findData(current)))

    def _say(self, text: str) -> None:
        set_text(self.status, text)

    def _failed(self, err: BaseException) -> None:
        message = describe(err)
        self._say(message.line())

    def reload(self, select: int | None = None) -> None:
        factory = self.client_factory

        def work() -> list[AuditSample]:
            api = factory()  # the workspace's shared client: never closed here
            return list(api.samples().samples)

        def done(samples: list[AuditSample]) -> None:
            self.samples.set_rows(samples)
            row = next((i for i, s in enumerate(samples) if s.id == select), 0 if samples else -1)
            if row >= 0:
                self.samples_view.selectRow(row)  # the current row: its results follow
            elif not samples:
                self._say(translate("LeadAudits", "No samples yet: draw one above."))

        # keyed: the list opened before a sample was drawn must not answer after the list
        # that holds it (nor say "no samples" over "sample drawn")
        run_op(self, work, done, self._failed, key="samples")

    def create_sample(self) -> None:
        # to now on the service's clock: a lead's clock minutes slow left the newest out
        until = datetime.fromtimestamp(int(self.service_clock()) + 1, UTC)
        since = until - timedelta(hours=int(self.window_picker.currentData()))
        body = AuditSampleCreate(
            method=AuditMethod(self.method.currentData()),
            size=self.sample_size.value(),
            since=since,
            until=until,
            queue_id=self.queue_picker.currentData(),
        )
        factory = self.client_factory
        self.create_button.setEnabled(False)
        self._say(translate("LeadAudits", "Drawing the sample…"))

        def work() -> AuditSample:
            api = factory()  # the workspace's shared client: never closed here
            return api.create_sample(body)

        def done(sample: AuditSample) -> None:
            self.create_button.setEnabled(True)
            drawn = sample.size  # a name: lupdate reads no attribute as the count
            self._say(
                (
                    plural(
                        translate(
                            "LeadAudits",
                            "Sample #{id}: %n decision(s) drawn (fewer than {requested}: the "
                            "window has no more).",
                        ),
                        drawn,
                    )
                    if sample.size < sample.requested_size
                    else plural(
                        QCoreApplication.translate(
                            "LeadAudits", "Sample #{id}: %n decision(s) drawn."
                        ),
                        drawn,
                    )
                ).format(id=sample.id, n=sample.size, requested=sample.requested_size)
            )
            self.reload(select=sample.id)

        def failed(err: BaseException) -> None:
            self.create_button.setEnabled(True)
            self._failed(err)

        run_in_background(self, work, done, failed)

    def selected_sample(self) -> int | None:
        index = self.samples_view.currentIndex()
        if not index.isValid():
            return None
        value = self.samples.data(self.samples.index(index.row(), 0), Qt.ItemDataRole.UserRole)
        return int(value) if value is not None else None

    def start_selected(self) -> None:
        sample_id = self.selected_sample()
        if sample_id is None:
            self._say(translate("LeadAudits", "Select a sample first."))
            return
        self.start(sample_id)

    def start(self, sample_id: int) -> None:
        self.blind_started.emit()  # first: whatever else shows decisions hides them
        self.results.set_rows([])
        self.agreement.set_rows([])
        self.stack.setCurrentWidget(self.desk)
        self.desk.start(sample_id)
        self.desk.setFocus(Qt.FocusReason.OtherFocusReason)

    def _desk_finished(self, sample_id: int) -> None:
        self.stack.setCurrentIndex(0)
        self.blind_ended.emit()
        self.reload(select=sample_id)

    def show_results(self) -> None:
        sample_id = self.selected_sample()
        if sample_id is None:
            return
        factory = self.client_factory

        def work() -> AuditResults:
            api = factory()  # the workspace's shared client: never closed here
            return api.audit_results(sample_id)

        def done(results: AuditResults) -> None:
            self.results.set_rows(results.results)
            self.agreement.set_rows(results.reviewers)
            s = results.sample
            set_text(
                self.results_status,
                translate("LeadAudits", "Results of sample #{id}: {n} of {total} judged.").format(
                    id=s.id, n=s.recorded, total=s.size
                ),
            )

        run_op(self, work, done, self._failed, key="results")  # the newest selection's
