"""Quality signals over real HTTP on both databases, from a seeded history whose flags are
worked out by hand (see reviewer_app/server/domain/quality.py for the definitions)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.domain.quality import total_variation
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
DAY = 86_400.0
T0 = 1_764_028_800.0  # a UTC midnight: the window before is [T0, T0+DAY), the window the next
THRESHOLDS = {
    "min_median_ms": 1_000,
    "max_mix_distance": 0.3,
    "min_decisions": 4,
    "overturn_jump": 0.2,
}


def iso(t: float) -> str:
    return datetime.fromtimestamp(t, tz=UTC).isoformat().replace("+00:00", "Z")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0 + 3_600)


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Any:
    srv = LiveServer(database_url, clock=clock, token_ttl_seconds=30 * 86_400).start()
    try:
        seed_load_queue(srv.service, 60)
        yield srv
    finally:
        srv.stop()


def decide(
    session: ApiSession, clock: ManualClock, actions: list[str], ms: int
) -> list[dict[str, Any]]:
    made = []
    for action in actions:
        (leased,) = claim(session, QUEUE, 1)
        policies = ["SPAM.SCAM"] if action == "remove" else []
        (result,) = session.decide([verdict(leased, action, policies=policies, time_spent_ms=ms)])
        assert result["status"] == "accepted", result
        made.append(result["decision"])
        clock.advance(60)
    return made


def test_total_variation_by_hand() -> None:
    from collections import Counter

    assert total_variation(Counter(keep=2, remove=2), Counter(keep=7, remove=4)) == pytest.approx(
        3 / 22
    )
    assert total_variation(Counter(keep=1), Counter(remove=5)) == 1.0
    assert total_variation(Counter(keep=3, remove=1), Counter(keep=6, remove=2)) == 0.0


def test_quality_flags_match_a_hand_worked_history(server: LiveServer, clock: ManualClock) -> None:
    ana, ben, cat, dan = (server.login(n) for n in ("ana", "ben", "cat", "dan"))
    lead = server.login("lead", Role.lead)

    # The window before: ana keeps 4, cat removes 4; nothing of theirs is overturned.
    decide(ana, clock, ["keep"] * 4, 5_000)
    decide(cat, clock, ["remove"] * 4, 5_000)

    # The window: ana k2 r2 (her first two overturned below), ben k4 in 0.3 s each, cat r4,
    # dan k3 in 0.3 s (under min_decisions: judged on nothing, but one of the others).
    clock.now = T0 + DAY + 3_600
    first_two = decide(ana, clock, ["keep", "remove"], 5_000)
    decide(ana, clock, ["keep", "remove"], 5_000)
    decide(ben, clock, ["keep"] * 4, 300)
    decide(cat, clock, ["remove"] * 4, 5_000)
    decide(dan, clock, ["keep"] * 3, 300)

    sample = lead.post(
        "/audits/samples",
        json={"since": iso(T0 + DAY + 3_600), "until": iso(T0 + DAY + 3_661), "size": 5},
    )
    assert sample.status_code == 201 and sample.json()["size"] == 2, sample.text
    overturn_to = {"keep": ("remove", ["SPAM.SCAM"]), "remove": ("keep", [])}
    for _ in first_two:
        task = lead.post(f"/audits/samples/{sample.json()['id']}/next").json()["task"]
        original = next(d for d in first_two if d["item_id"] == task["item"]["id"])
        action, policies = overturn_to[original["action"]]
        body = {"result": "overturn", "action": action, "policies": policies, "note": "no"}
        recorded = lead.post(f"/audits/tasks/{task['audit_id']}/result", json=body)
        assert recorded.status_code == 201, recorded.text

    clock.now = T0 + 2 * DAY + 60
    response = lead.get(
        "/stats/quality", params={"since": iso(T0 + DAY), "until": iso(T0 + 2 * DAY), **THRESHOLDS}
    )
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["previous_since"] == iso(T0)
    assert report["thresholds"] == THRESHOLDS
    got = {r["reviewer"]: r for r in report["reviewers"]}
    assert {name: got[name]["flags"] for name in ("ana", "ben", "cat", "dan")} == {
        # overturn rate 2/4 = 0.5 against 0/4 = 0 before: a jump of 0.5 >= 0.2
        "ana": ["overturns"],
        # median 0.3 s < 1 s; k4 against the others' k5 r6: TVD = 6/11 > 0.3
        "ben": ["fast", "mix"],
        # r4 against the others' k9 r2: TVD = 9/11; no decisions before: no jump judged
        "cat": ["mix"],
        # 3 decisions < min_decisions: fast, but not judged
        "dan": [],
    }
    assert got["ana"]["mix_distance"] == pytest.approx(3 / 22, abs=1e-6)  # k2 r2 vs k7 r4
    assert got["ben"]["mix_distance"] == pytest.approx(6 / 11, abs=1e-6)
    assert got["cat"]["mix_distance"] == pytest.approx(9 / 11, abs=1e-6)
    assert got["dan"]["mix_distance"] is None
    assert (got["ana"]["overturn_rate"], got["ana"]["previous_overturn_rate"]) == (0.5, 0.0)
    assert (got["cat"]["previous_decisions"], got["cat"]["previous_overturn_rate"]) == (4, 0.0)
    assert got["ben"]["mix_queue_id"] == QUEUE
    assert got["ben"]["handle_time_median_ms"] == pytest.approx(300, rel=0.1)

    # Looser thresholds flag nothing; a stricter minimum count judges no one.
    loose = {**THRESHOLDS, "min_median_ms": 100, "max_mix_distance": 0.9, "overturn_jump": 0.6}
    relaxed = lead.get(
        "/stats/quality", params={"since": iso(T0 + DAY), "until": iso(T0 + 2 * DAY), **loose}
    ).json()
    assert all(r["flags"] == [] for r in relaxed["reviewers"])
    strict = lead.get(
        "/stats/quality",
        params={
            "since": iso(T0 + DAY),
            "until": iso(T0 + 2 * DAY),
            **THRESHOLDS,
            "min_decisions": 5,
        },
    ).json()
    assert all(r["flags"] == [] for r in strict["reviewers"])

    # ana's trend: a day per row, exact medians, her overturns on the day she decided them.
    trend = lead.get(
        "/stats/reviewers/ana/trend", params={"since": iso(T0), "until": iso(T0 + 2 * DAY)}
    ).json()
    assert [
        (d["start"], d["decisions"], d["handle_time_median_ms"], d["overturned"])
        for d in trend["days"]
    ] == [(iso(T0), 4, 5_000, 0), (iso(T0 + DAY), 4, 5_000, 2)]


def test_quality_refuses_bad_thresholds_and_reviewers(server: LiveServer) -> None:
    lead = server.login("lead", Role.lead)
    reviewer = server.login("rita")
    expect_problem(lead.get("/stats/quality", params={"max_mix_distance": 1.5}), 422)
    expect_problem(lead.get("/stats/quality", params={"min_decisions": 0}), 422)
    expect_problem(reviewer.get("/stats/quality"), 403, "lead_only")
    expect_problem(lead.get("/stats/reviewers/nobody/trend"), 404, "unknown_user")
    expect_problem(
        lead.get(
            "/stats/reviewers/rita/trend",
            params={"since": "2026-01-01T00:00:00Z", "until": "2026-12-01T00:00:00Z"},
        ),
        422,
        "window_too_long",
    )


def test_a_window_from_1971_has_a_shorter_one_before_it(server: LiveServer) -> None:
    """The window before is as long as the one asked for, unless that would start before
    the wire's earliest time (1971): then it starts there. Found by schemathesis: a window
    from 1971 to now put the one before in 1916 and answered 500."""
    lead = server.login("lead", Role.lead)
    since = "1971-08-22T20:04:01Z"
    response = lead.get("/stats/quality", params={"since": since, "until": iso(T0)})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["previous_since"] == "1971-01-01T00:00:00Z", report
    assert report["since"].startswith("1971-08-22T20:04:01"), report

    day = lead.get("/stats/quality", params={"since": iso(T0 - DAY), "until": iso(T0)}).json()
    assert day["previous_since"] == iso(T0 - 2 * DAY), day


def test_no_window_reaches_before_1971(server: LiveServer) -> None:
    """A time's year is the wire's in UTC (00:30 on the first of 1971 at +01:00 is still
    1970: refused), and the default window (a day before ``until``) starts in 1971 at the
    earliest: a report never carries a time the wire cannot."""
    lead = server.login("lead", Role.lead)
    expect_problem(lead.get("/stats/quality", params={"since": "1971-01-01T00:30:00+01:00"}), 422)
    response = lead.get("/stats/quality", params={"until": "1971-01-01T12:00:00Z"})
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["since"] == report["previous_since"] == "1971-01-01T00:00:00Z", report
    # the same for a reviewer's trend (its default is the week before ``until``)
    trend = lead.get("/stats/reviewers/lead/trend", params={"until": "1971-01-02T00:00:00Z"})
    assert trend.status_code == 200, trend.text
    assert trend.json()["since"] == "1971-01-01T00:00:00Z"


@pytest.mark.parametrize("path", ["/stats/queues", "/stats/reviewers", "/stats/quality"])
def test_the_wires_last_microsecond_is_a_time_it_can_answer_with(
    server: LiveServer, path: str
) -> None:
    """The last microseconds of 8999 are past what a float of epoch seconds holds: they
    read as 9000, a time the reply could not carry (500). The last whole second stands."""
    lead = server.login("lead", Role.lead)
    response = lead.get(path, params={"until": "8999-12-31T23:59:59.999999Z"})
    assert response.status_code == 200, response.text
