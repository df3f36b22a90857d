"""A demo keeps its port per role, and carries its account's store when the port moves.

The client keeps its store per server address: a killed demo restarted while another
program holds its port used to open a new, empty store on the new port, leave the
verdicts it had not sent in the old one for good, and give their posts back to the queue.
A lead demo started beside a running reviewer demo used to release the reviewer's leases
and take the one remembered port from it."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from reviewer_app.core import keyfile
from reviewer_app.core.api import ApiClient
from reviewer_app.core.credentials import Credentials
from reviewer_app.core.paths import store_path
from reviewer_app.core.session import ReviewSession
from reviewer_app.demo import DEMO_ACCOUNTS, DemoServer, demo_client_root, start_demo_server
from reviewer_app.protocol import DecisionQuery, SessionCreate
from tests.support.client import wait_until

QUEUE = "misinformation"


def _session(url: str, folder: Path, role: str = "reviewer") -> ReviewSession:
    """Logged in as ``reviewer-app --demo`` logs in (memory-only login, the store in the
    demo's folder under a key wrapped with the published password)."""
    user, password = DEMO_ACCOUNTS[role]
    credentials = Credentials(memory_only=True)
    result, token, key = ReviewSession.log_in_with_key(
        url,
        user,
        password,
        credentials=credentials,
        data_root=demo_client_root(folder),
        kdf=keyfile.PUBLISHED_PASSWORD_PARAMS,
    )
    session = ReviewSession(
        url,
        result.user,
        token,
        credentials=credentials,
        data_root=demo_client_root(folder),
        key=key,
    )
    for name, value in (("undo_window_seconds", 0.0), ("backoff_cap_seconds", 1.0)):
        session.store.settings.set(name, value)
    return session


def _leased(server: DemoServer, role: str = "reviewer") -> int:
    user, password = DEMO_ACCOUNTS[role]
    token = server.service.login(SessionCreate(username=user, password=password)).token
    principal = server.service.authenticate(token)
    assert principal is not None
    return sum(q.counts.leased for q in server.service.list_queues(principal).queues)


def _decisions(url: str, item_id: str) -> list[str]:
    with ApiClient(url) as api:
        api.login(*DEMO_ACCOUNTS["lead"])
        return [d.action for d in api.decisions(DecisionQuery(item_id=item_id)).decisions]


def test_a_demo_moved_to_another_port_carries_its_store_and_sends_what_it_had_not(
    tmp_path: Path,
) -> None:
    database = tmp_path / "demo-server.db"
    first = start_demo_server(database)
    try:
        session = _session(first.url, tmp_path)
        session.start([QUEUE])
        wait_until(
            lambda: session.store.ready_counts().get(QUEUE, 0) >= 3, 60, "posts to be leased"
        )
        session.engine.stop(release=False)  # the demo is killed: nothing more is sent
        decided = []
        for _ in range(2):
            item = session.store.next_item(QUEUE, include_expired=True)
            assert item is not None
            session.store.record_verdict(item.item.id, action="no-violation", time_spent_ms=1)
            decided.append(item.item.id)
        assert session.store.pending_count() == 2
        old_store = session.path
        session.store.close()
        leased = _leased(first)
        assert leased >= 3
    finally:
        first.stop()

    with socket.socket() as squatter:  # another program took the demo's port meanwhile
        squatter.bind(("127.0.0.1", first.port))
        squatter.listen()
        moved = start_demo_server(database)
        try:
            assert moved.port != first.port
            user = DEMO_ACCOUNTS["reviewer"][0]
            carried = store_path(moved.url, user, demo_client_root(tmp_path))
            assert carried.is_file() and keyfile.exists(keyfile.key_file_path(carried))
            assert not old_store.exists()
            assert not keyfile.exists(keyfile.key_file_path(old_store))
            assert _leased(moved) == leased, "its leases go on with the carried store"

            again = _session(moved.url, tmp_path)
            try:
                assert again.path == carried
                assert again.store.pending_count() == 2
                again.start([QUEUE])
                wait_until(lambda: again.store.pending_count() == 0, 60, "the verdicts sent")
            finally:
                again.close()
            for item_id in decided:
                assert _decisions(moved.url, item_id) == ["no-violation"], item_id
        finally:
            moved.stop()


def test_a_lead_demo_beside_a_running_reviewer_demo_leaves_the_reviewer_alone(
    tmp_path: Path,
) -> None:
    from reviewer_app.demo_state import plan_start

    database = tmp_path / "demo-server.db"
    reviewer = start_demo_server(database)
    try:
        session = _session(reviewer.url, tmp_path)  # its window is open: the store is held
        try:
            session.start([QUEUE])
            wait_until(lambda: session.store.ready_counts().get(QUEUE, 0) >= 3, 60, "posts leased")
            leased = _leased(reviewer)
            assert leased >= 3

            lead = start_demo_server(database, 0, "lead")
            try:
                assert lead.port != reviewer.port
                assert _leased(lead) == leased, "the lead's start released nothing of it"
            finally:
                lead.stop()
            assert (tmp_path / "demo-port").read_text().strip() == str(reviewer.port)
            assert (tmp_path / "demo-port-lead").read_text().strip() == str(lead.port)

            # a second reviewer demo starts no service: the login on the running one's
            # address says the other copy has the store
            second = plan_start(tmp_path, "reviewer")
            assert second.running and second.port == reviewer.port and not second.release
            with pytest.raises(RuntimeError, match="runs as reviewer"):
                start_demo_server(database)
            assert _leased(reviewer) == leased
        finally:
            session.close()
    finally:
        reviewer.stop()

    # the lead again, its port taken: its own store is carried, the reviewer's is not touched
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", lead.port))
        squatter.listen()
        start = plan_start(tmp_path, "lead")
    assert start.port not in (lead.port, reviewer.port) and not start.running
    assert (tmp_path / "demo-port").read_text().strip() == str(reviewer.port)
