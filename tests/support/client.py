"""Helpers for client-core tests: an event log to wait on, and server-side checks."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from reviewer_app.core import events as ev
from reviewer_app.core.api import ApiClient
from reviewer_app.core.store import Store
from reviewer_app.core.sync import SyncEngine
from reviewer_app.protocol import Decision, DecisionQuery, Role

from .servers import PASSWORD, LiveServer


class EventLog:
    """Collects a sync engine's events; tests wait on conditions over them."""

    def __init__(self) -> None:
        self.events: list[ev.SyncEvent] = []
        self._cond = threading.Condition()

    def __call__(self, event: ev.SyncEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def of(self, kind: type[Any]) -> list[Any]:
        with self._cond:
            return [e for e in self.events if isinstance(e, kind)]

    def last(self, kind: type[Any]) -> Any:
        found = self.of(kind)
        return found[-1] if found else None

    def wait(self, predicate: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate():
                left = deadline - time.monotonic()
                if left <= 0:
                    kinds = Counter(type(e).__name__ for e in self.events)
                    raise AssertionError(f"timed out waiting for {what or predicate}: {kinds}")
                self._cond.wait(min(left, 0.1))


def wait_until(predicate: Callable[[], bool], timeout: float = 30.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}")
        time.sleep(0.02)


def login(server: LiveServer | str, username: str, role: Role = Role.reviewer) -> ApiClient:
    """A logged-in ApiClient; the user is created first when ``server`` is a LiveServer."""
    if isinstance(server, LiveServer):
        server.add_user(username, role)
        url = server.url
    else:
        url = server
    client = ApiClient(url)
    client.login(username, PASSWORD)
    return client


def all_decisions(lead: ApiClient, reviewer: str | None = None) -> list[Decision]:
    found: list[Decision] = []
    cursor = None
    while True:
        page = lead.decisions(DecisionQuery(reviewer=reviewer), cursor=cursor, limit=500)
        found += page.decisions
        cursor = page.next_cursor
        if not cursor:
            return found


def engine_for(
    url: str, store_path: Path, token: str | None, log: EventLog, **kw: Any
) -> SyncEngine:
    return SyncEngine(url, store_path, token=token, listener=log, **kw)


def fast_settings(store_path: Path, **values: Any) -> None:
    """Settings for tests: no undo wait, quick retries."""
    defaults: dict[str, Any] = {
        "undo_window_seconds": 0.0,
        "backoff_cap_seconds": 1.0,
        "prefetch_target": 20,
    }
    with Store(store_path) as store:
        for name, value in {**defaults, **values}.items():
            store.settings.set(name, value)
