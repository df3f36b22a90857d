"""Appeals for tests: the enforcement tests' queue file with an appeals queue, and appeal
bodies as a platform sends them."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from reviewer_app.protocol import QueueFile, Role, UserCreate

from .api import ApiSession
from .clock import ManualClock
from .enforcement import queue_file as enforcement_queues
from .enforcement import read_all
from .intake import INAUTH, MISINFO, NOW, QUEUES
from .servers import LiveServer

APPEALS = "appeals"
#: the platform's account (its API key's name): the source of its posts' and authors' ids
SOURCE = "feed-bridge"
#: a person to add: user name, password, role
Person = tuple[str, str, Role]

_serial = itertools.count()

APPEALS_QUEUE: dict[str, Any] = {
    "id": APPEALS,
    "name": "Appeals",
    "config": {
        "appeals": True,
        "sla_minutes": 60,
        "actions": [
            {
                "id": "uphold",
                "label": "Uphold",
                "kind": "uphold",
                "key": "1",
                "requires_note": True,
            },
            {"id": "reverse", "label": "Reverse", "kind": "reverse", "key": "2"},
        ],
    },
}


def queue_file() -> dict[str, Any]:
    """The enforcement tests' queues (misinformation with remove-and-restrict, escalations),
    the inauthentic accounts queue, and an appeals queue."""
    document = enforcement_queues()
    if not any(q["id"] == INAUTH for q in document["queues"]):
        document["queues"].append(next(q for q in QUEUES["queues"] if q["id"] == INAUTH))
    document["queues"].append(APPEALS_QUEUE)
    QueueFile.model_validate(document)
    return document


def appeal(
    post_id: str | None = None,
    *,
    author_id: str | None = None,
    statement: str = "My post was about the weather, not the election.",
    appeal_id: str | None = None,
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "id": appeal_id or f"appeal-{next(_serial)}",
        "statement": statement,
        "submitted_at": NOW.isoformat(),
    }
    if post_id is not None:
        body["post_external_id"] = post_id
    if author_id is not None:
        body["author_external_id"] = author_id
    return body


def appeals_server(
    database_url: str, clock: ManualClock | None = None, *, people: Sequence[Person] = ()
) -> LiveServer:
    """A live service with these queues (``queue_file``), and these people: started; the
    caller stops it."""
    server = LiveServer(database_url, clock=clock, token_ttl_seconds=30 * 86_400).start()
    server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
    for username, password, role in people:
        server.service.create_user(UserCreate(username=username, password=password, role=role))
    return server


@pytest.fixture(name="server")
def appeals_on_a_manual_clock(database_url: str) -> Iterator[LiveServer]:
    """The ``server`` fixture of a test module that imports it: ``appeals_server`` on a
    clock of its own, stopped after the test."""
    server = appeals_server(database_url, ManualClock())
    try:
        yield server
    finally:
        server.stop()


def suspending_queues() -> dict[str, Any]:
    """``queue_file``, its misinformation queue also with remove and suspend the author."""
    document = queue_file()
    misinfo = next(q for q in document["queues"] if q["id"] == MISINFO)
    misinfo["config"]["actions"].append(
        {
            "id": "remove-suspend",
            "label": "Remove and suspend author",
            "kind": "remove",
            "key": "8",
            "requires_policy": True,
            "author_action": "suspend",
        }
    )
    misinfo["config"]["author_actions"] = ["restrict", "suspend"]
    return document


@pytest.fixture(name="server")
def suspending_appeals_on_a_manual_clock(database_url: str) -> Iterator[LiveServer]:
    """As ``appeals_on_a_manual_clock``, with ``suspending_queues``."""
    server = appeals_server(database_url, ManualClock())
    server.service.apply_queue_file(QueueFile.model_validate(suspending_queues()), actor=None)
    try:
        yield server
    finally:
        server.stop()


def platform_of(server: LiveServer) -> ApiSession:
    """The platform's session (an API key of the ``SOURCE`` account)."""
    return ApiSession(server.url, server.service.create_api_key(Role.platform, SOURCE).key)


def feed(server: LiveServer, platform: ApiSession) -> list[dict[str, Any]]:
    """The platform's whole enforcement feed, everything decided so far sealed first."""
    server.service.seal_now()
    assert platform.token is not None
    return read_all(server.url, platform.token)
