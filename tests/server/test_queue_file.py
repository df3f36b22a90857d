"""Queues from a file: every problem of a bad file with its line, configuration versions,
atomic applies, drains, verdicts judged by the version their lease was claimed under, and
the ``reviewer-app server queues`` commands. Real services over SQLite and PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    EventKind,
    QueueConfig,
    QueueDefinition,
    QueueFile,
    Role,
)
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.demo.queues import DEMO_QUEUES
from reviewer_app.server.domain.queueapply import item_priority
from reviewer_app.server.domain.queuefile.errors import QueueFileError
from reviewer_app.server.domain.queuefile.parse import parse_queue_file
from reviewer_app.server.domain.queuefile.text import dump_queue_file, key_lines
from reviewer_app.server.feeds.seed import seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.problems import ApiError
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import config_versions, events, items, leases, queues
from tests.support.api import claim, expect_problem, verdict
from tests.support.servers import LiveServer

BASE = """\
# The queues of a small desk.

[[queues]]
id = "spam"
name = "Spam and scams"
description = "Giveaways, phishing and fake shops"

[queues.config]
sla_minutes = 480
author_actions = ["warn", "suspend"]

[queues.config.priority]
score = 6.0
reports = 0.5

[[queues.config.actions]]
id = "keep"
label = "Not spam"
kind = "keep"
key = "1"

[[queues.config.actions]]
id = "remove"
label = "Remove"
kind = "remove"
key = "2"
requires_policy = true
strike = true

[[queues.config.actions]]
id = "escalate"
label = "Escalate"
kind = "escalate"
key = "9"

[[queues.config.policies]]
code = "SPAM.SCAM"
label = "Scam"
terms_clause = "Terms of Service 6.1"
category = "scams_and_fraud"

[[queues.config.routing]]
name = "scam-model"
classifier = [{ model = "spam-gbdt", label = "scam", min_score = 0.8 }]

[[queues]]
id = "misinformation"
name = "Misinformation"

[queues.config]
sla_minutes = 240

[[queues.config.actions]]
id = "keep"
label = "No violation"
kind = "keep"
key = "1"

[[queues.config.actions]]
id = "label-reduce"
label = "Label and reduce"
kind = "label_and_reduce"
key = "2"
requires_rating = true

[[queues.config.actions]]
id = "label"
label = "Label only"
kind = "label"
key = "3"
requires_rating = true

[[queues.config.ratings]]
id = "false"
label = "False"
reduces = true

[[queues.config.ratings]]
id = "partly_false"
label = "Partly false"
reduces = true

[[queues.config.ratings]]
id = "missing_context"
label = "Missing context"

[[queues.config.routing]]
name = "civic-claims"
classifier = [
    { model = "civic-claim", min_score = 0.75 },  # the claim matcher
    { model = "health-claim", min_score = 0.9 },
]
fact_check = { ratings = ["false", "partly_false"] }

[queues.config.rereview]
new_reports = 10
new_ratings = ["false"]

[[queues]]
id = "hate"
name = "Hate and harassment"

[queues.config]
author_actions = ["restrict"]

[[queues.config.actions]]
id = "keep"
label = "No violation"
kind = "keep"
key = "1"

[[queues.config.actions]]
id = "remove"
label = "Remove"
kind = "remove"
key = "2"
requires_policy = true

[[queues.config.policies]]
code = "HATE.SLUR"
label = "Slurs"
terms_clause = "Community Guidelines 2.1"
category = "illegal_or_harmful_speech"

[[queues.config.routing]]
name = "reported-hate"
reports = [{ reason = "hate", min_count = 3 }]

[[queues]]
id = "escalations"
name = "Escalations"

[queues.config]
lead_only = true

[[queues.config.actions]]
id = "keep"
label = "No violation"
kind = "keep"
key = "1"
requires_note = true
"""


def base() -> QueueFile:
    return parse_queue_file(BASE)


def with_queue(file: QueueFile, queue_id: str, **config: Any) -> QueueFile:
    """The file with one queue's config fields replaced."""
    return QueueFile(
        queues=[
            q.model_copy(update={"config": q.config.model_copy(update=config)})
            if q.id == queue_id
            else q
            for q in file.queues
        ]
    )


def without_queue(file: QueueFile, queue_id: str) -> QueueFile:
    return QueueFile(queues=[q for q in file.queues if q.id != queue_id])


def config_of(file: QueueFile, queue_id: str) -> QueueConfig:
    return next(q.config for q in file.queues if q.id == queue_id)


def spam_without_remove(file: QueueFile) -> QueueFile:
    actions = [a for a in config_of(file, "spam").actions if a.id != "remove"]
    return with_queue(file, "spam", actions=actions)


def spam_with_quarantine(file: QueueFile) -> QueueFile:
    quarantine = ActionConfig(id="quarantine", label="Quarantine", kind=ActionKind.reduce, key="3")
    return with_queue(file, "spam", actions=[*config_of(file, "spam").actions, quarantine])


# -- reading a file ---------------------------------------------------------------------------


def test_the_layout_reads_into_the_protocol_models() -> None:
    file = base()
    assert [q.id for q in file.queues] == ["spam", "misinformation", "hate", "escalations"]
    misinfo = config_of(file, "misinformation")
    assert [a.kind for a in misinfo.actions] == [
        ActionKind.keep,
        ActionKind.label_and_reduce,
        ActionKind.label,
    ]
    assert [(r.id, r.reduces) for r in misinfo.ratings] == [
        ("false", True),
        ("partly_false", True),
        ("missing_context", False),
    ]
    rule = misinfo.routing[0]
    assert [c.model for c in rule.classifier] == ["civic-claim", "health-claim"]
    assert rule.fact_check is not None and rule.fact_check.ratings == ["false", "partly_false"]
    assert misinfo.rereview is not None and misinfo.rereview.new_reports == 10
    spam = config_of(file, "spam")
    assert (spam.priority.score, spam.priority.reports, spam.priority.age) == (6.0, 0.5, 0.0)
    assert config_of(file, "escalations").lead_only


def _leaves(value: Any, loc: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _leaves(inner, (*loc, key))
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        for index, inner in enumerate(value):
            yield from _leaves(inner, (*loc, index))
    else:
        yield loc, value


def test_the_locator_puts_every_key_on_its_own_line() -> None:
    """Every key of the layout (tables, arrays of tables, inline tables, arrays spread over
    lines) is found on the line that names it."""
    text = BASE
    lines = text.splitlines()
    where = key_lines(text)
    leaves = list(_leaves(tomllib.loads(text)))
    assert len(leaves) > 60
    for loc, _value in leaves:
        assert loc in where, loc
        assert f"{loc[-1]} =" in lines[where[loc] - 1], (loc, where[loc], lines[where[loc] - 1])
    assert where[("queues", 1, "config", "routing", 0, "classifier", 1, "model")] == (
        lines.index('    { model = "health-claim", min_score = 0.9 },') + 1
    )
    assert where[("queues", 3)] == where[("queues", 3, "id")] - 1  # the [[queues]] line
    assert where[("queues", 1, "config", "rereview")] == lines.index("[queues.config.rereview]") + 1


BAD = """\
[[queues]]
id = "spam"
name = "Spam"

[queues.config]
sla_minutes = "eight hours"
author_actions = ["warn"]

[[queues.config.actions]]
id = "keep"
label = "Not spam"
kind = "keep"
key = "1"

[[queues.config.actions]]
id = "remove"
label = "Remove"
kind = "delete"
key = "2"
requires_policy = true

[[queues.config.actions]]
id = "keep"
label = "Keep again"
kind = "keep"
key = "1"

[[queues.config.actions]]
id = "suspend"
label = "Suspend author"
kind = "author"
author_action = "suspend"
strike = "maybe"

[[queues.config.actions]]
id = "up"
label = "Escalate"
kind = "escalate"

[[queues.config.routing]]
name = "claims"
classifier = [{ model = "spam-gbdt", min_score = 1.5 }]
fact_check = { ratings = ["false", "made-up"] }

[[queues]]
id = "misinformation"
name = "Misinformation"
colour = "red"

[queues.config]

[[queues.config.actions]]
id = "label"
label = "Label and reduce"
kind = "label_and_reduce"
requires_rating = true

[[queues.config.ratings]]
id = "false"
label = "False"

[[queues.config.ratings]]
id = "missing_context"
label = "Missing context"
reduces = false

[queues.config.rereview]

[[queues]]
id = "spam"
name = "Spam twice"

[queues.config]
actions = [{ id = "keep", label = "Keep", kind = "keep" }]
"""


def test_a_bad_file_names_every_problem_with_its_line() -> None:
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(BAD)
    found = {(p.line, p.where, p.code) for p in caught.value.problems}
    spam = "queues[0].config"
    assert found == {
        (6, f"{spam}.sla_minutes", "int_type"),  # a wrong type
        (18, f"{spam}.actions[1].kind", "enum"),  # an unknown action kind
        (20, f"{spam}.actions[1].requires_policy", "no_policies"),  # nothing to choose from
        (23, f"{spam}.actions[2].id", "duplicate"),  # an action id used twice
        (26, f"{spam}.actions[2].key", "duplicate"),  # a key used twice
        (32, f"{spam}.actions[3].author_action", "author_action_not_allowed"),
        (33, f"{spam}.actions[3].strike", "bool_type"),
        (38, f"{spam}.actions[4].kind", "no_escalation_queue"),  # escalate to nowhere
        (42, f"{spam}.routing[0].classifier[0].min_score", "less_than_equal"),
        (43, f"{spam}.routing[0].fact_check.ratings[1]", "unknown_rating"),  # not on a scale
        (48, "queues[1].colour", "extra_forbidden"),  # an unknown key
        (55, "queues[1].config.actions[0].kind", "no_reducing_rating"),
        (67, "queues[1].config.rereview", "rereview_never"),
        (70, "queues[2].id", "duplicate"),  # a queue id used twice
    }
    lines = caught.value.describe("queues.toml")
    assert lines[0] == (
        "queues.toml:6: queues[0].config.sla_minutes: give a whole number, not a string"
    )
    assert "queues.toml:70: queues[2].id: queue id 'spam' is used twice (first by queues[0])" in (
        lines
    )
    assert [int(line.split(":")[1]) for line in lines] == sorted(p[0] for p in found)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("x = " + "[" * 3000 + "]" * 3000 + "\n", "nested too deep"),
        ("x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n", "nested too deep"),
        ('[[queues]]\nid = ["spam"]\nname = "Spam"\n', "queues[0].id: give a string, not an array"),
        (
            '[[queues]]\nid = "spam"\nname = "Spam"\n[[queues.config.actions]]\nid = "k"\n'
            'label = "Keep"\nkind = ["keep"]\n',
            "queues[0].config.actions[0].kind: Input should be",
        ),
        (
            '[[queues]]\nid = "spam"\nname = "Spam"\n[[queues.config.policies]]\n'
            'code = ["SPAM.1"]\nlabel = "Spam"\n',
            "queues[0].config.policies[0].code: give a string, not an array",
        ),
    ],
)
def test_a_file_of_the_wrong_shape_is_refused_with_its_problems(text: str, words: str) -> None:
    """A list where a name or a code belongs, nesting deeper than the reader goes: refused
    with the problem named, as any bad file is (they were a TypeError and a RecursionError
    out of the command)."""
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(text)
    assert any(words in line for line in caught.value.describe("q.toml")), caught.value.problems


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ('[[queues]]\nid = "spam"\nname = "Spam\n', 3, "Illegal character"),
        ('[[queues]]\nid = "spam"\nname = "Spam"\nid = "again"\n', 4, "Cannot overwrite a value"),
        ("[[queues]]\n[queues.config]\n[queues.config]\n", 3, "Cannot declare"),
        ('[[queues]]\nid = "spam"\nsla_minutes = 4h\n', 3, "Expected newline"),
    ],
)
def test_a_toml_syntax_error_names_its_line(text: str, line: int, words: str) -> None:
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(text)
    [problem] = caught.value.problems
    assert (problem.line, problem.code) == (line, "syntax"), problem
    assert words in problem.message
    assert caught.value.describe("q.toml")[0].startswith(f"q.toml:{line}: TOML syntax: ")


def test_a_rating_that_reduces_needs_a_label_and_reduce_action() -> None:
    text = BASE.replace('kind = "label_and_reduce"', 'kind = "label"')
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(text)
    lines = text.splitlines()
    assert [(p.where, p.code, lines[p.line - 1]) for p in caught.value.problems] == [
        ("queues[1].config.ratings[0].reduces", "no_label_and_reduce", "reduces = true"),
        ("queues[1].config.ratings[1].reduces", "no_label_and_reduce", "reduces = true"),
    ]


def test_rules_beyond_the_models_about_escalations() -> None:
    loop = BASE.replace(
        'id = "escalations"\nname = "Escalations"\n\n[queues.config]\nlead_only = true\n',
        'id = "escalations"\nname = "Escalations"\n\n[queues.config]\n',
    ) + ('\n[[queues.config.actions]]\nid = "up"\nlabel = "Up"\nkind = "escalate"\n')
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(loop)
    assert {p.code for p in caught.value.problems} == {
        "escalation_loop",  # escalations escalating into itself
        "escalations_not_lead_only",  # reviewers would decide what they escalated
    }


REASONS = """
[[queues.config.escalation_reasons]]
id = "network"
label = "Part of a network"

[[queues.config.escalation_reasons]]
id = "other"
label = "Other"
requires_note = true
"""


def test_escalation_reasons_are_read_written_and_checked() -> None:
    spam_end = BASE.index("[[queues]]", BASE.index('id = "spam"'))
    reasoned = BASE[:spam_end] + REASONS.lstrip("\n") + "\n" + BASE[spam_end:]
    parsed = parse_queue_file(reasoned)
    spam = next(q for q in parsed.queues if q.id == "spam").config
    assert [(r.id, r.requires_note) for r in spam.reasons_for_escalation()] == [
        ("network", False),
        ("other", True),
    ]
    # a queue that lists none offers the defaults
    misinformation = next(q for q in parsed.queues if q.id == "misinformation").config
    assert misinformation.escalation_reasons == []
    assert misinformation.reasons_for_escalation()[0].id == "policy_unclear"
    # written as tables and read back the same
    dumped = dump_queue_file(parsed)
    assert "[[queues.config.escalation_reasons]]" in dumped
    assert parse_queue_file(dumped) == parsed
    # a reason id twice, and reasons on a queue that cannot escalate, are refused
    twice = BASE[:spam_end] + REASONS + REASONS.replace("Part of", "Also") + BASE[spam_end:]
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(twice)
    assert {p.code for p in caught.value.problems} >= {"duplicate"}
    unused = reasoned.replace('kind = "escalate"\nkey = "9"', 'kind = "keep"\nkey = "9"', 1)
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(unused)
    assert "escalation_reasons_unused" in {p.code for p in caught.value.problems}


APPEALS_QUEUE = """
[[queues]]
id = "appeals"
name = "Appeals"

[queues.config]
appeals = true

[[queues.config.actions]]
id = "uphold"
label = "Uphold"
kind = "uphold"
requires_note = true

[[queues.config.actions]]
id = "reverse"
label = "Reverse"
kind = "reverse"
"""


def test_an_appeals_queue_reads_and_decides_appeals_only() -> None:
    parsed = parse_queue_file(BASE + APPEALS_QUEUE)
    appeals = next(q for q in parsed.queues if q.id == "appeals")
    assert appeals.config.appeals is True
    assert [a.kind.value for a in appeals.config.actions] == ["uphold", "reverse"]

    bad = (
        BASE
        + APPEALS_QUEUE.replace("requires_note = true\n", "").replace(
            'kind = "reverse"', 'kind = "remove"'
        )
        + '\n[[queues.config.routing]]\nname = "r"\nreports = [{ min_count = 1 }]\n'
        + APPEALS_QUEUE.replace('id = "appeals"', 'id = "appeals-2"')
    ).replace('kind = "keep"', 'kind = "uphold"', 1)
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(bad)
    lines = bad.splitlines()
    found = [(p.where, p.code) for p in caught.value.problems]
    assert ("queues[0].config.actions[0].kind", "appeal_action_outside_appeals") in found
    assert {c for _, c in found} == {
        "appeal_action_outside_appeals",  # an uphold in a queue that takes no appeals
        "uphold_needs_note",  # an upheld appeal is answered with a reason
        "appeals_action_kind",  # a remove in the appeals queue
        "appeals_needs_outcomes",  # and so no reverse
        "appeals_routing",  # signals do not route posts to appeals
        "appeals_queue_twice",  # one appeals queue
    }, found
    assert all(p.line >= 1 and lines[p.line - 1] for p in caught.value.problems)


def test_export_reads_back_as_the_same_file() -> None:
    tricky = QueueDefinition(
        id="odd",
        name='Quotes " and \\ backslashes, tabs\tand ünïcödé 🚩',
        description="Two\nlines, a DEL \x7f and a # that is no comment",
        config=QueueConfig(
            actions=[ActionConfig(id="keep", label="[not a table]", kind=ActionKind.keep)],
        ),
    )
    demo = [
        QueueDefinition(id=q.id, name=q.name, description=q.description, config=q.config)
        for q in DEMO_QUEUES
    ]
    for file in (base(), QueueFile(queues=[*demo, tricky])):
        text = dump_queue_file(file, "exported\nfor a test")
        assert text.startswith("# exported\n# for a test\n")
        assert parse_queue_file(text) == file
        assert parse_queue_file(dump_queue_file(parse_queue_file(text))) == file


# -- applying ---------------------------------------------------------------------------------


@pytest.fixture
def service(database_url: str) -> Iterator[Service]:
    svc = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    svc.start()
    try:
        yield svc
    finally:
        svc.close()


def _counts(svc: Service) -> dict[str, Any]:
    """What an apply may change, to compare before and after."""
    with svc.db.read() as conn:
        return {
            "versions": conn.execute(select(func.count()).select_from(config_versions)).scalar(),
            "events": conn.execute(select(func.count()).select_from(events)).scalar(),
            "queues": sorted(tuple(r) for r in conn.execute(select(queues)).all()),
            "items": sorted(
                tuple(r)
                for r in conn.execute(
                    select(items.c.id, items.c.queue_id, items.c.state, items.c.priority)
                ).all()
            ),
        }


def fill(svc: Service, queue_id: str, count: int) -> None:
    """Synthetic pending items in a queue that exists."""
    seed_load_queue(
        svc,
        count,
        queue=SeedQueue(queue_id, queue_id, "", svc.configs()[queue_id]),
    )


def config_events(svc: Service) -> list[dict[str, Any]]:
    return [e.data for e in svc.events(None, 100, EventKind.config_applied).events]


def test_apply_makes_a_version_and_the_same_file_again_does_not(service: Service) -> None:
    first = service.apply_queue_file(base(), "admin")
    assert (first.previous_version, first.version, first.applied) == (0, 1, True)
    assert first.added == ("spam", "misinformation", "hate", "escalations")
    assert service.config_version() == 1
    assert list(service.configs()) == ["spam", "misinformation", "hate", "escalations"]
    assert service.configs() == service.configs_at(1)
    [row] = service.config_versions()
    assert (row["version"], row["applied_by"], row["sha256"]) == (1, "admin", first.sha256)
    [event] = config_events(service)
    assert event["version"] == 1 and event["sha256"] == first.sha256
    assert event["added_count"] == 4 and event["added"] == [q.id for q in base().queues]

    before = _counts(service)
    again = service.apply_queue_file(parse_queue_file(BASE), "admin")
    assert again.identical and not again.applied and again.version == 1
    assert again.describe() == ["No changes: the file is configuration version 1 as it runs."]
    # export -> apply: the running configuration written out reads back as the same file
    running = service.running_queue_file()
    assert running is not None
    exported = parse_queue_file(dump_queue_file(running, "export"))
    assert service.apply_queue_file(exported, "admin").identical
    assert _counts(service) == before


def test_a_dry_run_shows_what_would_change_and_changes_nothing(service: Service) -> None:
    service.apply_queue_file(base(), "admin")
    new = spam_with_quarantine(spam_without_remove(base()))
    new = with_queue(new, "misinformation", sla_minutes=120)
    new = without_queue(new, "hate")
    new = QueueFile(
        queues=[
            *new.queues,
            QueueDefinition(
                id="appeals",
                name="Appeals",
                config=QueueConfig(
                    actions=[ActionConfig(id="uphold", label="Uphold", kind=ActionKind.keep)]
                ),
            ),
        ]
    )
    before = _counts(service)
    plan = service.apply_queue_file(new, "admin", dry_run=True)
    assert _counts(service) == before
    assert service.config_version() == 1 and "hate" in service.configs()
    assert (plan.dry_run, plan.applied, plan.version) == (True, False, 2)
    assert (plan.added, plan.removed) == (("appeals",), ("hate",))
    changes = {c.queue_id: c for c in plan.changed}
    assert set(changes) == {"spam", "misinformation"}
    assert changes["spam"].parts == ("actions",)
    assert changes["spam"].details == ("action 'quarantine' added", "action 'remove' removed")
    assert changes["misinformation"].details == ("sla_minutes: 240 -> 120",)
    text = "\n".join(plan.describe())
    assert text.startswith("Dry run: nothing was changed.")
    assert "+ appeals: added" in text and "- hate: removed" in text

    done = service.apply_queue_file(new, "admin")
    assert (done.applied, done.version, done.added, done.removed) == (
        True,
        2,
        plan.added,
        plan.removed,
    )
    assert done.changed == plan.changed
    assert service.config_version() == 2
    assert list(service.configs()) == ["spam", "misinformation", "escalations", "appeals"]
    assert "hate" in service.configs_at(1) and "hate" not in service.configs_at(2)
    assert service.configs_at(7) == {}
    # Bringing a retired queue back names it so.
    back = service.apply_queue_file(base(), "admin")
    assert back.version == 3 and back.restored == ("hate",) and back.removed == ("appeals",)


def test_apply_is_atomic(service: Service) -> None:
    """A refusal in the middle of an apply (after the version row and the queue rows were
    written) leaves the old configuration whole, and no version or event of the new one."""
    service.apply_queue_file(base(), "admin")
    fill(service, "hate", 5)
    before = _counts(service)
    new = without_queue(spam_without_remove(base()), "hate")
    with pytest.raises(ApiError) as caught:
        service.apply_queue_file(new, "admin")
    assert (caught.value.status, caught.value.code) == (409, "queue_has_open_items")
    assert "5 pending and 0 leased" in caught.value.detail
    assert _counts(service) == before
    assert service.config_version() == 1
    assert service.configs()["spam"].action("remove") is not None
    # the dry run says the same, and a drain into a queue the file lacks is refused first
    with pytest.raises(ApiError, match=r"open items|pending"):
        service.apply_queue_file(new, "admin", dry_run=True)
    with pytest.raises(ApiError) as unknown:
        service.apply_queue_file(new, "admin", drain_to="hate")
    assert unknown.value.code == "unknown_drain_target"
    # a file the rules refuse is refused whole, before anything is written
    broken = with_queue(base(), "spam", policies=[])  # remove needs one
    with pytest.raises(QueueFileError):
        service.apply_queue_file(broken, "admin")
    assert _counts(service) == before


def test_seeding_goes_through_configuration_versions(service: Service) -> None:
    seed_load_queue(service, 3)
    assert service.config_version() == 1 and list(service.configs()) == ["load-test"]
    service.apply_queue_file(
        QueueFile(queues=[*base().queues, *(service.running_queue_file() or base()).queues]),
        "admin",
    )
    fill(service, "spam", 2)  # items into a queue that exists: no new version
    assert service.config_version() == 2
    assert list(service.configs())[-1] == "load-test"


# -- over HTTP: leases, verdicts, drains -----------------------------------------------------


@pytest.fixture
def desk(live_server: LiveServer) -> LiveServer:
    live_server.service.apply_queue_file(base(), "admin")
    for queue_id in ("spam", "hate"):
        fill(live_server.service, queue_id, 6)
    return live_server


def lease_versions(server: LiveServer, tokens: list[str]) -> dict[str, int | None]:
    with server.service.db.read() as conn:
        rows = conn.execute(
            select(leases.c.token, leases.c.config_version).where(leases.c.token.in_(tokens))
        )
        return {r.token: r.config_version for r in rows}


def test_a_decision_records_the_configuration_version_it_was_made_under(desk: LiveServer) -> None:
    alice = desk.login("alice")
    listed = {q["id"]: q for q in alice.get("/queues").json()["queues"]}
    assert {q["config_version"] for q in listed.values()} == {1}
    assert list(listed) == ["spam", "misinformation", "hate"]  # escalations: leads only
    [first] = alice.claim("spam", 1)
    assert lease_versions(desk, [first["lease_token"]]) == {first["lease_token"]: 1}
    [result] = alice.decide([verdict(first, "keep")])
    assert result["status"] == "accepted" and result["decision"]["config_version"] == 1

    desk.service.apply_queue_file(spam_with_quarantine(base()), "admin")
    assert {q["config_version"] for q in alice.get("/queues").json()["queues"]} == {2}
    [second] = alice.claim("spam", 1)
    [result] = alice.decide([verdict(second, "quarantine")])
    assert result["decision"]["config_version"] == 2
    lead = desk.login("lead", Role.lead)
    found = lead.get("/decisions", params={"queue_id": "spam"}).json()["decisions"]
    assert sorted(d["config_version"] for d in found) == [1, 2]


def test_a_verdict_valid_under_its_lease_survives_an_apply_that_removed_its_action(
    desk: LiveServer,
) -> None:
    alice = desk.login("alice")
    before = alice.claim("spam", 2)
    desk.service.apply_queue_file(spam_without_remove(base()), "admin")
    after = alice.claim("spam", 1)
    assert set(lease_versions(desk, [e["lease_token"] for e in before]).values()) == {1}
    assert lease_versions(desk, [after[0]["lease_token"]]) == {after[0]["lease_token"]: 2}

    # leased under version 1, where remove was an action: still taken, recorded as version 1
    [kept] = alice.decide([verdict(before[0], "remove", policies=["SPAM.SCAM"])])
    assert kept["status"] == "accepted", kept
    assert (kept["decision"]["action"], kept["decision"]["config_version"]) == ("remove", 1)
    # what fits the running configuration is recorded under it
    [now] = alice.decide([verdict(before[1], "keep")])
    assert now["decision"]["config_version"] == 2
    # leased under version 2: remove is no action of the queue any more
    refused = alice.post(
        "/verdicts", json={"verdicts": [verdict(after[0], "remove", policies=["SPAM.SCAM"])]}
    )
    body = expect_problem(refused, 422, "verdict_invalid")
    assert [e["code"] for e in body["errors"]] == ["unknown_action"]


def test_another_process_applying_is_seen_by_verdicts_at_once(desk: LiveServer) -> None:
    """The service's cached configuration lags another process's apply by up to its TTL: a
    verdict with the new action is still taken, by the newest version."""
    alice = desk.login("alice")
    [held] = alice.claim("spam", 1)
    assert desk.service.config_version() == 1  # cached
    other = Service(desk.settings)
    try:
        other.apply_queue_file(spam_with_quarantine(base()), "cli")
    finally:
        other.close()
    assert desk.service.config_version() == 1  # this process has not re-read it yet
    [taken] = alice.decide([verdict(held, "quarantine")])
    assert taken["status"] == "accepted", taken
    assert taken["decision"]["config_version"] == 2
    [fresh] = alice.claim("spam", 1)  # the lease names the newest version, not the cached
    assert lease_versions(desk, [fresh["lease_token"]]) == {fresh["lease_token"]: 2}


def test_an_item_leased_under_a_version_this_process_has_not_read_is_judged_by_it(
    desk: LiveServer,
) -> None:
    """Another process removed an action; this one's cache still had it: a verdict with it
    on an item leased under the new version was taken, recorded under the old version."""
    alice = desk.login("alice")
    assert desk.service.config_version() == 1
    other = Service(desk.settings)
    try:
        other.apply_queue_file(spam_without_remove(base()), "cli")
    finally:
        other.close()
    assert desk.service.config_version() == 1  # cached
    held = alice.claim("spam", 2)
    assert set(lease_versions(desk, [e["lease_token"] for e in held]).values()) == {2}
    refused = alice.post(
        "/verdicts", json={"verdicts": [verdict(held[0], "remove", policies=["SPAM.SCAM"])]}
    )
    body = expect_problem(refused, 422, "verdict_invalid")
    assert [e["code"] for e in body["errors"]] == ["unknown_action"]
    [kept] = alice.decide([verdict(held[1], "keep")])
    assert (kept["status"], kept["decision"]["config_version"]) == ("accepted", 2)


def test_removing_a_queue_with_open_items_drains_them_into_another(desk: LiveServer) -> None:
    alice = desk.login("alice")
    lead = desk.login("lead", Role.lead)
    [decided] = alice.claim("hate", 1)
    alice.decide([verdict(decided, "remove", policies=["HATE.SLUR"])])
    held = alice.claim("hate", 2)
    new = without_queue(base(), "hate")
    with pytest.raises(ApiError, match="3 pending and 2 leased"):
        desk.service.apply_queue_file(new, "admin")

    plan = desk.service.apply_queue_file(new, "admin", drain_to="spam", dry_run=True)
    assert [(d.queue_id, d.to_queue, d.pending, d.leased) for d in plan.drained] == [
        ("hate", "spam", 3, 2)
    ]
    assert any(
        "leased item(s) would be moved to spam with their leases" in line
        for line in plan.describe()
    )
    assert desk.service.config_version() == 1
    done = desk.service.apply_queue_file(new, "admin", drain_to="spam")
    assert done.drained == plan.drained and done.removed == ("hate",)

    with desk.service.db.read() as conn:
        moved = conn.execute(
            select(
                items.c.id, items.c.state, items.c.priority, items.c.payload, items.c.enqueued_at
            ).where(items.c.id.like("hate-%"), items.c.state != "decided")
        ).all()
    assert len(moved) == 5
    weights = desk.service.configs()["spam"].priority
    for row in moved:
        assert row.priority == pytest.approx(item_priority(weights, row.payload, row.enqueued_at))
    counts = {q["id"]: q["counts"] for q in lead.get("/queues").json()["queues"]}
    assert "hate" not in counts
    assert (counts["spam"]["pending"], counts["spam"]["leased"]) == (6 + 3, 2)
    history = lead.get(f"/items/{held[0]['item']['id']}/history").json()["events"]
    assert [e["data"] for e in history if e["kind"] == "moved"] == [
        {"from_queue": "hate", "state": "leased"}
    ]

    # The reviewer holding a moved item decides it as the queue was when it was leased...
    [taken] = alice.decide([verdict(held[0], "remove", policies=["HATE.SLUR"])])
    assert taken["status"] == "accepted", taken
    assert (taken["decision"]["queue_id"], taken["decision"]["config_version"]) == ("hate", 1)
    # ...and a released one is pending in the queue it moved to.
    alice.post("/leases/release", json={"tokens": [held[1]["lease_token"]]}).raise_for_status()
    claimed = {e["item"]["id"] for e in claim(alice, "spam", 20, exactly=False)}
    assert held[1]["item"]["id"] in claimed and len(claimed) == 6 + 3 + 1
    # The retired queue's history stays: its decisions, its figures by name.
    hate_decisions = lead.get("/decisions", params={"queue_id": "hate"}).json()["decisions"]
    assert len(hate_decisions) == 2
    stats = lead.get("/stats/queues", params={"queue_id": "hate"})
    assert stats.status_code == 200, stats.text
    assert "hate" not in [q["queue_id"] for q in lead.get("/stats/queues").json()["queues"]]
    expect_problem(alice.post("/queues/hate/leases", json={"count": 1}), 404, "unknown_queue")


# -- the commands -------------------------------------------------------------------------------


def queues_command(database_url: str, *args: str) -> subprocess.CompletedProcess[str]:
    command = ["server", "--database-url", database_url, "queues", *args]
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", *command],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_queues_commands(database_url: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD, encoding="utf-8")
    refused = queues_command(database_url, "apply", str(bad))
    assert refused.returncode == 2, refused
    problems = [line for line in refused.stderr.splitlines() if line.startswith(f"{bad}:")]
    assert len(problems) == 14 + 1, refused.stderr  # each problem, then the summary
    assert problems[0].startswith(f"{bad}:6: queues[0].config.sla_minutes: ")

    good = tmp_path / "queues.toml"
    good.write_text(BASE, encoding="utf-8")
    dry = queues_command(database_url, "apply", str(good), "--dry-run")
    assert dry.returncode == 0, dry.stderr
    assert dry.stdout.startswith("Dry run: nothing was changed.")
    assert "would be configuration version 1 (now 0)" in dry.stdout
    listed = queues_command(database_url, "versions", "--json")
    assert json.loads(listed.stdout) == []

    applied = queues_command(database_url, "apply", str(good), "--by", "ops")
    assert applied.returncode == 0, applied.stderr
    assert applied.stdout.startswith("Applied configuration version 1 (was 0)")
    nowhere = queues_command(database_url, "export", "-o", str(tmp_path / "no" / "q.toml"))
    assert nowhere.returncode == 2 and "Cannot write" in nowhere.stderr, nowhere
    exported = tmp_path / "export.toml"
    out = queues_command(database_url, "export", "-o", str(exported))
    assert out.returncode == 0, out.stderr
    assert parse_queue_file(exported.read_text(encoding="utf-8")) == base()
    again = queues_command(database_url, "apply", str(exported))
    assert again.stdout.startswith("No changes"), again
    [version] = json.loads(queues_command(database_url, "versions", "--json").stdout)
    assert (version["version"], version["applied_by"]) == (1, "ops")

    svc = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    try:
        fill(svc, "hate", 2)
    finally:
        svc.close()
    good.write_text(dump_queue_file(without_queue(base(), "hate")), encoding="utf-8")
    blocked = queues_command(database_url, "apply", str(good))
    assert blocked.returncode == 1 and "--drain-to" in blocked.stderr, blocked
    drained = queues_command(database_url, "apply", str(good), "--drain-to", "spam")
    assert drained.returncode == 0, drained.stderr
    assert "- hate: removed" in drained.stdout
    assert "2 pending item(s) moved to spam" in drained.stdout
    assert "nothing was moved" not in drained.stderr
    # --drain-to with nothing to drain is said, not ignored without a word
    idle = queues_command(database_url, "apply", str(good), "--drain-to", "spam")
    assert idle.returncode == 0 and "--drain-to spam: no queue" in idle.stderr, idle


def test_items_that_reach_a_retired_queue_are_drained_by_the_next_apply(service: Service) -> None:
    """Items that reach a retired queue anyway (here a seed by the old configuration;
    intake routes by the newest version) are found and drained by the next apply."""
    service.apply_queue_file(base(), "admin")
    without_hate = without_queue(base(), "hate")
    service.apply_queue_file(without_hate, "admin")
    hate = service.configs_at(1)["hate"]
    seed_load_queue(service, 2, queue=SeedQueue("hate", "Hate", "", hate))  # a late arrival
    assert service.config_version() == 2 and "hate" not in service.configs()
    changed = with_queue(without_hate, "spam", sla_minutes=60)
    with pytest.raises(ApiError, match="'hate' still has 2 pending"):
        service.apply_queue_file(changed, "admin")
    done = service.apply_queue_file(changed, "admin", drain_to="spam")
    assert (done.removed, done.strays) == ((), ("hate",))
    assert [(d.queue_id, d.pending) for d in done.drained] == [("hate", 2)]
    assert "! hate: retired before, and open items came in since" in done.describe()
    with service.db.read() as conn:
        assert (
            conn.execute(
                select(func.count()).select_from(items).where(items.c.queue_id == "hate")
            ).scalar()
            == 0
        )
