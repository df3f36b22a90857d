"""Who is calling: the FastAPI dependencies that turn a bearer token into a caller and check
its role. ``api`` (the people's routes) and ``intake_api`` (the service accounts' routes)
both use them.

People (reviewer, lead, admin) log in with a password for a token (``rd1_...``); service
accounts (platform, fact_checker) call with an API key (``rdk_...``). Either goes in
``Authorization: Bearer``. A service account may call only the routes of its role
(``PlatformDep``, ``FactCheckerDep``); a person may call none of those.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from reviewer_app.protocol import Role
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.domain.security import API_KEY_PREFIX
from reviewer_app.server.problems import ApiError, token_invalid
from reviewer_app.server.service import Service

_bearer = HTTPBearer(
    auto_error=False,
    description="A person's token from POST /sessions, or a service account's API key (rdk_...).",
)

#: Tokens and keys are far shorter: a longer one is refused without a database look-up.
MAX_TOKEN_LENGTH = 256


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


TokenDep = Annotated[str, Depends(bearer_token)]


def authenticated(svc: Service, token: str) -> Principal:
    """The caller the token or API key stands for, whatever its role, or 401 (blocking:
    runs on a worker thread)."""
    api_key = token.startswith(API_KEY_PREFIX)
    if len(token) > MAX_TOKEN_LENGTH:
        raise token_invalid(api_key=api_key)
    if (user := svc.authenticate(token)) is None:
        svc.known_tokens.discard(token)
        raise token_invalid(api_key=api_key)
    svc.known_tokens.add(token)  # a bucket of its own from now on (ops/ratelimit.py)
    return user


def person(user: Principal) -> Principal:
    """``user`` when a person (reviewer, lead, admin); 403 for a service account."""
    if user.is_service_account:
        raise ApiError(
            403,
            "service_account_forbidden",
            f"A {user.role.value} API key may call the intake routes only; this route is "
            "for people (reviewers, leads, admins).",
        )
    return user


def authenticated_person(svc: Service, token: str) -> Principal:
    """``authenticated`` and ``person`` in one (for routes that authenticate themselves)."""
    return person(authenticated(svc, token))


def any_caller(svc: ServiceDep, token: TokenDep) -> Principal:
    """Any authenticated caller, person or service account."""
    return authenticated(svc, token)


def current_user(svc: ServiceDep, token: TokenDep) -> Principal:
    """An authenticated person: what every route of the review desk needs at least."""
    return authenticated_person(svc, token)


async def lead_user(user: Annotated[Principal, Depends(current_user)]) -> Principal:
    if not user.is_lead:
        raise ApiError(403, "lead_only", "This needs the lead or admin role.")
    return user


async def admin_user(user: Annotated[Principal, Depends(current_user)]) -> Principal:
    if user.role is not Role.admin:
        raise ApiError(403, "admin_only", "This needs the admin role.")
    return user


async def platform_caller(caller: Annotated[Principal, Depends(any_caller)]) -> Principal:
    if caller.role is not Role.platform:
        raise ApiError(403, "platform_only", "This needs a platform account's API key.")
    return caller


async def fact_checker_caller(caller: Annotated[Principal, Depends(any_caller)]) -> Principal:
    if caller.role is not Role.fact_checker:
        raise ApiError(403, "fact_checker_only", "This needs a fact-checker account's API key.")
    return caller


CallerDep = Annotated[Principal, Depends(any_caller)]
UserDep = Annotated[Principal, Depends(current_user)]
LeadDep = Annotated[Principal, Depends(lead_user)]
AdminDep = Annotated[Principal, Depends(admin_user)]
PlatformDep = Annotated[Principal, Depends(platform_caller)]
"""A platform account's API key (intake of posts, signals, withdrawals, media)."""
FactCheckerDep = Annotated[Principal, Depends(fact_checker_caller)]
"""A fact-checker account's API key (its own ratings)."""
