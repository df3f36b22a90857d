"""A demo that was killed left its prefetched posts leased to its own account: the next
demo takes the same port, where the client's store (kept per server address) picks them up
again; when that port is taken it starts on another, and releases what the last demo held
(that store is not opened, so nobody would review them until the leases ran out)."""

from __future__ import annotations

import socket
from pathlib import Path

from reviewer_app.demo import DEMO_ACCOUNTS, DemoServer, demo_port, start_demo_server
from reviewer_app.protocol import LeaseClaim, SessionCreate
from reviewer_app.server.domain.records import Principal


def _reviewer(server: DemoServer) -> Principal:
    user, password = DEMO_ACCOUNTS["reviewer"]
    token = server.service.login(SessionCreate(username=user, password=password)).token
    found = server.service.authenticate(token)
    assert found is not None
    return found


def _leased(server: DemoServer) -> int:
    return sum(q.counts.leased for q in server.service.list_queues(_reviewer(server)).queues)


def test_the_demo_keeps_its_port_and_releases_what_it_cannot_pick_up(tmp_path: Path) -> None:
    database = tmp_path / "demo-server.db"
    first = start_demo_server(database)
    try:
        first.service.claim(_reviewer(first), "misinformation", LeaseClaim(count=5))
        assert _leased(first) == 5
    finally:
        first.stop()  # as a killed demo: nothing given back

    again = start_demo_server(database)
    try:
        assert again.port == first.port
        assert _leased(again) == 5  # the client's store on this address holds them
    finally:
        again.stop()

    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", first.port))
        squatter.listen()
        moved = start_demo_server(database)
        try:
            assert moved.port != first.port
            assert _leased(moved) == 0
        finally:
            moved.stop()
    assert demo_port(tmp_path) == (moved.port, True)


def test_a_port_given_is_used_and_remembered(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        asked = probe.getsockname()[1]
    assert demo_port(tmp_path, asked) == (asked, False)
    assert (tmp_path / "demo-port").read_text().strip() == str(asked)
    assert demo_port(tmp_path) == (asked, True)
