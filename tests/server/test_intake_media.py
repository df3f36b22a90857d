"""Media uploads: capped, read from their bytes, stored once, served to reviewers of the
posts that name them."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from reviewer_app.protocol import MAX_MEDIA_BYTES, Role
from reviewer_app.server.domain.mediasniff import sniff
from tests.support.api import ApiSession, claim, expect_problem
from tests.support.intake import (
    MISINFO,
    apply_queues,
    classifier,
    key_session,
    post,
    send,
)
from tests.support.servers import LiveServer


def png(width: int, height: int) -> bytes:
    """A real greyscale PNG of this size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + b"\x80" * width for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


GIF = b"GIF89a" + struct.pack("<HH", 3, 2) + b"\x00\x00\x00" + b"\x3b"
# SOI, an APP0 segment, then a baseline frame header of 640 x 480
JPEG = (
    b"\xff\xd8"
    + b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    + b"\xff\xc0\x00\x11\x08"
    + struct.pack(">HH", 480, 640)
    + b"\x03\x01\x22\x00\x02\x11\x01\x03\x11\x01"
    + b"\xff\xd9"
)
WEBP = b"RIFF" + struct.pack("<I", 30) + b"WEBPVP8X" + struct.pack("<I", 10) + b"\x00" * 4
WEBP += (99).to_bytes(3, "little") + (49).to_bytes(3, "little")
MP4 = b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2" + b"\x00" * 64


@pytest.fixture
def server(live_server: LiveServer) -> LiveServer:
    apply_queues(live_server)
    return live_server


@pytest.fixture
def platform(server: LiveServer) -> ApiSession:
    return key_session(server, "feed-bridge")


def upload(session: ApiSession, content: bytes, content_type: str = "image/png") -> Any:
    return session.post("/intake/media", data=content, headers={"Content-Type": content_type})


def test_sniffing_reads_type_and_size_from_the_bytes() -> None:
    cases = {
        png(7, 5): ("image/png", "image", (7, 5)),
        GIF: ("image/gif", "gif", (3, 2)),
        JPEG: ("image/jpeg", "image", (640, 480)),
        WEBP: ("image/webp", "image", (100, 50)),
        MP4: ("video/mp4", "video", (None, None)),
    }
    for content, (mime, kind, size) in cases.items():
        found = sniff(content)
        assert found is not None, mime
        assert (found.mime_type, found.kind.value, (found.width, found.height)) == (
            mime,
            kind,
            size,
        )
    for garbage in (b"", b"hello", b"<svg xmlns='http://www.w3.org/2000/svg'/>", b"\x89PNG"):
        assert sniff(garbage) is None, garbage


def test_an_upload_is_stored_once_per_account(server: LiveServer, platform: ApiSession) -> None:
    content = png(4, 3)
    first = upload(platform, content)
    assert first.status_code == 201, first.text
    body = first.json()
    assert body["mime_type"] == "image/png" and body["size_bytes"] == len(content)
    again = upload(platform, content, "application/octet-stream")  # a type it ignores
    assert again.status_code == 200 and again.json() == body
    other = key_session(server, "other-platform")
    elsewhere = upload(other, content)
    assert elsewhere.status_code == 201 and elsewhere.json()["media_id"] != body["media_id"]


def test_what_the_bytes_are_decides(platform: ApiSession) -> None:
    expect_problem(upload(platform, png(2, 2), "image/jpeg"), 415, "media_type_mismatch")
    expect_problem(upload(platform, b"MZ\x90\x00 not an image", "image/png"), 415)
    expect_problem(upload(platform, b"<html>hi</html>", "text/html"), 415, "unsupported_media")
    expect_problem(upload(platform, b"", "image/png"), 422, "media_empty")
    assert upload(platform, JPEG, "image/jpg").status_code == 201  # a common alias
    assert upload(platform, MP4, "video/mp4").status_code == 201


def test_real_mp4_and_webm_videos_are_accepted_by_their_bytes(
    server: LiveServer, platform: ApiSession
) -> None:
    """Videos PyAV encodes here (H.264 in MP4, VP8 in WebM): each is stored as the video
    its bytes say, a Content-Type naming the other is refused, and a Matroska file that is
    not WebM is not taken."""
    from tests.support.video import make_video

    mp4, webm = make_video("mp4", seconds=0.5), make_video("webm", seconds=0.5)
    for content, mime in ((mp4, "video/mp4"), (webm, "video/webm")):
        found = sniff(content)
        assert found is not None and (found.mime_type, found.kind.value) == (mime, "video")
        stored = upload(platform, content, mime)
        assert stored.status_code == 201, stored.text
        assert stored.json()["mime_type"] == mime
        assert upload(platform, content, "application/octet-stream").status_code == 200
    expect_problem(upload(platform, webm, "video/mp4"), 415, "media_type_mismatch")
    expect_problem(upload(platform, mp4, "video/webm"), 415, "media_type_mismatch")
    matroska = webm.replace(b"\x42\x82\x84webm", b"\x42\x82\x84mkvx", 1)
    assert matroska != webm and sniff(matroska) is None
    expect_problem(upload(platform, matroska, "video/x-matroska"), 415, "unsupported_media")


@pytest.mark.parametrize("brands", [b"heicmif1heic", b"avifavifmif1", b"qt  qt  ", b"mif1msf1"])
def test_other_formats_in_mp4s_boxes_are_not_taken_for_mp4(
    platform: ApiSession, brands: bytes
) -> None:
    """A HEIC or AVIF photo (or a QuickTime film) has MP4's box structure: it was stored as
    video/mp4 and the reviewer saw "This video is damaged or incomplete"."""
    major, compatible = brands[:4], brands[4:]
    content = (16 + len(compatible)).to_bytes(4, "big") + b"ftyp" + major + b"\0\0\0\0"
    content += compatible + b"\0" * 64
    assert sniff(content) is None
    for declared in ("application/octet-stream", "image/heic"):
        expect_problem(upload(platform, content, declared), 415, "unsupported_media")


def test_uploads_are_capped(server: LiveServer, platform: ApiSession) -> None:
    over = b"\x89PNG\r\n\x1a\n" + b"\x00" * MAX_MEDIA_BYTES
    expect_problem(upload(platform, over), 413, "body_too_large")

    def streamed() -> Iterator[bytes]:  # no Content-Length: counted while it comes in
        yield b"\x89PNG\r\n\x1a\n"
        for _ in range(MAX_MEDIA_BYTES // 65_536 + 1):
            yield b"\x00" * 65_536

    response = platform.post(
        "/intake/media", data=streamed(), headers={"Content-Type": "image/png"}
    )
    expect_problem(response, 413, "body_too_large")
    # under the media cap but over the JSON cap: fine for media, not for a batch of posts
    big = png(1, 1) + b"\x00" * (server.settings.max_body_bytes + 10)
    assert upload(platform, big).status_code == 201
    huge_batch = {"posts": [post(f"p{i}", text="x" * 90_000) for i in range(12)]}
    expect_problem(platform.post("/intake/posts", json=huge_batch), 413, "body_too_large")


def test_media_are_served_to_reviewers_of_posts_that_name_them(
    server: LiveServer, platform: ApiSession
) -> None:
    content = png(8, 6)
    media_id = upload(platform, content).json()["media_id"]
    reviewer = server.login("rita")
    expect_problem(reviewer.get(f"/media/{media_id}"), 404)  # no item shows it yet
    expect_problem(platform.get(f"/media/{media_id}"), 403)  # keys never read media

    attached = post("p1", media=[{"media_id": media_id, "alt_text": "a chart", "sensitive": True}])
    assert send(platform, "posts", [attached])[0]["status"] == "created"
    [opened] = send(platform, "signals", [classifier("p1")])
    [leased] = claim(reviewer, MISINFO, 1)
    assert leased["item"]["id"] == opened["item_ids"][0]
    assert leased["item"]["post"]["media"] == [
        {
            "id": media_id,
            "kind": "image",
            "mime_type": "image/png",
            "size_bytes": len(content),
            "width": 8,
            "height": 6,
            "alt_text": "a chart",
            "sensitive": True,
        }
    ]
    served = reviewer.get(f"/media/{media_id}")
    assert served.status_code == 200 and served.content == content
    assert served.headers["content-type"] == "image/png"
    assert served.headers["x-content-type-options"] == "nosniff"
    lead = server.login("lena", Role.lead)
    assert lead.get(f"/media/{media_id}").status_code == 200


def test_a_post_names_only_its_own_accounts_uploads(
    server: LiveServer, platform: ApiSession
) -> None:
    other = key_session(server, "other-platform")
    theirs = upload(other, png(1, 1)).json()["media_id"]
    [result] = send(platform, "posts", [post("p1", media=[{"media_id": theirs}])])
    assert result["status"] == "rejected" and result["reason"]["code"] == "unknown_media"
