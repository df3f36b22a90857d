"""The chaos proxy does each of its faults, logs it, and replays the same faults from the
same seed."""

from __future__ import annotations

import contextlib
import json
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import requests

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import ApiSession
from tests.support.chaos_proxy import FAULT_KINDS, ChaosPlan, ChaosProxy, replay
from tests.support.servers import LiveServer


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    root = tmp_path_factory.mktemp("chaos-proxy")
    srv = LiveServer(f"sqlite:///{root / 'service.db'}").start()
    seed_load_queue(srv.service, 200)
    srv.add_user("lead", Role.lead)
    srv.add_user("reviewer")
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="module")
def reviewer(server: LiveServer) -> ApiSession:
    return server.login("reviewer", create=False)


@pytest.fixture(scope="module")
def lead(server: LiveServer) -> ApiSession:
    return server.login("lead", create=False)


def only(kind: str, server: LiveServer, **kw: Any) -> ChaosProxy:
    """A proxy that gives every request the fault ``kind`` (and resets no connection)."""
    kw.setdefault("connect_reset_share", 0.0)
    return ChaosProxy(server.port, seed=1, p=1.0, weights={kind: 1.0}, **kw).start()


def verdict_for(reviewer: ApiSession) -> dict[str, Any]:
    leased = reviewer.claim(LOAD_QUEUE.id, 1)[0]
    return {
        "idempotency_key": str(uuid.uuid4()),
        "item_id": leased["item"]["id"],
        "lease_token": leased["lease_token"],
        "action": "keep",
        "policies": [],
        "time_spent_ms": 1000,
        "decided_at": datetime.now(UTC).isoformat(),
    }


def post_verdict(proxy: ChaosProxy, reviewer: ApiSession, verdict: dict[str, Any]) -> Any:
    """One attempt, no retries (a plain requests call)."""
    return requests.post(
        f"{proxy.url}/api/v1/verdicts",
        json={"verdicts": [verdict]},
        headers={"Authorization": f"Bearer {reviewer.token}"},
        timeout=10,
    )


def decided(lead: ApiSession, item_id: str) -> int:
    reply = lead.get("/decisions", params={"item_id": item_id})
    reply.raise_for_status()
    return len(reply.json()["decisions"])


def test_the_same_seed_gives_the_same_faults_and_another_seed_others(
    server: LiveServer,
) -> None:
    def run(seed: int) -> list[tuple[int, str]]:
        proxy = ChaosProxy(server.port, seed=seed, p=0.5, connect_reset_share=0.0).start()
        try:
            for _ in range(30):
                # a new connection each time: a fault may have closed the last one
                with contextlib.suppress(requests.RequestException):
                    requests.get(f"{proxy.url}/api/v1/meta", timeout=10)
            return proxy.faults()
        finally:
            proxy.stop()

    first = run(7)
    assert first == run(7) == replay(7, 30, p=0.5)
    assert first != run(8)
    assert len({kind for _, kind in first}) >= 3
    assert 8 <= len(first) <= 22


def test_the_plan_is_a_function_of_seed_and_request_number() -> None:
    plan = ChaosPlan(99, p=0.2)
    faults = [plan.fault(n) for n in range(2000)]
    assert faults == [ChaosPlan(99, p=0.2).fault(n) for n in range(2000)]
    assert 0.17 < sum(f is not None for f in faults) / len(faults) < 0.23
    assert {f.kind for f in faults if f is not None} == set(FAULT_KINDS)
    latencies = [f.latency for f in faults if f is not None and f.kind == "latency"]
    assert latencies and all(0.05 <= s <= 0.8 for s in latencies)
    busy = {(f.status, f.retry_after) for f in faults if f is not None and f.kind == "busy"}
    assert {s for s, _ in busy} == {502, 503} and (503, 1) in busy


def test_drop_after_commit_lets_the_service_commit_and_loses_the_reply(
    server: LiveServer, reviewer: ApiSession, lead: ApiSession, tmp_path: Path
) -> None:
    log = tmp_path / "faults.jsonl"
    proxy = only("drop_after_commit", server, log_path=log)
    try:
        verdict = verdict_for(reviewer)
        with pytest.raises(requests.ConnectionError):
            post_verdict(proxy, reviewer, verdict)
    finally:
        proxy.stop()
    assert decided(lead, verdict["item_id"]) == 1
    # the retry under the same key is told it was delivered, and decides nothing again
    assert reviewer.decide([verdict])[0]["status"] == "duplicate"
    assert decided(lead, verdict["item_id"]) == 1
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert logged == [
        {
            "seed": 1,
            "n": 0,
            "request": "POST /api/v1/verdicts HTTP/1.1",
            "fault": "drop_after_commit",
            "detail": "",
            "at": logged[0]["at"],
        }
    ]


def test_reset_before_forwards_nothing(
    server: LiveServer, reviewer: ApiSession, lead: ApiSession
) -> None:
    proxy = only("reset_before", server)
    try:
        verdict = verdict_for(reviewer)
        with pytest.raises(requests.ConnectionError):
            post_verdict(proxy, reviewer, verdict)
    finally:
        proxy.stop()
    assert decided(lead, verdict["item_id"]) == 0
    assert proxy.counts() == {"reset_before": 1}


def test_busy_answers_502_or_503_without_forwarding(
    server: LiveServer, reviewer: ApiSession, lead: ApiSession
) -> None:
    proxy = only("busy", server)
    try:
        statuses = set()
        retry_after = set()
        for _ in range(12):
            verdict = verdict_for(reviewer)
            reply = post_verdict(proxy, reviewer, verdict)
            statuses.add(reply.status_code)
            retry_after.add(reply.headers.get("Retry-After"))
            assert decided(lead, verdict["item_id"]) == 0
    finally:
        proxy.stop()
    assert statuses == {502, 503}
    assert None in retry_after and len(retry_after) > 1


def test_truncate_forwards_and_cuts_the_reply_short(
    server: LiveServer, reviewer: ApiSession, lead: ApiSession
) -> None:
    proxy = only("truncate", server)
    try:
        verdict = verdict_for(reviewer)
        with pytest.raises(requests.RequestException):
            post_verdict(proxy, reviewer, verdict)
    finally:
        proxy.stop()
    assert decided(lead, verdict["item_id"]) == 1


def test_bad_reply_forwards_and_answers_200_with_a_page_that_is_not_json(
    server: LiveServer, reviewer: ApiSession, lead: ApiSession
) -> None:
    proxy = only("bad_reply", server)
    try:
        verdict = verdict_for(reviewer)
        reply = post_verdict(proxy, reviewer, verdict)
    finally:
        proxy.stop()
    assert reply.status_code == 200 and reply.headers["Content-Type"] == "text/html"
    with pytest.raises(ValueError):
        reply.json()
    assert decided(lead, verdict["item_id"]) == 1


def test_latency_delays_the_request_and_then_forwards_it(server: LiveServer) -> None:
    proxy = only("latency", server)
    try:
        began = time.monotonic()
        reply = requests.get(f"{proxy.url}/api/v1/meta", timeout=10)
        took = time.monotonic() - began
    finally:
        proxy.stop()
    assert reply.status_code == 200
    (record,) = proxy.records
    assert record.fault == "latency" and record.request.startswith("GET /api/v1/meta ")
    assert took >= float(record.detail.split()[0]) / 1000


def test_reset_on_connect_drops_a_new_connection_before_its_request(
    server: LiveServer,
) -> None:
    proxy = ChaosProxy(server.port, seed=3, p=1.0, connect_reset_share=1.0).start()
    try:
        with pytest.raises(requests.ConnectionError):
            requests.get(f"{proxy.url}/api/v1/meta", timeout=10)
    finally:
        proxy.stop()
    assert proxy.counts() == {"reset_on_connect": 1}
    assert proxy.requests_seen == 0


def test_no_faults_at_p_zero(server: LiveServer) -> None:
    proxy = ChaosProxy(server.port, seed=5, p=0.0).start()
    try:
        with requests.Session() as http:
            for _ in range(30):
                assert http.get(f"{proxy.url}/api/v1/meta", timeout=10).status_code == 200
    finally:
        proxy.stop()
    assert proxy.records == [] and proxy.requests_seen == 30
