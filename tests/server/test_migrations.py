"""Migrations build exactly the schema the code declares, and keep the event log append-only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from reviewer_app.protocol import EventKind
from reviewer_app.server.domain.records import append_events, event_row
from reviewer_app.server.storage.db import MIGRATIONS, Database
from reviewer_app.server.storage.migrations import HEAD
from reviewer_app.server.storage.tables import SEARCH_INDEX_OBJECTS, metadata

#: the migrations run here, from an empty database
pytestmark = pytest.mark.empty_database


def test_migrated_schema_matches_the_declared_tables(database_url: str) -> None:
    db = Database(database_url)
    try:
        db.migrate()
        db.migrate()  # running again on a current schema changes nothing
        with db.engine.connect() as conn:
            # the search index's FTS5 table and trigram indexes are per dialect (migration
            # 0020) and declared in no table: left out of the comparison
            context = MigrationContext.configure(
                conn,
                opts={"include_name": lambda name, *_: name not in SEARCH_INDEX_OBJECTS},
            )
            diff = compare_metadata(context, metadata)
        assert diff == [], f"the tables (storage/tables/) and the migrations disagree: {diff}"
    finally:
        db.dispose()


def test_the_code_names_the_newest_migration_as_its_head(tmp_path: Path) -> None:
    """A service whose database is at ``HEAD`` starts without running alembic: ``HEAD``
    must be the newest script's revision, or a database would stay behind."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD
    db = Database(f"sqlite:///{tmp_path / 'new.db'}")
    try:
        assert db.schema_revision_or_none() is None  # a new database: alembic makes it
        db.migrate()
        assert db.schema_revision() == HEAD
    finally:
        db.dispose()


def test_a_current_database_starts_without_loading_alembic(tmp_path: Path) -> None:
    """What the skip is for: a service on a database at ``HEAD`` never imports alembic
    (in a process of its own: this one has alembic loaded already)."""
    url = f"sqlite:///{tmp_path / 'current.db'}"
    db = Database(url)
    try:
        db.migrate()
    finally:
        db.dispose()
    probe = (
        "import sys; from reviewer_app.server.storage.db import Database; "
        f"db = Database({url!r}); db.migrate(); db.dispose(); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_the_lease_indexes_hold_leased_items_only(database_url: str) -> None:
    """compare_metadata does not compare an index's WHERE: the database is asked itself."""
    db = Database(database_url)
    try:
        db.migrate()
        with db.read() as conn:
            if db.is_sqlite:
                rows = conn.execute(
                    text("SELECT name, sql FROM sqlite_master WHERE type = 'index'")
                ).all()
            else:
                rows = conn.execute(text("SELECT indexname, indexdef FROM pg_indexes")).all()
        definitions = {name: sql or "" for name, sql in rows}
        for name, column in [
            ("ix_items_lease_expiry", "lease_expires_at"),
            ("ix_items_lease_user", "lease_user_id"),
            ("ix_items_lease_token", "lease_token"),
        ]:
            where = definitions[name].split("WHERE", 1)[-1]
            assert "WHERE" in definitions[name] and column in where, definitions[name]
            assert "IS NOT NULL" in where.upper(), definitions[name]
        assert "ix_leases_item_id" not in definitions
    finally:
        db.dispose()


@pytest.mark.parametrize("statement", ["UPDATE events SET kind = 'forged'", "DELETE FROM events"])
def test_the_database_refuses_to_change_the_event_log(database_url: str, statement: str) -> None:
    db = Database(database_url)
    try:
        db.migrate()
        with db.write() as conn:
            append_events(conn, [event_row(1.0, EventKind.decided, "rita")])
        with pytest.raises(DatabaseError, match="append-only"), db.write() as conn:
            conn.execute(text(statement))
        with db.read() as conn:
            assert conn.execute(text("SELECT kind FROM events")).scalars().all() == ["decided"]
    finally:
        db.dispose()


def test_the_posts_stored_ratings_name_are_kept_by_the_upgrade(database_url: str) -> None:
    """Ratings stored before migration 0024 still go on their posts when these arrive."""
    db = Database(database_url)
    try:
        db.migrate("0023")
        with db.write() as conn:
            conn.execute(
                text(
                    "INSERT INTO fact_check_ratings (user_id, external_id, body_hash, payload,"
                    " received_at) VALUES (7, 'fc-1', :h, :p, 0)"
                ),
                {
                    "h": "0" * 64,
                    "p": '{"id":"fc-1","post_external_ids":["a","b","a"],"source":null}',
                },
            )
        db.migrate()
        with db.read() as conn:
            kept = conn.execute(
                text(
                    "SELECT user_id, rating_external_id, post_external_id, source"
                    " FROM fact_check_targets ORDER BY post_external_id"
                )
            ).all()
        assert [tuple(r) for r in kept] == [(7, "fc-1", "a", None), (7, "fc-1", "b", None)]
    finally:
        db.dispose()


def test_search_rows_kept_before_0025_are_case_folded_and_found(database_url: str) -> None:
    """Rows lower-cased before migration 0025 are folded in place (ids kept; SQLite's
    full-text table follows), so a case-folded query finds them."""
    db = Database(database_url)
    try:
        db.migrate("0024")
        with db.write() as conn:
            conn.execute(
                text(
                    "INSERT INTO item_search (id, item_id, author, body) VALUES "
                    "(5, 'i-1', 'jürgen groß', 'οδος to the straße'), (6, 'i-2', 'amy', 'plain')"
                )
            )
        db.migrate()
        with db.read() as conn:
            kept = conn.execute(text("SELECT id, author, body FROM item_search ORDER BY id"))
            assert [tuple(r) for r in kept] == [
                (5, "jürgen gross", "οδοσ to the strasse"),
                (6, "amy", "plain"),
            ]
            if db.is_sqlite:
                found = conn.execute(
                    text("SELECT rowid FROM item_search_fts WHERE item_search_fts MATCH :q"),
                    {"q": 'body : "οδοσ to"'},
                )
                assert found.scalars().all() == [5]
    finally:
        db.dispose()
