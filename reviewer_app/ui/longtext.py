"""Long untrusted text for Qt's text boxes.

``QtText`` is a text as handed to a QPlainTextEdit together with a map from the service's
offsets (code points of the text as sent) to the box's positions (UTF-16 units of the text as
Qt keeps it). Qt changes some texts: CR LF becomes one paragraph break, a leading U+FEFF is
dropped and a leading U+FFFE byte-swaps the whole string (``plain.clean`` puts a U+2060 in
front of both), characters beyond the BMP take two positions. Highlights use the map.

A whole long text (100,000 characters without a line break) costs Qt a second or more to lay
out as one paragraph on a busy machine. ``chunked`` texts break every line longer than
``CHUNK`` at its last space (the space becomes the line break, so offsets stay) or, with no
space to break at, by inserting one; ``fill`` hands such a text to a box a batch at a time,
one turn of the event loop each, so the window keeps answering.
"""

from __future__ import annotations

import contextlib
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from itertools import accumulate

import regex
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

from .plain import clean

#: the longest line laid out at once when a whole text is shown
CHUNK = 2_000
#: characters added to a box per turn of the event loop
BATCH = 20_000

_ASTRAL = regex.compile(r"[\U00010000-\U0010FFFF]")
_BREAK = regex.compile(r"\r\n|[\n\r\u2029\ufdd0\ufdd1]")
_LAST_SPACE = regex.compile(r"\s", flags=regex.REVERSE)
#: the characters Unicode's rule for a text's direction looks at: strong letters (L, R,
#: AL), and the isolates whose insides it skips (LRI, RLI, FSI ... PDI)
_STRONG = regex.compile(
    r"[\p{Bidi_Class=L}\p{Bidi_Class=R}\p{Bidi_Class=AL}"
    r"\p{Bidi_Class=LRI}\p{Bidi_Class=RLI}\p{Bidi_Class=FSI}\p{Bidi_Class=PDI}]"
)
_ISOLATES = ("\u2066", "\u2067", "\u2068")


_RTL_LETTER = regex.compile(r"[\p{Bidi_Class=R}\p{Bidi_Class=AL}]")


def has_rtl_letter(text: str) -> bool:
    """Whether ``text`` holds a letter of a right-to-left script (Hebrew, Arabic, ...)."""
    return _RTL_LETTER.search(text) is not None


def reads_rtl(text: str) -> bool | None:
    """Whether ``text`` reads right to left by Unicode's rule (UAX #9, P2-P3), as Qt's
    ``QString::isRightToLeft`` and ``Qt.LayoutDirectionAuto`` read it: its first strong
    letter outside isolates is Hebrew, Arabic, ... (True) or Latin, Greek, CJK, ... (False);
    None when it has none (digits, punctuation, emoji only)."""
    depth = 0
    for match in _STRONG.finditer(text):
        char = match.group()
        if char in _ISOLATES:
            depth += 1
        elif char == "\u2069":
            depth = max(0, depth - 1)
        elif not depth:
            return unicodedata.bidirectional(char) in ("R", "AL")
    return None


def cut(text: str, limit: int) -> tuple[str, int]:
    """``text`` cut to ``limit`` characters, and how many were left out."""
    if len(text) <= limit:
        return text, 0
    return text[:limit], len(text) - limit


class QtText:
    """``text`` (as the service sent it) as a Qt box shows it; ``position`` maps offsets."""

    def __init__(self, text: str, *, chunked: bool = False) -> None:
        body = clean(text)
        prefix = len(body) - len(text)  # 1 when a leading BOM got a U+2060 in front
        # every change Qt or we make, as (first source offset it moves, by how much)
        events: list[tuple[int, int]] = [(0, prefix)] if prefix else []
        events += [(m.start() - prefix + 1, 1) for m in _ASTRAL.finditer(body)]
        crlf = body.find("\r\n")
        while crlf >= 0:
            events.append((crlf - prefix + 2, -1))
            crlf = body.find("\r\n", crlf + 2)
        if chunked:
            body, inserted = _chunk(body)
            events += [(at - prefix, 1) for at in inserted]
        events.sort()
        self.text = body.replace("\r\n", "\n").replace("\r", "\n")
        self.chunked = chunked
        """lines cut into pieces (each its own paragraph to Qt)"""
        self._at = [offset for offset, _ in events]
        self._shift = list(accumulate(change for _, change in events))

    def position(self, offset: int) -> int:
        """The box position of a source code-point ``offset``."""
        index = bisect_right(self._at, offset)
        return offset + (self._shift[index - 1] if index else 0)


def _chunk(body: str) -> tuple[str, list[int]]:
    """``body`` with every line longer than CHUNK broken at its last space (the space
    becomes the break) or, with none, by an inserted break; the positions in ``body`` before
    which breaks were inserted."""
    pieces: list[str] = []
    inserted: list[int] = []
    start = 0
    for brk in [*(m.end() for m in _BREAK.finditer(body)), len(body)]:
        at = start
        while brk - at > CHUNK:
            space = _LAST_SPACE.search(body, at + CHUNK // 2, at + CHUNK)
            if space is not None:
                pieces.append(body[at : space.start()] + "\n")
                at = space.start() + 1
            else:
                pieces.append(body[at : at + CHUNK] + "\n")
                at += CHUNK
                inserted.append(at)
        pieces.append(body[at:brk])
        start = brk
    return "".join(pieces), inserted


def fill(
    box: QPlainTextEdit, text: str, done: Callable[[], None] | None = None
) -> Callable[[], None]:
    """Put ``text`` (chunked) into ``box`` a batch per turn of the event loop; ``done`` runs
    after the last. Returns a function that stops the filling (a new item came)."""
    ends = [m.end() for m in regex.finditer(r"\n", text)]
    first = _batch_end(text, ends, 0)
    box.setPlainText(text[:first])
    if first >= len(text):
        if done is not None:
            done()
        return lambda: None
    state = {"from": first, "stopped": False}
    timer = QTimer(box)
    timer.setInterval(0)

    def step() -> None:
        if state["stopped"]:
            timer.stop()
            return
        begin = int(state["from"])
        end = _batch_end(text, ends, begin)
        cursor = QTextCursor(box.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text[begin:end])
        state["from"] = end
        if end >= len(text):
            timer.stop()
            timer.deleteLater()
            if done is not None:
                done()

    def stop() -> None:
        state["stopped"] = True
        with contextlib.suppress(RuntimeError):  # the timer went with its box
            timer.stop()

    timer.timeout.connect(step)
    timer.start()
    return stop


def _batch_end(text: str, ends: list[int], begin: int) -> int:
    """The end of the batch that starts at ``begin``: just after a line break, BATCH on."""
    goal = begin + BATCH
    if goal >= len(text):
        return len(text)
    index = bisect_right(ends, goal)
    end = ends[index - 1] if index else 0
    return end if end > begin else len(text)


def post_direction(text: QtText, rtl: bool | None) -> tuple[bool, Qt.LayoutDirection]:
    """Whether the post reads right to left, and the direction its paragraphs take. A post
    in a right-to-left language holding a letter of such a script (or none at all) reads so
    whole: an Arabic post opens with "@handle", a link or "iPhone" as often as not. Any
    other reads as its first strong letter says (Unicode's rule), its paragraphs each their
    own way, but the pieces of a long text cut for Qt one way (one piece that opened with a
    link was laid out left to right in an Arabic post)."""
    if rtl and (has_rtl_letter(text.text) or reads_rtl(text.text) is None):
        return True, Qt.LayoutDirection.RightToLeft
    leftward = bool(reads_rtl(text.text))
    if text.chunked:
        return leftward, (
            Qt.LayoutDirection.RightToLeft if leftward else Qt.LayoutDirection.LeftToRight
        )
    return leftward, Qt.LayoutDirection.LayoutDirectionAuto
