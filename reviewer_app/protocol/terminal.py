"""Text from another party made safe to write to a terminal or a log line: its control
characters (an escape sequence can rewrite the screen, the window title or the clipboard)
written as their code points. Used by the client's export command and by the service for
what a webhook receiver answers."""

from __future__ import annotations

import unicodedata


def printable(text: str, *, newlines: bool = True) -> str:
    """``text`` with every control character (Unicode category Cc: C0, DEL, C1) but the
    newline (unless ``newlines`` is False) written as ``\\uXXXX``."""
    return "".join(
        f"\\u{ord(c):04x}" if unicodedata.category(c) == "Cc" and (c != "\n" or not newlines) else c
        for c in text
    )
