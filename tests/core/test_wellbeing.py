"""The client's shift tally (break reminders): counted with the protocol's harm rule, an
undone verdict taken back out, a reminder put off comes a rule's worth of work later, and
a break starts the count again. It follows the service's shift: a gap of 4 h or more
starts a new one, minutes of work count from the first decision (not from the app's
start) and leave out time away from the desk (gaps of 15 minutes or more), and the tally
kept in the store goes on after a restart within the shift."""

from __future__ import annotations

import os
from pathlib import Path

from reviewer_app.core.store import Store
from reviewer_app.core.wellbeing import IDLE_SECONDS, SHIFT_GAP_SECONDS, Due, ShiftTally
from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    BreakRule,
    HarmKind,
    PolicyConfig,
    QueueConfig,
    StatementCategory,
    counts_origin_harm,
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


def _work(tally: ShiftTally, clock: ManualClock, seconds: float, step: float = 300.0) -> None:
    """``seconds`` of work: a decision (not high-harm) every ``step`` seconds."""
    done = 0.0
    while done < seconds:
        clock.advance(min(step, seconds - done))
        done += min(step, seconds - done)
        tally.decided(f"work-{clock()}", CONFIG, [])


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
    tally.decided("first", CONFIG, [])  # work counts from the first decision
    _work(tally, clock, 59 * 60)
    assert tally.due(CONFIG.breaks) is None
    clock.advance(60)
    assert tally.due(CONFIG.breaks) is Due.minutes
    tally.put_off()
    assert tally.due(CONFIG.breaks) is None
    _work(tally, clock, 60 * 60)
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


GORE = QueueConfig(
    actions=[ActionConfig(id="keep", label="Keep", kind=ActionKind.keep, key="1")],
    harm=[HarmKind.graphic_violence],  # high-harm by default: every post counts
    breaks=BreakRule(after_minutes=90, after_high_harm=15),
)


def test_a_gap_of_four_hours_starts_a_new_shift() -> None:
    """14 posts in the evening, the app left open overnight: the next morning nothing is
    due before any work, and one post is one of this shift, not the 15th."""
    clock = ManualClock(1_800_000_000.0)
    tally = ShiftTally(clock)
    for i in range(14):
        tally.decided(f"evening-{i}", GORE, [])
        clock.advance(60)
    assert tally.due(GORE.breaks) is None and tally.items == 14
    clock.advance(12 * 3600)
    assert tally.due(GORE.breaks) is None  # not "due: minutes" before any work
    tally.decided("morning", GORE, [])
    assert tally.due(GORE.breaks) is None  # not "due: high_harm" after one post
    assert (tally.items, tally.high_since_break) == (1, 1)
    assert tally.kinds == {HarmKind.graphic_violence: 1}
    assert tally.minutes_worked() == 0


def test_a_gap_just_under_four_hours_is_the_same_shift() -> None:
    clock = ManualClock(1_800_000_000.0)
    tally = ShiftTally(clock)
    for i in range(14):
        tally.decided(f"k{i}", GORE, [])
    clock.advance(SHIFT_GAP_SECONDS - 1)
    tally.decided("k14", GORE, [])
    assert tally.due(GORE.breaks) is Due.high_harm
    assert tally.items == 15


def test_minutes_of_work_count_from_the_first_decision_not_the_start() -> None:
    """A 1-minute rule: the app open with nothing decided is not work."""
    rule = BreakRule(after_minutes=1)
    clock = ManualClock(1_800_000_000.0)
    tally = ShiftTally(clock)
    clock.advance(30 * 60)
    assert tally.due(rule) is None and tally.minutes_worked() == 0
    tally.decided("a", CONFIG, [])
    clock.advance(59)
    assert tally.due(rule) is None
    clock.advance(1)
    assert tally.due(rule) is Due.minutes and tally.minutes_worked() == 1
    tally.start_break(prompted=True)
    clock.advance(10 * 60)
    tally.end_break()
    clock.advance(30 * 60)  # back from the break, nothing decided yet
    assert tally.due(rule) is None and tally.minutes_worked() == 0
    tally.decided("b", CONFIG, [])
    clock.advance(60)
    assert tally.due(rule) is Due.minutes


def test_a_break_of_four_hours_ends_the_shift() -> None:
    clock = ManualClock(1_800_000_000.0)
    tally = ShiftTally(clock)
    tally.decided("a", GORE, [])
    tally.start_break(prompted=False)
    clock.advance(SHIFT_GAP_SECONDS)
    assert tally.end_break() is not None
    assert (tally.items, tally.breaks, tally.kinds) == (0, 0, {})


def test_the_tally_kept_goes_on_after_a_restart_within_the_shift() -> None:
    """Two of three high-harm posts, a restart, one more: the reminder is due."""
    rule = BreakRule(after_high_harm=3)
    clock = ManualClock(1_800_000_000.0)
    kept: list[str] = []
    first = ShiftTally(clock, changed=lambda: kept.append(first.snapshot()))
    first.decided("a", GORE, [])
    first.decided("b", GORE, [])
    assert len(kept) == 2
    clock.advance(SHIFT_GAP_SECONDS - 60)
    again = ShiftTally(clock, saved=kept[-1])
    assert (again.items, again.high_since_break) == (2, 2)
    again.decided("c", GORE, [])
    assert again.due(rule) is Due.high_harm
    # kept longer than a shift's gap ago: a new shift
    clock.advance(SHIFT_GAP_SECONDS)
    fresh = ShiftTally(clock, saved=again.snapshot())
    assert (fresh.items, fresh.high_since_break, fresh.kinds) == (0, 0, {})
    assert fresh.due(BreakRule(after_minutes=1)) is None


def test_a_restart_keeps_what_can_be_undone_put_off_and_a_break() -> None:
    clock = ManualClock(1_800_000_000.0)
    tally = ShiftTally(clock)
    tally.decided("old", GORE, [])
    clock.advance(3600)
    tally.decided("x", GORE, [])
    tally.decided("y", GORE, [])
    tally.put_off()
    again = ShiftTally(clock, saved=tally.snapshot())
    assert again.due(BreakRule(after_high_harm=1)) is None  # still put off
    again.undone("y")  # in its undo window when the app restarted
    assert (again.items, again.high_since_break) == (2, 2)
    again.undone("old")  # long past its undo window: not kept by key, nothing changes
    assert again.items == 2
    assert again.due(GORE.breaks) is None
    _work(again, clock, 89 * 60)
    assert again.due(GORE.breaks) is None
    clock.advance(60)
    assert again.due(GORE.breaks) is Due.minutes  # 90 minutes of work since put off

    # the app closed (or crashed) on a break: at the restart the break is over
    again.start_break(prompted=False)
    clock.advance(600)
    back = ShiftTally(clock, saved=again.snapshot())
    assert back.on_break is None and back.breaks == 1
    assert (back.high_since_break, back.minutes_worked(), back.items) == (0, 0, 2 + 18)


def test_time_away_from_the_desk_is_not_work() -> None:
    """10 minutes of work, then 3 h 50 with nothing decided (no break key): one more post
    is not "4 hours of work"; the minutes go on only while the reviewer decides."""
    rule = BreakRule(after_minutes=60)
    clock = ManualClock(1_800_000_000.0)
    tally = ShiftTally(clock)
    tally.decided("a", CONFIG, [])
    _work(tally, clock, 10 * 60)
    clock.advance(3 * 3600 + 50 * 60)
    assert tally.due(rule) is None and tally.minutes_worked() == 10
    tally.decided("b", CONFIG, [])
    assert tally.due(rule) is None and tally.minutes_worked() == 10
    clock.advance(IDLE_SECONDS - 1)  # a long look at one post is still work
    assert tally.minutes_worked() == 10 + int((IDLE_SECONDS - 1) // 60)
    clock.advance(1)  # away: the open gap counts no more
    assert tally.minutes_worked() == 10
    tally.decided("c", CONFIG, [])  # back at the desk
    _work(tally, clock, 50 * 60)
    assert tally.due(rule) is Due.minutes and tally.minutes_worked() == 60
    # kept and restarted: the same clock
    again = ShiftTally(clock, saved=tally.snapshot())
    assert again.minutes_worked() == 60 and again.due(rule) is Due.minutes


def test_undoing_a_verdict_from_before_the_break_leaves_the_count_since_it() -> None:
    """Two high-harm posts, a break, one more, then the undo of one from before the
    break (still in its undo window): the count since the break stays at one."""
    rule = BreakRule(after_high_harm=3)
    clock = ManualClock(1_800_000_000.0)
    tally = ShiftTally(clock)
    tally.decided("x1", GORE, [])
    tally.decided("x2", GORE, [])
    tally.start_break(prompted=False)
    clock.advance(60)
    tally.end_break()
    tally.decided("y1", GORE, [])
    tally.undone("x2")
    assert (tally.high_since_break, tally.items) == (1, 2)
    tally.decided("y2", GORE, [])
    tally.decided("y3", GORE, [])
    assert tally.due(rule) is Due.high_harm
    tally.undone("y3")  # one from since the break still comes off
    assert tally.high_since_break == 2 and tally.due(rule) is None


def test_a_tally_that_cannot_be_read_starts_a_new_shift() -> None:
    clock = ManualClock(1_800_000_000.0)
    for text in ("", "{}", "not json", '{"items": "many"}'):
        tally = ShiftTally(clock, saved=text)
        assert tally.items == 0 and tally.last_at is None


def test_the_store_keeps_the_tally_sealed(tmp_path: Path) -> None:
    clock = ManualClock(1_800_000_000.0)
    key = os.urandom(32)
    path = tmp_path / "alice.sqlite3"
    with Store(path, key=key) as store:
        assert store.shift_tally() is None
        tally = ShiftTally(clock, changed=lambda: store.save_shift_tally(tally.snapshot()))
        tally.decided("a", GORE, ["VIOLENCE.GORE"])
    assert b"graphic_violence" not in path.read_bytes()
    with Store(path, key=key) as store:
        again = ShiftTally(clock, saved=store.shift_tally())
    assert again.kinds == {HarmKind.graphic_violence: 1}


def test_an_escalated_post_counts_the_harm_of_the_queue_it_came_from() -> None:
    """A lead deciding escalated posts saw the hate and self-harm of their queues; the
    escalation queue names no harm, so nothing was counted and no reminder came."""
    escalations = CONFIG.model_copy(update={"harm": [], "policies": []})
    assert counts_origin_harm("escalations", escalations)
    assert not counts_origin_harm("escalations", CONFIG), "a queue naming its own harm"
    assert not counts_origin_harm("other", escalations)
    tally = ShiftTally(ManualClock(1_800_000_000.0))
    tally.decided("a", escalations, ["SELF.HARM"], origin=CONFIG)
    tally.decided("b", escalations, ["SELF.HARM"], origin=CONFIG)
    assert tally.kinds == {HarmKind.hate: 2, HarmKind.self_harm: 2}
    assert tally.due(escalations.breaks) is Due.high_harm
