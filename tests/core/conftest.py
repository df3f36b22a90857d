"""Fixtures of the client-core tests: the real service on 127.0.0.1, seeded, behind a
fault proxy when a test needs the network to misbehave."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import seed_load_queue
from tests.support.proxy import FaultProxy
from tests.support.servers import LiveServer


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    srv = LiveServer(f"sqlite:///{tmp_path / 'service.db'}").start()
    seed_load_queue(srv.service, 400)
    srv.add_user("lead", Role.lead)
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def proxy(server: LiveServer) -> Iterator[FaultProxy]:
    front = FaultProxy(server.port).start()
    try:
        yield front
    finally:
        front.stop()
