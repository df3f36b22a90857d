"""The review window's keys: every key press goes through one table (``keys.Keymap``,
the user's own keys over it) to a command, with auto-repeat off; the panes and the context
tabs the keys move between."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTabBar,
    QWidget,
)

from reviewer_app.protocol import Queue

from .i18n import translate
from .keys import NATIVE, Binding, Command, event_chords
from .plain import isolate
from .queue_change import chord
from .verdict_bar import PolicyList
from .window_parts import WindowParts

log = logging.getLogger("ui")

if TYPE_CHECKING:
    from .main_window import MainWindow


class KeyFilter(QObject):
    """Turns key presses in the window into commands (``keys.Keymap``: one table of every
    key); repeats of a held key are dropped.

    It watches the window and the widget that has the keyboard focus in it (it follows the
    focus), where every key press of the window arrives before that widget handles it; not
    the whole application, where every event of every widget (each paint, each layout)
    would be a call into Python."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self._attached = False
        #: per queue id: the keys of the actions removed from it on the server (key, text
        #: and the action's label), which say so when pressed
        self.gone: dict[str, dict[tuple[int, int], tuple[str, str]]] = {}

    def forget(
        self, old: Queue, new: Queue, removed: dict[tuple[int, int], tuple[str, str]]
    ) -> None:
        """``old`` was configured anew as ``new``: its action keys are looked up afresh
        (the keymap keeps a table per queue id), and ``removed`` keys say they decide
        nothing there now (unless an action of ``new`` took one)."""
        self.window.keymap.forget(old.id)
        held = {chord(self.window.keymap.action_key(new.id, a)) for a in new.config.actions}
        gone = {**self.gone.get(old.id, {}), **removed}
        self.gone[old.id] = {k: v for k, v in gone.items() if k not in held}

    def _no_action(self, watched: QObject, event: QKeyEvent) -> bool:
        """A key with no command: a verdict key of an action removed from the queue on
        screen (or of another queue's action) says it decides nothing in this queue."""
        window = self.window
        queue = window.review.queue
        if (
            queue is None
            or window.tally.on_break is not None
            or event.isAutoRepeat()
            or window.on_lead_page()
            or not isinstance(watched, QWidget)
            or watched.window() is not window
            or _typing(window.focusWidget(), event)
            or _uses_keys(window.focusWidget(), event)
        ):
            return False
        pressed = event_chords(event)
        gone = self.gone.get(queue.id, {})
        found = next((gone[c] for c in pressed if c in gone), None)
        if found is not None:
            window.say(
                translate(
                    "MainWindow",
                    "Key {key} decides nothing in {queue}: its action {action} was removed "
                    "from this queue on the server.",
                ).format(key=found[0], queue=isolate(queue.name), action=isolate(found[1]))
            )
            return True
        for other in window.queues.queues:
            for action in other.config.actions:
                seq = window.keymap.action_key(other.id, action)
                if seq is not None and chord(seq) in pressed:
                    window.say(
                        translate(
                            "MainWindow",
                            "Key {key} decides nothing in {queue}: no action of this queue has it.",
                        ).format(key=seq.toString(NATIVE), queue=isolate(queue.name))
                    )
                    return True
        return False

    def _workspace_at_hand(self) -> bool:
        """The Lead workspace is shown and no blind audit in it (no post to judge): on a
        break it works by keyboard as it does by mouse, its own keys included; the review
        keys stay held (``WindowKeys.run_command``)."""
        window = self.window
        lead = window.lead
        return lead is not None and window.on_lead_page() and not lead.auditing

    def _on_break(self, event: QKeyEvent) -> bool:
        """On a break, where the review is (the Review page, a blind audit), only the
        break's own keys do anything: the break key ends it, the help key lists the keys,
        the break screen's button takes its own keys (Tab on the Review page reaches it),
        and the menu's keys (the pages, Quit) stay. No other key reaches the focused
        control: the queue list, focused before the break, chose another queue and took up
        its posts. Returns True (the key is used, or held)."""
        window = self.window
        if event.type() == QEvent.Type.ShortcutOverride:
            pressed = event_chords(event)
            menu = (seq for a in window.menu_actions.values() for seq in a.shortcuts())
            if any(chord(seq) in pressed for seq in menu):
                return False  # the menu's key: its action
            event.accept()  # no other shortcut fires: the key comes as a key press, held
            return True
        found = window.keymap.lookup(event, None)
        if found is not None and found[0].command in (Command.BREAK, Command.HELP):
            if not event.isAutoRepeat():
                window.run_command(found[0])
            return True
        screen = window.break_screen
        focus = window.focusWidget()
        if focus is not None and screen.isAncestorOf(focus):
            return False  # the Resume button's Space and Enter, Tab among its controls
        if event.key() in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab) and screen.isVisible():
            screen.resume.setFocus(Qt.FocusReason.TabFocusReason)
        return True

    def attach(self) -> None:
        """Start watching the window's keys (again)."""
        if self._attached:
            return
        self._attached = True
        self.window.installEventFilter(self)
        focus = self.window.focusWidget()
        if focus is not None:
            focus.installEventFilter(self)
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.connect(self._follow_focus)

    def detach(self) -> None:
        """Stop watching (the window closes)."""
        if not self._attached:
            return
        self._attached = False
        app = QApplication.instance()
        if isinstance(app, QApplication):
            app.focusChanged.disconnect(self._follow_focus)
        focus = self.window.focusWidget()
        if focus is not None:
            focus.removeEventFilter(self)
        self.window.removeEventFilter(self)

    def _follow_focus(self, old: QWidget | None, new: QWidget | None) -> None:
        if old is not None and old is not self.window:
            old.removeEventFilter(self)
        if new is not None and new is not self.window and new.window() is self.window:
            new.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in _KEY_EVENTS or not self.window.isActiveWindow():
            return False
        assert isinstance(event, QKeyEvent)
        if (
            self.window.tally.on_break is not None
            and isinstance(watched, QWidget)
            and watched.window() is self.window
            and not self._workspace_at_hand()
        ):
            return self._on_break(event)
        if kind != QEvent.Type.KeyPress:
            return False
        found = self.window.keymap.lookup(event, self.window.keyed_queue())
        if found is None:
            return self._no_action(watched, event)
        binding, safe_key = found
        if event.isAutoRepeat():
            return True  # a held key decides nothing
        if not isinstance(watched, QWidget) or watched.window() is not self.window:
            return False
        focus = self.window.focusWidget()
        if _opens_list(focus, event):
            return False  # a drop-down's own key: Alt+Down opens its list (not the next queue)
        typing = _typing(focus, event)
        spec = binding.spec
        if typing and not (spec is not None and spec.while_typing and safe_key):
            return False
        if typing and binding.command is Command.UNDO and _undoes_typing(focus):
            return False  # Ctrl+Z takes back the typing first, then the last verdict
        if binding.command is Command.REVEAL and (
            isinstance(focus, PolicyList | QPushButton) or _ticks(focus)
        ):
            return False  # Space ticks a policy or an account there, and presses a button
        return self.window.run_command(binding)


_BUTTON_KEYS = frozenset({Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Select})
_MOVES = frozenset(
    {
        Qt.Key.Key_Up,
        Qt.Key.Key_Down,
        Qt.Key.Key_Left,
        Qt.Key.Key_Right,
        Qt.Key.Key_Home,
        Qt.Key.Key_End,
        Qt.Key.Key_PageUp,
        Qt.Key.Key_PageDown,
    }
)


def _uses_keys(focus: QWidget | None, event: QKeyEvent) -> bool:
    """Whether the focused control acts on the key itself: a button's Space and Return; a
    list's or a box's moves, Space, Return and letters (its type-ahead); a tab bar's
    arrows. A key no command has goes to it then, not to "decides nothing in this queue";
    a digit (a verdict key, which no list's type-ahead is for) still says so."""
    key = Qt.Key(event.key())
    if isinstance(focus, QAbstractButton):
        return key in _BUTTON_KEYS
    if isinstance(focus, QTabBar):
        return key in _MOVES
    if isinstance(focus, QAbstractItemView | QComboBox):
        return key in _MOVES or key in _BUTTON_KEYS or event.text().isalpha()
    return False


def _opens_list(focus: QWidget | None, event: QKeyEvent) -> bool:
    """Whether the key is the focused drop-down's own: Alt+Down opens its list, as
    everywhere, and Alt+Up is its Up (they switched the queue, which left the lead
    workspace and claimed posts, and the list never opened)."""
    if not isinstance(focus, QComboBox):
        return False
    mods = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return mods == Qt.KeyboardModifier.AltModifier and event.key() in _LIST_KEYS


_LIST_KEYS = frozenset({Qt.Key.Key_Up, Qt.Key.Key_Down})
#: the key events the filter looks at: a shortcut's override (sent first) and the press
_KEY_EVENTS = frozenset({QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride})


def _typing(focus: QWidget | None, event: QKeyEvent) -> bool:
    """Whether the widget with the focus types the key (a text field, a number box)."""
    return focus is not None and (
        focus.inherits("QLineEdit")
        or (focus.inherits("QAbstractSpinBox") and _a_number_takes(event))
        or focus.inherits("QKeySequenceEdit")
        or (isinstance(focus, QPlainTextEdit) and not focus.isReadOnly())
        # an editable list's text is typed into the list itself ("]" in the lead's
        # assignee box changed tabs)
        or (isinstance(focus, QComboBox) and focus.isEditable())
    )


def _ticks(focus: QWidget | None) -> bool:
    """Whether Space ticks the current row of the focused list (the lead's linked
    accounts)."""
    if not isinstance(focus, QAbstractItemView):
        return False
    return bool(focus.currentIndex().flags() & Qt.ItemFlag.ItemIsUserCheckable)


def _undoes_typing(focus: QWidget | None) -> bool:
    """Whether the text box with the focus has typing of its own to take back (Ctrl+Z in
    the note undid the verdict before and wiped what was typed)."""
    if isinstance(focus, QComboBox):
        focus = focus.lineEdit()
    if isinstance(focus, QLineEdit):
        return focus.isUndoAvailable()
    if isinstance(focus, QPlainTextEdit):
        return focus.document().isUndoAvailable()
    return False


def _a_number_takes(event: QKeyEvent) -> bool:
    """Whether a number box uses the key: a digit, a sign or a separator; "]" is not one
    (a number box with the focus took it, and the next-tab key did nothing)."""
    text = event.text()
    return not text or not text.isprintable() or text.isdigit() or text in "+-.,"


class WindowKeys(WindowParts):
    """The review window's commands and panes (a part of ``MainWindow``)."""

    def run_command(self, binding: Binding | Command) -> bool:
        """One command from the key table. Returns True when the key was used."""
        if isinstance(binding, Command):
            binding = Binding(binding)
        command = binding.command
        lead = self.lead if self.lead is not None and self.on_lead_page() else None
        if self.tally.on_break is not None:
            # on a break only the break key (back to work) and the list of keys do anything
            # of the review; the lead workspace's own keys (its tabs) still move through it,
            # as its mouse does (``KeyFilter._workspace_at_hand``)
            if command is Command.BREAK:
                self.end_break()
            elif command is Command.HELP:
                self.show_help()
            elif lead is not None and not lead.auditing and command.queue_row is None:
                return lead.run_command(binding)
            return True
        row = command.queue_row
        if row is not None:  # from the lead workspace too
            return self.review_queue_at(row)
        if command is Command.HELP:
            self.show_help()
            return True
        if lead is not None:  # the next and previous queue are the Review page's keys
            return lead.run_command(binding)
        if command in (Command.NEXT_QUEUE, Command.PREVIOUS_QUEUE):
            step = 1 if command is Command.NEXT_QUEUE else -1
            count = self.queues.rowCount()
            return count > 0 and self.review_queue_at(
                (self.queue_picker.currentIndex() + step) % count
            )
        # the keys the audit desk shares: the verdict's, the panes' and the context tabs'
        used = self.pane.run_command(binding, side=self._worklist_focus)
        if used is not None:
            return used
        handlers: dict[Command, Callable[[], object]] = {
            Command.ESCALATE: self.pane.escalate,
            Command.SKIP: self.review.skip,
            Command.CANCEL: self._cancel,
            Command.UNDO: self.review.undo,
            Command.BREAK: lambda: self.take_break(prompted=self.break_reminder.isVisible()),
        }
        handler = handlers.get(command)
        if handler is None:
            return False
        handler()
        return True

    def on_lead_page(self) -> bool:
        return self.modes is not None and self.modes.currentWidget() is self.lead

    def keyed_queue(self) -> Queue | None:
        """The queue whose action keys are in force: the blind audit's on its desk."""
        if self.lead is not None and self.on_lead_page():
            return self.lead.keyed_queue()
        return self.review.queue

    def _worklist_focus(self) -> QWidget:
        """The worklist, the post on screen its current row, to take the focus (W, F6)."""
        row = self.worklist.row_of(self.review.current.item.id) if self.review.current else -1
        if row >= 0:
            self.worklist_view.setCurrentIndex(self.worklist.index(row, 0))
        return self.worklist_view

    def _on_worklist_row_chosen(self, row: int) -> None:
        """A post chosen in the worklist opens (the ones still waiting for a verdict)."""
        if 0 <= row < len(self.worklist.rows):
            self.review.open(self.worklist.rows[row].item_id)

    def _on_keymap_changed(self) -> None:
        """A key was given to another command: the menu and the verdict bar follow."""
        self._apply_menu_keys()
        queue = self.review.queue
        if queue is not None:
            self.verdicts.set_config(queue.config, keys=self.keymap.action_keys(queue))
            self.verdicts.set_item(self.review.current.item if self.review.current else None)
            self.verdicts.mark(None)
        if self.lead is not None:
            self.lead.keys_changed()

    def _cancel(self) -> None:
        self.review.cancel()
        self.setFocus(Qt.FocusReason.OtherFocusReason)
