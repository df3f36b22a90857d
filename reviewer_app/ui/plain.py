"""Untrusted strings as plain text, always.

QLabel, tooltips and message boxes guess HTML from any string (``Qt.AutoText``). Every
string that came from a post, an author, a report or a note goes through these helpers:
labels are set to ``Qt.PlainText``; tooltips, which have no plain mode, get the text
escaped; lone surrogates become U+FFFD; in names and other inline strings, bidi controls
and invisible characters are shown as visible markers.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from typing import TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

from .i18n import translate

TOOLTIP_LIMIT = 2_000


def clean(text: str) -> str:
    """The text with lone surrogates (possible from JSON escapes) replaced by U+FFFD."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


#: Characters that change the direction of text or hide themselves: in names and other
#: short inline strings they are shown as visible markers, so a handle cannot pretend to be
#: another by reordering or hiding letters.
HIDDEN = {
    **{c: f"⟦U+{c:04X}⟧" for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))},
    **{c: f"⟦U+{c:04X}⟧" for c in (0x200B, 0x200C, 0x200E, 0x200F, 0x061C, 0x2060, 0xFEFF)},
}


def isolate(text: str) -> str:
    """An untrusted inline string (a name, a handle, a domain) with every bidi control and
    invisible character shown as a visible marker."""
    return clean(text).translate(HIDDEN)


_HIDDEN_RE = re.compile("[" + "".join(chr(c) for c in HIDDEN) + "]")


def hidden_count(text: str) -> int:
    """How many bidi controls and invisible characters the text holds (a regex: a Python
    loop over a 50,000-character post cost over a millisecond per keypress)."""
    return len(_HIDDEN_RE.findall(text))


def tooltip(text: str) -> str:
    """A tooltip that shows ``text`` literally (tooltips would otherwise render HTML)."""
    body = clean(text)
    if len(body) > TOOLTIP_LIMIT:
        body = body[:TOOLTIP_LIMIT] + "…"
    return f'<p style="white-space:pre-wrap">{html.escape(body)}</p>'


def rich_escaped(text: str, limit: int = 120) -> str:
    """An untrusted inline string for a place that always renders HTML (Qt Charts titles,
    legend and axis labels): escaped, bidi controls shown as markers, cut to ``limit``."""
    body = isolate(text)
    if len(body) > limit:
        body = body[:limit] + "…"
    return html.escape(body)


def label(text: str = "", parent: QWidget | None = None, *, wrap: bool = True) -> QLabel:
    """A QLabel that never interprets its text."""
    widget = QLabel(parent)
    widget.setTextFormat(Qt.TextFormat.PlainText)
    widget.setWordWrap(wrap)
    if wrap:  # a long text wraps; it must not widen the layout around it
        widget.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        widget.setMinimumWidth(60)
    widget.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    widget.setText(clean(text))
    return widget


def set_text(widget: QLabel, text: str) -> None:
    widget.setTextFormat(Qt.TextFormat.PlainText)
    widget.setText(clean(text))


W = TypeVar("W", bound=QWidget)


def named(widget: W, object_name: str, accessible_name: str) -> W:
    """``widget`` with a stable object name (for tests and tools: never translated, never
    shown) and its name for screen readers (shown: pass ``translate(...)``)."""
    widget.setObjectName(object_name)
    widget.setAccessibleName(accessible_name)
    return widget


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
    """12,345 / 1.2 M."""
    if value >= 1_000_000:
        return f"{value / 1_000_000:.1f} M"
    if value >= 10_000:
        return f"{value / 1_000:.0f} k"
    return f"{value:,.0f}"
