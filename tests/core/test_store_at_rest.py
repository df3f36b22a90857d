"""The local store at rest: user content sealed with AES-GCM under the profile's key, with the
row's place as associated data; a plaintext store of schema 2 encrypted in place without
losing an unsent verdict; a wrong or missing key refused plainly; retention (delivered
decisions purged at once, everything cached gone after ``cache_retention_hours``, checked
with a fake clock); and wiping."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reviewer_app.core import settings as S
from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import StoreError
from reviewer_app.core.sealing import RowCipher
from reviewer_app.core.store import SCHEMA_VERSION, Store
from reviewer_app.protocol import Decision, VerdictResult, VerdictStatus
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.support.at_rest import forms
from tests.support.client import EventLog, engine_for, login
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
HOUR = 3600.0
MEDIA = b"\x89PNG\r\n\x1a\n" + b"KNOWN-MEDIA-BYTES " * 40
NOTE = "KNOWN-NOTE-at-rest: the author was “warned” before, see 中文 thread"


@pytest.fixture
def key() -> bytes:
    return RowCipher.new_key()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def client(server: LiveServer) -> Iterator[ApiClient]:
    api = login(server, "sol")
    yield api
    api.close()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """The client's files, apart from the service's database (which holds every text)."""
    return tmp_path / "client"


@pytest.fixture
def store(folder: Path, client: ApiClient, key: bytes, clock: ManualClock) -> Iterator[Store]:
    with Store(folder / "sol.sqlite3", key=key, clock=clock) as opened:
        opened.add_leased(client.claim(QUEUE, 10, 600))
        yield opened


def _files_with(root: Path, needles: list[bytes]) -> list[str]:
    return [
        p.name for p in root.rglob("*") if p.is_file() and any(n in p.read_bytes() for n in needles)
    ]


def _deliver(store: Store, client: ApiClient, now: float) -> list[VerdictResult]:
    out = store.take_due(now + 1, 100)
    results = client.verdicts([o.verdict for o in out]).results
    store.settle(results)
    return list(results)


# --- what is sealed ------------------------------------------------------------------------


def test_every_content_column_is_sealed_and_queries_still_work(
    store: Store, folder: Path, client: ApiClient, clock: ManualClock
) -> None:
    first = store.next_item(QUEUE)
    assert first is not None
    text = first.item.post.text
    store.save_media(first.item.id, "m-1", "image/png", MEDIA)
    entry = store.record_verdict(first.item.id, action="keep", note=NOTE, undo_window=60)

    raw = store.conn
    docs = raw.execute("SELECT typeof(document), document FROM items").fetchall()
    assert docs and all(kind == "blob" for kind, _ in docs)
    assert all(text.encode() not in bytes(d) for _, d in docs)
    media = raw.execute("SELECT data FROM media_files").fetchone()[0]
    assert MEDIA not in media and b"KNOWN-MEDIA" not in media
    verdict = raw.execute("SELECT verdict FROM journal").fetchone()[0]
    assert isinstance(verdict, bytes) and NOTE.encode() not in verdict
    # ids, states, times and actions stay plain: the worklist and outbox queries use them
    state = raw.execute("SELECT state FROM items WHERE id = ?", (first.item.id,)).fetchone()
    assert state[0] == "decided"
    assert store.worklist(QUEUE)[0].verdict_status == "pending"
    assert store.counts().pending == 1

    # and it all reads back
    assert store.media("m-1") == (MEDIA, "image/png")
    assert store.stored_item(first.item.id).item.post.text == text  # type: ignore[union-attr]
    assert store.journal_entry(entry.key).verdict.note == NOTE  # type: ignore[union-attr]
    assert [o.verdict.note for o in store.take_due(clock() + 61, 10)] == [NOTE]

    store.conn.execute("PRAGMA wal_checkpoint(FULL)")
    needles = [*forms(text), *forms(NOTE), b"KNOWN-MEDIA-BYTES"]
    assert _files_with(folder, needles) == []


def test_a_value_moved_to_another_row_or_column_does_not_open(store: Store) -> None:
    a = store.next_item(QUEUE)
    assert a is not None
    b = store.worklist(QUEUE)[1].item_id
    conn = store.conn
    # a's post put in b's row: the ciphertext is intact but bound to a's place
    conn.execute(
        "UPDATE items SET document = (SELECT document FROM items WHERE id = ?) WHERE id = ?",
        (a.item.id, b),
    )
    with pytest.raises(StoreError, match="could not be decrypted"):
        store.stored_item(b)
    assert store.stored_item(a.item.id) is not None
    store.forget_items([b])

    store.save_media(a.item.id, "m-a", "image/png", MEDIA)
    store.save_media(a.item.id, "m-b", "image/png", b"other")
    conn.execute(
        "UPDATE media_files SET data = (SELECT data FROM media_files WHERE id = 'm-a') "
        "WHERE id = 'm-b'"
    )
    with pytest.raises(StoreError, match="could not be decrypted"):
        store.media("m-b")

    one = store.record_verdict(a.item.id, action="keep", note=NOTE)
    c = store.next_item(QUEUE)
    assert c is not None
    two = store.record_verdict(c.item.id, action="keep")
    conn.execute(
        "UPDATE journal SET verdict = (SELECT verdict FROM journal WHERE key = ?) WHERE key = ?",
        (one.key, two.key),
    )
    with pytest.raises(StoreError, match="could not be decrypted"):
        store.journal_entry(two.key)
    # one flipped bit is refused too, never shown half-read
    sealed = bytearray(
        conn.execute("SELECT verdict FROM journal WHERE key = ?", (one.key,)).fetchone()[0]
    )
    sealed[-1] ^= 1
    conn.execute("UPDATE journal SET verdict = ? WHERE key = ?", (bytes(sealed), one.key))
    with pytest.raises(StoreError):
        store.journal_entry(one.key)


def test_plaintext_slipped_into_an_encrypted_store_is_refused(store: Store) -> None:
    item = store.next_item(QUEUE)
    assert item is not None
    store.conn.execute(
        "UPDATE items SET document = ? WHERE id = ?", (item.item.model_dump_json(), item.item.id)
    )
    with pytest.raises(StoreError, match="unencrypted"):
        store.stored_item(item.item.id)


def test_a_wrong_or_missing_key_is_refused_and_a_stray_file_moved_aside(
    tmp_path: Path, key: bytes, client: ApiClient
) -> None:
    path = tmp_path / "k.sqlite3"
    with Store(path, key=key) as store:
        store.add_leased(client.claim(QUEUE, 2, 600))
    with pytest.raises(StoreError, match="without its key"):
        Store(path)
    other = RowCipher.new_key()
    with pytest.raises(StoreError, match="key"):
        Store(path, key=other, check=False)  # the sync thread's connection never moves it
    with Store(path, key=other) as fresh:  # the session's: the file goes aside, a new one starts
        assert fresh.recovery_message and "key" in fresh.recovery_message
        assert fresh.worklist() == []
    (aside,) = [p for p in tmp_path.glob("k.sqlite3.unusable-*") if p.name.endswith("Z")]
    with Store(aside, key=key, check=False) as old:  # kept aside, not deleted
        assert len(old.worklist()) == 2


# --- upgrading a plaintext store ----------------------------------------------------------


def _as_schema_2(path: Path) -> None:
    """Undo what schemas 3, 5, 6, 7, 8 and 12 added, leaving the plaintext rows as release 2
    wrote them."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    conn.execute(
        "CREATE TABLE media_v4 (id TEXT NOT NULL, item_id TEXT NOT NULL, content_type TEXT "
        "NOT NULL, data BLOB NOT NULL, PRIMARY KEY (id, item_id))"
    )
    conn.execute(
        "INSERT INTO media_v4 SELECT m.id, m.item_id, f.content_type, f.data FROM media m "
        "JOIN media_files f ON f.id = m.id"
    )
    conn.execute("DROP TABLE media")
    conn.execute("DROP TABLE media_files")
    conn.execute("ALTER TABLE media_v4 RENAME TO media")
    conn.execute("CREATE INDEX media_item ON media (item_id)")
    conn.execute("DROP TABLE held_bulk")
    conn.execute("ALTER TABLE items DROP COLUMN offline")
    conn.execute("ALTER TABLE items DROP COLUMN opened")
    conn.execute("ALTER TABLE items DROP COLUMN lease_seconds")
    conn.execute("ALTER TABLE outbox DROP COLUMN retry_reason")
    conn.execute("ALTER TABLE outbox DROP COLUMN held_until")
    conn.execute("DROP TABLE meta")
    conn.execute("DROP INDEX items_cached")
    conn.execute("ALTER TABLE items DROP COLUMN cached_at")
    conn.execute("ALTER TABLE conflicts DROP COLUMN purged_at")
    conn.execute("PRAGMA user_version=2")
    conn.execute("COMMIT")
    conn.close()


def test_a_plaintext_store_of_schema_2_is_encrypted_in_place_keeping_unsent_verdicts(
    folder: Path, key: bytes, client: ApiClient
) -> None:
    path = folder / "old.sqlite3"
    now = time.time()
    with Store(path) as old:  # no key: what release 2 wrote
        old.add_leased(client.claim(QUEUE, 6, 600))
        items = [r.item_id for r in old.worklist(QUEUE)]
        texts = [old.stored_item(i).item.post.text for i in items]  # type: ignore[union-attr]
        old.save_media(items[0], "m-1", "image/png", MEDIA)
        delivered = old.record_verdict(
            items[1], action="keep", note=NOTE + " delivered", undo_window=0
        )
        _deliver(old, client, now)
        unsent = [
            old.record_verdict(i, action="keep", note=f"{NOTE} unsent {n}", undo_window=0)
            for n, i in enumerate(items[2:4])
        ]
        # a conflict, as the server reports one (the decision that won, with its note)
        lost = old.record_verdict(items[4], action="keep", note=NOTE + " mine", undo_window=999)
        theirs = Decision(
            id=1,
            item_id=items[4],
            queue_id=QUEUE,
            reviewer="other",
            action="remove",
            policies=["SPAM.SCAM"],
            note=NOTE + " theirs",
            time_spent_ms=1,
            decided_at=datetime.now(UTC),
            client_decided_at=datetime.now(UTC),
        )
        old.settle(
            [
                VerdictResult(
                    idempotency_key=lost.verdict.idempotency_key,
                    item_id=items[4],
                    status=VerdictStatus.conflict,
                    decision=theirs,
                )
            ]
        )
        assert old.counts().pending == 2 and len(old.conflicts()) == 1
    _as_schema_2(path)
    assert any(t.encode() in path.read_bytes() for t in texts)  # the test would see a leak

    # sealed in place only with a key made for it now (``ProfileKey.fresh``): see
    # test_store_tamper for a store whose key check was removed
    with Store(path, key=key, seal_plaintext=True) as store:
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 12
        assert store.encrypted and store.recovery_message is None
        # nothing lost: the unsent verdicts go out with their notes, under their keys
        out = store.take_due(now + 1, 10)
        assert sorted(o.key for o in out) == sorted(e.key for e in unsent)
        assert {o.verdict.note for o in out} == {f"{NOTE} unsent 0", f"{NOTE} unsent 1"}
        assert store.stored_item(items[5]).item.post.text == texts[5]  # type: ignore[union-attr]
        assert store.media("m-1") == (MEDIA, "image/png")
        (conflict,) = store.conflicts()
        assert conflict.mine.note == NOTE + " mine" and conflict.theirs.note == NOTE + " theirs"
        assert conflict.item is not None and conflict.item.id == items[4]
        # a settled verdict keeps no note
        assert store.journal_entry(delivered.key).verdict.note is None  # type: ignore[union-attr]
        results = client.verdicts([o.verdict for o in out]).results
        assert {r.status for r in store.settle(results)} == {VerdictStatus.accepted}

    leaks = _files_with(
        folder,
        [n for t in [*texts, NOTE] for n in forms(t)] + [b"KNOWN-MEDIA-BYTES", b"KNOWN-NOTE"],
    )
    assert leaks == [], "no plaintext page is left in the file or its WAL"


def test_the_upgrade_is_one_transaction(tmp_path: Path, key: bytes, client: ApiClient) -> None:
    """A failure while sealing leaves the plaintext store exactly as it was."""
    path = tmp_path / "old.sqlite3"
    with Store(path) as old:
        old.add_leased(client.claim(QUEUE, 3, 600))
        item = old.worklist(QUEUE)[0].item_id
        old.record_verdict(item, action="keep", note=NOTE, undo_window=0)
    _as_schema_2(path)
    before = sqlite3.connect(path).execute("SELECT * FROM journal").fetchall()

    class Broken(Store):
        def _seal_existing(self, conn: sqlite3.Connection) -> int:
            super()._seal_existing(conn)
            raise OSError("disk gone")

    with pytest.raises(OSError):
        Broken(path, key=key, seal_plaintext=True)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 2
    assert conn.execute("SELECT * FROM journal").fetchall() == before
    conn.close()
    with Store(path, key=key, seal_plaintext=True) as store:
        assert [o.verdict.note for o in store.take_due(time.time() + 1, 10)] == [NOTE]


# --- retention ----------------------------------------------------------------------------


def test_a_delivered_decision_leaves_nothing_of_its_content(
    store: Store, client: ApiClient, clock: ManualClock
) -> None:
    item = store.next_item(QUEUE)
    assert item is not None
    store.save_media(item.item.id, "m-1", "image/png", MEDIA)
    entry = store.record_verdict(item.item.id, action="keep", note=NOTE, undo_window=0)
    (result,) = _deliver(store, client, clock())
    assert result.status is VerdictStatus.accepted and result.decision is not None
    assert result.decision.note == NOTE  # the server echoes it; the store does not keep it
    assert store.stored_item(item.item.id) is None
    assert store.media("m-1") is None
    kept = store.journal_entry(entry.key)
    assert kept is not None and kept.status == "accepted" and kept.verdict.note is None
    assert kept.result is not None and kept.result.decision is not None
    assert kept.result.decision.note is None and kept.verdict.action == "keep"


def test_nothing_cached_outlives_the_retention_setting(
    tmp_path: Path, key: bytes, client: ApiClient, clock: ManualClock
) -> None:
    path = tmp_path / "r.sqlite3"
    with Store(path, key=key, clock=clock) as store:
        assert store.settings.get(S.CACHE_RETENTION) == 72
        store.add_leased(client.claim(QUEUE, 6, 600))
        ids = [r.item_id for r in store.worklist(QUEUE)]
        for n, item_id in enumerate(ids):
            store.save_media(item_id, f"m-{n}", "image/png", MEDIA)
        unsent = store.record_verdict(ids[0], action="keep", note=NOTE, undo_window=999_999)
        clock.advance(71 * HOUR)
        assert store.purge_expired() == 0
        assert len(store.worklist(QUEUE)) == 6
        store.add_leased(client.claim(QUEUE, 1, 600))  # cached 71 h later
        clock.advance(1.5 * HOUR)
        assert store.purge_expired() == 6
        rows = {r.item_id: r for r in store.worklist(QUEUE)}
        # the unsent verdict keeps its row (it is still sent) but not the post or media
        assert ids[0] in rows and rows[ids[0]].verdict_status == "pending"
        assert not set(ids[1:]) & rows.keys() and len(rows) == 2
        assert store.stored_item(ids[0]) is None
        assert all(store.media(f"m-{n}") is None for n in range(6))
        assert [o.verdict.note for o in store.take_due(clock() + 10**7, 10)] == [NOTE]
        assert store.journal_entry(unsent.key).status == "pending"  # type: ignore[union-attr]
        store.settings.set(S.CACHE_RETENTION, 1)

    # at open: the newer item is past the 1-hour setting now
    clock.advance(0.6 * HOUR)
    with Store(path, key=key, clock=clock) as store:
        assert [r.item_id for r in store.worklist(QUEUE)] == [ids[0]]


def test_a_sync_pass_purges_expired_content(
    server: LiveServer, tmp_path: Path, key: bytes, clock: ManualClock
) -> None:
    me = login(server, "sid")
    path = tmp_path / "sid.sqlite3"
    with Store(path, key=key, clock=clock) as store:
        store.add_leased(me.claim(QUEUE, 3, 600))
    engine = engine_for(server.url, path, me.token, EventLog(), clock=clock, store_key=key)
    engine.open()
    try:
        clock.advance(73 * HOUR)
        engine.run_once()
        assert engine.store is not None and engine.store.worklist(QUEUE) == []
    finally:
        engine.close()


def test_conflicts_keep_their_copies_until_resolved_or_expired(
    store: Store, clock: ManualClock
) -> None:
    def conflict_on(item_id: str) -> str:
        entry = store.record_verdict(item_id, action="keep", note=NOTE, undo_window=0)
        theirs = Decision(
            id=7,
            item_id=item_id,
            queue_id=QUEUE,
            reviewer="other",
            action="remove",
            note="their note",
            time_spent_ms=1,
            decided_at=datetime.now(UTC),
            client_decided_at=datetime.now(UTC),
        )
        store.settle(
            [
                VerdictResult(
                    idempotency_key=entry.verdict.idempotency_key,
                    item_id=item_id,
                    status=VerdictStatus.conflict,
                    decision=theirs,
                )
            ]
        )
        return entry.key

    first = store.next_item(QUEUE)
    assert first is not None
    resolved = conflict_on(first.item.id)
    second = store.next_item(QUEUE)
    assert second is not None
    expired = conflict_on(second.item.id)
    assert {c.key: c.mine.note for c in store.conflicts()} == {resolved: NOTE, expired: NOTE}
    assert all(c.item is not None for c in store.conflicts())

    store.resolve_conflict(resolved, "accepted")
    (done,) = [c for c in store.conflicts(open_only=False) if c.key == resolved]
    assert done.item is None and done.mine.note is None and done.theirs.note is None
    assert done.theirs.action == "remove" and done.resolution == "accepted"

    clock.advance(73 * HOUR)
    assert store.purge_expired() >= 1
    (old,) = store.conflicts()  # still shown, so never dropped silently, but emptied
    assert old.key == expired and old.item is None and old.mine.note is None


# --- wiping -------------------------------------------------------------------------------


def test_clear_keeps_only_unsent_verdicts_and_rewrites_the_file(
    store: Store, folder: Path, client: ApiClient, clock: ManualClock
) -> None:
    rows = store.worklist(QUEUE)
    texts = [store.stored_item(r.item_id).item.post.text for r in rows]  # type: ignore[union-attr]
    store.save_media(rows[0].item_id, "m-1", "image/png", MEDIA)
    sent = store.record_verdict(rows[1].item_id, action="keep", note=NOTE, undo_window=0)
    _deliver(store, client, clock())
    unsent = store.record_verdict(rows[2].item_id, action="keep", note=NOTE, undo_window=999)
    store.save_queues(client.queues().queues)

    assert store.clear(keep_unsent=True) == 1
    assert store.journal_entry(sent.key) is None and store.queues() == []
    assert [r.item_id for r in store.worklist()] == [rows[2].item_id]
    assert store.stored_item(rows[2].item_id) is None and store.media("m-1") is None
    assert [o.key for o in store.take_due(clock() + 1000, 10)] == [unsent.key]

    assert store.clear(keep_unsent=False) == 0
    assert store.worklist() == [] and store.journal() == []
    assert os.path.getsize(str(store.path) + "-wal") == 0
    assert _files_with(folder, [n for t in texts for n in forms(t)]) == []


def test_item_summaries_read_the_worklists_words_without_parsing_items(
    store: Store, client: ApiClient
) -> None:
    """``item_summaries`` (the worklist's "@handle: first words") opens each stored document
    and leaves the store's kept parsed items alone: the next post parsed for its keypress
    stays the very object that keypress gets."""
    first = store.next_item(QUEUE)
    assert first is not None
    upcoming = store.next_after(QUEUE, first.item.id)
    assert upcoming is not None
    store.add_leased(client.claim(QUEUE, 20, 600))  # a refill for the worklist to describe
    ids = [row.item_id for row in store.worklist(QUEUE)]
    summaries = store.item_summaries([*ids, "not-held"])
    assert sorted(summaries) == sorted(ids) and len(ids) == 30
    again = store.next_after(QUEUE, first.item.id)
    assert again is not None and again.item is upcoming.item  # not parsed afresh
    for item_id in ids:
        stored = store.stored_item(item_id)
        assert stored is not None
        assert summaries[item_id] == (stored.item.author.handle, stored.item.post.text)
    store.forget_items([ids[-1]])
    assert ids[-1] not in store.item_summaries(ids)
