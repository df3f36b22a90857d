"""Wellbeing: breaks reviewers take, and each reviewer's exposure to harm per shift.

Exposure is derived here, from the decisions the service already holds and each queue's
harm mapping (``protocol.harm_of``), rather than counted by clients and reported: the
decisions are the record (no client can lose, double or forget to send a count; several
clients or a reinstalled one add up), a mapping a lead corrects applies to the history
at once, and the lead's view needs no new write path. The client counts the same way,
with the same rule, for its own break reminders only.

A shift is a run of a reviewer's activity (decisions, breaks) with no gap of
``SHIFT_GAP_SECONDS`` or more, still going now. Qt-free.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from sqlalchemy import Connection, insert, or_, select, update

from reviewer_app.protocol import (
    BreakRecord,
    HarmCount,
    HarmKind,
    QueueConfig,
    ReviewerExposure,
    Role,
    harm_of,
    is_high_harm,
)

from .problems import ApiError
from .records import Principal, to_dt, to_epoch
from .tables import breaks, decisions, queues, users

SHIFT_GAP_SECONDS = 4 * 3600.0
WEEK_SECONDS = 7 * 24 * 3600.0


def record_break(conn: Connection, user: Principal, record: BreakRecord) -> BreakRecord:
    """Store a break (its start, or its end: the same id updates it). Another user's id is
    refused; an end never moves back to open."""
    key = str(record.id)
    started = to_epoch(record.started_at)
    ended = to_epoch(record.ended_at) if record.ended_at is not None else None
    row = conn.execute(
        select(breaks.c.user_id, breaks.c.ended_at).where(breaks.c.id == key)
    ).first()
    if row is None:
        conn.execute(
            insert(breaks).values(
                id=key,
                user_id=user.id,
                started_at=started,
                ended_at=ended,
                prompted=record.prompted,
            )
        )
    elif row.user_id != user.id:
        raise ApiError(409, "break_of_another_user", "This break id belongs to someone else.")
    elif ended is not None and row.ended_at is None:
        conn.execute(update(breaks).where(breaks.c.id == key).values(ended_at=ended))
    return record


@dataclass
class _Reviewer:
    username: str
    display_name: str
    # (decided_at, kinds, high harm)
    decided: list[tuple[float, frozenset[HarmKind], bool]] = field(default_factory=list)
    # (started_at, ended_at or None)
    breaks: list[tuple[float, float | None]] = field(default_factory=list)


def shift_start(times: Iterable[float], now: float, gap: float = SHIFT_GAP_SECONDS) -> float | None:
    """The start of the run of activity ``times`` that is still going at ``now`` (None when
    the newest is ``gap`` or more ago)."""
    ordered = sorted((t for t in times if t <= now), reverse=True)
    if not ordered or now - ordered[0] >= gap:
        return None
    start = ordered[0]
    for t in ordered[1:]:
        if start - t >= gap:
            break
        start = t
    return start


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
            )
        )
    ):
        people[r.id] = _Reviewer(r.username, r.display_name)
    for d in conn.execute(
        select(
            decisions.c.user_id, decisions.c.queue_id, decisions.c.policies, decisions.c.decided_at
        ).where(decisions.c.decided_at >= week, decisions.c.decided_at <= now)
    ):
        person = people.get(d.user_id)
        config = configs.get(d.queue_id)
        if person is None:
            continue
        if config is None:
            person.decided.append((d.decided_at, frozenset(), False))
            continue
        kinds = harm_of(config, json.loads(d.policies or "[]"))
        person.decided.append((d.decided_at, kinds, is_high_harm(config, kinds)))
    for b in conn.execute(
        select(breaks.c.user_id, breaks.c.started_at, breaks.c.ended_at).where(
            breaks.c.started_at >= week, breaks.c.started_at <= now
        )
    ):
        if b.user_id in people:
            people[b.user_id].breaks.append((b.started_at, b.ended_at))
    return sorted((_figures(p, now) for p in people.values()), key=lambda e: e.reviewer)


def _figures(person: _Reviewer, now: float) -> ReviewerExposure:
    times = [t for t, _, _ in person.decided]
    for started, ended in person.breaks:
        times.append(started)
        if ended is not None:
            times.append(min(ended, now))
    start = shift_start(times, now)
    shift: Counter[HarmKind] = Counter()
    week: Counter[HarmKind] = Counter()
    shift_items = high = 0
    for at, kinds, high_harm in person.decided:
        week.update(kinds)
        if start is not None and at >= start:
            shift.update(kinds)
            shift_items += 1
            high += high_harm
    shift_breaks = [(s, e) for s, e in person.breaks if start is not None and s >= start]
    minutes = sum(min(e if e is not None else now, now) - s for s, e in shift_breaks) / 60
    return ReviewerExposure(
        reviewer=person.username,
        display_name=person.display_name,
        shift_started_at=to_dt(start) if start is not None else None,
        shift_items=shift_items,
        week_items=len(person.decided),
        high_harm_shift=high,
        harm=[
            HarmCount(kind=kind, shift=shift[kind], week=week[kind])
            for kind in HarmKind
            if week[kind]
        ],
        breaks_shift=len(shift_breaks),
        breaks_week=len(person.breaks),
        break_minutes_shift=round(minutes),
    )
