"""Routing and re-review rules over a small queue configuration (tests/support/intake.py):

- misinfo: a ``civic``/``claim`` score of 0.75 or more, or a fact-check rated false or
  partly false; re-review after keep on 3 new reports or a new false rating;
- hate: 3 reports with reason ``hate``, or a ``hate-bert`` score of 0.9 or more (any
  label); re-review after keep on 2 new reports;
- inauth: the author's inauthenticity score of 0.8 or more; no re-review.

Queues are tried in that order; the first rule met takes the post. The demo configuration
has a table of its own (the demo's tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from sqlalchemy import func, select

from reviewer_app.protocol import QueueFile, Role
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import items
from tests.support.api import ApiSession, claim, verdict
from tests.support.intake import (
    HATE,
    INAUTH,
    MISINFO,
    QUEUES,
    apply_queues,
    author,
    classifier,
    fact_check,
    key_session,
    post,
    report,
    send,
    statuses,
)
from tests.support.servers import LiveServer


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    apply_queues(live_server)
    return live_server


@pytest.fixture
def platform(server: LiveServer) -> ApiSession:
    return key_session(server, "feed-bridge")


@pytest.fixture
def lead(server: LiveServer) -> ApiSession:
    return server.login("lena", Role.lead)


@dataclass(frozen=True)
class Case:
    name: str
    batches: list[list[dict[str, Any]]]
    """Signal batches for the post (``{post}`` is filled in), sent one after the other."""
    queue: str | None
    rule: str | None = None
    reasons: list[str] = field(default_factory=list)
    suspicious_author: bool = False


def civic(score: float, label: str = "claim") -> dict[str, Any]:
    return classifier("{post}", score, model="civic", label=label)


def hate_reports(n: int, reason: str = "hate") -> list[dict[str, Any]]:
    return [report("{post}", reason) for _ in range(n)]


CASES = [
    Case("civic claim over the threshold", [[civic(0.8)]], MISINFO, "civic-claim", ["classifier"]),
    Case("civic claim at the threshold", [[civic(0.75)]], MISINFO, "civic-claim"),
    Case("civic claim under the threshold", [[civic(0.74)]], None),
    Case("another label of the model", [[civic(0.99, label="opinion")]], None),
    Case("the newest score counts", [[civic(0.5)], [civic(0.9)]], MISINFO, "civic-claim"),
    Case(
        "a fact-check rated false",
        [[fact_check("{post}", "false")]],
        MISINFO,
        "fact-checked",
        ["fact_check"],
    ),
    Case("rated partly false", [[fact_check("{post}", "partly_false")]], MISINFO, "fact-checked"),
    Case("rated missing context", [[fact_check("{post}", "missing_context")]], None),
    Case("two hate reports", [hate_reports(2)], None),
    Case(
        "three hate reports in two batches",
        [hate_reports(2), hate_reports(1)],
        HATE,
        "hate-reports",
        ["user_reports"],
    ),
    Case("three reports of another reason", [hate_reports(3, "spam")], None),
    Case(
        "the hate model, any label",
        [[classifier("{post}", 0.95, model="hate-bert", label="slur")]],
        HATE,
        "hate-model",
        ["classifier"],
    ),
    Case(
        "two queues' rules: the first queue takes it",
        [[*hate_reports(3), civic(0.9)]],
        MISINFO,
        "civic-claim",
    ),
    Case(
        "a suspicious author with a signal",
        [[report("{post}", "spam")]],
        INAUTH,
        "account-graph",
        ["classifier"],
        suspicious_author=True,
    ),
    Case("a suspicious author, no signal", [], None, suspicious_author=True),
]


def _signals(batch: list[dict[str, Any]], external_id: str, n: int) -> list[dict[str, Any]]:
    return [
        {**s, "id": f"{s['id']}-{n}", "post_external_id": external_id}
        if s["post_external_id"] == "{post}"
        else s
        for s in batch
    ]


def test_routing_rules(server: LiveServer, platform: ApiSession, lead: ApiSession) -> None:
    for n, case in enumerate(CASES):
        external_id = f"case-{n}"
        suspicious = {"inauthenticity_score": 0.9, "posts_per_day": 300.0}
        writer = author(f"writer-{n}", signals=suspicious) if case.suspicious_author else author()
        assert statuses(send(platform, "posts", [post(external_id, author=writer)])) == ["created"]
        results: list[dict[str, Any]] = []
        for batch in case.batches:
            results = send(platform, "signals", _signals(batch, external_id, n))
            assert statuses(results) == ["created"] * len(batch), (case.name, results)
        opened = {i for r in results for i in r["item_ids"]}
        if case.queue is None:
            assert not opened, f"{case.name}: queued in {results}"
            continue
        assert len(opened) == 1, (case.name, results)
        [item_id] = opened
        item = lead.get(f"/items/{item_id}").json()
        assert item["queue_id"] == case.queue, case.name
        enqueued = item["history"][0]
        assert enqueued["kind"] == "enqueued" and enqueued["data"]["rule"] == case.rule, (
            case.name,
            enqueued,
        )
        if case.reasons:
            assert [r["kind"] for r in item["reasons"]] == case.reasons, (case.name, item)


# -- re-review ---------------------------------------------------------------------------------


def _open(platform: ApiSession, external_id: str, signals: list[dict[str, Any]]) -> str:
    send(platform, "posts", [post(external_id)])
    results = send(platform, "signals", signals)
    [item_id] = {i for r in results for i in r["item_ids"]}
    return item_id


def _decide(server: LiveServer, queue: str, item_id: str, action: str, **fields: Any) -> None:
    reviewer = server.login(f"rev-{item_id[-8:]}")
    leased = claim(reviewer, queue, 1)
    assert leased[0]["item"]["id"] == item_id
    [result] = reviewer.decide([verdict(leased[0], action, **fields)])
    assert result["status"] == "accepted", result


def test_a_kept_post_comes_back_on_new_reports_with_its_earlier_decision(
    server: LiveServer, platform: ApiSession, lead: ApiSession
) -> None:
    first = _open(platform, "kept", [civic_signal("kept")])
    # reports while it waits are part of what the reviewer decided on, not new
    send(platform, "signals", [report("kept", "spam")])
    _decide(server, MISINFO, first, "keep")

    two = send(platform, "signals", [report("kept", "spam"), report("kept", "spam")])
    assert [r["item_ids"] for r in two] == [[], []]  # the rule wants 3 new ones
    [third] = send(platform, "signals", [report("kept", "spam")])
    assert third["queue_ids"] == [MISINFO] and third["item_ids"] != [first], third
    [second] = third["item_ids"]

    item = lead.get(f"/items/{second}").json()
    assert item["state"] == "pending" and item["post"]["id"] == "kept"
    assert item["reports"]["total"] == 4  # all of them, the earlier ones included
    kinds = [e["kind"] for e in item["history"]]
    assert kinds == ["enqueued", "rereview"], kinds
    rereview = item["history"][1]["data"]
    assert rereview["earlier_item_id"] == first and rereview["earlier_action"] == "keep"
    earlier = lead.get(f"/items/{first}").json()
    assert earlier["decision"]["id"] == rereview["earlier_decision_id"]
    assert earlier["decision"]["action"] == "keep"
    assert earlier["history"][-1]["kind"] == "rereview"
    assert earlier["history"][-1]["data"] == {"new_item_id": second}

    # the new item is open: more reports go to it, nothing is queued twice
    more = send(platform, "signals", [report("kept", "spam") for _ in range(5)])
    assert all(r["item_ids"] == [second] for r in more), more


def civic_signal(external_id: str, score: float = 0.9) -> dict[str, Any]:
    return classifier(external_id, score, model="civic", label="claim")


def test_a_kept_post_comes_back_on_a_new_false_rating_only(
    server: LiveServer, platform: ApiSession
) -> None:
    first = _open(platform, "kept", [civic_signal("kept")])
    _decide(server, MISINFO, first, "keep")
    # the same organisation and article rated again: a new rating after the decision
    [satire] = send(platform, "signals", [fact_check("kept", "satire")])
    assert satire["item_ids"] == []
    [false] = send(platform, "signals", [fact_check("kept", "false", url="https://f.example/2")])
    assert false["queue_ids"] == [MISINFO] and false["item_ids"] and false["item_ids"] != [first]


def test_a_removed_post_never_comes_back(server: LiveServer, platform: ApiSession) -> None:
    first = _open(platform, "removed", [civic_signal("removed")])
    _decide(server, MISINFO, first, "remove", policies=["MISINFO.CIVIC"])
    # more than enough for misinfo's re-review and for the hate queue's routing
    results = send(
        platform,
        "signals",
        [*(report("removed", "hate") for _ in range(10)), fact_check("removed", "false")],
    )
    assert statuses(results) == ["created"] * 11
    assert all(r["item_ids"] == [] for r in results), results


def test_a_labelled_post_does_not_come_back_but_another_queue_may_take_it(
    server: LiveServer, platform: ApiSession
) -> None:
    first = _open(
        platform, "labelled", [civic_signal("labelled"), fact_check("labelled", "missing_context")]
    )
    _decide(server, MISINFO, first, "label", rating="missing_context")
    [new_false] = send(
        platform, "signals", [fact_check("labelled", "false", url="https://f.example/9")]
    )
    assert new_false["item_ids"] == []  # misinfo answered already: the label stands
    results = send(platform, "signals", [report("labelled", "hate") for _ in range(3)])
    assert results[-1]["queue_ids"] == [HATE], results


def test_each_queue_has_its_own_re_review_rule(server: LiveServer, platform: ApiSession) -> None:
    first = _open(platform, "heated", [report("heated", "hate") for _ in range(3)])
    _decide(server, HATE, first, "keep")
    [one] = send(platform, "signals", [report("heated", "hate")])
    assert one["item_ids"] == []
    [two] = send(platform, "signals", [report("heated", "hate")])
    assert two["queue_ids"] == [HATE] and two["item_ids"] != [first]


def test_no_re_review_rule_means_a_kept_post_stays_kept(
    server: LiveServer, platform: ApiSession
) -> None:
    suspicious = author("bot", signals={"inauthenticity_score": 0.95, "posts_per_day": 500.0})
    send(platform, "posts", [post("botpost", author=suspicious)])
    [opened] = send(platform, "signals", [report("botpost", "spam")])
    assert opened["queue_ids"] == [INAUTH]
    _decide(server, INAUTH, opened["item_ids"][0], "authentic")
    results = send(platform, "signals", [report("botpost", "spam") for _ in range(20)])
    assert all(r["item_ids"] == [] for r in results)


def given(reason: dict[str, Any]) -> dict[str, Any]:
    """A reason's fields that say something (the parts a reason has not are null, and
    ``since_kept`` false)."""
    return {k: v for k, v in reason.items() if v is not None and v is not False}


def test_the_reasons_name_ratings_and_report_reasons_in_words(
    server: LiveServer, platform: ApiSession, lead: ApiSession
) -> None:
    """What "Why queued" shows reviewers: a rating by its label in the queue's scale (it
    said "partly_false"), and re-review's new rating too."""
    rated = _open(platform, "rated", [fact_check("rated", "partly_false", organisation="Desk")])
    [why] = lead.get(f"/items/{rated}").json()["reasons"]
    assert given(why) == {"kind": "fact_check", "detail": "Partly false (Desk)"}

    send(platform, "posts", [post("slurred")])
    [flagged] = send(
        platform, "signals", [classifier("slurred", 0.97, model="hate-bert", label="targeted_slur")]
    )
    [slurred] = flagged["item_ids"]
    [why] = lead.get(f"/items/{slurred}").json()["reasons"]
    assert "targeted slur 0.97" in why["detail"], why  # the model's label in words
    # ... and the parts, for the desk to say it in its reviewer's language
    assert why["subject"].endswith(": targeted slur") and why["score"] == 0.97, why
    assert why["threshold"] is not None and why["count"] is None, why

    send(platform, "posts", [post("abusive")])
    [*_, last] = send(platform, "signals", [report("abusive", "hate") for _ in range(3)])
    [reported] = last["item_ids"]
    [why] = lead.get(f"/items/{reported}").json()["reasons"]
    assert (why["kind"], why["detail"]) == ("user_reports", "3 hate reports"), why
    assert (why["subject"], why["count"], why["score"]) == ("hate", 3, None), why

    _decide(server, MISINFO, rated, "keep")
    [again] = send(platform, "signals", [fact_check("rated", "false", url="https://f.example/9")])
    [second] = again["item_ids"]
    assert [given(r) for r in lead.get(f"/items/{second}").json()["reasons"]] == [
        {
            "kind": "fact_check",
            "detail": "new rating False (Check Desk) since kept",
            "subject": "False (Check Desk)",
            "since_kept": True,
        }
    ]


def test_a_queue_another_process_removed_gets_no_post_routed_into_it(
    server: LiveServer, platform: ApiSession
) -> None:
    """The service routed by its cached configuration, up to 10 s behind another process's
    apply: a post went into a queue just removed, where nobody could claim it and every
    later apply without --drain-to was refused."""
    _open(platform, "before", [report("before", "hate") for _ in range(3)])
    assert server.service.config_version() == 1  # cached now
    without_hate = {**QUEUES, "queues": [q for q in QUEUES["queues"] if q["id"] != HATE]}
    other = Service(server.settings)
    try:
        other.apply_queue_file(QueueFile.model_validate(without_hate), "cli", drain_to=MISINFO)
    finally:
        other.close()
    assert HATE in server.service.configs(), "this process has not re-read it"
    send(platform, "posts", [post("after")])
    results = send(platform, "signals", [report("after", "hate") for _ in range(3)])
    assert [r["item_ids"] for r in results] == [[], [], []], "no queue of the running file"
    with server.service.db.read() as conn:
        stranded = conn.execute(
            select(func.count()).select_from(items).where(items.c.queue_id == HATE)
        ).scalar()
    assert stranded == 0
