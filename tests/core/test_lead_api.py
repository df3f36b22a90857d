"""The API client's lead calls over real HTTP: queue and reviewer stats, decision search
with every filter, and a blind audit from sample to results; reviewers are refused."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import Forbidden, NetworkError, ProblemError
from reviewer_app.protocol import (
    AuditAgree,
    AuditJudgement,
    AuditMethod,
    AuditOverturn,
    AuditSampleCreate,
    Decision,
    DecisionQuery,
    Role,
    SavedViewCreate,
    SearchKind,
    SearchQuery,
    SearchView,
    Verdict,
)
from reviewer_app.protocol.verdicts import AuditOutcome, DecisionKind
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.client import login
from tests.support.proxy import FaultProxy, Rule
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
# notes unique enough that finding one in a reply means it came from that decision
NOTES = ["=1+1 note-7a1", "plain note-7b2", "@me note-7c3", "-2 note-7d4"]


def decide(client: ApiClient, count: int, *, remove_every: int = 3) -> list[Decision]:
    """``count`` items of the load queue claimed and decided by ``client``'s user."""
    grant = client.claim(QUEUE, count, 300)
    assert len(grant.items) == count
    verdicts = [
        Verdict(
            idempotency_key=uuid.uuid4(),
            item_id=leased.item.id,
            lease_token=leased.lease_token,
            action="remove" if i % remove_every == 0 else "keep",
            policies=["SPAM.SCAM"] if i % remove_every == 0 else [],
            note=NOTES[i % len(NOTES)],
            time_spent_ms=1_000 * (i + 1),
            decided_at=datetime.now(UTC),
        )
        for i, leased in enumerate(grant.items)
    ]
    results = client.verdicts(verdicts).results
    assert {r.status.value for r in results} == {"accepted"}
    return [r.decision for r in results if r.decision is not None]


def every_page(lead: ApiClient, order: str = "desc", **filters: Any) -> list[Decision]:
    found: list[Decision] = []
    cursor = None
    while True:
        page = lead.decisions(DecisionQuery(**filters), order=order, cursor=cursor, limit=4)
        found += page.decisions
        if not (cursor := page.next_cursor):
            return found


@pytest.fixture
def window() -> tuple[datetime, datetime]:
    now = datetime.now(UTC)
    return now - timedelta(hours=1), now + timedelta(hours=1)


def test_decision_search_filters_order_and_pages(
    server: LiveServer, window: tuple[datetime, datetime]
) -> None:
    rita, sam = login(server, "rita"), login(server, "sam")
    lead = login(server.url, "lead")
    made = decide(rita, 9) + decide(sam, 4)
    ids = sorted(d.id for d in made)

    assert [d.id for d in every_page(lead)] == ids[::-1], "newest first by default"
    assert [d.id for d in every_page(lead, order="asc")] == ids
    assert lead.decisions(limit=500).decisions == lead.decisions(limit=500, order="desc").decisions

    since, until = window
    cases: list[tuple[dict[str, object], list[Decision]]] = [
        ({"reviewer": "rita"}, [d for d in made if d.reviewer == "rita"]),
        ({"queue_id": QUEUE, "action": "remove"}, [d for d in made if d.action == "remove"]),
        ({"policy": "SPAM.SCAM"}, [d for d in made if "SPAM.SCAM" in d.policies]),
        ({"item_id": made[5].item_id}, [made[5]]),
        ({"since": since, "until": until}, made),
        ({"since": until}, []),
        ({"until": since}, []),
        ({"audited": False}, made),
        ({"audited": True}, []),
        (
            {"reviewer": "sam", "action": "keep"},
            [d for d in made if d.reviewer == "sam" and d.action == "keep"],
        ),
    ]
    for filters, expected in cases:
        got = every_page(lead, order="asc", **filters)
        assert [d.id for d in got] == sorted(d.id for d in expected), filters
    # the search returns the decisions as recorded, plus their audit state and the
    # author's status now
    by_id = {d.id: d for d in every_page(lead)}
    searched_only = {"audit_result", "author_status"}
    for d in made:
        assert by_id[d.id].model_dump(exclude=searched_only) == d.model_dump(exclude=searched_only)
        assert by_id[d.id].author_status is not None

    with pytest.raises(ValueError, match="time zone"):
        lead.decisions(DecisionQuery(since=datetime(2025, 1, 1)))
    with pytest.raises(ValueError, match="order"):
        lead.decisions(order="sideways")
    with pytest.raises(ProblemError) as caught:
        # past the client's own check (model_construct): the service refuses it too
        lead.decisions(DecisionQuery.model_construct(policy="not a code"))
    assert caught.value.status == 422


def test_queue_and_reviewer_stats(server: LiveServer, window: tuple[datetime, datetime]) -> None:
    rita = login(server, "rita")
    lead = login(server.url, "lead")
    made = decide(rita, 6)
    since, until = window

    report = lead.queue_stats(since, until)
    assert report.bucket.value == "hour" and report.since <= since + timedelta(seconds=1)
    load = {q.queue_id: q for q in report.queues}[QUEUE]
    assert load.decided == 6 and sum(p.decided for p in load.decided_series) == 6
    assert {a.action: a.count for a in load.action_mix} == {"remove": 2, "keep": 4}
    assert load.backlog == 400 - 6 and load.leased == 0

    one = lead.queue_stats(since, until, queue_id=QUEUE, bucket="day")
    assert [q.queue_id for q in one.queues] == [QUEUE] and one.bucket.value == "day"
    assert sum(p.decided for p in one.queues[0].decided_series) == 6
    with pytest.raises(ProblemError) as caught:
        lead.queue_stats(since, until, queue_id="no-such-queue")
    assert caught.value.status == 404

    people = {r.reviewer: r for r in lead.reviewer_stats(since, until).reviewers}
    assert people["rita"].decisions == len(made) == 6
    assert {a.action: a.count for a in people["rita"].action_mix} == {"remove": 2, "keep": 4}
    assert people["rita"].audited == 0 and people["rita"].audit_agreement_rate is None
    empty = lead.reviewer_stats(until, until + timedelta(hours=1))
    assert all(r.decisions == 0 for r in empty.reviewers)


def test_a_blind_audit_from_sample_to_results(
    server: LiveServer, window: tuple[datetime, datetime]
) -> None:
    rita = login(server, "rita")
    lead = login(server.url, "lead")
    made = {d.id: d for d in decide(rita, 8)}
    since, until = window

    sample = lead.create_sample(
        AuditSampleCreate(
            method=AuditMethod.random, size=3, since=since, until=until, queue_id=QUEUE
        )
    )
    assert sample.size == 3 and sample.recorded == 0 and sample.created_by == "lead"
    assert lead.sample(sample.id) == sample
    assert sample.id in {s.id for s in lead.samples().samples}

    grant = lead.next_audit(sample.id)
    assert grant.remaining == 3 and grant.task is not None
    task = grant.task
    assert lead.next_audit(sample.id).task == task, "the same item until it is judged"
    # blind: nothing of the task names the decision taken on the item
    original = next(d for d in made.values() if d.item_id == task.item.id)
    shown = task.model_dump_json()
    assert original.note is not None and original.note not in shown

    agreed = lead.record_audit(task.audit_id, AuditAgree(result=AuditOutcome.agree))
    assert agreed.result is AuditOutcome.agree
    assert agreed.original == original.model_copy(update={"audit_result": AuditOutcome.agree})
    assert agreed.corrected is None
    with pytest.raises(ProblemError) as caught:
        lead.record_audit(task.audit_id, AuditAgree(result=AuditOutcome.agree))
    assert caught.value.status == 409

    second = lead.next_audit(sample.id).task
    assert second is not None and second.audit_id != task.audit_id
    flipped = "keep" if made_for(made, second.item.id).action == "remove" else "remove"
    overturned = lead.record_audit(
        second.audit_id,
        AuditOverturn(
            result=AuditOutcome.overturn,
            action=flipped,
            policies=["SPAM.SCAM"] if flipped == "remove" else [],
            note="=the policy says otherwise",
        ),
    )
    assert overturned.corrected is not None and overturned.corrected.action == flipped
    assert overturned.corrected.kind is DecisionKind.overturn
    assert overturned.corrected.overturns_decision_id == overturned.original.id

    results = lead.audit_results(sample.id)
    assert results.sample.recorded == 2 and len(results.results) == 2
    agreement = {r.reviewer: r for r in results.reviewers}["rita"]
    assert (agreement.audited, agreement.agreed, agreement.overturned) == (2, 1, 1)
    assert agreement.agreement_rate == pytest.approx(0.5)

    audited = every_page(lead, audited=True, reviewer="rita")
    assert {d.id for d in audited} == {agreed.original.id, overturned.original.id}
    history = every_page(lead, item_id=second.item.id, order="asc")
    assert [d.kind for d in history] == [DecisionKind.review, DecisionKind.overturn]
    stats = {r.reviewer: r for r in lead.reviewer_stats(since, until).reviewers}["rita"]
    assert (stats.audited, stats.audit_agreed, stats.audit_overturned) == (2, 1, 1)

    third = lead.next_audit(sample.id).task
    assert third is not None
    same = made_for(made, third.item.id)
    judged = lead.record_audit(
        third.audit_id,
        AuditJudgement(
            result="judge", action=same.action, policies=same.policies, rating=same.rating
        ),
    )
    assert judged.result is AuditOutcome.agree and judged.corrected is None
    done = lead.next_audit(sample.id)
    assert done.task is None and done.remaining == 0
    with pytest.raises(ProblemError) as caught:
        lead.sample(999_999)
    assert caught.value.status == 404


def made_for(made: dict[int, Decision], item_id: str) -> Decision:
    return next(d for d in made.values() if d.item_id == item_id)


def test_the_next_audit_is_never_repeated_once_it_may_have_arrived(
    server: LiveServer, proxy: FaultProxy, window: tuple[datetime, datetime]
) -> None:
    decide(login(server, "rita"), 3)
    lead = ApiClient(proxy.url, token=login(server.url, "lead").token)
    since, until = window
    sample = lead.create_sample(AuditSampleCreate(size=2, since=since, until=until))
    path = f"/api/v1/audits/samples/{sample.id}/next"
    proxy.add(Rule("POST", path, "reset_after"))
    with pytest.raises(NetworkError) as caught:
        lead.next_audit(sample.id)
    assert caught.value.maybe_applied is True
    assert proxy.count("POST", path) == 1
    assert lead.next_audit(sample.id).task is not None


def test_every_lead_call_is_refused_to_a_reviewer(
    server: LiveServer, window: tuple[datetime, datetime]
) -> None:
    rita = login(server, "rita")
    lead = login(server.url, "lead")
    decide(rita, 2)
    since, until = window
    sample = lead.create_sample(AuditSampleCreate(size=1, since=since, until=until))
    calls = [
        lambda: rita.queue_stats(since, until),
        lambda: rita.reviewer_stats(since, until),
        lambda: rita.decisions(),
        lambda: rita.create_sample(AuditSampleCreate(size=1, since=since, until=until)),
        lambda: rita.samples(),
        lambda: rita.sample(sample.id),
        lambda: rita.next_audit(sample.id),
        lambda: rita.record_audit(1, AuditAgree(result=AuditOutcome.agree)),
        lambda: rita.audit_results(sample.id),
    ]
    for call in calls:
        with pytest.raises(Forbidden) as caught:
            call()
        assert caught.value.status == 403 and caught.value.code == "lead_only"
    assert lead.sample(sample.id).recorded == 0


def test_search_and_saved_views_through_the_client(live_server: LiveServer) -> None:
    seed_load_queue(live_server.service, 12)
    lead = login(live_server, "lena", Role.lead)
    other = login(live_server, "leo", Role.lead)
    reviewer = login(live_server, "rita")
    [leased] = lead.claim(QUEUE, 1, 300).items
    item = leased.item
    [hit] = lead.search(SearchKind.post, item.post.id).hits
    assert hit.item_id == item.id and hit.author_handle == item.author.handle
    assert hit.excerpt == item.post.text[:200]
    by_url = lead.search(SearchKind.post, item.post.url.upper()).hits
    assert [h.item_id for h in by_url] == [item.id]

    # every page of a wide search, one hit at a time, newest first, none twice
    wide = lead.search(SearchKind.text, item.post.text[:3], limit=200).hits
    seen, cursor = [], None
    while True:
        page = lead.search(SearchKind.text, item.post.text[:3], cursor=cursor, limit=1)
        seen += [h.item_id for h in page.hits]
        if not (cursor := page.next_cursor):
            break
    assert seen == [h.item_id for h in wide] and item.id in seen

    made = lead.save_view(
        SavedViewCreate(
            name="Their posts",
            shared=True,
            view=SearchView(search=SearchQuery(kind=SearchKind.author, q=item.author.handle)),
        )
    )
    [seen_by_other] = other.saved_views().views
    assert seen_by_other == made and seen_by_other.owner == "lena"
    with pytest.raises(Forbidden):
        reviewer.saved_views()
    with pytest.raises(Forbidden):
        reviewer.search(SearchKind.text, "anything")
    with pytest.raises(ProblemError) as refused:
        lead.search(SearchKind.text, "ab")
    assert refused.value.code == "invalid_search"
    lead.delete_view(made.id)
    assert other.saved_views().views == []
