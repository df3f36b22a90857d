"""Media thumbnails: blurred and greyscaled until the reviewer asks (Space), never played.

Bytes come from the local store (the sync engine fetched them ahead); no widget fetches a
remote resource. A GIF shows its first frame only; a video shows a tile that says what it
is, because nothing here plays video.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from reviewer_app.protocol import Media, MediaKind

from .plain import clean, tooltip

THUMB = QSize(220, 160)


def obscured(image: QImage, *, blur: bool, grey: bool) -> QImage:
    """The image blurred (down- then up-scaled, smooth) and/or in greyscale."""
    out = image
    if grey:
        out = out.convertToFormat(QImage.Format.Format_Grayscale8)
    if blur:
        small = out.scaled(
            max(3, out.width() // 24),
            max(3, out.height() // 24),
            Qt.AspectRatioMode.IgnoreAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
        out = small.scaled(
            out.width(),
            out.height(),
            Qt.AspectRatioMode.IgnoreAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
    return out


def placeholder(text: str) -> QImage:
    image = QImage(THUMB, QImage.Format.Format_RGB32)
    image.fill(QColor("#3a3a3a"))
    painter = QPainter(image)
    painter.setPen(QColor("#f0f0f0"))
    painter.drawText(image.rect().adjusted(8, 8, -8, -8), Qt.TextFlag.TextWordWrap, text)
    painter.end()
    return image


class MediaTile(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setFixedSize(THUMB)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFrameShape(QLabel.Shape.Box)
        self.original = QImage()
        self.shown = QImage()

    def show_image(self, image: QImage) -> None:
        self.shown = image
        self.setPixmap(
            QPixmap.fromImage(image).scaled(
                THUMB,
                Qt.AspectRatioMode.KeepAspectRatio,
                Qt.TransformationMode.SmoothTransformation,
            )
        )


class MediaStrip(QWidget):
    """The current post's media in a row of tiles."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Media")
        self.blur = True
        self.grey = True
        self.revealed = False
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.addStretch(1)
        self.tiles: list[MediaTile] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def show_media(self, media: list[Media], load: object) -> None:
        """``load(media_id) -> (bytes, content type) | None`` reads the local store."""
        self.revealed = False
        for tile in self.tiles:
            tile.deleteLater()
        self.tiles = []
        for index, item in enumerate(media):
            tile = MediaTile(self)
            tile.setAccessibleName(f"Media {index + 1}: {item.kind.value}")
            description = clean(item.alt_text) or "no description"
            tile.setToolTip(tooltip(f"{item.kind.value}, {item.size_bytes:,} bytes: {description}"))
            tile.original = self._decode(item, load)
            self._layout.insertWidget(index, tile)
            self.tiles.append(tile)
        self._apply()
        self.setVisible(bool(media))

    def _decode(self, item: Media, load: object) -> QImage:
        if item.kind is MediaKind.video:
            return placeholder(f"Video, {item.size_bytes:,} bytes.\nNot played here.")
        found = load(item.id) if callable(load) else None
        if not found:
            return placeholder("Media not downloaded yet")
        data, _kind = found
        image = QImage.fromData(data)  # a GIF decodes to its first frame: never animated
        if image.isNull():
            return placeholder("This file is not an image this app can show")
        return image

    def toggle_reveal(self) -> None:
        self.revealed = not self.revealed
        self._apply()

    def set_defaults(self, *, blur: bool, grey: bool) -> None:
        self.blur, self.grey = blur, grey
        self._apply()

    def _apply(self) -> None:
        for tile in self.tiles:
            if self.revealed:
                tile.show_image(tile.original)
            else:
                tile.show_image(obscured(tile.original, blur=self.blur, grey=self.grey))
