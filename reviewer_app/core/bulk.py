"""A lead's bulk decision as the client makes, holds and sends it (Qt-free).

The request is made once, with one idempotency key per item, when the lead confirms. It
is kept in the local store for the undo window (``Store.hold_bulk``), where it can be
taken back; then sent as one call. It leaves the store only when the service answered it:
recorded (every item decided), or refused whole (nothing recorded: ``Refusal`` says which
items and why). A network failure, a busy service or a lapsed login leave it held, and it
is sent again later (the same keys: a retry answers the same decisions). A bulk still
held when the app was killed is sent at the next start, as a verdict in its undo window
is.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from reviewer_app.protocol.bulk_decisions import (
    BulkDecisionRequest,
    BulkItem,
    refused_items,
)
from reviewer_app.protocol.search import SearchHit

from .errors import AuthenticationRequired, ProblemError, ServiceUnavailable


@dataclass(frozen=True)
class Candidate:
    """An item a lead may include in a bulk decision, as a list showed it."""

    item_id: str
    queue_id: str
    excerpt: str = ""
    handle: str = ""


def new_request(
    items: Sequence[Candidate],
    action: str,
    *,
    policies: Sequence[str] = (),
    note: str | None = None,
    rating: str | None = None,
    at: float,
) -> BulkDecisionRequest:
    """The request, each item with a key of its own (made here, once)."""
    return BulkDecisionRequest(
        items=[
            BulkItem(item_id=c.item_id, idempotency_key=uuid.uuid4(), queue_id=c.queue_id)
            for c in items
        ],
        action=action,
        policies=list(policies),
        note=note or None,
        rating=rating,
        decided_at=datetime.fromtimestamp(at, UTC),
    )


OPEN_STATES = frozenset({"pending", "leased"})


def candidates_from_hits(hits: Iterable[SearchHit]) -> tuple[list[Candidate], int]:
    """A lead's selected search hits as a bulk decision's posts: the open ones (each
    once), and how many were left out as decided or closed already."""
    found: list[Candidate] = []
    seen: set[str] = set()
    closed = 0
    for hit in hits:
        if hit.item_id in seen:
            continue
        seen.add(hit.item_id)
        if hit.state not in OPEN_STATES:
            closed += 1
            continue
        found.append(Candidate(hit.item_id, hit.queue_id, hit.excerpt, hit.author_handle))
    return found, closed


@dataclass(frozen=True)
class RefusedItem:
    item_id: str
    code: str
    message: str


#: why a post refused a bulk decision because of what happened to it meanwhile (decided,
#: held or assigned by someone else, moved, withdrawn, closed by an account action): left
#: out of the next try. Any other reason (an action, policy or note the post's queue no
#: longer takes, a retired queue, ...) is the request's: the lead changes it.
TAKEN_MEANWHILE = frozenset(
    {
        "already_decided",
        "leased_to_other",
        "assigned_to_other",
        "moved",
        "withdrawn",
        "author_actioned",
    }
)


@dataclass(frozen=True)
class Refusal:
    """The service refused the whole bulk decision: nothing of it was recorded.
    ``request``: what was refused (the sender adds it: to be opened again)."""

    code: str
    detail: str
    items: tuple[RefusedItem, ...]
    request: BulkDecisionRequest | None = None

    @property
    def taken(self) -> tuple[RefusedItem, ...]:
        """The posts decided or taken by someone else meanwhile."""
        return tuple(i for i in self.items if i.code in TAKEN_MEANWHILE)

    @property
    def not_fitting(self) -> tuple[RefusedItem, ...]:
        """The posts that refused the request itself (its action, policies, note, ...)."""
        return tuple(i for i in self.items if i.code not in TAKEN_MEANWHILE)


def answered(err: BaseException) -> bool:
    """The service answered the request for good (it will not go through if sent again as
    it is): a refusal. A network failure, a busy service or a lapsed login are not."""
    return isinstance(err, ProblemError) and not isinstance(
        err, ServiceUnavailable | AuthenticationRequired
    )


def refusal(err: BaseException) -> Refusal | None:
    """What a refusal says (None for an error that is not the service's refusal)."""
    if not answered(err):
        return None
    assert isinstance(err, ProblemError)
    problem = err.problem
    named = dict(((i, c) for i, c in refused_items(problem.errors)))
    messages = {
        str(e.loc[2]): e.message for e in problem.errors or () if len(e.loc) >= 3
    }  # loc: items, index, item id
    return Refusal(
        problem.code,
        problem.detail or problem.title,
        tuple(RefusedItem(i, c, messages.get(i, "")) for i, c in named.items()),
    )


__all__ = [
    "TAKEN_MEANWHILE",
    "Candidate",
    "Refusal",
    "RefusedItem",
    "answered",
    "candidates_from_hits",
    "new_request",
    "refusal",
]
