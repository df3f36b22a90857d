"""CSV safety: cells a spreadsheet would run are neutralised; hostile text round-trips."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

import pytest

from reviewer_app.protocol import Decision
from reviewer_app.protocol.csvsafe import (
    DECISION_COLUMNS,
    FORMULA_PREFIXES,
    decision_row,
    neutralise,
    safe_row,
    write_rows,
)

HOSTILE = [
    "=1+1",
    '=HYPERLINK("http://evil.example","click")',
    "+SUM(A1:A9)",
    "-2+3",
    "@SUM(1)",
    "\t=tab first",
    "\r=carriage return first",
    "=cmd|' /C calc'!A0",
    'say "hi", then,, commas',
    "line one\nline two\r\nline three",
    "\u202eevil\u202c bidi override and \u2066isolate\u2069",
    "zero\u200bwidth, emoji \U0001f600, \u00e9\u00e8, \u4e2d\u6587",
    "\u0627\u0644\u0639\u0631\u0628\u064a\u0629 right to left",
    "'already quoted",
    " =leading space is not a formula to a spreadsheet",
    "",
    '"',
    "\\",
]


@pytest.mark.parametrize("prefix", FORMULA_PREFIXES)
def test_formula_prefixes_are_neutralised(prefix: str) -> None:
    assert neutralise(prefix + "X") == "'" + prefix + "X"
    assert neutralise("X" + prefix) == "X" + prefix


def test_plain_cells_are_left_alone() -> None:
    assert safe_row([1, None, "keep", "SPAM.SCAM", "a b"]) == ["1", "", "keep", "SPAM.SCAM", "a b"]


def test_hostile_text_round_trips_through_csv_reader() -> None:
    written = write_rows([safe_row(HOSTILE), safe_row(reversed(HOSTILE))])
    rows = list(csv.reader(io.StringIO(written, newline="")))
    assert len(rows) == 2
    for cells, original in ((rows[0], HOSTILE), (rows[1], list(reversed(HOSTILE)))):
        assert len(cells) == len(original)
        for cell, text in zip(cells, original, strict=True):
            if text.startswith(FORMULA_PREFIXES):
                assert cell == "'" + text
            else:
                assert cell == text
            assert not cell.startswith(FORMULA_PREFIXES)


def test_decision_row_has_every_column() -> None:
    decision = Decision(
        id=7,
        item_id="item-1",
        queue_id="spam",
        reviewer="rita",
        action="remove",
        policies=["SPAM.SCAM", "SPAM.BULK"],
        note="=2*3",
        time_spent_ms=1_500,
        decided_at=datetime(2026, 1, 2, 3, 4, 5, 600_000, tzinfo=UTC),
        client_decided_at=datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC),
    )
    row = dict(zip(DECISION_COLUMNS, decision_row(decision), strict=True))
    assert row["note"] == "'=2*3"
    assert row["policies"] == "SPAM.SCAM;SPAM.BULK"
    assert row["decided_at"] == "2026-01-02T03:04:05.600000Z"
    assert (row["kind"], row["audit_result"], row["rating"]) == ("review", "", "")


def test_every_cell_is_quoted_so_a_semicolon_splits_none() -> None:
    """Excel in German or French splits a CSV on ";": unquoted, a note ``ok;=cmd|...``
    (no comma, quote or newline, so the csv module left it bare) became a cell starting
    with "=" there, which the first-character check cannot see."""
    text = write_rows([["ok;=cmd|' /C calc'!A0;x", "7", ""]])
    assert text == '"ok;=cmd|\' /C calc\'!A0;x","7",""\r\n'
    assert list(csv.reader(io.StringIO(text))) == [["ok;=cmd|' /C calc'!A0;x", "7", ""]]
