"""What uploaded bytes are, read from their first bytes (never from what the caller says).

The service stores and serves PNG, JPEG, GIF, WebP, MP4 and WebM only (a WebM is a
Matroska file whose EBML header names the "webm" document type; other Matroska is
refused). Width and height are read from the headers of the image formats where that is
cheap; anything else is left unknown.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from reviewer_app.protocol import MediaKind

MAX_DIMENSION = 100_000
# How far into a JPEG to look for the frame header (it follows the metadata segments).
_JPEG_SCAN = 1 << 20


@dataclass(frozen=True)
class Sniffed:
    mime_type: str
    kind: MediaKind
    width: int | None = None
    height: int | None = None


MIME_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "video/mp4", "video/webm")
ALIASES = {"image/jpg": "image/jpeg", "image/pjpeg": "image/jpeg"}


def sniff(content: bytes) -> Sniffed | None:
    """The media type of ``content`` with its size in pixels where known, or None."""
    if content.startswith(b"\x89PNG\r\n\x1a\n"):
        return _sized("image/png", MediaKind.image, _png_size(content))
    if content.startswith(b"\xff\xd8\xff"):
        return _sized("image/jpeg", MediaKind.image, _jpeg_size(content))
    if content[:6] in (b"GIF87a", b"GIF89a"):
        return _sized("image/gif", MediaKind.gif, _gif_size(content))
    if len(content) >= 12 and content[:4] == b"RIFF" and content[8:12] == b"WEBP":
        return _sized("image/webp", MediaKind.image, _webp_size(content))
    if len(content) >= 12 and content[4:8] == b"ftyp":
        return Sniffed("video/mp4", MediaKind.video) if _is_mp4(content) else None
    if content.startswith(_EBML) and _ebml_doctype(content) == b"webm":
        return Sniffed("video/webm", MediaKind.video)
    return None


# An ISO media file names its brands in its first box: MP4's, or another format's on the
# same box structure (a HEIC or AVIF photo, QuickTime, 3GP), which is not an MP4 video.
_MP4_BRANDS = frozenset(
    b.encode()
    for b in (
        "isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7", "iso8", "iso9",
        "mp41", "mp42", "avc1", "dash", "mmp4", "M4V ", "M4VH", "M4VP", "msnv", "f4v ",
    )
)  # fmt: skip
_NOT_MP4_BRANDS = frozenset(
    b.encode()
    for b in (
        "heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis",
        "qt  ", "3gp4", "3gp5", "3gp6", "3g2a", "crx ", "jp2 ", "M4A ", "M4B ",
    )
)  # fmt: skip


def _is_mp4(content: bytes) -> bool:
    """Whether an ISO media file's ``ftyp`` box says MP4: its major brand is not another
    format's, and it or a compatible brand is MP4's."""
    size = int.from_bytes(content[:4], "big")
    end = min(len(content), size if 16 <= size <= 4096 else 16)
    major = content[8:12]
    compatible = {content[i : i + 4] for i in range(16, end - 3, 4)}
    return major not in _NOT_MP4_BRANDS and bool(({major} | compatible) & _MP4_BRANDS)


_EBML = b"\x1a\x45\xdf\xa3"
_DOCTYPE = 0x4282


def _vint(content: bytes, at: int, *, keep_marker: bool) -> tuple[int, int] | None:
    """An EBML variable-length integer at ``at``: (value, its length), or None."""
    if at >= len(content) or content[at] == 0:
        return None
    length = 9 - content[at].bit_length()  # the leading zero bits, plus one
    if length > 8 or at + length > len(content):
        return None
    value = content[at] if keep_marker else content[at] & (0xFF >> length)
    for byte in content[at + 1 : at + length]:
        value = (value << 8) | byte
    return value, length


def _ebml_doctype(content: bytes) -> bytes | None:
    """The DocType of an EBML header ("webm", "matroska"), or None."""
    size = _vint(content, len(_EBML), keep_marker=False)
    if size is None:
        return None
    at = len(_EBML) + size[1]
    end = min(len(content), at + size[0], 256)
    while at < end:
        element = _vint(content, at, keep_marker=True)
        length = element and _vint(content, at + element[1], keep_marker=False)
        if not element or not length:
            return None
        body = at + element[1] + length[1]
        if element[0] == _DOCTYPE:
            return content[body : body + length[0]]
        at = body + length[0]
    return None


def normalise_declared(declared: str | None) -> str | None:
    """A Content-Type as a bare lower-case media type (None when not given)."""
    if not declared:
        return None
    bare = declared.split(";", 1)[0].strip().lower()
    return ALIASES.get(bare, bare) or None


def _sized(mime: str, kind: MediaKind, size: tuple[int, int] | None) -> Sniffed:
    if size is None or not all(1 <= n <= MAX_DIMENSION for n in size):
        return Sniffed(mime, kind)
    return Sniffed(mime, kind, size[0], size[1])


def _png_size(content: bytes) -> tuple[int, int] | None:
    if len(content) < 24 or content[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", content[16:24])
    return int(width), int(height)


def _gif_size(content: bytes) -> tuple[int, int] | None:
    if len(content) < 10:
        return None
    width, height = struct.unpack("<HH", content[6:10])
    return int(width), int(height)


def _jpeg_size(content: bytes) -> tuple[int, int] | None:
    i = 2
    end = min(len(content), _JPEG_SCAN)
    while i + 4 <= end:
        if content[i] != 0xFF:
            return None
        marker = content[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            i += 2
            continue
        (length,) = struct.unpack(">H", content[i + 2 : i + 4])
        if length < 2:
            return None
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if i + 9 > len(content):
                return None
            height, width = struct.unpack(">HH", content[i + 5 : i + 9])
            return int(width), int(height)
        if marker == 0xDA:  # start of scan: no frame header before it
            return None
        i += 2 + length
    return None


def _webp_size(content: bytes) -> tuple[int, int] | None:
    chunk = content[12:16]
    if chunk == b"VP8X" and len(content) >= 30:
        width = 1 + int.from_bytes(content[24:27], "little")
        height = 1 + int.from_bytes(content[27:30], "little")
        return width, height
    if chunk == b"VP8 " and len(content) >= 30 and content[23:26] == b"\x9d\x01\x2a":
        width, height = struct.unpack("<HH", content[26:30])
        return int(width) & 0x3FFF, int(height) & 0x3FFF
    if chunk == b"VP8L" and len(content) >= 25 and content[20] == 0x2F:
        bits = int.from_bytes(content[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    return None
