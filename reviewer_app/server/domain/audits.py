"""Audits: samples of decisions judged blind; an overturn becomes the decision of record.

A sample holds decisions that are still their item's decision of record (not
escalations, not already overturned, not in another sample, not under appeal). The
auditor is handed one item at a time without anything that tells the original decision:
no decision, no decision events, no strikes or recent decisions that came from it.
The blind item also leaves out the statements of reasons of the decision and of any later
one, the item's appeal, and an appeal's reason; it shows the author's status as the
audited decision found it and the item in the sampled queue, decided. Only the task's
assignee records its result (the lead ``next`` last handed it to). Recording a result
reveals the original. An overturn is a new decision row (kind
``overturn``) that the item points to; the original stays, and both show in the item's
history.
"""

from __future__ import annotations

import json
import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, case, func, insert, literal, or_, select, update

from reviewer_app.protocol import (
    AuditAgree,
    AuditJudgement,
    AuditMethod,
    AuditOutcome,
    AuditOverturn,
    AuditResult,
    AuditResults,
    AuditSample,
    AuditSampleCreate,
    AuditSetAside,
    AuditTask,
    AuditTaskGrant,
    Decision,
    EventKind,
    Item,
    QueueConfig,
    QueueReasonKind,
    ReviewerAgreement,
    StrikeCount,
)
from reviewer_app.protocol.accounts import AuthorStatus
from reviewer_app.server.domain.assembly import decisions_by_id, load_items, reviewer_names
from reviewer_app.server.domain.audit_overturns import overturn, still_of_record
from reviewer_app.server.domain.records import Principal, append_events, event_row, to_dt, to_epoch
from reviewer_app.server.domain.stats import check_window, cohen_kappa
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import (
    account_actions,
    audit_items,
    audit_samples,
    decisions,
    items,
    statements,
    strikes,
)

ASSIGNMENT_SECONDS = 30 * 60
BLIND_HISTORY = {"enqueued"}


def _unknown_sample(sample_id: int) -> ApiError:
    return ApiError(404, "unknown_sample", f"No audit sample {sample_id}.")


# -- samples --------------------------------------------------------------------------------


def create_sample(
    conn: Connection,
    lead: Principal,
    request: AuditSampleCreate,
    configs: Mapping[str, QueueConfig],
    now: float,
) -> int:
    since, until = to_epoch(request.since), to_epoch(request.until)
    check_window(since, until)
    if request.queue_id is not None and request.queue_id not in configs:
        raise ApiError(404, "unknown_queue", f"No queue {request.queue_id!r}.")
    picked = _draw(conn, request, since, until)
    if not picked:
        raise ApiError(
            422, "empty_sample", "No decisions in that window can be audited (none, or all taken)."
        )
    random.shuffle(picked)
    return _store_sample(conn, lead, request, picked, since, until, now)


def _draw(
    conn: Connection, request: AuditSampleCreate, since: float, until: float
) -> list[dict[str, Any]]:
    """The decisions of record in the window not sampled before: at random, or the same
    number per reviewer or per action (``_equal_allocation``)."""
    d = decisions.c
    stratum: Any = {
        AuditMethod.random: literal(0),
        AuditMethod.by_reviewer: d.user_id,
        AuditMethod.by_action: d.action,
    }[request.method]
    sampled = select(audit_items.c.decision_id).where(audit_items.c.decision_id == d.id)
    conditions = [
        d.kind == "review",
        d.decided_at >= since,
        d.decided_at < until,
        items.c.decision_id == d.id,  # still the decision of record
        items.c.state == "decided",  # not back in review (an appeal of it is waiting)
        ~sampled.exists(),
    ]
    if request.queue_id is not None:
        conditions.append(d.queue_id == request.queue_id)
    base = select(d.id, d.item_id, d.queue_id, d.user_id, d.decided_at, d.action).join(
        items, items.c.id == d.item_id
    )
    if request.method is AuditMethod.random:
        picked = [
            dict(r)
            for r in conn.execute(
                base.where(*conditions).order_by(func.random()).limit(request.size)
            ).mappings()
        ]
    else:
        ranked = (
            base.add_columns(
                func.row_number().over(partition_by=stratum, order_by=func.random()).label("rn"),
                stratum.label("stratum"),
            )
            .where(*conditions)
            .subquery()
        )
        rows = conn.execute(select(ranked).where(ranked.c.rn <= request.size)).mappings().all()
        picked = _equal_allocation([dict(r) for r in rows], request.size)
    return picked


def _store_sample(
    conn: Connection,
    lead: Principal,
    request: AuditSampleCreate,
    picked: list[dict[str, Any]],
    since: float,
    until: float,
    now: float,
) -> int:
    """The sample, its items in the drawn order and its log entry; the sample's id."""
    sample_id = int(
        conn.execute(
            insert(audit_samples)
            .values(
                method=request.method.value,
                requested_size=request.size,
                size=len(picked),
                since=since,
                until=until,
                queue_id=request.queue_id,
                created_at=now,
                created_by=lead.id,
            )
            .returning(audit_samples.c.id)
        ).scalar_one()
    )
    conn.execute(
        insert(audit_items),
        [
            {
                "sample_id": sample_id,
                "position": position,
                "decision_id": p["id"],
                "item_id": p["item_id"],
                "queue_id": p["queue_id"],
                "reviewer_id": p["user_id"],
                "decided_at": p["decided_at"],
                "action": p["action"],
            }
            for position, p in enumerate(picked)
        ],
    )
    append_events(
        conn,
        [
            event_row(
                now,
                EventKind.audit_sampled,
                lead.username,
                queue_id=request.queue_id,
                sample_id=sample_id,
                method=request.method.value,
                size=len(picked),
            )
        ],
    )
    return sample_id


def _equal_allocation(rows: list[dict[str, Any]], size: int) -> list[dict[str, Any]]:
    """The same number from every stratum, as far as each has: round by round, each round
    one more from every stratum that still has some (strata in random order)."""
    by_stratum: dict[Any, list[dict[str, Any]]] = defaultdict(list)
    for r in sorted(rows, key=lambda r: r["rn"]):
        by_stratum[r["stratum"]].append(r)
    order = list(by_stratum)
    random.shuffle(order)
    picked: list[dict[str, Any]] = []
    depth = 0
    while len(picked) < size:
        took = False
        for key in order:
            if depth < len(by_stratum[key]) and len(picked) < size:
                picked.append(by_stratum[key][depth])
                took = True
        if not took:
            break
        depth += 1
    return picked


def sample(conn: Connection, sample_id: int) -> AuditSample:
    found = samples(conn, [sample_id])
    if not found:
        raise _unknown_sample(sample_id)
    return found[0]


def samples(conn: Connection, sample_ids: Sequence[int]) -> list[AuditSample]:
    rows = (
        conn.execute(select(audit_samples).where(audit_samples.c.id.in_(sample_ids)))
        .mappings()
        .all()
    )
    # a result has a time; a task set aside has a time and no result (``_set_aside``)
    counted = {
        r.sample_id: (r.results, r.timed - r.results)
        for r in conn.execute(
            select(
                audit_items.c.sample_id,
                func.count(audit_items.c.result).label("results"),
                func.count(audit_items.c.recorded_at).label("timed"),
            )
            .where(audit_items.c.sample_id.in_(sample_ids))
            .group_by(audit_items.c.sample_id)
        )
    }
    names = reviewer_names(conn, {r["created_by"] for r in rows})
    by_id = {
        r["id"]: AuditSample(
            id=r["id"],
            method=AuditMethod(r["method"]),
            requested_size=r["requested_size"],
            size=r["size"],
            since=to_dt(r["since"]),
            until=to_dt(r["until"]),
            queue_id=r["queue_id"],
            created_at=to_dt(r["created_at"]),
            created_by=names.get(r["created_by"], "unknown"),
            recorded=counted.get(r["id"], (0, 0))[0],
            set_aside=counted.get(r["id"], (0, 0))[1],
        )
        for r in rows
    }
    return [by_id[i] for i in sample_ids if i in by_id]


# -- blind review ---------------------------------------------------------------------------


def next_task(conn: Connection, lead: Principal, sample_id: int, now: float) -> AuditTaskGrant:
    """The caller's next item of the sample (the same one again until they record it, unless
    it can no longer be overturned: drawing again then sets it aside, see ``_set_aside``)."""
    if (
        conn.execute(select(audit_samples.c.id).where(audit_samples.c.id == sample_id)).first()
        is None
    ):
        raise _unknown_sample(sample_id)
    a = audit_items.c
    set_aside = _set_aside(conn, lead, sample_id, now)
    open_items = select(a.id, a.item_id, a.decision_id, a.queue_id, a.assigned_to).where(
        a.sample_id == sample_id, a.result.is_(None), a.recorded_at.is_(None)
    )
    remaining = conn.execute(select(func.count()).select_from(open_items.subquery())).scalar_one()
    free = (a.assigned_to.is_(None)) | (a.assigned_to == lead.id) | (a.assigned_until < now)
    mine_first = case((a.assigned_to == lead.id, 0), else_=1)  # not "= desc": NULLs on PG
    query = open_items.where(free).order_by(mine_first, a.position).limit(1)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    row = conn.execute(query).first()
    task = None
    if row is not None:
        conn.execute(
            update(audit_items)
            .where(a.id == row.id)
            .values(assigned_to=lead.id, assigned_until=now + ASSIGNMENT_SECONDS)
        )
        item = blind_item(conn, row.item_id, row.decision_id, row.queue_id)
        task = AuditTask(audit_id=row.id, sample_id=sample_id, item=item)
    return AuditTaskGrant(sample_id=sample_id, remaining=remaining, task=task, set_aside=set_aside)


def _set_aside(
    conn: Connection, lead: Principal, sample_id: int, now: float
) -> list[AuditSetAside]:
    """The caller's held tasks that can no longer be overturned (appealed or back in review
    since the draw), left out of the sample (a blind auditor who disagrees has nothing to
    record): no result; ``recorded_at``, ``auditor_id`` and ``note`` (why) say so."""
    a = audit_items.c
    mine = (a.sample_id == sample_id) & (a.assigned_to == lead.id) & a.recorded_at.is_(None)
    query = select(audit_items).where(mine)  # no time: no result, not set aside
    if conn.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    left = []
    for audit in conn.execute(query.order_by(a.position)).mappings().all():
        try:
            still_of_record(conn, {**audit, "id": audit["decision_id"]}, sample_id)
        except ApiError as refused:
            reason = refused.detail.split("; record an agreement")[0]
            conn.execute(
                update(audit_items)
                .where(a.id == audit["id"])
                .values(auditor_id=lead.id, note=reason, recorded_at=now)
            )
            left.append(
                AuditSetAside(audit_id=audit["id"], item_id=audit["item_id"], reason=reason)
            )
    return left


def blind_item(conn: Connection, item_id: str, decision_id: int, queue_id: str) -> Item:
    """The item with everything that tells how it was decided taken out: as it was in
    ``queue_id`` (the sampled queue), decided, without the decision and its events, its
    strikes, its statements of reasons (and later ones), an appeal of it, and with the
    author's status as the decision found it."""
    item = load_items(conn, [item_id])[item_id]
    decided_at = conn.execute(
        select(decisions.c.decided_at).where(decisions.c.id == decision_id)
    ).scalar_one()
    own = select(decisions.c.id).where(decisions.c.item_id == item_id)
    strike_rows = conn.execute(
        select(strikes.c.policy, func.count().label("n"), func.max(strikes.c.at).label("last_at"))
        .where(
            strikes.c.author_id == item.author.id,
            (strikes.c.decision_id.is_(None)) | (strikes.c.decision_id.not_in(own)),
        )
        .group_by(strikes.c.policy)
        .order_by(strikes.c.policy)
    ).all()
    author = item.author.model_copy(
        update={
            "strikes": [
                StrikeCount(policy=s.policy, count=s.n, last_at=to_dt(s.last_at))
                for s in strike_rows
            ],
            "recent_decisions": [d for d in item.author.recent_decisions if d.item_id != item_id],
            "status": _status_then(conn, item.author.id, decision_id, decided_at)
            or item.author.status,
        }
    )
    earlier = select(statements.c.id).where(
        statements.c.id.in_([s.id for s in item.statements if s.id is not None]),
        statements.c.created_at < decided_at,
        or_(statements.c.decision_id.is_(None), statements.c.decision_id != decision_id),
    )
    kept = set(conn.execute(earlier).scalars())
    # an appeal puts its reason first, naming the contested decision's action
    reasons = [r for r in item.reasons if r.kind is not QueueReasonKind.appeal] or [
        r.model_copy(update={"detail": ""}) for r in item.reasons
    ]
    return item.model_copy(
        update={
            "queue_id": queue_id,
            "state": "decided",
            "decision": None,
            "appeal": None,
            "author": author,
            "reasons": reasons,
            "statements": [s for s in item.statements if s.id in kept],
            "history": [e for e in item.history if e.kind.value in BLIND_HISTORY],
        }
    )


def _status_then(
    conn: Connection, author_id: str, decision_id: int, decided_at: float
) -> AuthorStatus | None:
    """The author's status when the decision was taken: the status before its own account
    action, else before the first account action since (None: none since, so as now)."""
    aa = account_actions.c
    first = (
        select(aa.status_before)
        .where(
            aa.author_id == author_id,
            (aa.decision_id == decision_id) | (aa.decided_at >= decided_at),
        )
        # its own row first: the comparison is NULL for a lead's account action (no
        # decision), which PostgreSQL would sort first under DESC
        .order_by(func.coalesce(aa.decision_id == decision_id, False).desc(), aa.id)
        .limit(1)
    )
    found = conn.execute(first).scalar()
    return AuthorStatus(found) if found is not None else None


# -- results --------------------------------------------------------------------------------


def record_result(
    conn: Connection,
    lead: Principal,
    audit_id: int,
    body: AuditAgree | AuditOverturn | AuditJudgement,
    configs: Mapping[str, QueueConfig],
    now: float,
    config_version: int = 0,
) -> AuditResult:
    query = select(audit_items).where(audit_items.c.id == audit_id)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    audit = conn.execute(query).mappings().first()
    if audit is None:
        raise ApiError(404, "unknown_audit", f"No audit {audit_id}.")
    if audit["result"] is not None:
        raise ApiError(409, "audit_already_recorded", "This audit already has a result.")
    if audit["recorded_at"] is not None:
        raise ApiError(409, "audit_set_aside", f"This task left its sample: {audit['note']}")
    _check_assignee(audit, lead, now)
    original = (
        conn.execute(select(decisions).where(decisions.c.id == audit["decision_id"]))
        .mappings()
        .one()
    )
    own_note = body.note  # a judgement's overturn gets a note of ours: not the auditor's why
    if isinstance(body, AuditJudgement):
        body = judged(original, body)
    elif isinstance(body, AuditOverturn) and _same(original, body):
        raise ApiError(
            422,
            "overturn_unchanged",
            "The corrected decision is the reviewer's own (same action, policies and rating): "
            "record it as an agreement.",
        )
    if isinstance(body, AuditOverturn):
        still_of_record(conn, original, audit["sample_id"])
    changes: dict[str, Any] = {
        "result": body.result.value,
        "auditor_id": lead.id,
        "note": body.note,
        "recorded_at": now,
        "final_action": original["action"],
    }
    fields: dict[str, Any] = {
        "audit_id": audit_id,
        "sample_id": audit["sample_id"],
        "decision_id": original["id"],
        "result": body.result.value,
    }
    kind = EventKind.audited
    if isinstance(body, AuditOverturn):
        new_id = overturn(conn, lead, original, body, own_note, configs, now, config_version)
        changes.update(final_action=body.action, overturn_decision_id=new_id)
        fields.update(
            overturned_decision_id=original["id"],
            decision_id=new_id,
            action=body.action,
            policies=list(body.policies),
        )
        kind = EventKind.overturned
    conn.execute(update(audit_items).where(audit_items.c.id == audit_id).values(**changes))
    append_events(
        conn,
        [
            event_row(
                now,
                kind,
                lead.username,
                item_id=audit["item_id"],
                queue_id=audit["queue_id"],
                **fields,
            )
        ],
    )
    return result_of(conn, {**audit, **changes})


def _same(original: Mapping[Any, Any], body: AuditJudgement | AuditOverturn) -> bool:
    """Whether ``body`` decides what the audited decision did: its action, its policies
    (as a set) and its rating."""
    return (
        body.action == original["action"]
        and set(body.policies) == set(json.loads(original["policies"] or "[]"))
        and (body.rating or None) == (original["rating"] or None)
    )


def _check_assignee(audit: Mapping[Any, Any], lead: Principal, now: float) -> None:
    """Only the auditor ``next`` last handed the task to records its result (409 else): while
    their assignment holds, and after it lapsed until someone else draws it."""
    if audit["assigned_to"] == lead.id:
        return
    if audit["assigned_to"] is None:
        why = f"no one drew it: draw it first (POST /audits/samples/{audit['sample_id']}/next)"
    elif audit["assigned_until"] is not None and audit["assigned_until"] >= now:
        why = "another auditor holds it"
    else:
        why = "another auditor drew it (their hold lapsed: draw it to take it over)"
    raise ApiError(
        409,
        "audit_not_assigned",
        f"This audit task is not yours to record: {why}.",
    )


def judged(original: Mapping[Any, Any], body: AuditJudgement) -> AuditAgree | AuditOverturn:
    """A blind judgement as a result: the same decision agrees, another one overturns."""
    if _same(original, body):
        return AuditAgree(result=AuditOutcome.agree, note=body.note)
    return AuditOverturn(
        result=AuditOutcome.overturn,
        action=body.action,
        policies=body.policies,
        rating=body.rating,
        author_action=body.author_action,
        note=body.note or f"Blind audit: the auditor decided {body.action}.",
        time_spent_ms=body.time_spent_ms,
    )


def result_of(conn: Connection, audit: Mapping[Any, Any]) -> AuditResult:
    ids = {audit["decision_id"]} | (
        {audit["overturn_decision_id"]} if audit["overturn_decision_id"] else set()
    )
    found = decisions_by_id(conn, ids)
    auditor = reviewer_names(conn, {audit["auditor_id"]}).get(audit["auditor_id"], "unknown")
    return _result(audit, found, auditor)


def _result(audit: Mapping[Any, Any], found: Mapping[int, Decision], auditor: str) -> AuditResult:
    outcome = AuditOutcome(audit["result"])
    original = found[audit["decision_id"]].model_copy(update={"audit_result": outcome})
    corrected = found.get(audit["overturn_decision_id"]) if audit["overturn_decision_id"] else None
    return AuditResult(
        audit_id=audit["id"],
        sample_id=audit["sample_id"],
        item_id=audit["item_id"],
        result=outcome,
        auditor=auditor,
        recorded_at=to_dt(audit["recorded_at"]),
        note=audit["note"],
        original=original,
        corrected=corrected,
    )


def results(conn: Connection, sample_id: int) -> AuditResults:
    head = sample(conn, sample_id)
    rows = (
        conn.execute(
            select(audit_items)
            .where(audit_items.c.sample_id == sample_id, audit_items.c.result.is_not(None))
            .order_by(audit_items.c.recorded_at, audit_items.c.id)
        )
        .mappings()
        .all()
    )
    ids = {r["decision_id"] for r in rows} | {
        r["overturn_decision_id"] for r in rows if r["overturn_decision_id"]
    }
    found = decisions_by_id(conn, ids)
    names = reviewer_names(conn, {r["auditor_id"] for r in rows} | {r["reviewer_id"] for r in rows})
    by_reviewer: dict[int, list[Mapping[Any, Any]]] = defaultdict(list)
    for r in rows:
        by_reviewer[r["reviewer_id"]].append(r)
    agreement = []
    for reviewer_id, judged in by_reviewer.items():
        agreed = sum(1 for r in judged if r["result"] == AuditOutcome.agree.value)
        agreement.append(
            ReviewerAgreement(
                reviewer=names.get(reviewer_id, "unknown"),
                audited=len(judged),
                agreed=agreed,
                overturned=len(judged) - agreed,
                agreement_rate=agreed / len(judged),
                kappa=cohen_kappa([(r["action"], r["final_action"]) for r in judged]),
            )
        )
    agreement.sort(key=lambda a: a.reviewer)
    return AuditResults(
        sample=head,
        results=[_result(r, found, names.get(r["auditor_id"], "unknown")) for r in rows],
        reviewers=agreement,
    )


def sample_ids_page(conn: Connection, before: int | None, limit: int) -> tuple[list[int], bool]:
    query = select(audit_samples.c.id).order_by(audit_samples.c.id.desc()).limit(limit + 1)
    if before is not None:
        query = query.where(audit_samples.c.id < before)
    ids = list(conn.execute(query).scalars())
    return ids[:limit], len(ids) > limit
