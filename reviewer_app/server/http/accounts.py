"""HTTP routes of account actions (``/api/v1/authors/...``), for leads: the accounts linked
to an author, and one account action on a selection of accounts (see accounts.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response
from pydantic import StringConstraints

from reviewer_app.protocol import API_PREFIX
from reviewer_app.protocol.accounts import (
    AccountActionRequest,
    AccountActionResults,
    LinkedAccounts,
)
from reviewer_app.protocol.bulk_decisions import OpenItems
from reviewer_app.server.http.auth import LeadDep, ServiceDep
from reviewer_app.server.http.common import AUTHED, json_response, problems

AuthorId = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_.:@+=-]{1,200}$")]

router = APIRouter(prefix=API_PREFIX + "/authors", tags=["lead"])


@router.get(
    "/{author_id}/linked",
    response_model=LinkedAccounts,
    responses=problems(*AUTHED, 404),
)
def get_linked_accounts(
    author_id: Annotated[AuthorId, Path()], svc: ServiceDep, _lead: LeadDep
) -> Response:
    """The author and the accounts that share account signals with them (either names the
    other in ``signals.shared_signal_accounts``, on the same platform), each with their
    status, open items and the queues those are in, and posts held back."""
    return json_response(svc.linked_accounts(author_id))


@router.post(
    "/actions",
    response_model=AccountActionResults,
    responses=problems(*AUTHED, 404, 409, 422),
)
def post_account_actions(
    body: AccountActionRequest, svc: ServiceDep, lead: LeadDep
) -> AccountActionResults:
    """One account action on each named account: one account-level decision per account and
    one ``author:*`` enforcement action each; suspend and mark_inauthentic close every open
    item of the account in every queue (resolved by account action). All in one
    transaction or none: an unknown account (404 ``unknown_author``), one the action would
    not change (409 ``already_actioned``: already so, or beyond) or a policy code no queue
    has (422 ``unknown_policy``: the statements of reasons would cite no clause) applies
    nothing."""
    return svc.account_action(lead, body)


@router.get(
    "/{author_id}/open-items",
    response_model=OpenItems,
    responses=problems(*AUTHED, 404),
)
def get_open_items(
    author_id: Annotated[AuthorId, Path()],
    svc: ServiceDep,
    lead: LeadDep,
    linked: Annotated[bool, Query(description="the linked accounts' items too")] = False,
) -> Response:
    """The author's items waiting for or under review, in every open queue, oldest first
    (and those of the accounts linked to them with ``linked``): what a bulk decision on
    the account takes (``POST /decisions/bulk``)."""
    return json_response(svc.open_items(lead, author_id, linked=linked))
