"""Prometheus metrics of the service (``GET /metrics``, text format).

Counted in each API process, as requests happen:

- ``reviewdesk_http_requests_total{method,route,status}`` and
  ``reviewdesk_http_request_duration_seconds{method,route,status}`` (a histogram): by
  route *template* (``/api/v1/items/{item_id}``), never the raw path; requests that match
  no route are ``<unmatched>``.
- ``reviewdesk_verdicts_total{status}``: verdict results (accepted, duplicate, conflict,
  rejected).
- ``reviewdesk_items_leased_total{queue}``: items handed out by claims.
- ``reviewdesk_rate_limited_requests_total``: requests refused by the per-caller limit.
- ``reviewdesk_api_processes``: API processes alive (each sets 1; summed).
- ``reviewdesk_db_statements_total``: SQL statements this process sent to the primary
  database through its engine (the capacity model's statements per decided item; the
  SQLite bulk paths that use the driver's ``executemany`` directly are not counted).
- ``reviewdesk_webhook_attempts_total{endpoint,outcome}``: webhook messages sent by this
  process's dispatcher, ``delivered`` (2xx) or ``failed``.

Read from the database when scraped (cached for ``GAUGE_TTL_SECONDS`` per process, so a
scrape storm costs at most one set of queries per process and period):

- ``reviewdesk_queue_items{queue,state}``: ``pending`` and ``leased``, counted as
  ``GET /queues`` counts them (an expired lease is pending again), and ``unservable``:
  items a claim could not serve, parked for an operator (claims.py).
- ``reviewdesk_leases{queue,state}``: ``live`` and ``expired`` (run out, not yet reclaimed).
- ``reviewdesk_queue_oldest_pending_age_seconds{queue}``.
- ``reviewdesk_lease_holders``: reviewers holding at least one live lease.
- ``reviewdesk_database_up``: 1 when those queries worked, 0 when they failed.
- ``reviewdesk_event_log_unsealed_entries`` and ``reviewdesk_event_log_sealing_lag_seconds``:
  events committed but not yet sealed into the hash chain by the sequencer, and the age of
  the oldest of them (0 when none); ``reviewdesk_event_log_sealed_entries``: the log's size.
  ``/readyz`` fails while the lag is over ``log_lag_limit_seconds``.
- ``reviewdesk_enforcement_unsealed_actions``, ``reviewdesk_enforcement_sealing_lag_seconds``
  and ``reviewdesk_enforcement_sealed_actions``: the same for the enforcement actions (the
  feed shows an action once it is sealed; enforcement.py).
- ``reviewdesk_rollups_behind_entries``: sealed log entries the lead figures' roller has
  not gone through yet (rollups.py; figures read the decisions among them raw).
- ``reviewdesk_webhook_backlog{endpoint,account}``: actions not yet acknowledged by the
  endpoint; ``reviewdesk_webhook_consecutive_failures{endpoint,account}``;
  ``reviewdesk_webhook_seconds_since_success{endpoint,account}`` (since it was added when it
  never succeeded); ``reviewdesk_webhook_status{endpoint,account,status}`` (1 for its status).
  The URL is no label (it may carry a token of the receiver's).

Several processes (``--workers N``): the CLI sets ``PROMETHEUS_MULTIPROC_DIR`` to a fresh
directory before the workers start (``metrics_directory``), prometheus_client keeps each
process's counters in a file there, and ``/metrics`` from any worker adds up all of them.
The directory's name carries the server's pid, so one left behind by a killed server is
removed when the next server starts. A worker that was killed (SIGKILL, OOM) never marks
itself dead: at each worker's start and each scrape the live gauges' files of pids that no
longer run are dropped (``drop_dead_processes``), so ``reviewdesk_api_processes`` and
``reviewdesk_background_leaders`` count live processes.
"""

from __future__ import annotations

import os
import re
import shutil
import stat
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from sqlalchemy import distinct, event, func, select

from reviewer_app.protocol.webhooks import WebhookStatus
from reviewer_app.server.domain import enforcement
from reviewer_app.server.domain.queues import open_item_counts
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import items

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
PREFIX = "reviewdesk"
GAUGE_TTL_SECONDS = 5.0
LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)
UNMATCHED = "<unmatched>"


def multiprocess_dir() -> str | None:
    """The directory of multi-process mode, when this process runs in it."""
    return os.environ.get(MULTIPROC_ENV) or None


_PID_FILE = re.compile(r"_(\d+)\.db$")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, someone else's
        return True
    return True


def drop_dead_processes(path: str) -> list[int]:
    """Mark dead (``multiprocess.mark_process_dead``) every pid with a file in the
    multi-process directory ``path`` that no longer runs; those pids."""
    try:
        names = os.listdir(path)
    except OSError:
        return []
    pids = {int(m.group(1)) for m in map(_PID_FILE.search, names) if m}
    dead = sorted(pid for pid in pids if pid != os.getpid() and not _alive(pid))
    for pid in dead:
        multiprocess.mark_process_dead(pid, path)
    return dead


#: the start of a multi-process directory's name; the creating server's pid follows
FOLDER_PREFIX = "reviewer-metrics-"
# mkdtemp's random part has no "-", so a name from before the pid was added never matches
_FOLDER_NAME = re.compile(rf"^{re.escape(FOLDER_PREFIX)}(\d+)-[^-]+$")


@contextmanager
def metrics_directory(parent: str | os.PathLike[str] | None = None) -> Iterator[Path]:
    """A fresh ``PROMETHEUS_MULTIPROC_DIR`` for the workers about to start (each keeps its
    counters in files there; ``/metrics`` in any of them adds them up), removed on exit.

    A server killed with SIGKILL never reaches the removal, so the folder is named for this
    process (``reviewer-metrics-<pid>-<random>``) and the ones left behind by servers that
    no longer run are removed first (``remove_stale_metrics_directories``). ``parent`` is
    where the folder goes: the system's temporary directory unless a test says otherwise.
    """
    where = Path(tempfile.gettempdir() if parent is None else parent)
    remove_stale_metrics_directories(where)
    folder = Path(tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-", dir=where))
    previous = os.environ.get(MULTIPROC_ENV)
    os.environ[MULTIPROC_ENV] = str(folder)
    try:
        yield folder
    finally:
        if previous is None:
            os.environ.pop(MULTIPROC_ENV, None)
        else:
            os.environ[MULTIPROC_ENV] = previous
        shutil.rmtree(folder, ignore_errors=True)


def remove_stale_metrics_directories(parent: Path) -> list[Path]:
    """Remove the multi-process directories in ``parent`` whose server no longer runs; the
    ones removed.

    Only a folder that is plainly ours and plainly abandoned goes: a real directory (not a
    link) owned by this user, named ``reviewer-metrics-<pid>-...`` for a pid that is not
    running. A live pid keeps its folder even when the pid was reused by another program:
    keeping a dead server's folder a while longer costs a little disk, removing a live
    server's would break its ``/metrics``. Names from before the pid was added
    (``reviewer-metrics-<random>``) are left alone: nothing says whether an older server
    still running uses one, and their number stopped growing with the upgrade. Another
    server starting at the same moment may remove the same folder, so failures are ignored.
    Off POSIX (no uids, and ``os.kill`` there ends the process) nothing is removed.
    """
    if not hasattr(os, "getuid"):
        return []
    try:
        names = os.listdir(parent)
    except OSError:
        return []
    removed: list[Path] = []
    for name in names:
        match = _FOLDER_NAME.match(name)
        if match is None or not _abandoned(int(match.group(1))):
            continue
        path = parent / name
        if _workers_alive(path):
            continue
        try:
            info = path.lstat()
        except OSError:
            continue  # already gone
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            continue
        shutil.rmtree(path, ignore_errors=True)
        if not path.exists():
            removed.append(path)
    return removed


def _workers_alive(path: Path) -> bool:
    """Whether a process that keeps its counters in ``path`` still runs: the workers of a
    server whose supervisor was killed outlive it (and keep its port), so the folder is
    theirs as long as one of them runs."""
    try:
        names = os.listdir(path)
    except OSError:
        return False
    pids = {int(m.group(1)) for m in map(_PID_FILE.search, names) if m}
    return any(not _abandoned(pid) for pid in pids)


def _abandoned(pid: int) -> bool:
    """Whether ``pid`` surely runs no process (a pid no system can have counts as running,
    so its folder is kept: the name did not come from ``metrics_directory``)."""
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        return not _alive(pid)
    except OverflowError:
        return False


class Metrics:
    """The service's metrics: one per app, on a registry of its own (no module globals,
    so tests may run several apps in one process)."""

    def __init__(self, service: Service) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.multiprocess = multiprocess_dir() is not None
        r = self.registry
        labels = ("method", "route", "status")
        self.requests = Counter(
            f"{PREFIX}_http_requests", "HTTP requests answered", labels, registry=r
        )
        self.latency = Histogram(
            f"{PREFIX}_http_request_duration_seconds",
            "Time from request to the end of the response",
            labels,
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.verdicts = Counter(
            f"{PREFIX}_verdicts", "Verdict results by status", ("status",), registry=r
        )
        self.leased = Counter(
            f"{PREFIX}_items_leased", "Items handed out by claims", ("queue",), registry=r
        )
        self.rate_limited = Counter(
            f"{PREFIX}_rate_limited_requests",
            "Requests refused by the per-caller rate limit",
            registry=r,
        )
        self.webhook_attempts = Counter(
            f"{PREFIX}_webhook_attempts",
            "Webhook deliveries tried, by endpoint and outcome (delivered, failed)",
            ("endpoint", "outcome"),
            registry=r,
        )
        self.processes = Gauge(
            f"{PREFIX}_api_processes",
            "API processes alive",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.leaders = Gauge(
            f"{PREFIX}_background_leaders",
            "API processes leading the background rounds (sealing the log, rollups): 1, "
            "or 0 for the moment between a leader's end and another's start",
            registry=r,
            multiprocess_mode="livesum",
        )
        self.statements = Counter(
            f"{PREFIX}_db_statements",
            "SQL statements sent to the primary database by this process",
            registry=r,
        )
        event.listen(service.db.engine, "before_cursor_execute", self._statement_sent)
        self.database = DatabaseGauges(service)
        r.register(self.database)

    def _statement_sent(self, *_args: object) -> None:
        self.statements.inc()

    # -- recording ------------------------------------------------------------------

    def request_done(self, method: str, route: str, status: int, seconds: float) -> None:
        code = str(status)
        self.requests.labels(method, route, code).inc()
        self.latency.labels(method, route, code).observe(seconds)

    def verdict_results(self, statuses: Iterable[str]) -> None:
        for status in statuses:
            self.verdicts.labels(status).inc()

    def items_leased(self, queue_id: str, count: int) -> None:
        if count:
            self.leased.labels(queue_id).inc(count)

    def request_rate_limited(self) -> None:
        self.rate_limited.inc()

    def webhook_attempt(self, endpoint_id: int, delivered: bool) -> None:
        self.webhook_attempts.labels(str(endpoint_id), "delivered" if delivered else "failed").inc()

    def leading(self, leads: bool) -> None:
        self.leaders.set(1 if leads else 0)

    def process_started(self) -> None:
        path = multiprocess_dir()
        if path is not None:  # a worker killed before this one never said so
            drop_dead_processes(path)
        self.processes.set(1)

    def process_stopped(self) -> None:
        if self.multiprocess:
            multiprocess.mark_process_dead(os.getpid())
        else:
            self.processes.set(0)

    # -- exposition -------------------------------------------------------------------

    def exposition(self) -> bytes:
        """Every metric in the Prometheus text format (all processes' in multi-process mode)."""
        if not self.multiprocess:
            return generate_latest(self.registry)
        path = multiprocess_dir()
        if path is not None:
            drop_dead_processes(path)
        merged = CollectorRegistry(auto_describe=False)
        multiprocess.MultiProcessCollector(merged)
        merged.register(self.database)
        return generate_latest(merged)


class DatabaseGauges(Collector):
    """Queue depth and lease gauges, read from the database at scrape time (cached)."""

    def __init__(self, service: Service, ttl: float = GAUGE_TTL_SECONDS) -> None:
        self.service = service
        self.ttl = ttl
        self._lock = threading.Lock()
        self._families: list[Metric] = []
        self._read_at = -float("inf")

    def describe(self) -> Iterable[Metric]:
        return []  # computed when collected: nothing to check at registration

    def collect(self) -> Iterator[Metric]:
        with self._lock:
            if time.monotonic() - self._read_at >= self.ttl:
                self._families = self._read()
                self._read_at = time.monotonic()
            families = list(self._families)
        yield from families

    def _read(self) -> list[Metric]:
        up = GaugeMetricFamily(
            f"{PREFIX}_database_up", "1 when the gauges below could be read from the database"
        )
        try:
            families = self._query()
        except Exception:  # the scrape still answers: database_up 0 says why it is short
            up.add_metric([], 0)
            return [up]
        up.add_metric([], 1)
        return [up, *families]

    def _query(self) -> list[Metric]:
        svc = self.service
        now = svc.clock()
        queue_ids = sorted(svc.configs())
        with svc.db.read() as conn:
            counts = open_item_counts(conn, now)
            oldest = dict(
                conn.execute(
                    select(items.c.queue_id, func.min(items.c.enqueued_at))
                    .where(items.c.state == "pending")
                    .group_by(items.c.queue_id)
                ).all()
            )
            holders = conn.execute(
                select(func.count(distinct(items.c.lease_user_id))).where(
                    items.c.state == "leased", items.c.lease_expires_at >= now
                )
            ).scalar_one()
        depth = GaugeMetricFamily(
            f"{PREFIX}_queue_items",
            "Undecided items by queue and state (an expired lease counts as pending)",
            labels=["queue", "state"],
        )
        leases = GaugeMetricFamily(
            f"{PREFIX}_leases",
            "Leases by queue: live, or expired and not yet reclaimed",
            labels=["queue", "state"],
        )
        age = GaugeMetricFamily(
            f"{PREFIX}_queue_oldest_pending_age_seconds",
            "Age of the oldest pending item (0 when none is pending)",
            labels=["queue"],
        )
        for q in sorted(set(queue_ids) | {queue for queue, _ in counts}):
            live = counts.get((q, "leased"), 0)
            expired = counts.get((q, "expired"), 0)
            depth.add_metric([q, "pending"], counts.get((q, "pending"), 0) + expired)
            depth.add_metric([q, "leased"], live)
            depth.add_metric([q, "unservable"], counts.get((q, "unservable"), 0))
            leases.add_metric([q, "live"], live)
            leases.add_metric([q, "expired"], expired)
            first = oldest.get(q)
            age.add_metric([q], max(0.0, now - first) if first is not None else 0.0)
        holding = GaugeMetricFamily(
            f"{PREFIX}_lease_holders", "Reviewers holding at least one live lease"
        )
        holding.add_metric([], int(holders))
        return [depth, leases, age, holding, *self._event_log(now), *self._webhooks(now)]

    def _event_log(self, now: float) -> list[Metric]:
        svc = self.service
        with svc.db.read() as conn:
            lags = svc.sequencer.lag(conn, now)
            size = svc.event_chain.head(conn).seq
            actions_sealed = enforcement.sealed_head(conn)
            not_rolled = svc.roller.lag(conn)
        lag = lags[svc.event_chain.name]
        unsealed = GaugeMetricFamily(
            f"{PREFIX}_event_log_unsealed_entries",
            "Events committed but not yet sealed into the hash chain",
        )
        unsealed.add_metric([], lag.unsealed)
        behind = GaugeMetricFamily(
            f"{PREFIX}_event_log_sealing_lag_seconds",
            "Age of the oldest event not yet sealed into the hash chain (0 when none)",
        )
        behind.add_metric([], lag.oldest_seconds)
        sealed = GaugeMetricFamily(
            f"{PREFIX}_event_log_sealed_entries", "Entries in the sealed event log (its last seq)"
        )
        sealed.add_metric([], size)
        actions = lags[svc.feed.log.name]
        actions_unsealed = GaugeMetricFamily(
            f"{PREFIX}_enforcement_unsealed_actions",
            "Enforcement actions committed but not yet sealed (not in the feed yet)",
        )
        actions_unsealed.add_metric([], actions.unsealed)
        actions_behind = GaugeMetricFamily(
            f"{PREFIX}_enforcement_sealing_lag_seconds",
            "Age of the oldest enforcement action not yet sealed (0 when none)",
        )
        actions_behind.add_metric([], actions.oldest_seconds)
        actions_size = GaugeMetricFamily(
            f"{PREFIX}_enforcement_sealed_actions",
            "Sealed enforcement actions, every platform's (the feed's last seq)",
        )
        actions_size.add_metric([], actions_sealed)
        rollups = GaugeMetricFamily(
            f"{PREFIX}_rollups_behind_entries",
            "Sealed event-log entries the lead figures' roller has not gone through yet "
            "(figures read the decisions among them raw)",
        )
        rollups.add_metric([], not_rolled)
        return [unsealed, behind, sealed, actions_unsealed, actions_behind, actions_size, rollups]

    def _webhooks(self, now: float) -> list[Metric]:
        found = self.service.webhooks().endpoints
        labels = ["endpoint", "account"]
        backlog = GaugeMetricFamily(
            f"{PREFIX}_webhook_backlog",
            "Enforcement actions for a webhook endpoint not acknowledged yet",
            labels=labels,
        )
        failures = GaugeMetricFamily(
            f"{PREFIX}_webhook_consecutive_failures",
            "Failed delivery attempts of a webhook endpoint since its last success",
            labels=labels,
        )
        since = GaugeMetricFamily(
            f"{PREFIX}_webhook_seconds_since_success",
            "Seconds since a webhook endpoint last acknowledged a message (since it was "
            "added, when it never has)",
            labels=labels,
        )
        status = GaugeMetricFamily(
            f"{PREFIX}_webhook_status",
            "1 for a webhook endpoint's status (active, failing, disabled), 0 for the others",
            labels=[*labels, "status"],
        )
        for e in found:
            key = [str(e.id), e.account]
            backlog.add_metric(key, e.backlog)
            failures.add_metric(key, e.consecutive_failures)
            last = e.last_success_at or e.created_at
            since.add_metric(key, max(0.0, now - last.timestamp()))
            for state in WebhookStatus:
                status.add_metric([*key, state.value], 1 if e.status is state else 0)
        return [backlog, failures, since, status]
