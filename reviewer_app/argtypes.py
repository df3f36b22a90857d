"""Argument types shared by the app's commands (the desktop's and the server's), kept
apart from both so that reading ``--help`` loads neither Qt nor the server."""

from __future__ import annotations

import argparse


def whole(text: str, what: str) -> int:
    """``text`` as a whole number, or a usage error naming ``what`` it should be."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not {what} (a whole number)") from None


def port(text: str) -> int:
    """A TCP port: 0 (any free one) to 65535."""
    value = whole(text, "a port")
    if not 0 <= value <= 65_535:
        raise argparse.ArgumentTypeError(f"{text!r}: a port is 0 to 65535")
    return value
