"""The reviewer's own shift, counted on this computer for break reminders.

The service keeps the record of exposure (derived from decisions, ``GET /stats/exposure``);
this tally counts the same way (``protocol.harm_of``) so the review window can remind the
reviewer at once, with no network, when the queue's ``BreakRule`` says a break is due.
Qt-free.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from uuid import UUID, uuid4

from reviewer_app.protocol import BreakRecord, BreakRule, HarmKind, QueueConfig, harm_of
from reviewer_app.protocol import is_high_harm as _is_high_harm


class Due(StrEnum):
    """Why a break is due."""

    minutes = "minutes"
    high_harm = "high_harm"


@dataclass(frozen=True)
class _Counted:
    kinds: frozenset[HarmKind]
    high: bool


class ShiftTally:
    """Items decided this shift by kind of harm, and since the last break (or the last
    reminder put off): what a break rule is checked against. An undone verdict is taken
    back out."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.started_at = clock()
        self.kinds: Counter[HarmKind] = Counter()
        self.items = 0
        self._counted: dict[str, _Counted] = {}
        #: since the last break: high-harm items, and when it ended (or the shift began)
        self.high_since_break = 0
        self.since_break_at = self.started_at
        # a reminder put off: the next one comes a rule's worth of work later
        self._later_high = 0
        self._later_at = self.started_at
        self.breaks = 0
        self.on_break: BreakRecord | None = None

    def decided(self, key: str, config: QueueConfig, policies: Iterable[str]) -> None:
        kinds = harm_of(config, policies)
        counted = _Counted(kinds, _is_high_harm(config, kinds))
        if key in self._counted:
            return
        self._counted[key] = counted
        self.items += 1
        self.kinds.update(kinds)
        self.high_since_break += counted.high

    def undone(self, key: str) -> None:
        counted = self._counted.pop(key, None)
        if counted is None:
            return
        self.items -= 1
        self.kinds.subtract(counted.kinds)
        self.kinds += Counter()  # drop the kinds back at zero
        self.high_since_break = max(0, self.high_since_break - counted.high)
        self._later_high = min(self._later_high, self.high_since_break)

    def due(self, rule: BreakRule | None) -> Due | None:
        """Whether ``rule`` calls for a break now (None without a rule, or on a break)."""
        if rule is None or self.on_break is not None:
            return None
        high = self.high_since_break - self._later_high
        if rule.after_high_harm is not None and high >= rule.after_high_harm:
            return Due.high_harm
        worked = self.clock() - max(self.since_break_at, self._later_at)
        if rule.after_minutes is not None and worked >= rule.after_minutes * 60:
            return Due.minutes
        return None

    def put_off(self) -> None:
        """The reviewer dismissed a reminder: the next comes after as much work again."""
        self._later_high = self.high_since_break
        self._later_at = self.clock()

    def start_break(self, *, prompted: bool, key: UUID | None = None) -> BreakRecord:
        record = BreakRecord(
            id=key or uuid4(),
            started_at=datetime.fromtimestamp(self.clock(), UTC),
            prompted=prompted,
        )
        self.on_break = record
        return record

    def end_break(self) -> BreakRecord | None:
        record = self.on_break
        if record is None:
            return None
        ended = record.model_copy(update={"ended_at": datetime.fromtimestamp(self.clock(), UTC)})
        self.on_break = None
        self.breaks += 1
        self.high_since_break = self._later_high = 0
        self.since_break_at = self._later_at = self.clock()
        return ended
