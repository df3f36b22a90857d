"""An admin's hold on who may log in: a person's password set anew, and a person's access
ended. Either ends every session of theirs at once (a leaked password or a stolen token
stops working); ending access also leaves no password that opens the account (as a
service account's), gives back every item they held and every escalation assigned to
them. Setting a password again gives access back. Both are in the event log
(``password_set``, ``access_ended``), by who did them, never with the password."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from sqlalchemy import Connection, delete, select, update

from reviewer_app.protocol import KEY_ROLES, EventKind, Role
from reviewer_app.server.domain import escalations
from reviewer_app.server.domain.leasing import release
from reviewer_app.server.domain.records import Principal, append_events, event_row
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import items, login_attempts, sessions, users

#: no argon2id hash: no password matches it (a service account's is the same)
NO_PASSWORD = "!"  # noqa: S105 - the mark of no password, not a password


def _person(conn: Connection, username: str) -> Mapping[Any, Any]:
    query = select(users).where(users.c.username == username)
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    row = conn.execute(query).mappings().first()
    if row is None:
        raise ApiError(404, "unknown_user", f"No user {username!r}.")
    if Role(row["role"]) in KEY_ROLES:
        raise ApiError(
            422,
            "service_account",
            f"{username!r} is a {row['role']} account: it has API keys, not a password "
            "(revoke its keys to end its access).",
        )
    return row


def access_ended(row: Mapping[Any, Any]) -> bool:
    """Whether the person of this ``users`` row has had their access ended (no password
    set since): no password opens the account, no session of theirs is live."""
    return bool(row["password_hash"] == NO_PASSWORD)


def keep_an_admin(conn: Connection, user_id: int, username: str) -> None:
    """Refuse (409 ``last_admin``) what would leave no admin who can log in: the person
    ``user_id`` stopping being one (a new role, access ended) while no other admin has a
    password. On PostgreSQL every admin's row is locked, in one order, so two admins
    demoting each other at once cannot both pass."""
    query = (
        select(users.c.id, users.c.password_hash)
        .where(users.c.role == Role.admin.value)
        .order_by(users.c.id)
    )
    if conn.dialect.name == "postgresql":
        query = query.with_for_update()
    admins = conn.execute(query).all()
    if not any(r.id != user_id and r.password_hash != NO_PASSWORD for r in admins):
        raise ApiError(
            409,
            "last_admin",
            f"{username!r} is the only admin who can log in: make another admin first "
            "(or give one back their access with a new password; with none, nobody "
            "could manage users).",
        )


def _end_sessions(conn: Connection, user_id: int, now: float) -> int:
    return int(
        conn.execute(
            update(sessions)
            .where(sessions.c.user_id == user_id, sessions.c.revoked_at.is_(None))
            .values(revoked_at=now)
        ).rowcount
    )


def set_password(
    conn: Connection, actor: str | None, username: str, password_hash: str, now: float
) -> int:
    """The person's password is the one ``password_hash`` is of (hashed beforehand, off
    the transaction); every session of theirs ends and a login lock is lifted. How many
    sessions ended."""
    row = _person(conn, username)
    conn.execute(update(users).where(users.c.id == row["id"]).values(password_hash=password_hash))
    conn.execute(delete(login_attempts).where(login_attempts.c.username == username))
    ended = _end_sessions(conn, row["id"], now)
    append_events(
        conn,
        [event_row(now, EventKind.password_set, actor, username=username, sessions_ended=ended)],
    )
    return ended


def end_access(conn: Connection, actor: str | None, username: str, now: float) -> int:
    """No password opens the person's account any more, every session of theirs ends, and
    what they held (leases, assigned escalations) goes back. The service's last admin
    with access keeps it (409 ``last_admin``). How many sessions ended. Access already
    ended (``access_ended`` below): no ``access_ended`` again, only an escalation
    assigned to them since goes back; 0."""
    row = _person(conn, username)
    if access_ended(row):
        escalations.unassign_from(conn, actor, username, row["id"], now)
        return 0
    if row["role"] == Role.admin.value:
        keep_an_admin(conn, row["id"], username)
    conn.execute(update(users).where(users.c.id == row["id"]).values(password_hash=NO_PASSWORD))
    ended = _end_sessions(conn, row["id"], now)
    person = Principal(row["id"], username, row["display_name"], Role(row["role"]))
    held = conn.execute(
        select(items.c.lease_token).where(
            items.c.lease_user_id == row["id"], items.c.state == "leased"
        )
    ).scalars()
    tokens = [t for t in held if t]
    if tokens:
        release(conn, person, tokens, now, postgres=conn.dialect.name == "postgresql")
    escalations.unassign_from(conn, actor, username, row["id"], now)
    append_events(
        conn,
        [
            event_row(
                now,
                EventKind.access_ended,
                actor,
                username=username,
                sessions_ended=ended,
                leases_released=len(tokens),
            )
        ],
    )
    return ended
