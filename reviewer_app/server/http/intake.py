"""HTTP routes of the intake (``/api/v1/intake/...``): what platforms and fact-checkers send.

Platform API keys may send posts, signals, withdrawals, appeals and media; fact-checker keys their
ratings, and read them back. People's tokens get 403 here (and keys get 403 on people's
routes: see auth_deps.py).

Batches: a batch whose shape is wrong is refused whole (422 naming the element and the
field; nothing of it is applied). A well-formed batch is applied in one transaction (on
SQLite while reviewers claim: in parts, each element whole in one; see
``IntakeDesk._parts``) and answered with one result per element, in order: ``created``,
``updated``, ``unchanged`` (a replay) or ``rejected`` with a reason that depends on the
service's state (an unknown post, a signal id sent before with another body, a withdrawn
post, a rating not on the configured scale). Refusing a whole batch for one such element
would make the platform hold back every other element until it learnt to leave that one
out; answering per element lets it retry exactly the ones that need it, as the verdict
batches do.
"""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Depends, Query, Request, Response

from reviewer_app.protocol import API_PREFIX, Problem
from reviewer_app.protocol.common import MAX_PAGE
from reviewer_app.protocol.intake import (
    MAX_MEDIA_BYTES,
    AppealBatch,
    FactCheckBatch,
    FactCheckPage,
    IntakeResults,
    MediaUploaded,
    PostBatch,
    SignalBatch,
    WithdrawalBatch,
)
from reviewer_app.server.domain.mediasniff import MIME_TYPES
from reviewer_app.server.http.auth import FactCheckerDep, PlatformDep, ServiceDep
from reviewer_app.server.http.common import json_response

MEDIA_PATH = API_PREFIX + "/intake/media"

_DESCRIPTIONS = {
    400: "Malformed JSON, or an invalid cursor",
    401: "Missing, expired or revoked key",
    403: "Not a key of the account kind this route is for (platform or fact-checker)",
    413: "The request body is over the size cap",
    415: "The uploaded bytes are not PNG, JPEG, GIF, WebP, MP4 or WebM, or not what the "
    "Content-Type says",
    422: "The batch does not match the contract (nothing of it was applied)",
    429: "Too many requests from this caller; see Retry-After",
    503: "The service could not complete the request now; try again",
}


def _problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": Problem, "description": _DESCRIPTIONS[s]} for s in statuses}


BATCH = (400, 401, 403, 413, 422, 429, 503)

router = APIRouter(prefix=API_PREFIX + "/intake", tags=["intake"])


# Intake batches run on threads of their own, at most ``Database.intake_threads`` at once:
# a platform sending flat out then never holds the worker threads that verdict batches
# wait for (claims have their own lane too, common.py), nor has more than two batches'
# Python work competing with claims for the process's GIL. A batch waiting for its turn
# waits in the event loop, holding no thread.
async def intake_lane(request: Request) -> anyio.CapacityLimiter:
    lane: anyio.CapacityLimiter | None = getattr(request.app.state, "intake_lane", None)
    if lane is None:
        threads = request.app.state.service.db.intake_threads
        lane = request.app.state.intake_lane = anyio.CapacityLimiter(threads)
    return lane


IntakeLane = Annotated[anyio.CapacityLimiter, Depends(intake_lane)]


@router.post("/posts", response_model=IntakeResults, responses=_problems(*BATCH))
async def post_posts(
    body: PostBatch, svc: ServiceDep, caller: PlatformDep, lane: IntakeLane
) -> Response:
    """Posts, new or new versions (upserted by ``external_id``); a result per post."""
    return await anyio.to_thread.run_sync(
        lambda: json_response(svc.intake_posts(caller, list(body.posts))), limiter=lane
    )


@router.post("/signals", response_model=IntakeResults, responses=_problems(*BATCH))
async def post_signals(
    body: SignalBatch, svc: ServiceDep, caller: PlatformDep, lane: IntakeLane
) -> Response:
    """Classifier scores, user reports and relayed fact-checks on posts sent before; each
    counts once (by its ``id``). A result per signal, naming the items it opened or
    touched."""
    return await anyio.to_thread.run_sync(
        lambda: json_response(svc.intake_signals(caller, list(body.signals))), limiter=lane
    )


@router.post("/withdrawals", response_model=IntakeResults, responses=_problems(*BATCH))
async def post_withdrawals(
    body: WithdrawalBatch, svc: ServiceDep, caller: PlatformDep, lane: IntakeLane
) -> Response:
    """Posts deleted or made private upstream: their open items leave review."""
    return await anyio.to_thread.run_sync(
        lambda: json_response(svc.intake_withdrawals(caller, list(body.withdrawals))),
        limiter=lane,
    )


@router.post("/appeals", response_model=IntakeResults, responses=_problems(*BATCH))
async def post_appeals(
    body: AppealBatch, svc: ServiceDep, caller: PlatformDep, lane: IntakeLane
) -> Response:
    """Users' appeals of decisions on their posts or accounts, idempotent by ``id``: each is
    attached to the decision of record it contests and queued for review by someone who did
    not decide the item before. A result per appeal (``rejected`` with a reason when there
    is nothing to appeal: see docs/platform.md)."""
    return await anyio.to_thread.run_sync(
        lambda: json_response(svc.intake_appeals(caller, list(body.appeals))), limiter=lane
    )


_MEDIA_BODY = {
    "required": True,
    "description": f"The file's bytes (at most {MAX_MEDIA_BYTES} bytes). What they are is "
    "read from the bytes; a Content-Type of image/... or video/... must agree with them, "
    "any other is ignored.",
    "content": {
        t: {"schema": {"type": "string", "format": "binary"}}
        for t in (*MIME_TYPES, "application/octet-stream")
    },
}


@router.post(
    "/media",
    response_model=MediaUploaded,
    status_code=201,
    responses={
        200: {"model": MediaUploaded, "description": "These bytes were uploaded before"},
        201: {"description": "Stored: name it in a post's media by media_id"},
        **_problems(401, 403, 413, 415, 422, 429, 503),
    },
    openapi_extra={"requestBody": _MEDIA_BODY},
)
async def post_media(request: Request, svc: ServiceDep, caller: PlatformDep) -> Response:
    """Upload a media file for posts to name (idempotent: the same bytes from the same
    account are the same media)."""
    content = await request.body()
    declared = request.headers.get("content-type")
    uploaded, created = await anyio.to_thread.run_sync(svc.intake.media, caller, content, declared)
    return json_response(uploaded, status=201 if created else 200)


@router.post("/fact-checks", response_model=IntakeResults, responses=_problems(*BATCH))
def post_fact_checks(body: FactCheckBatch, svc: ServiceDep, caller: FactCheckerDep) -> Response:
    """Ratings by this fact-checker (its account is the organisation); each goes on the
    posts it names. A result per rating."""
    return json_response(svc.submit_fact_checks(caller, list(body.ratings)))


@router.get(
    "/fact-checks",
    response_model=FactCheckPage,
    responses=_problems(400, 401, 403, 422, 429, 503),
)
def get_fact_checks(
    svc: ServiceDep,
    caller: FactCheckerDep,
    cursor: Annotated[
        str | None, Query(max_length=512, description="next_cursor of the page before")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
) -> Response:
    """This fact-checker's own ratings, oldest first, a page at a time."""
    return json_response(svc.fact_checks(caller, cursor, limit))
