"""What the store hands out: its records (frozen dataclasses), its errors, and how a
verdict's or a decision's note is dropped when the journal keeps it past its settling."""

from __future__ import annotations

from dataclasses import dataclass

from reviewer_app.protocol import Decision, Item, Verdict, VerdictResult
from reviewer_app.protocol.bulk_decisions import BulkDecisionRequest

from ..errors import CoreError
from .documents import read_document

#: seconds a stored time may lie ahead of where it could legitimately be (float rounding,
#: the moment between reading the clock and writing the row) before it is taken to mean
#: that this computer's clock was set back since it was written
CLOCK_SLACK = 2.0


@dataclass(frozen=True)
class HeldBulk:
    """A lead's bulk decision kept here for the undo window (and until the service answers)."""

    id: str
    request: BulkDecisionRequest
    held_at: float
    due_at: float


class AlreadyDecided(CoreError):
    """The item has a verdict already, or is no longer in the worklist."""


class NothingToUndo(CoreError):
    """No verdict is still inside its undo window."""


@dataclass(frozen=True)
class StoredItem:
    item: Item
    queue_id: str
    lease_token: str
    lease_expires_at: float
    state: str
    lease_lost: bool


@dataclass(frozen=True)
class WorklistRow:
    item_id: str
    queue_id: str
    state: str
    lease_expires_at: float
    lease_lost: bool
    verdict_status: str | None
    action: str | None


@dataclass(frozen=True)
class JournalEntry:
    key: str
    item_id: str
    queue_id: str
    action: str
    verdict: Verdict
    recorded_at: float
    status: str
    result: VerdictResult | None
    settled_at: float | None


@dataclass(frozen=True)
class Conflict:
    key: str
    item_id: str
    item: Item | None
    mine: Verdict
    theirs: Decision
    found_at: float
    resolution: str | None


@dataclass(frozen=True)
class Outgoing:
    key: str
    verdict: Verdict


@dataclass(frozen=True)
class Pending:
    """Verdicts not yet delivered, and how many of them wait because another reviewer holds
    their item for now (sent again until that hold ends or the other decides), with the
    latest end of such a hold the service named (client time; None when it named none)."""

    pending: int
    held: int
    held_until: float | None


@dataclass(frozen=True)
class Renewal:
    """A held lease to renew: its item, token, and the length it was leased for (0 when an
    older release did not record it)."""

    item_id: str
    token: str
    lease_seconds: int


@dataclass(frozen=True)
class OfflineSummary:
    """What a start with no network finds here: verdicts not yet sent, posts to review."""

    unsent: int
    posts: int


@dataclass(frozen=True)
class Counts:
    pending: int
    in_flight: int
    conflicts_open: int
    rejected: int
    ready: dict[str, int]
    #: verdicts waiting because another reviewer holds their item (part of ``pending``)
    held: int = 0


def without_note(verdict_json: str) -> str:
    verdict = read_document(Verdict, verdict_json)
    return (
        verdict.model_copy(update={"note": None}).model_dump_json()
        if verdict.note
        else (verdict_json)
    )


def result_without_note(result: VerdictResult) -> str:
    """The server's answer as the journal keeps it: the winning decision's note dropped."""
    if result.decision is not None and result.decision.note:
        decision = result.decision.model_copy(update={"note": None})
        return result.model_copy(update={"decision": decision}).model_dump_json()
    return result.model_dump_json()


def decision_without_note(decision_json: str) -> str:
    decision = read_document(Decision, decision_json)
    return decision.model_copy(update={"note": None}).model_dump_json()
