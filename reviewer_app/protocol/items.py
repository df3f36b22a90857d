"""An item under review, whole: post, author, thread, reach, reports, scores, history."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError

from .accounts import MAX_LINKED, AuthorStatus, LinkedAccount
from .common import (
    Count,
    Fraction,
    HttpUrl,
    ItemId,
    JsonFloat,
    JsonInt,
    Label,
    Language,
    LongText,
    MediaId,
    NoteText,
    PolicyCode,
    ShortText,
    Slug,
    Timestamp,
    Username,
    WireModel,
)
from .events import Event
from .statements import Statement
from .verdicts import Decision


class MediaKind(StrEnum):
    image = "image"
    gif = "gif"
    video = "video"


class Media(WireModel):
    id: MediaId
    kind: MediaKind
    mime_type: str = Field(pattern=r"^(image|video)/[a-z0-9.+-]{1,40}$")
    size_bytes: Count
    width: int | None = Field(default=None, ge=1, le=100_000)
    height: int | None = Field(default=None, ge=1, le=100_000)
    alt_text: ShortText = ""
    sensitive: bool = False


class LinkPreview(WireModel):
    url: HttpUrl
    domain: ShortText
    title: ShortText = ""
    description: ShortText = ""


class Post(WireModel):
    id: Label
    text: LongText
    language: Language
    created_at: Timestamp
    url: HttpUrl
    media: list[Media] = Field(default_factory=list, max_length=16)
    link_preview: LinkPreview | None = None


class StrikeCount(WireModel):
    policy: PolicyCode
    count: Count
    last_at: Timestamp


class AuthorDecision(WireModel):
    item_id: ItemId
    action: Slug
    policies: list[PolicyCode] = Field(default_factory=list, max_length=16)
    decided_at: Timestamp


class AccountSignals(WireModel):
    """Signals for inauthentic-account review."""

    posts_per_day: JsonFloat = Field(ge=0, le=1_000_000)
    shared_signal_accounts: list[ShortText] = Field(default_factory=list, max_length=100)
    signals: list[ShortText] = Field(default_factory=list, max_length=32)
    inauthenticity_score: Fraction = 0.0


class Author(WireModel):
    id: Label
    handle: ShortText
    display_name: ShortText
    account_created_at: Timestamp
    followers: Count
    following: Count
    verified: bool
    bio: ShortText = ""
    strikes: list[StrikeCount] = Field(default_factory=list, max_length=64)
    recent_decisions: list[AuthorDecision] = Field(default_factory=list, max_length=20)
    signals: AccountSignals
    status: AuthorStatus = Field(
        default=AuthorStatus.active,
        description="what account actions made of the account (suspended and inauthentic "
        "accounts' open items are closed, their new posts held back)",
    )
    linked: list[LinkedAccount] = Field(
        default_factory=list,
        max_length=MAX_LINKED,
        description="accounts sharing account signals with this one (either names the "
        "other in shared_signal_accounts), with their status and open items",
    )


class ThreadPost(WireModel):
    id: Label
    author_handle: ShortText
    text: LongText
    language: Language
    created_at: Timestamp


class Thread(WireModel):
    parents: list[ThreadPost] = Field(default_factory=list, max_length=20, description="root first")
    replies: list[ThreadPost] = Field(default_factory=list, max_length=20)
    reply_count: Count = 0


class Reach(WireModel):
    views: Count
    shares: Count
    likes: Count = 0
    views_last_hour: Count = 0
    growth_per_hour: JsonFloat = Field(default=0.0, ge=-1.0, le=1_000_000.0)


class ReportReasonCount(WireModel):
    reason: Slug
    count: Count


class ReporterNote(WireModel):
    reason: Slug
    note: NoteText
    created_at: Timestamp


class Reports(WireModel):
    total: Count = 0
    by_reason: list[ReportReasonCount] = Field(default_factory=list, max_length=32)
    notes: list[ReporterNote] = Field(default_factory=list, max_length=20)


class QueueReasonKind(StrEnum):
    classifier = "classifier"
    user_reports = "user_reports"
    fact_check = "fact_check"
    appeal = "appeal"
    escalation = "escalation"


class QueueReason(WireModel):
    """Why the item is queued: ``detail`` in English words; for a classifier's score or a
    count of reports the parts too, for a client to say it in its user's language."""

    kind: QueueReasonKind
    detail: ShortText = ""
    subject: ShortText | None = Field(
        default=None,
        description="the names the reason is about, as data: a classifier's model, version "
        "and label; the reports' reason (None: reports of any reason, or an account's "
        "inauthenticity score)",
    )
    score: Fraction | None = Field(default=None, description="the score that met the rule")
    threshold: Fraction | None = Field(default=None, description="the rule's least score")
    count: Count | None = Field(default=None, description="the reports that met the rule")
    since_kept: bool = Field(
        default=False,
        description="the post was decided keep and came back: ``count`` reports or the "
        "rating ``subject`` came in since",
    )


class Span(WireModel):
    start: JsonInt = Field(
        ge=0, le=100_000, description="offset into the post text in Unicode code points"
    )
    end: JsonInt = Field(ge=0, le=100_000)
    label: ShortText = ""

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.end < self.start:
            # a code of its own: a constraint between two fields, which no schema states
            raise PydanticCustomError("span_order", "span end must not be before its start")
        return self


class ClassifierScore(WireModel):
    model: Label
    model_version: Label
    label: Label
    score: Fraction
    threshold: Fraction
    spans: list[Span] = Field(default_factory=list, max_length=64)


class FactCheck(WireModel):
    rating: Slug
    rating_label: Label
    organisation: Label
    url: HttpUrl
    claim: ShortText
    published_at: Timestamp


MAX_ITEM_STATEMENTS = 20

ItemState = Literal["pending", "leased", "decided", "withdrawn", "resolved", "unservable"]
"""``withdrawn``: the post was deleted or made private upstream; it left review undecided.
``resolved``: closed by an account action (its author was suspended or marked inauthentic);
it left review undecided. ``unservable``: its stored document could not be served to a
reviewer (a claim left it out); parked, never offered again, until an operator repairs it."""


AppealOutcome = Literal["upheld", "reversed", "withdrawn"]
"""``withdrawn``: the platform withdrew the post (deleted or private) while its appeal
waited; the appeal ended undecided and the contested decision stands."""


class ItemAppeal(WireModel):
    """The appeal an item in the appeals queue is there for: what the user wrote against
    the decision (``contested``), which the reviewer upholds or reverses."""

    id: str = Field(
        pattern=r"^[A-Za-z0-9_.:@/+=-]{1,200}$", description="the platform's id of the appeal"
    )
    statement: str = Field(
        max_length=10_000, pattern=r"^[^\x00]*$", description="the user's words (plain text)"
    )
    submitted_at: Timestamp = Field(description="when the user made the appeal")
    received_at: Timestamp
    subject: Literal["post", "account"] = Field(
        description="what the user appeals: the decision on the post, or the account action"
    )
    contested: Decision = Field(description="the decision the user contests")
    outcome: AppealOutcome | None = Field(default=None, description="None while undecided")
    outcome_decision_id: int | None = Field(default=None, ge=1)
    account_stays: Literal["", "warned", "restricted", "suspended", "inauthentic"] | None = Field(
        default=None,
        description="what reversing the contested decision would leave its author's account "
        "with, when it was read (for the statement's preview; ``statements.lift`` takes it): "
        "None when the reversal puts the account back (or the decision did not act on it); "
        "an empty string when the account stays as it is (other decisions impose as much); "
        "a status when the account goes back to what another decision imposes",
    )


class ItemEscalation(WireModel):
    """An item in the escalation queue: who sent it up, when and why, and which lead it is
    assigned to. ``escalated_by`` None: no reviewer did (routed by a triage rule, see the
    item's reasons)."""

    escalated_by: Username | None = None
    escalated_at: Timestamp | None = None
    from_queue_id: Slug | None = Field(default=None, description="the queue it came from")
    decision_id: int | None = Field(default=None, ge=1, description="the escalating decision")
    reason: Slug | None = Field(
        default=None, description="one of the from-queue's escalation reasons (None: none given)"
    )
    reason_label: ShortText | None = Field(
        default=None, description="the reason's label when it was given"
    )
    note: NoteText | None = Field(default=None, description="what the reviewer added")
    assigned_to: Username | None = Field(default=None, description="the lead it is assigned to")
    assigned_at: Timestamp | None = None
    assigned_by: Username | None = None


class Item(WireModel):
    id: ItemId
    queue_id: Slug
    origin_queue_id: Slug
    state: ItemState
    enqueued_at: Timestamp
    post: Post
    author: Author
    thread: Thread
    reach: Reach
    reports: Reports
    reasons: list[QueueReason] = Field(min_length=1, max_length=8)
    scores: list[ClassifierScore] = Field(default_factory=list, max_length=16)
    fact_checks: list[FactCheck] = Field(default_factory=list, max_length=16)
    history: list[Event] = Field(default_factory=list, max_length=200)
    decision: Decision | None = Field(default=None, description="the decision of record, if any")
    appeal: ItemAppeal | None = Field(
        default=None, description="the item's latest appeal (appeals queue), if any"
    )
    escalation: ItemEscalation | None = Field(
        default=None,
        description="an item in the escalation queue: who escalated it, when, why, and to "
        "whom it is assigned",
    )
    statements: list[Statement] = Field(
        default_factory=list,
        max_length=MAX_ITEM_STATEMENTS,
        description="the statements of reasons earlier restrictive decisions on this post gave "
        "its author, oldest first (the newest MAX_ITEM_STATEMENTS)",
    )
