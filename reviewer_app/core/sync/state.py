"""The sync engine's state: what the UI side sets (``_Shared``, under its lock), what the
engine thread keeps between passes, and the few helpers every part of a pass uses."""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from reviewer_app.protocol import MAX_LEASE_SECONDS, BreakRecord, Limits

from .. import events as ev
from ..api import ApiClient
from ..errors import StoreError
from ..store import Store

log = logging.getLogger("sync")

BACKOFF_BASE = 0.5
#: how long a queue that gave nothing (empty, or our lease cap reached) is left alone
EMPTY_QUEUE_PAUSE = 10.0
EXPIRY_WARNING = 120.0
IDLE_WAIT = 30.0
#: queue counts that this client changed (a claim, release or delivery) are fetched again
#: after at most this long (not at every pass: the list is counted over every queue)
COUNTS_REFRESH = 2.0
#: the last good sync is written to the store at most this often (and at the end)
LAST_SYNC_SAVE_EVERY = 10.0


@dataclass
class _OfflineRequest:
    queue_id: str
    count: int


@dataclass
class _Shared:
    """What the UI side sets and the engine thread reads (under ``lock``)."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    token: str | None = None
    active: set[str] = field(default_factory=set)
    #: items the reviewer opened since the last pass (kept when their queue is left)
    opened: set[str] = field(default_factory=set)
    offline: list[_OfflineRequest] = field(default_factory=list)
    #: the reviewer is on a break: nothing held, nothing leased ahead, nothing renewed
    on_break: bool = False
    #: breaks (their start or end) the window reported, oldest first: into the store at the
    #: engine's next pass, where they wait until the service has them (``_keep_breaks``)
    breaks: list[BreakRecord] = field(default_factory=list)
    #: queues to claim one item more in at the next pass, whatever is held there (a lead
    #: picked an escalation: assigned to them, so that claim takes it)
    one_more: set[str] = field(default_factory=set)


class SyncState:
    """The engine's state and its settings, limits and events; ``SyncEngine`` adds the
    work of a pass and the thread."""

    def __init__(
        self,
        server_url: str,
        store_path: Path | str,
        *,
        token: str | None,
        listener: ev.Listener | None = None,
        ca_bundle: str | Path | None = None,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        api_factory: Callable[[], ApiClient] | None = None,
        store_key: bytes | None = None,
        store_in_memory: bool = False,
    ) -> None:
        """``store_key`` and ``store_in_memory`` open the store as the session's own
        connection does (encrypted with the profile's key, or the session's memory store)."""
        self.server_url = server_url
        self.store_path = Path(store_path)
        self._store_key = store_key
        self._store_in_memory = store_in_memory
        self.listener = listener or (lambda event: None)
        self.clock = clock
        self.rng = rng or random.Random()
        self._api_factory = api_factory or (lambda: ApiClient(server_url, ca_bundle=ca_bundle))
        self._shared = _Shared(token=token)
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._release_on_stop = True
        # engine-thread state
        self.store: Store | None = None
        self.api: ApiClient | None = None
        self.online: bool | None = None
        self.paused = False
        self.failures = 0
        self.retry_at = 0.0
        self.last_sync: float | None = None
        self._last_sync_saved: float | None = None
        #: with no token, the server was found reachable and the UI was told (once)
        self._told_reachable = False
        self.limits: Limits | None = None
        self._queues_at = -math.inf
        # a verdict here just suspended an author (or marked them inauthentic): renew every
        # lease at once, so their other items held here leave now, not a third of a lease on
        self._renew_all = False
        self._empty_until: dict[str, float] = {}
        #: active queues whose last claim gave nothing, with nothing held here
        self._drained: set[str] = set()
        #: the queues worked at the last top-up (one newly worked is claimed from at once)
        self._worked: set[str] = set()
        #: a claim, release or delivery changed the queues' counts: refresh them this pass
        self._counts_changed = False
        self._last: dict[str, object] = {}

    def _setting(self, setting: object) -> int | float:
        assert self.store is not None
        return self.store.settings.get(setting)  # type: ignore[arg-type]

    def _lease_seconds(self, setting: object, asked: int | None = None) -> int:
        """The lease length to ask for: ``asked`` (a lease's own length) or the setting's,
        within the server's cap and the protocol's."""
        cap = self.limits.max_lease_seconds if self.limits else MAX_LEASE_SECONDS
        wanted = asked if asked is not None else self._setting(setting)
        return int(max(30, min(wanted, cap, MAX_LEASE_SECONDS)))

    def _worklist_changed(self) -> None:
        """Items became ready here (a claim stored them): the next report tells the
        worklist even at the counts it was last told. The reviewer may have decided as
        many meanwhile, and a window showing nothing would wait for a change of count
        that never comes."""
        self._last.pop("ready", None)

    def _report_local(self) -> None:
        """Tell the listener about local state that changed since it was last told."""
        if self.store is None:
            return
        try:
            counts = self.store.counts()
            expiring = (
                () if self.online else tuple(self.store.expiring(self.clock(), EXPIRY_WARNING))
            )
        except StoreError as err:
            self._emit(ev.Problem(str(err), err.kind))
            return
        self._emit_changed(
            "pending", ev.PendingChanged(counts.pending, counts.in_flight, counts.held)
        )
        self._emit_changed("conflicts", ev.ConflictsChanged(counts.conflicts_open))
        self._emit_changed("ready", ev.WorklistChanged(counts.ready))
        if expiring:
            self._emit_changed("expiring", ev.LeasesExpiring(expiring))

    def _emit_changed(self, name: str, event: ev.SyncEvent) -> None:
        if self._last.get(name) != event:
            self._last[name] = event
            self._emit(event)

    def _emit(self, event: ev.SyncEvent) -> None:
        try:
            self.listener(event)
        except Exception:  # a listener's bug must not stop syncing
            log.exception("a sync listener failed on %s", type(event).__name__)


def _chunks(items: list[tuple[str, str]], size: int) -> list[list[tuple[str, str]]]:
    return [items[i : i + size] for i in range(0, len(items), size)]
