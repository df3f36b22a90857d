"""Service accounts and their API keys.

A service account is a ``users`` row with role ``platform`` or ``fact_checker`` and an
unusable password hash: it never logs in with a password. It calls with API keys
(``rdk_`` and 256 random bits), of which the service keeps the SHA-256 only and the first
characters (``prefix``) to tell keys apart in a listing. An account may hold several live
keys at once: rotating a key is making a second one, moving the caller over, and revoking
the first. Revocation is a column the authentication query reads on every request, so it
takes effect at once in every process (nothing is cached).

The functions here run inside the caller's transaction (``Service`` opens it); the event
log gets ``api_key_created`` and ``api_key_revoked`` with the key's id, name, account and
prefix: never the key, never its hash.
"""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter, ValidationError
from sqlalchemy import Connection, and_, insert, or_, select, update

from reviewer_app.protocol import KEY_ROLES, ApiKeyCreated, ApiKeyInfo, EventKind, Role
from reviewer_app.protocol.common import Label, Username
from reviewer_app.protocol.statements import clean_text
from reviewer_app.server.domain.records import Principal, append_events, event_row, to_dt
from reviewer_app.server.domain.security import (
    API_KEY_SHOWN,
    UNUSABLE_PASSWORD,
    new_api_key,
    token_hash,
)
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import api_keys, users

#: ``last_used_at`` is written at most this often per key (it is a figure for people, not a
#: log: a write on every request would cost SQLite's one writer for nothing).
LAST_USED_RESOLUTION_SECONDS = 60.0

_USERNAME: TypeAdapter[str] = TypeAdapter(Username)
_LABEL: TypeAdapter[str] = TypeAdapter(Label)

_LISTED = select(
    api_keys.c.id,
    api_keys.c.name,
    api_keys.c.prefix,
    api_keys.c.created_at,
    api_keys.c.last_used_at,
    api_keys.c.revoked_at,
    users.c.username.label("account"),
    users.c.role,
).join(users, users.c.id == api_keys.c.user_id)


def check_key_role(role: Role) -> None:
    if role not in KEY_ROLES:
        allowed = ", ".join(r.value for r in KEY_ROLES)
        raise ApiError(
            422,
            "not_a_key_role",
            f"API keys are for service accounts ({allowed}); {role.value} users log in with "
            "a password.",
        )


def check_account_name(account: str) -> str:
    try:
        return _USERNAME.validate_python(account)
    except ValidationError as exc:
        raise ApiError(
            422,
            "invalid_account",
            f"{account!r} is not a valid account name (lower-case letters, digits, '.', '_' "
            "and '-', 2 to 64 characters); name the account with --account.",
        ) from exc


def check_key_name(name: str) -> str:
    try:
        return _LABEL.validate_python(name)
    except ValidationError as exc:
        raise ApiError(
            422, "invalid_key_name", "A key's name is 1 to 200 characters of text."
        ) from exc


def check_display_name(display_name: str) -> str:
    """An account's name as people read it: 1 to 200 characters, some of them visible."""
    try:
        named = _LABEL.validate_python(display_name)
    except ValidationError:
        named = ""
    if not clean_text(named):
        raise ApiError(
            422,
            "invalid_display_name",
            "A display name is 1 to 200 characters of text, not only spaces or invisible "
            "characters.",
        )
    return named


def service_account(
    conn: Connection, username: str, role: Role, now: float, actor: str | None
) -> Principal:
    """The service account ``username`` of ``role``, made (without a password) if missing.

    An existing user of another role is refused: a person never becomes a service account,
    nor a platform a fact-checker, by way of a key."""
    events: list[dict[str, Any]] = []
    found = _account(conn, username, role, now, actor, events)
    if events:
        append_events(conn, events)
    return found


def _account(
    conn: Connection,
    username: str,
    role: Role,
    now: float,
    actor: str | None,
    events: list[dict[str, Any]],
    display_name: str | None = None,
) -> Principal:
    """The service account ``username``, made if missing; ``display_name``: its name as
    people read it (a fact-checker's organisation, on every rating it sends from now on),
    set on a new account and on an existing one (the key's event names it)."""
    check_key_role(role)
    check_account_name(username)
    row = conn.execute(
        select(users.c.id, users.c.username, users.c.display_name, users.c.role).where(
            users.c.username == username
        )
    ).first()
    if row is not None:
        if row.role != role.value:
            raise ApiError(
                409,
                "account_role_differs",
                f"{username!r} exists as a {row.role} account, not {role.value}.",
            )
        if display_name is not None and display_name != row.display_name:
            conn.execute(
                update(users).where(users.c.id == row.id).values(display_name=display_name)
            )
            return Principal(row.id, row.username, display_name, role)
        return Principal(row.id, row.username, row.display_name, role)
    user_id = conn.execute(
        insert(users)
        .values(
            username=username,
            display_name=display_name or username,
            password_hash=UNUSABLE_PASSWORD,
            role=role.value,
            created_at=now,
        )
        .returning(users.c.id)
    ).scalar_one()
    events.append(
        event_row(
            now,
            EventKind.user_created,
            actor,
            username=username,
            role=role.value,
            service_account=True,
        )
    )
    return Principal(user_id, username, display_name or username, role)


def create(
    conn: Connection,
    role: Role,
    name: str,
    account: str | None,
    now: float,
    actor: str | None,
    display_name: str | None = None,
) -> ApiKeyCreated:
    """A new key named ``name`` for the service account ``account`` (``name`` when not
    given), the account made if missing (``display_name``: see ``_account``). The key is
    in the answer and nowhere else."""
    check_key_role(role)
    name = check_key_name(name)
    if display_name is not None:
        display_name = check_display_name(display_name)
    events: list[dict[str, Any]] = []
    owner = _account(conn, account or name, role, now, actor, events, display_name)
    return _add_key(conn, owner, name, now, actor, events)


def rotate(conn: Connection, name: str, now: float, actor: str | None) -> ApiKeyCreated:
    """A second live key for the account whose live key is named ``name`` (or, failing
    that, for the account named ``name``), with the same name; the old key stays live
    until it is revoked."""
    live = conn.execute(
        select(api_keys.c.name, users.c.id, users.c.username, users.c.display_name, users.c.role)
        .join(users, users.c.id == api_keys.c.user_id)
        .where(api_keys.c.revoked_at.is_(None), api_keys.c.name == name)
        .order_by(api_keys.c.id)
    ).all()
    if not live:
        live = conn.execute(
            select(
                api_keys.c.name, users.c.id, users.c.username, users.c.display_name, users.c.role
            )
            .join(users, users.c.id == api_keys.c.user_id)
            .where(api_keys.c.revoked_at.is_(None), users.c.username == name)
            .order_by(api_keys.c.id)
        ).all()
    if not live:
        raise ApiError(404, "unknown_api_key", f"No live API key or account named {name!r}.")
    accounts = sorted({r.username for r in live})
    if len(accounts) > 1:
        raise ApiError(
            409,
            "ambiguous_api_key",
            f"Live keys named {name!r} belong to several accounts ({', '.join(accounts)}); "
            "create the new key with --account instead.",
        )
    newest = live[-1]
    owner = Principal(newest.id, newest.username, newest.display_name, Role(newest.role))
    return _add_key(conn, owner, newest.name, now, actor, [])


def revoke(conn: Connection, key_id: int, now: float, actor: str | None) -> ApiKeyInfo:
    """Revoke the key (at once, for every process); revoking it again changes nothing."""
    revoked = conn.execute(
        update(api_keys)
        .where(api_keys.c.id == key_id, api_keys.c.revoked_at.is_(None))
        .values(revoked_at=now)
        .returning(api_keys.c.id)
    ).first()
    info = key_info(conn, key_id)
    if info is None:
        raise ApiError(404, "unknown_api_key", f"No API key {key_id}.")
    if revoked is not None:
        append_events(
            conn,
            [
                event_row(
                    now,
                    EventKind.api_key_revoked,
                    actor,
                    key_id=info.id,
                    name=info.name,
                    account=info.account,
                    role=info.role,
                    prefix=info.prefix,
                )
            ],
        )
    return info


def listing(conn: Connection, *, include_revoked: bool = True) -> list[ApiKeyInfo]:
    query = _LISTED.order_by(api_keys.c.id)
    if not include_revoked:
        query = query.where(api_keys.c.revoked_at.is_(None))
    return [_info(r) for r in conn.execute(query).mappings()]


def key_info(conn: Connection, key_id: int) -> ApiKeyInfo | None:
    row = conn.execute(_LISTED.where(api_keys.c.id == key_id)).mappings().first()
    return _info(row) if row is not None else None


def note_used(conn: Connection, key_id: int, now: float) -> None:
    """Set the key's ``last_used_at`` unless another request (in any process) did within
    the last minute: a conditional update, so racing processes write it once."""
    stale = now - LAST_USED_RESOLUTION_SECONDS
    conn.execute(
        update(api_keys)
        .where(
            and_(
                api_keys.c.id == key_id,
                or_(api_keys.c.last_used_at.is_(None), api_keys.c.last_used_at < stale),
            )
        )
        .values(last_used_at=now)
    )


def is_stale(last_used_at: float | None, now: float) -> bool:
    return last_used_at is None or last_used_at < now - LAST_USED_RESOLUTION_SECONDS


def _add_key(
    conn: Connection,
    owner: Principal,
    name: str,
    now: float,
    actor: str | None,
    events: list[dict[str, Any]],
) -> ApiKeyCreated:
    """Make the key and append ``events`` and its own to the event log (last: on PostgreSQL
    the log's head stays locked until commit)."""
    key = new_api_key()
    prefix = key[:API_KEY_SHOWN]
    key_id = conn.execute(
        insert(api_keys)
        .values(
            user_id=owner.id,
            name=name,
            key_hash=token_hash(key),
            prefix=prefix,
            created_at=now,
        )
        .returning(api_keys.c.id)
    ).scalar_one()
    events.append(
        event_row(
            now,
            EventKind.api_key_created,
            actor,
            key_id=key_id,
            name=name,
            account=owner.username,
            display_name=owner.display_name,
            role=owner.role.value,
            prefix=prefix,
        )
    )
    append_events(conn, events)
    info = ApiKeyInfo(
        id=key_id,
        name=name,
        account=owner.username,
        role=owner.role.value,
        prefix=prefix,
        created_at=to_dt(now),
    )
    return ApiKeyCreated(info=info, key=key)


def _info(row: Any) -> ApiKeyInfo:
    return ApiKeyInfo(
        id=row["id"],
        name=row["name"],
        account=row["account"],
        role=row["role"],
        prefix=row["prefix"],
        created_at=to_dt(row["created_at"]),
        last_used_at=to_dt(row["last_used_at"]) if row["last_used_at"] is not None else None,
        revoked_at=to_dt(row["revoked_at"]) if row["revoked_at"] is not None else None,
    )
