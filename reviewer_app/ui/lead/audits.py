"""Audits: a lead draws a sample of decisions, then judges its items blind in the same
review pane reviewers use, with the same keys. Nothing on screen tells the original
decision until the auditor has decided: the service sends the item without it, and the
original appears here only in the result of the judgement. Results and per-reviewer
agreement are listed per sample."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QPushButton,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import ApiError
from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    AuditJudgement,
    AuditMethod,
    AuditResult,
    AuditResults,
    AuditSample,
    AuditSampleCreate,
    AuditTask,
    AuditTaskGrant,
    MediaKind,
    Queue,
    ReviewerAgreement,
)

from ..background import run_in_background
from ..context_panels import ContextPanels
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..keys import Binding, Command
from ..messages import describe
from ..models import RowsTable
from ..plain import bounded, clean, isolate, label, named, set_text
from ..post_pane import PostPane
from ..review import needs_prompt
from ..scores import ScoresPanel
from ..verdict_bar import VerdictBar
from ..words import code_words, local_time, plural
from .stats_views import WINDOWS, share, table_view

Index = QModelIndex | QPersistentModelIndex
#: the largest media file fetched with an audit task (the reviewers' are prefetched)
AUDIT_MEDIA_BYTES = 20 * 1024 * 1024
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


def decision_words(action: str, policies: Sequence[str], reviewer: str) -> str:
    codes = f" ({', '.join(policies)})" if policies else ""
    return translate("LeadAudits", "{action} by {reviewer}").format(
        action=f"{code_words(action)}{codes}", reviewer=isolate(reviewer)
    )


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

    def cells(self, s: AuditSample) -> tuple[object, ...]:
        return (
            f"#{s.id}",
            local_time(s.created_at),
            s.created_by,
            translate("LeadAudits", "{n} of {total}").format(n=s.size, total=s.requested_size),
            translate("LeadAudits", "{n} of {total}").format(n=s.recorded, total=s.size),
            method_words(s.method),
            s.queue_id or translate("LeadAudits", "all queues"),
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
        kappa = "—" if r.kappa is None else f"{r.kappa:.2f}"
        return (
            r.reviewer,
            str(r.audited),
            str(r.agreed),
            str(r.overturned),
            share(r.agreement_rate),
            kappa,
        )


class AuditDesk(QWidget):
    """The blind review of one sample: the reviewers' pane and keys, one item at a time."""

    finished = Signal(int)  # sample id: nothing left to judge
    message_posted = Signal(str)

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        queues: Callable[[], list[Queue]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        named(self, "blindAudit", translate("LeadAudits", "Blind audit"))
        self.client_factory = client_factory
        self.queues = queues
        #: each action's key in a queue, the reviewer's own where set (``ui.keys``)
        self.keys_for: Callable[[Queue], dict[str, str]] | None = None
        self.sample_id: int | None = None
        self.task: AuditTask | None = None
        self.queue: Queue | None = None
        self.pending_action: ActionConfig | None = None
        self.busy = False
        self.task_media: dict[str, tuple[bytes, str]] = {}
        self._shown_at = 0.0
        self.heading = label("")
        named(self.heading, "auditProgress", translate("LeadAudits", "Audit progress"))
        self.heading.setStyleSheet("font-weight: bold")
        self.outcome = label("")
        named(self.outcome, "auditOutcome", translate("LeadAudits", "Last audit result"))
        self.post = PostPane()
        self.scores = ScoresPanel()
        self.context = ContextPanels()
        self.verdicts = VerdictBar()
        self.verdicts.action_chosen.connect(self.choose)
        self.verdicts.submit_requested.connect(self.submit)
        # never focused (Space reveals media here, it must not stop the audit): Alt+S
        # (a shortcut, not a mnemonic: no "&" in a button's text, see tests/ui/hostile)
        self.stop_button = QPushButton(translate("LeadAudits", "Stop auditing (Alt+S)"))
        self.stop_button.setShortcut(QKeySequence("Alt+S"))
        self.stop_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.stop_button.clicked.connect(self.stop)
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.stop_button)
        middle = QWidget()
        middle_layout = QVBoxLayout(middle)
        middle_layout.setContentsMargins(0, 0, 0, 0)
        middle_layout.addWidget(self.post, 3)
        middle_layout.addWidget(
            label(translate("LeadAudits", "Classifier scores (bar: score; line: threshold)"))
        )
        middle_layout.addWidget(self.scores)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(middle)
        split.addWidget(self.context)
        split.setSizes([700, 360])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(
            label(
                translate(
                    "LeadAudits",
                    "Decide each post as a reviewer would (same keys). The original decision is "
                    "hidden until you have decided; the same decision records agreement, "
                    "another one overturns it and becomes the decision of record.",
                )
            )
        )
        layout.addWidget(split, 1)
        layout.addWidget(self.verdicts)
        layout.addWidget(self.outcome)

    # --- the sample -------------------------------------------------------------------------

    def start(self, sample_id: int) -> None:
        self.sample_id = sample_id
        set_text(self.outcome, "")
        self._next()

    def stop(self) -> None:
        sample_id, self.sample_id = self.sample_id, None
        self._show(None)
        if sample_id is not None:
            self.finished.emit(sample_id)

    def _next(self) -> None:
        if self.sample_id is None:
            return
        sample_id, factory = self.sample_id, self.client_factory
        self.busy = True
        set_text(
            self.heading,
            translate("LeadAudits", "Sample #{id}: fetching the next post…").format(id=sample_id),
        )

        def work() -> tuple[AuditTaskGrant, dict[str, tuple[bytes, str]]]:
            with factory() as api:
                grant = api.next_audit(sample_id)
                media: dict[str, tuple[bytes, str]] = {}
                # an audited item is not in the local store: its media comes with the task
                for m in grant.task.item.post.media if grant.task else []:
                    if m.kind is not MediaKind.video and m.size_bytes <= AUDIT_MEDIA_BYTES:
                        with contextlib.suppress(ApiError):
                            media[m.id] = api.media(m.id, max_bytes=AUDIT_MEDIA_BYTES)
                return grant, media

        run_in_background(self, work, self._granted, self._failed)

    def _granted(self, result: tuple[AuditTaskGrant, dict[str, tuple[bytes, str]]]) -> None:
        grant, media = result
        self.task_media = media
        self.busy = False
        if grant.sample_id != self.sample_id:
            return  # the lead moved on meanwhile
        if grant.task is None:
            set_text(
                self.heading,
                translate("LeadAudits", "Sample #{id}: every post is judged.").format(
                    id=grant.sample_id
                ),
            )
            self.message_posted.emit(
                translate("LeadAudits", "Audit sample #{id} is complete.").format(
                    id=grant.sample_id
                )
            )
            self.stop()
            return
        set_text(
            self.heading,
            translate("LeadAudits", "Sample #{id}: {n} posts left to judge (item {item})").format(
                id=grant.sample_id, n=grant.remaining, item=grant.task.item.id
            ),
        )
        self._show(grant.task)

    def _failed(self, err: BaseException) -> None:
        self.busy = False
        message = describe(err, during=translate("LeadAudits", "auditing"))
        set_text(self.outcome, message.line())
        self.message_posted.emit(message.title)

    def _show(self, task: AuditTask | None) -> None:
        self.task = task
        self.pending_action = None
        self.verdicts.set_item(None)
        self.verdicts.mark(None)
        if task is None:
            self.queue = None
            self.verdicts.set_config(None)
            self.post.clear(translate("LeadAudits", "No audit in progress."))
            self.scores.show_scores([])
            self.context.show_item(None)
            return
        item = task.item
        self.queue = next((q for q in self.queues() if q.id == item.queue_id), None)
        keys = self.keys_for(self.queue) if self.keys_for and self.queue else None
        self.verdicts.set_config(self.queue.config if self.queue else None, keys=keys)
        self.verdicts.set_item(item)
        for action in self.queue.config.actions if self.queue else []:
            if action.kind is ActionKind.escalate:  # an audit decides; it cannot escalate
                self.verdicts.buttons[action.id].hide()
        self.post.show_item(item, lambda media_id: self.task_media.get(media_id))
        self.scores.show_scores(item.scores)
        self.context.show_item(item)
        self._shown_at = time.monotonic()
        if self.queue is None:
            set_text(
                self.outcome,
                translate("LeadAudits", "The queue {queue} is not known to this app yet.").format(
                    queue=item.queue_id
                ),
            )

    # --- judging ------------------------------------------------------------------------------

    def run_command(self, binding: Binding) -> bool:
        """A key of the review flow while this desk is on screen."""
        command = binding.command
        if command is Command.ACTION:
            if binding.action_id is not None:
                self.choose(binding.action_id)
            return True
        needs = {
            Command.FOCUS_POLICY: ("policy", self.verdicts.policies),
            Command.FOCUS_RATING: ("rating", self.verdicts.rating),
            Command.FOCUS_NOTE: ("note", None),
        }
        if command in needs:
            need, widget = needs[command]
            if widget is not None and not widget.isVisible():
                return False
            self.verdicts.focus_for(need)
            return True
        if command is Command.SUBMIT:
            self.submit()
        elif command is Command.CANCEL:
            self.pending_action = None
            self.verdicts.mark(None)
            self.verdicts.ask("")
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        elif command is Command.REVEAL:
            self.post.media.toggle_reveal()
        elif command in (Command.ESCALATE, Command.SKIP, Command.UNDO):
            self.message_posted.emit(
                translate(
                    "LeadAudits",
                    "An audit decides: it cannot escalate, skip or be undone. Stop auditing to "
                    "leave the sample for later.",
                )
            )
        else:
            return False
        return True

    def _action(self, match: Callable[[ActionConfig], bool]) -> ActionConfig | None:
        if self.queue is None:
            return None
        return next((a for a in self.queue.config.actions if match(a)), None)

    def choose(self, action_id: str) -> None:
        if self.task is None or self.busy:
            return
        action = self._action(lambda a: a.id == action_id)
        if action is None:
            return
        if action.kind is ActionKind.escalate:
            self.message_posted.emit(
                translate("LeadAudits", "An audit must decide; it cannot escalate.")
            )
            return
        refusal = self.verdicts.refusal(action)
        if refusal:  # a label on a post no fact-checker rated
            self.message_posted.emit(refusal)
            set_text(self.outcome, refusal)
            return
        needs = self.verdicts.missing(action)
        self.verdicts.mark(action.id)
        if needs:
            self.pending_action = action
            reasons = self.verdicts.reasons(action)
            self.verdicts.ask(
                needs_prompt(isolate(action.label), needs, cancel=False, reasons=reasons)
            )
            self.verdicts.focus_for(needs[0])
            return
        self._judge(action)

    def submit(self) -> None:
        if self.pending_action is not None:
            self.choose(self.pending_action.id)

    def _judge(self, action: ActionConfig) -> None:
        assert self.task is not None
        task, factory = self.task, self.client_factory
        draft = self.verdicts.draft(action)
        judgement = AuditJudgement(
            result="judge",
            action=action.id,
            policies=draft.policies,
            rating=draft.rating,
            author_action=action.author_action,
            note=draft.note,
            time_spent_ms=int((time.monotonic() - self._shown_at) * 1000),
        )
        self.busy = True
        self.pending_action = None
        set_text(self.outcome, translate("LeadAudits", "Recording your judgement…"))

        def work() -> AuditResult:
            with factory() as api:
                return api.record_audit(task.audit_id, judgement)

        run_in_background(self, work, self._recorded, self._failed)

    def _recorded(self, result: AuditResult) -> None:
        self.busy = False
        o = result.original
        mine = result.corrected
        if result.result.value == "agree":
            words = translate(
                "LeadAudits", "Agreed on {item}: the original was {original}."
            ).format(item=result.item_id, original=decision_words(o.action, o.policies, o.reviewer))
        else:
            assert mine is not None
            words = translate(
                "LeadAudits",
                "Overturned on {item}: the original was {original}; yours ({yours}) is now the "
                "decision of record.",
            ).format(
                item=result.item_id,
                original=decision_words(o.action, o.policies, o.reviewer),
                yours=decision_words(mine.action, mine.policies, mine.reviewer),
            )
        set_text(self.outcome, words)
        self.message_posted.emit(words)
        self._next()


class AuditsView(QWidget):
    """Samples (create, list), the blind desk, and each sample's results."""

    blind_started = Signal()
    blind_ended = Signal()

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        queues: Callable[[], list[Queue]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        named(self, "auditsView", translate("LeadAudits", "Audits"))
        self.client_factory = client_factory
        self.queues = queues
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
        self.status = label("")
        named(self.status, "auditsStatus", translate("LeadAudits", "Audits status"))
        self.samples = SamplesModel()
        self.samples_view = table_view("auditSamples", translate("LeadAudits", "Audit samples"))
        self.samples_view.setSortingEnabled(False)
        self.samples_view.setModel(self.samples)
        self.samples_view.activated.connect(lambda _i: self.start_selected())
        self.samples_view.clicked.connect(lambda _i: self.show_results())
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
        self.desk = AuditDesk(client_factory, queues)
        self.desk.finished.connect(self._desk_finished)
        self.stack = QStackedWidget()
        self.stack.addWidget(lists)
        self.stack.addWidget(self.desk)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        self.loaded = False

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
        for queue in self.queues():
            if queue.id != "escalations":
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
            with factory() as api:
                return list(api.samples().samples)

        def done(samples: list[AuditSample]) -> None:
            self.samples.set_rows(samples)
            row = next((i for i, s in enumerate(samples) if s.id == select), 0 if samples else -1)
            if row >= 0:
                self.samples_view.selectRow(row)
                self.show_results()
            elif not samples:
                self._say(translate("LeadAudits", "No samples yet: draw one above."))

        run_in_background(self, work, done, self._failed)

    def create_sample(self) -> None:
        until = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=1)
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
            with factory() as api:
                return api.create_sample(body)

        def done(sample: AuditSample) -> None:
            self.create_button.setEnabled(True)
            self._say(
                (
                    translate(
                        "LeadAudits",
                        "Sample #{id}: {n} decisions drawn (fewer than {requested}: the window "
                        "has no more).",
                    )
                    if sample.size < sample.requested_size
                    else plural(
                        QCoreApplication.translate(
                            "LeadAudits", "Sample #{id}: %n decision(s) drawn.", None, sample.size
                        ),
                        sample.size,
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
            with factory() as api:
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

        run_in_background(self, work, done, self._failed)
