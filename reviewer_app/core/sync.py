"""The sync engine: a background thread with its own store connection and HTTP session.

Each pass, while the server can be reached, it delivers verdicts whose undo window has
passed (in batches), gives back skipped items, renews leases past a third of their life,
runs a "work offline" batch when one was asked for, keeps up to ``prefetch_target`` items
leased ahead in the queue being worked (one in a lead-only queue; refilled in one claim when
half are used), gives back what was leased ahead in a queue the reviewer left and never
opened, fetches their media, and refreshes the queue list now and then.

A failed pass backs off exponentially with full jitter (capped), or as long as the server's
``Retry-After`` says; the first pass that works resets it. A 401 pauses the engine, keeping
everything, until ``set_token`` is called. An engine with no token (a start with no network
and no saved login) only checks, with the same backoff, whether the server can be reached,
and says so once (``AuthRequired`` with ``server_back``), so the UI can ask for a login.
The time of the last good pass is kept in the store, so it survives a restart.

The engine never drops a verdict: a reply it cannot trust leaves the verdict in the outbox,
to be sent again under the same idempotency key.
"""

from __future__ import annotations

import logging
import math
import random
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reviewer_app.protocol import (
    MAX_CLAIM,
    MAX_LEASE_SECONDS,
    MAX_VERDICTS_PER_BATCH,
    BreakRecord,
    Limits,
    ProblemDetail,
    RejectReason,
    VerdictResult,
    VerdictStatus,
)
from reviewer_app.protocol.accounts import closes_items
from reviewer_app.protocol.common import MAX_TOKENS_PER_CALL

from . import events as ev
from .api import ApiClient
from .errors import (
    ApiError,
    AuthenticationRequired,
    CoreError,
    FailureKind,
    NetworkError,
    ProblemError,
    ProtocolError,
    ServiceUnavailable,
    StoreError,
)
from .settings import (
    BACKOFF_CAP,
    BATCH_SIZE,
    LEASE_SECONDS,
    OFFLINE_BATCH,
    OFFLINE_LEASE_SECONDS,
    PREFETCH,
    QUEUE_REFRESH,
)
from .store import Outgoing, Renewal, Store

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
    #: breaks (their start or end) for the service, oldest first
    breaks: list[BreakRecord] = field(default_factory=list)
    #: queues to claim one item more in at the next pass, whatever is held there (a lead
    #: picked an escalation: assigned to them, so that claim takes it)
    one_more: set[str] = field(default_factory=set)


class SyncEngine:
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

    # --- the UI side ------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("the sync engine is already running")
        self._stopping.clear()
        self._thread = threading.Thread(target=self._run, name="sync", daemon=True)
        self._thread.start()

    def stop(self, *, release: bool = True, timeout: float = 15.0) -> None:
        """Stop the thread. With ``release`` (a clean exit) it first sends every verdict
        decided so far and gives back the leases of items not decided, if online."""
        if self._thread is None:
            return
        self._release_on_stop = release
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout)
        if self._thread.is_alive():
            log.warning("the sync thread did not stop within %.0f s", timeout)
        self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def nudge(self) -> None:
        """Something changed locally (a verdict, an undo, a skip): look again now."""
        self._wake.set()

    def renew_now(self) -> None:
        """Renew every lease held here at the next pass (an account action may have closed
        some of their items: they leave the worklist then, not a third of a lease on)."""
        self._renew_all = True
        self._wake.set()

    def set_token(self, token: str | None) -> None:
        """A new login: resume a paused engine."""
        with self._shared.lock:
            self._shared.token = token
        self.nudge()

    def set_active_queues(self, queue_ids: Sequence[str]) -> None:
        """Queues being reviewed; each keeps up to ``prefetch_target`` items leased ahead."""
        with self._shared.lock:
            self._shared.active = set(queue_ids)
        self.nudge()

    def claim_one_more(self, queue_id: str) -> None:
        """Claim one item more in this queue at the next pass, even with its target held
        and after it came back empty (an escalation a lead picked: assigned to them, their
        claim there takes it first)."""
        with self._shared.lock:
            self._shared.one_more.add(queue_id)
        self.nudge()

    def item_opened(self, item_id: str) -> None:
        """The reviewer has this item on screen: it is not given back when its queue is
        left (written to the store at the next pass; no wake-up of its own)."""
        with self._shared.lock:
            self._shared.opened.add(item_id)

    def take_break(self, record: BreakRecord) -> None:
        """The reviewer takes a break: every item held here and not decided is given back
        (decided ones are still sent once their undo window has passed), nothing is leased
        ahead or renewed until ``end_break``; the service is told of the break."""
        with self._shared.lock:
            self._shared.on_break = True
            self._shared.breaks.append(record)
        self.nudge()

    def end_break(self, record: BreakRecord) -> None:
        """Back from a break (``record`` with its end): leasing ahead starts again."""
        with self._shared.lock:
            self._shared.on_break = False
            self._shared.breaks.append(record)
        self.nudge()

    def work_offline(self, queue_id: str, count: int | None = None) -> None:
        """Lease a batch (default ``offline_batch_size``) with media, reporting Progress."""
        with self._shared.lock:
            self._shared.offline.append(_OfflineRequest(queue_id, count or 0))
        self.nudge()

    # --- the thread -------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self.open()
            while not self._stopping.is_set():
                delay = self.run_once()
                self._wake.wait(max(0.0, delay))
                self._wake.clear()
            if self._release_on_stop:
                self.shutdown_pass()
        except Exception as err:  # a bug: tell the UI rather than die silently
            log.exception("the sync engine stopped on an unexpected error")
            self._emit(ev.Problem(f"Syncing stopped on an unexpected error: {err!r}"))
        finally:
            self.close()

    def open(self) -> None:
        """Open this thread's store connection and HTTP session (tests call it directly)."""
        self.store = Store(
            self.store_path,
            key=self._store_key,
            in_memory=self._store_in_memory,
            clock=self.clock,
            check=False,
        )
        self.api = self._api_factory()
        self.last_sync = self._last_sync_saved = self.store.last_sync()

    def close(self) -> None:
        if self.api is not None:
            self.api.close()
        if self.store is not None:
            self._save_last_sync(force=True)
            self.store.close()
        self.api = None
        self.store = None

    def run_once(self) -> float:
        """One pass. Returns the seconds until the next pass is wanted."""
        assert self.store is not None and self.api is not None
        now = self.clock()
        self._write_through()
        self._purge()
        with self._shared.lock:
            token = self._shared.token
        if token != self.api.token:
            self.api.token = token
            self.paused = False
            self._told_reachable = False
        if not token and not self.paused:
            self._report_local()
            return self._probe(now)
        if self.paused or not token:
            self._report_local()
            return IDLE_WAIT
        if now < self.retry_at:
            self._report_local()
            return self.retry_at - now
        self._report_local()  # what was decided since the last pass, before sending it
        try:
            self._pass()
        except AuthenticationRequired as err:
            self.paused = True
            self._emit(ev.AuthRequired(f"The server asks you to log in again ({err})."))
            self._report_local()
            return IDLE_WAIT
        except (NetworkError, ServiceUnavailable, ProtocolError) as err:
            self._failed(str(err), err.retry_after, err.kind)
        except StoreError as err:
            self._emit(ev.Problem(str(err), err.kind))
            self._failed(str(err), None, err.kind)
        else:
            self._succeeded()
        self._report_local()
        return self._next_pass_in()

    def _probe(self, now: float) -> float:
        """No token (a start with no network and no saved login): is the server back? Said
        once, then the engine waits for ``set_token``; until then it keeps backing off."""
        assert self.api is not None
        if now < self.retry_at:
            return self.retry_at - now
        try:
            self.limits = self.api.check_compatible().limits
        except (NetworkError, ServiceUnavailable, ProtocolError) as err:
            self._failed(str(err), err.retry_after, err.kind)
            return max(0.0, self.retry_at - self.clock())
        except ApiError as err:  # an incompatible server, a refusal: not reachable for us
            self._failed(str(err), None, err.kind)
            return max(0.0, self.retry_at - self.clock())
        self.failures = 0
        self.retry_at = 0.0
        self.paused = True  # until a login gives a token
        if not self._told_reachable:
            self._told_reachable = True
            self._emit(
                ev.AuthRequired(
                    "The server can be reached again; log in to send your verdicts.",
                    server_back=True,
                )
            )
        return IDLE_WAIT

    def shutdown_pass(self) -> None:
        """On a clean exit: send everything decided, give back what was not, if we can."""
        assert self.store is not None and self.api is not None
        if self.paused or not self.api.token or self.online is False:
            return  # nothing can be sent now; it all stays for the next start
        try:
            self.store.flush_all(self.clock())
            self._deliver()
            self._send_breaks()
            self._release(self.store.to_release(), skipped=True)
            self._release(self.store.ready_leases())
        except (ApiError, StoreError) as err:
            log.info("left for the next start: %s", err)

    # --- one pass ---------------------------------------------------------------------

    def _pass(self) -> None:
        assert self.api is not None
        if self.limits is None:
            self.limits = self.api.check_compatible().limits
        with self._shared.lock:
            on_break = self._shared.on_break
        if on_break:
            self._break_pass()
            return
        self._send_breaks()
        # the reviewer's next posts first: on a slow link, delivering a backlog of verdicts
        # (which have waited out their undo window and can wait a little more) before the
        # claim would let the local queue run dry
        self._release_left()
        self._top_up()
        self._deliver()
        self._release_skipped()
        self._renew()
        self._offline_batches()
        self._top_up()
        self._fetch_media()
        # counts this client changed are shown within COUNTS_REFRESH, not at the next refresh
        since = self.clock() - self._queues_at
        if since >= self._setting(QUEUE_REFRESH) or (
            self._counts_changed and since >= COUNTS_REFRESH
        ):
            self._refresh_queues()

    def _write_through(self) -> None:
        """What was decided since the last pass onto the disk (the GUI thread's commits do
        not wait for it: store.py); a verdict wakes this thread at once."""
        assert self.store is not None
        try:
            self.store.write_through()
        except OSError as err:
            self._emit(ev.Problem(f"The local store could not be written to the disk: {err}"))

    def _break_pass(self) -> None:
        """On a break: give back every lease held here not decided, send what was decided
        and the break itself; claim, renew and fetch nothing."""
        assert self.store is not None
        with self._shared.lock:
            opened, self._shared.opened = self._shared.opened, set()
        self.store.mark_opened(sorted(opened))
        held = self.store.ready_leases()
        if held:
            log.info("on a break: giving back %d items held", len(held))
            self._release(held)
        self._release_skipped()
        self._deliver()
        self._send_breaks()
        if self.clock() - self._queues_at >= self._setting(QUEUE_REFRESH) or self._counts_changed:
            self._refresh_queues()

    def _send_breaks(self) -> None:
        """Tell the service of breaks started or ended; one it refuses is logged and
        dropped (a break is a figure for the lead, never worth stopping the sync for)."""
        assert self.api is not None
        while True:
            with self._shared.lock:
                if not self._shared.breaks:
                    return
                record = self._shared.breaks[0]
            try:
                self.api.record_break(record)
            except (NetworkError, ServiceUnavailable, AuthenticationRequired, ProtocolError):
                raise  # kept, and sent again at the next pass
            except ApiError as err:
                log.warning("the service refused a break record: %s", err)
            with self._shared.lock:
                if self._shared.breaks and self._shared.breaks[0] is record:
                    self._shared.breaks.pop(0)

    def _purge(self) -> None:
        """Retention, on every pass (online or not): cached content past its time goes."""
        assert self.store is not None
        try:
            self.store.purge_expired()  # what it changes is reported by _report_local
        except StoreError as err:
            self._emit(ev.Problem(str(err), err.kind))

    def _setting(self, setting: object) -> int | float:
        assert self.store is not None
        return self.store.settings.get(setting)  # type: ignore[arg-type]

    def _deliver(self) -> None:
        assert self.store is not None
        cap = self.limits.max_verdicts_per_batch if self.limits else MAX_VERDICTS_PER_BATCH
        size = int(min(self._setting(BATCH_SIZE), cap))
        while True:
            if self._stopping.is_set() and not self._release_on_stop:
                return  # a hard stop: what is left goes at the next start
            batch = self.store.take_due(self.clock(), size)
            if not batch:
                return
            self._send(batch)
            # a long backlog on a slow link: keep the reviewer's next posts coming between
            # batches (a claim only when half the prefetch is used)
            self._top_up()

    def _send(self, batch: list[Outgoing]) -> None:
        """Send one batch and settle what the server said about each verdict."""
        assert self.store is not None and self.api is not None
        try:
            results = self.api.verdicts([o.verdict for o in batch]).results
        except (AuthenticationRequired, ServiceUnavailable):
            raise
        except ProblemError as err:
            # The server refused the whole batch (4xx): keep the verdicts it names as
            # rejected with its reason; find any others by sending them one at a time.
            named = self._invalid(batch, err.problem.errors or []) if err.status == 422 else []
            if named:
                results = named  # the rest stay due and go in the next request
            elif len(batch) > 1:
                for one in batch:
                    self._send([one])
                return
            else:
                results = [_rejected(batch[0], err.code, str(err))]
        settled = self.store.settle(results)
        self._counts_changed = True
        self._renew_all |= any(
            r.status is VerdictStatus.accepted
            and r.decision is not None
            and r.decision.author_action is not None
            and closes_items(r.decision.author_action)
            for r in results
        )
        self._emit(ev.VerdictsSettled(tuple(settled)))
        if any(e.status == VerdictStatus.conflict for e in settled):
            self._emit(ev.ConflictsChanged(len(self.store.conflicts())))

    def _invalid(self, batch: list[Outgoing], errors: list[ProblemDetail]) -> list[VerdictResult]:
        """Verdicts that do not fit their queue's config are rejected with the server's
        reason; the rest stay in the outbox for the next request."""
        bad: dict[int, ProblemDetail] = {}
        for detail in errors:
            if len(detail.loc) >= 2 and detail.loc[0] == "verdicts":
                index = detail.loc[1]
                if isinstance(index, int) and 0 <= index < len(batch):
                    bad.setdefault(index, detail)
        return [_rejected(batch[i], d.code or "verdict_invalid", d.message) for i, d in bad.items()]

    def _release_skipped(self) -> None:
        assert self.store is not None
        skipped = self.store.to_release()
        if skipped:
            self._release(skipped, skipped=True)

    def _release_left(self) -> None:
        """Give back the items leased ahead in queues no longer worked that the reviewer
        never opened (an item opened or decided stays; so does an offline batch)."""
        assert self.store is not None
        with self._shared.lock:
            opened, self._shared.opened = self._shared.opened, set()
            active = sorted(self._shared.active)
        try:
            self.store.mark_opened(sorted(opened))
        except StoreError:
            with self._shared.lock:
                self._shared.opened |= opened
            raise
        left = self.store.untouched_leases(active, self._lease_seconds(LEASE_SECONDS))
        if left:
            log.info("giving back %d items leased ahead in queues left", len(left))
            self._release(left)

    def _release(self, leases: Sequence[tuple[str, str]], *, skipped: bool = False) -> None:
        assert self.store is not None and self.api is not None
        for chunk in _chunks(list(leases), MAX_TOKENS_PER_CALL):
            self.api.release([token for _, token in chunk], skipped=skipped)
            self._counts_changed = True
            self.store.forget_items([item_id for item_id, _ in chunk])

    def _renew(self, leases: Sequence[Renewal] | None = None) -> None:
        """Renew the leases past a third of their life (or ``leases``), each for the length
        it was leased for: an offline batch's hour stays an hour (the server caps it)."""
        assert self.store is not None and self.api is not None
        now = self.clock()
        if leases is None:
            leases = self.store.leases_to_renew(now + MAX_LEASE_SECONDS if self._renew_all else now)
            self._renew_all = False
        by_length: dict[int, list[tuple[str, str]]] = {}
        for lease in leases:
            seconds = self._lease_seconds(LEASE_SECONDS, lease.lease_seconds or None)
            by_length.setdefault(seconds, []).append((lease.item_id, lease.token))
        lost: list[str] = []
        withdrawn: set[str] = set()
        resolved: dict[str, str] = {}  # item id -> the status an account action gave its author
        chunks = [
            (seconds, chunk)
            for seconds, group in sorted(by_length.items())
            for chunk in _chunks(group, MAX_TOKENS_PER_CALL)
        ]
        for seconds, chunk in chunks:
            results = self.api.renew([token for _, token in chunk], seconds).results
            lost += self.store.apply_lease_results(results)
            gone = {r.token for r in results if r.status == "withdrawn"}
            withdrawn.update(item_id for item_id, token in chunk if token in gone)
            actioned = {
                r.token: r.author_status.value if r.author_status else ""
                for r in results
                if r.status == "author_actioned"
            }
            resolved.update(
                (item_id, actioned[token]) for item_id, token in chunk if token in actioned
            )
        # the platform's or an account action's doing, not another reviewer's: said so
        if withdrawn & set(lost):
            self._emit(ev.ItemsWithdrawn(tuple(i for i in lost if i in withdrawn)))
        if resolved.keys() & set(lost):
            self._emit(ev.ItemsResolved(tuple((i, resolved[i]) for i in lost if i in resolved)))
        if set(lost) - withdrawn - resolved.keys():
            self._emit(
                ev.LeasesLost(tuple(i for i in lost if i not in withdrawn and i not in resolved))
            )

    def _lease_seconds(self, setting: object, asked: int | None = None) -> int:
        """The lease length to ask for: ``asked`` (a lease's own length) or the setting's,
        within the server's cap and the protocol's."""
        cap = self.limits.max_lease_seconds if self.limits else MAX_LEASE_SECONDS
        wanted = asked if asked is not None else self._setting(setting)
        return int(max(30, min(wanted, cap, MAX_LEASE_SECONDS)))

    def _claim(self, queue_id: str, count: int, lease_seconds: int) -> int:
        """Lease up to ``count`` items; 0 when the queue (or our lease cap) gave none."""
        assert self.store is not None and self.api is not None
        cap = self.limits.max_claim if self.limits else MAX_CLAIM
        try:
            grant = self.api.claim(queue_id, min(count, cap, MAX_CLAIM), lease_seconds)
        except ProblemError as err:
            if err.code in ("too_many_leases", "not_found", "queue_not_found", "forbidden") or (
                err.status in (403, 404, 409)
            ):
                log.info("queue %s gives no items now: %s", queue_id, err.code)
                return 0
            raise
        self._counts_changed |= bool(grant.items)
        for item_id, why in self.api.unusable:
            self._emit(
                ev.Problem(
                    f"Item {item_id} from queue {queue_id} cannot be shown: the server sent it "
                    f"in a form this app refuses ({why}). It was left aside; tell your "
                    "administrator.",
                    FailureKind.bad_reply,
                    item_id=item_id,
                    queue_id=queue_id,
                )
            )
        return self.store.add_leased(grant)

    def _top_up(self) -> None:
        assert self.store is not None
        with self._shared.lock:
            active = sorted(self._shared.active)
            one_more = self._shared.one_more & set(active)
            self._shared.one_more -= one_more  # a queue not worked yet keeps its ask
        full = int(self._setting(PREFETCH))
        seconds = self._lease_seconds(LEASE_SECONDS)
        now = self.clock()
        if now - self._queues_at > EMPTY_QUEUE_PAUSE and any(
            self.store.queue(q) is None for q in active
        ):
            self._refresh_queues()  # a first start: each queue's config says its prefetch
        ready = self.store.ready_counts(now)
        for queue_id in set(active) - self._worked:  # back to a queue: look again at once
            self._empty_until.pop(queue_id, None)
        self._worked = set(active)
        for queue_id in active:
            held = ready.get(queue_id, 0)
            queue = self.store.queue(queue_id)
            # a lead-only queue (escalations) is shared by few: one item at a time, so the
            # rest stay in the other leads' queue and in its waiting figures
            target = 1 if queue is not None and queue.config.lead_only else full
            # refill at half the target, in one claim: one request per ten decisions rather
            # than one per decision, and no write lock taken while the reviewer decides
            if held:
                self._drained.discard(queue_id)
            if queue_id in one_more:
                self._claim(queue_id, 1, seconds)
                continue
            if held > target // 2 or self._empty_until.get(queue_id, 0.0) > now:
                continue
            want = target - held
            got = self._claim(queue_id, want, seconds)
            if got < want:
                self._empty_until[queue_id] = now + EMPTY_QUEUE_PAUSE
            if got == 0 and held == 0:
                self._drained.add(queue_id)
            elif got:
                self._drained.discard(queue_id)
        self._drained &= set(active)
        self._emit_changed("drained", ev.QueuesDrained(tuple(sorted(self._drained))))

    def _offline_batches(self) -> None:
        assert self.store is not None
        while True:
            with self._shared.lock:
                if not self._shared.offline:
                    return
                request = self._shared.offline[0]
            total = request.count or int(self._setting(OFFLINE_BATCH))
            if self.limits:
                total = min(total, self.limits.max_leased_per_reviewer)
            seconds = self._lease_seconds(OFFLINE_LEASE_SECONDS)
            done = 0
            try:
                self._emit(ev.Progress("offline", 0, total))
                while done < total and not self._stopping.is_set():
                    got = self._claim(request.queue_id, total - done, seconds)
                    if got == 0:
                        break
                    done += got
                    self._emit(ev.Progress("offline", done, total))
                self._fetch_media(limit=None)
            except (ApiError, StoreError) as err:
                self._emit(ev.Progress("offline", done, total, True, error=str(err), kind=err.kind))
                with self._shared.lock:
                    self._shared.offline.remove(request)
                raise
            with self._shared.lock:
                self._shared.offline.remove(request)
            # the items leased ahead before the batch last as long as it, and stay first
            longer = self.store.lengthen_leases(request.queue_id, seconds)
            if longer:
                self._renew(longer)
            short = (
                None
                if done >= total
                else f"Only {done} of {total} items could be leased: the queue has no more "
                "for you, or you reached the server's limit of items held at once."
            )
            self._emit(ev.Progress("offline", done, total, finished=True, error=short))

    def _fetch_media(self, limit: int | None = 20) -> None:
        assert self.store is not None and self.api is not None
        fetched: set[tuple[str, str]] = set()
        while True:
            wanted = [w for w in self.store.media_wanted(limit or 50) if w not in fetched]
            if not wanted:
                return  # all fetched (and never the same one twice in a pass)
            fetched.update(wanted)
            for item_id, media_id in wanted:
                try:
                    data, kind = self.api.media(media_id)
                except ProblemError as err:
                    if err.status in (404, 410):
                        data, kind = b"", "application/x-missing"
                    else:
                        raise
                self.store.save_media(item_id, media_id, kind, data)
            if limit is not None:
                return

    def _refresh_queues(self) -> None:
        assert self.store is not None and self.api is not None
        queues = self.api.queues().queues
        self.store.save_queues(queues)
        self._queues_at = self.clock()
        self._counts_changed = False
        self._emit(ev.QueuesChanged(tuple(queues)))

    # --- state and events ---------------------------------------------------------------

    def _succeeded(self) -> None:
        self.failures = 0
        self.retry_at = 0.0
        self.last_sync = self.clock()
        self._save_last_sync()
        if self.online is not True:
            self.online = True
            self._emit(ev.OnlineChanged(True))
        self._emit(ev.Synced(self.last_sync))

    def _save_last_sync(self, *, force: bool = False) -> None:
        """The last good sync into the store (not on every pass: at most every
        ``LAST_SYNC_SAVE_EVERY`` seconds, and at the end), so a restart shows it."""
        if self.store is None or self.last_sync is None:
            return
        saved = self._last_sync_saved
        if saved is not None and (
            self.last_sync == saved or (not force and self.last_sync - saved < LAST_SYNC_SAVE_EVERY)
        ):
            return
        try:
            self.store.set_last_sync(self.last_sync)
            self._last_sync_saved = self.last_sync
        except StoreError as err:  # worth a log line, not a stop: it is shown from memory
            log.info("the last sync time was not saved: %s", err)

    def _failed(self, reason: str, retry_after: float | None, kind: FailureKind) -> None:
        self.failures += 1
        cap = float(self._setting(BACKOFF_CAP)) if self.store else 60.0
        wait = self.rng.uniform(0, min(cap, BACKOFF_BASE * 2**self.failures))
        if retry_after is not None:
            wait = max(wait, min(retry_after, 3_600.0))
        self.retry_at = self.clock() + wait
        log.info("sync failed (%d in a row), next try in %.1f s: %s", self.failures, wait, reason)
        self.online = False
        self._emit(ev.OnlineChanged(False, reason, wait, kind))

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

    def _next_pass_in(self) -> float:
        assert self.store is not None
        now = self.clock()
        if self.online is False:
            return max(0.0, self.retry_at - now)
        times = [now + IDLE_WAIT, self._queues_at + float(self._setting(QUEUE_REFRESH))]
        if self._counts_changed:
            times.append(self._queues_at + COUNTS_REFRESH)
        for moment in (self.store.next_due_at(), self.store.next_renewal_at()):
            if moment is not None:
                times.append(moment)
        with self._shared.lock:
            if self._shared.offline:
                return 0.0
        times += [t for t in self._empty_until.values() if t > now]
        return max(0.0, min(times) - now)


def _rejected(outgoing: Outgoing, code: str, message: str) -> VerdictResult:
    return VerdictResult(
        idempotency_key=outgoing.verdict.idempotency_key,
        item_id=outgoing.verdict.item_id,
        status=VerdictStatus.rejected,
        reason=RejectReason(code=_slug(code), message=message[:200]),
    )


def _slug(code: str) -> str:
    cleaned = "".join(c if c.isalnum() or c in "-_" else "-" for c in code.lower()).strip("-_")
    return (cleaned or "rejected")[:64]


def _chunks(items: list[tuple[str, str]], size: int) -> list[list[tuple[str, str]]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


__all__ = ["CoreError", "SyncEngine"]
