"""Media the platform marked sensitive stay blurred until revealed, whatever the reviewer's
"blur media" setting: with it off they were shown plain and unlabelled (nothing in the
client read the flag)."""

from __future__ import annotations

from reviewer_app.core.store import MISSING_MEDIA
from reviewer_app.protocol import Media, MediaKind
from reviewer_app.ui.media import MediaStrip
from tests.ui.test_widgets import checkerboard_png, pixel_stats


def test_sensitive_media_are_blurred_whatever_the_setting(qtbot) -> None:
    data = checkerboard_png()
    media = [
        Media(id="plain", kind=MediaKind.image, mime_type="image/png", size_bytes=len(data)),
        Media(
            id="marked",
            kind=MediaKind.image,
            mime_type="image/png",
            size_bytes=len(data),
            sensitive=True,
        ),
    ]
    strip = MediaStrip()
    qtbot.addWidget(strip)
    strip.set_defaults(blur=False, grey=False)

    def detail() -> list[float]:
        return [pixel_stats(t.pixmap().toImage())[1] for t in strip.tiles]

    strip.show_media(media, lambda _id: (data, "image/png"))
    plain, marked = detail()
    assert plain > 20 and marked < 8, (plain, marked)
    assert "sensitive" in strip.tiles[1].toolTip()
    strip.toggle_reveal()  # Space shows it as it is
    assert detail()[1] > 20

    strip.prepare(media, lambda _id: (data, "image/png"))  # drawn ahead: the same
    qtbot.waitUntil(lambda: not strip.preparing)
    strip.show_media(media, lambda _id: None)
    plain, marked = detail()
    assert plain > 20 and marked < 8, (plain, marked)


def test_a_file_the_service_no_longer_has_says_so(qtbot) -> None:
    """A 404 for a media file was kept as empty bytes and its tile said "This file is not
    an image this app can show"."""
    strip = MediaStrip()
    qtbot.addWidget(strip)
    gone = Media(id="gone", kind=MediaKind.image, mime_type="image/png", size_bytes=10)
    strip.show_media([gone], lambda _id: (b"", MISSING_MEDIA))
    assert strip.tiles[0].problem == "This media is no longer available on the service"
