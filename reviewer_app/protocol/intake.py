"""Intake: what a platform (or a fact-checker) sends in, and what it gets back.

Every element is idempotent: a post by its platform id (``external_id``, unique per
platform account), a signal by its own ``id``, a withdrawal by the post it names, a media
upload by its bytes. A batch whose shape is wrong is refused whole (422 naming the element
and the field); a well-formed batch gets one result per element, in order.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, ConfigDict, Field, StringConstraints, model_validator
from pydantic_core import PydanticCustomError

from .common import (
    MAX_LABEL,
    Count,
    Fraction,
    HttpUrl,
    JsonBool,
    KeyRole,
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
from .items import AccountSignals, LinkPreview, Reach, Span, Thread
from .statements import clean_text

MAX_INTAKE_BATCH = 500
MAX_MEDIA_BYTES = 8 * 1024 * 1024


def _visible(claim: str) -> str:
    """A claim of bidi controls or zero-width characters alone reads as blank (and its
    statement of reasons would cite nothing): refused as spaces are."""
    if not clean_text(claim):
        raise PydanticCustomError(
            "blank_claim", "the claim is blank: only spaces or invisible characters"
        )
    return claim


Claim = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_LABEL, pattern=r"^[^\x00]*[^\s\x00][^\x00]*$"),
    AfterValidator(_visible),
    Field(description="the claim the rating reviewed (not blank, nor invisible characters only)"),
]

ExternalId = Annotated[
    str, Field(pattern=r"^[A-Za-z0-9_.:@/+=-]{1,200}$", description="the platform's own id")
]


class IntakeStrike(WireModel):
    """An enforcement the platform took on the author before (counts as a prior strike)."""

    policy: PolicyCode
    at: Timestamp


class IntakeAuthor(WireModel):
    """The post's author as the platform knows them; upserted by ``external_id``."""

    external_id: ExternalId
    handle: ShortText
    display_name: ShortText = ""
    account_created_at: Timestamp
    followers: Count = 0
    following: Count = 0
    verified: JsonBool = False
    bio: ShortText = ""
    signals: AccountSignals | None = None
    prior_strikes: list[IntakeStrike] = Field(default_factory=list, max_length=64)


class IntakeMedia(WireModel):
    """A media file uploaded before (``POST /intake/media``), attached to the post."""

    media_id: MediaId
    alt_text: ShortText = ""
    sensitive: JsonBool = False


class IntakePost(WireModel):
    """A post, new or a new version of one already sent (edited upstream).

    A post withdrawn upstream (``POST /intake/withdrawals``) is not revived by a replay: a
    post ``deleted`` never comes back (sent again with the same content it is
    ``unchanged``, with other content ``rejected``, code ``post_deleted``); a post made
    ``private`` comes back only when sent with an ``updated_at`` later than its withdrawal
    (the withdrawal's ``at``, or when the service received it), else it is ``unchanged``.
    """

    external_id: ExternalId
    text: LongText
    language: Language
    created_at: Timestamp
    url: HttpUrl
    author: IntakeAuthor
    link_preview: LinkPreview | None = None
    thread: Thread = Thread()
    reach: Reach = Reach(views=0, shares=0)
    media: list[IntakeMedia] = Field(default_factory=list, max_length=16)
    updated_at: Timestamp | None = Field(
        default=None,
        description="when the platform last changed the post: edited, or made public again "
        "(a post made private comes back only with one later than its withdrawal)",
    )


class PostBatch(WireModel):
    posts: list[IntakePost] = Field(min_length=1, max_length=MAX_INTAKE_BATCH)


class SignalKind(StrEnum):
    classifier = "classifier"
    report = "report"
    fact_check = "fact_check"


def _kind_required(schema: dict[str, Any]) -> None:
    """``kind`` tells the signals apart: the wire requires it, though Python code that
    builds a signal need not name it."""
    schema["required"] = sorted({*schema.get("required", []), "kind"})


class ClassifierSignal(WireModel):
    model_config = ConfigDict(json_schema_extra=_kind_required)

    kind: Literal["classifier"] = "classifier"
    id: ExternalId = Field(description="the signal's own idempotency id")
    post_external_id: ExternalId
    model: Slug
    model_version: Label
    label: Slug
    score: Fraction
    threshold: Fraction
    spans: list[Span] = Field(default_factory=list, max_length=64)


class ReportSignal(WireModel):
    model_config = ConfigDict(json_schema_extra=_kind_required)

    kind: Literal["report"] = "report"
    id: ExternalId
    post_external_id: ExternalId
    reason: Slug
    note: NoteText = ""
    reporter_id: ExternalId | None = Field(
        default=None, description="stored only as a keyed hash (to count distinct reporters)"
    )
    created_at: Timestamp | None = None


class FactCheckSignal(WireModel):
    """A fact-check rating relayed by the platform (``organisation`` named), or sent by a
    fact-checker key (its organisation is the key's account; ``organisation`` is ignored)."""

    model_config = ConfigDict(json_schema_extra=_kind_required)

    kind: Literal["fact_check"] = "fact_check"
    id: ExternalId
    post_external_id: ExternalId
    organisation: Label
    rating: Slug
    claim: ShortText
    url: HttpUrl
    published_at: Timestamp


Signal = Annotated[ClassifierSignal | ReportSignal | FactCheckSignal, Field(discriminator="kind")]


class SignalBatch(WireModel):
    signals: list[Signal] = Field(min_length=1, max_length=MAX_INTAKE_BATCH)


class WithdrawalReason(StrEnum):
    deleted = "deleted"
    private = "private"


class Withdrawal(WireModel):
    """The post was deleted or made private upstream: its open items leave review."""

    post_external_id: ExternalId
    reason: WithdrawalReason
    at: Timestamp | None = None


class WithdrawalBatch(WireModel):
    withdrawals: list[Withdrawal] = Field(min_length=1, max_length=MAX_INTAKE_BATCH)


class FactCheckRating(WireModel):
    """A fact-checker's rating of a post (``post_external_ids``) or of a claim that posts
    repeat; the organisation is the fact-checker key's account.

    The rating goes on every named post that the service has and that is not withdrawn:
    the posts of that id sent by the platform account ``source``, or by any platform
    account when ``source`` is not given (a fact-checker knows the platform's post ids,
    not which of the platform's feeds brought a post in). A named post the service does
    not have yet gets it when it arrives. A rating whose ``rating`` is not on any queue's
    scale is rejected, and so is one whose ``published_at`` is more than 300 s after the
    service's clock (``published_in_future``; a platform's relay alike).
    """

    id: ExternalId
    post_external_ids: list[ExternalId] = Field(default_factory=list, max_length=100)
    source: Username | None = Field(
        default=None,
        description="the platform account whose post ids these are (any, when not given)",
    )
    rating: Slug
    claim: Claim
    url: HttpUrl
    published_at: Timestamp


class FactCheckBatch(WireModel):
    ratings: list[FactCheckRating] = Field(min_length=1, max_length=MAX_INTAKE_BATCH)


MAX_APPEAL_STATEMENT = 10_000

AppealStatement = Annotated[
    str,
    StringConstraints(max_length=MAX_APPEAL_STATEMENT, pattern=r"^[^\x00]*$"),
    Field(description="the user's own words: shown to the appeal's reviewer as plain text"),
]


class Appeal(WireModel):
    """A user's appeal of the decision on their post, or on their account, as the platform
    relays it. Name the post (``post_external_id``) or, for an account action, the author
    (``author_external_id``): exactly one. The service attaches it to the decision of
    record it contests (the latest restrictive one) and queues it in the appeals queue.
    Idempotent by ``id``."""

    id: ExternalId = Field(description="your id of the appeal (its idempotency id)")
    post_external_id: ExternalId | None = None
    author_external_id: ExternalId | None = None
    statement: AppealStatement
    submitted_at: Timestamp = Field(description="when the user made the appeal")

    @model_validator(mode="after")
    def _one_subject(self) -> Appeal:
        if (self.post_external_id is None) == (self.author_external_id is None):
            raise PydanticCustomError(
                "appeal_subject", "name exactly one of post_external_id and author_external_id"
            )
        return self


class AppealBatch(WireModel):
    appeals: list[Appeal] = Field(min_length=1, max_length=MAX_INTAKE_BATCH)


class IntakeStatus(StrEnum):
    created = "created"
    """New: a post stored (and queued, when a rule routed it), a signal counted."""
    updated = "updated"
    """A post's new version stored (its open item shows it)."""
    unchanged = "unchanged"
    """Sent before with the same content: nothing changed (a replay)."""
    rejected = "rejected"
    """Not applied; ``reason`` says why (the rest of the batch was)."""


class IntakeReason(WireModel):
    code: Slug
    message: ShortText


class IntakeResult(WireModel):
    external_id: ExternalId = Field(description="the post's, the signal's or the appeal's id")
    status: IntakeStatus
    item_ids: list[str] = Field(
        default_factory=list, max_length=8, description="items opened or touched"
    )
    queue_ids: list[Slug] = Field(default_factory=list, max_length=8)
    reason: IntakeReason | None = None


class IntakeResults(WireModel):
    results: list[IntakeResult] = Field(max_length=MAX_INTAKE_BATCH)


class MediaUploaded(WireModel):
    media_id: MediaId
    mime_type: str
    size_bytes: Count
    sha256: str = Field(pattern=r"^[0-9a-f]{64}$")


class FactCheckRecord(WireModel):
    """A rating as stored, read back by the fact-checker that sent it."""

    id: ExternalId
    organisation: Label
    post_external_ids: list[ExternalId] = Field(default_factory=list, max_length=100)
    source: Username | None = None
    rating: Slug
    claim: ShortText
    url: HttpUrl
    published_at: Timestamp
    received_at: Timestamp


class FactCheckPage(WireModel):
    ratings: list[FactCheckRecord] = Field(max_length=1_000)
    next_cursor: str | None = Field(default=None, max_length=512)


class ApiKeyInfo(WireModel):
    """An API key as listed: never the key itself."""

    id: int = Field(ge=1)
    name: Label
    account: Label
    role: Slug
    prefix: ShortText = Field(description="the key's first characters, to tell keys apart")
    created_at: Timestamp
    last_used_at: Timestamp | None = None
    revoked_at: Timestamp | None = None


class ApiKeyCreated(WireModel):
    info: ApiKeyInfo
    key: str = Field(
        pattern=r"^rdk_[A-Za-z0-9_-]{43}$",
        description="shown once; the service keeps only its hash",
    )


class ApiKeyCreate(WireModel):
    """A new key for a service account, made if missing. A second key for an account that
    has one is how a key is rotated: both are live until the old one is revoked."""

    role: KeyRole
    name: Label = Field(description="the key's name, e.g. feed-bridge")
    account: Username | None = Field(
        default=None, description="the service account (default: the key's name)"
    )
    display_name: Label | None = Field(
        default=None,
        description="the account's name as people read it, e.g. a fact-checker's "
        "organisation (default: the account's username); given for an existing account, "
        "renames it: earlier ratings keep the name they came with",
    )


class ApiKeyList(WireModel):
    keys: list[ApiKeyInfo] = Field(max_length=10_000)


__all__ = [
    "MAX_APPEAL_STATEMENT",
    "MAX_INTAKE_BATCH",
    "MAX_MEDIA_BYTES",
    "ApiKeyCreate",
    "ApiKeyCreated",
    "ApiKeyInfo",
    "ApiKeyList",
    "Appeal",
    "AppealBatch",
    "ClassifierSignal",
    "ExternalId",
    "FactCheckBatch",
    "FactCheckPage",
    "FactCheckRating",
    "FactCheckRecord",
    "FactCheckSignal",
    "IntakeAuthor",
    "IntakeMedia",
    "IntakePost",
    "IntakeReason",
    "IntakeResult",
    "IntakeResults",
    "IntakeStatus",
    "IntakeStrike",
    "MediaUploaded",
    "PostBatch",
    "ReportSignal",
    "Signal",
    "SignalBatch",
    "SignalKind",
    "Withdrawal",
    "WithdrawalBatch",
    "WithdrawalReason",
]
