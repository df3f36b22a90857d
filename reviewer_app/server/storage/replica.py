"""Reads off the primary: a PostgreSQL streaming replica for the reads that can be a
little behind (lead statistics, decision search, CSV export, the enforcement feed's
catch-up pages), with a bounded staleness.

Before a read goes to the replica the primary's WAL position is read
(``pg_current_wal_lsn()``, no lock) and the replica is given up to ``CATCH_UP_SECONDS`` to
replay past it: then it holds everything committed before the request, and the read is
as fresh as one on the primary (staleness 0). Otherwise the staleness is the age of the
last transaction it replayed (``pg_last_xact_replay_timestamp()``): within
``read_max_staleness_seconds`` the read goes to the replica and says how far behind it
is; beyond it, or when the replica cannot be reached, to the primary. Nothing is ever
written to the replica (it refuses writes anyway).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Connection, text

from reviewer_app.server.storage.db import Database

log = logging.getLogger("server")

# How long a read waits for the replica to replay what the primary had when it was asked.
CATCH_UP_SECONDS = 0.05
_POLL_SECONDS = 0.005
_PRIMARY_LSN = text("SELECT pg_current_wal_lsn()::text")
_REPLAYED = text(
    "SELECT pg_is_in_recovery() AS standby, "
    "COALESCE(pg_last_wal_replay_lsn() >= CAST(:lsn AS pg_lsn), true) AS caught_up, "
    "EXTRACT(EPOCH FROM clock_timestamp() - pg_last_xact_replay_timestamp()) AS behind"
)


@dataclass(frozen=True)
class ReadSource:
    """Where a read went and how far behind the primary its data may be (seconds)."""

    replica: bool
    staleness: float = 0.0


class Reads:
    """The primary, and the replica when one is configured."""

    def __init__(self, primary: Database, replica_url: str, max_staleness: float) -> None:
        self.primary = primary
        self.replica = Database(replica_url) if replica_url else None
        if self.replica is not None and self.replica.is_sqlite:
            raise ValueError("read_database_url must be a PostgreSQL replica (postgresql://...)")
        self.max_staleness = max_staleness

    def close(self) -> None:
        if self.replica is not None:
            self.replica.dispose()

    def choose(self) -> tuple[Database, ReadSource]:
        """The database for a read now, and what that read may lag."""
        if self.replica is None:
            return self.primary, ReadSource(False)
        try:
            staleness = self._staleness(self.replica)
        except Exception as exc:  # the replica away: the primary answers
            log.warning("read replica unavailable (%s); reading the primary", type(exc).__name__)
            return self.primary, ReadSource(False)
        if staleness is None or staleness > self.max_staleness:
            return self.primary, ReadSource(False)
        return self.replica, ReadSource(True, staleness)

    @contextmanager
    def snapshot(self) -> Iterator[tuple[Connection, ReadSource]]:
        """One snapshot (``Database.snapshot``) of the database ``choose`` picks."""
        db, source = self.choose()
        with db.snapshot() as conn:
            yield conn, source

    def _staleness(self, replica: Database) -> float | None:
        with self.primary.read() as conn:
            lsn = conn.execute(_PRIMARY_LSN).scalar()
        deadline = time.monotonic() + CATCH_UP_SECONDS
        while True:
            with replica.read() as conn:
                row = conn.execute(_REPLAYED, {"lsn": lsn}).one()
            if not row.standby:
                return None  # not a replica (promoted, or misconfigured): not ours to read
            if row.caught_up:
                return 0.0
            if time.monotonic() >= deadline:
                return max(0.0, float(row.behind)) if row.behind is not None else None
            time.sleep(_POLL_SECONDS)
