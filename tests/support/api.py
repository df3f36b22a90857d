"""A small HTTP helper for server tests (the real client lives in ``reviewer_app.core``)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import requests

PROBLEM_JSON = "application/problem+json"

API = "/api/v1"


class ApiSession:
    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url = base_url
        self.token = token
        self.http = requests.Session()
        if token:
            self.http.headers["Authorization"] = f"Bearer {token}"

    @classmethod
    def login(cls, base_url: str, username: str, password: str) -> ApiSession:
        response = requests.post(
            f"{base_url}{API}/sessions",
            json={"username": username, "password": password},
            timeout=30,
        )
        response.raise_for_status()
        return cls(base_url, response.json()["token"])

    def request(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", 60)
        return self.http.request(method, f"{self.base_url}{API}{path}", **kwargs)

    def get(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> requests.Response:
        return self.request("POST", path, **kwargs)

    def claim(
        self, queue_id: str, count: int = 10, lease_seconds: int = 300
    ) -> list[dict[str, Any]]:
        response = self.post(
            f"/queues/{queue_id}/leases", json={"count": count, "lease_seconds": lease_seconds}
        )
        response.raise_for_status()
        items: list[dict[str, Any]] = response.json()["items"]
        return items

    def decide(self, verdicts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        response = self.post("/verdicts", json={"verdicts": verdicts})
        response.raise_for_status()
        results: list[dict[str, Any]] = response.json()["results"]
        return results


def verdict(leased: dict[str, Any], action: str = "keep", **fields: Any) -> dict[str, Any]:
    """A verdict body for a leased item as the claim returned it."""
    body: dict[str, Any] = {
        "idempotency_key": str(uuid.uuid4()),
        "item_id": leased["item"]["id"],
        "lease_token": leased["lease_token"],
        "action": action,
        "time_spent_ms": 4_200,
        "decided_at": datetime.now(UTC).isoformat(),
    }
    body.update(fields)
    return body


def claim(
    session: ApiSession,
    queue_id: str,
    count: int,
    lease_seconds: int = 300,
    *,
    exactly: bool = True,
) -> list[dict[str, Any]]:
    """POST /queues/{id}/leases; never more items than asked, and exactly that many unless
    the queue may run dry (``exactly=False``)."""
    response = session.post(
        f"/queues/{queue_id}/leases", json={"count": count, "lease_seconds": lease_seconds}
    )
    assert response.status_code == 200, response.text
    items: list[dict[str, Any]] = response.json()["items"]
    assert len(items) <= count, (
        f"asked for {count} items of {queue_id!r}, the claim leased {len(items)}: "
        f"{[e['item']['id'] for e in items]}"
    )
    if exactly:
        assert len(items) == count, f"asked for {count} items of {queue_id!r}, got {len(items)}"
    return items


def expect_problem(
    response: requests.Response, status: int, code: str | None = None
) -> dict[str, Any]:
    """The response is an RFC 9457 problem document with this status (and code)."""
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].startswith(PROBLEM_JSON), response.headers
    body: dict[str, Any] = response.json()
    assert body["status"] == status and body["title"] and body["code"], body
    if code is not None:
        assert body["code"] == code, body
    return body
