"""The sync engine: a background thread with its own store connection and HTTP session.

Each pass, while the server can be reached, it delivers verdicts whose undo window has
passed (in batches), gives back skipped items, renews leases past a third of their life,
runs a "work offline" batch when one was asked for, keeps up to ``prefetch_target`` items
leased ahead in the queue being worked (one in a lead-only queue; refilled in one claim when
half are used), gives back what was leased ahead in a queue the reviewer left and never
opened, fetches their media, and refreshes the queue list now and then. What a claim
brings is reported (``WorklistChanged``) as soon as it is stored, so the next post is shown
before this pass fetches its media; each file fetched is reported (``MediaSaved``) for a
post already on screen, and a file that several posts show is fetched once.

A failed pass backs off exponentially with full jitter (capped), or as long as the server's
``Retry-After`` says; the first pass that works resets it. A 401 pauses the engine, keeping
everything, until ``set_token`` is called. An engine with no token (a start with no network
and no saved login) only checks, with the same backoff, whether the server can be reached,
and says so once (``AuthRequired`` with ``server_back``), so the UI can ask for a login.
The time of the last good pass is kept in the store, so it survives a restart.

The engine never drops a verdict: a reply it cannot trust leaves the verdict in the outbox,
to be sent again under the same idempotency key.

**Modules.** ``state`` (what the UI side sets and the thread keeps), ``leases`` (claims,
renewals, releases, media, queues), ``delivery`` (verdicts and breaks to the service),
``engine`` (the thread and the pass). Import ``SyncEngine`` from here.
"""

from __future__ import annotations

from ..errors import CoreError
from .engine import SyncEngine
from .state import BACKOFF_BASE, EMPTY_QUEUE_PAUSE, EXPIRY_WARNING, IDLE_WAIT

__all__ = [
    "BACKOFF_BASE",
    "EMPTY_QUEUE_PAUSE",
    "EXPIRY_WARNING",
    "IDLE_WAIT",
    "CoreError",
    "SyncEngine",
]
