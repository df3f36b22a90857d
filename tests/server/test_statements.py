"""Statements of reasons over real HTTP on SQLite and PostgreSQL: one for every restrictive
decision of record (none for keep), in the decision's transaction, carried by its
enforcement action and shown in the item's history; the reviewer's note only where the
queue shares notes; a policy without its ground or category is refused at apply, with its
line."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from sqlalchemy import func, select

from reviewer_app.protocol import QueueFile, Role, Statement
from reviewer_app.server.cli import sor_export
from reviewer_app.server.domain import statements as stored_statements
from reviewer_app.server.domain.queuefile.errors import QueueFileError
from reviewer_app.server.domain.queuefile.parse import parse_queue_file
from reviewer_app.server.storage.tables import statements
from tests.support.api import ApiSession, claim, verdict
from tests.support.enforcement import queue_file, queue_posts, read_all
from tests.support.intake import MISINFO, author, fact_check, post, report, send
from tests.support.servers import LiveServer


def apply(server: LiveServer, document: dict[str, Any]) -> None:
    server.service.apply_queue_file(QueueFile.model_validate(document), actor=None)


def platform(server: LiveServer) -> tuple[ApiSession, str]:
    key = server.service.create_api_key(Role.platform, "feed-bridge").key
    return ApiSession(server.url, key), key


def feed(server: LiveServer, key: str) -> list[dict[str, Any]]:
    server.service.seal_now()
    return read_all(server.url, key)


def by_post(leased: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {x["item"]["post"]["url"].rsplit("/", 1)[-1]: x for x in leased}


def stored_count(server: LiveServer) -> int:
    with server.service.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(statements)).scalar_one())


def test_every_restrictive_decision_has_a_statement_and_keep_has_none(
    live_server: LiveServer,
) -> None:
    apply(live_server, queue_file())
    session, key = platform(live_server)
    names = ["p-keep", "p-remove", "p-label", "p-label-reduce", "p-restrict", "p-reduce"]
    queue_posts(session, names)
    send(
        session,
        "signals",
        [fact_check("p-label", "missing_context"), fact_check("p-label-reduce", "false")],
    )
    rita = live_server.login("rita")
    leased = by_post(claim(rita, MISINFO, len(names)))
    results = rita.decide(
        [
            verdict(leased["p-keep"], "keep"),
            verdict(leased["p-remove"], "remove", policies=["MISINFO.CIVIC"], note="secret"),
            verdict(leased["p-label"], "label", rating="missing_context"),
            verdict(leased["p-label-reduce"], "label-reduce", rating="false"),
            verdict(leased["p-restrict"], "remove-restrict", policies=["MISINFO.CIVIC"]),
            verdict(leased["p-reduce"], "reduce"),
        ]
    )
    assert [r["status"] for r in results] == ["accepted"] * 6, results
    actions = {a["post_external_id"]: a for a in feed(live_server, key)}
    assert actions["p-keep"]["statement"] is None
    found = {
        n: Statement.model_validate(a["statement"]) for n, a in actions.items() if n != "p-keep"
    }
    assert {n: (s.visibility, s.account) for n, s in found.items()} == {
        "p-remove": (["removed"], None),
        "p-label": (["labelled"], None),
        "p-label-reduce": (["labelled", "demoted"], None),
        "p-restrict": (["removed"], "restricted"),
        "p-reduce": (["demoted"], None),
    }
    assert stored_count(live_server) == 5
    assert len({s.id for s in found.values()}) == 5
    for name, s in found.items():
        assert s.decision_id == actions[name]["decision_id"]
        assert s.puid == f"review-desk-sor-{s.id}"
        assert s.automated_detection is True, "the civic classifier routed every post"
        assert s.automated_decision is False
        assert "appeal" in s.redress
        assert "secret" not in s.text, "this queue keeps notes internal"
    remove = found["p-remove"]
    assert [(g.policy, g.ground, g.reference, g.category) for g in remove.grounds] == [
        ("MISINFO.CIVIC", "terms", "Community Guidelines 4.2", remove.category)
    ]
    assert remove.category == "negative_effects_on_civic_discourse_or_elections"
    assert "We removed your post." in remove.text
    assert "Community Guidelines 4.2" in remove.text
    assert "We removed your post and restricted your account." in found["p-restrict"].text

    # the item's history shows the statement
    item_id = actions["p-remove"]["item_id"]
    history = rita.get(f"/items/{item_id}/statements")
    assert history.status_code == 200, history.text
    assert [s["id"] for s in history.json()["statements"]] == [remove.id]
    document = rita.get(f"/items/{item_id}")
    assert document.status_code == 200, document.text
    assert [s["id"] for s in document.json()["statements"]] == [remove.id]
    assert document.json()["statements"][0]["text"] == remove.text


def test_a_shared_note_is_in_the_statement_cleaned_and_reports_are_no_automated_detection(
    live_server: LiveServer,
) -> None:
    document = queue_file()
    misinfo = next(q for q in document["queues"] if q["id"] == MISINFO)
    misinfo["config"]["notes_shareable"] = True
    misinfo["config"]["routing"].append(
        {"name": "reported", "reports": [{"reason": "misinfo", "min_count": 1}]}
    )
    apply(live_server, document)
    session, key = platform(live_server)
    send(session, "posts", [post("p-reported")])
    send(session, "signals", [report("p-reported", reason="misinfo")])
    rita = live_server.login("rita")
    [leased] = claim(rita, MISINFO, 1)
    hostile = "Claims \u202ethe vote\u202c was moved\x07 to Wednesday.\x00" * 1
    note = hostile.replace("\x00", "")
    [result] = rita.decide([verdict(leased, "remove", policies=["MISINFO.CIVIC"], note=note)])
    assert result["status"] == "accepted", result
    [action] = feed(live_server, key)
    statement = Statement.model_validate(action["statement"])
    assert statement.automated_detection is False, "a user report put it up for review"
    assert "The reviewer's note: Claims the vote was moved to Wednesday." in statement.facts
    assert "\u202e" not in statement.text and "\x07" not in statement.text


def test_what_flagged_a_post_does_not_depend_on_the_order_it_came_in() -> None:
    """Reports first and a classifier's 0.99 after: "no automated detection" and a
    voluntary source; the other way round: "yes" and not a notice. Both had both."""
    routed_by_reports = {
        "reasons": [{"kind": "user_reports"}],
        "reports": {"total": 3, "by_reason": [{"reason": "scam", "count": 3}]},
        "scores": [{"model": "spam", "label": "spam", "score": 0.99, "threshold": 0.8}],
    }
    routed_by_score = {**routed_by_reports, "reasons": [{"kind": "classifier"}]}
    for payload in (routed_by_reports, routed_by_score):
        assert stored_statements.automated_detection(payload) is True
        assert stored_statements.context_of(payload)["notice"] is True
    quiet = {"reasons": [], "reports": {"total": 0}, "scores": [{"score": 0.2, "threshold": 0.8}]}
    assert stored_statements.automated_detection(quiet) is False
    assert stored_statements.context_of(quiet)["notice"] is False


def test_a_lead_account_action_has_a_statement(live_server: LiveServer) -> None:
    apply(live_server, queue_file())
    session, key = platform(live_server)
    send(session, "posts", [post("p-1", author=author("shady-1"))])
    lead = live_server.login("lena", Role.lead)
    with live_server.service.db.read() as conn:
        from reviewer_app.server.storage.tables import authors

        author_id = conn.execute(
            select(authors.c.id).where(authors.c.external_id == "shady-1")
        ).scalar_one()
    answer = lead.post(
        "/authors/actions",
        json={
            "author_ids": [author_id],
            "action": "suspend",
            "policies": ["MISINFO.CIVIC"],
            "note": "internal only",
        },
    )
    assert answer.status_code == 200, answer.text
    [action] = [a for a in feed(live_server, key) if a["kind"] == "author:suspend"]
    statement = Statement.model_validate(action["statement"])
    assert (statement.visibility, statement.account) == ([], "suspended")
    assert statement.grounds[0].reference == "Community Guidelines 4.2"
    assert "internal only" not in statement.text
    assert statement.decision_id is None and statement.id is not None


def test_a_policy_without_ground_or_category_is_refused_with_its_line() -> None:
    text = """\
[[queues]]
id = "spam"
name = "Spam"

[queues.config]
default_policy = "SPAM.NOPE"

[[queues.config.actions]]
id = "remove"
label = "Remove"
kind = "remove"
requires_policy = true

[[queues.config.policies]]
code = "SPAM.SCAM"
label = "Scam"

[[queues.config.policies]]
code = "SPAM.BOTH"
label = "Both"
terms_clause = "6.1"
legal_ground = "a law"
category = "scams_and_fraud"
"""
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(text)
    found = {(p.line, p.where, p.code) for p in caught.value.problems}
    base = "queues[0].config"
    assert found == {
        (6, f"{base}.default_policy", "unknown_default_policy"),
        (14, f"{base}.policies[0]", "policy_without_ground"),
        (14, f"{base}.policies[0]", "policy_without_category"),
        (22, f"{base}.policies[1].legal_ground", "policy_two_grounds"),
    }
    fixed = text.replace('label = "Scam"\n', 'label = "Scam"\nlegal_ground = "a law"\n')
    fixed = fixed.replace('terms_clause = "6.1"\n', "").replace("SPAM.NOPE", "SPAM.SCAM")
    with pytest.raises(QueueFileError) as caught:
        parse_queue_file(fixed)
    assert {p.code for p in caught.value.problems} == {"policy_without_category"}


def test_the_demo_queue_file_maps_every_policy() -> None:
    from reviewer_app.server.demo.queues import demo_queue_file

    document = copy.deepcopy(demo_queue_file().model_dump(mode="json"))
    assert document["queues"]
    for queue in document["queues"]:
        for policy in queue["config"]["policies"]:
            assert policy["category"], policy
            assert bool(policy["terms_clause"]) != bool(policy["legal_ground"]), policy


def test_an_upheld_appeal_restates_the_statement_and_a_reversed_one_lifts_it(
    live_server: LiveServer,
) -> None:
    from tests.support.appeals import APPEALS, appeal
    from tests.support.appeals import queue_file as appeal_queues

    document = appeal_queues()
    next(q for q in document["queues"] if q["id"] == APPEALS)["config"]["notes_shareable"] = True
    apply(live_server, document)
    session, key = platform(live_server)
    queue_posts(session, ["p-up", "p-down"])
    rita = live_server.login("rita")
    leased = claim(rita, MISINFO, 2)
    rita.decide([verdict(x, "remove", policies=["MISINFO.CIVIC"]) for x in leased])
    for name in ("p-up", "p-down"):
        [sent] = send(session, "appeals", [appeal(name, appeal_id=f"ap-{name}")])
        assert sent["status"] == "created", sent
    sam = live_server.login("sam")
    appeals = by_post(claim(sam, APPEALS, 2))
    results = sam.decide(
        [
            verdict(appeals["p-up"], "uphold", note="The post \u202enames\u202c the wrong date."),
            verdict(appeals["p-down"], "reverse"),
        ]
    )
    assert [r["status"] for r in results] == ["accepted"] * 2, results
    actions = feed(live_server, key)
    first = {a["post_external_id"]: a for a in actions if a["kind"] == "remove"}
    upheld = next(a for a in actions if a["kind"] == "appeal_upheld")
    restored = next(a for a in actions if a["kind"] == "restore")
    # a reversal restricts nothing: its statement tells the author the restriction is lifted
    lifted = Statement.model_validate(restored["statement"])
    assert lifted.lifted and lifted.decision_id == restored["decision_id"]
    assert lifted.facts.startswith("Your appeal was decided by a reviewer who did not take")
    assert "is reversed and the restriction described below is lifted" in lifted.facts
    assert "Nothing more is needed from you" in lifted.text
    was = Statement.model_validate(first["p-up"]["statement"])
    now = Statement.model_validate(upheld["statement"])
    assert now.id != was.id and now.decision_id == upheld["decision_id"]
    assert (now.visibility, now.account, now.grounds) == (was.visibility, was.account, was.grounds)
    assert now.facts.startswith("Your appeal was decided by a reviewer who did not take")
    assert "The reviewer's reason: The post names the wrong date." in now.facts
    assert was.facts in now.facts
    assert stored_count(live_server) == 4  # two removals, the upheld and the reversed appeal
    # the Transparency Database takes restrictions, each once: the lifted statement stays
    # out, and so does the upheld one (the removal it restates went in as its own)
    with live_server.service.db.read() as conn:
        exported = io.StringIO()
        assert sor_export.write(stored_statements.rows_between(conn, 0, 1e12), exported) == 2
    lines = [json.loads(line) for line in exported.getvalue().splitlines()]
    assert sorted(line["puid"] for line in lines) == sorted(
        Statement.model_validate(first[p]["statement"]).puid for p in ("p-up", "p-down")
    )
