"""HTTP route of the enforcement feed (``GET /api/v1/enforcement``): what a platform is to do.

A platform's API key reads its own actions (those on its posts and authors), in the one
total order the sequencer gave them (``seq``), a page at a time: ``after`` is the ``seq``
of the last action it has processed (``next_cursor`` of the page before; 0 to start).
With ``wait``, a request that finds nothing new waits up to that many seconds and answers
as soon as an action of the platform is sealed (an empty page with the same cursor when
the wait runs out). Waiting holds no worker thread (see enforcement_feed.FeedWatch).
"""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Query, Request, Response

from reviewer_app.protocol import API_PREFIX, Problem
from reviewer_app.protocol.enforcement import (
    MAX_ENFORCEMENT_PAGE,
    MAX_ENFORCEMENT_WAIT_SECONDS,
    EnforcementPage,
)
from reviewer_app.server.http.auth import PlatformDep, ServiceDep, TokenDep, authenticated
from reviewer_app.server.http.common import json_response

_DESCRIPTIONS = {
    401: "Missing, expired or revoked key",
    403: "Not a platform account's key",
    422: "after, limit or wait out of range",
    429: "Too many requests from this caller; see Retry-After",
    503: "The service could not complete the request now; try again",
}


def _problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": Problem, "description": _DESCRIPTIONS[s]} for s in statuses}


router = APIRouter(prefix=API_PREFIX, tags=["enforcement"])


@router.get(
    "/enforcement",
    response_model=EnforcementPage,
    responses=_problems(401, 403, 422, 429, 503),
)
async def get_enforcement(
    request: Request,
    svc: ServiceDep,
    caller: PlatformDep,
    token: TokenDep,
    after: Annotated[
        int,
        Query(
            ge=0,
            le=2**62,
            description="the seq of the last action you processed (next_cursor of the page "
            "before); 0 for the first action",
        ),
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_ENFORCEMENT_PAGE)] = 100,
    wait: Annotated[
        float,
        Query(
            ge=0,
            le=MAX_ENFORCEMENT_WAIT_SECONDS,
            description="seconds to wait for an action when there is none after the cursor "
            "(a long poll); 0 answers at once",
        ),
    ] = 0,
) -> Response:
    """This platform's enforcement actions after the cursor, in seq order: resumable from
    any cursor, never a gap, never a reorder. Deduplicate by ``id`` if you re-read."""
    found, head = await anyio.to_thread.run_sync(svc.enforcement_page, caller, after, limit)
    if found.actions or wait <= 0:
        return json_response(found)
    loop_deadline = anyio.current_time() + wait
    while True:
        remaining = loop_deadline - anyio.current_time()
        if await request.is_disconnected():
            return json_response(found)
        if remaining <= 0:  # a key revoked while it waited is told so, as on any request
            await anyio.to_thread.run_sync(authenticated, svc, token)
            return json_response(found)
        # Sleep until this process sees the sealed head pass the one read before the page
        # (any platform's action: then look again), or the wait runs out.
        moved = await svc.feed.watch.wait_beyond(head, min(remaining, 1.0))
        if not moved:
            continue  # a second passed: see whether the reader is still there
        found, head = await anyio.to_thread.run_sync(svc.enforcement_page, caller, after, limit)
        if found.actions:
            # the key was checked when the read began: a key revoked while it waited reads
            # nothing more (revocation is at once, long polls included)
            await anyio.to_thread.run_sync(authenticated, svc, token)
            return json_response(found)
