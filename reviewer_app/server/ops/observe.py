"""Per-request observation: request metrics, the access log and a request id.

``Observe`` is the outermost middleware, so it sees every answer, including 429s from the
rate limit and 413s from the body cap. It labels a request with its route *template*
(``/api/v1/items/{item_id}``), found by the router, or for answers given before routing
by matching the app's routes itself; a path no route matches is ``<unmatched>``.

The access log (logger ``server.access``, INFO; probes of ``/healthz``, ``/readyz`` and
``/metrics`` at DEBUG) has method, route, status, duration_ms and request_id: never the
raw path, query string, headers or body, so never a token or a password.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any

from starlette.routing import BaseRoute, Match

from reviewer_app.server.ops.metrics import UNMATCHED, Metrics

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

access_log = logging.getLogger("server.access")

REQUEST_ID_HEADER = b"x-request-id"
_GOOD_REQUEST_ID = re.compile(rb"[A-Za-z0-9._:-]{1,64}")
#: Asked every few seconds by load balancers and Prometheus: logged at DEBUG only.
PROBES = frozenset({"/healthz", "/readyz", "/metrics"})


def request_id(scope: Scope) -> str:
    """The caller's ``X-Request-ID`` when it is short and plain, else a new one."""
    for name, value in scope.get("headers") or []:
        if name == REQUEST_ID_HEADER:
            if _GOOD_REQUEST_ID.fullmatch(value):
                return str(value.decode("ascii"))
            break
    return uuid.uuid4().hex


def route_template(scope: Scope, routes: Sequence[BaseRoute]) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    for candidate in routes:  # answered before routing (429, 413): find it ourselves
        match, _ = candidate.matches(scope)
        if match is not Match.NONE:
            return str(getattr(candidate, "path", UNMATCHED))
    return UNMATCHED


class Observe:
    def __init__(self, app: ASGIApp, metrics: Metrics, routes: Sequence[BaseRoute]) -> None:
        self.app = app
        self.metrics = metrics
        self.routes = routes  # the routers' own routes, with their full paths

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        rid = request_id(scope)
        status = 500

        async def send_observed(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
                message["headers"] = [
                    *(message.get("headers") or []),
                    (REQUEST_ID_HEADER, rid.encode("ascii")),
                ]
            await send(message)

        try:
            await self.app(scope, receive, send_observed)
        finally:
            seconds = time.perf_counter() - started
            method = str(scope.get("method", ""))
            route = route_template(scope, self.routes)
            self.metrics.request_done(method, route, status, seconds)
            level = logging.DEBUG if scope.get("path") in PROBES else logging.INFO
            if access_log.isEnabledFor(level):
                duration_ms = round(seconds * 1000, 2)
                access_log.log(
                    level,
                    "%s %s %d %.2f ms id=%s",
                    method,
                    route,
                    status,
                    duration_ms,
                    rid,
                    extra={
                        "fields": {
                            "method": method,
                            "route": route,
                            "status": status,
                            "duration_ms": duration_ms,
                            "request_id": rid,
                        }
                    },
                )
