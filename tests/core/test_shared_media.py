"""Media shared by posts (one intake upload, several posts) in the local store, against the
real service: the file is kept once however many items show it (each item kept a sealed
copy of its own: one 8 MB upload named by ten posts took 84 MB), the engine fetches what is
wanted once and stops asking, and the file stays while any item shows it."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

from reviewer_app.core import events as ev
from reviewer_app.core.store import SCHEMA_VERSION
from tests.support.client import EventLog, engine_for, fast_settings, login
from tests.support.intake import MISINFO, apply_queues, classifier, key_session, post, send
from tests.support.proxy import FaultProxy
from tests.support.servers import LiveServer


def png(width: int, height: int) -> bytes:
    """A real greyscale PNG of this size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    idat = chunk(b"IDAT", zlib.compress(rows))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + idat + chunk(b"IEND", b"")


def test_two_posts_with_one_upload_both_show_it(live_server: LiveServer, tmp_path: Path) -> None:
    server = live_server
    apply_queues(server)
    platform = key_session(server, "feed-bridge")
    content = png(3, 2)
    uploaded = platform.post("/intake/media", data=content, headers={"Content-Type": "image/png"})
    assert uploaded.status_code == 201, uploaded.text
    media_id = uploaded.json()["media_id"]
    shared = [{"media_id": media_id, "alt_text": "the same chart"}]
    send(platform, "posts", [post(p, media=shared) for p in ("sm-1", "sm-2")])
    send(platform, "signals", [classifier(p, 0.95) for p in ("sm-1", "sm-2")])

    client = login(server, "rita")
    path = tmp_path / "rita.sqlite3"
    fast_settings(path, prefetch_target=2)
    engine = engine_for(server.url, path, client.token, EventLog())
    engine.open()
    try:
        engine.set_active_queues([MISINFO])
        engine.run_once()
        store = engine.store
        assert store is not None
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        items = [r.item_id for r in store.worklist(MISINFO)]
        assert len(items) == 2
        assert store.media_wanted(50) == [], "fetched once for each item, then no more asks"
        assert store.media(media_id) == (content, "image/png")
        held = store.conn.execute(
            "SELECT item_id FROM media WHERE id = ? ORDER BY item_id", (media_id,)
        ).fetchall()
        assert [r[0] for r in held] == sorted(items)
        files = store.conn.execute("SELECT COUNT(*) FROM media_files").fetchone()[0]
        assert files == 1, "kept once for both"
        store.forget_items([items[0]])
        assert store.media(media_id) == (content, "image/png"), "the other item still shows it"
        store.forget_items([items[1]])
        assert store.media(media_id) is None, "and goes with the last item that shows it"
    finally:
        engine.close()


def test_a_claim_is_shown_before_its_media_is_fetched(
    live_server: LiveServer, tmp_path: Path
) -> None:
    """The worklist is reported as soon as a claim is stored: the reviewer's first post
    does not wait for a round trip per media file (and one for the queues) on a slow link.
    Each file then arrives with its own event, and a file shared by posts is fetched once
    in all."""
    server = live_server
    apply_queues(server)
    platform = key_session(server, "feed-bridge")
    uploads = []
    for size in (2, 3, 4):
        uploaded = platform.post(
            "/intake/media", data=png(size, size), headers={"Content-Type": "image/png"}
        )
        assert uploaded.status_code == 201, uploaded.text
        uploads.append(uploaded.json()["media_id"])
    shared, first, second = uploads
    send(
        platform,
        "posts",
        [
            post("ord-1", media=[{"media_id": shared}, {"media_id": first}]),
            post("ord-2", media=[{"media_id": shared}, {"media_id": second}]),
            post("ord-3", media=[{"media_id": shared}]),
        ],
    )
    send(platform, "signals", [classifier(p, 0.95) for p in ("ord-1", "ord-2", "ord-3")])

    proxy = FaultProxy(server.port).start()
    client = login(server, "rita")
    path = tmp_path / "rita.sqlite3"
    fast_settings(path, prefetch_target=3)
    seen_when_ready: list[list[str]] = []
    log = EventLog()

    def listener(event: ev.SyncEvent) -> None:
        if isinstance(event, ev.WorklistChanged) and event.ready.get(MISINFO):
            seen_when_ready.append(list(proxy.seen))
        log(event)

    engine = engine_for(proxy.url, path, client.token, listener)
    engine.open()
    try:
        engine.set_active_queues([MISINFO])
        engine.run_once()
        assert seen_when_ready, "the claim was reported"
        before = seen_when_ready[0]
        assert any(s.startswith("POST /api/v1/queues/") for s in before)
        assert not any(s.startswith("GET /api/v1/media/") for s in before), before
        fetched = [s for s in proxy.seen if s.startswith("GET /api/v1/media/")]
        assert sorted(fetched) == sorted(f"GET /api/v1/media/{m}" for m in uploads), fetched
        saved = [m for e in log.of(ev.MediaSaved) for m in e.media_ids]
        assert sorted(set(saved)) == sorted(uploads)
        assert len(saved) == 5, "one event for each file of each post"
        store = engine.store
        assert store is not None and store.media_wanted(50) == []
        for media_id, size in zip(uploads, (2, 3, 4), strict=True):
            assert store.media(media_id) == (png(size, size), "image/png")
    finally:
        engine.close()
        proxy.stop()
