"""What waits for someone else, in the reviewer's window (real service over HTTP,
offscreen): the appeal of a reviewer's own decision is counted in the picker as waiting
for someone else, not for them, and the empty appeals queue says why; whoever decides an
appeal reads the escalating reviewer's note in the item's history."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from reviewer_app.protocol import Queue, Role
from reviewer_app.ui.models import picker_row
from reviewer_app.ui.plain import isolate
from reviewer_app.ui.queue_picker import nothing_here
from tests.support.api import ApiSession, claim, verdict
from tests.support.appeals import APPEALS, APPEALS_QUEUE, appeal, appeals_server
from tests.support.enforcement import ESCALATIONS
from tests.support.intake import MISINFO, classifier, key_session, post, send
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

CIVIC = ["MISINFO.CIVIC"]
NOTE = "<b>Satire</b> or a real claim?\nThe account posts both."
RITA = ("rita", PASSWORD)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    people = [(*REVIEWER, Role.reviewer), (*LEAD, Role.lead), ("rita", PASSWORD, Role.reviewer)]
    server = appeals_server(f"sqlite:///{tmp_path / 'appeals.db'}", people=people)
    try:
        yield server
    finally:
        server.stop()


def _queue_post(platform: ApiSession, external_id: str) -> None:
    send(platform, "posts", [post(external_id, "Polls close at noon on Thursday.")])
    send(platform, "signals", [classifier(external_id, 0.95)])


def _picker_line(desk: Desk, queue_id: str) -> str:
    model = desk.window.queues
    return str(model.data(model.index(model.row_of(queue_id), 0)))


def test_the_appeal_of_my_own_decision_waits_for_someone_else_and_the_pane_says_so(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    platform = key_session(server, "feed-bridge")
    _queue_post(platform, "p-mine")
    me = ApiSession.login(server.url, *REVIEWER)
    [leased] = claim(me, MISINFO, 1)
    [removed] = me.decide([verdict(leased, "remove", policies=CIVIC)])
    assert removed["status"] == "accepted"
    [sent] = send(platform, "appeals", [appeal("p-mine")])
    assert sent["status"] == "created"
    _queue_post(platform, "p-next")  # something for me, elsewhere

    desk = desk_factory(server.url, queue=MISINFO)
    window = desk.window
    appeals = f"{isolate('Appeals')} — "
    assert _picker_line(desk, APPEALS).startswith(
        appeals + "0 waiting, 1 waiting for someone else, 0 being reviewed, 0 decided today"
    ), _picker_line(desk, APPEALS)

    window.queue_picker.setCurrentIndex(window.queues.row_of(APPEALS))
    desk.wait(lambda: APPEALS in window.drained, 15_000)
    desk.wait(lambda: "someone else" in window.post.byline.text(), 10_000)
    said = window.post.byline.text()
    assert f"Nothing in {isolate('Appeals')} is waiting for you." in said, said
    assert (
        f"Waiting in {isolate('Appeals')} for someone else: 1 post. An appeal never goes to "
        "whoever decided or escalated the post before." in said
    ), said
    assert f"{isolate('Appeals')}: 1 waiting" not in said, said

    # another reviewer's picker counts the appeal as theirs to take
    rita = ApiSession.login(server.url, *RITA)
    [counts] = [q["counts"] for q in rita.get("/queues").json()["queues"] if q["id"] == APPEALS]
    assert (counts["pending"], counts["not_for_you"]) == (1, 0)


def _queue(queue_id: str, name: str, pending: int, not_for_you: int = 0) -> Queue:
    config = (
        APPEALS_QUEUE["config"]
        if queue_id == APPEALS
        else {"actions": [{"id": "keep", "label": "Keep", "kind": "keep"}]}
    )
    return Queue.model_validate(
        {
            "id": queue_id,
            "name": name,
            "config": config,
            "counts": {
                "pending": pending,
                "leased": 0,
                "decided_today": 0,
                "not_for_you": not_for_you,
            },
        }
    )


def test_queues_with_work_are_those_with_work_for_me(qtbot: object) -> None:
    misinfo = _queue(MISINFO, "Misinformation", 0)
    hate = _queue("hate", "Hate", 3)
    appeals = _queue(APPEALS, "Appeals", 2, not_for_you=2)
    escalations = _queue(ESCALATIONS, "Escalations", 2, not_for_you=1)
    said = nothing_here(misinfo, [misinfo, appeals, escalations, hate])
    assert "Queues with posts waiting:" in said
    assert f"Alt+3  {isolate('Escalations')}: 1 waiting" in said, said
    assert f"Alt+4  {isolate('Hate')}: 3 waiting" in said, said
    assert isolate("Appeals") not in said, "nothing there is for me"
    said = nothing_here(escalations, [misinfo, escalations])
    assert (
        f"Waiting in {isolate('Escalations')} for someone else: 1 post, assigned to another lead."
        in said
    ), said
    assert "No other queue has posts waiting either" in said
    # a queue with nothing kept from anyone reads as it always did
    assert picker_row(hate) == f"{isolate('Hate')} — 3 waiting, 0 being reviewed, 0 decided today"
    assert picker_row(appeals).startswith(
        f"{isolate('Appeals')} — 0 waiting, 2 waiting for someone else,"
    )


def test_whoever_decides_the_appeal_reads_the_escalating_reviewers_note(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    platform = key_session(server, "feed-bridge")
    _queue_post(platform, "p-escalated")
    me = ApiSession.login(server.url, *REVIEWER)
    [leased] = claim(me, MISINFO, 1)
    [escalated] = me.decide(
        [verdict(leased, "escalate", escalation_reason="policy_unclear", note=NOTE)]
    )
    assert escalated["status"] == "accepted"
    lead = ApiSession.login(server.url, *LEAD)
    [taken] = claim(lead, ESCALATIONS, 1)
    [removed] = lead.decide([verdict(taken, "remove", policies=CIVIC)])
    assert removed["status"] == "accepted"
    [sent] = send(platform, "appeals", [appeal("p-escalated")])
    assert sent["status"] == "created"

    desk = desk_factory(server.url, queue=APPEALS, user=RITA)
    assert desk.current_id() == leased["item"]["id"]
    history = desk.window.context.text_of("History")
    assert f"escalated by {isolate(REVIEWER[0])} — why: {isolate('Policy unclear')}" in history
    assert f"their note: {isolate(NOTE)}" in history, history
    # and what the lead decided, the decision the user appealed
    cited = isolate("MISINFO.CIVIC")
    assert f"decided by {isolate(LEAD[0])} — remove ({cited})" in history, history
