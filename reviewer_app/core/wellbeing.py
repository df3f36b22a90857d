"""The reviewer's own shift, counted on this computer for break reminders.

The service keeps the record of exposure (derived from decisions, ``GET /stats/exposure``);
this tally counts the same way (``protocol.harm_of``) so the review window can remind the
reviewer at once, with no network, when the queue's ``BreakRule`` says a break is due.

It follows the shift the service documents: a run of the reviewer's activity (decisions,
breaks) with no gap of ``SHIFT_GAP_SECONDS`` or more. A gap that long starts a new shift
(the counts and the break clock from zero), whether the app stayed open or not. Minutes of
work are the time between the decisions since the shift began or the last break, and
since the latest one, leaving out every gap of ``IDLE_SECONDS`` or more: an app left open
with nothing decided is not work, before the first decision or after the last. The window
keeps the tally in the local store (``snapshot``, given back as ``saved``), so a restart
of the app goes on with the shift. Qt-free.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from uuid import UUID, uuid4

from pydantic import BaseModel, ValidationError

from reviewer_app.protocol import (
    SHIFT_GAP_SECONDS,
    BreakRecord,
    BreakRule,
    HarmKind,
    QueueConfig,
    harm_of,
)
from reviewer_app.protocol import is_high_harm as _is_high_harm

from .settings import UNDO_WINDOW

log = logging.getLogger("wellbeing")

#: verdicts decided this recently are kept in a snapshot by key (one can still be undone
#: after a restart): the longest undo window, and a minute to spare
_UNDOABLE_SECONDS = (UNDO_WINDOW.maximum or 0.0) + 60.0

#: a gap this long or longer between decisions (or since the last one) is not work: the
#: reviewer was away from the desk, break key or not (the minutes a break rule counts)
IDLE_SECONDS = 15 * 60.0


class Due(StrEnum):
    """Why a break is due."""

    minutes = "minutes"
    high_harm = "high_harm"


@dataclass(frozen=True)
class _Counted:
    kinds: frozenset[HarmKind]
    high: bool
    at: float


class _Saved(BaseModel):
    """A tally as the store keeps it (``ShiftTally.snapshot``)."""

    started_at: float | None
    last_at: float | None
    items: int
    kinds: dict[HarmKind, int]
    high_since_break: int
    since_break_at: float | None
    later_high: int
    later_at: float | None
    breaks: int
    #: when the break the reviewer was on began (the app closed or crashed on it)
    on_break_since: float | None
    #: the verdicts that may still be undone: key, kinds, high harm, when
    recent: list[tuple[str, list[HarmKind], bool, float]]
    #: seconds worked since the break up to the last decision, that decision's time, and
    #: the seconds worked when a reminder was put off (None: kept by an earlier release)
    worked: float | None = None
    work_at: float | None = None
    later_worked: float | None = None


class ShiftTally:
    """Items decided this shift by kind of harm, and since the last break (or the last
    reminder put off): what a break rule is checked against. An undone verdict is taken
    back out. ``saved``: a ``snapshot`` kept before (a restart): the shift goes on when
    its last activity is less than ``SHIFT_GAP_SECONDS`` ago. ``changed``: called after
    every change worth keeping (a verdict counted or undone, a reminder put off, a break);
    it handles its own failures (the window logs them and keeps the tally at the next change)."""

    def __init__(
        self,
        clock: Callable[[], float] = time.time,
        *,
        saved: str | None = None,
        changed: Callable[[], None] | None = None,
    ) -> None:
        self.clock = clock
        self.changed = changed
        self.on_break: BreakRecord | None = None
        self._new_shift()
        if saved is not None:
            self._restore(saved)

    def _new_shift(self) -> None:
        #: the shift's first and latest activity (a decision, a break's start or end)
        self.started_at: float | None = None
        self.last_at: float | None = None
        self.kinds: Counter[HarmKind] = Counter()
        self.items = 0
        self._counted: dict[str, _Counted] = {}
        #: since the last break: high-harm items, and when work began (the first decision)
        self.high_since_break = 0
        self.since_break_at: float | None = None
        #: seconds worked since the break up to the latest decision (``_work_at``)
        self._worked = 0.0
        self._work_at: float | None = None
        # a reminder put off: the next one comes a rule's worth of work later
        self._later_high = 0
        self._later_at: float | None = None
        self._later_worked = 0.0
        self.breaks = 0

    def _roll(self, now: float) -> None:
        """A new shift when the last activity is a shift's gap ago (not while on a break:
        its end says)."""
        if (
            self.on_break is None
            and self.last_at is not None
            and now - self.last_at >= SHIFT_GAP_SECONDS
        ):
            self._new_shift()

    def _active(self, now: float) -> None:
        self.last_at = now
        if self.started_at is None:
            self.started_at = now

    def _kept(self) -> None:
        if self.changed is not None:  # it keeps the tally, or says why it could not
            self.changed()

    def decided(
        self,
        key: str,
        config: QueueConfig,
        policies: Iterable[str],
        origin: QueueConfig | None = None,
    ) -> None:
        """A verdict in a queue of ``config``; ``origin``: the config of the queue its item
        came from, when the queue counts that harm too (``protocol.counts_origin_harm``)."""
        now = self.clock()
        self._roll(now)
        if key in self._counted:
            return
        cited = list(policies)
        kinds = harm_of(config, cited) | (harm_of(origin, cited) if origin else frozenset())
        counted = _Counted(kinds, _is_high_harm(config, kinds), now)
        self._counted[key] = counted
        self.items += 1
        self.kinds.update(kinds)
        self.high_since_break += counted.high
        self._active(now)
        if self.since_break_at is None:  # the first decision of the shift, or after a break
            self.since_break_at = now
        self._worked = self._worked_until(now)
        self._work_at = now
        self._kept()

    def _worked_until(self, now: float) -> float:
        """Seconds of work since the break: up to the latest decision, and the time since
        it unless that is ``IDLE_SECONDS`` or more (away from the desk)."""
        if self._work_at is None:
            return 0.0
        since = now - self._work_at
        return self._worked + (since if 0 <= since < IDLE_SECONDS else 0.0)

    def undone(self, key: str) -> None:
        counted = self._counted.pop(key, None)
        if counted is None:
            return
        self.items -= 1
        self.kinds.subtract(counted.kinds)
        self.kinds += Counter()  # drop the kinds back at zero
        if self.since_break_at is not None and counted.at >= self.since_break_at:
            # decided since the break: a verdict from before it was never in this count
            self.high_since_break = max(0, self.high_since_break - counted.high)
        self._later_high = min(self._later_high, self.high_since_break)
        self._kept()

    def due(self, rule: BreakRule | None) -> Due | None:
        """Whether ``rule`` calls for a break now (None without a rule, or on a break)."""
        if rule is None or self.on_break is not None:
            return None
        now = self.clock()
        self._roll(now)
        high = self.high_since_break - self._later_high
        if rule.after_high_harm is not None and high >= rule.after_high_harm:
            return Due.high_harm
        if rule.after_minutes is None or self.since_break_at is None:
            return None  # no work yet this shift, or since the break
        worked = self._worked_until(now) - self._later_worked
        return Due.minutes if worked >= rule.after_minutes * 60 else None

    def minutes_worked(self) -> int:
        """Whole minutes of work this shift or since the last break (0: none), gaps of
        ``IDLE_SECONDS`` or more left out."""
        now = self.clock()
        self._roll(now)
        return max(0, int(self._worked_until(now) // 60))

    def put_off(self) -> None:
        """The reviewer dismissed a reminder: the next comes after as much work again."""
        now = self.clock()
        self._roll(now)
        self._later_high = self.high_since_break
        self._later_at = now
        self._later_worked = self._worked_until(now)
        self._kept()

    def start_break(self, *, prompted: bool, key: UUID | None = None) -> BreakRecord:
        now = self.clock()
        self._roll(now)
        record = BreakRecord(
            id=key or uuid4(),
            started_at=datetime.fromtimestamp(now, UTC),
            prompted=prompted,
        )
        self.on_break = record
        self._active(now)
        self._kept()
        return record

    def end_break(self) -> BreakRecord | None:
        record = self.on_break
        if record is None:
            return None
        now = self.clock()
        ended = record.model_copy(update={"ended_at": datetime.fromtimestamp(now, UTC)})
        self.on_break = None
        self._break_over(now)
        self._active(now)
        self._kept()
        return ended

    def _break_over(self, now: float) -> None:
        """A break ended (at ``now``): a shift's gap long, it ended the shift; the counts
        since the break and the work clock start again (work: at the next decision)."""
        if self.last_at is not None and now - self.last_at >= SHIFT_GAP_SECONDS:
            self._new_shift()
        else:
            self.breaks += 1
        self.high_since_break = self._later_high = 0
        self.since_break_at = self._later_at = self._work_at = None
        self._worked = self._later_worked = 0.0

    # --- kept in the store ------------------------------------------------------------

    def snapshot(self) -> str:
        """The tally as text for the store (``saved`` gives it back); only the verdicts
        that may still be undone are kept by key."""
        now = self.clock()
        return _Saved(
            started_at=self.started_at,
            last_at=self.last_at,
            items=self.items,
            kinds=dict(self.kinds),
            high_since_break=self.high_since_break,
            since_break_at=self.since_break_at,
            later_high=self._later_high,
            later_at=self._later_at,
            breaks=self.breaks,
            on_break_since=self.on_break.started_at.timestamp() if self.on_break else None,
            recent=[
                (key, sorted(c.kinds), c.high, c.at)
                for key, c in self._counted.items()
                if c.at >= now - _UNDOABLE_SECONDS
            ],
            worked=self._worked,
            work_at=self._work_at,
            later_worked=self._later_worked,
        ).model_dump_json()

    def _restore(self, text: str) -> None:
        """Go on with a kept tally when its shift is still going (its last activity less
        than a shift's gap ago); a break it was on is over (the app was closed or crashed
        on it: the window shows no break now)."""
        try:
            saved = _Saved.model_validate_json(text)
        except ValidationError as err:
            log.warning("the shift tally kept here cannot be read: a new shift (%s)", err)
            return
        now = self.clock()
        if saved.last_at is None or abs(now - saved.last_at) >= SHIFT_GAP_SECONDS:
            return
        self.started_at, self.last_at = saved.started_at, saved.last_at
        self.items = saved.items
        self.kinds = Counter(saved.kinds) + Counter()
        self.high_since_break = saved.high_since_break
        self.since_break_at = saved.since_break_at
        self._later_high, self._later_at = saved.later_high, saved.later_at
        self._restore_work(saved)
        self.breaks = saved.breaks
        self._counted = {
            key: _Counted(frozenset(kinds), high, at) for key, kinds, high, at in saved.recent
        }
        if saved.on_break_since is not None:
            self._break_over(now)

    def _restore_work(self, saved: _Saved) -> None:
        """The work clock kept; one an earlier release kept (no ``worked``) counted from
        the first decision since the break, to its last activity."""
        if saved.worked is not None:
            self._worked, self._work_at = saved.worked, saved.work_at
            self._later_worked = saved.later_worked or 0.0
        elif saved.since_break_at is not None and saved.last_at is not None:
            self._work_at = saved.last_at
            self._worked = max(0.0, saved.last_at - saved.since_break_at)
            if saved.later_at is not None:
                self._later_worked = max(0.0, saved.later_at - saved.since_break_at)
