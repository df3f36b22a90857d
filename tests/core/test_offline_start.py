"""Starting with no network from what this computer keeps, through the app's own core against
the real service over HTTP: with a keyring (the saved token and store key), and without one
(the store key wrapped under the password beside the store, the password checked against it,
not the server, a login asked for when the server is back). The verdicts made before and
after the restart reach the service exactly once; a wrong password changes nothing."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backends import fail
from sqlalchemy import update

from reviewer_app.core import events as ev
from reviewer_app.core import keyfile
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.keyfile import WrongPassword
from reviewer_app.core.paths import store_path
from reviewer_app.core.session import KeyMode, NothingSaved, ReviewSession
from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.storage.tables import users
from tests.support.client import EventLog, all_decisions, login, wait_until
from tests.support.keyring_memory import MemoryKeyring
from tests.support.servers import PASSWORD, LiveServer

QUEUE = LOAD_QUEUE.id


class Service:
    """The service on one SQLite file and one port, stopped and started again as a train
    loses and finds the network."""

    def __init__(self, tmp_path: Path) -> None:
        self.database = f"sqlite:///{tmp_path / 'service.db'}"
        self.live: LiveServer | None = LiveServer(self.database).start()
        self.port = self.live.port
        self.url = self.live.url
        seed_load_queue(self.live.service, 60)
        self.live.add_user("lead", Role.lead)

    def add_user(self, name: str) -> None:
        assert self.live is not None
        self.live.add_user(name)

    def stop(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None

    def start(self) -> None:
        self.live = LiveServer(self.database, port=self.port).start()

    def set_password(self, user: str, password: str) -> None:  # an admin's set-password
        assert self.live is not None
        with self.live.service.db.write() as conn:
            conn.execute(
                update(users)
                .where(users.c.username == user)
                .values(password_hash=self.live.service.hasher.hash(password))
            )

    def decisions(self, reviewer: str) -> Counter[str]:
        lead = login(self.url, "lead")
        try:
            return Counter(d.item_id for d in all_decisions(lead, reviewer))
        finally:
            lead.close()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    running = Service(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def _quick(session: ReviewSession) -> None:
    for name, value in (
        ("undo_window_seconds", 0.0),
        ("backoff_cap_seconds", 1.0),
        ("prefetch_target", 10),
    ):
        session.store.settings.set(name, value)


def _decide(session: ReviewSession, count: int) -> list[str]:
    decided = []
    for _ in range(count):
        item = session.store.next_item(QUEUE, include_expired=True)
        assert item is not None
        session.store.record_verdict(item.item.id, action="keep", time_spent_ms=1)
        decided.append(item.item.id)
    return decided


def _files(*paths: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        for suffix in ("", "-wal", "-shm"):
            found = Path(str(path) + suffix)
            digest.update(found.read_bytes() if found.exists() else b"-")
    return digest.hexdigest()


def _online_session(
    service: Service, user: str, credentials: Credentials, data: Path
) -> tuple[ReviewSession, EventLog, str]:
    """Log in as the app does, lease ahead and a small offline batch, then the network goes."""
    result, token = ReviewSession.log_in(service.url, user, PASSWORD, credentials=credentials)
    key = ReviewSession.profile_key(
        service.url, user, PASSWORD, credentials=credentials, data_root=data
    )
    log = EventLog()
    session = ReviewSession(
        service.url,
        result.user,
        token,
        credentials=credentials,
        data_root=data,
        listener=log,
        key=key,
    )
    _quick(session)
    session.start([QUEUE])
    session.engine.work_offline(QUEUE, 15)
    log.wait(lambda: any(p.finished for p in log.of(ev.Progress)), 30, "the offline batch")
    wait_until(lambda: session.store.last_sync() is not None, 30, "a good sync, kept")
    return session, log, token


def test_a_keyring_profile_starts_offline_with_its_saved_login_and_delivers_once(
    service: Service, tmp_path: Path
) -> None:
    service.add_user("kai")
    keyring = MemoryKeyring()
    data = tmp_path / "data"
    session, _log, token = _online_session(service, "kai", Credentials(keyring), data)
    assert session.key_mode is KeyMode.keyring
    assert not keyfile.exists(keyfile.key_file_path(session.path)), "the keyring holds the key"
    held = sum(session.store.ready_counts().values())
    assert held >= 15

    service.stop()
    before = _decide(session, 4)  # the engine cannot send them: they wait in the store
    session.engine.stop(release=False)  # the app dies (the UI test kills a real process)
    session.store.close()
    synced = session.engine.last_sync
    assert synced is not None

    # a new start, a new process: what the keyring keeps, no network
    credentials = Credentials(keyring)
    start = ReviewSession.open_offline(
        service.url,
        "kai",
        "the keyring mode does not need it",
        credentials=credentials,
        data_root=data,
    )
    assert start.token == token and start.key.mode is KeyMode.keyring
    assert start.user == session.user
    assert (start.summary.unsent, start.summary.posts) == (4, held - 4)
    log = EventLog()
    again = ReviewSession(
        service.url,
        start.user,
        start.token,
        credentials=credentials,
        data_root=data,
        listener=log,
        key=start.key,
        offline=True,
    )
    assert again.store.last_sync() == synced, "the last sync survives the restart"
    again.start([QUEUE])
    log.wait(lambda: log.of(ev.OnlineChanged), 30, "a failed pass")
    after = _decide(again, 3)
    again.engine.nudge()

    service.start()
    wait_until(lambda: again.store.pending_count() == 0, 60, "every verdict delivered")
    again.close()
    assert service.decisions("kai") == Counter(before + after)
    assert set(service.decisions("kai").values()) == {1}


def test_without_a_keyring_the_password_opens_the_saved_work_and_a_login_follows(
    service: Service, tmp_path: Path
) -> None:
    service.add_user("noor")
    data = tmp_path / "data"
    session, _log, token = _online_session(service, "noor", Credentials(fail.Keyring()), data)
    assert session.key_mode is KeyMode.password and not session.memory_only
    wrapped = keyfile.key_file_path(session.path)
    assert keyfile.exists(wrapped) and session.path.exists()
    held = sum(session.store.ready_counts().values())

    service.stop()
    before = _decide(session, 5)
    session.engine.stop(release=False)
    session.store.close()
    saved = _files(session.path, wrapped)

    credentials = Credentials(fail.Keyring())  # a new process: no token anywhere
    with pytest.raises(WrongPassword):
        ReviewSession.open_offline(
            service.url, "noor", "not the password", credentials=credentials, data_root=data
        )
    assert _files(session.path, wrapped) == saved, "a wrong password changes nothing"
    start = ReviewSession.open_offline(
        service.url, "noor", PASSWORD, credentials=credentials, data_root=data
    )
    assert start.token is None and start.key.mode is KeyMode.password
    assert start.key.key == session.key.key
    assert (start.summary.unsent, start.summary.posts) == (5, held - 5)

    log = EventLog()
    again = ReviewSession(
        service.url,
        start.user,
        start.token,
        credentials=credentials,
        data_root=data,
        listener=log,
        key=start.key,
        offline=True,
    )
    again.start([QUEUE])
    log.wait(lambda: log.of(ev.OnlineChanged), 30, "the server found unreachable")
    after = _decide(again, 2)
    service.start()
    log.wait(lambda: any(e.server_back for e in log.of(ev.AuthRequired)), 60, "the server is back")
    assert again.store.pending_count() == 7, "nothing is sent without a login"
    _result, new_token = again.log_in_again(PASSWORD)
    again.relogged_in(new_token)
    wait_until(lambda: again.store.pending_count() == 0, 60, "every verdict delivered")
    again.close()
    assert service.decisions("noor") == Counter(before + after)
    assert set(service.decisions("noor").values()) == {1}
    # the token never reached a file
    for path in data.rglob("*"):
        if path.is_file():
            data_bytes = path.read_bytes()
            assert token.encode() not in data_bytes and new_token.encode() not in data_bytes


def test_nothing_to_open_offline_is_said_plainly(service: Service, tmp_path: Path) -> None:
    service.add_user("olu")
    data = tmp_path / "data"
    keyring = MemoryKeyring()
    credentials = Credentials(keyring)
    with pytest.raises(NothingSaved) as nothing:
        ReviewSession.open_offline(
            service.url, "olu", PASSWORD, credentials=credentials, data_root=data
        )
    assert not nothing.value.logged_out

    session, _log, _token = _online_session(service, "olu", credentials, data)
    service.stop()
    _decide(session, 2)
    assert session.log_out() == 2  # offline: the unsent verdicts stay, the login goes
    with pytest.raises(NothingSaved) as logged_out:
        ReviewSession.open_offline(
            service.url, "olu", PASSWORD, credentials=Credentials(keyring), data_root=data
        )
    assert logged_out.value.logged_out


def test_a_password_changed_on_the_server_rewraps_the_key_or_moves_the_old_work_aside(
    service: Service, tmp_path: Path
) -> None:
    service.add_user("pim")
    data = tmp_path / "data"
    credentials = Credentials(fail.Keyring())
    session, _log, _token = _online_session(service, "pim", credentials, data)
    wrapped = keyfile.key_file_path(session.path)

    def change_password(new: str) -> None:
        service.set_password("pim", new)

    # changed while the session runs: the next login wraps the same key under the new one
    change_password("a brand new password")
    _result, token = session.log_in_again("a brand new password")
    session.relogged_in(token)
    assert keyfile.unlock(wrapped, "a brand new password", session.server_url, "pim") == (
        session.key.key
    )
    with pytest.raises(WrongPassword):
        keyfile.unlock(wrapped, PASSWORD, session.server_url, "pim")
    session.close()

    # changed elsewhere while the app was closed: the work waits for the previous password
    # (nothing moved); given it, the key is wrapped under the new one; else it goes aside
    change_password("another one")
    key = ReviewSession.profile_key(
        service.url, "pim", "another one", credentials=credentials, data_root=data
    )
    assert key.key is None and key.locked == session.path and key.moved_aside is None
    assert session.path.exists()
    with pytest.raises(WrongPassword):
        ReviewSession.reopen(service.url, "pim", "not it", "another one", data_root=data)
    reopened = ReviewSession.reopen(
        service.url, "pim", "a brand new password", "another one", data_root=data
    )
    assert reopened.key == session.key.key
    assert keyfile.unlock(wrapped, "another one", session.server_url, "pim") == session.key.key

    change_password("a third one")
    afresh = ReviewSession.start_afresh(service.url, "pim", "a third one", data_root=data)
    assert afresh.mode is KeyMode.password and afresh.moved_aside is not None
    assert afresh.key != session.key.key
    aside = afresh.moved_aside
    assert Path(str(aside) + keyfile.SUFFIX).exists() and aside.exists()
    assert (
        keyfile.unlock(Path(str(aside) + keyfile.SUFFIX), "another one", session.server_url, "pim")
        == session.key.key
    ), "the work moved aside still opens with the password it was last wrapped under"
    assert store_path(session.server_url, "pim", data) == session.path


class LockedKeyring(MemoryKeyring):
    """A keyring that holds the secrets and cannot give them now (a locked collection, a
    Secret Service not started yet): every read fails until ``unlock``."""

    locked = True

    def get_password(self, service: str, username: str) -> str | None:
        if self.locked:
            raise RuntimeError("the collection is locked")
        return super().get_password(service, username)


def test_a_keyring_that_cannot_be_read_leaves_the_saved_work_for_when_it_can(
    service: Service, tmp_path: Path
) -> None:
    """Unsent verdicts kept under the keyring's key, then a start while the keyring cannot
    be read: with no network, a start says so and changes nothing; online, the session keeps
    nothing on disk and leaves the store as it is. It had wrapped a new key under the
    password and moved the store aside, for good: the verdicts in it were never sent."""
    service.add_user("kai")
    keyring = LockedKeyring()
    keyring.locked = False
    data = tmp_path / "data"
    session, _log, _token = _online_session(service, "kai", Credentials(keyring), data)
    assert session.key_mode is KeyMode.keyring
    service.stop()
    before = _decide(session, 4)
    session.engine.stop(release=False)
    session.store.close()
    saved = _files(session.path)
    keyring.locked = True

    with pytest.raises(NothingSaved) as offline:
        ReviewSession.open_offline(
            service.url, "kai", PASSWORD, credentials=Credentials(keyring), data_root=data
        )
    assert offline.value.keyring is not None and not offline.value.logged_out
    assert "cannot be read now" in str(offline.value)

    service.start()
    key = ReviewSession.profile_key(
        service.url, "kai", PASSWORD, credentials=Credentials(keyring), data_root=data
    )
    assert (key.key, key.mode, key.waiting) == (None, KeyMode.memory, session.path)
    assert not keyfile.exists(keyfile.key_file_path(session.path))
    assert _files(session.path) == saved and not list(data.rglob("*.unusable-*"))

    keyring.locked = False  # unlocked: the next login opens the store and sends them
    again, _log, _token = _online_session(service, "kai", Credentials(keyring), data)
    wait_until(lambda: again.store.pending_count() == 0, 60, "every verdict delivered")
    again.close()
    assert service.decisions("kai") == Counter(before)


def test_a_damaged_store_at_a_start_with_no_network_is_said_and_left_as_it_is(
    service: Service, tmp_path: Path
) -> None:
    """A start with no network that finds the store unreadable says so and changes
    nothing. It had moved the file aside without a word and opened a new, empty store as
    a reviewer with nothing saved ("0 verdicts, 0 posts")."""
    import sqlite3

    from reviewer_app.core.errors import StoreUnreadable

    service.add_user("noor")
    data = tmp_path / "data"
    session, _log, _token = _online_session(service, "noor", Credentials(fail.Keyring()), data)
    service.stop()
    _decide(session, 3)
    session.engine.stop(release=False)
    session.store.close()
    with sqlite3.connect(session.path) as conn:  # everything in the file itself
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    whole = session.path.read_bytes()
    session.path.write_bytes(whole[: len(whole) // 2])
    damaged = _files(session.path)

    with pytest.raises(StoreUnreadable):
        ReviewSession.open_offline(
            service.url, "noor", PASSWORD, credentials=Credentials(fail.Keyring()), data_root=data
        )
    assert _files(session.path) == damaged and not list(data.rglob("*.unusable-*"))
