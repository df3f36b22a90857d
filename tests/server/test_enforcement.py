"""Enforcement actions over real HTTP on SQLite and PostgreSQL: one action per decision of
record with the right kind, ids and details; escalations act only when the lead decides;
an overturn reverses exactly the action it replaces; a withdrawal is told; the feed pages
in seq order, resumes from any cursor, long-polls, and shows a platform only its own."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import requests
from sqlalchemy import select, text
from sqlalchemy.exc import DatabaseError

from reviewer_app.protocol import EnforcementPage, QueueFile, Role
from reviewer_app.server.storage.tables import enforcement_actions
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.clock import ManualClock
from tests.support.enforcement import (
    ESCALATIONS,
    queue_file,
    queue_posts,
    read_all,
    read_feed,
)
from tests.support.intake import INAUTH, MISINFO, author, fact_check, post, report, send
from tests.support.servers import LiveServer, running

ALL_TIME = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    live_server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
    return live_server


def platform_key(server: LiveServer, name: str = "feed-bridge") -> str:
    return server.service.create_api_key(Role.platform, name).key


def by_post(leased: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Leased items by their post's external id (the post's url ends with it)."""
    return {x["item"]["post"]["url"].rsplit("/", 1)[-1]: x for x in leased}


def sealed_feed(server: LiveServer, key: str, after: int = 0) -> list[dict[str, Any]]:
    server.service.seal_now()  # what committed is in the feed now
    found = read_all(server.url, key, after)
    EnforcementPage.model_validate({"actions": found, "next_cursor": 0})  # the wire's shape
    return found


def test_one_action_per_decision_with_its_kind_ids_and_details(server: LiveServer) -> None:
    key = platform_key(server)
    platform = ApiSession(server.url, key)
    names = ["p-keep", "p-remove", "p-label", "p-label-reduce", "p-restrict", "p-reduce"]
    item_ids = dict(zip(names, queue_posts(platform, names), strict=True))
    send(
        platform,
        "signals",
        [
            fact_check(
                "p-label", "missing_context", organisation="Check Desk", url="https://fc.example/1"
            ),
            fact_check(
                "p-label-reduce", "false", organisation="Verify Co", url="https://fc.example/2"
            ),
        ],
    )
    rita = server.login("rita")
    leased = by_post(claim(rita, MISINFO, len(names)))
    results = rita.decide(
        [
            verdict(leased["p-keep"], "keep"),
            verdict(leased["p-remove"], "remove", policies=["MISINFO.CIVIC"]),
            verdict(leased["p-label"], "label", rating="missing_context"),
            verdict(leased["p-label-reduce"], "label-reduce", rating="false"),
            verdict(leased["p-restrict"], "remove-restrict", policies=["MISINFO.CIVIC"]),
            verdict(leased["p-reduce"], "reduce"),
        ]
    )
    assert [r["status"] for r in results] == ["accepted"] * 6, results
    decisions = {r["item_id"]: r["decision"] for r in results}

    actions = sealed_feed(server, key)
    assert [a["post_external_id"] for a in actions] == names, "one each, in decision order"
    assert [a["seq"] for a in actions] == sorted(a["seq"] for a in actions)
    assert len({a["id"] for a in actions}) == 6
    by_name = {a["post_external_id"]: a for a in actions}
    for name, action in by_name.items():
        decision = decisions[item_ids[name]]
        assert action["decision_id"] == decision["id"]
        assert action["item_id"] == item_ids[name]
        assert action["author_external_id"] == "author-1"
        assert action["queue_id"] == MISINFO
        assert action["config_version"] == decision["config_version"] >= 1
        assert action["decided_at"] == decision["decided_at"]
        assert action["reverses_action_id"] is None
    summary = {
        n: (a["kind"], a["policies"], a["label"], a["author_action"]) for n, a in by_name.items()
    }
    assert summary == {
        "p-keep": ("keep", [], None, None),
        "p-remove": ("remove", ["MISINFO.CIVIC"], None, None),
        "p-label": (
            "label",
            [],
            {
                "rating": "missing_context",
                "rating_label": "Missing context",
                "organisation": "Check Desk",
                "url": "https://fc.example/1",
            },
            None,
        ),
        "p-label-reduce": (
            "label_and_reduce",
            [],
            {
                "rating": "false",
                "rating_label": "False",
                "organisation": "Verify Co",
                "url": "https://fc.example/2",
            },
            None,
        ),
        # one decision, one action: the removal, and the author's restriction with it
        "p-restrict": ("remove", ["MISINFO.CIVIC"], None, "restrict"),
        "p-reduce": ("reduce", [], None, None),
    }
    # a replayed batch records nothing new, so it makes no action either
    assert {r["status"] for r in rita.decide([verdict(leased["p-keep"], "keep")])} == {"conflict"}
    assert sealed_feed(server, key, actions[-1]["seq"]) == []


def test_an_account_decision_is_an_author_action(server: LiveServer) -> None:
    key = platform_key(server)
    platform = ApiSession(server.url, key)
    bot = author("bot-7", signals={"inauthenticity_score": 0.95, "posts_per_day": 500.0})
    send(platform, "posts", [post("p-bot", author=bot)])
    [opened] = send(platform, "signals", [report("p-bot", "spam")])
    assert opened["queue_ids"] == [INAUTH]
    rita = server.login("rita")
    [leased] = claim(rita, INAUTH, 1)
    [result] = rita.decide([verdict(leased, "mark")])
    assert result["status"] == "accepted", result
    [action] = sealed_feed(server, key)
    assert action["kind"] == "author:mark_inauthentic"
    assert (action["author_external_id"], action["post_external_id"]) == ("bot-7", "p-bot")
    assert action["decision_id"] == result["decision"]["id"]
    assert action["author_action"] is None, "the kind says it: no second author action"


def test_escalation_acts_only_when_the_lead_decides(server: LiveServer) -> None:
    key = platform_key(server)
    platform = ApiSession(server.url, key)
    [item_id] = queue_posts(platform, ["p-hard"])
    rita = server.login("rita")
    [leased] = claim(rita, MISINFO, 1)
    [escalated] = rita.decide([verdict(leased, "escalate")])
    assert escalated["status"] == "accepted", escalated
    assert sealed_feed(server, key) == [], "an escalation is no decision of record"

    lead = server.login("lead", Role.lead)
    [grant] = claim(lead, ESCALATIONS, 1)
    assert grant["item"]["id"] == item_id
    [decided] = lead.decide([verdict(grant, "remove", policies=["MISINFO.CIVIC"])])
    assert decided["status"] == "accepted", decided
    [action] = sealed_feed(server, key)
    assert (action["kind"], action["queue_id"], action["post_external_id"]) == (
        "remove",
        ESCALATIONS,
        "p-hard",
    )
    assert action["decision_id"] == decided["decision"]["id"] != escalated["decision"]["id"]


def overturn(lead: ApiSession, body: dict[str, Any]) -> dict[str, Any]:
    made = lead.post("/audits/samples", json={**ALL_TIME, "size": 1, "queue_id": MISINFO})
    assert made.status_code == 201, made.text
    task = lead.post(f"/audits/samples/{made.json()['id']}/next").json()["task"]
    recorded = lead.post(
        f"/audits/tasks/{task['audit_id']}/result", json={"result": "overturn", **body}
    )
    assert recorded.status_code == 201, recorded.text
    result: dict[str, Any] = recorded.json()
    return result


def test_an_overturn_reverses_exactly_the_action_it_replaces(server: LiveServer) -> None:
    key = platform_key(server)
    platform = ApiSession(server.url, key)
    queue_posts(platform, ["p-removed"])
    rita = server.login("rita")
    lead = server.login("lead", Role.lead)
    [leased] = claim(rita, MISINFO, 1)
    [removed] = rita.decide([verdict(leased, "remove-restrict", policies=["MISINFO.CIVIC"])])
    [removal] = sealed_feed(server, key)
    assert (removal["kind"], removal["author_action"]) == ("remove", "restrict")

    result = overturn(lead, {"action": "keep", "note": "satire"})
    assert result["original"]["id"] == removed["decision"]["id"]
    [restore] = sealed_feed(server, key, removal["seq"])
    assert restore["kind"] == "restore"
    assert restore["reverses_action_id"] == removal["id"]
    assert restore["decision_id"] == result["corrected"]["id"]
    assert restore["post_external_id"] == "p-removed"
    assert restore["seq"] > removal["seq"], "a restore never comes before what it undoes"

    # an overturn to another restrictive action replaces the earlier one (undo, then do)
    queue_posts(platform, ["p-kept"])
    [leased] = claim(rita, MISINFO, 1)
    rita.decide([verdict(leased, "keep")])
    [kept] = sealed_feed(server, key, restore["seq"])
    overturn(lead, {"action": "remove", "policies": ["MISINFO.CIVIC"], "note": "it is a hoax"})
    [replaced] = sealed_feed(server, key, kept["seq"])
    assert (replaced["kind"], replaced["reverses_action_id"], replaced["policies"]) == (
        "remove",
        kept["id"],
        ["MISINFO.CIVIC"],
    )


def test_a_withdrawal_that_closes_review_is_told(server: LiveServer) -> None:
    key = platform_key(server)
    platform = ApiSession(server.url, key)
    [item_id] = queue_posts(platform, ["p-gone"])
    queue_posts(platform, ["p-decided"])
    rita = server.login("rita")
    leased = by_post(claim(rita, MISINFO, 2))
    rita.decide([verdict(leased["p-decided"], "keep")])
    [kept] = sealed_feed(server, key)
    send(
        platform,
        "withdrawals",
        [
            {"post_external_id": "p-gone", "reason": "private"},
            {"post_external_id": "p-decided", "reason": "deleted"},  # nothing left to close
        ],
    )
    [gone] = sealed_feed(server, key, kept["seq"])
    assert (gone["kind"], gone["reason"], gone["item_id"], gone["decision_id"]) == (
        "withdrawn",
        "private",
        item_id,
        None,
    )
    [late] = rita.decide([verdict(leased["p-gone"], "remove", policies=["MISINFO.CIVIC"])])
    assert late["reason"]["code"] == "withdrawn"
    assert sealed_feed(server, key, gone["seq"]) == [], "a refused verdict makes no action"


def test_the_feed_pages_in_seq_order_and_resumes_from_any_cursor(server: LiveServer) -> None:
    key = platform_key(server)
    platform = ApiSession(server.url, key)
    names = [f"p-{i:02}" for i in range(23)]
    queue_posts(platform, names)
    rita = server.login("rita")
    leased = claim(rita, MISINFO, len(names))
    for chunk in (leased[:9], leased[9:15], leased[15:]):
        assert {r["status"] for r in rita.decide([verdict(x, "keep") for x in chunk])} == {
            "accepted"
        }
    everything = sealed_feed(server, key)
    assert len(everything) == 23
    seqs = [a["seq"] for a in everything]
    assert seqs == sorted(seqs) and len(set(seqs)) == 23

    for limit in (1, 4, 7, 500):
        assert read_all(server.url, key, 0, limit) == everything
    for i, action in enumerate(everything):
        assert read_all(server.url, key, action["seq"]) == everything[i + 1 :]
        assert read_all(server.url, key, action["seq"] - 1)[0] == action
    page = read_feed(server.url, key, 0, 5)
    assert page["actions"] == everything[:5] and page["next_cursor"] == everything[4]["seq"]
    end = read_feed(server.url, key, everything[-1]["seq"])
    assert end == {"actions": [], "next_cursor": everything[-1]["seq"]}


def test_a_platform_sees_only_its_own_actions(server: LiveServer) -> None:
    ours, theirs = platform_key(server, "ours"), platform_key(server, "theirs")
    queue_posts(ApiSession(server.url, ours), ["shared-id", "ours-only"])
    queue_posts(ApiSession(server.url, theirs), ["shared-id"])  # the same id, another platform
    rita = server.login("rita")
    rita.decide([verdict(x, "keep") for x in claim(rita, MISINFO, 3)])
    mine = sealed_feed(server, ours)
    other = sealed_feed(server, theirs)
    assert sorted(a["post_external_id"] for a in mine) == ["ours-only", "shared-id"]
    assert [a["post_external_id"] for a in other] == ["shared-id"]
    assert not {a["id"] for a in mine} & {a["id"] for a in other}
    # a cursor taken from the other platform's feed shows nothing of it either
    assert read_all(server.url, ours, 0) == mine


def test_who_may_read_the_feed(server: LiveServer) -> None:
    created = server.service.create_api_key(Role.platform, "feed-bridge")
    key = created.key
    queue_posts(ApiSession(server.url, key), ["p1"])
    rita = server.login("rita")
    rita.decide([verdict(x, "keep") for x in claim(rita, MISINFO, 1)])
    assert len(sealed_feed(server, key)) == 1

    lead = server.login("lead", Role.lead)
    expect_problem(lead.get("/enforcement"), 403, "platform_only")
    checker = server.service.create_api_key(Role.fact_checker, "check-desk").key
    expect_problem(ApiSession(server.url, checker).get("/enforcement"), 403, "platform_only")
    expect_problem(ApiSession(server.url).get("/enforcement"), 401, "not_authenticated")

    server.service.revoke_api_key(created.info.id)
    expect_problem(ApiSession(server.url, key).get("/enforcement"), 401, "token_invalid")
    waiting = ApiSession(server.url, key).get("/enforcement", params={"wait": 5})
    expect_problem(waiting, 401, "token_invalid")

    for params in ({"limit": 501}, {"limit": 0}, {"after": -1}, {"wait": 31}, {"after": "x"}):
        expect_problem(
            ApiSession(server.url, platform_key(server, "other")).get(
                "/enforcement", params=params
            ),
            422,
        )


def test_a_long_poll_answers_when_an_action_is_sealed(server: LiveServer) -> None:
    key = platform_key(server)
    platform = ApiSession(server.url, key)
    queue_posts(platform, ["p-wait"])
    rita = server.login("rita")
    [leased] = claim(rita, MISINFO, 1)

    # nothing comes: an empty page with the same cursor once the wait runs out
    assert read_feed(server.url, key, 0, wait=0.3) == {"actions": [], "next_cursor": 0}

    answered: dict[str, Any] = {}

    def reader() -> None:
        started = time.monotonic()
        answered["page"] = read_feed(server.url, key, 0, wait=25)
        answered["seconds"] = time.monotonic() - started

    thread = threading.Thread(target=reader)
    thread.start()
    time.sleep(0.5)  # the reader is waiting
    assert "page" not in answered, "it answered before there was anything"
    [decided] = rita.decide([verdict(leased, "keep")])  # no seal_now: the service's own
    thread.join(30)
    assert not thread.is_alive()
    [action] = answered["page"]["actions"]
    assert action["decision_id"] == decided["decision"]["id"]
    assert answered["seconds"] < 25, "it answered when the action was sealed, not at the end"


def test_actions_are_append_only(server: LiveServer) -> None:
    key = platform_key(server)
    queue_posts(ApiSession(server.url, key), ["p1"])
    rita = server.login("rita")
    rita.decide([verdict(x, "remove", policies=["MISINFO.CIVIC"]) for x in claim(rita, MISINFO, 1)])
    [action] = sealed_feed(server, key)
    db = server.service.db
    for statement in (
        "UPDATE enforcement_actions SET kind = 'keep'",
        "UPDATE enforcement_actions SET seq = seq + 100",
        "DELETE FROM enforcement_actions",
        "INSERT INTO enforcement_actions (seq, created_at, kind, decided_at, config_version, "
        "payload) VALUES (999, 1, 'keep', 1, 0, '{}')",
    ):
        with pytest.raises(DatabaseError, match="append-only"), db.write() as conn:
            conn.execute(text(statement))
    with db.read() as conn:
        rows = conn.execute(select(enforcement_actions.c.kind, enforcement_actions.c.seq)).all()
    assert [tuple(r) for r in rows] == [("remove", action["seq"])]


def test_the_feed_route_is_documented(server: LiveServer) -> None:
    document = requests.get(f"{server.url}/openapi.json", timeout=30).json()
    operation = document["paths"]["/api/v1/enforcement"]["get"]
    assert {p["name"] for p in operation["parameters"]} == {"after", "limit", "wait"}
    assert {"200", "401", "403", "422"} <= set(operation["responses"])


def test_a_key_revoked_during_a_long_poll_reads_nothing_more(server: LiveServer) -> None:
    created = server.service.create_api_key(Role.platform, "feed-bridge")
    queue_posts(ApiSession(server.url, created.key), ["p1"])
    rita = server.login("rita")
    [leased] = claim(rita, MISINFO, 1)
    answers: list[requests.Response] = []
    waiting = threading.Thread(
        target=lambda: answers.append(
            ApiSession(server.url, created.key).get("/enforcement", params={"wait": 25})
        )
    )
    waiting.start()
    time.sleep(0.5)  # the read is waiting
    server.service.revoke_api_key(created.info.id)
    rita.decide([verdict(leased, "remove", policies=["MISINFO.CIVIC"])])
    waiting.join(30)
    [answer] = answers
    expect_problem(answer, 401, "token_invalid")

    # and when nothing comes while it waits: the wait's end says the key is gone too
    quiet = server.service.create_api_key(Role.platform, "feed-bridge")
    server.service.seal_now()
    end = read_feed(server.url, quiet.key)["next_cursor"]  # past p1: nothing more comes
    waiting = threading.Thread(
        target=lambda: answers.append(
            ApiSession(server.url, quiet.key).get("/enforcement", params={"after": end, "wait": 2})
        )
    )
    waiting.start()
    time.sleep(0.5)
    server.service.revoke_api_key(quiet.info.id)
    waiting.join(30)
    expect_problem(answers[-1], 401, "token_invalid")


def test_actions_not_sealed_yet_show_on_metrics(database_url: str) -> None:
    clock = ManualClock()
    with running(database_url, clock=clock) as live:
        live.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        key = platform_key(live)
        queue_posts(ApiSession(live.url, key), ["p1", "p2"])
        rita = live.login("rita")
        leased = by_post(claim(rita, MISINFO, 2))
        rita.decide([verdict(leased["p1"], "keep")])
        live.service.seal_now()
        live.service.sequencer.stop()  # as if it had died (after a last round)
        rita.decide([verdict(leased["p2"], "keep")])  # committed, sealed by nobody now
        clock.advance(7)
        metrics = scrape(live.url)
        assert metrics["reviewdesk_enforcement_unsealed_actions"] == 1
        assert metrics["reviewdesk_enforcement_sealing_lag_seconds"] == 7
        assert metrics["reviewdesk_enforcement_sealed_actions"] == 1
        assert [a["post_external_id"] for a in read_all(live.url, key)] == ["p1"]
        live.service.seal_now()
        assert [a["post_external_id"] for a in read_all(live.url, key)] == ["p1", "p2"]


def scrape(base_url: str) -> dict[str, float]:
    from prometheus_client.parser import text_string_to_metric_families

    response = requests.get(f"{base_url}/metrics", timeout=30)
    assert response.status_code == 200, response.text
    return {
        sample.name: sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
        if not sample.labels
    }
