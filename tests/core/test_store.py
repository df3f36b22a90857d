"""The local store: one transaction per verdict, undo inside the window only, a doubled
keypress cannot decide twice, migrations by user_version, and damaged or foreign files
moved aside with a message."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import ValidationError

from reviewer_app.core import settings as S
from reviewer_app.core.errors import StoreError
from reviewer_app.core.paths import store_path
from reviewer_app.core.store import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    AlreadyDecided,
    NothingToUndo,
    Store,
)
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.support.client import login
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def store(server: LiveServer, tmp_path: Path, clock: ManualClock) -> Iterator[Store]:
    """A store holding 10 items really leased from the service."""
    client = login(server, "sam")
    with Store(tmp_path / "sam.sqlite3", clock=clock) as opened:
        assert opened.add_leased(client.claim(QUEUE, 10, 600)) == 10
        yield opened


def test_schema_is_current_and_the_file_is_marked_ours(store: Store) -> None:
    conn = store.conn
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL: see write_through


def test_a_verdict_and_its_outbox_row_are_one_transaction(store: Store) -> None:
    item = store.next_item(QUEUE)
    assert item is not None
    entry = store.record_verdict(item.item.id, action="keep", undo_window=5)
    assert store.counts().pending == 1
    assert store.journal_entry(entry.key) is not None
    assert store.stored_item(item.item.id).state == "decided"  # type: ignore[union-attr]

    other = store.next_item(QUEUE)
    assert other is not None and other.item.id != item.item.id
    with pytest.raises(ValidationError):  # a bad verdict fails inside the transaction
        store.record_verdict(other.item.id, action="Not A Slug!")
    assert store.counts().pending == 1
    assert store.stored_item(other.item.id).state == "ready"  # type: ignore[union-attr]
    assert len(store.journal()) == 1


def test_a_doubled_keypress_cannot_decide_twice(store: Store) -> None:
    item = store.next_item(QUEUE)
    assert item is not None
    store.record_verdict(item.item.id, action="keep")
    with pytest.raises(AlreadyDecided):
        store.record_verdict(item.item.id, action="remove", policies=["SPAM.SCAM"])
    assert store.counts().pending == 1


def test_undo_inside_the_window_only_and_the_item_comes_back_first(
    store: Store, clock: ManualClock
) -> None:
    first = store.next_item(QUEUE)
    assert first is not None
    entry = store.record_verdict(first.item.id, action="keep", undo_window=5)
    assert store.next_item(QUEUE).item.id != first.item.id  # type: ignore[union-attr]
    clock.advance(4)
    undone = store.undo()
    assert undone.key == entry.key and undone.status == "undone"
    assert store.next_item(QUEUE).item.id == first.item.id  # type: ignore[union-attr]
    assert store.counts().pending == 0
    assert store.journal_entry(entry.key).status == "undone"  # type: ignore[union-attr]

    second = store.record_verdict(first.item.id, action="escalate", undo_window=5)
    clock.advance(5.01)
    with pytest.raises(NothingToUndo):
        store.undo()
    assert [o.key for o in store.take_due(clock(), 10)] == [second.key]


def test_a_verdict_taken_for_sending_can_no_longer_be_undone(
    store: Store, clock: ManualClock
) -> None:
    item = store.next_item(QUEUE)
    assert item is not None
    entry = store.record_verdict(item.item.id, action="keep", undo_window=0)
    assert [o.key for o in store.take_due(clock(), 10)] == [entry.key]
    with pytest.raises(NothingToUndo):
        store.undo(entry.key)
    # after a crash it is sent again under the same key
    assert [o.key for o in store.take_due(clock(), 10)] == [entry.key]


def test_skipped_items_leave_the_worklist_for_release(store: Store) -> None:
    item = store.next_item(QUEUE)
    assert item is not None
    store.skip(item.item.id)
    assert store.next_item(QUEUE).item.id != item.item.id  # type: ignore[union-attr]
    assert [i for i, _ in store.to_release()] == [item.item.id]
    with pytest.raises(AlreadyDecided):
        store.record_verdict(item.item.id, action="keep")


def test_settings_are_typed_persisted_and_refuse_nonsense(tmp_path: Path) -> None:
    path = tmp_path / "settings.sqlite3"
    with Store(path) as store:
        assert store.settings.get(S.UNDO_WINDOW) == 5.0
        assert store.settings.get(S.PREFETCH) == 20
        store.settings.set(S.PREFETCH, 35)
        store.settings.set("undo_window_seconds", 2)
        with pytest.raises(ValueError, match="at most"):
            store.settings.set(S.PREFETCH, 10_000)
        with pytest.raises(ValueError, match="takes a int"):
            store.settings.set(S.PREFETCH, "35")
        with pytest.raises(KeyError):
            store.settings.set("no_such_setting", 1)
    with Store(path) as store:
        assert store.settings.get(S.PREFETCH) == 35
        assert store.settings.get(S.UNDO_WINDOW) == 2.0
        assert {d.name for d, _ in store.settings} == {d.name for d in S.SETTINGS}
    assert all(d.description and d.default == d.check(d.default) for d in S.SETTINGS)


def test_a_damaged_file_is_moved_aside_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    path.write_bytes(b"this is not a database" * 500)
    with Store(path) as store:
        assert store.recovery_message is not None
        assert "moved aside" in store.recovery_message
        assert store.counts().pending == 0
    aside = [p for p in tmp_path.iterdir() if ".unusable-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not a database")


def test_a_foreign_database_is_moved_aside_not_reused(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    conn.execute("INSERT INTO photos (name) VALUES ('holiday')")
    conn.commit()
    conn.close()
    with Store(path) as store:
        assert store.recovery_message and "another program" in store.recovery_message
    aside = next(
        p for p in tmp_path.iterdir() if ".unusable-" in p.name and not p.name.endswith("-wal")
    )
    assert not aside.with_name(aside.name + "-wal").exists(), "the foreign file was not changed"
    names = sqlite3.connect(aside).execute("SELECT name FROM photos").fetchall()
    assert names == [("holiday",)]


def test_a_store_truncated_mid_page_is_caught(tmp_path: Path, server: LiveServer) -> None:
    path = tmp_path / "store.sqlite3"
    client = login(server, "tess")
    with Store(path) as store:
        store.add_leased(client.claim(QUEUE, 20, 600))
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])
    with Store(path) as store:
        assert store.recovery_message is not None
        assert store.worklist() == []


def test_a_store_from_a_newer_release_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    with Store(path) as store:
        store.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(StoreError, match="newer release"):
        Store(path)
    assert path.exists()


def test_one_file_per_server_and_user(tmp_path: Path) -> None:
    a = store_path("https://review.example:8443", "ana", tmp_path)
    b = store_path("http://review.example:8443", "ana", tmp_path)
    c = store_path("https://review.example:8443", "Ana", tmp_path)
    assert len({a, b, c}) == 3
    assert all(p.is_relative_to(tmp_path) and p.suffix == ".sqlite3" for p in (a, b, c))
    weird = store_path("https://x", "../../etc/passwd", tmp_path)
    assert weird.is_relative_to(tmp_path / "stores")


def test_a_store_of_an_older_schema_is_migrated_in_place(tmp_path: Path) -> None:
    from reviewer_app.core.store import MIGRATIONS

    path = tmp_path / "store.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    MIGRATIONS[0](conn)
    conn.execute("PRAGMA user_version=1")
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.execute("INSERT INTO settings (name, value) VALUES ('prefetch_target', '33')")
    conn.execute("COMMIT")
    conn.close()
    with Store(path) as store:
        assert store.recovery_message is None
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 12
        indexes = {r[0] for r in store.conn.execute("SELECT name FROM sqlite_master")}
        assert {"items_token", "journal_status"} <= indexes
        columns = {r[1] for r in store.conn.execute("PRAGMA table_info(items)")}
        outbox = {r[1] for r in store.conn.execute("PRAGMA table_info(outbox)")}
        assert "lease_seconds" in columns and {"retry_reason", "held_until"} <= outbox
        held = {r[1] for r in store.conn.execute("PRAGMA table_info(held_bulk)")}
        assert {"request", "due_at"} <= held
        assert store.settings.get(S.PREFETCH) == 33
        files = {r[1] for r in store.conn.execute("PRAGMA table_info(media_files)")}
        assert {"id", "content_type", "data"} <= files


def test_a_file_two_items_kept_a_copy_of_each_is_kept_once_after_the_upgrade(
    tmp_path: Path,
) -> None:
    """Schema 8: every item kept a sealed copy of a file it shows; the upgrade keeps one."""
    from reviewer_app.core.store import MIGRATIONS

    path = tmp_path / "store.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for migrate in MIGRATIONS[:7]:
        migrate(conn)
    conn.execute("PRAGMA user_version=7")
    conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
    conn.executemany(
        "INSERT INTO media (id, item_id, content_type, data) VALUES (?, ?, 'image/png', ?)",
        [("m-1", "item-a", b"one"), ("m-1", "item-b", b"one"), ("m-2", "item-b", b"two")],
    )
    conn.execute("COMMIT")
    conn.close()
    with Store(path) as store:
        assert store.recovery_message is None
        links = store.conn.execute("SELECT id, item_id FROM media ORDER BY id, item_id").fetchall()
        assert [tuple(r) for r in links] == [
            ("m-1", "item-a"),
            ("m-1", "item-b"),
            ("m-2", "item-b"),
        ]
        files = store.conn.execute("SELECT id, data FROM media_files ORDER BY id").fetchall()
        assert [(r[0], bytes(r[1])) for r in files] == [("m-1", b"one"), ("m-2", b"two")]


def test_the_next_item_is_read_ahead_and_a_changed_row_is_parsed_afresh(store: Store) -> None:
    """``next_after`` gives what ``next_item`` will once the shown item is decided, already
    parsed (the same object: the UI's prepared work is for it); a row whose document
    changed since (a new lease of the item) gives a new item, not the kept one."""
    shown = store.next_item(QUEUE)
    assert shown is not None
    ahead = store.next_after(QUEUE, shown.item.id)
    assert ahead is not None and ahead.item.id != shown.item.id
    store.record_verdict(shown.item.id, action="keep")
    after = store.next_item(QUEUE)
    assert after is not None and after.item is ahead.item
    changed = ahead.item.model_copy(
        update={"post": ahead.item.post.model_copy(update={"text": "changed since"})}
    )
    with store.transaction() as conn:
        conn.execute(
            "UPDATE items SET document = ? WHERE id = ?",
            (changed.model_dump_json(), ahead.item.id),
        )
    again = store.next_item(QUEUE)
    assert again is not None and again.item is not ahead.item
    assert again.item.post.text == "changed since"


def test_a_read_after_close_is_a_store_error(tmp_path: Path) -> None:
    """A late reader (the next post's preparation as the window closes) gets the store's
    own error, which its callers handle, not sqlite3's ProgrammingError."""
    store = Store(tmp_path / "store.sqlite3")
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.next_after("q", "i-1", include_expired=False)
