"""Logins, tokens and throttling over real HTTP."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests
from sqlalchemy import select

from reviewer_app.protocol import Role
from reviewer_app.server.storage.tables import sessions, users
from tests.support.api import API, ApiSession
from tests.support.clock import ManualClock
from tests.support.servers import PASSWORD, LiveServer


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Iterator[LiveServer]:
    live = LiveServer(database_url, clock=clock, token_ttl_seconds=3600).start()
    live.add_user("rita", Role.reviewer)
    try:
        yield live
    finally:
        live.stop()


def _login(server: LiveServer, password: str, username: str = "rita") -> requests.Response:
    return requests.post(
        f"{server.url}{API}/sessions", json={"username": username, "password": password}, timeout=30
    )


def test_login_gives_a_token_with_role_and_expiry(server: LiveServer, clock: ManualClock) -> None:
    response = _login(server, PASSWORD)
    assert response.status_code == 201
    body = response.json()
    assert body["user"]["username"] == "rita"
    assert body["user"]["role"] == "reviewer"
    me = ApiSession(server.url, body["token"]).get("/me")
    assert me.status_code == 200 and me.json()["username"] == "rita"


def test_secrets_are_stored_hashed(server: LiveServer) -> None:
    token = _login(server, PASSWORD).json()["token"]
    with server.service.db.read() as conn:
        password_hash = conn.execute(select(users.c.password_hash)).scalar_one()
        stored = list(conn.execute(select(sessions.c.token_hash)).scalars())
    assert password_hash.startswith("$argon2id$")
    assert PASSWORD not in password_hash
    assert token not in stored and len(stored) == 1 and len(stored[0]) == 64


def test_wrong_password_and_unknown_user_look_the_same(server: LiveServer) -> None:
    wrong = _login(server, "not-the-password")
    unknown = _login(server, PASSWORD, username="nobody")
    for response in (wrong, unknown):
        assert response.status_code == 401
        assert response.headers["content-type"] == "application/problem+json"
        assert response.json()["code"] == "bad_credentials"
    assert wrong.json()["detail"] == unknown.json()["detail"]


def test_repeated_failures_lock_the_name_then_it_recovers(
    server: LiveServer, clock: ManualClock
) -> None:
    for _ in range(server.settings.login_max_failures):
        assert _login(server, "guess").status_code == 401
    locked = _login(server, PASSWORD)
    assert locked.status_code == 429
    assert locked.json()["code"] == "login_locked"
    assert int(locked.headers["Retry-After"]) >= 1
    clock.advance(server.settings.login_lock_seconds + 1)
    assert _login(server, PASSWORD).status_code == 201
    # a success resets the count: one more failure does not lock again
    assert _login(server, "guess").status_code == 401
    assert _login(server, PASSWORD).status_code == 201


def test_lock_grows_with_further_failures(server: LiveServer, clock: ManualClock) -> None:
    for _ in range(server.settings.login_max_failures):
        _login(server, "guess")
    clock.advance(server.settings.login_lock_seconds + 1)
    assert _login(server, "guess").status_code == 401  # one more failure: locked for twice as long
    clock.advance(server.settings.login_lock_seconds + 1)
    assert _login(server, PASSWORD).status_code == 429


def test_logout_revokes_the_token(server: LiveServer) -> None:
    session = ApiSession(server.url, _login(server, PASSWORD).json()["token"])
    assert session.request("DELETE", "/sessions/current").status_code == 204
    after = session.get("/me")
    assert after.status_code == 401
    assert after.json()["code"] == "token_invalid"


def test_tokens_expire(server: LiveServer, clock: ManualClock) -> None:
    session = ApiSession(server.url, _login(server, PASSWORD).json()["token"])
    assert session.get("/me").status_code == 200
    clock.advance(3601)
    response = session.get("/queues")
    assert response.status_code == 401
    assert response.json()["code"] == "token_invalid"


@pytest.mark.parametrize(
    "header",
    ["", "Bearer", "Bearer ", "Basic cml0YTpwdw==", "Bearer " + "x" * 5000, "Bearer rd1_forged"],
)
def test_bad_authorization_headers_are_401(server: LiveServer, header: str) -> None:
    response = requests.get(
        f"{server.url}{API}/queues", headers={"Authorization": header}, timeout=30
    )
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"


def test_parallel_guesses_are_all_counted(server: LiveServer) -> None:
    with ThreadPoolExecutor(8) as pool:
        statuses = list(pool.map(lambda _: _login(server, "guess").status_code, range(16)))
    assert set(statuses) <= {401, 429}
    assert _login(server, PASSWORD).status_code == 429, "16 parallel guesses must lock the name"
