"""RFC 9457 problem+json errors with a stable ``code``, and the handlers that make them."""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from reviewer_app.protocol import Problem, ProblemDetail

log = logging.getLogger("server")

PROBLEM_JSON = "application/problem+json"

_TITLES = {
    400: "Bad request",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    409: "Conflict",
    413: "Request body too large",
    415: "Unsupported media type",
    422: "Unprocessable request",
    429: "Too many requests",
    500: "Internal server error",
    503: "Service unavailable",
}

_CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "body_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
    500: "internal_error",
    503: "unavailable",
}


class ApiError(Exception):
    """An error the service answers with a problem document."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        *,
        errors: Sequence[ProblemDetail] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.code = code
        self.detail = detail
        self.errors = list(errors) if errors is not None else None
        self.headers = dict(headers or {})


def token_invalid(*, api_key: bool = False) -> ApiError:
    """401 for a bearer token or API key that stands for nobody (now); ``api_key``: the
    caller sent an API key, which no login gives back."""
    detail = (
        "The API key is unknown or revoked; an admin makes a new one "
        "(reviewer-app server api-key create, or POST /admin/api-keys)."
        if api_key
        else "The token is unknown, expired or revoked; log in again."
    )
    return ApiError(
        401,
        "token_invalid",
        detail,
        headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
    )


def problem_response(
    status: int,
    code: str,
    detail: str | None,
    *,
    instance: str | None = None,
    errors: Sequence[ProblemDetail] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    body = Problem(
        type=f"https://review-desk.invalid/problems/{code}",
        title=_TITLES.get(status, "Error"),
        status=status,
        detail=detail,
        instance=instance,
        code=code,
        errors=list(errors) if errors is not None else None,
    )
    return JSONResponse(
        body.model_dump(mode="json", exclude_none=True),
        status_code=status,
        media_type=PROBLEM_JSON,
        headers=dict(headers or {}),
    )


# Retry-After (seconds) when the database cannot be reached at all.
UNREACHABLE_RETRY_SECONDS = 5


def _first_line(exc: DBAPIError) -> str:
    """The driver's words, first line (a connection error names host and port, never a
    password)."""
    lines = str(exc.orig).strip().splitlines()
    return " ".join(lines[0].split()) if lines else type(exc.orig).__name__


def _loc(parts: Sequence[Any]) -> list[str | int]:
    return [p if isinstance(p, int) else str(p)[:200] for p in parts][:16]


def _allowed_methods(request: Request) -> list[str]:
    """Every method a route of the app takes for the requested path (the operators' routes,
    outside the OpenAPI document, too: their 405 said ``Allow:`` with nothing)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _child = route.matches(request.scope)
        if match is not Match.NONE:
            methods |= set(getattr(route, "methods", None) or ())
    return sorted(methods)


async def _on_database_error(request: Request, exc: DBAPIError) -> JSONResponse:
    """A database failure: 503 when the connection was lost or cannot be made (the same
    request may work in a moment), else 500, logged with its traceback."""
    if exc.connection_invalidated:
        # a pooled connection found dead (the database restarted): the pool has been
        # renewed, so the same request again gets a live one (see db.PING_IDLE_SECONDS)
        log.warning("database connection lost on %s %s", request.method, request.url.path)
        return problem_response(
            503,
            "unavailable",
            "The database connection was lost; try again.",
            instance=request.url.path,
            headers={"Retry-After": "1"},
        )
    if isinstance(exc, OperationalError) and exc.statement is None:
        # no statement: the connection could not be made (the database is down, or
        # refuses us); not the code's fault, and the same request may work in a moment
        log.warning(
            "database unreachable on %s %s: %s",
            request.method,
            request.url.path,
            _first_line(exc),
        )
        return problem_response(
            503,
            "unavailable",
            "The database cannot be reached; try again.",
            instance=request.url.path,
            headers={"Retry-After": str(UNREACHABLE_RETRY_SECONDS)},
        )
    log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(500, "internal_error", "The service failed; it has been logged.")


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _on_api_error(request: Request, exc: ApiError) -> JSONResponse:
        return problem_response(
            exc.status,
            exc.code,
            exc.detail,
            instance=request.url.path,
            errors=exc.errors,
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def _on_validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        raw = exc.errors()
        if any(e.get("type") == "json_invalid" for e in raw):
            return problem_response(
                400,
                "malformed_json",
                "The request body is not valid JSON.",
                instance=request.url.path,
            )
        errors = [
            ProblemDetail(
                loc=_loc(e.get("loc", ())),
                message=str(e.get("msg", ""))[:2000],
                code=str(e.get("type", ""))[:64] or None,
            )
            for e in raw[:50]
        ]
        return problem_response(
            422,
            "invalid_request",
            "The request does not match the contract.",
            instance=request.url.path,
            errors=errors,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _on_http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        status = exc.status_code
        headers = dict(getattr(exc, "headers", None) or {})
        if status == 405:  # Starlette names only the methods of the first route it matched
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return problem_response(
            status,
            _CODES.get(status, "http_error"),
            str(exc.detail),
            instance=request.url.path,
            headers=headers,
        )

    app.add_exception_handler(DBAPIError, _on_database_error)  # type: ignore[arg-type]

    @app.exception_handler(Exception)
    async def _on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return problem_response(500, "internal_error", "The service failed; it has been logged.")
