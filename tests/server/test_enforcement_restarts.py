"""A feed reader that restarts from its saved cursor while the service is SIGKILLed and
started again a few times (SQLite and PostgreSQL): after de-duplication by id it has every
action exactly once, in seq order, and nothing else.

Decisions are made between the restarts and while the service is being killed (a batch in
flight may or may not have committed: the database says which). The reader keeps what it
received and its cursor in files; now and then it "crashes" after keeping an action and
before saving the cursor, so it reads that action again on its next start (the
de-duplication's business).
"""

from __future__ import annotations

import contextlib
import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import requests
from sqlalchemy import select

from reviewer_app.protocol import QueueFile, Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import enforcement_actions
from tests.support.api import ApiSession, verdict
from tests.support.enforcement import queue_file, queue_posts
from tests.support.intake import MISINFO
from tests.support.servers import PASSWORD, ServerProcess

PLATFORM = "feed-bridge"
RESTARTS = 3


class Reader:
    """A feed reader whose whole state is two files: the actions it received (appended)
    and its cursor (replaced)."""

    def __init__(self, key: str, directory: Path) -> None:
        self.key = key
        self.received = directory / "received.jsonl"
        self.cursor_file = directory / "cursor"
        self.url: str | None = None  # the service's address now (None: down)
        self.stop = threading.Event()
        self.starts = 0
        self.crashes = 0
        self.rng = random.Random(15)
        self.failure: BaseException | None = None

    def cursor(self) -> int:
        return int(self.cursor_file.read_text()) if self.cursor_file.exists() else 0

    def run(self) -> None:
        while not self.stop.is_set():
            self.starts += 1
            try:
                self._session()
            except (requests.RequestException, ValueError, _Crash):
                # the service died under the request (refused, reset, a body cut short:
                # no JSON), or the reader "crashed": start again from the saved cursor
                time.sleep(0.05)
            except BaseException as exc:  # a wrong answer: the test reports it
                self.failure = exc
                return

    def _session(self) -> None:
        """One life of the reader: from the saved cursor until it crashes or is stopped."""
        cursor = self.cursor()
        http = requests.Session()
        while not self.stop.is_set():
            url = self.url
            if url is None:
                raise requests.ConnectionError("the service is down")
            response = http.get(
                f"{url}/api/v1/enforcement",
                params={"after": cursor, "limit": 5, "wait": 1},
                headers={"Authorization": f"Bearer {self.key}"},
                timeout=10,
            )
            if response.status_code >= 500:
                raise requests.ConnectionError(f"{response.status_code}")
            assert response.status_code == 200, response.text
            page = response.json()
            for action in page["actions"]:
                assert action["seq"] > cursor, (cursor, action)
                with self.received.open("a") as out:
                    out.write(json.dumps(action) + "\n")
                if self.rng.random() < 0.1:
                    self.crashes += 1
                    raise _Crash  # kept, cursor not saved: read again next start
                cursor = action["seq"]
                self.cursor_file.write_text(str(cursor))
            cursor = page["next_cursor"]
            self.cursor_file.write_text(str(cursor))

    def actions(self) -> list[dict[str, Any]]:
        if not self.received.exists():
            return []
        return [json.loads(line) for line in self.received.read_text().splitlines()]


class _Crash(Exception):
    pass


def test_a_restarting_reader_gets_every_action_once_across_service_kills(
    database_url: str, tmp_path: Path
) -> None:
    setup = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    setup.start()
    setup.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
    setup.create_user(UserCreate(username="rita", password=PASSWORD, role=Role.reviewer))
    key = setup.create_api_key(Role.platform, PLATFORM).key
    reader = Reader(key, tmp_path)
    tail = threading.Thread(target=reader.run, daemon=True)
    tail.start()
    logs = tmp_path / "logs"
    logs.mkdir()
    rng = random.Random(2)
    server: ServerProcess | None = None
    try:
        for life in range(RESTARTS + 1):
            server = ServerProcess(database_url, log=logs / f"server-{life}.log").start()
            reader.url = server.url
            platform = ApiSession(server.url, key)
            rita = ApiSession.login(server.url, "rita", PASSWORD)
            queue_posts(platform, [f"p-{life}-{i}" for i in range(12)])
            leased = rita.claim(MISINFO, count=12)
            for chunk in (leased[:4], leased[4:8]):
                rita.decide([verdict(x, rng.choice(["keep", "reduce"])) for x in chunk])
            # the last batch races the kill: it may or may not have committed
            in_flight = threading.Thread(
                target=_decide_quietly, args=(rita, [verdict(x, "keep") for x in leased[8:]])
            )
            in_flight.start()
            time.sleep(rng.uniform(0.0, 0.05))
            assert server.proc is not None
            server.proc.kill()  # SIGKILL: no last sealing round, no graceful anything
            server.proc.wait(10)
            reader.url = None
            in_flight.join(30)
        # a last life: whatever committed before the kills is sealed by it
        server = ServerProcess(database_url, log=logs / "server-last.log").start()
        reader.url = server.url
        a = enforcement_actions.c
        deadline = time.monotonic() + 60
        while True:
            with setup.db.read() as conn:
                stored = conn.execute(
                    select(a.id, a.seq).where(a.source == PLATFORM).order_by(a.id)
                ).all()
            unsealed = [r.id for r in stored if r.seq is None]
            got = {x["id"] for x in reader.actions()}
            assert reader.failure is None, reader.failure
            if not unsealed and got >= {r.id for r in stored}:
                break
            assert time.monotonic() < deadline, (
                f"the reader has {len(got)} of {len(stored)} actions ({len(unsealed)} unsealed)"
            )
            time.sleep(0.1)
    finally:
        reader.stop.set()
        tail.join(30)
        if server is not None:
            server.stop()
        setup.close()

    assert reader.failure is None, reader.failure
    received = reader.actions()
    first_copies: dict[int, dict[str, Any]] = {}
    for action in received:
        first_copies.setdefault(action["id"], action)
        assert first_copies[action["id"]] == action, "a copy read again is the same action"
    deduplicated = list(first_copies.values())
    by_seq = sorted(stored, key=lambda r: r.seq)
    assert [x["id"] for x in deduplicated] == [r.id for r in by_seq], "every action, in order"
    assert [x["seq"] for x in deduplicated] == [r.seq for r in by_seq]
    assert len(stored) >= (RESTARTS + 1) * 8  # the batches that returned before each kill
    assert reader.starts > RESTARTS and reader.crashes > 0, (reader.starts, reader.crashes)
    assert len(received) > len(deduplicated), "the reader's crashes made it read some again"


def _decide_quietly(session: ApiSession, verdicts: list[dict[str, Any]]) -> None:
    # killed under it: committed or not, the database knows
    with contextlib.suppress(requests.RequestException):
        session.post("/verdicts", json={"verdicts": verdicts}, timeout=10)
