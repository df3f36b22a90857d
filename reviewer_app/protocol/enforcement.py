"""Enforcement actions: what a platform is to do about its posts and accounts.

Every decision of record (a reviewer's verdict, a lead's decision on an escalation, an
audit overturn) becomes one action, and so does a withdrawal that closed review. A platform
reads its own actions from ``GET /enforcement`` in one total order (``seq``), or receives
them as webhooks; see the README's "Enforcement feed" section.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from .common import HttpUrl, ItemId, Label, PolicyCode, Slug, Timestamp, WireModel
from .intake import ExternalId, WithdrawalReason
from .queues import AuthorAction
from .statements import Statement

MAX_ENFORCEMENT_PAGE = 500
MAX_ENFORCEMENT_WAIT_SECONDS = 30


class EnforcementKind(StrEnum):
    keep = "keep"
    """Reviewed, nothing to do (the post stays as it is)."""
    label = "label"
    """Put the fact-check label on the post (``label`` says which)."""
    reduce = "reduce"
    """Push the post down the feed."""
    label_and_reduce = "label_and_reduce"
    """Label the post and push it down the feed."""
    remove = "remove"
    """Take the post down (``policies`` say why)."""
    restore = "restore"
    """Undo the action ``reverses_action_id`` names: the post goes back to how it was."""
    author_warn = "author:warn"
    author_restrict = "author:restrict"
    author_suspend = "author:suspend"
    author_mark_inauthentic = "author:mark_inauthentic"
    withdrawn = "withdrawn"
    appeal_upheld = "appeal_upheld"
    """Informational: the appeal ``appeal_id`` was decided and the contested decision stands
    (nothing to change; tell the user). A reversed appeal is a ``restore`` with
    ``appeal_id``."""
    """Informational: the platform withdrew the post (deleted or private) and review of it
    ended without a decision (with ``appeal_id``: review of that appeal ended; the appealed
    decision stands)."""


AUTHOR_KINDS = {
    AuthorAction.warn: EnforcementKind.author_warn,
    AuthorAction.restrict: EnforcementKind.author_restrict,
    AuthorAction.suspend: EnforcementKind.author_suspend,
    AuthorAction.mark_inauthentic: EnforcementKind.author_mark_inauthentic,
}
"""The action kind of each account decision."""


class EnforcementLabel(WireModel):
    """The fact-check label to show: the rating and where it comes from."""

    rating: Slug
    rating_label: Label
    organisation: Label | None = Field(
        default=None, description="the fact-checking organisation (None: no fact-check gave it)"
    )
    url: HttpUrl | None = Field(default=None, description="the fact-check article")


class EnforcementAction(WireModel):
    id: int = Field(ge=1, description="the action's stable id (deduplicate by it)")
    seq: int = Field(
        ge=1,
        description="its place in the feed: increasing, never reused; not dense for one "
        "platform (other platforms' actions take numbers too). Resume with after=seq.",
    )
    kind: EnforcementKind
    post_external_id: ExternalId | None = Field(
        default=None,
        description="your id of the post; for author:* actions the post the account was "
        "decided on (None when the decision was about the account alone)",
    )
    author_external_id: ExternalId | None = Field(default=None, description="your id of its author")
    item_id: ItemId | None = Field(default=None, description="the review item it decided")
    decision_id: int | None = Field(
        default=None, ge=1, description="the decision of record (None for a withdrawal)"
    )
    queue_id: Slug | None = None
    config_version: int = Field(
        default=0,
        ge=0,
        description="the queue configuration version it was decided under; 0 when none was "
        "(a withdrawal, which the platform made, or an account action outside any queue)",
    )
    decided_at: Timestamp = Field(
        description="when the decision was recorded (withdrawn: when the withdrawal came in)"
    )
    reverses_action_id: int | None = Field(
        default=None,
        ge=1,
        description="an overturn: the earlier action this one replaces. Undo that action "
        "first, then apply this one (a restore applies nothing more).",
    )
    policies: list[PolicyCode] = Field(default_factory=list, max_length=16)
    label: EnforcementLabel | None = Field(
        default=None, description="label and label_and_reduce: the label to show"
    )
    author_action: AuthorAction | None = Field(
        default=None,
        description="a post action that also acts on the author's account (remove and "
        "restrict, say): apply this to the author as well. author:* kinds act on the "
        "account alone and leave this None.",
    )
    undo_author_action: bool | None = Field(
        default=None,
        description="a reversal (reverses_action_id) of an action that acted on the account "
        "too: true, undo its author_action as well; false, undo the post part only (the "
        "account's status stands: another standing decision restricts it, or an account "
        "action changed it since). None on every other action.",
    )
    reason: WithdrawalReason | None = Field(default=None, description="withdrawn: why")
    appeal_id: ExternalId | None = Field(
        default=None,
        description="the outcome of an appeal you sent (its id): appeal_upheld, the "
        "restore of a reversed appeal, or withdrawn: your withdrawal of the post ended the "
        "appeal undecided",
    )
    statement: Statement | None = Field(
        default=None,
        description="the statement of reasons to give the affected user (DSA Art. 17): on "
        "every restrictive action (remove, reduce, label, label_and_reduce, author:*); "
        "None on keep, restore and withdrawn",
    )


class EnforcementPage(WireModel):
    actions: list[EnforcementAction] = Field(max_length=MAX_ENFORCEMENT_PAGE)
    next_cursor: int = Field(
        ge=0,
        description="pass as after= for the next page: the last action's seq, or the cursor "
        "you sent when the page is empty",
    )
