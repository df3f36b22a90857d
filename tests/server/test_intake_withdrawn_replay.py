"""A withdrawn post sent again over real HTTP: a replay revives nothing.

A post deleted upstream never comes back (the same content is ``unchanged``, other content
``rejected`` with ``post_deleted``); a post made private comes back only when sent with an
``updated_at`` later than its withdrawal (the withdrawal's ``at``, else when the service
received it), and a withdrawal no later than the one it came back from is a replay too. A
live post's ``updated_at`` changes nothing.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from reviewer_app.protocol import Role
from reviewer_app.server.storage.tables import items, posts
from tests.support.api import ApiSession, claim
from tests.support.clock import ManualClock
from tests.support.enforcement import read_all
from tests.support.intake import HATE, apply_queues, classifier, post, send, statuses
from tests.support.servers import LiveServer


@pytest.fixture
def clock() -> ManualClock:
    # whole seconds: a time on the wire (microseconds) is then exactly the service's
    return ManualClock(float(int(time.time())))


@pytest.fixture
def server(database_url: str, clock: ManualClock) -> Any:
    live = LiveServer(database_url, clock=clock).start()
    try:
        apply_queues(live)
        yield live
    finally:
        live.stop()


@pytest.fixture
def key(server: LiveServer) -> str:
    return server.service.create_api_key(Role.platform, "feed-bridge").key


@pytest.fixture
def platform(server: LiveServer, key: str) -> ApiSession:
    return ApiSession(server.url, key)


def hate_signal(external_id: str) -> dict[str, Any]:
    return classifier(external_id, 0.95, model="hate-bert", label="slur")


def queued(platform: ApiSession, external_id: str) -> str:
    """The post sent, and a classifier signal that puts it in the hate queue."""
    send(platform, "posts", [post(external_id)])
    [result] = send(platform, "signals", [hate_signal(external_id)])
    assert result["queue_ids"] == [HATE], result
    [item_id] = result["item_ids"]
    return str(item_id)


def withdraw(
    platform: ApiSession, external_id: str, reason: str, at: float | None = None
) -> dict[str, Any]:
    body: dict[str, Any] = {"post_external_id": external_id, "reason": reason}
    if at is not None:
        body["at"] = iso(at)
    [result] = send(platform, "withdrawals", [body])
    assert result["status"] == "updated", result
    return result


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat()


def post_state(server: LiveServer, external_id: str) -> tuple[str, int]:
    with server.service.db.read() as conn:
        row = conn.execute(
            select(posts.c.state, posts.c.version).where(posts.c.external_id == external_id)
        ).one()
    return row.state, row.version


def open_items(server: LiveServer, external_id: str) -> list[str]:
    with server.service.db.read() as conn:
        return list(
            conn.execute(
                select(items.c.id)
                .join(posts, posts.c.id == items.c.post_id)
                .where(posts.c.external_id == external_id, items.c.state.in_(("pending", "leased")))
            ).scalars()
        )


def refuses_signals(platform: ApiSession, external_id: str) -> bool:
    [result] = send(platform, "signals", [hate_signal(external_id)])
    return result["status"] == "rejected" and result["reason"]["code"] == "post_withdrawn"


def unchanged(result: dict[str, Any]) -> bool:
    return result == {
        "external_id": result["external_id"],
        "status": "unchanged",
        "item_ids": [],
        "queue_ids": [],
        "reason": None,
    }


def test_a_deleted_post_sent_again_is_a_replay(
    server: LiveServer, platform: ApiSession, key: str, clock: ManualClock
) -> None:
    queued(platform, "b-1")
    withdraw(platform, "b-1", "deleted")
    clock.advance(60)

    # the earlier batch again (a retry): nothing changes, no item opens
    [again] = send(platform, "posts", [post("b-1")])
    assert unchanged(again), again
    # even when the platform says it changed since: a deleted post never comes back
    [later] = send(platform, "posts", [post("b-1", updated_at=iso(clock.now))])
    assert unchanged(later), later
    assert post_state(server, "b-1") == ("deleted", 1)
    assert open_items(server, "b-1") == []
    assert refuses_signals(platform, "b-1")
    reviewer = server.login("rita")
    assert claim(reviewer, HATE, 5, exactly=False) == []
    server.service.seal_now()
    assert [a["kind"] for a in read_all(server.url, key)] == ["withdrawn"]

    # other content: that element is refused, the rest of the batch is taken
    results = send(platform, "posts", [post("b-1", "Edited after deletion."), post("b-2")])
    assert statuses(results) == ["rejected", "created"]
    assert results[0]["reason"]["code"] == "post_deleted", results[0]
    assert post_state(server, "b-1") == ("deleted", 1)
    assert refuses_signals(platform, "b-1")


def test_a_private_post_sent_again_without_a_later_change_stays_withdrawn(
    server: LiveServer, platform: ApiSession, clock: ManualClock
) -> None:
    queued(platform, "p-1")
    withdrawn_at = clock.now
    withdraw(platform, "p-1", "private")
    clock.advance(60)

    earlier = iso(withdrawn_at - 30)
    results = send(
        platform,
        "posts",
        [
            post("p-1"),  # a replay without updated_at
            post("p-1", updated_at=earlier),  # changed before the withdrawal
            post("p-1", updated_at=iso(withdrawn_at)),  # not later
            post("p-1", "Another text, no updated_at."),
        ],
    )
    assert all(unchanged(r) for r in results), results
    assert post_state(server, "p-1") == ("private", 1)
    assert open_items(server, "p-1") == []
    assert refuses_signals(platform, "p-1")


def test_a_private_post_changed_after_its_withdrawal_is_live_again(
    server: LiveServer, platform: ApiSession, clock: ManualClock
) -> None:
    first = queued(platform, "p-1")
    withdraw(platform, "p-1", "private")
    clock.advance(60)

    [back] = send(platform, "posts", [post("p-1", updated_at=iso(clock.now - 30))])
    assert back["status"] == "updated" and back["queue_ids"] == [HATE], back
    assert back["item_ids"] != [first]
    assert post_state(server, "p-1") == ("live", 1)
    assert open_items(server, "p-1") == back["item_ids"]
    [signal] = send(platform, "signals", [hate_signal("p-1")])
    assert signal["status"] == "created" and signal["item_ids"] == back["item_ids"], signal


@pytest.mark.parametrize("ahead", [0.0, 5.0], ids=["clocks-agree", "platform-clock-ahead"])
def test_a_withdrawal_sent_again_after_its_post_came_back_leaves_it_live(
    server: LiveServer, platform: ApiSession, clock: ManualClock, ahead: float
) -> None:
    """Made private, public again, then the platform retries the withdrawal's batch (its
    answer was lost): the post stays live and its new item in review, also when the
    platform's clock runs ahead of the service's; a withdrawal dated later than the first
    one takes it down again."""
    queued(platform, "p-1")
    made_private = clock.now + ahead
    withdraw(platform, "p-1", "private", at=made_private)
    clock.advance(60)
    [back] = send(platform, "posts", [post("p-1", updated_at=iso(clock.now))])
    assert back["status"] == "updated" and back["queue_ids"] == [HATE], back
    clock.advance(60)
    body = {"post_external_id": "p-1", "reason": "private", "at": iso(made_private)}
    [again] = send(platform, "withdrawals", [body])
    assert unchanged(again), again
    assert post_state(server, "p-1") == ("live", 1)
    assert open_items(server, "p-1") == back["item_ids"]

    gone = withdraw(platform, "p-1", "private", at=clock.now + ahead)  # private once more
    assert gone["item_ids"] == back["item_ids"], gone
    assert post_state(server, "p-1")[0] == "private" and open_items(server, "p-1") == []


def test_the_withdrawals_own_time_is_the_one_compared(
    server: LiveServer, platform: ApiSession, clock: ManualClock
) -> None:
    queued(platform, "p-1")
    made_private = clock.now - 3600  # upstream, an hour before the service heard of it
    withdraw(platform, "p-1", "private", at=made_private)

    [before] = send(platform, "posts", [post("p-1", updated_at=iso(made_private - 1))])
    assert unchanged(before), before
    # changed after the withdrawal upstream, though before the service received it
    edited = post("p-1", "Public again, edited.", updated_at=iso(made_private + 60))
    [back] = send(platform, "posts", [edited])
    assert back["status"] == "updated" and back["queue_ids"] == [HATE], back
    assert post_state(server, "p-1") == ("live", 2)
    lead = server.login("lena", Role.lead)
    item = lead.get(f"/items/{back['item_ids'][0]}").json()
    assert item["post"]["text"] == "Public again, edited."


def test_a_withdrawal_dated_ahead_of_the_clock_counts_as_now(
    server: LiveServer, platform: ApiSession, clock: ManualClock
) -> None:
    """A withdrawal's ``at`` a day ahead (a platform's clock wrong): the post made public
    again a minute later comes back, as it would have from a withdrawal dated now."""
    queued(platform, "p-1")
    withdraw(platform, "p-1", "private", at=clock.now + 86_400)
    clock.advance(60)
    [back] = send(platform, "posts", [post("p-1", updated_at=iso(clock.now))])
    assert back["status"] == "updated" and back["queue_ids"] == [HATE], back


def test_a_private_post_deleted_later_never_comes_back(
    server: LiveServer, platform: ApiSession, clock: ManualClock
) -> None:
    """Made private, then deleted: the deletion counts (it was answered unchanged, and the
    post came back on a later updated_at as a private one does)."""
    queued(platform, "p-1")
    withdraw(platform, "p-1", "private")
    [deleted] = send(platform, "withdrawals", [{"post_external_id": "p-1", "reason": "deleted"}])
    assert deleted["status"] == "updated", deleted
    clock.advance(60)
    [again] = send(platform, "posts", [post("p-1", updated_at=iso(clock.now))])
    assert unchanged(again), again
    assert post_state(server, "p-1")[0] == "deleted"


def test_a_live_posts_updated_at_changes_nothing(
    server: LiveServer, platform: ApiSession, clock: ManualClock
) -> None:
    item_id = queued(platform, "p-1")
    [same] = send(platform, "posts", [post("p-1", updated_at=iso(clock.now))])
    assert unchanged(same), same
    [edited] = send(platform, "posts", [post("p-1", "Edited.", updated_at=iso(clock.now))])
    assert edited["status"] == "updated" and edited["item_ids"] == [item_id], edited
    assert post_state(server, "p-1") == ("live", 2)


@pytest.mark.parametrize("reason", ["deleted", "private"])
def test_a_file_imported_again_leaves_its_withdrawn_post_withdrawn(
    server: LiveServer, platform: ApiSession, clock: ManualClock, reason: str
) -> None:
    """A JSONL file (a post, its signal, its withdrawal) sent through intake twice, in the
    order an import sends it: posts, signals, withdrawals."""
    the_post = post("j-1")
    signal = hate_signal("j-1")
    withdrawal = {"post_external_id": "j-1", "reason": reason}
    assert statuses(send(platform, "posts", [the_post])) == ["created"]
    assert statuses(send(platform, "signals", [signal])) == ["created"]
    assert statuses(send(platform, "withdrawals", [withdrawal])) == ["updated"]
    clock.advance(3600)

    [again] = send(platform, "posts", [the_post])
    assert unchanged(again), again
    assert post_state(server, "j-1") == (reason, 1)
    assert open_items(server, "j-1") == []
    assert statuses(send(platform, "signals", [signal])) == ["unchanged"]
    assert statuses(send(platform, "withdrawals", [withdrawal])) == ["unchanged"]
    assert post_state(server, "j-1") == (reason, 1)
    assert open_items(server, "j-1") == []
    assert refuses_signals(platform, "j-1")
