"""Intake flat out while fifty reviewers claim and decide from the queue it fills (issue 14).

The service runs as its own process (real HTTP, the database's own concurrency; the test's
threads do not share its interpreter). Two pairs of platform threads send posts and their
signals without pausing; the two threads of a pair send the same elements (same ids, same
bodies) at the same time, so every element races its twin. Each round's signals are a
report on each new post (which routes it into the queue), reports on the pair's earlier
posts (items that may be pending, leased or decided by then) and classifier scores too
low to route anything. Fifty reviewers claim ten at a time from that queue while it
fills and decide each item.

At the end: every post is stored once and has exactly one item, decided; no item was in
two claims (leases are long and each reviewer decides what it holds before claiming
again, so an item in two claims was leased twice) and no lease token was issued twice;
one decision per item and per (item, epoch); each signal was stored once and answered
``created`` exactly once; each item's report total is the reports whose ``created``
answer named it (no report counted twice, none lost on an item a reviewer held), and
those plus the reports that came after the decision are the post's reports.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from reviewer_app.protocol import QueueFile, Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.tables import decisions, items, leases, posts, signals
from tests.support.api import ApiSession, verdict
from tests.support.intake import (
    HATE,
    apply_queues,
    classifier,
    key_session,
    post,
    report,
    send,
)
from tests.support.servers import PASSWORD, LiveServer, ServerProcess

QUEUE = "flow"
PLATFORM = "feed-bridge"
PAIRS = 2  # pairs of platform threads; the two of a pair send the same elements
ROUNDS = 10
POSTS_PER_ROUND = 60
EARLIER_REPORTS = 60  # reports per round on the pair's earlier posts
SCORES = 30  # classifier scores per round (never route)
REVIEWERS = 50
CLAIM = 10
DEADLINE_SECONDS = 240  # a hang guard only: the run takes 10-30 s (not a timed assertion)

QUEUE_FILE = {
    "queues": [
        {
            "id": QUEUE,
            "name": "Flow",
            "config": {
                "actions": [
                    {"id": "keep", "label": "No violation", "kind": "keep", "key": "1"},
                ],
                "priority": {"score": 1, "reports": 1},
                # any report routes a post; the scores sent never reach 0.99
                "routing": [
                    {
                        "name": "reported",
                        "reports": [{"min_count": 1}],
                        "classifier": [{"model": "spam", "min_score": 0.99}],
                    }
                ],
            },
        }
    ]
}


@dataclass
class Sent:
    """What the platform threads were answered."""

    posts: list[tuple[str, str]] = field(default_factory=list)  # (post, status)
    signals: list[tuple[str, str, str, str, list[str]]] = field(default_factory=list)
    # ^ (signal id, kind, post, status, item ids)
    lock: threading.Lock = field(default_factory=threading.Lock)


class Run:
    """What the threads share: whether intake is done, and a deadline that stops them all
    (a misbehaving server fails the test instead of hanging it)."""

    def __init__(self) -> None:
        self.intake_done = threading.Event()
        self.decided_during_intake = 0
        self.deadline = time.monotonic() + DEADLINE_SECONDS
        self.stopped: str | None = None
        self.lock = threading.Lock()

    def stop(self, why: str) -> None:
        with self.lock:
            self.stopped = self.stopped or why

    def going(self) -> bool:
        if time.monotonic() > self.deadline:
            self.stop(f"not done in {DEADLINE_SECONDS} s")
        return self.stopped is None


def pair_rounds(pair: int) -> Iterator[tuple[list[dict[str, Any]], list[dict[str, Any]]]]:
    """The posts and signals of each round of a pair (the same for both threads)."""
    rng = random.Random(pair)
    earlier: list[str] = []
    for r in range(ROUNDS):
        ids = [f"p{pair}-r{r}-{i}" for i in range(POSTS_PER_ROUND)]
        bodies = [post(x, f"Round {r} post {i} of pair {pair}") for i, x in enumerate(ids)]
        sigs = [report(x, "spam", signal_id=f"{x}-first") for x in ids]
        if earlier:
            sigs += [
                report(
                    rng.choice(earlier),
                    rng.choice(["spam", "scam"]),
                    signal_id=f"p{pair}-r{r}-rep{j}",
                )
                for j in range(EARLIER_REPORTS)
            ]
        sigs += [
            classifier(
                rng.choice(earlier + ids),
                round(rng.uniform(0.1, 0.9), 3),
                model="spam",
                label="scam",
                signal_id=f"p{pair}-r{r}-cls{j}",
            )
            for j in range(SCORES)
        ]
        rng.shuffle(sigs)
        earlier += ids
        yield bodies, sigs


def platform(url: str, key: str, pair: int, sent: Sent, run: Run, start: threading.Barrier) -> None:
    session = ApiSession(url, key)
    try:
        start.wait(timeout=30)
        for bodies, sigs in pair_rounds(pair):
            if not run.going():
                return
            answered = send(session, "posts", bodies)
            with sent.lock:
                sent.posts += [(r["external_id"], r["status"]) for r in answered]
            answered = send(session, "signals", sigs)
            with sent.lock:
                sent.signals += [
                    (s["id"], s["kind"], s["post_external_id"], r["status"], r["item_ids"])
                    for s, r in zip(sigs, answered, strict=True)
                ]
    except BaseException as exc:
        run.stop(f"platform pair {pair} failed: {exc!r}")
        raise
    finally:
        session.http.close()


Claim = tuple[str, str, str]  # (item id, lease token, reviewer)


def reviewer(
    url: str, name: str, run: Run, start: threading.Barrier
) -> tuple[list[Claim], list[dict[str, Any]]]:
    """Claim ten, decide each, while intake runs; stop once it is done and nothing is left."""
    session = ApiSession.login(url, name, PASSWORD)
    claims: list[Claim] = []
    results: list[dict[str, Any]] = []
    try:
        start.wait(timeout=30)
        while run.going():
            done = run.intake_done.is_set()  # read before the claim: nothing comes after
            response = session.post(
                f"/queues/{QUEUE}/leases", json={"count": CLAIM, "lease_seconds": 600}
            )
            assert response.status_code == 200, response.text
            leased = response.json()["items"]
            assert len(leased) <= CLAIM, len(leased)
            if not leased:
                if done:
                    break
                time.sleep(0.05)
                continue
            claims += [(e["item"]["id"], e["lease_token"], name) for e in leased]
            for entry in leased:
                results += session.decide([verdict(entry, "keep")])
                if not run.intake_done.is_set():
                    with run.lock:
                        run.decided_during_intake += 1
    except BaseException as exc:
        run.stop(f"{name} failed: {exc!r}")
        raise
    finally:
        session.http.close()
    return claims, results


def prepare(url: str) -> tuple[str, list[str]]:
    """The queue, the reviewers and a lead, and the platform's key."""
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        service.apply_queue_file(QueueFile.model_validate(QUEUE_FILE), actor=None)
        names = [f"reviewer{i:02d}" for i in range(REVIEWERS)]
        for name in names:
            service.create_user(UserCreate(username=name, password=PASSWORD))
        service.create_user(UserCreate(username="lead", password=PASSWORD, role=Role.lead))
        key = service.create_api_key(Role.platform, PLATFORM).key
    finally:
        service.close()
    return key, names


def every_decision(lead: ApiSession) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(1_000):
        params: dict[str, Any] = {"queue_id": QUEUE, "limit": 500}
        if cursor:
            params["cursor"] = cursor
        response = lead.get("/decisions", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        found += page["decisions"]
        cursor = page["next_cursor"]
        if cursor is None:
            return found
    raise AssertionError("/decisions never stopped paging")


@pytest.mark.slow
def test_intake_flat_out_while_fifty_reviewers_decide(database_url: str, tmp_path: Path) -> None:
    key, names = prepare(database_url)
    server = ServerProcess(database_url, log=tmp_path / "server.log")
    sent, run = Sent(), Run()
    start = threading.Barrier(2 * PAIRS + REVIEWERS)
    try:
        server.start()
        with ThreadPoolExecutor(max_workers=2 * PAIRS + REVIEWERS) as pool:
            feeds = [
                pool.submit(platform, server.url, key, pair, sent, run, start)
                for pair in range(PAIRS)
                for _twin in range(2)
            ]
            desks = [pool.submit(reviewer, server.url, name, run, start) for name in names]
            for f in feeds:
                f.exception()  # wait; failures are raised below
            run.intake_done.set()
            outcome = [d.result() for d in desks]
            for f in feeds:
                f.result()
        assert run.stopped is None, run.stopped
        lead = ApiSession.login(server.url, "lead", PASSWORD)
        decided = every_decision(lead)
    finally:
        server.stop()
    log = server.log.read_text(errors="replace") if server.log and server.log.exists() else ""
    assert "Traceback" not in log, log[-4_000:]

    claims = [c for cs, _ in outcome for c in cs]
    results = [r for _, rs in outcome for r in rs]
    # the reviewers worked the queue while it filled (not only after)
    assert run.decided_during_intake > 0, "no item was decided while intake ran"
    print(f"decided while intake ran: {run.decided_during_intake} of {len(claims)}")

    # every element raced its twin: each post and each signal was created exactly once
    post_ids = {
        f"p{pair}-r{r}-{i}"
        for pair in range(PAIRS)
        for r in range(ROUNDS)
        for i in range(POSTS_PER_ROUND)
    }
    post_status = Counter(status for _, status in sent.posts)
    assert post_status == {"created": len(post_ids), "unchanged": len(post_ids)}, post_status
    assert {p for p, s in sent.posts if s == "created"} == post_ids
    created = [s for s in sent.signals if s[3] == "created"]
    signal_ids = {s[0] for s in sent.signals}
    assert Counter(s[3] for s in sent.signals) == {
        "created": len(signal_ids),
        "unchanged": len(signal_ids),
    }, Counter(s[3] for s in sent.signals)
    assert Counter(s[0] for s in created) == Counter(dict.fromkeys(signal_ids, 1))

    # no lease handed out twice, no item lost
    claimed = Counter(item_id for item_id, _, _ in claims)
    twice = {i: n for i, n in claimed.items() if n > 1}
    assert not twice, f"items handed out by more than one claim: {sorted(twice)[:20]}"
    tokens = [token for _, token, _ in claims]
    assert len(set(tokens)) == len(tokens), "a lease token was issued twice"
    holder = {item_id: name for item_id, _, name in claims}
    assert Counter(r["status"] for r in results) == {"accepted": len(claims)}, Counter(
        r["status"] for r in results
    )

    db = Database(database_url)
    try:
        with db.read() as conn:
            stored_posts = dict(
                conn.execute(
                    select(posts.c.external_id, posts.c.id).where(posts.c.source == PLATFORM)
                ).all()
            )
            summaries = dict(conn.execute(select(posts.c.id, posts.c.signal_summary)).all())
            item_rows = conn.execute(
                select(
                    items.c.id, items.c.post_id, items.c.state, items.c.epoch, items.c.payload
                ).where(items.c.queue_id == QUEUE)
            ).all()
            signal_rows = conn.execute(
                select(signals.c.external_id, func.count()).group_by(signals.c.external_id)
            ).all()
            lease_rows = conn.execute(
                select(leases.c.item_id, leases.c.token, leases.c.ended_at).where(
                    leases.c.queue_id == QUEUE
                )
            ).all()
            decision_rows = conn.execute(
                select(decisions.c.item_id, decisions.c.epoch).where(decisions.c.queue_id == QUEUE)
            ).all()
    finally:
        db.dispose()

    # every post stored once, with exactly one item, decided by the reviewer who held it
    assert set(stored_posts) == post_ids, len(stored_posts)
    per_post = Counter(r.post_id for r in item_rows)
    assert set(per_post) == set(stored_posts.values()), "a routed post has no item"
    assert set(per_post.values()) == {1}, f"a post queued twice: {per_post.most_common(3)}"
    assert Counter(r.state for r in item_rows) == {"decided": len(post_ids)}
    assert set(claimed) == {r.id for r in item_rows}, "an item was never claimed"
    assert Counter(lease.item_id for lease in lease_rows) == Counter(dict.fromkeys(claimed, 1))
    assert {lease.token for lease in lease_rows} == set(tokens)

    # none decided twice
    assert Counter((d.item_id, d.epoch) for d in decision_rows).most_common(1)[0][1] == 1
    assert Counter(d.item_id for d in decision_rows) == Counter(dict.fromkeys(claimed, 1))
    assert len(decided) == len(claimed)
    assert Counter(d["item_id"] for d in decided) == Counter(dict.fromkeys(claimed, 1))
    for d in decided:
        assert d["reviewer"] == holder[d["item_id"]], d

    # every signal stored once and counted once
    assert dict(signal_rows) == dict.fromkeys(signal_ids, 1)
    reports = [s for s in created if s[1] == "report"]
    named = Counter(item for s in reports for item in s[4])
    after_decision = Counter(stored_posts[s[2]] for s in reports if not s[4])
    sent_per_post = Counter(stored_posts[s[2]] for s in reports)
    for r in item_rows:
        total = json.loads(r.payload)["reports"]["total"]
        assert total == named[r.id], (r.id, total, named[r.id])
        assert total + after_decision[r.post_id] == sent_per_post[r.post_id], r.id
        summary = json.loads(summaries[r.post_id])
        assert summary["reports"]["total"] == sent_per_post[r.post_id], r.post_id
    assert all(len(s[4]) <= 1 for s in created), "a signal touched two items"


def test_a_batch_applied_in_parts_while_reviewers_claim_answers_as_one(
    live_server: LiveServer,
) -> None:
    """On SQLite, while claims are served, a batch is written in parts (intake.py,
    IntakeDesk._parts): each element whole in one part, copies of an id with their first,
    and the answers those of one transaction."""
    apply_queues(live_server)
    platform = key_session(live_server, "feed-bridge")
    ids = [f"part-{i}" for i in range(120)]
    send(platform, "posts", [post(x) for x in ids])
    send(platform, "signals", [report("part-0", "hate", signal_id="opener")])
    reviewer = live_server.login("reviewer-parts")
    reviewer.claim(HATE, count=1)
    if live_server.service.db.is_sqlite:
        assert live_server.service.db.urgent_writers_within(60)

    batch = [report(x, "hate", signal_id=f"r-{x}") for x in ids]  # 120, one per post
    batch += [report(x, "hate", signal_id=f"r2-{x}") for x in ids[:40]]  # a second on 40
    batch.insert(150, report("part-7", "hate", signal_id="r-part-7"))  # a copy, same body
    batch.insert(10, report("part-9", "spam", signal_id="r-part-100"))  # the id of a later one
    batch.append(report("never-sent", "hate", signal_id="r-unknown"))
    results = send(platform, "signals", batch)

    by_id: dict[str, list[str]] = {}
    for body, result in zip(batch, results, strict=True):
        assert result["external_id"] == body["id"]
        by_id.setdefault(body["id"], []).append(result["status"])
    assert by_id["r-part-7"] == ["created", "unchanged"]
    assert by_id["r-part-100"] == ["created", "rejected"]  # the first in the batch counts
    assert by_id["r-unknown"] == ["rejected"]
    assert [r["reason"]["code"] for r in results if r["status"] == "rejected"] == [
        "id_reused",
        "unknown_post",
    ]
    assert sum(r["status"] == "created" for r in results) == 160
    with live_server.service.db.read() as conn:
        summaries = dict(conn.execute(select(posts.c.external_id, posts.c.signal_summary)).all())
    totals = {x: json.loads(summaries[x]).get("reports", {}).get("total", 0) for x in ids}
    expected = {x: 1 + (i < 40) + (x == "part-0") for i, x in enumerate(ids)}
    expected["part-100"] -= 1  # its report's id was taken by part-9's
    expected["part-9"] += 1
    assert totals == expected
