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

from sqlalchemy import Connection, func, select

from reviewer_app.server.domain.rollups import (
    DAY,
    HOUR,
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


def mix_counts_per_user(
    conn: Connection, starts: Mapping[int, float], until: float, by: Sequence[str]
) -> dict[int, Counter[tuple[Any, ...]]]:
    """For each user, ``mix_counts`` of their decisions of every kind in
    [``starts[user]``, ``until``). The users whose windows share a piece (whole days, a
    run of whole hours, a raw edge ending at the same time: every window ends at
    ``until``, and shifts begun in the same hour start alike) are read together, in one
    statement per piece."""
    found: dict[int, Counter[tuple[Any, ...]]] = {u: Counter() for u in starts}
    days: dict[tuple[int, int], list[int]] = defaultdict(list)
    hours: dict[tuple[int, int], list[int]] = defaultdict(list)
    edges: dict[float, list[tuple[int, float]]] = defaultdict(list)  # by end: (user, start)
    rolled: dict[int, tuple[int, int]] = {}
    for u, since in starts.items():
        window = split(since, until)
        if window.days:
            days[window.days].append(u)
        for piece in window.hours:
            hours[piece].append(u)
        for a, b in window.raw:
            edges[b].append((u, a))
        if window.hours or window.days:
            rolled[u] = (ceil_to(since, HOUR), floor_to(until, HOUR))
    t = decision_mix_rollups
    keys = [t.c[name] for name in by]
    pieces = [(DAY, a, b, users) for (a, b), users in days.items()]
    pieces += [(HOUR, a, b, users) for (a, b), users in hours.items()]
    for span, a, b, users in pieces:
        for r in conn.execute(
            select(t.c.user_id, *keys, func.sum(t.c.n))
            .where(t.c.span == span, t.c.start >= a, t.c.start < b, t.c.user_id.in_(users))
            .group_by(t.c.user_id, *keys)
        ):
            found[r[0]][tuple(r[1:-1])] += int(r[-1])
    if rolled:  # the whole hours' decisions not rolled up yet
        low, high = min(a for a, _ in rolled.values()), max(b for _, b in rolled.values())
        for d in unrolled(conn, low, high, None):
            if d.user_id in rolled and rolled[d.user_id][0] <= d.decided_at < rolled[d.user_id][1]:
                found[d.user_id][tuple(getattr(d, name) for name in by)] += 1
    keys = [decisions.c[name] for name in by]
    at = decisions.c.decided_at
    for b, froms in edges.items():  # at most an hour of these users' decisions each
        first = dict(froms)
        for r in conn.execute(
            select(decisions.c.user_id, at, *keys).where(
                decisions.c.user_id.in_(sorted(first)), at >= min(first.values()), at < b
            )
        ):
            if r[1] >= first[r[0]]:
                found[r[0]][tuple(r[2:])] += 1
    return found
