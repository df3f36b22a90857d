"""The application's widget style: the platform's (or Fusion, for the dark theme), with
Fusion's scroll bars drawn flat and its tabs padded less.

Fusion paints a scroll bar's groove and handle as gradients, and a vertical bar the height
of the post took about 0.5 ms of the GUI thread to paint, more than the post's text: the
text's bar is painted at every verdict key (a new post, a new range), so it was a sixth of
the keypress. ``FlatScrollBars`` fills the groove and the handle with plain colours mixed
from the palette (so the dark theme and any platform palette keep their contrast) and leaves
the arrow buttons to Fusion, which draws them cheaply: about 0.02 ms a paint.

Fusion pads each tab's title by 24 pixels (at 96 dpi). The post's six context tabs (why
queued, author, thread, reports, fact-checks, history) are all shown, never behind scroll
arrows, so their bar sets the least width of the scores-and-context column: at 11 points
about 630 pixels, half of a 1280-pixel window, which left the post itself about 400.
``TAB_PADDING`` of Fusion's is enough to keep titles apart and gives the post the rest.
"""

from __future__ import annotations

from typing import cast

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QProxyStyle,
    QStyle,
    QStyleFactory,
    QStyleOption,
    QStyleOptionComplex,
    QStyleOptionSlider,
    QWidget,
)

CC = QStyle.ComplexControl
SC = QStyle.SubControl
#: the style whose scroll bars are drawn flat
FLAT_BASE = "fusion"
#: how much of the text colour is mixed into the window colour: the groove, the handle, the
#: handle under the pointer or held
GROOVE, HANDLE, HANDLE_ACTIVE = 0.06, 0.32, 0.5
#: the handle's margin across the bar, in pixels
HANDLE_INSET = 2
#: the share of Fusion's padding a tab's title gets
TAB_PADDING = 0.5


def mix(under: QColor, over: QColor, share: float) -> QColor:
    """``share`` of ``over`` laid on ``under``."""
    keep = 1.0 - share
    return QColor(
        round(under.red() * keep + over.red() * share),
        round(under.green() * keep + over.green() * share),
        round(under.blue() * keep + over.blue() * share),
    )


class FlatScrollBars(QProxyStyle):
    """``base`` with flat scroll bars and tabs padded less (the module's docstring says
    why)."""

    # A Python override here is a trip into Python for every metric Qt asks for, most of
    # them while the worklist's cells are painted (benchmarks/README.md). Trimming the tab's
    # size in ``sizeFromContents`` instead is not enough: the style pads the title inside
    # its tab by this same metric when it lays out and draws the label, so every title was
    # cut (tried on 2026-12-05; test_look.py and the layout-fit test catch it).
    def pixelMetric(
        self,
        metric: QStyle.PixelMetric,
        option: QStyleOption | None = None,
        widget: QWidget | None = None,
    ) -> int:
        value = super().pixelMetric(metric, option, widget)
        if metric == QStyle.PixelMetric.PM_TabBarTabHSpace:
            return round(value * TAB_PADDING)
        return value

    def drawComplexControl(
        self,
        control: QStyle.ComplexControl,
        option: QStyleOptionComplex,
        painter: QPainter,
        widget: QWidget | None = None,
    ) -> None:
        if control != CC.CC_ScrollBar or not isinstance(option, QStyleOptionSlider):
            super().drawComplexControl(control, option, painter, widget)
            return
        owner = cast(QWidget, widget)  # None is taken too (the stubs say otherwise)
        palette = option.palette
        window = palette.color(QPalette.ColorRole.Window)
        text = palette.color(QPalette.ColorRole.WindowText)
        painter.fillRect(option.rect, window)
        groove = self.subControlRect(control, option, SC.SC_ScrollBarGroove, owner)
        painter.fillRect(groove, mix(window, text, GROOVE))
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        if enabled and option.maximum > option.minimum:
            handle = self.subControlRect(control, option, SC.SC_ScrollBarSlider, owner)
            if option.orientation == Qt.Orientation.Horizontal:
                handle.adjust(0, HANDLE_INSET, 0, -HANDLE_INSET)
            else:
                handle.adjust(HANDLE_INSET, 0, -HANDLE_INSET, 0)
            held = bool(option.activeSubControls & SC.SC_ScrollBarSlider) and bool(
                option.state & (QStyle.StateFlag.State_MouseOver | QStyle.StateFlag.State_Sunken)
            )
            painter.fillRect(handle, mix(window, text, HANDLE_ACTIVE if held else HANDLE))
        arrows = option.subControls & (SC.SC_ScrollBarAddLine | SC.SC_ScrollBarSubLine)
        if arrows:
            buttons = QStyleOptionSlider(option)
            buttons.subControls = arrows
            super().drawComplexControl(control, buttons, painter, widget)


def make_style(name: str) -> QStyle | None:
    """The style called ``name`` as this application draws it (None: no such style)."""
    style = QStyleFactory.create(name)
    if style is None:
        return None
    if style.name().lower() == FLAT_BASE:
        return FlatScrollBars(style)
    return style


def style_name(style: QStyle) -> str:
    """``style``'s name (a proxy's is its base's)."""
    if isinstance(style, QProxyStyle) and style.baseStyle() is not None:
        return style.baseStyle().name()
    return style.name()
