"""The words of a statement of reasons (protocol.draft_statement), the same for the client's
preview and the service: which decisions get one, what it says, what it leaves out."""

from __future__ import annotations

import pytest

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    AuthorAction,
    PolicyConfig,
    QueueConfig,
    Statement,
    draft_statement,
    render_text,
    restrictive,
)

HATE = PolicyConfig(
    code="HATE.SLUR",
    label="Slurs",
    description="Slurs aimed at people for a protected characteristic",
    terms_clause="Community Guidelines 2.1",
    category="illegal_or_harmful_speech",
)
THREAT = PolicyConfig(
    code="VIOLENCE.THREAT",
    label="Threats",
    legal_ground="Section 241 StGB",
    category="violence",
)


def config(**fields: object) -> QueueConfig:
    return QueueConfig(
        actions=[ActionConfig(id="remove", label="Remove", kind=ActionKind.remove)],
        policies=[HATE, THREAT],
        **fields,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("kind", "author_action", "expected"),
    [
        (ActionKind.keep, None, False),
        (ActionKind.escalate, None, False),
        (ActionKind.author, None, False),
        (ActionKind.remove, None, True),
        (ActionKind.reduce, None, True),
        (ActionKind.label, None, True),
        (ActionKind.label_and_reduce, None, True),
        (ActionKind.author, AuthorAction.warn, True),
        (ActionKind.keep, AuthorAction.warn, False),
    ],
)
def test_which_decisions_restrict(
    kind: ActionKind, author_action: AuthorAction | None, expected: bool
) -> None:
    assert restrictive(kind, author_action) is expected
    made = draft_statement(config(), kind, author_action=author_action)
    assert (made is not None) is expected


def test_grounds_facts_and_the_rendered_text() -> None:
    made = draft_statement(
        config(), ActionKind.remove, policies=["VIOLENCE.THREAT", "HATE.SLUR"], note="kept-secret"
    )
    assert made is not None
    assert [(g.policy, g.ground, g.reference) for g in made.grounds] == [
        ("VIOLENCE.THREAT", "illegal", "Section 241 StGB"),
        ("HATE.SLUR", "terms", "Community Guidelines 2.1"),
    ]
    assert made.category == "violence"
    assert made.automated_decision is False and made.automated_detection is False
    assert "kept-secret" not in made.text, "notes are internal unless the queue shares them"
    assert made.text == render_text(made)
    assert "Threats: the content is illegal under Section 241 StGB." in made.text
    assert "It breaks our policy on Slurs: Slurs aimed at people" in made.facts
    Statement.model_validate(made.model_dump(mode="json"))  # round trip


def test_a_shared_hostile_note_is_cleaned_and_capped() -> None:
    note = "\u202eevil\u202c\x1b[0m\x07 " + "y" * 1_990
    made = draft_statement(config(notes_shareable=True), ActionKind.reduce, note=note)
    assert made is not None
    assert "\u202e" not in made.facts and "\x1b" not in made.facts and "\x07" not in made.facts
    assert "The reviewer's note: evil[0m " in made.facts
    assert len(made.facts) <= 5_000


def test_without_a_policy_the_default_policy_or_the_terms() -> None:
    made = draft_statement(config(default_policy="HATE.SLUR"), ActionKind.label)
    assert made is not None and made.grounds[0].policy == "HATE.SLUR"
    bare = draft_statement(config(), ActionKind.label)
    assert bare is not None
    assert (bare.grounds[0].reference, bare.category) == (
        "Terms of service",
        "other_violation_tc",
    )
    # said once, and that no clause was cited (it read "Terms of service: our terms of
    # service, Terms of service.")
    assert (
        "Our terms of service as a whole: the decision cited no particular policy or clause."
        in bare.text
    )
    assert bare.text.lower().count("terms of service") == 1, bare.text


def test_an_account_action_outside_a_queue_and_a_preface() -> None:
    made = draft_statement(
        None,
        ActionKind.author,
        policies=["HATE.SLUR"],
        note="not shared",
        author_action=AuthorAction.mark_inauthentic,
        known_policies=[HATE],
        preface="Your appeal was decided by another reviewer: the decision stands.",
    )
    assert made is not None
    assert (made.visibility, made.account) == ([], "terminated")
    assert made.facts.startswith("Your appeal was decided by another reviewer")
    assert "We closed your account as inauthentic." in made.facts
    assert "not shared" not in made.text


def test_a_reversal_says_what_the_account_is_left_with() -> None:
    """A reversed account-only decision names no post; one another decision keeps the
    account under says so, and what the account stays."""
    from reviewer_app.protocol.statements import LIFTED_REDRESS, REVERSED, lift

    suspended = draft_statement(
        None,
        ActionKind.author,
        policies=["HATE.SLUR"],
        author_action=AuthorAction.suspend,
        known_policies=[HATE],
    )
    assert suspended is not None and suspended.visibility == []
    whole = lift(suspended)
    assert REVERSED in whole.text and LIFTED_REDRESS in whole.text
    kept = lift(suspended, account_stays="")
    assert "post" not in kept.facts.split("\n")[0], kept.facts
    assert "What it did to your account stays" in kept.text and kept.account is None
    partly = lift(suspended, account_stays="restricted")
    assert "your account stays restricted" in partly.text
    assert partly.account == "suspended" and LIFTED_REDRESS not in partly.text
