"""Media thumbnails: blurred and greyscaled until the reviewer asks (Space), never played.

Bytes come from the local store (the sync engine fetched them ahead); no widget fetches a
remote resource. A GIF shows its first frame only; a video shows a tile that says what it
is, because nothing here plays video.

Media bytes are hostile until decoded: the format is read from the content (never the file
name or the declared type), only the formats the service serves are decoded, the declared
size is checked before a pixel is allocated (a few KB of PNG can declare 50,000 x 50,000
pixels), big images are scaled down while decoding, and anything refused or damaged is a
placeholder tile that says so in plain words.
"""

from __future__ import annotations

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSize, Qt
from PySide6.QtGui import QColor, QImage, QImageReader, QPainter, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from reviewer_app.protocol import Media, MediaKind

from .i18n import translate
from .plain import clean, named, tooltip

THUMB = QSize(220, 160)
#: The most pixels an image may declare; more is refused before anything is decoded
#: (4096 x 4096: at most 64 MB while decoding).
MAX_PIXELS = 4096 * 4096
#: Images are decoded to fit this box (scaled while decoding where the format can): only a
#: tile is ever shown.
DECODE_BOX = QSize(1280, 1280)
#: Formats decoded, as Qt names them (what the service serves; never SVG or the like).
FORMATS = frozenset({"png", "jpeg", "jpg", "gif", "webp"})
NOT_AN_IMAGE = "This file is not an image this app can show"
DAMAGED = "This image is damaged or incomplete; it is not shown"


def kind_word(kind: MediaKind) -> str:
    """What a medium is, in words."""
    return {
        MediaKind.image: translate("Media", "image"),
        MediaKind.gif: translate("Media", "GIF"),
        MediaKind.video: translate("Media", "video"),
    }.get(kind, kind.value)


def not_an_image() -> str:
    """``NOT_AN_IMAGE`` in the user's language."""
    return translate("Media", "This file is not an image this app can show")


def damaged() -> str:
    """``DAMAGED`` in the user's language."""
    return translate("Media", "This image is damaged or incomplete; it is not shown")


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


def decode(data: bytes) -> QImage | str:
    """The image in ``data`` (a GIF's first frame), or why it is not shown, in plain words."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    reader.setDecideFormatFromContent(True)
    fmt = bytes(reader.format().data()).decode("ascii", "replace").lower()
    if not data or not reader.canRead() or fmt not in FORMATS:
        return not_an_image()
    size = reader.size()
    if not size.isValid() or size.isEmpty():
        return damaged()
    if size.width() * size.height() > MAX_PIXELS:
        return translate(
            "Media", "This image is too large to show safely ({width} x {height} pixels)"
        ).format(width=f"{size.width():,}", height=f"{size.height():,}")
    if size.width() > DECODE_BOX.width() or size.height() > DECODE_BOX.height():
        reader.setScaledSize(size.scaled(DECODE_BOX, Qt.AspectRatioMode.KeepAspectRatio))
    image = reader.read()  # a GIF decodes to its first frame: never animated
    return damaged() if image.isNull() else image


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
        #: why the tile shows a placeholder instead of the media (None: it shows the media)
        self.problem: str | None = None

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
        named(self, "media", translate("Media", "Media"))
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
            tile.setObjectName(f"media{index + 1}")
            number = translate("Media", "Media {n}: {what}")
            tile.setAccessibleName(number.format(n=index + 1, what=kind_word(item.kind)))
            description = clean(item.alt_text) or translate("Media", "no description")
            tile.setToolTip(
                tooltip(
                    translate("Media", "{kind}, {size} bytes: {description}").format(
                        kind=kind_word(item.kind),
                        size=f"{item.size_bytes:,}",
                        description=description,
                    )
                )
            )
            tile.original, tile.problem = self._decode(item, load)
            if tile.problem:
                tile.setAccessibleName(number.format(n=index + 1, what=tile.problem))
            self._layout.insertWidget(index, tile)
            self.tiles.append(tile)
        self._apply()
        self.setVisible(bool(media))

    def _decode(self, item: Media, load: object) -> tuple[QImage, str | None]:
        """The tile's image, and why it is a placeholder (None when it is the media)."""
        if item.kind is MediaKind.video:
            words = translate("Media", "Video, {size} bytes.\nNot played here.").format(
                size=f"{item.size_bytes:,}"
            )
            return placeholder(words), words
        found = load(item.id) if callable(load) else None
        if not found:
            words = translate("Media", "Media not downloaded yet")
            return placeholder(words), words
        data, _kind = found  # the declared type is not trusted: the content decides
        image = decode(bytes(data))
        if isinstance(image, str):
            return placeholder(image), image
        return image, None

    def toggle_reveal(self) -> None:
        self.revealed = not self.revealed
        self._apply()

    def set_defaults(self, *, blur: bool, grey: bool) -> None:
        self.blur, self.grey = blur, grey
        self._apply()

    def _apply(self) -> None:
        for tile in self.tiles:
            if self.revealed or tile.problem:  # a placeholder's words are ours: never blurred
                tile.show_image(tile.original)
            else:
                tile.show_image(obscured(tile.original, blur=self.blur, grey=self.grey))
