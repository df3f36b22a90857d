"""The leases of a pass: giving back skipped items and the prefetch of queues left,
renewing leases (each for the length it was leased for), keeping ``prefetch_target`` items
leased ahead in the queues worked, a "work offline" batch, media, and the queue list."""

from __future__ import annotations

import math
from collections.abc import Sequence

from reviewer_app.protocol import MAX_CLAIM, MAX_LEASE_SECONDS, LeaseStatus
from reviewer_app.protocol.common import MAX_TOKENS_PER_CALL

from .. import events as ev
from ..errors import (
    ApiError,
    AuthenticationRequired,
    FailureKind,
    ProblemError,
    ServiceUnavailable,
    StoreError,
)
from ..settings import LEASE_SECONDS, OFFLINE_BATCH, OFFLINE_LEASE_SECONDS, PREFETCH
from ..store import MISSING_MEDIA, Renewal
from .state import EMPTY_QUEUE_PAUSE, SyncState, _chunks, log


class LeaseWork(SyncState):
    """Claims, renewals and releases; media and queues."""

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
        left = self.store.untouched_leases(active)
        if left:
            log.info("giving back %d items leased ahead in queues left", len(left))
            self._release(left)
        gone = self._leases_unlisted()
        if gone:
            log.info("giving back %d items of queues the service no longer lists", len(gone))
            self._release(gone)

    def _leases_unlisted(self) -> list[tuple[str, str]]:
        """The leases held here, not decided, in queues the service no longer lists (a
        queue removed, its items drained into another): no one could decide them here, so
        they are given back, never renewed. Known once the queues were listed this session;
        a decided item's lease is kept until its verdict is delivered."""
        assert self.store is not None
        if not math.isfinite(self._queues_at):
            return []
        return self.store.leases_outside([q.id for q in self.store.queues()])

    def _release(self, leases: Sequence[tuple[str, str]], *, skipped: bool = False) -> None:
        assert self.store is not None and self.api is not None
        for chunk in _chunks(list(leases), MAX_TOKENS_PER_CALL):
            try:
                self.api.release([token for _, token in chunk], skipped=skipped)
            except ProblemError as err:
                if isinstance(err, ServiceUnavailable | AuthenticationRequired):
                    raise  # kept, and given back at a later pass
                # the service refused to take them back (a role changed, a lease it does
                # not know): they lapse there by themselves; nothing is left to do here
                log.warning("the service refused to release %d leases: %s", len(chunk), err)
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
            unlisted = {item_id for item_id, _ in self._leases_unlisted()}
            leases = [lease for lease in leases if lease.item_id not in unlisted]
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
            try:
                results = self.api.renew([token for _, token in chunk], seconds).results
            except ProblemError as err:
                if isinstance(err, ServiceUnavailable | AuthenticationRequired):
                    raise
                # refused outright (a lead made a reviewer holds a lead-only queue's items):
                # those leases will not be renewed, so they are lost as a refused one is
                log.warning("the service refused to renew %d leases: %s", len(chunk), err)
                results = [LeaseStatus(token=token, status="lost") for _, token in chunk]
            renewed = [r.token for r in results if r.status == "renewed"]
            if renewed and self.store.any_ran_out(renewed):
                # back in the worklist at the count it had before its lease ran out: told
                # all the same (a window that found nothing meanwhile waits for the news)
                self._worklist_changed()
            lost += self.store.apply_lease_results(results, asked=seconds)
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

    def _claim(
        self, queue_id: str, count: int, lease_seconds: int, *, offline: bool = False
    ) -> int:
        """Lease up to ``count`` items (``offline``: for a "work offline" batch); 0 when the
        queue (or our lease cap) gave none."""
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
        added = self.store.add_leased(grant, asked=lease_seconds, offline=offline)
        if added:
            # the reviewer's next post now, not after this pass has fetched every media
            # file of the claim and refreshed the queues (a round trip each)
            self._worklist_changed()
            self._report_local()
        return added

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
                    got = self._claim(request.queue_id, total - done, seconds, offline=True)
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
            short = (
                None
                if done >= total
                else f"Only {done} of {total} items could be leased: the queue has no more "
                "for you, or you reached the server's limit of items held at once."
            )
            # told before the renewal below, which may fail: the batch is leased already
            self._emit(ev.Progress("offline", done, total, finished=True, error=short))
            # the items leased ahead before the batch last as long as it, and stay first
            # (lengthened here at once; a renewal that fails is made again when due)
            longer = self.store.lengthen_leases(request.queue_id, seconds)
            if longer:
                self._renew(longer)

    def _refuse_offline(self, reason: str, kind: FailureKind) -> None:
        """Batches asked for (Ctrl+O) that cannot be leased now: the service cannot be
        reached, or wants a login. Each is answered as stopped, none kept for later (the
        reviewer, told, asks again; by then they may be working elsewhere)."""
        with self._shared.lock:
            asked = list(self._shared.offline)
            self._shared.offline.clear()
        for request in asked:
            total = request.count or int(self._setting(OFFLINE_BATCH))
            self._emit(ev.Progress("offline", 0, total, True, error=reason, kind=kind))

    def _fetch_media(self, limit: int | None = 20) -> None:
        assert self.store is not None and self.api is not None
        fetched: set[tuple[str, str]] = set()
        while True:
            wanted = [w for w in self.store.media_wanted(limit or 50) if w not in fetched]
            if not wanted:
                return  # all fetched (and never the same one twice in a pass)
            fetched.update(wanted)
            for item_id, media_id in wanted:
                # one upload shown by several posts is fetched and kept once
                if not self.store.link_media(item_id, media_id):
                    try:
                        data, kind = self.api.media(media_id)
                    except ProblemError as err:
                        if err.status not in (404, 410):
                            raise
                        data, kind = b"", MISSING_MEDIA
                    self.store.save_media(item_id, media_id, kind, data)
                self._emit(ev.MediaSaved((media_id,)))
            if limit is not None:
                return

    def _refresh_queues(self) -> None:
        assert self.store is not None and self.api is not None
        queues = self.api.queues().queues
        self.store.save_queues(queues)
        self._queues_at = self.clock()
        self._counts_changed = False
        self._emit(ev.QueuesChanged(tuple(queues)))
