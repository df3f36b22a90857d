"""The running queues as reviewers see them: each with its counts and its configuration."""

from __future__ import annotations

from sqlalchemy import Connection, and_, exists, func, or_, select

from reviewer_app.protocol import ESCALATION_QUEUE, Queue, QueueConfig, QueueCounts, QueueList
from reviewer_app.server.domain import local_days, queueapply
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.domain.stats import QueueInfo
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import decisions, items, queues


def listing(
    conn: Connection, user: Principal, now: float, day_start: float | None = None
) -> QueueList:
    """The running queues the user may work, in their order, with their counts; decided
    today since the start of the user's day (``day_start``: their client's local midnight,
    see ``local_days.today_from``; UTC midnight without)."""
    midnight = local_days.today_from(now, day_start)
    rows = (
        conn.execute(
            select(queues)
            .where(queues.c.retired_at.is_(None))
            .order_by(queues.c.position, queues.c.id)
        )
        .mappings()
        .all()
    )
    configs = {r["id"]: QueueConfig.model_validate_json(r["config"]) for r in rows}
    shown = {q: c for q, c in configs.items() if user.is_lead or not c.lead_only}
    not_yours = not_for_you(conn, user, shown, now)
    by_state: dict[tuple[str, str], int] = {}
    for (queue_id, state), n in open_item_counts(conn, now).items():
        state = "pending" if state == "expired" else state  # as good as pending
        by_state[(queue_id, state)] = by_state.get((queue_id, state), 0) + n
    decided: dict[str, int] = dict(
        conn.execute(
            select(decisions.c.queue_id, func.count())
            .where(decisions.c.decided_at >= midnight)
            .group_by(decisions.c.queue_id)
        ).all()
    )
    # the oldest undecided item, leased or not: the SLA runs until a decision
    oldest = dict(
        conn.execute(
            select(items.c.queue_id, func.min(items.c.enqueued_at))
            .where(items.c.state.in_(("pending", "leased")))
            .group_by(items.c.queue_id)
        ).all()
    )
    result = []
    for r in rows:
        config = shown.get(r["id"])
        if config is None:
            continue
        first = oldest.get(r["id"])
        pending = by_state.get((r["id"], "pending"), 0)
        result.append(
            Queue(
                id=r["id"],
                name=r["name"],
                description=r["description"],
                config=config,
                config_version=r["config_version"],
                counts=QueueCounts(
                    pending=pending,
                    leased=by_state.get((r["id"], "leased"), 0),
                    decided_today=decided.get(r["id"], 0),
                    oldest_pending_age_seconds=max(0, int(now - first)) if first else None,
                    not_for_you=min(pending, not_yours.get(r["id"], 0)),
                ),
            )
        )
    return QueueList(queues=result)


def not_for_you(
    conn: Connection, user: Principal, configs: dict[str, QueueConfig], now: float
) -> dict[str, int]:
    """Per queue, the pending items (an expired lease counts as pending) that ``user`` may
    not claim: in an appeals queue those they decided before, any epoch (four eyes:
    appeals.py), in the escalation queue those assigned to another lead (escalations.py),
    as ``leasing.claim`` skips them. One query for all such queues among ``configs``;
    none when there are none (the other queues have nothing a claim skips)."""
    appeal_queues = sorted(q for q, c in configs.items() if c.appeals)
    kinds = []
    if appeal_queues:
        decided_before = exists().where(
            decisions.c.item_id == items.c.id, decisions.c.user_id == user.id
        )
        kinds.append(and_(items.c.queue_id.in_(appeal_queues), decided_before))
    if ESCALATION_QUEUE in configs:
        elsewhere = items.c.assigned_user_id.is_not(None) & (items.c.assigned_user_id != user.id)
        kinds.append(and_(items.c.queue_id == ESCALATION_QUEUE, elsewhere))
    if not kinds:
        return {}
    waiting = or_(
        items.c.state == "pending",
        and_(items.c.state == "leased", items.c.lease_expires_at < now),
    )
    wanted = [*appeal_queues, ESCALATION_QUEUE]
    return dict(
        conn.execute(
            select(items.c.queue_id, func.count())
            .where(items.c.queue_id.in_(wanted), waiting, or_(*kinds))
            .group_by(items.c.queue_id)
        ).all()
    )


def open_item_counts(conn: Connection, now: float) -> dict[tuple[str, str], int]:
    """Undecided items by queue and state: ``pending``, ``leased`` (a live lease) and
    ``expired`` (leased, but the lease has run out: claimable again)."""
    expired = (items.c.lease_expires_at < now).label("expired")
    rows = conn.execute(
        select(items.c.queue_id, items.c.state, expired, func.count().label("n"))
        .where(items.c.state != "decided")
        .group_by(items.c.queue_id, items.c.state, expired)
    )
    counts: dict[tuple[str, str], int] = {}
    for r in rows:
        state = "expired" if r.state == "leased" and r.expired else r.state
        counts[(r.queue_id, state)] = counts.get((r.queue_id, state), 0) + r.n
    return counts


def running_configs(conn: Connection) -> tuple[int, dict[str, QueueConfig]]:
    """The configuration version and the running queues' configs, in their order."""
    version = queueapply.current_version(conn)[0]
    rows = conn.execute(
        select(queues.c.id, queues.c.config)
        .where(queues.c.retired_at.is_(None))
        .order_by(queues.c.position, queues.c.id)
    ).all()
    return version, {r.id: QueueConfig.model_validate_json(r.config) for r in rows}


def item_queues(conn: Connection, item_id: str) -> tuple[str, str]:
    """The item's queue and the queue it came from (404 for an unknown item)."""
    item = conn.execute(
        select(items.c.queue_id, items.c.origin_queue_id).where(items.c.id == item_id)
    ).first()
    if item is None:
        raise ApiError(404, "unknown_item", f"No item {item_id!r}.")
    return item.queue_id, item.origin_queue_id


def item_states(conn: Connection) -> dict[str, int]:
    """How many items are in each state."""
    return dict(conn.execute(select(items.c.state, func.count()).group_by(items.c.state)).all())


def for_stats(conn: Connection, queue_id: str | None) -> list[QueueInfo]:
    """Every running queue, or the one asked for (a retired queue by its name only)."""
    rows = conn.execute(
        select(queues.c.id, queues.c.name, queues.c.config, queues.c.retired_at).order_by(
            queues.c.position, queues.c.id
        )
    ).all()
    chosen = [
        QueueInfo(r.id, r.name, QueueConfig.model_validate_json(r.config))
        for r in rows
        if (r.id == queue_id if queue_id is not None else r.retired_at is None)
    ]
    if queue_id is not None and not chosen:
        raise ApiError(404, "unknown_queue", f"No queue {queue_id!r}.")
    return chosen
