"""Conversions between database rows and wire models, and the event-log writer."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import Connection

from reviewer_app.protocol import (
    EXCERPT_CHARS,
    KEY_ROLES,
    AuditOutcome,
    Decision,
    DecisionKind,
    Event,
    EventKind,
    Role,
    User,
)
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage import eventlog


@dataclass(frozen=True)
class Principal:
    """The user a request acts for."""

    id: int
    username: str
    display_name: str
    role: Role

    def as_user(self) -> User:
        return User(
            id=self.id, username=self.username, display_name=self.display_name, role=self.role
        )

    @property
    def is_lead(self) -> bool:
        return self.role in (Role.lead, Role.admin)

    @property
    def is_service_account(self) -> bool:
        """A platform or fact-checker account (API keys), not a person."""
        return self.role in KEY_ROLES


def to_dt(epoch: float) -> datetime:
    return datetime.fromtimestamp(epoch, tz=UTC)


def iso(epoch: float) -> str:
    """An epoch as the wire writes times (RFC 3339, UTC, ``Z``)."""
    return datetime.fromtimestamp(epoch, tz=UTC).isoformat().replace("+00:00", "Z")


def to_epoch(value: datetime) -> float:
    return value.timestamp()


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def excerpt(payload: str | Mapping[str, Any]) -> str:
    """An item's post text for a row of a list: white space made single spaces, cut to
    ``EXCERPT_CHARS`` characters with an ellipsis after a cut (the wire's ``Excerpt``)."""
    document = orjson.loads(payload) if isinstance(payload, str) else payload
    text = " ".join(str((document.get("post") or {}).get("text") or "").split())
    return text if len(text) <= EXCERPT_CHARS else text[:EXCERPT_CHARS] + "…"


def event_row(
    at: float,
    kind: EventKind,
    actor: str | None,
    *,
    item_id: str | None = None,
    queue_id: str | None = None,
    **data: Any,
) -> dict[str, Any]:
    return {
        "at": at,
        "kind": kind.value,
        "actor": actor,
        "item_id": item_id,
        "queue_id": queue_id,
        "data": dumps(data),
    }


def append_events(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Append to the event log (the database refuses updates and deletes of it): inserted
    only, with no shared row locked; the sequencer seals them into the hash chain after
    this transaction commits (see eventlog.py)."""
    eventlog.append(conn, rows)


def event_document(row: Mapping[Any, Any], not_before: float | None = None) -> dict[str, Any]:
    """An event row as the wire carries it: a sealed entry at its log time (monotonic in
    seq order), an unsealed one (no seq or hash yet) at its own time, raised to
    ``not_before`` (the entry shown before it) when that is later."""
    logged_at = row["logged_at"]
    at = logged_at if logged_at is not None else max(row["at"], not_before or row["at"])
    return {
        "id": row["id"],
        "at": iso(at),
        "kind": row["kind"],
        "actor": row["actor"],
        "item_id": row["item_id"],
        "queue_id": row["queue_id"],
        "data": json.loads(row["data"]),
        "hash": row["hash"],
        "seq": row["seq"],
    }


def event_documents(rows: Iterable[Mapping[Any, Any]]) -> list[dict[str, Any]]:
    """Events in log order (sealed ones by seq, then unsealed ones), times never going back."""
    found: list[dict[str, Any]] = []
    shown: float | None = None
    for row in rows:
        found.append(event_document(row, shown))
        shown = max(shown or 0.0, row["logged_at"] if row["logged_at"] is not None else row["at"])
    return found


def event_from_row(row: Mapping[Any, Any]) -> Event:
    return Event.model_validate(event_document(row))


def decision_from_row(
    row: Mapping[Any, Any], reviewer: str, audit_result: str | None = None
) -> Decision:
    return Decision(
        id=row["id"],
        item_id=row["item_id"],
        queue_id=row["queue_id"],
        reviewer=reviewer,
        action=row["action"],
        policies=json.loads(row["policies"]),
        rating=row["rating"],
        note=row["note"],
        author_action=row["author_action"],
        time_spent_ms=row["time_spent_ms"],
        decided_at=to_dt(row["decided_at"]),
        client_decided_at=to_dt(row["client_decided_at"]),
        kind=DecisionKind(row["kind"]),
        overturns_decision_id=row["overturns_id"],
        appeal_of_decision_id=row.get("appeal_of"),
        config_version=row["config_version"],
        audit_result=AuditOutcome(audit_result) if audit_result else None,
        escalation_reason=row.get("escalation_reason"),
    )


class _Cursor(BaseModel):
    v: int
    after: int = Field(ge=0, le=2**31 - 1)


def encode_cursor(after: int) -> str:
    raw = json.dumps({"v": 1, "after": after}, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str | None) -> int | None:
    """The id to page after, or None for the first page; a bad cursor is a 400."""
    if cursor is None:
        return None
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        parsed = _Cursor.model_validate_json(raw)
    except (ValueError, ValidationError) as exc:
        raise ApiError(400, "invalid_cursor", "The cursor is not one this service issued.") from exc
    if parsed.v != 1 or parsed.after < 0:
        raise ApiError(400, "invalid_cursor", "The cursor is not one this service issued.")
    return parsed.after


def chunks(values: Iterable[Any], size: int) -> Iterable[list[Any]]:
    batch: list[Any] = []
    for value in values:
        batch.append(value)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch
