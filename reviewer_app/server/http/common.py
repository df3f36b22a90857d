"""What the HTTP routes share: problem responses and links of the OpenAPI document, the
JSON answer, the claim lane, page and time query parameters, the decision filter."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Annotated, Any

import anyio
from fastapi import Depends, Path, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from reviewer_app.protocol import API_PREFIX, QUERY_YEARS, DecisionQuery, Problem, QualityThresholds
from reviewer_app.protocol.common import MAX_PAGE, MAX_YEAR, MIN_YEAR, Timestamp
from reviewer_app.server.domain.records import to_epoch
from reviewer_app.server.domain.search import DecisionFilter
from reviewer_app.server.ops.metrics import Metrics
from reviewer_app.server.problems import ApiError

_TIMESTAMP: TypeAdapter[datetime] = TypeAdapter(Timestamp)


MEDIA_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "video/mp4", "video/webm")


_DESCRIPTIONS = {
    400: "Malformed JSON, or an invalid cursor",
    401: "Missing, expired or revoked token, or wrong credentials",
    403: "The caller's role may not do this",
    404: "No such resource",
    409: "The request conflicts with the current state",
    413: "The request body is over the size cap",
    422: "The request does not match the contract or the queue's decision config",
    429: "Too many requests from this caller, or too many failed logins; see Retry-After",
    503: "The service could not complete the request now; try again",
}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": Problem, "description": _DESCRIPTIONS[s]} for s in statuses}


def links(status: int, **targets: tuple[str, str, dict[str, str]]) -> dict[int | str, Any]:
    """OpenAPI links from a response to the operations its ids lead to (for stateful
    fuzzing and readers): ``Name=(method, path, {parameter: runtime expression})``."""
    found = {}
    for name, (method, path, parameters) in targets.items():
        pointer = (API_PREFIX + path).replace("~", "~0").replace("/", "~1")
        found[name] = {"operationRef": f"#/paths/{pointer}/{method}", "parameters": parameters}
    return {status: {"links": found}}


PUBLIC = (400, 413, 422, 429)


# Every route with a token may answer 403: a service account's key on a person's route, a
# person's token on an intake route, or a role below the route's.
AUTHED = (*PUBLIC, 401, 403)


def json_response(model: BaseModel, status: int = 200) -> Response:
    """The model as JSON, without FastAPI validating it a second time (hot routes)."""
    return Response(model.model_dump_json(), media_type="application/json", status_code=status)


async def app_metrics(request: Request) -> Metrics:
    found: Metrics = request.app.state.metrics
    return found


MetricsDep = Annotated[Metrics, Depends(app_metrics)]


# Claims have worker threads of their own: a reviewer waits for a claim, while verdict
# batches, renewals and the lead's reads come from clients' background work. Under load
# a claim must not queue behind them for a thread (nor, on SQLite, for the writer: see
# ``Database.write(urgent=True)``). How many: ``Database.claim_threads``.
async def claim_lane(request: Request) -> anyio.CapacityLimiter:
    lane: anyio.CapacityLimiter | None = getattr(request.app.state, "claim_lane", None)
    if lane is None:
        threads = request.app.state.service.db.claim_threads
        lane = request.app.state.claim_lane = anyio.CapacityLimiter(threads)
    return lane


# Logins have threads of their own too: each checks a password with argon2id (tens of MiB
# and tenths of a second of a core), and a handful of anonymous attempts on the route
# threads held every other request behind them for seconds. Half the cores: the rest is
# left to the reviewers' requests.
async def login_lane(request: Request) -> anyio.CapacityLimiter:
    lane: anyio.CapacityLimiter | None = getattr(request.app.state, "login_lane", None)
    if lane is None:
        lane = request.app.state.login_lane = anyio.CapacityLimiter(
            max(1, (os.cpu_count() or 2) // 2)
        )
    return lane


Cursor = Annotated[str | None, Query(max_length=512, description="next_cursor of the page before")]


Limit = Annotated[int, Query(ge=1, le=MAX_PAGE)]


TimeZone = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=64,
        description="the caller's IANA time zone (such as America/New_York): days are its "
        "days, from its midnights (23 or 25 hours where the clocks change); default: UTC days",
    ),
]


# Times in queries are held to the wire's years, as Timestamp is in bodies.
Since = Annotated[
    datetime | None,
    Query(
        description="start of the window (RFC 3339); default: 24 hours before until",
        json_schema_extra=QUERY_YEARS,
    ),
]


Until = Annotated[
    datetime | None,
    Query(description="end of the window; default: now", json_schema_extra=QUERY_YEARS),
]


_LAST_SECOND = datetime(MAX_YEAR, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp()


def _time(value: datetime | None, name: str) -> float | None:
    """A query time as epoch seconds; it must carry a zone and lie inside the wire's years."""
    if value is None:
        return None
    try:
        # the last microseconds of the wire's last year are past what a float of epoch
        # seconds holds: they read as the year after (a 500 when written back); the last
        # whole second stands for them
        return min(to_epoch(_TIMESTAMP.validate_python(value)), _LAST_SECOND)
    except ValidationError as exc:
        raise ApiError(
            422,
            "invalid_request",
            f"{name} must be an RFC 3339 date-time with a time zone, "
            f"between the years {MIN_YEAR} and {MAX_YEAR}.",
        ) from exc


class _DecisionParams(DecisionQuery):
    """``DecisionQuery`` as query parameters: the route's own (cursor, limit, order)
    arrive in the same query string and are not the model's to refuse."""

    model_config = ConfigDict(extra="ignore")


def decision_filter(query: Annotated[_DecisionParams, Query()]) -> DecisionFilter:
    """The decision search's filters (``DecisionQuery``, declared in the protocol), with
    its times checked as every query time is and turned into epoch seconds."""
    return DecisionFilter(
        **query.model_dump(exclude={"since", "until"}),
        since=_time(query.since, "since"),
        until=_time(query.until, "until"),
    )


FilterDep = Annotated[DecisionFilter, Depends(decision_filter)]


DecisionId = Annotated[int, Path(ge=1, le=2**31 - 1)]  # the column is a 32-bit integer


ViewId = Annotated[int, Path(ge=1, le=2**31 - 1)]


_DEFAULT_THRESHOLDS = QualityThresholds()


class _QualityParams(BaseModel):
    """``QualityThresholds`` as query parameters (numbers arrive as text there; the
    protocol model checks them), beside the window's."""

    model_config = ConfigDict(extra="ignore")

    # the protocol model's bounds, so the document says what is accepted
    min_median_ms: int = Field(default=_DEFAULT_THRESHOLDS.min_median_ms, ge=0, le=3_600_000)
    max_mix_distance: float = Field(default=_DEFAULT_THRESHOLDS.max_mix_distance, ge=0, le=1)
    min_decisions: int = Field(default=_DEFAULT_THRESHOLDS.min_decisions, ge=1, le=1_000_000)
    overturn_jump: float = Field(default=_DEFAULT_THRESHOLDS.overturn_jump, ge=0, le=1)


SampleId = Annotated[int, Path(ge=1, le=2**31 - 1)]


_SAMPLE_ID = {"sample_id": "$response.body#/id"}


AuditId = Annotated[int, Path(ge=1, le=2**31 - 1)]


KeyId = Annotated[int, Path(ge=1, le=2**31 - 1)]
