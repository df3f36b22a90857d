"""HTTP routes of the review path (v1): meta, sessions, queues, leases, items and their media
and history, verdicts, breaks. Every route checks the caller's role."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

import anyio
from fastapi import APIRouter, Depends, Path, Query, Response

from reviewer_app.protocol import (
    API_PREFIX,
    QUERY_YEARS,
    BreakRecord,
    EventPage,
    Item,
    LeaseClaim,
    LeaseGrant,
    LeaseRelease,
    LeaseRenewal,
    LeaseResults,
    Meta,
    QueueList,
    SessionCreate,
    SessionInfo,
    StatementList,
    User,
    VerdictBatch,
    VerdictResults,
)
from reviewer_app.protocol.common import ItemId, MediaId, Slug
from reviewer_app.server.domain.claims import ClaimReply
from reviewer_app.server.domain.security import is_api_key
from reviewer_app.server.http.auth import (
    MAX_TOKEN_LENGTH,
    ServiceDep,
    TokenDep,
    UserDep,
    authenticated_person,
    bearer_token,
)
from reviewer_app.server.http.common import (
    AUTHED,
    MEDIA_TYPES,
    PUBLIC,
    Cursor,
    Limit,
    MetricsDep,
    _time,
    claim_lane,
    json_response,
    links,
    login_lane,
    problems,
)

router = APIRouter(prefix=API_PREFIX)


@router.get("/meta", response_model=Meta, tags=["meta"], responses=problems(400, 429))
def get_meta(svc: ServiceDep) -> Meta:
    """API version, server version, features and limits. Needs no token."""
    return svc.meta()


@router.post(
    "/sessions",
    response_model=SessionInfo,
    status_code=201,
    tags=["sessions"],
    responses=problems(*PUBLIC, 401, 429, 503),
)
async def create_session(
    body: SessionCreate,
    svc: ServiceDep,
    lane: Annotated[anyio.CapacityLimiter, Depends(login_lane)],
) -> SessionInfo:
    """Log in with user name and password for a bearer token."""
    info: SessionInfo = await anyio.to_thread.run_sync(svc.login, body, limiter=lane)
    return info


@router.delete(
    "/sessions/current",
    status_code=204,
    tags=["sessions"],
    responses=problems(*AUTHED),
    response_class=Response,
)
def delete_session(
    svc: ServiceDep, token: Annotated[str, Depends(bearer_token)], _user: UserDep
) -> Response:
    """Log out: the token is revoked at once."""
    svc.logout(token)
    return Response(status_code=204)


@router.get("/me", response_model=User, tags=["sessions"], responses=problems(*AUTHED))
def get_me(user: UserDep) -> User:
    return user.as_user()


@router.get("/queues", response_model=QueueList, tags=["queues"], responses=problems(*AUTHED))
def get_queues(
    svc: ServiceDep,
    user: UserDep,
    day_start: Annotated[
        datetime | None,
        Query(
            description="the start of the caller's day (its local midnight, RFC 3339): "
            "decided_today counts from it (moved by whole days onto the service's clock "
            "when more than a day off); default: UTC midnight",
            json_schema_extra=QUERY_YEARS,
        ),
    ] = None,
) -> QueueList:
    """The queues this user may work, with live counts and decision config."""
    return svc.list_queues(user, _time(day_start, "day_start"))


@router.post(
    "/queues/{queue_id}/leases",
    response_model=LeaseGrant,
    tags=["leases"],
    responses={
        **problems(*AUTHED, 403, 404, 409),
        **links(
            200,
            GetClaimedItem=(
                "get",
                "/items/{item_id}",
                {"item_id": "$response.body#/items/0/item/id"},
            ),
            GetClaimedItemHistory=(
                "get",
                "/items/{item_id}/history",
                {"item_id": "$response.body#/items/0/item/id"},
            ),
        ),
    },
)
async def claim_items(
    queue_id: Annotated[Slug, Path()],
    body: LeaseClaim,
    svc: ServiceDep,
    token: TokenDep,
    lane: Annotated[anyio.CapacityLimiter, Depends(claim_lane)],
    metrics: MetricsDep,
) -> Response:
    """Claim up to ``count`` items for this reviewer, each whole with its lease token."""

    def claim() -> ClaimReply:
        if is_api_key(token) or len(token) > MAX_TOKEN_LENGTH:  # refused as on any route
            return svc.claim_reply(authenticated_person(svc, token), queue_id, body)
        # a login token: the claim's own transaction looks it up (claims.Caller)
        served = svc.claim_reply(token, queue_id, body)
        svc.known_tokens.add(token)  # it authenticated (a refused one raised)
        return served

    # Sent as built (inside the claim's transaction): every stored part was validated when
    # it was enqueued.
    reply = await anyio.to_thread.run_sync(claim, limiter=lane)
    metrics.items_leased(queue_id, reply.served)
    return Response(reply.body, media_type="application/json")


@router.post(
    "/leases/renew", response_model=LeaseResults, tags=["leases"], responses=problems(*AUTHED)
)
def renew_leases(body: LeaseRenewal, svc: ServiceDep, user: UserDep) -> LeaseResults:
    return svc.renew(user, list(body.tokens), body.lease_seconds)


@router.post(
    "/leases/release", response_model=LeaseResults, tags=["leases"], responses=problems(*AUTHED)
)
def release_leases(body: LeaseRelease, svc: ServiceDep, user: UserDep) -> LeaseResults:
    return svc.release(user, list(body.tokens), skipped=body.skipped)


@router.get(
    "/items/{item_id}", response_model=Item, tags=["items"], responses=problems(*AUTHED, 403, 404)
)
def get_item(item_id: Annotated[ItemId, Path()], svc: ServiceDep, user: UserDep) -> Response:
    return json_response(svc.item(user, item_id))


@router.get(
    "/items/{item_id}/history",
    response_model=EventPage,
    tags=["items"],
    responses=problems(*AUTHED, 403, 404),
)
def get_item_history(
    item_id: Annotated[ItemId, Path()],
    svc: ServiceDep,
    user: UserDep,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> EventPage:
    """Every event on an item, oldest first."""
    return svc.history(user, item_id, cursor, limit)


@router.get(
    "/items/{item_id}/statements",
    response_model=StatementList,
    tags=["items"],
    responses=problems(*AUTHED, 403, 404),
)
def get_item_statements(
    item_id: Annotated[ItemId, Path()], svc: ServiceDep, user: UserDep
) -> StatementList:
    """The statements of reasons the item's restrictive decisions gave the affected user,
    oldest first (none for keep)."""
    return svc.item_statements(user, item_id)


@router.get(
    "/media/{media_id}",
    tags=["items"],
    response_class=Response,
    responses={
        200: {
            "description": "The media bytes",
            "content": {t: {"schema": {"type": "string", "format": "binary"}} for t in MEDIA_TYPES},
        },
        **problems(*AUTHED, 403, 404),
    },
)
def get_media(media_id: Annotated[MediaId, Path()], svc: ServiceDep, user: UserDep) -> Response:
    content, mime_type = svc.media(user, media_id)
    return Response(
        content,
        media_type=mime_type,
        headers={"Content-Disposition": "inline", "X-Content-Type-Options": "nosniff"},
    )


@router.post(
    "/verdicts", response_model=VerdictResults, tags=["verdicts"], responses=problems(*AUTHED)
)
def post_verdicts(
    body: VerdictBatch, svc: ServiceDep, user: UserDep, metrics: MetricsDep
) -> Response:
    """Record a batch of verdicts; each has its own idempotency key and its own result."""
    results = svc.verdicts(user, list(body.verdicts))
    metrics.verdict_results(r.status.value for r in results.results)
    return json_response(results)


@router.post(
    "/breaks", response_model=BreakRecord, tags=["sessions"], responses=problems(*AUTHED, 409)
)
def record_break(body: BreakRecord, svc: ServiceDep, user: UserDep) -> BreakRecord:
    """A break the caller takes: sent as it starts, and again with ``ended_at`` as it ends
    (the same ``id`` updates it; retries are safe)."""
    return svc.record_break(user, body)
