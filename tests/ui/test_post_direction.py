"""A post's text reads in its own direction, against the real service (intake posts over
HTTP, offscreen): an Arabic or Hebrew post stands right-aligned, right to left (an Arabic
one that opens with a Latin word too); an English one left-aligned; one in no right-to-left
language follows its first strong letter (Unicode's rule, as Qt's ``LayoutDirectionAuto``);
the app's own layout direction never changes, and the text stays plain."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from reviewer_app.protocol import Role, UserCreate
from reviewer_app.ui.post_pane import PostText
from tests.support.intake import MISINFO, apply_queues, classifier, key_session, post, send
from tests.support.servers import LiveServer
from tests.ui.conftest import REVIEWER, Desk

ARABIC = "هذا منشور للاختبار"
ENGLISH = "This is a post for the test"
HEBREW_FIRST = "שלום, this post starts in Hebrew"
LATIN_FIRST = "iPhone جديد للبيع"
POSTS = {  # external id: (text, language the platform says)
    "arabic": (ARABIC, "ar"),
    "english": (ENGLISH, "en"),
    "hebrew-first": (HEBREW_FIRST, "en"),
    "latin-first": (LATIN_FIRST, "ar"),
}
LEFT, RIGHT = Qt.AlignmentFlag.AlignLeft, Qt.AlignmentFlag.AlignRight


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'direction.db'}").start()
    apply_queues(server)
    server.service.create_user(
        UserCreate(username=REVIEWER[0], password=REVIEWER[1], role=Role.reviewer)
    )
    platform = key_session(server, "feed-direction")
    for external_id, (text, language) in POSTS.items():
        assert (
            send(platform, "posts", [post(external_id, text, language=language)])[0]["status"]
            == "created"
        )
        assert send(platform, "signals", [classifier(external_id, 0.95)])[0]["status"] == (
            "created"
        )
    try:
        yield server
    finally:
        server.stop()


def shown(box: PostText) -> tuple[Qt.AlignmentFlag, Qt.LayoutDirection, float]:
    """How the box lays out its first paragraph: the alignment, the direction, and where its
    first line starts (the box's left edge is 0)."""
    option = box.document().defaultTextOption()
    block = box.document().firstBlock()
    box.blockBoundingRect(block)  # laid out at the box's width
    line = block.layout().lineAt(0)
    return option.alignment(), block.textDirection(), line.naturalTextRect().x()


def test_a_post_reads_in_its_own_direction_and_the_next_post_resets_it(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    desk = desk_factory(server.url, queue=MISINFO)
    window = desk.window
    desk.wait(lambda: len(window.worklist.rows) == len(POSTS), 20_000)
    ids = {}
    for row in window.worklist.rows:
        stored = window.review.sink.stored_item(row.item_id)
        assert stored is not None
        ids[stored.item.post.text] = row.item_id
    box = window.post.text
    app_direction = QApplication.layoutDirection()

    def open_post(text: str) -> tuple[Qt.AlignmentFlag, Qt.LayoutDirection, float]:
        if window.review.current is None or window.review.current.item.post.text != text:
            assert window.review.open(ids[text])
        desk.wait(lambda: box.toPlainText() == text, 5_000)
        return shown(box)

    width = box.viewport().width()
    align, direction, x = open_post(ARABIC)
    assert (align, direction) == (RIGHT, Qt.LayoutDirection.RightToLeft)
    assert x > width / 2  # its first line ends at the right edge
    align, direction, x = open_post(ENGLISH)  # the Arabic post's alignment does not stay
    assert (align, direction) == (LEFT, Qt.LayoutDirection.LeftToRight)
    assert x < width / 4
    align, direction, _x = open_post(HEBREW_FIRST)
    assert (align, direction) == (RIGHT, Qt.LayoutDirection.RightToLeft)
    # an Arabic post that opens with a Latin word reads right to left all the same
    align, direction, _x = open_post(LATIN_FIRST)
    assert (align, direction) == (RIGHT, Qt.LayoutDirection.RightToLeft)
    align, direction, _x = open_post(ARABIC)
    assert (align, direction) == (RIGHT, Qt.LayoutDirection.RightToLeft)
    # the window's own layout is not turned around, and the text is plain
    assert QApplication.layoutDirection() == app_direction == window.layoutDirection()
    assert box.layoutDirection() == app_direction
    assert box.toPlainText() == ARABIC and box.document().toRawText() == ARABIC


def test_a_post_of_no_letters_takes_its_languages_direction(qtbot) -> None:
    from reviewer_app.ui.longtext import QtText

    box = PostText()
    qtbot.addWidget(box)
    box.show_text(QtText("123 !!"), [], True)
    assert box.document().defaultTextOption().alignment() == RIGHT
    box.show_text(QtText("123 !!"), [], None)
    assert box.document().defaultTextOption().alignment() == LEFT


def test_the_pieces_of_a_long_text_keep_one_direction() -> None:
    """ "Show the whole text" cuts long lines into pieces, each a paragraph to Qt: in an
    Arabic post a piece that opened with a link or a Latin word was laid out left to right
    on its own. Cut pieces take the post's one direction."""
    from reviewer_app.ui.longtext import CHUNK, QtText, post_direction

    arabic = ("هذا منشور " * 150 + "https://example.com iPhone ") * 20
    cut = QtText(arabic, chunked=True)
    assert cut.text.count("\n") > 10, "cut into pieces"
    assert post_direction(cut, True) == (True, Qt.LayoutDirection.RightToLeft)
    assert post_direction(cut, None) == (True, Qt.LayoutDirection.RightToLeft)
    assert post_direction(QtText(arabic[: CHUNK // 2]), None) == (
        True,
        Qt.LayoutDirection.LayoutDirectionAuto,  # each paragraph its own way
    )
    english = QtText("A post in English, tagged Arabic by mistake")
    assert post_direction(english, True) == (False, Qt.LayoutDirection.LayoutDirectionAuto)
