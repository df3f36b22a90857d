"""The small windows: shortcuts (?), settings, conflicts, login."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core import settings as core_settings
from reviewer_app.core.store import Conflict, Store
from reviewer_app.protocol import Queue

from . import preferences as P
from .i18n import translate
from .keys import Keymap, shortcut_rows
from .models import ConflictsModel
from .plain import isolate, label, named, read_only_table, set_text
from .shortcuts_page import ShortcutsPage
from .theme import Tone, set_tone
from .words import code_words, local_time


def theme_name(theme: str) -> str:
    """A theme preference value in words."""
    return {
        "system": translate("Dialogs", "system"),
        "light": translate("Dialogs", "light"),
        "dark": translate("Dialogs", "dark"),
    }.get(theme, theme)


def language_name(language: str) -> str:
    """A language preference value in words (each language in its own name)."""
    return {
        "system": translate("Dialogs", "Same as the system"),
        "en": "English",
        "de": "Deutsch",
        "es": "Español",
    }.get(language, language)


class ShortcutsDialog(QDialog):
    """Every key and what it does (``rows``: made by ``keys.shortcut_rows`` from the one
    table of commands, with the user's own keys; the defaults without a window)."""

    def __init__(
        self, parent: QWidget | None = None, *, rows: list[tuple[str, str]] | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("Dialogs", "Keyboard shortcuts"))
        named(self, "shortcutsDialog", translate("Dialogs", "Keyboard shortcuts"))
        # one line a key, in a scroll area as high as the screen allows (the list outgrew a
        # 768 px screen; as a wrapped 200 px column it cut every description)
        body = QWidget()
        form = QFormLayout(body)
        for keys, what in rows if rows is not None else shortcut_rows(None):
            form.addRow(label(keys, wrap=False), label(what, wrap=False))
        area = QScrollArea()
        area.setWidget(body)
        area.setWidgetResizable(True)
        area.setFrameShape(QFrame.Shape.NoFrame)
        area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        outer = QVBoxLayout(self)
        outer.addWidget(area, 1)
        outer.addWidget(close)
        wanted = body.sizeHint()
        area.setMinimumWidth(wanted.width() + area.verticalScrollBar().sizeHint().width())
        screen = self.screen().availableGeometry() if self.screen() else None
        room = screen.height() - 120 if screen is not None else 600
        if parent is not None:  # no taller than the window it belongs to
            room = min(room, parent.window().height())
        self.resize(self.sizeHint().width(), min(wanted.height() + 80, max(room, 300)))


class SettingsDialog(QDialog):
    """Two pages: General (these settings, kept on OK) and, with a window's ``keymap``,
    Shortcuts (each key change kept at once)."""

    def __init__(
        self,
        prefs: P.Preferences,
        store: Store,
        parent: QWidget | None = None,
        *,
        keymap: Keymap | None = None,
        queues: Sequence[Queue] = (),
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("Dialogs", "Settings"))
        self.setObjectName("settingsDialog")
        self.prefs, self.store = prefs, store
        outer = QVBoxLayout(self)
        self.pages = QTabWidget()
        named(self.pages, "settingsPages", translate("Dialogs", "Settings pages"))
        general = QWidget()
        self.pages.addTab(general, translate("Dialogs", "General"))
        self.shortcuts: ShortcutsPage | None = None
        if keymap is not None:
            self.shortcuts = ShortcutsPage(keymap, queues)
            self.pages.addTab(self.shortcuts, translate("Dialogs", "Shortcuts"))
        outer.addWidget(self.pages, 1)
        self._build_general(general)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        outer.addWidget(buttons)

    def _build_general(self, general: QWidget) -> None:
        """The General page: the server, what is kept here, the look, the language."""
        form = QFormLayout(general)
        self.server = named(
            QLineEdit(self.prefs.get(P.SERVER)), "server", translate("Dialogs", "Server address")
        )
        self.prefetch = QSpinBox()
        decl = core_settings.PREFETCH
        self.prefetch.setRange(int(decl.minimum or 1), int(decl.maximum or 200))
        self.prefetch.setValue(self.store.settings.get(decl))
        named(self.prefetch, "prefetch", translate("Dialogs", "Items leased ahead"))
        self.undo = QDoubleSpinBox()
        decl_u = core_settings.UNDO_WINDOW
        self.undo.setRange(float(decl_u.minimum or 0), float(decl_u.maximum or 120))
        self.undo.setValue(self.store.settings.get(decl_u))
        self.undo.setSuffix(translate("Dialogs", " s"))
        named(self.undo, "undoWindow", translate("Dialogs", "Undo window in seconds"))
        self._build_look()
        form.addRow(translate("Dialogs", "Server (next login)"), self.server)
        form.addRow(
            translate(
                "Dialogs",
                "Items kept leased ahead in the queue being reviewed, so the next post is "
                "always local.",
            ),
            self.prefetch,
        )
        form.addRow(
            translate(
                "Dialogs",
                "Seconds a verdict stays on this computer, where it can be undone, before it "
                "is sent.",
            ),
            self.undo,
        )
        self.break_reminders = QCheckBox(
            translate("Dialogs", "Remind me to take breaks (after the queue's time or posts)")
        )
        named(self.break_reminders, "breakReminders", translate("Dialogs", "Break reminders"))
        self.break_reminders.setChecked(self.store.settings.get(core_settings.BREAK_REMINDERS))
        form.addRow(self.blur)
        form.addRow(self.grey)
        form.addRow(self.break_reminders)
        form.addRow(translate("Dialogs", "Theme"), self.theme)
        form.addRow(translate("Dialogs", "Text size (points)"), self.text_size)
        form.addRow(translate("Dialogs", "Language"), self.language)
        form.addRow(self.language_note)

    def _build_look(self) -> None:
        """Media, theme, text size and language (the user interface's, kept per computer)."""
        self.blur = QCheckBox(translate("Dialogs", "Blur media until I reveal it"))
        self.blur.setChecked(self.prefs.get(P.BLUR))
        self.grey = QCheckBox(translate("Dialogs", "Show media in greyscale until I reveal it"))
        self.grey.setChecked(self.prefs.get(P.GREY))
        self.theme = QComboBox()
        for theme in P.THEMES:
            self.theme.addItem(theme_name(theme), theme)
        self.theme.setCurrentIndex(max(0, self.theme.findData(self.prefs.get(P.THEME))))
        named(self.theme, "theme", translate("Dialogs", "Theme"))
        self.text_size = QSpinBox()
        self.text_size.setRange(7, 32)
        self.text_size.setValue(self.prefs.get(P.TEXT_SIZE))
        named(self.text_size, "textSize", translate("Dialogs", "Text size"))
        self.language = QComboBox()
        for language in P.LANGUAGES:
            self.language.addItem(language_name(language), language)
        self.language.setCurrentIndex(max(0, self.language.findData(self.prefs.get(P.LANGUAGE))))
        named(self.language, "language", translate("Dialogs", "Language"))
        self.language_note = label(
            translate("Dialogs", "A new language applies the next time you start the app.")
        )

    def accept(self) -> None:
        self.prefs.set(P.SERVER, self.server.text().strip())
        self.prefs.set(P.BLUR, self.blur.isChecked())
        self.prefs.set(P.GREY, self.grey.isChecked())
        self.prefs.set(P.THEME, self.theme.currentData())
        self.prefs.set(P.LANGUAGE, self.language.currentData())
        self.prefs.set(P.TEXT_SIZE, self.text_size.value())
        self.store.settings.set(core_settings.PREFETCH, self.prefetch.value())
        self.store.settings.set(core_settings.UNDO_WINDOW, float(self.undo.value()))
        self.store.settings.set(core_settings.BREAK_REMINDERS, self.break_reminders.isChecked())
        P.apply_look(self.prefs)
        super().accept()


def _decision_text(
    who: str, action: str, policies: list[str], rating: str | None, note: str | None, when: str
) -> str:
    lines = [
        who,
        translate("Dialogs", "Action: {action}").format(action=action),
        translate("Dialogs", "Policies: {policies}").format(
            policies=", ".join(policies) or translate("Dialogs", "none")
        ),
    ]
    if rating:
        lines.append(translate("Dialogs", "Fact-check rating: {rating}").format(rating=rating))
    lines.append(when)
    if note:
        lines.append(translate("Dialogs", "Note: {note}").format(note=isolate(note)))
    return "\n".join(lines)


class ConflictsView(QDialog):
    """Your decision beside the one that counts; accept it, or escalate to a lead."""

    resolved = Signal(str, str)  # key, resolution

    def __init__(self, store: Store, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("Dialogs", "Conflicts"))
        named(self, "conflictsView", translate("Dialogs", "Conflicts"))
        self.resize(900, 520)
        self.store = store
        #: the stored queues the conflicts' items are from, by id, read once a reload (the
        #: table asks for its cells' words at every paint)
        self._queues: dict[str, Queue | None] = {}
        self.model = ConflictsModel(self._action_words)
        self.table = read_only_table(
            QTableView(), "conflictsList", translate("Dialogs", "Conflicts list")
        )
        self.table.setModel(self.model)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.intro = label(
            translate(
                "Dialogs",
                "Someone else decided these posts before your verdict reached the server. "
                "Their decision counts. Accept it, or escalate the post to a lead if you think "
                "it is wrong.",
            )
        )
        self.post = label()
        named(self.post, "conflictPost", translate("Dialogs", "The post"))
        self.mine = QPlainTextEdit()
        self.mine.setReadOnly(True)
        named(self.mine, "yourDecision", translate("Dialogs", "Your decision"))
        self.theirs = QPlainTextEdit()
        self.theirs.setReadOnly(True)
        named(self.theirs, "theirDecision", translate("Dialogs", "The decision that counts"))
        self.accept_button = QPushButton(translate("Dialogs", "Accept their decision"))
        self.escalate_button = QPushButton(translate("Dialogs", "Escalate to a lead"))
        named(self.accept_button, "acceptTheirs", self.accept_button.text())
        named(self.escalate_button, "escalateConflict", self.escalate_button.text())
        for button in (self.accept_button, self.escalate_button):
            # neither is Enter's: a dialog makes its first button the default, and Enter in
            # the list accepted the other decision without a word
            button.setAutoDefault(False)
            button.setDefault(False)
        self.accept_button.clicked.connect(lambda: self._resolve("accepted"))
        self.escalate_button.clicked.connect(lambda: self._resolve("escalated"))
        sides = QHBoxLayout()
        sides.addWidget(self.mine)
        sides.addWidget(self.theirs)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.accept_button)
        buttons.addWidget(self.escalate_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.post)
        layout.addLayout(sides, 1)
        layout.addLayout(buttons)
        self.table.selectionModel().currentRowChanged.connect(self._on_row_current)
        self.reload()

    def reload(self) -> None:
        self._queues.clear()
        self.model.set_rows(self.store.conflicts())
        if self.model.rowCount():
            self.table.selectRow(0)
            self._on_row_current(self.model.index(0, 0))
        else:
            self._show(None)

    def _on_row_current(self, index: object) -> None:
        row = getattr(index, "row", lambda: -1)()
        self._show(self.model.rows[row] if 0 <= row < len(self.model.rows) else None)

    def _show(self, conflict: Conflict | None) -> None:
        enabled = conflict is not None
        self.accept_button.setEnabled(enabled)
        self.escalate_button.setEnabled(enabled)
        if conflict is None:
            set_text(self.post, translate("Dialogs", "No open conflicts."))
            self.mine.setPlainText("")
            self.theirs.setPlainText("")
            return
        text = (
            conflict.item.post.text[:500]
            if conflict.item
            else translate("Dialogs", "(post no longer stored)")
        )
        author = f"@{isolate(conflict.item.author.handle)}" if conflict.item else conflict.item_id
        set_text(self.post, f"{author}: {isolate(text)}")
        mine, theirs = conflict.mine, conflict.theirs
        queue = self._queue_of(conflict)
        ratings = queue.config.rating_labels() if queue else {}

        def rating_of(rating: str | None) -> str | None:
            return code_words(rating, ratings) if rating else None

        self.mine.setPlainText(
            _decision_text(
                translate("Dialogs", "Your decision"),
                self._action_words(conflict, mine.action),
                mine.policies,
                rating_of(mine.rating),
                mine.note,
                translate("Dialogs", "Decided {time}").format(time=local_time(mine.decided_at)),
            )
        )
        self.theirs.setPlainText(
            _decision_text(
                translate("Dialogs", "The decision that counts, by {reviewer}").format(
                    reviewer=isolate(theirs.reviewer)
                ),
                self._action_words(conflict, theirs.action),
                theirs.policies,
                rating_of(theirs.rating),
                theirs.note,
                translate("Dialogs", "Recorded {time}").format(time=local_time(theirs.decided_at)),
            )
        )

    def _action_words(self, conflict: Conflict, action: str) -> str:
        """``action`` by its label on the conflict's queue (its code in words when the queue
        is not stored here)."""
        queue = self._queue_of(conflict)
        return code_words(action, queue.config.action_labels() if queue else None)

    def _queue_of(self, conflict: Conflict) -> Queue | None:
        if conflict.item is None:
            return None
        queue_id = conflict.item.queue_id
        if queue_id not in self._queues:
            self._queues[queue_id] = self.store.queue(queue_id)
        return self._queues[queue_id]

    def _resolve(self, resolution: str) -> None:
        index = self.table.currentIndex()
        if not index.isValid():
            return
        key = self.model.rows[index.row()].key
        self.store.resolve_conflict(key, resolution)
        self.resolved.emit(key, resolution)
        self.reload()


class LoginDialog(QDialog):
    """Server, user, password. The login itself runs in the background (``attempt``); the
    dialog says what it is doing (``show_status``: logging in, or working offline when the
    server cannot be reached).

    ``locked``: a login again for a session that is open (after a 401, or when the server
    is back for a session that started with no network): server and user are fixed, and
    "Later" keeps working without a login (verdicts stay here until there is one)."""

    status_shown = Signal(str)  # what the dialog said it is doing (tests, accessibility)

    def __init__(
        self,
        prefs: P.Preferences,
        attempt: Callable[[str, str, str], None],
        parent: QWidget | None = None,
        *,
        locked: tuple[str, str] | None = None,
        intro: str = "",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(
            translate("Dialogs", "Log in again")
            if locked
            else translate("Dialogs", "Log in to the review desk")
        )
        self.setObjectName("reloginDialog" if locked else "loginDialog")
        self.prefs = prefs
        self.attempt = attempt
        self.locked = locked
        self.setMinimumWidth(480)  # room for what it says while it works
        form = QFormLayout(self)
        server, user = locked or (prefs.get(P.SERVER) or "https://", prefs.get(P.USERNAME))
        self.server = named(QLineEdit(server), "server", translate("Dialogs", "Server address"))
        self.username = named(QLineEdit(user), "username", translate("Dialogs", "User name"))
        if locked:
            for field in (self.server, self.username):
                field.setReadOnly(True)
                field.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.password = named(QLineEdit(), "password", translate("Dialogs", "Password"))
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.intro = named(label(intro), "loginIntro", translate("Dialogs", "Why"))
        self.intro.setVisible(bool(intro))
        self.status = named(label(""), "loginStatus", translate("Dialogs", "What is happening"))
        self.status.hide()
        self.error = named(label(""), "loginProblem", translate("Dialogs", "Login problem"))
        set_tone(self.error, Tone.error)
        self.error.hide()
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(
            translate("Dialogs", "Log in")
        )
        if locked:
            self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(
                translate("Dialogs", "Later")
            )
        self.buttons.accepted.connect(self._on_login_clicked)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.intro)
        form.addRow(translate("Dialogs", "Server"), self.server)
        form.addRow(translate("Dialogs", "User"), self.username)
        form.addRow(translate("Dialogs", "Password"), self.password)
        form.addRow(self.status)
        form.addRow(self.error)
        form.addRow(self.buttons)
        (self.password if self.username.text() else self.username).setFocus(
            Qt.FocusReason.OtherFocusReason
        )

    def _on_login_clicked(self) -> None:
        self.error.hide()
        self.buttons.setEnabled(False)  # one attempt at a time
        self.show_status(translate("Dialogs", "Logging in…"))
        self.attempt(self.server.text().strip(), self.username.text().strip(), self.password.text())

    def show_status(self, text: str) -> None:
        """What the dialog is doing now, in words (plain text)."""
        set_text(self.status, text)
        self.status.setVisible(bool(text))
        self.adjustSize()
        if text:
            self.status_shown.emit(text)

    def show_error(self, text: str) -> None:
        self.show_status("")
        set_text(self.error, text)
        self.error.setVisible(bool(text))
        self.adjustSize()
        self.buttons.setEnabled(True)

    def succeeded(self) -> None:
        if not self.locked:
            self.prefs.set(P.SERVER, self.server.text().strip())
            self.prefs.set(P.USERNAME, self.username.text().strip())
        self.password.clear()
        self.accept()
