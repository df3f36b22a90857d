"""What the review window holds, declared once for its parts (``window_keys``,
``window_actions``, ``window_sync``): each part is a base of ``main_window.MainWindow``,
which builds all of it."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractItemModel, QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QLabel,
    QMainWindow,
    QProgressBar,
    QTableView,
    QTabWidget,
)

from reviewer_app.core.session import ReviewSession
from reviewer_app.core.store import Store
from reviewer_app.core.wellbeing import ShiftTally
from reviewer_app.protocol import Queue

from . import preferences as P
from .bridge import SyncBridge
from .context_panels import ContextPanels
from .dialogs import ConflictsView, LoginDialog
from .escalation import EscalationDialog
from .i18n import translate
from .keys import Command, Keymap
from .lead.bulk import BulkDecisionDialog, BulkSender
from .lead.workspace import LeadWorkspace
from .models import STATE_WORDS, SYNC_WORDS, QueueListModel, WorklistModel
from .my_decisions import FeedbackBar, MyDecisionsView
from .post_pane import PostPane
from .review import ReviewController
from .review_pane import ReviewPane
from .scores import ScoresPanel
from .verdict_bar import VerdictBar
from .wellbeing import BreakReminder, BreakScreen

if TYPE_CHECKING:
    from .window_keys import KeyFilter


#: what a worklist column has beside its text (the cell's margins and a little air)
PADDING = 10


class WorklistView(QTableView):
    """The worklist: arrows (or a click) choose a post and that post opens."""

    row_chosen = Signal(int)
    #: the narrow columns (state, lease, sync) and what each shows (each word of the state
    #: and sync columns, translated, is measured: the longest sets the width)
    NARROW = (
        (1, tuple(STATE_WORDS.values())),
        (2, ("99:59",)),
        (3, tuple(w for w in SYNC_WORDS.values() if w)),
    )
    #: what the Item column shows at the least: the current row's mark and a handle of
    #: usual length (at 1280 px it was "◀ @…", some 55 px)
    ITEM_SAMPLE = "◀ @maya_bikes"

    def __init__(self) -> None:
        super().__init__()
        #: the model changed since the list was last painted (its repaint is due)
        self.paint_due = False
        #: ``hold_paint`` held that repaint back
        self.held = False
        self.viewport().installEventFilter(self)
        # one line a row, cut where the cell ends: wrapped at words, the current row's
        # "◀ @handle: …" showed "◀ …" in a narrow Item column (the handle went to a second
        # line the row has no room for)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        if model is None:
            return
        for signal in (
            model.dataChanged,
            model.rowsInserted,
            model.rowsRemoved,
            model.rowsMoved,
            model.layoutChanged,
            model.modelReset,
        ):
            signal.connect(self._due)

    def _due(self, *_args: object) -> None:
        self.paint_due = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and watched is self.viewport():
            if self.held:  # what is on screen stays until release_paint
                return True
            self.paint_due = False
        return super().eventFilter(watched, event)  # the scroll bars' hover, editors' focus

    def hold_paint(self) -> None:
        """Keep a repaint that is due out of the next frame, until ``release_paint``: a
        keypress's frame paints the next post, and the list's repaint (every row through
        Python: the lease countdown changes a column a second) waits for the frame after
        it, the list as it was on screen meanwhile. Nothing is held when no repaint
        is due (releasing repaints it all).

        Disabling updates would not do: Qt still paints what was marked dirty before. The
        paint event is dropped instead, the viewport opaque meanwhile so that Qt fills no
        background under it and the rows on screen stay as they were."""
        if self.paint_due and not self.held:
            self.held = True
            self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, True)

    def release_paint(self) -> None:
        if self.held:
            self.held = False
            self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent, False)
            self.viewport().update()

    def fit_columns(self) -> None:
        """The narrow columns as wide as their title and their longest word in the font and
        language in use (again when the reviewer changes the text size); the Item column
        takes what they leave, at the least its title's width."""
        model, header, metrics = self.model(), self.horizontalHeader(), self.fontMetrics()
        for column, words in self.NARROW:
            shown = [str(model.headerData(column, Qt.Orientation.Horizontal))]
            shown += [translate("Models", w) for w in words]
            wide = max(metrics.horizontalAdvance(text) for text in shown)
            header.resizeSection(column, wide + PADDING)
        header.setMinimumSectionSize(metrics.horizontalAdvance("Item") + 2 * PADDING)
        self.updateGeometry()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange and self.model() is not None:
            self.fit_columns()

    def minimumSizeHint(self) -> QSize:
        """Never narrower than its columns: the Item column's least width beside the
        others (a splitter squeezed the list until the Sync column went off its side,
        behind a scroll bar, at 1280 px), and the Item column never narrower than a
        handle."""
        hint = super().minimumSizeHint()
        header = self.horizontalHeader()
        narrow = sum(header.sectionSize(c) for c, _sample in self.NARROW if c < header.count())
        wide = (
            narrow
            + max(header.minimumSectionSize(), self.item_width())
            + self.verticalScrollBar().sizeHint().width()
            + 2 * self.frameWidth()
        )
        return QSize(max(hint.width(), wide), hint.height())

    def item_width(self) -> int:
        """The Item column's least width in the font in use (``ITEM_SAMPLE``)."""
        return self.fontMetrics().horizontalAdvance(self.ITEM_SAMPLE) + PADDING

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


class WindowParts(QMainWindow):
    """The review window's state and widgets, and the methods one part calls in another."""

    # the session
    session: ReviewSession
    store: Store
    bridge: SyncBridge
    prefs: P.Preferences
    review: ReviewController
    is_open: bool
    keymap: Keymap
    key_filter: KeyFilter
    _timer: QTimer
    # the sync engine's word
    online: bool | None
    pending: int
    held: int
    held_until: float | None
    needs_login: bool
    conflict_count: int
    last_sync: float | None
    drained: set[str]
    _banner_kind: str
    _standing_note: str
    # the open dialogs
    relogin: LoginDialog | None
    conflicts_view: ConflictsView | None
    my_decisions_view: MyDecisionsView | None
    escalation_dialog: EscalationDialog | None
    bulk_sender: BulkSender | None
    bulk_dialog: BulkDecisionDialog | None
    shift_start: datetime
    menu_actions: dict[Command, QAction]
    # breaks
    tally: ShiftTally
    _tally_timer: QTimer
    break_reminders: bool
    _break_queue: Queue | None
    # the widgets
    pane: ReviewPane
    post: PostPane
    scores: ScoresPanel
    context: ContextPanels
    verdicts: VerdictBar
    queues: QueueListModel
    queue_picker: QComboBox
    worklist: WorklistModel
    worklist_view: WorklistView
    lead: LeadWorkspace | None
    modes: QTabWidget | None
    banner: QLabel
    progress: QProgressBar
    break_reminder: BreakReminder
    break_screen: BreakScreen
    feedback_bar: FeedbackBar
    #: a verdict's "Saved" still to be said, once the next post is painted
    _saying: str | None
    # the methods one part calls in another
    say: Callable[[str], None]
    notify: Callable[..., None]
    _update_status: Callable[[], None]
    _update_conflicts: Callable[[], None]
    _later: Callable[[Callable[[], None]], None]
    _refresh_worklist: Callable[[], None]
    _ask_role: Callable[..., None]
    _select_queue: Callable[[int], None]
    _nothing_here: Callable[[], str]
    _apply_menu_keys: Callable[[], None]
    _check_break_due: Callable[[], None]
    show_mode: Callable[[int], None]
    show_help: Callable[[], None]
    show_conflicts: Callable[[], None]
    log_in_again: Callable[..., None]
    media_defaults: Callable[[], None]
    review_queue_at: Callable[[int], bool]
    keyed_queue: Callable[[], Queue | None]
    take_break: Callable[..., None]
    end_break: Callable[[], None]
