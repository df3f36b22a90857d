"""A store file changed by someone without its key, and what purging leaves on disk.

- A store whose key check (``meta.key_check``) was removed is never sealed in place with
  the key given: whatever plain text was slipped into it (a post shown to the reviewer, an
  outbox row sent as their verdict) would become the reviewer's. It is moved aside, with a
  plain message, and left as it was. Only a store written before encryption (schema 2) and
  opened with a key made for it just now (``seal_plaintext``) is sealed in place.
- A sealed value where plain text belongs (or the reverse) is a ``StoreError``, never an
  ``AttributeError`` that fails every login.
- Purged content (a settled verdict's post and note) does not stay in the WAL as
  ciphertext the kept key still opens.

Real SQLite files and the real reference service (the posts are claimed from it)."""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import StoreError, StoreUnreadable
from reviewer_app.core.sealing import RowCipher
from reviewer_app.core.store import Store
from reviewer_app.core.store import file as store_file
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.support.client import login
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
INJECTED = "INJECTED-FAKE-POST-TEXT"


@pytest.fixture
def client(server: LiveServer) -> Iterator[ApiClient]:
    api = login(server, "tess")
    yield api
    api.close()


@pytest.fixture
def key() -> bytes:
    return RowCipher.new_key()


def _sealed_store(path: Path, key: bytes, client: ApiClient, count: int = 4) -> list[str]:
    """A store as the app leaves it: posts leased, one verdict waiting. The item ids."""
    with Store(path, key=key) as store:
        store.add_leased(client.claim(QUEUE, count, 600))
        items = [r.item_id for r in store.worklist(QUEUE)]
        store.record_verdict(items[0], action="keep", note="mine", undo_window=600)
    return items


def _attack(path: Path, item_id: str) -> str:
    """Someone with write access to the file and no key: the key check removed, a plain
    text post and a plain text verdict slipped in. The verdict's key."""
    conn = sqlite3.connect(path)
    doc = json.dumps({"forged": True, "post": {"text": INJECTED}})
    conn.execute("DELETE FROM meta WHERE name = 'key_check'")
    conn.execute("UPDATE items SET document = ? WHERE id = ?", (doc, item_id))
    key = str(uuid.uuid4())
    verdict = {
        "idempotency_key": key,
        "item_id": item_id,
        "lease_token": "t",
        "action": "remove",
        "policies": ["SPAM.SCAM"],
        "note": "injected",
        "time_spent_ms": 1,
        "decided_at": datetime.now(UTC).isoformat(),
    }
    conn.execute(
        "INSERT INTO journal (key, item_id, queue_id, action, verdict, recorded_at, status) "
        "VALUES (?, ?, ?, 'remove', ?, ?, 'pending')",
        (key, item_id, QUEUE, json.dumps(verdict), time.time()),
    )
    conn.execute("INSERT INTO outbox (key, due_at) VALUES (?, ?)", (key, time.time()))
    conn.commit()
    conn.close()
    return key


def _aside(folder: Path, name: str) -> Path:
    (aside,) = [p for p in folder.glob(f"{name}.unusable-*") if p.name.endswith("Z")]
    return aside


def test_plaintext_slipped_into_a_store_whose_key_check_was_removed_is_never_sealed(
    tmp_path: Path, key: bytes, client: ApiClient
) -> None:
    """It had sealed the forged post and verdict as the reviewer's own: the post was shown
    and the verdict sent to the service under the reviewer's name."""
    path = tmp_path / "s.sqlite3"
    items = _sealed_store(path, key, client)
    forged = _attack(path, items[1])
    before = path.read_bytes()

    with Store(path, key=key) as store:
        assert store.recovery_message is not None
        assert "key check is missing" in store.recovery_message
        assert store.moved_aside_to == _aside(tmp_path, "s.sqlite3")
        assert store.worklist() == [] and store.pending_count() == 0
        assert store.take_due(time.time() + 10**6, 10) == []
    aside = _aside(tmp_path, "s.sqlite3")
    assert aside.read_bytes() == before, "moved aside as it was, nothing sealed in it"
    conn = sqlite3.connect(aside)
    (kind,) = conn.execute(
        "SELECT typeof(verdict) FROM journal WHERE key = ?", (forged,)
    ).fetchone()
    conn.close()
    assert kind == "text", "the forged verdict was not sealed"

    # opened unchecked (the sync thread's, a start with no network): refused, not moved
    again = tmp_path / "again.sqlite3"
    _attack(again, _sealed_store(again, key, client)[1])
    with pytest.raises(StoreUnreadable, match="key check is missing"):
        Store(again, key=key, check=False)
    assert not list(tmp_path.glob("again.sqlite3.unusable-*"))


def test_a_removed_key_check_with_sealed_rows_is_a_store_error_not_a_crash(
    tmp_path: Path, key: bytes, client: ApiClient
) -> None:
    """Only the key check removed, every row still sealed: it raised AttributeError
    ('bytes' object has no attribute 'encode') at every login, the file never moved aside."""
    path = tmp_path / "s.sqlite3"
    _sealed_store(path, key, client)
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM meta WHERE name = 'key_check'")
    conn.close()
    with pytest.raises(StoreError, match="key check is missing"):
        Store(path, key=key, check=False)
    with Store(path, key=key) as store:
        assert store.moved_aside_to is not None and store.worklist() == []
    aside = _aside(tmp_path, "s.sqlite3")
    with pytest.raises(StoreError):  # never opened as if it were sealed, or not
        Store(aside, key=key, check=False)
    conn = sqlite3.connect(aside)  # the verdict is still there for support, under the key
    (verdict_key, sealed) = conn.execute("SELECT key, verdict FROM journal").fetchone()
    conn.close()
    assert b"mine" in RowCipher(key).open(f"journal.verdict:{verdict_key}", sealed)


def test_a_schema_2_store_is_sealed_in_place_only_with_a_key_made_for_it(
    tmp_path: Path, key: bytes, client: ApiClient
) -> None:
    """A file made to look like a release before encryption (schema 2) is sealed only
    when the key was made for it at this login (``seal_plaintext``: no key of this profile
    existed, so nothing of it was sealed yet); with a key that already sealed this store,
    it is someone's plain text and is refused."""
    from tests.core.test_store_at_rest import _as_schema_2

    path = tmp_path / "old.sqlite3"
    with Store(path) as old:
        old.add_leased(client.claim(QUEUE, 2, 600))
    _as_schema_2(path)
    with Store(path, key=key) as refused:
        assert refused.moved_aside_to is not None and refused.worklist() == []
    path.unlink()
    _aside(tmp_path, "old.sqlite3").replace(path)
    with Store(path, key=key, seal_plaintext=True) as sealed:
        assert sealed.recovery_message is None and len(sealed.worklist()) == 2

    # a store of this schema with its key check removed: refused even so
    with sqlite3.connect(path) as conn:
        conn.execute("DELETE FROM meta WHERE name = 'key_check'")
    conn.close()
    with Store(path, key=key, seal_plaintext=True) as again:
        assert again.moved_aside_to is not None and again.worklist() == []


def test_a_sealed_value_in_a_plaintext_store_is_a_store_error(
    tmp_path: Path, key: bytes, client: ApiClient
) -> None:
    """Bytes where a schema-2 store keeps text: moved aside with a message (it raised
    AttributeError while sealing); text where a store opened without a key expects media
    bytes: StoreError."""
    from tests.core.test_store_at_rest import _as_schema_2

    path = tmp_path / "old.sqlite3"
    with Store(path) as old:
        old.add_leased(client.claim(QUEUE, 2, 600))
        first = old.worklist(QUEUE)[0].item_id
    _as_schema_2(path)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE items SET document = ? WHERE id = ?",
            (RowCipher(key).seal(f"items.document:{first}", b"{}"), first),
        )
    conn.close()
    with Store(path, key=key, seal_plaintext=True) as store:
        assert store.recovery_message is not None
        assert "encrypted or binary" in store.recovery_message
        assert store.worklist() == []

    plain = tmp_path / "plain.sqlite3"
    with Store(plain) as store:
        store.add_leased(client.claim(QUEUE, 1, 600))
        item = store.worklist(QUEUE)[0].item_id
        store.save_media(item, "m-1", "image/png", b"PNG")
        store.conn.execute("UPDATE media_files SET data = 'text, not bytes'")
        with pytest.raises(StoreError, match="where bytes belong"):
            store.media("m-1")


# --- purged content and the WAL -------------------------------------------------------------


def _needles(path: Path, items: list[str]) -> dict[str, bytes]:
    """The sealed posts of ``items`` and every sealed verdict in the store now."""
    conn = sqlite3.connect(path)
    found = {
        f"item {i}": bytes(d)
        for i, d in conn.execute("SELECT id, document FROM items")
        if i in items
    }
    found |= {f"verdict {k}": bytes(v) for k, v in conn.execute("SELECT key, verdict FROM journal")}
    conn.close()
    return found


def _on_disk(folder: Path, needles: dict[str, bytes]) -> list[str]:
    files = [p.read_bytes() for p in folder.iterdir() if p.is_file()]
    return sorted(name for name, needle in needles.items() if any(needle in b for b in files))


def _settle_all(store: Store, client: ApiClient) -> None:
    out = store.take_due(time.time() + 10**6, 100)
    store.settle(client.verdicts([o.verdict for o in out]).results)


def test_a_settled_verdicts_post_and_note_do_not_stay_in_the_wal(
    tmp_path: Path, key: bytes, client: ApiClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the transaction that purges them, the WAL is checkpointed and truncated (now
    and then: at once, then at most every ``EMPTY_WAL_EVERY`` seconds, picked up by the sync
    pass's ``purge_expired``). They stayed in the WAL, sealed under the key that is kept."""
    folder = tmp_path / "client"
    path = folder / "s.sqlite3"
    with Store(path, key=key) as store:
        store.add_leased(client.claim(QUEUE, 8, 600))
        items = [r.item_id for r in store.worklist(QUEUE)]
        for n, item in enumerate(items[:3]):
            store.record_verdict(item, action="keep", note=f"SECRET-{n}", undo_window=0)
        first = _needles(path, items[:3])
        assert len(first) == 6 and _on_disk(folder, first), "the test would see them"
        _settle_all(store, client)
        assert _on_disk(folder, first) == []

        # a second purge soon after waits for the next emptying; then it goes too
        for n, item in enumerate(items[3:5]):
            store.record_verdict(item, action="keep", note=f"LATER-{n}", undo_window=0)
        later = {k: v for k, v in _needles(path, items[3:5]).items() if k not in first}
        assert len(later) == 4
        _settle_all(store, client)
        assert _on_disk(folder, later), "not yet: at most every EMPTY_WAL_EVERY seconds"
        monkeypatch.setattr(store_file, "EMPTY_WAL_EVERY", 0.0)
        store.purge_expired()  # what every sync pass calls
        assert _on_disk(folder, later) == []
        assert len(store.worklist(QUEUE)) == 3, "what is not settled stays"
