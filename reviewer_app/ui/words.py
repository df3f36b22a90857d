"""Values from the wire in words a person reads: times in the local time zone, codes
(``false_information``, ``remove-restrict``) as words, counts with the right plural.

One helper each, used wherever the UI shows a time, a code or a count of things."""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from datetime import datetime

from PySide6.QtCore import QLocale

from .i18n import translate
from .plain import isolate

# a time as every table, timeline and pane shows it: local, to the minute
TIME_FORMAT = "%Y-%m-%d %H:%M"
# an ISO 8601 time as the service writes it into event details (``...T13:14:21.89+00:00``)
ISO_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$")
# a machine code: lower-case words joined by "_" or "-" (``false_information``)
CODE = re.compile(r"^[a-z][a-z0-9]*([_-][a-z0-9]+)+$")
# ... and a code among other values (an event's details): words of letters joined by "_"
# only, so an id ("p-1", "it-7f3") is never mistaken for one
SNAKE_CODE = re.compile(r"^[a-z]+(_[a-z]+)+$")


@functools.lru_cache(maxsize=256)
def language_words(code: str) -> str:
    """A post's language by its name ("en" -> "English", "pt-BR" -> "Portuguese"); a code
    Qt does not know ("und") as it came (the protocol allows letters, digits and "-")."""
    language = QLocale(code).language()
    if language in (QLocale.Language.C, QLocale.Language.AnyLanguage):
        return isolate(code)
    return QLocale.languageToString(language)


def local_time(moment: datetime | str) -> str:
    """A time in the local time zone, to the minute ("2026-12-01 14:14"); an ISO string is
    read first (a time with no zone is taken as UTC, as the service sends them)."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        from datetime import UTC

        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime(TIME_FORMAT)


def clock_time(at: float) -> str:
    """A moment (seconds since the epoch) in local time: the time alone today ("10:42"),
    with the date on another day ("2026-12-01 10:42")."""
    moment = datetime.fromtimestamp(at)
    if moment.date() == datetime.now().date():
        return f"{moment:%H:%M}"
    return moment.strftime(TIME_FORMAT)


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


def decimal(value: float, places: int = 1) -> str:
    """A number with ``places`` decimals in the user's locale ("29,4" in German)."""
    return QLocale().toString(float(value), "f", places)


def shortest(value: float) -> str:
    """A number in as few digits as say it (up to six), in the user's locale: "3,5" and
    "12" in German, as Python's ``:g`` gives "3.5" and "12"."""
    return QLocale().toString(float(value), "g", 6)


def percent(share: float, *, signed: bool = False) -> str:
    """A share (0.77) as a whole percentage the locale's way: "77%" in English, "77 %" in
    German and Spanish (the sign's place is the catalogue's); ``signed``: "+12%" and "-3%"."""
    figure = QLocale().toString(round(share * 100))
    if signed and round(share * 100) > 0:
        figure = QLocale().positiveSign() + figure
    #: a percentage: %1 is the figure; put the percent sign where the language does ("%1 %"
    #: with a no-break space in German and Spanish)
    return translate("Words", "%1%").replace("%1", figure)


def plural(shown: str, n: int) -> str:
    """A counted string in the form ``n`` takes, with ``n`` written in: ``plural(
    QCoreApplication.translate("Ctx", "%Ln decision(s)"), n)`` ("%Ln": the count in the
    user's locale, "%n": as digits). The count is not given to Qt: its numerus lookup
    needs numerus messages, which pyside6-lupdate never writes for Python (a translated
    "2 Konten" came back as the English "2 accounts"). A catalogue gives the one and the
    many form in one translation split by "|" ("%Ln Konto|%Ln Konten"); the English source
    says "(s)". Both are resolved here: one or many."""
    if "|" in shown:
        forms = shown.split("|")
        shown = forms[0] if n == 1 else forms[-1]
    if "(s)" in shown:
        shown = shown.replace("(s)", "" if n == 1 else "s")
    return shown.replace("%Ln", QLocale().toString(n)).replace("%n", str(n))
