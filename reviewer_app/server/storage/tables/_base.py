"""What every part of the schema shares: the metadata and the partial indexes' rules."""

from __future__ import annotations

from sqlalchemy import (
    Index,
    MetaData,
    text,
)

metadata = MetaData()


def _leased_only(name: str, *columns: str, column: str) -> Index:
    """An index of the rows whose ``column`` is not NULL (on SQLite and PostgreSQL)."""
    where = text(f"{column} IS NOT NULL")
    return Index(name, *columns, sqlite_where=where, postgresql_where=where)


_UNSEALED = text("seq IS NULL")
_OPEN_POST_ITEM = text("post_id IS NOT NULL AND state IN ('pending', 'leased')")
_OPEN_ITEM = text("state IN ('pending', 'leased')")
