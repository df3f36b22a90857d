"""A profile's store and its key through logins, log-outs and starts with no network, when
the store is damaged, tampered with, or its keyring answers without its key. Real SQLite
files, the real reference service, an in-memory keyring (or none: the password mode).

- A forged plain text verdict in a store whose key check was removed is never sent.
- A store moved aside keeps its key: a log-out deletes neither the key file copied beside
  it nor the keyring's key it needs.
- A start with no network says a damaged store is damaged and leaves it as it is.
- A keyring that answers with no key for an encrypted store makes no new key: the store
  waits, untouched, as for a locked keyring.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from keyring.backends import fail

from reviewer_app.core import keyfile
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import StoreUnreadable
from reviewer_app.core.sealing import RowCipher
from reviewer_app.core.session import KeyMode, ProfileKey, ReviewSession
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.support.client import all_decisions, login, wait_until
from tests.support.keyring_memory import MemoryKeyring
from tests.support.servers import PASSWORD, LiveServer

QUEUE = LOAD_QUEUE.id


def _session(
    server: LiveServer, user: str, credentials: Credentials, data: Path
) -> tuple[ReviewSession, ProfileKey]:
    result, token, key = ReviewSession.log_in_with_key(
        server.url, user, PASSWORD, credentials=credentials, data_root=data
    )
    session = ReviewSession(
        server.url, result.user, token, credentials=credentials, data_root=data, key=key
    )
    return session, key


def _unsent(session: ReviewSession, count: int) -> list[str]:
    """Lease, decide ``count`` posts (kept in their undo window), and stop: the app closed
    with them unsent."""
    session.start([QUEUE])
    wait_until(lambda: len(session.store.worklist(QUEUE)) >= count, 30, "posts leased")
    decided = []
    for n in range(count):
        item = session.store.next_item(QUEUE)
        assert item is not None
        session.store.record_verdict(item.item.id, action="keep", note=f"N{n}", undo_window=600)
        decided.append(item.item.id)
    session.engine.stop(release=False)
    session.store.close()
    return decided


def _damage(path: Path) -> None:
    """A torn page: the queues table's root page gets a bad page type (SQLite's page check
    finds it; the outbox and journal still read)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'queues'").fetchone()[0]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with path.open("r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\xff")


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _notes(aside: Path, key: bytes) -> set[str]:
    """The notes of the unsent verdicts in a store, read as support would, with its key."""
    conn = sqlite3.connect(aside)
    rows = conn.execute(
        "SELECT j.key, j.verdict FROM journal j JOIN outbox o ON o.key = j.key"
    ).fetchall()
    conn.close()
    cipher = RowCipher(key)
    return {json.loads(cipher.open(f"journal.verdict:{k}", v))["note"] for k, v in rows}


def test_a_forged_verdict_in_a_store_whose_key_check_was_removed_is_never_sent(
    server: LiveServer, tmp_path: Path
) -> None:
    server.add_user("ines")
    credentials = Credentials(MemoryKeyring())
    data = tmp_path / "data"
    session, _key = _session(server, "ines", credentials, data)
    victim = _unsent(session, 1)[0]
    conn = sqlite3.connect(session.path)  # someone with the file and not the key
    (token,) = conn.execute("SELECT lease_token FROM items WHERE id = ?", (victim,)).fetchone()
    forged = str(uuid.uuid4())
    verdict = {
        "idempotency_key": forged,
        "item_id": victim,
        "lease_token": token,
        "action": "remove",
        "policies": ["SPAM.SCAM"],
        "note": "forged",
        "time_spent_ms": 1000,
        "decided_at": datetime.now(UTC).isoformat(),
    }
    conn.execute("DELETE FROM meta WHERE name = 'key_check'")
    conn.execute("DELETE FROM outbox")
    conn.execute("DELETE FROM journal")
    conn.execute(
        "INSERT INTO journal (key, item_id, queue_id, action, verdict, recorded_at, status) "
        "VALUES (?, ?, ?, 'remove', ?, ?, 'pending')",
        (forged, victim, QUEUE, json.dumps(verdict), time.time()),
    )
    conn.execute("INSERT INTO outbox (key, due_at) VALUES (?, 0)", (forged,))
    conn.commit()
    conn.close()

    again, _key = _session(server, "ines", credentials, data)
    assert again.store.moved_aside_to is not None
    assert again.store.pending_count() == 0
    again.start([QUEUE])
    wait_until(lambda: again.store.last_sync() is not None, 30, "a sync pass")
    again.close()
    lead = login(server.url, "lead")
    try:
        assert [d for d in all_decisions(lead, "ines") if d.item_id == victim] == []
    finally:
        lead.close()


@pytest.mark.parametrize("mode", [KeyMode.keyring, KeyMode.password])
def test_a_store_moved_aside_keeps_its_key_through_a_log_out(
    server: LiveServer, tmp_path: Path, mode: KeyMode
) -> None:
    """Log-out deleted the only key of a store moved aside as damaged (the key file stayed
    beside the new store, and the keyring's key was deleted), so its unsent verdicts could
    never be read."""
    server.add_user("lena")
    keyring = MemoryKeyring() if mode is KeyMode.keyring else fail.Keyring()
    credentials = Credentials(keyring)
    data = tmp_path / "data"
    session, key = _session(server, "lena", credentials, data)
    assert key.mode is mode and key.key is not None
    _unsent(session, 3)
    _damage(session.path)

    again, _key = _session(server, "lena", credentials, data)
    aside = again.store.moved_aside_to
    assert aside is not None and again.moved_aside() == [aside]
    assert again.unsent_count() == 0
    again.log_out()
    assert not again.path.exists() and aside.exists()
    if mode is KeyMode.keyring:
        kept = credentials.store_key(again.server_url, "lena", create=False)
    else:
        kept = keyfile.unlock(keyfile.key_file_path(aside), PASSWORD, again.server_url, "lena")
        assert not keyfile.exists(keyfile.key_file_path(again.path))
    assert kept == key.key
    assert _notes(aside, kept) == {"N0", "N1", "N2"}


def test_a_damaged_store_at_a_start_with_no_network_is_left_as_it_is(
    server: LiveServer, tmp_path: Path
) -> None:
    """It was opened unchecked, announced "3 unsent", and then the session's own open ran
    SQLite's check and moved it aside: the window said 3 and showed none."""
    server.add_user("mira")
    credentials = Credentials(fail.Keyring())
    data = tmp_path / "data"
    session, key = _session(server, "mira", credentials, data)
    _unsent(session, 3)
    _damage(session.path)
    damaged = _digest(session.path)

    with pytest.raises(StoreUnreadable):
        ReviewSession.open_offline(
            server.url, "mira", PASSWORD, credentials=credentials, data_root=data
        )
    # the session of a start with no network does not move it either
    offline = ReviewSession(
        server.url,
        session.user,
        None,
        credentials=credentials,
        data_root=data,
        key=key,
        offline=True,
    )
    assert offline.store.moved_aside_to is None
    offline.store.close()
    assert _digest(session.path) == damaged
    assert not list(data.rglob("*.unusable-*"))


def test_a_keyring_with_no_key_for_an_encrypted_store_makes_no_new_key(
    server: LiveServer, tmp_path: Path
) -> None:
    """A keyring that answers but holds no key for this store (another backend, a reset
    collection): a new key was made and the store, with its unsent verdicts, moved aside."""
    server.add_user("nils")
    keyring = MemoryKeyring()
    data = tmp_path / "data"
    session, _key = _session(server, "nils", Credentials(keyring), data)
    decided = _unsent(session, 3)
    saved = _digest(session.path)

    empty = MemoryKeyring()
    credentials = Credentials(empty)
    waiting, _key = _session(server, "nils", credentials, data)
    assert (waiting.key.key, waiting.key.mode, waiting.key.waiting) == (
        None,
        KeyMode.memory,
        session.path,
    )
    assert credentials.reason is not None and "no key" in credentials.reason
    assert waiting.memory_only
    waiting.close()
    store_key = (Credentials.store_key_service_name(session.server_url), "nils")
    assert store_key not in empty.secrets, "no new key made"
    assert _digest(session.path) == saved and not list(data.rglob("*.unusable-*"))
    assert not keyfile.exists(keyfile.key_file_path(session.path))

    back, _key = _session(server, "nils", Credentials(keyring), data)  # the keyring is back
    assert back.store.pending_count() == 3
    back.store.flush_all(time.time())
    back.start([QUEUE])
    wait_until(lambda: back.store.pending_count() == 0, 60, "every verdict delivered")
    back.close()
    lead = login(server.url, "lead")
    try:
        assert sorted(d.item_id for d in all_decisions(lead, "nils")) == sorted(decided)
    finally:
        lead.close()
