"""Bad input gets a 4xx problem document and changes nothing; never a 500."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
import requests

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import seed_load_queue
from tests.support.api import ApiSession, expect_problem, verdict
from tests.support.servers import LiveServer

MAX_BODY = 64 * 1024


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    live = LiveServer(database_url, max_body_bytes=MAX_BODY).start()
    seed_load_queue(live.service, 30)
    _state(live)
    try:
        yield live
    finally:
        live.stop()


@pytest.fixture
def reviewer(server: LiveServer) -> ApiSession:
    return server.login("rita")


_LEADS: dict[int, ApiSession] = {}


def _state(server: LiveServer) -> tuple[dict[str, Any], int]:
    """What bad requests must not change: item states and the event count."""
    if server.port not in _LEADS:
        _LEADS[server.port] = server.login("auditor", Role.lead)
    lead = _LEADS[server.port]
    events = 0
    cursor = None
    while True:
        page = lead.get("/events", params={"limit": 500, **({"cursor": cursor} if cursor else {})})
        events += len(page.json()["events"])
        cursor = page.json()["next_cursor"]
        if not cursor:
            break
    return server.service.count_items(), events


def test_malformed_json_is_400(server: LiveServer, reviewer: ApiSession) -> None:
    leased = reviewer.claim("load-test", 1)
    before = _state(server)
    for raw in (b"{", b'{"verdicts": [', b"\xff\xfe\x00", b"nul\x00l", b"[" * 10_000):
        response = reviewer.post(
            "/verdicts", data=raw, headers={"Content-Type": "application/json"}
        )
        assert 400 <= response.status_code < 500, (raw[:10], response.status_code)
        assert response.headers["content-type"] == "application/problem+json"
    expect_problem(
        reviewer.post("/verdicts", data=b"{", headers={"Content-Type": "application/json"}),
        400,
        "malformed_json",
    )
    assert _state(server) == before
    assert leased  # the lease is still there to be decided


@pytest.mark.parametrize(
    "body",
    [
        {"verdicts": "all of them"},
        {"verdicts": [{"item_id": 7}]},
        {"verdicts": [None]},
        [],
        "just a string",
        {"count": 1},
    ],
)
def test_wrong_types_are_422_and_change_nothing(
    server: LiveServer, reviewer: ApiSession, body: Any
) -> None:
    before = _state(server)
    response = reviewer.post("/verdicts", json=body)
    expect_problem(response, 422, "invalid_request")
    assert response.json()["errors"], "a 422 says which fields are wrong"
    assert _state(server) == before


def test_unknown_action_is_422_and_changes_nothing(
    server: LiveServer, reviewer: ApiSession
) -> None:
    leased = reviewer.claim("load-test", 2)
    before = _state(server)
    good = verdict(leased[0], "keep")
    bad = verdict(leased[1], "delete-everything")
    response = reviewer.post("/verdicts", json={"verdicts": [good, bad]})
    expect_problem(response, 422, "verdict_invalid")
    assert response.json()["errors"][0]["loc"] == ["verdicts", 1, "action"]
    assert _state(server) == before


def test_oversized_bodies_are_413(server: LiveServer, reviewer: ApiSession) -> None:
    before = _state(server)
    big = json.dumps({"verdicts": [], "padding": "x" * (MAX_BODY + 1)}).encode()
    expect_problem(
        reviewer.post("/verdicts", data=big, headers={"Content-Type": "application/json"}),
        413,
        "body_too_large",
    )

    def chunked() -> Iterator[bytes]:  # no Content-Length: the cap applies while streaming
        yield b'{"verdicts": ["'
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"y" * 1024
        yield b'"]}'

    expect_problem(
        reviewer.post("/verdicts", data=chunked(), headers={"Content-Type": "application/json"}),
        413,
        "body_too_large",
    )
    expect_problem(
        reviewer.post("/sessions", data=big, headers={"Content-Type": "application/json"}), 413
    )
    assert _state(server) == before


@pytest.mark.parametrize(
    "cursor",
    [
        "garbage!!",
        "",
        "e30",  # {} in base64
        base64.urlsafe_b64encode(b'{"v":1,"after":-5}').decode(),
        base64.urlsafe_b64encode(b'{"v":9,"after":5}').decode(),
        base64.urlsafe_b64encode(b"[1,2,3]").decode(),
        base64.urlsafe_b64encode(b'{"v":1,"after":100000000000000000000}').decode(),
        base64.urlsafe_b64encode(b'{"v":1,"after":2147483648}').decode(),
        "x" * 600,
    ],
)
def test_invalid_cursors_are_4xx(server: LiveServer, cursor: str) -> None:
    lead = server.login("lena", Role.lead)
    response = lead.get("/events", params={"cursor": cursor})
    assert response.status_code in (400, 422), response.text
    assert response.headers["content-type"] == "application/problem+json"
    if 0 < len(cursor) <= 512:
        assert response.json()["code"] in ("invalid_cursor", "invalid_request")


def test_cursor_pages_cover_the_log_once(server: LiveServer) -> None:
    lead = server.login("lena", Role.lead)
    seen: list[int] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 7}
        if cursor:
            params["cursor"] = cursor
        page = lead.get("/events", params=params).json()
        seen += [e["id"] for e in page["events"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert seen == sorted(set(seen))
    assert len(seen) >= 30  # one "enqueued" event per seeded item


def test_unknown_things_are_404(reviewer: ApiSession) -> None:
    expect_problem(
        reviewer.post("/queues/no-such-queue/leases", json={"count": 1}), 404, "unknown_queue"
    )
    expect_problem(reviewer.get("/items/itm-nope"), 404, "unknown_item")
    expect_problem(reviewer.get("/media/nothing"), 404, "unknown_media")
    expect_problem(reviewer.get("/items/itm-nope/history"), 404, "unknown_item")
    response = reviewer.get("/no/such/route")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/problem+json"


def test_unknown_and_foreign_lease_tokens_are_rejected(
    server: LiveServer, reviewer: ApiSession
) -> None:
    leased = reviewer.claim("load-test", 1)
    other = server.login("omar")
    forged = {**leased[0], "lease_token": "forgedforgedforged.x"}
    results = other.decide([verdict(forged), verdict(leased[0])])
    assert [r["status"] for r in results] == ["rejected", "rejected"]
    assert [r["reason"]["code"] for r in results] == ["unknown_lease", "not_your_lease"]
    renew = other.post("/leases/renew", json={"tokens": [leased[0]["lease_token"]]}).json()
    assert renew["results"][0]["status"] == "unknown"
    # the real owner still decides it
    assert reviewer.decide([verdict(leased[0])])[0]["status"] == "accepted"


def test_stale_token_changes_nothing(server: LiveServer, reviewer: ApiSession) -> None:
    leased = reviewer.claim("load-test", 1)
    assert reviewer.request("DELETE", "/sessions/current").status_code == 204
    before = _state(server)
    expect_problem(
        reviewer.post("/verdicts", json={"verdicts": [verdict(leased[0])]}), 401, "token_invalid"
    )
    expect_problem(reviewer.post("/queues/load-test/leases", json={"count": 5}), 401)
    assert _state(server) == before


def test_wrong_methods_and_content_types(reviewer: ApiSession) -> None:
    response = reviewer.request("PATCH", "/verdicts", json={})
    assert response.status_code == 405
    assert response.headers["content-type"] == "application/problem+json"
    assert response.headers["allow"] == "POST"
    # the operators' routes (outside the OpenAPI document) name theirs too, and take HEAD
    # as a load balancer's check asks (HAProxy's httpchk): both were 405, with "Allow:"
    root = reviewer.base_url
    for path in ("/healthz", "/readyz"):
        wrong = requests.post(root + path, timeout=10)
        assert (wrong.status_code, wrong.headers["allow"]) == (405, "GET, HEAD"), path
        head = requests.head(root + path, timeout=10)
        assert (head.status_code, head.content) == (200, b""), path
    form = reviewer.post("/verdicts", data={"verdicts": "x"})
    assert 400 <= form.status_code < 500


@pytest.mark.parametrize(
    "decided_at",
    ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "1969-12-31T23:59:59Z"],
)
def test_times_no_clock_can_mean_are_422(
    server: LiveServer, reviewer: ApiSession, decided_at: str
) -> None:
    leased = reviewer.claim("load-test", 1)
    before = _state(server)
    response = reviewer.post(
        "/verdicts", json={"verdicts": [verdict(leased[0], decided_at=decided_at)]}
    )
    expect_problem(response, 422, "invalid_request")
    assert _state(server) == before
    assert reviewer.get(f"/items/{leased[0]['item']['id']}").status_code == 200
