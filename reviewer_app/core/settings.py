"""Every setting of the core, declared once: name, type, default, limits, description.

Values are stored per user in the local store (``Store.settings``); code reads typed values
through ``Settings``, which refuses unknown names and values of the wrong type or range.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

T = TypeVar("T", int, float, bool, str)


@dataclass(frozen=True)
class Setting(Generic[T]):
    name: str
    type: type[T]
    default: T
    description: str
    minimum: T | None = None
    maximum: T | None = None

    def check(self, value: object) -> T:
        if self.type is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(value) is not self.type:
            raise ValueError(
                f"setting {self.name} takes a {self.type.__name__}, not {type(value).__name__}"
            )
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"setting {self.name} is at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"setting {self.name} is at most {self.maximum}")
        return value


UNDO_WINDOW = Setting(
    "undo_window_seconds",
    float,
    5.0,
    "Seconds a verdict stays on this computer, where it can be undone, before it is sent.",
    0.0,
    120.0,
)
PREFETCH = Setting(
    "prefetch_target",
    int,
    20,
    "Items kept leased ahead in the queue being reviewed, so the next post is always local.",
    1,
    200,
)
OFFLINE_BATCH = Setting(
    "offline_batch_size",
    int,
    200,
    "Items leased by 'Work offline' (the server may cap it).",
    1,
    1_000,
)
LEASE_SECONDS = Setting(
    "lease_seconds",
    int,
    600,
    "Lease length asked for items leased ahead (the server may cap it).",
    30,
    3_600,
)
OFFLINE_LEASE_SECONDS = Setting(
    "offline_lease_seconds",
    int,
    3_600,
    "Lease length asked for 'Work offline' batches (the server may cap it).",
    30,
    86_400,
)
BATCH_SIZE = Setting(
    "verdict_batch_size",
    int,
    100,
    "Most verdicts sent in one request (the server may cap it).",
    1,
    1_000,
)
BACKOFF_CAP = Setting(
    "backoff_cap_seconds",
    float,
    60.0,
    "Longest wait between retries while the server cannot be reached.",
    1.0,
    3_600.0,
)
QUEUE_REFRESH = Setting(
    "queue_refresh_seconds",
    float,
    15.0,
    "How often queue counts are refreshed while online.",
    2.0,
    600.0,
)
CACHE_RETENTION = Setting(
    "cache_retention_hours",
    int,
    72,
    "Hours cached posts, media and conflicts are kept on this computer at most (verdicts not "
    "yet sent are kept until they are).",
    1,
    720,
)
BREAK_REMINDERS = Setting(
    "break_reminders",
    bool,
    True,
    "Remind me to take a break when my queue's break rule says so (after so many minutes or "
    "so many high-harm posts).",
)
# A lead's quality flags (Lead workspace, Reviewers): the lead's own lens, sent with each
# request (GET /stats/quality); kept per user, so each lead chooses their own.
QUALITY_MIN_MEDIAN_MS = Setting(
    "quality_min_median_ms",
    int,
    2_000,
    "Flag a reviewer whose median handle time is under this many milliseconds.",
    0,
    3_600_000,
)
QUALITY_MAX_MIX_DISTANCE = Setting(
    "quality_max_mix_distance",
    float,
    0.3,
    "Flag a reviewer whose action mix in a queue is farther than this from the other "
    "reviewers' there (total variation distance, 0 to 1).",
    0.0,
    1.0,
)
QUALITY_OVERTURN_JUMP = Setting(
    "quality_overturn_jump",
    float,
    0.1,
    "Flag a reviewer whose overturn rate rose by this much against the window before "
    "(0.1: ten percentage points).",
    0.0,
    1.0,
)
QUALITY_MIN_DECISIONS = Setting(
    "quality_min_decisions",
    int,
    20,
    "Judge a reviewer on a quality signal only with at least this many decisions.",
    1,
    1_000_000,
)

SETTINGS: tuple[Setting[Any], ...] = (
    UNDO_WINDOW,
    PREFETCH,
    OFFLINE_BATCH,
    LEASE_SECONDS,
    OFFLINE_LEASE_SECONDS,
    BATCH_SIZE,
    BACKOFF_CAP,
    QUEUE_REFRESH,
    CACHE_RETENTION,
    BREAK_REMINDERS,
    QUALITY_MIN_MEDIAN_MS,
    QUALITY_MAX_MIX_DISTANCE,
    QUALITY_OVERTURN_JUMP,
    QUALITY_MIN_DECISIONS,
)
BY_NAME: Mapping[str, Setting[Any]] = {s.name: s for s in SETTINGS}


class Settings:
    """Typed settings over a key/value backing (the store's ``settings`` table)."""

    def __init__(
        self,
        load: Callable[[], Mapping[str, str]],
        save: Callable[[str, str | None], None],
    ) -> None:
        self._load = load
        self._save = save

    def get(self, setting: Setting[T]) -> T:
        raw = self._load().get(setting.name)
        if raw is None:
            return setting.default
        try:
            return setting.check(json.loads(raw))
        except (ValueError, TypeError):
            return setting.default  # a value from an older release that no longer fits

    def get_named(self, name: str) -> Any:
        """The value of the setting called ``name`` (KeyError for an unknown name)."""
        return self.get(BY_NAME[name])

    def set(self, setting: Setting[T] | str, value: object) -> None:
        decl = BY_NAME[setting] if isinstance(setting, str) else setting
        if decl.name not in BY_NAME:
            raise KeyError(decl.name)
        self._save(decl.name, json.dumps(decl.check(value)))

    def reset(self, setting: Setting[Any]) -> None:
        self._save(setting.name, None)

    def __iter__(self) -> Iterator[tuple[Setting[Any], Any]]:
        for decl in SETTINGS:
            yield decl, self.get(decl)
