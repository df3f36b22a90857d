"""The webhook timeout is a deadline (SQLite and PostgreSQL): a receiver on 127.0.0.1 that
answers a byte at a time, each byte well within the timeout, is cut off when the attempt's
time is up, and a second dispatcher (another process) never sends to the endpoint while
the first still has a request open to it.

In the answer's head the attempt fails as a timeout; once the status is in, a body trickled
slowly is dropped at the deadline and the status counts."""

from __future__ import annotations

import select
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import pairwise

import pytest

from reviewer_app.protocol import QueueFile
from reviewer_app.server.domain.webhooks.dispatcher import Dispatcher
from tests.server.test_webhooks import PLATFORM, decide, endpoint, platform, wait_until
from tests.support.enforcement import queue_file
from tests.support.servers import running

TIMEOUT = 0.5
SETTINGS = {
    "webhook_timeout_seconds": TIMEOUT,
    "webhook_lease_seconds": 1,  # as short as the timeout allows (twice a request's time)
    "webhook_poll_seconds": 0.05,
    "webhook_backoff_base_seconds": 0.05,
    "webhook_backoff_max_seconds": 0.2,
}
TRICKLE_FOR = 60.0  # seconds a request is answered for, a byte every tenth, unless cut off
HEADS = {
    # the status line, and a header that never ends
    "head": b"HTTP/1.1 204 No Content\r\nX-Slow: ",
    # the whole head, and a body that comes a byte at a time
    "body": b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n",
}


@dataclass
class Request:
    webhook_id: str
    began: float  # time.monotonic(): its body read
    ended: float | None = None  # when the sender hung up (or the trickle ended)


class Trickler:
    """A receiver that answers every request with ``head`` and then a byte every 0.1 s
    until the sender hangs up (seen at once: a wait for the socket to be readable)."""

    def __init__(self, head: bytes) -> None:
        self.head = head
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.lock = threading.Lock()
        self.requests: list[Request] = []
        self.stopping = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def _accept(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            reader = conn.makefile("rb")
            if not reader.readline():
                return
            headers: dict[str, str] = {}
            while (line := reader.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            reader.read(int(headers.get("content-length", "0")))
            request = Request(headers.get("webhook-id", ""), time.monotonic())
            with self.lock:
                self.requests.append(request)
            try:
                conn.sendall(self.head)
                end = time.monotonic() + TRICKLE_FOR
                while time.monotonic() < end and not self.stopping.is_set():
                    readable, _, _ = select.select([conn], [], [], 0.1)
                    if readable:  # the sender closed its side (it sends nothing more)
                        break
                    conn.sendall(b"a")
            except OSError:
                pass
            request.ended = time.monotonic()

    def snapshot(self) -> list[Request]:
        with self.lock:
            return list(self.requests)

    def ended(self) -> list[Request]:
        return [r for r in self.snapshot() if r.ended is not None]

    def stop(self) -> None:
        self.stopping.set()
        self.sock.close()


@contextmanager
def trickling(head: bytes) -> Iterator[Trickler]:
    found = Trickler(head)
    try:
        yield found
    finally:
        found.stop()


@pytest.mark.parametrize("where", ["head", "body"])
def test_an_answer_trickled_a_byte_at_a_time_ends_at_the_timeout(
    database_url: str, where: str
) -> None:
    with (
        trickling(HEADS[where]) as receiver,
        running(database_url, **SETTINGS) as server,  # type: ignore[arg-type]
    ):
        other = Dispatcher(server.service.db, server.settings, time.time)  # another process
        other.start()
        try:
            server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
            session, _key = platform(server)
            added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
            decide(server, session, ["p-1", "p-2", "p-3"])
            # three attempts over: more than one lease's time when each took its 60 s
            wait_until(lambda: len(receiver.ended()) >= 3, timeout=20)
            if where == "body":  # the 2xx counted: each message once
                wait_until(lambda: endpoint(server, added.id).delivered_total == 3)
            else:
                wait_until(lambda: endpoint(server, added.id).consecutive_failures >= 2)
                health = endpoint(server, added.id)
                assert health.last_error is not None
                assert f"no answer within {TIMEOUT:g} s" in health.last_error
                assert health.delivered_total == 0
        finally:
            other.stop()
        requests = receiver.snapshot()

    ended = [r for r in requests if r.ended is not None]
    for request in ended:  # cut off near the 0.5 s timeout: a bound with room, not a speed
        assert request.ended is not None and request.ended - request.began < 5.0
    # one request to the endpoint at a time (give or take the moment the receiver takes to
    # see a hang-up): the second dispatcher took the lease only after an attempt was over
    spans = sorted((r.began, r.ended if r.ended is not None else float("inf")) for r in requests)
    for (_began, ended_at), (next_began, _ended) in pairwise(spans):
        assert next_began > ended_at - 0.25, "two requests to one endpoint at once"


def test_a_refused_connection_is_said_as_one_not_as_a_timeout(database_url: str) -> None:
    """Nothing listening: the endpoint's last error says the connection was refused. urllib3
    2 derives its refused-connection error from its connect-timeout error, and the
    operators read "no answer within 0.5 s", looking for a slow receiver, not a dead one."""
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # the port is free: connecting to it is refused
    with running(database_url, **SETTINGS) as server:  # type: ignore[arg-type]
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, _key = platform(server)
        added, _secret = server.service.add_webhook(
            f"http://127.0.0.1:{port}/hook", PLATFORM, None, "ops"
        )
        decide(server, session, ["p-1"])
        wait_until(lambda: endpoint(server, added.id).consecutive_failures >= 1)
        health = endpoint(server, added.id)
    assert health.last_error is not None
    assert "connection failed (Connection refused)" in health.last_error
    assert "no answer" not in health.last_error
