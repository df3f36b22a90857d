"""Feedback that reaches reviewers: their own decisions with what became of each, leads'
notes on decisions, and the notice of what came since they last looked."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .common import (
    EXCERPT_CHARS,
    Count,
    Excerpt,
    ItemId,
    Label,
    NoteText,
    Page,
    PolicyCode,
    Slug,
    Timestamp,
    Username,
    WireModel,
)

MY_DECISIONS_MAX_DAYS = 31
"""The furthest back ``GET /me/decisions`` reaches (days before its ``until``)."""

FEEDBACK_REACH_DAYS = MY_DECISIONS_MAX_DAYS - 1
"""The login notice counts feedback on decisions of the last this many days only: those
My decisions can list (a day short of its limit, so clocks a little apart still reach)."""

NOTES_PER_DECISION = 100
"""Leads' notes one decision may carry (a decision's feedback list holds at most 200)."""

FEEDBACK_PER_DECISION = 200
"""Feedback listed with one decision at most: the newest when there were more."""


class DecisionOutcome(StrEnum):
    """What became of a decision, the latest word first: an appeal's outcome, else the
    audit's, else it stands as it was accepted."""

    accepted = "accepted"
    confirmed = "confirmed"
    """an auditor agreed with it"""
    overturned = "overturned"
    """an auditor overturned it (the auditor's note is in its feedback)"""
    appealed = "appealed"
    """the user appealed it and no one has decided the appeal yet"""
    appeal_upheld = "appeal_upheld"
    appeal_reversed = "appeal_reversed"


class FeedbackKind(StrEnum):
    audit = "audit"
    """an auditor's result (agree or overturn) with the auditor's note"""
    appeal = "appeal"
    """an appeal's outcome"""
    note = "note"
    """a lead's note on the decision"""


class Feedback(WireModel):
    kind: FeedbackKind
    at: Timestamp = Field(description="when it was recorded")
    by: Username | None = Field(default=None, description="the auditor's or lead's username")
    by_display_name: Label | None = None
    outcome: DecisionOutcome | None = Field(
        default=None, description="audit and appeal: what it made of the decision"
    )
    action: Slug | None = Field(
        default=None, description="an overturn or reversal: the action that replaced it"
    )
    note: NoteText | None = Field(
        default=None, description="the auditor's or lead's note (untrusted text)"
    )


class MyDecision(WireModel):
    """One of the caller's own decisions with what became of it."""

    id: int = Field(ge=1)
    item_id: ItemId
    excerpt: Excerpt = Field(
        default="", description=f"the post's text, cut to {EXCERPT_CHARS} characters"
    )
    queue_id: Slug
    action: Slug
    policies: list[PolicyCode] = Field(default_factory=list, max_length=16)
    rating: Slug | None = None
    time_spent_ms: Count
    decided_at: Timestamp = Field(description="when the service received it")
    made_at: Timestamp | None = Field(
        default=None,
        description="when the reviewer made it, by their device's clock (it may have been "
        "sent later, from offline work)",
    )
    outcome: DecisionOutcome
    feedback: list[Feedback] = Field(default_factory=list, max_length=FEEDBACK_PER_DECISION)
    lead_action: Slug | None = Field(
        default=None,
        description="an escalation: the action of the lead's decision on the escalated post "
        "(None while no one has decided it)",
    )
    lead_decided_at: Timestamp | None = None


class MyDecisionPage(Page):
    """The caller's decisions, newest first."""

    decisions: list[MyDecision] = Field(max_length=500)


class DecisionNoteCreate(WireModel):
    note: NoteText = Field(min_length=1, description="to the decision's reviewer")


class DecisionNote(WireModel):
    id: int = Field(ge=1)
    decision_id: int = Field(ge=1)
    reviewer: Username = Field(description="the decision's reviewer, who reads it")
    author: Username = Field(description="the lead who wrote it")
    author_display_name: Label
    note: NoteText
    created_at: Timestamp


class DecisionNoteList(WireModel):
    notes: list[DecisionNote] = Field(max_length=FEEDBACK_PER_DECISION)


class FeedbackNotice(WireModel):
    """What reached the caller's decisions since they last marked their feedback seen."""

    overturned: Count = Field(
        description="decisions overturned in an audit or reversed on appeal since seen_at"
    )
    notes: Count = Field(description="leads' notes on the caller's decisions since seen_at")
    seen_at: Timestamp | None = Field(
        default=None, description="when the caller last marked it seen (None: never)"
    )
    as_of: Timestamp = Field(description="pass this back to POST /me/feedback/seen")
    oldest: Timestamp | None = Field(
        default=None,
        description="the earliest decided_at of the decisions the counted feedback is on: "
        f"a My decisions window from here shows it all (only decisions of the last "
        f"{FEEDBACK_REACH_DAYS} days are counted)",
    )


class FeedbackSeen(WireModel):
    until: Timestamp = Field(description="the as_of of the notice the caller saw")
    shown_since: Timestamp | None = Field(
        default=None,
        description="the caller was shown their decisions with decided_at from here on: "
        "feedback on earlier ones stays unseen (None: all of it was shown)",
    )
