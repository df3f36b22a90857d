"""One look for every window: a spacing scale, a type scale and the few colours that mean
something, each in a light and a dark form.

Widgets never write colours, point sizes or pixel gaps of their own; they ask for a *tone*
(what a colour means: an error, a notice, a destructive action), a *type* role (a heading, a
figure) or a *space* step, and this module turns those into style and font. When the
reviewer changes the theme or the text size (``preferences.apply_look``), ``refresh``
applies every tone and type role again, so a heading set at 10 pt grows with the text and
an error stays readable on a dark palette.

The scales (compared with Ozone's subject panel, which uses Tailwind's 4 px spacing and
0.75/0.875/1/1.125 rem type, and Huggle's dense toolbar window; see docs/ui.md):

- space: steps of a unit that follows the text size (4 px at 10 pt): 1 (tight: inside a
  badge), 2 (between the parts of one thing), 3 (inside a strip or a box), 4 (between
  things), 6 (between sections).
- type: caption 0.9, body 1 (strong: bold), heading 1.15 and bold, figure 1.25 and bold, title 1.6.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from enum import Enum

from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QWidget
from shiboken6 import isValid

#: the base of the spacing scale at 10 pt, in pixels
UNIT_AT_10PT = 4

#: one colour a queue (Okabe and Ito's, told apart with most colour-vision deficiencies,
#: legible on the light and the dark theme): the chart theme's five repeated on a sixth
#: queue, so Escalations and Appeals drew the same blue
SERIES_COLOURS = (
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#D55E00",
    "#CC79A7",
    "#56B4E9",
    "#8C6D31",
    "#7F7F7F",
)


def space(step: int) -> int:
    """``step`` units of the spacing scale at the current text size, in pixels."""
    app = QGuiApplication.instance()
    points = QGuiApplication.font().pointSizeF() if app is not None else 10.0
    unit = max(2, round(UNIT_AT_10PT * (points if points > 0 else 10.0) / 10.0))
    return unit * step


class TypeRole(Enum):
    """A step of the type scale: (size relative to the text size, bold)."""

    caption = (0.9, False)
    body = (1.0, False)
    strong = (1.0, True)
    heading = (1.15, True)
    figure = (1.25, True)
    title = (1.6, True)


@dataclass(frozen=True)
class _Colours:
    fg: str  # the text's colour
    bg: str | None = None  # a strip's background


class Tone(Enum):
    """What a colour says. Each: the light and the dark form, bold or not, and whether it is a
    strip (a padded background) rather than coloured text."""

    #: something went wrong, or a rule refuses: red text
    error = (_Colours("#b3261e"), _Colours("#ff8a80"), False, False)
    #: the same, said louder: a warning about a link or an over-the-SLA figure
    alarm = (_Colours("#b3261e"), _Colours("#ff8a80"), True, False)
    #: what the reviewer must still give (a policy, a note): amber, bold
    prompt = (_Colours("#b35900"), _Colours("#ffb74d"), True, False)
    #: a classifier score over its threshold
    over = (_Colours("#c62828"), _Colours("#ff8a80"), True, False)
    #: a strip that asks for attention without alarm (the session's notices)
    notice = (_Colours("#5c4400", "#fff3cd"), _Colours("#ffe8a3", "#4a3b00"), False, True)
    #: a strip with a friendly word (feedback, a break reminder)
    info = (_Colours("#0b3a6e", "#e7f1ff"), _Colours("#cfe3ff", "#15324f"), False, True)
    #: why an item was escalated, above the post
    escalation = (_Colours("#4a2a00", "#fdecd2"), _Colours("#ffe0b2", "#4a2f0d"), False, True)
    #: an appeal's contested decision and statement, above the post
    appeal = (_Colours("#0d2340", "#eef3fb"), _Colours("#dbe7fb", "#1c2a3d"), False, True)
    #: the author's account is suspended or inauthentic: a red badge
    actioned = (_Colours("#ffffff", "#b3261e"), _Colours("#ffffff", "#a12a22"), True, True)
    #: the author's account has a warning or restriction: an amber badge
    warned = (_Colours("#000000", "#f9c74f"), _Colours("#000000", "#e0b040"), False, True)
    #: a button whose action removes or suspends: red type with a red edge
    destructive = (_Colours("#c62828"), _Colours("#ff8a80"), False, False)

    @property
    def light(self) -> _Colours:
        return self.value[0]

    @property
    def dark(self) -> _Colours:
        return self.value[1]

    @property
    def bold(self) -> bool:
        return bool(self.value[2])

    @property
    def strip(self) -> bool:
        return bool(self.value[3])


def is_dark() -> bool:
    """Whether the application's palette is dark (the dark theme, or a dark desktop)."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return False
    return app.palette().window().color().lightness() < 128


def tone_sheet(widget: QWidget, tone: Tone, dark: bool) -> str:
    """The style sheet that gives ``widget`` ``tone`` (for its own class only, so that the
    widgets inside a toned strip keep their own look)."""
    colours = tone.dark if dark else tone.light
    rules = [f"color: {colours.fg};"]
    if colours.bg:
        rules.append(f"background: {colours.bg};")
    if tone.bold:
        rules.append("font-weight: bold;")
    if tone is Tone.destructive:
        rules.append(f"border: 1px solid {colours.fg}; padding: {space(1)}px {space(2)}px;")
    elif tone.strip:
        rules.append(f"padding: {space(1)}px {space(2)}px;")
    # by the widget's own class: a strip's labels and buttons keep their own look
    selector = widget.metaObject().className()
    return f"{selector} {{ {' '.join(rules)} }}"


_toned: weakref.WeakKeyDictionary[QWidget, Tone] = weakref.WeakKeyDictionary()
_typed: weakref.WeakKeyDictionary[QWidget, TypeRole] = weakref.WeakKeyDictionary()


def set_tone(widget: QWidget, tone: Tone | None) -> None:
    """Give ``widget`` a tone (None: its plain look). Cheap when nothing changes: a style
    sheet is costly to apply, and scores and banners change tone between posts."""
    dark = is_dark()
    key = None if tone is None else ":".join((tone.name, str(int(dark)), str(space(1))))
    if widget.property("tone") == key:
        return
    widget.setProperty("tone", key)
    if tone is None:
        _toned.pop(widget, None)
        widget.setStyleSheet("")
        return
    _toned[widget] = tone
    widget.setStyleSheet(tone_sheet(widget, tone, dark))


_coloured: weakref.WeakKeyDictionary[QWidget, Tone] = weakref.WeakKeyDictionary()


def set_colour(widget: QWidget, tone: Tone | None) -> None:
    """Give ``widget``'s text ``tone``'s colour (and weight) by its palette and font, not a
    style sheet: for a widget whose tone changes from post to post (a score's figure over
    or under its threshold), where setting and clearing a style sheet re-polished it each
    time (the slowest keypresses' scores took 2.3-2.5 ms, against 0.25). Text tones only:
    a strip's background and padding need ``set_tone``. None: its plain look."""
    palette = QPalette()  # nothing set: every role from the parent, as with no tone
    if tone is None:
        _coloured.pop(widget, None)
        plain_type(widget)
    else:
        _coloured[widget] = tone
        colours = tone.dark if is_dark() else tone.light
        palette.setColor(QPalette.ColorRole.WindowText, QColor(colours.fg))
        palette.setColor(QPalette.ColorRole.Text, QColor(colours.fg))
        set_type(widget, TypeRole.strong if tone.bold else TypeRole.body)
    widget.setPalette(palette)


def tone_of(widget: QWidget) -> Tone | None:
    """The tone ``widget`` was given, if any (by ``set_tone`` or ``set_colour``)."""
    return _toned.get(widget) or _coloured.get(widget)


def set_type(widget: QWidget, role: TypeRole) -> None:
    """Set ``widget``'s font to a step of the type scale, relative to the text size."""
    _typed[widget] = role
    _apply_type(widget, role)


def plain_type(widget: QWidget) -> None:
    """Give ``widget`` the text size's plain font again (undoes ``set_type``)."""
    if _typed.pop(widget, None) is not None:
        widget.setFont(QFont())  # nothing set: every attribute from the parent again


def _apply_type(widget: QWidget, role: TypeRole) -> None:
    factor, bold = role.value
    font = QFont(QGuiApplication.font())
    base = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
    font.setPointSizeF(base * factor)
    font.setBold(bold)
    widget.setFont(font)


def refresh() -> None:
    """Apply every tone and type role again: after a change of theme or text size."""
    for widget, role in list(_typed.items()):
        if not isValid(widget):  # its window closed: Qt deleted it, Python still holds it
            _typed.pop(widget, None)
            continue
        _apply_type(widget, role)
    for widget, tone in list(_toned.items()):
        if not isValid(widget):
            _toned.pop(widget, None)
            continue
        widget.setProperty("tone", None)
        set_tone(widget, tone)
    for widget, tone in list(_coloured.items()):
        if not isValid(widget):
            _coloured.pop(widget, None)
            continue
        set_colour(widget, tone)
