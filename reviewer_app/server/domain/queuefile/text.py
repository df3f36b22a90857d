"""Queue files as text: where each key is (for the lines of problems), and the running
configuration written back as TOML (``queues export``) or as canonical JSON."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from reviewer_app.protocol import QueueFile
from reviewer_app.server.domain.queuefile.errors import Loc


def key_lines(text: str) -> dict[Loc, int]:
    """The line of every table, array-of-tables entry, key and array element of a TOML
    text (valid TOML, as ``tomllib`` read it), by its place in the parsed document:
    ``("queues", 2, "config", "actions", 1, "key") -> 57``. Keys inside inline tables and
    elements of arrays have their own lines; a table made implicitly (``[a.b]`` makes
    ``a``) has the line of the first header that made it."""
    scanner = _Scanner(text)
    scanner.run()
    return scanner.lines


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", '"': '"', "\\": "\\"}


class _Scanner:
    def __init__(self, text: str) -> None:
        self.s = text
        self.i = 0
        self.line = 1
        self.lines: dict[Loc, int] = {}
        self.arrays: dict[Loc, int] = {}  # array of tables -> entries so far
        self.table: Loc = ()

    # characters

    def peek(self, n: int = 1) -> str:
        return self.s[self.i : self.i + n]

    def advance(self, n: int = 1) -> None:
        self.line += self.s.count("\n", self.i, self.i + n)
        self.i += n

    def skip_blank(self, *, newlines: bool) -> None:
        """Spaces, tabs, comments (and line ends, if ``newlines``)."""
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in " \t\r" or (newlines and c == "\n"):
                self.advance()
            elif c == "#":
                end = self.s.find("\n", self.i)
                self.i = len(self.s) if end < 0 else end
            else:
                return

    def mark(self, loc: Loc, line: int) -> None:
        for end in range(1, len(loc)):
            self.lines.setdefault(loc[:end], line)
        self.lines[loc] = line

    # structure

    def run(self) -> None:
        while True:
            self.skip_blank(newlines=True)
            if self.i >= len(self.s):
                return
            if self.peek(2) == "[[":
                self.advance(2)
                self.array_header()
            elif self.peek() == "[":
                self.advance()
                self.table_header()
            else:
                self.key_value(self.table)

    def resolve(self, keys: list[str]) -> Loc:
        """A header's keys as a document path: an array of tables named on the way means
        its newest entry."""
        path: Loc = ()
        for key in keys:
            path = (*path, key)
            if path in self.arrays:
                path = (*path, self.arrays[path] - 1)
        return path

    def table_header(self) -> None:
        line = self.line
        keys = self.keys()
        self.skip_blank(newlines=False)
        self.advance()  # ]
        self.table = self.resolve(keys)
        self.mark(self.table, line)

    def array_header(self) -> None:
        line = self.line
        keys = self.keys()
        self.skip_blank(newlines=False)
        self.advance(2)  # ]]
        array = (*self.resolve(keys[:-1]), keys[-1])
        index = self.arrays.get(array, 0)
        self.arrays[array] = index + 1
        self.table = (*array, index)
        self.lines.setdefault(array, line)
        self.mark(self.table, line)

    def keys(self) -> list[str]:
        """A dotted key: ``a."b c".d``."""
        keys = []
        while True:
            self.skip_blank(newlines=False)
            keys.append(self.key())
            self.skip_blank(newlines=False)
            if self.peek() != ".":
                return keys
            self.advance()

    def key(self) -> str:
        c = self.peek()
        if c == '"':
            return self.basic_string()
        if c == "'":
            end = self.s.index("'", self.i + 1)
            value = self.s[self.i + 1 : end]
            self.advance(end + 1 - self.i)
            return value
        found = _BARE_KEY.match(self.s, self.i)
        if found is None:  # not TOML tomllib accepted: step over it
            self.advance()
            return ""
        self.advance(found.end() - self.i)
        return found.group()

    def key_value(self, table: Loc) -> None:
        line = self.line
        path = (*table, *self.keys())
        self.mark(path, line)
        self.skip_blank(newlines=False)
        self.advance()  # =
        self.skip_blank(newlines=False)
        self.value(path)

    # values

    def value(self, path: Loc) -> None:
        c = self.peek()
        if self.peek(3) in ('"""', "'''"):
            self.multiline_string(self.peek(3))
        elif c == '"':
            self.basic_string()
        elif c == "'":
            end = self.s.index("'", self.i + 1)
            self.advance(end + 1 - self.i)
        elif c == "[":
            self.advance()
            self.array(path)
        elif c == "{":
            self.advance()
            self.inline_table(path)
        else:  # number, boolean, date or time
            while self.i < len(self.s) and self.s[self.i] not in ",]}\n#":
                self.advance()

    def basic_string(self) -> str:
        self.advance()  # "
        out = []
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == "\\":
                out.append(_ESCAPES.get(self.peek(2)[1:], ""))
                self.advance(2)
            elif c == '"':
                self.advance()
                break
            else:
                out.append(c)
                self.advance()
        return "".join(out)

    def multiline_string(self, quotes: str) -> None:
        self.advance(3)
        while self.i < len(self.s):
            if quotes == '"""' and self.s[self.i] == "\\":
                self.advance(2)
            elif self.peek(3) == quotes:
                self.advance(3)
                while self.peek() == quotes[0]:  # up to two quotes end the content
                    self.advance()
                return
            else:
                self.advance()

    def array(self, path: Loc) -> None:
        index = 0
        while True:
            self.skip_blank(newlines=True)
            if self.i >= len(self.s) or self.peek() == "]":
                self.advance()
                return
            self.mark((*path, index), self.line)
            self.value((*path, index))
            self.skip_blank(newlines=True)
            if self.peek() == ",":
                self.advance()
            index += 1

    def inline_table(self, path: Loc) -> None:
        while True:
            self.skip_blank(newlines=True)
            if self.i >= len(self.s) or self.peek() == "}":
                self.advance()
                return
            self.key_value(path)
            self.skip_blank(newlines=True)
            if self.peek() == ",":
                self.advance()


# Parts of a queue's config written as their own tables (the rest are keys of
# ``[queues.config]``): sub-tables, and arrays of tables (one entry per element).
_SUB_TABLES = ("priority", "rereview", "breaks")
_ARRAYS_OF_TABLES = ("actions", "policies", "ratings", "routing", "escalation_reasons")


def dump_queue_file(queue_file: QueueFile, header: str = "") -> str:
    """The queue file as TOML in the layout above (defaults left out); reading it back
    gives the same ``QueueFile``. ``header`` becomes comment lines at the top."""
    out: list[str] = [f"# {line}".rstrip() for line in header.splitlines()]
    for queue in queue_file.queues:
        document = queue.model_dump(mode="json", exclude_defaults=True)
        config = document.pop("config")
        out += ["", "[[queues]]", *_keys(document)]
        plain = {k: v for k, v in config.items() if k not in _SUB_TABLES + _ARRAYS_OF_TABLES}
        out += ["", "[queues.config]", *_keys(plain)]
        for name in _SUB_TABLES:
            if name in config:
                out += ["", f"[queues.config.{name}]", *_keys(config[name])]
        for name in _ARRAYS_OF_TABLES:
            for entry in config.get(name, []):
                out += ["", f"[[queues.config.{name}]]", *_keys(entry)]
    return "\n".join(out).lstrip("\n") + "\n"


def _keys(table: Mapping[str, Any]) -> list[str]:
    return [f"{_key(k)} = {_value(v)}" for k, v in table.items() if v is not None]


def _key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else _string(name)


def _string(text: str) -> str:
    # JSON's escapes are TOML's, but JSON leaves DEL as it is and TOML does not allow it.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items() if v is not None)
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def canonical_json(queue_file: QueueFile) -> str:
    """The file's one JSON form (every default spelt out, keys sorted): what is stored as a
    configuration version and hashed to tell two files apart."""
    return json.dumps(
        queue_file.model_dump(mode="json"),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )


def export_text(queue_file: QueueFile, newest: dict[str, Any] | None) -> str:
    """The running queue file as TOML, headed by its version: what ``queues export`` writes
    and what an admin sees in the app (``GET /admin/queue-file``)."""
    header = "Queue configuration of the review desk"
    if newest is not None:
        header += (
            f": version {newest['version']}, applied {applied_when(newest['applied_at'])}"
            f" by {newest['applied_by'] or 'the service'}"
        )
    header += ".\nApply it with: reviewer-app server queues apply FILE"
    return dump_queue_file(queue_file, header)


def applied_when(epoch: float) -> str:
    """An applied_at time as the CLI and the export show it (UTC)."""
    return datetime.fromtimestamp(epoch, tz=UTC).strftime("%Y-%m-%d %H:%M:%S")
