"""A bulk decision's account part is one per author, as a single verdict makes it: a bulk
"mark inauthentic" over five posts of one author is one account action, one statement and
one enforcement action, the author's other posts closed by it (not five of each); a bulk
"remove and restrict author" removes each post but restricts the author once. A retry of
the same request answers the same results."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import func, select

from reviewer_app.protocol import QueueFile, Role
from reviewer_app.server.storage.tables import (
    account_actions,
    enforcement_actions,
    items,
    statements,
)
from tests.support.api import ApiSession
from tests.support.enforcement import queue_file
from tests.support.intake import INAUTH, MISINFO, author, classifier, post, send, shady
from tests.support.servers import LiveServer


def start(server: LiveServer) -> tuple[ApiSession, ApiSession]:
    server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
    platform = ApiSession(server.url, server.service.create_api_key(Role.platform, "plat").key)
    return platform, server.login("lena", Role.lead)


def body(ids: list[str], queue: str, action: str, **fields: Any) -> dict[str, Any]:
    return {
        "items": [
            {"item_id": i, "idempotency_key": str(uuid.uuid4()), "queue_id": queue} for i in ids
        ],
        "action": action,
        "decided_at": datetime.now(tz=UTC).isoformat(),
        **fields,
    }


def counts(server: LiveServer, ids: list[str]) -> tuple[list[str], int, list[Any], list[str]]:
    with server.service.db.read() as conn:
        acts = conn.execute(
            select(enforcement_actions.c.kind, enforcement_actions.c.payload).where(
                enforcement_actions.c.item_id.in_(ids)
            )
        ).all()
        said = conn.execute(
            select(func.count()).select_from(statements).where(statements.c.item_id.in_(ids))
        ).scalar_one()
        account = conn.execute(select(account_actions.c.action)).scalars().all()
        states = conn.execute(select(items.c.state).where(items.c.id.in_(ids))).scalars().all()
    kinds = sorted(a.kind for a in acts)
    parts = [json.loads(a.payload or "{}").get("author_action") for a in acts]
    return kinds + [f"author_action={p}" for p in parts if p], said, account, sorted(states)


def test_mark_inauthentic_over_five_posts_of_one_author_is_one_account_action(
    live_server: LiveServer,
) -> None:
    platform, lead = start(live_server)
    names = [f"s{i}" for i in range(5)]
    send(platform, "posts", [post(n, author=shady("shady1")) for n in names])
    made = send(
        platform, "signals", [classifier(n, 0.1, model="spam", label="spam") for n in names]
    )
    ids = [r["item_ids"][0] for r in made]
    request = body(ids, INAUTH, "mark")
    answer = lead.post("/decisions/bulk", json=request)
    assert answer.status_code == 200, answer.text
    results = answer.json()["results"]
    assert [r["item_id"] for r in results] == ids
    assert {r["status"] for r in results} == {"accepted"}
    assert len({r["decision"]["id"] for r in results}) == 1, "one decision closed them all"
    kinds, said, account, states = counts(live_server, ids)
    assert kinds == ["author:mark_inauthentic"]
    assert said == 1
    assert account == ["mark_inauthentic"]
    assert states == ["decided", "resolved", "resolved", "resolved", "resolved"]

    again = lead.post("/decisions/bulk", json=request)  # a retry: the same answers
    assert again.status_code == 200, again.text
    assert [r["status"] for r in again.json()["results"]] == ["duplicate"] * 5
    assert [r["decision"]["id"] for r in again.json()["results"]] == [
        r["decision"]["id"] for r in results
    ]
    assert counts(live_server, ids) == (kinds, said, account, states)


def test_remove_and_restrict_over_ten_posts_removes_each_and_restricts_once(
    live_server: LiveServer,
) -> None:
    platform, lead = start(live_server)
    names = [f"m{i}" for i in range(10)] + ["other-author"]
    send(
        platform,
        "posts",
        [post(n, author=author("spammer" if n != "other-author" else "second")) for n in names],
    )
    made = send(platform, "signals", [classifier(n, 0.9) for n in names])
    ids = [r["item_ids"][0] for r in made]
    answer = lead.post(
        "/decisions/bulk",
        json=body(ids, MISINFO, "remove-restrict", policies=["MISINFO.CIVIC"]),
    )
    assert answer.status_code == 200, answer.text
    kinds, said, account, states = counts(live_server, ids)
    assert kinds == ["remove"] * 11 + ["author_action=restrict"] * 2, "one per author"
    assert said == 11, "a statement per removed post"
    assert sorted(account) == ["restrict", "restrict"]
    assert states == ["decided"] * 11
    decisions = [r["decision"] for r in answer.json()["results"]]
    assert sum(d["author_action"] == "restrict" for d in decisions) == 2
