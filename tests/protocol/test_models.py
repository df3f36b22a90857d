"""Field limits of the wire models reject nonsense."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    ClassifierScore,
    LeaseClaim,
    QueueConfig,
    Span,
    Verdict,
    VerdictBatch,
)
from reviewer_app.protocol.common import MAX_NOTE

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _verdict(**changes: object) -> dict[str, object]:
    body: dict[str, object] = {
        "idempotency_key": str(uuid.uuid4()),
        "item_id": "itm-000001",
        "lease_token": "abcdefghijklmnop.itm-000001",
        "action": "remove",
        "policies": ["HATE.SLUR"],
        "time_spent_ms": 3000,
        "decided_at": NOW.isoformat(),
    }
    body.update(changes)
    return body


def test_a_valid_verdict_parses() -> None:
    verdict = Verdict.model_validate(_verdict())
    assert verdict.policies == ["HATE.SLUR"]


@pytest.mark.parametrize(
    "changes",
    [
        {"action": "Remove Everything"},
        {"action": ""},
        {"policies": ["lowercase"]},
        {"policies": ["HATE.SLUR"] * 17},
        {"note": "x" * (MAX_NOTE + 1)},
        {"time_spent_ms": -1},
        {"decided_at": "2026-11-30T12:00:00"},  # no time zone
        {"decided_at": "0001-01-01T00:00:00+14:00"},  # before 1970 in UTC
        {"decided_at": 1_764_000_000},  # a number of seconds is not a time on the wire
        {"idempotency_key": "not-a-uuid"},
        {"item_id": "../../etc/passwd"},
        {"lease_token": "short"},
        {"author_action": "ban_forever"},
        {"unexpected": True},
    ],
)
def test_verdict_limits(changes: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Verdict.model_validate(_verdict(**changes))


def test_batches_are_bounded() -> None:
    with pytest.raises(ValidationError):
        VerdictBatch.model_validate({"verdicts": []})
    with pytest.raises(ValidationError):
        VerdictBatch.model_validate({"verdicts": [_verdict() for _ in range(101)]})


@pytest.mark.parametrize(
    "body",
    [
        {"count": 0},
        {"count": 201},
        {"lease_seconds": 5},
        {"lease_seconds": 86_400},
        {"count": "ten"},
    ],
)
def test_claim_limits(body: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        LeaseClaim.model_validate(body)


def test_scores_are_fractions_and_spans_ordered() -> None:
    with pytest.raises(ValidationError):
        ClassifierScore(model="m", model_version="1", label="l", score=1.5, threshold=0.5)
    with pytest.raises(ValidationError):
        Span(start=10, end=2)


def test_queue_config_refuses_duplicate_keys_and_ids() -> None:
    keep = ActionConfig(id="keep", label="Keep", kind=ActionKind.keep, key="1")
    with pytest.raises(ValidationError, match="keys must be unique"):
        QueueConfig(
            actions=[
                keep,
                ActionConfig(id="remove", label="Remove", kind=ActionKind.remove, key="1"),
            ]
        )
    with pytest.raises(ValidationError, match="ids must be unique"):
        QueueConfig(actions=[keep, keep.model_copy(update={"key": "2"})])


@pytest.mark.parametrize(
    ("url", "valid"),
    [
        ("https://example.com/a?b=1#c", True),
        ("https://bücher.example/ü", True),  # an IDN host and text are shown decoded
        ("ftp://example.com/x", False),
        ("https://example.com/a b", False),
        ("https://example.com/a\u2028b", False),
        ("https://example.com/a\x00b", False),  # NUL: stored and served back, never a URL
        ("https://example.com/a\x1bb", False),
        ("https://example.com/a\x7fb", False),
    ],
)
def test_an_http_url_has_no_white_space_or_control_character(url: str, valid: bool) -> None:
    from pydantic import TypeAdapter

    from reviewer_app.protocol.common import HttpUrl

    adapter = TypeAdapter(HttpUrl)
    if valid:
        assert adapter.validate_python(url) == url
    else:
        with pytest.raises(ValidationError):
            adapter.validate_python(url)


def test_a_policy_code_is_cited_once() -> None:
    """A code cited twice gave its author two strikes from one decision, and a blind audit
    citing it once recorded an overturn: every request that cites codes refuses a repeat."""
    from reviewer_app.protocol.accounts import AccountActionRequest
    from reviewer_app.protocol.audits import AuditJudgement, AuditOverturn
    from reviewer_app.protocol.bulk_decisions import BulkDecisionRequest

    with pytest.raises(ValidationError, match="cited once"):
        Verdict.model_validate(_verdict(policies=["HATE.SLUR", "HATE.SLUR"]))
    assert Verdict.model_validate(_verdict(policies=["X.1", "X.2"])).policies == ["X.1", "X.2"]
    for model in (AuditJudgement, AuditOverturn, AccountActionRequest, BulkDecisionRequest):
        with pytest.raises(ValidationError) as refused:
            model.model_validate({"policies": ["X.1", "X.1"]})
        cited = [e for e in refused.value.errors() if e["loc"] == ("policies",)]
        assert cited and "cited once" in cited[0]["msg"], model


@pytest.mark.parametrize("limit", [0, -1, 1.5, "10"])
def test_a_services_limits_are_whole_numbers_from_one(limit: object) -> None:
    """A client sizes its requests by them: a batch limit of 0 sent no verdict while it
    said it was synced, a negative claim limit made a request the client refused itself."""
    from reviewer_app.protocol.meta import Limits

    fine = {
        "max_body_bytes": 1_048_576,
        "max_claim": 50,
        "max_lease_seconds": 3_600,
        "max_leased_per_reviewer": 250,
        "max_verdicts_per_batch": 100,
    }
    assert Limits.model_validate(fine).max_claim == 50
    for name in fine:
        with pytest.raises(ValidationError):
            Limits.model_validate({**fine, name: limit})


def test_requests_leave_out_the_fields_an_earlier_service_does_not_know() -> None:
    """A desktop newer than its service (upgraded first, as docs/platform.md asks for new
    categories) sent ``"expected": null`` and ``"based_on": null, "keep_high_harm":
    false`` with every assignment and break save; a service of the release before refuses
    fields it does not know (422). Unused, they are left out; used, they are sent."""
    from reviewer_app.protocol import (
        AssigneeNow,
        BreakRuleChange,
        BreakRuleSeen,
        EscalationAssignment,
    )

    assert json.loads(EscalationAssignment(assignee=None).model_dump_json()) == {"assignee": None}
    assert json.loads(BreakRuleChange(breaks=None).model_dump_json()) == {"breaks": None}
    used = EscalationAssignment(assignee="lena", expected=AssigneeNow(assignee=None))
    assert json.loads(used.model_dump_json())["expected"] == {"assignee": None}
    change = BreakRuleChange(breaks=None, based_on=BreakRuleSeen(breaks=None), keep_high_harm=True)
    assert json.loads(change.model_dump_json()) == {
        "breaks": None,
        "based_on": {"breaks": None},
        "keep_high_harm": True,
    }
    # read back by this service: the same request
    assert EscalationAssignment.model_validate_json(used.model_dump_json()) == used
