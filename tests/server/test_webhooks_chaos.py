"""Webhooks through chaos (SQLite and PostgreSQL): a receiver on 127.0.0.1 fails about 30%
of deliveries (500, 429 with Retry-After, an answer slower than the timeout, a connection
reset) while the service is SIGKILLed and started again a few times and decisions keep
being made, overturns among them (a ``restore`` of an earlier ``remove``).

What must hold: every action is acknowledged at least once, every message verifies with the
``standardwebhooks`` reference library, first arrivals come in seq order (so per post: a
restore never overtakes the remove it undoes), and the receiver's de-duplicated set of
webhook ids equals the service's actions exactly.
"""

from __future__ import annotations

import contextlib
import random
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import requests
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook

from reviewer_app.protocol import QueueFile, Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import enforcement_feed
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import enforcement_actions
from tests.support.api import ApiSession, verdict
from tests.support.enforcement import queue_file, queue_posts
from tests.support.intake import MISINFO
from tests.support.servers import PASSWORD, ServerProcess
from tests.support.webhook_receiver import OK, Answer, Received, Receiver

pytestmark = pytest.mark.slow

PLATFORM = "feed-bridge"
LIVES = 4  # three SIGKILLs between them
POSTS_PER_LIFE = 48
TIMEOUT = 0.5
ENV = {
    "REVIEWER_SERVER_WEBHOOK_TIMEOUT_SECONDS": str(TIMEOUT),
    "REVIEWER_SERVER_WEBHOOK_BACKOFF_BASE_SECONDS": "0.05",
    "REVIEWER_SERVER_WEBHOOK_BACKOFF_MAX_SECONDS": "0.3",
    "REVIEWER_SERVER_WEBHOOK_POLL_SECONDS": "0.05",
    "REVIEWER_SERVER_WEBHOOK_LEASE_SECONDS": "1",  # a killed holder's lease runs out soon
    "REVIEWER_SERVER_WEBHOOK_FAILING_AFTER": "3",
}


class Flaky:
    """Answers about 30% of requests with a failure of some kind (seeded)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.kinds: Counter[str] = Counter()

    def __call__(self, _path: str, _headers: dict[str, str], _body: bytes) -> Answer:
        with self.lock:
            roll = self.rng.random()
        if roll < 0.10:
            answer, kind = Answer(500), "500"
        elif roll < 0.17:
            answer, kind = Answer(429, {"Retry-After": "0"}), "429"
        elif roll < 0.19:
            answer, kind = Answer(429, {"Retry-After": "1"}), "429 wait"
        elif roll < 0.25:
            answer, kind = Answer(reset=True), "reset"
        elif roll < 0.30:
            answer, kind = Answer(delay=TIMEOUT + 0.3), "slow"
        else:
            answer, kind = OK, "ok"
        with self.lock:
            self.kinds[kind] += 1
        return answer


def acknowledged(r: Received) -> bool:
    """The sender saw a 2xx (not reset, not answered after its timeout)."""
    return 200 <= r.answer.status < 300 and not r.answer.reset and not r.answer.delay


def test_every_action_arrives_signed_and_in_order_through_kills_and_failures(
    database_url: str, tmp_path: Path
) -> None:
    setup = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    setup.start()
    setup.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
    setup.create_user(UserCreate(username="rita", password=PASSWORD, role=Role.reviewer))
    setup.create_user(UserCreate(username="lena", password=PASSWORD, role=Role.lead))
    key = setup.create_api_key(Role.platform, PLATFORM).key
    flaky = Flaky(15)
    logs = tmp_path / "logs"
    logs.mkdir()
    rng = random.Random(7)
    server: ServerProcess | None = None
    kills = 0
    with Receiver(flaky) as receiver:
        _endpoint, secret = setup.add_webhook(receiver.url(), PLATFORM, None, "ops")
        try:
            for life in range(LIVES):
                server = ServerProcess(database_url, log=logs / f"server-{life}.log", env=ENV)
                server.start()
                arrived = receiver.count
                decide_a_life(server.url, key, life, rng)
                if life == LIVES - 1:
                    break
                # let this life deliver (a killed holder's lease had to run out first), then
                # kill it in the middle of its deliveries
                receiver.wait_for(lambda _r, before=arrived: receiver.count >= before + 25)
                # the last batch races the kill, and so do deliveries under way
                platform = ApiSession(server.url, key)
                rita = ApiSession.login(server.url, "rita", PASSWORD)
                queue_posts(platform, [f"race-{life}-{i}" for i in range(4)])
                leased = rita.claim(MISINFO, count=4)
                racing = threading.Thread(
                    target=_quietly,
                    args=(rita, [verdict(x, "reduce") for x in leased]),
                )
                racing.start()
                time.sleep(rng.uniform(0.0, 0.1))
                assert server.proc is not None
                server.proc.kill()  # SIGKILL: no graceful anything
                server.proc.wait(10)
                kills += 1
                racing.join(30)

            # the last life delivers what is left
            a = enforcement_actions.c
            deadline = time.monotonic() + 60
            while True:
                with setup.db.read() as conn:
                    stored = (
                        conn.execute(
                            select(*enforcement_feed.COLUMNS, a.post_external_id)
                            .where(a.source == PLATFORM)
                            .order_by(a.id)
                        )
                        .mappings()
                        .all()
                    )
                wanted = {f"act_{r['id']}" for r in stored}
                got = {r.webhook_id for r in receiver.snapshot() if acknowledged(r)}
                if all(r["seq"] is not None for r in stored) and got >= wanted:
                    break
                assert time.monotonic() < deadline, (
                    f"{len(got & wanted)} of {len(wanted)} actions acknowledged; "
                    f"health: {setup.webhooks().endpoints}"
                )
                time.sleep(0.1)
        finally:
            if server is not None:
                server.stop()
            setup.close()
        received = receiver.snapshot()

    by_seq = sorted(stored, key=lambda r: r["seq"])
    wanted_order = [f"act_{r['id']}" for r in by_seq]
    verifier = Webhook(secret)
    documents: dict[str, Any] = {}
    for message in received:  # every attempt, failed ones too, is signed
        document = verifier.verify(message.body, message.headers)
        assert documents.setdefault(message.webhook_id, document) == document, "same message"
    assert set(documents) == set(wanted_order), "the de-duplicated set is the service's actions"
    assert {r.webhook_id for r in received if acknowledged(r)} == set(wanted_order)
    first: dict[str, None] = {}
    for message in received:
        first.setdefault(message.webhook_id, None)
    assert list(first) == wanted_order, "first arrivals in seq order, across kills and retries"
    for row in by_seq:
        assert documents[f"act_{row['id']}"]["data"] == enforcement_feed.wire_action(
            row
        ).model_dump(mode="json")

    # per post: its actions first arrived in their order, a restore after what it undoes
    position = {webhook_id: n for n, webhook_id in enumerate(first)}
    posts: dict[str, list[Any]] = {}
    for row in by_seq:
        posts.setdefault(row["post_external_id"], []).append(row)
    reversing = 0
    for rows in posts.values():
        places = [position[f"act_{r['id']}"] for r in rows]
        assert places == sorted(places)
        for r in rows:
            if r["reverses_action_id"] is not None:
                reversing += 1
                assert position[f"act_{r['reverses_action_id']}"] < position[f"act_{r['id']}"]

    # the chaos happened
    assert kills == LIVES - 1
    assert reversing >= LIVES, "overturns made actions that reverse earlier ones"
    assert any(r["kind"] == "restore" for r in by_seq)
    assert len(received) > len(first), "failures and kills made some arrive more than once"
    for kind in ("500", "429", "reset", "slow", "ok"):
        assert flaky.kinds[kind] > 0, flaky.kinds
    failed = sum(n for kind, n in flaky.kinds.items() if kind != "ok")
    assert 0.15 < failed / len(received) < 0.45, flaky.kinds


def decide_a_life(base_url: str, key: str, life: int, rng: random.Random) -> None:
    """Posts queued and decided in batches while the dispatcher delivers, then a lead's
    overturns of two removals (restores)."""
    platform = ApiSession(base_url, key)
    rita = ApiSession.login(base_url, "rita", PASSWORD)
    lena = ApiSession.login(base_url, "lena", PASSWORD)
    names = [f"p-{life}-{i}" for i in range(POSTS_PER_LIFE)]
    for start in range(0, len(names), 12):
        queue_posts(platform, names[start : start + 12])
        leased = rita.claim(MISINFO, count=12)
        verdicts = []
        for x in leased:
            if rng.random() < 0.5:
                verdicts.append(verdict(x, "remove", policies=["MISINFO.CIVIC"]))
            else:
                verdicts.append(verdict(x, rng.choice(["keep", "reduce"])))
        results = rita.decide(verdicts)
        assert {r["status"] for r in results} == {"accepted"}, results
    window = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}
    overturns = 0
    for _ in range(40):  # two overturns: a sampled keep is an agreement (nothing changes)
        made = lena.post("/audits/samples", json={**window, "size": 1, "queue_id": MISINFO})
        assert made.status_code == 201, made.text
        task = lena.post(f"/audits/samples/{made.json()['id']}/next").json()["task"]
        recorded = lena.post(  # blind: a removal's (or reduction's) overturn to keep restores
            f"/audits/tasks/{task['audit_id']}/result",
            json={"result": "judge", "action": "keep", "note": "no violation"},
        )
        assert recorded.status_code == 201, recorded.text
        overturns += recorded.json()["result"] == "overturn"
        if overturns == 2:
            break
    assert overturns == 2


def _quietly(session: ApiSession, verdicts: list[dict[str, Any]]) -> None:
    # killed under it: committed or not, the database knows
    with contextlib.suppress(requests.RequestException):
        session.post("/verdicts", json={"verdicts": verdicts}, timeout=10)
