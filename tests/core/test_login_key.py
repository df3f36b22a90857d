"""The login and the store key's KDF at once (``ReviewSession.log_in_with_key``), against the
real service over HTTP with no keyring (the key wrapped under the password beside the
store): the key file is opened beside the login, its key used only for a login the service
accepted; a password changed elsewhere still keeps the old work aside; a refused login
changes no file."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from keyring.backends import fail
from sqlalchemy import update

from reviewer_app.core import keyfile
from reviewer_app.core.api import normalise_server_url
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import ApiError
from reviewer_app.core.paths import store_path
from reviewer_app.core.session import KeyMode, ReviewSession
from reviewer_app.server.storage.tables import users
from tests.support.servers import PASSWORD, LiveServer


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'service.db'}").start()
    server.add_user("ines")
    try:
        yield server
    finally:
        server.stop()


def _login(live: LiveServer, password: str, data: Path) -> tuple[str, Path | None, bytes]:
    _result, token, key = ReviewSession.log_in_with_key(
        live.url, "ines", password, credentials=Credentials(fail.Keyring()), data_root=data
    )
    assert key.mode is KeyMode.password and key.key is not None
    return token, key.moved_aside, key.key


def _digest(folder: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(folder.rglob("*")):
        digest.update(str(path.relative_to(folder)).encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def test_the_key_file_is_opened_beside_the_login_and_gives_the_same_key(
    live: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "data"
    _token, aside, first = _login(live, PASSWORD, data)  # a new profile: a new key file
    assert aside is None
    wrapped = keyfile.key_file_path(store_path(normalise_server_url(live.url), "ines", data))
    assert wrapped.is_file()

    opened_on: list[str] = []
    unlock = keyfile.unlock

    def watched(*args: object) -> bytes:
        opened_on.append(threading.current_thread().name)
        return unlock(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(keyfile, "unlock", watched)
    _token, aside, again = _login(live, PASSWORD, data)
    assert again == first and aside is None
    assert len(opened_on) == 1 and opened_on[0].startswith("key-file"), opened_on


def test_a_password_changed_elsewhere_still_keeps_the_old_work_aside(
    live: LiveServer, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    _token, _aside, first = _login(live, PASSWORD, data)
    with live.service.db.write() as conn:
        conn.execute(
            update(users)
            .where(users.c.username == "ines")
            .values(password_hash=live.service.hasher.hash("changed at the help desk"))
        )
    _token, aside, key = _login(live, "changed at the help desk", data)
    assert aside is not None and key != first
    kept = Path(str(aside) + keyfile.SUFFIX)
    assert keyfile.unlock(kept, PASSWORD, normalise_server_url(live.url), "ines") == first


def test_a_refused_login_changes_no_file(live: LiveServer, tmp_path: Path) -> None:
    data = tmp_path / "data"
    _login(live, PASSWORD, data)
    before = _digest(data)
    with pytest.raises(ApiError):
        _login(live, "not the password", data)
    assert _digest(data) == before


def test_the_key_file_is_opened_while_the_service_is_waited_for(
    live: LiveServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The demo waits for its service's start (``first``) before the login: the KDF runs
    during that wait, not after it."""
    data = tmp_path / "data"
    _token, _aside, key = _login(live, PASSWORD, data)
    started = threading.Event()
    unlock = keyfile.unlock

    def watched(*args: object) -> bytes:
        started.set()
        return unlock(*args)  # type: ignore[arg-type]

    waited: list[bool] = []
    monkeypatch.setattr(keyfile, "unlock", watched)
    _result, _token, again = ReviewSession.log_in_with_key(
        live.url,
        "ines",
        PASSWORD,
        credentials=Credentials(fail.Keyring()),
        data_root=data,
        first=lambda: waited.append(started.wait(10)),
    )
    assert waited == [True]  # the KDF had started before the wait was over
    assert again.key == key and again.mode is KeyMode.password


def test_a_key_file_made_now_has_the_costs_asked_for_and_an_old_one_keeps_its_own(
    live: LiveServer, tmp_path: Path
) -> None:
    """The demo (a published password) asks for the KDF's least costs; a key file that is
    there already keeps the costs it was made with, whatever a later login asks for."""
    data = tmp_path / "data"
    no_keyring = Credentials(fail.Keyring())
    _result, _token, made = ReviewSession.log_in_with_key(
        live.url,
        "ines",
        PASSWORD,
        credentials=no_keyring,
        data_root=data,
        kdf=keyfile.PUBLISHED_PASSWORD_PARAMS,
    )
    wrapped = keyfile.key_file_path(store_path(normalise_server_url(live.url), "ines", data))
    document = json.loads(wrapped.read_text(encoding="ascii"))
    assert (document["time_cost"], document["memory_cost"], document["parallelism"]) == (
        1,
        8 * 1024,
        1,
    )
    _result, _token, again = ReviewSession.log_in_with_key(
        live.url, "ines", PASSWORD, credentials=no_keyring, data_root=data
    )
    assert again.key == made.key and again.moved_aside is None
    assert json.loads(wrapped.read_text(encoding="ascii")) == document

    other = tmp_path / "other"  # the default: RFC 9106's second recommended setting
    _token, _aside, _key = _login(live, PASSWORD, other)
    path = keyfile.key_file_path(store_path(normalise_server_url(live.url), "ines", other))
    document = json.loads(path.read_text(encoding="ascii"))
    assert (document["time_cost"], document["memory_cost"], document["parallelism"]) == (
        3,
        64 * 1024,
        4,
    )
