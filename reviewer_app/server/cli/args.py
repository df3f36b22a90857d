"""Argument types of the server's commands: what a database row can hold, checked where the
command line is read (an id past a column's range was an OverflowError or a database error
out of the command, not a message)."""

from __future__ import annotations

import argparse
import math

from reviewer_app.argtypes import port, whole

#: the largest id or cursor a column of the service holds (INTEGER on PostgreSQL)
MAX_ROW_ID = 2**31 - 1
#: ten years: longer than any grace or window a command takes
MAX_SECONDS = 10 * 365 * 86_400
#: the levels ``--log-level`` takes (uvicorn's, which adds trace)
LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


def row_id(text: str) -> int:
    """A row's id: a whole number from 1."""
    return _bounded(text, 1, "an id")


def cursor(text: str) -> int:
    """A feed's cursor: a whole number from 0 (0: from the start)."""
    return _bounded(text, 0, "a cursor")


def processes(text: str) -> int:
    """A number of processes: 1 to 64."""
    value = whole(text, "a number of processes")
    if not 1 <= value <= 64:
        raise argparse.ArgumentTypeError(f"{text!r}: give 1 to 64 processes")
    return value


def log_level(text: str) -> str:
    """A log level, in any case (``warn`` is ``warning``); ``choices=LOG_LEVELS`` refuses
    the others."""
    level = text.strip().lower()
    return "warning" if level == "warn" else level


def seconds(text: str) -> float:
    """A duration in seconds: from 0 to ten years."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 to {MAX_SECONDS:,} seconds")
    return value


def _bounded(text: str, low: int, what: str) -> int:
    value = whole(text, what)
    if not low <= value <= MAX_ROW_ID:
        raise argparse.ArgumentTypeError(f"{text!r}: {what} is {low} to {MAX_ROW_ID:,}")
    return value


__all__ = [
    "LOG_LEVELS",
    "MAX_ROW_ID",
    "MAX_SECONDS",
    "cursor",
    "log_level",
    "port",
    "processes",
    "row_id",
    "seconds",
]
