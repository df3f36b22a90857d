"""One copy of the app at a time on a local store (the same account on the same server):
a second one is refused (``StoreInUse``) before it opens, checks or moves the file aside,
and the lock goes with the process that held it, killed or not."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sqlalchemy import func, select

from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import StoreInUse
from reviewer_app.core.session import ReviewSession
from reviewer_app.core.store import Store
from reviewer_app.server.storage.tables.accounts import sessions
from tests.support.keyring_memory import MemoryKeyring
from tests.support.servers import PASSWORD, LiveServer

KEY = bytes(range(32))


def test_a_second_copy_is_refused_until_the_first_closes(tmp_path: Path) -> None:
    path = tmp_path / "alice.sqlite3"
    first = Store(path, key=KEY, exclusive=True)
    with pytest.raises(StoreInUse):
        Store(path, key=KEY, exclusive=True)
    with pytest.raises(StoreInUse):  # not even a wrong key moves the file aside now
        Store(path, key=bytes(32), exclusive=True)
    assert path.exists() and not list(tmp_path.glob("*.damaged*")), list(tmp_path.iterdir())
    engine_side = Store(path, key=KEY)  # the sync thread's own connection of the same copy
    engine_side.close()
    first.close()
    second = Store(path, key=KEY, exclusive=True)
    second.close()


def test_a_killed_copy_holds_nothing(tmp_path: Path) -> None:
    path = tmp_path / "alice.sqlite3"
    ready = tmp_path / "ready"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import time
                from pathlib import Path
                from reviewer_app.core.store import Store
                Store(Path({str(path)!r}), key=bytes(range(32)), exclusive=True)
                Path({str(ready)!r}).touch()
                time.sleep(120)
                """
            ),
        ],
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        deadline = time.monotonic() + 60
        while not ready.exists():
            assert holder.poll() is None and time.monotonic() < deadline, "the holder never opened"
            time.sleep(0.05)
        with pytest.raises(StoreInUse):
            Store(path, key=KEY, exclusive=True)
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(30)
    Store(path, key=KEY, exclusive=True).close()


def test_a_second_copy_logs_nobody_in(tmp_path: Path) -> None:
    """Refused before the login, not after it: the other copy's token stays the one the
    keyring keeps, and the service issues no token that nobody will use or log out."""
    server = LiveServer(f"sqlite:///{tmp_path / 'service.db'}").start()
    server.add_user("ines")
    data, backend = tmp_path / "data", MemoryKeyring()
    credentials = Credentials(backend)
    try:
        result, token, key = ReviewSession.log_in_with_key(
            server.url, "ines", PASSWORD, credentials=credentials, data_root=data
        )
        first = ReviewSession(
            server.url, result.user, token, credentials=credentials, data_root=data, key=key
        )
        try:
            kept = dict(backend.secrets)
            with pytest.raises(StoreInUse):
                ReviewSession.log_in_with_key(
                    server.url, "ines", PASSWORD, credentials=credentials, data_root=data
                )
            assert backend.secrets == kept
            with server.service.db.read() as conn:
                assert conn.execute(select(func.count()).select_from(sessions)).scalar() == 1
        finally:
            first.close()
        ReviewSession.log_in_with_key(  # the first copy closed: this one may log in
            server.url, "ines", PASSWORD, credentials=credentials, data_root=data
        )
    finally:
        server.stop()
