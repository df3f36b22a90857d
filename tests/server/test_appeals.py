"""Appeals over real HTTP on SQLite and PostgreSQL: the platform appeals a decision through
intake, the item goes to the appeals queue with the contested decision and the user's
statement; whoever decided the item before can neither claim nor decide it (four eyes);
an upheld appeal leaves the decision standing and tells the platform, a reversed one
restores the post or the account; both are logged, exported and counted in the reviewer
figures; appeals over the queue's time limit show as over SLA."""

from __future__ import annotations

import copy
import csv
import io
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import select

from reviewer_app.protocol import Item, QueueFile, Role
from reviewer_app.server.demo.replay import DEMO_APPEALS
from reviewer_app.server.domain import leasing
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.feeds.seed import seed_demo
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import authors, strikes, users
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.appeals import APPEALS, appeal, appeals_server, feed, platform_of, queue_file
from tests.support.clock import ManualClock
from tests.support.enforcement import ESCALATIONS, queue_posts
from tests.support.intake import INAUTH, MISINFO, author, classifier, post, send, shady
from tests.support.servers import LiveServer

ALL_TIME = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}
CIVIC = ["MISINFO.CIVIC"]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Any:
    srv = appeals_server(database_url, clock)
    try:
        yield srv
    finally:
        srv.stop()


def decided(server: LiveServer, reviewer: ApiSession, names: list[str], action: str) -> None:
    leased = claim(reviewer, MISINFO, len(names))
    fields: dict[str, Any] = {"policies": CIVIC} if action.startswith("remove") else {}
    results = reviewer.decide([verdict(x, action, **fields) for x in leased])
    assert [r["status"] for r in results] == ["accepted"] * len(names), results


def hold_anyway(server: LiveServer, username: str, queue_id: str) -> list[dict[str, Any]]:
    """A lease of ``username`` on the queue's items taken around the four-eyes rule (as a
    service without it would have): how a recused reviewer might 'somehow' hold one."""
    svc = server.service
    with svc.db.write() as conn:
        uid = conn.execute(select(users.c.id).where(users.c.username == username)).scalar_one()
        me = Principal(uid, username, username, Role.reviewer)
        got = leasing.claim(conn, me, queue_id, 10, 300, svc.clock(), postgres=svc.postgres)
    return [{"item": {"id": c.item_id}, "lease_token": c.token} for c in got]


def test_an_appeal_goes_to_someone_else_and_an_uphold_leaves_the_decision(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    [item_id] = queue_posts(platform, ["p-1"])
    rita = server.login("rita")
    decided(server, rita, ["p-1"], "remove")
    contested = rita.get(f"/items/{item_id}").json()["decision"]

    [result] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-1")])
    assert result["status"] == "created", result
    assert result["item_ids"] == [item_id] and result["queue_ids"] == [APPEALS]
    again = send(platform, "appeals", [appeal("p-1", appeal_id="ap-1")])
    assert again[0]["status"] == "unchanged" and again[0]["item_ids"] == [item_id]

    # the original reviewer never gets it, and cannot decide it even holding it
    assert claim(rita, APPEALS, 5, exactly=False) == []
    held = hold_anyway(server, "rita", APPEALS)
    assert [h["item"]["id"] for h in held] == [item_id]
    [refused] = rita.decide([verdict(held[0], "reverse")])
    assert refused["status"] == "rejected"
    assert refused["reason"]["code"] == "conflict_of_interest", refused
    rita.post("/leases/release", json={"tokens": [held[0]["lease_token"]]}).raise_for_status()

    sam = server.login("sam")
    [leased] = claim(sam, APPEALS, 5, exactly=False)
    item = Item.model_validate(leased["item"])
    assert item.id == item_id and item.queue_id == APPEALS and item.origin_queue_id == MISINFO
    assert item.appeal is not None
    assert item.appeal.id == "ap-1" and item.appeal.subject == "post"
    assert item.appeal.statement == "My post was about the weather, not the election."
    assert item.appeal.contested.id == contested["id"]
    assert item.appeal.contested.reviewer == "rita" and item.appeal.contested.action == "remove"
    assert item.appeal.contested.policies == CIVIC
    assert item.post.url.endswith("/p-1") and item.reasons[0].kind.value == "appeal"
    assert item.decision is not None and item.decision.id == contested["id"]
    # the statement of reasons the user was given for the contested decision comes with it
    given = [s for s in item.statements if s.decision_id == contested["id"]]
    assert len(given) == 1 and given[0].visibility and given[0].text
    assert "appealed" in [e.kind.value for e in item.history]

    no_reason = sam.post("/verdicts", json={"verdicts": [verdict(leased, "uphold")]})
    expect_problem(no_reason, 422, "verdict_invalid")
    [upheld] = sam.decide([verdict(leased, "uphold", note="The post names the polling date.")])
    assert upheld["status"] == "accepted", upheld
    decision = upheld["decision"]
    assert decision["kind"] == "appeal" and decision["appeal_of_decision_id"] == contested["id"]
    assert decision["overturns_decision_id"] is None

    after = sam.get(f"/items/{item_id}").json()
    assert after["state"] == "decided"
    assert after["decision"]["id"] == contested["id"], "the contested decision stands"
    assert after["appeal"]["outcome"] == "upheld"
    assert after["appeal"]["outcome_decision_id"] == decision["id"]

    actions = feed(server, platform)
    assert [a["kind"] for a in actions] == ["remove", "appeal_upheld"]
    assert actions[1]["appeal_id"] == "ap-1" and actions[1]["decision_id"] == decision["id"]
    assert actions[1]["reverses_action_id"] is None and actions[1]["post_external_id"] == "p-1"

    # one appeal per decision
    [second] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-2")])
    assert second["status"] == "rejected" and second["reason"]["code"] == "already_appealed"


def test_a_refusal_that_names_a_long_appeal_id_is_still_an_answer(server: LiveServer) -> None:
    """The refusal of a second appeal names the first one's id, which may be 200 characters:
    its message is cut to what the wire allows (it was a 500 for the whole batch)."""
    platform = platform_of(server)
    queue_posts(platform, ["p-1", "p-2"])
    rita, sam = server.login("rita"), server.login("sam")
    leased = claim(rita, MISINFO, 2)
    removed = [x for x in leased if x["item"]["post"]["url"].endswith("/p-1")]
    [done] = rita.decide([verdict(removed[0], "remove", policies=CIVIC)])
    assert done["status"] == "accepted", done
    [first] = send(platform, "appeals", [appeal("p-1", appeal_id="a" * 200)])
    assert first["status"] == "created", first
    [leased_appeal] = claim(sam, APPEALS, 1)
    [upheld] = sam.decide([verdict(leased_appeal, "uphold", note="It stands.")])
    assert upheld["status"] == "accepted", upheld

    answer = platform.post(
        "/intake/appeals",
        json={"appeals": [appeal("p-1", appeal_id="ap-2"), appeal("p-2", appeal_id="ap-3")]},
    )
    assert answer.status_code == 200, answer.text
    second, other = answer.json()["results"]
    assert second["reason"]["code"] == "already_appealed", second
    assert len(second["reason"]["message"]) <= 200 and second["reason"]["message"].endswith("…")
    assert other["reason"]["code"] == "in_review", other  # the rest of the batch is answered


def test_the_same_appeal_sent_at_once_is_created_once(server: LiveServer) -> None:
    """A platform's retry while the first copy is in flight: one copy opens the appeal, the
    others are answered unchanged (on PostgreSQL the copy that waited for the item's lock
    was refused as already appealed)."""
    platform = platform_of(server)
    rita = server.login("rita")
    for name in ("p-1", "p-2"):
        queue_posts(platform, [name])
        decided(server, rita, [name], "remove")
        body = appeal(name, appeal_id=f"ap-{name}")
        start = threading.Barrier(6)

        def send_one(_: int, body: dict[str, Any] = body, start: Any = start) -> str:
            own = ApiSession(server.url, platform.token)
            start.wait()
            answer = own.post("/intake/appeals", json={"appeals": [body]})
            answer.raise_for_status()
            result = answer.json()["results"][0]
            reason = result["reason"]
            return str(result["status"]) + (f":{reason['code']}" if reason else "")

        with ThreadPoolExecutor(6) as pool:
            statuses = sorted(pool.map(send_one, range(6)))
        assert statuses == ["created"] + ["unchanged"] * 5, statuses


def test_a_reversed_appeal_restores_the_post_and_undoes_its_author_action_and_strikes(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-remove", "p-restrict"])
    rita = server.login("rita")
    leased = {x["item"]["post"]["url"].rsplit("/", 1)[-1]: x for x in claim(rita, MISINFO, 2)}
    results = rita.decide(
        [
            verdict(leased["p-remove"], "remove", policies=CIVIC),
            verdict(leased["p-restrict"], "remove-restrict", policies=CIVIC),
        ]
    )
    assert {r["status"] for r in results} == {"accepted"}
    with server.service.db.read() as conn:
        assert conn.execute(select(strikes.c.id)).all(), "the remove counted a strike"
        assert conn.execute(select(authors.c.status)).scalar() == "restricted"

    sent = send(platform, "appeals", [appeal("p-remove"), appeal("p-restrict")])
    assert [r["status"] for r in sent] == ["created", "created"]
    sam = server.login("sam")
    appealed = claim(sam, APPEALS, 2)
    verdicts = sam.decide([verdict(x, "reverse") for x in appealed])
    assert {r["status"] for r in verdicts} == {"accepted"}
    assert all(r["decision"]["overturns_decision_id"] for r in verdicts)

    actions = feed(server, platform)
    first = {a["post_external_id"]: a for a in actions if a["kind"] in ("remove", "keep")}
    restores = {a["post_external_id"]: a for a in actions if a["kind"] == "restore"}
    assert set(restores) == {"p-remove", "p-restrict"}
    for name, restore in restores.items():
        assert restore["reverses_action_id"] == first[name]["id"]
    assert {r["appeal_id"] for r in restores.values()} == {r["external_id"] for r in sent}
    with server.service.db.read() as conn:
        assert conn.execute(select(strikes.c.id)).all() == [], "the strikes went with it"
        assert conn.execute(select(authors.c.status)).scalar() == "active"
    for r in verdicts:
        item = sam.get(f"/items/{r['item_id']}").json()
        assert item["decision"]["id"] == r["decision"]["id"], "the reversal is of record"
        assert item["appeal"]["outcome"] == "reversed"
    # nothing restrictive stands: nothing to appeal
    [again] = send(platform, "appeals", [appeal("p-remove")])
    assert again["reason"]["code"] == "not_restrictive"


def test_an_account_action_is_appealed_by_the_author(server: LiveServer) -> None:
    platform = platform_of(server)
    send(platform, "posts", [post("p-shady", author=shady("sh-1"))])
    send(platform, "signals", [classifier("p-shady", 0.1)])  # routed by its author's account
    vera = server.login("vera")
    [leased] = claim(vera, INAUTH, 1)
    [marked] = vera.decide([verdict(leased, "mark")])
    assert marked["status"] == "accepted"

    [sent] = send(platform, "appeals", [appeal(author_id="sh-1", appeal_id="acc-1")])
    assert sent["status"] == "created", sent
    assert claim(vera, APPEALS, 1, exactly=False) == []
    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 1)
    assert held["item"]["appeal"]["subject"] == "account"
    assert held["item"]["appeal"]["contested"]["author_action"] == "mark_inauthentic"
    [reversed_] = sam.decide([verdict(held, "reverse")])
    assert reversed_["status"] == "accepted"
    actions = feed(server, platform)
    kinds = [a["kind"] for a in actions]
    assert kinds == ["author:mark_inauthentic", "restore"], kinds
    assert actions[1]["reverses_action_id"] == actions[0]["id"]
    assert actions[1]["appeal_id"] == "acc-1"
    with server.service.db.read() as conn:
        assert conn.execute(select(authors.c.status)).scalar() == "active"


def test_an_account_appeal_contests_the_action_its_status_stands_on(server: LiveServer) -> None:
    """Restricted by one decision, marked inauthentic by another, and the mark overturned in
    an audit (back to restricted): the author's appeal contests the restriction. It had
    contested the audit's reinstatement, which restricted nothing, and its reversal marked
    the author inauthentic again."""
    platform = platform_of(server)
    [item_id] = queue_posts(platform, ["p-1"], author=author("sh-1"))
    rita = server.login("rita")
    decided(server, rita, ["p-1"], "remove-restrict")
    restricting = rita.get(f"/items/{item_id}").json()["decision"]
    send(platform, "posts", [post("p-2", author=shady("sh-1"))])
    send(platform, "signals", [classifier("p-2", 0.1)])
    vera = server.login("vera")
    [leased] = claim(vera, INAUTH, 1)
    assert vera.decide([verdict(leased, "mark")])[0]["status"] == "accepted"
    lead = server.login("lena", Role.lead)
    drawn = lead.post("/audits/samples", json={**ALL_TIME, "size": 1, "queue_id": INAUTH})
    task = lead.post(f"/audits/samples/{drawn.json()['id']}/next").json()["task"]
    overturned = lead.post(
        f"/audits/tasks/{task['audit_id']}/result",
        json={"result": "overturn", "action": "authentic", "note": "a real person"},
    )
    assert overturned.status_code == 201, overturned.text

    def status() -> str:
        with server.service.db.read() as conn:
            return str(conn.execute(select(authors.c.status)).scalar())

    assert status() == "restricted"
    [sent] = send(platform, "appeals", [appeal(author_id="sh-1", appeal_id="acc-1")])
    assert sent["status"] == "created", sent
    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 1)
    contested = held["item"]["appeal"]["contested"]
    assert (contested["id"], contested["author_action"]) == (restricting["id"], "restrict")
    assert sam.decide([verdict(held, "reverse")])[0]["status"] == "accepted"
    assert status() == "active"


def test_what_cannot_be_appealed_is_refused_element_by_element(server: LiveServer) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-keep", "p-open"])
    send(platform, "posts", [post("p-quiet"), post("p-clean", author=author("clean"))])
    rita = server.login("rita")
    leased = {x["item"]["post"]["url"].rsplit("/", 1)[-1]: x for x in claim(rita, MISINFO, 2)}
    [kept] = rita.decide([verdict(leased["p-keep"], "keep")])
    assert kept["status"] == "accepted"
    results = send(
        platform,
        "appeals",
        [
            appeal("p-keep"),
            appeal("p-open"),
            appeal("p-quiet"),
            appeal("nope"),
            appeal(author_id="clean"),
            appeal(author_id="nobody"),
            appeal("p-keep", appeal_id="same"),
            appeal("p-open", appeal_id="same"),
        ],
    )
    codes = [r["reason"]["code"] if r["reason"] else r["status"] for r in results]
    assert codes == [
        "not_restrictive",
        "in_review",
        "no_decision",
        "unknown_post",
        "no_decision",
        "unknown_author",
        "not_restrictive",
        "not_restrictive",
    ], results
    [reused] = send(platform, "appeals", [appeal("p-open", appeal_id="same", statement="x")])
    assert reused["status"] == "rejected"
    # the stored element is the one that counts: a refused appeal is not stored
    assert reused["reason"]["code"] == "in_review"

    # the shape: exactly one of post and author, a person's token is not a platform
    both = platform.post(
        "/intake/appeals", json={"appeals": [appeal("p-keep", author_id="author-1")]}
    )
    expect_problem(both, 422)
    expect_problem(rita.post("/intake/appeals", json={"appeals": [appeal("p-keep")]}), 403)


def test_without_an_appeals_queue_appeals_are_refused(live_server: LiveServer) -> None:
    document = queue_file()
    document["queues"] = [q for q in document["queues"] if q["id"] != APPEALS]
    live_server.service.apply_queue_file(QueueFile.model_validate(document), actor=None)
    platform = platform_of(live_server)
    queue_posts(platform, ["p-1"])
    rita = live_server.login("rita")
    decided(live_server, rita, ["p-1"], "remove")
    [result] = send(platform, "appeals", [appeal("p-1")])
    assert result["reason"]["code"] == "no_appeals_queue"


def test_whoever_decided_the_item_before_is_recused_an_escalation_too(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-esc"])
    rita = server.login("rita")
    [leased] = claim(rita, MISINFO, 1)
    assert rita.decide([verdict(leased, "escalate")])[0]["status"] == "accepted"
    lena = server.login("lena", Role.lead)
    [up] = claim(lena, ESCALATIONS, 1)
    assert lena.decide([verdict(up, "remove", policies=CIVIC)])[0]["status"] == "accepted"
    assert send(platform, "appeals", [appeal("p-esc")])[0]["status"] == "created"
    assert claim(rita, APPEALS, 1, exactly=False) == [], "she escalated it: she decided it"
    assert claim(lena, APPEALS, 1, exactly=False) == []
    sam = server.login("sam")
    assert len(claim(sam, APPEALS, 1)) == 1


def test_outcomes_are_logged_exported_and_counted_and_late_appeals_are_over_sla(
    server: LiveServer, clock: ManualClock
) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-a", "p-b", "p-c"])
    rita = server.login("rita")
    decided(server, rita, ["p-a", "p-b", "p-c"], "remove")
    send(platform, "appeals", [appeal("p-a"), appeal("p-b"), appeal("p-c")])
    lead = server.login("lena", Role.lead)
    clock.advance(61 * 60)  # the appeals queue's sla is 60 minutes
    queues = {q["queue_id"]: q for q in lead.get("/stats/queues").json()["queues"]}
    assert queues[APPEALS]["backlog"] == 3
    assert queues[APPEALS]["sla_breached"] is True
    assert queues[APPEALS]["pending_over_sla"] == 3

    sam = server.login("sam")
    leased = claim(sam, APPEALS, 3)
    results = sam.decide(
        [
            verdict(leased[0], "uphold", note="Stands."),
            verdict(leased[1], "uphold", note="Stands too."),
            verdict(leased[2], "reverse"),
        ]
    )
    assert {r["status"] for r in results} == {"accepted"}
    reversed_id = results[2]["decision"]["id"]

    stats = {
        r["reviewer"]: r for r in lead.get("/stats/reviewers", params=ALL_TIME).json()["reviewers"]
    }
    assert stats["rita"]["decisions"] == 3
    assert stats["rita"]["appeals_upheld"] == 2 and stats["rita"]["appeals_reversed"] == 1
    assert stats["rita"]["overturn_rate"] == pytest.approx(1 / 3), "a reversal is an overturn"
    assert stats["sam"]["decisions"] == 3, "deciding appeals is work counted like any"
    assert {m["action"]: m["count"] for m in stats["sam"]["action_mix"]} == {
        "uphold": 2,
        "reverse": 1,
    }

    log = lead.get("/events", params={"kind": "appealed"}).json()["events"]
    assert len(log) == 3 and all("statement" not in json.dumps(e["data"]) for e in log)
    decided_log = [
        e
        for e in lead.get("/events", params={"kind": "decided"}).json()["events"]
        if e["queue_id"] == APPEALS
    ]
    assert sorted(e["data"]["appeal_outcome"] for e in decided_log) == [
        "reversed",
        "upheld",
        "upheld",
    ]

    exported = lead.get("/decisions/export", params=ALL_TIME)
    assert exported.status_code == 200, exported.text
    rows = {r["decision_id"]: r for r in csv.DictReader(io.StringIO(exported.text, newline=""))}
    mine = rows[str(reversed_id)]
    assert (mine["kind"], mine["action"], mine["reviewer"]) == ("appeal", "reverse", "sam")
    assert mine["appeal_of_decision_id"] == mine["overturns_decision_id"] != ""
    upheld = rows[str(results[0]["decision"]["id"])]
    assert upheld["appeal_of_decision_id"] and upheld["overturns_decision_id"] == ""


def test_the_demo_has_appeals_for_the_reviewer_and_none_for_the_lead(
    live_server: LiveServer,
) -> None:
    seed_demo(live_server.service)
    lead = ApiSession.login(live_server.url, "lead", "review-desk-lead")
    assert claim(lead, APPEALS, 5, exactly=False) == [], "the lead made the contested decisions"
    reviewer = ApiSession.login(live_server.url, "reviewer", "review-desk-demo")
    got = claim(reviewer, APPEALS, 5, exactly=False)
    assert len(got) == len(DEMO_APPEALS)
    for leased in got:
        item = Item.model_validate(leased["item"])
        assert item.appeal is not None and item.appeal.statement
        assert item.appeal.contested.reviewer == "lead"
        assert item.appeal.contested.action == "remove"


def test_a_decision_under_appeal_is_not_drawn_for_an_audit(server: LiveServer) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-audit", "p-appeal"])
    rita = server.login("rita")
    decided(server, rita, ["p-audit", "p-appeal"], "remove")
    send(platform, "appeals", [appeal("p-appeal")])
    lead = server.login("lena", Role.lead)
    drawn = lead.post("/audits/samples", json={**ALL_TIME, "size": 10})
    assert drawn.status_code == 201, drawn.text
    assert drawn.json()["size"] == 1, "only the decision nobody appealed"


def test_a_decision_appealed_after_its_audit_was_drawn_is_not_overturned_by_it(
    server: LiveServer,
) -> None:
    """The audit task was handed out, then the user appealed: the audit's overturn is
    refused (the appeal settles it). Recorded, it bumped the item's epoch under the waiting
    appeal, and every verdict batch holding the appeal's decision answered 500, the
    unrelated verdicts in it with it."""
    platform = platform_of(server)
    queue_posts(platform, ["p-1", "p-2"])
    rita = server.login("rita")
    decided(server, rita, ["p-1"], "remove")
    lead = server.login("lena", Role.lead)
    drawn = lead.post("/audits/samples", json={**ALL_TIME, "size": 1})
    assert drawn.status_code == 201, drawn.text
    task = lead.post(f"/audits/samples/{drawn.json()['id']}/next").json()["task"]
    [sent] = send(platform, "appeals", [appeal("p-1", appeal_id="ap-1")])
    assert sent["status"] == "created", sent

    path = f"/audits/tasks/{task['audit_id']}/result"
    overturn = {"result": "overturn", "action": "keep", "note": "not misinformation"}
    expect_problem(lead.post(path, json=overturn), 409, "not_decision_of_record")
    judged = lead.post(path, json={"result": "judge", "action": "keep"})
    expect_problem(judged, 409, "not_decision_of_record")

    sam = server.login("sam")
    [held] = claim(sam, APPEALS, 1)
    [other] = claim(sam, MISINFO, 1)
    results = sam.decide([verdict(held, "reverse"), verdict(other, "keep")])
    assert [r["status"] for r in results] == ["accepted", "accepted"], results
    assert [a["kind"] for a in feed(server, platform)] == ["remove", "restore", "keep"]
    # the task can still be closed, as an agreement with what the reviewer did then
    assert lead.post(path, json={"result": "agree"}).status_code == 201


def test_an_appeals_queue_drains_only_into_an_appeals_queue(server: LiveServer) -> None:
    """``queues apply --drain-to``: an appeal moved into an ordinary queue would be decided
    as a post and its appeal left open for good; a post moved into the appeals queue could
    not be decided at all. Both are refused and nothing is applied; appeals drain into
    another appeals queue."""
    platform = platform_of(server)
    [item_id] = queue_posts(platform, ["p-drain"])
    decided(server, server.login("rita"), ["p-drain"], "remove")
    [result] = send(platform, "appeals", [appeal("p-drain")])
    assert result["status"] == "created", result
    svc = server.service
    before = svc.running_queue_file()

    without = queue_file()
    without["queues"] = [q for q in without["queues"] if q["id"] != APPEALS]
    with pytest.raises(ApiError) as caught:
        svc.apply_queue_file(QueueFile.model_validate(without), actor=None, drain_to=MISINFO)
    assert caught.value.code == "drain_target_mismatch"
    assert svc.running_queue_file() == before, "nothing was applied"

    renamed = copy.deepcopy(queue_file())  # its appeals queue is a shared dict
    for q in renamed["queues"]:
        if q["id"] == APPEALS:
            q["id"] = "appeals-2"
    svc.apply_queue_file(QueueFile.model_validate(renamed), actor=None, drain_to="appeals-2")
    sam = server.login("sam")
    [leased] = claim(sam, "appeals-2", 5, exactly=False)
    assert leased["item"]["id"] == item_id and leased["item"]["appeal"] is not None


def test_my_decisions_show_an_appeal_and_its_reversal_and_the_notice_counts_it(
    server: LiveServer, clock: ManualClock
) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-one", "p-two"])
    rita = server.login("rita")
    leased = {x["item"]["post"]["url"].rsplit("/", 1)[-1]: x for x in claim(rita, MISINFO, 2)}
    made = {
        name: r["decision"]
        for name, r in zip(
            ("p-one", "p-two"),
            rita.decide([verdict(leased[n], "remove", policies=CIVIC) for n in ("p-one", "p-two")]),
            strict=True,
        )
    }
    send(platform, "appeals", [appeal("p-one"), appeal("p-two")])
    sam = server.login("sam")
    (first,) = [x for x in claim(sam, APPEALS, 2) if x["item"]["id"] == made["p-one"]["item_id"]]
    assert sam.decide([verdict(first, "reverse")])[0]["status"] == "accepted"
    clock.advance(1)  # the window ends now, exclusive

    by_id = {d["id"]: d for d in rita.get("/me/decisions").json()["decisions"]}
    reversed_, waiting = by_id[made["p-one"]["id"]], by_id[made["p-two"]["id"]]
    assert reversed_["outcome"] == "appeal_reversed"
    assert [(f["kind"], f["outcome"], f["by"]) for f in reversed_["feedback"]] == [
        ("appeal", "appeal_reversed", None)  # a peer decided it: not named (Feedback.by)
    ]
    assert reversed_["feedback"][0]["action"] == "reverse"
    assert waiting["outcome"] == "appealed"
    notice = rita.get("/me/feedback").json()
    assert (notice["overturned"], notice["notes"]) == (1, 0)  # the reversal, not the waiting one
