"""Wellbeing: breaks reviewers take, and each reviewer's exposure to harm per shift.

Exposure is derived here, from the decisions the service already holds and each queue's
harm mapping (``protocol.harm_of``), rather than counted by clients and reported: the
decisions are the record (no client can lose, double or forget to send a count; several
clients or a reinstalled one add up), a mapping a lead corrects applies to the history
at once, and the lead's view needs no new write path. The client counts the same way,
with the same rule, for its own break reminders only.

A decision counts for the harm of the queue it was decided in; in a queue that names no
harm (the escalation queue, an appeals queue) for that of the queue its item came from
(``items.origin_queue_id``): a lead deciding an escalated hate post saw a hate post. A
blind audit's judgement counts for its auditor too, at the time it was recorded, with the
audited decision's queue and policies (``_audited``): the lead saw the post whether they
agreed or not (an overturn is a decision of its own, counted as one, not twice).

A shift is a run of a reviewer's activity (decisions, breaks) with no gap of
``SHIFT_GAP_SECONDS`` or more, still going now. Qt-free.

The time of a decision here is when the reviewer made it (``made_at``), not when it
reached the service: a verdict sent at once (within ``SENT_LATE_SECONDS``) at its arrival
(``decided_at``); one sent later (made offline) at the client's time
(``client_decided_at``), never trusted blindly: not after its arrival, and not before the
reviewer's first claim of the item (the log's ``claimed`` entries, found by item), nor
before its arrival when no claim is known. A wrong client clock cannot move work into
another shift or day. Shifts (their start, their counts) and the end of a break never
closed go by that time; the week counts verdicts by arrival (see ``_count_all``). A
break is placed on the service's clock the same way when it is stored (``placed``), its
length kept: a workstation's clock ahead neither shortens it nor hides it in the future.

Read without going through every decision of the week: the counts come from the roller's
``decision_mix_rollups`` (per reviewer, queue and set of policies; mix_rollups.py, exact
like the other lead figures) corrected by the few decisions the rollups cannot place
(those sent late, those of queues naming no harm), and a shift's start from the decisions
that begin or end a run (``_runs``), looked for in the last day first.
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Select, case, func, insert, or_, select, update
from sqlalchemy.sql.elements import ColumnElement

from reviewer_app.protocol import (
    SHIFT_GAP_SECONDS,
    BreakRecord,
    EventKind,
    HarmCount,
    HarmKind,
    QueueConfig,
    ReviewerExposure,
    Role,
    counts_origin_harm,
    harm_of,
    is_high_harm,
)
from reviewer_app.server.domain.mix_rollups import mix_counts, mix_counts_per_user
from reviewer_app.server.domain.records import Principal, to_dt, to_epoch
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import (
    audit_items,
    breaks,
    decisions,
    events,
    items,
    queues,
    users,
)

WEEK_SECONDS = 7 * 24 * 3600.0
#: how far back the start of a shift is looked for first (then the week)
LOOK_BACK_SECONDS = 24 * 3600.0
#: a verdict that reached the service within this of the client's time was sent as it was
#: made (an undo window, a retry): timed by its arrival, nothing looked up
SENT_LATE_SECONDS = 5 * 60.0


def record_break(conn: Connection, user: Principal, record: BreakRecord, now: float) -> BreakRecord:
    """Store a break (its start, or its end: the same id updates it), on the service's
    clock (``placed``); its length is the client's. Another user's id is refused; an end
    never moves back to open, nor a start once stored."""
    key = str(record.id)
    started = to_epoch(record.started_at)
    ended = to_epoch(record.ended_at) if record.ended_at is not None else None
    row = conn.execute(
        select(breaks.c.user_id, breaks.c.started_at, breaks.c.ended_at).where(breaks.c.id == key)
    ).first()
    if row is None:
        at, until = placed(started, ended, now)
        conn.execute(
            insert(breaks).values(
                id=key, user_id=user.id, started_at=at, ended_at=until, prompted=record.prompted
            )
        )
    elif row.user_id != user.id:
        raise ApiError(409, "break_of_another_user", "This break id belongs to someone else.")
    elif ended is not None and row.ended_at is None:
        # as long as the client says, from where its start was placed; not after now
        until = max(row.started_at, min(row.started_at + (ended - started), now))
        conn.execute(update(breaks).where(breaks.c.id == key).values(ended_at=until))
    return record


def placed(started: float, ended: float | None, now: float) -> tuple[float, float | None]:
    """A break's times as the service places them when it first hears of it (``now``), the
    way a verdict's time is placed (``made_at``): a record sent as it happened (its
    latest time within ``SENT_LATE_SECONDS`` before its arrival, or after it: a clock
    ahead) ends that time at its arrival; one sent later (kept while offline) keeps the
    client's times, already before its arrival. Either way the break keeps its length:
    a workstation's clock ahead or behind neither cuts it at ``now`` nor hides it in the
    future, where the lead's figures never looked."""
    latest = ended if ended is not None else started
    shift = now - latest if latest >= now - SENT_LATE_SECONDS else 0.0
    return started + shift, ended + shift if ended is not None else None


@dataclass
class _Reviewer:
    username: str
    display_name: str
    shift_start: float | None = None
    shift: Counter[HarmKind] = field(default_factory=Counter)
    week: Counter[HarmKind] = field(default_factory=Counter)
    shift_items: int = 0
    week_items: int = 0
    high_harm_shift: int = 0
    # (started_at, ended_at or None)
    breaks: list[tuple[float, float | None]] = field(default_factory=list)
    # when each blind audit judgement of theirs in the week was recorded
    audits: list[float] = field(default_factory=list)


def shift_start(
    runs: Iterable[tuple[float, float]], points: Iterable[float], now: float
) -> float | None:
    """The start of the run of activity still going at ``now`` (None when the newest
    activity is ``SHIFT_GAP_SECONDS`` or more ago): runs of decisions (first, last) and
    single times (breaks) joined wherever less than the gap lies between them."""
    start: float | None = None
    end: float | None = None
    for a, b in sorted([*runs, *((t, t) for t in points)]):
        if end is None or a - end >= SHIFT_GAP_SECONDS:
            start, end = a, b
        else:
            end = max(end, b)
    if end is None or now - end >= SHIFT_GAP_SECONDS:
        return None
    return start


def made_at(conn: Connection) -> ColumnElement[float]:
    """When the reviewer made the decision (a column of ``decisions``' rows): its arrival
    (``decided_at``) for a verdict sent at once; the client's time for one sent late,
    clamped into what the service knows: not after its arrival, not before the reviewer's
    first claim of the item (the log's ``claimed`` entries, by the item's index), and its
    arrival when no claim is known (a lead's bulk decision logs none)."""
    d = decisions.c
    claimed = (
        select(func.min(events.c.at))
        .select_from(events.join(users, users.c.username == events.c.actor))
        .where(
            events.c.item_id == d.item_id,
            events.c.kind == EventKind.claimed.value,
            users.c.id == d.user_id,
            events.c.at <= d.decided_at,
        )
        .scalar_subquery()
    )
    # max of two values: an aggregate of one argument on PostgreSQL, a scalar on SQLite
    greatest = func.greatest if conn.dialect.name == "postgresql" else func.max
    return case(
        (d.client_decided_at >= d.decided_at - SENT_LATE_SECONDS, d.decided_at),
        else_=greatest(d.client_decided_at, func.coalesce(claimed, d.decided_at)),
    )


def _runs(
    conn: Connection, user_ids: list[int], week: float, now: float
) -> dict[int, list[tuple[float, float]]]:
    """Each user's runs of decisions made (``made_at``) in [week, now] (first, last; oldest
    first: no gap of ``SHIFT_GAP_SECONDS`` or more inside one). One statement over the
    (user_id, decided_at) index (a decision made in the window arrived in it or later);
    the database finds the gaps (LAG/LEAD) and returns only the decisions that start or
    end a run, not every decision of a week-long shift."""
    made = (
        select(decisions.c.user_id, made_at(conn).label("at"))
        .where(
            decisions.c.user_id.in_(user_ids),
            decisions.c.decided_at >= week,
            decisions.c.decided_at <= now,
        )
        .subquery()
    )
    at, user = made.c.at, made.c.user_id
    times = (
        select(
            user,
            at,
            func.lag(at).over(partition_by=user, order_by=at).label("prev"),
            func.lead(at).over(partition_by=user, order_by=at).label("next"),
        )
        .where(at >= week)
        .subquery()
    )
    gap = SHIFT_GAP_SECONDS
    found: dict[int, list[tuple[float, float]]] = defaultdict(list)
    for r in conn.execute(
        select(times)
        .where(
            or_(
                times.c.prev.is_(None),
                times.c.at - times.c.prev >= gap,
                times.c.next.is_(None),
                times.c.next - times.c.at >= gap,
            )
        )
        .order_by(times.c.user_id, times.c.at)
    ):
        runs = found[r.user_id]
        if r.prev is None or r.at - r.prev >= gap:
            runs.append((r.at, r.at))
        runs[-1] = (runs[-1][0], r.at)
    return found


def exposure(conn: Connection, now: float) -> list[ReviewerExposure]:
    """Every reviewer's exposure (the people with the reviewer role, and anyone else who
    decided or took a break in the last 7 days), by username."""
    week = now - WEEK_SECONDS
    configs = {
        r.id: QueueConfig.model_validate_json(r.config)
        for r in conn.execute(select(queues.c.id, queues.c.config))
    }
    people: dict[int, _Reviewer] = {}
    for r in conn.execute(
        select(users.c.id, users.c.username, users.c.display_name, users.c.role).where(
            or_(
                users.c.role == Role.reviewer.value,
                users.c.id.in_(select(decisions.c.user_id).where(decisions.c.decided_at >= week)),
                users.c.id.in_(select(breaks.c.user_id).where(breaks.c.started_at >= week)),
                users.c.id.in_(
                    select(audit_items.c.auditor_id).where(audit_items.c.recorded_at >= week)
                ),
            )
        )
    ):
        people[r.id] = _Reviewer(r.username, r.display_name)
    audited = _audited(conn, week, now)
    for a in audited:
        if a.user_id in people:  # (an auditor whose account is gone: not a row here)
            people[a.user_id].audits.append(a.at)
    for b in conn.execute(
        select(breaks.c.user_id, breaks.c.started_at, breaks.c.ended_at).where(
            breaks.c.started_at >= week, breaks.c.started_at <= now
        )
    ):
        if b.user_id in people:
            people[b.user_id].breaks.append((b.started_at, b.ended_at))
    # who was active in the last SHIFT_GAP_SECONDS may be on shift: look back for its start
    recent = now - SHIFT_GAP_SECONDS
    active = set(
        conn.execute(
            select(decisions.c.user_id)
            .where(decisions.c.decided_at >= recent, decisions.c.decided_at <= now)
            .distinct()
        ).scalars()
    )
    on_shift: dict[int, list[float]] = {}
    for user_id, person in people.items():
        person.breaks = [(s, _break_end(conn, user_id, s, e, now)) for s, e in person.breaks]
        times = [t for s, e in person.breaks for t in (s, e) if t is not None] + person.audits
        if user_id in active or any(recent <= t <= now for t in times):
            on_shift[user_id] = [t for t in times if week <= t <= now]
    # the last day first: enough for a shift with a gap before it in that day (most of
    # them), the week for the others
    left = on_shift
    for since in (max(week, now - LOOK_BACK_SECONDS), week):
        runs = _runs(conn, sorted(left), since, now) if left else {}
        for user_id, points in left.items():
            start = shift_start(runs.get(user_id, []), [t for t in points if t >= since], now)
            people[user_id].shift_start = start
        left = {
            u: points
            for u, points in left.items()
            if (start := people[u].shift_start) is not None and start - SHIFT_GAP_SECONDS < since
        }
    _count_all(conn, people, configs, week, now)
    _count_audited(people, configs, audited)
    return sorted((_figures(p, now) for p in people.values()), key=lambda e: e.reviewer)


def _count_all(
    conn: Connection,
    people: dict[int, _Reviewer],
    configs: dict[str, QueueConfig],
    week: float,
    now: float,
) -> None:
    """The week's and the shifts' counts, per reviewer, queue and set of policies cited
    (the harm rule runs per group, not per decision), from the rollups (``mix_counts``:
    whole days and hours, by arrival, the decisions up to now included), then corrected
    decision by decision where the rollups cannot tell: the decisions of a queue taking
    items from others (``_from_others``: counted with their item's origin queue), and
    the verdicts sent late, made before their reviewer's shift began (``_sent_late``:
    taken back out of the shift). The week counts by arrival: by the time made, it would
    read every decision of the week for the few sent late across its start seven days
    ago, which the rollups are there to avoid. A shift's decisions are all in the week."""
    others = _from_other_queues(configs)
    end = math.nextafter(now, math.inf)
    week_groups = mix_counts(conn, week, end, ("user_id", "queue_id", "policies"))
    for (user_id, queue_id, policies), n in week_groups.items():
        if queue_id not in others:
            _count(people.get(user_id), configs.get(queue_id), None, policies, n, shift=False)
    starts = {u: p.shift_start for u, p in people.items() if p.shift_start is not None}
    for user_id, groups in mix_counts_per_user(conn, starts, end, ("queue_id", "policies")).items():
        for (queue_id, policies), n in groups.items():
            if queue_id not in others:
                _count(people[user_id], configs.get(queue_id), None, policies, n, shift=True)
    for r in _from_others(conn, sorted(others), week, now):
        found = (people.get(r.user_id), configs.get(r.queue_id), configs.get(r.origin))
        _count(*found, r.policies, 1, shift=False)
        if r.user_id in starts and r.at >= starts[r.user_id]:
            _count(*found, r.policies, 1, shift=True)
    for r in _sent_late(conn, starts, others, now):
        if r.decided_at >= starts[r.user_id] > r.at:
            _count(people[r.user_id], configs.get(r.queue_id), None, r.policies, -1, shift=True)


def _audited(conn: Connection, week: float, now: float) -> list[Any]:
    """The blind audit judgements recorded in [week, now] that made no decision of their
    own (an agreement; an overturn is a decision, counted with the others): the auditor
    (``user_id``), when (``at``), the audited decision's queue and policies, and the queue
    its item came from (``origin``). By audit_items' index on recorded_at."""
    return list(conn.execute(audited_query(week, now)))


def audited_query(week: float, now: float) -> Select[Any]:
    """``_audited``'s statement."""
    a = audit_items.c
    return (
        select(
            a.auditor_id.label("user_id"),
            a.recorded_at.label("at"),
            a.queue_id,
            decisions.c.policies,
            items.c.origin_queue_id.label("origin"),
        )
        .select_from(
            audit_items.join(decisions, decisions.c.id == a.decision_id).outerjoin(
                items, items.c.id == a.item_id
            )
        )
        .where(
            a.result.is_not(None),
            a.auditor_id.is_not(None),
            a.overturn_decision_id.is_(None),
            a.recorded_at >= week,
            a.recorded_at <= now,
        )
    )


def _count_audited(
    people: dict[int, _Reviewer], configs: dict[str, QueueConfig], audited: list[Any]
) -> None:
    """Each audited post in its auditor's week, and shift when judged in it."""
    others = _from_other_queues(configs)
    for r in audited:
        person = people.get(r.user_id)
        origin = configs.get(r.origin) if r.queue_id in others and r.origin else None
        found = (person, configs.get(r.queue_id), origin)
        _count(*found, r.policies, 1, shift=False)
        if person is not None and person.shift_start is not None and r.at >= person.shift_start:
            _count(*found, r.policies, 1, shift=True)


def _from_other_queues(configs: dict[str, QueueConfig]) -> set[str]:
    """The queues that take items from others and name no harm of their own (the
    escalation queue, an appeals queue): their decisions count the origin queue's."""
    return {q for q, c in configs.items() if counts_origin_harm(q, c)}


def _from_others(conn: Connection, queue_ids: list[str], week: float, now: float) -> list[Any]:
    """The decisions of ``queue_ids`` that arrived in [week, now] (user_id, queue_id,
    policies, when made ``at``, and the queue their item came from, ``origin``), over the
    (queue_id, decided_at) index: a lead's escalations and the appeals, a few."""
    if not queue_ids:
        return []
    return list(
        conn.execute(
            select(
                decisions.c.user_id,
                decisions.c.queue_id,
                decisions.c.policies,
                made_at(conn).label("at"),
                items.c.origin_queue_id.label("origin"),
            )
            .select_from(decisions.outerjoin(items, items.c.id == decisions.c.item_id))
            .where(
                decisions.c.queue_id.in_(queue_ids),
                decisions.c.decided_at >= week,
                decisions.c.decided_at <= now,
            )
        )
    )


def _sent_late(conn: Connection, starts: dict[int, float], skip: set[str], now: float) -> list[Any]:
    """The verdicts of the users in ``starts`` that arrived in [their start, now] more than
    ``SENT_LATE_SECONDS`` after the client's time (user_id, queue_id, policies,
    decided_at, when made ``at``), but those of the queues ``skip``. Read over the
    (user_id, decided_at) index: the shifts begun in the last day from the earliest of
    them, the longer ones from theirs; only the late verdicts come back."""
    found: list[Any] = []
    day = now - LOOK_BACK_SECONDS
    for group in (
        {u: s for u, s in starts.items() if s >= day},
        {u: s for u, s in starts.items() if s < day},
    ):
        if not group:
            continue
        found += conn.execute(
            select(
                decisions.c.user_id,
                decisions.c.queue_id,
                decisions.c.policies,
                decisions.c.decided_at,
                made_at(conn).label("at"),
            ).where(
                decisions.c.user_id.in_(sorted(group)),
                decisions.c.decided_at >= min(group.values()),
                decisions.c.decided_at <= now,
                decisions.c.client_decided_at < decisions.c.decided_at - SENT_LATE_SECONDS,
                decisions.c.queue_id.not_in(sorted(skip)),
            )
        ).all()
    return found


def _break_end(
    conn: Connection, user_id: int, started: float, ended: float | None, now: float
) -> float | None:
    """When a break ended: as sent, or, for one never closed (the app crashed or lost the
    network on a break), at the first decision the reviewer made after it began (None:
    still on it)."""
    if ended is not None:
        return ended
    made = made_at(conn)
    found = conn.execute(
        select(func.min(made)).where(
            decisions.c.user_id == user_id,
            decisions.c.decided_at > started,
            decisions.c.decided_at <= now,
            made > started,
        )
    ).scalar()
    return float(found) if found is not None else None


def _count(
    person: _Reviewer | None,
    config: QueueConfig | None,
    origin: QueueConfig | None,
    policies: str,
    n: int,
    *,
    shift: bool,
) -> None:
    """Count ``n`` decisions of a queue (``config``; None: no longer configured) citing
    ``policies``. ``origin``: the queue their item came from, when the deciding queue takes
    items from others: its harm counts too (every post there carries it). High harm by the
    deciding queue's break rule, the one its reviewers work under."""
    if person is None:
        return
    cited = json.loads(policies or "[]")
    kinds = harm_of(config, cited) if config else frozenset()
    if origin is not None:
        kinds |= harm_of(origin, cited)
    rule = config if config is not None else origin
    counts = person.shift if shift else person.week
    for kind in kinds:
        counts[kind] += n
    if shift:
        person.shift_items += n
        if rule is not None and is_high_harm(rule, kinds):
            person.high_harm_shift += n
    else:
        person.week_items += n


def _figures(person: _Reviewer, now: float) -> ReviewerExposure:
    start = person.shift_start
    shift_breaks = [(s, e) for s, e in person.breaks if start is not None and s >= start]
    minutes = sum(min(e if e is not None else now, now) - s for s, e in shift_breaks) / 60
    return ReviewerExposure(
        reviewer=person.username,
        display_name=person.display_name,
        shift_started_at=to_dt(start) if start is not None else None,
        shift_items=person.shift_items,
        week_items=person.week_items,
        high_harm_shift=person.high_harm_shift,
        harm=[
            HarmCount(kind=kind, shift=person.shift[kind], week=person.week[kind])
            for kind in HarmKind
            if person.week[kind]
        ],
        breaks_shift=len(shift_breaks),
        breaks_week=len(person.breaks),
        break_minutes_shift=round(minutes),
    )
