"""Escalations with a reason: the picker E opens, and the words a lead reads about an
escalated item (above the post, in "Why queued" and in its history).

The picker is keyboard-first: the number keys 1 … 9 (or the arrows) choose a reason, Tab
reaches the note, Enter escalates, Esc cancels. Reasons and their labels come from the
queue's configuration (plain text, elided in the list with the whole text in the tooltip).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QListView,
    QListWidget,
    QListWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.protocol import ActionConfig, EscalationReason, ItemEscalation
from reviewer_app.protocol.common import MAX_NOTE

from .i18n import translate
from .plain import ago, isolate, label, named, set_text, tooltip
from .theme import Tone, set_tone
from .words import code_words, local_time

_DIGITS = {getattr(Qt.Key, f"Key_{n}").value: n for n in range(1, 10)}


class EscalationDialog(QDialog):
    """Why this post goes to a lead: one of the queue's reasons, and a note."""

    def __init__(
        self,
        action: ActionConfig,
        reasons: list[EscalationReason],
        parent: QWidget | None = None,
        *,
        note: str = "",
    ) -> None:
        super().__init__(parent)
        named(self, "escalationDialog", translate("Escalation", "Escalate to a lead"))
        self.setWindowTitle(translate("Escalation", "Escalate to a lead"))
        self.action = action
        self.reasons = reasons
        self.prompt = label(
            translate(
                "Escalation",
                "Why does this post need a lead? Pick a reason with its number or the arrows, "
                "add a note if it helps (Tab), then Enter. Esc cancels.",
            )
        )
        self.list = QListWidget(self)
        named(self.list, "escalationReasons", translate("Escalation", "Reasons"))
        # each reason whole, on as many lines as it takes: cut at the dialog's width with a
        # scroll bar sideways, its description could only be read in a tooltip
        self.list.setWordWrap(True)
        self.list.setResizeMode(QListView.ResizeMode.Adjust)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        for number, reason in enumerate(reasons, start=1):
            text = f"{number}  {isolate(reason.label)}"  # from the queue's configuration
            if reason.description:
                text += f" — {isolate(reason.description)}"
            entry = QListWidgetItem(text)  # an item's text is never rich text
            entry.setToolTip(tooltip(text))
            entry.setData(Qt.ItemDataRole.UserRole, reason.id)
            self.list.addItem(entry)
        self.list.setCurrentRow(0)
        self.list.installEventFilter(self)
        self.note = QLineEdit(self)
        named(self.note, "escalationNote", translate("Escalation", "Note for the lead"))
        self.note.setMaxLength(MAX_NOTE)
        self.note.setText(note)
        self.problem = label("")
        named(self.problem, "escalationProblem", translate("Escalation", "What is missing"))
        set_tone(self.problem, Tone.error)
        self.problem.hide()
        buttons = QDialogButtonBox(self)
        self.ok = buttons.addButton(
            translate("Escalation", "Escalate"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.ok.setDefault(True)
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.list.itemActivated.connect(lambda _item: self.accept())
        self.list.currentRowChanged.connect(lambda _row: self._placeholder())
        layout = QVBoxLayout(self)
        layout.addWidget(self.prompt)
        layout.addWidget(self.list, 1)
        layout.addWidget(self.note)
        layout.addWidget(self.problem)
        layout.addWidget(buttons)
        wide = max((self.list.fontMetrics().horizontalAdvance(e) for e in self._texts()), default=0)
        self.resize(max(520, min(wide + 60, 760)), 400)
        self._placeholder()
        self.list.setFocus(Qt.FocusReason.OtherFocusReason)

    def _texts(self) -> list[str]:
        return [e.text() for i in range(self.list.count()) if (e := self.list.item(i))]

    # --- what was chosen -------------------------------------------------------------------

    def reason(self) -> EscalationReason | None:
        row = self.list.currentRow()
        return self.reasons[row] if 0 <= row < len(self.reasons) else None

    def note_text(self) -> str:
        return self.note.text().strip()

    def needs_note(self) -> bool:
        reason = self.reason()
        return self.action.requires_note or (reason is not None and reason.requires_note)

    def _placeholder(self) -> None:
        self.note.setPlaceholderText(
            translate("Escalation", "Note for the lead (needed for this reason)")
            if self.needs_note()
            else translate("Escalation", "Note for the lead (optional)")
        )

    # --- keys --------------------------------------------------------------------------------

    def pick(self, number: int) -> bool:
        """Choose reason ``number`` (1-based), as its number key does."""
        if not 1 <= number <= len(self.reasons):
            return False
        self.list.setCurrentRow(number - 1)
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.list
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() in _DIGITS
            and event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
            == Qt.KeyboardModifier.NoModifier
        ):
            return self.pick(_DIGITS[event.key()])
        return super().eventFilter(watched, event)

    def accept(self) -> None:
        if self.reason() is None:
            self._refuse(translate("Escalation", "Pick a reason first."))
            return
        if self.needs_note() and not self.note_text():
            self._refuse(translate("Escalation", "This reason needs a note: say why, then Enter."))
            self.note.setFocus(Qt.FocusReason.OtherFocusReason)
            return
        super().accept()

    def _refuse(self, text: str) -> None:
        set_text(self.problem, text)
        self.problem.show()


# --- what a lead reads about an escalated item ---------------------------------------------


def reason_words(escalation: ItemEscalation) -> str:
    """The reason in words, isolated (its label as given), or that none was given."""
    if escalation.reason is None:
        return translate("Escalation", "no reason given")
    return isolate(escalation.reason_label or escalation.reason)


def escalation_lines(
    escalation: ItemEscalation | None, name_of: Callable[[str], str | None] | None = None
) -> list[str]:
    """Who escalated the item, when (in local time), from which queue (by its name:
    ``name_of``, the queue list's) and why; its note; the lead it is assigned to. Empty for
    an item no reviewer escalated."""
    if escalation is None or escalation.escalated_by is None:
        lines: list[str] = []
    else:
        at = escalation.escalated_at
        when = (
            translate("Escalation", "{ago} ({time})").format(ago=ago(at), time=local_time(at))
            if at is not None
            else ""
        )
        origin = escalation.from_queue_id
        name = name_of(origin) if name_of is not None and origin else None
        queue = isolate(name) if name else code_words(origin) if origin else "?"
        lines = [
            translate("Escalation", "Escalated by {who} {when} from {queue}: {reason}").format(
                who=isolate(escalation.escalated_by),
                when=when,
                queue=queue,
                reason=reason_words(escalation),
            )
        ]
        if escalation.note:
            lines.append(
                translate("Escalation", "Their note: {note}").format(note=isolate(escalation.note))
            )
    if escalation is not None and escalation.assigned_to:
        lines.append(
            translate("Escalation", "Assigned to {lead} by {by}").format(
                lead=isolate(escalation.assigned_to), by=isolate(escalation.assigned_by or "?")
            )
        )
    return lines
