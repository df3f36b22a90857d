"""Intake over real HTTP: posts and signals from a platform key become items, once.

Posts are upserted by their platform id, signals counted once by theirs; a post already
open is not queued twice (its item gains the signal); a new version of a post shows in its
open item and its history; a bad batch is refused whole, a good one answered per element.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, text

from reviewer_app.protocol import Role
from reviewer_app.server.storage.tables import authors, items, posts, signals, strikes
from tests.support.api import ApiSession, expect_problem
from tests.support.intake import (
    HATE,
    MISINFO,
    NOW,
    apply_queues,
    author,
    classifier,
    fact_check,
    key_session,
    post,
    report,
    send,
    statuses,
)
from tests.support.servers import LiveServer


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    apply_queues(live_server)
    return live_server


@pytest.fixture
def platform(server: LiveServer) -> ApiSession:
    return key_session(server, "feed-bridge")


def count(server: LiveServer, table: Any, *where: Any) -> int:
    with server.service.db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(table).where(*where)).scalar())


def items_of(server: LiveServer, external_id: str, source: str = "feed-bridge") -> list[Any]:
    with server.service.db.read() as conn:
        return conn.execute(
            select(items.c.id, items.c.state, items.c.queue_id)
            .join(posts, posts.c.id == items.c.post_id)
            .where(posts.c.external_id == external_id, posts.c.source == source)
            .order_by(items.c.enqueued_at)
        ).all()


def reviewer_item(server: LiveServer, item_id: str) -> dict[str, Any]:
    session = server.login(f"reader-{item_id[-6:]}", Role.lead)
    response = session.get(f"/items/{item_id}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


# -- posts ------------------------------------------------------------------------------------


def test_a_post_alone_opens_no_item_and_a_signal_routes_it(
    server: LiveServer, platform: ApiSession
) -> None:
    results = send(platform, "posts", [post("p1")])
    assert results == [
        {"external_id": "p1", "status": "created", "item_ids": [], "queue_ids": [], "reason": None}
    ]
    assert count(server, items) == 0

    [added] = send(platform, "signals", [classifier("p1", 0.92)])
    assert added["status"] == "created" and added["queue_ids"] == [MISINFO], added
    [item_id] = added["item_ids"]

    item = reviewer_item(server, item_id)
    assert item["queue_id"] == MISINFO and item["state"] == "pending"
    assert item["post"]["id"] == "p1" and item["post"]["text"] == "A post about the election."
    assert item["author"]["handle"] == "@author-1"
    assert [s["score"] for s in item["scores"]] == [0.92]
    assert item["reasons"][0]["kind"] == "classifier" and "civic" in item["reasons"][0]["detail"]
    assert [e["kind"] for e in item["history"]] == ["enqueued"]
    assert item["history"][0]["data"]["rule"] == "civic-claim"


def test_the_same_post_sent_again_is_unchanged_and_a_new_version_is_an_update(
    server: LiveServer, platform: ApiSession
) -> None:
    assert statuses(send(platform, "posts", [post("p1")])) == ["created"]
    assert statuses(send(platform, "posts", [post("p1")])) == ["unchanged"]
    [opened] = send(platform, "signals", [classifier("p1")])
    [item_id] = opened["item_ids"]

    [updated] = send(platform, "posts", [post("p1", text="Edited: the election is on Sunday.")])
    assert updated["status"] == "updated" and updated["item_ids"] == [item_id], updated
    assert statuses(
        send(platform, "posts", [post("p1", text="Edited: the election is on Sunday.")])
    ) == ["unchanged"]

    item = reviewer_item(server, item_id)
    assert item["post"]["text"] == "Edited: the election is on Sunday."
    assert [s["score"] for s in item["scores"]] == [0.9]  # the signals stay
    kinds = [e["kind"] for e in item["history"]]
    assert kinds == ["enqueued", "post_updated"], kinds
    assert item["history"][1]["data"] == {"post": "p1", "version": 2}
    with server.service.db.read() as conn:
        version = conn.execute(select(posts.c.version).where(posts.c.external_id == "p1")).scalar()
    assert version == 2
    assert count(server, items) == 1


def test_copies_of_a_post_in_one_batch_apply_in_order(
    server: LiveServer, platform: ApiSession
) -> None:
    results = send(
        platform, "posts", [post("p1"), post("p1"), post("p1", text="second"), post("p2")]
    )
    assert statuses(results) == ["created", "unchanged", "updated", "created"]
    with server.service.db.read() as conn:
        row = conn.execute(
            select(posts.c.version, posts.c.payload).where(posts.c.external_id == "p1")
        ).one()
    assert row.version == 2 and '"second"' in row.payload


def test_authors_are_merged_never_duplicated(server: LiveServer, platform: ApiSession) -> None:
    first = author("writer", display_name="Writer One", followers=10, bio="hello")
    first["prior_strikes"] = [{"policy": "HATE.SLUR", "at": NOW.isoformat()}]
    send(platform, "posts", [post("p1", author=first)])
    # a later post sends fewer fields (and the same strike again): the rest stay
    later = author("writer", followers=99)
    later["prior_strikes"] = [{"policy": "HATE.SLUR", "at": NOW.isoformat()}]
    send(platform, "posts", [post("p2", author=later)])
    assert count(server, authors) == 1
    assert count(server, strikes) == 1
    [opened] = send(platform, "signals", [classifier("p2")])
    got = reviewer_item(server, opened["item_ids"][0])["author"]
    assert (got["display_name"], got["followers"], got["bio"]) == ("Writer One", 99, "hello")
    assert [(s["policy"], s["count"]) for s in got["strikes"]] == [("HATE.SLUR", 1)]
    # another platform's author of the same id is another author
    send(key_session(server, "other-platform"), "posts", [post("p1", author=first)])
    assert count(server, authors) == 2


# -- signals ----------------------------------------------------------------------------------


def test_a_post_already_open_is_not_queued_twice(server: LiveServer, platform: ApiSession) -> None:
    send(platform, "posts", [post("p1")])
    [first] = send(platform, "signals", [classifier("p1", 0.8)])
    [item_id] = first["item_ids"]
    # signals that would route it to another queue go to its open item instead
    results = send(
        platform,
        "signals",
        [
            *(report("p1", "hate", note="slur in the second line") for _ in range(3)),
            classifier("p1", 0.95),
            classifier("p1", 0.97, model="hate-bert", label="hate"),
            fact_check("p1", "partly_false"),
        ],
    )
    assert statuses(results) == ["created"] * 6
    assert {tuple(r["item_ids"]) for r in results} == {(item_id,)}
    assert count(server, items) == 1

    item = reviewer_item(server, item_id)
    assert item["queue_id"] == MISINFO
    assert item["reports"]["total"] == 3
    assert item["reports"]["by_reason"] == [{"reason": "hate", "count": 3}]
    assert [n["note"] for n in item["reports"]["notes"]] == ["slur in the second line"] * 3
    # the newest score per (model, label)
    assert sorted((s["model"], s["score"]) for s in item["scores"]) == [
        ("civic", 0.95),
        ("hate-bert", 0.97),
    ]
    assert [(f["rating"], f["rating_label"]) for f in item["fact_checks"]] == [
        ("partly_false", "Partly false")
    ]
    kinds = [e["kind"] for e in item["history"]]
    assert kinds == ["enqueued"] + ["signal_added"] * 6
    # events say what came in, never the text of notes
    assert all("slur" not in str(e["data"]) for e in item["history"])


def test_the_priority_follows_the_signals(server: LiveServer, platform: ApiSession) -> None:
    send(platform, "posts", [post("p1")])
    [opened] = send(platform, "signals", [classifier("p1", 0.8)])
    item_id = opened["item_ids"][0]

    def priority() -> float:
        with server.service.db.read() as conn:
            return float(
                conn.execute(select(items.c.priority).where(items.c.id == item_id)).scalar()
            )

    before = priority()
    send(platform, "signals", [classifier("p1", 0.99)])
    after_score = priority()
    send(platform, "signals", [report("p1", "spam")])
    assert before < after_score < priority()


def test_signal_replays_count_once_and_reused_ids_are_rejected(
    server: LiveServer, platform: ApiSession
) -> None:
    send(platform, "posts", [post("p1"), post("p2")])
    first = report("p1", "hate", signal_id="r-1")
    assert statuses(send(platform, "signals", [first])) == ["created"]
    assert statuses(send(platform, "signals", [first, first])) == ["unchanged", "unchanged"]
    other = report("p1", "spam", signal_id="r-1")
    [reused] = send(platform, "signals", [other])
    assert reused["status"] == "rejected" and reused["reason"]["code"] == "id_reused", reused
    # in one batch: a second copy is unchanged, another body under the same id rejected
    results = send(
        platform,
        "signals",
        [
            report("p2", signal_id="r-2"),
            report("p2", signal_id="r-2"),
            report("p2", "spam", signal_id="r-2"),
        ],
    )
    assert statuses(results) == ["created", "unchanged", "rejected"]
    assert results[2]["reason"]["code"] == "id_reused"
    assert count(server, signals) == 2


def test_per_element_rejections_leave_the_rest_applied(
    server: LiveServer, platform: ApiSession
) -> None:
    send(platform, "posts", [post("p1")])
    results = send(
        platform,
        "signals",
        [
            classifier("no-such-post"),
            report("p1"),
            fact_check("p1", "wildly-wrong"),
        ],
    )
    assert statuses(results) == ["rejected", "created", "rejected"]
    assert [r["reason"]["code"] for r in (results[0], results[2])] == [
        "unknown_post",
        "unknown_rating",
    ]
    [media_missing] = send(
        platform, "posts", [post("p2", media=[{"media_id": "m-never-uploaded"}])]
    )
    assert media_missing["reason"]["code"] == "unknown_media"
    assert count(server, posts) == 1


def test_a_signal_for_another_platforms_post_is_unknown(
    server: LiveServer, platform: ApiSession
) -> None:
    send(platform, "posts", [post("p1")])
    other = key_session(server, "other-platform")
    [result] = send(other, "signals", [report("p1")])
    assert result["reason"]["code"] == "unknown_post"


def test_reporter_ids_are_stored_only_as_keyed_hashes(
    server: LiveServer, platform: ApiSession
) -> None:
    reporter = "reporter-8e1f77c2-find-me"
    send(platform, "posts", [post("p1")])
    send(platform, "signals", [report("p1", reporter_id=reporter, note="see above")])
    url = server.settings.database_url
    if url.startswith("sqlite:///"):
        files = Path(url.removeprefix("sqlite:///")).parent.glob("service.db*")
        raw = b"".join(f.read_bytes() for f in files)
        assert reporter.encode() not in raw
    with server.service.db.read() as conn:
        for table in ("signals", "events", "items", "posts"):
            for row in conn.execute(text(f"SELECT * FROM {table}")):
                assert reporter not in str(tuple(row)), table
        payload = conn.execute(select(signals.c.payload)).scalar_one()
    assert '"reporter_hash":"' in payload
    # the same reporter gives the same hash (distinct reporters can be counted)
    send(platform, "signals", [report("p1", reporter_id=reporter)])
    with server.service.db.read() as conn:
        hashes = [
            p.split('"reporter_hash":"')[1][:64]
            for p in conn.execute(select(signals.c.payload)).scalars()
        ]
    assert len(set(hashes)) == 1


# -- concurrency ------------------------------------------------------------------------------


def test_the_same_post_and_signal_ten_times_sequentially_and_from_ten_threads(
    server: LiveServer,
) -> None:
    sessions = [key_session(server, "feed-bridge")] + [
        ApiSession(server.url, key_session(server, "feed-bridge").token) for _ in range(9)
    ]
    the_post = post("viral")
    the_report = report("viral", "hate", signal_id="report-1")
    the_score = classifier("viral", 0.9, signal_id="score-1")

    for _ in range(10):
        send(sessions[0], "posts", [the_post])
    start = threading.Barrier(10)

    def push(session: ApiSession) -> tuple[list[str], list[str]]:
        start.wait()
        a = statuses(send(session, "posts", [the_post]))
        b = statuses(send(session, "signals", [the_report, the_score]))
        return a, b

    with ThreadPoolExecutor(10) as pool:
        outcomes = list(pool.map(push, sessions))
    for _ in range(10):
        send(sessions[0], "signals", [the_report, the_score])

    created = [b for _a, b in outcomes if "created" in b]
    assert sum(b.count("created") for _a, b in outcomes) == 2, outcomes  # each signal once
    assert len(created) >= 1
    assert all(a == ["unchanged"] for a, _b in outcomes), outcomes
    assert count(server, posts) == 1
    assert count(server, signals) == 2
    [item] = items_of(server, "viral")
    got = reviewer_item(server, item.id)
    assert got["reports"]["total"] == 1
    assert len(got["scores"]) == 1


def test_new_posts_and_first_signals_from_ten_threads_open_one_item_each(
    server: LiveServer,
) -> None:
    """Ten threads race to create the same ten posts and route them with different signals:
    each post ends with one item."""
    start = threading.Barrier(10)
    external_ids = [f"race-{i}" for i in range(10)]

    def push(n: int) -> None:
        session = key_session(server, "feed-bridge") if n == 0 else None
        session = session or ApiSession(server.url, key_session(server, "feed-bridge").token)
        start.wait()
        send(session, "posts", [post(x) for x in external_ids])
        send(session, "signals", [report(x, "hate") for x in external_ids])

    with ThreadPoolExecutor(10) as pool:
        list(pool.map(push, range(10)))
    assert count(server, posts) == 10
    for x in external_ids:
        [item] = items_of(server, x)
        assert item.queue_id == HATE
        assert reviewer_item(server, item.id)["reports"]["total"] == 10


# -- bad input --------------------------------------------------------------------------------


def test_a_bad_batch_is_refused_whole_naming_element_and_field(
    server: LiveServer, platform: ApiSession
) -> None:
    bad = post("p2")
    bad["language"] = "English!"
    response = platform.post("/intake/posts", json={"posts": [post("p1"), bad]})
    body = expect_problem(response, 422, "invalid_request")
    assert ["body", "posts", 1, "language"] in [e["loc"] for e in body["errors"]], body
    assert count(server, posts) == 0

    send(platform, "posts", [post("p1")])
    bad_signal = classifier("p1")
    bad_signal["score"] = 1.5
    response = platform.post("/intake/signals", json={"signals": [report("p1"), bad_signal]})
    body = expect_problem(response, 422, "invalid_request")
    locs = [e["loc"] for e in body["errors"]]
    assert any(loc[:3] == ["body", "signals", 1] and loc[-1] == "score" for loc in locs), locs
    assert count(server, signals) == 0

    for payload in ({"posts": []}, {"posts": [post(f"x{i}") for i in range(501)]}, {}):
        expect_problem(platform.post("/intake/posts", json=payload), 422)
    expect_problem(
        platform.post("/intake/posts", data=b"{nope", headers={"Content-Type": "application/json"}),
        400,
        "malformed_json",
    )


def test_people_cannot_call_intake(server: LiveServer) -> None:
    reviewer = server.login("rita")
    expect_problem(
        reviewer.post("/intake/posts", json={"posts": [post("p1")]}), 403, "platform_only"
    )
    checker = key_session(server, "check-desk", Role.fact_checker)
    expect_problem(checker.post("/intake/signals", json={"signals": [report("p1")]}), 403)
