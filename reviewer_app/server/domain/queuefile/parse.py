"""Reading a queue file: TOML syntax, then the protocol's models, then the rules beyond them;
every problem found, each with its line."""

from __future__ import annotations

import datetime
import re
import tomllib
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from reviewer_app.protocol import QueueFile
from reviewer_app.server.domain.queuefile.errors import FileProblem, QueueFileError, locate
from reviewer_app.server.domain.queuefile.rules import COVERED, semantic_problems
from reviewer_app.server.domain.queuefile.text import key_lines

#: a byte order mark: some editors begin a UTF-8 file with one
_BOM = "\ufeff"


def parse_queue_file(text: str) -> QueueFile:
    """The queue file's content as a ``QueueFile``; ``QueueFileError`` names every problem
    (a TOML syntax error alone: the parser cannot go on past it)."""
    text = text.removeprefix(_BOM)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise QueueFileError([_syntax_problem(str(exc))]) from None
    except RecursionError:
        raise QueueFileError(
            [FileProblem((), "TOML syntax: arrays or tables nested too deep", 0, "syntax")]
        ) from None
    lines = key_lines(text)
    problems = [
        FileProblem(p.loc, p.message, locate(lines, p.loc), p.code) for p in document_problems(data)
    ]
    if problems:
        raise QueueFileError(problems)
    return QueueFile.model_validate(data)


def check_queue_file(queue_file: QueueFile) -> None:
    """The rules beyond the models, for a ``QueueFile`` made in code; raises
    ``QueueFileError`` (without lines)."""
    problems = semantic_problems(queue_file.model_dump(mode="json"))
    if problems:
        raise QueueFileError(problems)


def document_problems(data: Any) -> list[FileProblem]:
    """Every problem of a parsed document: each field the models refuse (a value of the
    wrong type among them: TOML is typed, so ``"600"`` is no number and ``"yes"`` no
    boolean) and ``semantic_problems``."""
    problems = [
        FileProblem(tuple(error["loc"]), _message(error), code=error["type"])
        for error in _model_errors(data)
        if not (error["type"] == "value_error" and any(c in error["msg"] for c in COVERED))
    ]
    return problems + semantic_problems(data)


# What the models would make of another type (lax mode: ``"600"`` for 600, ``"yes"`` or 1 for
# true), found by validating again in strict mode. Strict mode alone would not do: from Python
# objects it wants enum members, where a file has their values.
_COERCED = frozenset({"int_type", "float_type", "bool_type"})


def _model_errors(data: Any) -> list[ErrorDetails]:
    """The models' errors, a value of the wrong type as one error at its place."""
    try:
        QueueFile.model_validate(data)
        lax: list[ErrorDetails] = []
    except ValidationError as exc:
        lax = exc.errors(include_url=False)
    try:
        QueueFile.model_validate(data, strict=True)
        return lax
    except ValidationError as exc:
        typed = [e for e in exc.errors(include_url=False) if e["type"] in _COERCED]
    places = {tuple(e["loc"]) for e in typed}
    return [e for e in lax if tuple(e["loc"]) not in places] + typed


_EXPECTED = {
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "string_type": "a string",
    "list_type": "an array",
    "model_type": "a table",
    "model_attributes_type": "a table",
    "dict_type": "a table",
}


def _message(error: ErrorDetails) -> str:
    """A type error as ``give a whole number, not a string``; any other as the models
    word it."""
    expected = _EXPECTED.get(error["type"])
    if expected is not None:
        return f"give {expected}, not {_toml_type(error['input'])}"
    return error["msg"].removeprefix("Value error, ")


_TOML_TYPES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "a boolean"),  # before int: a bool is an int to Python
    (int, "an integer"),
    (float, "a float"),
    (str, "a string"),
    (list, "an array"),
    (dict, "a table"),
    ((datetime.date, datetime.time), "a date or time"),
)


def _toml_type(value: Any) -> str:
    return next((name for kind, name in _TOML_TYPES if isinstance(value, kind)), "a value")


_SYNTAX_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_SYNTAX_END = re.compile(r"\s*\(at end of document\)\s*$")


def _syntax_problem(message: str) -> FileProblem:
    found = _SYNTAX_AT.search(message)
    if found:
        text = message[: found.start()]
        return FileProblem(
            (), f"TOML syntax: {text} (column {found.group(2)})", int(found.group(1)), "syntax"
        )
    return FileProblem((), f"TOML syntax: {_SYNTAX_END.sub('', message)}", 0, "syntax")
