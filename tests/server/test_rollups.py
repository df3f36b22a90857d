"""The lead figures' rollups are kept off the request path (server/domain/rollups.py): a verdict
writes no rollup row; the roller counts decisions from the sealed event log afterwards,
one round at a time across processes; figures read what it has not counted yet raw, in
the same snapshot, so they are exact at any moment.

- Figures are exact with nothing rolled, with decisions sealed but not rolled, and after
  rolling; rolling counts each decision once (rollup sums equal the decisions).
- A decision committed after a later one was sealed and rolled (PostgreSQL, two open
  transactions): counted in the figures the moment it commits, and rolled once, later; a
  roller on ``decisions.id > last`` would have skipped it for ever.
- Rollers of two services on one database, rolling while decisions pour in: every
  decision counted exactly once.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import event, func, insert, select

from reviewer_app.protocol import (
    EventKind,
    LeaseClaim,
    Role,
    SessionCreate,
    StatsBucket,
    UserCreate,
    Verdict,
)
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.records import Principal, append_events, event_row
from reviewer_app.server.domain.rollups import LOCK_KEY
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import decisions, queue_hourly, reviewer_rollups, users
from tests.support.clock import ManualClock

QUEUE = LOAD_QUEUE.id
START = 1_764_000_000.0 + 1_234.5  # mid-hour: windows have whole hours and raw edges
PASSWORD = "rollup-test-password"


def _service(url: str, clock: ManualClock | None = None) -> Service:
    settings = ServerSettings(database_url=url, password_hash_profile="fast")
    service = Service(settings, clock=clock) if clock else Service(settings)
    service.start()
    return service


def _reviewer(service: Service, name: str) -> Principal:
    service.create_user(UserCreate(username=name, password=PASSWORD, role=Role.reviewer))
    session = service.login(SessionCreate(username=name, password=PASSWORD))
    found = service.authenticate(session.token)
    assert found is not None
    return found


def _decide(service: Service, user: Principal, count: int, action: str = "keep") -> None:
    grant = service.claim(user, QUEUE, LeaseClaim(count=count))
    batch = [
        Verdict(
            idempotency_key=uuid.uuid4(),
            item_id=e.item.id,
            lease_token=e.lease_token,
            action=action,
            policies=["SPAM.SCAM"] if action == "remove" else [],
            time_spent_ms=2_000 + 500 * n,
            decided_at=datetime.fromtimestamp(service.clock(), UTC),
        )
        for n, e in enumerate(grant.items)
    ]
    results = service.verdicts(user, batch).results
    assert [r.status.value for r in results] == ["accepted"] * len(batch), results


def _rolled(service: Service) -> tuple[int, int]:
    """Decisions in the queue rollup and in the reviewer rollup (hour rows)."""
    with service.db.read() as conn:
        by_queue = conn.execute(select(func.coalesce(func.sum(queue_hourly.c.n), 0))).scalar_one()
        by_reviewer = conn.execute(
            select(func.coalesce(func.sum(reviewer_rollups.c.n), 0)).where(
                reviewer_rollups.c.span == 3_600
            )
        ).scalar_one()
    return int(by_queue), int(by_reviewer)


def _expected(service: Service, since: float, until: float) -> tuple[Counter[str], dict[int, int]]:
    """The action mix and each reviewer's decisions in the window, from the decisions."""
    with service.db.read() as conn:
        rows = conn.execute(
            select(decisions.c.action, decisions.c.user_id).where(
                decisions.c.decided_at >= since,
                decisions.c.decided_at < until,
                decisions.c.kind == "review",
            )
        ).all()
    per_user: Counter[int] = Counter(r.user_id for r in rows)
    return Counter(r.action for r in rows), dict(per_user)


def _figures(service: Service, since: float, until: float) -> tuple[Counter[str], dict[int, int]]:
    report = service.queue_stats(since, until, StatsBucket.hour, QUEUE)
    (queue,) = report.queues
    assert queue.decided == sum(p.decided for p in queue.decided_series)
    mix = Counter({m.action: m.count for m in queue.action_mix})
    reviewers = service.reviewer_stats(since, until).reviewers
    with service.db.read() as conn:
        ids = dict(conn.execute(select(users.c.username, users.c.id)).all())
    return mix, {ids[r.reviewer]: r.decisions for r in reviewers if r.decisions}


def _windows(until: float) -> list[tuple[float, float]]:
    return [
        (START - 3_600, until + 3_600),  # whole hours and a day's edge
        (START + 100, until - 100),
        (START - 86_400 * 2, until + 60),  # whole days too
        (START + 1_800, START + 9_000),
    ]


def _check(service: Service, until: float) -> None:
    for since, end in _windows(until):
        assert _figures(service, since, end) == _expected(service, since, end), (since, end)


def test_figures_are_exact_before_during_and_after_rolling(database_url: str) -> None:
    clock = ManualClock(START)
    service = _service(database_url, clock)  # no app: the roller's thread does not run
    try:
        seed_load_queue(service, 80)
        ana, ben = _reviewer(service, "ana"), _reviewer(service, "ben")
        for hour in range(6):
            _decide(service, ana, 3, "keep" if hour % 2 else "remove")
            _decide(service, ben, 2)
            clock.advance(3_000)
        assert _rolled(service) == (0, 0), "a verdict writes no rollup row"
        _check(service, clock.now)  # nothing rolled: all read raw

        assert service.roll_now() == 30
        assert _rolled(service) == (30, 30)
        _check(service, clock.now)

        # sealed but not rolled, then some not even sealed
        _decide(service, ana, 4)
        service.seal_now()
        clock.advance(4_000)
        _decide(service, ben, 3, "remove")
        _check(service, clock.now + 1)
        assert service.roll_now() == 7
        assert service.roll_now() == 0
        assert _rolled(service) == (37, 37)
        _check(service, clock.now + 1)
    finally:
        service.close()


def _decision(conn: Any, item: str, user_id: int, at: float) -> int:
    decision_id = int(
        conn.execute(
            insert(decisions)
            .values(
                item_id=item,
                epoch=0,
                queue_id=QUEUE,
                user_id=user_id,
                author_id="author-1",
                action="keep",
                policies="[]",
                time_spent_ms=1_000,
                decided_at=at,
                client_decided_at=at,
            )
            .returning(decisions.c.id)
        ).scalar_one()
    )
    append_events(
        conn,
        [
            event_row(
                at,
                EventKind.decided,
                "ana",
                item_id=item,
                queue_id=QUEUE,
                decision_id=decision_id,
                action="keep",
                policies=[],
            )
        ],
    )
    return decision_id


def test_a_decision_committed_late_is_counted_once(pg_url: str) -> None:
    clock = ManualClock(START)
    service = _service(pg_url, clock)
    try:
        seed_load_queue(service, 1)
        ana = _reviewer(service, "ana")
        since, until = START - 3_600 * 3, START + 3_600 * 3
        at = START - 3_600  # in a whole hour of the window: rollups plus tail
        with service.db.engine.connect() as late:
            tx = late.begin()
            first = _decision(late, "late-item", ana.id, at)  # the smaller id
            with service.db.write() as conn:
                second = _decision(conn, "early-item", ana.id, at)
            assert first < second
            service.seal_now()
            assert service.roll_now() == 1  # the committed one
            assert _figures(service, since, until)[0] == Counter(keep=1)
            tx.commit()
        # committed now, after a later id was sealed and rolled: counted at once (raw) ...
        assert _figures(service, since, until)[0] == Counter(keep=2)
        assert _rolled(service) == (1, 1)
        # ... and rolled once when it is sealed
        service.seal_now()
        assert service.roll_now() == 1
        assert _rolled(service) == (2, 2)
        assert _figures(service, since, until)[0] == Counter(keep=2)
    finally:
        service.close()


def test_rollers_of_two_services_count_every_decision_once(database_url: str) -> None:
    one, two = _service(database_url), _service(database_url)
    try:
        seed_load_queue(one, 1)
        ana = _reviewer(one, "ana")
        stop = threading.Event()
        failures: list[BaseException] = []

        def roll(service: Service) -> None:
            try:
                while not stop.is_set():
                    service.seal_now()
                    service.roller.round()
            except BaseException as exc:  # reported by the test's thread
                failures.append(exc)

        rollers = [threading.Thread(target=roll, args=(s,)) for s in (one, two, one)]
        for thread in rollers:
            thread.start()
        made = 0
        for n in range(60):
            with one.db.write() as conn:
                for k in range(5):
                    _decision(conn, f"item-{n}-{k}", ana.id, START + n)
                    made += 1
        stop.set()
        for thread in rollers:
            thread.join(timeout=60)
        assert not failures, failures
        two.roll_now()
        assert _rolled(one) == (made, made)
        with one.db.read() as conn:
            data = conn.execute(select(func.count()).select_from(decisions)).scalar_one()
        assert data == made
        assert _figures(one, START - 7_200, START + 7_200)[0] == Counter(keep=made)
    finally:
        one.close()
        two.close()


def test_a_roller_that_does_not_get_the_lock_reads_nothing(pg_url: str) -> None:
    """With several API processes, only the one holding the advisory lock reads the
    entries and decisions to count: the others' rounds are one statement (the try for
    the lock). When every roller read first, each process did the whole round's reading
    for nothing but one, work that grew with the processes."""
    service = _service(pg_url)
    try:
        seed_load_queue(service, 1)
        ana = _reviewer(service, "ana")
        with service.db.write() as conn:
            for n in range(20):
                _decision(conn, f"item-{n}", ana.id, START + n)
        service.seal_now()
        statements: list[str] = []

        def count(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            statements.append(statement)

        with service.db.engine.connect() as other:  # another process's round, under way
            other.execute(select(func.pg_advisory_lock(LOCK_KEY)))
            event.listen(service.db.engine, "before_cursor_execute", count)
            try:
                assert service.roller.round().busy
            finally:
                event.remove(service.db.engine, "before_cursor_execute", count)
            other.execute(select(func.pg_advisory_unlock(LOCK_KEY)))
        assert len(statements) == 1 and "pg_try_advisory_xact_lock" in statements[0], statements
        assert _rolled(service) == (0, 0)
        assert service.roller.round().decisions == 20
        assert _rolled(service) == (20, 20)
    finally:
        service.close()
