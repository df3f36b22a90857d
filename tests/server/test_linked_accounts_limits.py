"""Linked accounts past the Author tab's 100, and handles with odd spaces and ``@``s (both
databases, over HTTP).

A bulk decision on "the linked accounts'" posts (``open-items?linked=true``) covers
exactly the accounts ``GET /authors/{id}/linked`` lists, in the same order, however many
are linked; and a link is found from both of its ends whatever the handle's leading
spaces and ``@``s.
"""

from __future__ import annotations

from typing import Any

import pytest

from reviewer_app.protocol import Role
from reviewer_app.protocol.accounts import MAX_LINKED
from reviewer_app.server.domain.intake.rows import author_id_for
from tests.support.api import ApiSession
from tests.support.intake import (
    account_queues,
    apply_queues,
    classifier,
    key_session,
    post,
    send,
    shady,
)
from tests.support.servers import LiveServer

SOURCE = "feed-bridge"
SPOKES = MAX_LINKED + 30


@pytest.fixture
def server(database_url: str) -> Any:
    live = LiveServer(database_url).start()
    try:
        apply_queues(live, account_queues())
        yield live
    finally:
        live.stop()


@pytest.fixture
def platform(server: LiveServer) -> ApiSession:
    return key_session(server, SOURCE)


def author_id(external_id: str) -> str:
    return author_id_for(SOURCE, external_id)


def linked_to(lead: ApiSession, external_id: str) -> list[str]:
    found = lead.get(f"/authors/{author_id(external_id)}/linked")
    assert found.status_code == 200, found.text
    return [a["author_id"] for a in found.json()["linked"]]


def test_open_items_of_linked_accounts_cover_exactly_the_accounts_listed(
    server: LiveServer, platform: ApiSession
) -> None:
    # more accounts name the hub than are listed; their handles sort the other way round
    # from their author ids, so the first 100 by handle are not the first 100 by id
    spokes = sorted((f"spoke-{n}" for n in range(SPOKES)), key=author_id)
    handles = {s: f"@h{SPOKES - rank:04d}" for rank, s in enumerate(spokes)}
    send(platform, "posts", [post("hub-1", author=shady("hub"))])
    send(
        platform,
        "posts",
        [
            post(f"{s}-1", author=shady(s, handle=handles[s], shared_signal_accounts=["hub"]))
            for s in spokes
        ],
    )
    # every account has an open item
    send(platform, "signals", [classifier(f"{s}-1") for s in ["hub", *spokes]])

    lead = server.login("lena", Role.lead)
    listed = linked_to(lead, "hub")
    assert len(listed) == MAX_LINKED
    by_handle = sorted(spokes, key=lambda s: handles[s])
    assert listed == [author_id(s) for s in by_handle[:MAX_LINKED]]

    found = lead.get(f"/authors/{author_id('hub')}/open-items", params={"linked": "true"})
    assert found.status_code == 200, found.text
    body = found.json()
    assert body["author_ids"] == [author_id("hub"), *listed]
    assert {i["author_id"] for i in body["items"]} == {author_id("hub"), *listed}


@pytest.mark.parametrize("handle", ["@@dup-one", " @pad-one", "@@ dup-two ", "  pad-two"])
def test_a_link_is_found_from_both_ends_whatever_the_handle_spaces_and_at_signs(
    server: LiveServer, platform: ApiSession, handle: str
) -> None:
    # the odd account names nobody; the namer names it as links keep handles (no @, no
    # spaces), another names it with its own odd spelling
    key = handle.strip(" @")
    send(
        platform,
        "posts",
        [
            post("odd-1", author=shady("odd", handle=handle)),
            post("namer-1", author=shady("namer", shared_signal_accounts=[key])),
            post("quoter-1", author=shady("quoter", shared_signal_accounts=[handle])),
        ],
    )
    lead = server.login("lena", Role.lead)
    assert sorted(linked_to(lead, "odd")) == sorted([author_id("namer"), author_id("quoter")])
    assert linked_to(lead, "namer") == [author_id("odd")]
    assert linked_to(lead, "quoter") == [author_id("odd")]
