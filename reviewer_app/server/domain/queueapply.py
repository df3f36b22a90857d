"""Applying a queue file: what changes, the drain of removed queues, configuration versions.

Every applied file is a configuration version (``config_versions``: the whole file as
JSON, its sha256, when and by whom), numbered from 1. ``apply`` runs inside one write
transaction: the version row, the queue rows, the moves of open items out of removed
queues and the ``config_applied`` event commit together or not at all. A file identical
to the current version makes no new version.

A removed queue is *retired*, not deleted: its decided items and decisions still name it
(history, stats, export), it is left out of routing, claims and queue lists, and a later
file that names it again brings it back. A removed queue with open items is refused
unless they are drained into a queue of the new file: pending items move there and are
ordered by its weights; leased items move too but keep their lease, so the reviewer's
verdict is judged by the configuration the item was leased under (``leases.config_version``)
and, once released or expired, the item is pending in the new queue. An appeals queue's
items take their waiting appeals along, and their leases name the new queue (an appeal is
decided under a lease of the appeals queue it waits in).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from pydantic import BaseModel
from sqlalchemy import Connection, bindparam, insert, select, text, update

from reviewer_app.protocol import (
    EventKind,
    PriorityWeights,
    QueueConfig,
    QueueDefinition,
    QueueFile,
)
from reviewer_app.server.domain.priority import priority_value
from reviewer_app.server.domain.queuefile.text import canonical_json
from reviewer_app.server.domain.records import append_events, chunks, event_row
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import appeals, config_versions, items, leases, queues

ROW_CHUNK = 2_000

# Lists in a queue's config whose entries have an identity: diffs say which entry changed.
_KEYED = {"actions": "id", "policies": "code", "ratings": "id", "routing": "name"}


@dataclass(frozen=True)
class QueueChange:
    """What changed in one queue: the parts (``actions``, ``sla_minutes``...) and a line
    per change."""

    queue_id: str
    parts: tuple[str, ...]
    details: tuple[str, ...]


@dataclass(frozen=True)
class Drain:
    """Open items of a removed queue moved to another."""

    queue_id: str
    to_queue: str
    pending: int
    leased: int


@dataclass(frozen=True)
class ApplyResult:
    """What applying a queue file changes (``dry_run``) or changed."""

    previous_version: int
    version: int
    sha256: str
    added: tuple[str, ...] = ()
    restored: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    strays: tuple[str, ...] = ()
    """queues retired by an earlier version that hold open items (routed there by a process
    whose cached configuration had not seen them go): drained as removed queues are"""
    changed: tuple[QueueChange, ...] = ()
    drained: tuple[Drain, ...] = ()
    reprioritised: Mapping[str, int] = field(default_factory=dict)
    dry_run: bool = False
    identical: bool = False
    """the file is the current version's: nothing to do, no new version"""

    @property
    def applied(self) -> bool:
        """A new version was written."""
        return not self.dry_run and not self.identical

    @property
    def queue_changes(self) -> bool:
        return bool(self.added or self.removed or self.changed)

    def summary(self) -> dict[str, int]:
        return {
            "added": len(self.added),
            "removed": len(self.removed),
            "changed": len(self.changed),
            "moved_pending": sum(d.pending for d in self.drained),
            "moved_leased": sum(d.leased for d in self.drained),
        }

    def describe(self) -> list[str]:
        """The plan in words, a line each."""
        if self.identical:
            return [f"No changes: the file is configuration version {self.version} as it runs."]
        will = "would be" if self.dry_run else "were"
        if self.dry_run:
            lines = [
                f"Dry run: nothing was changed. Applied, this file would be configuration "
                f"version {self.version} (now {self.previous_version})."
            ]
        else:
            lines = [
                f"Applied configuration version {self.version} "
                f"(was {self.previous_version}), sha256 {self.sha256}."
            ]
        if not self.queue_changes:
            lines.append("No queue changes (the version records the file as it is).")
        for queue_id in self.added:
            again = " (retired before, back again)" if queue_id in self.restored else ""
            lines.append(f"+ {queue_id}: added{again}")
        for queue_id in self.removed + self.strays:
            drain = next((d for d in self.drained if d.queue_id == queue_id), None)
            if queue_id in self.strays:
                lines.append(f"! {queue_id}: retired before, and open items came in since")
            else:
                lines.append(f"- {queue_id}: removed (retired: its decided items keep its name)")
            if drain and (drain.pending or drain.leased):
                moved = "would move" if self.dry_run else "moved"
                lines.append(
                    f"    {drain.pending} pending item(s) {moved} to {drain.to_queue}, "
                    "ordered by its priority weights"
                )
            if drain and drain.leased:
                lines.append(
                    f"    {drain.leased} leased item(s) {will} moved to {drain.to_queue} with "
                    "their leases: verdicts under those leases are judged by the configuration "
                    f"they were leased under; released or expired, they are pending in "
                    f"{drain.to_queue}"
                )
        for change in self.changed:
            lines.append(f"~ {change.queue_id}: {', '.join(change.parts)}")
            lines += [f"    {d}" for d in change.details]
        for queue_id, count in self.reprioritised.items():
            if count and queue_id not in {d.to_queue for d in self.drained}:
                verb = "would be" if self.dry_run else "were"
                lines.append(
                    f"    {queue_id}: {count} pending item(s) {verb} re-ordered by the new weights"
                )
        return lines


class DryRun(Exception):
    """Raised to roll a dry run's transaction back, carrying its result."""

    def __init__(self, result: ApplyResult) -> None:
        super().__init__("dry run")
        self.result = result


# -- reading the configuration ------------------------------------------------------------


def current_version(conn: Connection) -> tuple[int, str | None]:
    """The newest version and its sha256 ((0, None) before the first)."""
    row = conn.execute(
        select(config_versions.c.version, config_versions.c.sha256)
        .order_by(config_versions.c.version.desc())
        .limit(1)
    ).first()
    return (row.version, row.sha256) if row else (0, None)


def version_file(conn: Connection, version: int) -> QueueFile | None:
    document = conn.execute(
        select(config_versions.c.document).where(config_versions.c.version == version)
    ).scalar()
    return QueueFile.model_validate_json(document) if document else None


def live_definitions(conn: Connection) -> list[QueueDefinition]:
    """The queues as they run (not retired), in their order."""
    rows = conn.execute(
        select(queues.c.id, queues.c.name, queues.c.description, queues.c.config)
        .where(queues.c.retired_at.is_(None))
        .order_by(queues.c.position, queues.c.id)
    ).all()
    return [
        QueueDefinition(
            id=r.id,
            name=r.name,
            description=r.description,
            config=QueueConfig.model_validate_json(r.config),
        )
        for r in rows
    ]


def running_file(conn: Connection) -> QueueFile | None:
    """The running configuration as a queue file (None when there are no queues)."""
    found = live_definitions(conn)
    return QueueFile(queues=found) if found else None


def versions(conn: Connection) -> list[dict[str, Any]]:
    """Every version, newest first: number, when, by whom, sha256 and queue count."""
    rows = conn.execute(
        select(
            config_versions.c.version,
            config_versions.c.applied_at,
            config_versions.c.applied_by,
            config_versions.c.sha256,
            config_versions.c.document,
        ).order_by(config_versions.c.version.desc())
    ).all()
    return [
        {
            "version": r.version,
            "applied_at": r.applied_at,
            "applied_by": r.applied_by,
            "sha256": r.sha256,
            "queues": [q["id"] for q in json.loads(r.document)["queues"]],
        }
        for r in rows
    ]


# -- the difference between two configurations -----------------------------------------------


def _show(value: Any) -> str:
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", exclude_defaults=True)
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def _field_changes(old: BaseModel, new: BaseModel) -> list[str]:
    """``name: old -> new`` for each field that differs."""
    return [
        f"{name}: {_show(getattr(old, name))} -> {_show(getattr(new, name))}"
        for name in type(new).model_fields
        if getattr(old, name) != getattr(new, name)
    ]


def _keyed_changes(part: str, key: str, old: Sequence[Any], new: Sequence[Any]) -> list[str]:
    singular = {"actions": "action", "policies": "policy", "ratings": "rating"}.get(part, "rule")
    before = {getattr(e, key): e for e in old}
    after = {getattr(e, key): e for e in new}
    lines = [f"{singular} {k!r} added" for k in after if k not in before]
    lines += [f"{singular} {k!r} removed" for k in before if k not in after]
    for k, entry in after.items():
        if k in before and before[k] != entry:
            lines.append(f"{singular} {k!r} changed: {'; '.join(_field_changes(before[k], entry))}")
    kept_before = [k for k in before if k in after]
    kept_after = [k for k in after if k in before]
    if kept_before != kept_after:
        lines.append(f"{part} in a new order: {', '.join(map(str, kept_after))}")
    return lines


def diff_queue(
    old: QueueDefinition, new: QueueDefinition, old_position: int, new_position: int
) -> QueueChange | None:
    parts: list[str] = []
    details: list[str] = []
    for name in ("name", "description"):
        if getattr(old, name) != getattr(new, name):
            parts.append(name)
            details.append(f"{name}: {_show(getattr(old, name))} -> {_show(getattr(new, name))}")
    if old_position != new_position:
        parts.append("position")
        details.append(
            f"place among the queues that stay (routing tries them in the file's order): "
            f"{old_position + 1} -> {new_position + 1}"
        )
    for name in QueueConfig.model_fields:
        before, after = getattr(old.config, name), getattr(new.config, name)
        if before == after:
            continue
        parts.append(name)
        if name in _KEYED:
            details += _keyed_changes(name, _KEYED[name], before, after)
        elif isinstance(after, BaseModel) and isinstance(before, BaseModel):
            details += [f"{name}.{line}" for line in _field_changes(before, after)]
        elif isinstance(after, list) and isinstance(before, list):
            added = [str(v) for v in after if v not in before]
            gone = [str(v) for v in before if v not in after]
            lines = [f"{name}: + {', '.join(added)}"] if added else []
            lines += [f"{name}: - {', '.join(gone)}"] if gone else []
            details += lines or [f"{name} in a new order: {', '.join(map(str, after))}"]
        else:
            details.append(f"{name}: {_show(before)} -> {_show(after)}")
    if not parts:
        return None
    return QueueChange(new.id, tuple(parts), tuple(details))


# -- applying ------------------------------------------------------------------------------


def lock_versions(conn: Connection, *, shared: bool = False) -> None:
    """One change of configuration at a time, to the transaction's end: versions are
    numbered in order, and a change built on the running file (``set_breaks``) reads it
    after taking this. ``shared``: no change while this transaction runs (intake routing
    by the running configuration), other shared holders alike. SQLite's write
    transactions are one at a time already."""
    if conn.dialect.name == "postgresql":
        mode = "SHARE" if shared else "SHARE ROW EXCLUSIVE"
        conn.execute(text(f"LOCK TABLE config_versions IN {mode} MODE"))


def apply(
    conn: Connection,
    queue_file: QueueFile,
    *,
    actor: str | None,
    now: float,
    drain_to: str | None = None,
    dry_run: bool = False,
) -> ApplyResult:
    """Make ``queue_file`` the running configuration, in ``conn``'s write transaction.

    Raises ``ApiError`` when it cannot be applied (nothing of it is then kept, once the
    caller rolls back: see ``Service.apply_queue_file``); with ``dry_run`` it raises
    ``DryRun`` carrying the result after doing everything, so the caller rolls back.
    """
    lock_versions(conn)
    previous, previous_sha = current_version(conn)
    document = canonical_json(queue_file)
    sha = hashlib.sha256(document.encode()).hexdigest()
    new_ids = [q.id for q in queue_file.queues]
    if drain_to is not None and drain_to not in new_ids:
        raise ApiError(
            422,
            "unknown_drain_target",
            f"--drain-to {drain_to!r}: the file has no queue {drain_to!r} to move items to.",
        )
    if sha == previous_sha:
        result = ApplyResult(previous, previous, sha, dry_run=dry_run, identical=True)
        if dry_run:
            raise DryRun(result)
        return result

    known = set(conn.execute(select(queues.c.id)).scalars())
    old = {q.id: q for q in live_definitions(conn)}
    version = previous + 1
    added = tuple(i for i in new_ids if i not in old)
    restored = tuple(i for i in added if i in known)
    removed = tuple(i for i in old if i not in new_ids)
    strays = tuple(i for i in _retired_with_open_items(conn) if i not in new_ids)
    changed = _changes(old, queue_file)

    # The writes, in order: a refusal further down rolls all of them back.
    conn.execute(
        insert(config_versions).values(
            version=version, applied_at=now, applied_by=actor, document=document, sha256=sha
        )
    )
    _write_queues(conn, queue_file, known, removed, version, now)

    configs = {q.id: q.config for q in queue_file.queues}
    drained = [
        _drain(conn, queue_id, drain_to, configs, actor, now) for queue_id in removed + strays
    ]
    reprioritised: dict[str, int] = {}
    for change in changed:
        if "priority" in change.parts:
            reprioritised[change.queue_id] = _reprioritise(
                conn, change.queue_id, configs[change.queue_id].priority
            )

    result = ApplyResult(
        previous_version=previous,
        version=version,
        sha256=sha,
        added=added,
        restored=restored,
        removed=removed,
        strays=strays,
        changed=tuple(changed),
        drained=tuple(d for d in drained if d is not None),
        reprioritised=reprioritised,
        dry_run=dry_run,
    )
    append_events(conn, [_applied_event(result, len(new_ids), actor, now)])
    if dry_run:
        raise DryRun(result)
    return result


def _changes(old: Mapping[str, QueueDefinition], queue_file: QueueFile) -> list[QueueChange]:
    """What changed in each queue in both the running configuration and the file."""
    new_ids = [q.id for q in queue_file.queues]
    # a queue's place among those in both, so adding or removing one moves no other
    before = [i for i in old if i in new_ids]
    after = [i for i in new_ids if i in old]
    changed: list[QueueChange] = []
    for queue in queue_file.queues:
        if queue.id in old:
            place = (before.index(queue.id), after.index(queue.id))
            change = diff_queue(old[queue.id], queue, *place)
            if change:
                changed.append(change)
    return changed


def _write_queues(
    conn: Connection,
    queue_file: QueueFile,
    known: set[str],
    removed: tuple[str, ...],
    version: int,
    now: float,
) -> None:
    """The file's queues in its order (a queue known before is updated, even retired: it
    is restored), and the removed ones retired."""
    for position, queue in enumerate(queue_file.queues):
        values = {
            "name": queue.name,
            "description": queue.description,
            "position": position,
            "config": json.dumps(queue.config.model_dump(mode="json")),
            "config_version": version,
            "retired_at": None,
        }
        if queue.id in known:
            conn.execute(update(queues).where(queues.c.id == queue.id).values(**values))
        else:
            conn.execute(insert(queues).values(id=queue.id, **values))
    if removed:
        conn.execute(
            update(queues)
            .where(queues.c.id.in_(removed))
            .values(retired_at=now, config_version=version)
        )


def _applied_event(
    result: ApplyResult, queue_count: int, actor: str | None, now: float
) -> dict[str, Any]:
    """The ``config_applied`` event of an applied version."""
    data: dict[str, Any] = {
        "version": result.version,
        "previous_version": result.previous_version,
        "sha256": result.sha256,
        "queues": queue_count,
        "added": list(result.added),
        "removed": list(result.removed),
        "changed": [c.queue_id for c in result.changed],
        "drained": [f"{d.queue_id}>{d.to_queue}" for d in result.drained],
        **{f"{name}_count": n for name, n in result.summary().items()},
    }
    return event_row(now, EventKind.config_applied, actor, **data)


def add_queues(
    conn: Connection, definitions: Iterable[QueueDefinition], *, actor: str | None, now: float
) -> ApplyResult:
    """The running queues with these added (or, by id, replaced) as a new version: how a
    seed (the synthetic queues of tests and benchmarks) puts queues in."""
    new = {d.id: d for d in definitions}
    merged = [new.pop(q.id, q) for q in live_definitions(conn)] + list(new.values())
    return apply(conn, QueueFile(queues=merged), actor=actor, now=now)


def _retired_with_open_items(conn: Connection) -> list[str]:
    return list(
        conn.execute(
            select(items.c.queue_id)
            .distinct()
            .join(queues, queues.c.id == items.c.queue_id)
            .where(queues.c.retired_at.is_not(None), items.c.state.in_(("pending", "leased")))
            .order_by(items.c.queue_id)
        ).scalars()
    )


def _open_items(conn: Connection, queue_id: str) -> list[Any]:
    query = (
        select(items.c.id, items.c.state, items.c.payload, items.c.enqueued_at, items.c.lease_token)
        .where(items.c.queue_id == queue_id, items.c.state.in_(("pending", "leased")))
        .order_by(items.c.id)  # the lock order of verdict batches: no deadlocks
    )
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    return list(conn.execute(query))


def _drain(
    conn: Connection,
    queue_id: str,
    drain_to: str | None,
    configs: Mapping[str, QueueConfig],
    actor: str | None,
    now: float,
) -> Drain | None:
    """Move the removed queue's open items to ``drain_to``; refuse when there is none."""
    found = _open_items(conn, queue_id)
    if not found:
        return None
    if drain_to is None:
        leased = sum(1 for r in found if r.state == "leased")
        raise ApiError(
            409,
            "queue_has_open_items",
            f"Queue {queue_id!r} still has {len(found) - leased} pending and {leased} leased "
            "items; nothing was applied. Move them with --drain-to OTHER (a queue of the "
            "file), or let them be decided first.",
        )
    stored = conn.execute(select(queues.c.config).where(queues.c.id == queue_id)).scalar()
    was_appeals = stored is not None and QueueConfig.model_validate_json(stored).appeals
    if configs[drain_to].appeals != was_appeals:
        # an appeal drained into an ordinary queue would be decided as a post (its appeal
        # open for good), a post drained into the appeals queue could not be decided at all
        raise ApiError(
            409,
            "drain_target_mismatch",
            f"Queue {queue_id!r} holds {'appeals' if was_appeals else 'posts'}, and "
            f"{drain_to!r} {'does not take appeals' if was_appeals else 'takes only appeals'}; "
            "nothing was applied. Drain it into a queue of its own kind.",
        )
    weights = configs[drain_to].priority
    moves = [
        {"b_id": r.id, "b_priority": item_priority(weights, r.payload, r.enqueued_at)}
        for r in found
    ]
    for batch in chunks(moves, ROW_CHUNK):
        conn.execute(_MOVE, [{**m, "b_queue": drain_to} for m in batch])
    if was_appeals:
        _move_appeals(conn, found, drain_to)
    moved = partial(event_row, now, EventKind.moved, actor, queue_id=drain_to, from_queue=queue_id)
    append_events(conn, [moved(item_id=r.id, state=r.state) for r in found])
    leased = sum(1 for r in found if r.state == "leased")
    return Drain(queue_id, drain_to, len(found) - leased, leased)


def _move_appeals(conn: Connection, found: Sequence[Any], drain_to: str) -> None:
    """Appeals move with their items, and so do the leases held on them: an appeal is
    decided under a lease of the queue it waits in (verdicts.py)."""
    for batch in chunks([r.id for r in found], ROW_CHUNK):
        conn.execute(
            update(appeals)
            .where(appeals.c.item_id.in_(batch), appeals.c.outcome.is_(None))
            .values(queue_id=drain_to)
        )
    for batch in chunks([r.lease_token for r in found if r.lease_token], ROW_CHUNK):
        conn.execute(update(leases).where(leases.c.token.in_(batch)).values(queue_id=drain_to))


_MOVE = (
    update(items)
    .where(items.c.id == bindparam("b_id"))
    .values(queue_id=bindparam("b_queue"), priority=bindparam("b_priority"))
)
_REORDER = (
    update(items).where(items.c.id == bindparam("b_id")).values(priority=bindparam("b_priority"))
)


def _reprioritise(conn: Connection, queue_id: str, weights: PriorityWeights) -> int:
    """The queue's pending items ordered by its new weights; how many."""
    found = [r for r in _open_items(conn, queue_id) if r.state == "pending"]
    for batch in chunks(found, ROW_CHUNK):
        conn.execute(
            _REORDER,
            [
                {"b_id": r.id, "b_priority": item_priority(weights, r.payload, r.enqueued_at)}
                for r in batch
            ],
        )
    return len(found)


def item_priority(weights: PriorityWeights, payload: str, enqueued_at: float) -> float:
    """An item's priority under ``weights``, from its stored payload (the figures intake and
    the seed put there: classifier scores, reports, reach)."""
    document = json.loads(payload)
    top_score = max((float(s["score"]) for s in document.get("scores") or ()), default=0.0)
    reports = int((document.get("reports") or {}).get("total", 0))
    views = int((document.get("reach") or {}).get("views", 0))
    return priority_value(weights, top_score, reports, views, enqueued_at)


def configs_of(queue_file: QueueFile | None) -> dict[str, QueueConfig]:
    return {q.id: q.config for q in queue_file.queues} if queue_file else {}
