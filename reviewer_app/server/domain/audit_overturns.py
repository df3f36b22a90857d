"""An audit's overturn: the corrected decision, checked as a verdict is, becomes the item's
decision of record with its enforcement action, account decisions and strikes (audits.py
records the result); ``still_of_record`` refuses one that something else settles now."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from reviewer_app.protocol import (
    ActionConfig,
    ActionKind,
    AuditOverturn,
    ProblemDetail,
    QueueConfig,
    verdict_problems,
)
from reviewer_app.server.domain import accounts, enforcement
from reviewer_app.server.domain.records import Principal, append_events
from reviewer_app.server.domain.verdicts import item_problems
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import appeals, audit_samples, decisions, items, strikes


def overturn(
    conn: Connection,
    lead: Principal,
    original: Mapping[Any, Any],
    body: AuditOverturn,
    own_note: str | None,
    configs: Mapping[str, QueueConfig],
    now: float,
    config_version: int = 0,
) -> int:
    """The corrected decision, checked as a verdict is (config and item rules); a rating
    other than the fact-checkers' is overridden by the auditor's own note only."""
    config = configs.get(original["queue_id"])
    if config is None:
        raise ApiError(409, "unknown_queue", "The decision's queue no longer exists.")
    action, row = _checked(conn, original, body, own_note, config)
    author_action = body.author_action or action.author_action
    new_id = int(
        conn.execute(
            insert(decisions)
            .values(
                item_id=original["item_id"],
                epoch=row.epoch + 1,
                queue_id=original["queue_id"],
                user_id=lead.id,
                author_id=original["author_id"],
                action=body.action,
                policies=json.dumps(list(body.policies)),
                rating=body.rating,
                note=body.note,
                author_action=author_action.value if author_action else None,
                time_spent_ms=body.time_spent_ms,
                decided_at=now,
                client_decided_at=now,
                kind="overturn",
                overturns_id=original["id"],
                config_version=config_version,
            )
            .returning(decisions.c.id)
        ).scalar_one()
    )
    conn.execute(
        update(items)
        .where(items.c.id == original["item_id"])
        .values(decision_id=new_id, epoch=row.epoch + 1)
    )
    # The overturn's enforcement action replaces the overturned decision's (enforcement.py).
    enforcement.derive(
        conn,
        [
            enforcement.Decided(
                decision_id=new_id,
                item_id=original["item_id"],
                post_id=row.post_id,
                author_id=original["author_id"],
                queue_id=original["queue_id"],
                config_version=config_version,
                decided_at=now,
                kind=action.kind,
                config=config,
                item_payload=row.payload,
                policies=body.policies,
                rating=body.rating,
                author_action=author_action,
                overturns=int(original["id"]),
                note=body.note,
            )
        ],
        now,
    )
    _follow_the_account_and_strikes(conn, lead, original, body, action, new_id, now)
    return new_id


def _checked(
    conn: Connection,
    original: Mapping[Any, Any],
    body: AuditOverturn,
    own_note: str | None,
    config: QueueConfig,
) -> tuple[ActionConfig, Any]:
    """The overturn's action and the item's row, or 422 with every problem: the protocol's
    rule, as for a verdict, then the item's part (with the auditor's own note)."""
    action = config.action(body.action)
    if action is not None and action.kind is ActionKind.escalate:
        raise ApiError(
            422, "overturn_cannot_escalate", "An overturn must decide; it cannot escalate."
        )
    problems = [
        ProblemDetail(loc=["body", p.field], code=p.code, message=p.message)
        for p in verdict_problems(config, body)
    ]
    row = conn.execute(
        select(items.c.epoch, items.c.payload, items.c.post_id).where(
            items.c.id == original["item_id"]
        )
    ).one()
    if not problems:
        problems = [
            ProblemDetail(loc=["body", p.field], code=p.code, message=p.message)
            for p in item_problems(body.model_copy(update={"note": own_note}), config, row.payload)
        ]
    if problems:
        raise ApiError(
            422,
            "overturn_invalid",
            "The corrected decision does not fit the queue's decision config.",
            errors=problems,
        )
    assert action is not None
    return action, row


def _follow_the_account_and_strikes(
    conn: Connection,
    lead: Principal,
    original: Mapping[Any, Any],
    body: AuditOverturn,
    action: ActionConfig,
    new_id: int,
    now: float,
) -> None:
    """What the overturned decision did to the account is undone, then the overturn's own
    author action (if any) is an account-level decision too (accounts.py); the strikes
    follow the decision of record."""
    author_action = body.author_action or action.author_action
    postgres = conn.dialect.name == "postgresql"
    append_events(
        conn,
        accounts.reverse_for_overturn(
            conn,
            int(original["id"]),
            lead,
            new_id,
            original["item_id"],
            original["queue_id"],
            now,
            postgres=postgres,
        ),
    )
    if author_action is not None:
        applied = accounts.apply(
            conn,
            [
                accounts.AccountDecision(
                    author_id=original["author_id"],
                    action=author_action,
                    user=lead,
                    decision_id=new_id,
                    item_id=original["item_id"],
                    queue_id=original["queue_id"],
                    policies=tuple(body.policies),
                    note=body.note,
                )
            ],
            now,
            postgres=postgres,
        )
        append_events(conn, applied.events)
    conn.execute(delete(strikes).where(strikes.c.decision_id == original["id"]))
    if action.strike and body.policies:
        conn.execute(
            insert(strikes),
            [
                {"author_id": original["author_id"], "policy": p, "at": now, "decision_id": new_id}
                for p in body.policies
            ],
        )


def still_of_record(conn: Connection, original: Mapping[Any, Any], sample_id: int) -> None:
    """An overturn replaces the item's decision of record: refused (409) when the audited
    decision is no longer it, when the item is back in review (an appeal of it waits, and
    the appeal's decision is the one that settles it), when the decision was appealed after
    it was sampled (waiting or decided: the appeal settled it), or when its post is back in
    review as another item (re-review: that item's decision settles it)."""
    query = select(items.c.state, items.c.decision_id, items.c.post_id).where(
        items.c.id == original["item_id"]
    )
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    row = conn.execute(query).one()
    if row.state != "decided" or row.decision_id != original["id"]:
        raise ApiError(
            409,
            "not_decision_of_record",
            "The audited decision is no longer the item's decision of record, or the item is "
            "back in review (an appeal of it is waiting): it cannot be overturned now; "
            "record an agreement or leave the task.",
        )
    sampled_at = select(audit_samples.c.created_at).where(audit_samples.c.id == sample_id)
    appealed = conn.execute(
        select(appeals.c.external_id, appeals.c.outcome).where(
            appeals.c.decision_id == original["id"],
            appeals.c.received_at >= sampled_at.scalar_subquery(),
        )
    ).first()
    if appealed is not None:
        raise ApiError(
            409,
            "not_decision_of_record",
            f"The decision was appealed after it was sampled (appeal {appealed.external_id}, "
            f"{appealed.outcome or 'waiting'}): the appeal settles it, the audit cannot "
            "overturn it; record an agreement or leave the task.",
        )
    if row.post_id is None:
        return
    reopened = conn.execute(
        select(items.c.id, items.c.queue_id)
        .where(
            items.c.post_id == row.post_id,
            items.c.id != original["item_id"],
            items.c.state.in_(("pending", "leased")),
        )
        .limit(1)
    ).first()
    if reopened is not None:
        raise ApiError(
            409,
            "not_decision_of_record",
            f"The post is back in review (item {reopened.id} in {reopened.queue_id}): that "
            "review settles it, the audit cannot overturn it now; record an agreement or "
            "leave the task.",
        )
