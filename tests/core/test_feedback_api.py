"""The API client's feedback and quality calls over real HTTP: a reviewer's own decisions
with an overturn's note and a lead's note, the notice and marking it seen, the quality
report and a reviewer's trend."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from reviewer_app.core.errors import Forbidden
from reviewer_app.protocol import (
    AuditAgree,
    AuditOverturn,
    AuditSampleCreate,
    DecisionOutcome,
    FeedbackKind,
    QualityThresholds,
    Role,
)
from reviewer_app.protocol.verdicts import AuditOutcome
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.core.test_lead_api import decide
from tests.support.client import login
from tests.support.servers import LiveServer


def test_feedback_reaches_the_reviewer_through_the_client(server: LiveServer) -> None:
    rita = login(server, "rita")
    other = login(server, "other")
    lead = login(server, "lead2", Role.lead)
    made = decide(rita, 3)
    decide(other, 2)
    assert rita.feedback_notice().overturned == 0

    now = datetime.now(UTC)
    sample = lead.create_sample(
        AuditSampleCreate(
            size=100,
            since=now - timedelta(hours=1),
            until=now + timedelta(seconds=1),
            queue_id=LOAD_QUEUE.id,
        )
    )
    target = None
    while (task := lead.next_audit(sample.id).task) is not None:
        original = next((d for d in made if d.item_id == task.item.id), None)
        if original is not None and target is None:
            target = original
            lead.record_audit(
                task.audit_id,
                AuditOverturn(
                    result=AuditOutcome.overturn,
                    action="keep" if original.action == "remove" else "remove",
                    policies=[] if original.action == "remove" else ["SPAM.SCAM"],
                    note="Read the thread first.",
                ),
            )
        else:
            lead.record_audit(task.audit_id, AuditAgree(result=AuditOutcome.agree))
    assert target is not None
    lead.add_decision_note(made[0].id, "Thanks \u2067for\u2069 this one.")

    page = rita.my_decisions()
    assert {d.id for d in page.decisions} == {d.id for d in made}  # hers only
    by_id = {d.id: d for d in page.decisions}
    assert by_id[target.id].outcome is DecisionOutcome.overturned
    audit = next(f for f in by_id[target.id].feedback if f.kind is FeedbackKind.audit)
    assert audit.note == "Read the thread first." and audit.by == "lead2"
    assert any(f.note == "Thanks \u2067for\u2069 this one." for f in by_id[made[0].id].feedback)
    assert [n.note for n in rita.decision_notes(made[0].id).notes] == [
        "Thanks \u2067for\u2069 this one."
    ]

    notice = rita.feedback_notice()
    assert (notice.overturned, notice.notes) == (1, 1)
    seen = rita.mark_feedback_seen(notice.as_of)
    assert (seen.overturned, seen.notes) == (0, 0)

    end = datetime.now(UTC) + timedelta(seconds=1)
    report = lead.quality(end - timedelta(days=1), end, QualityThresholds(min_decisions=1))
    assert {r.reviewer for r in report.reviewers} >= {"rita", "other"}
    trend = lead.reviewer_trend("rita", end - timedelta(days=2), end)
    assert sum(d.decisions for d in trend.days) == 3
    assert sum(d.overturned for d in trend.days) == 1
    with pytest.raises(Forbidden):
        rita.quality(end - timedelta(days=1), end, QualityThresholds())
    with pytest.raises(Forbidden):
        rita.add_decision_note(made[0].id, "self-praise")
