"""The review window: queue picker, worklist, the review pane (``review_pane``: the post
with its context and scores, the verdict bar) and the status bar. Its parts: the keys and
panes (``window_keys``: one table, ``keys.COMMANDS``, with the user's own keys over it,
auto-repeat off), the menu, dialogs and breaks (``window_actions``), the sync engine's
events and the status bar (``window_sync``).

Everything here runs on the GUI thread and touches only the local store; the network is
the sync engine's, whose events arrive through ``SyncBridge`` signals.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

from PySide6.QtCore import QEvent, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core import settings as core_settings
from reviewer_app.core.session import ReviewSession
from reviewer_app.core.store import JournalEntry, StoredItem
from reviewer_app.core.wellbeing import ShiftTally
from reviewer_app.protocol import Queue, QueueConfig, Role

from . import preferences as P
from .bridge import SyncBridge
from .dialogs import ConflictsView, LoginDialog
from .escalation import EscalationDialog
from .i18n import translate
from .keys import Command, Keymap, key_text
from .lead.bulk import BulkDecisionDialog, BulkSender
from .lead.workspace import LeadWorkspace
from .models import QueueListModel, WorklistModel
from .my_decisions import FeedbackBar, MyDecisionsView
from .plain import bounded, isolate, label, named, read_only_table
from .queue_picker import nothing_here
from .review import ReviewController, StoreSink
from .review_pane import ReviewPane
from .theme import Tone, set_tone
from .wellbeing import BreakReminder, BreakScreen
from .window_actions import WindowActions
from .window_keys import KeyFilter, WindowKeys
from .window_parts import WorklistView
from .window_sync import SyncEvents, while_open
from .words import code_words

log = logging.getLogger("ui")

#: Work deferred until the next post is painted runs at the latest this long after.
AFTER_PAINT_MS = 100
#: The reason code of a verdict the service refused because the platform withdrew the post.
WITHDRAWN = "withdrawn"
#: ... and because an account action closed the item (its author suspended or inauthentic)
AUTHOR_ACTIONED = "author_actioned"
#: the window's size at its first start, where the screen has room for it
FIRST_SIZE = QSize(1280, 860)


def first_geometry(available: QRect, wanted: QSize = FIRST_SIZE) -> QRect:
    """Where the window opens when it has no size of its own yet: ``wanted``, no larger
    than the screen's free area (``available``: the screen less its panels), centred in
    it. A 1280 x 800 laptop screen left the bottom of a fixed 860 px window, the verdict
    bar's notes and the status bar, off the screen."""
    size = wanted.boundedTo(available.size())
    frame = QRect(0, 0, size.width(), size.height())
    frame.moveCenter(available.center())
    return frame


class MainWindow(WindowKeys, WindowActions, SyncEvents):
    """The review window (its parts: ``window_keys``, ``window_actions``, ``window_sync``)."""

    def __init__(
        self,
        session: ReviewSession,
        bridge: SyncBridge,
        prefs: P.Preferences,
        *,
        keyring_note: str | None = None,
        standing_note: str | None = None,
    ) -> None:
        """``keyring_note``: the start's word for the banner (what became of the work here,
        what the keyring keeps); ``standing_note``: the part of it the banner comes back to
        when a later notice is cleared (a login the keyring does not keep)."""
        super().__init__()
        self.session = session
        self.store = session.store
        self.bridge = bridge
        self.prefs = prefs
        # a name from the server: bidi controls shown as markers, never obeyed, in the title
        # (Qt adds the app's name after it: " — Review desk")
        self.setWindowTitle(
            translate("MainWindow", "{name} on {server}").format(
                name=isolate(session.user.display_name, wrap=False), server=session.server_url
            )
        )
        named(self, "reviewWindow", translate("MainWindow", "Review desk"))
        saved = prefs.window_geometry()
        if saved is None or not self.restoreGeometry(saved):  # the last size and place
            self.setGeometry(first_geometry(self.screen().availableGeometry()))
        self._init_state()
        self.review = ReviewController(
            StoreSink(self.store, nudge=lambda: self._later(session.engine.nudge))
        )
        self._build(keyring_note)
        self._standing_note = standing_note or ""
        self._connect()
        self.key_filter = KeyFilter(self)
        self.key_filter.attach()  # sees keys before the focused widget does
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
        set_tone(self.banner, Tone.notice)
        self.banner.setVisible(False)
        top = self._build_top()
        self._build_worklist()
        self._build_pane()
        self._build_breaks()
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
        self._build_modes(central)
        self._build_status_bar()
        self._build_menu()
        if keyring_note:
            self.notify(keyring_note)
        self._tab_chain()

    def _init_state(self) -> None:
        """What the window knows before anything is shown."""
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
        #: what the banner shows when no notice is up (``notify``)
        self._standing_note = ""
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
        self.keymap = Keymap(self.prefs, self.session.server_url, self.session.user.username, self)
        self.menu_actions: dict[Command, QAction] = {}

        # Work a keypress causes beyond showing the next post (waking the sync thread, the
        # worklist and status bar) waits until that post is painted: ``_later``.
        self._after_paint: list[Callable[[], None]] = []
        self._after_paint_timer = QTimer(self)
        self._after_paint_timer.setSingleShot(True)
        self._after_paint_timer.timeout.connect(self._run_after_paint)
        #: this shift's items by kind of harm, for break reminders (the service keeps the
        #: record the lead sees), kept in the store within a second of a change (off the
        #: keypress): a restart goes on with it
        self._tally_timer = QTimer(self, singleShot=True, interval=1000)
        self._tally_timer.timeout.connect(self._save_tally)
        self.tally = ShiftTally(saved=self.store.shift_tally(), changed=self._tally_changed)
        #: the reviewer's own setting (read again after Settings)
        self.break_reminders: bool = self.store.settings.get(core_settings.BREAK_REMINDERS)
        #: the queue on screen when the break began (reviewed again on resume)
        self._break_queue: Queue | None = None

    def _build_top(self) -> QHBoxLayout:
        """The queue picker and Work offline."""
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
        return top

    def _build_worklist(self) -> None:
        """The worklist: the posts held here, the one on screen marked."""
        self.worklist = WorklistModel(action_labels=self.queues.action_labels)
        self.worklist_view = read_only_table(
            WorklistView(), "worklist", translate("MainWindow", "Worklist (W)")
        )
        self.worklist_view.setModel(self.worklist)
        self.worklist_view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        header = self.worklist_view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # never ResizeToContents
        # the Item column (author and first words) takes what the others leave
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.worklist_view.fit_columns()
        rows = self.worklist_view.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self._fit_rows()
        rows.hide()

    def _build_pane(self) -> None:
        """The review pane (the worklist at its left) and a lead's bulk decisions."""
        left = QSplitter(Qt.Orientation.Vertical)
        left.addWidget(self.worklist_view)
        # the post, its scores and context, and the verdict bar: the audit desk's too
        self.pane = ReviewPane(
            self.review,
            side=left,
            client_factory=self.session.client if self.session.is_lead else None,
        )
        self.post, self.scores, self.context = self.pane.post, self.pane.scores, self.pane.context
        self.context.queue_name = self.post.queue_name = self.queues.name_of
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

    def _build_breaks(self) -> None:
        """The break reminder and the break screen."""

        def break_key() -> str:
            return key_text(self.keymap.keys(Command.BREAK))

        self.break_reminder = BreakReminder(break_key)
        self.break_reminder.break_requested.connect(lambda: self.take_break(prompted=True))
        self.break_reminder.later_requested.connect(self._put_off_break)
        self.break_screen = BreakScreen(break_key)
        self.break_screen.resume_requested.connect(self.end_break)

    def _build_modes(self, central: QWidget) -> None:
        """Leads and admins get a second page; the service refuses its calls to anyone else."""
        self.lead: LeadWorkspace | None = None
        self.modes: QTabWidget | None = None
        if self.session.is_lead:
            self.lead = LeadWorkspace(
                self.session.shared_client,
                self.store.queues,
                settings=self.store.settings,
                admin=self.session.user.role is Role.admin,
                me=self.session.user.username,
                service_clock=self.store.service_time,  # its figures' windows end now there
            )
            self.lead.review_queue_requested.connect(self.review_queue)
            self.lead.review_item_requested.connect(self.review_item)
            self.lead.message_posted.connect(self.say)
            self.lead.bulk_requested.connect(self._on_lead_bulk_requested)
            self.lead.auth_required.connect(self._on_sync_auth_required)  # the same login
            self.lead.set_keys(self.keymap)
            self.lead.audits.desk.judged.connect(self._on_audit_judged)
            self.modes = QTabWidget()
            named(self.modes, "modes", translate("MainWindow", "Review or lead workspace"))
            self.modes.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self.modes.addTab(central, translate("MainWindow", "Review"))
            self.modes.addTab(self.lead, translate("MainWindow", "Lead workspace"))
            self.setCentralWidget(self.modes)
        else:
            self.setCentralWidget(central)

    def _tab_chain(self) -> None:
        """Tab follows the review flow: read the post, its context, then the verdict's parts."""
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
        self._connect_sync()
        self.queue_picker.currentIndexChanged.connect(self._select_queue)
        if self.modes is not None:
            self.modes.currentChanged.connect(lambda _index: self._work_queue())
        self.review.item_changed.connect(self._on_review_item_changed)
        self.review.verdict_recorded.connect(self._on_review_verdict_recorded)
        self.review.verdict_undone.connect(self._on_review_verdict_undone)
        self.review.message_posted.connect(self.say)
        self.review.escalation_requested.connect(self._on_review_escalation_requested)
        self.review.item_skipped.connect(self._on_review_item_skipped)
        self.post.text.first_painted.connect(self._on_post_first_painted)
        self.worklist_view.row_chosen.connect(self._on_worklist_row_chosen)
        self.keymap.changed.connect(self._on_keymap_changed)

    # --- commands -------------------------------------------------------------------------

    # --- breaks ------------------------------------------------------------------------------

    # --- panes and tabs -------------------------------------------------------------------

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
        self.queues.set_live(False)
        self.say(text)
        self.review.refresh_if_empty()
        self._update_status()

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
        self._paint_coming()
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
        self._later(self._mark_current)  # the worklist's marker follows once it is painted
        # choosing in the worklist stays there; the Lead workspace keeps its focus
        if not self.worklist_view.hasFocus() and not self.on_lead_page():
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def _mark_current(self) -> None:
        current = self.review.current
        self.worklist.set_current(current.item.id if current else None)

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
        return nothing_here(queue, self.queues.queues)

    def _on_post_first_painted(self) -> None:
        self.paint_started = None
        if self._after_paint:
            self._after_paint_timer.start(0)  # once this paint is on screen

    def _paint_coming(self) -> None:
        """A post is about to be painted: work already waiting (the sync thread's news from
        just before the key, whose timer of 0 would run before the paint) waits for it too."""
        if self.paint_started is None:
            self.paint_started = time.perf_counter()
            if self._after_paint_timer.isActive():
                self._after_paint_timer.start(AFTER_PAINT_MS)
        # the worklist's repaint, if one is due, in the frame after the post's
        self.worklist_view.hold_paint()
        self._later(self.worklist_view.release_paint)

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
        # the next post is shown right after this: what follows waits for its paint (a
        # timer of 0 here ran the worklist's query before the paint, inside the keypress)
        self._paint_coming()
        queue = self.review.queue  # the verdict's own: read from memory, not the store
        if queue is not None and queue.id == entry.queue_id:
            origin = self._harm_origin(queue)
            self.tally.decided(entry.key, queue.config, entry.verdict.policies, origin)
            self._check_break_due()
        self._saying = self._verdict_words(entry, undone=False)
        self._later(self._say_saved)
        self._later(self._count_pending)
        self._later(self._refresh_worklist)

    def _on_audit_judged(
        self, key: str, config: QueueConfig, policies: list[str], origin: QueueConfig | None
    ) -> None:
        """A post a lead judged on the blind audit desk: they saw it (the tally counts it as
        a verdict of theirs; the service counts it in their exposure too)."""
        self.tally.decided(key, config, policies, origin)
        self._check_break_due()

    def _on_review_item_skipped(self, _item_id: str) -> None:
        self.say(translate("MainWindow", "Skipped: that post goes back to the queue for others."))
        self._later(self._refresh_worklist)

    def _on_review_verdict_undone(self, entry: JournalEntry) -> None:
        self.tally.undone(entry.key)
        self.say(self._verdict_words(entry, undone=True))
        self._later(self._count_pending)
        self._later(self._refresh_worklist)

    def _verdict_words(self, entry: JournalEntry, *, undone: bool) -> str:
        """ "Saved" or "Undone": the action by its label in the queue, the post by its
        author (the item's id and the action's code, "reduce on i-cbdd618bb758dab97e8e",
        only where the window has no words for them)."""
        queue = self.review.queue
        labels = (
            queue.config.action_labels()
            if queue is not None and queue.id == entry.queue_id
            else None
        )
        action = code_words(entry.action, labels)
        handle = self.worklist.handles.get(entry.item_id) or self._shown_handle(entry.item_id)
        if handle is None:
            return (
                translate("MainWindow", "Undone: {action} on {item}.")
                if undone
                else translate(
                    "MainWindow", "Saved: {action} on {item}. Ctrl+Z undoes it for a few seconds."
                )
            ).format(action=action, item=entry.item_id)
        return (
            translate("MainWindow", "Undone: {action} on the post by {author}.")
            if undone
            else translate(
                "MainWindow",
                "Saved: {action} on the post by {author}. Ctrl+Z undoes it for a few seconds.",
            )
        ).format(action=action, author=f"@{isolate(handle)}")

    @while_open
    def _refresh_worklist(self) -> None:
        queue = self.review.queue
        rows = self.store.worklist(queue.id) if queue else []
        # each item's author and first words, read from the store once while it is listed
        new = [row.item_id for row in rows if row.item_id not in self.worklist.labels]
        if new:
            for item_id, (handle, text) in self.store.item_summaries(new).items():
                self.worklist.describe(item_id, handle, text)
        self.worklist.set_rows(rows)

    # --- what the sync engine says ----------------------------------------------------------------

    # --- the status bar and messages --------------------------------------------------------
