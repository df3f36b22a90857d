"""Untrusted strings as plain text, always.

QLabel, tooltips and message boxes guess HTML from any string (``Qt.AutoText``). Every
string that came from a post, an author, a report or a note goes through these helpers:
labels are set to ``Qt.PlainText``; tooltips, which have no plain mode, get the text
escaped; lone surrogates become U+FFFD; in names and other inline strings, bidi controls
and invisible characters are shown as visible markers.
"""

from __future__ import annotations

import html
from datetime import UTC, datetime
from typing import TypeVar

import regex
from PySide6.QtCore import QAbstractItemModel, QDateTime, QEvent, QLocale, QObject, QRect, QSize, Qt
from PySide6.QtGui import (
    QContextMenuEvent,
    QEnterEvent,
    QFocusEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFrame,
    QHeaderView,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QStyle,
    QStyleOptionButton,
    QStyleOptionHeader,
    QTableView,
    QWidget,
)

from .a11y import described
from .i18n import translate

TOOLTIP_LIMIT = 2_000
BOMS = ("\ufeff", "\ufffe")


def clean(text: str) -> str:
    """The text with lone surrogates (possible from JSON escapes) replaced by U+FFFD, and a
    leading U+FEFF or U+FFFE kept from being read as a byte-order mark: Qt drops a leading
    U+FEFF and byte-swaps a whole string that starts with U+FFFE, so such a string gets an
    invisible U+2060 in front (counted and marked like every other invisible character)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if text[:1] in BOMS:
        return "\u2060" + text
    return text


#: Characters that change the direction of text or hide themselves, by Unicode property:
#: every default-ignorable code point (soft hyphen, joiners, fillers, variation selectors,
#: tags...) and every bidi control. A zero-width joiner between two pictographs and a
#: variation selector after an emoji are spared: they make one emoji ("👩‍💻", "❤️").
HIDDEN_RE = regex.compile(
    r"[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]"
    r"(?<!(?<=\p{Extended_Pictographic}[\uFE0F\p{Emoji_Modifier}]*)\u200D"
    r"(?=\p{Extended_Pictographic}))"
    r"(?<!\p{Emoji}[\uFE0E\uFE0F])"
)

#: What ``isolate`` puts around every untrusted string it embeds: FIRST STRONG ISOLATE and
#: POP DIRECTIONAL ISOLATE, so the string takes its own direction and cannot reorder the
#: app's words around it (numbers after a Hebrew queue name, "waiting" after an override).
FSI, PDI = "\u2068", "\u2069"


def marker(char: str) -> str:
    """The visible stand-in of a bidi control or invisible character."""
    return f"⟦U+{ord(char):04X}⟧"


def isolate(text: str, *, wrap: bool = True) -> str:
    """The only way an untrusted string (a name, a label, a handle, a queue's name, a
    domain) enters text the app shows: every bidi control and invisible character shown as
    a visible marker, the whole wrapped in FSI…PDI (``wrap=False`` for window titles, which
    the window manager draws, where the markers alone keep the order)."""
    body = HIDDEN_RE.sub(lambda m: marker(m.group()), clean(text))
    return FSI + body + PDI if wrap else body


_HIDDEN_CHARS = regex.compile(r"[\p{Default_Ignorable_Code_Point}\p{Bidi_Control}]")
_EMOJI_PARTS = ("\u200d", "\ufe0e", "\ufe0f")


def hidden_count(text: str) -> int:
    """How many bidi controls and invisible characters the text holds. Every such
    character is outside ASCII, and ``isascii`` is free (CPython knows it of every string):
    most posts cost nothing; others one pass of the property's character class (about
    25 ns a character), and the emoji look-arounds only when a joiner or a variation
    selector is there."""
    if text.isascii():
        return 0
    if any(part in text for part in _EMOJI_PARTS):
        return len(HIDDEN_RE.findall(text))
    return len(_HIDDEN_CHARS.findall(text))


#: bidi marks, embeddings and overrides (a tooltip keeps the isolates ``isolate`` adds)
_REORDERING = regex.compile(r"[\u061C\u200E\u200F\u202A-\u202E]")


def tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally (tooltips would otherwise render HTML), its
    reordering bidi controls as markers: "login\u202egnp.exe" read "loginexe.png"."""
    body = _REORDERING.sub(lambda m: marker(m.group()), clean(text))
    if len(body) > TOOLTIP_LIMIT:
        body = body[:TOOLTIP_LIMIT] + "…"
    return f'<p style="white-space:pre-wrap">{html.escape(body)}</p>'


def rich_escaped(text: str, limit: int = 40) -> str:
    """An untrusted inline string for a place that always renders HTML (Qt Charts titles,
    legend and axis labels): escaped, bidi controls shown as markers, cut to ``limit``."""
    body = isolate(text, wrap=False)
    if len(body) > limit:
        body = body[:limit] + "…"
    return html.escape(FSI + body + PDI)


class SelectableLabel(QLabel):
    """A label whose text the mouse can select, made selectable when the pointer comes over
    it. A selectable QLabel keeps its text in a rich-text document that is filled, laid
    out and measured again at every change of text (about a third of the window's layout
    after a verdict key, with the post's labels); a plain one draws its line directly.
    Nothing selects a label's text but the mouse, so it is plain until the pointer is on
    it, and again once the pointer leaves with nothing selected (not while its context
    menu, whose actions work on that document, is open)."""

    _in_menu = False

    def enterEvent(self, event: QEnterEvent) -> None:
        if self.textInteractionFlags() != _SELECTABLE:
            self.setTextInteractionFlags(_SELECTABLE)
        super().enterEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        if not self._in_menu and not self.hasSelectedText():
            self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        super().contextMenuEvent(event)  # pops the menu up (and returns) when selectable
        # the menu takes the pointer (a leave): selectable until the menu is gone
        for menu in self.findChildren(QMenu):
            if menu.isVisible():
                self._in_menu = True
                menu.destroyed.connect(self._menu_gone)  # (deleted once closed)

    def _menu_gone(self) -> None:
        self._in_menu = False


_SELECTABLE = Qt.TextInteractionFlag.TextSelectableByMouse


def label(
    text: str = "", parent: QWidget | None = None, *, wrap: bool = True, selectable: bool = True
) -> QLabel:
    """A QLabel that never interprets its text; the mouse can select it (SelectableLabel)
    unless ``selectable`` is False."""
    widget = SelectableLabel(parent) if selectable else QLabel(parent)
    if not selectable:
        widget.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
    widget.setTextFormat(Qt.TextFormat.PlainText)
    widget.setWordWrap(wrap)
    if wrap:  # a long text wraps; it must not widen the layout around it
        widget.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        widget.setMinimumWidth(60)
    widget.setText(clean(text))
    return widget


#: the widest a text from the wire (an action's label, a queue's name) makes a button, a combo
#: or a table column: longer ones are elided, the whole text in the tooltip. A window's
#: minimum size never depends on data.
LABEL_WIDTH = 260
#: how many characters of a name a combo box is sized for, whatever its items
COMBO_CHARS = 18


class ElidedButton(QPushButton):
    """A button whose text comes from data: it asks for at most LABEL_WIDTH, can shrink to
    a few letters, and shows its text elided to the width it gets ("&" shown, never a
    mnemonic). Its tooltip is the caller's (with the whole text)."""

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.full_text = clean(text)
        self._shown = ""
        # may shrink below its size hint, down to a few letters (a button's default would
        # keep it at its hint: twelve long labels made a window 7,000 px wide)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self._elide(LABEL_WIDTH)

    def _chrome(self, width: int) -> QSize:
        option = QStyleOptionButton()
        self.initStyleOption(option)
        contents = QSize(width, self.fontMetrics().height())
        return self.style().sizeFromContents(
            QStyle.ContentsType.CT_PushButton, option, contents, self
        )

    def sizeHint(self) -> QSize:
        fm = self.fontMetrics()
        return self._chrome(min(fm.horizontalAdvance(self.full_text), LABEL_WIDTH) + 2)

    def minimumSizeHint(self) -> QSize:
        return self._chrome(self.fontMetrics().horizontalAdvance("MM…"))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        # what the frame and padding take (a style's minimum button width, 80 px in most,
        # is not padding: measured beyond it)
        self._elide(self.width() - (self._chrome(400).width() - 400))

    def _elide(self, width: int) -> None:
        shown = self.fontMetrics().elidedText(
            self.full_text, Qt.TextElideMode.ElideRight, max(width, 0)
        )
        if shown != self._shown:
            self._shown = shown
            self.setText(shown.replace("&", "&&"))


class ElidedLabel(QLabel):
    """One line of text from the wire (a classifier's name, a version): asks for at most
    LABEL_WIDTH, can shrink to a few letters, draws its text elided; ``text()`` stays whole
    and a text that does not fit is whole in the tooltip."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._tip()

    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(hint.width(), LABEL_WIDTH), hint.height())

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), self.fontMetrics().horizontalAdvance("MM…")), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._tip()

    def _tip(self) -> None:
        whole = self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()
        tip = tooltip(self.text()) if whole and self.text() else ""
        if self.toolTip() != tip:
            self.setToolTip(tip)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(
            self.text(), Qt.TextElideMode.ElideRight, rect.width()
        )
        self.style().drawItemText(
            painter,
            rect,
            int(self.alignment()),
            self.palette(),
            self.isEnabled(),
            shown,
            self.foregroundRole(),
        )
        painter.end()


def bounded(combo: QComboBox) -> QComboBox:
    """A combo box of names from the wire, sized for COMBO_CHARS characters whatever its
    items (a 200-character queue name made the window wider than the screen)."""
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(COMBO_CHARS)
    combo.view().setTextElideMode(Qt.TextElideMode.ElideRight)
    return combo


def fit_columns(view: QTableView | QAbstractItemView) -> None:
    """Columns as wide as their contents, at most LABEL_WIDTH or their title's width (cells
    elide, their tooltips carry the whole text; titles stay whole)."""
    if not isinstance(view, QTableView):
        return
    header: QHeaderView = view.horizontalHeader()
    fitted = header.property(_FITTED)
    if fitted is not None and list(fitted) != _widths(header):
        return  # the reader widened or narrowed a column since: a reload keeps their widths
    view.resizeColumnsToContents()
    for column in range(header.count()):
        most = max(LABEL_WIDTH, header.sectionSizeHint(column))
        if header.sectionSize(column) > most:
            header.resizeSection(column, most)
    if header.stretchLastSection():  # the last column to the table's end again (its size,
        header.setStretchLastSection(False)  # fitted above, held until the next resize)
        header.setStretchLastSection(True)
    header.setProperty(_FITTED, _widths(header))


#: the widths ``fit_columns`` gave a header's columns that only a reader resizes (not the
#: last, which may stretch, nor one that takes the spare width: ``stretch_column``)
_FITTED = "fittedWidths"


def _widths(header: QHeaderView) -> list[int]:
    interactive = QHeaderView.ResizeMode.Interactive
    return [
        header.sectionSize(c) if header.sectionResizeMode(c) == interactive else -1
        for c in range(header.count() - 1)
    ]


def stretch_column(view: QTableView, column: int) -> None:
    """``column`` (the post's text, say) takes the table's spare width, not the last one."""
    header = view.horizontalHeader()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)


def fit_headers(view: QTableView) -> None:
    """Widens each column that is narrower than its header's title (a section's default
    width cut "Decision of record" to "ecision of reco")."""
    header = view.horizontalHeader()
    for column in range(header.count()):
        wanted = header.sectionSizeHint(column)
        if header.sectionSize(column) < wanted:
            header.resizeSection(column, wanted)


class TitleHeader(QHeaderView):
    """A sortable table's header that keeps room for the sort arrow in the sorted column
    only. Qt sizes every section of a sortable header as if its arrow were there, and as a
    square of the section's height: a title on three lines got about 60 pixels more than it
    needs, and a twelve-column table of figures scrolled sideways at 1280 px. The sorted
    column gets the arrow's room as the style gives it (what its title loses to the arrow,
    at least the arrow's size and a margin), and widens to it when the sort moves there."""

    _sizing = False

    def sectionSizeFromContents(self, logicalIndex: int) -> QSize:
        if self._sizing or not self.isSortIndicatorShown():
            return super().sectionSizeFromContents(logicalIndex)
        self._sizing = True  # (showing the arrow again can ask for sizes: Qt's, then)
        self.setSortIndicatorShown(False)
        try:
            size = super().sectionSizeFromContents(logicalIndex)
        finally:
            self.setSortIndicatorShown(True)
            self._sizing = False
        if (
            logicalIndex == self.sortIndicatorSection()
            and self.orientation() == Qt.Orientation.Horizontal
        ):
            size.setWidth(size.width() + self.arrow_room(size.height()))
        return size

    def arrow_room(self, height: int) -> int:
        """The width the sort arrow takes from a section's title in this style."""
        style, option = self.style(), QStyleOptionHeader()
        option.rect = QRect(0, 0, 1000, height)
        option.state = QStyle.StateFlag.State_Horizontal
        option.sortIndicator = QStyleOptionHeader.SortIndicator.SortDown
        narrowed = style.subElementRect(QStyle.SubElement.SE_HeaderLabel, option, self).width()
        option.sortIndicator = QStyleOptionHeader.SortIndicator.None_
        whole = style.subElementRect(QStyle.SubElement.SE_HeaderLabel, option, self).width()
        mark = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, None, self)
        margin = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, self)
        return max(whole - narrowed, mark + margin)


def _title_header(view: QTableView) -> QHeaderView:
    """``view``'s horizontal header, a ``TitleHeader`` with the settings it had."""
    old = view.horizontalHeader()
    if isinstance(old, TitleHeader):
        return old
    header = TitleHeader(Qt.Orientation.Horizontal, view)
    header.setSectionsClickable(old.sectionsClickable())
    header.setHighlightSections(old.highlightSections())
    header.setStretchLastSection(old.stretchLastSection())
    header.setSortIndicatorShown(old.isSortIndicatorShown())
    header.setDefaultAlignment(old.defaultAlignment())
    header.setMinimumSectionSize(old.minimumSectionSize())
    view.setHorizontalHeader(header)
    if view.isSortingEnabled():
        view.setSortingEnabled(True)  # (the new header's clicks sort)
    return header


class _HeadersFit(QObject):
    """Fits ``view``'s columns to their titles whenever its columns or its font change, or
    the sort moves to another column (its arrow needs room)."""

    def __init__(self, view: QTableView) -> None:
        super().__init__(view)
        self.view = view
        header = view.horizontalHeader()
        header.sectionCountChanged.connect(lambda _old, _new: fit_headers(view))
        header.sortIndicatorChanged.connect(lambda _section, _order: fit_headers(view))
        header.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.FontChange:  # the reviewer's text size, changed
            fit_headers(self.view)
        return False


def keep_headers_fit(view: QTableView) -> None:
    """Every column of ``view`` at least as wide as its title, once the model gives the
    columns and again at every new text size (columns fitted at 11 points cut their titles
    at 16). Its header keeps room for the sort arrow in the sorted column only
    (``TitleHeader``)."""
    _title_header(view)
    _HeadersFit(view)


def set_text(widget: QLabel, text: str) -> bool:
    """``text`` on ``widget`` as plain text, and as its accessible description when it is
    ``named`` (``a11y.described``); whether the text changed."""
    widget.setTextFormat(Qt.TextFormat.PlainText)
    if widget.text() == (text := clean(text)):
        return False  # (nor did its description: nothing to tell anyone)
    widget.setText(text)
    described(widget)
    return True


W = TypeVar("W", bound=QWidget)


def named(widget: W, object_name: str, accessible_name: str) -> W:
    """``widget`` with a stable object name (for tests and tools: never translated, never
    shown) and its name for screen readers (shown: pass ``translate(...)``); a label's
    text is its accessible description (``a11y.described``)."""
    widget.setObjectName(object_name)
    widget.setAccessibleName(accessible_name)
    described(widget)
    return widget


TableT = TypeVar("TableT", bound=QAbstractItemView)


class SortedTable(QTableView):
    """A table whose rows follow its header's sort arrow from its first model on (sorting
    is switched on before a model is set: the arrow showed, the rows stayed in the order
    they came). The arrow starts on the first column, ascending."""

    def __init__(self) -> None:
        super().__init__()
        self._first_model = True

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        if model is None or not self.isSortingEnabled():
            return
        header = self.horizontalHeader()  # (a header set after __init__ counts)
        if self._first_model:
            self._first_model = False
            header.setSortIndicator(0, Qt.SortOrder.AscendingOrder)
        self.sortByColumn(header.sortIndicatorSection(), header.sortIndicatorOrder())


def read_only_table(
    table: TableT, object_name: str, accessible_name: str, *, rows: bool = True
) -> TableT:
    """``table`` (a view or a table widget, model not yet set) made one the user reads:
    ``named``, nothing in it edited, Tab leaving it for the next widget (its arrows move in
    it, as in every pane), and one whole row selected at a time (``rows``), else none."""
    named(table, object_name, accessible_name)
    table.setTabKeyNavigation(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    if rows:
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    else:
        table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    return table


def ago(moment: datetime, now: datetime | None = None) -> str:
    """'3 h ago', '2 d ago' (for times from the wire, which are aware UTC)."""
    now = now or datetime.now(UTC)
    seconds = max(0, int((now - moment).total_seconds()))
    if seconds >= 86_400:
        return translate("Plain", "{n} d ago").format(n=seconds // 86_400)
    if seconds >= 3_600:
        return translate("Plain", "{n} h ago").format(n=seconds // 3_600)
    if seconds >= 60:
        return translate("Plain", "{n} min ago").format(n=seconds // 60)
    return translate("Plain", "{n} s ago").format(n=seconds)


def count(value: int | float) -> str:
    """12,345 / 1.2 M, in the user's locale (12.345 / 1,2 M in German)."""
    if value >= 1_000_000:
        return QLocale().toString(value / 1_000_000, "f", 1) + " M"
    if value >= 10_000:
        return QLocale().toString(value / 1_000, "f", 0) + " k"
    return whole(value)


def whole(value: int | float) -> str:
    """A whole number in the user's locale: 1,015 in English, 1.015 in German (where
    "1,015" reads as about one)."""
    return QLocale().toString(round(value))


def local_day(moment: datetime, pattern: str) -> str:
    """``moment`` in local time, its day and month names in the user's language
    (``pattern``: Qt's, such as ``"ddd dd MMM HH:mm"``)."""
    when = QDateTime.fromMSecsSinceEpoch(round(moment.timestamp() * 1000))
    return QLocale().toString(when, pattern)


class VerticalScrollArea(QScrollArea):
    """Scrolls up and down only, so never narrower than what it holds can be: a splitter
    squeezed the post's pane to 164 px in German at 1280 px and cut its text off."""

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        inner = self.widget()
        if inner is None:
            return hint
        wide = (
            inner.minimumSizeHint().width()
            + self.verticalScrollBar().sizeHint().width()
            + 2 * self.frameWidth()
        )
        return QSize(max(hint.width(), wide), hint.height())


def scrolled(widget: QWidget, object_name: str) -> QScrollArea:
    """``widget`` in a frameless vertical scroll area: on a low screen it scrolls, its
    bottom is never cut off (the post's media, the last score)."""
    area = VerticalScrollArea()
    area.setObjectName(object_name)
    area.setWidget(widget)
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    return area


def show_focus(frame: QFrame, focused: bool) -> None:
    """A read-only text box's frame in the highlight colour while it has the keyboard focus
    (it has no cursor, and Fusion draws its frame alike with and without focus: a keyboard
    user could not tell the post text or a context tab had it). Same width either way, so
    the text is not laid out again; called on focus changes only."""
    if focused:
        width = frame.frameWidth()
        palette = frame.palette()
        frame.setProperty("_unfocused", (frame.frameStyle(), frame.lineWidth(), QPalette(palette)))
        palette.setColor(QPalette.ColorRole.WindowText, palette.color(QPalette.ColorRole.Highlight))
        frame.setPalette(palette)
        frame.setFrameStyle(QFrame.Shape.Box.value | QFrame.Shadow.Plain.value)
        frame.setLineWidth(width)
        return
    before = frame.property("_unfocused")
    if before:
        style, line, palette = before
        frame.setFrameStyle(style)
        frame.setLineWidth(line)
        frame.setPalette(palette)
        frame.setProperty("_unfocused", None)


class ReadingBox(QPlainTextEdit):
    """A read-only text box whose frame shows when it has the keyboard focus."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)

    def focusInEvent(self, event: QFocusEvent) -> None:
        show_focus(self, True)
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        show_focus(self, False)
        super().focusOutEvent(event)
