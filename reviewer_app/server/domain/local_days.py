"""Days as the person who asks lives them: the midnights of an IANA time zone (zoneinfo;
a day is 23 or 25 hours where the clocks change), for a lead's figures by day and a
reviewer's "decided today". Without a zone a day is a UTC day, as for a client from before
the zone was asked for. Qt-free."""

from __future__ import annotations

import math
from bisect import bisect_right
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from reviewer_app.server.domain.rollups import DAY, floor_to
from reviewer_app.server.problems import ApiError

#: the longest day there is (the clocks going back an hour), and then some
LONGEST_DAY = 25 * 3600.0


def zone(name: str | None) -> ZoneInfo | None:
    """The time zone named (None: UTC days); a name zoneinfo does not know is a 422."""
    if name is None:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as exc:
        raise ApiError(
            422, "unknown_time_zone", f"{name!r} is not a time zone (IANA, such as Europe/Paris)."
        ) from exc


def midnight(at: float, tz: ZoneInfo | None) -> int:
    """The start of the day ``at`` is in: its midnight in ``tz`` (on a day the clocks skip
    midnight, the day's first moment), UTC's without a zone."""
    if tz is None:
        return floor_to(at, DAY)
    day = datetime.fromtimestamp(at, tz).date()
    # a midnight the clocks skip reads with the offset before the change: the first moment
    return int(datetime.combine(day, time(), tz).timestamp())


def starts(since: float, until: float, span: int, tz: ZoneInfo | None = None) -> list[int]:
    """The buckets' starts over ``[since, until)``: the first at or before ``since``, then
    every ``span`` seconds, or every midnight of ``tz`` when ``span`` is a day."""
    if tz is None or span != DAY:
        return list(range(floor_to(since, span), math.ceil(until), span))
    found = [midnight(since, tz)]
    day = datetime.fromtimestamp(since, tz).date()
    while True:
        day += timedelta(days=1)
        at = int(datetime.combine(day, time(), tz).timestamp())
        if at >= until:
            return found
        found.append(at)


def start_of(bucket_starts: list[int], at: float) -> int:
    """The start of the bucket ``at`` falls in (``at`` no earlier than the first)."""
    return bucket_starts[max(bisect_right(bucket_starts, at) - 1, 0)]


def today_from(now: float, day_start: float | None) -> float:
    """The start of the caller's day: their midnight (``day_start``, sent by a client just
    now), moved by whole days to the last one not after the service's ``now`` when it is
    not within the last day (a workstation clock ahead or behind); UTC midnight without."""
    if day_start is None:
        return float(midnight(now, None))
    if now - LONGEST_DAY < day_start <= now:
        return day_start
    return now - (now - day_start) % DAY
