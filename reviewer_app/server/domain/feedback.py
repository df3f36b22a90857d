"""Feedback that reaches reviewers: a reviewer's own decisions with what became of each
(audit result with the auditor's note, appeal outcome, leads' notes), leads' notes on
decisions, and the notice of what came since the reviewer last looked."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from reviewer_app.protocol import (
    ESCALATION_QUEUE,
    DecisionNote,
    DecisionOutcome,
    EventKind,
    Feedback,
    FeedbackKind,
    FeedbackNotice,
    MyDecision,
    MyDecisionPage,
)
from reviewer_app.protocol.feedback import (
    FEEDBACK_PER_DECISION,
    FEEDBACK_REACH_DAYS,
    NOTES_PER_DECISION,
)
from reviewer_app.server.domain.appeals import REVERSED, WITHDRAWN
from reviewer_app.server.domain.records import Principal, encode_cursor, excerpt, to_dt
from reviewer_app.server.domain.wellbeing import made_at
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import (
    appeals,
    audit_items,
    decision_notes,
    decisions,
    events,
    feedback_seen,
    items,
    users,
)


def _names(conn: Connection, ids: set[int]) -> dict[int, tuple[str, str]]:
    if not ids:
        return {}
    rows = conn.execute(
        select(users.c.id, users.c.username, users.c.display_name).where(users.c.id.in_(ids))
    )
    return {r.id: (r.username, r.display_name) for r in rows}


def my_decisions(
    conn: Connection,
    user: Principal,
    since: float,
    until: float,
    before: int | None,
    limit: int,
) -> MyDecisionPage:
    """The caller's decisions in [since, until), newest first, by keyset on the id."""
    d = decisions.c
    query = select(decisions, made_at(conn).label("made")).where(
        d.user_id == user.id, d.decided_at >= since, d.decided_at < until
    )
    if before is not None:
        query = query.where(d.id < before)
    rows = conn.execute(query.order_by(d.id.desc()).limit(limit + 1)).mappings().all()
    more = len(rows) > limit
    rows = rows[:limit]
    ids = [r["id"] for r in rows]
    posts = _excerpts(conn, {r["item_id"] for r in rows})
    audit_rows, appeal_rows, note_rows = _feedback_rows(conn, ids) if ids else ([], [], [])
    found, outcome = _feedback(conn, audit_rows, appeal_rows, note_rows)
    leads = _lead_decisions(conn, rows)
    return MyDecisionPage(
        decisions=[
            MyDecision(
                id=r["id"],
                item_id=r["item_id"],
                excerpt=posts.get(r["item_id"], ""),
                queue_id=r["queue_id"],
                action=r["action"],
                policies=json.loads(r["policies"] or "[]"),
                rating=r["rating"],
                time_spent_ms=r["time_spent_ms"],
                decided_at=to_dt(r["decided_at"]),
                made_at=to_dt(r["made"]),  # the device's time, within what the service knows
                outcome=outcome.get(r["id"], DecisionOutcome.accepted),
                # the newest when there are more than a page holds (notes are capped at
                # NOTES_PER_DECISION, but audits and appeals come on top)
                feedback=sorted(found.get(r["id"], []), key=lambda f: f.at)[
                    -FEEDBACK_PER_DECISION:
                ],
                lead_action=leads[r["id"]][0] if r["id"] in leads else None,
                lead_decided_at=to_dt(leads[r["id"]][1]) if r["id"] in leads else None,
            )
            for r in rows
        ],
        next_cursor=encode_cursor(rows[-1]["id"]) if more and rows else None,
    )


def _lead_decisions(conn: Connection, rows: Sequence[Any]) -> dict[int, tuple[str, float]]:
    """What a lead decided on the posts the caller escalated, by the caller's decision's id:
    the decision on the same item that came next, made in the escalation queue."""
    mine = [r for r in rows if r["queue_id"] != ESCALATION_QUEUE]
    if not mine:
        return {}
    escalated = {  # the caller's decisions that escalated (the log's ``escalated`` entries)
        json.loads(e.data).get("decision_id")
        for e in conn.execute(
            select(events.c.data).where(
                events.c.item_id.in_(sorted({r["item_id"] for r in mine})),
                events.c.kind == EventKind.escalated.value,
            )
        )
    }
    mine = [r for r in mine if r["id"] in escalated]
    if not mine:
        return {}
    d = decisions.c
    later = conn.execute(
        select(d.item_id, d.epoch, d.queue_id, d.action, d.decided_at)
        .where(
            d.item_id.in_(sorted({r["item_id"] for r in mine})),
            d.id > min(r["id"] for r in mine),
        )
        .order_by(d.item_id, d.epoch)
    ).all()
    found: dict[int, tuple[str, float]] = {}
    for r in mine:
        after = [x for x in later if x.item_id == r["item_id"] and x.epoch > r["epoch"]]
        if after and after[0].queue_id == ESCALATION_QUEUE:
            found[r["id"]] = (after[0].action, float(after[0].decided_at))
    return found


def _excerpts(conn: Connection, item_ids: set[str]) -> dict[str, str]:
    """The posts' texts, cut for a row, by item id."""
    if not item_ids:
        return {}
    found = conn.execute(
        select(items.c.id, items.c.payload).where(items.c.id.in_(sorted(item_ids)))
    )
    return {r.id: excerpt(r.payload) for r in found}


def _feedback_rows(conn: Connection, ids: list[int]) -> tuple[list[Any], list[Any], list[Any]]:
    """What became of the decisions: their audit results, appeals and leads' notes."""
    audit_rows = list(
        conn.execute(
            select(
                audit_items.c.decision_id,
                audit_items.c.result,
                audit_items.c.auditor_id,
                audit_items.c.final_action,
                audit_items.c.note,
                audit_items.c.recorded_at,
            ).where(audit_items.c.decision_id.in_(ids), audit_items.c.result.is_not(None))
        )
    )
    appeal_rows = list(
        conn.execute(
            select(
                appeals.c.decision_id,
                appeals.c.outcome,
                appeals.c.outcome_decision_id,
                appeals.c.received_at,
                appeals.c.decided_at,
            ).where(appeals.c.decision_id.in_(ids))
        )
    )
    note_rows = list(
        conn.execute(
            select(decision_notes)
            .where(decision_notes.c.decision_id.in_(ids))
            .order_by(decision_notes.c.id)
        )
    )
    return audit_rows, appeal_rows, note_rows


def _reversal_actions(conn: Connection, appeal_rows: list[Any]) -> dict[int, str]:
    """The action of each appeal's outcome decision (a reversal's), by its id."""
    reversal_ids = {r.outcome_decision_id for r in appeal_rows if r.outcome_decision_id}
    if not reversal_ids:
        return {}
    found = conn.execute(
        select(decisions.c.id, decisions.c.action).where(decisions.c.id.in_(reversal_ids))
    )
    return {r.id: r.action for r in found}


def _feedback(
    conn: Connection, audit_rows: list[Any], appeal_rows: list[Any], note_rows: list[Any]
) -> tuple[dict[int, list[Feedback]], dict[int, DecisionOutcome]]:
    """Each decision's feedback (oldest first once sorted) and its outcome: the latest
    audit or appeal word by time. ``by`` names auditors and leads only, never the peer who
    decided an appeal."""
    found: dict[int, list[Feedback]] = defaultdict(list)
    outcome: dict[int, DecisionOutcome] = {}
    people: set[int] = set()
    people |= {r.auditor_id for r in audit_rows if r.auditor_id is not None}
    people |= {r.author_id for r in note_rows}
    reversals = _reversal_actions(conn, appeal_rows)
    names = _names(conn, people)

    def by(uid: int | None) -> dict[str, Any]:
        if uid is None or uid not in names:
            return {}
        return {"by": names[uid][0], "by_display_name": names[uid][1]}

    latest: dict[int, tuple[float, int]] = {}  # decision id -> (when, order) of its outcome

    def judged(decision_id: int, at: float, order: int, result: DecisionOutcome) -> None:
        """The latest word decides the outcome (an audit after an upheld appeal, say)."""
        if decision_id not in latest or (at, order) >= latest[decision_id]:
            latest[decision_id] = (at, order)
            outcome[decision_id] = result

    for r in audit_rows:
        result = DecisionOutcome.overturned if r.result == "overturn" else DecisionOutcome.confirmed
        judged(r.decision_id, float(r.recorded_at), 0, result)
        found[r.decision_id].append(
            Feedback(
                kind=FeedbackKind.audit,
                at=to_dt(r.recorded_at),
                outcome=result,
                action=r.final_action if result is DecisionOutcome.overturned else None,
                note=r.note,
                **by(r.auditor_id),
            )
        )
    # An appeal's reviewer is a peer, not an auditor or lead (Feedback.by): not named.
    for r in appeal_rows:
        if r.outcome == WITHDRAWN:  # the post was withdrawn: the decision stands as it was
            continue
        if r.outcome is None:
            judged(r.decision_id, float(r.received_at), 1, DecisionOutcome.appealed)
            found[r.decision_id].append(
                Feedback(
                    kind=FeedbackKind.appeal,
                    at=to_dt(r.received_at),
                    outcome=DecisionOutcome.appealed,
                )
            )
            continue
        result = (
            DecisionOutcome.appeal_reversed
            if r.outcome == REVERSED
            else DecisionOutcome.appeal_upheld
        )
        at = r.decided_at if r.decided_at is not None else r.received_at
        judged(r.decision_id, float(at), 1, result)
        action = reversals.get(r.outcome_decision_id)
        found[r.decision_id].append(
            Feedback(
                kind=FeedbackKind.appeal,
                at=to_dt(at),
                outcome=result,
                action=action if result is DecisionOutcome.appeal_reversed else None,
            )
        )
    for r in note_rows:
        found[r.decision_id].append(
            Feedback(kind=FeedbackKind.note, at=to_dt(r.created_at), note=r.note, **by(r.author_id))
        )
    return found, outcome


def _decision_owner(conn: Connection, decision_id: int) -> int:
    owner = conn.execute(select(decisions.c.user_id).where(decisions.c.id == decision_id)).scalar()
    if owner is None:
        raise ApiError(404, "unknown_decision", f"No decision {decision_id}.")
    return int(owner)


def _note(row: Any, names: dict[int, tuple[str, str]]) -> DecisionNote:
    return DecisionNote(
        id=row.id,
        decision_id=row.decision_id,
        reviewer=names.get(row.reviewer_id, ("unknown", ""))[0],
        author=names.get(row.author_id, ("unknown", ""))[0],
        author_display_name=names.get(row.author_id, ("", "unknown"))[1] or "unknown",
        note=row.note,
        created_at=to_dt(row.created_at),
    )


def add_note(
    conn: Connection, lead: Principal, decision_id: int, note: str, clock: Callable[[], float]
) -> DecisionNote:
    """A lead's note to the reviewer of a decision, its time taken under the reviewer's
    feedback lock (see ``hold``)."""
    reviewer_id = _decision_owner(conn, decision_id)
    hold(conn, reviewer_id)
    count = conn.execute(
        select(func.count())
        .select_from(decision_notes)
        .where(decision_notes.c.decision_id == decision_id)
    ).scalar_one()
    if count >= NOTES_PER_DECISION:
        raise ApiError(
            409,
            "too_many_notes",
            f"Decision {decision_id} already carries {NOTES_PER_DECISION} notes, the most "
            "one decision may have.",
        )
    now = clock()
    new_id = conn.execute(
        insert(decision_notes)
        .values(
            decision_id=decision_id,
            reviewer_id=reviewer_id,
            author_id=lead.id,
            note=note,
            created_at=now,
        )
        .returning(decision_notes.c.id)
    ).scalar_one()
    row = conn.execute(select(decision_notes).where(decision_notes.c.id == new_id)).one()
    return _note(row, _names(conn, {reviewer_id, lead.id}))


def notes(conn: Connection, user: Principal, decision_id: int) -> list[DecisionNote]:
    """A decision's notes: for leads, and for the decision's own reviewer only."""
    owner = _decision_owner(conn, decision_id)
    if owner != user.id and not user.is_lead:
        raise ApiError(
            403, "not_your_decision", "Only the decision's reviewer and leads may read its notes."
        )
    newest = conn.execute(  # the newest when there are more than a list holds
        select(decision_notes)
        .where(decision_notes.c.decision_id == decision_id)
        .order_by(decision_notes.c.id.desc())
        .limit(FEEDBACK_PER_DECISION)
    ).all()
    rows = newest[::-1]
    return [
        _note(r, _names(conn, {r.reviewer_id for r in rows} | {r.author_id for r in rows}))
        for r in rows
    ]


# -- the notice: what came since the reviewer last looked ----------------------------------
#
# "Seen" is a time (``feedback_seen.seen_at``) and feedback rows carry the time they were
# recorded, so a row must never become visible with a time at or before a "seen" mark made
# after a reader could not see it (lost for good). Times are taken with the transaction's
# turn, and the turns are ordered by a per-reviewer lock:
#
# - a writer of feedback to reviewer R (an audit result, a lead's note; ``hold``, and
#   ``hold_audit`` after the audit row's own lock) takes R's lock exclusively *before* it
#   takes its ``now`` and keeps it until it commits;
# - the notice (``wait_for_writers``) takes R's lock shared, then its ``as_of``: every
#   writer that took its time before has committed (READ COMMITTED: the next statement sees
#   it), and every later one takes a time after ``as_of``;
# - ``mark_seen`` takes R's lock too and marks no later than its own ``now``; the client
#   passes the ``as_of`` of the notice it saw, so nothing at or before it was unseen.
#
# PostgreSQL: a transaction-scoped advisory lock on (FEEDBACK_LOCK, R). SQLite: one writer
# at a time (BEGIN IMMEDIATE), so writers need nothing more and the notice is read in a
# write transaction (the facade), which waits for a writer that is under way.
# Reversed appeals (appeals.py) do not take the lock yet.
FEEDBACK_LOCK = 7_304_220


def hold(conn: Connection, reviewer_id: int) -> None:
    """Before a writer of feedback to ``reviewer_id`` takes its time (see above)."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_advisory_xact_lock(FEEDBACK_LOCK, reviewer_id)))


def hold_audit(conn: Connection, audit_id: int) -> None:
    """Before an audit result takes its time: the audit row (the lock ``record_result``
    takes, so waiting for it comes first), then its reviewer's feedback lock."""
    query = select(audit_items.c.reviewer_id).where(audit_items.c.id == audit_id)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    reviewer_id = conn.execute(query).scalar()
    if reviewer_id is not None:
        hold(conn, int(reviewer_id))


def wait_for_writers(conn: Connection, reviewer_id: int) -> None:
    """Before the notice takes its ``as_of``: writers of feedback to the reviewer that are
    under way commit first (PostgreSQL; on SQLite the facade reads in a write transaction)."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(func.pg_advisory_xact_lock_shared(FEEDBACK_LOCK, reviewer_id)))


def _seen_at(conn: Connection, user_id: int) -> float | None:
    found = conn.execute(
        select(feedback_seen.c.seen_at).where(feedback_seen.c.user_id == user_id)
    ).scalar()
    return None if found is None else float(found)


def _unseen(
    conn: Connection, user_id: int, after: float, now: float, decided: tuple[float, float]
) -> tuple[int, int, float | None, float | None]:
    """Overturns (audit or appeal) and leads' notes recorded in (``after``, ``now``] on the
    user's decisions received in [``decided``): how many overturns, how many notes, the
    earliest such decision's ``decided_at`` and the earliest such feedback's time."""
    d = decisions.c
    on = (d.decided_at >= decided[0], d.decided_at < decided[1])
    sources = (
        (audit_items, audit_items.c.recorded_at, audit_items.c.result == "overturn"),
        (appeals, appeals.c.decided_at, appeals.c.outcome == REVERSED),
        (decision_notes, decision_notes.c.created_at, None),
    )
    counts: list[int] = []
    oldest: list[float] = []
    first: list[float] = []
    for table, at, which in sources:
        query = (
            select(func.count(), func.min(d.decided_at), func.min(at))
            .select_from(table.join(decisions, decisions.c.id == table.c.decision_id))
            .where(table.c.reviewer_id == user_id, at > after, at <= now, *on)
        )
        if which is not None:
            query = query.where(which)
        n, decided_at, when_ = conn.execute(query).one()
        counts.append(int(n))
        oldest += [float(decided_at)] if decided_at is not None else []
        first += [float(when_)] if when_ is not None else []
    return (
        counts[0] + counts[1],
        counts[2],
        min(oldest, default=None),
        min(first, default=None),
    )


def reach(now: float) -> float:
    """The earliest ``decided_at`` of a decision whose feedback the notice counts: those
    My decisions can list."""
    return now - FEEDBACK_REACH_DAYS * 86_400


def notice(conn: Connection, user: Principal, now: float) -> FeedbackNotice:
    """Overturns (audit or appeal) and leads' notes that reached the caller's decisions of
    the last FEEDBACK_REACH_DAYS days since they last marked them seen, up to ``now``, and
    how far back those decisions go (a My decisions window from there shows them all)."""
    seen = _seen_at(conn, user.id)
    after = -1.0 if seen is None else seen
    overturned, noted, oldest, _first = _unseen(conn, user.id, after, now, (reach(now), math.inf))
    return FeedbackNotice(
        overturned=overturned,
        notes=noted,
        seen_at=None if seen is None else to_dt(seen),
        as_of=to_dt(now),
        oldest=None if oldest is None else to_dt(oldest),
    )


def shown_until(conn: Connection, user: Principal, until: float, shown_since: float) -> float:
    """How far the caller's feedback can be marked seen when they were shown their
    decisions received from ``shown_since`` on only: up to ``until``, but not as far as
    the first unseen feedback on an earlier decision (one the notice counts)."""
    seen = _seen_at(conn, user.id)
    after = -1.0 if seen is None else seen
    window = (reach(until), shown_since)
    _o, _n, _oldest, first = _unseen(conn, user.id, after, until, window)
    return until if first is None else min(until, math.nextafter(first, -math.inf))


def mark_seen(
    conn: Connection,
    user: Principal,
    until: float,
    clock: Callable[[], float],
    shown_since: float | None = None,
) -> FeedbackNotice:
    """The caller saw their feedback up to ``until`` (the ``as_of`` of the notice they saw;
    never later than now, never back), now taken under their feedback lock; with
    ``shown_since``, only what ``shown_until`` allows."""
    hold(conn, user.id)
    now = clock()
    until = min(until, now)
    if shown_since is not None:
        until = shown_until(conn, user, until, shown_since)
    seen = _seen_at(conn, user.id)
    if seen is None:
        conn.execute(insert(feedback_seen).values(user_id=user.id, seen_at=until))
    elif until > seen:
        conn.execute(
            update(feedback_seen).where(feedback_seen.c.user_id == user.id).values(seen_at=until)
        )
    return notice(conn, user, now)
