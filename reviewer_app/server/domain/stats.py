"""Lead figures: queue health and reviewer quality over a window, from the rollups and the
decisions the roller has not counted yet (read in one snapshot: ``Database.snapshot``)."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from sqlalchemy import ColumnElement, Connection, func, select

from reviewer_app.protocol import (
    ESCALATION_QUEUE,
    MAX_STATS_BUCKETS,
    ActionCount,
    QueueConfig,
    QueueStats,
    ReviewerStats,
    StatsBucket,
    ThroughputPoint,
)
from reviewer_app.server.domain import appeals, local_days
from reviewer_app.server.domain.records import to_dt
from reviewer_app.server.domain.rollups import (
    COUNTED_KINDS,
    DAY,
    HOUR,
    bucket_of,
    ceil_to,
    floor_to,
    percentile,
    split,
    tiers,
    unrolled,
)
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import (
    audit_items,
    decisions,
    handle_time_rollups,
    items,
    queue_hourly,
    reviewer_rollups,
    users,
    verdict_keys,
)

SPANS = {StatsBucket.hour: HOUR, StatsBucket.day: DAY}


def cohen_kappa(pairs: Sequence[tuple[str, str]]) -> float | None:
    """Cohen's kappa of two raters over the same items (None when it is undefined)."""
    n = len(pairs)
    if n == 0:
        return None
    observed = sum(a == b for a, b in pairs) / n
    first = Counter(a for a, _ in pairs)
    second = Counter(b for _, b in pairs)
    expected = sum(first[k] * second[k] for k in first) / (n * n)
    if math.isclose(expected, 1.0):
        return None
    return max(-1.0, min(1.0, (observed - expected) / (1 - expected)))


def check_window(since: float, until: float, span: int | None = None) -> None:
    if until <= since:
        raise ApiError(422, "invalid_window", "The window must end after it starts.")
    if span is not None and math.ceil((until - floor_to(since, span)) / span) > MAX_STATS_BUCKETS:
        raise ApiError(
            422,
            "window_too_long",
            f"At most {MAX_STATS_BUCKETS} buckets per series: use a shorter window or bucket=day.",
        )


def _mix(counts: Mapping[str, int]) -> list[ActionCount]:
    return [
        ActionCount(action=a, count=n)
        for a, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if n
    ]


# -- queues ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class QueueInfo:
    id: str
    name: str
    config: QueueConfig


def _live_counts(
    conn: Connection, queue_ids: list[str], now: float
) -> dict[str, tuple[int, int, float | None, int]]:
    """Per queue: waiting (pending, or leased with the lease run out), leased, oldest
    undecided (waiting or leased: see ``_over_sla``), and parked as unservable
    (claims.py)."""
    expired = (items.c.lease_expires_at < now).label("expired")
    rows = conn.execute(
        select(
            items.c.queue_id,
            items.c.state,
            expired,
            func.count().label("n"),
            func.min(items.c.enqueued_at).label("oldest"),
        )
        .where(
            items.c.queue_id.in_(queue_ids),
            items.c.state.in_(("pending", "leased", "unservable")),
        )
        .group_by(items.c.queue_id, items.c.state, expired)
    ).all()
    found: dict[str, list[float | int | None]] = {q: [0, 0, None, 0] for q in queue_ids}
    for r in rows:
        entry = found[r.queue_id]
        if r.state == "unservable":
            entry[3] = int(entry[3] or 0) + r.n
            continue
        if r.state == "pending" or r.expired:
            entry[0] = int(entry[0] or 0) + r.n
        else:
            entry[1] = int(entry[1] or 0) + r.n
        oldest = entry[2]
        entry[2] = r.oldest if oldest is None else min(float(oldest), r.oldest)
    return {q: (int(v[0] or 0), int(v[1] or 0), v[2], int(v[3] or 0)) for q, v in found.items()}


def _over_sla(conn: Connection, queue_id: str, cutoff: float) -> int:
    """Undecided items older than the SLA, leased ones included. The SLA runs until a
    decision: a lease says a client holds the item, not that anyone is looking at it (a
    client leases ahead, and the service is not told which of its items are on screen), so
    an item held past the SLA has waited past it all the same."""
    count = conn.execute(
        select(func.count())
        .select_from(items)
        .where(
            items.c.queue_id == queue_id,
            items.c.state.in_(("pending", "leased")),
            items.c.enqueued_at < cutoff,
        )
    ).scalar_one()
    return int(count)


def queue_stats(
    conn: Connection,
    queues: Sequence[QueueInfo],
    since: float,
    until: float,
    bucket: StatsBucket,
    now: float,
    zone: ZoneInfo | None = None,
) -> list[QueueStats]:
    """Each queue's figures; day buckets are the days of ``zone`` (UTC days without)."""
    starts = local_days.starts(since, until, SPANS[bucket], zone)
    if len(starts) > MAX_STATS_BUCKETS:  # local days, one more than UTC ones at the limit
        raise ApiError(422, "window_too_long", f"At most {MAX_STATS_BUCKETS} buckets per series.")
    ids = [q.id for q in queues]
    if not ids:
        return []
    live = _live_counts(conn, ids, now)
    escalated: dict[str, int] = dict(
        conn.execute(
            select(items.c.origin_queue_id, func.count())
            .where(items.c.queue_id == ESCALATION_QUEUE, items.c.state.in_(("pending", "leased")))
            .group_by(items.c.origin_queue_id)
        ).all()
    )

    series, mix = _decided_by_queue(conn, ids, live, since, until, starts)
    result = []
    for q in queues:
        waiting, leased, oldest, unservable = live[q.id]
        sla = q.config.sla_minutes * 60
        age = max(0, int(now - oldest)) if oldest is not None else None
        open_escalations = waiting + leased if q.id == ESCALATION_QUEUE else escalated.get(q.id, 0)
        result.append(
            QueueStats(
                queue_id=q.id,
                name=q.name,
                backlog=waiting,
                leased=leased,
                oldest_pending_age_seconds=age,
                sla_seconds=sla,
                sla_breached=age is not None and age > sla,
                pending_over_sla=_over_sla(conn, q.id, now - sla) if waiting + leased else 0,
                decided=sum(mix[q.id].values()),
                decided_series=[
                    ThroughputPoint(start=to_dt(s), decided=series[q.id][s]) for s in starts
                ],
                action_mix=_mix(mix[q.id]),
                escalations_open=open_escalations,
                unservable=unservable,
            )
        )
    return result


def _decided_by_queue(
    conn: Connection,
    ids: Sequence[str],
    live: Mapping[str, tuple[int, int, float | None, int]],
    since: float,
    until: float,
    starts: list[int],
) -> tuple[dict[str, Counter[int]], dict[str, Counter[str]]]:
    """Decisions per queue in the window: by bucket start and by action. Whole hours come
    from the rollups (and the decisions not rolled up yet), the edges from the decisions,
    and so do the hours a bucket starts inside (a zone's midnight half an hour off UTC's)."""
    series: dict[str, Counter[int]] = defaultdict(Counter)
    mix: dict[str, Counter[str]] = defaultdict(Counter)
    h0, h1 = ceil_to(since, HOUR), floor_to(until, HOUR)
    split = {floor_to(s, HOUR) for s in starts if s % HOUR}
    if h0 < h1:
        for r in conn.execute(
            select(
                queue_hourly.c.queue_id,
                queue_hourly.c.hour,
                queue_hourly.c.action,
                queue_hourly.c.n,
            ).where(
                queue_hourly.c.queue_id.in_(ids),
                queue_hourly.c.hour >= h0,
                queue_hourly.c.hour < h1,
            )
        ):
            if r.hour not in split:
                series[r.queue_id][local_days.start_of(starts, r.hour)] += r.n
                mix[r.queue_id][r.action] += r.n
        for d in unrolled(conn, h0, h1):  # the whole hours' decisions not rolled up yet
            if d.queue_id in live and floor_to(d.decided_at, HOUR) not in split:
                series[d.queue_id][local_days.start_of(starts, d.decided_at)] += 1
                mix[d.queue_id][d.action] += 1
        edges = [(a, b) for a, b in ((since, float(h0)), (float(h1), until)) if a < b]
        edges += [(float(h), float(h + HOUR)) for h in sorted(split) if h0 <= h < h1]
    else:  # no whole hour
        edges = [(since, until)]
    # each edge cut where a bucket starts inside it: every piece in one bucket
    for a, b in (piece for edge in edges for piece in _pieces(*edge, starts)):
        for r in conn.execute(
            select(decisions.c.queue_id, decisions.c.action, func.count().label("n"))
            .where(
                decisions.c.queue_id.in_(ids),
                decisions.c.decided_at >= a,
                decisions.c.decided_at < b,
                decisions.c.kind.in_(COUNTED_KINDS),
            )
            .group_by(decisions.c.queue_id, decisions.c.action)
        ):
            series[r.queue_id][local_days.start_of(starts, a)] += r.n
            mix[r.queue_id][r.action] += r.n
    return series, mix


def _pieces(a: float, b: float, starts: Sequence[int]) -> list[tuple[float, float]]:
    """``[a, b)`` cut at every bucket start inside it."""
    at = [float(s) for s in starts if a < s < b]
    return list(zip([a, *at], [*at, b], strict=True))


# -- reviewers ------------------------------------------------------------------------------


def _only(user_id: int | None, column: ColumnElement[int]) -> list[ColumnElement[bool]]:
    return [] if user_id is None else [column == user_id]


def _decisions_by_reviewer(
    conn: Connection, since: float, until: float, user_id: int | None
) -> tuple[dict[int, Counter[str]], dict[int, Counter[int]]]:
    """Each reviewer's decisions in the window by action and by handle-time bucket: the
    rollups' tiers, the whole hours not rolled up yet, and the decisions at the edges."""
    window = split(since, until)
    actions: dict[int, Counter[str]] = defaultdict(Counter)
    handle: dict[int, Counter[int]] = defaultdict(Counter)

    for condition in tiers(reviewer_rollups, window):
        for r in conn.execute(
            select(
                reviewer_rollups.c.user_id,
                reviewer_rollups.c.action,
                func.sum(reviewer_rollups.c.n),
            )
            .where(condition, *_only(user_id, reviewer_rollups.c.user_id))
            .group_by(reviewer_rollups.c.user_id, reviewer_rollups.c.action)
        ):
            actions[r[0]][r[1]] += int(r[2])
    for condition in tiers(handle_time_rollups, window):
        for r in conn.execute(
            select(
                handle_time_rollups.c.user_id,
                handle_time_rollups.c.bucket,
                func.sum(handle_time_rollups.c.n),
            )
            .where(condition, *_only(user_id, handle_time_rollups.c.user_id))
            .group_by(handle_time_rollups.c.user_id, handle_time_rollups.c.bucket)
        ):
            handle[r[0]][r[1]] += int(r[2])
    h0, h1 = ceil_to(since, HOUR), floor_to(until, HOUR)
    if window.hours or window.days:  # the whole hours' decisions not rolled up yet
        for d in unrolled(conn, h0, h1):
            if user_id is None or d.user_id == user_id:
                actions[d.user_id][d.action] += 1
                handle[d.user_id][bucket_of(d.time_spent_ms)] += 1
    for a, b in window.raw:
        for r in conn.execute(
            select(decisions.c.user_id, decisions.c.action, decisions.c.time_spent_ms).where(
                decisions.c.decided_at >= a,
                decisions.c.decided_at < b,
                decisions.c.kind.in_(COUNTED_KINDS),
                *_only(user_id, decisions.c.user_id),
            )
        ):
            actions[r.user_id][r.action] += 1
            handle[r.user_id][bucket_of(r.time_spent_ms)] += 1
    return actions, handle


def _audits_by_reviewer(
    conn: Connection, since: float, until: float, user_id: int | None
) -> tuple[dict[int, list[tuple[str, str, str]]], dict[int, int]]:
    """Each reviewer's audited decisions (action, final action, result) and verdict
    conflicts in the window."""
    audits: dict[int, list[tuple[str, str, str]]] = defaultdict(list)
    for a_row in conn.execute(
        select(
            audit_items.c.reviewer_id,
            audit_items.c.action,
            audit_items.c.final_action,
            audit_items.c.result,
        ).where(
            audit_items.c.result.is_not(None),
            audit_items.c.decided_at >= since,
            audit_items.c.decided_at < until,
            *_only(user_id, audit_items.c.reviewer_id),
        )
    ):
        audits[a_row.reviewer_id].append((a_row.action, a_row.final_action, a_row.result))
    conflicts: dict[int, int] = {
        r[0]: int(r[1])
        for r in conn.execute(
            select(verdict_keys.c.user_id, func.count())
            .where(
                verdict_keys.c.status == "conflict",
                verdict_keys.c.created_at >= since,
                verdict_keys.c.created_at < until,
                *_only(user_id, verdict_keys.c.user_id),
            )
            .group_by(verdict_keys.c.user_id)
        )
    }
    return audits, conflicts


def reviewer_stats(
    conn: Connection, since: float, until: float, user_id: int | None = None
) -> list[ReviewerStats]:
    actions, handle = _decisions_by_reviewer(conn, since, until, user_id)
    audits, conflicts = _audits_by_reviewer(conn, since, until, user_id)

    # appeals of the window's decisions: a reversed one overturned its reviewer, an upheld
    # one did not (appeals.py)
    appealed = appeals.outcomes_by_reviewer(conn, since, until, user_id)
    ids = set(actions) | set(audits) | set(conflicts) | set(appealed)
    if not ids:
        return []
    names = {
        r.id: (r.username, r.display_name)
        for r in conn.execute(
            select(users.c.id, users.c.username, users.c.display_name).where(users.c.id.in_(ids))
        )
    }
    result = []
    for uid in sorted(ids, key=lambda i: names.get(i, ("~", ""))[0]):
        if uid not in names:
            continue
        made = sum(actions[uid].values())
        judged = audits.get(uid, [])
        agreed = sum(1 for _, _, outcome in judged if outcome == "agree")
        overturned = len(judged) - agreed
        reversed_ = appealed.get(uid, {}).get(appeals.REVERSED, 0)
        result.append(
            ReviewerStats(
                reviewer=names[uid][0],
                display_name=names[uid][1],
                decisions=made,
                handle_time_median_ms=percentile(handle[uid], 50),
                handle_time_p90_ms=percentile(handle[uid], 90),
                action_mix=_mix(actions[uid]),
                audited=len(judged),
                audit_agreed=agreed,
                audit_overturned=overturned,
                audit_agreement_rate=agreed / len(judged) if judged else None,
                appeals_upheld=appealed.get(uid, {}).get(appeals.UPHELD, 0),
                appeals_reversed=reversed_,
                overturn_rate=min(1.0, (overturned + reversed_) / made) if made else None,
                kappa=cohen_kappa([(a, f) for a, f, _ in judged]),
                conflicts=conflicts.get(uid, 0),
            )
        )
    return result
