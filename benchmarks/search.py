"""Lead search over a million items and a million decisions: p95 per search kind.

Builds a fresh database (SQLite in a temp dir, or a throwaway PostgreSQL database next to
``--database-url``) and loads ``--items`` items, each decided once (``--items`` decisions),
with authors, post texts from a synthetic vocabulary, post ids and URLs, link domains and
report reasons. The search rows are made by the service's own reading of an item
(``search_index.doc_for``) and inserted set-based (``server/storage/bulk.py``: executemany on
SQLite, ``json_to_recordset`` batches on PostgreSQL); SQLite's FTS5 table follows by its
triggers, and on PostgreSQL the trigram indexes are dropped for the load and made again
after it (what an operator bulk-loading would do). Then ``reviewer-app server`` runs as
its own process on 127.0.0.1 and each kind is timed over HTTP (``GET /search``, 50 hits a
page; and ``GET /decisions?policy=`` newest first, the index that replaced the LIKE):
p50 / p95 / max over ``--calls`` calls, each with another query.

Prints the figures and writes the latest run per database and size to the benchmarks'
page (``--markdown``); asserts nothing. Target: p95 < 200 ms for each kind.

    python benchmarks/search.py --markdown                                   # SQLite
    python benchmarks/search.py --database-url postgresql://u:pw@127.0.0.1/db --markdown
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import namedtuple
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests
from common import (  # benchmarks/common.py
    bench_database,
    code_version,
    filesystem_of,
    markdown_table,
    percentile,
    record_result,
    stored_results,
    write_page_section,
)
from lead_stats import PASSWORD, server  # the server process, as the other lead benchmark
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import search_index
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues
from reviewer_app.server.service import Service
from reviewer_app.server.storage.bulk import InsertMany
from reviewer_app.server.storage.tables import (
    authors,
    decisions,
    item_search,
    item_search_keys,
    items,
)

API = "/api/v1"
CHUNK = 5_000
REASONS = (
    "spam",
    "hate",
    "harassment",
    "scam",
    "misinformation",
    "nudity",
    "violence",
    "self-harm",
    "impersonation",
    "copyright",
    "terrorism",
    "other",
)
POLICIES = ("SPAM.SCAM", "HATE.SLUR", "HARASS.TARGETED", "MISINFO.CIVIC", "NUDITY.ADULT")
AuthorRow = namedtuple("AuthorRow", "id handle external_id payload")

_INSERT_AUTHORS = InsertMany(authors, ("id", "handle", "payload", "source", "external_id"))
_INSERT_ITEMS = InsertMany(
    items,
    (
        "id",
        "queue_id",
        "origin_queue_id",
        "state",
        "priority",
        "enqueued_at",
        "author_id",
        "payload",
        "epoch",
        "decision_id",
    ),
)
_INSERT_DECISIONS = InsertMany(
    decisions,
    (
        "id",
        "item_id",
        "epoch",
        "queue_id",
        "user_id",
        "author_id",
        "action",
        "policies",
        "time_spent_ms",
        "decided_at",
        "client_decided_at",
    ),
)
_INSERT_DOCS = InsertMany(item_search, ("id", "item_id", "author", "body"))
_INSERT_KEYS = InsertMany(item_search_keys, ("kind", "value", "doc_id"))


def vocabulary(rng: random.Random, size: int) -> list[str]:
    syllables = [c + v for c in "bcdfghjklmnprstvz" for v in "aeiou"]
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(syllables) for _ in range(rng.randint(2, 4))))
    return sorted(words)


class World:
    """What the load made, for picking queries."""

    def __init__(self, count: int, seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.count = count
        self.words = vocabulary(self.rng, 20_000)
        self.authors = max(1_000, count // 10)
        self.domains = [f"site{k}.example" for k in range(5_000)]


def load(url: str, world: World, postgres: bool) -> dict[str, float]:
    timings: dict[str, float] = {}
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    rng = world.rng
    try:
        with service.db.write() as conn:
            insert_queues(conn, [LOAD_QUEUE])
        service.forget_configs()
        service.create_user(UserCreate(username="bench-lead", password=PASSWORD, role=Role.lead))
        reviewer = service.create_user(
            UserCreate(username="bench-reviewer", password=PASSWORD, role=Role.reviewer)
        )
        began = time.perf_counter()
        author_rows: list[AuthorRow] = []
        with service.db.write() as conn:
            for first in range(0, world.authors, CHUNK):
                batch = []
                for n in range(first, min(world.authors, first + CHUNK)):
                    name = f"{rng.choice(world.words).title()} {rng.choice(world.words).title()}"
                    payload = json.dumps({"handle": f"@user{n:06d}", "display_name": name})
                    row = AuthorRow(f"author-{n}", f"@user{n:06d}", f"u{n}", payload)
                    author_rows.append(row)
                    batch.append({**row._asdict(), "source": "bench"})
                _INSERT_AUTHORS(conn, batch, postgres)
        timings["authors"] = time.perf_counter() - began

        if postgres:  # made again after the load: one index build, not a million updates
            with service.db.write() as conn:
                conn.execute(text("DROP INDEX ix_item_search_author_trgm"))
                conn.execute(text("DROP INDEX ix_item_search_body_trgm"))
        began = time.perf_counter()
        now = time.time()
        for first in range(0, world.count, CHUNK):
            item_rows, decision_rows, doc_rows, key_rows = [], [], [], []
            for i in range(first, min(world.count, first + CHUNK)):
                author = author_rows[rng.randrange(len(author_rows))]
                post: dict[str, Any] = {
                    "id": f"post-{i:07d}",
                    "text": " ".join(rng.choice(world.words) for _ in range(rng.randint(5, 12))),
                    "url": f"https://social.example/p/{i}",
                }
                if rng.random() < 0.3:
                    domain = rng.choice(world.domains)
                    host = f"news.{domain}" if rng.random() < 0.5 else domain
                    post["link_preview"] = {"url": f"https://{host}/a/{i}", "domain": host}
                reasons = rng.sample(REASONS, rng.randint(0, 2))
                payload = {
                    "post": post,
                    "reports": {"by_reason": [{"reason": r, "count": 1} for r in reasons]},
                }
                item_id = f"item-{i:07d}"
                at = now - (world.count - i)
                item_rows.append(
                    {
                        "id": item_id,
                        "queue_id": LOAD_QUEUE.id,
                        "origin_queue_id": LOAD_QUEUE.id,
                        "state": "decided",
                        "priority": 0.0,
                        "enqueued_at": at,
                        "author_id": author.id,
                        "payload": json.dumps(payload, separators=(",", ":")),
                        "epoch": 0,
                        "decision_id": i + 1,
                    }
                )
                remove = rng.random() < 0.4
                decision_rows.append(
                    {
                        "id": i + 1,
                        "item_id": item_id,
                        "epoch": 0,
                        "queue_id": LOAD_QUEUE.id,
                        "user_id": reviewer.id,
                        "author_id": author.id,
                        "action": "remove" if remove else "keep",
                        "policies": json.dumps([rng.choice(POLICIES)] if remove else []),
                        "time_spent_ms": 4_000,
                        "decided_at": at + 60,
                        "client_decided_at": at + 60,
                    }
                )
                doc = search_index.doc_for(item_id, payload, author)
                doc_rows.append(
                    {"id": i + 1, "item_id": item_id, "author": doc.author, "body": doc.body}
                )
                key_rows += [{"kind": k, "value": v, "doc_id": i + 1} for k, v in doc.keys]
            with service.db.write() as conn:
                _INSERT_ITEMS(conn, item_rows, postgres)
                _INSERT_DECISIONS(conn, decision_rows, postgres)
                _INSERT_DOCS(conn, doc_rows, postgres)
                _INSERT_KEYS(conn, key_rows, postgres)
            if first and first % 100_000 == 0:
                print(f"  loaded {first:,} items", file=sys.stderr, flush=True)
        timings["items, decisions, search rows"] = time.perf_counter() - began
        began = time.perf_counter()
        with service.db.write() as conn:
            if postgres:
                conn.execute(text("SELECT setval('item_search_id_seq', :n)"), {"n": world.count})
                conn.execute(
                    text(
                        "CREATE INDEX ix_item_search_author_trgm ON item_search "
                        "USING gin (author gin_trgm_ops)"
                    )
                )
                conn.execute(
                    text(
                        "CREATE INDEX ix_item_search_body_trgm ON item_search "
                        "USING gin (body gin_trgm_ops)"
                    )
                )
        service.db.analyze()
        timings["indexes, analyze"] = time.perf_counter() - began
    finally:
        service.close()
    return timings


def queries(world: World, calls: int) -> dict[str, list[Callable[[], tuple[str, dict[str, Any]]]]]:
    """Per kind, ``calls`` requests (path, params), each with another query."""
    rng = random.Random(99)
    found: dict[str, list[Any]] = {}

    def search(kind: str, q: str) -> tuple[str, dict[str, Any]]:
        return "/search", {"kind": kind, "q": q, "limit": 50}

    found["author (handle)"] = [
        search("author", f"@user{rng.randrange(world.authors):06d}") for _ in range(calls)
    ]
    found["author (name word)"] = [search("author", rng.choice(world.words)) for _ in range(calls)]
    found["text (a word)"] = [
        search("text", rng.choice([w for w in world.words if len(w) >= 6])) for _ in range(calls)
    ]
    found["text (two words)"] = [
        search("text", f"{rng.choice(world.words)} {rng.choice(world.words)}") for _ in range(calls)
    ]
    found["text (frequent: 3 letters)"] = [
        search("text", rng.choice(world.words)[:3]) for _ in range(calls)
    ]
    found["post (platform id)"] = [
        search("post", f"post-{rng.randrange(world.count):07d}") for _ in range(calls)
    ]
    found["post (URL)"] = [
        search("post", f"https://social.example/p/{rng.randrange(world.count)}")
        for _ in range(calls)
    ]
    found["domain"] = [search("domain", rng.choice(world.domains)) for _ in range(calls)]
    found["reason"] = [search("reason", rng.choice(REASONS)) for _ in range(calls)]
    found["decisions by policy"] = [
        ("/decisions", {"policy": rng.choice(POLICIES), "order": "desc", "limit": 50})
        for _ in range(calls)
    ]
    return found


@contextmanager
def loaded_database(
    args: argparse.Namespace, world: World
) -> Iterator[tuple[str, dict[str, float]]]:
    """The database to search and how long its load took: loaded now, or kept from before."""
    if args.loaded_db:
        engine = create_engine(args.loaded_db)
        with engine.connect() as conn:
            count = conn.execute(text("SELECT count(*) FROM items")).scalar_one()
        engine.dispose()
        if count != world.count:
            raise SystemExit(f"{args.loaded_db} holds {count:,} items, not --items {world.count:,}")
        yield args.loaded_db, {}
        return
    with bench_database(args.database_url, keep=args.keep_db, prefix="search-") as url:
        postgres = make_url(url).get_backend_name() == "postgresql"
        yield url, load(url, world, postgres)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL (default: SQLite)")
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--keep-db", action="store_true")
    parser.add_argument(
        "--loaded-db",
        default=None,
        metavar="URL",
        help="time searches on a database an earlier --keep-db run of the same --items loaded "
        "(the load is deterministic; it is checked by its item count) instead of loading anew",
    )
    parser.add_argument("--markdown", action="store_true", help="write the benchmarks' page")
    args = parser.parse_args()
    world = World(args.items)
    load_before = os.getloadavg()[0]
    with loaded_database(args, world) as (url, timings):
        backend = make_url(url).get_backend_name()
        postgres = backend == "postgresql"
        rows: list[tuple[str, list[float], int]] = []
        with server(url) as base:
            session = requests.Session()
            token = session.post(
                base + API + "/sessions", json={"username": "bench-lead", "password": PASSWORD}
            ).json()["token"]
            session.headers["Authorization"] = f"Bearer {token}"
            for kind, calls in queries(world, args.calls).items():
                spent: list[float] = []
                hits = 0
                for path, params in [calls[0], *calls]:  # the first call warms, uncounted
                    began = time.perf_counter()
                    response = session.get(base + API + path, params=params, timeout=120)
                    elapsed = (time.perf_counter() - began) * 1000
                    response.raise_for_status()
                    body = response.json()
                    hits += len(body.get("hits", body.get("decisions", [])))
                    spent.append(elapsed)
                spent = spent[1:]
                rows.append((kind, spent, hits // (len(calls) + 1)))
    load_after = os.getloadavg()[0]
    place = f" ({filesystem_of(Path(tempfile.gettempdir()))} temp dir)" if not postgres else ""
    print()
    print(f"search benchmark, code {code_version()}, {backend}{place}")
    print(f"{args.items:,} items, {args.items:,} decisions, {world.authors:,} authors")
    print(f"load average (1 min): {load_before:.2f} before, {load_after:.2f} after")
    for name, seconds in timings.items():
        print(f"  load: {name:<32} {seconds:8.1f} s")
    print()
    print(f"{'kind':<28} {'calls':>5} {'hits/call':>9} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for kind, spent, hits in rows:
        print(
            f"{kind:<28} {len(spent):>5} {hits:>9} {percentile(spent, 50):>8.1f} "
            f"{percentile(spent, 95):>8.1f} {max(spent):>8.1f}"
        )
    if args.markdown:
        key = f"{backend}, {args.items:,} items"
        record_result(
            "search",
            key,
            {
                "kinds": {
                    k: [round(percentile(s, 50), 1), round(percentile(s, 95), 1)]
                    for k, s, _ in rows
                },
                "load": f"{load_before:.2f} / {load_after:.2f}",
                "code": code_version(),
                "date": time.strftime("%Y-%m-%d", time.gmtime()),
            },
        )
        results = stored_results("search")
        kinds = [k for k, _, _ in rows]
        header = ["database, size", *[f"{k} p50 / p95 ms" for k in kinds]]
        header += ["load avg before / after", "code", "date"]
        table = [
            [
                name,
                *[" / ".join(str(x) for x in r["kinds"].get(k, ["-", "-"])) for k in kinds],
                r["load"],
                r["code"],
                r["date"],
            ]
            for name, r in sorted(results.items())
        ]
        write_page_section(
            "search",
            "## Lead search\n\n"
            "`benchmarks/search.py`: a lead's searches over HTTP (`GET /search`, 50 hits a "
            "page, newest first; `GET /decisions?policy=`) on a database of N items, each "
            "decided once (N decisions), one API process; p50 / p95 over 40 calls per kind, "
            "each with another query (target: p95 < 200 ms per kind). The latest run per "
            "database and size.\n\n" + markdown_table(header, table),
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
