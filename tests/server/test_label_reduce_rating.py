"""'Label and reduce' carries a rating that reduces (both databases, over real HTTP, the
demo's misinformation queue as its queue file declares it): the scale's ``reduces`` decides
both ways. A rating that does not reduce (true, missing context) is labelled only: with
label and reduce it is refused as the opposite case is (``rating_does_not_reduce``, the
whole batch, a note does not override it), saying to use Label only; nothing is decided, and
the item is labelled with the same rating at once. The client's check is the same rule."""

from __future__ import annotations

from typing import Any

from reviewer_app.protocol import DraftVerdict, Role, preset_rating, verdict_problems
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.misinfo import MISINFO_CONFIG, QUEUE_ID, seed_misinformation
from tests.support.servers import LiveServer

ALL_TIME = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}
ITEMS = {"lr-true": ("true",), "lr-context": ("missing_context",), "lr-false": ("false",)}


def _refused(session: ApiSession, body: dict[str, Any]) -> list[dict[str, Any]]:
    response = session.post("/verdicts", json={"verdicts": [body]})
    problem = expect_problem(response, 422, "verdict_invalid")
    errors: list[dict[str, Any]] = problem["errors"]
    return errors


def test_label_and_reduce_with_a_rating_that_does_not_reduce_is_refused(
    live_server: LiveServer,
) -> None:
    seed_misinformation(live_server.service, ITEMS)
    rita = live_server.login("rita")
    leased = {x["item"]["id"]: x for x in claim(rita, QUEUE_ID, len(ITEMS))}
    true_only, context = leased["lr-true"], leased["lr-context"]
    # the client's preset for a post rated only true is true: key 2 would send this
    assert preset_rating(MISINFO_CONFIG, ["true"]) == "true"
    for x, rating, note in (
        (true_only, "true", None),
        (true_only, "true", "I checked it myself"),  # a note does not make it reduce
        (context, "missing_context", None),
    ):
        errors = _refused(rita, verdict(x, "label-reduce", rating=rating, note=note))
        assert [(e["code"], e["loc"]) for e in errors] == [
            ("rating_does_not_reduce", ["verdicts", 0, "rating"])
        ], errors
        assert "Label only" in errors[0]["message"], errors
        assert "not reduced" in errors[0]["message"], errors
    # nothing was decided: the lease holds and the label alone is accepted
    results = rita.decide(
        [
            verdict(true_only, "label", rating="true"),
            verdict(context, "label", rating="missing_context"),
            verdict(leased["lr-false"], "label-reduce", rating="false"),
        ]
    )
    decided = [(r["status"], r["decision"]["action"], r["decision"]["rating"]) for r in results]
    assert decided == [
        ("accepted", "label", "true"),
        ("accepted", "label", "missing_context"),
        ("accepted", "label-reduce", "false"),
    ]
    _no_overturn_to_it(live_server.login("lead", Role.lead))


def _no_overturn_to_it(lead: ApiSession) -> None:
    """An auditor's corrected decision follows the same rule."""
    sample = lead.post("/audits/samples", json={**ALL_TIME, "size": 1}).json()
    task = lead.post(f"/audits/samples/{sample['id']}/next").json()["task"]
    rating = {"lr-true": "true", "lr-context": "missing_context", "lr-false": "true"}
    judge = {
        "result": "judge",
        "action": "label-reduce",
        "rating": rating[task["item"]["id"]],
        "note": "a second look",
    }
    path = f"/audits/tasks/{task['audit_id']}/result"
    problem = expect_problem(lead.post(path, json=judge), 422, "overturn_invalid")
    assert [e["code"] for e in problem["errors"]] == ["rating_does_not_reduce"], problem


def test_label_reduce_rule_is_shared_with_the_client() -> None:
    """Config-only (no item needed): for every rating on the scale, label and reduce takes
    exactly the reducing ones and label only exactly the others."""
    for rating in MISINFO_CONFIG.ratings:
        both = verdict_problems(MISINFO_CONFIG, DraftVerdict("label-reduce", [], rating.id))
        alone = verdict_problems(MISINFO_CONFIG, DraftVerdict("label", [], rating.id))
        if rating.reduces:
            assert (both, [p.code for p in alone]) == ([], ["rating_needs_reduce"]), rating
        else:
            assert ([p.code for p in both], alone) == (["rating_does_not_reduce"], []), rating
            assert both[0].field == "rating" and not both[0].on_item
            assert "Label only" in both[0].message
