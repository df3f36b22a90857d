"""CSV that spreadsheets will not run: the decision export's columns and cell neutraliser.

A cell that starts with ``=``, ``+``, ``-``, ``@``, tab or carriage return is a formula to
Excel, LibreOffice and Google Sheets (CSV injection); such cells get a leading single
quote, which spreadsheets show as text. Quotes, commas, newlines and any other text are
left to the ``csv`` module's quoting, so they round-trip through ``csv.reader`` unchanged.
The service's export and the client's ``reviewer-app export`` both write with this module.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, TextIO

from .verdicts import Decision

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
MEDIA_TYPE = "text/csv; charset=utf-8"

DECISION_COLUMNS = (
    "decision_id",
    "item_id",
    "queue_id",
    "reviewer",
    "action",
    "policies",
    "rating",
    "author_action",
    "note",
    "time_spent_ms",
    "decided_at",
    "client_decided_at",
    "kind",
    "overturns_decision_id",
    "audit_result",
    "appeal_of_decision_id",
    "post_external_id",
    "author_external_id",
    "post_url",
)


def neutralise(cell: str) -> str:
    """The cell as text a spreadsheet will not evaluate."""
    return "'" + cell if cell.startswith(FORMULA_PREFIXES) else cell


def safe_row(cells: Iterable[object]) -> list[str]:
    """Every cell as neutralised text (None is the empty cell)."""
    return [neutralise("" if c is None else str(c)) for c in cells]


def csv_time(value: datetime) -> str:
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def decision_row(decision: Decision) -> list[str]:
    """One decision as the export writes it (cells in ``DECISION_COLUMNS`` order)."""
    d = decision
    return safe_row(
        (
            d.id,
            d.item_id,
            d.queue_id,
            d.reviewer,
            d.action,
            ";".join(d.policies),
            d.rating,
            d.author_action.value if d.author_action else None,
            d.note,
            d.time_spent_ms,
            csv_time(d.decided_at),
            csv_time(d.client_decided_at),
            d.kind.value,
            d.overturns_decision_id,
            d.audit_result.value if d.audit_result else None,
            d.appeal_of_decision_id,
            d.post_external_id,
            d.author_external_id,
            d.post_url,
        )
    )


def writer(out: TextIO) -> Any:
    """A CSV writer of the export's form: RFC 4180 (CRLF line ends, quotes doubled) with
    every cell quoted, so a spreadsheet that splits on ";" (Excel in German or French)
    still reads each cell whole: unquoted, ``ok;=cmd|...`` became a cell starting with
    "=" there, which the first-character check cannot see."""
    return csv.writer(out, quoting=csv.QUOTE_ALL)


def write_rows(rows: Iterable[list[str]]) -> str:
    """Rows as CSV text (``writer``'s form)."""
    buffer = io.StringIO()
    writer(buffer).writerows(rows)
    return buffer.getvalue()
