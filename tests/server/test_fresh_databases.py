"""The tests' fresh PostgreSQL databases: copies of one migrated once, or empty when marked."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, inspect

from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.migrations import HEAD

pytestmark = pytest.mark.postgres


def _tables(url: str) -> set[str]:
    engine = create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_a_fresh_database_is_at_the_newest_migration(pg_url: str) -> None:
    assert "items" in _tables(pg_url)
    db = Database(pg_url)
    try:
        assert db.schema_revision() == HEAD
    finally:
        db.dispose()


@pytest.mark.empty_database
def test_a_fresh_database_marked_empty_has_no_tables(pg_url: str) -> None:
    assert _tables(pg_url) == set()
