"""The five demo queues and their decision configuration."""

from __future__ import annotations

from typing import Any

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    AuthorAction,
    PolicyConfig,
    PriorityWeights,
    QueueConfig,
    RatingConfig,
)
from reviewer_app.server.seed_types import SeedQueue

MISINFORMATION = "misinformation"
HATE = "hate-harassment"
SPAM = "spam-scams"
INAUTHENTIC = "inauthentic-accounts"
ESCALATIONS = "escalations"

QUEUE_IDS = (MISINFORMATION, HATE, SPAM, INAUTHENTIC, ESCALATIONS)

# -- policies ----------------------------------------------------------------------------

_P = PolicyConfig

MISINFO_POLICIES = (
    _P(
        code="MISINFO.HEALTH",
        label="Health misinformation",
        description="False cures, treatments or health claims that could lead to harm",
    ),
    _P(
        code="MISINFO.CIVIC",
        label="Civic and election misinformation",
        description="False claims about voting, ballots, counting or election results",
    ),
    _P(
        code="MISINFO.MANIPULATED_MEDIA",
        label="Manipulated or out-of-context media",
        description="Altered images, fabricated documents or real media shown out of context",
    ),
    _P(
        code="MISINFO.HOAX",
        label="Fabricated news and hoaxes",
        description="Invented events such as fake deaths of public figures",
    ),
    _P(
        code="MISINFO.CONSPIRACY",
        label="Harmful conspiracy theory",
        description="Conspiracy claims that target people or undermine disaster response",
    ),
)

HATE_POLICIES = (
    _P(
        code="HATE.SLUR",
        label="Slurs",
        description="Slurs aimed at people for a protected characteristic",
    ),
    _P(
        code="HATE.DEHUMANISING",
        label="Dehumanising speech",
        description="Comparing a protected group to animals, disease or filth",
    ),
    _P(
        code="HARASS.TARGETED",
        label="Targeted harassment",
        description="Insults, pile-ons and brigading aimed at a private person",
    ),
    _P(
        code="HARASS.DOXXING",
        label="Doxxing",
        description="Sharing someone's home address, workplace or other private information",
    ),
    _P(
        code="VIOLENCE.THREAT",
        label="Violent threat",
        description="Threats or incitement of violence against a person or group",
    ),
    _P(
        code="VIOLENCE.GLORIFICATION",
        label="Glorifying violence",
        description="Celebrating or mocking victims of real violent attacks",
    ),
)

SPAM_POLICIES = (
    _P(
        code="SPAM.SCAM",
        label="Scam",
        description="Giveaways, investment or payment scams that take people's money",
    ),
    _P(
        code="SPAM.PHISHING",
        label="Phishing",
        description="Links that imitate a bank, carrier or service to steal credentials",
    ),
    _P(
        code="SPAM.FAKE_SHOP",
        label="Fake shop",
        description="Shops selling goods that never arrive or counterfeit goods",
    ),
    _P(
        code="SPAM.ENGAGEMENT",
        label="Engagement spam",
        description="Follow-for-follow, bought followers and repetitive promotion",
    ),
)

INAUTH_POLICIES = (
    _P(
        code="INAUTH.FAKE_ACCOUNT",
        label="Fake account",
        description="An account that misrepresents who runs it (stock photos, invented people)",
    ),
    _P(
        code="INAUTH.COORDINATED",
        label="Coordinated inauthentic behaviour",
        description="Networks of accounts acting together to mislead about their reach",
    ),
    _P(
        code="INAUTH.IMPERSONATION",
        label="Impersonation",
        description="Pretending to be a brand, official or real person",
    ),
)

ALL_POLICIES = MISINFO_POLICIES + HATE_POLICIES + SPAM_POLICIES + INAUTH_POLICIES

# -- fact-check ratings ------------------------------------------------------------------

RATINGS = (
    RatingConfig(id="false", label="False"),
    RatingConfig(id="partly_false", label="Partly false"),
    RatingConfig(id="missing_context", label="Missing context"),
    RatingConfig(id="altered", label="Altered"),
    RatingConfig(id="satire", label="Satire"),
)
RATING_LABELS = {r.id: r.label for r in RATINGS}

# -- actions -----------------------------------------------------------------------------


def _keep(
    action_id: str = "no-violation", label: str = "No violation", key: str = "1"
) -> dict[str, Any]:
    return {"id": action_id, "label": label, "kind": ActionKind.keep, "key": key}


def _escalate(key: str = "9") -> ActionConfig:
    return ActionConfig(
        id="escalate", label="Escalate to a lead", kind=ActionKind.escalate, key=key
    )


_LABEL: dict[str, Any] = {
    "id": "label",
    "label": "Label with fact-check",
    "kind": ActionKind.label,
    "requires_rating": True,
}
_REDUCE: dict[str, Any] = {
    "id": "reduce",
    "label": "Reduce distribution",
    "kind": ActionKind.reduce,
}
_REMOVE: dict[str, Any] = {
    "id": "remove",
    "label": "Remove",
    "kind": ActionKind.remove,
    "requires_policy": True,
    "strike": True,
}
_REMOVE_RESTRICT: dict[str, Any] = {
    "id": "remove-restrict",
    "label": "Remove and restrict author",
    "kind": ActionKind.remove,
    "requires_policy": True,
    "strike": True,
    "author_action": AuthorAction.restrict,
}
_REMOVE_SUSPEND: dict[str, Any] = {
    "id": "remove-suspend",
    "label": "Remove and suspend author",
    "kind": ActionKind.remove,
    "requires_policy": True,
    "strike": True,
    "author_action": AuthorAction.suspend,
}
_MARK_INAUTHENTIC: dict[str, Any] = {
    "id": "mark-inauthentic",
    "label": "Mark author inauthentic",
    "kind": ActionKind.author,
    "requires_policy": True,
    "author_action": AuthorAction.mark_inauthentic,
}
_SUSPEND: dict[str, Any] = {
    "id": "suspend-author",
    "label": "Suspend author",
    "kind": ActionKind.author,
    "requires_policy": True,
    "strike": True,
    "author_action": AuthorAction.suspend,
}


def _action(spec: dict[str, Any], key: str, **extra: object) -> ActionConfig:
    return ActionConfig.model_validate({**spec, "key": key, **extra})


MISINFORMATION_CONFIG = QueueConfig(
    actions=[
        ActionConfig(**_keep()),
        _action(_LABEL, "2"),
        _action(_REDUCE, "3"),
        _action(_REMOVE, "4"),
        _escalate(),
    ],
    policies=list(MISINFO_POLICIES),
    ratings=list(RATINGS),
    author_actions=[AuthorAction.warn, AuthorAction.restrict],
    priority=PriorityWeights(score=2.0, reports=0.5, reach=1.5, age=0.2),
    sla_minutes=240,
)

HATE_CONFIG = QueueConfig(
    actions=[
        ActionConfig(**_keep()),
        _action(_REMOVE, "2"),
        _action(_REMOVE_RESTRICT, "3"),
        _escalate(),
    ],
    policies=list(HATE_POLICIES),
    author_actions=[AuthorAction.warn, AuthorAction.restrict, AuthorAction.suspend],
    priority=PriorityWeights(score=1.5, reports=2.5, reach=0.3, age=0.5),
    sla_minutes=60,
)

SPAM_CONFIG = QueueConfig(
    actions=[
        ActionConfig(**_keep("not-spam", "Not spam")),
        _action(_REMOVE, "2"),
        _action(_REMOVE_SUSPEND, "3"),
        _escalate(),
    ],
    policies=list(SPAM_POLICIES),
    author_actions=[AuthorAction.warn, AuthorAction.restrict, AuthorAction.suspend],
    priority=PriorityWeights(score=6.0, reports=0.5, reach=0.2, age=0.1),
    sla_minutes=480,
)

INAUTHENTIC_CONFIG = QueueConfig(
    actions=[
        ActionConfig(**_keep("authentic", "Authentic")),
        _action(_MARK_INAUTHENTIC, "2"),
        _action(_SUSPEND, "3"),
        _escalate(),
    ],
    policies=list(INAUTH_POLICIES),
    author_actions=[AuthorAction.restrict, AuthorAction.suspend, AuthorAction.mark_inauthentic],
    priority=PriorityWeights(score=4.0, reports=0.3, reach=0.3, age=0.05),
    sla_minutes=1440,
)

ESCALATIONS_CONFIG = QueueConfig(
    actions=[
        ActionConfig(**_keep(), requires_note=True),
        _action(_LABEL, "2", requires_note=True),
        _action(_REDUCE, "3", requires_note=True),
        _action(_REMOVE, "4", requires_note=True),
        _action(_REMOVE_RESTRICT, "5", requires_note=True),
        _action(_SUSPEND, "6", requires_note=True),
        _action(_MARK_INAUTHENTIC, "7", requires_note=True),
    ],
    policies=list(ALL_POLICIES),
    ratings=list(RATINGS),
    author_actions=[
        AuthorAction.warn,
        AuthorAction.restrict,
        AuthorAction.suspend,
        AuthorAction.mark_inauthentic,
    ],
    priority=PriorityWeights(score=1.0, reports=1.0, reach=0.5, age=1.0),
    sla_minutes=120,
    lead_only=True,
)

DEMO_QUEUES = (
    SeedQueue(
        id=MISINFORMATION,
        name="Misinformation",
        description="Posts matched to debunked claims or rated by fact-checkers: label, "
        "reduce or remove",
        config=MISINFORMATION_CONFIG,
    ),
    SeedQueue(
        id=HATE,
        name="Hate and harassment",
        description="Slurs, dehumanising speech, pile-ons, doxxing and threats",
        config=HATE_CONFIG,
    ),
    SeedQueue(
        id=SPAM,
        name="Spam and scams",
        description="Crypto giveaways, phishing links, fake shops and engagement spam",
        config=SPAM_CONFIG,
    ),
    SeedQueue(
        id=INAUTHENTIC,
        name="Inauthentic accounts",
        description="Fake personas and coordinated networks flagged by the account graph",
        config=INAUTHENTIC_CONFIG,
    ),
    SeedQueue(
        id=ESCALATIONS,
        name="Escalations",
        description="Hard calls sent up by reviewers; leads decide, always with a note",
        config=ESCALATIONS_CONFIG,
    ),
)

QUEUE_POLICIES = {
    MISINFORMATION: MISINFO_POLICIES,
    HATE: HATE_POLICIES,
    SPAM: SPAM_POLICIES,
    INAUTHENTIC: INAUTH_POLICIES,
}
