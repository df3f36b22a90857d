"""Draw the app icon (a checked card on a rounded square) and write it to
``resources/icons/``: ``reviewer-app.png`` (256 px, the desktop entry's and the bundle's),
``reviewer-app.ico`` (Windows) and ``reviewer-app.icns`` (macOS) where this Qt can write them.
The SVG next to them is the same drawing, written by hand.

Run it again only to change the icon: ``python packaging/make_icon.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"


def draw(size: int) -> object:
    from PySide6.QtCore import QPointF, QRectF, Qt
    from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen

    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    s = size / 256
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#2f5d8a"))
    p.drawRoundedRect(QRectF(8 * s, 8 * s, 240 * s, 240 * s), 48 * s, 48 * s)
    p.setBrush(QColor("#f4f1ea"))
    p.drawRoundedRect(QRectF(52 * s, 40 * s, 152 * s, 176 * s), 16 * s, 16 * s)
    p.setBrush(QColor("#b9c4cf"))
    for y in (72, 100, 128):
        p.drawRoundedRect(QRectF(76 * s, y * s, 104 * s, 12 * s), 6 * s, 6 * s)
    pen = QPen(QColor("#2e9e5b"), 22 * s)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    p.setPen(pen)
    p.setBrush(Qt.BrushStyle.NoBrush)
    tick = QPainterPath(QPointF(96 * s, 170 * s))
    tick.lineTo(QPointF(120 * s, 192 * s))
    tick.lineTo(QPointF(166 * s, 146 * s))
    p.drawPath(tick)
    p.end()
    return image


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtGui import QGuiApplication, QImageWriter

    app = QGuiApplication(sys.argv[:1])  # image format plugins (ico, icns) need it
    ICONS.mkdir(parents=True, exist_ok=True)
    formats = {bytes(f.data()).decode() for f in QImageWriter.supportedImageFormats()}
    draw(256).save(str(ICONS / "reviewer-app.png"))  # type: ignore[attr-defined]
    print("wrote", ICONS / "reviewer-app.png")
    for suffix in ("ico", "icns"):
        if suffix in formats:
            draw(256).save(str(ICONS / f"reviewer-app.{suffix}"))  # type: ignore[attr-defined]
            print("wrote", ICONS / f"reviewer-app.{suffix}")
        else:
            print(f"this Qt cannot write .{suffix}; skipped")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
