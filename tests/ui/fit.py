"""Does every text on screen fit its widget? A walk over the visible labels, buttons, table
header sections, tab bars, combo boxes and empty fields' placeholders of a window that
names each text that does not fit, measured with the widget's own font metrics against its geometry.

A text elided by design (a name from the wire in an ``ElidedLabel``, ``ElidedButton``, a
bounded combo) passes when the widget's tooltip holds the whole text."""

from __future__ import annotations

import html
import re

from PySide6.QtCharts import QChartView, QDateTimeAxis
from PySide6.QtCore import QDateTime, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractScrollArea,
    QCheckBox,
    QComboBox,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QRadioButton,
    QStyle,
    QStyleOptionButton,
    QStyleOptionComboBox,
    QStyleOptionHeader,
    QStyleOptionTab,
    QTabBar,
    QTableView,
    QToolButton,
    QWidget,
)

#: a pixel or two of rounding between the metrics and the layout is not a cut-off text
SLACK = 2


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def _tip_has(widget: QWidget, text: str) -> bool:
    tip = widget.toolTip()
    if not tip or not text:
        return False
    body = html.unescape(re.sub(r"<[^>]+>", "", tip))
    whole = text.rstrip("…").rstrip(".")
    return whole[:40] in body


def _shown(widget: QWidget) -> bool:
    """Visible and not scrolled away inside a scroll area's viewport."""
    if not widget.isVisible() or widget.width() <= 0:
        return False
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QAbstractScrollArea) and not isinstance(parent, QAbstractItemView):
            viewport = parent.viewport()
            if viewport.isAncestorOf(widget):
                top_left = widget.mapTo(viewport, widget.rect().topLeft())
                if not viewport.rect().intersects(widget.rect().translated(top_left)):
                    return False
        parent = parent.parentWidget()
    return True


def _clipped(widget: QWidget) -> str | None:
    """Whether an ancestor cuts the widget off (a splitter giving a column less than its
    minimum). Inside a scroll area's viewport the rest can be scrolled to: not cut, unless
    the area never scrolls that way (a vertical scroll area cuts what is too wide)."""
    rect = widget.rect()
    child: QWidget = widget
    parent = widget.parentWidget()
    while parent is not None and not child.isWindow():
        area = parent.parentWidget()
        if isinstance(area, QAbstractScrollArea) and parent is area.viewport():
            sideways = area.horizontalScrollBarPolicy() != Qt.ScrollBarPolicy.ScrollBarAlwaysOff
            if sideways:
                return None
            seen = widget.mapTo(parent, widget.rect().topRight()).x() + 1 - parent.width()
            if seen > SLACK:
                return (
                    f"cut off by the scroll area {area.objectName()!r}, which does not scroll "
                    f"sideways: {seen} px of its width hidden"
                )
            return None
        rect = rect.translated(child.pos())
        if not parent.rect().contains(rect):
            cut = rect.width() - rect.intersected(parent.rect()).width()
            high = rect.height() - rect.intersected(parent.rect()).height()
            if cut > SLACK or high > SLACK:
                return (
                    f"cut off by {type(parent).__name__} {parent.objectName()!r}: "
                    f"{cut} px of its width, {high} px of its height hidden"
                )
        child, parent = parent, parent.parentWidget()
    return None


def _label(widget: QLabel) -> str | None:
    text = widget.text()
    if not text or widget.textFormat() == Qt.TextFormat.RichText or widget.pixmap().width():
        return None
    fm = widget.fontMetrics()
    rect = widget.contentsRect()
    room = rect.width() - 2 * max(widget.margin(), 0) - max(widget.indent(), 0)
    if widget.wordWrap():
        needed = widget.heightForWidth(rect.width() + widget.width() - rect.width())
        if needed > widget.height() + SLACK and not _tip_has(widget, text):
            return f"needs {needed} px of height, has {widget.height()}"
        return None
    wide = max(fm.horizontalAdvance(line) for line in text.splitlines() or [""])
    if wide > room + SLACK and not _tip_has(widget, text):
        return f"needs {wide} px, has {room}"
    lines = len(text.splitlines()) or 1
    if fm.height() * lines > rect.height() + SLACK + 2:
        return f"needs {fm.height() * lines} px of height, has {rect.height()}"
    return None


def _button(widget: QAbstractButton) -> str | None:
    text = _plain(widget.text())
    if not text:
        return None
    full = getattr(widget, "full_text", None)
    fm = widget.fontMetrics()
    wide = fm.horizontalAdvance(text)
    if full is not None and full != text:
        return None if _tip_has(widget, full) else "elided without its whole text in the tooltip"
    if isinstance(widget, QPushButton):
        option = QStyleOptionButton()
        widget.initStyleOption(option)
        room = (
            widget.style()
            .subElementRect(QStyle.SubElement.SE_PushButtonContents, option, widget)
            .width()
        )
        if not widget.icon().isNull():
            room -= widget.iconSize().width() + 4
        # the style's own padding inside the contents rect
        room -= (
            2 * widget.style().pixelMetric(QStyle.PixelMetric.PM_ButtonMargin, option, widget) // 3
        )
    elif isinstance(widget, QCheckBox | QRadioButton):
        option = QStyleOptionButton()
        widget.initStyleOption(option)
        element = (
            QStyle.SubElement.SE_CheckBoxContents
            if isinstance(widget, QCheckBox)
            else QStyle.SubElement.SE_RadioButtonContents
        )
        room = widget.style().subElementRect(element, option, widget).width()
    elif isinstance(widget, QToolButton):
        if widget.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly:
            return None
        room = widget.width() - (widget.sizeHint().width() - wide)
    else:
        room = widget.width()
    if wide > room + SLACK and not _tip_has(widget, text):
        return f"needs {wide} px, has {room}"
    return None


def _combo(widget: QComboBox) -> str | None:
    text = widget.currentText()
    if not text or widget.isEditable():
        return None
    option = QStyleOptionComboBox()
    widget.initStyleOption(option)
    field = widget.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, widget
    )
    wide = widget.fontMetrics().horizontalAdvance(text)
    room = field.width() - 4
    if wide > room + SLACK and not _tip_has(widget, text):
        return f"needs {wide} px, has {room}"
    return None


def _header(header: QHeaderView) -> list[str]:
    model = header.model()
    if model is None or not header.isVisible():
        return []
    found = []
    style = header.style()
    margin = style.pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    fm = header.fontMetrics()
    for section in range(header.count()):
        if header.isSectionHidden(section) or header.sectionSize(section) <= 0:
            continue
        text = model.headerData(section, header.orientation(), Qt.ItemDataRole.DisplayRole)
        if not text:
            continue
        text = str(text)
        wide = max(fm.horizontalAdvance(line) for line in text.splitlines())
        room = header.sectionSize(section) - 2 * margin
        if header.isSortIndicatorShown() and header.sortIndicatorSection() == section:
            option = QStyleOptionHeader()
            room -= style.pixelMetric(QStyle.PixelMetric.PM_HeaderMarkSize, option, header) + margin
        if header.orientation() == Qt.Orientation.Vertical:
            continue
        if wide > room + SLACK:
            owner = header.parentWidget()
            name = owner.objectName() if owner is not None else ""
            found.append(f"header {name!r} section {text!r}: needs {wide} px, has {room}")
    return found


def _tabs(bar: QTabBar) -> list[str]:
    found = []
    arrows = [b for b in bar.findChildren(QToolButton) if b.isVisible()]
    if arrows:
        found.append(
            f"tab bar {bar.parentWidget().objectName()!r} needs scroll arrows: "
            + ", ".join(repr(bar.tabText(i)) for i in range(bar.count()))
        )
    for i in range(bar.count()):
        if not bar.isTabVisible(i):
            continue
        text = _plain(bar.tabText(i))
        elided = bar.tabRect(i).width() + SLACK < bar.tabSizeHint(i).width()
        # the room the style leaves the title inside its tab: a tab as wide as it asked to
        # be still cuts its title when the style pads the label by more than it padded the
        # tab's size
        option = QStyleOptionTab()
        bar.initStyleOption(option, i)
        room = bar.style().subElementRect(QStyle.SubElement.SE_TabBarTabText, option, bar)
        need = bar.fontMetrics().size(Qt.TextFlag.TextShowMnemonic, bar.tabText(i)).width()
        # as the tab bar paints it: elided when a fraction of a pixel too wide (no slack)
        shown = bar.fontMetrics().elidedText(text, bar.elideMode(), room.width())
        cut = room.width() + SLACK < need or shown != text
        if (elided or cut) and not _tip_has(bar, text) and text not in (bar.tabToolTip(i) or ""):
            found.append(
                f"tab {text!r} elided: {bar.tabRect(i).width()} px, its title {room.width()} "
                f"of {need} px"
            )
    return found


def _list(view: QListView) -> list[str]:
    """A list's rows (the policy codes) read whole: wrapped, or as wide as the list."""
    if view.horizontalScrollBar().isVisible():
        return [f"list {view.objectName()!r} scrolls sideways to show its rows"]
    model = view.model()
    if model is None or view.wordWrap():
        return []
    room = view.viewport().width()
    found = []
    for row in range(model.rowCount()):
        text = str(model.index(row, 0).data() or "")
        wide = view.fontMetrics().horizontalAdvance(text) + 24  # a check box's room
        if wide > room + SLACK:
            found.append(f"list {view.objectName()!r} row {text[:40]!r}: needs {wide}, has {room}")
    return found


def _chart(view: QChartView) -> list[str]:
    """A time axis' labels side by side fit the plot's width (Qt cuts them to "…")."""
    chart = view.chart()
    found = []
    width = chart.plotArea().width()
    for axis in chart.axes(Qt.Orientation.Horizontal):
        if not isinstance(axis, QDateTimeAxis) or axis.tickCount() < 2 or width <= 0:
            continue
        metrics = QFontMetrics(axis.labelsFont())
        first, last = axis.min().toMSecsSinceEpoch(), axis.max().toMSecsSinceEpoch()
        step = (last - first) / (axis.tickCount() - 1)
        labels = [
            QDateTime.fromMSecsSinceEpoch(int(first + i * step)).toString(axis.format())
            for i in range(axis.tickCount())
        ]
        wide = max(metrics.horizontalAdvance(text) for text in labels)
        room = width / (axis.tickCount() - 1)
        if wide > room:
            found.append(
                f"chart {view.objectName()!r}: time labels {wide} px wide, {room:.0f} px apart"
            )
    return found


def _placeholder(edit: QLineEdit) -> str | None:
    """An empty field's placeholder (what to type there) fits the field's text room."""
    text = edit.placeholderText()
    if edit.text() or not text:
        return None
    style = edit.style()
    frame = style.pixelMetric(QStyle.PixelMetric.PM_DefaultFrameWidth, None, edit)
    margins = edit.textMargins()
    # QLineEdit leaves 2 px each side of its text inside the frame (horizontalMargin)
    room = (
        edit.contentsRect().width()
        - (2 * frame if edit.hasFrame() else 0)
        - margins.left()
        - margins.right()
        - 4
    )
    for action in edit.actions():  # a clear or search icon takes room beside the text
        if action.isVisible() and not action.icon().isNull():
            room -= edit.height()
    need = edit.fontMetrics().horizontalAdvance(text)
    if need > room + SLACK and not _tip_has(edit, text):
        return f"placeholder {text!r} needs {need} px, has {room}"
    return None


def text_problems(root: QWidget) -> list[str]:
    """What does not fit in ``root`` and its visible children, one line each."""
    problems: list[str] = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not _shown(widget):
            continue
        where = f"{type(widget).__name__} {widget.objectName()!r}"
        problem = None
        if isinstance(widget, QLabel):
            problem = _label(widget)
            what = widget.text()
        elif isinstance(widget, QAbstractButton):
            if isinstance(widget.parentWidget(), QTabBar):
                continue
            problem = _button(widget)
            what = getattr(widget, "full_text", widget.text())
        elif isinstance(widget, QComboBox):
            problem = _combo(widget)
            what = widget.currentText()
        elif isinstance(widget, QHeaderView):
            problems += _header(widget)
        elif isinstance(widget, QTabBar):
            problems += _tabs(widget)
        elif isinstance(widget, QListView) and not isinstance(widget, QTableView):
            problems += _list(widget)
        elif isinstance(widget, QChartView):
            problems += _chart(widget)
        elif isinstance(widget, QLineEdit) and (found := _placeholder(widget)) is not None:
            problems.append(f"{where}: {found}")
        if isinstance(widget, QLabel | QAbstractButton | QComboBox | QTabBar) and not problem:
            clipped = _clipped(widget)
            if clipped and not isinstance(widget.parentWidget(), QTabBar):
                problem = clipped
                what = (
                    getattr(widget, "text", lambda: "")()
                    if not isinstance(widget, QTabBar | QComboBox)
                    else ""
                )
        if problem:
            problems.append(f"{where} {what[:80]!r}: {problem}")
    return problems
