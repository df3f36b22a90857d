"""Hostile media files, made here rather than committed: each is (name, bytes, declared MIME
type). They claim to be images; none is one this app should decode in full."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, idat: bytes, *, depth: int = 8, colour: int = 0) -> bytes:
    """A PNG with this header and this (already compressed) image data."""
    header = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return PNG_MAGIC + _chunk(b"IHDR", header) + _chunk(b"IDAT", idat) + _chunk(b"IEND", b"")


def valid_png(width: int = 300, height: int = 200) -> bytes:
    """A real greyscale gradient PNG."""
    rows = b"".join(b"\x00" + bytes((x + y) % 256 for x in range(width)) for y in range(height))
    return png(width, height, zlib.compress(rows))


def truncated_png() -> bytes:
    whole = valid_png(400, 400)
    return whole[: len(whole) // 2]


def png_bomb(side: int = 50_000) -> bytes:
    """A 1-bit greyscale PNG of side x side black pixels, every row present: about 310 MB of
    image data that deflates to a few hundred KB (10 GB as 32-bit pixels)."""
    row = b"\x00" * (1 + (side + 7) // 8)
    packer = zlib.compressobj(9)
    block = row * 256
    parts = [packer.compress(block) for _ in range(side // 256)]
    parts.append(packer.compress(row * (side % 256)))
    parts.append(packer.flush())
    return png(side, side, b"".join(parts), depth=1)


def huge_header_png() -> bytes:
    """A header declaring 100,000 x 100,000 pixels over 100 bytes of data."""
    return png(100_000, 100_000, zlib.compress(b"\x00" * 100))


def _gif(width: int, height: int, frames: int) -> bytes:
    """A GIF89a with this logical screen and ``frames`` frames of one black pixel each."""
    head = b"GIF89a" + struct.pack("<HHBBB", width, height, 0x80, 0, 0)  # 2-colour table
    palette = b"\x00\x00\x00\xff\xff\xff"
    loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    # LZW, minimum code size 2: clear (4), pixel 0, end (5), three bits each, LSB first
    frame = (
        b"\x21\xf9\x04\x00\x01\x00\x00\x00"  # graphic control: 10 ms
        + b"\x2c"
        + struct.pack("<HHHHB", 0, 0, 1, 1, 0)
        + b"\x02\x02\x44\x01\x00"
    )
    return head + palette + loop + frame * frames + b"\x3b"


def gif_frame_bomb() -> bytes:
    """An animated GIF of 20,000 frames on a 1,000 x 1,000 screen."""
    return _gif(1_000, 1_000, 20_000)


def gif_screen_bomb() -> bytes:
    """An animated GIF of 5,000 frames on the largest screen GIF can declare (65,535²)."""
    return _gif(65_535, 65_535, 5_000)


def elf_bytes() -> bytes:
    true = Path("/bin/true")
    if true.exists():
        return true.read_bytes()[:16_384]
    return b"\x7fELF\x02\x01\x01" + b"\x00" * 9 + b"\x02\x00\x3e\x00" + b"\x00" * 4_000


SVG = (
    b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" '
    b'xmlns:xlink="http://www.w3.org/1999/xlink" width="4000" height="4000">'
    b'<image xlink:href="http://127.0.0.1:9/svg.png" width="4000" height="4000"/></svg>'
)


def webm_lying_size() -> bytes:
    """A real WebM whose track header declares 65,535 x 65,535 pixels (the VP8 stream in it
    is 320 x 480, which is what FFmpeg goes by once it has read the stream)."""
    from tests.support.video import make_video

    real = make_video("webm", width=320, height=480, seconds=0.5)
    width, height = b"\xb0\x82\x01\x40", b"\xba\x82\x01\xe0"  # PixelWidth, PixelHeight
    assert real.count(width) == 1 and real.count(height) == 1
    return real.replace(width, b"\xb0\x82\xff\xff").replace(height, b"\xba\x82\xff\xff")


def mp4_huge_frame() -> bytes:
    """One honest H.264 frame of 4,098 x 4,096 pixels (a few dozen KB): more pixels than
    the app decodes."""
    import io

    import av

    buffer = io.BytesIO()
    with av.open(buffer, "w", format="mp4") as out:
        stream = out.add_stream("libx264", rate=1, options={"preset": "ultrafast"})
        stream.width, stream.height, stream.pix_fmt = 4098, 4096, "yuv420p"
        frame = av.VideoFrame(4098, 4096, "yuv420p")
        for plane in frame.planes:
            plane.update(b"\x80" * plane.buffer_size)
        for packet in [*stream.encode(frame), *stream.encode(None)]:
            out.mux(packet)
    return buffer.getvalue()


def mp4_truncated() -> bytes:
    """The first half of a real MP4: its index (moov) is at the end, so it is lost."""
    from tests.support.video import make_video

    whole = make_video("mp4", seconds=1.0)
    return whole[: len(whole) // 2]


def webm_scrambled() -> bytes:
    """A real WebM's header and first bytes, then pseudo-random bytes."""
    from tests.support.video import make_video

    whole = make_video("webm", seconds=1.0)
    noise = bytes((n * 7919 + 13) % 251 for n in range(len(whole)))
    return whole[:200] + noise[200:]


def mkv_mjpeg() -> bytes:
    """Matroska carrying Motion JPEG: a container the app reads with a codec it does not."""
    import io

    import av

    buffer = io.BytesIO()
    with av.open(buffer, "w", format="matroska") as out:
        stream = out.add_stream("mjpeg", rate=5)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuvj420p"
        for _ in range(3):
            for packet in stream.encode(av.VideoFrame(64, 48, "yuvj420p")):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return buffer.getvalue()


def ftyp_elf() -> bytes:
    """An MP4 file-type box, then an executable."""
    return b"\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2" + elf_bytes()


def hostile_videos() -> list[tuple[str, bytes, str]]:
    """(name, bytes, declared MIME type): files that claim to be videos."""
    return [
        ("mp4-huge-frame", mp4_huge_frame(), "video/mp4"),
        ("webm-lying-size", webm_lying_size(), "video/webm"),
        ("mp4-truncated", mp4_truncated(), "video/mp4"),
        ("webm-scrambled", webm_scrambled(), "video/webm"),
        ("mkv-mjpeg", mkv_mjpeg(), "video/webm"),
        ("mp4-box-then-elf", ftyp_elf(), "video/mp4"),
        ("png-as-mp4", valid_png(), "video/mp4"),
        ("zero-bytes-video", b"", "video/mp4"),
    ]


def hostile_media() -> list[tuple[str, bytes, str]]:
    """(name, bytes, declared MIME type), the worst first."""
    return [*_hostile_images(), *hostile_videos()]


def _hostile_images() -> list[tuple[str, bytes, str]]:
    return [
        ("png-decompression-bomb", png_bomb(), "image/png"),
        ("png-huge-header", huge_header_png(), "image/png"),
        ("png-truncated", truncated_png(), "image/png"),
        ("gif-many-frames", gif_frame_bomb(), "image/gif"),
        ("gif-huge-screen", gif_screen_bomb(), "image/gif"),
        # one pixel on a canvas Qt still allocates whole (244 MB): its size() says 1 x 1
        ("gif-large-canvas", _gif(7_999, 7_999, 1), "image/gif"),
        ("png-one-pixel-high", valid_png(4_096, 1), "image/png"),
        (
            "html-as-png",
            b"<html><body><img src=http://127.0.0.1:9/x.png></body></html>",
            "image/png",
        ),
        ("text-as-jpeg", b"just some words, no picture at all\n" * 20, "image/jpeg"),
        ("elf-as-gif", elf_bytes(), "image/gif"),
        ("svg-as-png", SVG, "image/png"),
        ("zero-bytes", b"", "image/png"),
    ]
