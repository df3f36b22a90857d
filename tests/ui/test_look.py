"""The look follows the reviewer's preferences everywhere, against the real service: a larger
text size grows the banner, the scores' figures and the worklist's rows; the dark theme
gives the whole application a dark palette (Fusion, which draws it on every platform); the
actions that take a post down or act on its author are marked unlike "no violation"."""

from __future__ import annotations

import re
from contextlib import suppress
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, QSettings, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QLabel,
    QScrollBar,
    QStyle,
    QStyleFactory,
    QStyleOptionTab,
    QTabBar,
)
from pytestqt.exceptions import TimeoutError as QtBotTimeout

import reviewer_app.ui
from reviewer_app.ui import preferences as P
from reviewer_app.ui import theme
from reviewer_app.ui.style import TAB_PADDING, FlatScrollBars, make_style, style_name
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD
from tests.ui.fit import text_problems

UI = Path(reviewer_app.ui.__file__).parent


@pytest.fixture
def restore_look(_each_test_starts_with_qt_own_look: None) -> None:
    """The test changes the app's look: conftest's fixture (every UI test's) puts Qt's own
    font, palette and style back after it."""


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
        window.worklist_view.horizontalHeader().sectionSize(1),  # the State column
    )
    prefs.set(P.TEXT_SIZE, 16)
    P.apply_look(prefs)
    desk.qtbot.wait(50)
    after = (
        window.banner.fontInfo().pointSize(),
        figure.fontInfo().pointSize(),
        name.fontInfo().pointSize(),
        window.worklist_view.verticalHeader().defaultSectionSize(),
        window.worklist_view.horizontalHeader().sectionSize(1),
    )
    assert before[:3] == (10, 10, 10), before
    assert after[:3] == (16, 16, 16), after
    assert after[3] > before[3] + 4, (before, after)  # the rows grow with the text
    state = window.worklist_view.fontMetrics().horizontalAdvance("to review")
    assert after[4] > before[4] and after[4] >= state, (before, after)  # so do the columns


def test_a_leads_tables_keep_their_titles_whole_at_a_new_text_size(
    demo_server: LiveServer, desk_factory, restore_look
) -> None:
    """Columns are fitted to their titles when made: the reviewer's text size, changed in
    Settings, made them too narrow ("Decision of record" cut at 16 points)."""
    desk = desk_factory(demo_server.url, user=LEAD, queue="misinformation")
    window, qtbot = desk.window, desk.qtbot
    lead = window.lead
    assert lead is not None
    prefs = window.prefs
    window.resize(1920, 1016)
    window.show()
    window.show_mode(1)
    for size in (11, 16):
        prefs.set(P.TEXT_SIZE, size)
        P.apply_look(prefs)
        cut: list[str] = []
        for tab in range(lead.count()):
            lead.setCurrentIndex(tab)

            def titles_whole() -> bool:  # a tab's rows may come in after it is shown
                QApplication.processEvents()
                return not [p for p in text_problems(lead.currentWidget()) if "header" in p]

            with suppress(QtBotTimeout):
                qtbot.waitUntil(titles_whole, timeout=3_000)
            cut += [p for p in text_problems(lead.currentWidget()) if "header" in p]
        assert not cut, f"at {size} points: {cut}"
    window.show_mode(0)


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
    assert style_name(app.style()).lower() == "fusion"
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


def test_tones_follow_the_theme(demo_server: LiveServer, desk_factory, restore_look) -> None:
    """A destructive button and an error are readable on either palette: their colours come
    from the theme's tone, in its dark form on a dark palette, and back again."""
    desk = desk_factory(demo_server.url, queue="hate-harassment")
    queue = desk.window.review.queue
    assert queue is not None
    remove = next(a.id for a in queue.config.actions if a.kind.value == "remove")
    button = desk.window.verdicts.buttons[remove]
    error = QLabel("refused")
    theme.set_tone(error, theme.Tone.error)
    assert theme.Tone.destructive.light.fg in button.styleSheet()
    assert theme.Tone.error.light.fg in error.styleSheet()
    prefs = desk.window.prefs
    prefs.set(P.THEME, "dark")
    P.apply_look(prefs)
    assert theme.Tone.destructive.dark.fg in button.styleSheet()
    assert theme.Tone.error.dark.fg in error.styleSheet()
    prefs.set(P.THEME, "light")
    P.apply_look(prefs)
    assert theme.Tone.error.light.fg in error.styleSheet()


def test_a_strip_tone_leaves_what_is_inside_it_alone(qtbot) -> None:
    """A toned strip (the feedback notice, the break reminder) colours itself, not the labels
    and buttons inside it: those keep the palette's text colour on either theme."""

    class Strip(QFrame):
        pass

    strip = Strip()
    inside = QLabel("inside", strip)
    qtbot.addWidget(strip)
    theme.set_tone(strip, theme.Tone.info)
    strip.ensurePolished()
    inside.ensurePolished()
    assert strip.styleSheet().startswith("Strip {")
    words = inside.palette().color(QPalette.ColorRole.WindowText).name()
    assert words != theme.Tone.info.light.fg, words


def test_type_roles_grow_with_the_text_size(qtbot, restore_look, tmp_path: Path) -> None:
    """A title, a heading and a figure keep their step of the type scale at any text size
    (a title set at 10 pt was 16 pt for good: it did not grow)."""
    prefs = P.Preferences(QSettings(str(tmp_path / "look.ini"), QSettings.Format.IniFormat))
    title, heading = QLabel("On a break"), QLabel("Sample")
    qtbot.addWidget(title)
    qtbot.addWidget(heading)
    theme.set_type(title, theme.TypeRole.title)
    theme.set_type(heading, theme.TypeRole.heading)
    for size in (10, 16):
        prefs.set(P.TEXT_SIZE, size)
        P.apply_look(prefs)
        assert title.font().pointSizeF() == pytest.approx(size * 1.6)
        assert heading.font().pointSizeF() == pytest.approx(size * 1.15)
        assert heading.font().bold()
        assert theme.space(1) == round(4 * size / 10)


def test_colours_and_sizes_come_from_the_theme_only() -> None:
    """No widget module writes a colour, a point size or a style sheet of its own: one scale,
    one set of meaning colours (ui/theme.py). The palettes (preferences.py), the drawn
    placeholders (media.py) and the score bars (scores.py) paint, they do not style."""
    painting = {"theme.py", "preferences.py", "media.py", "scores.py"}
    found = []
    for path in sorted(UI.rglob("*.py")):
        if path.name in painting:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"#[0-9a-fA-F]{6}\b|setPointSize|setStyleSheet\(\"[^\"]", line):
                found.append(f"{path.relative_to(UI)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def _bar_pixels(value: int) -> tuple[QImage, QScrollBar]:
    bar = QScrollBar(Qt.Orientation.Vertical)
    bar.resize(14, 300)
    bar.setRange(0, 100)
    bar.setPageStep(20)
    bar.setValue(value)
    return bar.grab().toImage(), bar


@pytest.mark.parametrize("dark", [False, True])
def test_scroll_bars_are_flat_and_readable(qtbot, tmp_path: Path, restore_look, dark: bool) -> None:
    """Fusion's scroll bars are drawn flat (a gradient groove took about 0.5 ms a paint, at
    every verdict key): the handle stands out from its groove on either palette, sits where
    the value says, and the arrow buttons are still drawn."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    prefs = P.Preferences(QSettings(str(tmp_path / "look.ini"), QSettings.Format.IniFormat))
    prefs.set(P.THEME, "dark" if dark else "light")
    P.apply_look(prefs)
    assert isinstance(app.style(), FlatScrollBars)
    top, bar = _bar_pixels(0)
    bottom, _ = _bar_pixels(100)
    qtbot.addWidget(bar)
    x = bar.width() // 2
    groove_colour = QColor(top.pixel(x, bar.height() - 40))  # below the handle
    handle_colour = QColor(top.pixel(x, 40))  # on it
    assert abs(handle_colour.lightness() - groove_colour.lightness()) >= 30, (
        handle_colour.name(),
        groove_colour.name(),
    )
    # at the end of the range the handle is at the bottom, the top is groove
    assert QColor(bottom.pixel(x, bar.height() - 40)) == handle_colour
    assert QColor(bottom.pixel(x, 40)) == groove_colour
    # the arrow buttons: more than one colour in each
    for y in (3, bar.height() - 4):
        colours = {top.pixel(px, py) for px in range(bar.width()) for py in range(y - 3, y + 3)}
        assert len(colours) > 2, y


@pytest.mark.parametrize("shape", [QTabBar.Shape.RoundedNorth, QTabBar.Shape.RoundedWest])
def test_tabs_are_padded_half_of_fusions_with_their_titles_whole(
    qtbot, restore_look, shape: QTabBar.Shape
) -> None:
    """Each tab's title is padded by half of Fusion's padding, along the tab's length for
    tabs on top and on the side, and the style leaves the title all of its width inside the
    tab (a tab sized with less padding than its label was drawn with cut every title by 12
    px)."""
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    titles = ["Why queued", "Author", "Thread (3)", "Reports (12)"]
    sizes = {}
    for name, style in (("fusion", QStyleFactory.create("Fusion")), ("flat", make_style("Fusion"))):
        app.setStyle(style)
        bar = QTabBar()
        qtbot.addWidget(bar)
        bar.setShape(shape)
        for title in titles:
            bar.addTab(title)
        sizes[name] = [bar.tabSizeHint(i) for i in range(len(titles))]
        for i, title in enumerate(titles):
            option = QStyleOptionTab()
            bar.initStyleOption(option, i)
            option.rect = QRect(QPoint(0, 0), bar.tabSizeHint(i))  # as wide as it asks
            room = app.style().subElementRect(QStyle.SubElement.SE_TabBarTabText, option, bar)
            # (a side tab's text rect is given along its text, as if the tab were upright)
            assert room.width() >= bar.fontMetrics().horizontalAdvance(title), (name, title)
    fusion, flat = sizes["fusion"], sizes["flat"]
    space = QStyleFactory.create("Fusion").pixelMetric(QStyle.PixelMetric.PM_TabBarTabHSpace)
    trim = space - round(space * TAB_PADDING)
    assert trim > 0
    vertical = shape == QTabBar.Shape.RoundedWest
    for wide, narrow in zip(fusion, flat, strict=True):
        if vertical:
            assert (narrow.height(), narrow.width()) == (wide.height() - trim, wide.width())
        else:
            assert (narrow.width(), narrow.height()) == (wide.width() - trim, wide.height())


def test_a_score_over_its_threshold_is_red_and_bold_without_a_style_sheet(
    qtbot, tmp_path: Path, restore_look
) -> None:
    """A score's figure over its threshold is in the over tone's colour and bold, under it
    plain again, by its palette and font: no style sheet set and cleared from post to post
    (each re-polished the figure, the slowest keypresses' scores took ten times the usual).
    The colour follows the theme."""
    from reviewer_app.protocol import ClassifierScore
    from reviewer_app.ui.scores import ScoresPanel

    P.apply_look(P.Preferences(QSettings(str(tmp_path / "look.ini"), QSettings.Format.IniFormat)))
    panel = ScoresPanel()
    qtbot.addWidget(panel)
    panel.show()

    def score(value: float) -> list[ClassifierScore]:
        return [
            ClassifierScore(
                model="toxicity-xlmr",
                model_version="3",
                label="toxicity",
                score=value,
                threshold=0.8,
                spans=[],
            )
        ]

    def figure() -> QLabel:
        return panel.rows[0][2]

    def colour() -> str:
        return figure().palette().color(QPalette.ColorRole.WindowText).name()

    panel.show_scores(score(0.12))
    plain = colour()
    assert plain != theme.Tone.over.light.fg and not figure().font().bold()
    panel.show_scores(score(0.93))
    assert colour() == theme.Tone.over.light.fg and figure().font().bold()
    assert figure().styleSheet() == "" and theme.tone_of(figure()) is theme.Tone.over
    panel.show_scores(score(0.12))
    assert colour() == plain and not figure().font().bold()
    assert figure().styleSheet() == "" and theme.tone_of(figure()) is None
    panel.show_scores(score(0.93))
    prefs = P.Preferences(QSettings(str(tmp_path / "dark.ini"), QSettings.Format.IniFormat))
    prefs.set(P.THEME, "dark")
    P.apply_look(prefs)
    assert colour() == theme.Tone.over.dark.fg and figure().font().bold()
