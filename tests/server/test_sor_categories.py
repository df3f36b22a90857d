"""The statement categories the export sends are the ones the DSA Transparency Database
takes since its schema of 1 July 2025 (``app/Models/Statement.php`` of
digital-services-act/transparency-database: four categories removed on 2025-02-26, six
added), and the removed names, still in queue files, stored configurations and stored
statements, are read as their nearest new category."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    PolicyConfig,
    QueueConfig,
    StatementCategory,
    draft_statement,
    queues,
)
from reviewer_app.server.cli import sor_export

# STATEMENT_CATEGORIES of the database's Statement model (HEAD 69e80a0, 2026-06-24)
DATABASE_CATEGORIES = {
    "STATEMENT_CATEGORY_ANIMAL_WELFARE",
    "STATEMENT_CATEGORY_CONSUMER_INFORMATION",
    "STATEMENT_CATEGORY_CYBER_VIOLENCE",
    "STATEMENT_CATEGORY_CYBER_VIOLENCE_AGAINST_WOMEN",
    "STATEMENT_CATEGORY_DATA_PROTECTION_AND_PRIVACY_VIOLATIONS",
    "STATEMENT_CATEGORY_ILLEGAL_OR_HARMFUL_SPEECH",
    "STATEMENT_CATEGORY_INTELLECTUAL_PROPERTY_INFRINGEMENTS",
    "STATEMENT_CATEGORY_NEGATIVE_EFFECTS_ON_CIVIC_DISCOURSE_OR_ELECTIONS",
    "STATEMENT_CATEGORY_NOT_SPECIFIED_NOTICE",
    "STATEMENT_CATEGORY_OTHER_VIOLATION_TC",
    "STATEMENT_CATEGORY_PROTECTION_OF_MINORS",
    "STATEMENT_CATEGORY_RISK_FOR_PUBLIC_SECURITY",
    "STATEMENT_CATEGORY_SCAMS_AND_FRAUD",
    "STATEMENT_CATEGORY_SELF_HARM",
    "STATEMENT_CATEGORY_UNSAFE_AND_PROHIBITED_PRODUCTS",
    "STATEMENT_CATEGORY_VIOLENCE",
}
REMOVED = {
    "pornography_or_sexualized_content": "other_violation_tc",
    "non_consensual_behaviour": "cyber_violence",
    "scope_of_platform_service": "other_violation_tc",
    "unsafe_and_illegal_products": "unsafe_and_prohibited_products",
}


def test_the_categories_are_the_databases() -> None:
    assert {f"STATEMENT_CATEGORY_{c.value.upper()}" for c in StatementCategory} == (
        DATABASE_CATEGORIES
    )
    properties = sor_export.schema()["properties"]
    assert set(properties["category"]["enum"]) == DATABASE_CATEGORIES
    assert set(properties["category_addition"]["items"]["enum"]) == DATABASE_CATEGORIES


@pytest.mark.parametrize(("old", "new"), sorted(REMOVED.items()))
def test_a_removed_category_is_read_as_its_nearest_new_one(old: str, new: str) -> None:
    assert queues.RENAMED_CATEGORIES[old] == new
    policy = PolicyConfig.model_validate(
        {"code": "P.OLD", "label": "Old", "terms_clause": "CG 1", "category": old}
    )
    assert policy.category is StatementCategory(new)
    stored = PolicyConfig.model_validate_json(
        json.dumps({"code": "P.OLD", "label": "Old", "terms_clause": "CG 1", "category": old})
    )
    assert stored.category is StatementCategory(new)
    assert json.loads(stored.model_dump_json())["category"] == new


def test_an_unknown_category_is_still_refused() -> None:
    with pytest.raises(ValueError, match="category"):
        PolicyConfig.model_validate(
            {"code": "P.X", "label": "X", "terms_clause": "CG 1", "category": "pornography"}
        )


def _row(statement_document: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": 7,
        "decision_id": 70,
        "payload": json.dumps(statement_document),
        "context": json.dumps({"content_types": ["text"]}),
        "created_at": 1_780_000_000.0,
        "content_date": 1_779_000_000.0,
    }


def test_a_statement_stored_with_removed_categories_exports_what_the_database_takes() -> None:
    nudity = PolicyConfig(
        code="SEX.NUDITY", label="Nudity", terms_clause="CG 3.1", category="other_violation_tc"
    )
    harass = PolicyConfig(
        code="HARASS.T", label="Harassment", terms_clause="CG 4", category="cyber_violence"
    )
    config = QueueConfig(
        actions=[ActionConfig(id="remove", label="Remove", kind=ActionKind.remove)],
        policies=[nudity, harass],
    )
    made = draft_statement(config, ActionKind.remove, policies=["SEX.NUDITY", "HARASS.T"])
    assert made is not None
    document = made.model_dump(mode="json", exclude={"id", "puid"})
    # as a service before this change stored it
    document["category"] = "pornography_or_sexualized_content"
    document["grounds"][0]["category"] = "pornography_or_sexualized_content"
    document["grounds"][1]["category"] = "non_consensual_behaviour"
    body = sor_export.to_dsa(_row(document))
    assert body["category"] == "STATEMENT_CATEGORY_OTHER_VIOLATION_TC"
    assert body["category_addition"] == ["STATEMENT_CATEGORY_CYBER_VIOLENCE"]
    assert sor_export.problems(body) == []


def test_a_decision_citing_no_mapped_policy_is_another_violation_of_the_terms() -> None:
    config = QueueConfig(
        actions=[ActionConfig(id="label", label="Label", kind=ActionKind.label)],
    )
    made = draft_statement(config, ActionKind.label)
    assert made is not None and made.category is StatementCategory.other_violation_tc
    body = sor_export.to_dsa(_row(made.model_dump(mode="json", exclude={"id", "puid"})))
    assert body["category"] == "STATEMENT_CATEGORY_OTHER_VIOLATION_TC"
    assert sor_export.problems(body) == []
