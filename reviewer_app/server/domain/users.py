"""Users and their sessions: accounts made and listed, roles changed, logins (with the
failed-login lock) and the callers tokens and API keys stand for."""

from __future__ import annotations

import logging
from typing import Any

from argon2 import PasswordHasher
from sqlalchemy import Connection, bindparam, insert, select, update
from sqlalchemy.exc import IntegrityError, OperationalError

from reviewer_app.protocol import (
    KEY_ROLES,
    EventKind,
    QueueConfig,
    Role,
    SessionCreate,
    SessionInfo,
    User,
    UserCreate,
    UserList,
)
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import access, apikeys, escalations
from reviewer_app.server.domain.leasing import release
from reviewer_app.server.domain.records import Principal, append_events, event_row, to_dt
from reviewer_app.server.domain.security import (
    is_api_key,
    lock_seconds,
    new_token,
    token_hash,
    verify_password,
)
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.tables import (
    api_keys,
    items,
    login_attempts,
    queues,
    sessions,
    users,
)

log = logging.getLogger("server")

# Built once: every request runs it (see assembly.py on why).
_TOKEN_USER = (
    select(users.c.id, users.c.username, users.c.display_name, users.c.role)
    .join(sessions, sessions.c.user_id == users.c.id)
    .where(
        sessions.c.token_hash == bindparam("hash"),
        sessions.c.revoked_at.is_(None),
        sessions.c.expires_at > bindparam("now"),
    )
)
# The same for an API key: revoked keys are refused at once, in every process (no cache).
_KEY_USER = (
    select(
        users.c.id,
        users.c.username,
        users.c.display_name,
        users.c.role,
        api_keys.c.id.label("key_id"),
        api_keys.c.last_used_at,
    )
    .join(api_keys, api_keys.c.user_id == users.c.id)
    .where(api_keys.c.key_hash == bindparam("hash"), api_keys.c.revoked_at.is_(None))
)


def create(
    db: Database,
    hasher: PasswordHasher,
    new: UserCreate,
    now: float,
    actor: Principal | None = None,
) -> User:
    if new.role in KEY_ROLES:
        raise ApiError(
            422,
            "service_account_password",
            f"A {new.role.value} account has no password: it calls with API keys. "
            f"Make one with `reviewer-app server api-key create --role {new.role.value} "
            "--name NAME` (or POST /admin/api-keys).",
        )
    password_hash = hasher.hash(new.password)
    try:
        with db.write() as conn:
            user_id = conn.execute(
                insert(users)
                .values(
                    username=new.username,
                    display_name=new.display_name or new.username,
                    password_hash=password_hash,
                    role=new.role.value,
                    created_at=now,
                )
                .returning(users.c.id)
            ).scalar_one()
            append_events(
                conn,
                [
                    event_row(
                        now,
                        EventKind.user_created,
                        actor.username if actor else None,
                        username=new.username,
                        role=new.role.value,
                    )
                ],
            )
    except IntegrityError as exc:
        raise ApiError(409, "user_exists", f"User {new.username!r} already exists.") from exc
    return User(
        id=user_id,
        username=new.username,
        display_name=new.display_name or new.username,
        role=new.role,
    )


def listing(db: Database) -> UserList:
    with db.read() as conn:
        rows = conn.execute(select(users).order_by(users.c.id)).mappings().all()
    return UserList(
        users=[
            User(
                id=r["id"],
                username=r["username"],
                display_name=r["display_name"],
                role=Role(r["role"]),
                access_ended=r["password_hash"] == access.NO_PASSWORD,
            )
            for r in rows
        ]
    )


def change_role(conn: Connection, username: str, role: Role, actor: Principal, now: float) -> User:
    row: Any = conn.execute(select(users).where(users.c.username == username)).mappings().first()
    if row is None:
        raise ApiError(404, "unknown_user", f"No user {username!r}.")
    if (Role(row["role"]) in KEY_ROLES) != (role in KEY_ROLES) or (
        role in KEY_ROLES and row["role"] != role.value
    ):
        raise ApiError(
            422,
            "role_change_refused",
            f"{username!r} is a {row['role']} account; people and service accounts "
            "(platform, fact_checker) do not change into each other: a service "
            "account has API keys and no password, a person the other way round.",
        )
    if row["role"] == Role.admin.value and role is not Role.admin:
        access.keep_an_admin(conn, row["id"], username)
    conn.execute(update(users).where(users.c.id == row["id"]).values(role=role.value))
    after = Principal(row["id"], username, row["display_name"], role)
    if not after.is_lead:  # what a lead held or was assigned there goes back at once
        _release_lead_only_leases(conn, after, now)
        escalations.unassign_from(conn, actor.username, username, row["id"], now)
    append_events(
        conn,
        [
            event_row(
                now,
                EventKind.role_changed,
                actor.username,
                username=username,
                old_role=row["role"],
                new_role=role.value,
            )
        ],
    )
    return User(
        id=row["id"],
        username=username,
        display_name=row["display_name"],
        role=role,
        access_ended=row["password_hash"] == access.NO_PASSWORD,
    )


def _release_lead_only_leases(conn: Connection, user: Principal, now: float) -> None:
    """A lead made a reviewer gives back the items held in leads-only queues: no renewal
    or verdict of theirs counts there any more (each would be refused as a lost lease)."""
    lead_only = [
        r.id
        for r in conn.execute(select(queues.c.id, queues.c.config))
        if QueueConfig.model_validate_json(r.config).lead_only
    ]
    if not lead_only:
        return
    tokens = conn.execute(
        select(items.c.lease_token).where(
            items.c.lease_user_id == user.id,
            items.c.state == "leased",
            items.c.queue_id.in_(lead_only),
        )
    ).scalars()
    held = [t for t in tokens if t]
    if held:
        release(conn, user, held, now, postgres=conn.dialect.name == "postgresql")


def login(
    db: Database,
    hasher: PasswordHasher,
    settings: ServerSettings,
    request: SessionCreate,
    now: float,
) -> SessionInfo:
    s = settings
    with db.read() as conn:
        attempt = (
            conn.execute(
                select(login_attempts).where(login_attempts.c.username == request.username)
            )
            .mappings()
            .first()
        )
        row = (
            conn.execute(select(users).where(users.c.username == request.username))
            .mappings()
            .first()
        )
    if attempt and attempt["locked_until"] and attempt["locked_until"] > now:
        wait = int(attempt["locked_until"] - now) + 1
        raise ApiError(
            429,
            "login_locked",
            f"Too many failed logins for this name; try again in {wait} s.",
            headers={"Retry-After": str(wait)},
        )
    if not verify_password(hasher, row["password_hash"] if row else None, request.password):
        failures = _count_failed_login(db, settings, request.username, now)
        log.info("failed login for a user name (%d in a row)", failures)
        raise ApiError(401, "bad_credentials", "Wrong user name or password.")
    assert row is not None
    token = new_token()
    expires = now + s.token_ttl_seconds
    with db.write() as conn:
        conn.execute(
            insert(sessions).values(
                token_hash=token_hash(token), user_id=row["id"], created_at=now, expires_at=expires
            )
        )
        if attempt:
            conn.execute(
                update(login_attempts)
                .where(login_attempts.c.username == request.username)
                .values(failures=0, locked_until=None)
            )
    user = User(
        id=row["id"],
        username=row["username"],
        display_name=row["display_name"],
        role=Role(row["role"]),
    )
    return SessionInfo(token=token, expires_at=to_dt(expires), user=user)


def _count_failed_login(db: Database, settings: ServerSettings, username: str, now: float) -> int:
    """One more failed login for the name, counted in the database (so parallel guesses
    are all counted); locks the name once there are too many."""
    s = settings
    for _ in range(3):
        try:
            with db.write() as conn:
                failures = conn.execute(
                    update(login_attempts)
                    .where(login_attempts.c.username == username)
                    .values(failures=login_attempts.c.failures + 1)
                    .returning(login_attempts.c.failures)
                ).scalar()
                if failures is None:
                    conn.execute(insert(login_attempts).values(username=username, failures=1))
                    failures = 1
                lock = lock_seconds(failures, s.login_max_failures, s.login_lock_seconds)
                if lock:
                    conn.execute(
                        update(login_attempts)
                        .where(login_attempts.c.username == username)
                        .values(locked_until=now + lock)
                    )
                return int(failures)
        except IntegrityError:
            continue  # a parallel first failure made the row: count on it
    raise ApiError(503, "unavailable", "Could not record the failed login; try again.")


def authenticate(db: Database, token: str, now: float) -> Principal | None:
    """The caller a login token or an API key (``rdk_...``) stands for, if live."""
    if is_api_key(token):
        return _authenticate_key(db, token, now)
    with db.read() as conn:
        row = conn.execute(_TOKEN_USER, {"hash": token_hash(token), "now": now}).first()
    if row is None:
        return None
    return Principal(row.id, row.username, row.display_name, Role(row.role))


def _authenticate_key(db: Database, key: str, now: float) -> Principal | None:
    with db.read() as conn:
        row = conn.execute(_KEY_USER, {"hash": token_hash(key)}).first()
    if row is None:
        return None
    if apikeys.is_stale(row.last_used_at, now):
        # At most once a minute per key (the update is conditional, so processes racing
        # here write it once); a failure costs the figure, never the request.
        try:
            with db.write() as conn:
                apikeys.note_used(conn, row.key_id, now)
        except OperationalError as exc:
            log.info("last use of API key %d not recorded: %s", row.key_id, type(exc).__name__)
    return Principal(row.id, row.username, row.display_name, Role(row.role))


def logout(db: Database, token: str, now: float) -> None:
    with db.write() as conn:
        conn.execute(
            update(sessions)
            .where(sessions.c.token_hash == token_hash(token))
            .values(revoked_at=now)
        )


def principal(conn: Connection, username: str) -> Principal | None:
    """The user ``username`` as a caller, if there is one."""
    row = conn.execute(
        select(users.c.id, users.c.username, users.c.display_name, users.c.role).where(
            users.c.username == username
        )
    ).first()
    return (
        None if row is None else Principal(row.id, row.username, row.display_name, Role(row.role))
    )


def leased_tokens(conn: Connection, user_id: int) -> list[str]:
    """The lease tokens of every item leased to the user."""
    return [
        t
        for (t,) in conn.execute(
            select(items.c.lease_token).where(
                items.c.lease_user_id == user_id, items.c.state == "leased"
            )
        )
    ]


def user_id(conn: Connection, username: str) -> int:
    """The user's id (404 for an unknown user)."""
    found = conn.execute(select(users.c.id).where(users.c.username == username)).scalar()
    if found is None:
        raise ApiError(404, "unknown_user", f"No user {username!r}.")
    return int(found)
