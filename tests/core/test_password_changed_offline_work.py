"""A password changed on the service while the app was closed, with verdicts decided offline
and kept under the old one (no keyring: the store key is wrapped under the password), against
the real service over HTTP and real files: the next login leaves the work as it is and says
how much waits; the previous password opens it, wraps its key under the new one and the
verdicts reach the service once, with the leases kept; a wrong one changes nothing; starting
afresh moves it aside, still opened by the previous password."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backends import fail

from reviewer_app.core import keyfile
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import StoreInUse
from reviewer_app.core.keyfile import WrongPassword
from reviewer_app.core.session import KeyMode, ReviewSession
from reviewer_app.core.store import hold
from tests.core.test_offline_start import QUEUE, Service, _decide, _files, _online_session
from tests.support.client import EventLog, wait_until
from tests.support.servers import PASSWORD

NEW = "set by an admin meanwhile"


@pytest.fixture
def service(tmp_path: Path) -> Iterator[Service]:
    running = Service(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def _offline_work(service: Service, user: str, data: Path) -> tuple[ReviewSession, list[str], int]:
    """Leases taken online, then 3 verdicts decided with no network, then the app killed
    and the password changed on the service. The session, what it decided, what it held."""
    session, _log, _token = _online_session(service, user, Credentials(fail.Keyring()), data)
    held = sum(session.store.ready_counts().values())
    service.stop()
    decided = _decide(session, 3)
    session.engine.stop(release=False)  # killed: nothing sent, nothing given back
    session.store.close()
    service.start()
    service.set_password(user, NEW)
    return session, decided, held


def test_password_changed_the_previous_one_opens_the_work_and_it_is_sent(
    service: Service, tmp_path: Path
) -> None:
    service.add_user("quin")
    data = tmp_path / "data"
    old, decided, held = _offline_work(service, "quin", data)
    path, wrapped = old.path, keyfile.key_file_path(old.path)
    before = _files(path, wrapped)

    credentials = Credentials(fail.Keyring())  # a new start: the new password, online
    result, token, key = ReviewSession.log_in_with_key(
        service.url, "quin", NEW, credentials=credentials, data_root=data
    )
    assert key.key is None and key.locked == path and key.unsent == 3
    assert key.moved_aside is None and not keyfile.stores_moved_aside(path)
    assert _files(path, wrapped) == before, "the work is left as it is, unopened"

    with pytest.raises(WrongPassword):
        ReviewSession.reopen(service.url, "quin", "not the previous one", NEW, data_root=data)
    assert _files(path, wrapped) == before, "a wrong previous password changes nothing"

    key = ReviewSession.reopen(service.url, "quin", PASSWORD, NEW, data_root=data)
    assert key.mode is KeyMode.password and key.key == old.key.key
    assert keyfile.unlock(wrapped, NEW, old.server_url, "quin") == old.key.key
    with pytest.raises(WrongPassword):
        keyfile.unlock(wrapped, PASSWORD, old.server_url, "quin")
    assert not list(wrapped.parent.glob("*.tmp")), "replaced in one step"

    log = EventLog()
    again = ReviewSession(
        service.url, result.user, token, credentials=credentials, data_root=data, listener=log,
        key=key,
    )  # fmt: skip
    try:
        assert again.store.moved_aside_to is None and again.unsent_count() == 3
        assert sum(again.store.ready_counts().values()) == held - 3, "the leases are kept"
        again.start([QUEUE])
        wait_until(lambda: again.store.pending_count() == 0, 60, "the verdicts delivered")
    finally:
        again.close()
    assert service.decisions("quin") == Counter(decided)
    assert set(service.decisions("quin").values()) == {1}
    # the next start opens it with the new password straight away
    _result, _token, key = ReviewSession.log_in_with_key(
        service.url, "quin", NEW, credentials=Credentials(fail.Keyring()), data_root=data
    )
    assert key.key == old.key.key and key.locked is None


def test_password_changed_starting_afresh_keeps_the_old_work_aside(
    service: Service, tmp_path: Path
) -> None:
    service.add_user("rhea")
    data = tmp_path / "data"
    old, _decided, _held = _offline_work(service, "rhea", data)
    _result, _token, key = ReviewSession.log_in_with_key(
        service.url, "rhea", NEW, credentials=Credentials(fail.Keyring()), data_root=data
    )
    assert key.locked == old.path
    # another copy of the app opened the work meanwhile (offline, with the old password):
    # its live files are not renamed from under it
    other = hold(old.path)
    assert other is not None
    try:
        with pytest.raises(StoreInUse):
            ReviewSession.start_afresh(service.url, "rhea", NEW, data_root=data)
    finally:
        other.release()
    assert old.path.exists() and not keyfile.stores_moved_aside(old.path)
    fresh = ReviewSession.start_afresh(service.url, "rhea", NEW, data_root=data)
    assert fresh.afresh and fresh.moved_aside is not None and fresh.key != old.key.key
    aside = fresh.moved_aside
    assert keyfile.stores_moved_aside(old.path) == [aside] and not old.path.exists()
    kept = Path(str(aside) + keyfile.SUFFIX)
    assert keyfile.unlock(kept, PASSWORD, old.server_url, "rhea") == old.key.key
    assert keyfile.unlock(keyfile.key_file_path(old.path), NEW, old.server_url, "rhea") == (
        fresh.key
    )
