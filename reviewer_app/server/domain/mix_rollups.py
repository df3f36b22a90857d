"""Reading ``decision_mix_rollups`` (kept by the roller: rollups.py): decisions per
reviewer, queue, kind, action and set of policies over a window, exact like every figure
there (whole days and hours from the rollup, what the roller has not counted yet and the
window's raw edges from the decisions, in the caller's snapshot).

``mix_counts`` answers one window (the quality signals' action mixes, the exposure
figures' week); ``mix_counts_per_user`` answers a window per user that all end together
(the exposure figures' shifts) in a handful of statements, not a handful per user.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, and_, func, select

from reviewer_app.server.domain.rollups import (
    DAY,
    HOUR,
    Window,
    ceil_to,
    floor_to,
    split,
    tiers,
    unrolled,
)
from reviewer_app.server.storage.tables import decision_mix_rollups, decisions


def mix_counts(
    conn: Connection,
    since: float,
    until: float,
    by: Sequence[str],
    *,
    kinds: Sequence[str] | None = None,
    user_id: int | None = None,
) -> Counter[tuple[Any, ...]]:
    """The decisions of ``kinds`` (None: every kind) made in [since, until), of one user or
    everyone's, counted by the columns ``by`` (of decisions and decision_mix_rollups alike):
    whole days and hours from the rollups, what the roller has not counted yet and the
    window's raw edges from the decisions. Exact, like every figure here."""
    window = split(since, until)
    found: Counter[tuple[Any, ...]] = Counter()
    t = decision_mix_rollups
    keys = [t.c[name] for name in by]
    only = [] if user_id is None else [t.c.user_id == user_id]
    only += [] if kinds is None else [t.c.kind.in_(kinds)]
    for condition in tiers(t, window):
        for r in conn.execute(
            select(*keys, func.sum(t.c.n)).where(condition, *only).group_by(*keys)
        ):
            found[tuple(r[:-1])] += int(r[-1])
    if window.hours or window.days:  # the whole hours' decisions not rolled up yet
        h0, h1 = ceil_to(since, HOUR), floor_to(until, HOUR)
        for d in unrolled(conn, h0, h1, kinds):
            if user_id is None or d.user_id == user_id:
                found[tuple(getattr(d, name) for name in by)] += 1
    keys = [decisions.c[name] for name in by]
    only = [] if user_id is None else [decisions.c.user_id == user_id]
    only += [] if kinds is None else [decisions.c.kind.in_(kinds)]
    for a, b in window.raw:
        for r in conn.execute(
            select(*keys, func.count())
            .where(decisions.c.decided_at >= a, decisions.c.decided_at < b, *only)
            .group_by(*keys)
        ):
            found[tuple(r[:-1])] += int(r[-1])
    return found


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    found: list[tuple[int, int]] = []
    for a, b in sorted(ranges):
        if found and a <= found[-1][1]:
            found[-1] = (found[-1][0], max(found[-1][1], b))
        else:
            found.append((a, b))
    return found


def _covers(window: Window, span: int, start: int) -> bool:
    if span == DAY:
        return window.days is not None and window.days[0] <= start < window.days[1]
    return any(a <= start < b for a, b in window.hours)


def mix_counts_per_user(
    conn: Connection, starts: Mapping[int, float], until: float, by: Sequence[str]
) -> dict[int, Counter[tuple[Any, ...]]]:
    """For each user, ``mix_counts`` of their decisions of every kind in
    [``starts[user]``, ``until``): each rollup row read once for all of them and kept by
    its user's own window."""
    found: dict[int, Counter[tuple[Any, ...]]] = {u: Counter() for u in starts}
    if not starts:
        return found
    windows = {u: split(s, until) for u, s in starts.items()}
    t = decision_mix_rollups
    keys = [t.c[name] for name in by]
    days = [w.days for w in windows.values() if w.days]
    conditions = [
        and_(t.c.span == HOUR, t.c.start >= a, t.c.start < b)
        for a, b in _merged([r for w in windows.values() for r in w.hours])
    ]
    if days:
        first, last = min(d[0] for d in days), max(d[1] for d in days)
        conditions.append(and_(t.c.span == DAY, t.c.start >= first, t.c.start < last))
    for condition in conditions:
        for r in conn.execute(
            select(t.c.user_id, t.c.span, t.c.start, *keys, func.sum(t.c.n))
            .where(condition, t.c.user_id.in_(sorted(starts)))
            .group_by(t.c.user_id, t.c.span, t.c.start, *keys)
        ):
            if _covers(windows[r[0]], r[1], r[2]):
                found[r[0]][tuple(r[3:-1])] += int(r[-1])
    # the whole hours' decisions not rolled up yet
    rolled = {u: (ceil_to(starts[u], HOUR), floor_to(until, HOUR)) for u in starts}
    rolled = {u: ab for u, ab in rolled.items() if windows[u].hours or windows[u].days}
    if rolled:
        low, high = min(a for a, _ in rolled.values()), max(b for _, b in rolled.values())
        for d in unrolled(conn, low, high, None):
            if d.user_id in rolled and rolled[d.user_id][0] <= d.decided_at < rolled[d.user_id][1]:
                found[d.user_id][tuple(getattr(d, name) for name in by)] += 1
    # the raw edges: the one every window shares (its end) for all users in a statement,
    # each user's own (its start) through the (user_id, decided_at) index
    edges: dict[tuple[float, float], list[int]] = defaultdict(list)
    for u, w in windows.items():
        for edge in w.raw:
            edges[edge].append(u)
    keys = [decisions.c[name] for name in by]
    at = decisions.c.decided_at
    for (a, b), users in edges.items():
        user = decisions.c.user_id.in_(users) if len(users) > 1 else decisions.c.user_id == users[0]
        for r in conn.execute(
            select(decisions.c.user_id, *keys, func.count())
            .where(user, at >= a, at < b)
            .group_by(decisions.c.user_id, *keys)
        ):
            found[r[0]][tuple(r[1:-1])] += int(r[-1])
    return found
