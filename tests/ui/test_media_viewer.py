"""The media viewer and video, against the real service (intake uploads over HTTP,
offscreen): a post with an image, a WebM and an MP4 with sound, made here with PyAV. Its
videos show a poster frame with their duration (read off the GUI thread), never "Not
played here."; V opens the viewer, which keeps blur and greyscale until Space, zooms with
keys and the wheel, goes to the next and previous medium with the arrows and closes with
Esc — all without the mouse."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QImage, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer_app.protocol import MediaKind, Role, UserCreate
from reviewer_app.ui.media_viewer import MediaViewer
from tests.support.api import ApiSession
from tests.support.intake import MISINFO, apply_queues, classifier, key_session, post, send
from tests.support.servers import LiveServer
from tests.support.video import make_video
from tests.ui.conftest import REVIEWER, Desk

K = Qt.Key


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'viewer.db'}").start()
    apply_queues(server)
    server.service.create_user(
        UserCreate(username=REVIEWER[0], password=REVIEWER[1], role=Role.reviewer)
    )
    try:
        yield server
    finally:
        server.stop()


def upload(platform: ApiSession, content: bytes, mime: str) -> str:
    response = platform.post("/intake/media", data=content, headers={"Content-Type": mime})
    assert response.status_code == 201, response.text
    assert response.json()["mime_type"] == mime
    return str(response.json()["media_id"])


def colour_png(width: int = 300, height: int = 200) -> bytes:
    """A PNG in colour (red to blue), so greyscale shows."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    for x in range(width):
        for y in range(height):
            image.setPixel(x, y, 0xFF000000 | ((x * 255 // width) << 16) | (y * 255 // height))
    from PySide6.QtCore import QBuffer, QIODevice

    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data().data())


def is_grey(image: QImage) -> bool:
    image = image.convertToFormat(QImage.Format.Format_RGB32)
    for x in range(0, image.width(), max(1, image.width() // 16)):
        for y in range(0, image.height(), max(1, image.height() // 16)):
            c = image.pixelColor(x, y)
            if abs(c.red() - c.green()) > 2 or abs(c.green() - c.blue()) > 2:
                return False
    return True


@pytest.fixture
def media_post(server: LiveServer) -> None:
    platform = key_session(server, "feed-media")
    media = [
        {"media_id": upload(platform, colour_png(), "image/png"), "alt_text": "A chart"},
        {
            "media_id": upload(platform, make_video("webm", seconds=3.0), "video/webm"),
            "alt_text": "Street at night",
            "sensitive": True,
        },
        {
            "media_id": upload(platform, make_video("mp4", seconds=1.0, sound=True), "video/mp4"),
            "alt_text": "",
        },
    ]
    body = post("media-post", "Look at this", media=media)
    assert send(platform, "posts", [body])[0]["status"] == "created"
    assert send(platform, "signals", [classifier("media-post", 0.95)])[0]["status"] == "created"


def open_on_media(desk: Desk) -> None:
    strip = desk.window.post.media
    desk.wait(lambda: len(strip.tiles) == 3)
    desk.wait(lambda: all(desk.window.store.media(t.media.id) for t in strip.tiles))
    desk.window.post.show_item(desk.window.review.current.item, desk.window.store.media)
    desk.wait(lambda: not strip.pending and all(t.problem is None for t in strip.tiles))


def test_videos_show_poster_duration_and_frames_and_the_viewer_is_keyboard_only(
    server: LiveServer, media_post: None, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(server.url, queue=MISINFO)
    window = desk.window
    open_on_media(desk)
    strip = window.post.media
    image, webm, mp4 = strip.tiles
    assert [t.media.kind for t in strip.tiles] == [
        MediaKind.image,
        MediaKind.video,
        MediaKind.video,
    ]
    # a video's tile is its poster with its duration, never "Not played here."
    assert webm.video is not None and mp4.video is not None
    assert (webm.video.codec, round(webm.video.duration or 0)) == ("vp8", 3)
    assert (mp4.video.codec, mp4.video.has_sound) == ("h264", True)
    assert len(webm.video.strip) == 6
    assert "0:03" in webm.accessibleName() and "Not played" not in webm.accessibleName()
    assert not strip.revealed and is_grey(webm.pixmap().toImage())

    window.setFocus()
    desk.press(K.Key_V)  # the keyboard opens the viewer on the first medium
    desk.wait(
        lambda: isinstance(window.post.viewer, MediaViewer) and window.post.viewer.isVisible()
    )
    viewer = window.post.viewer
    assert viewer is not None
    desk.wait(lambda: QApplication.activeWindow() is viewer, 5_000)
    assert viewer.index == 0 and viewer.windowTitle() == "Media 1 of 3"
    assert "A chart" in viewer.caption.text()
    picture = viewer.picture.pixmap().toImage()
    assert is_grey(picture)  # still greyscale (and blurred) until revealed

    def key(k: Qt.Key, mods: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        QTest.keyClick(viewer, k, mods)

    # zoom: keys, then the wheel, then back to fit
    fitted = viewer.picture.size()
    key(K.Key_Plus)
    assert viewer.zoom is not None and viewer.picture.width() > fitted.width()
    key(K.Key_Minus)
    key(K.Key_Minus)
    assert viewer.picture.width() < fitted.width()
    before = viewer.picture.width()
    wheel = QWheelEvent(
        QPointF(50, 50),
        QPointF(viewer.mapToGlobal(QPoint(50, 50))),
        QPoint(0, 0),
        QPoint(0, 240),  # two notches up
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(viewer.area.viewport(), wheel)
    assert viewer.picture.width() > before
    key(K.Key_0)
    assert viewer.zoom is None and viewer.picture.size() == fitted

    # Space reveals in the viewer and the strip alike; again hides
    key(K.Key_Space)
    assert strip.revealed and not is_grey(viewer.picture.pixmap().toImage())
    key(K.Key_Space)
    assert not strip.revealed and is_grey(viewer.picture.pixmap().toImage())

    # next: the WebM, with its frames across its length, still greyscale
    key(K.Key_Right)
    assert viewer.index == 1 and viewer.windowTitle() == "Media 2 of 3"
    assert viewer.frames_row.isVisible() and len(viewer.frame_labels) == 6
    assert all(is_grey(label.pixmap().toImage()) for label in viewer.frame_labels)
    assert "0:03" in viewer.info.text() and "not played" in viewer.info.text()
    assert viewer.info.textFormat() == Qt.TextFormat.PlainText
    key(K.Key_End)
    assert viewer.index == 2 and "it has sound, which is never played" in viewer.info.text()
    key(K.Key_Right)  # the last stays the last
    assert viewer.index == 2
    key(K.Key_Left)
    key(K.Key_PageUp)
    assert viewer.index == 0 and not viewer.frames_row.isVisible()
    key(K.Key_Escape)
    desk.wait(lambda: not viewer.isVisible(), 5_000)
    assert strip.tiles[0] is image  # the post is still on screen, undecided


def test_a_tile_clicked_opens_the_viewer_on_it(
    server: LiveServer, media_post: None, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(server.url, queue=MISINFO)
    open_on_media(desk)
    strip = desk.window.post.media
    QTest.mouseClick(strip.tiles[2], Qt.MouseButton.LeftButton)
    viewer = desk.window.post.viewer
    assert viewer is not None and viewer.index == 2 and viewer.isVisible()
    viewer.buttons["previous"].click()
    assert viewer.index == 1
    viewer.buttons["close"].click()
    assert not viewer.isVisible()
