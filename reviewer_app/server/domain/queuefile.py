"""Queue files: the queue configuration as a TOML file people edit, read and write.

``reviewer-app server queues apply FILE`` reads one (``parse_queue_file``), and
``queues export`` writes the running one (``dump_queue_file``). The layout::

    [[queues]]                          # one per queue, in the order routing tries them
    id = "misinformation"
    name = "Misinformation"
    description = "Posts matched to debunked claims"

    [queues.config]                     # the queue's own settings
    sla_minutes = 240
    author_actions = ["warn", "restrict"]
    notes_shareable = true              # the note is part of the statement of reasons
    default_policy = "MISINFO.HEALTH"   # what a decision without a policy code cites

    [queues.config.priority]            # ordering weights of its pending items
    score = 2.0
    reach = 1.5

    [[queues.config.actions]]           # one per action, in the verdict bar's order
    id = "label"
    label = "Label with fact-check"
    kind = "label"
    key = "2"
    requires_rating = true

    [[queues.config.policies]]
    code = "MISINFO.HEALTH"
    label = "Health misinformation"
    terms_clause = "Community Guidelines 4.1"   # or legal_ground = "..." (illegal content)
    category = "risk_for_public_security"       # its DSA statement category

    [[queues.config.escalation_reasons]] # what E offers (none: the service's defaults)
    id = "needs_fact_check"
    label = "Needs a fact-check first"
    requires_note = false               # true: the reviewer must say more in the note

    [[queues.config.ratings]]           # the fact-check rating scale
    id = "false"
    label = "False"
    reduces = true

    [[queues.config.routing]]           # signals that route a post here
    name = "civic-claims"
    classifier = [{ model = "civic-claim", min_score = 0.75 }]
    fact_check = { ratings = ["false", "partly_false"] }

    [queues.config.rereview]            # when a post decided keep comes back
    new_reports = 10

    [queues.config.breaks]              # break reminders in the review window
    after_minutes = 90                  # after this long since the shift began or the last break
    after_high_harm = 20                # or after this many high-harm items
    high_harm = ["graphic_violence", "self_harm"]   # which kinds count (a default set if left out)

with ``harm = ["hate"]`` in ``[queues.config]`` (what every post of the queue exposes a
reviewer to) and in a policy (what citing it adds): the kinds of harm counted per shift
(protocol.wellbeing).

A bad file is refused with every problem found and its line: the TOML syntax error (the
parser stops at the first), or else each field the protocol's models refuse and each
rule below that the models cannot see on their own (one queue's actions against its
ratings, policies and author actions; routing against the rating scale; escalation
against the escalation queue; each policy's ground and category for statements of
reasons). Qt-free, database-free.
"""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from reviewer_app.protocol import ProblemDetail, QueueFile
from reviewer_app.server.problems import ApiError

Loc = tuple[str | int, ...]

#: the queue escalate actions move items to (see verdicts.ESCALATION_QUEUE)
ESCALATION_QUEUE = "escalations"
#: the action kinds that decide appeals (appeals queues only)
APPEAL_KINDS = frozenset({"uphold", "reverse"})

# Rules of the models' own validators that ``semantic_problems`` finds too, with the line of
# the very entry at fault: the models' one-line summary of them is left out.
_COVERED = ("action ids must be unique", "action keys must be unique", "queue ids must be unique")


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
        """``FILE:LINE: where: message`` (as compilers write it)."""
        prefix = f"{source}:{self.line}: " if source and self.line else ""
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


# -- reading -------------------------------------------------------------------------------


def parse_queue_file(text: str) -> QueueFile:
    """The queue file's content as a ``QueueFile``; ``QueueFileError`` names every problem
    (a TOML syntax error alone: the parser cannot go on past it)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise QueueFileError([_syntax_problem(str(exc))]) from None
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
            if error["type"] == "value_error" and any(c in error["msg"] for c in _COVERED):
                continue
            message = error["msg"].removeprefix("Value error, ")
            problems.append(FileProblem(tuple(error["loc"]), message, code=error["type"]))
    return problems + semantic_problems(data)


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


def locate(lines: Mapping[Loc, int], loc: Loc) -> int:
    """The line of ``loc``'s longest prefix that the text names (1 when none does: a field
    missing from the whole file)."""
    for end in range(len(loc), 0, -1):
        line = lines.get(loc[:end])
        if line is not None:
            return line
    return 1


# -- rules beyond the models ------------------------------------------------------------------


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _duplicates(entries: list[Any], field: str, base: Loc, what: str) -> Iterator[FileProblem]:
    """Each entry whose ``field`` an earlier entry already has."""
    seen: dict[str, int] = {}
    for index, entry in enumerate(entries):
        value = _dict(entry).get(field)
        if not isinstance(value, str):
            continue
        if value in seen:
            first = FileProblem((*base, seen[value]), "").where
            yield FileProblem(
                (*base, index, field),
                f"{what} {value!r} is used twice (first by {first})",
                code="duplicate",
            )
        else:
            seen[value] = index


def semantic_problems(data: Any) -> list[FileProblem]:
    """The rules a maintainer expects and the models cannot check field by field (they
    look across a queue or across queues). Works on the raw document, so a field the models
    refuse elsewhere does not hide these."""
    queues = _list(_dict(data).get("queues"))
    problems = list(_duplicates(queues, "id", ("queues",), "queue id"))
    ids = {q.get("id") for q in map(_dict, queues)}
    # Fact-checks arrive on the service's one scale, whichever queue the post is in: a
    # routing or re-review rule may name a rating of any queue's scale.
    scale = {
        r.get("id")
        for q in map(_dict, queues)
        for r in map(_dict, _list(_dict(q.get("config")).get("ratings")))
    }
    escalation = next(
        (
            (i, _dict(q.get("config")))
            for i, q in enumerate(map(_dict, queues))
            if q.get("id") == ESCALATION_QUEUE
        ),
        None,
    )
    escalates = False
    appeals_queues: list[int] = []
    for qi, queue in enumerate(map(_dict, queues)):
        base: Loc = ("queues", qi, "config")
        config = _dict(queue.get("config"))
        actions = _list(config.get("actions"))
        if config.get("appeals") is True:
            appeals_queues.append(qi)
            problems += _appeals_queue_problems(qi, queue, config, len(appeals_queues) > 1)
        else:
            problems += [
                FileProblem(
                    (*base, "actions", ai, "kind"),
                    f"{_dict(a).get('kind')} decides an appeal: it belongs in the appeals "
                    "queue (appeals = true) only",
                    code="appeal_action_outside_appeals",
                )
                for ai, a in enumerate(actions)
                if _dict(a).get("kind") in APPEAL_KINDS
            ]
        problems += _duplicates(actions, "id", (*base, "actions"), "action id")
        problems += _duplicates(actions, "key", (*base, "actions"), "key")
        problems += _duplicates(_list(config.get("policies")), "code", (*base, "policies"), "code")
        problems += _statement_problems(config, base)
        ratings = [_dict(r) for r in _list(config.get("ratings"))]
        problems += _duplicates(ratings, "id", (*base, "ratings"), "rating")
        routing = _list(config.get("routing"))
        problems += _duplicates(routing, "name", (*base, "routing"), "rule name")
        allowed = {a for a in _list(config.get("author_actions")) if isinstance(a, str)}
        kinds = {_dict(a).get("kind") for a in actions}
        reasons = _list(config.get("escalation_reasons"))
        problems += _duplicates(reasons, "id", (*base, "escalation_reasons"), "escalation reason")
        if reasons and "escalate" not in kinds:
            problems.append(
                FileProblem(
                    (*base, "escalation_reasons"),
                    "escalation reasons are given when escalating, and this queue has no "
                    "escalate action",
                    code="escalation_reasons_unused",
                )
            )
        for ai, action in enumerate(map(_dict, actions)):
            at: Loc = (*base, "actions", ai)
            kind = action.get("kind")
            label_kind = kind in ("label", "label_and_reduce")  # protocol.takes_rating
            if (action.get("requires_rating") is True or label_kind) and not ratings:
                problems.append(
                    FileProblem(
                        (*at, "requires_rating" if "requires_rating" in action else "kind"),
                        "this action needs a fact-check rating, and the queue has no "
                        "[[queues.config.ratings]]",
                        code="no_ratings",
                    )
                )
            reducing = any(r.get("reduces") is True for r in ratings)
            if kind == "label_and_reduce" and ratings and not reducing:
                problems.append(
                    FileProblem(
                        (*at, "kind"),
                        "label_and_reduce gives a rating that reduces distribution, and none "
                        "of this queue's ratings has reduces = true",
                        code="no_reducing_rating",
                    )
                )
            if action.get("requires_policy") is True and not _list(config.get("policies")):
                problems.append(
                    FileProblem(
                        (*at, "requires_policy"),
                        "this action needs a policy code, and the queue has no "
                        "[[queues.config.policies]]",
                        code="no_policies",
                    )
                )
            author_action = action.get("author_action")
            if isinstance(author_action, str) and author_action not in allowed:
                problems.append(
                    FileProblem(
                        (*at, "author_action"),
                        f"author action {author_action!r} is not in this queue's "
                        f"author_actions {sorted(allowed)}",
                        code="author_action_not_allowed",
                    )
                )
            if kind == "escalate":
                escalates = True
                if queue.get("id") == ESCALATION_QUEUE:
                    problems.append(
                        FileProblem(
                            (*at, "kind"),
                            f"an escalate action in the {ESCALATION_QUEUE!r} queue would send "
                            "items back into the same queue",
                            code="escalation_loop",
                        )
                    )
                elif ESCALATION_QUEUE not in ids:
                    problems.append(
                        FileProblem(
                            (*at, "kind"),
                            f"escalate moves the item to the {ESCALATION_QUEUE!r} queue, "
                            "and the file has none",
                            code="no_escalation_queue",
                        )
                    )
        for ri, rating in enumerate(ratings):
            if rating.get("reduces") is True and "label_and_reduce" not in kinds:
                problems.append(
                    FileProblem(
                        (*base, "ratings", ri, "reduces"),
                        f"rating {rating.get('id')!r} reduces distribution, so it is given "
                        "with a label_and_reduce action, and this queue has none",
                        code="no_label_and_reduce",
                    )
                )
        for ri, rule in enumerate(map(_dict, routing)):
            names = _list(_dict(rule.get("fact_check")).get("ratings"))
            for ni, name in enumerate(names):
                if isinstance(name, str) and name not in scale:
                    problems.append(
                        FileProblem(
                            (*base, "routing", ri, "fact_check", "ratings", ni),
                            f"rating {name!r} is in no queue's rating scale "
                            f"({', '.join(sorted(str(s) for s in scale)) or 'none'})",
                            code="unknown_rating",
                        )
                    )
        if isinstance(config.get("rereview"), dict):
            rereview = config["rereview"]
            if rereview.get("new_reports") is None and not _list(rereview.get("new_ratings")):
                problems.append(
                    FileProblem(
                        (*base, "rereview"),
                        "a re-review rule needs new_reports or new_ratings (it would never "
                        "bring a post back)",
                        code="rereview_never",
                    )
                )
            for ni, name in enumerate(_list(rereview.get("new_ratings"))):
                if isinstance(name, str) and name not in scale:
                    problems.append(
                        FileProblem(
                            (*base, "rereview", "new_ratings", ni),
                            f"rating {name!r} is in no queue's rating scale",
                            code="unknown_rating",
                        )
                    )
    if escalates and escalation is not None and escalation[1].get("lead_only") is not True:
        problems.append(
            FileProblem(
                ("queues", escalation[0], "config", "lead_only"),
                f"the {ESCALATION_QUEUE!r} queue receives escalated items, which leads "
                "decide: give it lead_only = true",
                code="escalations_not_lead_only",
            )
        )
    return problems


def _appeals_queue_problems(
    qi: int, queue: dict[str, Any], config: dict[str, Any], second: bool
) -> list[FileProblem]:
    """An appeals queue (appeals.py) decides appeals and nothing else: its actions uphold
    or reverse (both present; an uphold says why), no signals route posts to it, and
    there is one."""
    base: Loc = ("queues", qi, "config")
    found: list[FileProblem] = []
    if second:
        found.append(
            FileProblem(
                (*base, "appeals"),
                "another queue is the appeals queue already: appeals go to one queue",
                code="appeals_queue_twice",
            )
        )
    if queue.get("id") == ESCALATION_QUEUE:
        found.append(
            FileProblem(
                (*base, "appeals"),
                f"the {ESCALATION_QUEUE!r} queue takes escalations; give appeals a queue "
                "of their own",
                code="appeals_in_escalations",
            )
        )
    actions = [_dict(a) for a in _list(config.get("actions"))]
    kinds = {a.get("kind") for a in actions}
    for ai, action in enumerate(actions):
        at: Loc = (*base, "actions", ai)
        if action.get("kind") not in APPEAL_KINDS:
            found.append(
                FileProblem(
                    (*at, "kind"),
                    f"an appeals queue decides appeals: its actions are of kind uphold or "
                    f"reverse, not {action.get('kind')!r}",
                    code="appeals_action_kind",
                )
            )
        if action.get("author_action") is not None:
            found.append(
                FileProblem(
                    (*at, "author_action"),
                    "an appeal's outcome acts on no account by itself (a reversal undoes "
                    "what the contested decision did)",
                    code="appeals_author_action",
                )
            )
        if action.get("kind") == "uphold" and action.get("requires_note") is not True:
            found.append(
                FileProblem(
                    (*at, "requires_note"),
                    "an upheld appeal is answered with a reason: give uphold actions "
                    "requires_note = true",
                    code="uphold_needs_note",
                )
            )
    for kind in sorted(APPEAL_KINDS - kinds):
        found.append(
            FileProblem(
                (*base, "actions"),
                f"an appeals queue needs an action of kind {kind!r}",
                code="appeals_needs_outcomes",
            )
        )
    for key in ("routing", "rereview"):
        if config.get(key):
            found.append(
                FileProblem(
                    (*base, key),
                    "appeals come from the platform (intake), not from signals: an appeals "
                    "queue has no routing or re-review rules",
                    code="appeals_routing",
                )
            )
    return found


def _statement_problems(config: dict[str, Any], base: Loc) -> list[FileProblem]:
    """Statements of reasons need every policy's ground and category (a policy without them
    would make statements the Transparency Database refuses), and ``default_policy`` must
    be one of the queue's policies."""
    problems = []
    policies = [_dict(p) for p in _list(config.get("policies"))]
    for pi, policy in enumerate(policies):
        at: Loc = (*base, "policies", pi)
        code = policy.get("code")
        terms, legal = policy.get("terms_clause"), policy.get("legal_ground")
        if not terms and not legal:
            problems.append(
                FileProblem(
                    at,
                    f"policy {code!r} needs its ground for statements of reasons: "
                    "terms_clause (the clause of your terms it enforces) or legal_ground "
                    "(the law that makes the content illegal)",
                    code="policy_without_ground",
                )
            )
        elif terms and legal:
            problems.append(
                FileProblem(
                    (*at, "legal_ground"),
                    f"policy {code!r} has both terms_clause and legal_ground: give one",
                    code="policy_two_grounds",
                )
            )
        if not policy.get("category"):
            problems.append(
                FileProblem(
                    at,
                    f"policy {code!r} needs its DSA statement category (category = "
                    '"illegal_or_harmful_speech", say)',
                    code="policy_without_category",
                )
            )
    default = config.get("default_policy")
    codes = {p.get("code") for p in policies}
    if isinstance(default, str) and default not in codes:
        problems.append(
            FileProblem(
                (*base, "default_policy"),
                f"default_policy {default!r} is not one of this queue's policies",
                code="unknown_default_policy",
            )
        )
    return problems


# -- where each key is: the line locator ---------------------------------------------------


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


# -- writing ---------------------------------------------------------------------------------

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
