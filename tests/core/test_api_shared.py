"""One ApiClient shared by threads (the lead workspace's ops): a session per thread, the
token read per call, every 401 told to the hook on the calling thread."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import AuthenticationRequired
from reviewer_app.protocol import Role
from tests.support.client import login
from tests.support.servers import LiveServer


def test_threads_share_one_client_each_with_its_own_session(server: LiveServer) -> None:
    client = login(server, "sharing-lead", Role.lead)
    sessions: dict[int, requests.Session] = {}
    lock = threading.Lock()
    start = threading.Barrier(4)

    def work(_n: int) -> int:
        start.wait(10)  # four threads call at once
        with lock:
            sessions[threading.get_ident()] = client.session
        total = 0
        for _ in range(5):
            total += len(client.queues().queues)
            assert client.session is sessions[threading.get_ident()]  # kept across calls
        return total

    with ThreadPoolExecutor(4) as pool:
        totals = list(pool.map(work, range(4)))
    assert len(set(totals)) == 1 and totals[0] > 0
    assert len({id(s) for s in sessions.values()}) == 4, "one session per thread"
    assert client.session not in sessions.values()  # this thread's is its own too
    client.close()
    assert client.queues().queues, "a closed client opens a new session on its next call"
    client.close()


def test_a_401_is_told_to_the_hook_on_the_calling_thread_and_raised(server: LiveServer) -> None:
    client = login(server, "hooked-lead", Role.lead)
    told: list[tuple[str, AuthenticationRequired]] = []
    client.on_auth_required = lambda err: told.append((threading.current_thread().name, err))
    assert client.queues().queues  # a good token: nothing told
    assert told == []
    with ApiClient(server.url, token=client.token) as other:
        other.logout()  # the token ends elsewhere

    def call() -> None:
        with pytest.raises(AuthenticationRequired) as raised:
            client.queues()
        told.append(("raised", raised.value))

    worker = threading.Thread(target=call, name="op-thread")
    worker.start()
    worker.join(30)
    assert [name for name, _ in told] == ["op-thread", "raised"]
    assert told[0][1] is told[1][1]
    fresh = login(server.url, "hooked-lead")
    client.token = fresh.token  # a new login reaches the shared client
    assert client.queues().queues
    assert len(told) == 2
    client.close()
    fresh.close()
