"""Every key of the app in one table: each command (an enum) with its default keys and what
it does. The window's key filter, the menu's shortcuts, the shortcuts list (``?``) and the
Shortcuts page of the settings all read this table, so none of them drifts from the others.

A reviewer may give a command another key, and give a queue's action another key for that
queue only (the queue's configuration says the default). The keys are the reviewer's own on
that server (``preferences.ReviewerKeys``): another reviewer on the same computer account, or
a queue of the same id on another server, keeps the defaults.
A key already used by another command, or by another action of the same queue, is refused
with the command that holds it named (``KeyClash``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent, QKeySequence

from reviewer_app.protocol import ActionConfig, Queue

from . import preferences as P
from .i18n import QT_TRANSLATE_NOOP, translate
from .plain import isolate

PORTABLE = QKeySequence.SequenceFormat.PortableText
NATIVE = QKeySequence.SequenceFormat.NativeText


class Command(StrEnum):
    """What a key does. The values are stored in the preferences: never rename one."""

    ACTION = "action"  # a queue's action: the key comes from the queue's configuration
    ESCALATE = "escalate"
    SKIP = "skip"
    BREAK = "break"
    FOCUS_POLICY = "focus_policy"
    FOCUS_RATING = "focus_rating"
    FOCUS_NOTE = "focus_note"
    SUBMIT = "submit"
    CANCEL = "cancel"
    UNDO = "undo"
    REVEAL = "reveal"
    ENLARGE = "enlarge"
    QUEUE_1 = "queue_1"
    QUEUE_2 = "queue_2"
    QUEUE_3 = "queue_3"
    QUEUE_4 = "queue_4"
    QUEUE_5 = "queue_5"
    QUEUE_6 = "queue_6"
    QUEUE_7 = "queue_7"
    QUEUE_8 = "queue_8"
    QUEUE_9 = "queue_9"
    NEXT_QUEUE = "next_queue"
    PREVIOUS_QUEUE = "previous_queue"
    NEXT_PANE = "next_pane"
    PREVIOUS_PANE = "previous_pane"
    FOCUS_WORKLIST = "focus_worklist"
    FOCUS_POST = "focus_post"
    FOCUS_CONTEXT = "focus_context"
    FOCUS_VERDICTS = "focus_verdicts"
    NEXT_TAB = "next_tab"
    PREVIOUS_TAB = "previous_tab"
    WORK_OFFLINE = "work_offline"
    CONFLICTS = "conflicts"
    MY_DECISIONS = "my_decisions"
    SETTINGS = "settings"
    SHOW_REVIEW = "show_review"
    SHOW_LEAD = "show_lead"
    QUIT = "quit"
    HELP = "help"
    VIEW_1 = "view_1"
    VIEW_2 = "view_2"
    VIEW_3 = "view_3"
    VIEW_4 = "view_4"
    VIEW_5 = "view_5"
    VIEW_6 = "view_6"
    VIEW_7 = "view_7"
    VIEW_8 = "view_8"
    VIEW_9 = "view_9"

    @property
    def queue_row(self) -> int | None:
        """The queue list's row a QUEUE_n command switches to (0-based)."""
        return int(self.value[6:]) - 1 if self.value.startswith("queue_") else None

    @property
    def view_position(self) -> int | None:
        """The saved view a VIEW_n command opens (0-based, the Search tab's picker order)."""
        return int(self.value[5:]) - 1 if self.value.startswith("view_") else None


@dataclass(frozen=True)
class Spec:
    command: Command
    #: the default keys, in Qt's portable text ("Ctrl+Return")
    keys: tuple[str, ...]
    #: what it does (translated in the "Shortcuts" context)
    what: str
    #: a Qt shortcut (a menu action's, or the Lead workspace's): Qt's shortcut map triggers
    #: it, not the key filter
    menu: bool = False
    #: may fire while a text field has focus (only keys with Ctrl or Alt, Esc or F1…F35)
    while_typing: bool = False
    #: only leads and admins have it
    lead: bool = False


_QUEUE_WHAT = QT_TRANSLATE_NOOP("Shortcuts", "Switch to queue {n} of the queue list")
_VIEW_WHAT = QT_TRANSLATE_NOOP(
    "Shortcuts", "Lead workspace: open saved view {n} (the Search tab's picker)"
)

#: Every command, in the order the shortcuts list shows them.
COMMANDS: tuple[Spec, ...] = (
    Spec(Command.ESCALATE, ("E",), QT_TRANSLATE_NOOP("Shortcuts", "Escalate to a lead")),
    Spec(Command.SKIP, ("S",), QT_TRANSLATE_NOOP("Shortcuts", "Skip: give the post back")),
    Spec(
        Command.BREAK,
        ("B",),
        QT_TRANSLATE_NOOP(
            "Shortcuts", "Take a break: give back your posts and pause (the same key resumes)"
        ),
    ),
    Spec(
        Command.FOCUS_POLICY,
        ("P",),
        QT_TRANSLATE_NOOP("Shortcuts", "Choose policy codes (arrows move, Space ticks)"),
    ),
    Spec(
        Command.FOCUS_RATING, ("R",), QT_TRANSLATE_NOOP("Shortcuts", "Choose a fact-check rating")
    ),
    Spec(Command.FOCUS_NOTE, ("N",), QT_TRANSLATE_NOOP("Shortcuts", "Write a note")),
    Spec(
        Command.SUBMIT,
        ("Ctrl+Return", "Ctrl+Enter"),
        QT_TRANSLATE_NOOP("Shortcuts", "Submit the verdict waiting for a policy, rating or note"),
        while_typing=True,
    ),
    Spec(
        Command.CANCEL,
        ("Esc",),
        QT_TRANSLATE_NOOP("Shortcuts", "Cancel that verdict"),
        while_typing=True,
    ),
    Spec(
        Command.UNDO,
        ("Ctrl+Z",),
        QT_TRANSLATE_NOOP("Shortcuts", "Undo the last verdict (within its undo window)"),
        while_typing=True,
    ),
    Spec(Command.REVEAL, ("Space",), QT_TRANSLATE_NOOP("Shortcuts", "Reveal or hide the media")),
    Spec(
        Command.ENLARGE,
        ("V",),
        QT_TRANSLATE_NOOP(
            "Shortcuts", "View the media large (arrows: previous, next; + and -: zoom)"
        ),
    ),
    *(Spec(Command(f"queue_{n}"), (f"Alt+{n}",), _QUEUE_WHAT) for n in range(1, 10)),
    Spec(
        Command.NEXT_QUEUE,
        ("Alt+Down",),
        QT_TRANSLATE_NOOP("Shortcuts", "Switch to the next queue"),
    ),
    Spec(
        Command.PREVIOUS_QUEUE,
        ("Alt+Up",),
        QT_TRANSLATE_NOOP("Shortcuts", "Switch to the previous queue"),
    ),
    Spec(
        Command.NEXT_PANE,
        ("F6",),
        QT_TRANSLATE_NOOP(
            "Shortcuts", "Next pane: worklist, post, context, verdict bar (Shift: previous)"
        ),
        while_typing=True,
    ),
    Spec(
        Command.PREVIOUS_PANE,
        ("Shift+F6",),
        QT_TRANSLATE_NOOP("Shortcuts", "Previous pane"),
        while_typing=True,
    ),
    Spec(
        Command.FOCUS_WORKLIST,
        ("W",),
        QT_TRANSLATE_NOOP("Shortcuts", "Go to the worklist (arrows choose, that post opens)"),
    ),
    Spec(Command.FOCUS_POST, ("T",), QT_TRANSLATE_NOOP("Shortcuts", "Go to the post's text")),
    Spec(Command.FOCUS_CONTEXT, ("C",), QT_TRANSLATE_NOOP("Shortcuts", "Go to the context tabs")),
    Spec(Command.FOCUS_VERDICTS, ("D",), QT_TRANSLATE_NOOP("Shortcuts", "Go to the verdict bar")),
    Spec(
        Command.NEXT_TAB,
        ("]", "Ctrl+PgDown"),
        QT_TRANSLATE_NOOP("Shortcuts", "Next context tab (in the Lead workspace: its next tab)"),
        while_typing=True,
    ),
    Spec(
        Command.PREVIOUS_TAB,
        ("[", "Ctrl+PgUp"),
        QT_TRANSLATE_NOOP("Shortcuts", "Previous context tab (or Lead workspace tab)"),
        while_typing=True,
    ),
    Spec(
        Command.WORK_OFFLINE,
        ("Ctrl+O",),
        QT_TRANSLATE_NOOP("Shortcuts", "Work offline: lease a batch to review without a network"),
        menu=True,
    ),
    Spec(
        Command.CONFLICTS, ("Ctrl+K",), QT_TRANSLATE_NOOP("Shortcuts", "Open conflicts"), menu=True
    ),
    Spec(
        Command.MY_DECISIONS,
        ("Ctrl+Shift+D",),
        QT_TRANSLATE_NOOP(
            "Shortcuts", "My decisions: what became of yours (audits, appeals, leads' notes)"
        ),
        menu=True,
    ),
    Spec(
        Command.SETTINGS,
        ("Ctrl+,",),
        QT_TRANSLATE_NOOP("Shortcuts", "Settings (and this list's keys: Shortcuts)"),
        menu=True,
    ),
    Spec(
        Command.SHOW_REVIEW,
        ("Ctrl+1",),
        QT_TRANSLATE_NOOP("Shortcuts", "Review (leads and admins)"),
        menu=True,
        lead=True,
    ),
    Spec(
        Command.SHOW_LEAD,
        ("Ctrl+2",),
        QT_TRANSLATE_NOOP(
            "Shortcuts", "Lead workspace (Tab moves through it, Enter opens the row)"
        ),
        menu=True,
        lead=True,
    ),
    Spec(
        Command.QUIT,
        ("Ctrl+Q",),
        QT_TRANSLATE_NOOP("Shortcuts", "Quit (asks first if verdicts are not sent yet)"),
        menu=True,
    ),
    Spec(Command.HELP, ("?",), QT_TRANSLATE_NOOP("Shortcuts", "This list")),
    *(
        Spec(Command(f"view_{n}"), (f"Ctrl+Shift+{n}",), _VIEW_WHAT, menu=True, lead=True)
        for n in range(1, 10)
    ),
)
SPECS: dict[Command, Spec] = {spec.command: spec for spec in COMMANDS}


def what(spec: Spec) -> str:
    """What a command does, in the user's language."""
    text = translate("Shortcuts", spec.what)
    row = spec.command.queue_row
    if row is None:
        row = spec.command.view_position
    return text.format(n=row + 1) if row is not None else text


def action_what(action: ActionConfig) -> str:
    """What a queue's action key does, in words (the label is the queue's: isolated)."""
    return translate("Shortcuts", "Decide: {action}").format(action=isolate(action.label))


def key_text(keys: Sequence[QKeySequence]) -> str:
    """Keys as the user reads them ("Ctrl+Return / Ctrl+Enter"); "none" for no key."""
    return " / ".join(k.toString(NATIVE) for k in keys) or translate("Shortcuts", "none")


def sequence(text: str) -> QKeySequence:
    return QKeySequence.fromString(text, PORTABLE)


def _chord(seq: QKeySequence) -> tuple[int, int] | None:
    if seq.isEmpty():
        return None
    combo = seq[0]  # type: ignore[index]  # QKeySequence.operator[] (missing in the stubs)
    return (int(combo.key().value), int(combo.keyboardModifiers().value))


#: modifiers that say nothing about which command a key is
_IGNORED = Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.GroupSwitchModifier


def event_chords(event: QKeyEvent) -> list[tuple[int, int]]:
    """The chords a key press may stand for: as pressed, and for a symbol typed with Shift
    ("?" on most layouts), without the Shift."""
    key = event.key()
    mods = event.modifiers() & ~_IGNORED
    chords = [(key, int(mods.value))]
    shift = Qt.KeyboardModifier.ShiftModifier
    is_letter = Qt.Key.Key_A.value <= key <= Qt.Key.Key_Z.value
    is_special = key >= Qt.Key.Key_Escape.value
    if mods & shift and not is_letter and not is_special:
        chords.append((key, int((mods & ~shift).value)))
    return chords


def safe_while_typing(chord: tuple[int, int]) -> bool:
    """A key that types nothing into a text field (Ctrl or Alt held, Esc, F1…F35)."""
    key, mods = chord
    held = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
    function = Qt.Key.Key_F1.value <= key <= Qt.Key.Key_F35.value
    return bool(mods & held.value) or key == Qt.Key.Key_Escape.value or function


class KeyClash(ValueError):
    """A key refused for a command: ``message`` names the command that holds it."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Binding:
    """What a key press means: a command, and for ``ACTION`` the action's id."""

    command: Command
    action_id: str | None = None

    @property
    def spec(self) -> Spec | None:
        return SPECS.get(self.command)


def action_queue_id(queue: Queue | None) -> str:
    return queue.id if queue else ""


def _queue_key(queue_id: str, action_id: str) -> str:
    return f"queue/{queue_id}/{action_id}"


class Keymap(QObject):
    """The keys in force: the defaults of ``COMMANDS`` and of the queues' actions, with the
    reviewer's own keys over them (``username``'s on ``server``, kept with the preferences;
    read once, here: a key press reads no settings)."""

    changed = Signal()

    def __init__(
        self,
        prefs: P.Preferences,
        server: str,
        username: str,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.prefs = prefs
        self.own = P.ReviewerKeys(prefs, server, username)
        self._lookup: dict[str | None, dict[tuple[int, int], Binding]] = {}

    # --- what the keys are ------------------------------------------------------------------

    def keys(self, command: Command) -> tuple[QKeySequence, ...]:
        own = self.own.get(command.value)
        texts = (own,) if own is not None else SPECS[command].keys
        return tuple(s for s in (sequence(t) for t in texts if t) if not s.isEmpty())

    def is_default(self, command: Command) -> bool:
        return self.own.get(command.value) is None

    def forget(self, queue_id: str) -> None:
        """The queue was configured anew: its keys are looked up afresh at the next key."""
        self._lookup.pop(queue_id, None)

    def action_key(self, queue_id: str, action: ActionConfig) -> QKeySequence | None:
        """The key of a queue's action: the user's for that queue, else the queue's."""
        own = self.own.get(_queue_key(queue_id, action.id))
        text = own if own is not None else (action.key or "")
        seq = sequence(text) if text else QKeySequence()
        return None if seq.isEmpty() else seq

    def action_keys(self, queue: Queue) -> dict[str, str]:
        """Action id -> its key as the user reads it, for the verdict bar."""
        return {
            action.id: seq.toString(NATIVE)
            for action in queue.config.actions
            if (seq := self.action_key(queue.id, action)) is not None
        }

    def action_is_default(self, queue_id: str, action_id: str) -> bool:
        return self.own.get(_queue_key(queue_id, action_id)) is None

    def lookup(self, event: QKeyEvent, queue: Queue | None) -> tuple[Binding, bool] | None:
        """What ``event`` means with ``queue``'s actions in force, and whether its key may
        fire while a text field has focus."""
        table = self._table(queue)
        for chord in event_chords(event):
            binding = table.get(chord)
            if binding is not None:
                return binding, safe_while_typing(chord)
        return None

    def _table(self, queue: Queue | None) -> dict[tuple[int, int], Binding]:
        queue_id = queue.id if queue else None
        table = self._lookup.get(queue_id)
        if table is None:
            table = {}
            for spec in COMMANDS:
                if spec.menu:
                    continue  # the menu's QAction has it
                for seq in self.keys(spec.command):
                    if (chord := _chord(seq)) is not None:
                        table.setdefault(chord, Binding(spec.command))
            for action in queue.config.actions if queue else ():
                held = self.action_key(action_queue_id(queue), action)
                if held is not None and (chord := _chord(held)) is not None:
                    table[chord] = Binding(Command.ACTION, action.id)
            self._lookup[queue_id] = table
        return table

    # --- changing them --------------------------------------------------------------------

    def set_key(self, command: Command, seq: QKeySequence, queues: Iterable[Queue]) -> None:
        """Give ``command`` the key ``seq`` (its only key from now on); a key another
        command or an action of a queue holds is refused (``KeyClash``)."""
        self._check(seq, queues, own=(command, None, None))
        self.own.set(command.value, seq.toString(PORTABLE))
        self._changed()

    def set_action_key(
        self, queue: Queue, action_id: str, seq: QKeySequence, queues: Iterable[Queue]
    ) -> None:
        """Give ``queue``'s action ``action_id`` the key ``seq`` in that queue."""
        self._check(seq, queues, own=(None, queue.id, action_id))
        self.own.set(_queue_key(queue.id, action_id), seq.toString(PORTABLE))
        self._changed()

    def reset(self, command: Command, queues: Iterable[Queue] = ()) -> None:
        """``command``'s default keys back, unless another command holds one now."""
        queues = list(queues)
        for text in SPECS[command].keys:
            self._check(sequence(text), queues, own=(command, None, None))
        self.own.set(command.value, None)
        self._changed()

    def reset_action(self, queue: Queue, action_id: str, queues: Iterable[Queue] = ()) -> None:
        """The key the queue's configuration gives the action, unless another holds it."""
        action = queue.config.action(action_id)
        if action is not None and action.key:
            self._check(sequence(action.key), queues, own=(None, queue.id, action_id))
        self.own.set(_queue_key(queue.id, action_id), None)
        self._changed()

    def reset_all(self) -> None:
        self.own.clear()
        self._changed()

    def _changed(self) -> None:
        self._lookup.clear()
        self.changed.emit()

    def _check(
        self,
        seq: QKeySequence,
        queues: Iterable[Queue],
        own: tuple[Command | None, str | None, str | None],
    ) -> None:
        command, queue_id, action_id = own
        chord = _chord(seq)
        shown = seq.toString(NATIVE)
        if chord is None or seq.count() != 1:
            raise KeyClash(translate("Shortcuts", "Press one key, with or without modifiers."))
        if chord[0] in (
            Qt.Key.Key_Tab.value,
            Qt.Key.Key_Backtab.value,
            Qt.Key.Key_Return.value,
            Qt.Key.Key_Enter.value,
        ) and not (chord[1] & Qt.KeyboardModifier.ControlModifier.value):
            raise KeyClash(
                translate(
                    "Shortcuts", "{key} moves through the window and opens rows: choose another."
                ).format(key=shown)
            )
        for spec in COMMANDS:
            if spec.command is command:
                continue
            if any(_chord(k) == chord for k in self.keys(spec.command)):
                raise KeyClash(
                    translate("Shortcuts", "{key} is already the key of “{command}”.").format(
                        key=shown, command=what(spec)
                    )
                )
        for queue in queues:
            if command is not None or queue.id == queue_id:
                for action in queue.config.actions:
                    if queue.id == queue_id and action.id == action_id:
                        continue
                    held = self.action_key(queue.id, action)
                    if held is not None and _chord(held) == chord:
                        raise KeyClash(
                            translate(
                                "Shortcuts",
                                "{key} is already the key of the action “{action}” in the "
                                "queue {queue}.",
                            ).format(
                                key=shown, action=isolate(action.label), queue=isolate(queue.name)
                            )
                        )


def shortcut_rows(
    keymap: Keymap | None, queue: Queue | None = None, *, lead: bool = True
) -> list[tuple[str, str]]:
    """The shortcuts list (``?``): every command's keys and what it does, the queue's action
    keys first. Without a keymap (no window): the defaults."""
    rows: list[tuple[str, str]] = []
    if queue is not None and keymap is not None:
        for action in queue.config.actions:
            seq = keymap.action_key(queue.id, action)
            rows.append((key_text([seq] if seq else []), action_what(action)))
    elif queue is None:
        rows.append(
            (
                translate("Shortcuts", "1 … 9"),
                translate("Shortcuts", "Decide with the action that shows this key"),
            )
        )
    for spec in COMMANDS:
        if spec.lead and not lead:
            continue
        keys = keymap.keys(spec.command) if keymap else tuple(sequence(k) for k in spec.keys)
        rows.append((key_text(keys), what(spec)))
    return rows
