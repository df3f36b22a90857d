"""A state machine of one reviewer's client (the local store and the sync engine, driven
pass by pass) against the real reference service over HTTP, through a fault proxy, with a
rival reviewer, and one clock for the client and the service that stands still until a rule
moves it.

Rules: decide (the next local items, now and then with a verdict the server refuses), undo
(the latest verdict or a given one), skip, the network going away and coming back, a sync
pass, "work offline", time passing (undo windows, backoff and renewals on the client; lease
expiry on the service), a pass whose reply is lost after the server acted, a crash (no
clean exit) and a restart on the same file, and a rival who claims our items once our
lease ran out and decides them, or holds them for a while.

After every step: nothing recorded is lost from the local journal, a settled verdict never
changes its answer, no verdict is sent inside its undo window and none that was undone, the
outbox is exactly the pending verdicts, and the service holds at most one decision per item.
At the end, everything is delivered online and each verdict is accounted for: accepted (its
decision on the server, once), a conflict (shown with the decision that won), or rejected
with the server's reason; an item we decided that the rival won shows up as a conflict.
"""

from __future__ import annotations

import os
import random
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)
from sqlalchemy import func, select

from reviewer_app.core import events as ev
from reviewer_app.core.api import ApiClient
from reviewer_app.core.store import (
    AlreadyDecided,
    Conflict,
    JournalEntry,
    NothingToUndo,
    Store,
)
from reviewer_app.core.sync import SyncEngine
from reviewer_app.protocol import (
    Decision,
    LeasedItem,
    Role,
    Verdict,
    VerdictResults,
    VerdictStatus,
)
from reviewer_app.server.demo.queues import DEMO_QUEUES
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.storage import tables
from tests.support.client import EventLog, all_decisions, fast_settings, login
from tests.support.clock import ManualClock
from tests.support.proxy import FaultProxy, Rule
from tests.support.servers import LiveServer

ITEMS = 30
START = 1_900_000_000.0
SHRINK_ENV = "REVIEWER_APP_TEST_SHRINK"
UNDO_WINDOW = 10.0
LEASE_SECONDS = 60
#: (action, policies): every action of the load-test queue, each in a valid form
ACTIONS = {"keep": [], "remove": ["SPAM.SCAM"], "escalate": []}
#: now and then a verdict the queue's config refuses ("remove" needs a policy code)
CARELESS = "remove-without-policy"
CHOICES = [*sorted(ACTIONS), *sorted(ACTIONS), CARELESS]
FINAL = {"accepted", "duplicate", "conflict", "rejected", "undone"}
#: requests whose reply can be lost after the server acted ("claim": a queue's leases)
LOSSY = {
    "verdicts": "/api/v1/verdicts",
    "renew": "/api/v1/leases/renew",
    "release": "/api/v1/leases/release",
    "claim": "/api/v1/queues/",
}


class SpyApi(ApiClient):
    """The engine's real ApiClient, showing the state machine every verdict batch before it
    goes out. urllib3's retries keep their number and their rules but not their real-time
    sleeps (the state machine moves time itself)."""

    def __init__(self, url: str, sending: Callable[[Sequence[Verdict]], None]) -> None:
        super().__init__(url)
        self.sending = sending
        for adapter in self.session.adapters.values():
            retry = adapter.max_retries  # type: ignore[attr-defined]
            adapter.max_retries = retry.new(backoff_factor=0.0, backoff_jitter=0.0)  # type: ignore[attr-defined]

    def verdicts(self, verdicts: Sequence[Verdict]) -> VerdictResults:
        self.sending(verdicts)
        return super().verdicts(verdicts)


class SharedService:
    """One reference service for a whole run (a new one per example would cost more than
    the example). Each example gets its own queue and its own reviewers, so nothing it
    leases or decides is seen by another, and starts the clock at the same moment, so that
    an example replays exactly (as Hypothesis needs to shrink it)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.clock = ManualClock(START)
        self.server = LiveServer(f"sqlite:///{root / 'service.db'}", clock=self.clock).start()
        escalations = next(q for q in DEMO_QUEUES if q.id == "escalations")
        with self.server.service.db.write() as conn:
            insert_queues(conn, [escalations])
        self.server.service.forget_configs()
        self.server.add_user("lead", Role.lead)
        self.examples = 0

    def new_queue(self) -> tuple[int, str]:
        self.clock.now = START
        self.examples += 1
        queue = SeedQueue(
            id=f"sync-{self.examples}",
            name=f"Sync example {self.examples}",
            description="One example of the state machine",
            config=LOAD_QUEUE.config,
        )
        seed_load_queue(self.server.service, ITEMS, queue=queue)
        return self.examples, queue.id

    def close(self) -> None:
        self.server.stop()


class SyncMachine(RuleBasedStateMachine):
    def __init__(self, shared: SharedService) -> None:
        super().__init__()
        self.shared = shared
        self.clock = shared.clock
        self.server = shared.server
        number, self.queue = shared.new_queue()
        self.me_name = f"me-{number}"
        self.rival_name = f"rival-{number}"
        self.path = shared.root / f"{self.me_name}.sqlite3"
        self.proxy: FaultProxy | None = None
        self.engine: SyncEngine | None = None
        self.ui: Store | None = None
        self.clients: list[ApiClient] = []
        self.me = self._login(self.me_name)
        self.rival = self._login(self.rival_name)
        self.lead = login(self.server.url, "lead")  # made once, by SharedService
        self.clients.append(self.lead)
        self.proxy = FaultProxy(self.server.port).start()
        # the model: what we recorded, undid and sent; what the server and the UI said
        self.recorded: dict[str, str] = {}  # key -> item id, in the order decided
        self.undone: set[str] = set()
        self.sent: set[str] = set()
        self.final: dict[str, str] = {}
        self.logs: list[EventLog] = []
        self.rival_held: list[LeasedItem] = []
        self.engines = 0
        self.undo_window = UNDO_WINDOW

    @initialize(undo_window=st.sampled_from([UNDO_WINDOW, 0.0]))
    def start(self, undo_window: float) -> None:
        """The reviewer's settings (with an undo window, or sending at once), the app
        started, and a first pass that leases items ahead."""
        self.undo_window = undo_window
        fast_settings(
            self.path,
            undo_window_seconds=undo_window,
            prefetch_target=3,
            lease_seconds=LEASE_SECONDS,
            offline_lease_seconds=2 * LEASE_SECONDS,
            verdict_batch_size=3,
        )
        self._open()
        assert self.engine is not None
        self.engine.run_once()

    def _login(self, name: str) -> ApiClient:
        """A new reviewer, logged in."""
        client = login(self.server, name)
        self.clients.append(client)
        return client

    def _sending(self, verdicts: Sequence[Verdict]) -> None:
        """The engine is about to send these: ours, past their undo window, not undone."""
        for verdict in verdicts:
            key = str(verdict.idempotency_key)
            assert key in self.recorded, f"the engine sent a verdict we never made: {key}"
            assert key not in self.undone, f"the engine sent an undone verdict: {key}"
            entry = self.ui.journal_entry(key)  # type: ignore[union-attr]
            assert entry is not None
            assert self.clock() >= entry.recorded_at + self.undo_window, (
                f"{key} was sent inside its undo window"
            )
            self.sent.add(key)

    def _open(self) -> None:
        """Start the client as the app does: the engine's connection and the UI's."""
        assert self.proxy is not None
        log = EventLog()
        self.logs.append(log)
        self.engines += 1
        self.engine = SyncEngine(
            self.proxy.url,
            self.path,
            token=self.me.token,
            listener=log,
            clock=self.clock,
            rng=random.Random(self.engines),
            api_factory=lambda: SpyApi(self.proxy.url, self._sending),  # type: ignore[union-attr]
        )
        self.engine.open()
        self.ui = Store(self.path, clock=self.clock)
        self.engine.set_active_queues([self.queue])

    def teardown(self) -> None:
        try:
            if self.engine is not None and self.engine.store is not None:
                self._drain()
                self._rival_finishes()
                self._final_checks()
        finally:
            if self.engine is not None:
                self.engine.close()
            if self.ui is not None:
                self.ui.close()
            for client in self.clients:
                client.close()
            if self.proxy is not None:
                self.proxy.stop()
            for suffix in ("", "-wal", "-shm"):
                Path(f"{self.path}{suffix}").unlink(missing_ok=True)

    # --- the reviewer -------------------------------------------------------------------

    @rule(
        choices=st.lists(st.sampled_from(CHOICES), min_size=1, max_size=3),
        include_expired=st.booleans(),
    )
    def decide(self, choices: list[str], include_expired: bool) -> None:
        """The reviewer decides the next few local items (offline, expired ones too), now
        and then with a verdict the server refuses: it is rejected with its reason and the
        rest of its batch is taken."""
        assert self.ui is not None
        for choice in choices:
            stored = self.ui.next_item(self.queue, include_expired=include_expired)
            if stored is None:
                event("decide: no item")
                return
            action, policies = ("remove", []) if choice == CARELESS else (choice, ACTIONS[choice])
            entry = self.ui.record_verdict(
                stored.item.id, action=action, policies=policies, time_spent_ms=1_500
            )
            assert entry.key not in self.recorded
            self.recorded[entry.key] = stored.item.id
            # a doubled keypress cannot decide twice
            try:
                self.ui.record_verdict(stored.item.id, action="keep")
            except AlreadyDecided:
                pass
            else:
                raise AssertionError("an item was decided twice locally")

    def _undone(self, key: str) -> None:
        assert key in self.recorded, "undo returned a verdict we never recorded"
        assert key not in self.undone, "a verdict was undone twice"
        assert key not in self.sent, "a verdict already sent was undone"
        self.undone.add(key)

    @precondition(lambda self: self.recorded)
    @rule(data=st.data(), latest=st.booleans())
    def undo(self, data: st.DataObject, latest: bool) -> None:
        """Undo the latest verdict, or one picked from the journal (often too late)."""
        assert self.ui is not None
        key = None if latest else data.draw(st.sampled_from(list(self.recorded)), label="key")
        try:
            entry = self.ui.undo(key)
        except NothingToUndo:
            event("undo: nothing to undo")
            return
        assert key is None or entry.key == key
        self._undone(entry.key)
        stored = self.ui.stored_item(entry.item_id)
        assert stored is not None and stored.state == "ready"
        if key is None and not stored.lease_lost:  # the undone item is shown next
            shown = self.ui.next_item(self.queue, include_expired=True)
            assert shown is not None and shown.item.id == entry.item_id

    @rule(include_expired=st.booleans())
    def skip(self, include_expired: bool) -> None:
        """The reviewer passes on the next item: it is not shown again, and given back."""
        assert self.ui is not None
        stored = self.ui.next_item(self.queue, include_expired=include_expired)
        if stored is not None:
            self.ui.skip(stored.item.id)
            shown = self.ui.next_item(self.queue, include_expired=True)
            assert shown is None or shown.item.id != stored.item.id

    # --- the network, the engine and time -------------------------------------------

    @rule(online=st.booleans(), reset_backoff=st.booleans())
    def network(self, online: bool, reset_backoff: bool) -> None:
        """The network goes away (connections refused), or comes back; on its return the
        app may try again at once or wait out its backoff."""
        assert self.proxy is not None and self.engine is not None
        if not online:
            self.proxy.offline()
        else:
            self.proxy.online()
            if reset_backoff:
                self.engine.retry_at = 0.0

    @rule(prefetch=st.booleans())
    def sync(self, prefetch: bool) -> None:
        """One pass of the engine, reviewing the queue (items leased ahead) or not."""
        assert self.engine is not None
        self.engine.set_active_queues([self.queue] if prefetch else [])
        self.engine.run_once()

    @rule(count=st.integers(1, 6))
    def work_offline(self, count: int) -> None:
        """ "Work offline": a batch leased for longer, in the next pass."""
        assert self.engine is not None
        self.engine.work_offline(self.queue, count)
        self.engine.run_once()

    @rule(seconds=st.sampled_from([1, 11, 25, 70, 130]))
    def advance(self, seconds: float) -> None:
        """Time passes with no pass of the engine (the lid is closed, the thread waits):
        undo windows end, backoffs run out, leases reach renewal age or expire."""
        self.clock.advance(seconds)

    @rule(lost=st.sampled_from([None, *sorted(LOSSY)]), crash=st.booleans())
    def interrupt(self, lost: str | None, crash: bool) -> None:
        """A pass in which the server acts on a request but the client never hears back
        (the connection is reset once the server answered), and/or a crash: the app dies
        with no shutdown pass, nothing flushed or released, and starts again."""
        assert self.proxy is not None and self.engine is not None and self.ui is not None
        if lost is not None:
            # the app waits out its backoff, if any, so that the pass is made (and for a
            # lost verdict batch, the undo window too, so that there is one to send)
            wait = max(0.0, self.engine.retry_at - self.clock())
            self.clock.advance(wait + (self.undo_window if lost == "verdicts" else 0.0))
            self.proxy.add(Rule("POST", LOSSY[lost], "reset_after", times=3))
            try:
                self.engine.run_once()
            finally:
                self.proxy.clear()
            event(f"interrupt {lost}: {self.ui.counts().in_flight} in flight")
        if crash or lost is None:
            self.engine.close()
            self.ui.close()
            self._open()

    # --- the rival ----------------------------------------------------------------------

    def _rival_claim(self, count: int, wait: bool) -> list[LeasedItem]:
        """The rival claims the queue's next items and keeps those we held (they come back
        to the queue only once our lease ran out: with ``wait``, time passes until then);
        the others they give back at once, so that the queue is not used up by items we
        never saw."""
        assert self.ui is not None
        if wait:
            ends = [r.lease_expires_at for r in self.ui.worklist(self.queue)]
            self.clock.advance(max(0.0, max(ends, default=0.0) - self.clock()) + 1)
        items = self.rival.claim(self.queue, count, LEASE_SECONDS).items
        ours = [i for i in items if self.ui.stored_item(i.item.id) is not None]
        others = [i.lease_token for i in items if i not in ours]
        if others:
            self.rival.release(others)
        event(f"rival claims: {len(items)} items, {len(ours)} of them ours")
        return ours

    @rule(
        count=st.integers(1, 4),
        wait=st.booleans(),
        decide=st.booleans(),
        action=st.sampled_from(sorted(ACTIONS)),
    )
    def rival_claims(self, count: int, wait: bool, decide: bool, action: str) -> None:
        """The rival takes items of ours whose lease ran out, and decides them at once or
        holds them for now."""
        for leased in self._rival_claim(count, wait):
            if decide:
                self._rival_decides(leased, action)
            else:
                self.rival_held.append(leased)

    def _rival_decides(self, leased: LeasedItem, action: str) -> None:
        verdict = Verdict.model_validate(
            {
                "idempotency_key": uuid.uuid4(),
                "item_id": leased.item.id,
                "lease_token": leased.lease_token,
                "action": action,
                "policies": ACTIONS[action],
                "time_spent_ms": 2_000,
                "decided_at": datetime.fromtimestamp(self.clock(), UTC),
            }
        )
        result = self.rival.verdicts([verdict]).results[0]
        assert result.status in (
            VerdictStatus.accepted,
            VerdictStatus.conflict,
            VerdictStatus.rejected,
        ), result

    @precondition(lambda self: self.rival_held)
    @rule(data=st.data(), action=st.sampled_from(sorted(ACTIONS)))
    def rival_decides(self, data: st.DataObject, action: str) -> None:
        """The rival decides an item they held (their lease may have run out meanwhile)."""
        index = data.draw(st.integers(0, len(self.rival_held) - 1), label="held")
        self._rival_decides(self.rival_held.pop(index), action)

    # --- after every step ------------------------------------------------------------

    @invariant()
    def local_journal_is_consistent(self) -> None:
        assert self.ui is not None
        journal = {e.key: e for e in self.ui.journal(limit=10_000)}
        missing = set(self.recorded) - set(journal)
        assert not missing, f"recorded verdicts lost from the journal: {missing}"
        for key, entry in journal.items():
            assert entry.item_id == self.recorded[key]
            if key in self.undone:
                assert entry.status == "undone", (key, entry.status)
            else:
                assert entry.status != "undone", f"{key} undone without undo"
            if key in self.final:
                assert entry.status == self.final[key], (
                    f"{key} was {self.final[key]}, now {entry.status}"
                )
            elif entry.status in FINAL:
                self.final[key] = entry.status
        assert not (self.undone & self.sent), "an undone verdict was sent"
        outbox = {r[0] for r in self.ui.conn.execute("SELECT key FROM outbox")}
        pending = {k for k, e in journal.items() if e.status == "pending"}
        assert outbox == pending
        per_item = Counter(journal[k].item_id for k in pending)
        assert all(n == 1 for n in per_item.values()), per_item
        conflict_keys = {c.key for c in self.ui.conflicts(open_only=False)}
        assert conflict_keys == {k for k, e in journal.items() if e.status == "conflict"}

    def _decisions(self) -> list[Decision]:
        """The server's decisions on this example's items (only our two reviewers')."""
        return all_decisions(self.lead, self.me_name) + all_decisions(self.lead, self.rival_name)

    @invariant()
    def server_decides_each_item_at_most_once(self) -> None:
        """Read in the service's database after each step (quicker than the API, which the
        final checks use)."""
        query = (
            select(tables.decisions.c.item_id, func.count())
            .where(tables.decisions.c.queue_id == self.queue)
            .group_by(tables.decisions.c.item_id)
            .having(func.count() > 1)
        )
        with self.server.service.db.read() as conn:
            twice = conn.execute(query).all()
        assert not twice, f"items decided more than once: {twice}"

    # --- the end ---------------------------------------------------------------------------

    def _drain(self) -> None:
        """Back online: let every undo window pass and sync until the outbox is empty
        (time passes meanwhile, up to a few leases' length, so that a verdict that waits
        for someone else's lease to end can be delivered too)."""
        assert self.proxy is not None and self.engine is not None and self.ui is not None
        self.proxy.clear()
        self.proxy.online()
        self.engine.set_active_queues([])
        self.clock.advance(self.undo_window)
        for _ in range(12):
            self.clock.advance(LEASE_SECONDS / 4)
            self.engine.retry_at = 0.0
            self.engine.run_once()
            if self.engine.online and self.ui.counts().pending == 0:
                break
        assert self.ui.counts().pending == 0, "the outbox did not drain online"
        assert not self.ui.to_release(), "skipped items were not given back"
        self.local_journal_is_consistent()
        self.server_decides_each_item_at_most_once()

    def _rival_finishes(self) -> None:
        """The rival decides what they still hold (late verdicts count if nobody else took
        the item meanwhile)."""
        while self.rival_held:
            self._rival_decides(self.rival_held.pop(0), "keep")
        self.server_decides_each_item_at_most_once()

    def _final_checks(self) -> None:
        assert self.ui is not None and self.engine is not None
        journal = {e.key: e for e in self.ui.journal(limit=10_000)}
        conflicts = {c.key: c for c in self.ui.conflicts(open_only=False)}
        decisions = self._decisions()
        by_item = {d.item_id: d for d in decisions}
        mine = [d for d in decisions if d.reviewer == self.me_name]
        assert all(d.queue_id == self.queue for d in decisions)
        per_item = Counter(d.item_id for d in decisions)
        assert all(n == 1 for n in per_item.values()), f"decided twice: {per_item}"

        # undone verdicts never reached the server (neither the client's record of what
        # it sent nor the server's idempotency keys hold one)
        assert not (self.undone & self.sent)
        with self.server.service.db.read() as conn:
            keys = tables.verdict_keys.c.key
            query = select(keys).where(keys.in_(self.undone))
            assert not conn.execute(query).scalars().all()

        delivered: dict[int, str] = {}
        for key, entry in journal.items():
            reason = entry.result.reason if entry.result else None
            event(f"verdict {entry.status}" + (f" ({reason.code})" if reason else ""))
            if entry.status == "undone":
                continue
            assert entry.result is not None, f"{key} settled without the server's answer"
            if entry.status in ("accepted", "duplicate"):
                assert entry.result.decision is not None
                decision = by_item.get(entry.item_id)
                assert decision is not None and decision.reviewer == self.me_name, (key, decision)
                assert decision.id == entry.result.decision.id
                assert decision.action == entry.action
                assert decision.id not in delivered, "two verdicts took one decision"
                delivered[decision.id] = key
            elif entry.status == "conflict":
                conflict = conflicts.get(key)
                assert conflict is not None, f"conflict {key} is not shown"
                assert conflict.item_id == entry.item_id
                assert conflict.mine.idempotency_key == entry.verdict.idempotency_key
                assert conflict.theirs == entry.result.decision
                winner = by_item.get(entry.item_id)
                assert winner is not None and winner.reviewer == self.rival_name
                assert conflict.theirs.id == winner.id
                assert conflict.item is not None and conflict.item.id == entry.item_id
            else:
                assert entry.status == "rejected", (key, entry.status)
                reason = entry.result.reason
                assert reason is not None and reason.code and reason.message

        # nothing duplicated: each of our decisions on the server is one accepted verdict
        assert Counter(d.item_id for d in mine) == Counter(
            journal[k].item_id for k in delivered.values()
        )
        assert sorted(delivered) == sorted(d.id for d in mine)

        self._check_conflicts_visible(journal, conflicts, by_item)

        # the UI was told about each settled verdict once, with the journal's answer
        told: Counter[tuple[str, str]] = Counter(
            (e.key, e.status)
            for log in self.logs
            for batch in log.of(ev.VerdictsSettled)
            for e in batch.entries
        )
        assert told == Counter((k, e.status) for k, e in journal.items() if e.status != "undone")
        last = self.logs[-1]
        assert last.last(ev.PendingChanged) == ev.PendingChanged(0, 0)
        assert last.last(ev.ConflictsChanged) in (None, ev.ConflictsChanged(len(conflicts)))

    def _check_conflicts_visible(
        self,
        journal: dict[str, JournalEntry],
        conflicts: dict[str, Conflict],
        by_item: dict[str, Decision],
    ) -> None:
        """Every item we decided (a valid verdict, not undone) that the rival won shows the
        rival's decision in a conflict."""
        ours: defaultdict[str, list[JournalEntry]] = defaultdict(list)
        for entry in journal.values():
            if entry.status != "undone" and not _invalid(entry):
                ours[entry.item_id].append(entry)
        for item_id, entries in ours.items():
            decision = by_item.get(item_id)
            if decision is None:
                if any(_lost_to_other(e) for e in entries):
                    event("rejected as held by the rival, then left undecided")
                continue
            if decision.reviewer == self.me_name:
                continue
            shown = [
                conflicts[e.key]
                for e in entries
                if e.key in conflicts and conflicts[e.key].theirs.id == decision.id
            ]
            assert shown, (
                f"item {item_id} was decided by {decision.reviewer} after our verdict(s) "
                f"{[(e.status, e.result and e.result.reason) for e in entries]}, "
                "and no conflict shows it"
            )


def _invalid(entry: JournalEntry) -> bool:
    """Rejected because the verdict did not fit the queue's config (our own mistake)."""
    reason = entry.result.reason if entry.result else None
    return entry.status == "rejected" and reason is not None and reason.code == "policy_required"


def _lost_to_other(entry: JournalEntry) -> bool:
    reason = entry.result.reason if entry.result else None
    return entry.status == "rejected" and reason is not None and reason.code == "leased_to_other"


def test_store_and_sync_engine_against_the_real_service(tmp_path: Path) -> None:
    """About 40 examples of up to 30 steps: 10 to 20 seconds. A failure is reported as it was
    found: shrinking it replays hundreds of examples against the service, which takes
    minutes (near the suite's timeout); set REVIEWER_APP_TEST_SHRINK=1 for the shortest
    sequence of steps that fails."""
    shrink = os.environ.get(SHRINK_ENV, "") not in ("", "0")
    shared = SharedService(tmp_path)
    try:
        run_state_machine_as_test(
            lambda: SyncMachine(shared),
            settings=settings(
                max_examples=40,
                stateful_step_count=30,
                deadline=None,
                suppress_health_check=[HealthCheck.too_slow],
                phases=[p for p in Phase if shrink or p not in (Phase.shrink, Phase.explain)],
            ),
        )
    finally:
        shared.close()


@pytest.mark.parametrize("rival", ["decides", "walks_away"])
def test_a_verdict_sent_while_the_rival_holds_the_item_is_not_dropped(
    tmp_path: Path, rival: str
) -> None:
    """The machine's shortest failing case, step by step: our lease runs out before our
    verdict is sent, the rival claims the item, and our verdict reaches the server while
    the rival holds it. The server answers ``rejected`` / ``leased_to_other`` and keeps no
    answer under the key ("looked at afresh next time"), but the client takes that answer
    as final and forgets the item. So when the rival then decides, no conflict shows their
    decision; and when the rival walks away instead, our late verdict, which the server
    would now take, is never sent again."""
    shared = SharedService(tmp_path)
    try:
        _number, queue = shared.new_queue()
        me = login(shared.server, "me-solo")
        other = login(shared.server, "rival-solo")
        path = tmp_path / "me-solo.sqlite3"
        fast_settings(path, prefetch_target=1, lease_seconds=LEASE_SECONDS)
        engine = SyncEngine(shared.server.url, path, token=me.token, clock=shared.clock)
        engine.open()
        try:
            engine.set_active_queues([queue])
            engine.run_once()
            engine.set_active_queues([])
            store = engine.store
            assert store is not None
            held = store.next_item(queue)
            assert held is not None
            mine = store.record_verdict(held.item.id, action="keep")
            shared.clock.advance(LEASE_SECONDS + 1)  # the lid was closed: no sync meanwhile
            grant = other.claim(queue, 1, LEASE_SECONDS)
            assert [i.item.id for i in grant.items] == [held.item.id]
            engine.run_once()  # our verdict arrives while the rival holds the item

            if rival == "decides":
                theirs = Verdict.model_validate(
                    {
                        "idempotency_key": uuid.uuid4(),
                        "item_id": held.item.id,
                        "lease_token": grant.items[0].lease_token,
                        "action": "remove",
                        "policies": ["SPAM.SCAM"],
                        "time_spent_ms": 2_000,
                        "decided_at": datetime.fromtimestamp(shared.clock(), UTC),
                    }
                )
                assert other.verdicts([theirs]).results[0].status is VerdictStatus.accepted
                shared.clock.advance(LEASE_SECONDS)  # a while later (a retry may wait)
                engine.run_once()
                conflicts = store.conflicts()
                assert [c.key for c in conflicts] == [mine.key], (
                    "our verdict lost the item to the rival, and no conflict shows it: "
                    f"{store.journal_entry(mine.key)}"
                )
                assert conflicts[0].theirs.reviewer == "rival-solo"
            else:
                shared.clock.advance(LEASE_SECONDS + 1)  # the rival's lease runs out
                engine.run_once()
                entry = store.journal_entry(mine.key)
                assert entry is not None and entry.status == "accepted", (
                    f"our late verdict was not sent again once the item was free: {entry}"
                )
        finally:
            engine.close()
            me.close()
            other.close()
    finally:
        shared.close()
