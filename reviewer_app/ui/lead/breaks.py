"""A queue's break reminders, set by a lead from the Queues page: after how many minutes of
work, or how many high-harm items, the review window reminds that queue's reviewers to
take a break (``PUT /queues/{id}/breaks``: a new configuration version, which the
reviewers' windows pick up without a restart). The only way before was the queue file,
applied on the server by whoever could reach its database."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QSortFilterProxyModel, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import ProblemError
from reviewer_app.protocol import (
    DEFAULT_HIGH_HARM,
    BreakRule,
    BreakRuleChanged,
    BreakRuleSeen,
    HarmKind,
    Queue,
    QueueStats,
)

from ..background import run_op
from ..i18n import translate
from ..messages import describe
from ..plain import bounded, isolate, label, named, set_text

# the most a spin box takes (the protocol's bounds)
MAX_MINUTES, MAX_ITEMS = 24 * 60, 10_000


def rule_of(minutes: int, items: int, kinds: Sequence[HarmKind] | None = None) -> BreakRule | None:
    """The rule the two numbers make (0: not that limit); None when both are 0. ``kinds``:
    the high-harm kinds the queue's rule names, kept as they are (an empty list too: no
    kind counts as high harm there); None, for a queue without a rule: the defaults."""
    if not minutes and not items:
        return None
    return BreakRule(
        after_minutes=minutes or None,
        after_high_harm=items or None,
        high_harm=list(DEFAULT_HIGH_HARM) if kinds is None else list(kinds),
    )


def _spin(name: str, accessible: str, most: int) -> QSpinBox:
    spin = named(QSpinBox(), name, accessible)
    spin.setRange(0, most)
    spin.setSpecialValueText(translate("LeadBreaks", "never"))
    return spin


class BreaksDialog(QDialog):
    """One queue's break reminders (the queues come from the service when it opens)."""

    # the rule was saved: the queue's id and the configuration version it made
    saved = Signal(str, int)

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        queue_id: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("breaksDialog")
        self.setWindowTitle(translate("LeadBreaks", "Break reminders"))
        self.client_factory = client_factory
        self.wanted = queue_id
        self.queues: list[Queue] = []
        self.busy = False
        self.picker = named(bounded(QComboBox()), "breaksQueue", translate("LeadBreaks", "Queue"))
        self.minutes = _spin(
            "breaksMinutes", translate("LeadBreaks", "Remind after minutes of work"), MAX_MINUTES
        )
        self.minutes.setSuffix(translate("LeadBreaks", " min"))
        self.items = _spin(
            "breaksItems",
            translate("LeadBreaks", "Remind after high-harm posts"),
            MAX_ITEMS,
        )
        form = QFormLayout()
        form.addRow(translate("LeadBreaks", "Queue:"), self.picker)
        form.addRow(translate("LeadBreaks", "After minutes of work:"), self.minutes)
        form.addRow(translate("LeadBreaks", "After high-harm posts:"), self.items)
        about = label(
            translate(
                "LeadBreaks",
                "Whichever comes first, since the shift began or the last break. Never for "
                "both: no reminders in this queue. Each reviewer may still turn reminders off "
                "for themselves.",
            )
        )
        self.status = label("")
        named(self.status, "breaksStatus", translate("LeadBreaks", "Break reminders status"))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(about)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)
        self.picker.currentIndexChanged.connect(lambda _i: self._show_rule())
        self._set_busy(True)
        set_text(self.status, translate("LeadBreaks", "Reading the queues…"))
        factory = self.client_factory
        run_op(self, lambda: factory().queues().queues, self._queues_read, self._read_failed)

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        for widget in (self.picker, self.minutes, self.items):
            widget.setEnabled(not busy)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(not busy)

    def _queues_read(self, queues: list[Queue]) -> None:
        self.queues = list(queues)
        self.picker.blockSignals(True)
        self.picker.clear()  # read again after a refused save: the same queue stays picked
        for queue in self.queues:
            self.picker.addItem(queue.name, queue.id)  # combo items are plain text
        at = self.picker.findData(self.wanted) if self.wanted else 0
        self.picker.setCurrentIndex(max(0, at))
        self.picker.blockSignals(False)
        self._set_busy(False)
        set_text(self.status, "")
        self._show_rule()
        self.minutes.setFocus()

    def current(self) -> Queue | None:
        index = self.picker.currentIndex()
        return self.queues[index] if 0 <= index < len(self.queues) else None

    def _show_rule(self) -> None:
        queue = self.current()
        rule = queue.config.breaks if queue is not None else None
        self.minutes.setValue((rule.after_minutes or 0) if rule else 0)
        self.items.setValue((rule.after_high_harm or 0) if rule else 0)

    def save(self) -> None:
        queue = self.current()
        if queue is None or self.busy:
            return
        # the queue's own high-harm kinds stay: only the numbers are edited here (the
        # service keeps the kinds, also those of a rule turned off before); the change is
        # made from the rule read when the dialog opened: another lead's since is refused
        kinds = queue.config.breaks.high_harm if queue.config.breaks is not None else None
        rule = rule_of(self.minutes.value(), self.items.value(), kinds)
        seen = BreakRuleSeen(breaks=queue.config.breaks)
        self._set_busy(True)
        set_text(self.status, translate("LeadBreaks", "Saving…"))
        factory, queue_id = self.client_factory, queue.id
        self.wanted = queue_id

        def work() -> BreakRuleChanged:
            return factory().set_breaks(queue_id, rule, based_on=seen, keep_high_harm=True)

        run_op(self, work, self._saved, self._failed)

    def _saved(self, changed: BreakRuleChanged) -> None:
        self._set_busy(False)
        self.saved.emit(changed.queue_id, changed.config_version)
        self.accept()

    def _read_failed(self, err: BaseException) -> None:
        self.busy = False
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setEnabled(False)
        message = describe(err, during=translate("LeadBreaks", "reading the queues"))
        set_text(self.status, message.line())

    def _failed(self, err: BaseException) -> None:
        self._set_busy(False)
        if isinstance(err, ProblemError) and err.code == "breaks_changed":
            self._read_again()
            return
        message = describe(err, during=translate("LeadBreaks", "saving the break reminders"))
        set_text(self.status, message.line())

    def _read_again(self) -> None:
        """Another lead changed this queue's reminders while the dialog was open: nothing
        was saved; the queues are read again and the dialog shows the rule as it is now."""
        self._set_busy(True)
        words = translate(
            "LeadBreaks",
            "Someone else changed this queue's break reminders while this dialog was open: "
            "nothing was saved. Shown now as they are; change them again and save.",
        )
        set_text(self.status, words)
        factory = self.client_factory

        def read(queues: list[Queue]) -> None:
            self._queues_read(queues)
            set_text(self.status, words)

        run_op(self, lambda: factory().queues().queues, read, self._read_failed, key="reread")


def open_breaks(
    parent: QWidget,
    client_factory: Callable[[], ApiClient],
    view: QAbstractItemView,
    queues: Sequence[QueueStats],
    status: QLabel,
) -> BreaksDialog:
    """The dialog for the queue of ``queues`` selected in the Queues page's ``view`` (else
    the first), opened (never ``exec``); once saved, ``status`` says so."""
    index, model = view.currentIndex(), view.model()
    if index.isValid() and isinstance(model, QSortFilterProxyModel):
        index = model.mapToSource(index)
    row = index.row() if index.isValid() else -1
    queue_id = queues[row].queue_id if 0 <= row < len(queues) else None
    dialog = BreaksDialog(client_factory, queue_id, parent)

    def saved(queue: str, version: int) -> None:
        words = translate("LeadBreaks", "Break reminders of {queue} saved (configuration {n}).")
        name = next((q.name for q in dialog.queues if q.id == queue), queue)  # not its id
        set_text(status, words.format(queue=isolate(name), n=version))

    dialog.saved.connect(saved)
    dialog.open()
    return dialog
