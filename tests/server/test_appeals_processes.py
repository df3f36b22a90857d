"""Four eyes across two API processes on one PostgreSQL database: appeals sent to one
process are never leased to their original reviewer by either (claimed at the same time as
another reviewer's claims), a verdict of theirs is refused by both, and the other reviewer
gets and decides every appeal."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import select

from reviewer_app.protocol import QueueFile, Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import leasing
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import users
from tests.support.api import ApiSession, claim, verdict
from tests.support.appeals import APPEALS, appeal, queue_file
from tests.support.intake import MISINFO, classifier, post, send
from tests.support.servers import PASSWORD, ServerProcess

NAMES = [f"p-{n}" for n in range(6)]


@contextmanager
def service(url: str) -> Iterator[Service]:
    svc = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    svc.start()
    try:
        yield svc
    finally:
        svc.close()


@contextmanager
def two_processes(url: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    a, b = ServerProcess(url), ServerProcess(url)
    try:
        a.start()
        b.start()
        yield a, b
    finally:
        a.stop()
        b.stop()


def test_four_eyes_holds_across_two_api_processes(pg_url: str) -> None:
    with service(pg_url) as svc:
        svc.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        for name in ("rita", "sam"):
            svc.create_user(UserCreate(username=name, password=PASSWORD, role=Role.reviewer))
        key = svc.create_api_key(Role.platform, "feed-bridge").key

    with two_processes(pg_url) as (a, b):
        platform_a, platform_b = ApiSession(a.url, key), ApiSession(b.url, key)
        send(platform_a, "posts", [post(n) for n in NAMES])
        send(platform_a, "signals", [classifier(n, 0.9) for n in NAMES])
        rita_a = ApiSession.login(a.url, "rita", PASSWORD)
        rita_b = ApiSession.login(b.url, "rita", PASSWORD)
        leased = claim(rita_a, MISINFO, len(NAMES))
        done = rita_a.decide([verdict(x, "remove", policies=["MISINFO.CIVIC"]) for x in leased])
        assert {r["status"] for r in done} == {"accepted"}
        sent = send(platform_b, "appeals", [appeal(n) for n in NAMES])
        assert {r["status"] for r in sent} == {"created"}

        # rita's and sam's claims at once, from both processes, one item at a time
        sam_a = ApiSession.login(a.url, "sam", PASSWORD)
        sam_b = ApiSession.login(b.url, "sam", PASSWORD)
        got: dict[str, list[dict[str, Any]]] = {"rita": [], "sam": []}
        lock = threading.Lock()

        def keep_claiming(who: str, session: ApiSession, rounds: int) -> None:
            for _ in range(rounds):
                found = claim(session, APPEALS, 1, exactly=False)
                with lock:
                    got[who] += found

        threads = [
            threading.Thread(target=keep_claiming, args=("rita", rita_a, 8)),
            threading.Thread(target=keep_claiming, args=("rita", rita_b, 8)),
            threading.Thread(target=keep_claiming, args=("sam", sam_a, 2)),
            threading.Thread(target=keep_claiming, args=("sam", sam_b, 2)),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert got["rita"] == [], "the original reviewer is never handed an appeal"
        sam_items = {x["item"]["id"] for x in got["sam"]}
        assert len(sam_items) == len(got["sam"]) == 4, "no item leased twice"

        # the two left: rita holds one around the rule, and neither process takes her verdict
        with service(pg_url) as svc, svc.db.write() as conn:
            uid = conn.execute(select(users.c.id).where(users.c.username == "rita")).scalar_one()
            held = leasing.claim(
                conn,
                Principal(uid, "rita", "rita", Role.reviewer),
                APPEALS,
                1,
                300,
                svc.clock(),
                postgres=True,
            )
        assert len(held) == 1
        forced = {"item": {"id": held[0].item_id}, "lease_token": held[0].token}
        for session in (rita_a, rita_b):
            [refused] = session.decide([verdict(forced, "reverse")])
            assert refused["status"] == "rejected"
            assert refused["reason"]["code"] == "conflict_of_interest"
        rita_b.post("/leases/release", json={"tokens": [forced["lease_token"]]}).raise_for_status()

        rest = claim(sam_b, APPEALS, 5, exactly=False)
        assert len(rest) == 2 and not sam_items & {x["item"]["id"] for x in rest}
        decided = sam_a.decide([verdict(x, "reverse") for x in got["sam"][:2]])
        decided += sam_b.decide(
            [verdict(x, "uphold", note="It stands.") for x in [*got["sam"][2:], *rest]]
        )
        assert [r["status"] for r in decided] == ["accepted"] * len(NAMES), decided
        assert {r["decision"]["kind"] for r in decided} == {"appeal"}
