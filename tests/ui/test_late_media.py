"""Media that reaches the local store after its post is on screen: the reviewer's first
post is shown as soon as its claim is stored (not after a round trip per media file), so
its tiles may say "not downloaded yet" for a moment. They show the media once it is
fetched, without the reviewer moving on, and as obscured as the rest of the post."""

from __future__ import annotations

from sqlalchemy import update

from reviewer_app.protocol import Role
from reviewer_app.server.storage.tables import items as items_table
from reviewer_app.ui.media import not_downloaded
from tests.support.api import ApiSession
from tests.support.intake import classifier, post, send
from tests.support.proxy import FaultProxy, Rule, http_response
from tests.support.servers import LiveServer
from tests.ui.hostile_media import valid_png


def test_media_fetched_after_its_post_is_shown_appears_in_place(
    demo_server: LiveServer, desk_factory
) -> None:
    platform = ApiSession(
        demo_server.url, demo_server.service.create_api_key(Role.platform, "late-media").key
    )
    ids = []
    for n in range(2):
        uploaded = platform.post(
            "/intake/media", data=valid_png(40 + n, 30), headers={"Content-Type": "image/png"}
        )
        assert uploaded.status_code == 201, uploaded.text
        ids.append(uploaded.json()["media_id"])
    send(platform, "posts", [post("late-media", media=[{"media_id": m} for m in ids])])
    signal = classifier("late-media", 0.99, model="misinfo-claim-matcher", label="hoax")
    opened = {i for r in send(platform, "signals", [signal]) for i in r["item_ids"]}
    assert len(opened) == 1
    with demo_server.service.db.write() as conn:  # first in its queue
        conn.execute(update(items_table).where(items_table.c.id.in_(opened)).values(priority=1e9))
    proxy = FaultProxy(demo_server.port).start()
    try:
        # the first file's fetch fails a few times (a flaky link): its post is shown anyway
        busy = http_response(503, b"", {"Retry-After": "1"})
        proxy.add(Rule("GET", f"/api/v1/media/{ids[0]}", "respond", times=3, payload=busy))
        desk = desk_factory(proxy.url, queue="misinformation")
        window = desk.window
        desk.wait(lambda: desk.current_id() in opened)
        strip = window.post.media
        assert [t.media.id for t in strip.tiles if t.media] == ids
        assert [t.problem for t in strip.tiles] == [not_downloaded()] * 2
        assert all(t.waiting for t in strip.tiles)

        desk.wait(lambda: all(t.problem is None for t in strip.tiles), 20_000)
        assert desk.current_id() in opened, "the same post, the reviewer did not move"
        assert not any(t.waiting for t in strip.tiles)
        assert not strip.revealed, "blurred and greyed as before"
        for tile in strip.tiles:
            assert tile.original.width() in (40, 41)
            assert tile.accessibleName().startswith(f"Media {strip.tiles.index(tile) + 1}: ")
            assert "not downloaded" not in tile.accessibleName()
        assert proxy.count("GET", f"/api/v1/media/{ids[0]}") == 4
    finally:
        proxy.stop()
