"""Copying the service's decision export (CSV) to a file a spreadsheet can open safely.

The rows are read as they arrive and written at once, a batch at a time, so an export of
any length runs in flat memory. The header must be exactly ``DECISION_COLUMNS`` and every
row as wide; every cell is neutralised again here (``protocol.csvsafe.safe_row``), so a
backend that forgot to do it cannot put a formula in a lead's spreadsheet.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from itertools import islice, repeat
from typing import TextIO

from reviewer_app.protocol.csvsafe import DECISION_COLUMNS, FORMULA_PREFIXES, safe_row
from reviewer_app.protocol.csvsafe import writer as csv_writer

from .errors import CoreError, ProtocolError

#: rows between two calls of ``progress`` (and two looks at ``cancelled``)
BATCH_ROWS = 1_000
#: the longest physical line (characters) accepted from the server
MAX_LINE_CHARS = 1024 * 1024


class ExportCancelled(CoreError):
    """The export was stopped on request; what was written of it is incomplete."""

    def __init__(self, rows: int) -> None:
        super().__init__(
            f"The export was cancelled after {rows:,} decisions; the file is incomplete."
        )
        self.rows = rows


def _neutralised(row: list[str]) -> list[str]:
    """``safe_row(row)``. A row none of whose cells starts like a formula is already what
    ``safe_row`` makes of it, and the test for that runs in C (three times as fast)."""
    if any(map(str.startswith, row, repeat(FORMULA_PREFIXES))):
        return safe_row(row)
    return row


def _lines(source: TextIO, what: str) -> Iterator[str]:
    """The physical lines of ``source``, none longer than ``MAX_LINE_CHARS``."""
    readline = source.readline
    while line := readline(MAX_LINE_CHARS):
        if len(line) >= MAX_LINE_CHARS:
            raise ProtocolError(
                f"The reply to {what} has a line of over {MAX_LINE_CHARS:,} characters; "
                "it is not a decision export."
            )
        yield line


def copy_decision_csv(
    source: TextIO,
    out: TextIO,
    *,
    what: str = "GET /decisions/export",
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> int:
    """Copy the export read from ``source`` (a text stream opened with ``newline=""``) to
    ``out`` (likewise), header first; returns the number of decision rows.

    Raises ProtocolError for a reply that is not the decision export (wrong header, a row
    of the wrong width, a broken CSV), and ExportCancelled when ``cancelled()`` turns
    true. Errors of ``source`` (a cut connection) and of ``out`` (a full disk) propagate.
    """
    try:
        # a cell longer than csv.field_size_limit() (128 Ki characters) is a csv.Error
        return _copy(source, out, what, progress, cancelled)
    except csv.Error as err:
        raise ProtocolError(
            f"The reply to {what} is not valid CSV ({err}); the export is incomplete."
        ) from None


def _copy(
    source: TextIO,
    out: TextIO,
    what: str,
    progress: Callable[[int], None] | None,
    cancelled: Callable[[], bool] | None,
) -> int:
    reader = csv.reader(_lines(source, what))
    header = next(reader, None)
    if header is None or tuple(header) != DECISION_COLUMNS:
        shown = "nothing" if header is None else ",".join(header)[:200]
        raise ProtocolError(
            f"The reply to {what} is not a decision export: its header is {shown!r}, "
            f"expected {','.join(DECISION_COLUMNS)!r}."
        )
    writer = csv_writer(out)
    writer.writerow(DECISION_COLUMNS)
    width = len(DECISION_COLUMNS)
    rows = 0
    while True:
        if cancelled is not None and cancelled():
            raise ExportCancelled(rows)
        batch = [_neutralised(row) for row in islice(reader, BATCH_ROWS)]
        if not batch:
            return rows
        for offset, row in enumerate(batch):
            if len(row) != width:
                raise ProtocolError(
                    f"Row {rows + offset + 1:,} of the reply to {what} has {len(row)} cells, "
                    f"not {width}; the export is incomplete."
                )
        writer.writerows(batch)
        rows += len(batch)
        if progress is not None:
            progress(rows)
