"""HTTP routes of the wire contract (v1). Every route checks the caller's role."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel

from reviewer_app.protocol import (
    API_PREFIX,
    DecisionPage,
    EventKind,
    EventPage,
    Item,
    LeaseClaim,
    LeaseGrant,
    LeaseRelease,
    LeaseRenewal,
    LeaseResults,
    Meta,
    Problem,
    QueueList,
    RoleChange,
    SessionCreate,
    SessionInfo,
    User,
    UserCreate,
    UserList,
    VerdictBatch,
    VerdictResults,
)
from reviewer_app.protocol.common import MAX_PAGE, ItemId, MediaId, Slug, Username

from .problems import ApiError
from .records import Principal
from .service import Service

MEDIA_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "video/mp4")

_bearer = HTTPBearer(auto_error=False, description="The token from POST /sessions.")

_DESCRIPTIONS = {
    400: "Malformed JSON, or an invalid cursor",
    401: "Missing, expired or revoked token, or wrong credentials",
    403: "The caller's role may not do this",
    404: "No such resource",
    409: "The request conflicts with the current state",
    413: "The request body is over the size cap",
    422: "The request does not match the contract or the queue's decision config",
    429: "Too many failed logins; see Retry-After",
    503: "The service could not complete the request now; try again",
}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": Problem, "description": _DESCRIPTIONS[s]} for s in statuses}


PUBLIC = (400, 413, 422)
AUTHED = (*PUBLIC, 401)


def json_response(model: BaseModel) -> Response:
    """The model as JSON, without FastAPI validating it a second time (hot routes)."""
    return Response(model.model_dump_json(), media_type="application/json")


async def service(request: Request) -> Service:
    svc: Service = request.app.state.service
    return svc


# Dependencies that do no I/O are ``async``: FastAPI would hand each sync one to a worker
# thread of its own, which costs more than the work itself on the hot routes.
ServiceDep = Annotated[Service, Depends(service)]


async def bearer_token(
    creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    if creds is None or creds.scheme.lower() != "bearer" or not creds.credentials:
        raise ApiError(
            401,
            "not_authenticated",
            "Log in first: no bearer token was sent.",
            headers={"WWW-Authenticate": "Bearer"},
        )
    return creds.credentials


def current_user(svc: ServiceDep, token: Annotated[str, Depends(bearer_token)]) -> Principal:
    if len(token) > 256 or (user := svc.authenticate(token)) is None:
        raise ApiError(
            401,
            "token_invalid",
            "The token is unknown, expired or revoked; log in again.",
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        )
    return user


async def lead_user(user: Annotated[Principal, Depends(current_user)]) -> Principal:
    if not user.is_lead:
        raise ApiError(403, "lead_only", "This needs the lead or admin role.")
    return user


async def admin_user(user: Annotated[Principal, Depends(current_user)]) -> Principal:
    if user.role.value != "admin":
        raise ApiError(403, "admin_only", "This needs the admin role.")
    return user


UserDep = Annotated[Principal, Depends(current_user)]
LeadDep = Annotated[Principal, Depends(lead_user)]
AdminDep = Annotated[Principal, Depends(admin_user)]
Cursor = Annotated[str | None, Query(max_length=512, description="next_cursor of the page before")]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE)]

router = APIRouter(prefix=API_PREFIX)


@router.get("/meta", response_model=Meta, tags=["meta"], responses=problems(400))
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
def create_session(body: SessionCreate, svc: ServiceDep) -> SessionInfo:
    """Log in with user name and password for a bearer token."""
    return svc.login(body)


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
def get_queues(svc: ServiceDep, user: UserDep) -> QueueList:
    """The queues this user may work, with live counts and decision config."""
    return svc.list_queues(user)


@router.post(
    "/queues/{queue_id}/leases",
    response_model=LeaseGrant,
    tags=["leases"],
    responses=problems(*AUTHED, 403, 404, 409),
)
def claim_items(
    queue_id: Annotated[Slug, Path()], body: LeaseClaim, svc: ServiceDep, user: UserDep
) -> Response:
    """Claim up to ``count`` items for this reviewer, each whole with its lease token."""
    # Sent as built: every stored part was validated when it was enqueued.
    document = svc.claim_document(user, queue_id, body)
    return Response(json.dumps(document, ensure_ascii=False), media_type="application/json")


@router.post(
    "/leases/renew", response_model=LeaseResults, tags=["leases"], responses=problems(*AUTHED)
)
def renew_leases(body: LeaseRenewal, svc: ServiceDep, user: UserDep) -> LeaseResults:
    return svc.renew(user, list(body.tokens), body.lease_seconds)


@router.post(
    "/leases/release", response_model=LeaseResults, tags=["leases"], responses=problems(*AUTHED)
)
def release_leases(body: LeaseRelease, svc: ServiceDep, user: UserDep) -> LeaseResults:
    return svc.release(user, list(body.tokens))


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
def post_verdicts(body: VerdictBatch, svc: ServiceDep, user: UserDep) -> Response:
    """Record a batch of verdicts; each has its own idempotency key and its own result."""
    return json_response(svc.verdicts(user, list(body.verdicts)))


@router.get("/events", response_model=EventPage, tags=["lead"], responses=problems(*AUTHED, 403))
def get_events(
    svc: ServiceDep,
    _lead: LeadDep,
    cursor: Cursor = None,
    limit: Limit = 100,
    kind: EventKind | None = None,
) -> EventPage:
    """The append-only event log, oldest first (leads and admins)."""
    return svc.events(cursor, limit, kind)


@router.get(
    "/decisions", response_model=DecisionPage, tags=["lead"], responses=problems(*AUTHED, 403)
)
def get_decisions(
    svc: ServiceDep,
    _lead: LeadDep,
    cursor: Cursor = None,
    limit: Limit = 100,
    queue_id: Annotated[Slug | None, Query()] = None,
    reviewer: Annotated[Username | None, Query()] = None,
) -> DecisionPage:
    """Decisions, oldest first, filtered by queue and reviewer (leads and admins)."""
    return svc.decisions(cursor, limit, queue_id, reviewer)


@router.get("/users", response_model=UserList, tags=["admin"], responses=problems(*AUTHED, 403))
def get_users(svc: ServiceDep, _admin: AdminDep) -> UserList:
    return svc.list_users()


@router.post(
    "/users",
    response_model=User,
    status_code=201,
    tags=["admin"],
    responses=problems(*AUTHED, 403, 409),
)
def create_user(body: UserCreate, svc: ServiceDep, admin: AdminDep) -> User:
    return svc.create_user(body, admin)


@router.put(
    "/users/{username}/role",
    response_model=User,
    tags=["admin"],
    responses=problems(*AUTHED, 403, 404),
)
def change_role(
    username: Annotated[Username, Path()], body: RoleChange, svc: ServiceDep, admin: AdminDep
) -> User:
    """Change a user's role (logged in the event log)."""
    return svc.change_role(username, body.role, admin)
