"""HTTP route of the enforcement feed (``GET /api/v1/enforcement``): what a platform is to do.

A platform's API key reads its own actions (those on its posts and authors), in the one
total order the sequencer gave them (``seq``), a page at a time: ``after`` is the ``seq``
of the last action it has processed (``next_cursor`` of the page before; 0 to start).
With ``wait``, a request that finds nothing new waits up to that many seconds and answers
as soon as an action of the platform is sealed (an empty page with the same cursor when
the wait runs out). Waiting holds no worker thread (see enforcement_feed.FeedWatch). When
the process is told to stop (shutdown.py), waiting reads answer at once, as at the wait's
end, so they never hold the process up. A cursor past the feed's last action is refused (409
``cursor_ahead``, see enforcement_feed.Feed.page): echoing it would skip actions for good.
"""

from __future__ import annotations

from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Query, Request, Response
from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

from reviewer_app.protocol import API_PREFIX, Problem
from reviewer_app.protocol.enforcement import (
    MAX_ENFORCEMENT_PAGE,
    MAX_ENFORCEMENT_WAIT_SECONDS,
    EnforcementPage,
)
from reviewer_app.server.http.auth import PlatformDep, ServiceDep, TokenDep, authenticated
from reviewer_app.server.http.common import json_response
from reviewer_app.server.http.shutdown import stop_with_process

# enforcement_actions.seq is a 32-bit integer, as every row id the service takes
MAX_SEQ = 2**31 - 1

_DESCRIPTIONS = {
    401: "Missing, expired or revoked key",
    403: "Not a platform account's key",
    409: "cursor_ahead: after is past the feed's last action (the service's data may have "
    "been restored from a backup: read again from a cursor known to be good, or 0)",
    422: "after, limit or wait out of range",
    429: "Too many requests from this caller; see Retry-After",
    503: "The service could not complete the request now; try again",
}


def _problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": Problem, "description": _DESCRIPTIONS[s]} for s in statuses}


def _in_range(name: str, low: float, high: float, what: str) -> BeforeValidator:
    """A query value's check that names its range (before the type's own: ``nan`` was told
    only "less than or equal to 30", a huge ``after`` only its bound)."""

    def check(value: Any) -> Any:
        try:  # nan is inside no range
            inside = low <= float(value) <= high
        except (TypeError, ValueError):
            inside = False
        if not inside:
            raise PydanticCustomError("out_of_range", f"{name} must be {what}")
        return value

    return BeforeValidator(check)


router = APIRouter(prefix=API_PREFIX, tags=["enforcement"])


@router.get(
    "/enforcement",
    response_model=EnforcementPage,
    responses=_problems(401, 403, 409, 422, 429, 503),
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
            le=MAX_SEQ,
            description="the seq of the last action you processed (next_cursor of the page "
            "before); 0 for the first action",
        ),
        _in_range("after", 0, MAX_SEQ, f"a seq from 0 to {MAX_SEQ}"),
    ] = 0,
    limit: Annotated[
        int,
        Query(ge=1, le=MAX_ENFORCEMENT_PAGE, description="the most actions a page holds"),
        _in_range("limit", 1, MAX_ENFORCEMENT_PAGE, f"from 1 to {MAX_ENFORCEMENT_PAGE}"),
    ] = 100,
    wait: Annotated[
        float,
        Query(
            ge=0,
            le=MAX_ENFORCEMENT_WAIT_SECONDS,
            description="seconds to wait for an action when there is none after the cursor "
            "(a long poll); 0 answers at once",
        ),
        _in_range(
            "wait",
            0,
            MAX_ENFORCEMENT_WAIT_SECONDS,
            f"a number from 0 to {MAX_ENFORCEMENT_WAIT_SECONDS} (seconds)",
        ),
    ] = 0,
) -> Response:
    """This platform's enforcement actions after the cursor, in seq order: resumable from
    any cursor, never a gap, never a reorder. Deduplicate by ``id`` if you re-read."""
    found, head = await anyio.to_thread.run_sync(svc.enforcement_page, caller, after, limit)
    if found.actions or wait <= 0:
        return json_response(found)
    watch = svc.feed.watch
    stop_with_process(watch)  # told to stop, the process ends the wait (watch.stopped)
    loop_deadline = anyio.current_time() + wait
    while True:
        remaining = loop_deadline - anyio.current_time()
        if await request.is_disconnected():
            return json_response(found)
        if remaining <= 0 or watch.stopped:  # a key revoked while it waited is told so
            await anyio.to_thread.run_sync(authenticated, svc, token)
            return json_response(found)
        # Sleep until this process sees the sealed head pass the one read before the page
        # (any platform's action: then look again), or the wait runs out.
        moved = await watch.wait_beyond(head, min(remaining, 1.0))
        if not moved:
            continue  # a second passed (or the process is stopping): look again
        found, head = await anyio.to_thread.run_sync(svc.enforcement_page, caller, after, limit)
        if found.actions:
            # the key was checked when the read began: a key revoked while it waited reads
            # nothing more (revocation is at once, long polls included)
            await anyio.to_thread.run_sync(authenticated, svc, token)
            return json_response(found)
