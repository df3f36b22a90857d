"""A webhook receiver for tests and benchmarks: a real HTTP server on 127.0.0.1 (a thread per
connection, keep-alive) that records every request it gets and answers as it is told."""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Answer:
    """How to answer one request."""

    status: int = 204
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds to wait before answering (past the sender's timeout: a timeout)
    reset: bool = False  # close the connection with a TCP reset instead of answering
    reason: str | None = None  # the status line's reason phrase (None: the usual one)


OK = Answer()


@dataclass(frozen=True)
class Received:
    """One request as it arrived."""

    at: float  # time.time() when its body was read
    path: str
    headers: dict[str, str]
    body: bytes
    answer: Answer

    @property
    def webhook_id(self) -> str:
        return self.headers.get("webhook-id", "")

    def document(self) -> Any:
        return json.loads(self.body)


class Receiver:
    """``decide(path, headers, body) -> Answer`` says how to answer each request; every
    request is kept in ``received`` (in arrival order), whatever the answer. ``in_flight``
    counts requests being handled per path, ``max_in_flight`` the most seen at once."""

    def __init__(
        self,
        decide: Callable[[str, dict[str, str], bytes], Answer] | None = None,
        *,
        keep: bool = True,
    ) -> None:
        self.decide = decide or (lambda _p, _h, _b: OK)
        self.keep = keep
        self.received: list[Received] = []
        self.count = 0
        self.cut = 0  # requests whose body ended early (not recorded)
        self.lock = threading.Lock()
        self.in_flight: dict[str, int] = {}
        self.max_in_flight: dict[str, int] = {}
        self.on_receive: Callable[[Received], None] | None = None
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                if len(body) < length:
                    # the sender went away inside its body (a SIGKILLed service): no request
                    # arrived, as for any HTTP server; what did come is not a message
                    receiver._cut()
                    self.close_connection = True
                    return
                headers = {k.lower(): v for k, v in self.headers.items()}
                receiver._enter(self.path)
                try:
                    answer = receiver.decide(self.path, headers, body)
                    got = Received(time.time(), self.path, headers, body, answer)
                    receiver._record(got)
                    if answer.delay:
                        time.sleep(answer.delay)
                    if answer.reset:
                        self.connection.setsockopt(
                            socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
                        )
                        self.close_connection = True
                        self.connection.close()
                        return
                    self.send_response(answer.status, answer.reason)
                    for name, value in answer.headers.items():
                        self.send_header(name, value)
                    self.send_header("content-length", "0")
                    self.end_headers()
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True
                finally:
                    receiver._leave(self.path)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def start(self) -> Receiver:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> Receiver:
        return self.start()

    def __exit__(self, *_exc: object) -> None:
        self.stop()

    def _enter(self, path: str) -> None:
        with self.lock:
            now = self.in_flight.get(path, 0) + 1
            self.in_flight[path] = now
            self.max_in_flight[path] = max(self.max_in_flight.get(path, 0), now)

    def _leave(self, path: str) -> None:
        with self.lock:
            self.in_flight[path] -= 1

    def _cut(self) -> None:
        with self.lock:
            self.cut += 1

    def _record(self, got: Received) -> None:
        with self.lock:
            self.count += 1
            if self.keep:
                self.received.append(got)
        if self.on_receive is not None:
            self.on_receive(got)

    def snapshot(self) -> list[Received]:
        with self.lock:
            return list(self.received)

    def wait_for(
        self, condition: Callable[[list[Received]], bool], timeout: float = 60.0
    ) -> list[Received]:
        """Wait until ``condition`` holds of what was received (a bound on waiting, not a
        speed test: it fails only when the condition never comes)."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.snapshot()
            if condition(found):
                return found
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"the receiver's condition did not hold in {timeout:g} s "
                    f"({len(found)} requests received)"
                )
            time.sleep(0.05)
