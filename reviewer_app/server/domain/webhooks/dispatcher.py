"""The dispatcher: a thread that finds endpoints with actions due, workers that deliver each
under a lease on its state row, in seq order (by lane), and record what became of it."""

from __future__ import annotations

import os
import queue
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

import urllib3
from sqlalchemy import Connection, and_, select, update

from reviewer_app import __version__
from reviewer_app.protocol.webhooks import WebhookStatus, webhook_id
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import enforcement_feed
from reviewer_app.server.domain.webhook_endpoints import (
    backlog_query,
    dispatcher_disable,
    kinds_of,
    shown_url,
)
from reviewer_app.server.domain.webhooks.messages import (
    BATCH,
    COMMIT_EVERY_SECONDS,
    IDLE_HOLD_SECONDS,
    RETRY_SECONDS,
    Outcome,
    Run,
    due,
    full_jitter,
    hours,
    lane_key,
    log,
    message_body,
    newest,
    pool,
    post,
    signature,
)
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.tables import enforcement_actions, webhook_endpoints, webhook_state


class Dispatcher:
    """The webhook dispatcher of one process (see the module's text)."""

    def __init__(self, db: Database, settings: ServerSettings, clock: Callable[[], float]) -> None:
        self.db = db
        self.clock = clock
        self.workers = max(0, settings.webhook_workers)
        self.timeout = settings.webhook_timeout_seconds
        self.backoff_base = settings.webhook_backoff_base_seconds
        self.backoff_max = settings.webhook_backoff_max_seconds
        self.retry_window = settings.webhook_retry_window_seconds
        self.failing_after = max(1, settings.webhook_failing_after)
        self.poll = settings.webhook_poll_seconds
        self.lanes = max(1, settings.webhook_lanes)
        self.proxy = settings.webhook_proxy
        # an attempt ends by the timeout (a deadline, messages.post): the lease must outlast
        # it, with room to spare on a busy machine, before each message is sent
        self.send_budget = 2 * self.timeout + 1.0
        self.lease_seconds = max(settings.webhook_lease_seconds, 2 * self.send_budget)
        self.owner = f"{socket.gethostname()[:64]}:{os.getpid()}:{os.urandom(4).hex()}"
        self._stopping = threading.Event()
        self._poked = threading.Event()
        self._jobs: queue.Queue[int | None] = queue.Queue()
        self._busy: set[int] = set()
        self._busy_lock = threading.Lock()
        self._scheduler: threading.Thread | None = None
        self._threads: list[threading.Thread] = []
        # told of every attempt (endpoint id, delivered): the app counts them on /metrics
        self.on_attempt: Callable[[int, bool], None] | None = None

    # -- the threads ----------------------------------------------------------------------

    def start(self) -> None:
        if self.workers == 0 or self._scheduler is not None:
            return
        self._stopping.clear()
        self._scheduler = threading.Thread(
            target=self._schedule_loop, name="webhook-scheduler", daemon=True
        )
        self._scheduler.start()

    def stop(self) -> None:
        """Stop after the requests under way (each ends within the timeout); leases are
        given back and cursors written."""
        scheduler, self._scheduler = self._scheduler, None
        if scheduler is None:
            return
        self._stopping.set()
        self._poked.set()
        scheduler.join(timeout=10)
        threads, self._threads = self._threads, []
        for _ in threads:
            self._jobs.put(None)
        for thread in threads:
            thread.join(timeout=2 * self.timeout + 5)

    @property
    def running(self) -> bool:
        return self._scheduler is not None

    def poke(self) -> None:
        """Look for work now (actions were sealed, an endpoint was changed)."""
        self._poked.set()

    def _schedule_loop(self) -> None:
        while not self._stopping.is_set():
            self._poked.wait(self.poll)
            self._poked.clear()
            if self._stopping.is_set():
                return
            try:
                self.schedule()
            except Exception:
                log.warning("looking for webhooks to deliver failed; trying again", exc_info=True)
                self._stopping.wait(RETRY_SECONDS)

    def schedule(self) -> int:
        """Take the lease of each endpoint that has work due and no dispatcher, and hand
        it to a worker thread; how many were taken."""
        now = self.clock()
        with self._busy_lock:
            free = self.workers - len(self._busy)
            busy = set(self._busy)
        if free <= 0:
            return 0
        with self.db.read() as conn:
            candidates = [r for r in due(conn, now, self.owner) if r.id not in busy][:free]
        taken = 0
        for row in candidates:
            if not self._take(row.id, now):
                continue
            with self._busy_lock:
                self._busy.add(row.id)
                if len(self._threads) < min(self.workers, len(self._busy)):
                    thread = threading.Thread(
                        target=self._work_loop,
                        name=f"webhook-worker-{len(self._threads) + 1}",
                        daemon=True,
                    )
                    self._threads.append(thread)
                    thread.start()
            self._jobs.put(row.id)
            taken += 1
        return taken

    def _work_loop(self) -> None:
        # made inside the try (and again after a failure): a pool that cannot be made (a
        # bad proxy) fails that delivery, logged, and the thread goes on with the next
        session: urllib3.PoolManager | None = None
        try:
            while True:
                endpoint_id = self._jobs.get()
                if endpoint_id is None:
                    return
                try:
                    if session is None:
                        session = pool(self.proxy, self.timeout, self.lanes)
                    self.deliver(endpoint_id, session)
                except Exception:
                    log.warning("delivering to webhook %d failed", endpoint_id, exc_info=True)
                    if session is not None:
                        session.clear()
                        session = None
                    try:
                        self._release(endpoint_id)
                    except Exception:
                        log.warning("giving back webhook %d's lease failed", endpoint_id)
                finally:
                    with self._busy_lock:
                        self._busy.discard(endpoint_id)
        finally:
            if session is not None:
                session.clear()

    # -- the lease ------------------------------------------------------------------------

    def _take(self, endpoint_id: int, now: float) -> bool:
        ws = webhook_state.c
        with self.db.write() as conn:
            taken = conn.execute(
                update(webhook_state)
                .where(
                    ws.endpoint_id == endpoint_id,
                    (ws.lease_owner.is_(None))
                    | (ws.lease_until < now)
                    | (ws.lease_owner == self.owner),
                )
                .values(lease_owner=self.owner, lease_until=now + self.lease_seconds)
            ).rowcount
        return bool(taken)

    def _release(self, endpoint_id: int) -> None:
        ws = webhook_state.c
        with self.db.write() as conn:
            conn.execute(
                update(webhook_state)
                .where(ws.endpoint_id == endpoint_id, ws.lease_owner == self.owner)
                .values(lease_owner=None, lease_until=None)
            )

    def _held(self, run: Run) -> Any:
        """The condition under which this dispatcher may write the endpoint's state."""
        ws = webhook_state.c
        return and_(
            ws.endpoint_id == run.endpoint_id,
            ws.lease_owner == self.owner,
            ws.version == run.version,
        )

    # -- delivering -----------------------------------------------------------------------

    def deliver(self, endpoint_id: int, session: urllib3.PoolManager) -> None:
        """Deliver to one endpoint whose lease this dispatcher holds, until it has nothing
        more to send (after ``IDLE_HOLD_SECONDS``), an attempt fails, the process stops, or
        the lease is lost; the lease is given back at the end."""
        idle_since: float | None = None
        try:
            while not self._stopping.is_set():
                with self.db.read() as conn:
                    run = self._read(conn, endpoint_id)
                    if run is None:
                        return
                    # the account's newest seq, read before the actions: when none after
                    # the cursor is of the kinds the endpoint takes, they need no message
                    # and the cursor may pass them. Read after, it could name an action
                    # sealed between the two statements (PostgreSQL reads each statement's
                    # own snapshot) that the first did not see: passed, never sent.
                    head = newest(conn, run.source) if run.kinds else 0
                    rows = self._next_actions(conn, run)
                    passed = head if not rows else 0
                if passed > run.delivered:
                    if not self._pass(run, passed):
                        return
                    continue
                if not rows:
                    now = time.monotonic()
                    idle_since = idle_since if idle_since is not None else now
                    if now - idle_since >= IDLE_HOLD_SECONDS:
                        return
                    halfway = run.lease_until - self.lease_seconds / 2
                    if self.clock() >= halfway and not self._renew(run):
                        return
                    self._stopping.wait(self.poll)
                    continue
                idle_since = None
                if not self._send_run(run, rows, session):
                    # read again: the lease lost or a failure recorded end it there; an
                    # operator's change (a new secret, a replay) is taken up
                    continue
        except Exception as exc:
            self._back_off(endpoint_id, exc)
            raise
        finally:
            self._release(endpoint_id)

    def _back_off(self, endpoint_id: int, exc: Exception) -> None:
        """Delivering failed in this process, not at the receiver (a bug, the database):
        the next attempt is put off as after a failed one, so a fault that comes back at
        every try costs a try per backoff, not a loop at full speed; and it is said in the
        endpoint's health: after ``failing_after`` of them in a row the endpoint is
        ``failing``, as after failed attempts (nothing reaches the platform either way)."""
        ws = webhook_state.c
        now = self.clock()
        held = and_(ws.endpoint_id == endpoint_id, ws.lease_owner == self.owner)
        try:
            with self.db.write() as conn:
                failures = conn.execute(select(ws.consecutive_failures).where(held)).scalar()
                if failures is None:
                    return
                failures += 1
                delay = max(
                    self.backoff_base, full_jitter(failures, self.backoff_base, self.backoff_max)
                )
                conn.execute(
                    update(webhook_state)
                    .where(held)
                    .values(
                        consecutive_failures=failures,
                        last_error=f"the service failed delivering ({type(exc).__name__})",
                        last_attempt_at=now,
                        next_attempt_at=now + delay,
                    )
                )
                marked = (
                    failures >= self.failing_after
                    and conn.execute(
                        update(webhook_endpoints)
                        .where(
                            webhook_endpoints.c.id == endpoint_id,
                            webhook_endpoints.c.status == WebhookStatus.active.value,
                        )
                        .values(status=WebhookStatus.failing.value)
                    ).rowcount
                )
            if marked:
                log.warning(
                    "webhook %d is failing: %d failed attempts in a row, the last in the "
                    "service itself (%s)",
                    endpoint_id,
                    failures,
                    type(exc).__name__,
                )
        except Exception:
            log.warning("putting off webhook %d's next attempt failed", endpoint_id)

    def _read(self, conn: Connection, endpoint_id: int) -> Run | None:
        """The endpoint under this dispatcher's lease, None when it is not to be delivered
        now (lease lost, disabled, next attempt not due)."""
        now = self.clock()
        row = (
            conn.execute(
                select(webhook_endpoints, webhook_state)
                .join(webhook_state, webhook_state.c.endpoint_id == webhook_endpoints.c.id)
                .where(webhook_endpoints.c.id == endpoint_id)
            )
            .mappings()
            .first()
        )
        if (
            row is None
            or row["lease_owner"] != self.owner
            or row["status"] == WebhookStatus.disabled.value
            or row["next_attempt_at"] > now
        ):
            return None
        return Run(
            endpoint_id=endpoint_id,
            url=row["url"],
            source=row["source"],
            kinds=kinds_of(row["event_kinds"]),
            status=row["status"],
            secret=row["secret"],
            previous_secret=row["previous_secret"],
            previous_secret_until=row["previous_secret_until"],
            version=row["version"],
            delivered=row["delivered_seq"],
            message_seq=row["message_seq"],
            attempts=row["attempts"],
            first_failure_at=row["first_failure_at"],
            consecutive_failures=row["consecutive_failures"],
            next_attempt_at=row["next_attempt_at"],
            lease_until=row["lease_until"] or 0.0,
        )

    def _next_actions(self, conn: Connection, run: Run) -> list[Any]:
        return list(
            conn.execute(
                select(*enforcement_feed.COLUMNS)
                .where(backlog_query(run.source, run.delivered, run.kinds))
                .order_by(enforcement_actions.c.seq)
                .limit(BATCH)
            )
            .mappings()
            .all()
        )

    def _send_run(self, run: Run, rows: Sequence[Any], session: urllib3.PoolManager) -> bool:
        """Send ``rows`` in order; True when all were acknowledged and the cursor written."""
        if self.lanes > 1 and len(rows) > 1:
            return self._send_lanes(run, rows, session)
        acked_seq, acked = run.delivered, 0
        last_write = time.monotonic()
        for row in rows:
            if self._stopping.is_set():
                break
            # never send unless the lease outlasts the request: renew first when it might not
            if self.clock() + self.send_budget >= run.lease_until and not self._renew(run):
                return False
            outcome = self._attempt(session, run, row)
            if self.on_attempt is not None:
                self.on_attempt(run.endpoint_id, outcome.ok)
            if not outcome.ok:
                if acked and not self._advance(run, acked_seq, acked):
                    return False
                self._failed(run, row, outcome)
                return False
            acked_seq, acked = int(row["seq"]), acked + 1
            recovering = run.attempts > 0 or run.status != WebhookStatus.active.value
            if recovering or time.monotonic() - last_write >= COMMIT_EVERY_SECONDS:
                if not self._advance(run, acked_seq, acked):
                    return False
                acked, last_write = 0, time.monotonic()
        if acked and not self._advance(run, acked_seq, acked):
            return False
        return not self._stopping.is_set()

    def _send_lanes(self, run: Run, rows: Sequence[Any], session: urllib3.PoolManager) -> bool:
        """Send ``rows`` on up to ``lanes`` connections at once: each author's actions in
        seq order on one lane, the next only after the one before was acknowledged, and a
        lane stops at its first failure. The cursor then moves past the acknowledged
        prefix (in seq order); what other lanes acknowledged after the first failure is
        sent again with it later (at least once: receivers de-duplicate by id), so an
        author's actions never arrive out of their order, across rounds too."""
        lanes: dict[int, list[Any]] = {}
        for row in rows:
            lanes.setdefault(hash(lane_key(row)) % self.lanes, []).append(row)
        outcomes: dict[int, Outcome] = {}  # by seq: what was attempted
        lease = threading.Lock()
        lost = threading.Event()
        checked = [time.monotonic()]

        def send_lane(lane: list[Any]) -> None:
            for row in lane:
                if self._stopping.is_set() or lost.is_set():
                    return
                # never send unless the lease outlasts the request; renewed (which fails
                # after an operator's change, a rotation say) as often as a cursor is written
                with lease:
                    if (
                        self.clock() + self.send_budget >= run.lease_until
                        or time.monotonic() - checked[0] >= COMMIT_EVERY_SECONDS
                    ):
                        if not self._renew(run):
                            lost.set()
                            return
                        checked[0] = time.monotonic()
                outcome = self._attempt(session, run, row)
                outcomes[int(row["seq"])] = outcome
                if self.on_attempt is not None:
                    self.on_attempt(run.endpoint_id, outcome.ok)
                if not outcome.ok:
                    return

        threads = [
            threading.Thread(target=send_lane, args=(lane,), name="webhook-lane", daemon=True)
            for lane in lanes.values()
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if lost.is_set():
            return False
        acked_seq, acked = run.delivered, 0
        for row in rows:  # the acknowledged prefix, in seq order
            outcome = outcomes.get(int(row["seq"]))
            if outcome is None or not outcome.ok:
                if acked and not self._advance(run, acked_seq, acked):
                    return False
                if outcome is not None:
                    self._failed(run, row, outcome)
                return False
            acked_seq, acked = int(row["seq"]), acked + 1
        if acked and not self._advance(run, acked_seq, acked):
            return False
        return not self._stopping.is_set()

    def _attempt(self, session: urllib3.PoolManager, run: Run, row: Any) -> Outcome:
        body = message_body(row)
        msg_id = webhook_id(int(row["id"]))
        now = self.clock()
        timestamp = int(now)
        headers = {
            "content-type": "application/json",
            "user-agent": f"reviewer-app-webhooks/{__version__}",
            "webhook-id": msg_id,
            "webhook-timestamp": str(timestamp),
            # the secrets of this moment: a grace period that ended mid-run signs no more
            "webhook-signature": signature(run.secrets(now), msg_id, timestamp, body),
        }
        return post(session, run.url, body, headers, self.timeout, self.clock)

    def _advance(self, run: Run, seq: int, count: int) -> bool:
        """Write the cursor past acknowledged actions (renewing the lease); False when the
        lease or the version was lost meanwhile."""
        now = self.clock()
        with self.db.write() as conn:
            moved = conn.execute(
                update(webhook_state)
                .where(self._held(run))
                .values(
                    delivered_seq=seq,
                    delivered_total=webhook_state.c.delivered_total + count,
                    last_success_at=now,
                    last_attempt_at=now,
                    consecutive_failures=0,
                    attempts=0,
                    message_seq=None,
                    first_failure_at=None,
                    lease_until=now + self.lease_seconds,
                )
            ).rowcount
            if moved and run.status != WebhookStatus.active.value:
                conn.execute(
                    update(webhook_endpoints)
                    .where(
                        webhook_endpoints.c.id == run.endpoint_id,
                        webhook_endpoints.c.status == WebhookStatus.failing.value,
                    )
                    .values(status=WebhookStatus.active.value)
                )
        if not moved:
            return False
        run.lease_until = now + self.lease_seconds
        if run.status == WebhookStatus.failing.value:
            log.info("webhook %d (%s) delivers again", run.endpoint_id, shown_url(run.url))
        run.delivered, run.attempts, run.message_seq = seq, 0, None
        run.first_failure_at, run.consecutive_failures = None, 0
        run.status = WebhookStatus.active.value
        return True

    def _pass(self, run: Run, seq: int) -> bool:
        """Move the cursor over actions of kinds the endpoint does not take."""
        with self.db.write() as conn:
            moved = conn.execute(
                update(webhook_state).where(self._held(run)).values(delivered_seq=seq)
            ).rowcount
        if moved:
            run.delivered = seq
        return bool(moved)

    def _renew(self, run: Run) -> bool:
        now = self.clock()
        with self.db.write() as conn:
            renewed = conn.execute(
                update(webhook_state)
                .where(self._held(run))
                .values(lease_until=now + self.lease_seconds)
            ).rowcount
        if renewed:
            run.lease_until = now + self.lease_seconds
        return bool(renewed)

    def _failed(self, run: Run, row: Any, outcome: Outcome) -> None:
        """Record a failed attempt of ``row``: when to try again (and give the lease back),
        or disable the endpoint (410; the retry window spent)."""
        now = self.clock()
        seq = int(row["seq"])
        msg_id = webhook_id(int(row["id"]))
        same = run.message_seq == seq
        attempts = run.attempts + 1 if same else 1
        first = run.first_failure_at if same and run.first_failure_at is not None else now
        failures = run.consecutive_failures + 1
        error = outcome.error or "failed"
        if outcome.gone:
            self._give_up(run, f"the receiver answered 410 Gone to {msg_id}", now)
            return
        if now - first >= self.retry_window:
            self._give_up(
                run,
                f"{msg_id} failed for {hours(now - first)} ({attempts} attempts; last: {error})",
                now,
            )
            return
        if outcome.retry_after is not None:
            delay = outcome.retry_after
        else:
            delay = full_jitter(attempts, self.backoff_base, self.backoff_max)
        next_at = min(now + delay, first + self.retry_window)
        failing = failures >= self.failing_after or outcome.needs_a_person
        with self.db.write() as conn:
            written = conn.execute(
                update(webhook_state)
                .where(self._held(run))
                .values(
                    message_seq=seq,
                    attempts=attempts,
                    first_failure_at=first,
                    consecutive_failures=failures,
                    last_error=f"{msg_id}: {error}"[:2_000],
                    last_attempt_at=now,
                    next_attempt_at=next_at,
                    lease_owner=None,
                    lease_until=None,
                )
            ).rowcount
            if written and failing:
                conn.execute(
                    update(webhook_endpoints)
                    .where(
                        webhook_endpoints.c.id == run.endpoint_id,
                        webhook_endpoints.c.status == WebhookStatus.active.value,
                    )
                    .values(status=WebhookStatus.failing.value)
                )
        if written and failing and run.status == WebhookStatus.active.value:
            log.warning(
                "webhook %d (%s) is failing: %s; retried in %.1f s",
                run.endpoint_id,
                shown_url(run.url),
                error,
                next_at - now,
            )

    def _give_up(self, run: Run, reason: str, now: float) -> None:
        with self.db.write() as conn:
            done = dispatcher_disable(conn, run.endpoint_id, run.version, self.owner, reason, now)
        if done:
            log.warning("webhook %d (%s) disabled: %s", run.endpoint_id, shown_url(run.url), reason)
