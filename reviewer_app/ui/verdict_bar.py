"""The verdict bar, built from the queue's decision config: a button per action with its
key, policy codes and fact-check ratings selectable by keyboard, a note, and an inline
prompt when the chosen action needs something more (never a modal dialog)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.protocol import ActionConfig, QueueConfig

from .i18n import translate
from .plain import clean, label, named, set_text, tooltip


class NoteEdit(QPlainTextEdit):
    """The note; Ctrl+Enter submits instead of adding a line."""

    submit_requested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.submit_requested.emit()
            return
        super().keyPressEvent(event)


class PolicyList(QListWidget):
    """Policy codes as checkable rows: arrows move, Space or Enter ticks."""

    def keyPressEvent(self, event: QKeyEvent) -> None:
        item = self.currentItem()
        if (
            item is not None
            and event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and not event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            checked = item.checkState() == Qt.CheckState.Checked
            item.setCheckState(Qt.CheckState.Unchecked if checked else Qt.CheckState.Checked)
            return
        super().keyPressEvent(event)


class VerdictBar(QWidget):
    action_chosen = Signal(str)
    submit_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        named(self, "verdictBar", translate("VerdictBar", "Verdict"))
        self.config: QueueConfig | None = None
        outer = QVBoxLayout(self)
        self.prompt = label("")
        named(self.prompt, "verdictPrompt", translate("VerdictBar", "What the verdict still needs"))
        self.prompt.setStyleSheet("font-weight: bold; color: #b35900")
        self.prompt.hide()
        self.buttons_row = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        details = QGridLayout()
        self.policies = PolicyList()
        named(
            self.policies,
            "policyCodes",
            translate("VerdictBar", "Policy codes (P; arrows, Space to tick)"),
        )
        self.policies.setMaximumHeight(110)
        self.rating = QComboBox()
        named(self.rating, "rating", translate("VerdictBar", "Fact-check rating (R)"))
        self.note = NoteEdit()
        named(self.note, "note", translate("VerdictBar", "Note (N; Ctrl+Enter submits)"))
        self.note.setPlaceholderText(
            translate("VerdictBar", "Note (N to write, Ctrl+Enter to submit)")
        )
        self.note.setMaximumHeight(70)
        self.note.setTabChangesFocus(True)
        self.note.submit_requested.connect(self.submit_requested)
        self.policy_label = label(translate("VerdictBar", "Policy codes (P):"), wrap=False)
        self.rating_label = label(translate("VerdictBar", "Rating (R):"), wrap=False)
        details.addWidget(self.policy_label, 0, 0)
        details.addWidget(self.policies, 1, 0)
        details.addWidget(self.rating_label, 0, 1)
        details.addWidget(self.rating, 1, 1, Qt.AlignmentFlag.AlignTop)
        details.addWidget(label(translate("VerdictBar", "Note (N):"), wrap=False), 0, 2)
        details.addWidget(self.note, 1, 2)
        details.setColumnStretch(2, 1)
        outer.addWidget(self.prompt)
        outer.addLayout(self.buttons_row)
        outer.addLayout(details)

    def set_config(self, config: QueueConfig | None) -> None:
        self.config = config
        for button in self.buttons.values():
            button.deleteLater()
        self.buttons = {}
        while self.buttons_row.count():
            self.buttons_row.takeAt(0)
        self.policies.clear()
        self.rating.clear()
        if config is None:
            return
        for action in config.actions:
            key = f"{action.key} " if action.key else ""
            extra = "E" if action.kind.value == "escalate" else ""
            name = clean(action.label)
            text = f"{key}{name}" + (f"  ({extra})" if extra else "")
            button = QPushButton(text.replace("&", "&&"))  # a "&" is shown, not a mnemonic
            button.setObjectName(f"action:{action.id}")
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys decide; focus stays put
            needs = [
                word
                for flag, word in (
                    (action.requires_policy, translate("VerdictBar", "a policy code")),
                    (action.requires_rating, translate("VerdictBar", "a rating")),
                    (action.requires_note, translate("VerdictBar", "a note")),
                )
                if flag
            ]
            button.setAccessibleName(
                translate("VerdictBar", "{action}, key {key}").format(
                    action=name, key=action.key or translate("VerdictBar", "none")
                )
                + (
                    translate("VerdictBar", ", needs {what}").format(
                        what=translate("VerdictBar", " and ").join(needs)
                    )
                    if needs
                    else ""
                )
            )
            button.setToolTip(tooltip(button.accessibleName()))  # tooltips guess HTML
            button.clicked.connect(lambda _=False, a=action.id: self.action_chosen.emit(a))
            self.buttons_row.addWidget(button)
            self.buttons[action.id] = button
        for policy in config.policies:
            row = QListWidgetItem(f"{policy.code} — {clean(policy.label)}")
            row.setData(Qt.ItemDataRole.UserRole, policy.code)
            row.setFlags(row.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            row.setCheckState(Qt.CheckState.Unchecked)
            self.policies.addItem(row)
        self.rating.addItem(translate("VerdictBar", "(no rating)"), None)
        for rating in config.ratings:
            self.rating.addItem(clean(rating.label), rating.id)
        has_policies, has_ratings = bool(config.policies), bool(config.ratings)
        self.policies.setVisible(has_policies)
        self.policy_label.setVisible(has_policies)
        self.rating.setVisible(has_ratings)
        self.rating_label.setVisible(has_ratings)

    def reset(self) -> None:
        for index in range(self.policies.count()):
            self.policies.item(index).setCheckState(Qt.CheckState.Unchecked)
        self.policies.setCurrentRow(0 if self.policies.count() else -1)
        self.rating.setCurrentIndex(0)
        self.note.clear()
        self.ask("")

    def selected_policies(self) -> list[str]:
        return [
            self.policies.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.policies.count())
            if self.policies.item(i).checkState() == Qt.CheckState.Checked
        ]

    def selected_rating(self) -> str | None:
        value = self.rating.currentData()
        return str(value) if value else None

    def note_text(self) -> str:
        return self.note.toPlainText().strip()

    def missing(self, action: ActionConfig) -> list[str]:
        needs = []
        if action.requires_policy and not self.selected_policies():
            needs.append("policy")
        if action.requires_rating and not self.selected_rating():
            needs.append("rating")
        if action.requires_note and not self.note_text():
            needs.append("note")
        return needs

    def ask(self, text: str) -> None:
        set_text(self.prompt, text)
        self.prompt.setVisible(bool(text))

    def focus_for(self, need: str) -> None:
        widget = {"policy": self.policies, "rating": self.rating, "note": self.note}[need]
        widget.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def mark(self, action_id: str | None) -> None:
        for key, button in self.buttons.items():
            font = button.font()
            font.setBold(key == action_id)
            button.setFont(font)
