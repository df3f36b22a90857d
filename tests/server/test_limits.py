"""The service's limits, shown over real HTTP: every POST route refuses an oversized body
with 413 before it reads it, and a caller that sends too many requests gets 429
problem+json with ``Retry-After`` (per token, or per address without one), while others
carry on and the defaults leave normal work alone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from reviewer_app.protocol import API_PREFIX, MAX_MEDIA_BYTES, Role
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.http.openapi import COMMITTED
from reviewer_app.server.ops.ratelimit import TokenBuckets
from tests.support.api import ApiSession, expect_problem
from tests.support.servers import LiveServer

MAX_BODY = 16 * 1024


def post_routes() -> list[str]:
    """Every POST path of the committed contract, with ids filled in."""
    doc = json.loads(COMMITTED.read_text(encoding="utf-8"))
    fill = {
        "{queue_id}": LOAD_QUEUE.id,
        "{sample_id}": "1",
        "{audit_id}": "1",
        "{decision_id}": "1",
    }
    paths = []
    for path, operations in doc["paths"].items():
        if "post" in operations:
            for name, value in fill.items():
                path = path.replace(name, value)
            assert "{" not in path, path
            paths.append(path)
    return sorted(paths)


@pytest.fixture
def capped(sqlite_url: str) -> Iterator[LiveServer]:
    live = LiveServer(sqlite_url, max_body_bytes=MAX_BODY).start()
    seed_load_queue(live.service, 5)
    try:
        yield live
    finally:
        live.stop()


def test_every_post_route_refuses_an_oversized_body_with_413(capped: LiveServer) -> None:
    routes = post_routes()
    assert len(routes) >= 8
    lead = capped.login("big-lead", Role.admin)
    for path in routes:
        # a media upload has a cap of its own, larger than any JSON body (MAX_MEDIA_BYTES)
        cap = MAX_MEDIA_BYTES if path.endswith("/intake/media") else MAX_BODY
        big = json.dumps({"padding": "x" * (cap + 1)}).encode()
        for token in (lead.token, None):  # before authentication, too
            headers = {"Content-Type": "application/json"}
            if token:
                headers["Authorization"] = f"Bearer {token}"
            response = requests.post(f"{capped.url}{path}", data=big, headers=headers, timeout=30)
            problem = expect_problem(response, 413, "body_too_large")
            assert problem["instance"] == path
    # a body just under the cap is read (and then judged on its merits, not its size)
    small = json.dumps({"padding": "x" * (MAX_BODY - 100)}).encode()
    response = lead.post("/verdicts", data=small, headers={"Content-Type": "application/json"})
    assert response.status_code == 422


def test_a_caller_over_its_rate_gets_429_with_retry_after(sqlite_url: str) -> None:
    live = LiveServer(sqlite_url, rate_limit_per_minute=60, rate_limit_burst=5).start()
    try:
        seed_load_queue(live.service, 3)
        fast = live.login("fast")  # the login itself is one request of the address's bucket
        calm = live.login("calm")
        # a token's first request is the address's too (it is not known to be good yet);
        # once it authenticated, the token has a bucket of its own: 5 more
        statuses = [fast.get("/me").status_code for _ in range(6)]
        assert statuses == [200] * 6
        refused = fast.get("/queues")
        problem = expect_problem(refused, 429, "rate_limited")
        assert problem["instance"] == f"{API_PREFIX}/queues"
        assert 1 <= int(refused.headers["Retry-After"]) <= 2
        # the limit is per caller: another token goes on working (its first request is the
        # address's fourth)
        assert calm.get("/me").status_code == 200
        # without a token, the address is the caller, and a token not known to be good is
        # charged to the address too: a made-up token is no bucket of its own
        assert requests.get(f"{live.url}{API_PREFIX}/meta", timeout=10).status_code == 200
        fake = {"Authorization": "Bearer " + "f" * 40}
        made_up = requests.get(f"{live.url}{API_PREFIX}/me", headers=fake, timeout=10)
        expect_problem(made_up, 429, "rate_limited")
        assert calm.get("/me").status_code == 200, "calm's own bucket"
        # the OpenAPI document is never limited
        for _ in range(10):
            assert requests.get(f"{live.url}/openapi.json", timeout=10).status_code == 200
    finally:
        live.stop()


def test_anonymous_callers_are_limited_by_address(sqlite_url: str) -> None:
    live = LiveServer(sqlite_url, rate_limit_per_minute=60, rate_limit_burst=3).start()
    try:
        url = f"{live.url}{API_PREFIX}/meta"
        statuses = [requests.get(url, timeout=10).status_code for _ in range(4)]
        assert statuses == [200, 200, 200, 429]
        login = requests.post(
            f"{live.url}{API_PREFIX}/sessions",
            json={"username": "nobody", "password": "x" * 12},
            timeout=10,
        )
        expect_problem(login, 429, "rate_limited")
        assert int(login.headers["Retry-After"]) >= 1
    finally:
        live.stop()


def test_a_made_up_token_per_request_is_no_way_around_the_limit(sqlite_url: str) -> None:
    """A password sprayer sending a new made-up bearer token with each login got a fresh
    bucket each time (a bucket per token sent, before any check): never limited."""
    import secrets

    live = LiveServer(sqlite_url, rate_limit_per_minute=60, rate_limit_burst=5).start()
    try:
        statuses = []
        for i in range(12):
            sprayed = requests.post(
                f"{live.url}{API_PREFIX}/sessions",
                json={"username": f"user{i:03d}", "password": "Winter2026!"},
                headers={"Authorization": "Bearer " + secrets.token_hex(8)},
                timeout=10,
            )
            statuses.append(sprayed.status_code)
        assert statuses == [401] * 5 + [429] * 7, statuses
    finally:
        live.stop()


def test_token_buckets_refill_and_forget_idle_callers() -> None:
    now = [0.0]
    buckets = TokenBuckets(per_minute=60, burst=2, clock=lambda: now[0], max_callers=3)
    assert [buckets.take("a") for _ in range(2)] == [0.0, 0.0]
    assert buckets.take("a") == pytest.approx(1.0)
    now[0] += 0.5
    assert buckets.take("a") == pytest.approx(0.5)
    now[0] += 0.5
    assert buckets.take("a") == 0.0
    for name in "bcdef":  # never more than max_callers buckets
        buckets.take(name)
        assert len(buckets) <= 3
    now[0] += 60  # all refilled: idle buckets are dropped as new callers come
    buckets.take("g")
    assert len(buckets) <= 2


def test_the_default_limit_leaves_a_busy_reviewer_alone(live_server: LiveServer) -> None:
    """A client sending as fast as it can for a while is not refused by the defaults: the
    limit is for floods and runaway loops, far above a reviewer's pace."""
    defaults = ServerSettings()
    assert defaults.rate_limit_per_minute >= 3_000 and defaults.rate_limit_burst >= 500
    reviewer: ApiSession = live_server.login("busy")
    statuses = {reviewer.get("/me").status_code for _ in range(300)}
    assert statuses == {200}


def test_logins_waiting_on_their_password_check_hold_no_other_request(
    sqlite_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A login checks its password with argon2id (tenths of a second of a core each). On
    the route threads, a handful of anonymous attempts held every other request behind
    them (a reviewer's GET /me went from 3 ms to 3 s). They have threads of their own now.
    Here the password check is held until the reviewer's request has been answered."""
    import threading

    live = LiveServer(sqlite_url).start()
    try:
        reviewer = live.login("rita")
        checking = threading.Event()
        release = threading.Event()
        real = live.service.login

        def slow_login(body: Any) -> Any:
            checking.set()
            release.wait(30)
            return real(body)

        monkeypatch.setattr(live.service, "login", slow_login)
        attempts = [
            threading.Thread(
                target=requests.post,
                args=(f"{live.url}{API_PREFIX}/sessions",),
                kwargs={"json": {"username": f"u{i}", "password": "x" * 12}, "timeout": 60},
            )
            for i in range(6)
        ]
        for attempt in attempts:
            attempt.start()
        assert checking.wait(10)
        try:
            answered = reviewer.get("/me", timeout=10)
        finally:
            release.set()
            for attempt in attempts:
                attempt.join(60)
        assert answered.status_code == 200
    finally:
        live.stop()
