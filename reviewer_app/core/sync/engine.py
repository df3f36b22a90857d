"""The engine: the UI side's calls, the thread, and one pass (what it does, in which order,
and what a failure does to the next one)."""

from __future__ import annotations

import threading
from collections.abc import Sequence

from reviewer_app.protocol import BreakRecord

from .. import events as ev
from ..errors import (
    ApiError,
    AuthenticationRequired,
    FailureKind,
    NetworkError,
    ProtocolError,
    ServiceUnavailable,
    StoreError,
)
from ..settings import BACKOFF_CAP, QUEUE_REFRESH
from ..store import Store
from .delivery import Delivery
from .state import (
    BACKOFF_BASE,
    COUNTS_REFRESH,
    IDLE_WAIT,
    LAST_SYNC_SAVE_EVERY,
    _OfflineRequest,
    log,
)


class SyncEngine(Delivery):
    """A background thread with its own store connection and HTTP session (see the
    package's docstring)."""

    #: the clean exit ahead is the reviewer quitting (``keep_offline_batch``), not a logout
    _keep_offline = False

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

    def keep_offline_batch(self) -> None:
        """The reviewer quits (the window closes, not a logout): the clean exit ahead still
        sends what was decided and gives back the prefetch, but keeps a "work offline"
        batch leased and cached, as asked, for a start with no network (until its lease
        ends or it is decided). A store kept in memory only keeps nothing: all given back."""
        self._keep_offline = True

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
        ahead or renewed until ``end_break``; the service is told of the break (kept in
        the store until it has it: one taken offline is sent at the next start too)."""
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
            self._keep_breaks()  # a break ended on the way out, offline: sent next start
            self.store.close()
        self.api = None
        self.store = None

    def run_once(self) -> float:
        """One pass. Returns the seconds until the next pass is wanted."""
        assert self.store is not None and self.api is not None
        now = self.clock()
        self._write_through()
        self._purge()
        self._keep_breaks()  # into the store at once, online or not
        with self._shared.lock:
            token = self._shared.token
        if token != self.api.token:
            # a login again (after another token, or a pause for one): every lease held
            # here is asked about at once (a service whose data was restored or reset since
            # asks for one, and knows none of them); not the first token (nothing held yet
            # but what a start keeps, renewed when due)
            self._renew_all |= bool(token) and (bool(self.api.token) or self.paused)
            self.api.token = token
            self.paused = False
            self._told_reachable = False
        if not token or self.paused:
            self._refuse_offline("no login: log in again first", FailureKind.login_required)
            self._report_local()
            return IDLE_WAIT if self.paused or token else self._probe(now)
        if now < self.retry_at:
            self._refuse_offline("the service cannot be reached now", FailureKind.network)
            self._report_local()
            return self.retry_at - now
        self._report_local()  # what was decided since the last pass, before sending it
        try:
            self._pass()
        except AuthenticationRequired as err:
            self._refuse_offline(str(err), FailureKind.login_required)
            self.paused = True
            self._emit(ev.AuthRequired(f"The server asks you to log in again ({err})."))
            self._report_local()
            return IDLE_WAIT
        except (NetworkError, ServiceUnavailable, ProtocolError) as err:
            self._failed(str(err), err.retry_after, err.kind)
        except (StoreError, ApiError) as err:
            # a refusal the pass's step did not expect (the service's 4xx to a renewal,
            # a release or the queue list): said, and tried again later, the thread alive
            self._emit(ev.Problem(str(err), err.kind))
            self._failed(str(err), getattr(err, "retry_after", None), err.kind)
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
        """On a clean exit: send everything decided, give back what was not (but an
        offline batch when the reviewer quits: ``keep_offline_batch``), if we can."""
        assert self.store is not None and self.api is not None
        if self.paused or not self.api.token or self.online is False:
            return  # nothing can be sent now; it all stays for the next start
        try:
            self.store.flush_all(self.clock())
            self._deliver(top_up=False)
            self._send_breaks()
            self._release(self.store.to_release(), skipped=True)
            # an offline batch is kept on a quit, given back at a logout
            kept = self._keep_offline and not self._store_in_memory
            self._release(self.store.ready_leases(keep_offline=kept))
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
        not wait for it: see core/store); a verdict wakes this thread at once."""
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

    def _purge(self) -> None:
        """Retention, on every pass (online or not): cached content past its time goes."""
        assert self.store is not None
        try:
            self.store.purge_expired()  # what it changes is reported by _report_local
        except StoreError as err:
            self._emit(ev.Problem(str(err), err.kind))

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
        self._refuse_offline(reason, kind)
        self.failures += 1
        cap = float(self._setting(BACKOFF_CAP)) if self.store else 60.0
        wait = self.rng.uniform(0, min(cap, BACKOFF_BASE * 2**self.failures))
        if retry_after is not None:
            wait = max(wait, min(retry_after, 3_600.0))
        self.retry_at = self.clock() + wait
        log.info("sync failed (%d in a row), next try in %.1f s: %s", self.failures, wait, reason)
        self.online = False
        self._emit(ev.OnlineChanged(False, reason, wait, kind))

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
