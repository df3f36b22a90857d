"""Generate the synthetic demo media in ``reviewer_app/server/demo/media/``.

Run from the repository root with an offscreen Qt platform::

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_demo_media.py

Every picture is drawn from shapes and text with QPainter: there are no photos
and no real people in them. The outputs are committed (package data of
``reviewer_app.server.demo``), so the service never needs Qt;
``reviewer_app/server/demo/items.py`` lists them with their sizes.
PNGs are written by Qt; the animated GIFs by the small LZW encoder below
(Qt reads GIF but cannot write it).
"""

from __future__ import annotations

import math
import os
import random
import struct
import sys
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QGuiApplication,
    QImage,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QRadialGradient,
)

OUT = Path(__file__).resolve().parents[1] / "reviewer_app" / "server" / "demo" / "media"
MAX_BYTES = 40 * 1024
FAMILY = "DejaVu Sans"
SERIF = "DejaVu Serif"
MONO = "DejaVu Sans Mono"

WRAP = Qt.TextFlag.TextWordWrap
LEFT = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
CENTER = Qt.AlignmentFlag.AlignCenter
HCENTER_TOP = Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop


def font(size: int, bold: bool = False, family: str = FAMILY, italic: bool = False) -> QFont:
    f = QFont(family)
    f.setPixelSize(size)
    f.setBold(bold)
    f.setItalic(italic)
    return f


def new_image(w: int, h: int, fill: str) -> tuple[QImage, QPainter]:
    img = QImage(w, h, QImage.Format.Format_RGB32)
    img.fill(QColor(fill))
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
    return img, p


def text(p: QPainter, rect: QRect, s: str, f: QFont, color: str, flags: object = LEFT) -> None:
    p.setFont(f)
    p.setPen(QColor(color))
    p.drawText(rect, int(flags) | int(WRAP), s)  # type: ignore[call-overload]


def grey_lines(
    p: QPainter,
    x: int,
    y: int,
    w: int,
    n: int,
    step: int = 16,
    color: str = "#d5d8dc",
    rng: random.Random | None = None,
) -> None:
    r = rng or random.Random(1)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(color))
    for i in range(n):
        lw = w if i < n - 1 else int(w * r.uniform(0.3, 0.7))
        lw = int(lw * r.uniform(0.85, 1.0)) if i < n - 1 else lw
        p.drawRoundedRect(QRectF(x, y + i * step, lw, 8), 3, 3)


def avatar(p: QPainter, cx: float, cy: float, r: float, bg: str, fg: str) -> None:
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor(bg))
    p.drawEllipse(QPointF(cx, cy), r, r)
    p.setBrush(QColor(fg))
    p.drawEllipse(QPointF(cx, cy - r * 0.22), r * 0.36, r * 0.36)
    path = QPainterPath()
    path.addEllipse(QPointF(cx, cy + r * 0.72), r * 0.62, r * 0.5)
    clip = QPainterPath()
    clip.addEllipse(QPointF(cx, cy), r, r)
    p.drawPath(path.intersected(clip))


def save_png(img: QImage, name: str) -> None:
    """Write ``img``; if the true-colour PNG is too big, write a 256-colour one instead."""
    path = OUT / name
    if not img.save(str(path), "PNG", 9):
        raise SystemExit(f"could not write {path}")
    size = path.stat().st_size
    if size > MAX_BYTES:
        flags = Qt.ImageConversionFlag.ThresholdDither | Qt.ImageConversionFlag.AvoidDither
        indexed = img.convertToFormat(QImage.Format.Format_Indexed8, flags)
        if not indexed.save(str(path), "PNG", 9):
            raise SystemExit(f"could not write {path}")
        size = path.stat().st_size
    if size > MAX_BYTES:
        raise SystemExit(f"{name} is {size} bytes, over {MAX_BYTES}")
    print(f"{name:32} {img.width()}x{img.height()} {size:6d} bytes")


# --- the pictures ------------------------------------------------------------------------------


def news_cure_screenshot() -> None:
    img, p = new_image(600, 420, "#ffffff")
    p.fillRect(0, 0, 600, 44, QColor("#1b7f3b"))
    text(p, QRect(16, 10, 400, 30), "real-health-truth.example", font(18, True), "#ffffff")
    text(p, QRect(470, 13, 120, 24), "HEALTH  |  CURES", font(12, True), "#d9f2e1")
    text(
        p,
        QRect(20, 58, 560, 90),
        "Doctors stunned: kitchen tonic 'reverses diabetes in 9 days'",
        font(27, True, SERIF),
        "#111111",
    )
    text(
        p,
        QRect(20, 150, 560, 20),
        "By Staff Writer  ·  2 min read  ·  SHARE BEFORE IT'S GONE",
        font(11),
        "#777777",
    )
    grad = QLinearGradient(20, 176, 300, 400)
    grad.setColorAt(0, QColor("#fff3b0"))
    grad.setColorAt(1, QColor("#f2c14e"))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QBrush(grad))
    p.drawRect(20, 178, 260, 220)
    for cx, cy, r in ((90, 270, 48), (180, 320, 40), (200, 230, 30)):
        p.setBrush(QColor("#f7e02a"))
        p.drawEllipse(QPointF(cx, cy), r, r * 0.8)
        p.setBrush(QColor("#fffbe0"))
        p.drawEllipse(QPointF(cx, cy), r * 0.6, r * 0.45)
    p.setBrush(QColor("#f5f1e6"))
    p.drawEllipse(QPointF(240, 370), 22, 18)
    grey_lines(p, 300, 184, 280, 12, 17, rng=random.Random(2))
    p.end()
    save_png(img, "news_cure_screenshot.png")


def news_ballots_screenshot() -> None:
    img, p = new_image(600, 420, "#fbfbfb")
    p.fillRect(0, 0, 600, 50, QColor("#14213d"))
    text(p, QRect(16, 12, 400, 30), "PATRIOT WIRE", font(22, True, SERIF), "#ffffff")
    text(p, QRect(400, 17, 190, 24), "patriot-wire.example", font(12), "#b8c4e0")
    p.fillRect(20, 64, 92, 22, QColor("#d62828"))
    text(p, QRect(20, 64, 92, 22), "EXCLUSIVE", font(12, True), "#ffffff", CENTER)
    text(
        p,
        QRect(20, 92, 560, 80),
        "BALLOT BOXES FOUND IN RIVER — OFFICIALS SILENT",
        font(26, True),
        "#14213d",
    )
    sky = QLinearGradient(0, 170, 0, 290)
    sky.setColorAt(0, QColor("#9db4c0"))
    sky.setColorAt(1, QColor("#c2d4dd"))
    p.fillRect(20, 170, 560, 120, QBrush(sky))
    water = QLinearGradient(0, 290, 0, 400)
    water.setColorAt(0, QColor("#4a6670"))
    water.setColorAt(1, QColor("#2c3e45"))
    p.fillRect(20, 290, 560, 110, QBrush(water))
    p.setPen(QPen(QColor("#5b4636"), 2))
    for i, (x, y) in enumerate(((90, 300), (170, 318), (260, 296), (350, 330), (450, 305))):
        p.setBrush(QColor("#c9a66b" if i % 2 else "#b88b4a"))
        p.save()
        p.translate(x, y)
        p.rotate(-12 + i * 7)
        p.drawRect(-28, -18, 56, 36)
        p.drawLine(-28, -6, 28, -6)
        p.restore()
    p.setPen(QPen(QColor("#6b8f71"), 0))
    p.setBrush(QColor("#6b8f71"))
    p.drawPolygon(QPolygonF([QPointF(20, 290), QPointF(140, 250), QPointF(240, 290)]))
    p.drawPolygon(
        QPolygonF([QPointF(380, 290), QPointF(500, 240), QPointF(580, 270), QPointF(580, 290)])
    )
    text(
        p,
        QRect(24, 378, 552, 20),
        "Image: reader submission (unverified)",
        font(11, italic=True),
        "#e0e0e0",
    )
    p.end()
    save_png(img, "news_ballots_screenshot.png")


def meme_weather() -> None:
    img, p = new_image(500, 500, "#20232a")
    grad = QLinearGradient(0, 0, 0, 500)
    grad.setColorAt(0, QColor("#374151"))
    grad.setColorAt(1, QColor("#111827"))
    p.fillRect(0, 0, 500, 500, QBrush(grad))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#9ca3af"))
    for cx, cy, r in ((170, 220, 70), (250, 190, 90), (340, 225, 70), (250, 250, 80)):
        p.drawEllipse(QPointF(cx, cy), r, r * 0.7)
    p.setBrush(QColor("#facc15"))
    p.drawPolygon(
        QPolygonF(
            [
                QPointF(250, 270),
                QPointF(215, 350),
                QPointF(245, 350),
                QPointF(225, 430),
                QPointF(300, 330),
                QPointF(265, 330),
                QPointF(285, 270),
            ]
        )
    )
    p.setPen(QPen(QColor("#ef4444"), 4))
    p.drawLine(420, 440, 420, 330)
    p.drawLine(400, 360, 440, 360)
    p.drawLine(405, 390, 435, 390)
    for r in (20, 34, 48):
        p.drawArc(QRectF(420 - r, 330 - r, 2 * r, 2 * r), 30 * 16, 120 * 16)
    outline = font(32, True)
    captions = (("THEY SAID IT WAS\n'JUST A STORM'", 18), ("THE ANTENNA WAS ON\nFOR 3 DAYS", 398))
    for line, y in captions:
        text(p, QRect(12, y + 2, 480, 90), line, outline, "#000000", HCENTER_TOP)
        text(p, QRect(10, y, 480, 90), line, outline, "#ffffff", HCENTER_TOP)
    p.end()
    save_png(img, "meme_weather_machine.png")


def weather_machine_diagram() -> None:
    img, p = new_image(600, 400, "#12365c")
    p.setPen(QPen(QColor("#1d4a78"), 1))
    for x in range(0, 600, 20):
        p.drawLine(x, 0, x, 400)
    for y in range(0, 400, 20):
        p.drawLine(0, y, 600, y)
    white = QPen(QColor("#e8f1fb"), 2)
    p.setPen(white)
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawLine(260, 360, 300, 120)
    p.drawLine(340, 360, 300, 120)
    for y in range(160, 360, 40):
        t = (y - 120) / 240
        p.drawLine(int(300 - 40 * t), y, int(300 + 40 * t), y)
    p.drawEllipse(QPointF(300, 110), 16, 16)
    for r in (40, 70, 100):
        p.drawArc(QRectF(300 - r, 110 - r, 2 * r, 2 * r), 20 * 16, 140 * 16)
    p.drawLine(200, 360, 400, 360)
    f = font(13, True, MONO)
    text(p, QRect(380, 60, 200, 40), "EMITTER ARRAY\n(12 GHz)", f, "#e8f1fb")
    text(p, QRect(40, 150, 200, 40), "CLOUD SEEDING\nFEED LINE", f, "#e8f1fb")
    text(p, QRect(380, 250, 200, 40), "UNDERGROUND\nPOWER PLANT", f, "#e8f1fb")
    p.drawLine(378, 75, 320, 105)
    p.drawLine(190, 170, 285, 200)
    p.drawLine(378, 265, 335, 330)
    p.setPen(QPen(QColor("#ff5c5c"), 3))
    p.save()
    p.translate(120, 330)
    p.rotate(-14)
    p.drawRect(-90, -22, 180, 44)
    text(p, QRect(-90, -22, 180, 44), "CLASSIFIED", font(24, True, MONO), "#ff5c5c", CENTER)
    p.restore()
    text(
        p,
        QRect(14, 10, 400, 24),
        "FIG. 3 — HOW THEY STEER THE STORMS",
        font(14, True, MONO),
        "#9cc3ea",
    )
    p.end()
    save_png(img, "weather_machine_diagram.png")


def crime_chart() -> None:
    img, p = new_image(560, 380, "#ffffff")
    text(p, QRect(20, 12, 520, 36), "CRIME UP 400% SINCE NEW MAYOR?!", font(24, True), "#b91c1c")
    text(
        p,
        QRect(20, 46, 520, 20),
        "Source: 'official city data'  (axis starts at 95)",
        font(12),
        "#6b7280",
    )
    left, top, bottom, right = 70, 80, 330, 540
    p.setPen(QPen(QColor("#111827"), 2))
    p.drawLine(left, top, left, bottom)
    p.drawLine(left, bottom, right, bottom)
    p.setFont(font(12))
    for i, v in enumerate((95, 96, 97, 98, 99, 100)):
        y = bottom - i * (bottom - top) / 5
        p.setPen(QPen(QColor("#e5e7eb"), 1))
        p.drawLine(left + 1, int(y), right, int(y))
        p.setPen(QColor("#374151"))
        p.drawText(QRect(20, int(y) - 8, 44, 16), int(Qt.AlignmentFlag.AlignRight), str(v))
    values = (95.6, 96.1, 95.9, 97.4, 98.8, 99.6)
    labels = ("Jan", "Feb", "Mar", "Apr", "May", "Jun")
    bw = 52
    for i, (v, lab) in enumerate(zip(values, labels, strict=True)):
        x = left + 20 + i * 76
        h = (v - 95) / 5 * (bottom - top)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor("#ef4444" if i >= 3 else "#9ca3af"))
        p.drawRect(QRectF(x, bottom - h, bw, h))
        p.setPen(QColor("#374151"))
        p.drawText(QRect(x, bottom + 6, bw, 18), int(Qt.AlignmentFlag.AlignHCenter), lab)
    text(
        p,
        QRect(20, 354, 520, 20),
        "Index of reported incidents per 1,000 residents",
        font(11, italic=True),
        "#6b7280",
    )
    p.end()
    save_png(img, "chart_crime_truncated_axis.png")


def rip_card() -> None:
    img, p = new_image(500, 500, "#0b0b0b")
    avatar(p, 250, 200, 120, "#262626", "#d4d4d4")
    p.setPen(QPen(QColor("#d4d4d4"), 2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(QPointF(250, 200), 126, 126)
    text(p, QRect(0, 338, 500, 50), "R.I.P.", font(40, True, SERIF), "#f5f5f5", HCENTER_TOP)
    text(p, QRect(0, 392, 500, 36), "Dana Whitlock", font(28, False, SERIF), "#e5e5e5", HCENTER_TOP)
    text(
        p,
        QRect(0, 432, 500, 30),
        "1971 \u2013 2026",
        font(20, False, SERIF),
        "#a3a3a3",
        HCENTER_TOP,
    )
    text(p, QRect(0, 466, 500, 24), "gone too soon", font(14, italic=True), "#a3a3a3", HCENTER_TOP)
    p.end()
    save_png(img, "rip_card.png")


def flood_photo() -> None:
    img, p = new_image(640, 400, "#8fa3b3")
    sky = QLinearGradient(0, 0, 0, 220)
    sky.setColorAt(0, QColor("#5f6f7d"))
    sky.setColorAt(1, QColor("#b9c4cc"))
    p.fillRect(0, 0, 640, 220, QBrush(sky))
    p.setPen(Qt.PenStyle.NoPen)
    rng = random.Random(7)
    for i in range(9):
        x = 20 + i * 70 + rng.randint(-10, 10)
        w = rng.randint(50, 70)
        h = rng.randint(40, 90)
        p.setBrush(QColor(rng.choice(("#8d6e63", "#a1887f", "#bcaaa4", "#d7ccc8"))))
        p.drawRect(x, 220 - h // 2, w, h)
        p.setBrush(QColor(rng.choice(("#5d4037", "#6d4c41", "#4e342e"))))
        p.drawPolygon(
            QPolygonF(
                [
                    QPointF(x - 6, 220 - h // 2),
                    QPointF(x + w / 2, 190 - h // 2),
                    QPointF(x + w + 6, 220 - h // 2),
                ]
            )
        )
        p.setBrush(QColor("#37474f"))
        p.drawRect(x + 10, 230 - h // 2, 12, 12)
    water = QLinearGradient(0, 215, 0, 400)
    water.setColorAt(0, QColor("#7b6f57"))
    water.setColorAt(1, QColor("#4e4636"))
    p.setBrush(QBrush(water))
    p.drawRect(0, 215, 640, 185)
    p.setPen(QPen(QColor("#8f846b"), 2))
    for y in range(235, 400, 22):
        off = rng.randint(0, 40)
        for x in range(-40 + off, 640, 90):
            p.drawArc(QRectF(x, y, 60, 10), 0, 180 * 16)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#c62828"))
    p.drawRect(300, 300, 34, 14)
    text(p, QRect(430, 374, 200, 20), "IMG_2291.JPG", font(11), "#e0e0e0")
    p.end()
    save_png(img, "flood_rooftops_photo.png")


def giveaway_banner() -> None:
    img, p = new_image(640, 320, "#4c1d95")
    grad = QLinearGradient(0, 0, 640, 320)
    grad.setColorAt(0, QColor("#5b21b6"))
    grad.setColorAt(1, QColor("#f97316"))
    p.fillRect(0, 0, 640, 320, QBrush(grad))
    p.setPen(QPen(QColor("#fde68a"), 6))
    p.setBrush(QColor("#f59e0b"))
    p.drawEllipse(QPointF(130, 160), 92, 92)
    p.setPen(QPen(QColor("#fef3c7"), 3))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(QPointF(130, 160), 70, 70)
    text(p, QRect(38, 110, 184, 100), "CX", font(64, True), "#fffbeb", CENTER)
    text(p, QRect(250, 30, 370, 50), "COINX GIVEAWAY", font(34, True), "#ffffff")
    text(p, QRect(250, 95, 370, 60), "SEND 0.1 → GET 1.0 BACK", font(24, True), "#fde68a")
    text(
        p,
        QRect(250, 160, 370, 60),
        "Official event · 5,000 COINX pool · instant payout",
        font(16),
        "#ffedd5",
    )
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#dc2626"))
    p.drawRoundedRect(QRectF(250, 230, 250, 48), 10, 10)
    text(p, QRect(250, 230, 250, 48), "ONLY 48 SPOTS LEFT!", font(20, True), "#ffffff", CENTER)
    p.end()
    save_png(img, "crypto_giveaway_banner.png")


def parcel_sms() -> None:
    img, p = new_image(360, 640, "#f2f2f7")
    p.fillRect(0, 0, 360, 96, QColor("#ffffff"))
    text(p, QRect(0, 8, 360, 20), "9:41", font(14, True), "#000000", HCENTER_TOP)
    avatar(p, 180, 52, 20, "#c7c7cc", "#ffffff")
    text(p, QRect(0, 74, 360, 20), "+44 7700 900123 >", font(12), "#3a3a3c", HCENTER_TOP)
    p.setPen(QPen(QColor("#d1d1d6"), 1))
    p.drawLine(0, 96, 360, 96)
    text(p, QRect(0, 110, 360, 18), "Text Message · Today 08:12", font(11), "#8e8e93", HCENTER_TOP)
    msg = (
        "ParcelPost: Your parcel is held at our depot due to an unpaid customs fee "
        "(EUR 1.99). Pay within 24h to avoid return to sender: "
        "https://parcel-release.example/pay?id=88213"
    )
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#e5e5ea"))
    p.drawRoundedRect(QRectF(14, 138, 270, 170), 18, 18)
    text(p, QRect(28, 150, 244, 150), msg, font(15), "#000000")
    p.setBrush(QColor("#e5e5ea"))
    p.drawRoundedRect(QRectF(14, 318, 200, 60), 18, 18)
    text(p, QRect(28, 328, 176, 44), "Reply STOP to opt out", font(15), "#000000")
    p.setBrush(QColor("#0a84ff"))
    p.drawRoundedRect(QRectF(150, 400, 196, 44), 18, 18)
    text(p, QRect(150, 400, 196, 44), "is this real??", font(15), "#ffffff", CENTER)
    p.setBrush(QColor("#ffffff"))
    p.drawRoundedRect(QRectF(12, 586, 336, 40), 20, 20)
    text(p, QRect(28, 594, 300, 24), "Text Message", font(14), "#c7c7cc")
    p.end()
    save_png(img, "parcel_sms_screenshot.png")


def phishing_login() -> None:
    img, p = new_image(600, 420, "#eef1f5")
    p.fillRect(0, 0, 600, 38, QColor("#dfe3e8"))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#ffffff"))
    p.drawRoundedRect(QRectF(60, 7, 480, 24), 12, 12)
    text(
        p,
        QRect(76, 10, 460, 20),
        "http://northbank-secure-verify.example/login",
        font(12, family=MONO),
        "#4b5563",
    )
    for i, c in enumerate(("#ff5f57", "#febc2e", "#28c840")):
        p.setBrush(QColor(c))
        p.drawEllipse(QPointF(16 + i * 14, 19), 5, 5)
    p.setBrush(QColor("#ffffff"))
    p.drawRoundedRect(QRectF(150, 60, 300, 330), 10, 10)
    p.setBrush(QColor("#0f4c81"))
    p.drawRect(QRectF(150, 60, 300, 60))
    text(p, QRect(150, 60, 300, 60), "NorthBank  Secure", font(22, True), "#ffffff", CENTER)
    p.setBrush(QColor("#fde2e1"))
    p.drawRect(QRectF(170, 134, 260, 46))
    text(
        p,
        QRect(178, 138, 246, 40),
        "Your account has been suspended. Verify your identity now.",
        font(12, True),
        "#b42318",
    )
    for i, lab in enumerate(("Customer number", "Password", "Card PIN")):
        y = 194 + i * 56
        text(p, QRect(170, y, 260, 18), lab, font(12), "#374151")
        p.setPen(QPen(QColor("#c5cbd3"), 1))
        p.setBrush(QColor("#ffffff"))
        p.drawRoundedRect(QRectF(170, y + 18, 260, 28), 4, 4)
        p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#0f4c81"))
    p.drawRoundedRect(QRectF(170, 354, 260, 28), 4, 4)
    text(p, QRect(170, 354, 260, 28), "Verify", font(14, True), "#ffffff", CENTER)
    p.end()
    save_png(img, "bank_phishing_login.png")


def fake_shop_product() -> None:
    img, p = new_image(500, 500, "#f4f4f5")
    grad = QRadialGradient(250, 260, 240)
    grad.setColorAt(0, QColor("#ffffff"))
    grad.setColorAt(1, QColor("#e4e4e7"))
    p.fillRect(0, 0, 500, 500, QBrush(grad))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#d4d4d8"))
    p.drawEllipse(QPointF(250, 350), 180, 22)
    shoe = QPainterPath()
    shoe.moveTo(90, 330)
    shoe.cubicTo(90, 260, 150, 250, 200, 230)
    shoe.cubicTo(240, 215, 260, 180, 300, 185)
    shoe.cubicTo(330, 190, 340, 240, 380, 260)
    shoe.cubicTo(420, 280, 430, 320, 420, 335)
    shoe.lineTo(90, 335)
    shoe.closeSubpath()
    p.setBrush(QColor("#2563eb"))
    p.drawPath(shoe)
    p.setBrush(QColor("#f8fafc"))
    p.drawRoundedRect(QRectF(84, 322, 344, 22), 10, 10)
    p.setPen(QPen(QColor("#f8fafc"), 4))
    for i in range(4):
        p.drawLine(220 + i * 22, 222 - i * 6, 240 + i * 22, 250 - i * 6)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#dc2626"))
    p.drawEllipse(QPointF(410, 90), 62, 62)
    text(p, QRect(348, 60, 124, 60), "-80%", font(34, True), "#ffffff", CENTER)
    text(p, QRect(30, 390, 440, 40), "AirStride Pro Runner", font(26, True), "#18181b")
    text(p, QRect(30, 432, 200, 40), "€29.99", font(30, True), "#dc2626")
    text(p, QRect(180, 440, 140, 30), "€149.99", font(20), "#71717a")
    p.setPen(QPen(QColor("#71717a"), 2))
    p.drawLine(180, 455, 268, 455)
    text(p, QRect(300, 442, 190, 30), "TODAY ONLY", font(18, True), "#16a34a")
    p.end()
    save_png(img, "fake_shop_sneaker.png")


def document_scan() -> None:
    img, p = new_image(480, 620, "#6b6b6b")
    p.save()
    p.translate(240, 310)
    p.rotate(-2.2)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#f1ede2"))
    p.drawRect(-210, -285, 420, 570)
    text(
        p,
        QRect(-190, -265, 380, 24),
        "CONFIDENTIAL — INTERNAL MEMO",
        font(16, True, MONO),
        "#2b2b2b",
    )
    text(
        p,
        QRect(-190, -235, 380, 60),
        "To: Regional Directors\nFrom: Office of the Deputy Minister\nRe: 'Project Clearwater'",
        font(12, family=MONO),
        "#333333",
    )
    grey_lines(p, -190, -160, 380, 7, 16, "#8c8a84", random.Random(5))
    p.setBrush(QColor("#111111"))
    for y, w in ((-40, 220), (-8, 300), (24, 180)):
        p.drawRect(-190, y, w, 12)
    grey_lines(p, -190, 60, 380, 8, 16, "#8c8a84", random.Random(6))
    p.setPen(QPen(QColor("#b3261e"), 3))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawEllipse(QPointF(120, 230), 58, 38)
    text(p, QRect(62, 210, 116, 40), "DO NOT\nDISTRIBUTE", font(12, True, MONO), "#b3261e", CENTER)
    p.restore()
    p.end()
    save_png(img, "leaked_memo_scan.png")


def pile_on_screenshot() -> None:
    img, p = new_image(560, 420, "#ffffff")
    text(p, QRect(16, 10, 528, 24), "Quotes  ·  1,204", font(16, True), "#0f1419")
    p.setPen(QPen(QColor("#eff3f4"), 1))
    p.drawLine(0, 40, 560, 40)
    rows = (
        ("@grumpy_anchor", "lmao look at her 'opinion' everyone reply"),
        ("@realtalk_4412", "imagine being this much of a [slur]"),
        ("@no_chill_neil", "ratio + nobody asked + log off"),
        ("@east_end_ed", "we know where you post from, keep going"),
        ("@vanilla_thunder", "someone tag her employer"),
    )
    colors = ("#7c3aed", "#0891b2", "#ea580c", "#65a30d", "#db2777")
    for i, (handle, body) in enumerate(rows):
        y = 52 + i * 72
        avatar(p, 40, y + 24, 20, colors[i], "#ffffff")
        text(p, QRect(72, y + 2, 460, 20), handle, font(14, True), "#0f1419")
        text(p, QRect(72, y + 24, 470, 40), body, font(14), "#0f1419")
        p.setPen(QPen(QColor("#eff3f4"), 1))
        p.drawLine(0, y + 68, 560, y + 68)
    p.end()
    save_png(img, "pile_on_quotes_screenshot.png")


def street_fight_still() -> None:
    img, p = new_image(480, 360, "#0e0e14")
    glow = QRadialGradient(360, 60, 200)
    glow.setColorAt(0, QColor("#ffb347"))
    glow.setColorAt(1, QColor("#0e0e14"))
    p.fillRect(0, 0, 480, 360, QBrush(glow))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#2a2a33"))
    p.drawRect(0, 270, 480, 90)
    for x, lean in ((170, -18), (250, 12), (320, -6)):
        p.save()
        p.translate(x, 270)
        p.rotate(lean)
        p.setBrush(QColor("#050507"))
        p.drawEllipse(QPointF(0, -150), 16, 18)
        p.drawRoundedRect(QRectF(-20, -132, 40, 80), 12, 12)
        p.drawRect(QRectF(-18, -56, 14, 56))
        p.drawRect(QRectF(4, -56, 14, 56))
        p.drawRect(QRectF(-46, -125, 30, 10))
        p.restore()
    p.setBrush(QColor("#6d0f12"))
    p.drawEllipse(QPointF(230, 300), 46, 10)
    text(p, QRect(10, 334, 300, 20), "● REC  00:00:14", font(12, True, MONO), "#ff4d4d")
    p.end()
    save_png(img, "street_fight_still.png")


def stock_avatar() -> None:
    img, p = new_image(400, 400, "#fce7f3")
    grad = QLinearGradient(0, 0, 400, 400)
    grad.setColorAt(0, QColor("#fbcfe8"))
    grad.setColorAt(1, QColor("#bfdbfe"))
    p.fillRect(0, 0, 400, 400, QBrush(grad))
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#6b4226"))
    p.drawEllipse(QPointF(200, 150), 92, 100)
    p.setBrush(QColor("#f1c27d"))
    p.drawEllipse(QPointF(200, 170), 72, 86)
    p.setBrush(QColor("#6b4226"))
    p.drawChord(QRectF(124, 70, 152, 120), 0, 180 * 16)
    p.setBrush(QColor("#3b2f2f"))
    p.drawEllipse(QPointF(174, 165), 7, 8)
    p.drawEllipse(QPointF(226, 165), 7, 8)
    p.setPen(QPen(QColor("#b45309"), 4))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawArc(QRectF(170, 190, 60, 36), 200 * 16, 140 * 16)
    p.setPen(Qt.PenStyle.NoPen)
    p.setBrush(QColor("#f1c27d"))
    p.drawRect(QRectF(180, 240, 40, 40))
    p.setBrush(QColor("#0ea5e9"))
    p.drawChord(QRectF(70, 260, 260, 240), 0, 180 * 16)
    p.setPen(QPen(QColor(255, 255, 255, 150), 1))
    p.setFont(font(34, True))
    p.save()
    p.translate(200, 330)
    p.rotate(-28)
    for dy in (-120, 0, 120):
        p.drawText(QRect(-200, dy - 20, 400, 40), int(CENTER), "stockimg  stockimg")
    p.restore()
    p.end()
    save_png(img, "stock_photo_avatar.png")


def engagement_grid() -> None:
    img, p = new_image(600, 400, "#ffffff")
    text(p, QRect(16, 10, 568, 26), "Liked by  ·  2,318 accounts", font(17, True), "#0f1419")
    rng = random.Random(11)
    for row in range(4):
        for col in range(6):
            x = 20 + col * 96
            y = 50 + row * 86
            avatar(p, x + 36, y + 24, 22, "#cbd5e1", "#f8fafc")
            handle = f"{rng.choice(('sunny', 'lucky', 'happy', 'daily'))}_{rng.randint(1000, 9999)}"
            text(p, QRect(x - 4, y + 52, 84, 18), handle, font(11), "#536471", HCENTER_TOP)
    p.end()
    save_png(img, "engagement_grid_default_avatars.png")


# --- animated GIFs -----------------------------------------------------------------------------


def _lzw(indices: bytes, min_code_size: int) -> bytes:
    clear = 1 << min_code_size
    eoi = clear + 1
    code_size = min_code_size + 1
    table: dict[bytes, int] = {bytes([i]): i for i in range(clear)}
    next_code = eoi + 1
    out = bytearray()
    acc = 0
    nbits = 0

    def emit(code: int) -> None:
        nonlocal acc, nbits
        acc |= code << nbits
        nbits += code_size
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8

    emit(clear)
    w = b""
    for value in indices:
        wc = w + bytes([value])
        if wc in table:
            w = wc
            continue
        emit(table[w])
        table[wc] = next_code
        next_code += 1
        if next_code == 4096:
            emit(clear)
            table = {bytes([i]): i for i in range(clear)}
            next_code = eoi + 1
            code_size = min_code_size + 1
        elif next_code > (1 << code_size):
            code_size += 1
        w = bytes([value])
    if w:
        emit(table[w])
    emit(eoi)
    if nbits:
        out.append(acc & 0xFF)
    return bytes(out)


def _sub_blocks(data: bytes) -> bytes:
    parts = [bytes([len(data[i : i + 255])]) + data[i : i + 255] for i in range(0, len(data), 255)]
    return b"".join(parts) + b"\x00"


def write_gif(name: str, frames: list[QImage], palette: list[str], delay_cs: int) -> None:
    colors = [QColor(c) for c in palette]
    size_bits = max(1, math.ceil(math.log2(len(colors))))
    table_len = 1 << size_bits
    rgb = [(c.red(), c.green(), c.blue()) for c in colors]
    rgb += [(0, 0, 0)] * (table_len - len(rgb))
    lookup: dict[int, int] = {}

    def nearest(pixel: int) -> int:
        if pixel not in lookup:
            r, g, b = (pixel >> 16) & 0xFF, (pixel >> 8) & 0xFF, pixel & 0xFF
            lookup[pixel] = min(
                range(len(colors)),
                key=lambda i: (rgb[i][0] - r) ** 2 + (rgb[i][1] - g) ** 2 + (rgb[i][2] - b) ** 2,
            )
        return lookup[pixel]

    w, h = frames[0].width(), frames[0].height()
    out = bytearray(b"GIF89a")
    out += struct.pack("<HHBBB", w, h, 0x80 | ((size_bits - 1) << 4) | (size_bits - 1), 0, 0)
    for r, g, b in rgb:
        out += bytes((r, g, b))
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    min_code = max(2, size_bits)
    for frame in frames:
        img = frame.convertToFormat(QImage.Format.Format_RGB32)
        px = bytearray()
        for y in range(h):
            for x in range(w):
                px.append(nearest(img.pixel(x, y) & 0xFFFFFF))
        out += b"\x21\xf9\x04\x04" + struct.pack("<H", delay_cs) + b"\x00\x00"
        out += b"\x2c" + struct.pack("<HHHHB", 0, 0, w, h, 0)
        out += bytes([min_code]) + _sub_blocks(_lzw(bytes(px), min_code))
    out += b"\x3b"
    path = OUT / name
    path.write_bytes(bytes(out))
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise SystemExit(f"{name} is {size} bytes, over {MAX_BYTES}")
    check = QImage(str(path))
    if check.isNull() or (check.width(), check.height()) != (w, h):
        raise SystemExit(f"{name}: Qt cannot read the GIF back")
    print(f"{name:32} {w}x{h} {size:6d} bytes, {len(frames)} frames")


def _flat_painter(img: QImage) -> QPainter:
    p = QPainter(img)
    p.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    p.setRenderHint(QPainter.RenderHint.TextAntialiasing, False)
    return p


def _flat_font(size: int) -> QFont:
    f = font(size, True)
    f.setStyleStrategy(QFont.StyleStrategy.NoAntialias)
    return f


def giveaway_flash_gif() -> None:
    palette = ["#1e1b4b", "#facc15", "#f97316", "#ffffff", "#dc2626", "#7c3aed"]
    frames: list[QImage] = []
    for i in range(4):
        img = QImage(320, 160, QImage.Format.Format_RGB32)
        img.fill(QColor(palette[5] if i % 2 else palette[0]))
        p = _flat_painter(img)
        p.setPen(Qt.PenStyle.NoPen)
        for k in range(8):
            angle = math.radians(k * 45 + i * 11)
            p.setBrush(QColor(palette[1] if (k + i) % 2 else palette[2]))
            p.drawEllipse(QPointF(160 + 130 * math.cos(angle), 80 + 62 * math.sin(angle)), 7, 7)
        p.setFont(_flat_font(36))
        p.setPen(QColor(palette[1] if i % 2 else palette[3]))
        p.drawText(QRect(0, 22, 320, 60), int(CENTER), "FREE COINX")
        p.setFont(_flat_font(18))
        p.setPen(QColor(palette[3]))
        p.drawText(QRect(0, 84, 320, 30), int(CENTER), "send 0.1 → get 1.0")
        p.setBrush(QColor(palette[4]))
        p.setPen(Qt.PenStyle.NoPen)
        p.drawRect(90, 118, 140, 28)
        p.setFont(_flat_font(14))
        p.setPen(QColor(palette[3]))
        p.drawText(QRect(90, 118, 140, 28), int(CENTER), "CLAIM NOW")
        p.end()
        frames.append(img)
    write_gif("coinx_giveaway_flash.gif", frames, palette, 45)


def countdown_gif() -> None:
    palette = ["#111827", "#ef4444", "#ffffff", "#fbbf24"]
    frames: list[QImage] = []
    for s in range(9, 3, -1):
        img = QImage(300, 120, QImage.Format.Format_RGB32)
        img.fill(QColor(palette[0]))
        p = _flat_painter(img)
        p.setFont(_flat_font(16))
        p.setPen(QColor(palette[3]))
        p.drawText(QRect(0, 8, 300, 26), int(CENTER), "-80% SALE ENDS IN")
        p.setBrush(QColor(palette[1]))
        p.setPen(Qt.PenStyle.NoPen)
        p.drawRect(60, 40, 180, 56)
        p.setFont(_flat_font(38))
        p.setPen(QColor(palette[2]))
        p.drawText(QRect(60, 40, 180, 56), int(CENTER), f"00:0{s}")
        p.end()
        frames.append(img)
    write_gif("sale_countdown.gif", frames, palette, 100)


MAKERS: tuple[Callable[[], None], ...] = (
    news_cure_screenshot,
    news_ballots_screenshot,
    meme_weather,
    weather_machine_diagram,
    crime_chart,
    rip_card,
    flood_photo,
    giveaway_banner,
    parcel_sms,
    phishing_login,
    fake_shop_product,
    document_scan,
    pile_on_screenshot,
    street_fight_still,
    stock_avatar,
    engagement_grid,
    giveaway_flash_gif,
    countdown_gif,
)


def main() -> int:
    app = QGuiApplication.instance() or QGuiApplication(sys.argv)
    for make in MAKERS:
        make()
    del app
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
