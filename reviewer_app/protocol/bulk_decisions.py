"""Bulk decisions (leads): one action on many items at once, for spam waves and networks.

Each item is still its own decision, with its own idempotency key, its own event and its
own enforcement action; the service records them all in one transaction or none. An item
that cannot be decided now (decided meanwhile, leased to someone else, withdrawn, closed
by an account action, not fitting its queue's decision config) makes the whole request
refuse: a 409 problem ``bulk_refused`` (or 422 ``verdict_invalid`` for the config) whose
``errors`` name each such item: ``loc`` is ``["items", index, item_id]``, ``code`` says
why (:data:`REFUSAL_CODES`).

A retry of the same request (the same keys and body) returns the same decisions, each
``duplicate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from pydantic import Field

from .common import (
    EXCERPT_CHARS,
    Count,
    Excerpt,
    ItemId,
    Label,
    NoteText,
    PolicyCodes,
    ProblemDetail,
    ShortText,
    Slug,
    Timestamp,
    WireModel,
)
from .queues import AuthorAction
from .verdicts import VerdictResult

MAX_BULK_ITEMS = 1_000
MAX_OPEN_ITEMS_LISTED = 1_000

BULK_REFUSED = "bulk_refused"
DUPLICATE_ITEMS = "duplicate_items"
#: why an item refused a bulk decision (a ProblemDetail's ``code``)
REFUSAL_CODES = (
    "already_decided",  # decided (or escalated) since the lead listed it
    "leased_to_other",  # someone else holds it under a live lease
    "assigned_to_other",  # an escalation assigned to another lead
    "withdrawn",  # the platform withdrew the post
    "author_actioned",  # an account action closed it
    "unknown_item",
    "conflict_of_interest",  # an appeal of the lead's own decision
    "no_appeal",
    "moved",  # escalated (or moved) to another queue since the lead listed it
    "queue_closed",  # its queue is retired
)


class BulkItem(WireModel):
    item_id: ItemId
    idempotency_key: UUID = Field(description="one per item, made by the client once")
    queue_id: Slug | None = Field(
        default=None,
        description="the queue the lead saw it in: an item escalated since refuses (moved)",
    )


class BulkDecisionRequest(WireModel):
    """One action (with its policies, rating and note) on each item, all or none."""

    items: list[BulkItem] = Field(min_length=1, max_length=MAX_BULK_ITEMS)
    action: Slug = Field(description="an action of every item's queue config (by id)")
    policies: PolicyCodes = Field(default_factory=list)
    rating: Slug | None = None
    note: NoteText | None = None
    author_action: AuthorAction | None = Field(
        default=None, description="an action on each item's author, as in a verdict"
    )
    decided_at: Timestamp = Field(description="the client's clock when the lead confirmed")


class BulkDecisionResults(WireModel):
    """A result per item, in the request's order: ``accepted`` (or ``duplicate`` on a
    retry), each with its decision."""

    results: list[VerdictResult] = Field(max_length=MAX_BULK_ITEMS)
    queue_ids: list[Slug] = Field(default_factory=list, max_length=64)


class OpenItem(WireModel):
    """An undecided item of an author, as a lead picks it for a bulk decision."""

    item_id: ItemId
    queue_id: Slug
    author_id: Label
    handle: ShortText
    excerpt: Excerpt = Field(description=f"the post's text, cut to {EXCERPT_CHARS} characters")
    enqueued_at: Timestamp
    leased_to_other: bool = Field(
        default=False, description="someone else holds it now: a bulk decision would refuse"
    )


class OpenItems(WireModel):
    """``GET /authors/{author_id}/open-items``: the open items of the author (and of the
    accounts linked to them, with ``linked=true``), oldest first."""

    author_ids: list[Label] = Field(max_length=101)
    items: list[OpenItem] = Field(max_length=MAX_OPEN_ITEMS_LISTED)
    more: Count = Field(default=0, description="open items left out of this list")


def repeated(request: BulkDecisionRequest) -> list[ProblemDetail]:
    """Items or keys named more than once (a 422 ``duplicate_items``: a constraint across
    the list's elements that no schema states)."""
    seen_items: set[str] = set()
    seen_keys: set[str] = set()
    found = []
    for index, item in enumerate(request.items):
        key = str(item.idempotency_key)
        if item.item_id in seen_items:
            found.append(
                ProblemDetail(
                    loc=["items", index, item.item_id],
                    code="item_repeated",
                    message="Each item may be named once.",
                )
            )
        elif key in seen_keys:
            found.append(
                ProblemDetail(
                    loc=["items", index, item.item_id],
                    code="key_repeated",
                    message="Each item needs its own idempotency key.",
                )
            )
        seen_items.add(item.item_id)
        seen_keys.add(key)
    return found


def refused_items(errors: Sequence[ProblemDetail] | None) -> list[tuple[str, str]]:
    """The (item id, code) pairs a refusal names (its ``loc`` is ``items, index, id``)."""
    found = []
    for error in errors or ():
        if len(error.loc) >= 3 and error.loc[0] == "items":
            found.append((str(error.loc[2]), error.code or ""))
    return found


__all__ = [
    "BULK_REFUSED",
    "DUPLICATE_ITEMS",
    "EXCERPT_CHARS",
    "MAX_BULK_ITEMS",
    "REFUSAL_CODES",
    "BulkDecisionRequest",
    "BulkDecisionResults",
    "BulkItem",
    "OpenItem",
    "OpenItems",
    "refused_items",
    "repeated",
]
