"""Webhook endpoints: adding, listing, disabling, enabling, rotating secrets, replaying.

An endpoint belongs to a platform account (a ``users`` row of role ``platform``): it
receives that account's enforcement actions (``enforcement_actions.source`` is the
account's username), all kinds or the kinds it names. Each has its own signing secret,
``whsec_`` and the base64 of 32 random bytes (Standard Webhooks' symmetric scheme), which
is shown once, when it is made (``add``, ``rotate_secret``), and kept in the database, since
the dispatcher needs it to sign. It is never logged and never in the event log: events name
the endpoint by id, URL and account.

Rotation: the new secret signs every message from then on, and the previous one too (two
signatures in ``webhook-signature``, space-separated) until the grace period ends or the
operator finishes the rotation, so a receiver can switch secrets without losing a message.

Every operator change raises the delivery state's ``version``: a dispatcher that read the
state before the change cannot write its cursor over it (see webhooks.py), and stops to read
the endpoint again; so a rotation reaches a run of messages already going out within
moments (the dispatcher writes its cursor, or renews its lease, every fraction of a second
while it sends), and the end of a grace period at once (the secrets are chosen per message,
at its time).
"""

from __future__ import annotations

import base64
import json
import secrets
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy import Connection, and_, func, insert, select, update

from reviewer_app.protocol import EventKind, Role
from reviewer_app.protocol.enforcement import EnforcementKind
from reviewer_app.protocol.webhooks import WebhookEndpoint, WebhookList, WebhookStatus
from reviewer_app.server.domain.records import append_events, event_row, iso, to_dt
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import (
    enforcement_actions,
    users,
    webhook_endpoints,
    webhook_state,
)

SECRET_PREFIX = "whsec_"  # noqa: S105 (the format's prefix, not a secret)
SECRET_BYTES = 32
MAX_URL = 2_048

_ENDPOINT_COLUMNS = [
    webhook_endpoints.c.id,
    webhook_endpoints.c.url,
    webhook_endpoints.c.source,
    webhook_endpoints.c.event_kinds,
    webhook_endpoints.c.status,
    webhook_endpoints.c.disabled_reason,
    webhook_endpoints.c.created_at,
    webhook_endpoints.c.previous_secret_until,
    webhook_state.c.delivered_seq,
    webhook_state.c.delivered_total,
    webhook_state.c.consecutive_failures,
    webhook_state.c.attempts,
    webhook_state.c.last_success_at,
    webhook_state.c.last_attempt_at,
    webhook_state.c.last_error,
    webhook_state.c.next_attempt_at,
]
"""What a listing shows: everything but the secrets."""


def new_secret() -> str:
    """A signing secret: ``whsec_`` and the base64 of 32 random bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def secret_key(secret: str) -> bytes:
    """The HMAC key a ``whsec_`` secret stands for."""
    return base64.b64decode(secret.removeprefix(SECRET_PREFIX))


def check_url(url: str) -> str:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - a port past 65535 or not a number raises ValueError
    except ValueError:  # "http://[::1" and the like
        parts = None
    if parts is not None and "@" in parts.netloc:
        # not echoed: the refusal is printed, and the password is what must not be
        raise ApiError(
            422,
            "invalid_webhook_url",
            "A webhook URL may not hold a user name or password (user:password@host): it "
            "would be shown in listings and kept for good in the event log. The receiver "
            "can trust a message by its signature (webhook-signature) instead.",
        )
    if (
        parts is None
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or len(url) > MAX_URL
        or any(c.isspace() or unicodedata.category(c) == "Cc" for c in url)
    ):
        raise ApiError(
            422,
            "invalid_webhook_url",
            f"{url!r} is not an http(s) URL of at most {MAX_URL} characters.",
        )
    return url


def shown_url(url: str) -> str:
    """``url`` as a log line shows it: no query string (a token is often put there), no
    fragment, no user info."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url.split("?", 1)[0].split("#", 1)[0]
    netloc = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def check_kinds(kinds: Iterable[str] | None) -> list[str] | None:
    """The kinds an endpoint takes, checked and sorted; None for every kind."""
    if kinds is None:
        return None
    found: set[str] = set()
    for kind in kinds:
        try:
            found.add(EnforcementKind(kind.strip()).value)
        except ValueError as exc:
            known = ", ".join(k.value for k in EnforcementKind)
            raise ApiError(
                422, "invalid_event_kind", f"{kind!r} is not an action kind ({known})."
            ) from exc
    if not found:
        raise ApiError(422, "invalid_event_kind", "Name at least one action kind, or leave it out.")
    return sorted(found)


def kinds_of(stored: str | None) -> list[str] | None:
    return list(json.loads(stored)) if stored else None


def backlog_query(source: str, after: int, kinds: Sequence[str] | None) -> Any:
    """A select of the actions of ``source`` after seq ``after`` (of ``kinds``), sealed
    ones only (an unsealed action has no seq yet)."""
    ea = enforcement_actions
    where = [ea.c.source == source, ea.c.seq > after]
    if kinds:
        where.append(ea.c.kind.in_(kinds))
    return and_(*where)


def backlog(conn: Connection, source: str, after: int, kinds: Sequence[str] | None) -> int:
    """Actions of ``source`` (of ``kinds``) sealed after seq ``after``: not yet acknowledged."""
    return int(
        conn.execute(
            select(func.count())
            .select_from(enforcement_actions)
            .where(backlog_query(source, after, kinds))
        ).scalar_one()
    )


def endpoint_document(row: Mapping[Any, Any], backlog_count: int) -> WebhookEndpoint:
    """An endpoint row (joined with its state) as leads see it: no secret."""
    status = WebhookStatus(row["status"])
    retrying = row["attempts"] > 0 and status is not WebhookStatus.disabled
    return WebhookEndpoint(
        id=row["id"],
        url=row["url"],
        account=row["source"],
        event_kinds=kinds_of(row["event_kinds"]),
        status=status,
        disabled_reason=row["disabled_reason"],
        created_at=to_dt(row["created_at"]),
        previous_secret_until=(
            to_dt(row["previous_secret_until"]) if row["previous_secret_until"] else None
        ),
        delivered_seq=row["delivered_seq"],
        backlog=backlog_count,
        delivered_total=row["delivered_total"],
        consecutive_failures=row["consecutive_failures"],
        attempts=row["attempts"],
        last_success_at=to_dt(row["last_success_at"]) if row["last_success_at"] else None,
        last_attempt_at=to_dt(row["last_attempt_at"]) if row["last_attempt_at"] else None,
        last_error=row["last_error"],
        next_attempt_at=to_dt(row["next_attempt_at"]) if retrying else None,
    )


def listing(conn: Connection, endpoint_id: int | None = None) -> WebhookList:
    query = select(*_ENDPOINT_COLUMNS).join(
        webhook_state, webhook_state.c.endpoint_id == webhook_endpoints.c.id
    )
    if endpoint_id is not None:
        query = query.where(webhook_endpoints.c.id == endpoint_id)
    rows = conn.execute(query.order_by(webhook_endpoints.c.id)).mappings().all()
    return WebhookList(
        endpoints=[
            endpoint_document(
                r, backlog(conn, r["source"], r["delivered_seq"], kinds_of(r["event_kinds"]))
            )
            for r in rows
        ]
    )


def one(conn: Connection, endpoint_id: int) -> WebhookEndpoint:
    found = listing(conn, endpoint_id).endpoints
    if not found:
        raise ApiError(404, "unknown_webhook", f"There is no webhook endpoint {endpoint_id}.")
    return found[0]


def add(
    conn: Connection,
    url: str,
    account: str,
    kinds: Iterable[str] | None,
    now: float,
    actor: str | None,
) -> tuple[WebhookEndpoint, str]:
    """A new endpoint of the platform account ``account``; its secret is in the answer
    and, outside the database, nowhere else. Its cursor starts at the newest action: it
    receives what is decided from now on (``replay`` sends older ones)."""
    url = check_url(url)
    wanted = check_kinds(kinds)
    role = conn.execute(select(users.c.role).where(users.c.username == account)).scalar()
    if role != Role.platform.value:
        raise ApiError(
            404 if role is None else 409,
            "not_a_platform_account",
            f"{account!r} is not a platform account (make one with "
            "`reviewer-app server api-key create --role platform --name KEY --account NAME`).",
        )
    secret = new_secret()
    endpoint_id = conn.execute(
        insert(webhook_endpoints)
        .values(
            url=url,
            source=account,
            event_kinds=json.dumps(wanted) if wanted is not None else None,
            secret=secret,
            status=WebhookStatus.active.value,
            created_at=now,
            created_by=actor,
        )
        .returning(webhook_endpoints.c.id)
    ).scalar_one()
    newest = conn.execute(
        select(func.max(enforcement_actions.c.seq)).where(enforcement_actions.c.source == account)
    ).scalar()
    conn.execute(
        insert(webhook_state).values(
            endpoint_id=endpoint_id, delivered_seq=newest or 0, next_attempt_at=now
        )
    )
    _log(
        conn,
        now,
        EventKind.webhook_added,
        actor,
        endpoint_id,
        url,
        account,
        kinds=wanted if wanted is not None else [],
        from_seq=newest or 0,
    )
    return one(conn, endpoint_id), secret


def disable(
    conn: Connection, endpoint_id: int, reason: str, now: float, actor: str | None
) -> WebhookEndpoint:
    row = _endpoint(conn, endpoint_id)
    if row.status != WebhookStatus.disabled.value:
        conn.execute(
            update(webhook_endpoints)
            .where(webhook_endpoints.c.id == endpoint_id)
            .values(status=WebhookStatus.disabled.value, disabled_reason=reason, disabled_at=now)
        )
        _bump(conn, endpoint_id)
        _log(
            conn,
            now,
            EventKind.webhook_disabled,
            actor,
            endpoint_id,
            row.url,
            row.source,
            reason=reason,
        )
    return one(conn, endpoint_id)


def enable(conn: Connection, endpoint_id: int, now: float, actor: str | None) -> WebhookEndpoint:
    """Deliveries resume at once, from the message that was being tried (if any) with a
    fresh retry window."""
    row = _endpoint(conn, endpoint_id)
    if row.status != WebhookStatus.active.value:
        conn.execute(
            update(webhook_endpoints)
            .where(webhook_endpoints.c.id == endpoint_id)
            .values(status=WebhookStatus.active.value, disabled_reason=None, disabled_at=None)
        )
        _bump(
            conn,
            endpoint_id,
            next_attempt_at=now,
            attempts=0,
            first_failure_at=None,
            consecutive_failures=0,
        )
        _log(conn, now, EventKind.webhook_enabled, actor, endpoint_id, row.url, row.source)
    return one(conn, endpoint_id)


def rotate_secret(
    conn: Connection,
    endpoint_id: int,
    now: float,
    actor: str | None,
    grace_seconds: float,
) -> tuple[WebhookEndpoint, str]:
    """A new secret; the current one keeps signing for ``grace_seconds`` (a rotation still
    running is cut short: its older secret stops signing)."""
    row = _endpoint(conn, endpoint_id)
    secret = new_secret()
    until = now + grace_seconds
    conn.execute(
        update(webhook_endpoints)
        .where(webhook_endpoints.c.id == endpoint_id)
        .values(
            secret=secret,
            previous_secret=row.secret if grace_seconds > 0 else None,
            previous_secret_until=until if grace_seconds > 0 else None,
        )
    )
    # a dispatcher sending a run of messages now stops at its next write and reads the
    # endpoint again: the new secret (and no other, with no grace) signs what it sends next
    _bump(conn, endpoint_id)
    _log(
        conn,
        now,
        EventKind.webhook_secret_rotated,
        actor,
        endpoint_id,
        row.url,
        row.source,
        previous_secret_until=iso(until if grace_seconds > 0 else now),
    )
    return one(conn, endpoint_id), secret


def finish_rotation(
    conn: Connection, endpoint_id: int, now: float, actor: str | None
) -> WebhookEndpoint:
    """The previous secret stops signing now."""
    row = _endpoint(conn, endpoint_id)
    if row.previous_secret is not None:
        conn.execute(
            update(webhook_endpoints)
            .where(webhook_endpoints.c.id == endpoint_id)
            .values(previous_secret=None, previous_secret_until=None)
        )
        _bump(conn, endpoint_id)  # a run going out now stops signing with it (as above)
        _log(
            conn,
            now,
            EventKind.webhook_secret_rotated,
            actor,
            endpoint_id,
            row.url,
            row.source,
            previous_secret_until=iso(now),
        )
    return one(conn, endpoint_id)


def replay(
    conn: Connection, endpoint_id: int, from_seq: int, now: float, actor: str | None
) -> WebhookEndpoint:
    """Move the endpoint's cursor back to ``from_seq``: every action of its account after
    that seq is sent again, in order. Never forward (409 ``cursor_ahead``): that skipped
    actions not yet sent without a word, and a cursor past the log's end skipped every
    action to come up to it."""
    row = _endpoint(conn, endpoint_id)
    if from_seq < 0:
        raise ApiError(422, "invalid_cursor", "A cursor is a seq, 0 or more.")
    before = conn.execute(
        select(webhook_state.c.delivered_seq).where(webhook_state.c.endpoint_id == endpoint_id)
    ).scalar_one()
    if from_seq > before:
        raise ApiError(
            409,
            "cursor_ahead",
            f"The endpoint has been sent its account's actions up to seq {before}; a replay "
            f"sends again from an earlier seq and never skips ahead to {from_seq} (actions "
            "not sent yet would be lost to the receiver).",
        )
    _bump(
        conn,
        endpoint_id,
        delivered_seq=from_seq,
        next_attempt_at=now,
        attempts=0,
        message_seq=None,
        first_failure_at=None,
    )
    _log(
        conn,
        now,
        EventKind.webhook_replayed,
        actor,
        endpoint_id,
        row.url,
        row.source,
        from_seq=from_seq,
        previous_seq=int(before),
    )
    return one(conn, endpoint_id)


def dispatcher_disable(
    conn: Connection, endpoint_id: int, version: int, owner: str, reason: str, now: float
) -> bool:
    """The dispatcher gives up on an endpoint (410 Gone; a message failing for the whole
    retry window), unless an operator changed it meanwhile. True when it did."""
    held = conn.execute(
        update(webhook_state)
        .where(
            webhook_state.c.endpoint_id == endpoint_id,
            webhook_state.c.version == version,
            webhook_state.c.lease_owner == owner,
        )
        .values(version=webhook_state.c.version + 1, lease_owner=None, lease_until=None)
    ).rowcount
    if not held:
        return False
    row = _endpoint(conn, endpoint_id)
    conn.execute(
        update(webhook_endpoints)
        .where(webhook_endpoints.c.id == endpoint_id)
        .values(status=WebhookStatus.disabled.value, disabled_reason=reason, disabled_at=now)
    )
    _log(
        conn,
        now,
        EventKind.webhook_disabled,
        None,
        endpoint_id,
        row.url,
        row.source,
        reason=reason,
    )
    return True


def signing_secrets(
    secret: str, previous: str | None, until: float | None, now: float
) -> list[str]:
    """The secrets that sign a message sent at ``now``: the current one, and the previous
    one while its rotation's grace period (ending at ``until``) runs."""
    found = [secret]
    if previous and until is not None and now < until:
        found.append(previous)
    return found


def _endpoint(conn: Connection, endpoint_id: int) -> Any:
    row = conn.execute(
        select(webhook_endpoints).where(webhook_endpoints.c.id == endpoint_id)
    ).first()
    if row is None:
        raise ApiError(404, "unknown_webhook", f"There is no webhook endpoint {endpoint_id}.")
    return row


def _bump(conn: Connection, endpoint_id: int, **values: Any) -> None:
    """Change the delivery state as an operator: raise its version, so a dispatcher that
    read it before cannot write over the change (its lease is left to run out or be
    released: it notices at its next write)."""
    conn.execute(
        update(webhook_state)
        .where(webhook_state.c.endpoint_id == endpoint_id)
        .values(version=webhook_state.c.version + 1, **values)
    )


def _log(
    conn: Connection,
    now: float,
    kind: EventKind,
    actor: str | None,
    endpoint_id: int,
    url: str,
    account: str,
    **data: Any,
) -> None:
    append_events(
        conn,
        [event_row(now, kind, actor, endpoint=endpoint_id, url=url, account=account, **data)],
    )
