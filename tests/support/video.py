"""Small real videos made in the test (PyAV encodes them), rather than committed binaries."""

from __future__ import annotations

import io

import av

#: container -> (FFmpeg muxer, encoder, encoder options)
KINDS = {
    "mp4": ("mp4", "libx264", {"preset": "ultrafast"}),
    "webm": ("webm", "libvpx", {"deadline": "realtime", "cpu-used": "8"}),
}


def make_video(
    kind: str = "mp4",
    *,
    width: int = 160,
    height: int = 120,
    seconds: float = 2.0,
    fps: int = 10,
    sound: bool = False,
) -> bytes:
    """A video of moving coloured bands: ``kind`` is mp4 (H.264) or webm (VP8)."""
    muxer, encoder, options = KINDS[kind]
    buffer = io.BytesIO()
    with av.open(buffer, "w", format=muxer) as out:
        stream = out.add_stream(encoder, rate=fps, options=options)
        stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
        audio = (
            out.add_stream("aac" if kind == "mp4" else "libopus", rate=48_000) if sound else None
        )
        for n in range(round(seconds * fps)):
            frame = av.VideoFrame(width, height, "rgb24")
            plane = frame.planes[0]
            row = bytes((x // 3 * 4 + n * 12 + x % 3 * 85) % 256 for x in range(width * 3))
            plane.update((row + b"\x00" * (plane.line_size - width * 3)) * height)
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
        if audio is not None:
            samples = av.AudioFrame(format="fltp", layout="mono", samples=audio.frame_size or 960)
            for plane in samples.planes:
                plane.update(b"\x00" * plane.buffer_size)
            samples.sample_rate = 48_000
            for _ in range(3):
                for packet in audio.encode(samples):
                    out.mux(packet)
            for packet in audio.encode(None):
                out.mux(packet)
    return buffer.getvalue()
