"""Lead figures over real HTTP: reviewer agreement figures checked against numbers worked
out by hand, counts checked against the decision search for many windows (so the rollup
tiers: days, hours and raw edges add up), queue health, escalations and conflicts."""

from __future__ import annotations

import math
import random
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    PolicyConfig,
    QueueConfig,
    Role,
    StatementCategory,
)
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
START = 1_764_000_000.0 + 1_234.5  # mid-hour, so windows have raw edges
STEP = 7 * 3600.0  # decisions seven hours apart: windows span days, hours and edges

ESCALATIONS = SeedQueue(
    id="escalations",
    name="Escalations",
    description="Leads only",
    config=QueueConfig(
        actions=[
            ActionConfig(id="keep", label="No violation", kind=ActionKind.keep, key="1"),
            ActionConfig(
                id="remove", label="Remove", kind=ActionKind.remove, key="2", requires_policy=True
            ),
        ],
        policies=[
            PolicyConfig(
                code="SPAM.SCAM",
                label="Scam",
                terms_clause="Terms of Service 6.1 (Scams)",
                category=StatementCategory.scams_and_fraud,
            )
        ],
        lead_only=True,
    ),
)


def iso(t: float) -> str:
    return datetime.fromtimestamp(t, tz=UTC).isoformat().replace("+00:00", "Z")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Any:
    srv = LiveServer(database_url, clock=clock, token_ttl_seconds=60 * 86_400).start()
    try:
        seed_load_queue(srv.service, 60)
        with srv.service.db.write() as conn:
            insert_queues(conn, [ESCALATIONS])
        srv.service.forget_configs()
        yield srv
    finally:
        srv.stop()


def decide(session: ApiSession, action: str, ms: int, note: str | None = None) -> dict[str, Any]:
    (leased,) = claim(session, QUEUE, 1)
    policies = ["SPAM.SCAM"] if action == "remove" else []
    (result,) = session.decide(
        [verdict(leased, action, policies=policies, time_spent_ms=ms, note=note)]
    )
    assert result["status"] == "accepted", result
    return result["decision"]


def reviewer_stats(lead: ApiSession, since: float, until: float) -> dict[str, dict[str, Any]]:
    response = lead.get("/stats/reviewers", params={"since": iso(since), "until": iso(until)})
    assert response.status_code == 200, response.text
    return {r["reviewer"]: r for r in response.json()["reviewers"]}


def searched(lead: ApiSession, **params: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        query = {**params, "limit": 500, **({"cursor": cursor} if cursor else {})}
        page = lead.get("/decisions", params=query)
        assert page.status_code == 200, page.text
        found += page.json()["decisions"]
        cursor = page.json()["next_cursor"]
        if not cursor:
            return found


def test_reviewer_figures_match_a_hand_worked_fixture(
    server: LiveServer, clock: ManualClock
) -> None:
    ana = server.login("ana")
    ben = server.login("ben")
    lead = server.login("lead", Role.lead)

    # ana: 10 decisions that will be audited, then 2 that will not (outside the sample).
    ana_actions = ["keep"] * 6 + ["remove"] * 4
    ana_times = [1_000 * (i + 1) for i in range(12)]  # 1 s .. 12 s
    by_item: dict[str, tuple[str, str]] = {}
    for i, action in enumerate(ana_actions):
        d = decide(ana, action, ana_times[i])
        by_item[d["item_id"]] = ("ana", action)
        clock.advance(STEP)
    # ben: 4 decisions, all keep.
    for _ in range(4):
        d = decide(ben, "keep", 30_000)
        by_item[d["item_id"]] = ("ben", "keep")
        clock.advance(STEP)
    sample_until = clock.now
    for extra in ("keep", "remove"):
        decide(ana, extra, ana_times[10 if extra == "keep" else 11])
        clock.advance(STEP)
    # ben's late verdict after his lease ran out and ana decided the item: one conflict.
    (held,) = claim(ben, QUEUE, 1, lease_seconds=60)
    clock.advance(120)
    (taken,) = claim(ana, QUEUE, 1)
    assert taken["item"]["id"] == held["item"]["id"]
    assert ana.decide([verdict(taken, "keep", time_spent_ms=5_000)])[0]["status"] == "accepted"
    assert ben.decide([verdict(held, "remove", policies=["SPAM.SCAM"])])[0]["status"] == (
        "conflict"
    )
    clock.advance(STEP)

    # The auditor's actions, worked out so the figures below are known by hand:
    #   ana: keep/keep x4, keep/remove x2, remove/remove x3, remove/keep x1
    #   ben: keep/keep x3, keep/remove x1
    plan = {("ana", "keep"): ["keep"] * 4 + ["remove"] * 2, ("ana", "remove"): ["remove"] * 3}
    plan[("ana", "remove")].append("keep")
    plan[("ben", "keep")] = ["keep"] * 3 + ["remove"]
    made = lead.post(
        "/audits/samples",
        json={"size": 100, "since": iso(START - 1), "until": iso(sample_until)},
    )
    assert made.status_code == 201, made.text
    sample = made.json()
    assert sample["size"] == 14
    while True:
        grant = lead.post(f"/audits/samples/{sample['id']}/next").json()
        if grant["task"] is None:
            break
        task = grant["task"]
        original = by_item[task["item"]["id"]]
        final = plan[original].pop()
        body: dict[str, Any] = {"result": "agree"}
        if final != original[1]:
            body = {
                "result": "overturn",
                "action": final,
                "policies": ["SPAM.SCAM"] if final == "remove" else [],
                "note": "auditor's call",
            }
        recorded = lead.post(f"/audits/tasks/{task['audit_id']}/result", json=body)
        assert recorded.status_code == 201, recorded.text
    assert all(not left for left in plan.values())

    figures = reviewer_stats(lead, START - 60, clock.now)
    a, b = figures["ana"], figures["ben"]
    # ana: 13 decisions (10 + 2 + the contested one); 10 audited, 7 agreed, 3 overturned.
    assert (a["decisions"], a["audited"], a["audit_agreed"], a["audit_overturned"]) == (
        13,
        10,
        7,
        3,
    )
    assert a["audit_agreement_rate"] == pytest.approx(0.7)
    assert a["overturn_rate"] == pytest.approx(3 / 13)
    # kappa: p_o = 0.7; ana keep .6 / remove .4, auditor keep .5 / remove .5 -> p_e = 0.5.
    assert a["kappa"] == pytest.approx((0.7 - 0.5) / (1 - 0.5))
    assert {m["action"]: m["count"] for m in a["action_mix"]} == {"keep": 8, "remove": 5}
    assert a["conflicts"] == 0
    # ben: p_o = .75; ben keeps always, auditor keep .75 -> p_e = .75 -> kappa 0.
    assert (b["decisions"], b["audited"], b["audit_agreed"], b["audit_overturned"]) == (4, 4, 3, 1)
    assert b["audit_agreement_rate"] == pytest.approx(0.75)
    assert b["overturn_rate"] == pytest.approx(0.25)
    assert b["kappa"] == pytest.approx(0.0)
    assert b["conflicts"] == 1
    # Handle times come from 10%-wide buckets: within 10% of the exact nearest-rank figure.
    ana_all = sorted([*ana_times, 5_000])
    exact_median = ana_all[math.ceil(0.5 * len(ana_all)) - 1]
    exact_p90 = ana_all[math.ceil(0.9 * len(ana_all)) - 1]
    assert abs(a["handle_time_median_ms"] - exact_median) <= 0.1 * exact_median
    assert abs(a["handle_time_p90_ms"] - exact_p90) <= 0.1 * exact_p90
    assert abs(b["handle_time_median_ms"] - 30_000) <= 3_000

    # Per-sample agreement says the same.
    results = lead.get(f"/audits/samples/{sample['id']}/results").json()
    agreement = {r["reviewer"]: r for r in results["reviewers"]}
    assert agreement["ana"]["kappa"] == pytest.approx(0.4)
    assert (agreement["ben"]["agreed"], agreement["ben"]["overturned"]) == (3, 1)
    assert len(results["results"]) == 14

    # Any window: the rollups (days, hours, raw edges) agree with the decisions themselves.
    rng = random.Random(5)
    for _ in range(25):
        since = rng.uniform(START - 3_600, clock.now)
        until = rng.uniform(since + 1, clock.now + 3_600)
        figures = reviewer_stats(lead, since, until)
        expected: dict[str, Counter[str]] = {}
        for d in searched(lead, since=iso(since), until=iso(until)):
            if d["kind"] == "review":
                expected.setdefault(d["reviewer"], Counter())[d["action"]] += 1
        got = {
            name: Counter({m["action"]: m["count"] for m in r["action_mix"]})
            for name, r in figures.items()
            if r["decisions"]
        }
        assert got == expected, (iso(since), iso(until))


def test_queue_health_escalations_and_throughput(server: LiveServer, clock: ManualClock) -> None:
    rita = server.login("rita")
    lead = server.login("lead", Role.lead)
    decided_at = []
    for i in range(6):
        decide(rita, "remove" if i % 3 == 0 else "keep", 2_000)
        decided_at.append(clock.now)
        clock.advance(1_800)  # half an hour apart
    (escalated,) = claim(rita, QUEUE, 1)
    assert rita.decide([verdict(escalated, "escalate", note="coordinated?")])[0]["status"] == (
        "accepted"
    )
    decided_at.append(clock.now)
    held = claim(rita, QUEUE, 3)
    clock.advance(60)

    report = lead.get("/stats/queues", params={"since": iso(START - 600), "until": iso(clock.now)})
    assert report.status_code == 200, report.text
    queues = {q["queue_id"]: q for q in report.json()["queues"]}
    load, esc = queues[QUEUE], queues["escalations"]
    assert (load["backlog"], load["leased"]) == (60 - 7 - 3, 3)
    assert load["decided"] == 7 == sum(p["decided"] for p in load["decided_series"])
    assert {m["action"]: m["count"] for m in load["action_mix"]} == {
        "keep": 4,
        "remove": 2,
        "escalate": 1,
    }
    series = {p["start"]: p["decided"] for p in load["decided_series"]}
    for t in decided_at:
        assert iso(t // 3600 * 3600) in series
    assert load["escalations_open"] == 1
    assert (esc["backlog"], esc["escalations_open"]) == (1, 1)
    # The SLA: the seed's items were enqueued 1 to 48 hours before the clock started.
    ages = []
    for n in range(60):
        item = lead.get(f"/items/{QUEUE}-{n:07d}").json()
        if item["state"] == "pending":
            ages.append(clock.now - datetime.fromisoformat(item["enqueued_at"]).timestamp())
    assert load["sla_seconds"] == LOAD_QUEUE.config.sla_minutes * 60
    assert load["pending_over_sla"] == sum(age > load["sla_seconds"] for age in ages)
    assert load["oldest_pending_age_seconds"] == int(max(ages))
    assert load["sla_breached"] is (max(ages) > load["sla_seconds"])

    # Escalations: only leads claim them, and they decide with the same verdict flow.
    expect_problem(
        rita.post("/queues/escalations/leases", json={"count": 1}), 403, "lead_only_queue"
    )
    (lead_lease,) = claim(lead, "escalations", 1)
    assert lead_lease["item"]["id"] == escalated["item"]["id"]
    (final,) = lead.decide([verdict(lead_lease, "remove", policies=["SPAM.SCAM"])])
    assert final["status"] == "accepted" and final["decision"]["queue_id"] == "escalations"
    clock.advance(1)  # a window ends before its end: let the decision be inside it
    queues = {
        q["queue_id"]: q
        for q in lead.get("/stats/queues", params={"since": iso(START)}).json()["queues"]
    }
    assert queues[QUEUE]["escalations_open"] == 0
    assert queues["escalations"]["decided"] == 1
    for lease in held:
        assert lease["item"]["id"] != escalated["item"]["id"]

    # By day, and one queue.
    daily = lead.get(
        "/stats/queues",
        params={"since": iso(START - 86_400 * 3), "bucket": "day", "queue_id": QUEUE},
    ).json()
    assert [q["queue_id"] for q in daily["queues"]] == [QUEUE]
    assert len(daily["queues"][0]["decided_series"]) in (4, 5)


def test_a_window_without_a_whole_hour_puts_each_decision_in_its_own_hour(
    server: LiveServer, clock: ManualClock
) -> None:
    """16:45-17:20: two decisions before 17:00 and three after. All five were counted in
    the 16:00 bucket (a window with no whole hour was one edge, bucketed at its start)."""
    rita = server.login("rita")
    lead = server.login("lead", Role.lead)
    hour = (START // 3600 + 1) * 3600
    clock.now = hour - 600
    for step in (0, 300, 900, 60, 60):  # 16:50, 16:55, 17:10, 17:11, 17:12
        clock.advance(step)
        decide(rita, "keep", 1_000)
    params = {"since": iso(hour - 900), "until": iso(hour + 1_200), "queue_id": QUEUE}
    report = lead.get("/stats/queues", params=params)
    assert report.status_code == 200, report.text
    [load] = [q for q in report.json()["queues"] if q["queue_id"] == QUEUE]
    series = {p["start"]: p["decided"] for p in load["decided_series"]}
    assert series == {iso(hour - 3600): 2, iso(hour): 3}, series


@pytest.mark.parametrize(
    ("path", "params", "status", "code"),
    [
        (
            "/stats/queues",
            {"since": "2030-01-02T00:00:00Z", "until": "2030-01-01T00:00:00Z"},
            422,
            "invalid_window",
        ),
        (
            "/stats/queues",
            {"since": "2020-01-01T00:00:00Z", "until": "2030-01-01T00:00:00Z"},
            422,
            "window_too_long",
        ),
        (
            "/stats/reviewers",
            {"since": "2030-01-01T00:00:00Z", "until": "2030-01-01T00:00:00Z"},
            422,
            "invalid_window",
        ),
        ("/stats/queues", {"queue_id": "no-such-queue"}, 404, "unknown_queue"),
        ("/stats/reviewers", {"reviewer": "nobody-here"}, 404, "unknown_user"),
        ("/stats/queues", {"since": "2030-01-01T00:00:00"}, 422, "invalid_request"),
    ],
)
def test_bad_stats_requests_are_problems(
    server: LiveServer, path: str, params: dict[str, str], status: int, code: str
) -> None:
    lead = server.login("lead", Role.lead)
    expect_problem(lead.get(path, params=params), status, code)
    reviewer = server.login("rev")
    expect_problem(reviewer.get(path, params=params), 403, "lead_only")
