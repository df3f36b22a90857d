"""The client's shift tally (break reminders): counted with the protocol's harm rule, an
undone verdict taken back out, a reminder put off comes a rule's worth of work later, and
a break starts the count again."""

from __future__ import annotations

from reviewer_app.core.wellbeing import Due, ShiftTally
from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    BreakRule,
    HarmKind,
    PolicyConfig,
    QueueConfig,
    StatementCategory,
)
from tests.support.clock import ManualClock

CONFIG = QueueConfig(
    actions=[ActionConfig(id="keep", label="Keep", kind=ActionKind.keep, key="1")],
    policies=[
        PolicyConfig(
            code="SELF.HARM",
            label="Self-harm",
            terms_clause="CG 2",
            category=StatementCategory.self_harm,
            harm=[HarmKind.self_harm],
        )
    ],
    harm=[HarmKind.hate],  # not high-harm by default
    breaks=BreakRule(after_minutes=60, after_high_harm=2),
)


def test_high_harm_items_bring_a_reminder_and_an_undo_takes_one_back() -> None:
    clock = ManualClock(1_800_000_000.0)
    tally = ShiftTally(clock)
    tally.decided("a", CONFIG, [])
    tally.decided("b", CONFIG, ["SELF.HARM"])
    assert tally.due(CONFIG.breaks) is None  # one high-harm item of two
    tally.decided("c", CONFIG, ["SELF.HARM"])
    tally.decided("c", CONFIG, ["SELF.HARM"])  # the same verdict twice counts once
    assert tally.due(CONFIG.breaks) is Due.high_harm
    assert tally.kinds == {HarmKind.hate: 3, HarmKind.self_harm: 2}
    tally.undone("c")
    assert tally.due(CONFIG.breaks) is None
    assert tally.kinds == {HarmKind.hate: 2, HarmKind.self_harm: 1}
    assert tally.items == 2


def test_put_off_and_a_break_start_the_count_again() -> None:
    clock = ManualClock(1_800_000_000.0)
    tally = ShiftTally(clock)
    clock.advance(59 * 60)
    assert tally.due(CONFIG.breaks) is None
    clock.advance(60)
    assert tally.due(CONFIG.breaks) is Due.minutes
    tally.put_off()
    assert tally.due(CONFIG.breaks) is None
    clock.advance(60 * 60)
    assert tally.due(CONFIG.breaks) is Due.minutes
    record = tally.start_break(prompted=True)
    assert tally.due(CONFIG.breaks) is None  # never while on a break
    clock.advance(15 * 60)
    ended = tally.end_break()
    assert ended is not None and ended.id == record.id and ended.prompted
    assert ended.ended_at is not None
    assert (ended.ended_at - ended.started_at).total_seconds() == 15 * 60
    assert tally.breaks == 1 and tally.due(CONFIG.breaks) is None
    tally.decided("x", CONFIG, ["SELF.HARM"])
    tally.decided("y", CONFIG, ["SELF.HARM"])
    assert tally.due(CONFIG.breaks) is Due.high_harm
    assert tally.due(None) is None
