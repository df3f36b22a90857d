"""The look follows the reviewer's preferences everywhere, against the real service: a larger
text size grows the banner, the scores' figures and the worklist's rows; the dark theme
gives the whole application a dark palette (Fusion, which draws it on every platform); the
actions that take a post down or act on its author are marked unlike "no violation"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from reviewer_app.ui import preferences as P
from tests.support.servers import LiveServer


@pytest.fixture
def restore_look() -> Iterator[None]:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    font, palette, style = app.font(), app.palette(), app.style().name()
    yield
    app.setFont(font)
    app.setStyle(style)
    app.setPalette(palette)


def test_text_size_grows_banner_scores_and_rows(
    demo_server: LiveServer, desk_factory, restore_look
) -> None:
    desk = desk_factory(demo_server.url, queue="misinformation")
    window = desk.window
    window.notify("a notice")  # the banner shown
    desk.wait(lambda: window.scores.rows and window.scores.rows[0][2].text() != "")
    prefs = window.prefs
    prefs.set(P.TEXT_SIZE, 10)
    P.apply_look(prefs)
    desk.qtbot.wait(50)
    name, _bar, figure, _version = window.scores.rows[0]
    before = (
        window.banner.fontInfo().pointSize(),
        figure.fontInfo().pointSize(),
        name.fontInfo().pointSize(),
        window.worklist_view.verticalHeader().defaultSectionSize(),
    )
    prefs.set(P.TEXT_SIZE, 16)
    P.apply_look(prefs)
    desk.qtbot.wait(50)
    after = (
        window.banner.fontInfo().pointSize(),
        figure.fontInfo().pointSize(),
        name.fontInfo().pointSize(),
        window.worklist_view.verticalHeader().defaultSectionSize(),
    )
    assert before[:3] == (10, 10, 10), before
    assert after[:3] == (16, 16, 16), after
    assert after[3] > before[3] + 4, (before, after)  # the rows grow with the text


def test_dark_theme_applies_a_dark_palette(
    demo_server: LiveServer, desk_factory, restore_look
) -> None:
    desk = desk_factory(demo_server.url, queue="misinformation")
    prefs = desk.window.prefs
    prefs.set(P.THEME, "dark")
    P.apply_look(prefs)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    window_colour = app.palette().color(QPalette.ColorRole.Window)
    text_colour = app.palette().color(QPalette.ColorRole.WindowText)
    assert window_colour.lightness() < 80 < text_colour.lightness()
    assert app.style().name().lower() == "fusion"
    desk.qtbot.wait(50)
    shown = desk.window.post.palette().color(QPalette.ColorRole.Window)
    assert shown.lightness() < 80  # the widgets have it, not only the application
    prefs.set(P.THEME, "light")
    P.apply_look(prefs)
    assert app.palette().color(QPalette.ColorRole.Window).lightness() > 160


def test_destructive_actions_are_marked(demo_server: LiveServer, desk_factory) -> None:
    desk = desk_factory(demo_server.url, queue="hate-harassment")
    queue = desk.window.review.queue
    assert queue is not None
    buttons = desk.window.verdicts.buttons
    marked = {a.id for a in queue.config.actions if buttons[a.id].property("destructive")}
    kinds = {a.id: a.kind.value for a in queue.config.actions}
    assert marked, kinds
    assert all(kinds[i] in ("remove", "author") for i in marked), kinds
    keep = next(a.id for a in queue.config.actions if a.kind.value == "keep")
    assert not buttons[keep].property("destructive")
    remove = next(iter(marked))
    # it looks different: another text colour than "no violation"
    assert buttons[remove].styleSheet() and not buttons[keep].styleSheet()
