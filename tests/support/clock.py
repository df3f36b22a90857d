"""A clock the tests move by hand (the service takes any ``() -> float``)."""

from __future__ import annotations

import time


class ManualClock:
    def __init__(self, start: float | None = None) -> None:
        self.now = time.time() if start is None else start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
