"""A per-caller request rate limit: a token bucket per bearer token that has authenticated
in this process (per client address for every other request: none, or a token not known to
be good), answered with 429 problem+json and ``Retry-After``. A bucket per token sent,
good or not, let a caller with a made-up token per request (a password sprayer at
``POST /sessions``) go unlimited.

Each caller may send ``burst`` requests at once and ``per_minute`` a minute after that.
Buckets live in this process's memory: with several API processes behind one address, each
process counts on its own (the limit is per process). A bucket that has refilled is the same
as no bucket, so idle ones are dropped, and the table never holds more than ``max_callers``
(the least recently seen go first): a flood of made-up tokens costs memory once, not forever.
Tokens are never kept: a bucket is keyed by a digest of the token.
"""

from __future__ import annotations

import itertools
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from reviewer_app.server.domain.security import KnownTokens, token_key
from reviewer_app.server.problems import problem_response

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Paths never limited: what a load balancer, Prometheus or a browser asks for without a token.
UNLIMITED = frozenset(
    {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/healthz", "/readyz", "/metrics"}
)


@dataclass
class _Bucket:
    tokens: float
    at: float


class TokenBuckets:
    """Token buckets by caller key; ``take`` answers 0 (allowed) or the seconds to wait."""

    def __init__(
        self,
        per_minute: int,
        burst: int,
        *,
        clock: Callable[[], float] = time.monotonic,
        max_callers: int = 100_000,
    ) -> None:
        self.rate = per_minute / 60.0
        self.burst = float(max(1, burst))
        self.clock = clock
        self.max_callers = max_callers
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, key: str) -> float:
        now = self.clock()
        bucket = self._buckets.pop(key, None)
        if bucket is None:
            bucket = _Bucket(self.burst, now)
        else:
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.at) * self.rate)
            bucket.at = now
        self._buckets[key] = bucket  # most recently seen last
        self._evict(now)
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate if self.rate > 0 else math.inf

    def _evict(self, now: float) -> None:
        while len(self._buckets) > self.max_callers:
            self._buckets.popitem(last=False)
        # the oldest entries first: drop those that have refilled (as good as absent)
        full_after = self.burst / self.rate if self.rate > 0 else math.inf
        for key in list(itertools.islice(self._buckets, 8)):
            if now - self._buckets[key].at >= full_after:
                del self._buckets[key]
            else:
                break


def caller_key(scope: Scope, known: KnownTokens | None = None) -> str:
    """The bearer token's key when that token authenticated here before (``known``), else
    the client's address."""
    for name, value in scope.get("headers") or []:
        if name == b"authorization":
            scheme, _, credentials = value.partition(b" ")
            if scheme.lower() == b"bearer" and credentials.strip():
                key = token_key(credentials.strip())
                if known is None or key in known:
                    return key
    client = scope.get("client")
    return "a:" + (str(client[0]) if client else "unknown")


class RateLimit:
    """ASGI middleware: 429 ``rate_limited`` with ``Retry-After`` once a caller's bucket is
    empty. ``per_minute`` 0 turns the limit off."""

    def __init__(
        self,
        app: ASGIApp,
        per_minute: int,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        on_limited: Callable[[], None] | None = None,
        known: KnownTokens | None = None,
    ) -> None:
        self.app = app
        self.buckets = TokenBuckets(per_minute, burst, clock=clock) if per_minute > 0 else None
        self.on_limited = on_limited
        self.known = known

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.buckets is None or scope["type"] != "http" or scope.get("path") in UNLIMITED:
            await self.app(scope, receive, send)
            return
        wait = self.buckets.take(caller_key(scope, self.known))
        if wait <= 0:
            await self.app(scope, receive, send)
            return
        if self.on_limited is not None:
            self.on_limited()
        seconds = max(1, math.ceil(wait)) if math.isfinite(wait) else 3_600
        response = problem_response(
            429,
            "rate_limited",
            f"Too many requests from this caller; try again in {seconds} s.",
            instance=scope.get("path"),
            headers={"Retry-After": str(seconds)},
        )
        await response(scope, receive, send)
