"""Account actions take effect (both databases, over HTTP).

Suspending an author is one account-level decision: every other open item of theirs, in
every queue, closes as ``resolved`` in the same transaction (leases ended, ``resolved`` in
each history), one ``author:*`` enforcement action goes out, the author's status shows on
their items; a reviewer holding one of the items is told ``author_actioned`` by the renewal
and by the verdict they made for it (with the status, never a conflict). Their new posts
are stored, not queued, and counted for leads. Linked accounts are listed with status and
open items, and a lead's account action on several accounts applies to all or to none.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import func, select, text

from reviewer_app.protocol import Role
from reviewer_app.server.domain.intake.rows import author_id_for, post_id_for
from reviewer_app.server.storage.tables import (
    account_actions,
    authors,
    held_posts,
    items,
    leases,
    posts,
)
from tests.support.api import ApiSession, verdict
from tests.support.intake import (
    ESCALATIONS,
    HATE,
    INAUTH,
    MISINFO,
    account_queues,
    apply_queues,
    author,
    classifier,
    key_session,
    post,
    send,
    shady,
)
from tests.support.servers import LiveServer

SOURCE = "feed-bridge"


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


def queue_post(
    platform: ApiSession, external_id: str, who: dict[str, Any], **signal: Any
) -> list[str]:
    send(platform, "posts", [post(external_id, author=who)])
    [result] = send(platform, "signals", [classifier(external_id, **signal)])
    return list(result["item_ids"])


def author_id(external_id: str) -> str:
    return author_id_for(SOURCE, external_id)


def leased(grant: list[dict[str, Any]], post_external_id: str) -> dict[str, Any]:
    return next(x for x in grant if x["item"]["post"]["id"] == post_external_id)


def author_actions_sent(server: LiveServer, author: str) -> list[str]:
    """The ``author:*`` enforcement actions for the author (none before the feed exists)."""
    with server.service.db.read() as conn:
        known = conn.dialect.has_table(conn, "enforcement_actions")
        if not known:
            return []
        rows = conn.execute(
            text(
                "SELECT kind FROM enforcement_actions WHERE author_id = :a "
                "AND kind LIKE 'author:%' ORDER BY id"
            ),
            {"a": author},
        )
        return [r.kind for r in rows]


def test_suspending_an_author_closes_their_items_everywhere_and_tells_the_holder(
    server: LiveServer, platform: ApiSession
) -> None:
    a = shady()
    [in_misinfo] = queue_post(platform, "a-civic", a, score=0.9)
    [in_hate] = queue_post(platform, "a-hate", a, model="hate-bert", label="hate", score=0.95)
    [in_inauth] = queue_post(platform, "a-other", a, model="spam", label="spam", score=0.1)
    [other_author] = queue_post(platform, "b-civic", author("bystander"), score=0.95)
    with server.service.db.read() as conn:
        queued = dict(
            conn.execute(
                select(items.c.id, items.c.queue_id).where(
                    items.c.id.in_([in_misinfo, in_hate, in_inauth])
                )
            ).all()
        )
    assert queued == {in_misinfo: MISINFO, in_hate: HATE, in_inauth: INAUTH}

    bob = server.login("bob")
    held = bob.claim(MISINFO, count=10)
    mine = leased(held, "a-civic")
    bystander = leased(held, "b-civic")
    assert bystander["item"]["id"] == other_author

    lead = server.login("lena", Role.lead)
    [suspending] = lead.claim(INAUTH, count=1)
    assert suspending["item"]["id"] == in_inauth
    assert suspending["item"]["author"]["status"] == "active"
    [result] = lead.decide([verdict(suspending, "suspend")])
    assert result["status"] == "accepted", result
    assert result["decision"]["author_action"] == "suspend"

    # closed everywhere, in the same transaction, the decided item excepted
    with server.service.db.read() as conn:
        state = dict(conn.execute(select(items.c.id, items.c.state)).all())
        ended = conn.execute(
            select(leases.c.ended_at).where(leases.c.token == mine["lease_token"])
        ).scalar()
        decisions_made = conn.execute(select(account_actions)).mappings().all()
    assert state[in_misinfo] == state[in_hate] == "resolved"
    assert state[in_inauth] == "decided"
    assert state[other_author] == "leased"
    assert ended is not None
    [account] = decisions_made
    assert account["author_id"] == author_id("shady") and account["action"] == "suspend"
    assert account["status_before"] == "active" and account["status_after"] == "suspended"
    assert account["closed_items"] == 2 and account["decision_id"] == result["decision"]["id"]
    assert author_actions_sent(server, author_id("shady")) == ["author:suspend"]

    # the status shows on every item of the author; their history says why it closed
    for item_id in (in_misinfo, in_hate, in_inauth):
        item = lead.get(f"/items/{item_id}").json()
        assert item["author"]["status"] == "suspended", item_id
    history = lead.get(f"/items/{in_hate}/history").json()["events"]
    [closing] = [e for e in history if e["kind"] == "resolved"]
    assert closing["actor"] == "lena"
    assert closing["data"]["author_action"] == "suspend"
    assert closing["data"]["status"] == "suspended"
    assert bob.get(f"/items/{other_author}").json()["author"]["status"] == "active"

    # the holder: the renewal says author_actioned (with the status), not lost
    renewal = bob.post(
        "/leases/renew",
        json={"tokens": [mine["lease_token"], bystander["lease_token"]], "lease_seconds": 300},
    ).json()["results"]
    assert [(r["status"], r.get("author_status")) for r in renewal] == [
        ("author_actioned", "suspended"),
        ("renewed", None),
    ]
    # ... and the verdict they made offline for it is rejected as author_actioned
    [late] = bob.decide([verdict(mine, "remove", policies=["MISINFO.CIVIC"])])
    assert late["status"] == "rejected"
    assert late["reason"]["code"] == "author_actioned"
    assert late["reason"]["author_status"] == "suspended"
    assert late["decision"] is None
    [kept] = bob.decide([verdict(bystander, "keep")])
    assert kept["status"] == "accepted"

    # the queues count no resolved item as waiting or leased
    counts = {q["id"]: q["counts"] for q in lead.get("/queues").json()["queues"]}
    assert counts[HATE]["pending"] == 0 and counts[MISINFO]["leased"] == 0


def test_an_escalated_item_of_the_author_is_closed_too(
    server: LiveServer, platform: ApiSession
) -> None:
    a = shady("escalated-author")
    [escalated] = queue_post(platform, "e-civic", a, score=0.9)
    queue_post(platform, "e-other", a, model="spam", label="spam", score=0.1)
    bob = server.login("bob")
    [first] = bob.claim(MISINFO, count=1)
    assert bob.decide([verdict(first, "escalate")])[0]["status"] == "accepted"
    lead = server.login("lena", Role.lead)
    assert lead.get(f"/items/{escalated}").json()["queue_id"] == ESCALATIONS
    [grant] = lead.claim(INAUTH, count=1)
    assert lead.decide([verdict(grant, "suspend")])[0]["status"] == "accepted"
    item = lead.get(f"/items/{escalated}").json()
    assert (item["queue_id"], item["state"]) == (ESCALATIONS, "resolved")
    assert lead.claim(ESCALATIONS, count=5) == []


def test_new_posts_of_a_suspended_author_are_stored_not_queued_and_counted(
    server: LiveServer, platform: ApiSession
) -> None:
    a = shady("repeat")
    [target] = queue_post(platform, "r-1", a, model="spam", label="spam", score=0.1)
    lead = server.login("lena", Role.lead)
    [grant] = lead.claim(INAUTH, count=1)
    assert grant["item"]["id"] == target
    [result] = lead.decide([verdict(grant, "suspend")])
    assert result["status"] == "accepted"

    assert send(platform, "posts", [post("r-2", author=a)])[0]["status"] == "created"
    [signal] = send(platform, "signals", [classifier("r-2", 0.95)])
    assert signal["status"] == "created" and signal["item_ids"] == [], signal
    # a second signal on the held post counts it once
    [again] = send(platform, "signals", [classifier("r-2", 0.97)])
    assert again["item_ids"] == []
    # an author in good standing is queued as ever
    assert queue_post(platform, "ok-1", author("fine"), score=0.9)

    pid = post_id_for(SOURCE, "r-2")
    with server.service.db.read() as conn:
        assert conn.execute(select(posts.c.id).where(posts.c.id == pid)).scalar() == pid
        assert (
            conn.execute(
                select(func.count()).select_from(items).where(items.c.post_id == pid)
            ).scalar()
            == 0
        )
        [row] = conn.execute(select(held_posts)).mappings().all()
    assert row["post_id"] == pid and row["author_id"] == author_id("repeat")
    assert row["queue_id"] == MISINFO and row["author_status"] == "suspended"

    report = lead.get("/stats/queues").json()
    assert report["held_back"] == {"posts": 1, "posts_in_window": 1, "accounts": 1}
    server.service.seal_now()
    held_events = lead.get("/events", params={"kind": "held_back"}).json()["events"]
    assert [(e["data"]["post"], e["data"]["status"], e["queue_id"]) for e in held_events] == [
        ("r-2", "suspended", MISINFO)
    ]
    linked = lead.get(f"/authors/{author_id('repeat')}/linked").json()
    assert linked["author"]["held_posts"] == 1 and linked["author"]["status"] == "suspended"


def test_linked_accounts_are_listed_with_status_and_open_items(
    server: LiveServer, platform: ApiSession
) -> None:
    # hub names two accounts; a third names the hub (links go both ways); one named
    # account is unknown here; an account of another platform with the same handle is not
    # linked
    hub = shady("hub", shared_signal_accounts=["spoke_one", "@spoke_two", "nobody_here"])
    queue_post(platform, "hub-1", hub, score=0.9)
    queue_post(platform, "one-1", shady("one", handle="spoke_one"), score=0.9)
    queue_post(platform, "one-2", shady("one", handle="spoke_one"), model="hate-bert", score=0.95)
    send(platform, "posts", [post("two-1", author=shady("two", handle="@spoke_two"))])
    queue_post(platform, "three-1", shady("three", shared_signal_accounts=["hub"]), score=0.9)
    other = key_session(server, "other-platform")
    queue_post(other, "x-1", shady("x", handle="spoke_one"), score=0.9)

    lead = server.login("lena", Role.lead)
    found = lead.get(f"/authors/{author_id('hub')}/linked")
    assert found.status_code == 200, found.text
    body = found.json()
    assert body["author"]["author_id"] == author_id("hub")
    assert body["author"]["open_items"] == 1
    listed = {a["author_id"]: a for a in body["linked"]}
    assert set(listed) == {author_id("one"), author_id("two"), author_id("three")}
    assert listed[author_id("one")]["open_items"] == 2
    assert listed[author_id("one")]["queue_ids"] == sorted([MISINFO, HATE])
    assert listed[author_id("two")]["open_items"] == 0
    assert {a["status"] for a in listed.values()} == {"active"}

    # the same accounts on the hub's items (the review window's Author tab)
    grant = leased(lead.claim(MISINFO, count=10), "hub-1")
    assert grant["item"]["author"]["id"] == author_id("hub")
    assert {a["author_id"] for a in grant["item"]["author"]["linked"]} == set(listed)

    reviewer = server.login("bob")
    assert reviewer.get(f"/authors/{author_id('hub')}/linked").status_code == 403
    assert lead.get("/authors/no-such-author/linked").status_code == 404


def test_a_lead_account_action_on_several_accounts_applies_to_all_or_none(
    server: LiveServer, platform: ApiSession
) -> None:
    ring = [shady(f"ring-{n}") for n in range(3)]
    for n, who in enumerate(ring):
        queue_post(platform, f"ring-{n}-a", who, score=0.9)
        queue_post(platform, f"ring-{n}-b", who, model="hate-bert", score=0.95)
    ids = [author_id(f"ring-{n}") for n in range(3)]
    lead = server.login("lena", Role.lead)

    def act(author_ids: list[str], action: str = "suspend") -> Any:
        return lead.post(
            "/authors/actions",
            json={
                "author_ids": author_ids,
                "action": action,
                "policies": ["SPAM.NETWORK"],
                "note": "one network",
            },
        )

    def open_items() -> int:
        with server.service.db.read() as conn:
            return int(
                conn.execute(
                    select(func.count())
                    .select_from(items)
                    .where(items.c.state.in_(["pending", "leased"]))
                ).scalar_one()
            )

    # ring-2 is suspended already: the action on all three applies to none
    first = act([ids[2]])
    assert first.status_code == 200, first.text
    [done] = first.json()["results"]
    assert done["status_before"] == "active" and done["status"] == "suspended"
    assert len(done["closed_item_ids"]) == 2 and sorted(done["queue_ids"]) == [HATE, MISINFO]
    assert open_items() == 4
    refused = act(ids)
    assert refused.status_code == 409, refused.text
    problem = refused.json()
    assert problem["code"] == "already_actioned"
    assert [e["loc"] for e in problem["errors"]] == [["author_ids", 2]]
    unknown = act([ids[0], "nobody"])
    assert unknown.status_code == 404 and unknown.json()["code"] == "unknown_author"
    assert open_items() == 4
    with server.service.db.read() as conn:
        assert conn.execute(select(func.count()).select_from(account_actions)).scalar() == 1

    # the other two: one decision each, one author action each, their items closed
    both = act(ids[:2])
    assert both.status_code == 200, both.text
    results = both.json()["results"]
    assert [r["author_id"] for r in results] == ids[:2]
    assert all(len(r["closed_item_ids"]) == 2 for r in results)
    assert open_items() == 0
    for a in ids:
        assert author_actions_sent(server, a) == ["author:suspend"]
    # a warning would lower nothing: refused for the suspended accounts
    assert act([ids[0]], "warn").status_code == 409
    # marking them inauthentic goes further than suspending: taken
    assert act([ids[0]], "mark_inauthentic").status_code == 200

    reviewer = server.login("bob")
    assert (
        reviewer.post("/authors/actions", json={"author_ids": ids, "action": "warn"}).status_code
        == 403
    )


def test_an_audit_overturn_to_suspend_is_an_account_level_decision(
    server: LiveServer, platform: ApiSession
) -> None:
    a = shady("overturned")
    [kept] = queue_post(platform, "o-inauth", a, model="spam", label="spam", score=0.1)
    [other] = queue_post(platform, "o-civic", a, score=0.9)
    bob = server.login("bob")
    [grant] = bob.claim(INAUTH, count=1)
    assert bob.decide([verdict(grant, "authentic")])[0]["status"] == "accepted"

    lead = server.login("lena", Role.lead)
    sample = lead.post(
        "/audits/samples",
        json={
            "size": 1,
            "since": "2000-01-01T00:00:00Z",
            "until": "2999-01-01T00:00:00Z",
            "queue_id": INAUTH,
        },
    ).json()
    task = lead.post(f"/audits/samples/{sample['id']}/next").json()["task"]
    assert task["item"]["id"] == kept
    overturned = lead.post(
        f"/audits/tasks/{task['audit_id']}/result",
        json={"result": "overturn", "action": "suspend", "note": "a bot network"},
    )
    assert overturned.status_code == 201, overturned.text
    corrected = overturned.json()["corrected"]

    assert lead.get(f"/items/{other}").json()["state"] == "resolved"
    with server.service.db.read() as conn:
        [account] = conn.execute(select(account_actions)).mappings().all()
    assert account["decision_id"] == corrected["id"] and account["status_after"] == "suspended"
    assert author_actions_sent(server, author_id("overturned")) == ["author:suspend"]


def test_an_overturned_suspension_reinstates_the_account(
    server: LiveServer, platform: ApiSession
) -> None:
    a = shady("reinstated")
    [suspended_on] = queue_post(platform, "ri-inauth", a, model="spam", label="spam", score=0.1)
    [other] = queue_post(platform, "ri-civic", a, score=0.9)
    bob = server.login("bob")
    [grant] = bob.claim(INAUTH, count=1)
    assert bob.decide([verdict(grant, "suspend")])[0]["status"] == "accepted"
    lead = server.login("lena", Role.lead)
    assert lead.get(f"/items/{other}").json()["state"] == "resolved"

    sample = lead.post(
        "/audits/samples",
        json={"size": 1, "since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"},
    ).json()
    task = lead.post(f"/audits/samples/{sample['id']}/next").json()["task"]
    assert task["item"]["id"] == suspended_on
    overturned = lead.post(
        f"/audits/tasks/{task['audit_id']}/result",
        json={"result": "overturn", "action": "authentic", "note": "a real person"},
    )
    assert overturned.status_code == 201, overturned.text

    item = lead.get(f"/items/{suspended_on}").json()
    assert item["author"]["status"] == "active"
    assert lead.get(f"/items/{other}").json()["state"] == "resolved"  # closed stays closed
    with server.service.db.read() as conn:
        rows = conn.execute(select(account_actions).order_by(account_actions.c.id)).mappings()
        trail = [(r["action"], r["status_before"], r["status_after"]) for r in rows]
    assert trail == [("suspend", "active", "suspended"), ("reinstate", "suspended", "active")]
    # a new post of theirs is queued again
    assert queue_post(platform, "ri-new", a, score=0.95)


def test_suspending_an_author_of_a_spam_wave_closes_more_than_ten_thousand_items(
    server: LiveServer, platform: ApiSession
) -> None:
    """An author with 10,050 open items: the suspension was a 500 and undone (its result
    listed every closed item, past the contract's 10,000); it lists the first 10,000 and
    counts them all."""
    who = author("wave")
    wave = [f"wave-{n}" for n in range(10_050)]
    for start in range(0, len(wave), 500):
        part = wave[start : start + 500]
        send(platform, "posts", [post(e, author=who) for e in part])
        send(platform, "signals", [classifier(e, score=0.9) for e in part])
    lead = server.login("lena", Role.lead)
    done = lead.post(
        "/authors/actions",
        json={"author_ids": [author_id("wave")], "action": "suspend", "policies": ["SPAM.SCAM"]},
    )
    assert done.status_code == 200, done.text
    [result] = done.json()["results"]
    assert result["closed_items"] == 10_050 and len(result["closed_item_ids"]) == 10_000


def test_a_lead_account_action_citing_a_policy_no_queue_has_is_refused(
    server: LiveServer, platform: ApiSession
) -> None:
    """Its statement of reasons would cite a bare "terms of service": no label, no clause."""
    queue_post(platform, "lone-a", shady("lone"), score=0.9)
    lead = server.login("lena", Role.lead)
    refused = lead.post(
        "/authors/actions",
        json={
            "author_ids": [author_id("lone")],
            "action": "suspend",
            "policies": ["SPAM.NETWORK", "SPAM.MADE_UP"],
        },
    )
    assert refused.status_code == 422, refused.text
    problem = refused.json()
    assert problem["code"] == "unknown_policy" and "no account action" in problem["detail"]
    assert [(e["loc"], e["code"]) for e in problem["errors"]] == [
        (["policies", 1], "unknown_policy")
    ], problem
    assert "'SPAM.MADE_UP'" in problem["errors"][0]["message"]
    with server.service.db.read() as conn:
        status = select(authors.c.status).where(authors.c.id == author_id("lone"))
        assert conn.execute(status).scalar() == "active", "nothing changed"
    done = lead.post(
        "/authors/actions",
        json={"author_ids": [author_id("lone")], "action": "suspend", "policies": ["SPAM.NETWORK"]},
    )
    assert done.status_code == 200, done.text
