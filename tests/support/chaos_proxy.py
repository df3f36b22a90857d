"""A seeded fault-injecting HTTP proxy: ``FaultProxy``'s machinery, with the fault of each
request drawn at random instead of named by a rule.

Each request through the proxy gets the next number ``n`` (0, 1, 2, ...) and, with
probability ``p``, one fault, chosen by ``ChaosPlan(seed).fault(n)`` -- a pure function of
the seed and the number, so the fault sequence replays exactly from its seed:

- ``latency``: 50-800 ms added before the request is forwarded;
- ``reset_before``: the connection is reset once the request is read; nothing is forwarded;
- ``busy``: 502 or 503 (a 503 sometimes with ``Retry-After``) without forwarding;
- ``truncate``: forwarded; the reply is cut off half way through its body;
- ``drop_after_commit``: forwarded, the service commits and answers, and the reply is
  dropped with a reset: the case idempotency keys exist for;
- ``bad_reply``: forwarded, and the service's reply replaced by a ``200 OK`` whose body is
  an HTML page (what a captive portal or a broken middlebox sends).

A new connection may also be reset at once, before any request is read
(``reset_on_connect``, with probability ``p * connect_reset_share``), drawn from the same
seed by connection number. ``offline()`` / ``online()`` (from ``FaultProxy``) take the
network away altogether: connects are refused. Each fault is logged (seed, number, request line,
fault, detail) in ``records`` and, with ``log_path``, as a JSON line, so a failing run says
which request got which fault. With several clients at once, which request gets number
``n`` depends on their timing; the log records it.

``p`` may be changed while the proxy runs (``p = 0`` stops the faults).
"""

from __future__ import annotations

import json
import random
import ssl
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from .proxy import PASS, FaultProxy, Step, http_response

#: each fault kind with its relative weight; the one the service cannot fake weighs most
FAULT_WEIGHTS: dict[str, float] = {
    "latency": 0.25,
    "reset_before": 0.15,
    "busy": 0.2,
    "truncate": 0.1,
    "drop_after_commit": 0.3,
    "bad_reply": 0.05,
}
FAULT_KINDS = tuple(FAULT_WEIGHTS)
#: share of new connections reset before their first request is read, as a share of ``p``
CONNECT_RESET_SHARE = 0.25


@dataclass(frozen=True)
class Fault:
    kind: str
    #: seconds, for ``latency``
    latency: float = 0.0
    #: for ``busy``
    status: int = 0
    retry_after: int | None = None

    def describe(self) -> str:
        if self.kind == "latency":
            return f"{self.latency * 1000:.0f} ms"
        if self.kind == "busy":
            after = f", Retry-After {self.retry_after}" if self.retry_after is not None else ""
            return f"HTTP {self.status}{after}"
        return ""


@dataclass(frozen=True)
class FaultRecord:
    seed: int
    n: int
    request: str
    fault: str
    detail: str
    at: float


class ChaosPlan:
    """Which request gets which fault: a pure function of (seed, request number)."""

    def __init__(
        self,
        seed: int,
        p: float = 0.2,
        weights: dict[str, float] | None = None,
        connect_reset_share: float = CONNECT_RESET_SHARE,
    ) -> None:
        self.seed = seed
        self.p = p
        self.connect_reset_share = connect_reset_share
        self.weights = dict(weights or FAULT_WEIGHTS)
        unknown = set(self.weights) - set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds: {sorted(unknown)}")

    def fault(self, n: int) -> Fault | None:
        rng = random.Random(f"{self.seed}/request/{n}")
        if rng.random() >= self.p:
            return None
        kinds = list(self.weights)
        kind = rng.choices(kinds, weights=[self.weights[k] for k in kinds])[0]
        if kind == "latency":
            return Fault(kind, latency=rng.uniform(0.05, 0.8))
        if kind == "busy":
            status = rng.choice((502, 503))
            retry_after = rng.choice((None, 0, 1)) if status == 503 else None
            return Fault(kind, status=status, retry_after=retry_after)
        return Fault(kind)

    def resets_connection(self, m: int) -> bool:
        rng = random.Random(f"{self.seed}/connection/{m}")
        return rng.random() < self.p * self.connect_reset_share


class ChaosProxy(FaultProxy):
    def __init__(
        self,
        upstream_port: int,
        *,
        seed: int,
        p: float = 0.2,
        weights: dict[str, float] | None = None,
        connect_reset_share: float = CONNECT_RESET_SHARE,
        log_path: Path | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        super().__init__(upstream_port, tls=tls)
        self.plan = ChaosPlan(seed, p, weights, connect_reset_share)
        self.log_path = log_path
        self.records: list[FaultRecord] = []
        #: requests the service could not be reached for (it was down): not chaos faults
        self.upstream_failures = 0
        self._requests = 0
        self._connections = 0

    def start(self) -> ChaosProxy:
        self.online()
        return self

    @property
    def seed(self) -> int:
        return self.plan.seed

    @property
    def p(self) -> float:
        return self.plan.p

    @p.setter
    def p(self, value: float) -> None:
        self.plan.p = value

    @property
    def requests_seen(self) -> int:
        with self._lock:
            return self._requests

    def counts(self) -> Counter[str]:
        with self._lock:
            return Counter(r.fault for r in self.records)

    def faults(self) -> list[tuple[int, str]]:
        """(request number, fault kind) of every request fault so far, in number order."""
        with self._lock:
            return sorted((r.n, r.fault) for r in self.records if r.n >= 0)

    # --- the work ------------------------------------------------------------------------

    def _record(self, n: int, request: str, kind: str, detail: str = "") -> None:
        record = FaultRecord(self.seed, n, request, kind, detail, time.time())
        with self._lock:
            self.records.append(record)
            if self.log_path is not None:
                with self.log_path.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(asdict(record)) + "\n")

    def _next_request(self) -> tuple[int, Fault | None]:
        with self._lock:
            n = self._requests
            self._requests += 1
        return n, self.plan.fault(n)

    def _on_connect(self) -> bool:
        with self._lock:
            m = self._connections
            self._connections += 1
        if self.plan.resets_connection(m):
            self._record(-1 - m, "(new connection)", "reset_on_connect")
            return False
        return True

    def _upstream_failed(self) -> None:
        with self._lock:
            self.upstream_failures += 1

    def _step(self, start: str) -> Step:
        """The seeded plan's fault for this request, if any."""
        n, fault = self._next_request()
        if fault is None:
            return PASS
        self._record(n, start, fault.kind, fault.describe())
        kind = fault.kind
        if kind == "reset_before":
            return Step(before="reset")
        if kind == "busy":
            headers = {"Content-Type": "text/plain"}
            if fault.retry_after is not None:
                headers["Retry-After"] = str(fault.retry_after)
            return Step(before=http_response(fault.status, b"chaos proxy: busy", headers))
        if kind == "latency":
            return Step(delay=fault.latency)
        if kind == "drop_after_commit":
            return Step(after="reset")
        if kind == "bad_reply":
            return Step(after=_captive_portal)
        if kind == "truncate":
            return Step(after="truncate")
        raise ValueError(f"unknown fault kind {kind!r}")


def _captive_portal(_head: bytes, _body: bytes) -> bytes:
    """What a captive portal or a broken middlebox sends instead of the service's reply."""
    page = b"<html><body>Please log in to the network</body></html>"
    return http_response(200, page, {"Content-Type": "text/html"})


def replay(seed: int, count: int, p: float = 0.2) -> list[tuple[int, str]]:
    """The request faults seed ``seed`` gives the first ``count`` requests (n, kind)."""
    plan = ChaosPlan(seed, p)
    return [(n, f.kind) for n in range(count) if (f := plan.fault(n)) is not None]
