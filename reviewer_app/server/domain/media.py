"""Media bytes for the client: an item's own media, and intake uploads named by posts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, select

from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.tables import items, media, post_media


def of_item(conn: Connection, media_id: str) -> Any:
    """The media of an item (content, mime_type, queue_id, origin_queue_id), if it is one."""
    return conn.execute(
        select(media.c.content, media.c.mime_type, items.c.queue_id, items.c.origin_queue_id)
        .join(items, items.c.id == media.c.item_id)
        .where(media.c.id == media_id)
    ).first()


def upload(conn: Connection, media_id: str) -> tuple[Any, list[Any]]:
    """An intake upload (content, mime_type) and the queues of the items of posts that name
    it (queue_id, origin_queue_id); 404 for an upload no post names."""
    found = conn.execute(
        select(media.c.content, media.c.mime_type).where(
            media.c.id == media_id, media.c.item_id.is_(None)
        )
    ).first()
    seen_in = (
        conn.execute(
            select(items.c.queue_id, items.c.origin_queue_id)
            .join(post_media, post_media.c.post_id == items.c.post_id)
            .where(post_media.c.media_id == media_id)
        ).all()
        if found is not None
        else []
    )
    if found is None or not seen_in:
        raise ApiError(404, "unknown_media", f"No media {media_id!r}.")
    return found, list(seen_in)
