"""Queues and their decision configuration."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, model_validator

from .common import Count, Label, PolicyCode, ShortText, Slug, WireModel
from .wellbeing import BreakRule, HarmKind


class AuthorAction(StrEnum):
    warn = "warn"
    restrict = "restrict"
    suspend = "suspend"
    mark_inauthentic = "mark_inauthentic"


class ActionKind(StrEnum):
    keep = "keep"
    label = "label"
    label_and_reduce = "label_and_reduce"
    """Label with the fact-check rating and push the post down the feed, in one verdict."""
    reduce = "reduce"
    remove = "remove"
    author = "author"
    escalate = "escalate"
    uphold = "uphold"
    """Appeals queues only: the contested decision stands (give the reason in the note)."""
    reverse = "reverse"
    """Appeals queues only: the contested decision is undone; this becomes the decision of
    record and the platform is told to reverse what it did (``restore``)."""


class ActionConfig(WireModel):
    id: Slug
    label: Label
    kind: ActionKind
    key: str | None = Field(default=None, pattern=r"^[1-9]$", description="default shortcut")
    requires_policy: bool = False
    requires_note: bool = False
    requires_rating: bool = False
    author_action: AuthorAction | None = Field(
        default=None, description="the action on the author that this action implies"
    )
    strike: bool = Field(default=False, description="counts as a strike on the author")


class StatementCategory(StrEnum):
    """The DSA Transparency Database's statement categories (``category`` without its
    ``STATEMENT_CATEGORY_`` prefix, lower case): what kind of problem a policy is. The
    database's list since its 1 July 2025 schema (``app/Models/Statement.php``).

    The four categories it removed are still read (queue files and stored configurations
    name them), as their nearest new category (``RENAMED_CATEGORIES``)."""

    animal_welfare = "animal_welfare"
    consumer_information = "consumer_information"
    cyber_violence = "cyber_violence"
    cyber_violence_against_women = "cyber_violence_against_women"
    data_protection_and_privacy_violations = "data_protection_and_privacy_violations"
    illegal_or_harmful_speech = "illegal_or_harmful_speech"
    intellectual_property_infringements = "intellectual_property_infringements"
    negative_effects_on_civic_discourse_or_elections = (
        "negative_effects_on_civic_discourse_or_elections"
    )
    not_specified_notice = "not_specified_notice"
    other_violation_tc = "other_violation_tc"
    protection_of_minors = "protection_of_minors"
    risk_for_public_security = "risk_for_public_security"
    scams_and_fraud = "scams_and_fraud"
    self_harm = "self_harm"
    unsafe_and_prohibited_products = "unsafe_and_prohibited_products"
    violence = "violence"

    @classmethod
    def _missing_(cls, value: object) -> StatementCategory | None:
        renamed = RENAMED_CATEGORIES.get(value) if isinstance(value, str) else None
        return cls(renamed) if renamed is not None else None


RENAMED_CATEGORIES: dict[str, str] = {
    "pornography_or_sexualized_content": "other_violation_tc",
    "non_consensual_behaviour": "cyber_violence",
    "scope_of_platform_service": "other_violation_tc",
    "unsafe_and_illegal_products": "unsafe_and_prohibited_products",
}
"""The categories the Transparency Database removed (1 July 2025) and the category each is
read as: adult sexual material and nudity are now keywords of "other violation of the
provider's terms and conditions", non-consensual image sharing, bullying and stalking of
"cyber violence"; the other two were renamed."""


class PolicyConfig(WireModel):
    """A policy code. Each needs its ground for statements of reasons: ``terms_clause`` (the
    clause of the platform's terms it enforces) or ``legal_ground`` (the law that makes the
    content illegal), not both, and its DSA ``category`` (``queues apply`` refuses a policy
    without them)."""

    code: PolicyCode
    label: Label
    description: ShortText = ""
    terms_clause: ShortText | None = Field(
        default=None, description="the terms clause it enforces (ground: incompatible content)"
    )
    legal_ground: ShortText | None = Field(
        default=None, description="the law it enforces (ground: illegal content)"
    )
    category: StatementCategory | None = Field(
        default=None, description="its DSA Transparency Database statement category"
    )
    harm: list[HarmKind] = Field(
        default_factory=list,
        max_length=len(HarmKind),
        description="the kinds of harm a post this policy is cited on exposes the reviewer to "
        "(besides the queue's own harm)",
    )


class RatingConfig(WireModel):
    id: Slug
    label: Label
    reduces: bool = Field(
        default=False,
        description="applying this rating also reduces distribution: it is given with a "
        "label_and_reduce action, not a label alone (false, partly false); a rating that "
        "does not reduce is given with a label alone, never with label_and_reduce",
    )


class ClassifierCondition(WireModel):
    """A classifier's newest score on the post, at or over ``min_score``."""

    model: Slug | None = Field(default=None, description="any model when not given")
    label: Slug | None = Field(default=None, description="any label when not given")
    min_score: float = Field(ge=0, le=1)


class ReportCondition(WireModel):
    """At least ``min_count`` user reports (with this reason, or any reason)."""

    reason: Slug | None = None
    min_count: int = Field(ge=1, le=1_000_000)


class FactCheckCondition(WireModel):
    """A fact-check with one of these ratings."""

    ratings: list[Slug] = Field(min_length=1, max_length=16)


class AccountCondition(WireModel):
    """The author's inauthenticity score at or over ``min_score``."""

    min_score: float = Field(ge=0, le=1)


class RoutingRule(WireModel):
    """Signals that route a post into this queue: a rule matches when any one of its
    conditions holds. Queues are tried in their order; the first match takes the post."""

    name: Slug
    classifier: list[ClassifierCondition] = Field(default_factory=list, max_length=16)
    reports: list[ReportCondition] = Field(default_factory=list, max_length=16)
    fact_check: FactCheckCondition | None = None
    account: AccountCondition | None = None

    @model_validator(mode="after")
    def _some_condition(self) -> RoutingRule:
        if not (self.classifier or self.reports or self.fact_check or self.account):
            raise ValueError("a routing rule needs at least one condition")
        return self


class RereviewRule(WireModel):
    """When a post decided ``keep`` in this queue comes back for review (a removed post
    never does): ``new_reports`` more reports since the decision, or a new fact-check
    with one of ``new_ratings``."""

    new_reports: int | None = Field(default=None, ge=1, le=1_000_000)
    new_ratings: list[Slug] = Field(default_factory=list, max_length=16)


class PriorityWeights(WireModel):
    """How a queue orders its pending items: higher first.

    priority = score * max classifier score + reports * ln(1 + reports)
             + reach * ln(1 + views) + age * hours waiting
    """

    score: float = Field(default=1.0, ge=0, le=1_000)
    reports: float = Field(default=0.0, ge=0, le=1_000)
    reach: float = Field(default=0.0, ge=0, le=1_000)
    age: float = Field(default=0.0, ge=0, le=1_000)


class EscalationReason(WireModel):
    """A reason a reviewer gives for escalating a post (E picks one of the queue's)."""

    id: Slug
    label: Label
    description: ShortText = ""
    requires_note: bool = Field(
        default=False, description="this reason needs a note that says more (``other``)"
    )


#: the reasons of a queue whose configuration lists none
DEFAULT_ESCALATION_REASONS: tuple[EscalationReason, ...] = (
    EscalationReason(
        id="policy_unclear",
        label="Policy unclear",
        description="No policy fits, or two of them do and they disagree",
    ),
    EscalationReason(
        id="needs_expertise",
        label="Needs expertise",
        description="Language, region or subject knowledge the reviewer does not have",
    ),
    EscalationReason(
        id="high_profile",
        label="High profile or high reach",
        description="A public figure, a news organisation or a post spreading fast",
    ),
    EscalationReason(
        id="legal_risk",
        label="Possible legal issue",
        description="A court order, a legal threat or content that may be illegal",
    ),
    EscalationReason(
        id="imminent_harm",
        label="Risk of imminent harm",
        description="Threats, self-harm or danger to someone now",
    ),
    EscalationReason(
        id="other", label="Other", description="Say why in the note", requires_note=True
    ),
)

#: number keys 1 … 9 pick a reason: a queue lists at most this many
MAX_ESCALATION_REASONS = 9


class QueueConfig(WireModel):
    actions: list[ActionConfig] = Field(min_length=1, max_length=12)
    policies: list[PolicyConfig] = Field(default_factory=list, max_length=64)
    ratings: list[RatingConfig] = Field(default_factory=list, max_length=16)
    author_actions: list[AuthorAction] = Field(default_factory=list, max_length=4)
    priority: PriorityWeights = PriorityWeights()
    sla_minutes: int = Field(default=24 * 60, ge=1, le=30 * 24 * 60)
    lead_only: bool = False
    appeals: bool = Field(
        default=False,
        description="the appeals queue: appeals of decisions come here (intake), decided "
        "with actions of kind uphold or reverse, never by a reviewer who decided the item",
    )
    routing: list[RoutingRule] = Field(default_factory=list, max_length=32)
    rereview: RereviewRule | None = None
    notes_shareable: bool = Field(
        default=False,
        description="the reviewer's note is part of the statement of reasons the affected "
        "user reads (otherwise it stays internal)",
    )
    default_policy: PolicyCode | None = Field(
        default=None,
        description="the policy a restrictive decision taken without a policy code (a "
        "fact-check label, say) cites in its statement of reasons",
    )
    harm: list[HarmKind] = Field(
        default_factory=list,
        max_length=len(HarmKind),
        description="the kinds of harm every post of this queue exposes the reviewer to "
        "(counted per shift; policy codes may add kinds)",
    )
    breaks: BreakRule | None = Field(
        default=None, description="when the review window reminds a reviewer to take a break"
    )
    escalation_reasons: list[EscalationReason] = Field(
        default_factory=list,
        max_length=MAX_ESCALATION_REASONS,
        description="the reasons a reviewer picks from when escalating (empty: the service's "
        "defaults, see reasons_for_escalation)",
    )

    @model_validator(mode="after")
    def _unique_ids_and_keys(self) -> QueueConfig:
        ids = [a.id for a in self.actions]
        keys = [a.key for a in self.actions if a.key]
        if len(set(ids)) != len(ids):
            raise ValueError("action ids must be unique")
        if len(set(keys)) != len(keys):
            raise ValueError("action keys must be unique")
        reasons = [r.id for r in self.escalation_reasons]
        if len(set(reasons)) != len(reasons):
            raise ValueError("escalation reason ids must be unique")
        return self

    def action(self, action_id: str) -> ActionConfig | None:
        for action in self.actions:  # a loop, not next(generator): asked per verdict, often
            if action.id == action_id:
                return action
        return None

    def action_labels(self) -> dict[str, str]:
        """Each action's label by its id."""
        return {a.id: a.label for a in self.actions}

    def rating_labels(self) -> dict[str, str]:
        """Each rating's label on this queue's scale by its id."""
        return {r.id: r.label for r in self.ratings}

    def reasons_for_escalation(self) -> list[EscalationReason]:
        """The reasons an escalation from this queue picks from: the configured ones, or
        the defaults when the configuration lists none."""
        return list(self.escalation_reasons or DEFAULT_ESCALATION_REASONS)

    def escalation_reason(self, reason_id: str) -> EscalationReason | None:
        return next((r for r in self.reasons_for_escalation() if r.id == reason_id), None)


class QueueDefinition(WireModel):
    """One queue as a queue file declares it."""

    id: Slug
    name: Label
    description: ShortText = ""
    config: QueueConfig


class QueueFile(WireModel):
    """A queue configuration file (``reviewer-app server queues apply FILE``): every queue,
    in the order routing tries them and the client lists them."""

    queues: list[QueueDefinition] = Field(min_length=1, max_length=200)

    @model_validator(mode="after")
    def _unique_queue_ids(self) -> QueueFile:
        ids = [q.id for q in self.queues]
        if len(set(ids)) != len(ids):
            raise ValueError("queue ids must be unique")
        return self


class QueueCounts(WireModel):
    pending: Count
    leased: Count
    decided_today: Count = Field(
        description="decisions since the start of the caller's day (the day_start it sent: "
        "its local midnight; UTC midnight without)"
    )
    oldest_pending_age_seconds: Count | None = Field(
        default=None,
        description="age of the oldest undecided item, leased or not (the SLA runs until "
        "a decision)",
    )
    not_for_you: Count = Field(
        default=0,
        description="of the pending items, how many the caller may not take: in an appeals "
        "queue those they decided or escalated before (four eyes), in the escalation queue "
        "those assigned to another lead (0 in other queues)",
    )


class Queue(WireModel):
    id: Slug
    name: Label
    description: ShortText = ""
    counts: QueueCounts
    config: QueueConfig
    config_version: int = Field(
        default=0, ge=0, description="the configuration version this config belongs to"
    )


class QueueList(WireModel):
    queues: list[Queue] = Field(max_length=1_000)
