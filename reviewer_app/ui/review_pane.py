"""The review pane both desks show: the post, its classifier scores and context, and the
verdict bar under them, wired to one ``review.ReviewController``. The reviewer's window puts
its worklist at the pane's left (``side``); the blind audit desk shows the pane alone.

The pane owns the keys of the review flow that mean the same on both desks (an action's
key, the verdict's parts, Ctrl+Enter, Space on media): ``run_command``. What is left
(escalate, skip, undo, the panes of the window) is each desk's own.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QSplitter, QStyle, QVBoxLayout, QWidget

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Item

from .context_panels import ContextPanels
from .i18n import translate
from .keys import Binding, Command
from .plain import isolate, label, named, scrolled
from .post_pane import PostPane, PreparedPost
from .review import ReviewController, needs_prompt
from .scores import ScoresPanel
from .verdict_bar import VerdictBar

#: the keys that focus a part of the verdict, and the part
NEED_KEYS = {
    Command.FOCUS_POLICY: "policy",
    Command.FOCUS_RATING: "rating",
    Command.FOCUS_NOTE: "note",
}
#: the keys that focus a pane, and its place: the side (the worklist), the post, the
#: context, the verdict bar
PANE_KEYS = {
    Command.FOCUS_WORKLIST: 0,
    Command.FOCUS_POST: 1,
    Command.FOCUS_CONTEXT: 2,
    Command.FOCUS_VERDICTS: 3,
}
#: the keys that step through the panes (F6) and through the context tabs ("]")
STEP_KEYS = {Command.NEXT_PANE: 1, Command.PREVIOUS_PANE: -1}
TAB_KEYS = {Command.NEXT_TAB: 1, Command.PREVIOUS_TAB: -1}


def _nothing() -> None:
    pass


class ReviewPane(QWidget):
    """Post, scores and context side by side (``split``), the verdict bar below; ``side``
    (the worklist) goes at the left of the split. ``says_cancel``: the inline prompt ends
    with "Esc cancels"."""

    def __init__(
        self,
        review: ReviewController,
        *,
        side: QWidget | None = None,
        client_factory: Callable[[], ApiClient] | None = None,
        says_cancel: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.review = review
        self.says_cancel = says_cancel
        self.side = side
        self.post = PostPane()
        self.scores = ScoresPanel()
        # a lead's Author tab asks for the linked accounts afresh and may act on them
        self.context = ContextPanels(client_factory=client_factory)
        self.context.later = self.post.text.after_paint  # its tab titles follow the post
        self.verdicts = VerdictBar()
        #: the next post's display work, done after this one was painted (``_prepare_next``)
        self._prepared: PreparedPost | None = None
        #: what reads a medium from the local store (``show_item``'s)
        self._load_media: object = None
        self._stop_preparing: Callable[[], None] = _nothing
        self.split = self._build_split(side)
        #: the reviewer moved a handle: the split keeps their sizes from then on
        self._sized = False
        self.split.splitterMoved.connect(self._on_splitter_moved)
        self.context.titles_widened.connect(self._on_titles_widened)
        self.split.installEventFilter(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.split, 1)
        layout.addWidget(self.verdicts)
        self.verdicts.drafted.connect(review.decide)
        self.verdicts.submit_requested.connect(self.submit)
        review.input_needed.connect(self._on_input_needed)

    def _build_split(self, side: QWidget | None) -> QSplitter:
        middle = QWidget()
        middle_layout = QVBoxLayout(middle)
        middle_layout.setContentsMargins(0, 0, 0, 0)
        middle_layout.addWidget(scrolled(self.post, "postScroll"), 1)
        # the scores and their heading above the context: each score has its own lines
        scores_box = QWidget()
        scores_layout = QVBoxLayout(scores_box)
        scores_layout.setContentsMargins(0, 0, 0, 4)
        self.scores_heading = label(
            translate("MainWindow", "Classifier scores (bar: score; line: threshold)")
        )
        named(self.scores_heading, "scoresHeading", translate("MainWindow", "Classifier scores"))
        font = self.scores_heading.font()
        font.setBold(True)
        self.scores_heading.setFont(font)
        scores_layout.addWidget(self.scores_heading)
        scores_layout.addWidget(self.scores)
        scores_layout.addStretch(1)
        right = QSplitter(Qt.Orientation.Vertical)
        named(right, "scoresAndContext", translate("MainWindow", "Scores and context"))
        right.addWidget(scrolled(scores_box, "scoresScroll"))
        right.addWidget(self.context)
        right.setChildrenCollapsible(False)
        right.setStretchFactor(1, 1)
        right.setSizes([160, 440])  # three scores, two lines each
        split = QSplitter(Qt.Orientation.Horizontal)
        # the sizes follow the window's width (``_share_width``) until a handle is moved
        panes: list[tuple[QWidget, int, int]] = [(middle, 4, 560), (right, 2, 440)]
        if side is not None:
            panes.insert(0, (side, 1, 300))
        for widget, _stretch, _size in panes:
            split.addWidget(widget)
        split.setChildrenCollapsible(False)
        for index, (_widget, stretch, _size) in enumerate(panes):  # a wider window widens all
            split.setStretchFactor(index, stretch)
        split.setSizes([size for _widget, _stretch, size in panes])
        return split

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        resized = watched is self.split and event.type() == QEvent.Type.Resize
        if resized and not self._sized and self.split.width() > 0:
            self._share_width()
        return super().eventFilter(watched, event)

    def _on_titles_widened(self) -> None:
        if not self._sized and self.split.width() > 0:
            self._share_width()  # until a handle is moved

    def _on_splitter_moved(self, _pos: int, _index: int) -> None:
        self._sized = True

    def _share_width(self) -> None:
        """The worklist a fifth of the width (at least its columns), the scores and the
        context a third (at least their tabs' whole titles, when the post keeps the room to
        be read), and the post the rest: at 1280 px in German the panes beside the post
        left it 164 px."""
        split = self.split
        widgets = [w for i in range(split.count()) if (w := split.widget(i)) is not None]
        width = split.width() - split.handleWidth() * (len(widgets) - 1)
        side, (post, right) = (widgets[0] if len(widgets) == 3 else None), widgets[-2:]
        side_width = max(side.minimumSizeHint().width(), width // 5) if side else 0
        frame = self.style().pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth)
        tabs = self.context.fitting_bar().natural_width() + 2 * frame
        least = right.minimumSizeHint().width()
        room = width - side_width - post.minimumSizeHint().width()
        right_width = max(least, min(max(tabs, width // 3), room))
        sizes = [width - side_width - right_width, right_width]
        split.setSizes([side_width, *sizes] if side else sizes)

    # --- what is shown ----------------------------------------------------------------------

    def show_item(self, item: Item | None, load_media: object, empty: str = "") -> None:
        """``item`` in the post, scores and context panes and a fresh verdict for it (or
        ``empty``, said in the post pane, with none)."""
        self.verdicts.set_item(item)
        self.verdicts.mark(None)
        prepared, self._prepared = self._prepared, None  # of this item, or of no use now
        self._load_media = load_media
        if item is None:
            self.post.clear(empty)
            self.scores.show_scores([])
            self.context.show_item(None)
        else:
            self.post.show_item(item, load_media, prepared)
            self.scores.show_scores(item.scores)
            self.context.show_item(item)
        self._stop_preparing()
        self._stop_preparing = (
            self.post.text.after_paint(self._prepare_next) if item is not None else _nothing
        )

    def _prepare_next(self) -> None:
        """After the post is painted: the next post's costly display work (its parse, its
        text cleaned and counted, its open context tab, its images decoded and obscured), so
        its keypress only sets it. A guess the keypress checks: it is used only for the very
        item then shown."""
        self._stop_preparing = _nothing
        upcoming = self.review.peek_next()
        if upcoming is None:
            return
        self._prepared = self.post.prepare(upcoming.item)
        self.context.prepare(upcoming.item)
        self.post.media.prepare(upcoming.item.post.media, self._load_media)

    def _on_input_needed(self, action_id: str, needs: list[str]) -> None:
        """The chosen action needs more: say what inline and focus the first part."""
        self.verdicts.mark(action_id or None)
        if not needs:
            self.verdicts.ask("")
            return
        queue = self.review.queue
        action = queue.config.action(action_id) if queue else None
        name = action.label if action else action_id
        reasons = self.verdicts.reasons(action) if action else []
        self.verdicts.ask(
            needs_prompt(isolate(name), needs, cancel=self.says_cancel, reasons=reasons)
        )
        self.verdicts.focus_for(needs[0])

    # --- the keys ---------------------------------------------------------------------------

    def submit(self) -> None:
        """Ctrl+Enter: the pending action again, with what the bar holds now."""
        pending = self.review.pending_action
        if self.review.state == "input" and pending is not None:
            self.verdicts.choose(pending.id)

    def escalate(self) -> None:
        """E: the queue's escalation action, which asks for a reason first."""
        action = self.review.escalation_action()
        if action is not None:
            self.verdicts.choose(action.id)

    def run_command(
        self, binding: Binding, side: Callable[[], QWidget] | None = None
    ) -> bool | None:
        """The keys of the review flow both desks share: the verdict's, the media's, the
        panes' and the context tabs'. Returns whether the key was used, or None when it is
        not one of them (the desk's own). ``side``: the widget of the side pane (the
        worklist) to focus, made ready; without it the panes are the post, the context and
        the verdict bar (the blind audit desk's)."""
        command = binding.command
        if command in STEP_KEYS:
            return self._step_pane(STEP_KEYS[command], side)
        if command in PANE_KEYS:
            return self._focus_pane(PANE_KEYS[command], side)
        if command in TAB_KEYS:
            count = self.context.count()
            self.context.setCurrentIndex((self.context.currentIndex() + TAB_KEYS[command]) % count)
            return True
        if command is Command.ENLARGE:
            self.post.enlarge_media()
            return True
        if command is Command.ACTION:
            if binding.action_id is not None:
                self.verdicts.choose(binding.action_id)
            return True
        if command in NEED_KEYS:
            need = NEED_KEYS[command]
            widget = {"policy": self.verdicts.policies, "rating": self.verdicts.rating}.get(need)
            if widget is not None and not widget.isVisible():
                return False
            self.verdicts.focus_for(need)
            return True
        if command is Command.SUBMIT:
            self.submit()
            return True
        if command is Command.REVEAL:
            self.post.media.toggle_reveal()
            return True
        return None

    def _pane_widgets(self, side: Callable[[], QWidget] | None) -> list[QWidget | None]:
        """Where each pane takes the focus: the side (None without one), the post's text,
        the open context tab, the verdict bar's first part."""
        box = self.context.boxes[self.context.TABS[max(0, self.context.currentIndex())][0]]
        bar = self.verdicts
        verdict = next((w for w in (bar.policies, bar.rating) if w.isVisibleTo(self)), bar.note)
        return [side() if side is not None else None, self.post.text, box, verdict]

    def _focus_pane(self, index: int, side: Callable[[], QWidget] | None) -> bool:
        if index == 0 and side is None:
            return False  # no worklist on this desk
        widget = self._pane_widgets(side if index == 0 else None)[index]
        assert widget is not None
        widget.setFocus(Qt.FocusReason.ShortcutFocusReason)
        return True

    def _step_pane(self, step: int, side: Callable[[], QWidget] | None) -> bool:
        """F6 (``step`` 1) and Shift+F6 (-1): the next (previous) pane from the one with
        the focus, round."""
        focus = self.window().focusWidget()  # not this pane's: its last may be stale
        holders = (self.side if side is not None else None, self.post, self.context, self.verdicts)
        at = next(
            (
                i
                for i, pane in enumerate(holders)
                if pane is not None
                and focus is not None
                and (pane is focus or pane.isAncestorOf(focus))
            ),
            -1,
        )
        places = [i for i, pane in enumerate(holders) if pane is not None]
        if at < 0:
            to = places[0] if step > 0 else places[-1]
        else:
            to = places[(places.index(at) + step) % len(places)]
        return self._focus_pane(to, side)
