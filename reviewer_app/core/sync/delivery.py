"""Delivering verdicts: in batches once their undo window has passed, each answer settled
in the store (a batch the server refuses whole is sent one verdict at a time to find the
ones it refuses; one refused for not fitting its queue's config is decided again); and the
breaks the reviewer took, for the service."""

from __future__ import annotations

from reviewer_app.protocol import (
    MAX_VERDICTS_PER_BATCH,
    BreakRecord,
    ProblemDetail,
    RejectReason,
    VerdictResult,
    VerdictStatus,
)
from reviewer_app.protocol.accounts import closes_items

from .. import events as ev
from ..errors import (
    ApiError,
    AuthenticationRequired,
    NetworkError,
    ProblemError,
    ProtocolError,
    ServiceUnavailable,
    StoreError,
)
from ..settings import BATCH_SIZE
from ..store import Outgoing
from ..store.documents import read_document
from .leases import LeaseWork
from .state import log

#: the rejection of a verdict whose lease the service never issued (its data was restored
#: from a backup or reset since the claim)
UNKNOWN_LEASE = "unknown_lease"


class Delivery(LeaseWork):
    """Verdicts and break records, to the service."""

    def _keep_breaks(self) -> None:
        """The breaks the window reported since the last pass into the store (online or
        not), where they wait until the service has them: one taken offline reaches it
        at the next pass that can send, or after a restart."""
        with self._shared.lock:
            records, self._shared.breaks = self._shared.breaks, []
        if self.store is None:
            with self._shared.lock:  # (not open: kept for when it is)
                self._shared.breaks[:0] = records
            return
        for i, record in enumerate(records):
            try:
                self.store.keep_break(str(record.id), record.model_dump_json())
            except StoreError as err:  # kept in memory and tried again at the next pass
                log.warning("a break could not be kept in the store: %s", err)
                with self._shared.lock:
                    self._shared.breaks[:0] = records[i:]
                return

    def _send_breaks(self) -> None:
        """Tell the service of breaks started or ended (kept in the store until it has
        them; the same id twice is one break there); one it refuses is logged and dropped
        (a break is a figure for the lead, never worth stopping the sync for)."""
        assert self.api is not None and self.store is not None
        self._keep_breaks()
        kept: list[tuple[BreakRecord, str, str]] = []
        for key, text in self.store.unsent_breaks():
            try:
                kept.append((read_document(BreakRecord, text), key, text))
            except ValueError as err:
                log.warning("a break kept here cannot be read; dropped: %s", err)
                self.store.break_sent(key, text)
        for record, key, text in sorted(kept, key=lambda k: k[0].started_at):
            try:
                self.api.record_break(record)
            except (NetworkError, ServiceUnavailable, AuthenticationRequired, ProtocolError):
                raise  # kept, and sent again at the next pass (or the next start)
            except ApiError as err:
                log.warning("the service refused a break record: %s", err)
            self.store.break_sent(key, text)

    def _deliver(self, *, top_up: bool = True) -> None:
        """Send what is due, in batches; ``top_up``: claim between them (not on the way
        out: what a clean exit claimed it gave straight back)."""
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
            if top_up:
                self._top_up()

    def _send(self, batch: list[Outgoing]) -> None:
        """Send one batch and settle what the server said about each verdict."""
        assert self.store is not None and self.api is not None
        again: list[str] = []
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
            if err.status == 422 and err.code == "verdict_invalid":
                # not final for the post: the queue's config changed since the bar offered
                # that action. The configs first, then the item back to decide again
                again = [str(r.idempotency_key) for r in results]
                self._refresh_queues()
        settled = self.store.settle(results, decide_again=again)
        self._counts_changed = True
        # every lease held is asked about now when an accepted verdict's account action
        # may have closed other items, or when the service knew no lease of one: its data
        # was restored or reset since the claims, and the posts leased with the same loss
        # leave the worklist before they are decided in vain
        self._renew_all |= any(
            (
                r.status is VerdictStatus.accepted
                and r.decision is not None
                and r.decision.author_action is not None
                and closes_items(r.decision.author_action)
            )
            or (
                r.status is VerdictStatus.rejected
                and r.reason is not None
                and r.reason.code == UNKNOWN_LEASE
            )
            for r in results
        )
        self._emit(ev.VerdictsSettled(tuple(settled)))
        if any(e.status == VerdictStatus.conflict for e in settled):
            self._emit(ev.ConflictsChanged(len(self.store.conflicts())))

    def _invalid(self, batch: list[Outgoing], errors: list[ProblemDetail]) -> list[VerdictResult]:
        """Verdicts that do not fit their queue's config are rejected with the server's
        reason (their items decided again); the rest stay in the outbox for the next
        request."""
        bad: dict[int, ProblemDetail] = {}
        for detail in errors:
            if len(detail.loc) >= 2 and detail.loc[0] == "verdicts":
                index = detail.loc[1]
                if isinstance(index, int) and 0 <= index < len(batch):
                    bad.setdefault(index, detail)
        return [_rejected(batch[i], d.code or "verdict_invalid", d.message) for i, d in bad.items()]


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
