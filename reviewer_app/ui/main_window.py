"""The review window: queue picker, worklist, the post with its context and scores, the
verdict bar and the status bar. Keys go through one table (``keys.COMMANDS``, with the
user's own keys over it) with auto-repeat off.

Everything here runs on the GUI thread and touches only the local store; the network is
the sync engine's, whose events arrive through ``SyncBridge`` signals.
"""

from __future__ import annotations

import functools
import itertools
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core import events as ev
from reviewer_app.core import settings as core_settings
from reviewer_app.core.bulk import Candidate
from reviewer_app.core.session import ReviewSession
from reviewer_app.core.store import JournalEntry, StoredItem
from reviewer_app.core.wellbeing import ShiftTally
from reviewer_app.protocol import ActionConfig, EscalationReason, Queue, Role

from . import preferences as P
from .accounts import resolved_words
from .background import run_op
from .bridge import SyncBridge
from .dialogs import ConflictsView, LoginDialog, SettingsDialog, ShortcutsDialog
from .escalation import EscalationDialog
from .i18n import translate
from .keys import Binding, Command, Keymap, key_text, shortcut_rows
from .lead.bulk import BulkDecisionDialog, BulkSender, load_author_posts
from .lead.workspace import LeadWorkspace
from .messages import (
    describe,
    failure_sentence,
    held_until_words,
    offline_batch_ended,
    pending_words,
    sync_problem,
)
from .models import QueueListModel, WorklistModel
from .my_decisions import FeedbackBar, MyDecisionsView
from .plain import bounded, isolate, label, named, set_text
from .review import ReviewController, StoreSink
from .review_pane import ReviewPane
from .verdict_bar import PolicyList
from .wellbeing import BreakReminder, BreakScreen
from .words import plural

log = logging.getLogger("ui")

#: Work deferred until the next post is painted runs at the latest this long after.
AFTER_PAINT_MS = 100
#: The reason code of a verdict the service refused because the platform withdrew the post.
WITHDRAWN = "withdrawn"
#: ... and because an account action closed the item (its author suspended or inauthentic)
AUTHOR_ACTIONED = "author_actioned"


def _author_status(entry: JournalEntry) -> str | None:
    reason = entry.result.reason if entry.result else None
    return reason.author_status.value if reason and reason.author_status else None


def _reason_code(entry: JournalEntry) -> str | None:
    reason = entry.result.reason if entry.result else None
    return reason.code if reason else None


def while_open(method: Callable[..., None]) -> Callable[..., None]:
    """A slot that does nothing once the session has ended: events queued before the end
    may still arrive after the store is closed."""

    @functools.wraps(method)
    def guarded(self: MainWindow, *args: Any) -> None:
        if self.is_open:
            method(self, *args)

    return guarded


class KeyFilter(QObject):
    """Turns key presses in the window into commands (``keys.Keymap``: one table of every
    key); repeats of a held key are dropped."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.KeyPress or not self.window.isActiveWindow():
            return False
        assert isinstance(event, QKeyEvent)
        found = self.window.keymap.lookup(event, self.window.keyed_queue())
        if found is None:
            return False
        binding, safe_key = found
        if event.isAutoRepeat():
            return True  # a held key decides nothing
        if not isinstance(watched, QWidget) or watched.window() is not self.window:
            return False
        focus = self.window.focusWidget()
        typing = focus is not None and (
            focus.inherits("QLineEdit")
            or focus.inherits("QAbstractSpinBox")
            or focus.inherits("QKeySequenceEdit")
            or (isinstance(focus, QPlainTextEdit) and not focus.isReadOnly())
        )
        spec = binding.spec
        if typing and not (spec is not None and spec.while_typing and safe_key):
            return False
        if binding.command is Command.REVEAL and isinstance(focus, PolicyList | QPushButton):
            return False  # Space ticks a policy there, and presses a focused button
        return self.window.run_command(binding)


class WorklistView(QTableView):
    """The worklist: arrows (or a click) choose a post and that post opens."""

    row_chosen = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        before = self.currentIndex().row()
        super().keyPressEvent(event)
        after = self.currentIndex().row()
        if after >= 0 and (after != before or event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):
            self.row_chosen.emit(after)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        super().mousePressEvent(event)
        if self.currentIndex().isValid():
            self.row_chosen.emit(self.currentIndex().row())


class MainWindow(QMainWindow):
    def __init__(
        self,
        session: ReviewSession,
        bridge: SyncBridge,
        prefs: P.Preferences,
        *,
        keyring_note: str | None = None,
    ) -> None:
        super().__init__()
        self.session = session
        self.store = session.store
        self.bridge = bridge
        self.prefs = prefs
        # a name from the server: bidi controls shown as markers, never obeyed, in the title
        self.setWindowTitle(
            translate("MainWindow", "Review desk — {name} on {server}").format(
                name=isolate(session.user.display_name, wrap=False), server=session.server_url
            )
        )
        named(self, "reviewWindow", translate("MainWindow", "Review desk"))
        self.resize(1280, 860)
        self.online: bool | None = None
        self.pending = 0
        #: of the pending verdicts, those waiting because another reviewer holds the post
        self.held = 0
        self.held_until: float | None = None
        #: the service wants a login (a 401, or it is back for a session that has none)
        self.needs_login = False
        self.relogin: LoginDialog | None = None
        self.conflict_count = 0
        #: what the banner shows ("conflicts" while it counts them; "" otherwise)
        self._banner_kind = ""
        # the last good sync, from before this start if there was one
        self.last_sync: float | None = self.store.last_sync()
        self.paint_started: float | None = None
        self.conflicts_view: ConflictsView | None = None
        #: "this shift" in My decisions: since this window opened
        self.shift_start = datetime.now(UTC)
        self.my_decisions_view: MyDecisionsView | None = None
        #: the open escalation reason picker (E), if any
        self.escalation_dialog: EscalationDialog | None = None
        #: queues being worked that have nothing for this reviewer (the engine's word)
        self.drained: set[str] = set()
        self.is_open = True
        #: every key in force (the table's, the queues', and the user's own)
        self.keymap = Keymap(prefs, self)
        self.menu_actions: dict[Command, QAction] = {}

        # Work a keypress causes beyond showing the next post (waking the sync thread, the
        # worklist and status bar) waits until that post is painted: ``_later``.
        self._after_paint: list[Callable[[], None]] = []
        self._after_paint_timer = QTimer(self)
        self._after_paint_timer.setSingleShot(True)
        self._after_paint_timer.timeout.connect(self._run_after_paint)
        #: this shift's items by kind of harm, for break reminders (the service keeps the
        #: record the lead sees)
        self.tally = ShiftTally()
        #: the reviewer's own setting (read again after Settings)
        self.break_reminders: bool = session.store.settings.get(core_settings.BREAK_REMINDERS)
        #: the queue on screen when the break began (reviewed again on resume)
        self._break_queue: str | None = None
        self.review = ReviewController(
            StoreSink(self.store, nudge=lambda: self._later(session.engine.nudge))
        )
        self._build(keyring_note)
        self._connect()
        self.key_filter = KeyFilter(self)
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self.key_filter)  # sees keys before the focused widget does
        self.queues.set_queues(self.store.queues())
        self.media_defaults()
        self._timer = QTimer(self)
        self._timer.setInterval(1000)
        self._timer.timeout.connect(self._on_timer_tick)
        self._timer.start()
        if self.queues.rowCount():
            self._select_queue(0)
        # what waits to be sent from an earlier session, shown from the start (not once the
        # sync thread's first pass reports it)
        self._count_pending()
        # overturns and leads' notes since the reviewer last looked (off the GUI thread)
        QTimer.singleShot(0, lambda: self.feedback_bar.check(self.session.client))

    # --- building -------------------------------------------------------------------------

    def _build(self, keyring_note: str | None) -> None:
        central = QWidget()
        outer = QVBoxLayout(central)
        self.banner = label("")
        named(self.banner, "banner", translate("MainWindow", "Notice"))
        self.banner.setStyleSheet("background: #fff3cd; color: #5c4400; padding: 6px")
        self.banner.setVisible(False)
        top = QHBoxLayout()
        self.queue_picker = bounded(QComboBox())
        named(self.queue_picker, "queuePicker", translate("MainWindow", "Queue"))
        self.queues = QueueListModel()
        self.queue_picker.setModel(self.queues)
        self.queue_picker.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
        self.offline_button = QPushButton(translate("MainWindow", "Work offline…"))
        named(
            self.offline_button,
            "workOffline",
            translate("MainWindow", "Work offline: lease a batch (Ctrl+O)"),
        )
        self.offline_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.offline_button.clicked.connect(self.work_offline)
        top.addWidget(label(translate("MainWindow", "Queue:"), wrap=False))
        top.addWidget(self.queue_picker, 1)
        top.addWidget(self.offline_button)

        self.worklist = WorklistModel()
        self.worklist_view = WorklistView()
        self.worklist_view.setModel(self.worklist)
        named(self.worklist_view, "worklist", translate("MainWindow", "Worklist (W)"))
        self.worklist_view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.worklist_view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.worklist_view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.worklist_view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.worklist_view.setTabKeyNavigation(False)  # Tab leaves it, as in the other panes
        header = self.worklist_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # never ResizeToContents
        # the Item column (author and first words) takes what the others leave; they are as
        # wide as their header and their longest usual word, in the font in use
        metrics = self.worklist_view.fontMetrics()
        for column, sample in ((1, "to review"), (2, "99:59"), (3, "sent")):
            title = str(self.worklist.headerData(column, Qt.Orientation.Horizontal))
            wide = max(metrics.horizontalAdvance(title), metrics.horizontalAdvance(sample))
            header.resizeSection(column, wide + 14)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(metrics.horizontalAdvance("Item") + 28)
        rows = self.worklist_view.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self._fit_rows()
        rows.hide()

        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.worklist_view)
        # the post, its scores and context, and the verdict bar: the audit desk's too
        self.pane = ReviewPane(
            self.review,
            side=left,
            client_factory=self.session.client if self.session.is_lead else None,
        )
        self.post, self.scores, self.context = self.pane.post, self.pane.scores, self.pane.context
        self.verdicts = self.pane.verdicts
        self.scores_heading = self.pane.scores_heading
        self.review_split = self.pane.split
        self.context.linked.accounts_actioned.connect(self._on_accounts_actioned)
        self.context.linked.bulk_requested.connect(self._on_linked_bulk_requested)
        # a lead's bulk decisions: held for the undo window, then sent (lead/bulk.py)
        self.bulk_sender: BulkSender | None = None
        self.bulk_dialog: BulkDecisionDialog | None = None
        if self.session.is_lead:
            self.bulk_sender = BulkSender(self.store, self.session.client, self)
            self.bulk_sender.recorded.connect(self._on_bulk_sender_recorded)
            self.bulk_sender.refused.connect(self._on_bulk_sender_refused)
            # held when the app was closed or killed: sent now (as verdicts in their window)
            QTimer.singleShot(0, self._resume_bulk_decisions)

        def break_key() -> str:
            return key_text(self.keymap.keys(Command.BREAK))

        self.break_reminder = BreakReminder(break_key)
        self.break_reminder.break_requested.connect(lambda: self.take_break(prompted=True))
        self.break_reminder.later_requested.connect(self._put_off_break)
        self.break_screen = BreakScreen(break_key)
        self.break_screen.resume_requested.connect(self.end_break)
        outer.addWidget(self.banner)
        outer.addWidget(self.break_reminder)
        # what reached the reviewer's decisions since they last looked (asked at login)
        self.feedback_bar = FeedbackBar(lambda: key_text(self.keymap.keys(Command.MY_DECISIONS)))
        # feedback may be on decisions of earlier shifts: the notice opens the last 7 days
        self.feedback_bar.open_requested.connect(lambda: self.show_my_decisions(week=True))
        outer.addWidget(self.feedback_bar)
        outer.addLayout(top)
        outer.addWidget(self.pane, 1)
        outer.addWidget(self.break_screen, 1)
        # Leads and admins get a second page; the service refuses its calls to anyone else
        self.lead: LeadWorkspace | None = None
        self.modes: QTabWidget | None = None
        if self.session.is_lead:
            self.lead = LeadWorkspace(
                self.session.shared_client,
                self.store.queues,
                settings=self.store.settings,
                admin=self.session.user.role is Role.admin,
                me=self.session.user.username,
            )
            self.lead.review_queue_requested.connect(self.review_queue)
            self.lead.review_item_requested.connect(self.review_item)
            self.lead.message_posted.connect(self.say)
            self.lead.bulk_requested.connect(self._on_lead_bulk_requested)
            self.lead.auth_required.connect(self._on_sync_auth_required)  # the same login
            self.lead.set_keys(self.keymap)
            self.modes = QTabWidget()
            named(self.modes, "modes", translate("MainWindow", "Review or lead workspace"))
            self.modes.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self.modes.addTab(central, translate("MainWindow", "Review"))
            self.modes.addTab(self.lead, translate("MainWindow", "Lead workspace"))
            self.setCentralWidget(self.modes)
        else:
            self.setCentralWidget(central)

        status = self.statusBar()
        self.net_label = label(translate("MainWindow", "starting…"), wrap=False)
        named(self.net_label, "connection", translate("MainWindow", "Connection"))
        self.pending_label = label("", wrap=False)
        named(self.pending_label, "pending", translate("MainWindow", "Verdicts waiting to be sent"))
        self.conflicts_button = QPushButton("")
        named(self.conflicts_button, "conflicts", translate("MainWindow", "Conflicts (Ctrl+K)"))
        self.conflicts_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.conflicts_button.setFlat(True)
        self.conflicts_button.clicked.connect(self.show_conflicts)
        self.sync_label = label("", wrap=False)
        named(self.sync_label, "lastSync", translate("MainWindow", "Last sync"))
        self.progress = QProgressBar()
        named(self.progress, "offlineProgress", translate("MainWindow", "Work offline progress"))
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.message = label("", wrap=False)
        named(self.message, "message", translate("MainWindow", "Last message"))
        # Status texts change on every keypress: not selectable (a selectable label keeps a
        # text document to lay out), and the message does not resize the bar around it.
        for plain in (self.net_label, self.pending_label, self.sync_label, self.message):
            plain.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.message.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        for widget in (self.net_label, self.pending_label, self.conflicts_button, self.sync_label):
            status.addPermanentWidget(widget)
        status.addPermanentWidget(self.progress)
        status.addWidget(self.message, 1)

        menu = self.menuBar()
        review_menu = menu.addMenu(translate("MainWindow", "&Review"))
        entries: list[tuple[str, Command | None, Callable[[], object]]] = [
            (translate("MainWindow", "Work offline…"), Command.WORK_OFFLINE, self.work_offline),
            (translate("MainWindow", "Conflicts…"), Command.CONFLICTS, self.show_conflicts),
            (
                translate("MainWindow", "My decisions…"),
                Command.MY_DECISIONS,
                lambda: self.show_my_decisions(),
            ),
            (translate("MainWindow", "Settings…"), Command.SETTINGS, self.show_settings),
            (translate("MainWindow", "Keyboard shortcuts"), None, self.show_help),
            (translate("MainWindow", "Log in again…"), None, self.log_in_again),
            (translate("MainWindow", "Clear local data…"), None, self.clear_local_data),
            (translate("MainWindow", "Log out"), None, self.log_out),
        ]
        if self.modes is not None:
            entries += [
                (translate("MainWindow", "Review"), Command.SHOW_REVIEW, lambda: self.show_mode(0)),
                (
                    translate("MainWindow", "Lead workspace"),
                    Command.SHOW_LEAD,
                    lambda: self.show_mode(1),
                ),
            ]
        entries.append((translate("MainWindow", "Quit"), Command.QUIT, self.close))
        for text, command, slot in entries:
            action = QAction(text, self)
            action.triggered.connect(slot)
            review_menu.addAction(action)
            if command is not None:
                self.menu_actions[command] = action
        self._apply_menu_keys()
        if keyring_note:
            self.notify(keyring_note)
        # Tab follows the review flow: read the post, its context, then the verdict's parts
        chain = [
            self.post.text,
            self.post.open_link,
            self.context,
            self.verdicts.policies,
            self.verdicts.rating,
            self.verdicts.note,
        ]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    def _fit_rows(self) -> None:
        """The worklist's rows as high as a line of its text (it was a fixed 22 px)."""
        metrics = self.worklist_view.fontMetrics()
        self.worklist_view.verticalHeader().setDefaultSectionSize(metrics.lineSpacing() + 6)

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:  # the text size preference changed
            self._fit_rows()

    def _connect(self) -> None:
        b = self.bridge
        b.online_changed.connect(self._on_sync_online_changed)
        b.pending_changed.connect(self._on_sync_pending_changed)
        b.synced.connect(self._on_sync_synced)
        b.conflicts_changed.connect(self._on_sync_conflicts_changed)
        b.worklist_changed.connect(self._on_sync_worklist_changed)
        b.queues_drained.connect(self._on_sync_queues_drained)
        b.leases_lost.connect(self._on_sync_leases_lost)
        b.items_withdrawn.connect(self._on_sync_items_withdrawn)
        b.items_resolved.connect(self._on_sync_items_resolved)
        b.queues_changed.connect(self._on_sync_queues_changed)
        b.progress_changed.connect(self._on_sync_progress_changed)
        b.auth_required.connect(self._on_sync_auth_required)
        b.problem_reported.connect(self._on_sync_problem_reported)
        b.verdicts_settled.connect(self._on_sync_verdicts_settled)
        self.queue_picker.currentIndexChanged.connect(self._select_queue)
        if self.modes is not None:
            self.modes.currentChanged.connect(lambda _index: self._work_queue())
        self.review.item_changed.connect(self._on_review_item_changed)
        self.review.verdict_recorded.connect(self._on_review_verdict_recorded)
        self.review.verdict_undone.connect(self._on_review_verdict_undone)
        self.review.message_posted.connect(self.say)
        self.review.escalation_requested.connect(self._on_review_escalation_requested)
        self.review.item_skipped.connect(lambda _id: self._later(self._refresh_worklist))
        self.post.text.first_painted.connect(self._on_post_first_painted)
        self.worklist_view.row_chosen.connect(self._on_worklist_row_chosen)
        self.keymap.changed.connect(self._on_keymap_changed)

    # --- commands -------------------------------------------------------------------------

    def run_command(self, binding: Binding | Command) -> bool:
        """One command from the key table. Returns True when the key was used."""
        if isinstance(binding, Command):
            binding = Binding(binding)
        command = binding.command
        if self.tally.on_break is not None:
            # on a break only the break key (back to work) and the list of keys do anything
            if command is Command.BREAK:
                self.end_break()
            elif command is Command.HELP:
                self.show_help()
            return True
        row = command.queue_row
        if row is not None:  # from the lead workspace too
            return self.review_queue_at(row)
        if command in (Command.NEXT_QUEUE, Command.PREVIOUS_QUEUE):
            step = 1 if command is Command.NEXT_QUEUE else -1
            count = self.queues.rowCount()
            return count > 0 and self.review_queue_at(
                (self.queue_picker.currentIndex() + step) % count
            )
        if command is Command.HELP:
            self.show_help()
            return True
        if self.lead is not None and self.modes is not None and self.on_lead_page():
            return self.lead.run_command(binding)
        used = self.pane.run_command(binding)  # the keys the audit desk shares
        if used is not None:
            return used
        if command in (Command.NEXT_PANE, Command.PREVIOUS_PANE):
            return self._step_pane(1 if command is Command.NEXT_PANE else -1)
        panes = {
            Command.FOCUS_WORKLIST: 0,
            Command.FOCUS_POST: 1,
            Command.FOCUS_CONTEXT: 2,
            Command.FOCUS_VERDICTS: 3,
        }
        if command in panes:
            return self._focus_pane(panes[command])
        if command in (Command.NEXT_TAB, Command.PREVIOUS_TAB):
            return self._step_context_tab(1 if command is Command.NEXT_TAB else -1)
        handlers: dict[Command, Callable[[], object]] = {
            Command.ESCALATE: self.pane.escalate,
            Command.SKIP: self.review.skip,
            Command.ENLARGE: self.post.enlarge_media,
            Command.CANCEL: self._cancel,
            Command.UNDO: self.review.undo,
            Command.BREAK: lambda: self.take_break(prompted=self.break_reminder.isVisible()),
        }
        handler = handlers.get(command)
        if handler is None:
            return False
        handler()
        return True

    # --- breaks ------------------------------------------------------------------------------

    def take_break(self, *, prompted: bool = False) -> None:
        """The break key: the post leaves the screen, every post held here and not decided
        goes back to the queue (the engine's release), nothing is leased ahead or renewed
        until the reviewer resumes, and the service records the break."""
        if self.tally.on_break is not None:
            return
        self.review.cancel()
        record = self.tally.start_break(prompted=prompted)
        self._break_queue = self.review.queue.id if self.review.queue else None
        self.break_reminder.setVisible(False)
        self.review.set_queue(None)
        self.session.engine.set_active_queues([])
        self.session.engine.take_break(record)
        self.pane.setVisible(False)
        self.break_screen.show_since(record.started_at)
        self.say(translate("MainWindow", "On a break: your posts were given back."))

    def end_break(self) -> None:
        ended = self.tally.end_break()
        if ended is None:
            return
        self.session.engine.end_break(ended)
        self.break_screen.setVisible(False)
        self.pane.setVisible(True)
        row = self.queues.row_of(self._break_queue) if self._break_queue else 0
        self._break_queue = None
        if self.queues.rowCount():
            self.queue_picker.setCurrentIndex(-1)  # the same row again selects it anew
            self._select_queue(max(0, row))
        self.say(translate("MainWindow", "Welcome back."))

    def _put_off_break(self) -> None:
        self.tally.put_off()
        self.break_reminder.setVisible(False)

    def _check_break_due(self) -> None:
        """Shows the reminder when the queue's break rule says a break is due (unless the
        reviewer turned reminders off in Settings)."""
        queue = self.review.queue
        if queue is None or self.break_reminder.isVisible():
            return
        if not self.break_reminders:
            return
        due = self.tally.due(queue.config.breaks)
        if due is not None:
            minutes = int((time.time() - self.tally.since_break_at) // 60)
            self.break_reminder.remind(due, minutes, self.tally.high_since_break)

    def on_lead_page(self) -> bool:
        return self.modes is not None and self.modes.currentWidget() is self.lead

    def keyed_queue(self) -> Queue | None:
        """The queue whose action keys are in force: the blind audit's on its desk."""
        if self.lead is not None and self.on_lead_page():
            return self.lead.keyed_queue()
        return self.review.queue

    # --- panes and tabs -------------------------------------------------------------------

    def _pane_widgets(self) -> list[QWidget]:
        """Where each pane takes the focus: worklist, post, context, verdict bar."""
        tab = self.context.currentIndex()
        box = self.context.boxes[self.context.TABS[max(0, tab)][0]]
        bar = self.verdicts
        verdict = next((w for w in (bar.policies, bar.rating) if w.isVisibleTo(self)), bar.note)
        return [self.worklist_view, self.post.text, box, verdict]

    def _focus_pane(self, index: int) -> bool:
        if index == 0:
            row = self.worklist.row_of(self.review.current.item.id) if self.review.current else -1
            if row >= 0:
                self.worklist_view.setCurrentIndex(self.worklist.index(row, 0))
        self._pane_widgets()[index].setFocus(Qt.FocusReason.ShortcutFocusReason)
        return True

    def _step_pane(self, step: int) -> bool:
        widgets = self._pane_widgets()
        focus = self.focusWidget()
        at = next(
            (i for i, w in enumerate(widgets) if focus is w or (focus and w.isAncestorOf(focus))),
            next(
                (
                    i
                    for i, pane in enumerate((self.worklist_view, self.post, self.context))
                    if focus is not None and pane.isAncestorOf(focus)
                ),
                3 if focus is not None and self.verdicts.isAncestorOf(focus) else -1,
            ),
        )
        start = at if at >= 0 else (-1 if step > 0 else 0)
        return self._focus_pane((start + step) % len(widgets))

    def _step_context_tab(self, step: int) -> bool:
        count = self.context.count()
        self.context.setCurrentIndex((self.context.currentIndex() + step) % count)
        return True

    def _on_worklist_row_chosen(self, row: int) -> None:
        """A post chosen in the worklist opens (the ones still waiting for a verdict)."""
        if 0 <= row < len(self.worklist.rows):
            self.review.open(self.worklist.rows[row].item_id)

    def _apply_menu_keys(self) -> None:
        for command, action in self.menu_actions.items():
            action.setShortcuts(list(self.keymap.keys(command)))

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

    def _on_review_escalation_requested(
        self, action: ActionConfig, reasons: list[EscalationReason]
    ) -> None:
        """E: ask why, then escalate the post that was on screen when E was pressed."""
        current = self.review.current
        if self.escalation_dialog is not None or current is None:
            return
        item_id = current.item.id
        dialog = EscalationDialog(action, reasons, self, note=self.verdicts.note_text())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen() -> None:
            reason = dialog.reason()
            shown = self.review.current
            if reason is None or shown is None or shown.item.id != item_id:
                self.say(
                    translate(
                        "MainWindow",
                        "Nothing was escalated: the post changed while the reasons were open.",
                    )
                )
                return
            chosen = replace(self.verdicts.selection(action), note=dialog.note_text())
            self.review.escalate_with(chosen, reason.id)

        dialog.accepted.connect(chosen)
        dialog.finished.connect(self._on_escalation_dialog_finished)
        self.escalation_dialog = dialog
        dialog.open()

    def _on_escalation_dialog_finished(self, _result: int) -> None:
        self.escalation_dialog = None
        if self.is_open:
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def _cancel(self) -> None:
        self.review.cancel()
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    def show_mode(self, index: int) -> None:
        if self.modes is not None:
            self.modes.setCurrentIndex(index)
            if index == 1 and self.lead is not None:
                self.lead.focus_page()  # Tab goes on through its filters, tables and buttons
            else:
                self.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def review_queue_at(self, row: int) -> bool:
        """Review the queue at ``row`` of the queue list (Alt+1 … Alt+9)."""
        if not 0 <= row < self.queues.rowCount():
            return False
        self.show_mode(0)
        self._select_queue(row)
        self.setFocus(Qt.FocusReason.OtherFocusReason)
        return True

    def review_queue(self, queue_id: str) -> None:
        """Review one queue (a lead's "review escalations now")."""
        row = self.queues.row_of(queue_id)
        if row < 0:
            self.say(
                translate(
                    "MainWindow",
                    "The queue {queue} is not in your queue list yet; try again shortly.",
                ).format(queue=queue_id)
            )
            return
        self.show_mode(0)
        self._select_queue(row)
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    def review_item(self, queue_id: str, item_id: str) -> None:
        """Review one queue with this item first as soon as it is here (a lead's pick of an
        escalation: assigned to them, so their next claim there takes it)."""
        self.review.prefer(item_id)
        if self.review.queue is not None and self.review.queue.id == queue_id:
            self.show_mode(0)
            self.review.show_preferred()
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            self.review_queue(queue_id)
        if self.store.stored_item(item_id) is None:  # not held here yet: claim it now
            self.session.engine.claim_one_more(queue_id)

    def started_offline(self, text: str) -> None:
        """This session started with no network, from what this computer keeps (``text``
        says what): the cached posts are shown even where their lease ran out (the service
        decides whether a verdict counts), and the engine syncs when the server is back."""
        self.online = False
        self.review.online = False
        self.say(text)
        self.review.refresh_if_empty()
        self._update_status()

    def log_in_again(self, intro: str = "") -> None:
        """Ask for the password again (a 401, or the server back for a session that started
        offline with no saved login): the session's verdicts go once it is given. The
        login runs in the background; "Later" keeps working without one."""
        if self.relogin is not None:
            self.relogin.raise_()
            self.relogin.activateWindow()
            return
        session = self.session

        def attempt(_server: str, _user: str, password: str) -> None:
            dialog = self.relogin
            assert dialog is not None

            def work() -> tuple[object, str]:
                return session.log_in_again(password)

            def done(value: tuple[Any, str]) -> None:
                result, token = value
                if not self.is_open:
                    return
                session.relogged_in(token)
                session.profile_updated(result.user)
                self.needs_login = False
                dialog.succeeded()
                self.say(translate("MainWindow", "Logged in again: your verdicts are being sent."))
                self._update_status()

            def failed(err: BaseException) -> None:
                during = translate("MainWindow", "logging in")
                dialog.show_error(describe(err, during=during).line())

            run_op(dialog, work, done, failed)

        dialog = LoginDialog(
            self.prefs,
            attempt,
            self,
            locked=(session.server_url, session.user.username),
            intro=intro,
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(self._on_relogin_finished)
        self.relogin = dialog
        dialog.show()

    def _on_relogin_finished(self, _result: int) -> None:
        self.relogin = None
        if self.is_open:
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def work_offline(self) -> None:
        if self.session.memory_only:
            self.notify(
                translate(
                    "MainWindow",
                    "Work offline is unavailable in this session: with no keyring to protect "
                    "it, nothing you review is kept on this computer.",
                )
            )
            return
        queue = self.review.queue
        if queue is None:
            self.say(translate("MainWindow", "Choose a queue first."))
            return
        self.session.engine.work_offline(queue.id)
        self.progress.setRange(0, 0)
        self.progress.setFormat(translate("MainWindow", "Leasing for offline work…"))
        self.progress.show()

    def show_help(self) -> None:
        rows = shortcut_rows(self.keymap, self.keyed_queue(), lead=self.modes is not None)
        ShortcutsDialog(self, rows=rows).exec()
        self.activateWindow()  # the keys work again at once

    def show_settings(self) -> None:
        dialog = SettingsDialog(
            self.prefs, self.store, self, keymap=self.keymap, queues=self.queues.queues
        )
        if dialog.exec():
            self.media_defaults()
            self.break_reminders = self.store.settings.get(core_settings.BREAK_REMINDERS)
            if not self.break_reminders:
                self.break_reminder.setVisible(False)
            self.session.engine.nudge()
        self.activateWindow()  # the keys work again at once

    def show_conflicts(self) -> None:
        if self.conflicts_view is None:
            self.conflicts_view = ConflictsView(self.store, self)
            self.conflicts_view.resolved.connect(lambda *_: self._update_conflicts())
        self.conflicts_view.reload()
        self.conflicts_view.show()
        self.conflicts_view.raise_()

    def show_my_decisions(self, *, week: bool = False) -> None:
        """The reviewer's own decisions and what became of each (Ctrl+Shift+D): this
        shift's, or with ``week`` the last 7 days'."""
        self.feedback_bar.hide()
        view = self.my_decisions_view
        if view is not None and view.isVisible():
            view.reload()
            view.raise_()
            view.activateWindow()
            return
        self.my_decisions_view = MyDecisionsView(
            self.session.client,
            self.store.queues(),
            self.store.conflicts(open_only=False),
            self.shift_start,
            self,
            period="week" if week else "shift",
        )
        self.my_decisions_view.show()

    def log_out(self) -> None:
        self.is_open = False
        self._timer.stop()
        self.bridge.blockSignals(True)
        self.session.log_out()
        self.close()

    def clear_local_data(self) -> None:
        """Delete the profile's cache and key, then log out: asked first, saying how many
        unsent verdicts would be lost."""
        unsent = self.session.unsent_count()
        text = translate(
            "MainWindow",
            "This deletes everything the app keeps on this computer for you on this server "
            "(cached posts and media, your recent decisions, conflicts, and the key that "
            "encrypts them) and logs you out.",
        )
        if unsent:
            unsent_text = (
                translate("MainWindow", "{n} verdicts have not been sent yet.")
                if unsent != 1
                else translate("MainWindow", "1 verdict has not been sent yet.")
            )
            text += "\n\n" + unsent_text.format(n=unsent) + " "
            text += translate(
                "MainWindow", "The app tries to send them first; any it cannot send are lost."
            )
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            translate("MainWindow", "Clear local data"),
            text,
            QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        confirm = box.addButton(
            translate("MainWindow", "Delete unsent verdicts and clear")
            if unsent
            else translate("MainWindow", "Clear and log out"),
            QMessageBox.ButtonRole.DestructiveRole,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        if box.clickedButton() is not confirm:
            return
        self.is_open = False
        self._timer.stop()
        self.bridge.blockSignals(True)
        self.session.clear_local_data(discard_unsent=True)
        self.close()

    def media_defaults(self) -> None:
        self.post.media.set_defaults(blur=self.prefs.get(P.BLUR), grey=self.prefs.get(P.GREY))

    # --- what is on screen ------------------------------------------------------------------

    def _select_queue(self, row: int) -> None:
        if not 0 <= row < self.queues.rowCount():
            return
        if self.queue_picker.currentIndex() != row:
            self.queue_picker.setCurrentIndex(row)
            return
        queue = self.queues.queues[row]
        self.verdicts.set_config(queue.config, keys=self.keymap.action_keys(queue))
        self.review.set_queue(queue)
        self._work_queue()
        self._refresh_worklist()

    def _work_queue(self) -> None:
        """Items are leased ahead only for the queue on screen, and only while the review
        page is shown: the engine gives back what was leased ahead (and never opened) in a
        queue left, or when a lead turns to the lead workspace."""
        queue = self.review.queue
        reviewing = self.modes is None or self.modes.currentIndex() == 0
        self.session.engine.set_active_queues([queue.id] if queue and reviewing else [])

    def _on_review_item_changed(self, stored: StoredItem | None) -> None:
        self.paint_started = self.paint_started or time.perf_counter()
        if stored is None:
            self.pane.show_item(None, self.store.media, self._nothing_here())
        else:
            # opened: kept (not given back) should the reviewer switch queues before deciding
            self.session.engine.item_opened(stored.item.id)
            self.pane.show_item(stored.item, self.store.media)
            if stored.lease_expires_at <= time.time():
                self.say(
                    translate(
                        "MainWindow",
                        "This post's lease ran out while offline; your verdict may conflict.",
                    )
                )
        self.worklist.set_current(stored.item.id if stored else None)
        # choosing in the worklist stays there; the Lead workspace keeps its focus
        if not self.worklist_view.hasFocus() and not self.on_lead_page():
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def _nothing_here(self) -> str:
        """What the post pane says with no post to show: an empty queue says so and names
        the queues that have posts waiting, with the keys that switch to them."""
        queue = self.review.queue
        if queue is None:
            return translate("MainWindow", "Choose a queue.")
        if queue.id not in self.drained:
            return (
                translate("MainWindow", "Waiting for posts from the server…")
                if self.online
                else translate(
                    "MainWindow",
                    "No posts here while offline. Use “Work offline” before you lose the network.",
                )
            )
        said = translate("MainWindow", "Nothing in {queue} is waiting for you.").format(
            queue=isolate(queue.name)
        )
        others = [
            (row, q)
            for row, q in enumerate(self.queues.queues)
            if q.id != queue.id and q.counts.pending > 0
        ]
        if not others:
            return (
                said
                + " "
                + translate(
                    "MainWindow",
                    "No other queue has posts waiting either; new posts appear here as they "
                    "arrive.",
                )
            )
        lines = [said, translate("MainWindow", "Queues with posts waiting:")]
        for row, q in others:
            entry = translate("MainWindow", "{queue}: {n} waiting").format(
                queue=isolate(q.name), n=q.counts.pending
            )
            if row < 9:
                entry = translate("MainWindow", "Alt+{key}").format(key=row + 1) + "  " + entry
            lines.append(entry)
        return "\n".join(lines)

    def _on_post_first_painted(self) -> None:
        self.paint_started = None
        if self._after_paint:
            self._after_paint_timer.start(0)  # once this paint is on screen

    def _later(self, work: Callable[[], None]) -> None:
        """Run ``work`` once the next post is painted (or at the latest in 100 ms, should
        nothing be painted); the same work asked for twice runs once."""
        if work not in self._after_paint:
            self._after_paint.append(work)
        if not self._after_paint_timer.isActive():
            self._after_paint_timer.start(0 if self.paint_started is None else AFTER_PAINT_MS)

    def _run_after_paint(self) -> None:
        work, self._after_paint = self._after_paint, []
        for step in work:
            step()

    def _on_review_verdict_recorded(self, entry: JournalEntry) -> None:
        queue = self.review.queue  # the verdict's own: read from memory, not the store
        if queue is not None and queue.id == entry.queue_id:
            self.tally.decided(entry.key, queue.config, entry.verdict.policies)
            self._check_break_due()
        self.say(
            translate(
                "MainWindow", "Saved: {action} on {item}. Ctrl+Z undoes it for a few seconds."
            ).format(action=entry.action, item=entry.item_id)
        )
        self._later(self._count_pending)
        self._later(self._refresh_worklist)

    def _on_review_verdict_undone(self, entry: JournalEntry) -> None:
        self.tally.undone(entry.key)
        self.say(
            translate("MainWindow", "Undone: {action} on {item}.").format(
                action=entry.action, item=entry.item_id
            )
        )
        self._later(self._count_pending)
        self._later(self._refresh_worklist)

    @while_open
    def _count_pending(self) -> None:
        waiting = self.store.pending()
        self.pending, self.held, self.held_until = (
            waiting.pending,
            waiting.held,
            waiting.held_until,
        )
        self._update_status()

    @while_open
    def _refresh_worklist(self) -> None:
        queue = self.review.queue
        rows = self.store.worklist(queue.id) if queue else []
        # each item's author and first words, read from the store once while it is listed
        for row in rows:
            if row.item_id not in self.worklist.labels:
                stored = self.store.stored_item(row.item_id)
                if stored is not None:
                    post = stored.item
                    self.worklist.describe(row.item_id, post.author.handle, post.post.text)
        self.worklist.set_rows(rows)

    # --- what the sync engine says ----------------------------------------------------------------

    @while_open
    def _on_sync_online_changed(self, online: bool, kind: str, retry_in: float) -> None:
        self.online = online
        self.review.online = online
        if online:
            self.say(translate("MainWindow", "Connected to the server."))
        else:
            retry = (
                " "
                + translate("MainWindow", "Next try in {seconds} s.").format(
                    seconds=f"{retry_in:.0f}"
                )
                if retry_in >= 0
                else ""
            )
            self.say(
                translate("MainWindow", "Offline.")
                + " "
                + failure_sentence(kind)
                + retry
                + " "
                + translate("MainWindow", "You can keep deciding what is here.")
            )
            self.review.refresh_if_empty()
        self._update_status()

    @while_open
    def _on_sync_pending_changed(self, _pending: int, _in_flight: int, _held: int) -> None:
        # the store is the truth: the event may be older than the last keypress
        self._later(self._count_pending)

    @while_open
    def _on_sync_synced(self, at: float) -> None:
        self.last_sync = at
        self._update_status()

    @while_open
    def _on_sync_conflicts_changed(self, count: int) -> None:
        if count > self.conflict_count:
            self.notify(self._conflicts_text(count), kind="conflicts")
        self.conflict_count = count
        self._conflicts_banner()
        self._update_status()

    @while_open
    def _update_conflicts(self) -> None:
        self.conflict_count = self.store.counts().conflicts_open
        self._conflicts_banner()
        self._update_status()

    def _conflicts_banner(self) -> None:
        """The banner counting conflicts follows the count: gone at none (accepting their
        decision or escalating resolves one)."""
        if self._banner_kind != "conflicts":
            return
        if self.conflict_count == 0:
            self.notify("")
            self.say(translate("MainWindow", "No open conflicts left."))
        else:
            self.notify(self._conflicts_text(self.conflict_count), kind="conflicts")

    @staticmethod
    def _conflicts_text(count: int) -> str:
        return translate(
            "MainWindow",
            "{n} of your verdicts conflict with a decision made by someone else. "
            "Open Conflicts (Ctrl+K) to see both.",
        ).format(n=count)

    @while_open
    def _on_sync_worklist_changed(self, _ready: dict[str, int]) -> None:
        self.review.refresh_if_empty()
        self._later(self._refresh_worklist)

    @while_open
    def _on_sync_queues_drained(self, queue_ids: tuple[str, ...]) -> None:
        self.drained = set(queue_ids)
        if self.review.current is None:
            self.post.clear(self._nothing_here())

    @while_open
    def _on_sync_leases_lost(self, item_ids: tuple[str, ...]) -> None:
        self._refresh_worklist()
        self.review.drop_if_current(item_ids)

    @while_open
    def _on_sync_items_withdrawn(self, item_ids: tuple[str, ...]) -> None:
        self._refresh_worklist()
        if not self.review.drop_withdrawn(item_ids):
            self.say(
                (
                    translate(
                        "MainWindow",
                        "{n} posts in your worklist were withdrawn by the platform (deleted or "
                        "made private upstream); they left it without a verdict.",
                    )
                    if len(item_ids) != 1
                    else translate(
                        "MainWindow",
                        "Post {item} was withdrawn by the platform (deleted or made private "
                        "upstream); it left your worklist without a verdict.",
                    )
                ).format(n=len(item_ids), item=item_ids[0])
            )

    @while_open
    def _on_sync_items_resolved(self, resolved: tuple[tuple[str, str], ...]) -> None:
        self._refresh_worklist()
        item_ids = tuple(item_id for item_id, _ in resolved)
        statuses = {status for _, status in resolved}
        why = resolved_words(statuses.pop() if len(statuses) == 1 else None)
        if not self.review.drop_resolved(item_ids, why):
            self.say(
                (
                    translate(
                        "MainWindow",
                        "Resolved: {why}. {n} posts in your worklist were closed by that "
                        "account action; they left it without a verdict.",
                    )
                    if len(item_ids) != 1
                    else translate(
                        "MainWindow",
                        "Resolved: {why}. Post {item} was closed by that account action; it "
                        "left your worklist without a verdict.",
                    )
                ).format(why=why, n=len(item_ids), item=item_ids[0])
            )

    @while_open
    def _on_linked_bulk_requested(self, author_id: str, linked: bool) -> None:
        """ "All open posts by this author…": list them (off the GUI thread), then the
        Decide together dialog."""
        if self.bulk_sender is None:
            return
        self.say(translate("MainWindow", "Looking up the author's open posts…"))

        def loaded(found: list[Candidate], left_out: int) -> None:
            if not found:
                self.say(translate("MainWindow", "The author has no open posts."))
                return
            queues = len({c.queue_id for c in found})
            title = (
                translate(
                    "MainWindow",
                    "Open posts by the author and the linked accounts: {n} in {q} queues.",
                )
                if linked
                else translate("MainWindow", "Open posts by the author: {n} in {q} queues.")
            ).format(n=len(found), q=queues)
            if left_out:
                title += " " + translate(
                    "MainWindow", "{n} more are not listed (the oldest come first)."
                ).format(n=left_out)
            self.open_bulk_dialog(found, title)

        def failed(err: BaseException) -> None:
            self.say(
                describe(
                    err, during=translate("MainWindow", "looking up the author's open posts")
                ).line()
            )

        load_author_posts(
            self, self.session.client, author_id, linked=linked, on_loaded=loaded, on_failed=failed
        )

    def _on_lead_bulk_requested(self, candidates: list[Candidate]) -> None:
        """Posts a lead selected in the search results: the Decide together dialog."""
        queues = len({c.queue_id for c in candidates})
        title = translate("MainWindow", "Posts selected in the search: {n} in {q} queues.").format(
            n=len(candidates), q=queues
        )
        self.open_bulk_dialog(candidates, title)

    def open_bulk_dialog(self, candidates: Sequence[Candidate], title: str = "") -> None:
        """The Decide together dialog on these posts (leads): from an author's open posts,
        or a list a lead selected."""
        if self.bulk_sender is None:
            return
        if self.bulk_dialog is not None and not self.bulk_dialog.holding:
            self.bulk_dialog.close()
            self.bulk_dialog.deleteLater()
        dialog = BulkDecisionDialog(
            candidates, self.store.queues(), self.bulk_sender, self, title=title
        )
        self.bulk_dialog = dialog
        dialog.show()

    def _resume_bulk_decisions(self) -> None:
        if self.bulk_sender is not None and self.is_open and (found := self.bulk_sender.resume()):
            self.say(
                translate(
                    "MainWindow",
                    "{n} bulk decision(s) held when the app last closed are being sent.",
                ).format(n=found)
            )

    def _on_bulk_sender_recorded(self, _bulk_id: str, results: object) -> None:
        """A bulk decision went through: items held here may be among them, so the engine
        renews every lease now (as after an account action)."""
        self.session.engine.renew_now()

    def _on_bulk_sender_refused(self, _bulk_id: str, said: object) -> None:
        if self.bulk_dialog is None or not self.bulk_dialog.isVisible():
            self.say(translate("MainWindow", "A bulk decision was refused: nothing was decided."))

    def _on_accounts_actioned(self, _results: object) -> None:
        """A lead's account action went through: items of those accounts held here may have
        closed, so the engine renews every lease now."""
        self.session.engine.renew_now()

    @while_open
    def _on_sync_queues_changed(self, queues: tuple[Queue, ...]) -> None:
        current = self.review.queue.id if self.review.queue else None
        self.queues.set_queues(queues)
        if self.tally.on_break is not None:
            return  # no queue is reviewed on a break; the one left is taken up on resume
        if current is not None and self.review.current is None:
            self.post.clear(self._nothing_here())  # the queues with work, as counted now
        if current is None and queues:
            self._select_queue(0)
        elif current is not None:
            row = self.queues.row_of(current)
            if row >= 0 and self.queue_picker.currentIndex() != row:
                self.queue_picker.setCurrentIndex(row)
            elif row >= 0:
                self._queue_reconfigured(self.queues.queues[row])

    def _queue_reconfigured(self, queue: Queue) -> None:
        """A new configuration of the queue on screen (applied on the server while the
        client runs): the verdict bar and the keys follow it at once, the post stays."""
        shown = self.review.queue
        if shown is None or shown.config == queue.config:
            return
        self.review.update_queue(queue)
        self.verdicts.set_config(queue.config, keys=self.keymap.action_keys(queue))
        self.verdicts.set_item(self.review.current.item if self.review.current else None)
        self.verdicts.mark(None)

    @while_open
    def _on_sync_progress_changed(
        self, task: str, done: int, total: int, finished: bool, kind: str
    ) -> None:
        if task != "offline":
            return
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(
            translate("MainWindow", "Offline batch: {done} of {total}").format(
                done=done, total=total
            )
        )
        self.progress.setVisible(not finished)
        if finished:
            self.say(offline_batch_ended(done, total, kind))
            self._refresh_worklist()
            self.review.refresh_if_empty()

    @while_open
    def _on_sync_auth_required(self, message: str, server_back: bool) -> None:
        log.info("the server asks for a login: %s", message)
        self.needs_login = True
        why = (
            translate(
                "MainWindow", "The server can be reached again: log in to send your verdicts."
            )
            if server_back
            else translate("MainWindow", "The server asks you to log in again.")
        )
        self.say(
            why
            + " "
            + translate(
                "MainWindow",
                "Your verdicts are kept and sent once you have logged in (Review ▸ Log in again…).",
            )
        )
        self._update_status()
        self.log_in_again(why)

    @while_open
    def _on_sync_problem_reported(self, problem: ev.Problem) -> None:
        log.warning("the sync engine reports: %s", problem.message)
        self.notify(sync_problem(problem.kind, problem.item_id, problem.queue_id))

    @while_open
    def _on_sync_verdicts_settled(self, entries: tuple[JournalEntry, ...]) -> None:
        self._later(self._count_pending)
        rejected = [e for e in entries if e.status == "rejected"]
        withdrawn = [e for e in rejected if _reason_code(e) == WITHDRAWN]
        if withdrawn:  # nothing for the reviewer to do: the post is gone upstream
            self.say(
                translate(
                    "MainWindow",
                    "Withdrawn by the platform: your verdict on {item} was not needed, the post "
                    "was deleted or made private upstream before it arrived.",
                ).format(item=", ".join(e.item_id for e in withdrawn))
            )
        actioned = [e for e in rejected if _reason_code(e) == AUTHOR_ACTIONED]
        if actioned:  # nothing for the reviewer to do: an account action closed the item
            statuses = {_author_status(e) for e in actioned}
            self.say(
                translate(
                    "MainWindow",
                    "Resolved: {why}. Your verdict on {item} was not needed: an account action "
                    "closed the post before it arrived.",
                ).format(
                    why=resolved_words(statuses.pop() if len(statuses) == 1 else None),
                    item=", ".join(e.item_id for e in actioned),
                )
            )
        for entry in rejected:
            if entry in withdrawn or entry in actioned:
                continue
            reason = entry.result.reason.message if entry.result and entry.result.reason else ""
            self.notify(
                translate(
                    "MainWindow", "The server refused your verdict on {item}: {reason}"
                ).format(item=entry.item_id, reason=isolate(reason))
            )
        self._later(self._refresh_worklist)

    @while_open
    def _on_timer_tick(self) -> None:
        self.worklist.tick()
        self._check_break_due()
        self._update_status()

    # --- the status bar and messages --------------------------------------------------------

    def _update_status(self) -> None:
        if self.needs_login:
            state = translate("MainWindow", "● Log in to sync")
        elif self.online is None:
            state = translate("MainWindow", "Connecting…")
        elif not self.online:
            state = translate("MainWindow", "● Offline")
        elif self.pending:
            state = translate("MainWindow", "● Syncing")
        else:
            state = translate("MainWindow", "● Online")
        set_text(self.net_label, state)
        set_text(self.pending_label, pending_words(self.pending, self.held))
        until = (
            f"{datetime.fromtimestamp(self.held_until):%H:%M}"
            if self.held and self.held_until
            else None
        )
        self.pending_label.setToolTip(held_until_words(self.held, until))
        self.conflicts_button.setText(
            plural(
                QCoreApplication.translate(
                    "MainWindow", "%n conflict(s)", None, self.conflict_count
                ),
                self.conflict_count,
            )
        )
        if self.last_sync is None:
            set_text(self.sync_label, translate("MainWindow", "never synced"))
        else:
            moment = datetime.fromtimestamp(self.last_sync)
            set_text(
                self.sync_label,
                translate("MainWindow", "last sync {time}").format(time=f"{moment:%H:%M:%S}"),
            )

    def say(self, text: str) -> None:
        set_text(self.message, text)

    def notify(self, text: str, *, kind: str = "") -> None:
        """A notice that stays until the next one (errors the reviewer must not miss);
        ``kind`` names a notice that follows a count (``"conflicts"``)."""
        self._banner_kind = kind if text else ""
        set_text(self.banner, text)
        self.banner.setVisible(bool(text))
        self.say(text)

    def shutdown(self) -> None:
        """The end of the session: no more events or ticks, then a clean exit of the
        engine (send what was decided, give back the rest) and the store closed."""
        self.is_open = False
        self._timer.stop()
        self.bridge.blockSignals(True)
        ended = self.tally.end_break()  # closing the app ends a break (sent on the way out)
        if ended is not None:
            self.session.engine.end_break(ended)
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self.key_filter)
        self.session.close(release=True)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._timer.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self.key_filter)
        if self.is_open and self.pending and self.online is False:
            answer = QMessageBox.question(
                self,
                translate("MainWindow", "Verdicts not sent yet"),
                (
                    translate(
                        "MainWindow",
                        "{n} verdicts are not sent yet and, in this session, are kept "
                        "in memory only: they are lost if you quit now. Quit anyway?",
                    )
                    if self.session.memory_only
                    else translate(
                        "MainWindow",
                        "{n} verdicts are saved on this computer but not sent yet. "
                        "They will be sent the next time you start the app. Quit now?",
                    )
                ).format(n=self.pending),
            )
            if answer != QMessageBox.StandardButton.Yes:
                event.ignore()
                self._timer.start()
                if app is not None:
                    app.installEventFilter(self.key_filter)
                return
        super().closeEvent(event)
