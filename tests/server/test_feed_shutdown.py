"""A graceful stop of ``reviewer-app server`` (SIGTERM) is not held up by long polls of the
enforcement feed: each waiting read answers at once (its page, empty, the cursor unchanged)
and the process exits within a few seconds, not after the polls' 30 s wait, with one worker
process and with several, on SQLite and PostgreSQL. uvicorn closes the listening socket
first, so until then the whole service refused traffic."""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

import pytest
import requests

from reviewer_app.protocol import Role
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service
from tests.support.servers import ServerProcess

WAIT = 30


def platform_key(database_url: str) -> str:
    setup = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    setup.start()
    try:
        return setup.create_api_key(Role.platform, "feed-bridge").key
    finally:
        setup.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_stop_answers_waiting_long_polls_at_once(database_url: str, workers: int) -> None:
    key = platform_key(database_url)
    server = ServerProcess(database_url, workers=workers).start()
    answers: list[Any] = []

    def poll() -> None:
        try:
            response = requests.get(
                f"{server.url}/api/v1/enforcement",
                params={"after": 0, "wait": WAIT},
                headers={"Authorization": f"Bearer {key}"},
                timeout=WAIT + 30,
            )
            answers.append((response.status_code, response.json()))
        except requests.RequestException as exc:
            answers.append(exc)

    readers = [threading.Thread(target=poll) for _ in range(2 * workers)]
    try:
        for reader in readers:
            reader.start()
        time.sleep(2)  # every read is waiting (nothing to read: the feed is empty)
        assert not answers, answers
        assert server.proc is not None
        started = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        server.proc.wait(WAIT + 15)
        stopped = time.monotonic() - started
        for reader in readers:
            reader.join(10)
    finally:
        server.stop()
    assert stopped < 5, f"the stop waited {stopped:.1f} s for the long polls"
    assert answers == [(200, {"actions": [], "next_cursor": 0})] * len(readers)
