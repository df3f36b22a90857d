"""The media viewer: a post's media large, one at a time, still blurred and greyscaled until
the reviewer reveals them (the same settings and the same Space as the media strip).

Keyboard first: ← → (or Page Up / Page Down) previous and next, Home / End first and last,
+ - zoom, 0 fit to the window, ↑ ↓ and Shift+← → move a zoomed picture, Space reveal or
hide, Esc close. The wheel zooms. Its buttons take no focus, so a key never presses one.
A video shows its poster frame, its duration and a strip of frames: nothing plays, no
sound is decoded.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QImage, QKeyEvent, QPixmap, QWheelEvent
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.protocol import Media

from .i18n import translate
from .media import MediaStrip, badged, kind_word
from .plain import clean, isolate, label, named, set_text, whole
from .video import VideoFrames, duration_words

ZOOM_STEP = 1.25
MIN_ZOOM, MAX_ZOOM = 0.1, 8.0
# The largest picture the viewer paints, whatever the zoom (pixels): 4096 x 4096.
MAX_PAINTED = 4096 * 4096
FRAME_WIDTH = 150


@dataclass(frozen=True)
class Shown:
    """One medium as the viewer shows it (taken from the strip's tile when it opens)."""

    media: Media
    original: QImage
    problem: str | None
    video: VideoFrames | None


class MediaViewer(QDialog):
    """The post's media, large; ``index`` first."""

    def __init__(self, strip: MediaStrip, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.strip = strip
        named(self, "mediaViewer", translate("MediaViewer", "Media viewer"))
        self.items: list[Shown] = []
        self.index = 0
        # None: fit the window; else the scale of the picture
        self.zoom: float | None = None
        self._refit = QTimer(self)  # a resize refits the picture once the layout settled
        self._refit.setSingleShot(True)
        self._refit.setInterval(0)
        self._refit.timeout.connect(self._paint)
        self._take_tiles()
        layout = QVBoxLayout(self)
        self.caption = label()
        named(self.caption, "mediaCaption", translate("MediaViewer", "What this medium is"))
        layout.addWidget(self.caption)
        self.area = QScrollArea()
        named(self.area, "mediaArea", translate("MediaViewer", "The medium, large"))
        self.area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.area.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.area.setWidgetResizable(False)
        self.picture = QLabel()
        self.picture.setTextFormat(Qt.TextFormat.PlainText)
        self.picture.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.picture.setWordWrap(True)
        named(self.picture, "mediaPicture", translate("MediaViewer", "The medium"))
        self.area.setWidget(self.picture)
        self.area.viewport().installEventFilter(self)
        layout.addWidget(self.area, 1)
        self.frames_row = QWidget()
        named(self.frames_row, "videoFrames", translate("MediaViewer", "Frames of the video"))
        self.frames_layout = QHBoxLayout(self.frames_row)
        self.frames_layout.setContentsMargins(0, 0, 0, 0)
        self.frames_layout.addStretch(1)
        self.frames_row.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.frame_labels: list[QLabel] = []
        layout.addWidget(self.frames_row)
        self.info = label()
        named(self.info, "mediaInfo", translate("MediaViewer", "About this medium"))
        layout.addWidget(self.info)
        controls = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for key, text, slot in (
            ("previous", translate("MediaViewer", "◀ Previous"), self.previous),
            ("next", translate("MediaViewer", "Next ▶"), self.next),
            ("zoom_out", translate("MediaViewer", "Zoom out"), self.zoom_out),
            ("zoom_in", translate("MediaViewer", "Zoom in"), self.zoom_in),
            ("fit", translate("MediaViewer", "Fit"), self.fit),
            ("reveal", translate("MediaViewer", "Reveal"), self.toggle_reveal),
            ("close", translate("MediaViewer", "Close"), self.reject),
        ):
            button = QPushButton(text)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys are the viewer's, never a press
            button.setAutoDefault(False)
            button.clicked.connect(slot)
            named(button, f"viewer_{key}", text)
            controls.addWidget(button)
            self.buttons[key] = button
        layout.addLayout(controls)
        self.hint = label(
            translate(
                "MediaViewer",
                "← → previous, next · + - zoom (or the wheel) · 0 fit · ↑ ↓ Shift+← → move "
                "· Space reveal · Esc close",
            )
        )
        named(self.hint, "viewerKeys", translate("MediaViewer", "Keys of the viewer"))
        layout.addWidget(self.hint)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        strip.tiles_changed.connect(self._on_strip_tiles_changed)
        self.resize(1000, 760)
        self.show_index(index)

    # --- what is shown ----------------------------------------------------------------

    def _take_tiles(self) -> None:
        self.items = [
            Shown(tile.media, tile.original, tile.problem, tile.video)
            for tile in self.strip.tiles
            if tile.media is not None
        ]

    def _on_strip_tiles_changed(self) -> None:
        """A video was read, or the post changed: show what the strip shows now (another
        post's media close the viewer)."""
        ids = [shown.media.id for shown in self.items]
        self._take_tiles()
        if [shown.media.id for shown in self.items] != ids:
            self.reject()
            return
        self.show_index(self.index)

    def current(self) -> Shown | None:
        return self.items[self.index] if 0 <= self.index < len(self.items) else None

    def show_index(self, index: int) -> None:
        if not self.items:
            self.reject()
            return
        self.index = max(0, min(index, len(self.items) - 1))
        shown = self.items[self.index]
        total = len(self.items)
        what = kind_word(shown.media.kind)
        self.setWindowTitle(
            translate("MediaViewer", "Media {n} of {total}").format(n=self.index + 1, total=total)
        )
        description = clean(shown.media.alt_text) or translate("MediaViewer", "no description")
        set_text(
            self.caption,
            translate("MediaViewer", "{n} of {total}: {kind}, {size} bytes — {description}").format(
                n=self.index + 1,
                total=total,
                kind=what,
                size=whole(shown.media.size_bytes),
                description=isolate(description),
            ),
        )
        self.buttons["previous"].setEnabled(self.index > 0)
        self.buttons["next"].setEnabled(self.index < total - 1)
        self._paint()

    def _picture(self, shown: Shown) -> QImage:
        return self.strip.shown(shown.original, shown.media)

    def _paint(self) -> None:
        shown = self.current()
        if shown is None:
            return
        revealed = self.strip.revealed
        self.buttons["reveal"].setText(
            translate("MediaViewer", "Hide") if revealed else translate("MediaViewer", "Reveal")
        )
        for button in ("zoom_in", "zoom_out", "fit"):
            self.buttons[button].setEnabled(shown.problem is None)
        if shown.problem is not None:  # our own words: never blurred, never zoomed
            self.picture.setPixmap(QPixmap())
            set_text(self.picture, shown.problem)
            self.picture.resize(self.area.viewport().size())
        else:
            image = self._picture(shown)
            scale = self.scale_for(image.size())
            size = QSize(
                max(1, round(image.width() * scale)), max(1, round(image.height() * scale))
            )
            set_text(self.picture, "")  # (and its description: no problem now)
            self.picture.setPixmap(
                QPixmap.fromImage(image).scaled(
                    size,
                    Qt.AspectRatioMode.KeepAspectRatio,
                    Qt.TransformationMode.SmoothTransformation,
                )
            )
            self.picture.resize(size)
        self._show_video(shown)

    def _show_video(self, shown: Shown) -> None:
        for old in self.frame_labels:
            old.deleteLater()
        self.frame_labels = []
        video = shown.video
        self.frames_row.setVisible(video is not None and bool(video.strip))
        if video is None:  # an image, or a video whose words the picture shows
            set_text(self.info, "")
            self.info.hide()
            return
        for at, frame in video.strip:
            tile = QLabel()
            tile.setTextFormat(Qt.TextFormat.PlainText)
            picture = self.strip.shown(frame, shown.media).scaledToWidth(
                FRAME_WIDTH, Qt.TransformationMode.SmoothTransformation
            )
            moment = duration_words(at, tenths=True)
            tile.setPixmap(QPixmap.fromImage(badged(picture, moment)))
            tile.setAccessibleName(translate("MediaViewer", "Frame at {time}").format(time=moment))
            self.frames_layout.insertWidget(len(self.frame_labels), tile)
            self.frame_labels.append(tile)
        sound = (
            translate("MediaViewer", "it has sound, which is never played")
            if video.has_sound
            else translate("MediaViewer", "no sound")
        )
        set_text(
            self.info,
            translate(
                "MediaViewer",
                "Video, {duration} long, {width} x {height} pixels, {codec}; not played, "
                "{sound}. The frames below are taken across its length.",
            ).format(
                duration=duration_words(video.duration),
                width=video.width,
                height=video.height,
                codec=video.codec,
                sound=sound,
            ),
        )
        self.info.show()

    def scale_for(self, size: QSize) -> float:
        """The scale the picture is painted at: the zoom, or what fits the window, never so
        large that the painted picture passes ``MAX_PAINTED`` pixels."""
        if self.zoom is None:
            room = self.area.viewport().size() - QSize(4, 4)
            scale = min(room.width() / max(1, size.width()), room.height() / max(1, size.height()))
            scale = max(MIN_ZOOM, min(scale, MAX_ZOOM))
        else:
            scale = self.zoom
        most = (MAX_PAINTED / max(1, size.width() * size.height())) ** 0.5
        return min(scale, most)

    # --- what the reviewer does -------------------------------------------------------

    def next(self) -> None:
        if self.index < len(self.items) - 1:
            self.zoom = None
            self.show_index(self.index + 1)

    def previous(self) -> None:
        if self.index > 0:
            self.zoom = None
            self.show_index(self.index - 1)

    def _zoom_by(self, factor: float) -> None:
        shown = self.current()
        if shown is None or shown.problem is not None:
            return
        now = self.scale_for(shown.original.size())
        self.zoom = max(MIN_ZOOM, min(now * factor, MAX_ZOOM))
        self._paint()

    def zoom_in(self) -> None:
        self._zoom_by(ZOOM_STEP)

    def zoom_out(self) -> None:
        self._zoom_by(1 / ZOOM_STEP)

    def fit(self) -> None:
        self.zoom = None
        self._paint()

    def toggle_reveal(self) -> None:
        self.strip.toggle_reveal()  # the strip and the viewer reveal together
        self._paint()

    def _move(self, dx: int, dy: int) -> None:
        h, v = self.area.horizontalScrollBar(), self.area.verticalScrollBar()
        h.setValue(h.value() + dx * max(20, h.pageStep() // 8))
        v.setValue(v.value() + dy * max(20, v.pageStep() // 8))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, mods = event.key(), event.modifiers()
        shift = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        k = Qt.Key
        actions = {
            k.Key_Right: (lambda: self._move(1, 0)) if shift else self.next,
            k.Key_Left: (lambda: self._move(-1, 0)) if shift else self.previous,
            k.Key_PageDown: self.next,
            k.Key_PageUp: self.previous,
            k.Key_Home: lambda: self.show_index(0),
            k.Key_End: lambda: self.show_index(len(self.items) - 1),
            k.Key_Plus: self.zoom_in,
            k.Key_Equal: self.zoom_in,
            k.Key_Minus: self.zoom_out,
            k.Key_0: self.fit,
            k.Key_Up: lambda: self._move(0, -1),
            k.Key_Down: lambda: self._move(0, 1),
            k.Key_Space: self.toggle_reveal,
        }
        action = actions.get(Qt.Key(key))
        if action is None:
            super().keyPressEvent(event)  # Esc closes
            return
        if not event.isAutoRepeat() or key not in (k.Key_Space,):
            action()
        event.accept()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Wheel and isinstance(event, QWheelEvent):
            steps = event.angleDelta().y() / 120
            if steps:
                self._zoom_by(ZOOM_STEP**steps)
            return True
        if event.type() == QEvent.Type.Resize and self.zoom is None:
            self._refit.start()  # once the layout has settled, not in the middle of a paint
        return super().eventFilter(watched, event)
