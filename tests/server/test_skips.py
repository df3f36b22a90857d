"""A skipped post does not come straight back to the reviewer who skipped it: a release
marked ``skipped`` is remembered for that reviewer for ``skip_memory_seconds``; their claims
in the queue take every other item first and the skipped one only when nothing else is
left; other reviewers are not affected; a plain release is not remembered. Over real HTTP
on both databases, with a clock the test moves."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.api import ApiSession, claim
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
MEMORY = 600


@pytest.fixture
def server(database_url: str) -> Iterator[tuple[LiveServer, ManualClock]]:
    clock = ManualClock()
    srv = LiveServer(database_url, clock=clock, skip_memory_seconds=MEMORY).start()
    try:
        seed_load_queue(srv.service, 6)
        yield srv, clock
    finally:
        srv.stop()


def _release(session: ApiSession, leased: list[dict[str, Any]], *, skipped: bool) -> None:
    body: dict[str, Any] = {"tokens": [e["lease_token"] for e in leased]}
    if skipped:
        body["skipped"] = True
    response = session.post("/leases/release", json=body)
    assert response.status_code == 200, response.text
    assert {r["status"] for r in response.json()["results"]} == {"released"}


def _ids(leased: list[dict[str, Any]]) -> list[str]:
    return [e["item"]["id"] for e in leased]


def test_a_skip_is_served_back_to_its_reviewer_only_when_nothing_else_is_left(
    server: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = server
    ana = srv.login("ana", Role.reviewer)
    ben = srv.login("ben", Role.reviewer)

    first = claim(ana, QUEUE, 1)
    skipped = _ids(first)[0]
    _release(ana, first, skipped=True)
    # her next claims prefer everything else: the item she skipped is not first again
    again = claim(ana, QUEUE, 1)
    assert _ids(again) != [skipped]
    # a plain release (leaving a queue, closing the app) is not remembered
    _release(ana, again, skipped=False)
    regained = claim(ana, QUEUE, 1)
    assert _ids(regained) == _ids(again)
    _release(ana, regained, skipped=False)

    # another reviewer gets it as usual (highest priority first)
    held = claim(ben, QUEUE, 1)
    assert _ids(held) == [skipped]
    _release(ben, held, skipped=False)

    # nothing else left for her: the skipped item comes, after everything else
    rest = claim(ana, QUEUE, 10, exactly=False)
    assert len(rest) == 6 and _ids(rest)[-1] == skipped
    _release(ana, rest, skipped=False)

    # remembered for a while, not for ever
    clock.advance(MEMORY - 1)
    still = claim(ana, QUEUE, 1)
    assert _ids(still) != [skipped]
    _release(ana, still, skipped=False)
    clock.advance(2)
    assert _ids(claim(ana, QUEUE, 1)) == [skipped]


def test_a_skip_served_back_and_skipped_again_is_remembered_anew(
    server: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = server
    ana = srv.login("ana", Role.reviewer)
    first = claim(ana, QUEUE, 1)
    skipped = _ids(first)[0]
    _release(ana, first, skipped=True)
    clock.advance(MEMORY - 10)
    # served back (nothing else is asked for: she holds the rest), skipped again
    others = claim(ana, QUEUE, 5)
    assert skipped not in _ids(others)
    back = claim(ana, QUEUE, 1)
    assert _ids(back) == [skipped]
    _release(ana, back, skipped=True)
    _release(ana, others, skipped=False)
    clock.advance(20)  # past the first skip's memory, within the second's
    assert _ids(claim(ana, QUEUE, 1)) != [skipped]
