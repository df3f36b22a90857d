"""A whole session: log in, sync, log out. The token lives only in the keyring (or memory):
never in a file under the data folder, never in a log line, even at DEBUG."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from reviewer_app.core import events as ev
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import AuthenticationRequired
from reviewer_app.core.session import ReviewSession
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.support.client import EventLog, wait_until
from tests.support.keyring_memory import MemoryKeyring
from tests.support.servers import PASSWORD, LiveServer

QUEUE = LOAD_QUEUE.id


def _files_containing(root: Path, secret: bytes) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and secret in p.read_bytes()]


def test_no_token_in_any_file_or_log_after_login_sync_and_logout(
    server: LiveServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    server.add_user("quinn")
    keyring = MemoryKeyring()
    credentials = Credentials(keyring)
    data = tmp_path / "data"

    result, token = ReviewSession.log_in(server.url, "quinn", PASSWORD, credentials=credentials)
    assert result.saved.persistent and result.user.username == "quinn"
    assert list(keyring.secrets.values()) == [token]

    log = EventLog()
    session = ReviewSession(
        server.url, result.user, token, credentials=credentials, data_root=data, listener=log
    )
    session.store.settings.set("undo_window_seconds", 0.0)
    session.start([QUEUE])
    wait_until(lambda: session.store.next_item(QUEUE) is not None, 30, "items leased ahead")
    for _ in range(5):
        item = session.store.next_item(QUEUE)
        assert item is not None
        session.store.record_verdict(item.item.id, action="keep")
        session.engine.nudge()
    wait_until(lambda: session.store.counts().pending == 0, 30, "delivery")
    store_file = session.path
    assert store_file.is_relative_to(data) and store_file.exists()
    assert _files_containing(data, token.encode()) == []
    session.log_out()

    assert not store_file.exists(), "logging out wipes the profile's local data"
    assert _files_containing(data, token.encode()) == []
    assert _files_containing(tmp_path, token.encode()) == []
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert token not in logged and token[:12] not in logged
    assert keyring.secrets == {}
    # the token was revoked on the server
    assert ReviewSession.resume(server.url, "quinn", credentials=credentials) is None
    credentials.save(server.url, "quinn", token)  # a stale token found at start
    assert ReviewSession.resume(server.url, "quinn", credentials=credentials) is None
    assert keyring.secrets == {}, "a refused token is forgotten"
    assert log.of(ev.Synced)


def test_a_saved_token_resumes_the_session(server: LiveServer) -> None:
    server.add_user("rory")
    credentials = Credentials(MemoryKeyring())
    _result, token = ReviewSession.log_in(server.url, "rory", PASSWORD, credentials=credentials)
    resumed = ReviewSession.resume(server.url + "/", "rory", credentials=credentials)
    assert resumed is not None and resumed[0].username == "rory" and resumed[1] == token
    assert ReviewSession.resume(server.url, "someone-else", credentials=credentials) is None
    with pytest.raises(AuthenticationRequired):
        ReviewSession.log_in(server.url, "rory", "wrong password!", credentials=credentials)
