"""The post: who wrote it and when, its reach, its text (plain, wrapped, selectable, in its
own direction), highlighted spans from the classifiers, the link preview as text, media."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QRect, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (
    QColor,
    QPaintEvent,
    QResizeEvent,
    QTextCharFormat,
    QTextCursor,
    QTextOption,
)
from PySide6.QtWidgets import (
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.protocol import Item, ItemAppeal, ItemEscalation, Statement

from .accounts import banner_words
from .escalation import escalation_lines
from .i18n import translate
from .links import LinkDialog, examine
from .longtext import BATCH, QtText, cut, fill, post_direction
from .media import MediaStrip
from .media_viewer import MediaViewer
from .plain import (
    ReadingBox,
    SelectableLabel,
    ago,
    count,
    hidden_count,
    isolate,
    label,
    named,
    set_text,
    tooltip,
)
from .theme import Tone, set_tone
from .words import code_words, language_words, local_time, percent, plural

RTL_LANGUAGES = {"ar", "he", "fa", "ur", "yi", "ps", "sd", "ug", "dv", "ku"}
#: Longer texts show this much first; the rest on request (layout of a huge block is slow).
DISPLAY_LIMIT = 20_000
#: of a post's text, what fills the box (``PostText.first_screen``; at most this much) is in
#: it before the next post is painted; the rest (up to DISPLAY_LIMIT) is added right after
#: that paint. Qt lays out what is put in, a screen from its end and one from its start, and
#: at the 1280 x 860 window's box (about 350 characters shown) putting 3,000 characters in
#: took 0.5-0.6 ms of a keypress
FIRST_SCREEN = 3_000
#: and at least this much (a box not laid out yet)
FIRST_SCREEN_MIN = 400
#: the post box's preferred height: the lines its text takes, within these bounds (it
#: grows into the room its pane has to spare)
POST_LINES = (3, 10)
HIGHLIGHT = QColor(255, 214, 102, 160)


def safe_link(url: str) -> QUrl | None:
    """Only http and https links may be opened, and only when the reviewer asks."""
    parsed = QUrl(url, QUrl.ParsingMode.StrictMode)
    if parsed.isValid() and parsed.scheme() in ("http", "https") and parsed.host():
        return parsed
    return None


def _nothing() -> None:
    pass


@dataclass(frozen=True)
class PreparedPost:
    """What ``PostPane.prepare`` worked out for ``item`` ahead of its keypress."""

    item: Item
    shown: QtText
    rest: int
    hidden: int


class _AfterPaint:
    """Work for after the next paint of a post's text, until cancelled."""

    def __init__(self, work: Callable[[], None]) -> None:
        self.work = work
        self.stopped = False

    def stop(self) -> None:
        self.stopped = True
        self.work = _nothing  # lets go of what the work holds (a post's text)


class PostText(ReadingBox):
    """The post's text, plain (a QPlainTextEdit lays out faster than a QTextEdit; its frame
    shows when it has the focus). Emits ``first_painted`` after the first paint of new
    text."""

    first_painted = Signal()
    #: a whole long text is in (it is added in batches)
    filled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setUndoRedoEnabled(False)
        self.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        named(self, "postText", translate("PostPane", "Post text"))
        self._painted = True
        self.filling = False
        #: the lines the box asks for (``fit_lines``), and whether it holds the whole text
        self._lines = POST_LINES[1]
        self._whole = False
        self._stop_filling: Callable[[], None] = _nothing
        # what runs once the new text is painted (after_paint)
        self._after: list[_AfterPaint] = []

    def show_text(
        self, text: QtText, spans: list[tuple[int, int, str]], rtl: bool | None, *, whole: int = 0
    ) -> None:
        """Show ``text`` with ``spans`` (the service's code-point offsets into the text as
        sent) highlighted; ``whole``: the source length when the text is a cut of it;
        ``rtl``: the post's language is written right to left.

        The whole post is aligned to one side (``post_direction``); each paragraph takes its
        direction from its first strong letter, unless the post's language reads right to
        left or the text is cut into pieces (the whole text of a long post), where one
        direction holds for all."""
        self._painted = False
        self._stop_filling()
        self.filling = False
        document = self.document()
        option = document.defaultTextOption()
        leftward, direction = post_direction(text, rtl)
        # the plain box's layout takes AlignLeft literally (a QTextEdit mirrors it for a
        # right-to-left paragraph): an Arabic post stood at the left edge
        alignment = Qt.AlignmentFlag.AlignRight if leftward else Qt.AlignmentFlag.AlignLeft
        if option.textDirection() != direction or option.alignment() != alignment:
            option.setTextDirection(direction)  # before the text: one layout, not two
            option.setAlignment(alignment)
            document.setDefaultTextOption(option)
        if len(text.text) > BATCH:  # a whole long text: in batches, highlights at the end
            self.filling = True
            self._stop_filling = fill(self, text.text, lambda: self._filled(text, spans))
        elif len(text.text) > (first := self.first_screen()):
            # more than a screen: what the reviewer sees first now (so the next post is
            # painted at once after a keypress), the rest right after that paint
            self.setPlainText(text.text[:first])  # never HTML or Markdown
            self._highlight(text, spans, upto=first)
            self.filling = True
            self._stop_filling = self.after_paint(lambda: self._append_rest(text, spans, first))
        else:
            self.setPlainText(text.text)  # never HTML or Markdown
            self._highlight(text, spans)
        self.fit_lines(whole=not self.filling)
        self.verticalScrollBar().setValue(0)

    def after_paint(self, work: Callable[[], None]) -> Callable[[], None]:
        """Run ``work`` once the new text is painted; returns what cancels it."""
        pending = _AfterPaint(work)
        # what was cancelled meanwhile (the box not painted: hidden) goes now
        self._after = [p for p in self._after if not p.stopped] + [pending]
        return pending.stop

    def _run_after(self) -> None:
        pending, self._after = self._after, []
        for step in pending:
            if not step.stopped:
                step.work()

    def sizeHint(self) -> QSize:
        """As high as its text's lines (``fit_lines``), 3 to 10 of them, and never lower
        (its minimum): the box takes the room its pane has to spare besides (its stretch).
        Qt's fixed 192 px made the pane taller than a 1280 x 800 screen leaves it, the link
        and its button below the fold, and a short post's box mostly empty."""
        return QSize(super().sizeHint().width(), self._height(self._lines))

    def minimumSizeHint(self) -> QSize:
        # the pane scrolls (a low screen): the post's first lines are never squeezed away
        return QSize(super().minimumSizeHint().width(), self._height(self._lines))

    def _height(self, lines: int) -> int:
        margins = 2 * self.frameWidth() + 2 * int(self.document().documentMargin()) + 2
        return self.fontMetrics().lineSpacing() * lines + margins

    def fit_lines(self, whole: bool) -> None:
        """Ask for the height of the lines the text in the box takes at its width, 3 to 10
        (``whole``: the box holds the post's whole text; else it is longer than a screen:
        10). Lays out the first blocks now, which the paint would (and keeps)."""
        self._whole = whole
        least, most = POST_LINES
        lines = most
        if whole and self.isVisible():
            lines = 0
            block = self.document().firstBlock()
            while block.isValid() and lines < most:
                self.blockBoundingRect(block)  # laid out at the box's width
                lines += max(1, block.layout().lineCount())
                block = block.next()
            lines = min(most, max(least, lines))
        if lines != self._lines:
            self._lines = lines
            self.updateGeometry()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._whole and event.size().width() != event.oldSize().width():
            self.fit_lines(whole=True)  # its lines wrap elsewhere now

    def first_screen(self) -> int:
        """How much of a text fills the box as it is now, at the most: its lines as many
        letters of half the font's average width as they hold (words wrap sooner, wider
        letters fill it sooner). FIRST_SCREEN when the box is not on screen."""
        if not self.isVisible():
            return FIRST_SCREEN
        metrics = self.fontMetrics()
        viewport = self.viewport()
        per_line = viewport.width() // max(1, metrics.averageCharWidth() // 2) + 1
        lines = viewport.height() // max(1, metrics.lineSpacing()) + 1
        return max(FIRST_SCREEN_MIN, min(FIRST_SCREEN, per_line * lines))

    def _append_rest(self, text: QtText, spans: list[tuple[int, int, str]], first: int) -> None:
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text.text[first:])
        self._filled(text, spans)

    def _filled(self, text: QtText, spans: list[tuple[int, int, str]]) -> None:
        self.filling = False
        self._stop_filling = _nothing
        self._highlight(text, spans)
        self.filled.emit()

    def _highlight(
        self, text: QtText, spans: list[tuple[int, int, str]], *, upto: int | None = None
    ) -> None:
        """Mark ``spans``; ``upto``: only those that end within the first ``upto``
        positions (the rest of the text is not in the box yet)."""
        if not spans:
            return
        if upto is not None:
            spans = [s for s in spans if text.position(s[1]) <= upto]
        document = self.document()
        cursor = QTextCursor(document)
        fmt = QTextCharFormat()
        fmt.setBackground(HIGHLIGHT)
        fmt.setFontUnderline(True)
        last = document.characterCount() - 1  # the document's own last paragraph mark
        for start, end, _label in spans:
            first, after = text.position(start), min(text.position(end), last)
            if first >= after:
                continue
            cursor.setPosition(first)
            cursor.setPosition(after, QTextCursor.MoveMode.KeepAnchor)
            cursor.mergeCharFormat(fmt)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_painted.emit()
            if self._after:
                QTimer.singleShot(0, self, self._run_after)  # after this paint, not in it


def appeal_text(appeal: ItemAppeal, statements: Sequence[Statement] = ()) -> str:
    """What the appeal's reviewer reads above the post: the contested decision, who made it
    and when, the statement of reasons the user was given for it (among ``statements``, the
    item's), and the user's own words (plain text)."""
    d = appeal.contested
    subject = (
        translate("PostPane", "the decision on this account")
        if appeal.subject == "account"
        else translate("PostPane", "the decision on this post")
    )
    lines = [
        translate("PostPane", "Appeal {id} of {subject}").format(
            id=isolate(appeal.id), subject=subject
        ),
        translate("PostPane", "Contested: {action} {policies} by {reviewer}, {time}").format(
            action=code_words(d.action),
            policies=", ".join(d.policies),
            reviewer=isolate(d.reviewer),
            time=local_time(d.decided_at),
        ),
    ]
    if d.author_action is not None:
        lines.append(
            translate("PostPane", "Action on the account: {action}").format(
                action=code_words(d.author_action.value)
            )
        )
    if d.note:
        lines.append(translate("PostPane", "Reviewer's note: {note}").format(note=isolate(d.note)))
    if appeal.outcome is not None:
        lines.append(
            translate("PostPane", "Outcome: {outcome}").format(
                outcome=translate("PostPane", "upheld")
                if appeal.outcome == "upheld"
                else translate("PostPane", "reversed")
                if appeal.outcome == "reversed"
                else translate("PostPane", "ended when the platform withdrew the post")
            )
        )
    lines.append(
        translate("PostPane", "The user wrote ({time}):").format(
            time=local_time(appeal.submitted_at)
        )
    )
    # the user's words, each line isolated: a direction override or an invisible character
    # is shown as a marker (it reversed the line it was on, unseen)
    lines += [isolate(line) for line in appeal.statement.split("\n")]
    given = next((s for s in statements if s.decision_id == d.id), None)
    if given is not None:
        lines.append("")
        lines.append(translate("PostPane", "The statement of reasons the user was given:"))
        lines += [isolate(line) for line in given.text.split("\n")]
    return "\n".join(lines)


class FitLabel(SelectableLabel):
    """A wrapped plain-text label that keeps the height its lines need at its width (the
    post's text box gives way, not the link preview's last line)."""

    def __init__(self) -> None:
        super().__init__()
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(60)

    def sizeHint(self) -> QSize:
        # its width is the layout's to give (the Ignored policy): not QLabel's, which tries
        # several widths for a wrapped text, a third of a millisecond on every post
        return QSize(self.minimumWidth(), max(self.minimumHeight(), 1))

    def fit(self) -> None:
        # the wrapped text's own height at this width (QLabel's heightForWidth answered for
        # a narrower width than the label has)
        width = max(self.contentsRect().width(), 60)
        box = self.fontMetrics().boundingRect(
            QRect(0, 0, width, 100_000), int(Qt.TextFlag.TextWordWrap), self.text()
        )
        height = box.height() + self.height() - self.contentsRect().height() + 2
        if height != self.minimumHeight():
            self.setMinimumHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit()


class PostPane(QWidget):
    link_open_requested = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        #: a queue's name by its id (the queue list's), for the escalation banner
        self.queue_name: Callable[[str], str | None] | None = None
        named(self, "postPane", translate("PostPane", "Post"))
        layout = QVBoxLayout(self)
        self.byline = label()
        named(self.byline, "byline", translate("PostPane", "Author and time"))
        # an actioned author (suspended, inauthentic, ...) stands out above the post
        self.account = label(wrap=False)
        named(self.account, "authorStatus", translate("PostPane", "Author's account status"))
        self.facts = label()
        named(self.facts, "postFacts", translate("PostPane", "Language and reach"))
        # an escalated item: who sent it up, when and why, at the top (escalation.py)
        self.escalation = label("")
        named(self.escalation, "escalationBanner", translate("PostPane", "Why it was escalated"))
        set_tone(self.escalation, Tone.escalation)
        # an appeal: the contested decision and the user's statement, above the post
        self.appeal = QPlainTextEdit(self)
        self.appeal.setReadOnly(True)
        self.appeal.setUndoRedoEnabled(False)
        self.appeal.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.appeal.setMaximumHeight(220)
        set_tone(self.appeal, Tone.appeal)
        named(self.appeal, "appealBox", translate("PostPane", "The appeal"))
        self.text = PostText(self)
        self.more = QPushButton(translate("PostPane", "Show the whole text"))
        named(self.more, "showWholeText", translate("PostPane", "Show the whole text"))
        self.more.clicked.connect(self._show_all)
        self.preview = FitLabel()
        named(self.preview, "linkPreview", translate("PostPane", "Link preview"))
        # the preview over the whole width, the button under it (beside it, the preview
        # was a narrow column whose last lines were cut at 1280 px)
        link_part = QVBoxLayout()
        self.open_link = QPushButton(translate("PostPane", "Open link in browser…"))
        named(
            self.open_link,
            "openLink",
            translate("PostPane", "Open the post's link in the system browser"),
        )
        self.open_link.clicked.connect(self._open_link)
        link_part.addWidget(self.preview)
        link_part.addWidget(self.open_link, 0, Qt.AlignmentFlag.AlignLeft)
        self.media = MediaStrip(self)
        self.media.enlarge_requested.connect(self.enlarge_media)
        # the open media viewer, if any
        self.viewer: MediaViewer | None = None
        for widget in (self.escalation, self.account, self.appeal, self.byline, self.facts):
            layout.addWidget(widget)
        layout.addWidget(self.text, 1)
        layout.addWidget(self.more)
        layout.addLayout(link_part)
        layout.addWidget(self.media)
        self._full = ""
        self._spans: list[tuple[int, int, str]] = []
        self._rtl: bool | None = None
        self._link: QUrl | None = None
        # the site the link preview names (to call out a link that goes elsewhere)
        self._shown_domain: str | None = None
        # the open link dialog, if any
        self.link_dialog: LinkDialog | None = None
        self._stop_warning: Callable[[], None] = _nothing
        self._appeal_shown: str | None = None
        self.clear()

    #: the post is never narrower than this many of its average characters a line
    READABLE_CHARACTERS = 36

    def minimumSizeHint(self) -> QSize:
        """Room to read the post whatever the panes beside it ask for (in German at 1280
        px a splitter gave it 164 px and cut its lines)."""
        hint = super().minimumSizeHint()
        wide = self.fontMetrics().averageCharWidth() * self.READABLE_CHARACTERS
        return QSize(max(hint.width(), wide), hint.height())

    def clear(self, message: str | None = None) -> None:
        if message is None:
            message = translate("PostPane", "No post to review.")
        set_text(self.byline, message)
        self._stop_warning()
        self._stop_warning = _nothing
        set_text(self.facts, "")
        self._show_account(None)
        self._show_appeal(None)
        self._show_escalation(None)
        self.text.show_text(QtText(""), [], None)
        self.more.hide()
        self.preview.hide()
        self.open_link.hide()
        self.media.show_media([], None)

    @staticmethod
    def prepare(item: Item) -> PreparedPost:
        """The costly part of showing ``item`` (its cut text cleaned for Qt, its hidden
        characters counted), for while the reviewer reads the post before it."""
        shown, rest = cut(item.post.text, DISPLAY_LIMIT)
        return PreparedPost(item, QtText(shown), rest, hidden_count(item.post.text))

    def show_item(
        self, item: Item, load_media: object, prepared: PreparedPost | None = None
    ) -> None:
        """Show ``item``; ``prepared``: ``prepare``'s work, used when it is of this very
        item (the same parsed object: any other is ignored)."""
        post, author = item.post, item.author
        self._show_account(author.status.value)
        self._show_appeal(item.appeal, item.statements)
        self._show_escalation(item.escalation)
        verified = " " + translate("PostPane", "✓ verified") if author.verified else ""
        set_text(
            self.byline,
            f"{isolate(author.display_name)} @{isolate(author.handle)}{verified} · "
            + translate("PostPane", "posted {ago} ({time})").format(
                ago=ago(post.created_at), time=local_time(post.created_at)
            ),
        )
        reach = item.reach
        facts = translate(
            "PostPane",
            "Language: {language} · {views} views · {shares} shares · "
            "{recent} views in the last hour ({growth}/h)",
        ).format(
            language=language_words(post.language),
            views=count(reach.views),
            shares=count(reach.shares),
            recent=count(reach.views_last_hour),
            growth=percent(reach.growth_per_hour, signed=True),
        )
        set_text(self.facts, facts)
        self._stop_warning()
        self._stop_warning = _nothing
        if prepared is not None and prepared.item is item:  # worked out while idle
            text, rest = prepared.shown, prepared.rest
            self._warn_hidden(facts, prepared.hidden)
        else:
            # counting them takes a pass over the whole text (a millisecond at 50,000
            # characters): right after the post is painted, not between keypress and paint
            self._stop_warning = self.text.after_paint(
                lambda: self._warn_hidden(facts, hidden_count(post.text))
            )
            shown, rest = cut(post.text, DISPLAY_LIMIT)
            text = QtText(shown)
        self._full = post.text
        self._spans = [(s.start, s.end, s.label) for score in item.scores for s in score.spans]
        language = post.language.split("-")[0].lower()
        self._rtl = True if language in RTL_LANGUAGES else None
        self.text.show_text(text, self._spans, self._rtl)
        self.more.setVisible(rest > 0)
        if rest > 0:
            more = translate("PostPane", "Show the whole text (%Ln more character(s))")
            self.more.setText(plural(more, rest))
        preview = post.link_preview
        if preview is not None:
            set_text(
                self.preview,
                translate("PostPane", "Link: {domain} — {title}").format(
                    domain=isolate(preview.domain), title=isolate(preview.title)
                )
                + f"\n{isolate(preview.description)}\n{isolate(preview.url)}",
            )
            self.preview.setToolTip(tooltip(preview.url))
            self._link = safe_link(preview.url)
            self._shown_domain = preview.domain
        else:
            set_text(
                self.preview,
                translate("PostPane", "Post address: {url}").format(url=isolate(post.url)),
            )
            self._link = safe_link(post.url)
            self._shown_domain = None
        self.preview.show()
        self._fit_preview()
        self.open_link.setVisible(self._link is not None)
        self.media.show_media(post.media, load_media)

    def _warn_hidden(self, facts: str, hidden: int) -> None:
        self._stop_warning = _nothing
        if hidden:
            warning = plural(
                translate(
                    "PostPane", "The text holds %Ln invisible or direction-changing character(s)."
                ),
                hidden,
            )
            set_text(self.facts, f"{facts}\n⚠ {warning}")

    def _fit_preview(self) -> None:
        self.preview.fit()

    def _show_account(self, status: str | None) -> None:
        words = banner_words(status) if status else ""
        set_text(self.account, words)
        closing = status in ("suspended", "inauthentic")
        set_tone(self.account, Tone.actioned if closing else Tone.warned if words else None)
        self.account.setVisible(bool(words))

    def _show_escalation(self, escalation: ItemEscalation | None) -> None:
        lines = escalation_lines(escalation, self.queue_name)
        set_text(self.escalation, "\n".join(lines))
        self.escalation.setVisible(bool(lines))

    def _show_appeal(self, appeal: ItemAppeal | None, statements: Sequence[Statement] = ()) -> None:
        shown = appeal_text(appeal, statements) if appeal is not None else ""
        if shown != self._appeal_shown:  # most posts have none: no text to set and lay out
            self._appeal_shown = shown
            self.appeal.setPlainText(shown)  # never HTML
        self.appeal.setVisible(appeal is not None)

    def _show_all(self) -> None:
        """The whole text, laid out in lines of at most CHUNK characters and added in
        batches (a 100,000-character paragraph held the window for over a second)."""
        self.text.show_text(QtText(self._full, chunked=True), self._spans, self._rtl)
        self.more.hide()

    def enlarge_media(self, index: int = 0) -> None:
        """The post's media large, from ``index`` (media_viewer.MediaViewer)."""
        if not self.media.tiles:
            return
        if self.viewer is not None:
            self.viewer.close()
        self.viewer = MediaViewer(self.media, index, self)
        self.viewer.open()

    def _open_link(self) -> None:
        """Where the link goes, before anything opens it (links.LinkDialog)."""
        if self._link is None:
            return
        self.link_open_requested.emit(self._link)
        if self.link_dialog is not None:
            self.link_dialog.close()
        self.link_dialog = LinkDialog(examine(self._link, self._shown_domain), self)
        self.link_dialog.open()
