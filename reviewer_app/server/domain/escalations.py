"""Escalations: who sent an item up to the leads, when and why, and the leads' worklist of
the open ones with their assignments.

An item escalated by a reviewer moved to the escalation queue with a new epoch: the
decision that escalated it is the item's decision of the epoch before (``epoch - 1``, one
row by ``ix_decisions_item_epoch``), which carries the reviewer, the time, the note and
the reason (``decisions.escalation_reason``, migration 0021). An item routed there by a
triage rule (epoch 0) has none: its queue reasons say why.

An assignment (``items.assigned_user_id``) is a field the escalation queue's claim
respects (leasing.py): only the lead it names claims the item, first among their claims.
It takes no lease away: a lead who holds the item keeps it until they decide or let go.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import Connection, and_, func, or_, select, update

from reviewer_app.protocol import (
    ESCALATION_QUEUE,
    AssigneeNow,
    EscalationEntry,
    EscalationPage,
    EscalationState,
    EventKind,
    ItemEscalation,
    ProblemDetail,
    QueueConfig,
    Role,
)
from reviewer_app.server.domain import access
from reviewer_app.server.domain.records import (
    Principal,
    append_events,
    event_row,
    excerpt,
    iso,
)
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import decisions, events, items, users

OPEN_STATES = ("pending", "leased")
LEAD_ROLES = (Role.lead.value, Role.admin.value)


def _names(conn: Connection, user_ids: set[int]) -> dict[int, str]:
    ids = [u for u in user_ids if u is not None]
    if not ids:
        return {}
    rows = conn.execute(select(users.c.id, users.c.username).where(users.c.id.in_(ids)))
    return {r.id: r.username for r in rows}


def _escalating(conn: Connection, rows: Sequence[Mapping[Any, Any]]) -> dict[str, Any]:
    """The decision that escalated each item (the epoch before its current one)."""
    wanted = {r["id"]: r["epoch"] - 1 for r in rows if r["epoch"] > 0}
    if not wanted:
        return {}
    found = conn.execute(select(decisions).where(decisions.c.item_id.in_(list(wanted)))).mappings()
    return {d["item_id"]: d for d in found if wanted.get(d["item_id"]) == d["epoch"]}


def escalation_documents(
    conn: Connection,
    rows: Sequence[Mapping[Any, Any]],
    configs: Mapping[str, QueueConfig] | None = None,
    labels: Mapping[int, str] | None = None,
) -> dict[str, dict[str, Any]]:
    """``ItemEscalation`` JSON for the rows (items) in the escalation queue. A reason's
    label comes from ``labels`` (by decision id: the log's ``escalated`` entries), else
    from the from-queue's configuration in ``configs``, else the reason id itself."""
    here = [r for r in rows if r["queue_id"] == ESCALATION_QUEUE]
    if not here:
        return {}
    by_item = _escalating(conn, here)
    names = _names(
        conn,
        {d["user_id"] for d in by_item.values()}
        | {r["assigned_user_id"] for r in here if r["assigned_user_id"] is not None}
        | {r["assigned_by_id"] for r in here if r["assigned_by_id"] is not None},
    )
    result: dict[str, dict[str, Any]] = {}
    for r in here:
        d = by_item.get(r["id"])
        document: dict[str, Any] = {
            "assigned_to": names.get(r["assigned_user_id"]),
            "assigned_at": iso(r["assigned_at"]) if r["assigned_at"] is not None else None,
            "assigned_by": names.get(r["assigned_by_id"]),
        }
        if d is not None:
            reason = d["escalation_reason"]
            label = (labels or {}).get(d["id"])
            if reason is not None and label is None:
                config = (configs or {}).get(d["queue_id"])
                found = config.escalation_reason(reason) if config is not None else None
                label = found.label if found is not None else reason
            document.update(
                escalated_by=names.get(d["user_id"], "unknown"),
                escalated_at=iso(d["decided_at"]),
                from_queue_id=d["queue_id"],
                decision_id=d["id"],
                reason=reason,
                reason_label=label if reason is not None else None,
                note=d["note"],
            )
        result[r["id"]] = document
    return result


def reason_labels(history: Mapping[str, list[dict[str, Any]]]) -> dict[int, str]:
    """The reason labels the log's ``escalated`` entries recorded, by decision id."""
    found: dict[int, str] = {}
    for entries in history.values():
        for e in entries:
            data = e.get("data") or {}
            if e.get("kind") == EventKind.escalated.value and data.get("reason_label"):
                found[int(data["decision_id"])] = str(data["reason_label"])
    return found


def _recorded_labels(conn: Connection, rows: Sequence[Mapping[Any, Any]]) -> dict[int, str]:
    """The reason labels recorded when the rows' items were escalated (the log's
    ``escalated`` entries, by decision id), read at once for all of them: a queue file
    that since dropped or relabelled a reason changes none of them."""
    ids = [r["id"] for r in rows if r["epoch"] > 0]
    if not ids:
        return {}
    found = conn.execute(
        select(events.c.item_id, events.c.kind, events.c.data).where(
            events.c.item_id.in_(ids), events.c.kind == EventKind.escalated.value
        )
    )
    history: dict[str, list[dict[str, Any]]] = {}
    for e in found:
        history.setdefault(e.item_id, []).append({"kind": e.kind, "data": json.loads(e.data)})
    return reason_labels(history)


_OPEN = (items.c.queue_id == ESCALATION_QUEUE) & items.c.state.in_(OPEN_STATES)
_COLUMNS = (
    items.c.id,
    items.c.queue_id,
    items.c.state,
    items.c.epoch,
    items.c.enqueued_at,
    items.c.payload,
    items.c.lease_user_id,
    items.c.lease_expires_at,
    items.c.assigned_user_id,
    items.c.assigned_at,
    items.c.assigned_by_id,
)


def _entries(
    conn: Connection,
    rows: Sequence[Mapping[Any, Any]],
    configs: Mapping[str, QueueConfig],
    now: float,
) -> list[EscalationEntry]:
    documents = escalation_documents(conn, rows, configs, _recorded_labels(conn, rows))
    holders = _names(conn, {r["lease_user_id"] for r in rows if r["lease_user_id"] is not None})
    own = configs.get(ESCALATION_QUEUE)
    sla = (own.sla_minutes if own is not None else 24 * 60) * 60
    entries = []
    for r in rows:
        payload = json.loads(r["payload"])
        triage = "; ".join(
            str(reason.get("detail") or "")
            for reason in payload.get("reasons", [])
            if reason.get("kind") == "escalation" and reason.get("detail")
        )
        held = r["state"] == "leased" and (r["lease_expires_at"] or 0) >= now
        waiting = max(0, int(now - r["enqueued_at"]))
        escalation = ItemEscalation.model_validate(documents.get(r["id"], {}))
        entries.append(
            EscalationEntry(
                item_id=r["id"],
                excerpt=excerpt(payload),
                from_queue_id=escalation.from_queue_id,
                enqueued_at=iso(r["enqueued_at"]),
                waiting_seconds=waiting,
                sla_seconds=sla,
                over_sla=waiting > sla,
                state=EscalationState.held if held else EscalationState.waiting,
                held_by=holders.get(r["lease_user_id"]) if held else None,
                held_until=iso(r["lease_expires_at"]) if held else None,
                escalation=escalation,
                triage=triage[:200],
            )
        )
    return entries


class _After(BaseModel):
    """Where a page of escalations ends: the last one's place in the order."""

    v: int
    at: float = Field(allow_inf_nan=False)
    id: str = Field(max_length=200)


def page(
    conn: Connection,
    configs: Mapping[str, QueueConfig],
    cursor: str | None,
    limit: int,
    now: float,
) -> EscalationPage:
    """The open escalations, oldest first (the SLA runs from entering the queue), a page
    at a time, after ``cursor`` (the place of the last one shown, not a count: an
    escalation decided while a lead pages on made the next page skip one)."""
    query = select(*_COLUMNS).where(_OPEN)
    if cursor is not None:
        after = _read_cursor(cursor)
        query = query.where(
            or_(
                items.c.enqueued_at > after.at,
                and_(items.c.enqueued_at == after.at, items.c.id > after.id),
            )
        )
    rows = (
        conn.execute(query.order_by(items.c.enqueued_at, items.c.id).limit(limit + 1))
        .mappings()
        .all()
    )
    total = conn.execute(select(func.count()).select_from(items).where(_OPEN)).scalar_one()
    shown = rows[:limit]
    entries = _entries(conn, shown, configs, now)
    following = None
    if len(rows) > limit:
        last = _After(v=1, at=shown[-1]["enqueued_at"], id=shown[-1]["id"])
        following = base64.urlsafe_b64encode(last.model_dump_json().encode()).decode()
    return EscalationPage(escalations=entries, total=total, next_cursor=following)


def _read_cursor(cursor: str) -> _After:
    try:
        after = _After.model_validate_json(base64.urlsafe_b64decode(cursor.encode()))
    except (ValueError, ValidationError):
        after = None
    if after is None or after.v != 1:
        raise ApiError(400, "invalid_cursor", "The cursor is not one this service issued.")
    return after


def unassign_from(
    conn: Connection, actor: str | None, username: str, user_id: int, now: float
) -> None:
    """The open escalations assigned to a user who is no longer a lead go back to nobody
    (the queue's claim would keep them for that user, who can no longer claim there), each
    logged as ``escalation_assigned`` to nobody by ``actor`` (a user name; None: the
    command line)."""
    assigned = (
        conn.execute(
            select(items.c.id).where(
                items.c.assigned_user_id == user_id,
                items.c.queue_id == ESCALATION_QUEUE,
                items.c.state.in_(OPEN_STATES),
            )
        )
        .scalars()
        .all()
    )
    if not assigned:
        return
    conn.execute(
        update(items)
        .where(items.c.id.in_(assigned))
        .values(assigned_user_id=None, assigned_at=None, assigned_by_id=None)
    )
    append_events(
        conn,
        [
            event_row(
                now,
                EventKind.escalation_assigned,
                actor,
                item_id=item_id,
                queue_id=ESCALATION_QUEUE,
                assignee=None,
                previous=username,
            )
            for item_id in sorted(assigned)
        ],
    )


def _not_open(conn: Connection, row: Mapping[Any, Any]) -> ApiError:
    """The refusal to assign an item that is no open escalation, naming the lead who
    decided it when it was decided in the escalation queue (another lead was first)."""
    decider = None
    if row["queue_id"] == ESCALATION_QUEUE and row["state"] == "decided":
        decider = conn.execute(
            select(users.c.username)
            .join(decisions, decisions.c.user_id == users.c.id)
            .where(decisions.c.item_id == row["id"], decisions.c.queue_id == ESCALATION_QUEUE)
            .order_by(decisions.c.id.desc())
            .limit(1)
        ).scalar()
    if decider is not None:
        return ApiError(
            409,
            "escalation_decided",
            f"{decider} decided this escalation already: there is nothing to assign.",
        )
    return ApiError(
        409,
        "not_open_escalation",
        "This item is not waiting in the escalation queue (decided, withdrawn, or never "
        "escalated): there is nothing to assign.",
    )


def _lead_to_assign(conn: Connection, assignee: str, *, postgres: bool) -> int:
    """The id of the lead ``assignee`` names, refused when there is no such person, they
    are not a lead, or their access was ended (no one can log in as them to claim it). On
    PostgreSQL their row is held (``FOR SHARE``) until the assignment commits: an admin
    ending their access meanwhile waits, then gives the escalation back to nobody."""
    query = select(users.c.id, users.c.role, users.c.password_hash).where(
        users.c.username == assignee
    )
    found = conn.execute(query.with_for_update(read=True) if postgres else query).first()
    if found is None:
        raise ApiError(422, "unknown_user", f"No user {assignee!r}.")
    if found.role not in LEAD_ROLES:
        raise ApiError(
            422,
            "assignee_not_lead",
            f"{assignee!r} is not a lead: escalations are assigned to leads and admins.",
        )
    if found.password_hash == access.NO_PASSWORD:
        raise ApiError(
            422,
            "assignee_access_ended",
            f"{assignee!r} can no longer log in (an admin ended their access): an escalation "
            "assigned to them would wait for nobody. Assign it to another lead.",
        )
    return int(found.id)


def _check_expected(
    conn: Connection, row: Mapping[Any, Any], expected: AssigneeNow, assignee: str | None
) -> None:
    """Refuse (409) an assignment based on a stale view: the escalation is assigned to
    someone other than ``expected`` says (another lead changed it meanwhile). Assigned as
    asked already is no conflict: the same request again (a retry whose first reply was
    lost) succeeds."""
    now_id = row["assigned_user_id"]
    holder = _names(conn, {now_id}).get(now_id) if now_id is not None else None
    if holder in (expected.assignee, assignee):
        return
    if holder is None:
        raise ApiError(
            409,
            "assignment_changed",
            f"Someone changed this escalation meanwhile: it is assigned to nobody now, not "
            f"to {expected.assignee}. Nothing was changed; look again and assign it anew.",
            errors=[ProblemDetail(loc=["assignee"], message="", code="assignment_changed")],
        )
    raise ApiError(
        409,
        "assigned_to_other",
        f"This escalation is assigned to {holder} now (changed meanwhile). Nothing was "
        "changed; look again and assign it anew if it should still move.",
        errors=[ProblemDetail(loc=["assignee"], message=holder, code="assigned_to_other")],
    )


def assign(
    conn: Connection,
    lead: Principal,
    item_id: str,
    assignee: str | None,
    configs: Mapping[str, QueueConfig],
    now: float,
    *,
    postgres: bool,
    expected: AssigneeNow | None = None,
) -> EscalationEntry:
    """Assign an open escalation to a lead (``assignee`` None: to nobody), logged as
    ``escalation_assigned``; with ``expected``, only when it is assigned as that says (the
    item's row is locked first, so two leads assigning at once are checked in turn)."""
    query = select(*_COLUMNS).where(items.c.id == item_id)
    row = conn.execute(query.with_for_update() if postgres else query).mappings().first()
    if row is None:
        raise ApiError(404, "unknown_item", f"No item {item_id!r}.")
    if row["queue_id"] != ESCALATION_QUEUE or row["state"] not in OPEN_STATES:
        raise _not_open(conn, row)
    if expected is not None:
        _check_expected(conn, row, expected, assignee)
    assignee_id: int | None = None
    if assignee is not None:
        assignee_id = _lead_to_assign(conn, assignee, postgres=postgres)
    conn.execute(
        update(items)
        .where(items.c.id == item_id)
        .values(
            assigned_user_id=assignee_id,
            assigned_at=now if assignee_id is not None else None,
            assigned_by_id=lead.id if assignee_id is not None else None,
        )
    )
    previous = _names(conn, {row["assigned_user_id"]}).get(row["assigned_user_id"])
    append_events(
        conn,
        [
            event_row(
                now,
                EventKind.escalation_assigned,
                lead.username,
                item_id=item_id,
                queue_id=ESCALATION_QUEUE,
                assignee=assignee,
                previous=previous,
            )
        ],
    )
    changed = conn.execute(select(*_COLUMNS).where(items.c.id == item_id)).mappings().one()
    return _entries(conn, [changed], configs, now)[0]
