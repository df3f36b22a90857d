"""A lead's change of a queue's break reminders never silently undoes another lead's, and
turning reminders off and on again keeps the queue's own high-harm kinds (over real HTTP,
on both databases).

Lead A read the rule when she opened the dialog; lead B changed it meanwhile (other
numbers, other kinds). A's save, made from what she read, is refused (409
``breaks_changed``) and nothing of B's is lost. A save that sets only the numbers
(``keep_high_harm``) keeps the queue's kinds, also those of the rule it had before its
reminders were turned off.
"""

from __future__ import annotations

from typing import Any

from reviewer_app.protocol import DEFAULT_HIGH_HARM, Role
from tests.support.api import ApiSession, expect_problem
from tests.support.intake import MISINFO, apply_queues
from tests.support.servers import LiveServer

PATH = f"/queues/{MISINFO}/breaks"


def _rule(session: ApiSession) -> Any:
    queues = session.get("/queues").json()["queues"]
    return next(q for q in queues if q["id"] == MISINFO)["config"]["breaks"]


def _put(session: ApiSession, body: dict[str, Any]) -> Any:
    return session.request("PUT", PATH, json=body)


def test_a_save_from_a_rule_changed_meanwhile_is_refused(live_server: LiveServer) -> None:
    apply_queues(live_server)
    ana, ben = live_server.login("ana", Role.lead), live_server.login("ben", Role.lead)
    start = {"after_minutes": 60, "after_high_harm": None, "high_harm": ["graphic_violence"]}
    assert _put(ana, {"breaks": start}).status_code == 200
    seen = _rule(ana)  # ana opens the dialog
    assert seen == start

    bens = {"after_minutes": 50, "after_high_harm": 8, "high_harm": ["child_safety"]}
    assert _put(ben, {"breaks": bens, "based_on": {"breaks": seen}}).status_code == 200
    # the same save again (a retry whose first reply was lost) is no conflict
    assert _put(ben, {"breaks": bens, "based_on": {"breaks": seen}}).status_code == 200

    mine = {**seen, "after_minutes": 30}  # ana changed only the minutes
    body = expect_problem(_put(ana, {"breaks": mine, "based_on": {"breaks": seen}}), 409)
    assert body["code"] == "breaks_changed"
    assert "50 minutes" in body["detail"] and "child_safety" in body["detail"]
    assert _rule(ana) == bens, "ben's change stands"

    # from what she reads now, her change goes through, keeping ben's kinds
    now = _rule(ana)
    saved = _put(
        ana,
        {
            "breaks": {"after_minutes": 30, "after_high_harm": 8},
            "based_on": {"breaks": now},
            "keep_high_harm": True,
        },
    )
    assert saved.status_code == 200, saved.text
    assert saved.json()["breaks"]["high_harm"] == ["child_safety"]
    assert _rule(ana) == {"after_minutes": 30, "after_high_harm": 8, "high_harm": ["child_safety"]}


def test_reminders_off_then_on_again_keep_the_queues_kinds(live_server: LiveServer) -> None:
    apply_queues(live_server)
    ana = live_server.login("ana", Role.lead)
    own = ["self_harm", "graphic_violence"]
    first = {"after_minutes": 60, "after_high_harm": 10, "high_harm": own}
    assert _put(ana, {"breaks": first}).status_code == 200
    off = _put(ana, {"breaks": None, "based_on": {"breaks": first}, "keep_high_harm": True})
    assert off.status_code == 200 and _rule(ana) is None

    numbers = {"after_minutes": 60}  # the dialog knows no kinds now: the defaults
    on = _put(ana, {"breaks": numbers, "based_on": {"breaks": None}, "keep_high_harm": True})
    assert on.status_code == 200, on.text
    assert _rule(ana) == {"after_minutes": 60, "after_high_harm": None, "high_harm": own}
    assert on.json()["breaks"]["high_harm"] == own

    # a queue that never had a rule gets the defaults
    other = next(q["id"] for q in ana.get("/queues").json()["queues"] if q["id"] != MISINFO)
    fresh = ana.request(
        "PUT", f"/queues/{other}/breaks", json={"breaks": numbers, "keep_high_harm": True}
    )
    assert fresh.status_code == 200, fresh.text
    assert fresh.json()["breaks"]["high_harm"] == [k.value for k in DEFAULT_HIGH_HARM]
