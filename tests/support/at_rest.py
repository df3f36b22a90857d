"""Known content to look for on disk: posts seeded into the service with texts the test
chose, and a scan of every file under a folder for them in every form they could take
(UTF-8, UTF-16 either way round, JSON-escaped with or without ``ensure_ascii``), and for a
profile's secrets (tokens, the password of a workstation with no keyring, the store key)."""

from __future__ import annotations

import base64
import dataclasses
import json
import secrets
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import select

from reviewer_app.server.feeds.seed import (
    LOAD_QUEUE,
    _stored_configs,
    insert_authors,
    insert_items,
    insert_queues,
    synthetic_items,
)
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import authors as authors_table


def known_texts(count: int, kind: str) -> list[str]:
    """``count`` texts no other test or seed could contain: a random marker, and characters
    that JSON escapes (quotes, non-ASCII) so every encoding of them differs."""
    run = secrets.token_hex(6)
    return [
        f"KNOWN-{kind}-{run}-{i:03d} Füße, “quoted” 中文 and a tab-free line {i * 7919}"
        for i in range(count)
    ]


def seed_known_posts(
    service: Service, texts: Sequence[str], *, queue: SeedQueue = LOAD_QUEUE
) -> list[str]:
    """One item per text in ``queue`` (made if missing); returns the items' ids."""
    now = datetime.fromtimestamp(service.clock(), tz=UTC)
    authors, made = synthetic_items(len(texts), queue.id, now, seed=11, authors_count=20)
    seeded = [
        dataclasses.replace(
            item,
            id=f"known-{i:04d}-{item.id}",
            post=item.post.model_copy(update={"text": text, "id": f"known-post-{i}"}),
        )
        for i, (item, text) in enumerate(zip(made, texts, strict=True))
    ]
    with service.db.write() as conn:
        configs = _stored_configs(conn)
        if queue.id not in configs:
            insert_queues(conn, [queue])
            configs[queue.id] = queue.config
        have = set(conn.execute(select(authors_table.c.id)).scalars())
        insert_authors(conn, [a for a in authors if a.id not in have])
        insert_items(conn, seeded, configs)
    service.forget_configs()
    return [item.id for item in seeded]


def forms(text: str) -> list[bytes]:
    """The byte strings ``text`` could be found as in a file."""
    escaped_ascii = json.dumps(text, ensure_ascii=True)[1:-1]
    escaped = json.dumps(text, ensure_ascii=False)[1:-1]
    found = {
        text.encode(),
        text.encode("utf-16-le"),
        text.encode("utf-16-be"),
        escaped_ascii.encode(),
        escaped.encode(),
        escaped_ascii.encode("utf-16-le"),
    }
    return sorted(found)


def marker_of(text: str) -> str:
    """The unique ASCII head of a known text (``KNOWN-<kind>-<run>-<n>``): a leak of part of
    a text is still found."""
    return text.split(" ", 1)[0]


def scan(root: Path, secrets_by_label: dict[str, Iterable[bytes]]) -> list[tuple[str, Path]]:
    """(label, file) for every file under ``root`` holding any form of a secret."""
    files = [p for p in sorted(root.rglob("*")) if p.is_file()]
    contents = {p: p.read_bytes() for p in files}
    hits: list[tuple[str, Path]] = []
    for label, needles in secrets_by_label.items():
        wanted = list(needles)
        hits += [(label, p) for p, data in contents.items() if any(n in data for n in wanted)]
    return hits


def needles_for(texts: Iterable[str]) -> dict[str, list[bytes]]:
    """Every form of each text and of its marker, labelled by the marker."""
    return {marker_of(t): forms(t) + forms(marker_of(t)) for t in texts}


def key_forms(key: bytes) -> list[bytes]:
    """A store key as it could be found: raw, base64 (as the keyring keeps it), hex."""
    encoded = base64.b64encode(key)
    return [key, encoded, key.hex().encode(), *forms(encoded.decode())]


def profile_secrets(
    *, tokens: Iterable[str] = (), password: str | None = None, key: bytes | None = None
) -> dict[str, list[bytes]]:
    """The needles of a profile's secrets: its tokens, the password (a workstation with no
    keyring types it to open the store), the store key; none may be in a file."""
    found: dict[str, list[bytes]] = {
        f"token {n}": forms(token) for n, token in enumerate(tokens) if token
    }
    if password is not None:
        found["password"] = forms(password)
    if key is not None:
        found["store key"] = key_forms(key)
    return found
