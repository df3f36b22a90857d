"""Saved views: a lead's named search or decisions filter, private or shared with the team."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter
from sqlalchemy import ColumnElement, Connection, Row, delete, func, insert, or_, select

from reviewer_app.protocol import MAX_VIEWS, SavedView, SavedViewCreate, SavedViewList
from reviewer_app.protocol.search import SavedViewQuery
from reviewer_app.server.domain.records import Principal, iso
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import saved_views, users

_QUERY: TypeAdapter[SavedViewQuery] = TypeAdapter(SavedViewQuery)


def _visible(user: Principal) -> ColumnElement[bool]:
    return or_(saved_views.c.user_id == user.id, saved_views.c.shared.is_(True))


def listing(conn: Connection, user: Principal) -> SavedViewList:
    """The caller's views and those other leads shared, by name (then id)."""
    rows = conn.execute(
        select(saved_views, users.c.username)
        .join(users, users.c.id == saved_views.c.user_id)
        .where(_visible(user))
        .order_by(saved_views.c.name, saved_views.c.id)
    ).all()
    return SavedViewList(views=[_view(r) for r in rows])


def _view(r: Row[Any]) -> SavedView:
    return SavedView(
        id=r.id,
        name=r.name,
        owner=r.username,
        shared=bool(r.shared),
        created_at=iso(r.created_at),
        view=_QUERY.validate_json(r.query),
    )


def create(conn: Connection, user: Principal, body: SavedViewCreate, now: float) -> SavedView:
    """Save a view under a name the caller has not used yet (409 ``view_name_taken``)."""
    name = body.name.strip()
    mine = conn.execute(
        select(func.count()).select_from(saved_views).where(saved_views.c.user_id == user.id)
    ).scalar_one()
    if mine >= MAX_VIEWS:
        raise ApiError(409, "too_many_views", f"A lead keeps at most {MAX_VIEWS} saved views.")
    taken = conn.execute(
        select(saved_views.c.id).where(saved_views.c.user_id == user.id, saved_views.c.name == name)
    ).first()
    if taken is not None:
        raise ApiError(409, "view_name_taken", "You already have a view of that name.")
    new_id = conn.execute(
        insert(saved_views)
        .values(
            user_id=user.id,
            name=name,
            kind=body.view.kind,
            query=body.view.model_dump_json(exclude_none=True),
            shared=body.shared,
            created_at=now,
        )
        .returning(saved_views.c.id)
    ).scalar_one()
    return SavedView(
        id=new_id,
        name=name,
        owner=user.username,
        shared=body.shared,
        created_at=iso(now),
        view=body.view,
    )


def remove(conn: Connection, user: Principal, view_id: int) -> None:
    """Delete one of the caller's views (an admin may delete any). 404 for a view the
    caller cannot see; 403 for another lead's shared view."""
    row = conn.execute(
        select(saved_views.c.user_id).where(saved_views.c.id == view_id, _visible(user))
    ).first()
    if row is None:
        raise ApiError(404, "not_found", "No such view.")
    if row.user_id != user.id and user.role.value != "admin":
        raise ApiError(403, "not_your_view", "Only the lead who saved a view may delete it.")
    conn.execute(delete(saved_views).where(saved_views.c.id == view_id))


__all__ = ["create", "listing", "remove"]
