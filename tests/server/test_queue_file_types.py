"""A queue file is typed TOML: a value of the wrong type is refused with its line (never
coerced), and it hides none of the rules across queues that can still be checked. Also the
file's name on problems without a line, a leading byte order mark, and each problem once."""

from __future__ import annotations

import copy
import datetime
import tomllib
from collections.abc import Iterator
from typing import Any

import pytest

from reviewer_app.protocol import QueueFile
from reviewer_app.server.domain.queuefile.errors import FileProblem, QueueFileError
from reviewer_app.server.domain.queuefile.parse import (
    check_queue_file,
    document_problems,
    parse_queue_file,
)
from tests.server.test_queue_file import APPEALS_QUEUE, BASE, REASONS, base, with_queue

SPAM_ACTION = (
    'id = "remove"\nlabel = "Remove"\nkind = "remove"\nkey = "2"\nrequires_policy = true\n'
)
MISINFO_LABEL = 'kind = "label"\nkey = "3"\nrequires_rating = true\n'


def refused(text: str) -> list[FileProblem]:
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(text)
    return caught.value.problems


def line_of(text: str, words: str, after: str = "") -> int:
    """The line of the first line holding ``words`` after the text ``after``."""
    start = text.index(after)
    return text[: text.index(words, start)].count("\n") + 1


# -- 1. a value of the wrong type is refused, with its line -----------------------------------


@pytest.mark.parametrize(
    ("old", "new", "where", "message"),
    [
        (
            "sla_minutes = 480",
            'sla_minutes = "600"',
            "queues[0].config.sla_minutes",
            "give a whole number, not a string",
        ),
        (
            "sla_minutes = 240",
            "sla_minutes = 240.0",
            "queues[1].config.sla_minutes",
            "give a whole number, not a float",
        ),
        (
            "sla_minutes = 240",
            "sla_minutes = true",
            "queues[1].config.sla_minutes",
            "give a whole number, not a boolean",
        ),
        (
            "score = 6.0",
            'score = "6.0"',
            "queues[0].config.priority.score",
            "give a number, not a string",
        ),
        (
            MISINFO_LABEL,
            MISINFO_LABEL + 'requires_note = "yes"\n',
            "queues[1].config.actions[2].requires_note",
            "give true or false, not a string",
        ),
        (
            MISINFO_LABEL,  # a queue with no policies: the rule would have caught it later
            MISINFO_LABEL + 'requires_policy = "yes"\n',
            "queues[1].config.actions[2].requires_policy",
            "give true or false, not a string",
        ),
        (
            "lead_only = true",
            'lead_only = "yes"',
            "queues[3].config.lead_only",
            "give true or false, not a string",
        ),
        (
            "lead_only = true",
            "lead_only = 1",
            "queues[3].config.lead_only",
            "give true or false, not an integer",
        ),
        (
            'id = "partly_false"\nlabel = "Partly false"\nreduces = true',
            'id = "partly_false"\nlabel = "Partly false"\nreduces = 0',
            "queues[1].config.ratings[1].reduces",
            "give true or false, not an integer",
        ),
        (
            'label = "Not spam"',
            "label = 2025-01-01",
            "queues[0].config.actions[0].label",
            "give a string, not a date or time",
        ),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_with_its_line(
    old: str, new: str, where: str, message: str
) -> None:
    assert old in BASE
    text = BASE.replace(old, new, 1)
    problems = refused(text)
    # the type error alone: no rule reads "yes" as false ("give it lead_only = true")
    assert [(p.where, p.message) for p in problems] == [(where, message)]
    assert problems[0].line == line_of(text, new.splitlines()[-1])
    assert problems[0].describe("q.toml") == f"q.toml:{problems[0].line}: {where}: {message}"


def test_a_table_or_an_array_of_the_wrong_type_is_named_in_the_same_words() -> None:
    problems = refused(BASE.replace("new_reports = 10", "new_reports = [10]"))
    assert [(p.where, p.message) for p in problems] == [
        ("queues[1].config.rereview.new_reports", "give a whole number, not an array")
    ]
    problems = refused(BASE.replace('author_actions = ["restrict"]', 'author_actions = "x"'))
    assert [(p.where, p.message) for p in problems] == [
        ("queues[2].config.author_actions", "give an array, not a string")
    ]


# -- 2. a value of the wrong type hides none of the rules across queues -----------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('kind = "remove"\nkey = "2"', 'kind = ["remove"]\nkey = "2"'),
        ('id = "remove"\nlabel = "Remove"', 'id = ["remove"]\nlabel = "Remove"'),
        ('code = "SPAM.SCAM"', 'code = ["SPAM.SCAM"]'),
        ('id = "spam"', 'id = ["spam"]'),
        ('id = "false"', "id = false"),
        ("lead_only = true", 'lead_only = "yes"'),
    ],
)
def test_a_wrong_type_hides_no_rule_across_queues(old: str, new: str) -> None:
    """One list where a name belongs, and a key used twice in another queue: both."""
    text = BASE.replace(old, new, 1).replace('key = "3"', 'key = "1"', 1)
    problems = refused(text)
    type_line = line_of(text, new.splitlines()[0])
    twice = line_of(text, 'key = "1"', 'id = "label"\nlabel = "Label only"')
    assert {(p.line, p.code) for p in problems if p.code == "duplicate"} == {(twice, "duplicate")}
    assert [p.line for p in problems if p.code != "duplicate"] == [type_line]


def _nodes(value: Any, loc: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """Every value of a document, tables and arrays too, but not the document itself."""
    if loc:
        yield loc, value
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _nodes(inner, (*loc, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _nodes(inner, (*loc, index))


def _wrong(value: Any) -> list[Any]:
    """Values of another type than ``value``'s."""
    day = datetime.date(2025, 1, 1)
    if isinstance(value, bool):
        return ["yes", 1, day]
    if isinstance(value, int):
        return [str(value), True, 2.5, [value]]
    if isinstance(value, float):
        return [str(value), True, {"v": value}]
    if isinstance(value, str):
        return [[value], 7, {"v": value}, day]
    if isinstance(value, list):
        return ["x", {"k": 1}]
    return ["x", [1], 3]


#: a valid file that every rule looks at: reasons, author actions, a default policy, break
#: rules and an appeals queue
FULL = (
    BASE.replace(SPAM_ACTION, SPAM_ACTION + 'author_action = "suspend"\n', 1)
    .replace("sla_minutes = 480\n", 'sla_minutes = 480\ndefault_policy = "SPAM.SCAM"\n')
    .replace('[[queues]]\nid = "misinformation"', REASONS + '[[queues]]\nid = "misinformation"')
    + '\n[queues.config.breaks]\nafter_minutes = 90\nhigh_harm = ["hate"]\n'
    + APPEALS_QUEUE
)


def test_every_value_of_the_wrong_type_is_its_one_problem() -> None:
    """Any value of a valid file given another type is refused at its place, and no rule
    across queues misreads it (a TypeError, or "yes" taken for false)."""
    data = tomllib.loads(FULL)
    assert isinstance(parse_queue_file(FULL), QueueFile)
    tried = 0
    for loc, value in _nodes(data):
        for wrong in _wrong(value):
            changed = copy.deepcopy(data)
            target = changed
            for part in loc[:-1]:
                target = target[part]
            target[loc[-1]] = wrong
            problems = document_problems(changed)
            assert problems, (loc, wrong)
            elsewhere = [p for p in problems if p.loc[: len(loc)] != loc]
            assert not elsewhere, (loc, wrong, elsewhere)
            tried += 1
    assert tried > 500


# -- 3. each problem once, the file's name on every problem, a byte order mark ----------------


def test_an_escalation_reason_id_used_twice_is_one_problem() -> None:
    spam_end = BASE.index("[[queues]]", BASE.index('id = "spam"'))
    twice = BASE[:spam_end] + REASONS + REASONS.replace("Part of", "Also") + BASE[spam_end:]
    problems = refused(twice)
    assert [(p.where, p.code) for p in problems] == [
        ("queues[0].config.escalation_reasons[2].id", "duplicate"),
        ("queues[0].config.escalation_reasons[3].id", "duplicate"),
    ]


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("x = " + "[" * 3000 + "]" * 3000 + "\n", "q.toml: TOML syntax: arrays or tables nested"),
        ('x = """abc', "q.toml: TOML syntax: Unterminated string"),
    ],
)
def test_a_problem_without_a_line_still_names_the_file(text: str, line: str) -> None:
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(text)
    [problem] = caught.value.problems
    assert problem.line == 0
    assert caught.value.describe("q.toml")[0].startswith(line), caught.value.describe("q.toml")


def test_a_rule_broken_by_a_file_made_in_code_names_the_file() -> None:
    no_lead = with_queue(base(), "escalations", lead_only=False)
    no_lead = with_queue(no_lead, "hate", policies=[])
    with pytest.raises(QueueFileError) as caught:
        check_queue_file(no_lead)
    assert caught.value.describe("q.toml") == [
        "q.toml: queues[2].config.actions[1].requires_policy: this action needs a policy "
        "code, and the queue has no [[queues.config.policies]]",
        "q.toml: queues[3].config.lead_only: the 'escalations' queue receives escalated "
        "items, which leads decide: give it lead_only = true",
    ]


def test_a_file_saved_with_a_byte_order_mark_is_read() -> None:
    assert parse_queue_file("\ufeff" + BASE) == base()
    text = "\ufeff" + BASE.replace("sla_minutes = 480", "sla_minutes = -1")
    [problem] = refused(text)
    assert (problem.where, problem.line) == ("queues[0].config.sla_minutes", line_of(text, "= -1"))


@pytest.mark.parametrize("blank", [" ", "\u200b", "\u202e \t"])
def test_a_ground_of_only_spaces_or_invisible_characters_is_refused(blank: str) -> None:
    """It read as given, and every statement of reasons citing it said "our terms of
    service, ." (the Transparency Database refuses it, with its whole export window)."""
    text = BASE.replace('"Terms of Service 6.1"', '"' + blank + '"')
    problems = refused(text)
    assert [(p.line, p.code) for p in problems] == [
        (line_of(text, "terms_clause = "), "blank_ground")
    ]
