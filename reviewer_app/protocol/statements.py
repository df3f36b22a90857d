"""Statements of reasons (DSA Art. 17): what the person affected by a restriction reads.

Every restrictive decision of record (remove, reduce, label, label and reduce, and the
account actions warn, restrict, suspend, mark inauthentic) carries one; ``keep`` and
``restore`` carry none. The service builds it in the decision's transaction and sends it
with the enforcement action (``EnforcementAction.statement``); the client builds the same
words before submit with ``draft_statement`` so the reviewer sees what the user will read.

The API of this module, for the service and the client alike:

- ``draft_statement(config, kind, policies=..., note=..., author_action=...,
  automated_detection=...)`` -> ``Statement`` without an id (None: the decision restricts
  nothing, so there is no statement);
- ``Statement.text``: the words the affected user reads, rendered from the statement's own
  fields (``render_text``), the same on both sides;
- ``restrictive(kind, author_action)``: whether a decision of this kind gets a statement;
- ``lift(statement, note, account_stays=...)``: the statement of a reversed appeal (the
  restriction lifted; with ``account_stays``, what another decision keeps on the account).
- ``restate(statement, UPHELD, note)``: the statement of an upheld appeal (the contested
  decision's restriction stands, said so first).

Qt-free and database-free.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from enum import StrEnum

from pydantic import Field

from .common import PolicyCode, WireModel
from .queues import ActionKind, AuthorAction, PolicyConfig, QueueConfig, StatementCategory

MAX_FACTS = 5_000
"""The Transparency Database's limit on ``decision_facts``."""

REDRESS = (
    "You can appeal this decision through the platform's appeal process (internal "
    "complaint handling); your appeal is decided by a reviewer who did not take this "
    "decision. You may also turn to a certified out-of-court dispute settlement body or "
    "seek redress in court."
)
"""What a person affected may do about a decision: appeal it here first (DSA Art. 20)."""
APPEALED_REDRESS = (
    "Your appeal of this decision through the platform's appeal process (internal "
    "complaint handling) has been decided, and the decision cannot be appealed there "
    "again. You may turn to a certified out-of-court dispute settlement body or seek "
    "redress in court."
)
"""The redress of an upheld appeal's statement (``restate``): the appeal process is used,
what is left is out-of-court dispute settlement and the courts (DSA Art. 21)."""
NO_APPEAL_REDRESS = (
    "This decision was taken outside the platform's appeal process (internal complaint "
    "handling) and cannot be appealed through it. You may turn to a certified out-of-court "
    "dispute settlement body or seek redress in court."
)
"""The redress of a decision outside any queue (a lead's account action, which names no
item for an appeal reviewer to look at): out-of-court dispute settlement and the courts."""


class VisibilityRestriction(StrEnum):
    removed = "removed"
    disabled = "disabled"
    demoted = "demoted"
    labelled = "labelled"


class AccountRestriction(StrEnum):
    warned = "warned"
    """A formal warning: the account keeps working (no restriction in the DSA's lists)."""
    restricted = "restricted"
    suspended = "suspended"
    terminated = "terminated"


class StatementGround(StrEnum):
    terms = "terms"
    """The content is incompatible with the platform's terms (``reference``: the clause)."""
    illegal = "illegal"
    """The content is illegal (``reference``: the legal ground)."""


class GroundCited(WireModel):
    """One policy the decision relied on, and its ground."""

    policy: PolicyCode
    label: str = Field(max_length=200)
    ground: StatementGround
    reference: str = Field(max_length=500, description="the terms clause or the legal ground")
    category: StatementCategory


class Statement(WireModel):
    """A statement of reasons, as the affected user and the platform receive it."""

    id: int | None = Field(
        default=None, ge=1, description="its stable id (None: a preview before submit)"
    )
    puid: str | None = Field(
        default=None,
        max_length=500,
        pattern=r"^[A-Za-z0-9_-]+$",
        description="its unique id in the DSA Transparency Database export",
    )
    decision_id: int | None = Field(default=None, ge=1)
    visibility: list[VisibilityRestriction] = Field(default_factory=list, max_length=4)
    account: AccountRestriction | None = None
    facts: str = Field(max_length=MAX_FACTS, description="the facts and circumstances")
    grounds: list[GroundCited] = Field(min_length=1, max_length=16)
    category: StatementCategory = Field(description="the first ground's category")
    automated_detection: bool = Field(
        description="an automated classifier's signal put the content up for review"
    )
    automated_decision: bool = Field(default=False, description="always false: a person decided")
    redress: str = Field(max_length=2_000)
    text: str = Field(max_length=20_000, description="the whole statement as the user reads it")
    lifted: bool = Field(
        default=False,
        description=(
            "the statement of a reversed appeal: the restriction described is lifted (it "
            "restricts nothing, and is not exported to the Transparency Database)"
        ),
    )


class StatementList(WireModel):
    """An item's statements of reasons, oldest first (``GET /items/{id}/statements``)."""

    statements: list[Statement] = Field(max_length=200)


_VISIBILITY = {
    ActionKind.remove: [VisibilityRestriction.removed],
    ActionKind.reduce: [VisibilityRestriction.demoted],
    ActionKind.label: [VisibilityRestriction.labelled],
    ActionKind.label_and_reduce: [VisibilityRestriction.labelled, VisibilityRestriction.demoted],
}
_ACCOUNT = {
    AuthorAction.warn: AccountRestriction.warned,
    AuthorAction.restrict: AccountRestriction.restricted,
    AuthorAction.suspend: AccountRestriction.suspended,
    AuthorAction.mark_inauthentic: AccountRestriction.terminated,
}


def restrictive(kind: ActionKind, author_action: AuthorAction | None = None) -> bool:
    """Whether a decision of this kind restricts something (and gets a statement)."""
    if kind in _VISIBILITY:
        return True
    return kind is ActionKind.author and author_action is not None


# Characters a note must not carry into what a user reads: control characters other than
# line ends and tabs, and the bidirectional overrides and isolates that reorder text.
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"), None)


def clean_text(text: str) -> str:
    """``text`` fit for a statement: bidi controls and control characters dropped (line
    ends kept), runs of blank lines squeezed, ends stripped."""
    text = text.translate(_BIDI).replace("\r\n", "\n").replace("\r", "\n")
    kept = "".join(
        c for c in text if c in "\n\t" or unicodedata.category(c) not in ("Cc", "Cf", "Cs")
    )
    return re.sub(r"\n{3,}", "\n\n", kept).strip()


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _ground_of(policy: PolicyConfig) -> GroundCited | None:
    if policy.category is None or not (policy.terms_clause or policy.legal_ground):
        return None
    if policy.legal_ground:
        ground, reference = StatementGround.illegal, policy.legal_ground
    else:
        ground, reference = StatementGround.terms, policy.terms_clause or ""
    return GroundCited(
        policy=policy.code,
        label=policy.label,
        ground=ground,
        reference=_cap(clean_text(reference), 500),
        category=policy.category,
    )


# A restrictive decision whose queue maps none of the policies it cites (a queue file from
# before statements, applied in code): its ground is the terms as a whole.
_FALLBACK_CATEGORY = StatementCategory.other_violation_tc


NO_POLICY = "TERMS"
"""The policy a ground names when the decision cited none (and its queue has no default)."""
NO_CLAUSE = "the decision cited no particular policy or clause"


def draft_statement(
    config: QueueConfig | None,
    kind: ActionKind,
    *,
    policies: Sequence[str] = (),
    note: str | None = None,
    author_action: AuthorAction | None = None,
    automated_detection: bool = False,
    known_policies: Sequence[PolicyConfig] = (),
    preface: str | None = None,
) -> Statement | None:
    """The statement a decision of ``kind`` in a queue with ``config`` gives (None: it
    restricts nothing; ``config`` None: a decision outside any queue, a lead's account
    action). ``policies``: the codes the decision cites (none: the queue's
    ``default_policy``); ``known_policies``: more policies to look codes up in (a lead's
    account action names codes of any queue). The note is part of it only when the
    queue's ``notes_shareable`` says so. A decision outside any queue cannot be appealed
    through the service (``NO_APPEAL_REDRESS``); any other offers the appeal (``REDRESS``)."""
    if not restrictive(kind, author_action):
        return None
    visibility = list(_VISIBILITY.get(kind, ()))
    account = _ACCOUNT[author_action] if author_action is not None else None
    by_code = {p.code: p for p in known_policies}
    if config is not None:
        by_code.update({p.code: p for p in config.policies})
    default = config.default_policy if config is not None else None
    codes = list(policies) or ([default] if default else [])
    cited = [g for c in codes if c in by_code and (g := _ground_of(by_code[c])) is not None]
    if not cited:
        label = by_code[codes[0]].label if codes and codes[0] in by_code else "Terms of service"
        cited = [
            GroundCited(
                policy=codes[0] if codes else NO_POLICY,
                label=label,
                ground=StatementGround.terms,
                reference="Terms of service",
                category=_FALLBACK_CATEGORY,
            )
        ]
    facts = _facts(
        preface,
        visibility,
        account,
        [by_code.get(g.policy) for g in cited],
        note,
        config is not None and config.notes_shareable,
    )
    statement = Statement(
        visibility=visibility,
        account=account,
        facts=facts,
        grounds=cited,
        category=cited[0].category,
        automated_detection=automated_detection,
        automated_decision=False,
        redress=REDRESS if config is not None else NO_APPEAL_REDRESS,
        text="",
    )
    return statement.model_copy(update={"text": render_text(statement)})


UPHELD = "Your appeal was decided by a reviewer who did not take the decision: the decision stands."
"""The preface of an upheld appeal's statement (``restate``)."""


def restate(statement: Statement, preface: str, note: str | None = None) -> Statement:
    """The statement of a decision that stands again (an upheld appeal): the same
    restriction, grounds and detection, facts that start with ``preface`` and ``note`` (the
    appeal reviewer's reason, when the appeals queue shares notes), the redress left once
    appealed (``APPEALED_REDRESS``: one appeal per decision), no id yet."""
    lines = [clean_text(preface)]
    if note and clean_text(note):
        lines.append(f"The reviewer's reason: {clean_text(note)}")
    facts = _cap("\n".join([*lines, statement.facts]), MAX_FACTS)
    fresh = statement.model_copy(update={"id": None, "puid": None, "decision_id": None})
    fresh = fresh.model_copy(update={"facts": facts, "redress": APPEALED_REDRESS})
    return fresh.model_copy(update={"text": render_text(fresh)})


REVERSED = (
    "Your appeal was decided by a reviewer who did not take the decision: the decision is "
    "reversed and the restriction described below is lifted."
)
"""The preface of a reversed appeal's statement (``lift``)."""
LIFTED_REDRESS = "Nothing more is needed from you: the restriction no longer applies."
ACCOUNT_KEPT_REDRESS = (
    "Nothing more is needed from you for this decision. The decision that keeps your "
    "account restricted has its own statement of reasons, with its own options."
)
_STAYS_WORDS = {
    "warned": "under a formal warning",
    "restricted": "restricted",
    "suspended": "suspended",
    "inauthentic": "closed as inauthentic",
}


def _reversed_preface(statement: Statement, account_stays: str | None) -> str:
    """What a reversal undoes, said first: the post's part, the account's part, and what
    the account is left with when another decision of ours still restricts it."""
    if account_stays is None or statement.account is None:
        return REVERSED
    said = (
        "Your appeal was decided by a reviewer who did not take the decision: the decision "
        "is reversed"
    )
    if statement.visibility:
        said += " and what it did to your post is undone"
    if not account_stays:
        return (
            f"{said}. What it did to your account stays: another decision of ours still imposes it."
        )
    stays = _STAYS_WORDS.get(account_stays, account_stays)
    return (
        f"{said}. What it did to your account is undone as far as it can be: your account "
        f"stays {stays}, as another decision of ours imposes."
    )


def lift(
    statement: Statement, note: str | None = None, *, account_stays: str | None = None
) -> Statement:
    """The statement of a reversed appeal: the contested decision's restriction and grounds,
    said to be lifted (``REVERSED`` and the reviewer's reason first), ``lifted`` set; no
    id yet. ``account_stays``: the reversal leaves the account restricted by another
    decision: "" when it stays as it is (the service's ``undo_author_action`` false: the
    statement names no account restriction as lifted), else the status it is left with
    ("restricted" after a suspension is reversed, say)."""
    kept = account_stays is not None and statement.account is not None
    fresh = restate(statement, _reversed_preface(statement, account_stays), note)
    update: dict[str, object] = {
        "lifted": True,
        "redress": ACCOUNT_KEPT_REDRESS if kept else LIFTED_REDRESS,
    }
    if kept and not account_stays:
        update["account"] = None
    fresh = fresh.model_copy(update=update)
    return fresh.model_copy(update={"text": render_text(fresh)})


_VISIBILITY_WORDS = {
    VisibilityRestriction.removed: "removed",
    VisibilityRestriction.disabled: "disabled access to",
    VisibilityRestriction.demoted: "reduced the distribution of",
    VisibilityRestriction.labelled: "put a label on",
}
_ACCOUNT_WORDS = {
    AccountRestriction.warned: "gave your account a formal warning",
    AccountRestriction.restricted: "restricted your account",
    AccountRestriction.suspended: "suspended your account",
    AccountRestriction.terminated: "closed your account as inauthentic",
}


def _what(visibility: Sequence[VisibilityRestriction], account: AccountRestriction | None) -> str:
    parts = []
    if visibility:
        verbs = [_VISIBILITY_WORDS[v] for v in visibility]
        parts.append(" and ".join(verbs) + " your post")
    if account is not None:
        parts.append(_ACCOUNT_WORDS[account])
    return "We " + " and ".join(parts) + "."


def _facts(
    preface: str | None,
    visibility: Sequence[VisibilityRestriction],
    account: AccountRestriction | None,
    policies: Sequence[PolicyConfig | None],
    note: str | None,
    shareable: bool,
) -> str:
    lines = [clean_text(preface)] if preface and clean_text(preface) else []
    lines.append(_what(visibility, account))
    for policy in policies:
        if policy is None:
            continue
        described = clean_text(policy.description)
        lines.append(
            f"It breaks our policy on {clean_text(policy.label)}"
            + (f": {described}." if described else ".")
        )
    if shareable and note and clean_text(note):
        lines.append(f"The reviewer's note: {clean_text(note)}")
    return _cap("\n".join(lines), MAX_FACTS)


def render_text(statement: Statement) -> str:
    """The statement as the affected user reads it (plain text, a few short paragraphs)."""
    grounds = []
    for g in statement.grounds:
        if g.ground is StatementGround.illegal:
            grounds.append(f"{g.label}: the content is illegal under {g.reference}.")
        elif g.policy == NO_POLICY:
            # the terms as a whole ("Terms of service: our terms of service, Terms of
            # service." had said nothing three times)
            grounds.append(f"Our terms of service as a whole: {NO_CLAUSE}.")
        else:
            grounds.append(f"{g.label}: our terms of service, {g.reference}.")
    detected = (
        "Automated means (a classifier) flagged the content for review."
        if statement.automated_detection
        else "The content was not detected by automated means."
    )
    decided = (
        "The decision was automated."
        if statement.automated_decision
        else "A person on our review team took this decision; it was not automated."
    )
    return "\n\n".join(
        [
            f"What we did and why\n{statement.facts}",
            (
                "The ground the reversed decision cited\n"
                if statement.lifted
                else "The ground for it\n"
            )
            + "\n".join(grounds),
            f"How it was detected and decided\n{detected} {decided}",
            f"Your options\n{statement.redress}",
        ]
    )
