"""Video, read but never played: its poster frame, duration and a strip of frames.

Frames are decoded with PyAV (FFmpeg's libraries) on a pool thread, never on the GUI
thread; no sound is ever decoded and nothing plays. Video bytes are hostile like image
bytes: the container is read from the content and must be MP4 or WebM (what the service
accepts), the codec one of the few the service's platforms send, the declared picture
size is checked before a frame is decoded, frames are scaled down while converting, and
the work per video is bounded (packets read, wall time). Anything refused or damaged is a
sentence in plain words for a placeholder, never an exception.
"""

from __future__ import annotations

import io
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QImage

from .i18n import translate
from .plain import whole
from .words import decimal

log = logging.getLogger("ui")

# The most pixels a video's frames may declare (as for images: 4096 x 4096).
MAX_PIXELS = 4096 * 4096
# The poster is converted to fit this box; the strip's frames to fit STRIP_BOX.
POSTER_BOX = QSize(1280, 1280)
STRIP_BOX = QSize(240, 180)
STRIP_FRAMES = 6
# Containers (as FFmpeg's demuxers name them) and codecs read; nothing else is decoded.
CONTAINERS = ("mp4", "matroska")
CODECS = frozenset({"h264", "hevc", "vp8", "vp9", "av1", "libdav1d", "mpeg4"})
# Bounds on the work one video may cost: packets demuxed, seconds of wall time.
MAX_PACKETS = 3_000
MAX_SECONDS = 8.0


def not_a_video() -> str:
    return translate("Media", "This file is not a video this app can show")


def damaged_video() -> str:
    return translate("Media", "This video is damaged or incomplete; it is not shown")


def duration_words(seconds: float | None, *, tenths: bool = False) -> str:
    """0:07, 12:03, 1:02:03 (or a dash when the file does not say); with ``tenths``, a
    moment in a short video: 0:01.3."""
    if seconds is None:
        return "-:--"
    if tenths and seconds < 600:
        minutes, secs = divmod(max(0.0, seconds), 60)
        return f"{int(minutes)}:{decimal(secs, 1).rjust(4, '0')}"
    whole = max(0, round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


@dataclass(frozen=True)
class VideoFrames:
    """What is shown of a video instead of playing it."""

    duration: float | None
    width: int
    height: int
    codec: str
    poster: QImage
    # (seconds into the video, frame), in order
    strip: list[tuple[float, QImage]] = field(default_factory=list)
    has_sound: bool = False


class _Budget:
    """Counts packets and time; ``spent()`` once the video has cost its share."""

    def __init__(self) -> None:
        self.packets = 0
        self.deadline = time.monotonic() + MAX_SECONDS

    def spend(self) -> bool:
        self.packets += 1
        return self.packets > MAX_PACKETS or time.monotonic() > self.deadline


def _to_image(frame: object, box: QSize) -> QImage:
    """A decoded frame as a QImage that fits ``box`` (scaled by FFmpeg while converting)."""
    width, height = frame.width, frame.height  # type: ignore[attr-defined]
    size = QSize(width, height)
    if width > box.width() or height > box.height():
        size = size.scaled(box, Qt.AspectRatioMode.KeepAspectRatio)
    rgb = frame.reformat(  # type: ignore[attr-defined]
        width=max(2, size.width()), height=max(2, size.height()), format="rgb24"
    )
    plane = rgb.planes[0]
    image = QImage(
        bytes(plane), rgb.width, rgb.height, plane.line_size, QImage.Format.Format_RGB888
    )
    return image.copy()  # its own pixels, not the frame's buffer


def read_video(data: bytes, *, strip_frames: int = STRIP_FRAMES) -> VideoFrames | str:
    """The poster frame, duration and a strip of frames of the video in ``data``, or why
    it is not shown, in plain words. Slow (decoding): call it off the GUI thread."""
    import av  # FFmpeg's libraries load when the first video is read, not at start

    if not data:
        return not_a_video()
    looks_like_video = data[4:8] == b"ftyp" or data[:4] == b"\x1a\x45\xdf\xa3"
    try:
        container = av.open(io.BytesIO(data), mode="r", metadata_errors="ignore")
    except av.FFmpegError:  # a truncated MP4 (its index at the end) is damaged, not alien
        return damaged_video() if looks_like_video else not_a_video()
    except Exception:  # a bug of the demuxer on hostile bytes: still only a placeholder
        log.exception("a video could not be opened")
        return damaged_video()
    try:
        return _read(container, strip_frames)
    except av.FFmpegError as err:
        log.info("a video could not be decoded: %s", err)
        return damaged_video()
    except Exception:
        log.exception("a video could not be decoded")
        return damaged_video()
    finally:
        container.close()


def _read(container: object, strip_frames: int) -> VideoFrames | str:
    import av

    assert isinstance(container, av.container.InputContainer)
    names = container.format.name.split(",")
    if not any(name in CONTAINERS for name in names) or not container.streams.video:
        return not_a_video()
    stream = container.streams.video[0]
    codec = stream.codec_context.name
    if codec not in CODECS:
        return translate("Media", "This video's format ({codec}) is not shown here").format(
            codec=codec
        )
    width, height = stream.codec_context.width, stream.codec_context.height
    if width <= 0 or height <= 0:
        return damaged_video()
    if width * height > MAX_PIXELS:
        return translate(
            "Media", "This video is too large to show safely ({width} x {height} pixels)"
        ).format(width=whole(width), height=whole(height))
    stream.thread_type = "SLICE"  # one frame at a time: no frame threads' buffers
    stream.codec_context.thread_count = 1
    duration = None
    if container.duration and container.duration > 0:
        duration = container.duration / av.time_base
    elif stream.duration and stream.time_base:
        duration = float(stream.duration * stream.time_base)
    budget = _Budget()

    def first_frame_from(seconds: float) -> tuple[float, object] | None:
        """The first frame at or after ``seconds`` (after seeking to a keyframe before)."""
        if seconds > 0 and stream.time_base:
            container.seek(int(seconds / stream.time_base), stream=stream, backward=True)
        for packet in container.demux(stream):
            if budget.spend():
                return None
            for frame in packet.decode():
                if frame.width * frame.height > MAX_PIXELS:  # the stream changed its size
                    raise av.InvalidDataError(0, "frame larger than declared")
                at = float(frame.time) if frame.time is not None else 0.0
                if at + 1e-3 >= seconds:
                    return at, frame
        return None

    first = first_frame_from(0.0)
    if first is None:
        return damaged_video()
    poster = _to_image(first[1], POSTER_BOX)
    strip: list[tuple[float, QImage]] = []
    if duration and strip_frames > 0:
        for n in range(strip_frames):
            target = duration * (n + 0.5) / strip_frames
            found = first_frame_from(target)
            if found is None:
                break
            strip.append((found[0], _to_image(found[1], STRIP_BOX)))
    return VideoFrames(
        duration=duration,
        width=width,
        height=height,
        codec=codec,
        poster=poster,
        strip=strip,
        has_sound=bool(container.streams.audio),
    )


class VideoCache:
    """The last few videos read, by media id (a post seen again is not decoded again)."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._items: OrderedDict[str, VideoFrames | str] = OrderedDict()

    def get(self, media_id: str) -> VideoFrames | str | None:
        found = self._items.get(media_id)
        if found is not None:
            self._items.move_to_end(media_id)
        return found

    def put(self, media_id: str, value: VideoFrames | str) -> None:
        self._items[media_id] = value
        self._items.move_to_end(media_id)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
