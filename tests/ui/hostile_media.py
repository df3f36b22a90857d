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


def hostile_media() -> list[tuple[str, bytes, str]]:
    """(name, bytes, declared MIME type), the worst first."""
    return [
        ("png-decompression-bomb", png_bomb(), "image/png"),
        ("png-huge-header", huge_header_png(), "image/png"),
        ("png-truncated", truncated_png(), "image/png"),
        ("gif-many-frames", gif_frame_bomb(), "image/gif"),
        ("gif-huge-screen", gif_screen_bomb(), "image/gif"),
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
