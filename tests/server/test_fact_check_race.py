"""A fact-checker's rating of a post and the platform's post, written at the same moment
(PostgreSQL: two write transactions at once; SQLite has one writer at a time). Each read
before the other had committed what it wrote, so each missed the other: the rating was
stored and answered ``created``, but the post never got it and never reached misinformation
review. Whichever commits second must put the rating on the post."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import DBAPIError

from reviewer_app.protocol import FactCheckRating, IntakePost, IntakeResult, Role
from reviewer_app.server.domain.intake.fact_checks import intake_fact_checks
from reviewer_app.server.domain.intake.items import Context
from reviewer_app.server.domain.intake.posts import intake_posts
from reviewer_app.server.domain.intake.rows import post_id_for
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.storage.tables import items, signals, users
from tests.support.intake import MISINFO, NOW, apply_queues, author, key_session, post, send
from tests.support.servers import LiveServer, fresh_pg_database, pg_admin_url

FEED = "feed-bridge"
CHECKER = "full-fact"
#: how long the first transaction waits, its work done, for the second to finish its own
#: (before the fix both got there at once; now the second waits for the first's commit)
HOLD_SECONDS = 1.5


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    """The service over a fresh PostgreSQL database (the tests use their own post ids)."""
    if not pg_admin_url():
        pytest.skip("needs PostgreSQL (see tests/conftest.py)")
    with fresh_pg_database() as url:
        live = LiveServer(url).start()
        try:
            apply_queues(live)
            key_session(live, FEED)
            key_session(live, CHECKER, Role.fact_checker)
            key_session(live, "other-checker", Role.fact_checker)
            key_session(live, "backfill")
            yield live
        finally:
            live.stop()


def principal(server: LiveServer, username: str) -> Principal:
    with server.service.db.read() as conn:
        row = conn.execute(select(users).where(users.c.username == username)).one()
    return Principal(row.id, row.username, row.display_name, Role(row.role))


def rating(rating_id: str, *post_ids: str) -> FactCheckRating:
    return FactCheckRating.model_validate(
        {
            "id": rating_id,
            "post_external_ids": list(post_ids),
            "rating": "false",
            "claim": "Ballots posted after Friday are not counted",
            "url": f"https://fullfact.example/{rating_id}",
            "published_at": NOW.isoformat(),
        }
    )


def posts_of(*bodies: dict[str, Any]) -> list[IntakePost]:
    return [IntakePost.model_validate(b) for b in bodies]


class Batches:
    """Runs batches in the intake desk's transactions (each run again if it lost a race),
    keeping the SQLSTATE of each attempt rolled back (``40P01``: a deadlock)."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.rolled_back: list[str] = []
        self.results: dict[str, list[IntakeResult]] = {}
        self.errors: list[BaseException] = []

    def runner(
        self,
        name: str,
        caller: Principal,
        work: Callable[[Context], list[IntakeResult]],
        then: Callable[[], None] = lambda: None,
    ) -> Callable[[], None]:
        """A thread's body: ``work`` as ``caller``, then ``then`` before committing."""

        def transaction(ctx: Context) -> list[IntakeResult]:
            try:
                done = work(ctx)
            except DBAPIError as exc:
                self.rolled_back.append(str(getattr(exc.orig, "sqlstate", None)))
                raise
            then()
            return done

        def body() -> None:
            try:
                self.results[name] = self.server.service.intake.run(caller, transaction)
            except BaseException as exc:  # reported by the test
                self.errors.append(exc)

        return body

    def all_at_once(self, bodies: list[Callable[[], None]]) -> None:
        start = threading.Barrier(len(bodies))

        def started(body: Callable[[], None]) -> None:
            start.wait(10)
            body()

        threads = [threading.Thread(target=started, args=(b,)) for b in bodies]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert not self.errors, self.errors


def staged(server: LiveServer, first: str, rating_work: Any, posts_work: Any) -> Batches:
    """Run the rating batch and the post batch in two transactions at once: ``first`` does
    its work and then waits (up to HOLD_SECONDS, before committing) for the other's work
    to be done too; the other starts once the first waits."""
    barrier = threading.Barrier(2, timeout=HOLD_SECONDS)

    def meet() -> None:
        with suppress(threading.BrokenBarrierError):
            barrier.wait()

    run = Batches(server)
    bodies = {
        "rating": run.runner("rating", principal(server, CHECKER), rating_work, meet),
        "posts": run.runner("posts", principal(server, FEED), posts_work, meet),
    }
    second = "posts" if first == "rating" else "rating"
    one = threading.Thread(target=bodies[first])
    two = threading.Thread(target=bodies[second])
    one.start()
    deadline = time.monotonic() + 10
    while barrier.n_waiting < 1 and one.is_alive() and time.monotonic() < deadline:
        time.sleep(0.005)
    two.start()
    one.join(30)
    two.join(30)
    assert not run.errors, run.errors
    return run


def fact_checks_on(server: LiveServer, external_id: str, checker: str = CHECKER) -> int:
    """How many fact-check signals of ``checker`` the feed's post ``external_id`` has."""
    with server.service.db.read() as conn:
        return int(
            conn.execute(
                select(func.count())
                .select_from(signals)
                .where(
                    signals.c.post_id == post_id_for(FEED, external_id),
                    signals.c.kind == "fact_check",
                    signals.c.source == checker,
                )
            ).scalar_one()
        )


def open_queues(server: LiveServer, external_id: str) -> list[str]:
    with server.service.db.read() as conn:
        return list(
            conn.execute(
                select(items.c.queue_id).where(
                    items.c.post_id == post_id_for(FEED, external_id),
                    items.c.state.in_(("pending", "leased")),
                )
            ).scalars()
        )


@pytest.mark.parametrize("first", ["rating", "posts"])
def test_a_rating_and_its_post_written_at_once_meet(server: LiveServer, first: str) -> None:
    x = f"race-{first}"
    checker = principal(server, CHECKER)
    run = staged(
        server,
        first,
        lambda ctx: intake_fact_checks(ctx, checker, [rating(f"fc-{x}", x)]),
        lambda ctx: intake_posts(ctx, posts_of(post(x))),
    )
    [rated] = run.results["rating"]
    [arrived] = run.results["posts"]
    assert rated.status.value == arrived.status.value == "created"
    # the second to commit put the rating on the post (once) and opened its item
    assert fact_checks_on(server, x) == 1
    assert open_queues(server, x) == [MISINFO]
    assert rated.queue_ids + arrived.queue_ids == [MISINFO]
    assert run.rolled_back == []


@pytest.mark.parametrize("first", ["rating", "posts"])
def test_a_rating_of_a_new_and_a_changed_post_of_one_author_waits_in_no_circle(
    server: LiveServer, first: str
) -> None:
    """The post batch creates x and changes y (one author: it locks the author and y before
    x's id), the rating names both: neither waits for the other while holding what the
    other waits for (a deadlock would be rolled back and the batch run again). The author's
    lock made these two take turns before the fix too: this guards the new lock's place."""
    x, y = f"new-{first}", f"changed-{first}"
    send(key_session(server, FEED), "posts", [post(y)])
    checker = principal(server, CHECKER)
    run = staged(
        server,
        first,
        lambda ctx: intake_fact_checks(ctx, checker, [rating(f"fc-{x}", y, x)]),
        lambda ctx: intake_posts(ctx, posts_of(post(x), post(y, text="Edited."))),
    )
    assert [r.status.value for r in run.results["posts"]] == ["created", "updated"]
    assert fact_checks_on(server, x) == fact_checks_on(server, y) == 1
    assert open_queues(server, x) == open_queues(server, y) == [MISINFO]
    assert run.rolled_back == []


def test_ratings_and_posts_sent_together_in_any_order_all_meet(server: LiveServer) -> None:
    """Rounds of two post batches (two authors, opposite orders) and two fact-checkers'
    batches (opposite orders), all at once: every post gets both ratings, and no batch
    deadlocked."""
    checkers = [principal(server, CHECKER), principal(server, "other-checker")]
    feed = principal(server, FEED)
    for n in range(8):
        ids = [f"round-{n}-{k}" for k in range(6)]
        run = Batches(server)

        def ratings(who: Principal, order: list[str]) -> Callable[[Context], Any]:
            batch = [rating(f"fc-{who.username}-{i}", i) for i in order]
            batch.append(rating(f"fc-{who.username}-{order[0]}-all", *order))
            return lambda ctx: intake_fact_checks(ctx, who, batch)

        def arrivals(order: list[str], by: str) -> Callable[[Context], Any]:
            batch = posts_of(*(post(i, author=author(by)) for i in order))
            return lambda ctx: intake_posts(ctx, batch)

        run.all_at_once(
            [
                run.runner("r0", checkers[0], ratings(checkers[0], ids)),
                run.runner("r1", checkers[1], ratings(checkers[1], ids[::-1])),
                run.runner("p0", feed, arrivals(ids[::2] + ids[1::2][::-1], f"author-{n}-a")),
                run.runner("p1", feed, arrivals(ids[1::2] + ids[::2][::-1], f"author-{n}-b")),
            ]
        )
        for i in ids:
            assert fact_checks_on(server, i, CHECKER) == 2, i  # its own rating and the "all"
            assert fact_checks_on(server, i, "other-checker") == 2, i
        # run again after a lock refused (55P03), never after a deadlock
        assert "40P01" not in run.rolled_back, run.rolled_back
