"""Values from the wire in words a person reads: times in the local time zone, codes
(``false_information``, ``remove-restrict``) as words, counts with the right plural.

One helper each, used wherever the UI shows a time, a code or a count of things."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime

from .plain import isolate

#: a time as every table, timeline and pane shows it: local, to the minute
TIME_FORMAT = "%Y-%m-%d %H:%M"
#: an ISO 8601 time as the service writes it into event details (``...T13:14:21.89+00:00``)
ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$")
#: a machine code: lower-case words joined by "_" or "-" (``false_information``)
CODE = re.compile(r"^[a-z][a-z0-9]*([_-][a-z0-9]+)+$")
#: ... and a code among other values (an event's details): words of letters joined by "_"
#: only, so an id ("p-1", "it-7f3") is never mistaken for one
SNAKE_CODE = re.compile(r"^[a-z]+(_[a-z]+)+$")


def local_time(moment: datetime | str) -> str:
    """A time in the local time zone, to the minute ("2026-12-01 14:14"); an ISO string is
    read first (a time with no zone is taken as UTC, as the service sends them)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        from datetime import UTC

        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime(TIME_FORMAT)


def code_words(code: str, labels: Mapping[str, str] | None = None) -> str:
    """A code in words: its label from the queue's configuration when there is one,
    otherwise the code humanised ("false_information" -> "false information")."""
    label = (labels or {}).get(code)
    if label:
        return isolate(label)
    if CODE.match(code) or (code.isalnum() and code.isascii()):  # a slug: nothing to hide
        return code.replace("_", " ").replace("-", " ")
    return isolate(code)


def value_words(value: object, labels: Mapping[str, str] | None = None) -> str:
    """Any value of an event's details: a time in local time, a code in words, the rest
    as it is (isolated: it may come from anyone)."""
    if isinstance(value, datetime):
        return local_time(value)
    text = str(value)
    if ISO_TIME.match(text):
        try:
            return local_time(text)
        except ValueError:
            pass
    if SNAKE_CODE.match(text) or (labels and text in labels):
        return code_words(text, labels)
    return isolate(text).replace("\n", " ")


def plural(shown: str, n: int) -> str:
    """A count in the plural form ``n`` takes. Call with Qt's numerus translation, literal
    so lupdate finds it: ``plural(QCoreApplication.translate("Ctx", "%Ln decision(s)", None,
    n), n)``. A catalogue gives each language its forms; with none (English, the source
    language) Qt leaves "(s)" as written, and it is resolved here: one or many."""
    if "(s)" in shown:
        shown = shown.replace("(s)", "" if n == 1 else "s")
    return shown
