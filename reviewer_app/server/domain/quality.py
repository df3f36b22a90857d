"""Quality signals for leads: reviewers whose median handle time is under the lead's
threshold, whose action mix is far from the rest of a queue's, or whose overturn rate
jumped against the window before; and one reviewer's trend, day by day (the lead's days:
``local_days``).

Definitions (the tests work them out by hand):

- **fast**: at least ``min_decisions`` decisions in the window and a median handle time
  (the figure the Reviewers table shows: ``stats.reviewer_stats``) under ``min_median_ms``.
- **mix**: for each queue where the reviewer made at least ``min_decisions`` decisions and
  other reviewers decided too, the total variation distance between the reviewer's action
  shares there and the other reviewers' shares there, ``0.5 * sum(|p(a) - q(a)|)`` (0: the
  same mix, 1: no action in common). The largest one is reported; it flags above
  ``max_mix_distance``. The others, not the whole queue: a reviewer who made most of a
  queue's decisions would otherwise be compared with themself.
- **overturns**: at least ``min_decisions`` decisions in the window and in the window
  before (as long, ending where it starts), and an overturn rate (audit overturns and
  reversed appeals over decisions, as ``ReviewerStats.overturn_rate``) at least
  ``overturn_jump`` higher than before.
"""

from __future__ import annotations

import statistics
from collections import Counter, defaultdict
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from sqlalchemy import Connection, select

from reviewer_app.protocol import (
    MAX_TREND_DAYS,
    QualityFlag,
    QualityThresholds,
    ReviewerQuality,
    ReviewerStats,
    TrendDay,
)
from reviewer_app.protocol.common import MIN_YEAR
from reviewer_app.server.domain import local_days
from reviewer_app.server.domain.mix_rollups import mix_counts
from reviewer_app.server.domain.records import to_dt
from reviewer_app.server.domain.rollups import COUNTED_KINDS, DAY
from reviewer_app.server.domain.stats import reviewer_stats
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import appeals, audit_items, decisions, users


def total_variation(first: Counter[str], second: Counter[str]) -> float:
    """Total variation distance between two count vectors' shares (both non-empty)."""
    n1, n2 = sum(first.values()), sum(second.values())
    keys = set(first) | set(second)
    return 0.5 * sum(abs(first[k] / n1 - second[k] / n2) for k in keys)


def _queue_mixes(
    conn: Connection, since: float, until: float
) -> dict[str, dict[int, Counter[str]]]:
    """Per queue, per reviewer, their action counts in the window (from the rollups)."""
    found: dict[str, dict[int, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    counted = mix_counts(conn, since, until, ("queue_id", "user_id", "action"), kinds=COUNTED_KINDS)
    for (queue_id, user_id, action), n in counted.items():
        found[queue_id][user_id][action] += n
    return found


def _mix_distances(
    mixes: dict[str, dict[int, Counter[str]]], min_decisions: int
) -> dict[int, tuple[float, str]]:
    """Per reviewer, the largest distance from the others' mix and its queue."""
    best: dict[int, tuple[float, str]] = {}
    for queue_id in sorted(mixes):
        by_user = mixes[queue_id]
        whole: Counter[str] = Counter()
        for counts in by_user.values():
            whole.update(counts)
        for uid, own in by_user.items():
            if sum(own.values()) < min_decisions:
                continue
            others = whole - own
            if not others:
                continue
            distance = round(total_variation(own, others), 6)
            if uid not in best or distance > best[uid][0]:
                best[uid] = (distance, queue_id)
    return best


# The earliest time the wire carries (``protocol.common.MIN_YEAR``): nothing is stored before it.
EARLIEST = datetime(MIN_YEAR, 1, 1, tzinfo=UTC).timestamp()


def previous_since(since: float, until: float) -> float:
    """The start of the window before ``since``..``until``: as long, ending where it starts,
    and cut at the wire's earliest time (a window from 1971 has a shorter one before it,
    and one that starts before 1971 an empty one)."""
    return min(max(since - (until - since), EARLIEST), since)


def quality(
    conn: Connection, since: float, until: float, thresholds: QualityThresholds
) -> list[ReviewerQuality]:
    now_stats = {s.reviewer: s for s in reviewer_stats(conn, since, until)}
    before = {s.reviewer: s for s in reviewer_stats(conn, previous_since(since, until), since)}
    user_ids = {
        r.username: r.id
        for r in conn.execute(
            select(users.c.id, users.c.username).where(users.c.username.in_(list(now_stats)))
        )
    }
    distances = _mix_distances(_queue_mixes(conn, since, until), thresholds.min_decisions)
    result = []
    for name, now in now_stats.items():
        prev: ReviewerStats | None = before.get(name)
        flags = []
        enough = now.decisions >= thresholds.min_decisions
        median = now.handle_time_median_ms
        if enough and median is not None and median < thresholds.min_median_ms:
            flags.append(QualityFlag.fast)
        distance, queue_id = distances.get(user_ids.get(name, -1), (None, None))
        if distance is not None and distance > thresholds.max_mix_distance:
            flags.append(QualityFlag.mix)
        rate, prev_rate = now.overturn_rate, prev.overturn_rate if prev else None
        if (
            enough
            and prev is not None
            and prev.decisions >= thresholds.min_decisions
            and rate is not None
            and prev_rate is not None
            and rate - prev_rate >= thresholds.overturn_jump - 1e-9
        ):
            flags.append(QualityFlag.overturns)
        result.append(
            ReviewerQuality(
                reviewer=name,
                display_name=now.display_name,
                decisions=now.decisions,
                handle_time_median_ms=median,
                mix_distance=distance,
                mix_queue_id=queue_id,
                overturn_rate=rate,
                previous_decisions=prev.decisions if prev else 0,
                previous_overturn_rate=prev_rate,
                flags=flags,
            )
        )
    return result


def trend(
    conn: Connection, user_id: int, since: float, until: float, tz: ZoneInfo | None = None
) -> list[TrendDay]:
    """The reviewer's decisions per day of the window (the days of ``tz``: its midnights,
    a day 23 or 25 hours where the clocks change; UTC days without): how many, their
    exact median handle time, and how many were overturned since (audit or appeal)."""
    days = local_days.starts(since, until, DAY, tz)
    if len(days) > MAX_TREND_DAYS + 1:  # a 92-day window across a short day, at most
        raise ApiError(422, "window_too_long", f"A trend spans at most {MAX_TREND_DAYS} days.")
    spent: dict[int, list[int]] = defaultdict(list)
    for r in conn.execute(
        select(decisions.c.decided_at, decisions.c.time_spent_ms).where(
            decisions.c.user_id == user_id,
            decisions.c.decided_at >= since,
            decisions.c.decided_at < until,
            decisions.c.kind.in_(COUNTED_KINDS),
        )
    ):
        spent[local_days.start_of(days, r.decided_at)].append(int(r.time_spent_ms))
    overturned: Counter[int] = Counter()
    for (at,) in conn.execute(
        select(audit_items.c.decided_at).where(
            audit_items.c.reviewer_id == user_id,
            audit_items.c.result == "overturn",
            audit_items.c.decided_at >= since,
            audit_items.c.decided_at < until,
        )
    ):
        overturned[local_days.start_of(days, at)] += 1
    for (at,) in conn.execute(
        select(appeals.c.contested_at).where(
            appeals.c.reviewer_id == user_id,
            appeals.c.outcome == "reversed",
            appeals.c.contested_at >= since,
            appeals.c.contested_at < until,
        )
    ):
        overturned[local_days.start_of(days, at)] += 1
    return [
        TrendDay(
            start=to_dt(max(start, since)),
            decisions=len(spent.get(start, [])),
            handle_time_median_ms=(
                round(statistics.median(spent[start])) if spent.get(start) else None
            ),
            overturned=overturned[start],
        )
        for start in days
    ]
