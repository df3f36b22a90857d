"""What the dispatcher sends and how it waits: the signed Standard Webhooks message, the
backoff with full jitter and Retry-After, an attempt's outcome, and the rounds' helpers
(which actions are due, their lanes, the connection pool)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC
from email.utils import parsedate_to_datetime
from typing import Any

import urllib3
from sqlalchemy import Connection, exists, func, select

from reviewer_app.protocol.webhooks import MESSAGE_TYPE, WebhookStatus
from reviewer_app.server.domain import enforcement_feed
from reviewer_app.server.domain.records import iso
from reviewer_app.server.domain.webhook_endpoints import secret_key
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
    secrets: list[str]
    version: int
    delivered: int
    message_seq: int | None
    attempts: int
    first_failure_at: float | None
    consecutive_failures: int
    next_attempt_at: float
    lease_until: float  # as this dispatcher last wrote it


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
    in order), no redirects, TLS certificates verified, a timeout to connect and to read;
    nothing from the environment (no proxy variables, no ``.netrc`` credentials)."""
    options: dict[str, Any] = {
        "num_pools": 8,
        "maxsize": lanes,  # a connection per lane, kept alive
        "retries": False,
        "timeout": urllib3.Timeout(connect=timeout, read=timeout),
    }
    if proxy:
        return urllib3.ProxyManager(proxy, **options)
    return urllib3.PoolManager(**options)


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
