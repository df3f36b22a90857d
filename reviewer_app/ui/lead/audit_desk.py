"""The blind audit desk: a lead judges a sample's items one at a time in the review pane
reviewers use, with the same keys and the same review flow (``review.ReviewController``, the
doubled-key guard included). The one difference is where a verdict goes: to the server as
the audit's judgement (``AuditSink``), not into the local store. Nothing on screen tells the
original decision until the auditor has decided: the service sends the item without it,
and the original appears here only in the result of the judgement."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication, QObject, Qt, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import ApiError, ProblemError
from reviewer_app.core.store import JournalEntry, StoredItem
from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    AuditJudgement,
    AuditResult,
    AuditTask,
    AuditTaskGrant,
    MediaKind,
    Queue,
    counts_origin_harm,
)

from ..background import run_in_background
from ..i18n import translate
from ..keys import Binding, Command
from ..messages import describe, server_words
from ..plain import isolate, label, named, set_text
from ..review import NotRecorded, ReviewController, Selection
from ..review_pane import ReviewPane
from ..theme import TypeRole, set_type
from ..words import code_words, plural

#: the largest media file fetched with an audit task (the reviewers' are prefetched)
AUDIT_MEDIA_BYTES = 20 * 1024 * 1024


def decision_words(action: str, policies: Sequence[str], reviewer: str) -> str:
    codes = f" ({', '.join(policies)})" if policies else ""
    return translate("LeadAudits", "{action} by {reviewer}").format(
        action=f"{code_words(action)}{codes}", reviewer=isolate(reviewer)
    )


class AuditSink(QObject):
    """Where the blind audit's judgements go: the server (``record_audit``), off the GUI
    thread; the items come from the server too, one task at a time (``offer``)."""

    recorded = Signal(object)  # AuditResult
    failed = Signal(object)  # BaseException

    def __init__(
        self, client_factory: Callable[[], ApiClient], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.client_factory = client_factory
        #: the task fetched and not shown yet, and the one shown
        self.offered: AuditTask | None = None
        self.task: AuditTask | None = None
        self.escalation_refusal: str | None = translate(
            "LeadAudits", "An audit must decide; it cannot escalate."
        )

    def offer(self, task: AuditTask | None) -> None:
        """The task to show next (None: nothing to show)."""
        self.offered = task

    def next_item(
        self, queue_id: str, *, include_expired: bool, first: str | None
    ) -> StoredItem | None:
        task, self.offered = self.offered, None
        if task is None or task.item.queue_id != queue_id:
            return None
        self.task = task
        return StoredItem(
            item=task.item,
            queue_id=task.item.queue_id,
            lease_token="",
            lease_expires_at=float("inf"),
            state="ready",
            lease_lost=False,
        )

    def stored_item(self, item_id: str) -> StoredItem | None:
        return None  # one task at a time: nothing to choose from

    def record(
        self,
        shown: StoredItem,
        action: ActionConfig,
        chosen: Selection,
        *,
        note: str | None,
        time_spent_ms: int,
        escalation_reason: str | None,
    ) -> AuditJudgement:
        task, factory = self.task, self.client_factory
        if task is None or task.item.id != shown.item.id:
            raise NotRecorded(move_on=True)
        judgement = AuditJudgement(
            result="judge",
            action=action.id,
            policies=chosen.policies,
            rating=chosen.rating,
            author_action=action.author_action,
            note=note,
            time_spent_ms=time_spent_ms,
        )

        def work() -> AuditResult:
            api = factory()  # the workspace's shared client: never closed here
            return api.record_audit(task.audit_id, judgement)

        run_in_background(self, work, self.recorded.emit, self.failed.emit)
        return judgement

    def skip(self, item_id: str) -> None:
        raise NotRecorded(UNDECIDED())

    def undo(self) -> JournalEntry:
        raise NotRecorded(UNDECIDED())


def UNDECIDED() -> str:
    return translate(
        "LeadAudits",
        "An audit decides: it cannot escalate, skip or be undone. Stop auditing to "
        "leave the sample for later.",
    )


class AuditDesk(QWidget):
    """The blind review of one sample: the reviewers' pane, keys and review flow (the
    doubled-key guard too), one item at a time; the judgements go to the server."""

    finished = Signal(int)  # sample id: nothing left to judge
    message_posted = Signal(str)
    #: a post judged (the lead saw it): a key, its queue's config, the policies of the
    #: decision of record, the config of the queue it came from (when that harm counts)
    #: — for the window's shift tally, as a verdict of the review flow is
    judged = Signal(str, object, object, object)

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
        #: fetching the next task or recording a judgement
        self.busy = False
        self.task_media: dict[str, tuple[bytes, str]] = {}
        #: the audit id of the task shown that the service refused to overturn (appealed
        #: or back in review since the draw): S (or Leave) sets it aside and goes on
        self.unauditable: int | None = None
        self.sink = AuditSink(client_factory, self)
        self.sink.recorded.connect(self._recorded)
        self.sink.failed.connect(self._judgement_failed)
        self.review = ReviewController(self.sink)
        self.review.item_changed.connect(self._on_item_changed)
        self.review.verdict_recorded.connect(self._on_judging)
        self.review.message_posted.connect(self._say)
        self.pane = ReviewPane(self.review, says_cancel=False)
        self.post, self.scores, self.context = self.pane.post, self.pane.scores, self.pane.context
        self.context.queue_name = self._queue_name
        self.verdicts = self.pane.verdicts
        self._build()

    def _queue_name(self, queue_id: str) -> str | None:
        """A queue's name for "Why queued": the task's own queue, read once per task in
        ``_show``; another (the queue an item came from) from the stored queue list."""
        if self.queue is not None and self.queue.id == queue_id:
            return self.queue.name
        return next((q.name for q in self.queues() if q.id == queue_id), None)

    def _build(self) -> None:
        self.heading = label("")
        named(self.heading, "auditProgress", translate("LeadAudits", "Audit progress"))
        set_type(self.heading, TypeRole.heading)
        self.outcome = label("")
        named(self.outcome, "auditOutcome", translate("LeadAudits", "Last audit result"))
        # never focused (Space reveals media here, it must not stop the audit): Alt+S
        # (a shortcut, not a mnemonic: no "&" in a button's text, see tests/ui/hostile)
        self.stop_button = QPushButton(translate("LeadAudits", "Stop auditing (Alt+S)"))
        self.stop_button.setShortcut(QKeySequence("Alt+S"))
        self.stop_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.stop_button.clicked.connect(self.stop)
        self.leave_button = QPushButton(translate("LeadAudits", "Leave this post (S)"))
        named(self.leave_button, "auditLeave", self.leave_button.text())
        self.leave_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.leave_button.clicked.connect(self.leave)
        self.leave_button.hide()  # only for a post that can no longer be overturned
        top = QHBoxLayout()
        top.addWidget(self.heading, 1)
        top.addWidget(self.leave_button)
        top.addWidget(self.stop_button)
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
        layout.addWidget(self.pane, 1)
        layout.addWidget(self.outcome)

    @property
    def pending_action(self) -> ActionConfig | None:
        return self.review.pending_action

    # --- the sample -------------------------------------------------------------------------

    def start(self, sample_id: int) -> None:
        self.sample_id = sample_id
        set_text(self.outcome, "")
        self._next()

    def stop(self) -> None:
        self._mark_unauditable(None)
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
            api = factory()  # the workspace's shared client: never closed here
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
        self._said_set_aside(grant)
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
        left = grant.remaining  # a name: lupdate reads no attribute as the count
        set_text(
            self.heading,
            plural(
                QCoreApplication.translate(
                    "LeadAudits",
                    "Sample #{id}: %Ln post(s) left to judge (item {item})",
                ),
                left,
            ).format(id=grant.sample_id, item=grant.task.item.id),
        )
        self._show(grant.task)

    def _said_set_aside(self, grant: AuditTaskGrant) -> None:
        """The posts this draw left out of the sample (no longer auditable), in words."""
        self._mark_unauditable(None)
        for left in grant.set_aside:
            words = translate(
                "LeadAudits",
                "Post {item} left the sample without a result: it can no longer be audited "
                "({reason}).",
            ).format(item=isolate(left.item_id), reason=isolate(left.reason))
            set_text(self.outcome, words)
            self.message_posted.emit(words)

    def _mark_unauditable(self, audit_id: int | None) -> None:
        self.unauditable = audit_id
        self.leave_button.setVisible(audit_id is not None)

    def leave(self) -> None:
        """Leave the post the service refused to overturn: the next draw sets it aside
        (out of the sample, with why) and hands the next post. Nothing for another post."""
        task = self.task
        if task is None or self.busy or self.unauditable != task.audit_id:
            self.message_posted.emit(UNDECIDED())
            return
        self._next()

    def _failed(self, err: BaseException) -> None:
        self.busy = False
        message = describe(err, during=translate("LeadAudits", "auditing"))
        set_text(self.outcome, message.line())
        self.message_posted.emit(message.title)

    def _show(self, task: AuditTask | None) -> None:
        """``task``'s item in the pane, through the review controller (None: none)."""
        self.task = task
        item = task.item if task is not None else None
        self.queue = (
            next((q for q in self.queues() if q.id == item.queue_id), None) if item else None
        )
        keys = self.keys_for(self.queue) if self.keys_for and self.queue else None
        self.verdicts.set_config(self.queue.config if self.queue else None, keys=keys)
        self.sink.offer(task)
        self.review.set_queue(self.queue)
        if item is not None and self.queue is None:  # shown, but nothing can decide it
            self.pane.show_item(item, self.task_media.get)
            set_text(
                self.outcome,
                translate("LeadAudits", "The queue {queue} is not known to this app yet.").format(
                    queue=item.queue_id
                ),
            )

    def _on_item_changed(self, stored: StoredItem | None) -> None:
        if stored is None:
            if self.sample_id is None:
                self.pane.show_item(None, None, translate("LeadAudits", "No audit in progress."))
            return  # judged: the post stays until the next one is here
        self.pane.show_item(stored.item, self.task_media.get)
        for action in self.queue.config.actions if self.queue else []:
            if action.kind is ActionKind.escalate:  # an audit decides; it cannot escalate
                self.verdicts.buttons[action.id].hide()

    # --- judging ------------------------------------------------------------------------------

    def run_command(self, binding: Binding) -> bool:
        """A key of the review flow while this desk is on screen: the reviewers' keys, the
        panes' (T, C, D, F6) and the context tabs' ("]" and "[") too; no worklist here."""
        used = self.pane.run_command(binding)
        if used is not None:
            return used
        command = binding.command
        if command is Command.CANCEL:
            self.review.cancel()
            self.verdicts.mark(None)
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        elif command is Command.SKIP and self.unauditable is not None:
            self.leave()
        elif command in (Command.ESCALATE, Command.SKIP, Command.UNDO):
            self.message_posted.emit(UNDECIDED())
        else:
            return False
        return True

    def choose(self, action_id: str) -> None:
        """An action's key or button (as the verdict bar's)."""
        self.verdicts.choose(action_id)

    def submit(self) -> None:
        self.pane.submit()

    def _say(self, text: str) -> None:
        self.message_posted.emit(text)
        set_text(self.outcome, text)

    def _on_judging(self, _judgement: AuditJudgement) -> None:
        self.busy = True
        set_text(self.outcome, translate("LeadAudits", "Recording your judgement…"))

    def _judgement_failed(self, err: BaseException) -> None:
        """Not recorded: the same post again, to judge once more (or stop); a post the
        service can no longer let be overturned may be left (S) instead."""
        self._failed(err)
        task = self.task
        if task is not None and self.sample_id is not None:
            self._show(task)
            if isinstance(err, ProblemError) and err.code == "not_decision_of_record":
                self._mark_unauditable(task.audit_id)
                words = translate(
                    "LeadAudits",
                    "Your judgement differs from the original, but this post can no longer "
                    "be overturned ({reason}). Press S (or Leave this post) to leave it out "
                    "of the sample and go on to the next post.",
                ).format(reason=isolate(server_words(err)))
                set_text(self.outcome, words)
                self.message_posted.emit(words)

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
        self._count_seen(result)
        self._next()

    def _count_seen(self, result: AuditResult) -> None:
        """``judged``: the post counts in the auditor's shift (the service counts it too)."""
        queues = {q.id: q for q in self.queues()}
        queue = queues.get(result.original.queue_id)
        if queue is None:
            return
        decided = result.corrected or result.original
        task = self.task if self.task is not None and self.task.item.id == result.item_id else None
        came_from = queues.get(task.item.origin_queue_id or "") if task is not None else None
        origin = (
            came_from.config if came_from and counts_origin_harm(queue.id, queue.config) else None
        )
        self.judged.emit(f"audit:{result.audit_id}", queue.config, list(decided.policies), origin)
