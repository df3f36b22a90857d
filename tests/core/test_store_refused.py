"""Saved work this release may not open, said as what it is and left as it is.

- A store written by a newer release is refused with its own error (``StoreTooNew``), at
  any open (checked or not, online or at a start with no network), the file unchanged and
  no connection left open.
- A start with no network that finds a store of a release before encryption (schema 2,
  nothing sealed, no key made for it yet), with a keyring or without one, says so
  (``NothingSaved.before_encryption``: a login upgrades it), changes nothing, and the next
  login does upgrade it and delivers its unsent verdicts once. It had said that nothing
  was saved here (with a keyring), or that the work was locked with a key the keyring
  holds (without one; that login then left the store waiting for a keyring for ever).
- A store whose key the keyring does not hold is said to be here with its key missing
  (``NothingSaved.key_missing``), not "nothing saved", and left as it is.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backends import fail

from reviewer_app.core.api import normalise_server_url
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import StoreTooNew
from reviewer_app.core.paths import store_path
from reviewer_app.core.session import KeyMode, NothingSaved, ReviewSession
from reviewer_app.core.store import SCHEMA_VERSION, Store, encrypted_store
from tests.core.test_offline_start import QUEUE, Service, _files, _online_session
from tests.core.test_store_at_rest import _as_schema_2
from tests.support.client import login, wait_until
from tests.support.keyring_memory import MemoryKeyring
from tests.support.servers import PASSWORD


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    running = Service(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def _newer(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()


def test_a_store_of_a_newer_release_is_refused_as_such_at_every_open(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite3"
    key = bytes(range(32))
    with Store(path, key=key) as store:
        store.settings.set("prefetch_target", 7)
    _newer(path)
    before = _files(path)
    for kwargs in ({}, {"check": False}, {"move_aside": False}):
        with pytest.raises(StoreTooNew) as refused:
            Store(path, key=key, **kwargs)  # type: ignore[arg-type]
        assert (refused.value.found, refused.value.known) == (SCHEMA_VERSION + 1, SCHEMA_VERSION)
        assert "newer release" in str(refused.value) and "left as it is" in str(refused.value)
    assert _files(path) == before and not list(tmp_path.glob("*.unusable-*"))
    # no connection was left open: the file can be taken for writing at once
    conn = sqlite3.connect(path, timeout=0)
    conn.execute("BEGIN EXCLUSIVE")
    conn.rollback()
    conn.close()


def test_a_start_with_no_network_refuses_a_newer_release_s_store(
    service: Service, tmp_path: Path
) -> None:
    service.add_user("nia")
    data = tmp_path / "data"
    session, _log, _token = _online_session(service, "nia", Credentials(fail.Keyring()), data)
    session.close()
    service.stop()
    _newer(session.path)
    before = _files(session.path)
    with pytest.raises(StoreTooNew):
        ReviewSession.open_offline(
            service.url, "nia", PASSWORD, credentials=Credentials(fail.Keyring()), data_root=data
        )
    assert _files(session.path) == before


def _store_before_encryption(service: Service, user: str, data: Path) -> tuple[Path, list[str]]:
    """A store as a release before encryption kept it (schema 2, plain), with 3 unsent
    verdicts, at the profile's place."""
    service.add_user(user)
    path = store_path(normalise_server_url(service.url), user, data)
    client = login(service.url, user)
    try:
        with Store(path) as store:
            store.add_leased(client.claim(QUEUE, 6, 600))
            decided = [r.item_id for r in store.worklist(QUEUE)][:3]
            for item_id in decided:
                store.record_verdict(item_id, action="keep", note="kept", undo_window=0)
    finally:
        client.close()
    _as_schema_2(path)
    assert encrypted_store(path) is False
    return path, decided


@pytest.mark.parametrize("keyring", ["keyring", "no keyring"])
def test_a_store_from_before_encryption_is_said_offline_and_upgraded_at_the_next_login(
    service: Service, tmp_path: Path, keyring: str
) -> None:
    data = tmp_path / "data"
    backend = MemoryKeyring() if keyring == "keyring" else fail.Keyring()
    user = "ola" if keyring == "keyring" else "ode"
    path, decided = _store_before_encryption(service, user, data)
    credentials = Credentials(backend)
    credentials.save(normalise_server_url(service.url), user, "a saved token")
    service.stop()
    before = _files(path)

    with pytest.raises(NothingSaved) as offline:
        ReviewSession.open_offline(
            service.url, user, PASSWORD, credentials=credentials, data_root=data
        )
    assert offline.value.before_encryption and not offline.value.key_missing
    assert offline.value.keyring is None and not offline.value.logged_out
    assert _files(path) == before and not list(data.rglob("*.unusable-*"))

    service.start()  # the next login encrypts it in place and sends what it held
    result, token = ReviewSession.log_in(service.url, user, PASSWORD, credentials=credentials)
    key = ReviewSession.profile_key(
        service.url, user, PASSWORD, credentials=credentials, data_root=data
    )
    assert key.key is not None and key.fresh and key.waiting is None
    assert key.mode is (KeyMode.keyring if keyring == "keyring" else KeyMode.password)
    session = ReviewSession(
        service.url, result.user, token, credentials=credentials, data_root=data, key=key
    )
    try:
        assert not session.memory_only and session.store.encrypted
        assert session.store.recovery_message is None
        session.start([QUEUE])
        wait_until(lambda: session.store.pending_count() == 0, 60, "the kept verdicts sent")
    finally:
        session.close()
    assert encrypted_store(path) is True
    assert +service.decisions(user) == Counter(decided)


def test_a_store_whose_key_left_the_keyring_is_said_to_be_here_and_left_as_it_is(
    service: Service, tmp_path: Path
) -> None:
    service.add_user("kit")
    data = tmp_path / "data"
    keyring = MemoryKeyring()
    session, _log, _token = _online_session(service, "kit", Credentials(keyring), data)
    service.stop()
    item = session.store.next_item(QUEUE, include_expired=True)
    assert item is not None
    session.store.record_verdict(item.item.id, action="keep", undo_window=0)
    session.engine.stop(release=False)
    session.store.close()
    Credentials(keyring).delete_store_key(session.server_url, "kit")  # the entry cleared
    before = _files(session.path)

    with pytest.raises(NothingSaved) as offline:
        ReviewSession.open_offline(
            service.url, "kit", PASSWORD, credentials=Credentials(keyring), data_root=data
        )
    assert offline.value.key_missing and not offline.value.before_encryption
    assert offline.value.keyring is None and not offline.value.logged_out
    assert _files(session.path) == before and not list(data.rglob("*.unusable-*"))
