"""The Shortcuts page of the settings: every command with its key, and each queue's actions
with theirs. Enter on a row waits for the new key; a key another command holds is refused
with that command named; a key or all keys go back to their defaults. Each change is kept
at once (the reviewer's own, on that server: ``preferences.ReviewerKeys``) and the window
follows it."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QKeySequenceEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.protocol import Queue

from .i18n import translate
from .keys import COMMANDS, Command, KeyClash, Keymap, action_what, key_text, what
from .plain import isolate, label, named, read_only_table, set_text, tooltip
from .theme import Tone, set_tone

#: a row: ("command", Command) or ("action", queue id, action id)
Row = tuple[str, ...]


class CommandsTable(QTableWidget):
    """Enter waits for a new key (and is not passed on to the dialog's OK)."""

    enter_pressed = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not event.modifiers():
            event.accept()
            self.enter_pressed.emit()
            return
        super().keyPressEvent(event)


class ShortcutsPage(QWidget):
    def __init__(
        self, keymap: Keymap, queues: Sequence[Queue], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        named(self, "shortcutsPage", translate("Shortcuts", "Shortcuts"))
        self.keymap = keymap
        self.queues = list(queues)
        self.rows: list[Row] = [("command", spec.command.value) for spec in COMMANDS]
        for queue in self.queues:
            self.rows += [("action", queue.id, action.id) for action in queue.config.actions]
        self.table = read_only_table(
            CommandsTable(len(self.rows), 2),
            "shortcutsTable",
            translate("Shortcuts", "Commands and their keys"),
        )
        self.table.setHorizontalHeaderLabels(
            [translate("Shortcuts", "Command"), translate("Shortcuts", "Key")]
        )
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # the keys whole ("Ctrl+Return / Ctrl+Enter"): a fixed 180 px cut the longer ones
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMinimumHeight(self.table.verticalHeader().defaultSectionSize() * 12)
        self.table.enter_pressed.connect(self.capture)
        self.table.doubleClicked.connect(lambda _index: self.capture())
        self.prompt = label(
            translate(
                "Shortcuts",
                "Choose a command and press Enter, then the new key. Tab leaves the key field.",
            )
        )
        named(self.prompt, "shortcutPrompt", translate("Shortcuts", "What to do"))
        self.edit = QKeySequenceEdit()
        self.edit.setMaximumSequenceLength(1)
        named(self.edit, "newShortcut", translate("Shortcuts", "New key"))
        self.edit.editingFinished.connect(self._on_key_captured)
        self.status = label("")
        named(self.status, "shortcutStatus", translate("Shortcuts", "Last change"))
        self.reset_button = QPushButton(translate("Shortcuts", "Reset this key"))
        named(self.reset_button, "resetShortcut", self.reset_button.text())
        self.reset_button.clicked.connect(self.reset_current)
        self.reset_all_button = QPushButton(translate("Shortcuts", "Reset all keys"))
        named(self.reset_all_button, "resetAllShortcuts", self.reset_all_button.text())
        self.reset_all_button.clicked.connect(self.reset_all)
        buttons = QHBoxLayout()
        buttons.addWidget(label(translate("Shortcuts", "New key:"), wrap=False))
        buttons.addWidget(self.edit, 1)
        buttons.addWidget(self.reset_button)
        buttons.addWidget(self.reset_all_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.prompt)
        layout.addLayout(buttons)
        layout.addWidget(self.status)
        QWidget.setTabOrder(self.table, self.edit)
        self.fill()
        self.table.setCurrentCell(0, 0)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)  # the page opens on its list

    # --- what is shown --------------------------------------------------------------------

    def _queue(self, queue_id: str) -> Queue:
        return next(q for q in self.queues if q.id == queue_id)

    def describe(self, row: Row) -> str:
        """A row's command in words."""
        if row[0] == "command":
            spec = next(s for s in COMMANDS if s.command.value == row[1])
            return what(spec)
        queue = self._queue(row[1])
        action = queue.config.action(row[2])
        assert action is not None
        return translate("Shortcuts", "{queue}: {action}").format(
            queue=isolate(queue.name), action=action_what(action)
        )

    def key_of(self, row: Row) -> str:
        if row[0] == "command":
            command = Command(row[1])
            text = key_text(self.keymap.keys(command))
            own = not self.keymap.is_default(command)
        else:
            queue = self._queue(row[1])
            action = queue.config.action(row[2])
            assert action is not None
            seq = self.keymap.action_key(queue.id, action)
            text = key_text([seq] if seq else [])
            own = not self.keymap.action_is_default(queue.id, action.id)
        return text + (" " + translate("Shortcuts", "(yours)") if own else "")

    def fill(self) -> None:
        for index, row in enumerate(self.rows):
            for column, text in enumerate((self.describe(row), self.key_of(row))):
                cell = self.table.item(index, column)
                if cell is None:
                    cell = QTableWidgetItem()
                    self.table.setItem(index, column, cell)
                cell.setText(text)  # a table cell is plain text
                cell.setToolTip(tooltip(text))  # a tooltip guesses HTML: never ours

    def current_row(self) -> Row | None:
        index = self.table.currentRow()
        return self.rows[index] if 0 <= index < len(self.rows) else None

    # --- changing a key -------------------------------------------------------------------

    def capture(self) -> None:
        """Wait for the new key of the chosen row."""
        row = self.current_row()
        if row is None:
            return
        self.edit.clear()
        set_text(
            self.prompt,
            translate("Shortcuts", "Press the new key for “{command}”.").format(
                command=self.describe(row)
            ),
        )
        self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def _on_key_captured(self) -> None:
        seq = self.edit.keySequence()
        row = self.current_row()
        if row is None or seq.isEmpty():
            return
        self.assign(row, seq)

    def assign(self, row: Row, seq: QKeySequence) -> bool:
        """Give ``row``'s command the key ``seq``; says what happened (or which command
        holds the key). Returns True when the key was taken."""
        try:
            if row[0] == "command":
                self.keymap.set_key(Command(row[1]), seq, self.queues)
            else:
                self.keymap.set_action_key(self._queue(row[1]), row[2], seq, self.queues)
        except KeyClash as clash:
            self.edit.clear()
            self._refused(clash)
            return False
        set_tone(self.status, None)
        set_text(
            self.status,
            translate("Shortcuts", "{key} is now the key of “{command}”.").format(
                key=seq.toString(QKeySequence.SequenceFormat.NativeText),
                command=self.describe(row),
            ),
        )
        self.fill()
        self.table.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def _refused(self, clash: KeyClash) -> None:
        set_tone(self.status, Tone.error)
        set_text(self.status, clash.message + " " + translate("Shortcuts", "Nothing was changed."))

    def reset_current(self) -> None:
        row = self.current_row()
        if row is None:
            return
        try:
            if row[0] == "command":
                self.keymap.reset(Command(row[1]), self.queues)
            else:
                self.keymap.reset_action(self._queue(row[1]), row[2], self.queues)
        except KeyClash as clash:
            self._refused(clash)
            return
        set_tone(self.status, None)
        set_text(
            self.status,
            translate("Shortcuts", "“{command}” has its default key again.").format(
                command=self.describe(row)
            ),
        )
        self.fill()

    def reset_all(self) -> None:
        self.keymap.reset_all()
        set_tone(self.status, None)
        set_text(self.status, translate("Shortcuts", "Every key is back to its default."))
        self.fill()
