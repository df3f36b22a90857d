"""What is wrong with a queue file: each problem with its place and line, and the error
that carries them all."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from reviewer_app.protocol import ProblemDetail
from reviewer_app.server.problems import ApiError

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class FileProblem:
    """One problem of a queue file: where (``loc`` in the document, ``line`` in the text,
    0 when there is no text) and what."""

    loc: Loc
    message: str
    line: int = 0
    code: str = "invalid"

    @property
    def where(self) -> str:
        """``queues[2].config.actions[1].key``"""
        text = ""
        for part in self.loc:
            text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else part)
        return text

    def describe(self, source: str = "") -> str:
        """``FILE:LINE: where: message`` (as compilers write it; ``FILE: where: message``
        when there is no line)."""
        prefix = (f"{source}:{self.line}: " if self.line else f"{source}: ") if source else ""
        return f"{prefix}{self.where + ': ' if self.loc else ''}{self.message}"


class QueueFileError(ApiError):
    """A queue file that cannot be applied; ``problems`` holds every problem found."""

    def __init__(self, problems: list[FileProblem]) -> None:
        self.problems = sorted(problems, key=lambda p: (p.line, _loc_key(p.loc)))
        count = len(self.problems)
        super().__init__(
            422,
            "queue_file_invalid",
            f"The queue file has {count} problem{'s' if count != 1 else ''}; nothing was applied.",
            errors=[
                ProblemDetail(loc=list(p.loc)[:16], message=p.message[:2_000], code=p.code)
                for p in self.problems
            ],
        )

    def describe(self, source: str) -> list[str]:
        return [p.describe(source) for p in self.problems]


def _loc_key(loc: Loc) -> tuple[tuple[int, int | str], ...]:
    return tuple((0, p) if isinstance(p, int) else (1, p) for p in loc)


def locate(lines: Mapping[Loc, int], loc: Loc) -> int:
    """The line of ``loc``'s longest prefix that the text names (1 when none does: a field
    missing from the whole file)."""
    for end in range(len(loc), 0, -1):
        line = lines.get(loc[:end])
        if line is not None:
            return line
    return 1
