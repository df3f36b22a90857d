"""A real TCP proxy on 127.0.0.1 in front of the reference service, for faults the service
itself cannot be made to produce: the network going away, a reply cut off mid-body, a
connection reset after the server committed, a 503 with ``Retry-After``, a reply that is
valid JSON but breaks the contract. Optionally it speaks TLS to the client.

It understands just enough HTTP/1.1 (``Content-Length`` bodies, keep-alive) to apply a
fault to one request out of a stream; everything else passes through byte for byte.
"""

from __future__ import annotations

import contextlib
import socket
import ssl
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from .servers import free_port

Fault = str  # "refuse" | "reset_before" | "reset_after" | "truncate" | "respond" | "rewrite"


@dataclass
class Rule:
    method: str
    path_prefix: str
    fault: Fault
    times: int = 1
    #: for "respond": the whole raw HTTP response; for "rewrite": new body bytes
    payload: bytes = b""
    #: for "rewrite": a function of the original body (overrides payload)
    rewrite: Callable[[bytes], bytes] | None = None

    def matches(self, method: str, path: str) -> bool:
        return self.times > 0 and method == self.method and path.startswith(self.path_prefix)


@dataclass(frozen=True)
class Step:
    """What the proxy does with one request: the one serving loop (``FaultProxy._serve``)
    carries it out; each kind of proxy only decides it (``_step``).

    ``before``: reset the connection, or answer with these raw bytes, without forwarding;
    ``delay``: seconds slept before forwarding; ``after`` (once the service answered):
    reset, cut the reply half way through its body, or send ``after(head, body)``
    instead of the reply."""

    before: Literal["reset"] | bytes | None = None
    delay: float = 0.0
    after: Literal["reset", "truncate"] | Callable[[bytes, bytes], bytes] | None = None


PASS = Step()


def http_response(status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> bytes:
    reason = {401: "Unauthorized", 503: "Service Unavailable", 200: "OK"}.get(status, "Status")
    lines = [f"HTTP/1.1 {status} {reason}", f"Content-Length: {len(body)}"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


class _Closed(Exception):
    pass


def _read_message(sock: socket.socket, buffer: bytearray) -> tuple[bytes, bytes, str]:
    """One HTTP message (head, body, start line) from ``sock``; leftovers stay in buffer."""
    while b"\r\n\r\n" not in buffer:
        chunk = sock.recv(65536)
        if not chunk:
            raise _Closed
        buffer += chunk
    end = buffer.index(b"\r\n\r\n") + 4
    head = bytes(buffer[:end])
    del buffer[:end]
    length = 0
    chunked = False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
        if name.strip().lower() == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        raise AssertionError("the fault proxy does not handle chunked bodies")
    while len(buffer) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise _Closed
        buffer += chunk
    body = bytes(buffer[:length])
    del buffer[:length]
    return head, body, head.split(b"\r\n", 1)[0].decode("latin-1")


def _reset(sock: socket.socket) -> None:
    """Close with RST (SO_LINGER 0), as a dropped connection looks to the other side."""
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        # wakes a thread blocked in recv() on it (close alone would not, on Linux)
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


class FaultProxy:
    def __init__(
        self, upstream_port: int, *, tls: ssl.SSLContext | None = None, delay: float = 0.0
    ) -> None:
        self.upstream_port = upstream_port
        self.port = free_port()
        self.tls = tls
        #: seconds slept before each request is forwarded upstream (added latency); may be
        #: changed while the proxy runs
        self.delay = delay
        self.rules: list[Rule] = []
        self.seen: list[str] = []
        self._lock = threading.Lock()
        self._listener: socket.socket | None = None
        self._open_conns: set[socket.socket] = set()

    @property
    def url(self) -> str:
        return f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"

    # --- control ---------------------------------------------------------------------

    def start(self) -> FaultProxy:
        self.online()
        return self

    def online(self) -> None:
        """Listen again (the network is back)."""
        if self._listener is not None:
            return
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", self.port))
        sock.listen(128)
        self._listener = sock
        threading.Thread(target=self._accept, args=(sock,), daemon=True).start()

    def offline(self) -> None:
        """Stop listening and drop every open connection: connects are refused."""
        sock, self._listener = self._listener, None
        if sock is not None:
            # wakes the thread blocked in accept() (close alone would not, on Linux)
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
        with self._lock:
            conns, self._open_conns = self._open_conns, set()
        for conn in conns:
            with contextlib.suppress(OSError):
                _reset(conn)

    def add(self, rule: Rule) -> Rule:
        with self._lock:
            self.rules.append(rule)
        return rule

    def clear(self) -> None:
        with self._lock:
            self.rules.clear()

    def stop(self) -> None:
        self.offline()

    def count(self, method: str, path_prefix: str) -> int:
        with self._lock:
            return sum(1 for s in self.seen if s.startswith(f"{method} {path_prefix}"))

    # --- the work ------------------------------------------------------------------------

    def _take_rule(self, method: str, path: str) -> Rule | None:
        with self._lock:
            self.seen.append(f"{method} {path}")
            for rule in self.rules:
                if rule.matches(method, path):
                    rule.times -= 1
                    return rule
        return None

    def _step(self, start: str) -> Step:
        """The named rule's fault for this request (the first rule that matches it)."""
        method, path = start.split(" ")[:2]
        rule = self._take_rule(method, path)
        fault = rule.fault if rule else None
        if rule is None or fault is None:
            return Step(delay=self.delay)
        if fault in ("refuse", "reset_before"):
            return Step(before="reset")
        if fault == "respond":
            return Step(before=rule.payload)
        if fault == "rewrite":
            return Step(delay=self.delay, after=_rewriter(rule))
        if fault in ("reset_after", "truncate"):
            return Step(delay=self.delay, after="reset" if fault == "reset_after" else "truncate")
        raise ValueError(f"unknown fault {fault!r}")

    def _on_connect(self) -> bool:
        """Whether to take this new connection (False: it is reset before a byte is read)."""
        return True

    def _upstream_failed(self) -> None:
        """The service could not be reached for a request (the client's connection is
        reset, as a dying service leaves its clients)."""

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, client: socket.socket) -> None:
        """The one serving loop of every HTTP fault proxy: read a request, carry out the
        ``Step`` decided for it, pass the rest through."""
        if not self._on_connect():
            _reset(client)
            return
        if self.tls is not None:
            try:
                client = self.tls.wrap_socket(client, server_side=True)
            except (ssl.SSLError, OSError):
                client.close()
                return
        with self._lock:
            self._open_conns.add(client)
        upstream: socket.socket | None = None
        inbox = bytearray()
        backbox = bytearray()
        try:
            while True:
                head, body, start = _read_message(client, inbox)
                step = self._step(start)
                if step.before == "reset":
                    _reset(client)
                    return
                if isinstance(step.before, bytes):
                    client.sendall(step.before)
                    continue
                if step.delay > 0:
                    time.sleep(step.delay)
                try:
                    if upstream is None:
                        upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
                    upstream.sendall(head + body)
                    r_head, r_body, _ = _read_message(upstream, backbox)
                except (_Closed, OSError):
                    self._upstream_failed()
                    _reset(client)
                    return
                if step.after == "reset":
                    _reset(client)
                    return
                if step.after == "truncate":
                    client.sendall(r_head + r_body[: len(r_body) // 2])
                    with contextlib.suppress(OSError):
                        client.shutdown(socket.SHUT_RDWR)
                    client.close()
                    return
                if callable(step.after):
                    client.sendall(step.after(r_head, r_body))
                    continue
                client.sendall(r_head + r_body)
        except (_Closed, OSError, ValueError):
            pass
        finally:
            with self._lock:
                self._open_conns.discard(client)
            for sock in (client, upstream):
                if sock is not None:
                    with contextlib.suppress(OSError):
                        sock.close()


def _rewriter(rule: Rule) -> Callable[[bytes, bytes], bytes]:
    """The reply with its body replaced (``rule.rewrite`` of it, or ``rule.payload``)."""

    def rewrite(head: bytes, body: bytes) -> bytes:
        new_body = rule.rewrite(body) if rule.rewrite else rule.payload
        lines = [
            ln for ln in head.split(b"\r\n") if ln and not ln.lower().startswith(b"content-length")
        ]
        lines.append(b"Content-Length: " + str(len(new_body)).encode())
        return b"\r\n".join(lines) + b"\r\n\r\n" + new_body

    return rewrite
