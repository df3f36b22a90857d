"""My decisions against the real service, offscreen: feedback is marked seen only once the
list shown holds the decisions it is on (a shift's list leaves yesterday's overturn
unseen, the strip's button opens a window that reaches it), the newest period asked wins
over a load under way, one view is reused and follows the strip, an escalation says what
the lead decided, and with the service out of reach the list still shows this computer's
verdicts (not sent yet, refused) with a line saying the service's part could not be read."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QThreadPool
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient
from reviewer_app.core.store import JournalEntry
from reviewer_app.protocol import (
    AuditOverturn,
    AuditSampleCreate,
    RejectReason,
    Verdict,
    VerdictResult,
    VerdictStatus,
)
from reviewer_app.protocol.verdicts import AuditOutcome
from reviewer_app.server.feeds.seed import seed_demo
from reviewer_app.ui.my_decisions import MONTH, SHIFT, WEEK, FeedbackBar, MyDecisionsView
from tests.support.api import ApiSession, claim, verdict
from tests.support.servers import PASSWORD, LiveServer

from .conftest import LEAD

SPAM = "spam-scams"
DAY = 86_400.0


class Clock:
    def __init__(self) -> None:
        self.skew = 0.0

    def __call__(self) -> float:
        return time.time() + self.skew


@pytest.fixture
def clocked(tmp_path: Path) -> Iterator[tuple[LiveServer, Clock]]:
    clock = Clock()
    server = LiveServer(f"sqlite:///{tmp_path / 's.db'}", clock=clock).start()
    seed_demo(server.service)
    try:
        yield server, clock
    finally:
        QThreadPool.globalInstance().waitForDone(10_000)
        server.stop()


def factory_for(url: str, username: str) -> Callable[[], ApiClient]:
    with ApiClient(url) as c:
        token = c.login(username, PASSWORD).token
    return lambda: ApiClient(url, token=token)


def overturn_yesterdays(server: LiveServer, clock: Clock, rita: ApiSession) -> None:
    clock.skew = -DAY
    started = datetime.now(UTC) - timedelta(days=1, seconds=5)
    (leased,) = claim(rita, SPAM, 1)
    rita.decide([verdict(leased, "remove", policies=["SPAM.SCAM"])])
    clock.skew = 0.0
    overturn_between(server, started, datetime.now(UTC) - timedelta(hours=20), "context")


def overturn_between(server: LiveServer, since: datetime, until: datetime, note: str) -> None:
    """A lead's audit overturns every spam decision made between ``since`` and ``until``."""
    with ApiClient(server.url) as lead:
        lead.login(*LEAD)
        sample = lead.create_sample(
            AuditSampleCreate(size=5, since=since, until=until, queue_id=SPAM)
        )
        while (task := lead.next_audit(sample.id).task) is not None:
            lead.record_audit(
                task.audit_id,
                AuditOverturn(result=AuditOutcome.overturn, action="not-spam", note=note),
            )


def settled(qtbot: QtBot, view: MyDecisionsView) -> None:
    qtbot.waitUntil(lambda: not view.busy, timeout=20_000)
    QThreadPool.globalInstance().waitForDone(10_000)
    qtbot.wait(50)


def test_feedback_is_seen_only_once_shown(clocked: Any, qtbot: QtBot) -> None:
    server, clock = clocked
    server.add_user("rita")
    rita = ApiSession.login(server.url, "rita", PASSWORD)
    overturn_yesterdays(server, clock, rita)
    factory = factory_for(server.url, "rita")
    notice = rita.get("/me/feedback").json()
    assert notice["overturned"] == 1 and notice["oldest"] is not None

    # "This shift" (the last hour) does not hold yesterday's decision: not marked seen
    shift = datetime.now(UTC) - timedelta(hours=1)
    view = MyDecisionsView(factory, [], [], shift, period=SHIFT)
    qtbot.addWidget(view)
    settled(qtbot, view)
    assert view.model.rowCount() == 0
    assert "longer period" in view.status.text()
    assert rita.get("/me/feedback").json()["overturned"] == 1

    # the strip's button (the notice up) switches the open view to a window reaching it
    bar = FeedbackBar()
    qtbot.addWidget(bar)
    with ApiClient(server.url) as api:
        api.login("rita", PASSWORD)
        bar.notice = api.feedback_notice()
    assert bar.notice.oldest is not None
    view.reopen(shift, WEEK, bar.notice.oldest)
    assert view.period.currentData() == WEEK
    settled(qtbot, view)
    assert view.model.rowCount() == 1
    assert view.model.index(0, 4).data() == "Overturned in an audit"
    qtbot.waitUntil(lambda: rita.get("/me/feedback").json()["overturned"] == 0, timeout=10_000)
    # a notice reaching further than a week opens the longest period
    assert view.period_reaching(datetime.now(UTC) - timedelta(days=9), WEEK) == MONTH
    assert view.period_reaching(datetime.now(UTC) - timedelta(minutes=5)) == SHIFT


def test_feedback_on_the_decisions_shown_is_seen_and_on_earlier_ones_not(
    clocked: Any, qtbot: QtBot
) -> None:
    """A list that does not reach all the notice's feedback still marks seen what it showed
    (``shown_since``): today's overturn, recorded before yesterday's, is seen; yesterday's
    stays counted."""
    server, clock = clocked
    server.add_user("rita")
    rita = ApiSession.login(server.url, "rita", PASSWORD)
    started = datetime.now(UTC) - timedelta(seconds=5)
    (leased,) = claim(rita, SPAM, 1)
    rita.decide([verdict(leased, "remove", policies=["SPAM.SCAM"])])
    overturn_between(server, started, datetime.now(UTC), "today")
    overturn_yesterdays(server, clock, rita)
    assert rita.get("/me/feedback").json()["overturned"] == 2

    shift = datetime.now(UTC) - timedelta(hours=1)
    view = MyDecisionsView(factory_for(server.url, "rita"), [], [], shift, period=SHIFT)
    qtbot.addWidget(view)
    settled(qtbot, view)
    assert view.model.rowCount() == 1 and "longer period" in view.status.text()
    qtbot.waitUntil(lambda: rita.get("/me/feedback").json()["overturned"] == 1, timeout=10_000)


def test_the_newest_period_asked_wins(clocked: Any, qtbot: QtBot) -> None:
    server, clock = clocked
    server.add_user("rita")
    rita = ApiSession.login(server.url, "rita", PASSWORD)
    overturn_yesterdays(server, clock, rita)
    factory = factory_for(server.url, "rita")
    view = MyDecisionsView(factory, [], [], datetime.now(UTC) - timedelta(hours=1))
    qtbot.addWidget(view)
    assert view.busy
    view.period.setCurrentIndex(view.period.findData(WEEK))  # at once, while it loads
    settled(qtbot, view)
    assert view.period.currentData() == WEEK
    assert view.model.rowCount() == 1  # the week's row, not the shift's nothing


def test_an_escalation_says_what_the_lead_decided(clocked: Any, qtbot: QtBot) -> None:
    server, _clock = clocked
    server.add_user("rita")
    rita = ApiSession.login(server.url, "rita", PASSWORD)
    queues = {q["id"]: q for q in rita.get("/queues").json()["queues"]}
    config = queues[SPAM]["config"]
    escalate = next(a for a in config["actions"] if a["kind"] == "escalate")
    reasons = config.get("escalation_reasons") or []
    extra = {"escalation_reason": reasons[0]["id"]} if reasons else {}
    (leased,) = claim(rita, SPAM, 1)
    rita.decide([verdict(leased, escalate["id"], note="lead please", **extra)])
    factory = factory_for(server.url, "rita")
    with factory() as api:
        names = api.queues().queues
    view = MyDecisionsView(factory, names, [], datetime.now(UTC) - timedelta(hours=1))
    qtbot.addWidget(view)
    settled(qtbot, view)
    assert view.model.index(0, 4).data() == "Escalated, waiting for a lead"

    lead = ApiSession.login(server.url, *LEAD)
    got = None
    for _ in range(50):
        items = lead.claim("escalations", 20)
        got = next((x for x in items if x["item"]["id"] == leased["item"]["id"]), None)
        if got is not None:
            break
    assert got is not None
    (done,) = lead.decide([verdict(got, "remove", policies=["SPAM.SCAM"], note="scam")])
    assert done["status"] == "accepted", done
    view.reload()
    settled(qtbot, view)
    outcome = view.model.index(0, 4).data()
    assert outcome.startswith("Escalated — the lead decided: "), outcome
    assert "Remove" in outcome or "remove" in outcome


def entry(status: str, reason: str | None = None) -> JournalEntry:
    body = Verdict.model_validate(
        {
            "idempotency_key": "0b9c8f1e-7d0a-4c59-9a31-2f0f6c7d9e11",
            "item_id": "post-1",
            "lease_token": "t" * 20,
            "action": "remove",
            "time_spent_ms": 1000,
            "decided_at": datetime.now(UTC).isoformat(),
        }
    )
    result = (
        VerdictResult(
            idempotency_key=body.idempotency_key,
            item_id="post-1",
            status=VerdictStatus.rejected,
            reason=RejectReason(code="withdrawn", message=reason),
        )
        if reason
        else None
    )
    return JournalEntry(
        key=status,
        item_id="post-1" if status == "pending" else "post-2",
        queue_id=SPAM,
        action="remove",
        verdict=body,
        recorded_at=time.time() - 60,
        status=status,
        result=result,
        settled_at=None,
    )


def test_offline_the_list_shows_this_computers_verdicts(qtbot: QtBot) -> None:
    def unreachable() -> ApiClient:
        return ApiClient("http://127.0.0.1:9")  # nothing listens

    journal = [entry("pending"), entry("rejected", "withdrawn by the platform")]
    view = MyDecisionsView(
        unreachable,
        [],
        [],
        datetime.now(UTC) - timedelta(hours=1),
        journal=lambda: journal,
    )
    qtbot.addWidget(view)
    settled(qtbot, view)
    outcomes = {view.model.index(r, 4).data() for r in range(view.model.rowCount())}
    assert "Not sent yet" in outcomes
    assert any(o.startswith("Refused: ") and "withdrawn by the platform" in o for o in outcomes)
    assert "could not be read" in view.status.text()


def test_the_window_asks_the_service_once_per_open(
    clocked: Any, qtbot: QtBot, desk_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opened from the review window, the view is loaded by its reopen only: it used to ask
    the service twice at its first open (once as it was made)."""
    from reviewer_app.ui import my_decisions

    server, _clock = clocked
    asked: list[datetime] = []
    real = my_decisions.fetch_rows

    def counted(factory: Any, since: datetime, names: Any) -> Any:
        asked.append(since)
        return real(factory, since, names)

    monkeypatch.setattr(my_decisions, "fetch_rows", counted)
    window = desk_factory(server.url).window
    for opened in (1, 2):
        window.show_my_decisions()
        view = window.my_decisions_view
        assert view is not None
        settled(qtbot, view)
        assert len(asked) == opened, asked
        view.close()
