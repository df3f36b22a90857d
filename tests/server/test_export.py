"""Decision search and the streamed CSV export: filters, cursor paging, hostile cells,
and 100,000 decisions exported without holding them in memory."""

from __future__ import annotations

import csv
import io
import tracemalloc
from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import insert, select

from reviewer_app.protocol import Decision, Role
from reviewer_app.protocol.csvsafe import DECISION_COLUMNS, FORMULA_PREFIXES, decision_row
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.search import DecisionFilter
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import decisions, users
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.servers import LiveServer

QUEUE = LOAD_QUEUE.id
HOSTILE_NOTES = [
    "=1+1",
    "+cmd",
    "-2",
    "@SUM(A1)",
    "\tindented",
    "\rreturn",
    'quote " and, comma',
    "multi\nline\r\nnote",
    "\u202ebidi\u202c \U0001f600 \u4e2d\u6587",
]


def export(session: ApiSession, **params: Any) -> list[list[str]]:
    response = session.get("/decisions/export", params=params, stream=True)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/csv")
    text = b"".join(response.iter_content(65_536)).decode("utf-8")
    return list(csv.reader(io.StringIO(text, newline="")))


def all_pages(session: ApiSession, limit: int, **params: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    cursor = None
    while True:
        query = {**params, "limit": limit, **({"cursor": cursor} if cursor else {})}
        page = session.get("/decisions", params=query)
        assert page.status_code == 200, page.text
        found += page.json()["decisions"]
        if not (cursor := page.json()["next_cursor"]):
            return found


def test_search_filters_paging_and_hostile_export(live_server: LiveServer) -> None:
    seed_load_queue(live_server.service, 40)
    rita, sam = live_server.login("rita"), live_server.login("sam")
    lead = live_server.login("lead", Role.lead)
    for session, count in ((rita, 12), (sam, 6)):
        leased = claim(session, QUEUE, count)
        session.decide(
            [
                verdict(
                    x,
                    "remove" if i % 3 == 0 else "keep",
                    policies=["SPAM.SCAM"] if i % 3 == 0 else [],
                    note=HOSTILE_NOTES[i % len(HOSTILE_NOTES)],
                )
                for i, x in enumerate(leased)
            ]
        )
    everything = all_pages(lead, 5)
    assert len(everything) == 18 and len({d["id"] for d in everything}) == 18
    newest_first = all_pages(lead, 4, order="desc")
    assert [d["id"] for d in newest_first] == sorted((d["id"] for d in everything), reverse=True)
    # Between rita's batch and sam's (not on a recorded time: those are rounded to the µs).
    first, last = (datetime.fromisoformat(everything[i]["decided_at"]) for i in (0, -1))
    assert last > first
    middle = (first + (last - first) / 2).isoformat()
    later = (last + timedelta(seconds=1)).isoformat()
    at = {d["id"]: datetime.fromisoformat(d["decided_at"]) for d in everything}
    cases: list[dict[str, Any]] = [
        {"reviewer": "rita"},
        {"reviewer": "sam", "action": "remove"},
        {"policy": "SPAM.SCAM"},
        {"queue_id": QUEUE, "action": "keep"},
        {"item_id": everything[3]["item_id"]},
        {"since": middle, "until": later},
        {"audited": "false"},
        {"reviewer": "nobody"},
    ]
    for params in cases:
        expected = [
            d
            for d in everything
            if all(
                {
                    "reviewer": lambda d, v: d["reviewer"] == v,
                    "action": lambda d, v: d["action"] == v,
                    "policy": lambda d, v: v in d["policies"],
                    "queue_id": lambda d, v: d["queue_id"] == v,
                    "item_id": lambda d, v: d["item_id"] == v,
                    "since": lambda d, v: at[d["id"]] >= datetime.fromisoformat(v),
                    "until": lambda d, v: at[d["id"]] < datetime.fromisoformat(v),
                    "audited": lambda d, v: True,
                }[k](d, v)
                for k, v in params.items()
            )
        ]
        assert all_pages(lead, 3, **params) == expected, params
        rows = export(lead, **params)
        assert tuple(rows[0]) == DECISION_COLUMNS
        assert rows[1:] == [decision_row(Decision.model_validate(d)) for d in expected], params

    rows = export(lead)
    notes = [r[DECISION_COLUMNS.index("note")] for r in rows[1:]]
    for cell in (c for r in rows for c in r):
        assert not cell.startswith(FORMULA_PREFIXES), cell
    for note, decision in zip(notes, everything, strict=True):
        original = decision["note"]
        assert note == ("'" + original if original.startswith(FORMULA_PREFIXES) else original)

    expect_problem(lead.get("/decisions", params={"cursor": "not-a-cursor"}), 400, "invalid_cursor")
    expect_problem(lead.get("/decisions", params={"policy": "lower"}), 422, "invalid_request")
    expect_problem(rita.get("/decisions/export"), 403, "lead_only")


def _bulk_decisions(service: Service, start: int, count: int) -> None:
    with service.db.write() as conn:
        user_id = conn.execute(select(users.c.id).where(users.c.username == "bulk")).scalar()
        if user_id is None:
            user_id = conn.execute(
                insert(users)
                .values(
                    username="bulk",
                    display_name="Bulk",
                    password_hash="x",
                    role="reviewer",
                    created_at=0.0,
                )
                .returning(users.c.id)
            ).scalar_one()
        for first in range(start, start + count, 10_000):
            conn.execute(
                insert(decisions),
                [
                    {
                        "item_id": f"bulk-{i}",
                        "epoch": 0,
                        "queue_id": "spam",
                        "user_id": user_id,
                        "author_id": f"author-{i % 97}",
                        "action": "remove" if i % 4 else "keep",
                        "policies": '["SPAM.SCAM"]' if i % 4 else "[]",
                        "note": HOSTILE_NOTES[i % len(HOSTILE_NOTES)] if i % 10 == 0 else None,
                        "time_spent_ms": 1_000 + i % 50_000,
                        "decided_at": 1_760_000_000.0 + i,
                        "client_decided_at": 1_760_000_000.0 + i,
                    }
                    for i in range(first, min(start + count, first + 10_000))
                ],
            )


def _export_peak(service: Service) -> tuple[int, int]:
    """Rows exported and the peak of memory allocated while exporting them."""
    rows = 0
    tracemalloc.start()
    try:
        for chunk in service.export_decisions(DecisionFilter()):
            rows += sum(1 for _ in csv.reader(io.StringIO(chunk, newline="")))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return rows - 1, peak


@pytest.mark.slow
def test_export_of_100000_decisions_does_not_grow_with_the_rows(database_url: str) -> None:
    service = Service(ServerSettings(database_url=database_url, password_hash_profile="fast"))
    service.start()
    peaks = {}
    try:
        _bulk_decisions(service, 0, 10_000)
        rows, peaks[10_000] = _export_peak(service)
        assert rows == 10_000
        _bulk_decisions(service, 10_000, 90_000)
        rows, peaks[100_000] = _export_peak(service)
        assert rows == 100_000
    finally:
        service.close()
    # Ten times the rows, about the same memory: chunks of rows, never all of them.
    assert peaks[100_000] < 1.5 * peaks[10_000] + 1_000_000, peaks
    assert peaks[100_000] < 16_000_000, peaks


def test_decisions_and_the_export_name_the_platforms_post_author_and_address(
    live_server: LiveServer,
) -> None:
    """A post that came through intake: its decision (search and CSV) carries the
    platform's id of the post and of its author, and the post's address."""
    from reviewer_app.protocol import QueueFile
    from tests.support.enforcement import queue_file, queue_posts
    from tests.support.intake import MISINFO, author

    live_server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
    key = live_server.service.create_api_key(Role.platform, "feed-bridge").key
    platform = ApiSession(live_server.url, key)
    queue_posts(platform, ["p-one", "p-two"], author=author("acct-77"))
    rita = live_server.login("rita")
    leased = claim(rita, MISINFO, 2)
    rita.decide([verdict(x, "keep") for x in leased])
    lead = live_server.login("lead", Role.lead)
    found = all_pages(lead, 10)
    assert sorted(d["post_external_id"] for d in found) == ["p-one", "p-two"]
    assert {d["author_external_id"] for d in found} == {"acct-77"}
    assert {d["post_url"] for d in found} == {
        "https://social.example/p/p-one",
        "https://social.example/p/p-two",
    }
    rows = export(lead)
    assert rows[1:] == [decision_row(Decision.model_validate(d)) for d in found]
    column = DECISION_COLUMNS.index
    assert [r[column("post_url")] for r in rows[1:]] == [d["post_url"] for d in found]
    assert {r[column("author_external_id")] for r in rows[1:]} == {"acct-77"}
