"""HTTP routes for admins (v1): users, roles, and service accounts' API keys."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response

from reviewer_app.protocol import (
    API_PREFIX,
    ApiKeyCreate,
    ApiKeyCreated,
    ApiKeyInfo,
    ApiKeyList,
    PasswordSet,
    RoleChange,
    User,
    UserCreate,
    UserList,
)
from reviewer_app.protocol.common import Username
from reviewer_app.server.http.auth import AdminDep, ServiceDep
from reviewer_app.server.http.common import AUTHED, KeyId, json_response, links, problems

router = APIRouter(prefix=API_PREFIX)


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
    responses=problems(*AUTHED, 403, 404, 409),
)
def change_role(
    username: Annotated[Username, Path()], body: RoleChange, svc: ServiceDep, admin: AdminDep
) -> User:
    """Change a user's role (logged in the event log). The service's last admin stays one
    (409 ``last_admin``); a lead made a reviewer gives back what they held in leads-only
    queues, and the open escalations assigned to them go back to nobody."""
    return svc.change_role(username, body.role, admin)


@router.put(
    "/users/{username}/password",
    status_code=204,
    tags=["admin"],
    responses=problems(*AUTHED, 403, 404, 422),
    response_class=Response,
)
def set_password(
    username: Annotated[Username, Path()], body: PasswordSet, svc: ServiceDep, admin: AdminDep
) -> Response:
    """Set a person's password (a service account has API keys: 422 ``service_account``).
    Every session of theirs ends at once, and a login lock is lifted; a person whose access
    was ended can log in again with it. Logged as ``password_set``, never the password."""
    svc.set_password(username, body.password, admin.username)
    return Response(status_code=204)


@router.delete(
    "/users/{username}/password",
    status_code=204,
    tags=["admin"],
    responses=problems(*AUTHED, 403, 404, 409, 422),
    response_class=Response,
)
def end_access(username: Annotated[Username, Path()], svc: ServiceDep, admin: AdminDep) -> Response:
    """End a person's access (someone who left, a password that leaked): no password opens
    the account any more, every session of theirs ends at once, and the items they held and
    the escalations assigned to them go back. The only admin who can log in keeps theirs
    (409 ``last_admin``). Logged as ``access_ended``; a password set again gives access
    back."""
    svc.end_access(username, admin.username)
    return Response(status_code=204)


@router.get(
    "/admin/api-keys", response_model=ApiKeyList, tags=["admin"], responses=problems(*AUTHED, 403)
)
def get_api_keys(svc: ServiceDep, _admin: AdminDep) -> ApiKeyList:
    """Service accounts' API keys, live and revoked: never the key itself."""
    return ApiKeyList(keys=svc.api_keys())


@router.post(
    "/admin/api-keys",
    response_model=ApiKeyCreated,
    status_code=201,
    tags=["admin"],
    responses={
        **problems(*AUTHED, 403, 409),
        **links(
            201,
            RevokeApiKey=(
                "delete",
                "/admin/api-keys/{key_id}",
                {"key_id": "$response.body#/info/id"},
            ),
        ),
    },
)
def create_api_key(body: ApiKeyCreate, svc: ServiceDep, admin: AdminDep) -> Response:
    """A new API key for a platform or fact-checker account (made if missing). The answer
    is the only time the key is shown. A second key for the same account rotates: both
    are live until the old one is revoked."""
    made = svc.create_api_key(
        body.role, body.name, body.account, admin.username, display_name=body.display_name
    )
    return json_response(made, status=201)  # never cached: see app.NoStore


@router.delete(
    "/admin/api-keys/{key_id}",
    response_model=ApiKeyInfo,
    tags=["admin"],
    responses=problems(*AUTHED, 403, 404),
)
def revoke_api_key(key_id: KeyId, svc: ServiceDep, admin: AdminDep) -> ApiKeyInfo:
    """Revoke a key: refused from the next request on, in every process (again: no change)."""
    return svc.revoke_api_key(key_id, admin.username)
