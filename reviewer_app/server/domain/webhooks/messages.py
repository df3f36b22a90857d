"""What the dispatcher sends and how it waits: the signed Standard Webhooks message, the
backoff with full jitter and Retry-After, an attempt's outcome, and the rounds' helpers
(which actions are due, their lanes, the connection pool and an attempt's deadline)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import io
import json
import logging
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

import urllib3
from sqlalchemy import Connection, exists, func, select

from reviewer_app.protocol.terminal import printable
from reviewer_app.protocol.webhooks import MESSAGE_TYPE, WebhookStatus
from reviewer_app.server.domain import enforcement_feed
from reviewer_app.server.domain.records import iso
from reviewer_app.server.domain.webhook_endpoints import secret_key, signing_secrets
from reviewer_app.server.storage.tables import enforcement_actions, webhook_endpoints, webhook_state

log = logging.getLogger("server.webhooks")
#: actions read per round of one endpoint
BATCH = 200
#: while deliveries succeed, the cursor is written at most this often (and when a run ends)
COMMIT_EVERY_SECONDS = 0.2
#: an endpoint with nothing more to send is held (and polled) this long before its lease
#: is given back, so a steady trickle of actions does not take and release it every time
IDLE_HOLD_SECONDS = 2.0
#: bytes of a response body read (so the connection can be reused); the rest is dropped
MAX_RESPONSE_BYTES = 65_536
#: after a failed scheduling round (the database away, say)
RETRY_SECONDS = 1.0


def signature(secrets: Sequence[str], msg_id: str, timestamp: int, body: bytes) -> str:
    """The ``webhook-signature`` header: ``v1,<base64 HMAC-SHA256>`` per secret."""
    signed = f"{msg_id}.{timestamp}.".encode() + body
    return " ".join(
        "v1," + base64.b64encode(hmac.new(secret_key(s), signed, hashlib.sha256).digest()).decode()
        for s in secrets
    )


def message_body(row: Any) -> bytes:
    """The POST body of an action row (the feed's columns)."""
    action = enforcement_feed.wire_action(row)
    document = {
        "type": MESSAGE_TYPE,
        "timestamp": iso(action.decided_at.timestamp()),
        "data": action.model_dump(mode="json"),
    }
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False).encode()


def full_jitter(attempt: int, base: float, cap: float) -> float:
    """A random wait before retry ``attempt`` (1 = the first retry): uniform over
    ``[0, min(cap, base * 2**(attempt - 1))]``."""
    return random.uniform(0.0, min(cap, base * 2.0 ** min(attempt - 1, 62)))


def retry_after(value: str | None, now: float) -> float | None:
    """Seconds a ``Retry-After`` header asks for (delay-seconds or an HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isascii() and value.isdigit():  # not "²", which isdigit() takes and float() not
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, when.timestamp() - now)


@dataclass(frozen=True)
class Outcome:
    """What one attempt came to."""

    ok: bool
    status: int | None = None  # the HTTP status, None when no answer came
    error: str | None = None  # in words, for people (never a secret, never the body)
    retry_after: float | None = None

    @property
    def gone(self) -> bool:
        return self.status == 410

    @property
    def needs_a_person(self) -> bool:
        """A 4xx other than 410 and 429: the receiver refuses the message itself."""
        return self.status is not None and 400 <= self.status < 500 and self.status != 429


@dataclass
class Run:
    """What a worker knows of the endpoint it holds (read under its lease)."""

    endpoint_id: int
    url: str
    source: str
    kinds: list[str] | None
    status: str
    secret: str
    previous_secret: str | None
    previous_secret_until: float | None
    version: int
    delivered: int
    message_seq: int | None
    attempts: int
    first_failure_at: float | None
    consecutive_failures: int
    next_attempt_at: float
    lease_until: float  # as this dispatcher last wrote it

    def secrets(self, now: float) -> list[str]:
        """What signs a message sent at ``now``: chosen per message, so the end of a grace
        period mid-run stops the previous secret at once (an operator's rotation stops
        the run, which reads the endpoint again)."""
        return signing_secrets(self.secret, self.previous_secret, self.previous_secret_until, now)


def due(conn: Connection, now: float, owner: str) -> list[Any]:
    """Endpoints with work a dispatcher may take now: not disabled, the next attempt due,
    not leased by another dispatcher (or its lease run out), and an action of its account
    after its cursor (of any kind: the worker applies the endpoint's kinds)."""
    ws = webhook_state.c
    ea = enforcement_actions.c
    work = exists().where(ea.source == webhook_endpoints.c.source, ea.seq > ws.delivered_seq)
    return list(
        conn.execute(
            select(webhook_endpoints.c.id)
            .join(webhook_state, ws.endpoint_id == webhook_endpoints.c.id)
            .where(
                webhook_endpoints.c.status != WebhookStatus.disabled.value,
                ws.next_attempt_at <= now,
                (ws.lease_owner.is_(None)) | (ws.lease_until < now) | (ws.lease_owner == owner),
                work,
            )
            .order_by(ws.next_attempt_at)
        ).all()
    )


def lane_key(row: Any) -> str:
    """What an action's order is kept within when it goes out on lanes: its author (so
    its post too), else its post."""
    author = row["author_external_id"]
    return f"a:{author}" if author else f"p:{row['post_external_id'] or row['item_id']}"


def newest(conn: Connection, source: str) -> int:
    """The account's newest sealed seq (0: none). Seq numbers are given in increasing
    order to committed actions only, so nothing sealed later can come before it."""
    ea = enforcement_actions.c
    return int(conn.execute(select(func.max(ea.seq)).where(ea.source == source)).scalar() or 0)


def pool(proxy: str, timeout: float, lanes: int = 1) -> urllib3.PoolManager:
    """The HTTP connections of one worker thread, kept alive between messages: urllib3
    (requests' own HTTP layer) directly, at less than half of requests' CPU per message
    (the dispatcher shares its process with the API). No retries (the dispatcher retries,
    in order), no redirects, TLS certificates verified; nothing from the environment (no
    proxy variables, no ``.netrc`` credentials). The proxy's user and password, if its URL
    has them, go as ``Proxy-Authorization`` (urllib3 ignores them in the URL). Connections
    keep to the deadline of the attempt under way (``deadline``)."""
    options: dict[str, Any] = {
        "num_pools": 8,
        "maxsize": lanes,  # a connection per lane, kept alive
        "retries": False,
        "timeout": urllib3.Timeout(total=timeout),
    }
    if proxy:
        address, proxy_headers = proxy_parts(proxy)
        manager: urllib3.PoolManager = urllib3.ProxyManager(
            address, proxy_headers=proxy_headers, **options
        )
    else:
        manager = urllib3.PoolManager(**options)
    manager.pool_classes_by_scheme = _POOLS
    return manager


def proxy_parts(proxy: str) -> tuple[str, dict[str, str]]:
    """The proxy URL without its user information, and the ``Proxy-Authorization`` header
    (Basic) that information stands for: user and password percent-decoded, in UTF-8."""
    parts = urlsplit(proxy)
    userinfo, at, address = parts.netloc.rpartition("@")
    if not at:
        return proxy, {}
    user, _, password = userinfo.partition(":")
    credentials = f"{unquote(user)}:{unquote(password)}".encode()
    header = "Basic " + base64.b64encode(credentials).decode()
    return urlunsplit(parts._replace(netloc=address)), {"proxy-authorization": header}


# -- an attempt's deadline ----------------------------------------------------------------
#
# urllib3's timeouts bound each socket operation, not a request: a receiver that answers a
# byte at a time keeps an attempt open as long as it likes, past the endpoint's lease (and
# another process then sends to it as well). Under ``deadline`` every send and every read
# of the thread's request waits at most for what is left of the attempt's time, and none
# starts after it: the attempt ends by then, as a timeout (looking up the receiver's name
# aside: the system's resolver keeps its own time).

_attempt = threading.local()


@contextmanager
def deadline(seconds: float) -> Iterator[float]:
    """The requests of this thread inside the block end within ``seconds`` of its start
    (the monotonic time they end by is given)."""
    until = time.monotonic() + seconds
    _attempt.until = until
    try:
        yield until
    finally:
        _attempt.until = None


def _left(until: float) -> float:
    left = until - time.monotonic()
    if left <= 0:
        raise TimeoutError("timed out")  # socket.timeout: urllib3 says ReadTimeoutError
    return left


class _DeadlineReader(io.RawIOBase):
    """A response's socket, read with at most the attempt's time left on each read."""

    def __init__(self, sock: socket.socket, until: float) -> None:
        super().__init__()
        self._sock = sock
        self._raw = sock.makefile("rb", buffering=0)  # holds the socket as makefile does
        self._until = until

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._sock.fileno()

    def readinto(self, buffer: Any) -> int | None:
        self._sock.settimeout(_left(self._until))
        return self._raw.readinto(buffer)

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


class _DeadlineResponse(http.client.HTTPResponse):
    """http.client's response (status line, headers, body; a proxy's answer to CONNECT
    too), read under the deadline of the attempt that made it, if any."""

    def __init__(
        self, sock: socket.socket, debuglevel: int = 0, method: str | None = None, url: Any = None
    ) -> None:
        super().__init__(sock, debuglevel, method, url)
        until = getattr(_attempt, "until", None)
        if until is not None:
            buffered, self.fp = self.fp, io.BufferedReader(_DeadlineReader(sock, until))
            buffered.close()  # nothing was read from it yet


class _Connection(urllib3.connection.HTTPConnection):
    """Connecting (a TLS handshake too), sending and reading the answer: each within what
    is left of the attempt's time."""

    response_class = _DeadlineResponse

    def _new_conn(self) -> socket.socket:
        until = getattr(_attempt, "until", None)
        if until is not None:
            self.timeout = _left(until)
        sock = super()._new_conn()
        if until is not None:  # a TLS handshake may come next
            try:
                sock.settimeout(_left(until))
            except TimeoutError:
                sock.close()
                raise
        return sock

    def send(self, data: Any) -> None:
        until = getattr(_attempt, "until", None)
        if until is not None and self.sock is not None:
            self.sock.settimeout(_left(until))
        super().send(data)


class _TLSConnection(_Connection, urllib3.connection.HTTPSConnection):
    pass


class _Pool(urllib3.HTTPConnectionPool):
    ConnectionCls = _Connection


class _TLSPool(urllib3.HTTPSConnectionPool):
    ConnectionCls = _TLSConnection


_POOLS: dict[str, type[urllib3.HTTPConnectionPool]] = {"http": _Pool, "https": _TLSPool}


def post(
    session: urllib3.PoolManager,
    url: str,
    body: bytes,
    headers: dict[str, str],
    timeout: float,
    clock: Callable[[], float],
) -> Outcome:
    """POST one message; what came of it. The attempt ends within ``timeout`` (a deadline:
    connecting, sending, the answer), a failed one (a timeout) when no answer came by
    then. Once the status is in, up to ``MAX_RESPONSE_BYTES`` of the body are read (until
    the deadline) so the connection can serve the next message; the status is what counts."""
    with deadline(timeout) as until:
        try:
            response = session.urlopen(
                "POST", url, body=body, headers=headers, redirect=False, preload_content=False
            )
        except (urllib3.exceptions.HTTPError, OSError, ValueError) as exc:
            if timed_out(exc) or time.monotonic() >= until:
                return Outcome(False, error=f"no answer within {timeout:g} s")
            if isinstance(exc, urllib3.exceptions.HTTPError):
                return Outcome(False, error=f"connection failed ({cause(exc)})")
            return Outcome(False, error=f"request failed ({type(exc).__name__})")  # a bad URL
        try:
            response.read(MAX_RESPONSE_BYTES, decode_content=False)
            response.release_conn()
        except Exception:  # a slow or broken body: the connection is dropped
            log.debug("reading a webhook answer's body failed")
            response.close()
    status = response.status
    if 200 <= status < 300:
        return Outcome(True, status)
    # the receiver's reason phrase is shown to operators (webhook list, the log): its
    # control characters as code points
    reason = printable(response.reason or "", newlines=False)
    return Outcome(
        False,
        status,
        error=f"HTTP {status}" + (f" {reason[:100]}" if reason else ""),
        retry_after=retry_after(response.headers.get("retry-after"), clock()),
    )


def timed_out(exc: BaseException) -> bool:
    """Whether the attempt failed for time: a connection refused or a name that does not
    resolve is not a timeout, though urllib3 2 derives its errors for them
    (``NewConnectionError``, ``NameResolutionError``) from ``ConnectTimeoutError``."""
    return isinstance(exc, urllib3.exceptions.TimeoutError) and not isinstance(
        exc, urllib3.exceptions.NewConnectionError
    )


def cause(exc: BaseException) -> str:
    """A connection error in a few words: the innermost cause's ("Connection refused",
    "Connection reset by peer"), else its type."""
    seen = exc
    for _ in range(8):
        inner = seen.__cause__ or next((a for a in seen.args if isinstance(a, BaseException)), None)
        if inner is None or inner is seen:
            break
        seen = inner
    if isinstance(seen, OSError) and seen.strerror:
        return str(seen.strerror)
    return type(seen).__name__


def hours(seconds: float) -> str:
    return f"{seconds / 3600:.1f} h" if seconds >= 3600 else f"{seconds:.0f} s"
