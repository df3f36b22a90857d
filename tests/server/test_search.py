"""Lead search over real HTTP on both databases: the same posts from intake, the same
searches, the same hits (newest first), paging, a post's new version found by its new text,
and the clear errors. Saved views: shared between leads, private kept private."""

from __future__ import annotations

from typing import Any

import pytest

from reviewer_app.protocol import Role
from tests.support.api import ApiSession, expect_problem, verdict
from tests.support.intake import (
    HATE,
    MISINFO,
    apply_queues,
    author,
    classifier,
    key_session,
    post,
    report,
    send,
)
from tests.support.servers import LiveServer

# external id -> (author, display name, text, extra post fields, signals)
POSTS: list[tuple[str, str, str, str, dict[str, Any], list[dict[str, Any]]]] = [
    (
        "p1",
        "river",
        "River Song",
        "Vote on Thursday, details at https://news.example.com/a?x=1",
        {},
        [classifier("p1", 0.9)],
    ),
    (
        "p2",
        "amy",
        "Amelia Pond",
        "The Election was moved",
        {"link_preview": {"url": "https://www.example.com/story", "domain": "example.com"}},
        [classifier("p2", 0.8)],
    ),
    (
        "p3",
        "rory",
        "Rory Williams",
        "spam spam, buy now at https://shop.example.org/deal 100%_off",
        {},
        [report("p3", "hate"), report("p3", "hate"), report("p3", "hate")],
    ),
    (
        "p4",
        "river",
        "River Song",
        "Unrelated cat pictures",
        {},
        [classifier("p4", 0.95, model="hate-bert", label="slur"), report("p4", "spam")],
    ),
]


@pytest.fixture
def desk(live_server: LiveServer) -> tuple[LiveServer, dict[str, str]]:
    """The posts through intake, one after the other; post external id -> item id."""
    apply_queues(live_server)
    platform = key_session(live_server, "platform")
    opened: dict[str, str] = {}
    for external_id, writer, name, body, fields, signals in POSTS:
        send(
            platform,
            "posts",
            [post(external_id, body, author=author(writer, display_name=name), **fields)],
        )
        results = send(platform, "signals", signals)
        opened[external_id] = next(i for r in results for i in r["item_ids"])
    return live_server, opened


def hits(lead: ApiSession, kind: str, q: str, **params: Any) -> list[dict[str, Any]]:
    response = lead.get("/search", params={"kind": kind, "q": q, **params})
    assert response.status_code == 200, response.text
    return list(response.json()["hits"])


def posts(lead: ApiSession, kind: str, q: str) -> list[str]:
    return [h["post_id"] for h in hits(lead, kind, q)]


def test_each_kind_finds_the_same_items_on_both_databases(
    desk: tuple[LiveServer, dict[str, str]],
) -> None:
    server, opened = desk
    lead = server.login("lena", Role.lead)
    reviewer = server.login("rita")
    [leased] = [x for x in reviewer.claim(MISINFO, 10) if x["item"]["id"] == opened["p1"]]
    assert reviewer.decide([verdict(leased, "keep")])[0]["status"] == "accepted"

    expected = {
        ("author", "river"): ["p4", "p1"],  # handle, newest first
        ("author", "POND"): ["p2"],  # display name, any case
        ("author", "@amy"): ["p2"],
        ("text", "election"): ["p2"],
        ("text", "SPAM SPAM"): ["p3"],
        ("text", "100%_off"): ["p3"],  # LIKE's wildcards are plain characters
        ("text", "100%"): ["p3"],
        ("text", "0_o"): [],
        ("text", "nothing like this"): [],
        ("post", "p3"): ["p3"],
        ("post", "P3"): ["p3"],
        ("post", "https://social.example/p/p2"): ["p2"],
        ("post", "HTTPS://SOCIAL.EXAMPLE/P/P2/"): ["p2"],
        ("post", "p"): [],
        ("domain", "example.com"): ["p2", "p1"],  # news.example.com is under it
        ("domain", "www.example.com"): ["p2", "p1"],
        ("domain", "news.example.com"): ["p1"],
        ("domain", "https://shop.example.org/other"): ["p3"],
        ("domain", "example.net"): [],
        ("reason", "hate"): ["p3"],
        ("reason", "Spam"): ["p4"],
    }
    found = {key: posts(lead, *key) for key in expected}
    assert found == expected

    [decided] = hits(lead, "post", "p1")
    assert decided["item_id"] == opened["p1"] and decided["queue_id"] == MISINFO
    assert decided["action"] == "keep" and decided["reviewer"] == "rita"
    assert decided["state"] == "decided" and decided["decided_at"]
    assert decided["author_handle"] == "@river" and decided["author_name"] == "River Song"
    assert decided["author_id"] == "river"
    assert decided["post_url"] == "https://social.example/p/p1"
    assert decided["excerpt"].startswith("Vote on Thursday")
    [waiting] = hits(lead, "reason", "hate")
    assert waiting["queue_id"] == HATE and waiting["action"] is None
    assert waiting["state"] == "pending"


def test_paging_and_a_new_version_of_a_post(desk: tuple[LiveServer, dict[str, str]]) -> None:
    server, opened = desk
    lead = server.login("lena", Role.lead)
    first = lead.get("/search", params={"kind": "domain", "q": "example.com", "limit": 1}).json()
    assert [h["post_id"] for h in first["hits"]] == ["p2"] and first["next_cursor"]
    second = lead.get(
        "/search",
        params={"kind": "domain", "q": "example.com", "limit": 1, "cursor": first["next_cursor"]},
    ).json()
    assert [h["post_id"] for h in second["hits"]] == ["p1"] and second["next_cursor"] is None

    # the platform sends a new version of p1: its item shows it, and so does the search
    platform = key_session(server, "platform")  # the same account: its posts
    send(
        platform,
        "posts",
        [post("p1", "Polls close at nine", author=author("river", display_name="River Song"))],
    )
    assert posts(lead, "text", "thursday") == []
    assert posts(lead, "text", "polls close") == ["p1"]
    assert posts(lead, "domain", "news.example.com") == []
    # p1's row keeps its place (its id): a lead paging on never skips or repeats it
    assert posts(lead, "author", "river") == ["p4", "p1"]
    assert hits(lead, "text", "polls")[0]["item_id"] == opened["p1"]


def page_through(lead: ApiSession, kind: str, q: str, between: Any) -> list[str]:
    """Every hit's post id, page by page (3 a page), ``between`` run after the first."""
    found: list[str] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"kind": kind, "q": q, "limit": 3}
        if cursor is not None:
            params["cursor"] = cursor
        response = lead.get("/search", params=params)
        assert response.status_code == 200, response.text
        found += [h["post_id"] for h in response.json()["hits"]]
        cursor = response.json()["next_cursor"]
        if cursor is None:
            return found
        if len(found) == 3:
            between()


WAVE = [f"w{n}" for n in range(10)]
NEWEST_FIRST = list(reversed(WAVE))


@pytest.fixture
def wave(live_server: LiveServer) -> tuple[LiveServer, ApiSession, ApiSession]:
    """Ten posts of a spam wave, each reported as spam; the platform's and a lead's
    sessions."""
    apply_queues(live_server)
    platform = key_session(live_server, "platform")
    for external_id in WAVE:
        send(platform, "posts", [post(external_id, f"Spam wave, post {external_id}")])
        send(platform, "signals", [classifier(external_id, 0.9), report(external_id, "spam")])
    lead = live_server.login("lena", Role.lead)
    assert posts(lead, "reason", "spam") == NEWEST_FIRST
    return live_server, platform, lead


def test_an_item_reported_again_while_a_lead_pages_is_found_once(
    wave: tuple[LiveServer, ApiSession, ApiSession],
) -> None:
    """Between the lead's first and second page a later hit gets a report with a new
    reason: every hit is found once, none skipped."""
    _, platform, lead = wave
    found = page_through(
        lead, "reason", "spam", lambda: send(platform, "signals", [report("w3", "scam")])
    )
    assert found == NEWEST_FIRST
    assert posts(lead, "reason", "scam") == ["w3"]


def test_a_post_edited_while_a_lead_pages_is_found_once(
    wave: tuple[LiveServer, ApiSession, ApiSession],
) -> None:
    """Between the lead's first and second page a later hit's post gets a new version that
    still holds the text: found once, by its new text only."""
    _, platform, lead = wave

    def new_version() -> None:
        send(platform, "posts", [post("w2", "Spam wave again, edited")])

    assert page_through(lead, "text", "spam wave", new_version) == NEWEST_FIRST
    assert posts(lead, "text", "edited") == ["w2"]
    assert posts(lead, "text", "post w2") == []


def test_signals_on_an_open_item_keep_its_search_rows_up_to_date(
    desk: tuple[LiveServer, dict[str, str]],
) -> None:
    """A report with a reason new to an open item makes it found by that reason; more
    signals with nothing new for its search (a reason it has, a score: the intake keeps its
    search rows as they are then) leave it found once, by what it was found by before; and
    the author renamed by a post batch is found by the new name."""
    server, opened = desk
    lead = server.login("lena", Role.lead)
    platform = key_session(server, "platform")
    send(platform, "signals", [report("p2", "scam")])
    assert posts(lead, "reason", "scam") == ["p2"]
    send(platform, "signals", [report("p2", "scam"), classifier("p2", 0.85)])
    assert posts(lead, "reason", "scam") == ["p2"]
    assert posts(lead, "text", "election") == ["p2"]
    assert posts(lead, "author", "POND") == ["p2"]
    [hit] = hits(lead, "reason", "scam")
    assert hit["item_id"] == opened["p2"]
    send(
        platform,
        "posts",
        [
            post(
                "p2",
                "The Election was moved",
                author=author("amy", display_name="Amelia Williams"),
                link_preview={"url": "https://www.example.com/story", "domain": "example.com"},
            )
        ],
    )
    assert posts(lead, "author", "Amelia Williams") == ["p2"]
    assert posts(lead, "author", "POND") == []


def test_bad_searches_are_refused_clearly(desk: tuple[LiveServer, dict[str, str]]) -> None:
    server, _ = desk
    lead = server.login("lena", Role.lead)
    for kind, q in [("text", "ab"), ("author", "  x "), ("domain", "localhost"), ("text", "   ")]:
        response = lead.get("/search", params={"kind": kind, "q": q})
        expect_problem(response, 422, "invalid_search")
    response = lead.get("/search", params={"kind": "colour", "q": "red"})
    assert response.status_code == 422
    reviewer = server.login("rita")
    expect_problem(reviewer.get("/search", params={"kind": "text", "q": "spam"}), 403)


# -- saved views ---------------------------------------------------------------------------------


def _view(name: str, shared: bool, q: str = "example.com") -> dict[str, Any]:
    return {
        "name": name,
        "shared": shared,
        "view": {"kind": "search", "search": {"kind": "domain", "q": q}},
    }


def test_a_shared_view_is_seen_by_another_lead_and_a_private_one_is_not(
    live_server: LiveServer,
) -> None:
    a = live_server.login("lead-a", Role.lead)
    b = live_server.login("lead-b", Role.lead)
    made = a.post("/views", json=_view("Wave \u202eevil\u202c <b>x</b>", shared=True))
    assert made.status_code == 201, made.text
    shared = made.json()
    assert shared["owner"] == "lead-a" and shared["name"] == "Wave \u202eevil\u202c <b>x</b>"
    private = a.post("/views", json=_view("Mine", shared=False, q="example.org")).json()
    decisions = a.post(
        "/views",
        json={
            "name": "Removals",
            "shared": True,
            "view": {"kind": "decisions", "filter": {"action": "remove", "policy": "HATE.SLUR"}},
        },
    )
    assert decisions.status_code == 201, decisions.text

    seen_by_b = b.get("/views").json()["views"]
    assert [v["name"] for v in seen_by_b] == ["Removals", shared["name"]]
    assert seen_by_b[1]["view"] == {
        "kind": "search",
        "search": {"kind": "domain", "q": "example.com"},
    }
    given = {k: v for k, v in seen_by_b[0]["view"]["filter"].items() if v is not None}
    assert given == {"action": "remove", "policy": "HATE.SLUR"}
    seen_by_a = {v["name"] for v in a.get("/views").json()["views"]}
    assert seen_by_a == {"Removals", shared["name"], "Mine"}

    # b may not delete a's views; a private one does not even exist for b
    expect_problem(b.request("DELETE", f"/views/{shared['id']}"), 403, "not_your_view")
    expect_problem(b.request("DELETE", f"/views/{private['id']}"), 404)
    # names are per lead: b may use a's name, a may not use it twice
    assert b.post("/views", json=_view("Mine", shared=False)).status_code == 201
    expect_problem(a.post("/views", json=_view("Mine", shared=True)), 409, "view_name_taken")
    assert a.request("DELETE", f"/views/{private['id']}").status_code == 204
    assert "Mine" not in {v["name"] for v in a.get("/views").json()["views"]}


@pytest.mark.parametrize(
    "name", ["", "   ", "two\nlines", "tab\there", "nul\x00", "x" * 81, "bell\x07"]
)
def test_bad_view_names_are_refused_and_nothing_is_saved(
    live_server: LiveServer, name: str
) -> None:
    lead = live_server.login("lena", Role.lead)
    response = lead.post("/views", json=_view(name, shared=True))
    assert response.status_code == 422, response.text
    assert lead.get("/views").json()["views"] == []
    reviewer = live_server.login("rita")
    expect_problem(reviewer.get("/views"), 403)
    expect_problem(reviewer.post("/views", json=_view("ok", shared=True)), 403)


def test_text_and_names_are_found_in_any_case_alike_on_both_databases(
    live_server: LiveServer,
) -> None:
    """Lower case kept Greek's final sigma ("ΟΔΟΣ" as "οδος"), so "οδοσ" was found on one
    of SQLite's paths only, and "STRASSE" never found "Straße": both are case-folded."""
    apply_queues(live_server)
    platform = key_session(live_server, "platform")
    writers = [
        ("g1", "ΟΔΟΣ the end of the road", author("odos", display_name="ΟΔΥΣΣΕΑΣ")),
        ("g2", "Die Straße ist lang", author("weg", display_name="Jürgen Groß")),
    ]
    for external_id, text, who in writers:
        send(platform, "posts", [post(external_id, text, author=who)])
        send(platform, "signals", [classifier(external_id, 0.9)])
    lead = live_server.login("lena", Role.lead)
    expected = {
        ("text", "οδοσ"): ["g1"],
        ("text", "οδος"): ["g1"],
        ("text", "οδοσ the"): ["g1"],
        ("text", "ΟΔΟΣ THE"): ["g1"],
        ("text", "STRASSE"): ["g2"],
        ("text", "straße ist"): ["g2"],
        ("author", "οδυσσεασ"): ["g1"],
        ("author", "GROSS"): ["g2"],
    }
    assert {key: posts(lead, *key) for key in expected} == expected
