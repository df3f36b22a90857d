"""Reading a queue file: TOML syntax, then the protocol's models, then the rules beyond them;
every problem found, each with its line."""

from __future__ import annotations

import re
import tomllib
from typing import Any

from pydantic import ValidationError

from reviewer_app.protocol import QueueFile
from reviewer_app.server.domain.queuefile.errors import FileProblem, QueueFileError, locate
from reviewer_app.server.domain.queuefile.rules import COVERED, semantic_problems
from reviewer_app.server.domain.queuefile.text import key_lines


def parse_queue_file(text: str) -> QueueFile:
    """The queue file's content as a ``QueueFile``; ``QueueFileError`` names every problem
    (a TOML syntax error alone: the parser cannot go on past it)."""
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
    """Every problem of a parsed document: the models' and ``semantic_problems``."""
    problems: list[FileProblem] = []
    try:
        QueueFile.model_validate(data)
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            if error["type"] == "value_error" and any(c in error["msg"] for c in COVERED):
                continue
            message = error["msg"].removeprefix("Value error, ")
            problems.append(FileProblem(tuple(error["loc"]), message, code=error["type"]))
    try:
        across = semantic_problems(data)
    except TypeError:
        # a list or a table where the rules compare a name or a code: the models named it
        # (with its line); the rules across queues wait for a file whose fields are typed
        if not problems:
            raise
        across = []
    return problems + across


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
