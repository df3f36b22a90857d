"""The quality signals' and exposure figures' rollup (``decision_mix_rollups``, kept by the
roller like the others: server/rollups.py) answers exactly what the decisions do.

- ``mix_counts`` over windows with whole days, whole hours and raw edges, for every kind
  (an auditor's overturn included, from its ``overturned`` entry) and for the throughput
  kinds, for everyone and for one reviewer: equal to a count of the decisions, with
  nothing rolled, sealed but not rolled, not even sealed, and rolled.
- The quality signals and the exposure figures are the same before and after rolling.
- What the roller wrote equals a recount (``rollups.rebuild``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from sqlalchemy import insert, select

from reviewer_app.protocol import EventKind, QualityThresholds, Role, UserCreate
from reviewer_app.server.domain import mix_rollups, rollups
from reviewer_app.server.domain.records import append_events, event_row
from reviewer_app.server.feeds.seed import seed_load_queue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import decision_mix_rollups, decisions
from tests.server.test_rollups import (
    PASSWORD,
    QUEUE,
    START,
    _decide,
    _decision,
    _reviewer,
    _service,
)
from tests.support.clock import ManualClock

BY = ("user_id", "queue_id", "kind", "action", "policies")


def _overturn(service: Service, lead_id: int, at: float) -> None:
    """An auditor's correcting decision and its ``overturned`` entry (as audits.py writes)."""
    with service.db.write() as conn:
        decision_id = conn.execute(
            insert(decisions)
            .values(
                item_id="overturned-item",
                epoch=1,
                queue_id=QUEUE,
                user_id=lead_id,
                author_id="author-1",
                action="remove",
                policies='["SPAM.SCAM"]',
                time_spent_ms=9_000,
                decided_at=at,
                client_decided_at=at,
                kind="overturn",
            )
            .returning(decisions.c.id)
        ).scalar_one()
        append_events(
            conn,
            [
                event_row(
                    at,
                    EventKind.overturned,
                    "lou",
                    item_id="overturned-item",
                    queue_id=QUEUE,
                    decision_id=int(decision_id),
                    action="remove",
                    policies=["SPAM.SCAM"],
                )
            ],
        )


def _windows(until: float) -> list[tuple[float, float]]:
    return [
        (START - 3_600, until + 3_600),  # whole hours and a day's edge
        (START + 100, until - 100),
        (START - 86_400 * 2, until + 60),  # whole days too
        (START + 1_800, START + 9_000),
        (START + 10, START + 20),  # raw only
    ]


def _check_mix(service: Service, until: float, user_ids: list[int]) -> None:
    for since, end in _windows(until):
        for kinds in (None, rollups.COUNTED_KINDS):
            for user_id in (None, *user_ids):
                with service.db.snapshot() as conn:
                    found = mix_rollups.mix_counts(
                        conn, since, end, BY, kinds=kinds, user_id=user_id
                    )
                    rows = conn.execute(
                        select(*(decisions.c[name] for name in BY)).where(
                            decisions.c.decided_at >= since, decisions.c.decided_at < end
                        )
                    ).all()
                expected = Counter(
                    tuple(r)
                    for r in rows
                    if (kinds is None or r.kind in kinds) and user_id in (None, r.user_id)
                )
                assert found == expected, (since, end, kinds, user_id)
        # a window per user, all ending at ``end`` (the exposure figures' shifts)
        with service.db.snapshot() as conn:
            rows = conn.execute(
                select(decisions.c.decided_at, *(decisions.c[name] for name in BY))
            ).all()
            # from a decision of theirs on (as a shift starts), or between two
            starts = {
                u: min(
                    (r[0] for r in rows if r.user_id == u and r[0] >= since + 1_700 * n),
                    default=since,
                )
                - (0.5 if n == 1 else 0)
                for n, u in enumerate(user_ids)
            }
            per_user = mix_rollups.mix_counts_per_user(conn, starts, end, BY[1:])
        assert per_user == {
            u: Counter(tuple(r[2:]) for r in rows if r.user_id == u and s <= r[0] < end)
            for u, s in starts.items()
        }, (since, end)


def _lead_figures(service: Service, until: float) -> list[Any]:
    thresholds = QualityThresholds(min_decisions=1, max_mix_distance=0.1, min_median_ms=60_000)
    figures: list[Any] = [service.exposure().reviewers]
    for since, end in _windows(until):
        figures.append(service.quality(since, end, thresholds).reviewers)
    return figures


def _mix_rows(service: Service) -> list[tuple[Any, ...]]:
    with service.db.read() as conn:
        return sorted(tuple(r) for r in conn.execute(select(decision_mix_rollups)))


def test_mix_rollups_count_every_kind_and_figures_stay_exact(database_url: str) -> None:
    clock = ManualClock(START)
    service = _service(database_url, clock)  # no app: the roller's thread does not run
    try:
        seed_load_queue(service, 80)
        ana, ben = _reviewer(service, "ana"), _reviewer(service, "ben")
        lead = service.create_user(UserCreate(username="lou", password=PASSWORD, role=Role.lead))
        for hour in range(6):
            _decide(service, ana, 3, "keep" if hour % 2 else "remove")
            _decide(service, ben, 2)
            clock.advance(3_000)
        _overturn(service, lead.id, clock.now - 5_000)
        users = [ana.id, ben.id, lead.id]
        assert _mix_rows(service) == [], "a verdict writes no rollup row"
        figures = _lead_figures(service, clock.now)
        assert figures[0] and any(figures[1:])
        _check_mix(service, clock.now, users)  # nothing rolled: all read raw

        assert service.roll_now() == 31  # the overturn too
        assert sum(r[-1] for r in _mix_rows(service)) == 2 * 31  # by hour and by day
        assert _lead_figures(service, clock.now) == figures
        _check_mix(service, clock.now, users)

        # sealed but not rolled, then some not even sealed
        _decide(service, ana, 4)
        service.seal_now()
        clock.advance(4_000)
        _decide(service, ben, 3, "remove")
        figures = _lead_figures(service, clock.now + 1)
        _check_mix(service, clock.now + 1, users)
        assert service.roll_now() == 7
        assert _lead_figures(service, clock.now + 1) == figures
        _check_mix(service, clock.now + 1, users)

        rolled = _mix_rows(service)
        with service.db.write() as conn:
            rollups.rebuild(conn)
        assert _mix_rows(service) == rolled
    finally:
        service.close()


def test_a_shift_starts_after_the_last_gap_of_four_hours_however_long_ago(
    database_url: str,
) -> None:
    """Looked for in the last day first, then the week (wellbeing.py): a shift going for
    60 hours, one that began at the day's edge, one in the last day, and one over."""
    hour = 3_600.0
    clock = ManualClock(START + 10 * 86_400)
    now = clock.now
    service = _service(database_url, clock)
    try:
        plans = {
            # a gap of 5 hours, then a decision every 3 hours for 60 hours
            "long": [now - 65 * hour, *(now - 60 * hour + 3 * hour * k for k in range(20))],
            # a gap of exactly 4 hours ending 24 hours ago, then every hour
            "edge": [now - 28 * hour, *(now - 24 * hour + hour * k for k in range(24))],
            # a gap of 10 hours, then a 6-hour shift
            "day": [now - 16 * hour, *(now - 6 * hour + hour * k for k in range(6))],
            # the last decision 4 hours ago: off shift
            "over": [now - 8 * hour, now - 4 * hour],
        }
        ids = {}
        for name, times in plans.items():
            ids[name] = service.create_user(
                UserCreate(username=name, password=PASSWORD, role=Role.reviewer)
            ).id
            with service.db.write() as conn:
                for n, at in enumerate(times):
                    _decision(conn, f"{name}-{n}", ids[name], at)
        found = {e.reviewer: e for e in service.exposure().reviewers}
        starts = {
            name: e.shift_started_at.timestamp() if e.shift_started_at else None
            for name, e in found.items()
        }
        assert starts == {
            "long": now - 60 * hour,
            "edge": now - 24 * hour,
            "day": now - 6 * hour,
            "over": None,
        }
        assert found["long"].shift_items == 20 and found["long"].week_items == 21
    finally:
        service.close()
