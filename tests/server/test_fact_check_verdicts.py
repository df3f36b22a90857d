"""Fact-checks drive the misinformation verdict (both databases, over real HTTP, the demo's
misinformation queue as its queue file declares it): a label needs a fact-check on the
item; its rating is one a fact-checker gave unless a note overrides it; false ratings are
labelled *and* reduced; reduce alone stays possible. The client's check is the same rule
(``protocol.verdict_problems``), asserted case by case."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from reviewer_app.protocol import DraftVerdict, Role, preset_rating, verdict_problems
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.misinfo import MISINFO_CONFIG, QUEUE_ID, seed_misinformation
from tests.support.servers import LiveServer

ALL_TIME = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}


@dataclass(frozen=True)
class Case:
    name: str
    given: tuple[str, ...]
    """the ratings fact-checkers gave the item (none: no fact-check at all)"""
    action: str
    rating: str | None
    note: str | None
    status: str
    """accepted, rejected (per verdict) or 422 (the batch is refused: the config's rules)"""
    code: str | None = None


CASES = [
    Case("label, no fact-check", (), "label", "missing_context", None, "rejected",
         "fact_check_required"),
    Case("label, no fact-check, with a note", (), "label", "missing_context", "I checked",
         "rejected", "fact_check_required"),
    Case("label and reduce, no fact-check", (), "label-reduce", "false", None, "rejected",
         "fact_check_required"),
    Case("label, the rating given", ("missing_context",), "label", "missing_context", None,
         "accepted"),
    Case("label, another rating, no note", ("missing_context",), "label", "satire", None,
         "rejected", "rating_not_given"),
    Case("label, another rating, a note", ("missing_context",), "label", "satire",
         "The linked article is a parody site", "accepted"),
    Case("label, a blank note is no note", ("missing_context",), "label", "satire", "   ",
         "rejected", "rating_not_given"),
    Case("label only with false", ("false",), "label", "false", None, "422",
         "rating_needs_reduce"),
    Case("label only with partly false", ("partly_false",), "label", "partly_false", None, "422",
         "rating_needs_reduce"),
    Case("label and reduce, false", ("false",), "label-reduce", "false", None, "accepted"),
    Case("label and reduce, one of two ratings", ("false", "partly_false"), "label-reduce",
         "partly_false", None, "accepted"),
    Case("label and reduce, a rating not given", ("false",), "label-reduce", "partly_false",
         None, "rejected", "rating_not_given"),
    Case("label and reduce, a rating not given, a note", ("false",), "label-reduce",
         "partly_false", "Only part of the claim is false", "accepted"),
    Case("label without a rating", ("false",), "label-reduce", None, None, "422",
         "rating_required"),
    Case("reduce alone, no fact-check", (), "reduce", None, None, "accepted"),
    Case("reduce alone, fact-checked", ("false",), "reduce", None, None, "accepted"),
    Case("keep, fact-checked", ("false",), "no-violation", None, None, "accepted"),
]  # fmt: skip


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    seed_misinformation(
        live_server.service, {f"fc-{n:02d}": case.given for n, case in enumerate(CASES)}
    )
    return live_server


def test_label_verdicts_follow_the_fact_checks(server: LiveServer) -> None:
    rita = server.login("rita")
    leased = {x["item"]["id"]: x for x in claim(rita, QUEUE_ID, len(CASES))}
    failures = []
    for n, case in enumerate(CASES):
        x = leased[f"fc-{n:02d}"]
        assert sorted(f["rating"] for f in x["item"]["fact_checks"]) == sorted(case.given)
        fields: dict[str, Any] = {"rating": case.rating, "note": case.note}
        response = rita.post("/verdicts", json={"verdicts": [verdict(x, case.action, **fields)]})
        got = _outcome(response)
        if got != (case.status, case.code):
            failures.append(f"{case.name}: expected {(case.status, case.code)}, got {got}")
        elif case.status == "accepted":
            decision = response.json()["results"][0]["decision"]
            assert (decision["action"], decision["rating"]) == (case.action, case.rating)
        # the client decides the same with the same rule, before anything is sent
        local = verdict_problems(
            MISINFO_CONFIG,
            DraftVerdict(case.action, [], case.rating, case.note),
            set(case.given),
        )
        if [p.code for p in local][:1] != ([case.code] if case.code else []):
            failures.append(f"{case.name}: the shared rule says {[p.code for p in local]}")
    assert not failures, "\n".join(failures)


def _outcome(response: Any) -> tuple[str, str | None]:
    if response.status_code == 422:
        body = expect_problem(response, 422, "verdict_invalid")
        codes = [e["code"] for e in body["errors"]]
        assert len(codes) == 1, codes
        assert body["errors"][0]["loc"][:2] == ["verdicts", 0]
        return "422", codes[0]
    assert response.status_code == 200, response.text
    (result,) = response.json()["results"]
    if result["status"] == "rejected":
        assert result["reason"]["message"], result
        return "rejected", result["reason"]["code"]
    return result["status"], None


def test_a_refused_label_leaves_the_item_to_decide(server: LiveServer) -> None:
    """A refusal is not a decision: the reviewer's lease still holds and a verdict that
    follows the rules is accepted."""
    rita = server.login("rita")
    leased = {x["item"]["id"]: x for x in claim(rita, QUEUE_ID, len(CASES))}
    x = leased["fc-00"]  # no fact-check
    (refused,) = rita.decide([verdict(x, "label", rating="missing_context")])
    assert (refused["status"], refused["reason"]["code"]) == ("rejected", "fact_check_required")
    assert "fact-check" in refused["reason"]["message"]
    (kept,) = rita.decide([verdict(x, "reduce")])
    assert kept["status"] == "accepted"


def test_the_preset_is_the_most_severe_rating_given() -> None:
    assert preset_rating(MISINFO_CONFIG, ["missing_context", "false"]) == "false"
    assert preset_rating(MISINFO_CONFIG, ["satire", "partly_false"]) == "partly_false"
    assert preset_rating(MISINFO_CONFIG, ["mostly_true_elsewhere"]) is None
    assert preset_rating(MISINFO_CONFIG, []) is None


def test_an_overturn_follows_the_same_rules(server: LiveServer) -> None:
    rita = server.login("rita")
    lead = server.login("lead", Role.lead)
    leased = {x["item"]["id"]: x for x in claim(rita, QUEUE_ID, len(CASES))}
    unchecked, rated_false = leased["fc-14"], leased["fc-15"]  # no fact-check; false
    results = rita.decide([verdict(unchecked, "reduce"), verdict(rated_false, "reduce")])
    assert {r["status"] for r in results} == {"accepted"}
    sample = lead.post("/audits/samples", json={**ALL_TIME, "size": 2}).json()
    seen = set()
    for _ in range(2):
        task = lead.post(f"/audits/samples/{sample['id']}/next").json()["task"]
        seen.add(task["item"]["id"])
        path = f"/audits/tasks/{task['audit_id']}/result"
        if task["item"]["id"] == "fc-14":
            label = {"result": "overturn", "action": "label", "rating": "missing_context"}
            problem = expect_problem(
                lead.post(path, json={**label, "note": "needs a label"}), 422, "overturn_invalid"
            )
            assert [(e["code"], e["loc"]) for e in problem["errors"]] == [
                ("fact_check_required", ["body", "action"])
            ]
            response = lead.post(
                path, json={"result": "overturn", "action": "no-violation", "note": "x"}
            )
        else:
            # a blind judgement labelling with a rating no fact-checker gave needs the
            # auditor's own note (the note the service writes for an overturn does not count)
            judge = {"result": "judge", "action": "label-reduce", "rating": "partly_false"}
            problem = expect_problem(lead.post(path, json=judge), 422, "overturn_invalid")
            assert [e["code"] for e in problem["errors"]] == ["rating_not_given"]
            response = lead.post(path, json={**judge, "note": "only part of the claim is false"})
        assert response.status_code == 201, response.text
    assert seen == {"fc-14", "fc-15"}
    corrected = {d["item_id"]: d for d in _decisions(lead) if d["kind"] == "overturn"}
    assert corrected["fc-15"]["rating"] == "partly_false"
    assert corrected["fc-14"]["action"] == "no-violation"


def _decisions(lead: ApiSession) -> list[dict[str, Any]]:
    response = lead.get("/decisions", params={"limit": 100})
    assert response.status_code == 200, response.text
    found: list[dict[str, Any]] = response.json()["decisions"]
    return found


def test_config_only_rules_do_not_need_the_item() -> None:
    """Without the item's fact-checks the rule checks the config alone (what the service
    refuses a whole batch for)."""
    codes = [
        p.code for p in verdict_problems(MISINFO_CONFIG, DraftVerdict("label", [], "false", None))
    ]
    assert codes == ["rating_needs_reduce"]
    assert verdict_problems(MISINFO_CONFIG, DraftVerdict("label", [], "satire", None)) == []
