"""What every part of the Service shares: its database, clock, settings and threads, the
queue configs it caches, and the write transaction run again when it lost a race."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, TypeVar

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError, OperationalError

from reviewer_app import __version__
from reviewer_app.protocol import (
    API_VERSION,
    MAX_CLAIM,
    MAX_VERDICTS_PER_BATCH,
    Limits,
    Meta,
    QueueConfig,
)
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import enforcement_feed, queueapply, queues, rollups
from reviewer_app.server.domain.intake.desk import IntakeDesk
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.domain.security import KnownTokens, password_hasher
from reviewer_app.server.domain.webhooks.dispatcher import Dispatcher
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.checkpoints import Signer
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.eventlog import EventChain
from reviewer_app.server.storage.leader import Leadership
from reviewer_app.server.storage.replica import Reads
from reviewer_app.server.storage.sequencer import Lag, Sequencer

log = logging.getLogger("server")

FEATURES = [
    "leases",
    "verdict-batches",
    "idempotency-keys",
    "media",
    "event-log",
    "problem-json",
    "hash-chained-event-log",
    "lead-stats",
    "decision-search",
    "csv-export",
    "audits",
    "escalation-reasons",
    "escalation-worklist",
]
Clock = Callable[[], float]
T = TypeVar("T")
CONFIG_TTL_SECONDS = 10.0
# A claim that met items it cannot serve parks them and claims again, this often at most.
CLAIM_ATTEMPTS = 5
DEFAULT_WINDOW_SECONDS = 24 * 3600
DAY_SECONDS = 24 * 3600


class ServiceBase:
    """The state the Service's parts share and the helpers they run transactions with."""

    def __init__(self, settings: ServerSettings, *, clock: Clock = time.time) -> None:
        self.settings = settings
        self.clock = clock
        self.db = Database(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
        self.postgres = not self.db.is_sqlite
        self.hasher = password_hasher(settings.password_hash_profile)
        self._configs: tuple[int, dict[str, QueueConfig]] | None = None
        self._versions: dict[int, dict[str, QueueConfig]] = {}
        self._configs_read = 0.0
        self._started = False
        self.intake = IntakeDesk(
            self.db, lambda: self.clock(), self._config_snapshot, self._write_retrying
        )
        # The event log's sealer (sequencer.py; its thread runs while the app does, app.py).
        signer = Signer.from_file(settings.log_signing_key) if settings.log_signing_key else None
        self.event_chain = EventChain(signer)
        # The enforcement feed's actions are sealed by the same sequencer (enforcement.py).
        self.feed = enforcement_feed.Feed(self.db, lambda: self.clock())
        # One API process leads the background rounds (leader.py): its sequencer and
        # roller threads do them, the others' stand by.
        self.leadership = Leadership(self.db)
        self.sequencer = Sequencer(
            self.db,
            [self.event_chain, self.feed.log],
            lambda: self.clock(),
            leader=self.leadership,
        )
        # The lead figures' rollups, counted from the sealed log off the request path
        # (rollups.py; its thread runs while the app does, app.py).
        self.roller = rollups.Roller(self.db, lambda: self.clock(), leader=self.leadership)
        # Reads that may be a little behind go to a replica when one is configured.
        self.reads = Reads(self.db, settings.read_database_url, settings.read_max_staleness_seconds)
        # Webhooks (webhooks.py): a dispatcher per process, its thread run by the app.
        self.dispatcher = Dispatcher(self.db, settings, lambda: self.clock())
        # The bearer tokens that authenticated here: only those get a rate bucket of their
        # own (ops/ratelimit.py; marked by http/auth.py).
        self.known_tokens = KnownTokens()

    def start(self) -> None:
        """Bring the schema up to date (once per Service, however often it is called)."""
        if not self._started:
            self.db.migrate()
            self._started = True

    def close(self) -> None:
        self.dispatcher.stop()  # gives its leases back
        self.roller.stop()
        self.reads.close()
        self.sequencer.stop()  # a running sequencer seals what is left first
        self.leadership.stop()  # another process takes over
        self.db.dispose()

    def seal_now(self, *, publish: bool = False) -> int:
        """Seal every event committed before this call into the log (and with ``publish``
        publish a checkpoint of it now); the entries sealed. For read barriers and tests."""
        return self.sequencer.seal_now(publish=publish)

    def roll_now(self) -> int:
        """Count every decision sealed into the log so far into the rollups (tests, tools;
        figures never wait for it); the decisions counted."""
        self.seal_now()
        return self.roller.roll_now()

    def log_lag(self) -> Lag:
        """Events committed and not sealed yet, and the oldest one's age."""
        with self.db.read() as conn:
            return self.sequencer.lag(conn, self.clock())[self.event_chain.name]

    def meta(self) -> Meta:
        s = self.settings
        return Meta(
            api_version=API_VERSION,
            server_version=__version__,
            features=FEATURES,
            limits=Limits(
                max_body_bytes=s.max_body_bytes,
                max_claim=MAX_CLAIM,
                max_lease_seconds=s.max_lease_seconds,
                max_leased_per_reviewer=s.max_leased_per_reviewer,
                max_verdicts_per_batch=MAX_VERDICTS_PER_BATCH,
            ),
        )

    def configs(self) -> dict[str, QueueConfig]:
        """The running queues' configs, in their order (routing tries them so), re-read at
        most every ``CONFIG_TTL_SECONDS``: another process's apply shows here that late,
        this process's at once (``apply_queue_file`` forgets them)."""
        return self._config_snapshot()[1]

    def config_version(self) -> int:
        """The configuration version ``configs()`` belongs to (0 before the first)."""
        return self._config_snapshot()[0]

    def _config_snapshot(self) -> tuple[int, dict[str, QueueConfig]]:
        snapshot = self._configs
        if snapshot is None or time.monotonic() - self._configs_read > CONFIG_TTL_SECONDS:
            with self.db.read() as conn:
                snapshot = queues.running_configs(conn)
            self._configs = snapshot
            self._configs_read = time.monotonic()
        return snapshot

    def forget_configs(self) -> None:
        self._configs = None

    def configs_at(self, version: int) -> dict[str, QueueConfig]:
        """The queue configs of an applied version (versions never change: kept once read);
        empty for version 0 or one never applied."""
        found = self._versions.get(version)
        if found is None:
            with self.db.read() as conn:
                queue_file = queueapply.version_file(conn, version)
            found = queueapply.configs_of(queue_file)
            if queue_file is not None:
                self._versions[version] = found
        return found

    def _may_see(self, user: Principal, *queue_ids: str) -> None:
        configs = self.configs()
        if not user.is_lead and all(configs[q].lead_only for q in queue_ids if q in configs):
            raise ApiError(403, "lead_only_queue", "Only leads may see this item.")

    def _may_see_item(self, conn: Connection, user: Principal, item_id: str) -> None:
        """404 for an unknown item, 403 for a lead-only one a reviewer asks for."""
        queue_id, origin_queue_id = queues.item_queues(conn, item_id)
        self._may_see(user, queue_id, origin_queue_id)

    def _write_retrying(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in a write transaction, again if it lost a race.

        Two batches on the same idempotency key, a deadlock or a serialisation failure
        roll the transaction back whole, so running it again is safe.
        """
        for attempt in range(5):
            try:
                with self.db.write() as conn:
                    return work(conn)
            except (IntegrityError, OperationalError) as exc:
                if attempt == 4:
                    raise
                log.info("write transaction retried after %s", type(exc).__name__)
        raise AssertionError("unreachable")

    def count_items(self) -> dict[str, Any]:
        with self.db.read() as conn:
            return queues.item_states(conn)
