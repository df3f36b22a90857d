"""Leasing under load, over real HTTP: many reviewers, one queue, one or two server processes.

No item is ever leased to two reviewers at once, every item is decided exactly once,
expired and released leases go back to the queue, caps hold, and the queue is worked in
priority order.
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    PriorityWeights,
    QueueConfig,
    Role,
    UserCreate,
)
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.service import Service
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.clock import ManualClock
from tests.support.servers import PASSWORD, LiveServer, ServerProcess, running

QUEUE = LOAD_QUEUE.id
LOAD_ITEMS = 2_000
REVIEWERS = 50
CLAIM = 10

Claim = tuple[str, str, str]
"""(item id, lease token, reviewer) as one claim handed it out."""


def load_item_ids(count: int, queue_id: str = QUEUE) -> set[str]:
    return {f"{queue_id}-{i:07d}" for i in range(count)}


def claim_grant(
    session: ApiSession, count: int, lease_seconds: int = 300, queue_id: str = QUEUE
) -> dict[str, Any]:
    response = session.post(
        f"/queues/{queue_id}/leases", json={"count": count, "lease_seconds": lease_seconds}
    )
    assert response.status_code == 200, response.text
    grant: dict[str, Any] = response.json()
    assert len(grant["items"]) <= count, (
        f"asked for {count} items, the claim leased {len(grant['items'])}"
    )
    return grant


def every_page(session: ApiSession, path: str, key: str, **params: Any) -> list[dict[str, Any]]:
    """Every entry of a paged lead list, following next_cursor to the end."""
    found: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(1_000):
        query = {**params, "limit": 500}
        if cursor:
            query["cursor"] = cursor
        response = session.get(path, params=query)
        assert response.status_code == 200, response.text
        page = response.json()
        found += page[key]
        cursor = page["next_cursor"]
        if cursor is None:
            return found
    raise AssertionError(f"{path} never stopped paging")


def queue_counts(session: ApiSession, queue_id: str = QUEUE) -> dict[str, Any]:
    response = session.get("/queues")
    assert response.status_code == 200, f"GET /queues failed: {response.text}"
    queues = {q["id"]: q for q in response.json()["queues"]}
    assert queue_id in queues, sorted(queues)
    counts: dict[str, Any] = queues[queue_id]["counts"]
    return counts


def lease_statuses(session: ApiSession, action: str, tokens: list[str], **extra: Any) -> list[str]:
    response = session.post(f"/leases/{action}", json={"tokens": tokens, **extra})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [r["token"] for r in results] == tokens
    return [r["status"] for r in results]


def history_kinds(session: ApiSession, item_id: str) -> list[tuple[str, str | None]]:
    events = every_page(session, f"/items/{item_id}/history", "events")
    return [(e["kind"], e["actor"]) for e in events]


# -- many reviewers, one queue --------------------------------------------------------------


class Drain:
    """What the reviewer threads share: when to give up, so a misbehaving server fails the
    test instead of keeping the threads (and the pool that waits for them) busy forever."""

    def __init__(self, items: int, seconds: float = 240) -> None:
        self.items = items
        self.deadline = time.monotonic() + seconds
        self.handed_out = 0
        self.stopped: str | None = None
        self._lock = threading.Lock()

    def stop(self, why: str) -> None:
        with self._lock:
            self.stopped = self.stopped or why

    def handed(self, count: int) -> bool:
        """Count items a claim handed out; False when the threads should stop."""
        with self._lock:
            self.handed_out += count
            if self.handed_out > self.items:
                self.stopped = self.stopped or (
                    f"{self.handed_out} items handed out from a queue of {self.items}"
                )
            elif time.monotonic() > self.deadline:
                self.stopped = self.stopped or "the queue was not drained in time"
            return self.stopped is None


def work_queue(
    session: ApiSession, reviewer: str, drain: Drain
) -> tuple[list[Claim], list[dict[str, Any]]]:
    """Claim ten, decide each (one verdict per request), until the queue has nothing left."""
    claims: list[Claim] = []
    results: list[dict[str, Any]] = []
    try:
        while drain.stopped is None:
            leased = claim(session, QUEUE, count=CLAIM, lease_seconds=300, exactly=False)
            if not leased:
                break
            claims += [(e["item"]["id"], e["lease_token"], reviewer) for e in leased]
            if not drain.handed(len(leased)):
                break
            for entry in leased:
                results += session.decide([verdict(entry, "keep")])
    except BaseException as exc:
        drain.stop(f"{reviewer} failed: {exc!r}")
        raise
    finally:
        session.http.close()
    return claims, results


def run_reviewers(
    sessions: dict[str, ApiSession],
) -> tuple[list[Claim], list[dict[str, Any]], dict[str, int]]:
    drain = Drain(LOAD_ITEMS)
    with ThreadPoolExecutor(max_workers=len(sessions)) as pool:
        futures = {name: pool.submit(work_queue, s, name, drain) for name, s in sessions.items()}
        outcome = {name: f.result() for name, f in futures.items()}
    assert drain.stopped is None or "handed out" in drain.stopped, drain.stopped
    claims = [c for cs, _ in outcome.values() for c in cs]
    results = [r for _, rs in outcome.values() for r in rs]
    per_reviewer = {name: len(cs) for name, (cs, _) in outcome.items()}
    return claims, results, per_reviewer


def check_decided_exactly_once(
    lead: ApiSession,
    claims: list[Claim],
    results: list[dict[str, Any]],
    *,
    events_from: ApiSession | None = None,
) -> None:
    expected = load_item_ids(LOAD_ITEMS)
    # No item was leased to two reviewers at once: leases are long and each reviewer
    # decides everything it holds before claiming again, so every item is in one claim.
    claimed = Counter(item_id for item_id, _, _ in claims)
    twice = {i: n for i, n in claimed.items() if n > 1}
    assert not twice, f"items handed out by more than one claim: {sorted(twice)[:20]}"
    assert set(claimed) == expected, (len(claimed), sorted(expected - set(claimed))[:10])
    tokens = [token for _, token, _ in claims]
    assert len(set(tokens)) == len(tokens), "a lease token was issued twice"
    holder = {item_id: reviewer for item_id, _, reviewer in claims}

    statuses = Counter(r["status"] for r in results)
    assert statuses == {"accepted": LOAD_ITEMS}, statuses
    by_result = {r["item_id"]: r["decision"]["id"] for r in results}
    assert set(by_result) == expected

    decided = every_page(lead, "/decisions", "decisions", queue_id=QUEUE)
    per_item = Counter(d["item_id"] for d in decided)
    assert len(decided) == LOAD_ITEMS, len(decided)
    assert set(per_item) == expected and set(per_item.values()) == {1}, per_item.most_common(3)
    for d in decided:
        assert d["reviewer"] == holder[d["item_id"]], d
        assert d["action"] == "keep", d
        assert d["id"] == by_result[d["item_id"]], d
    assert len({d["id"] for d in decided}) == LOAD_ITEMS

    log = events_from or lead
    decided_events = every_page(log, "/events", "events", kind="decided")
    assert len(decided_events) == LOAD_ITEMS, len(decided_events)
    assert Counter(e["item_id"] for e in decided_events) == Counter(dict.fromkeys(expected, 1))
    for e in decided_events:
        assert e["actor"] == holder[e["item_id"]], e
        assert e["data"]["decision_id"] == by_result[e["item_id"]], e
    claimed_events = every_page(log, "/events", "events", kind="claimed")
    assert Counter(e["item_id"] for e in claimed_events) == Counter(dict.fromkeys(expected, 1))
    assert every_page(log, "/events", "events", kind="expired") == []

    counts = queue_counts(lead)
    assert (counts["pending"], counts["leased"]) == (0, 0), counts
    assert counts["oldest_pending_age_seconds"] is None, counts


@pytest.mark.slow
def test_fifty_reviewers_drain_one_queue(live_server: LiveServer) -> None:
    seed_load_queue(live_server.service, LOAD_ITEMS)
    lead = live_server.login("lead", Role.lead)
    sessions = {f"reviewer{i:02d}": live_server.login(f"reviewer{i:02d}") for i in range(REVIEWERS)}

    claims, results, per_reviewer = run_reviewers(sessions)

    check_decided_exactly_once(lead, claims, results)
    busy = [name for name, n in per_reviewer.items() if n]
    assert len(busy) > REVIEWERS // 2, f"the work was not shared out: {per_reviewer}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("database", "servers", "workers"),
    [("postgresql", 2, 1), ("postgresql", 1, 4), ("sqlite", 1, 2), ("sqlite", 1, 4)],
    ids=["postgresql-2-servers", "postgresql-4-workers", "sqlite-2-workers", "sqlite-4-workers"],
)
def test_several_server_processes_share_one_database(
    request: pytest.FixtureRequest, tmp_path: Path, database: str, servers: int, workers: int
) -> None:
    """The same drain through several API processes on one database: two servers side by
    side (reviewers split between their ports), or one server's ``--workers``."""
    url = (
        request.getfixturevalue("pg_url")
        if database == "postgresql"
        else f"sqlite:///{tmp_path / 'service.db'}"
    )
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        names = [f"reviewer{i:02d}" for i in range(REVIEWERS)]
        for name in names:
            service.create_user(UserCreate(username=name, password=PASSWORD))
        service.create_user(UserCreate(username="lead", password=PASSWORD, role=Role.lead))
        seed_load_queue(service, LOAD_ITEMS)
    finally:
        service.close()

    processes = [
        ServerProcess(url, workers=workers, log=tmp_path / f"server{i}.log") for i in range(servers)
    ]
    try:
        for process in processes:
            process.start()
        sessions = {
            name: ApiSession.login(processes[i % servers].url, name, PASSWORD)
            for i, name in enumerate(names)
        }
        claims, results, per_reviewer = run_reviewers(sessions)

        for i in range(servers):
            served = sum(per_reviewer[name] for name in names[i::servers])
            assert served > 0, f"process {i} handed out no items: {per_reviewer}"
        check_decided_exactly_once(
            ApiSession.login(processes[0].url, "lead", PASSWORD),
            claims,
            results,
            events_from=ApiSession.login(processes[-1].url, "lead", PASSWORD),
        )
    finally:
        for process in processes:
            process.stop()
        logs = "\n".join(
            p.log.read_text(errors="replace") for p in processes if p.log and p.log.exists()
        )
    assert "Traceback" not in logs, logs[-4_000:]


# -- expiry, release, caps ------------------------------------------------------------------


def test_expired_leases_go_back_to_the_queue(database_url: str) -> None:
    clock = ManualClock()
    with running(database_url, clock=clock) as server:
        seed_load_queue(server.service, 20)
        alice, bob = server.login("alice"), server.login("bob")
        lead = server.login("lead", Role.lead)

        first = claim(alice, QUEUE, count=5, lease_seconds=60)
        # While alice's leases are live, bob gets other items.
        others = claim(bob, QUEUE, count=5, lease_seconds=600)
        assert not {e["item"]["id"] for e in first} & {e["item"]["id"] for e in others}
        counts = queue_counts(lead)
        assert (counts["pending"], counts["leased"], counts["decided_today"]) == (10, 10, 0)

        clock.advance(61)
        counts = queue_counts(lead)
        assert (counts["pending"], counts["leased"]) == (15, 5), counts

        again = claim(bob, QUEUE, count=5, lease_seconds=600)
        alice_items = {e["item"]["id"]: e["lease_token"] for e in first}
        bob_items = {e["item"]["id"]: e["lease_token"] for e in again}
        assert bob_items.keys() == alice_items.keys(), "bob should get alice's expired items back"
        for item_id, token in bob_items.items():
            assert token != alice_items[item_id], "a re-claimed item kept its old lease token"
        for entry in again:
            assert entry["item"]["state"] == "leased"

        tokens = list(alice_items.values())
        assert lease_statuses(alice, "renew", tokens, lease_seconds=300) == ["lost"] * 5
        assert (
            lease_statuses(bob, "renew", list(bob_items.values()), lease_seconds=300)
            == ["renewed"] * 5
        )
        counts = queue_counts(lead)
        assert (counts["pending"], counts["leased"]) == (10, 10), counts

        item_id = next(iter(alice_items))
        history = history_kinds(alice, item_id)
        assert [kind for kind, _ in history] == ["enqueued", "claimed", "expired", "claimed"], (
            history
        )
        assert [who for kind, who in history if kind == "claimed"] == ["alice", "bob"], history
        expired = every_page(lead, "/events", "events", kind="expired")
        assert sorted(e["item_id"] for e in expired) == sorted(alice_items), expired
        assert {e["actor"] for e in expired} == {"alice"}, (
            "the expired event should name the reviewer whose lease ran out, got "
            f"{[e['actor'] for e in expired]}"
        )


def test_released_items_are_claimable_at_once(database_url: str) -> None:
    with running(database_url) as server:
        seed_load_queue(server.service, 30)
        alice, bob = server.login("alice"), server.login("bob")
        lead = server.login("lead", Role.lead)

        mine = claim(alice, QUEUE, count=5, lease_seconds=600)
        tokens = [e["lease_token"] for e in mine]
        assert lease_statuses(alice, "release", tokens) == ["released"] * 5
        counts = queue_counts(lead)
        assert (counts["pending"], counts["leased"]) == (30, 0), counts

        theirs = claim(bob, QUEUE, count=5, lease_seconds=600)
        assert [e["item"]["id"] for e in theirs] == [e["item"]["id"] for e in mine]
        assert not {e["lease_token"] for e in theirs} & set(tokens)

        # Alice's old tokens are gone for good; bob's are not hers to touch.
        assert lease_statuses(alice, "renew", tokens, lease_seconds=300) == ["lost"] * 5
        assert lease_statuses(alice, "release", tokens) == ["lost"] * 5
        bob_tokens = [e["lease_token"] for e in theirs]
        assert lease_statuses(alice, "release", bob_tokens) == ["unknown"] * 5
        counts = queue_counts(lead)
        assert (counts["pending"], counts["leased"]) == (25, 5), counts
        assert ("released", "alice") in history_kinds(lead, mine[0]["item"]["id"])


def test_per_reviewer_cap_limits_claims(database_url: str) -> None:
    with running(database_url, max_leased_per_reviewer=15) as server:
        seed_load_queue(server.service, 60)
        alice, bob = server.login("alice"), server.login("bob")

        first = claim_grant(alice, 10)
        assert (len(first["items"]), first["leased_total"]) == (10, 10)
        second = claim_grant(alice, 10)
        assert (len(second["items"]), second["leased_total"]) == (5, 15), "claim past the room"
        body = expect_problem(
            alice.post(f"/queues/{QUEUE}/leases", json={"count": 1}), 409, "too_many_leases"
        )
        assert "15" in body["detail"], body

        # The cap is per reviewer: bob is not limited by what alice holds.
        assert len(claim_grant(bob, 10)["items"]) == 10

        results = alice.decide([verdict(e) for e in first["items"][:2]])
        assert [r["status"] for r in results] == ["accepted"] * 2
        third = claim_grant(alice, 10)
        assert (len(third["items"]), third["leased_total"]) == (2, 15)
        expect_problem(
            alice.post(f"/queues/{QUEUE}/leases", json={"count": 1}), 409, "too_many_leases"
        )

        released = [e["lease_token"] for e in second["items"][:3]]
        assert lease_statuses(alice, "release", released) == ["released"] * 3
        fourth = claim_grant(alice, 10)
        assert (len(fourth["items"]), fourth["leased_total"]) == (3, 15)


def test_per_reviewer_cap_holds_under_concurrent_claims(database_url: str) -> None:
    """One reviewer on several machines claiming at once must still hold at most the cap."""
    cap, machines, rounds = 15, 8, 5
    with running(database_url, max_leased_per_reviewer=cap) as server:
        seed_load_queue(server.service, 400)
        server.add_user("alice")
        sessions = [server.login("alice", create=False) for _ in range(machines)]
        for round_no in range(rounds):
            barrier = threading.Barrier(machines)

            def grab(session: ApiSession, barrier: threading.Barrier = barrier) -> list[str]:
                barrier.wait(timeout=30)
                response = session.post(
                    f"/queues/{QUEUE}/leases", json={"count": cap, "lease_seconds": 600}
                )
                if response.status_code == 409:
                    assert response.json()["code"] == "too_many_leases", response.text
                    return []
                assert response.status_code == 200, response.text
                return [e["lease_token"] for e in response.json()["items"]]

            with ThreadPoolExecutor(machines) as pool:
                granted = list(pool.map(grab, sessions))
            tokens = [t for ts in granted for t in ts]
            assert len(tokens) <= cap, (
                f"round {round_no}: one reviewer was granted {len(tokens)} leases at once "
                f"({[len(ts) for ts in granted]} per request) with max_leased_per_reviewer={cap}"
            )
            assert len(tokens) == cap, [len(ts) for ts in granted]
            # Give everything back for the next round.
            assert lease_statuses(sessions[0], "release", tokens) == ["released"] * len(tokens)


def test_lease_seconds_are_capped_by_the_server(database_url: str) -> None:
    clock = ManualClock()
    with running(database_url, clock=clock, max_lease_seconds=600) as server:
        seed_load_queue(server.service, 10)
        alice = server.login("alice")
        meta = alice.get("/meta").json()
        assert meta["limits"]["max_lease_seconds"] == 600

        grant = claim_grant(alice, 3, lease_seconds=3_600)
        assert grant["lease_seconds"] == 600
        for entry in grant["items"]:
            expires = datetime.fromisoformat(entry["lease_expires_at"]).timestamp()
            assert expires == pytest.approx(clock.now + 600, abs=0.01), entry

        clock.advance(100)
        response = alice.post(
            "/leases/renew",
            json={"tokens": [e["lease_token"] for e in grant["items"]], "lease_seconds": 3_600},
        )
        assert response.status_code == 200, response.text
        for result in response.json()["results"]:
            assert result["status"] == "renewed"
            expires = datetime.fromisoformat(result["expires_at"]).timestamp()
            assert expires == pytest.approx(clock.now + 600, abs=0.01), result

        # A lease shorter than the cap is granted as asked.
        short = claim_grant(alice, 1, lease_seconds=45)
        assert short["lease_seconds"] == 45


# -- queue order ------------------------------------------------------------------------------


def drain_in_claim_order(session: ApiSession, queue_id: str, total: int) -> list[list[dict]]:
    batches = []
    while True:
        leased = claim(session, queue_id, count=7, lease_seconds=600, exactly=False)
        if not leased:
            break
        batches.append([e["item"] for e in leased])
    assert sum(len(b) for b in batches) == total
    return batches


def test_higher_classifier_score_comes_first(database_url: str) -> None:
    by_score = SeedQueue(
        id="by-score",
        name="By score",
        description="Only the classifier score orders this queue",
        config=QueueConfig(
            actions=[ActionConfig(id="keep", label="No violation", kind=ActionKind.keep)],
            priority=PriorityWeights(score=1, reports=0, reach=0, age=0),
        ),
    )
    with running(database_url) as server:
        seed_load_queue(server.service, 60, queue=by_score)
        alice = server.login("alice")
        batches = drain_in_claim_order(alice, "by-score", 60)

        scores = [[item["scores"][0]["score"] for item in batch] for batch in batches]
        flat = [s for batch in scores for s in batch]
        assert len(set(flat)) > 30, "the synthetic scores should mostly differ"
        assert flat == sorted(flat, reverse=True), scores


def load_priority(item: dict[str, Any]) -> float:
    """The load queue's documented order: score*max score + reports*ln(1+reports)
    + reach*ln(1+views) + age*hours waiting (the same now for every item)."""
    w = LOAD_QUEUE.config.priority
    top = max(s["score"] for s in item["scores"])
    enqueued = datetime.fromisoformat(item["enqueued_at"]).timestamp()
    return (
        w.score * top
        + w.reports * math.log1p(item["reports"]["total"])
        + w.reach * math.log1p(item["reach"]["views"])
        - w.age * enqueued / 3600.0
    )


def test_load_queue_is_worked_in_priority_order(database_url: str) -> None:
    with running(database_url) as server:
        seed_load_queue(server.service, 80)
        alice, bob = server.login("alice"), server.login("bob")
        # Two reviewers taking turns still get the queue's items highest priority first.
        order: list[float] = []
        sessions: list[Callable[[], list[dict[str, Any]]]] = [
            lambda: claim(alice, QUEUE, count=6, lease_seconds=600, exactly=False),
            lambda: claim(bob, QUEUE, count=6, lease_seconds=600, exactly=False),
        ]
        for turn in range(40):
            leased = sessions[turn % 2]()
            if not leased:
                break
            order += [load_priority(e["item"]) for e in leased]
        assert len(order) == 80
        assert len({round(p, 6) for p in order}) > 70
        for i, (a, b) in enumerate(pairwise(order)):
            assert a >= b - 1e-9, f"claim order broke priority at position {i}: {a} < {b}"
