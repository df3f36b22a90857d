"""Leases: claiming items for one reviewer, renewing and releasing them."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from .accounts import AuthorStatus
from .common import (
    MAX_CLAIM,
    MAX_LEASE_SECONDS,
    MAX_TOKENS_PER_CALL,
    MIN_LEASE_SECONDS,
    JsonBool,
    JsonInt,
    LeaseToken,
    Slug,
    Timestamp,
    WireModel,
)
from .items import Item


class LeaseClaim(WireModel):
    count: JsonInt = Field(default=10, ge=1, le=MAX_CLAIM)
    lease_seconds: JsonInt = Field(default=300, ge=MIN_LEASE_SECONDS, le=MAX_LEASE_SECONDS)


class LeasedItem(WireModel):
    lease_token: LeaseToken
    lease_expires_at: Timestamp
    item: Item


class LeaseGrant(WireModel):
    queue_id: Slug
    lease_seconds: int = Field(description="granted; may be less than asked (server cap)")
    items: list[LeasedItem] = Field(max_length=MAX_CLAIM)
    leased_total: int = Field(ge=0, description="items this reviewer now holds in all queues")


class LeaseRenewal(WireModel):
    tokens: list[LeaseToken] = Field(min_length=1, max_length=MAX_TOKENS_PER_CALL)
    lease_seconds: JsonInt = Field(default=300, ge=MIN_LEASE_SECONDS, le=MAX_LEASE_SECONDS)


class LeaseRelease(WireModel):
    tokens: list[LeaseToken] = Field(min_length=1, max_length=MAX_TOKENS_PER_CALL)
    skipped: JsonBool = Field(
        default=False,
        description="the reviewer skipped these items: for a while (the service's "
        "skip_memory_seconds) their claims in the queue take every other item first, and "
        "these only when nothing else is left for them",
    )


LeaseOutcome = Literal["renewed", "released", "lost", "withdrawn", "author_actioned", "unknown"]


class LeaseStatus(WireModel):
    token: LeaseToken
    status: LeaseOutcome = Field(
        description="lost: the item was decided or is leased to someone else; "
        "withdrawn: the post was deleted or made private upstream, the item left review "
        "(a verdict for it is rejected with reason withdrawn); "
        "author_actioned: the item was resolved by an account action, its author suspended "
        "or marked inauthentic (a verdict for it is rejected with reason author_actioned); "
        "unknown: no such lease of yours"
    )
    expires_at: Timestamp | None = None
    author_status: AuthorStatus | None = Field(
        default=None, description="author_actioned: the status the account action gave the author"
    )


class LeaseResults(WireModel):
    results: list[LeaseStatus] = Field(max_length=MAX_TOKENS_PER_CALL)
