"""The demo's routing and re-review rules (demo/queues.toml), table-driven, through the
intake routes with a platform key on SQLite and PostgreSQL: which queue each set of signals
opens an item in, and which decided posts come back. (The label rules of the same
configuration, the fact-check preset and a label without a fact-check refused, are
tests/server/test_fact_check_verdicts.py's table.)"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.demo.queues import ESCALATIONS as ESC
from reviewer_app.server.demo.queues import HATE, INAUTHENTIC, MISINFORMATION, SPAM
from reviewer_app.server.demo.replay import apply_demo_queues
from tests.support.api import ApiSession, claim, verdict
from tests.support.intake import author, classifier, fact_check, key_session, post, report, send
from tests.support.servers import LiveServer

MISINFO = MISINFORMATION
INAUTH = INAUTHENTIC
_ids = itertools.count()


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    apply_demo_queues(live_server.service)
    return live_server


@pytest.fixture
def platform(server: LiveServer) -> ApiSession:
    return key_session(server, "demo-feed")


@pytest.fixture
def lead(server: LiveServer) -> ApiSession:
    return server.login("lena", Role.lead)


def score(model: str, value: float, label: str = "x") -> dict[str, Any]:
    return classifier("{post}", value, model=model, label=label, signal_id=f"c{next(_ids)}")


def reports(n: int, reason: str) -> list[dict[str, Any]]:
    return [report("{post}", reason, signal_id=f"r{next(_ids)}") for _ in range(n)]


def rated(rating: str) -> dict[str, Any]:
    return fact_check(
        "{post}", rating, signal_id=f"f{next(_ids)}", url=f"https://fc.example/{next(_ids)}"
    )


@dataclass(frozen=True)
class Case:
    name: str
    signals: list[dict[str, Any]]
    queue: str | None
    rule: str | None = None
    inauthenticity: float = 0.1


CASES = [
    Case(
        "the triage model's flag",
        [score("escalation-triage", 0.9, "credible_threat")],
        ESC,
        "needs-a-lead",
    ),
    Case("triage flag under 0.75", [score("escalation-triage", 0.7)], None),
    Case(
        "triage flag and a toxic post: escalations come first",
        [score("toxicity-xlmr", 0.97), score("escalation-triage", 0.8)],
        ESC,
        "needs-a-lead",
    ),
    Case(
        "a debunked civic claim",
        [score("misinfo-claim-matcher", 0.8, "civic_claim")],
        MISINFO,
        "claim-matched",
    ),
    Case(
        "a health claim at 0.75",
        [score("misinfo-claim-matcher", 0.75, "health_claim")],
        MISINFO,
        "claim-matched",
    ),
    Case("claim matcher under 0.75", [score("misinfo-claim-matcher", 0.74)], None),
    Case("rated false", [rated("false")], MISINFO, "rated-by-fact-checkers"),
    Case("rated partly false", [rated("partly_false")], MISINFO, "rated-by-fact-checkers"),
    Case("rated missing context", [rated("missing_context")], MISINFO, "rated-by-fact-checkers"),
    Case("rated altered", [rated("altered")], MISINFO, "rated-by-fact-checkers"),
    Case("rated satire", [rated("satire")], None),
    Case("rated true", [rated("true")], None),
    Case(
        "3 reports of false information",
        reports(3, "false_information"),
        MISINFO,
        "reported-as-false",
    ),
    Case("2 reports of false information", reports(2, "false_information"), None),
    Case("toxic over 0.8", [score("toxicity-xlmr", 0.85, "identity_attack")], HATE, "toxic"),
    Case("toxicity under 0.8", [score("toxicity-xlmr", 0.79)], None),
    Case("3 hate reports", reports(3, "hate"), HATE, "reported"),
    Case("3 harassment reports", reports(3, "harassment"), HATE, "reported"),
    Case("3 violence reports", reports(3, "violence"), HATE, "reported"),
    Case("2 hate and 1 harassment report", reports(2, "hate") + reports(1, "harassment"), None),
    Case("the spam model at 0.7", [score("spam-gbdt", 0.7, "scam")], SPAM, "spam-model"),
    Case("3 scam reports", reports(3, "scam"), SPAM, "reported"),
    Case("3 spam reports", reports(3, "spam"), SPAM, "reported"),
    Case(
        "the account graph at 0.65",
        [score("inauthentic-graph", 0.65, "coordinated_cluster")],
        INAUTH,
        "account-graph",
    ),
    Case("3 fake-account reports", reports(3, "fake_account"), INAUTH, "reported"),
    Case("3 impersonation reports", reports(3, "impersonation"), INAUTH, "reported"),
    Case(
        "an inauthentic-looking author alone routes nothing",
        [score("spam-gbdt", 0.2)],
        None,
        inauthenticity=0.97,
    ),
    Case(
        "spam and toxic: hate comes before spam",
        [score("spam-gbdt", 0.95), score("toxicity-xlmr", 0.9)],
        HATE,
        "toxic",
    ),
    Case(
        "spam and the account graph: spam comes first",
        [score("inauthentic-graph", 0.9), score("spam-gbdt", 0.9)],
        SPAM,
        "spam-model",
    ),
    Case(
        "a claim and hate reports: misinformation comes first",
        [*reports(3, "hate"), score("misinfo-claim-matcher", 0.9)],
        MISINFO,
        "claim-matched",
    ),
    Case("graphic media alone", [score("nsfw-vision", 0.99, "graphic_violence")], None),
]


def _for(signals: list[dict[str, Any]], external_id: str) -> list[dict[str, Any]]:
    return [{**s, "post_external_id": external_id} for s in signals]


def test_the_demo_routing_table(server: LiveServer, platform: ApiSession, lead: ApiSession) -> None:
    for n, case in enumerate(CASES):
        external_id = f"demo-case-{n}"
        writer = author(
            f"writer-{n}",
            signals={"posts_per_day": 5.0, "inauthenticity_score": case.inauthenticity},
        )
        send(platform, "posts", [post(external_id, author=writer)])
        results = send(platform, "signals", _for(case.signals, external_id))
        assert {r["status"] for r in results} == {"created"}, (case.name, results)
        opened = {i for r in results for i in r["item_ids"]}
        if case.queue is None:
            assert not opened, f"{case.name}: queued in {results}"
            continue
        assert len(opened) == 1, (case.name, results)
        item = lead.get(f"/items/{opened.pop()}").json()
        assert item["queue_id"] == case.queue, case.name
        assert item["history"][0]["data"]["rule"] == case.rule, (case.name, item["history"][0])


# -- re-review ---------------------------------------------------------------------------------


def _open(platform: ApiSession, external_id: str, signal: dict[str, Any]) -> str:
    send(platform, "posts", [post(external_id)])
    [result] = send(platform, "signals", _for([signal], external_id))
    [item_id] = result["item_ids"]
    return item_id


def _decide(server: LiveServer, queue: str, item_id: str, action: str, **fields: Any) -> None:
    reviewer = server.login(f"rev-{next(_ids)}")
    leased = claim(reviewer, queue, 10, exactly=False)
    mine = next(x for x in leased if x["item"]["id"] == item_id)
    [result] = reviewer.decide([verdict(mine, action, **fields)])
    assert result["status"] == "accepted", result


def _reopened(results: list[dict[str, Any]], first: str) -> set[str]:
    return {i for r in results for i in r["item_ids"]} - {first}


@pytest.mark.parametrize(
    ("queue", "opening", "keep"),
    [
        (MISINFO, score("misinfo-claim-matcher", 0.9), "no-violation"),
        (HATE, score("toxicity-xlmr", 0.9), "no-violation"),
        (SPAM, score("spam-gbdt", 0.9), "not-spam"),
    ],
)
def test_a_kept_post_comes_back_after_ten_new_reports(
    server: LiveServer, platform: ApiSession, queue: str, opening: dict[str, Any], keep: str
) -> None:
    external_id = f"kept-{queue}"
    first = _open(platform, external_id, opening)
    _decide(server, queue, first, keep)
    nine = send(platform, "signals", _for(reports(9, "other"), external_id))
    assert not _reopened(nine, first)
    tenth = send(platform, "signals", _for(reports(1, "other"), external_id))
    assert _reopened(tenth, first) and tenth[0]["queue_ids"] == [queue]


def test_a_kept_misinformation_post_comes_back_on_a_new_false_or_partly_false_rating(
    server: LiveServer, platform: ApiSession
) -> None:
    for rating in ("false", "partly_false"):
        external_id = f"kept-rated-{rating}"
        first = _open(platform, external_id, score("misinfo-claim-matcher", 0.9))
        _decide(server, MISINFO, first, "no-violation")
        for other in ("missing_context", "altered", "satire", "true"):
            assert not _reopened(
                send(platform, "signals", _for([rated(other)], external_id)), first
            )
        again = send(platform, "signals", _for([rated(rating)], external_id))
        assert _reopened(again, first) and again[0]["queue_ids"] == [MISINFO]


def test_a_kept_inauthentic_account_post_does_not_come_back_and_a_removed_post_never(
    server: LiveServer, platform: ApiSession
) -> None:
    kept = _open(platform, "kept-inauth", score("inauthentic-graph", 0.9))
    _decide(server, INAUTH, kept, "authentic")
    assert not _reopened(
        send(platform, "signals", _for(reports(12, "fake_account"), "kept-inauth")), kept
    )
    removed = _open(platform, "removed-misinfo", score("misinfo-claim-matcher", 0.9))
    _decide(server, MISINFO, removed, "remove", policies=["MISINFO.CIVIC"])
    more = send(
        platform, "signals", _for([*reports(12, "hate"), rated("false")], "removed-misinfo")
    )
    assert not _reopened(more, removed)
