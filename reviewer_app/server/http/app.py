"""The FastAPI application: routes, problem+json errors, body size cap, rate limit, OpenAPI."""

from __future__ import annotations

import gc
import logging
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread
from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from reviewer_app import __version__
from reviewer_app.protocol import API_VERSION, MAX_MEDIA_BYTES
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.facade.base import Clock
from reviewer_app.server.http.accounts import router as accounts_router
from reviewer_app.server.http.admin import router as admin_router
from reviewer_app.server.http.audits import router as audits_router
from reviewer_app.server.http.bulk import router as bulk_router
from reviewer_app.server.http.enforcement import router as enforcement_router
from reviewer_app.server.http.feedback import router as feedback_router
from reviewer_app.server.http.intake import MEDIA_PATH
from reviewer_app.server.http.intake import router as intake_router
from reviewer_app.server.http.lead import router as lead_router
from reviewer_app.server.http.review import router as review_router
from reviewer_app.server.http.users import router as users_router
from reviewer_app.server.ops.metrics import Metrics
from reviewer_app.server.ops.observe import Observe
from reviewer_app.server.ops.operations import router as operations_router
from reviewer_app.server.ops.ratelimit import RateLimit
from reviewer_app.server.problems import PROBLEM_JSON, install_handlers, problem_response
from reviewer_app.server.service import Service

log = logging.getLogger("server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _BodyTooLarge(Exception):
    pass


class BodySizeLimit:
    """Refuse request bodies over the cap with 413, by Content-Length or while streaming.

    ``caps`` gives paths a cap of their own (media uploads are larger than any JSON body).
    """

    def __init__(self, app: ASGIApp, max_bytes: int, caps: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.caps = dict(caps or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cap = self.caps.get(scope.get("path", ""), self.max_bytes)
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > cap):
            await self._refuse(scope, receive, send, cap)
            return
        seen = 0
        too_large = False
        refused = False

        async def limited_receive() -> Message:
            nonlocal seen, too_large
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > cap:
                    too_large = True
                    raise _BodyTooLarge
            return message

        async def guarded_send(message: Message) -> None:
            # The app may turn the interrupted read into its own error: answer 413 instead.
            nonlocal refused
            if not too_large:
                await send(message)
            elif not refused:
                refused = True
                await self._refuse(scope, receive, send, cap)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except _BodyTooLarge:
            if not refused:
                await self._refuse(scope, receive, send, cap)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, cap: int) -> None:
        response = problem_response(
            413,
            "body_too_large",
            f"Request bodies are capped at {cap} bytes.",
            instance=scope.get("path"),
        )
        await response(scope, receive, send)


class NoStore:
    """Responses carry moderation data: never cache them anywhere."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_with_header(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"cache-control", b"no-store")]
            await send(message)

        await self.app(scope, receive, send_with_header if scope["type"] == "http" else send)


ROUTERS = (
    review_router,
    lead_router,
    feedback_router,
    audits_router,
    users_router,
    intake_router,
    accounts_router,
    admin_router,
    bulk_router,
    enforcement_router,
    operations_router,
)


def create_app(
    settings: ServerSettings, *, clock: Clock | None = None, service: Service | None = None
) -> FastAPI:
    svc = service or (Service(settings, clock=clock) if clock else Service(settings))
    metrics = Metrics(svc)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Route handlers run on worker threads; one pooled connection each.
        anyio.to_thread.current_default_thread_limiter().total_tokens = svc.db.worker_threads
        svc.start()
        svc.db.start_checkpointer()
        svc.leadership.on_change = metrics.leading
        svc.leadership.start()  # one process leads the sequencer's and roller's rounds
        svc.sequencer.start()  # seals the event log (one process at a time: the leader)
        svc.roller.start()  # counts sealed decisions into the lead figures' rollups (likewise)
        svc.dispatcher.on_attempt = metrics.webhook_attempt
        svc.dispatcher.start()  # delivers webhooks (one process per endpoint at a time)
        metrics.process_started()
        try:
            yield
        finally:
            metrics.process_stopped()
            svc.close()  # stops the sequencer after a last round

    app = FastAPI(
        title="Review desk queue service",
        version=__version__,
        summary=f"Wire contract v{API_VERSION} of the review desk",
        lifespan=lifespan,
        docs_url="/docs",
        redoc_url=None,
    )
    app.state.service = svc
    app.state.metrics = metrics
    install_handlers(app)
    # The wire contract (v1) by who uses it: the routers' own routes, added to the app as
    # they are. Each router already made its routes whole (full path, tags, fields) when
    # its module was imported; ``include_router`` would make every one again, per app, on
    # the first request that reaches its router (the demo's first requests waited for it).
    routes = [route for router in ROUTERS for route in router.routes]
    app.router.routes.extend(routes)
    app.add_middleware(NoStore)
    app.add_middleware(
        BodySizeLimit,
        max_bytes=settings.max_body_bytes,
        caps={MEDIA_PATH: max(MAX_MEDIA_BYTES, settings.max_body_bytes)},
    )
    # outside the body cap: a caller over its rate is answered before its body is read
    app.add_middleware(
        RateLimit,
        per_minute=settings.rate_limit_per_minute,
        burst=settings.rate_limit_burst,
        on_limited=metrics.request_rate_limited,
        known=svc.known_tokens,
    )
    # outermost of all: counts and logs every answer, the rate limit's 429s included
    app.add_middleware(
        Observe,
        metrics=metrics,
        routes=[
            route for router in ROUTERS if router is not admin_router for route in router.routes
        ],
    )
    app.openapi = lambda: openapi_document(app)  # type: ignore[method-assign]
    return app


def create_app_from_env() -> FastAPI:
    """The app factory uvicorn workers import (settings come from the environment)."""
    app = create_app(ServerSettings.from_env())
    tune_server_process()
    return app


# How often a thread that holds the GIL is asked to hand it over. Each request passes the
# GIL between the event loop and worker threads many times (every database call lets go
# of it, and getting it back waits for whoever took it to be asked): at the default 5 ms a
# claim waits several such turns behind verdict batches, and so does the writer holding
# SQLite's one writer lock. Measured with benchmarks/claim_decide.py (2 processes, 200
# reviewers, 2 cores): at 1 ms 1,275 items/s flat out and claim p99 45 ms at 1,000
# items/s; at 0.25 ms 1,343-1,509 items/s (three runs) and 28-47 ms (seven runs), with
# less server CPU for the same work.
SWITCH_INTERVAL_SECONDS = 0.00025


def tune_server_process() -> None:
    """For a process that only serves the API (not for tests or the UI's embedded demo):
    a shorter GIL switch interval, and the objects made while starting (modules, models,
    tables: nearly all there are) moved out of the collector's sight, so that a full
    collection scans only what requests made: 5-15 ms pauses instead of 50-80 ms, taken
    by every thread at once, writers holding the SQLite writer's turn included."""
    sys.setswitchinterval(SWITCH_INTERVAL_SECONDS)
    gc.collect()
    gc.freeze()


def openapi_document(app: FastAPI) -> dict[str, Any]:
    """FastAPI's document, with every error answered as ``application/problem+json``."""
    if app.openapi_schema:
        return app.openapi_schema
    doc = get_openapi(title=app.title, version=app.version, summary=app.summary, routes=app.routes)
    problem_ref = {"$ref": "#/components/schemas/Problem"}
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            for status, response in operation.get("responses", {}).items():
                if status.isdigit() and int(status) >= 400:
                    response["content"] = {PROBLEM_JSON: {"schema": problem_ref}}
    schemas = doc.get("components", {}).get("schemas", {})
    for unused in ("HTTPValidationError", "ValidationError"):
        schemas.pop(unused, None)
    app.openapi_schema = doc
    return doc
