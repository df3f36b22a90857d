"""Reversed appeals give the account back what its standing decisions leave it, over real
HTTP on SQLite and PostgreSQL, in whatever order the decisions are reversed: an author
restricted on one post and suspended on another, both reversed, is active again (the
restriction reversed while the suspension stood had left them restricted for good, and
their account appeal refused). The platform, keeping the account actions it received that
no later action reversed, comes to the same status as the service."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from reviewer_app.protocol import Item, statements
from reviewer_app.server.storage.tables import authors
from tests.support.api import ApiSession, claim, verdict
from tests.support.appeals import (
    APPEALS,
    appeal,
    feed,
    platform_of,
    suspending_appeals_on_a_manual_clock,  # noqa: F401 - the server fixture
)
from tests.support.enforcement import queue_posts
from tests.support.intake import MISINFO, send
from tests.support.servers import LiveServer

CIVIC = ["MISINFO.CIVIC"]
AUTHOR = "author-1"  # every post's author (tests.support.intake)
STATUS_OF = {
    None: "active",
    "warn": "warned",
    "restrict": "restricted",
    "suspend": "suspended",
    "mark_inauthentic": "inauthentic",
}
RANK = list(STATUS_OF)


def decide_each(reviewer: ApiSession, actions: dict[str, str]) -> None:
    """Each post (queued in misinformation) decided with its action, one after another."""
    leased = {x["item"]["post"]["url"].rsplit("/", 1)[-1]: x for x in claim(reviewer, MISINFO, 2)}
    for name, action in actions.items():
        [made] = reviewer.decide([verdict(leased[name], action, policies=CIVIC)])
        assert made["status"] == "accepted", made


def status(server: LiveServer) -> str:
    with server.service.db.read() as conn:
        return str(conn.execute(select(authors.c.status)).scalar())


def as_the_platform_keeps_it(actions: list[dict[str, Any]]) -> str:
    """The account's status as a platform works it out from the feed: the strongest account
    action (an ``author_action`` or an ``author:*`` kind) no later action reversed."""
    standing: dict[int, str] = {}
    for a in actions:
        if a["reverses_action_id"] is not None:
            standing.pop(a["reverses_action_id"], None)
        kind = a["kind"]
        part = a["author_action"] or (kind.split(":", 1)[1] if kind.startswith("author:") else None)
        if part is not None:
            standing[a["id"]] = part
    strongest = max(standing.values(), key=RANK.index, default=None)
    return STATUS_OF[strongest]


def reverse_the_appeal(server: LiveServer, reviewer: ApiSession, body: dict[str, Any]) -> None:
    """Claim the appeal and reverse it; the reviewer's preview of the statement (what the
    desk's verdict bar shows, from the item) must read as the one the author then gets."""
    platform = platform_of(server)
    [sent] = send(platform, "appeals", [body])
    assert sent["status"] == "created", sent
    [held] = claim(reviewer, APPEALS, 1)
    item = Item.model_validate(held["item"])
    assert item.appeal is not None and item.statements
    preview = statements.lift(item.statements[-1], account_stays=item.appeal.account_stays)
    [reversed_] = reviewer.decide([verdict(held, "reverse")])
    assert reversed_["status"] == "accepted", reversed_
    given = last_restore(server, platform)["statement"]
    assert preview.text == given["text"], (item.appeal.account_stays, preview.text)


def last_restore(server: LiveServer, platform: ApiSession) -> dict[str, Any]:
    actions = feed(server, platform)
    restore = actions[-1]
    assert restore["kind"] == "restore", actions
    assert as_the_platform_keeps_it(actions) == status(server), actions
    return restore


def test_a_restriction_reversed_under_a_suspension_then_the_suspension_leave_it_active(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-restrict", "p-suspend"])
    decide_each(
        server.login("rita"), {"p-restrict": "remove-restrict", "p-suspend": "remove-suspend"}
    )
    assert status(server) == "suspended"
    sam = server.login("sam")

    reverse_the_appeal(server, sam, appeal("p-restrict", appeal_id="ap-post"))
    restore = last_restore(server, platform)
    assert (restore["appeal_id"], restore["undo_author_action"]) == ("ap-post", False)
    assert status(server) == "suspended", "the suspension stands"
    # the user reads that the post's part is undone and the account's stays, not that the
    # restriction is lifted
    words = restore["statement"]
    assert words["lifted"] is True and words["account"] is None, words
    assert (
        "what it did to your post is undone. What it did to your account stays" in (words["text"])
    )
    assert statements.LIFTED_REDRESS not in words["text"]
    assert statements.REVERSED not in words["text"]

    reverse_the_appeal(server, sam, appeal(author_id=AUTHOR, appeal_id="ap-account"))
    restore = last_restore(server, platform)
    assert (restore["appeal_id"], restore["undo_author_action"]) == ("ap-account", True)
    assert status(server) == "active", "nothing that acted on the account stands"
    words = restore["statement"]
    assert (words["lifted"], words["account"]) == (True, "suspended"), words
    assert statements.REVERSED in words["text"] and statements.LIFTED_REDRESS in words["text"]
    [again] = send(platform, "appeals", [appeal(author_id=AUTHOR, appeal_id="ap-again")])
    assert again["reason"]["code"] == "not_restrictive", again
    assert "active" in again["reason"]["message"]


def test_the_suspension_reversed_first_leaves_the_restriction_then_nothing(
    server: LiveServer,
) -> None:
    platform = platform_of(server)
    queue_posts(platform, ["p-restrict", "p-suspend"])
    decide_each(
        server.login("rita"), {"p-restrict": "remove-restrict", "p-suspend": "remove-suspend"}
    )
    sam = server.login("sam")

    reverse_the_appeal(server, sam, appeal(author_id=AUTHOR, appeal_id="ap-account"))
    restore = last_restore(server, platform)
    assert restore["undo_author_action"] is True
    assert status(server) == "restricted", "the restriction on the other post stands"
    # the user reads that the suspension is undone and that the account stays restricted,
    # not that "the restriction no longer applies"
    words = restore["statement"]
    assert (words["lifted"], words["account"]) == (True, "suspended"), words
    assert "your account stays restricted, as another decision of ours imposes" in words["text"]
    assert statements.LIFTED_REDRESS not in words["text"]

    reverse_the_appeal(server, sam, appeal(author_id=AUTHOR, appeal_id="ap-account-2"))
    assert last_restore(server, platform)["undo_author_action"] is True
    assert status(server) == "active"


def test_two_restrictions_on_two_posts_both_reversed_leave_it_active(server: LiveServer) -> None:
    """The second restriction raised nothing (the author was restricted already), so it
    made no account action: reversing the first left the author restricted by the second,
    and reversing the second then found nothing to put back."""
    platform = platform_of(server)
    queue_posts(platform, ["p-one", "p-two"])
    decide_each(server.login("rita"), {"p-one": "remove-restrict", "p-two": "remove-restrict"})
    sam = server.login("sam")

    reverse_the_appeal(server, sam, appeal("p-one"))
    assert last_restore(server, platform)["undo_author_action"] is False
    assert status(server) == "restricted", "the other post's restriction stands"
    # the account appeal contests the restriction that still stands
    reverse_the_appeal(server, sam, appeal(author_id=AUTHOR))
    assert last_restore(server, platform)["undo_author_action"] is True
    assert status(server) == "active"
