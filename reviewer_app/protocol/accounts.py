"""Accounts: an author's status, the accounts linked to them, and account actions.

An **account action** (warn, restrict, suspend, mark inauthentic) is an account-level
decision: a reviewer's verdict whose action carries one (an action of kind ``author``, or
one with an ``author_action`` such as "remove and suspend author"), or a lead's account
action on one or more accounts at once (``POST /authors/actions``). It raises the author's
status; it never lowers it (nothing here reinstates an account). Suspending an author or
marking them inauthentic closes every other open item of theirs, in every queue, as
``resolved`` (no verdict needed: a reviewer holding one is told ``author_actioned``), and
their new posts are held back from the queues.

Both sides use the rules below: the service to apply an action, the client to say what a
lead's action will do before it is confirmed.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, field_validator

from .common import (
    Count,
    ItemId,
    Label,
    NoteText,
    PolicyCodes,
    ShortText,
    Slug,
    Timestamp,
    WireModel,
)
from .queues import AuthorAction

MAX_ACCOUNTS_PER_ACTION = 100
MAX_LINKED = 100


class AuthorStatus(StrEnum):
    active = "active"
    warned = "warned"
    restricted = "restricted"
    suspended = "suspended"
    inauthentic = "inauthentic"


STATUS_OF_ACTION: dict[AuthorAction, AuthorStatus] = {
    AuthorAction.warn: AuthorStatus.warned,
    AuthorAction.restrict: AuthorStatus.restricted,
    AuthorAction.suspend: AuthorStatus.suspended,
    AuthorAction.mark_inauthentic: AuthorStatus.inauthentic,
}
"""The status an account action gives an author."""

STATUS_RANK: dict[AuthorStatus, int] = {
    AuthorStatus.active: 0,
    AuthorStatus.warned: 1,
    AuthorStatus.restricted: 2,
    AuthorStatus.suspended: 3,
    AuthorStatus.inauthentic: 4,
}
"""How far an account was actioned: a status only ever moves up (an inauthentic account is
beyond a suspended one: it is not a person's account at all)."""

CLOSING_STATUSES = frozenset({AuthorStatus.suspended, AuthorStatus.inauthentic})
"""Statuses whose author's open items close and whose new posts are held back."""


def status_after(current: AuthorStatus, action: AuthorAction) -> AuthorStatus | None:
    """The status ``action`` gives an author who is ``current`` now, or None when it would
    not raise it (a warning for a restricted author, a second suspension): nothing to do."""
    new = STATUS_OF_ACTION[action]
    return new if STATUS_RANK[new] > STATUS_RANK[current] else None


def closes_items(action: AuthorAction) -> bool:
    """The action closes the author's open items (suspend, mark inauthentic)."""
    return STATUS_OF_ACTION[action] in CLOSING_STATUSES


class LinkedAccount(WireModel):
    """An account that shares account signals with the author (named in either's
    ``signals.shared_signal_accounts``), as the service knows it now."""

    author_id: Label
    handle: ShortText
    status: AuthorStatus
    open_items: Count = Field(description="the account's items waiting for or under review")
    queue_ids: list[Slug] = Field(
        default_factory=list, max_length=64, description="the queues those items are in"
    )


class AccountSummary(LinkedAccount):
    """An account as a lead sees it before acting on it."""

    display_name: ShortText = ""
    status_changed_at: Timestamp | None = Field(
        default=None, description="when an account action last changed the status"
    )
    held_posts: Count = Field(
        default=0, description="posts of this account held back from the queues"
    )


class LinkedAccounts(WireModel):
    """``GET /authors/{author_id}/linked``: the author and the accounts linked to them."""

    author: AccountSummary
    linked: list[AccountSummary] = Field(max_length=MAX_LINKED)


class AccountActionRequest(WireModel):
    """One account action on each of ``author_ids`` (one account-level decision per account,
    all in one transaction or none)."""

    author_ids: list[Label] = Field(
        min_length=1,
        max_length=MAX_ACCOUNTS_PER_ACTION,
        json_schema_extra={"uniqueItems": True},
        description="the accounts (service author ids), each once",
    )
    action: AuthorAction
    policies: PolicyCodes = Field(default_factory=list)
    note: NoteText | None = None

    @field_validator("author_ids")
    @classmethod
    def _distinct(cls, value: list[str]) -> list[str]:
        if len(set(value)) != len(value):
            raise ValueError("each account may be named once")
        return value


#: closed item ids an account action's result lists (a spam wave's author can have more)
MAX_CLOSED_LISTED = 10_000


class AccountActionResult(WireModel):
    author_id: Label
    handle: ShortText
    action_id: int = Field(ge=1, description="the account-level decision recorded")
    status_before: AuthorStatus
    status: AuthorStatus
    closed_item_ids: list[ItemId] = Field(
        default_factory=list,
        max_length=MAX_CLOSED_LISTED,
        description="the open items it closed as resolved by account action (the first "
        "10,000 of them: closed_items counts them all)",
    )
    closed_items: int = Field(
        default=0, ge=0, description="how many open items it closed (all of them)"
    )
    queue_ids: list[Slug] = Field(default_factory=list, max_length=64)


class AccountActionResults(WireModel):
    results: list[AccountActionResult] = Field(max_length=MAX_ACCOUNTS_PER_ACTION)


class HeldBack(WireModel):
    """Posts of suspended or inauthentic accounts that intake recorded and did not queue."""

    posts: Count = Field(default=0, description="all held-back posts")
    posts_in_window: Count = Field(default=0, description="held back within the stats window")
    accounts: Count = Field(default=0, description="accounts suspended or marked inauthentic")


__all__ = [
    "CLOSING_STATUSES",
    "MAX_ACCOUNTS_PER_ACTION",
    "MAX_CLOSED_LISTED",
    "MAX_LINKED",
    "STATUS_OF_ACTION",
    "STATUS_RANK",
    "AccountActionRequest",
    "AccountActionResult",
    "AccountActionResults",
    "AccountSummary",
    "AuthorStatus",
    "HeldBack",
    "LinkedAccount",
    "LinkedAccounts",
    "closes_items",
    "status_after",
]
