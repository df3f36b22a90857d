"""Media thumbnails: blurred and greyscaled until the reviewer asks (Space), never played.

Bytes come from the local store (the sync engine fetched them ahead); no widget fetches a
remote resource. A GIF shows its first frame only; a video shows its poster frame and
duration (read off the GUI thread by ``video.read_video``), because nothing here plays
video. A tile clicked, or V, opens the media viewer (``media_viewer``).

Media bytes are hostile until decoded: the format is read from the content (never the file
name or the declared type), only the formats the service serves are decoded, the declared
size is checked before a pixel is allocated (a few KB of PNG can declare 50,000 x 50,000
pixels), big images are scaled down while decoding, and anything refused or damaged is a
placeholder tile that says so in plain words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QImage,
    QImageReader,
    QMouseEvent,
    QPainter,
    QPixmap,
    QResizeEvent,
)
from PySide6.QtWidgets import QGridLayout, QLabel, QSizePolicy, QWidget

from reviewer_app.core.store import MISSING_MEDIA
from reviewer_app.protocol import Media, MediaKind

from .background import run_in_background
from .i18n import translate
from .plain import isolate, named, tooltip, whole
from .video import VideoCache, VideoFrames, damaged_video, duration_words, read_video

THUMB = QSize(220, 160)
#: The most pixels an image may declare; more is refused before anything is decoded
#: (4096 x 4096: 64 MB while decoding at 8 bits a channel, 128 MB at 16).
MAX_PIXELS = 4096 * 4096
#: Images are decoded to fit this box (scaled while decoding where the format can): only a
#: tile is ever shown.
DECODE_BOX = QSize(1280, 1280)
#: Images of at most this many pixels are decoded on the GUI thread when shown (a few ms);
#: larger ones off it, their tile saying so meanwhile (16 images of 4,096 x 4,096 held the
#: window for 4-9 s).
SYNC_PIXELS = 1024 * 1024
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


def declared_size(data: bytes, reader: QImageReader) -> QSize:
    """The size the image's decoding allocates: a GIF's canvas (its "logical screen"),
    which Qt decodes whole whatever its first frame's size (``reader.size()``); a 62-byte
    GIF of one pixel on a 7,999 x 7,999 canvas decoded to 244 MB), else the reader's."""
    size = reader.size()
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        canvas = QSize(int.from_bytes(data[6:8], "little"), int.from_bytes(data[8:10], "little"))
        return size.expandedTo(canvas)
    return size


def image_pixels(data: bytes) -> int:
    """How many pixels decoding ``data`` allocates, from its header (0: none known)."""
    buffer = QBuffer()
    buffer.setData(QByteArray(data))
    buffer.open(QIODevice.OpenModeFlag.ReadOnly)
    reader = QImageReader(buffer)
    reader.setDecideFormatFromContent(True)
    size = declared_size(data, reader)
    return max(0, size.width()) * max(0, size.height())


def decoded(
    data: bytes, *, blur: bool, grey: bool
) -> tuple[QImage | None, str | None, QImage | None]:
    """Off the GUI thread: the image, why it is not shown, and the image obscured."""
    image = decode(data)
    if isinstance(image, str):
        return None, image, None
    return image, None, obscured(image, blur=blur, grey=grey)


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
    allocated = declared_size(data, reader)
    if allocated.width() * allocated.height() > MAX_PIXELS:
        return translate(
            "Media", "This image is too large to show safely ({width} x {height} pixels)"
        ).format(width=whole(allocated.width()), height=whole(allocated.height()))
    if size.width() > DECODE_BOX.width() or size.height() > DECODE_BOX.height():
        # at least a pixel a side: a 4,096 x 1 image scaled to the box is not 1,280 x 0
        reader.setScaledSize(
            size.scaled(DECODE_BOX, Qt.AspectRatioMode.KeepAspectRatio).expandedTo(QSize(1, 1))
        )
    image = reader.read()  # a GIF decodes to its first frame: never animated
    if image.isNull():
        return damaged()
    if image.width() > DECODE_BOX.width() or image.height() > DECODE_BOX.height():
        # a format that does not scale while decoding (a GIF's canvas) keeps no more
        image = image.scaled(
            DECODE_BOX,
            Qt.AspectRatioMode.KeepAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
    return image


def badged(image: QImage, text: str) -> QImage:
    """``image`` with ``text`` (our words: a video's duration) on a dark band at the foot,
    painted after any blur so it stays readable."""
    out = image.convertToFormat(QImage.Format.Format_RGB32)
    painter = QPainter(out)
    font = painter.font()
    font.setPixelSize(max(11, min(16, out.height() // 10)))
    font.setBold(True)
    painter.setFont(font)
    band = painter.fontMetrics().height() + 8
    area = QRect(0, out.height() - band, out.width(), band)
    painter.fillRect(area, QColor(0, 0, 0, 170))
    painter.setPen(QColor("#ffffff"))
    painter.drawText(area.adjusted(8, 0, -8, 0), Qt.AlignmentFlag.AlignVCenter, text)
    painter.end()
    return out


def video_badge(frames: VideoFrames) -> str:
    """What a video tile says over its poster: "▶ 0:12 · not played"."""
    return translate("Media", "▶ {duration} · not played").format(
        duration=duration_words(frames.duration)
    )


def placeholder(text: str) -> QImage:
    image = QImage(THUMB, QImage.Format.Format_RGB32)
    image.fill(QColor("#3a3a3a"))
    painter = QPainter(image)
    painter.setPen(QColor("#f0f0f0"))
    painter.drawText(image.rect().adjusted(8, 8, -8, -8), Qt.TextFlag.TextWordWrap, text)
    painter.end()
    return image


def not_downloaded() -> str:
    """A tile's words while its media is not in the store yet."""
    return translate("Media", "Media not downloaded yet")


class MediaTile(QLabel):
    clicked = Signal()

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
        # the medium the tile shows
        self.media: Media | None = None
        # a video's poster, duration and strip of frames, once read
        self.video: VideoFrames | None = None
        # our words painted over the (obscured) media: a video's duration
        self.badge = ""
        #: the media was not in the store when the tile was made (``MediaStrip.arrived``)
        self.waiting = False
        self.setCursor(Qt.CursorShape.PointingHandCursor)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.clicked.emit()
        super().mouseReleaseEvent(event)

    def show_image(self, image: QImage, badge: str = "") -> None:
        """``image`` fitted to the tile, with ``badge`` (our words) painted over its foot."""
        self.shown = image
        self.setPixmap(tile_pixmap(image, badge))


def tile_pixmap(image: QImage, badge: str = "") -> QPixmap:
    """What a tile shows of ``image``: fitted to it, with ``badge`` over its foot."""
    fitted = image.scaled(
        THUMB,
        Qt.AspectRatioMode.KeepAspectRatio,
        Qt.TransformationMode.SmoothTransformation,
    )
    return QPixmap.fromImage(badged(fitted, badge) if badge else fitted)


@dataclass(frozen=True)
class _Ahead:
    """An image of the next post, decoded and drawn as its tile will show it (``prepare``)."""

    original: QImage
    problem: str | None
    blur: bool
    grey: bool
    #: the obscured image and the tile's pixmap of it (None for a placeholder)
    shown: QImage | None
    pixmap: QPixmap | None


class MediaStrip(QWidget):
    """The current post's media in a row of tiles. A tile clicked asks for the viewer."""

    # the reviewer asked to see a medium large (its index in the post's media)
    enlarge_requested = Signal(int)
    # a tile changed after the post was shown (a video's frames were read)
    tiles_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        named(self, "media", translate("Media", "Media"))
        self.blur = True
        self.grey = True
        self.revealed = False
        # tiles in rows: as many a row as the pane's width takes (two side by side wanted
        # more than the post's column has at 1280 px, and cut the post's text off)
        self._layout = QGridLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self._columns = 0
        # one tile's width at the least, however many a row holds now (the rows follow the
        # width, never the other way round)
        self.setMinimumWidth(THUMB.width())
        self.tiles: list[MediaTile] = []
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.videos = VideoCache()
        #: the next post's images by media id, worked out while the reviewer reads this one
        self._ahead: dict[str, _Ahead] = {}
        # media ids of videos being read, and of large images being decoded, off the GUI
        # thread
        self.pending: set[str] = set()
        #: the next post's images are being decoded off the GUI thread (``prepare``)
        self.preparing = False
        self._generation = 0

    def show_media(self, media: list[Media], load: object) -> None:
        """``load(media_id) -> (bytes, content type) | None`` reads the local store."""
        self.revealed = False
        # tiles are kept from post to post (making and placing widgets for every post was a
        # visible share of its keypress); those beyond this post's media go
        for tile in self.tiles[len(media) :]:
            self._layout.removeWidget(tile)
            tile.hide()
            tile.deleteLater()
        del self.tiles[len(media) :]
        for index, item in enumerate(media):
            if index < len(self.tiles):
                tile = self.tiles[index]
                tile.video, tile.badge = None, ""
            else:
                tile = MediaTile(self)
                tile.setObjectName(f"media{index + 1}")
                tile.clicked.connect(lambda n=index: self.enlarge_requested.emit(n))
                self.tiles.append(tile)  # placed by _place below
            number = translate("Media", "Media {n}: {what}")
            tile.setAccessibleName(number.format(n=index + 1, what=kind_word(item.kind)))
            description = (
                isolate(item.alt_text) if item.alt_text else translate("Media", "no description")
            )
            about = translate("Media", "{kind}, {size} bytes: {description}").format(
                kind=kind_word(item.kind), size=whole(item.size_bytes), description=description
            )
            if item.sensitive:
                about += "\n" + translate(
                    "Media", "Marked sensitive by the platform: blurred until you reveal it"
                )
            tile.setToolTip(tooltip(about))
            tile.media = item
            ahead = self._ahead.get(item.id) if item.kind is not MediaKind.video else None
            if ahead is not None:
                tile.original, tile.problem = ahead.original, ahead.problem
            else:
                tile.original, tile.problem = self._decode(item, load)
            tile.waiting = tile.problem == not_downloaded()
            known = self.videos.get(item.id) if item.kind is MediaKind.video else None
            if isinstance(known, VideoFrames):
                tile.video = known
                tile.setAccessibleName(
                    number.format(n=index + 1, what=kind_word(item.kind))
                    + " "
                    + duration_words(known.duration)
                )
            if tile.problem:
                tile.setAccessibleName(number.format(n=index + 1, what=tile.problem))
        self._apply()
        self._ahead = {}
        self._place()
        self.setVisible(bool(media))

    def minimumSizeHint(self) -> QSize:
        return QSize(THUMB.width(), super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place()

    def _place(self) -> None:
        """The tiles in as many columns as the strip's width takes (at least one)."""
        spacing = max(0, self._layout.horizontalSpacing())
        columns = max(1, (self.width() + spacing) // (THUMB.width() + spacing))
        if columns == self._columns and all(self._layout.indexOf(t) >= 0 for t in self.tiles):
            return
        self._columns = columns
        for tile in self.tiles:
            self._layout.removeWidget(tile)
        for index, tile in enumerate(self.tiles):
            self._layout.addWidget(tile, index // columns, index % columns)

    def prepare(self, media: list[Media], load: object) -> None:
        """The next post's images decoded, obscured and fitted as its tiles will show them,
        off the GUI thread while the reviewer reads this post (its keypress then only
        places them). Only images already in the store; videos are read when shown."""
        self._generation += 1
        generation = self._generation
        found: list[tuple[str, bytes, bool]] = []
        for item in media:
            read = load(item.id) if callable(load) and item.kind is not MediaKind.video else None
            if read and read[1] != MISSING_MEDIA:  # one not in the store yet may arrive
                found.append((item.id, bytes(read[0]), self.blurs(item)))
        self._ahead = {}
        if not found:
            return
        grey = self.grey
        blurred = {media_id: blur for media_id, _data, blur in found}
        self.preparing = True

        def work() -> dict[str, tuple[QImage | None, str | None, QImage | None]]:
            return {m: decoded(data, blur=blur, grey=grey) for m, data, blur in found}

        def done(result: dict[str, tuple[QImage | None, str | None, QImage | None]]) -> None:
            if generation != self._generation:
                return  # another post's turn came meanwhile
            self.preparing = False
            self._ahead = {
                media_id: _Ahead(
                    original if original is not None else placeholder(problem or damaged()),
                    problem,
                    blurred[media_id],
                    grey,
                    shown,
                    None if shown is None else tile_pixmap(shown),
                )
                for media_id, (original, problem, shown) in result.items()
            }

        def failed(_err: BaseException) -> None:
            if generation == self._generation:
                self.preparing = False

        run_in_background(self, work, done, failed)

    def _decode(self, item: Media, load: object) -> tuple[QImage, str | None]:
        """The tile's image, and why it is a placeholder (None when it is the media)."""
        found = load(item.id) if callable(load) else None
        if not found:
            words = not_downloaded()
            return placeholder(words), words
        data, kind = found  # the declared type is not trusted: the content decides
        if kind == MISSING_MEDIA:  # our own mark: the service no longer has it
            words = translate("Media", "This media is no longer available on the service")
            return placeholder(words), words
        if item.kind is MediaKind.video:
            return self._video(item, bytes(data))
        data = bytes(data)
        if image_pixels(data) > SYNC_PIXELS:
            return self._image_later(item, data)
        image = decode(data)
        if isinstance(image, str):
            return placeholder(image), image
        return image, None

    def _image_later(self, item: Media, data: bytes) -> tuple[QImage, str | None]:
        """A large image's tile: words until it is decoded off the GUI thread."""
        words = translate("Media", "Image, {size} bytes: decoding…").format(
            size=whole(item.size_bytes)
        )
        if item.id not in self.pending:
            self.pending.add(item.id)
            media_id, blur, grey = item.id, self.blurs(item), self.grey

            def work() -> tuple[QImage | None, str | None, QImage | None]:
                return decoded(data, blur=blur, grey=grey)

            def done(result: tuple[QImage | None, str | None, QImage | None]) -> None:
                original, problem, _shown = result
                self._on_image_decoded(media_id, original, problem)

            def failed(_err: BaseException) -> None:
                self._on_image_decoded(media_id, None, damaged())

            run_in_background(self, work, done, failed)
        return placeholder(words), words

    def _on_image_decoded(self, media_id: str, image: QImage | None, problem: str | None) -> None:
        self.pending.discard(media_id)

        def update(tile: MediaTile) -> None:
            tile.original = image if image is not None else placeholder(problem or damaged())
            tile.problem = problem

        self._update_tiles(
            lambda tile: tile.media is not None and tile.media.id == media_id, update
        )

    def _update_tiles(
        self, chosen: Callable[[MediaTile], bool], update: Callable[[MediaTile], None]
    ) -> None:
        """Each chosen tile updated and named afresh; the strip repainted once after."""
        changed = False
        for index, tile in enumerate(self.tiles):
            if tile.media is None or not chosen(tile):
                continue
            update(tile)
            what = tile.problem or kind_word(tile.media.kind)
            tile.setAccessibleName(
                translate("Media", "Media {n}: {what}").format(n=index + 1, what=what)
            )
            changed = True
        if changed:
            self._apply()
            self.tiles_changed.emit()

    def _video(self, item: Media, data: bytes) -> tuple[QImage, str | None]:
        """A video's tile: its poster once read (off the GUI thread), words until then."""
        known = self.videos.get(item.id)
        if isinstance(known, VideoFrames):
            return known.poster, None
        if isinstance(known, str):
            return placeholder(known), known
        words = translate("Media", "Video, {size} bytes: reading its frames…").format(
            size=whole(item.size_bytes)
        )
        if item.id not in self.pending:
            self.pending.add(item.id)
            media_id = item.id

            def read() -> VideoFrames | str:
                return read_video(data)

            def done(result: VideoFrames | str) -> None:
                self._on_video_read(media_id, result)

            def failed(_err: BaseException) -> None:
                self._on_video_read(media_id, damaged_video())

            run_in_background(self, read, done, failed)
        return placeholder(words), words

    def _on_video_read(self, media_id: str, result: VideoFrames | str) -> None:
        self.pending.discard(media_id)
        self.videos.put(media_id, result)
        changed = False
        for index, tile in enumerate(self.tiles):
            if tile.media is None or tile.media.id != media_id:
                continue
            number = translate("Media", "Media {n}: {what}")
            if isinstance(result, VideoFrames):
                tile.original, tile.problem, tile.video = result.poster, None, result
                tile.setAccessibleName(
                    number.format(n=index + 1, what=kind_word(MediaKind.video))
                    + " "
                    + duration_words(result.duration)
                )
            else:
                tile.original, tile.problem, tile.video = placeholder(result), result, None
                tile.setAccessibleName(number.format(n=index + 1, what=result))
            changed = True
        if changed:
            self._apply()
            self.tiles_changed.emit()

    def arrived(self, media_ids: set[str], load: object) -> None:
        """Media just stored (``load`` reads it): the tiles that were waiting for it show
        it, as blurred or revealed as the rest of the post."""

        def update(tile: MediaTile) -> None:
            assert tile.media is not None
            tile.original, tile.problem = self._decode(tile.media, load)
            tile.waiting = tile.problem == not_downloaded()

        self._update_tiles(
            lambda tile: tile.waiting and tile.media is not None and tile.media.id in media_ids,
            update,
        )

    def toggle_reveal(self) -> None:
        self.revealed = not self.revealed
        self._apply()

    def set_defaults(self, *, blur: bool, grey: bool) -> None:
        self.blur, self.grey = blur, grey
        self._apply()

    def blurs(self, media: Media | None) -> bool:
        """Whether ``media`` is blurred until revealed: as the reviewer's settings say, and
        always when the platform marked it sensitive (the reviewer's "blur media" off showed
        those plain, unlabelled)."""
        return self.blur or (media is not None and media.sensitive)

    def shown(self, image: QImage, media: Media | None = None) -> QImage:
        """``image`` (of ``media``) as the reviewer's settings show it now: blurred and/or
        greyscaled until revealed."""
        if self.revealed:
            return image
        return obscured(image, blur=self.blurs(media), grey=self.grey)

    def _apply(self) -> None:
        for tile in self.tiles:
            if tile.problem:  # a placeholder's words are ours: never blurred
                tile.show_image(tile.original)
                continue
            ahead = self._ahead.get(tile.media.id) if tile.media is not None else None
            if (
                ahead is not None
                and ahead.original is tile.original
                and ahead.shown is not None
                and ahead.pixmap is not None
                and not self.revealed
                and (ahead.blur, ahead.grey) == (self.blurs(tile.media), self.grey)
            ):  # drawn ahead, as the reviewer's settings show it now
                tile.shown = ahead.shown
                tile.setPixmap(ahead.pixmap)
                continue
            badge = video_badge(tile.video) if tile.video is not None else ""
            tile.show_image(self.shown(tile.original, tile.media), badge)
