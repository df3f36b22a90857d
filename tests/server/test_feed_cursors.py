"""The enforcement feed's cursor over real HTTP on SQLite and PostgreSQL: a cursor past the
32-bit seq column is refused as out of range (PostgreSQL answered 500 with a traceback), a
cursor past the feed's last action is refused with 409 ``cursor_ahead`` rather than echoed
back (a reader that saved it never got the actions numbered up to it: the service's
database restored from a backup, say), and ``wait=nan`` is told the range."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from reviewer_app.protocol import QueueFile, Role
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.enforcement import queue_file, queue_posts, read_feed
from tests.support.intake import MISINFO
from tests.support.servers import LiveServer, running

MAX_SEQ = 2**31 - 1


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    live_server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
    return live_server


def decide(server: LiveServer, key: str, external_id: str) -> None:
    """A post queued and kept: one action, sealed."""
    queue_posts(ApiSession(server.url, key), [external_id])
    reviewer = server.login(f"r-{external_id}")
    reviewer.decide([verdict(x, "keep") for x in claim(reviewer, MISINFO, 1)])
    server.service.seal_now()


def test_a_cursor_past_the_seq_column_is_out_of_range(server: LiveServer) -> None:
    key = server.service.create_api_key(Role.platform, "feed-bridge").key
    platform = ApiSession(server.url, key)
    for after in (MAX_SEQ + 1, 2**62, 2**63, "9" * 5000):
        body = expect_problem(platform.get("/enforcement", params={"after": after}), 422)
        assert body["code"] == "invalid_request"
        [error] = body["errors"]
        assert error["loc"] == ["query", "after"]
        assert error["message"] == f"after must be a seq from 0 to {MAX_SEQ}", error
    expect_problem(platform.get("/enforcement", params={"after": -1}), 422, "invalid_request")
    # the largest seq there can be is a cursor past the end, not a broken request
    expect_problem(platform.get("/enforcement", params={"after": MAX_SEQ}), 409, "cursor_ahead")


def test_wait_nan_is_told_the_range(server: LiveServer) -> None:
    platform = ApiSession(
        server.url, server.service.create_api_key(Role.platform, "feed-bridge").key
    )
    for wait in ("nan", "inf", "-inf", "31", "-0.5", "x"):
        body = expect_problem(platform.get("/enforcement", params={"wait": wait}), 422)
        [error] = body["errors"]
        assert error["loc"] == ["query", "wait"]
        assert error["message"] == "wait must be a number from 0 to 30 (seconds)", error
    assert read_feed(server.url, platform.token or "", 0, wait=0.0) == {
        "actions": [],
        "next_cursor": 0,
    }


def test_a_limit_out_of_range_is_told_the_range(server: LiveServer) -> None:
    """``limit=501`` was told "less_than_equal" where ``after`` and ``wait`` name their
    range: every query value of the feed names its range alike."""
    platform = ApiSession(
        server.url, server.service.create_api_key(Role.platform, "feed-bridge").key
    )
    for limit in ("0", "501", "-1", "nan", "x"):
        body = expect_problem(platform.get("/enforcement", params={"limit": limit}), 422)
        [error] = body["errors"]
        assert error["loc"] == ["query", "limit"]
        assert error["message"] == "limit must be from 1 to 500", error
    assert platform.get("/enforcement", params={"limit": 500}).status_code == 200


def test_a_cursor_past_the_last_action_is_refused(server: LiveServer) -> None:
    key = server.service.create_api_key(Role.platform, "feed-bridge").key
    platform = ApiSession(server.url, key)
    # an empty feed: 0 is the start, anything past it was never given out
    assert read_feed(server.url, key, 0) == {"actions": [], "next_cursor": 0}
    body = expect_problem(platform.get("/enforcement", params={"after": 1}), 409, "cursor_ahead")
    assert "seq 0" in body["detail"]

    decide(server, key, "p1")
    [action] = read_feed(server.url, key, 0)["actions"]
    head = action["seq"]
    # the last action's seq is the cursor a reader holds after it: nothing more, not refused
    assert read_feed(server.url, key, head) == {"actions": [], "next_cursor": head}
    for after in (head + 1, 99_999_999):
        body = expect_problem(
            platform.get("/enforcement", params={"after": after}), 409, "cursor_ahead"
        )
        assert f"seq {head}" in body["detail"] and str(after) in body["detail"]
        assert "restored from a backup" in body["detail"] and "de-duplicate by id" in body["detail"]

    # a long poll from past the end is refused at once, not after its wait
    started = time.monotonic()
    expect_problem(
        platform.get("/enforcement", params={"after": head + 1, "wait": 10}), 409, "cursor_ahead"
    )
    assert time.monotonic() - started < 5

    # another platform's action moves the one head every reader's cursor is measured by
    other = server.service.create_api_key(Role.platform, "other").key
    decide(server, other, "q1")
    [theirs] = read_feed(server.url, other, 0)["actions"]
    assert read_feed(server.url, key, theirs["seq"]) == {
        "actions": [],
        "next_cursor": theirs["seq"],
    }


def test_a_cursor_saved_before_a_restore_is_refused(tmp_path: Path) -> None:
    """The service's SQLite database restored from a backup taken before the reader's last
    action: its saved cursor is refused, and read again from 0 nothing is skipped."""
    live, backup = tmp_path / "live.db", tmp_path / "backup.db"
    with running(f"sqlite:///{live}") as server:
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        key = server.service.create_api_key(Role.platform, "feed-bridge").key
        decide(server, key, "p1")
        with sqlite3.connect(live) as source, sqlite3.connect(backup) as copy:
            source.backup(copy)  # the nightly backup
        decide(server, key, "p2")
        page = read_feed(server.url, key, 0)
        assert [a["post_external_id"] for a in page["actions"]] == ["p1", "p2"]
        saved = page["next_cursor"]

    for leftover in (tmp_path / "live.db-wal", tmp_path / "live.db-shm"):
        leftover.unlink(missing_ok=True)  # the live database's journal goes with it
    backup.replace(live)  # restored
    with running(f"sqlite:///{live}") as server:
        body = expect_problem(
            ApiSession(server.url, key).get("/enforcement", params={"after": saved}),
            409,
            "cursor_ahead",
        )
        first = page["actions"][0]["seq"]
        assert f"seq {first}" in body["detail"]
        again = read_feed(server.url, key, 0)
        assert [a["post_external_id"] for a in again["actions"]] == ["p1"]
