"""SQLite's substring search by its rarest trigrams: the same rows, newest first, as the
FTS5 phrase it replaces when a trigram is in every row (``@us`` of each ``@user...``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Connection, insert

from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import search_index
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import item_search

ROWS = 3_000
WORDS = ("river", "song", "amelia", "pond", "rory", "williams", "vote", "thursday")


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[Connection]:
    url = f"sqlite:///{tmp_path / 'search.db'}"
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        with service.db.write() as writing:
            writing.execute(
                insert(item_search),
                [
                    {
                        "item_id": f"item-{n}",
                        "author": f"@user{n % 700:04d}\nu{n % 700}\n{WORDS[n % 8]} {WORDS[n % 5]}",
                        "body": " ".join(WORDS[(n * k) % 8] for k in range(1, 6)) + f" #{n}",
                    }
                    for n in range(ROWS)
                ],
            )
        with service.db.read() as reading:
            yield reading
    finally:
        service.close()


def _phrase_ids(conn: Connection, column: str, query: str, after: int | None) -> list[int]:
    rows = conn.execute(
        search_index._FTS_PHRASE,
        {
            "match": f"{column} : {search_index._quoted(query)}",
            "after": 2**62 if after is None else after,
            "limit": 20,
        },
    )
    return [int(r[0]) for r in rows]


@pytest.mark.parametrize(
    ("column", "query"),
    [
        ("author", "@user0123"),
        ("author", "u12\nriv"),
        ("author", "amelia pond"),
        ("author", "@user9999"),
        ("body", "song amelia"),
        ("body", "#123"),
        ("body", 'va"te'),
    ],
)
def test_rare_trigrams_find_what_the_phrase_finds(
    conn: Connection, column: str, query: str
) -> None:
    after = None
    for _ in range(3):  # three pages
        found = search_index._substring_ids(conn, column, query, after, 20, postgres=False)
        assert found == _phrase_ids(conn, column, query, after)
        if len(found) < 20:
            break
        after = found[-1]


def test_a_handle_is_found_by_its_rare_trigrams(conn: Connection) -> None:
    rare = search_index._rare_trigrams(conn, "author", "@user0123")
    assert rare and not {"@us", "use", "ser"} & set(rare)
    found = search_index._substring_ids(conn, "author", "@user0123", None, 50, postgres=False)
    assert found == sorted(found, reverse=True)
    assert len(found) == len(range(123, ROWS, 700))
    # a trigram no row holds: nothing, at once
    assert search_index._rare_trigrams(conn, "author", "@userxyz") == ["erx"]
