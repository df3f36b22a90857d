"""Widgets on their own: media blurred and greyscaled by default (pixels), the reveal that
resets on the next post, every item model through qtmodeltester, the login dialog's errors
in plain words, accessible names, and the conflicts view."""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QSettings, Qt
from PySide6.QtGui import QColor, QImage, QMovie
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QListWidget,
    QPlainTextEdit,
    QStyle,
    QWidget,
)

from reviewer_app.core.credentials import Credentials
from reviewer_app.core.errors import AuthenticationRequired, NetworkError
from reviewer_app.core.store import WorklistRow
from reviewer_app.protocol import Media, MediaKind, Problem
from reviewer_app.ui import preferences as P
from reviewer_app.ui.dialogs import LoginDialog
from reviewer_app.ui.media import THUMB, MediaStrip
from reviewer_app.ui.messages import describe
from reviewer_app.ui.models import QueueListModel, WorklistModel
from tests.support.servers import LiveServer


def checkerboard_png() -> bytes:
    image = QImage(240, 160, QImage.Format.Format_RGB32)
    for y in range(160):
        for x in range(240):
            red = (x // 8 + y // 8) % 2 == 0
            image.setPixelColor(x, y, QColor(240, 40, 40) if red else QColor(10, 10, 90))
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(QByteArray(buffer.data()).data())


ROOT = Path(__file__).resolve().parents[2]
ANIMATED_GIF = ROOT / "reviewer_app" / "server" / "demo" / "media" / "sale_countdown.gif"


def pixel_stats(image: QImage) -> tuple[float, float]:
    """(largest colour spread in a pixel, standard deviation of brightness)."""
    spread, lightness = [], []
    for y in range(10, image.height() - 10, 7):
        for x in range(10, image.width() - 10, 7):
            c = image.pixelColor(x, y)
            spread.append(max(c.red(), c.green(), c.blue()) - min(c.red(), c.green(), c.blue()))
            lightness.append(c.lightness())
    return max(spread), statistics.pstdev(lightness)


def test_media_is_blurred_and_greyscaled_until_revealed(qtbot) -> None:
    strip = MediaStrip()
    qtbot.addWidget(strip)
    media = Media(id="m1", kind=MediaKind.image, mime_type="image/png", size_bytes=1)
    data = checkerboard_png()
    strip.show_media([media], lambda _id: (data, "image/png"))
    shown = strip.tiles[0].pixmap().toImage()
    colour, detail = pixel_stats(shown)
    assert colour <= 2, "greyscale: no colour left"
    assert detail < 8, "blurred: the checkerboard is gone"
    strip.toggle_reveal()
    colour, detail = pixel_stats(strip.tiles[0].pixmap().toImage())
    assert colour > 150 and detail > 20
    strip.show_media([media], lambda _id: (data, "image/png"))  # the next post
    assert not strip.revealed
    assert pixel_stats(strip.tiles[0].pixmap().toImage())[0] <= 2


def test_the_next_posts_images_are_drawn_ahead_and_placed_as_drawn(qtbot) -> None:
    """``prepare`` (run while the reviewer reads a post) decodes and obscures the next
    post's images off the GUI thread; showing that post then reads nothing and draws the
    same pixels. Drawn for other settings, or not yet in the store when prepared, they are
    drawn at the show."""
    strip = MediaStrip()
    qtbot.addWidget(strip)
    data = checkerboard_png()
    reads: list[str] = []

    def load(media_id: str) -> tuple[bytes, str] | None:
        reads.append(media_id)
        return None if media_id == "late" else (data, "image/png")

    media = [
        Media(id=n, kind=MediaKind.image, mime_type="image/png", size_bytes=1)
        for n in ("a", "b", "late")
    ]
    strip.prepare(media, load)
    assert reads == ["a", "b", "late"]
    qtbot.waitUntil(lambda: not strip.preparing)
    strip.show_media(media, load)
    assert reads == ["a", "b", "late", "late"], "only the one not prepared is read again"
    drawn = [t.pixmap().toImage() for t in strip.tiles[:2]]

    fresh = MediaStrip()
    qtbot.addWidget(fresh)
    fresh.show_media(media[:2], lambda _id: (data, "image/png"))
    assert [t.pixmap().toImage() for t in fresh.tiles] == drawn
    assert pixel_stats(drawn[0])[0] <= 2, "greyscale"
    assert strip.tiles[2].waiting

    strip.prepare(media[:1], load)
    qtbot.waitUntil(lambda: not strip.preparing)
    strip.set_defaults(blur=False, grey=False)  # the settings changed before the post
    reads.clear()
    strip.show_media(media[:1], load)
    assert reads == [], "decoded ahead"
    colour, detail = pixel_stats(strip.tiles[0].pixmap().toImage())
    assert colour > 150 and detail > 20, "drawn for the settings now, not the old ones"

    strip.show_media(media[:1], load)  # not prepared: read and drawn at the show
    assert reads == ["a"]

    strip.set_defaults(blur=True, grey=True)
    strip.toggle_reveal()  # the reviewer looks at this post's image...
    assert pixel_stats(strip.tiles[0].pixmap().toImage())[0] > 150
    strip.prepare(media[:1], load)  # ...while the next one's is drawn
    qtbot.waitUntil(lambda: not strip.preparing)
    strip.show_media(media[:1], load)
    assert not strip.revealed
    colour, detail = pixel_stats(strip.tiles[0].pixmap().toImage())
    assert colour <= 2 and detail < 8, "the next post's image is obscured"


def test_media_tiles_wrap_to_the_width_the_post_has(qtbot) -> None:
    """Two tiles side by side wanted more than the post's column has at 1280 px and cut
    the post's words off: the strip asks for one tile's width and puts the rest below."""
    strip = MediaStrip()
    qtbot.addWidget(strip)
    data = checkerboard_png()
    media = [
        Media(id=n, kind=MediaKind.image, mime_type="image/png", size_bytes=1)
        for n in ("a", "b", "c")
    ]
    strip.show_media(media, lambda _id: (data, "image/png"))
    assert strip.minimumSizeHint().width() <= THUMB.width()
    strip.resize(340, strip.sizeHint().height())
    strip.show()
    qtbot.waitUntil(lambda: strip._columns == 1)
    qtbot.waitUntil(lambda: strip.height() >= 3 * THUMB.height())
    assert len({t.y() for t in strip.tiles}) == 3, "one a row"
    assert all(t.geometry().right() < strip.width() for t in strip.tiles)
    strip.resize(3 * THUMB.width() + 40, strip.height())
    qtbot.waitUntil(lambda: len({t.y() for t in strip.tiles}) == 1)
    strip.show_media(media[:1], lambda _id: (data, "image/png"))  # fewer: the rest go
    assert len(strip.tiles) == 1
    assert strip.sizeHint().height() <= THUMB.height() + 10, "one row asked for"


def test_video_and_gif_never_play(qtbot) -> None:
    strip = MediaStrip()
    qtbot.addWidget(strip)
    video = Media(id="v", kind=MediaKind.video, mime_type="video/mp4", size_bytes=10)
    strip.show_media([video], lambda _id: (b"\x00" * 10, "video/mp4"))
    assert strip.tiles[0].original.width() > 0  # a tile that says what it is, no player
    data = ANIMATED_GIF.read_bytes()
    assert QMovie(str(ANIMATED_GIF)).frameCount() > 1
    gif = Media(id="g", kind=MediaKind.gif, mime_type="image/gif", size_bytes=len(data))
    strip.show_media([gif], lambda _id: (data, "image/gif"))
    strip.toggle_reveal()
    first = strip.tiles[0].pixmap().toImage()
    qtbot.wait(600)  # an animation would have moved on by now
    assert strip.tiles[0].pixmap().toImage() == first
    assert strip.findChildren(QMovie) == []
    assert strip.tiles[0].original == QImage(str(ANIMATED_GIF))  # the first frame only


def test_every_item_model_passes_qtmodeltester(qtmodeltester, demo_server: LiveServer) -> None:
    worklist = WorklistModel(clock=time.time)
    worklist.set_rows(
        [
            WorklistRow("itm-1", "q", "ready", time.time() + 90, False, None, None),
            WorklistRow("itm-2", "q", "decided", time.time() - 5, False, "pending", "remove"),
            WorklistRow("itm-3", "q", "decided", time.time() + 5, True, "conflict", "keep"),
        ]
    )
    qtmodeltester.check(worklist)
    from reviewer_app.core.api import ApiClient

    with ApiClient(demo_server.url) as api:
        api.login("reviewer", "review-desk-demo")
        queues = QueueListModel()
        queues.set_queues(api.queues().queues)
    assert queues.rowCount() >= 4
    qtmodeltester.check(queues)


def test_worklist_updates_move_only_the_rows_that_changed(qtmodeltester) -> None:
    """A decision, a refill and a sync state change arrive as row removals, insertions and
    cell changes, never a reset (which would lay out every row again on each keypress)."""
    later = time.time() + 90

    def row(n: int, state: str = "ready", status: str | None = None) -> WorklistRow:
        return WorklistRow(f"itm-{n}", "q", state, later, False, status, None)

    worklist = WorklistModel(clock=time.time)
    worklist.set_rows([row(n) for n in range(1, 6)])
    qtmodeltester.check(worklist)  # and it keeps checking every change below
    seen: list[tuple[str, int, int]] = []
    worklist.modelReset.connect(lambda: seen.append(("reset", 0, 0)))
    worklist.rowsRemoved.connect(lambda _p, a, b: seen.append(("removed", a, b)))
    worklist.rowsInserted.connect(lambda _p, a, b: seen.append(("inserted", a, b)))
    worklist.dataChanged.connect(lambda a, b: seen.append(("changed", a.row(), b.row())))

    updates = [
        [row(1, "decided", "pending"), *(row(n) for n in range(2, 6))],
        [*(row(n) for n in range(2, 6))],
        [*(row(n) for n in range(2, 6)), row(6), row(7)],
        [row(2), row(4), row(9), row(5, "skipped"), row(6), row(7)],
        [],
        [row(8)],
    ]
    expected = [
        [("changed", 0, 0)],
        [("removed", 0, 0)],
        [("inserted", 4, 5)],
        [("inserted", 3, 3), ("removed", 1, 1), ("changed", 3, 3)],
        [("removed", 0, 5)],
        [("inserted", 0, 0)],
    ]
    for rows, signals in zip(updates, expected, strict=True):
        seen.clear()
        worklist.set_rows(rows)
        assert sorted(seen) == sorted(signals)
        shown = [worklist.index(r, 0).data() for r in range(worklist.rowCount())]
        assert shown == [r.item_id for r in rows]
        assert [worklist.index(r, 1).data() for r in range(len(rows))] == [
            {"ready": "to review", "decided": "decided", "skipped": "skipped"}[r.state]
            for r in rows
        ]

    seen.clear()
    worklist.set_current("itm-8")
    assert seen == [("changed", 0, 0)]
    assert worklist.index(0, 0).data() == "◀ itm-8"
    # the Item column names the author and the post's first words, not an opaque id
    worklist.describe("itm-8", "maya_reads", "Polls   close\nat 6 " + "word " * 30)
    shown = worklist.index(0, 0).data()
    assert shown.startswith("◀ @\u2068maya_reads\u2069: \u2068Polls close at 6 word")
    assert shown.endswith("…\u2069") and "itm-8" in worklist.index(0, 0).data(
        Qt.ItemDataRole.ToolTipRole
    )


def test_conflicts_model_passes_qtmodeltester(qtmodeltester, qtbot, tmp_path) -> None:
    from tests.ui.conftest import conflict_store

    store = conflict_store(tmp_path)
    from reviewer_app.ui.models import ConflictsModel

    model = ConflictsModel()
    model.set_rows(store.conflicts())
    assert model.rowCount() == 1
    qtmodeltester.check(model)


def test_login_errors_say_what_happened_and_what_to_do(qtbot, tmp_path) -> None:
    prefs = P.Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
    attempts = []
    dialog = LoginDialog(prefs, lambda *a: attempts.append(a))
    qtbot.addWidget(dialog)
    dialog.server.setText("https://review.example")
    dialog.username.setText("ana")
    dialog.password.setText("secret")
    dialog._on_login_clicked()
    assert attempts == [("https://review.example", "ana", "secret")]
    assert not dialog.buttons.isEnabled(), "no second attempt while one runs"
    wrong = AuthenticationRequired(
        401,
        Problem(
            title="x", status=401, code="bad_credentials", detail="Wrong user name or password."
        ),
    )
    message = describe(wrong, during="logging in")
    dialog.show_error(message.text())
    assert not dialog.error.isHidden() and "Wrong user name or password" in dialog.error.text()
    assert dialog.buttons.isEnabled()
    down = describe(NetworkError("Could not connect to https://review.example (refused)."))
    assert "cannot be reached" in down.title and "Check" in down.next_step


def test_login_dialog_logs_in_for_real(demo_server: LiveServer, qtbot, tmp_path) -> None:
    from reviewer_app.ui.app import run_login
    from tests.support.keyring_memory import MemoryKeyring

    prefs = P.Preferences(QSettings(str(tmp_path / "p.ini"), QSettings.Format.IniFormat))
    prefs.set(P.SERVER, demo_server.url)
    prefs.set(P.USERNAME, "reviewer")
    windows = []
    dialog = run_login(prefs, Credentials(MemoryKeyring()), windows.append)
    dialog.password.setText("not the password")
    dialog._on_login_clicked()
    qtbot.waitUntil(lambda: not dialog.error.isHidden(), timeout=10_000)
    assert "Wrong user name or password" in dialog.error.text()
    dialog.password.setText("review-desk-demo")
    dialog._on_login_clicked()
    qtbot.waitUntil(lambda: bool(windows), timeout=20_000)
    window = windows[0]
    try:
        assert window.session.user.username == "reviewer"
        qtbot.waitUntil(lambda: window.review.current is not None, timeout=20_000)
        unnamed = [
            type(w).__name__
            for w in window.findChildren(QWidget)
            if isinstance(w, QAbstractButton | QComboBox | QListWidget | QPlainTextEdit)
            and w.isVisibleTo(window)
            and not w.accessibleName()
        ]
        assert unnamed == [], "every control has an accessible name"
    finally:
        window.shutdown()
        window.close()


def test_context_tabs_fill_the_open_tab_now_and_the_others_when_opened(
    demo_server: LiveServer, qtbot
) -> None:
    from reviewer_app.core.api import ApiClient
    from reviewer_app.ui.context_panels import ContextPanels, author_text, reports_text

    with ApiClient(demo_server.url) as api:
        api.login("reviewer", "review-desk-demo")
        grant = api.claim("misinformation", 2, 60)
        api.release([leased.lease_token for leased in grant.items])
    first, second = (leased.item for leased in grant.items)
    panels = ContextPanels()
    qtbot.addWidget(panels)
    reports = next(i for i, (t, _r) in enumerate(panels.TABS) if t == "Reports")
    panels.show_item(first)
    panels.setCurrentIndex(reports)
    assert panels.boxes["Reports"].toPlainText() == reports_text(first)
    panels.show_item(second)  # the open tab follows at once
    assert panels.boxes["Reports"].toPlainText() == reports_text(second)
    assert panels.tabText(reports) == f"Reports ({second.reports.total})"
    assert panels.boxes["Author"].toPlainText() != author_text(second)  # not yet: closed tab
    panels.setCurrentIndex(1)
    assert panels.boxes["Author"].toPlainText() == author_text(second)
    panels.show_item(None)
    assert panels.text_of("Thread") == "" and panels.boxes["Author"].toPlainText() == ""


def test_a_label_turns_selectable_under_the_pointer_and_plain_again(qtbot) -> None:
    """The app's labels (``plain.label``) are selectable with the mouse: they turn so when
    the pointer comes over them, and plain again (cheap to lay out) when it leaves with
    nothing selected; a selection made stays until the next text."""
    from PySide6.QtCore import QEvent, QPoint, QPointF
    from PySide6.QtGui import QContextMenuEvent, QEnterEvent
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QMenu

    from reviewer_app.ui.plain import label

    def selectable() -> bool:
        return bool(shown.textInteractionFlags() & Qt.TextInteractionFlag.TextSelectableByMouse)

    shown = label("@someone: a post's first words, to copy", wrap=False)
    assert not selectable()
    qtbot.addWidget(shown)
    shown.show()
    qtbot.waitExposed(shown)  # (the pointer may be over it now: the window is at 0, 0)

    def enter() -> None:
        at = QPointF(2, 2)
        QApplication.sendEvent(shown, QEnterEvent(at, at, shown.mapToGlobal(at)))

    def leave() -> None:
        QApplication.sendEvent(shown, QEvent(QEvent.Type.Leave))

    enter()
    assert selectable()
    leave()
    assert not selectable()
    assert not shown.hasSelectedText()

    enter()  # then the mouse selects (a drag along the text)
    middle = shown.height() // 2
    QTest.mousePress(shown, Qt.MouseButton.LeftButton, pos=QPoint(1, middle))
    QTest.mouseMove(shown, QPoint(shown.width() // 2, middle))
    QTest.mouseRelease(shown, Qt.MouseButton.LeftButton, pos=QPoint(shown.width() // 2, middle))
    assert shown.hasSelectedText() and shown.selectedText().startswith("@some")
    leave()
    assert selectable()  # the selection is kept
    assert shown.hasSelectedText()
    shown.setText("the next post's words")
    enter()
    leave()
    assert not selectable()

    # its context menu (Copy, Select All) works: the menu takes the pointer, a leave that
    # must not take away the text the menu's actions work on
    enter()
    at = QPoint(3, middle)
    QApplication.sendEvent(
        shown, QContextMenuEvent(QContextMenuEvent.Reason.Mouse, at, shown.mapToGlobal(at))
    )
    menus = [m for m in shown.findChildren(QMenu) if m.isVisible()]
    assert len(menus) == 1
    leave()
    chosen = next(a for a in menus[0].actions() if "Select All" in a.text().replace("&", ""))
    chosen.trigger()
    menus[0].close()
    qtbot.waitUntil(lambda: not shown.findChildren(QMenu))  # (the menu deletes itself)
    assert shown.selectedText() == "the next post's words"


def test_the_worklist_holds_a_due_repaint_until_released(qtbot) -> None:
    """``WorklistView.hold_paint`` keeps a due repaint off the screen (the rows on screen
    stay) until ``release_paint``; with no repaint due it holds nothing."""
    from reviewer_app.ui.window_parts import WorklistView

    later = time.time() + 90
    painted: list[int] = []

    class Counting(WorklistModel):
        def data(self, index, role=Qt.ItemDataRole.DisplayRole):  # type: ignore[no-untyped-def]
            if role == Qt.ItemDataRole.DisplayRole:
                painted.append(index.row())
            return super().data(index, role)

    model = Counting(clock=time.time)
    view = WorklistView()
    view.setModel(model)
    qtbot.addWidget(view)
    view.resize(420, 400)
    model.set_rows(
        [WorklistRow(f"itm-{n}", "q", "ready", later, False, None, None) for n in range(8)]
    )
    view.show()
    qtbot.waitExposed(view)
    qtbot.waitUntil(lambda: not view.paint_due and bool(painted))

    view.hold_paint()  # nothing due: nothing held
    assert not view.held

    painted.clear()
    model.tick()  # the countdown column changes: a repaint is due
    qtbot.waitUntil(lambda: bool(painted))  # unheld, it is painted
    assert not view.paint_due

    for change in (model.tick, lambda: model.set_rows(model.rows[2:])):
        painted.clear()
        change()
        assert view.paint_due
        view.hold_paint()
        assert view.held
        qtbot.wait(150)
        assert painted == []  # held: not painted
        view.release_paint()
        qtbot.waitUntil(lambda: bool(painted))
        assert not view.held and not view.paint_due


def test_a_narrow_item_column_cuts_its_text_where_the_cell_ends(qtbot) -> None:
    """One line a row, cut at the cell's end: the Item column of a 1280 px window is some
    65 px, and with Qt's word wrap the current row's "◀ @handle: words" showed "◀ …" (the
    handle went to a line the row has no room for). Measured in the painted pixels."""
    from reviewer_app.ui.window_parts import WorklistView

    model = WorklistModel(clock=time.time)
    view = WorklistView()
    view.setModel(model)
    qtbot.addWidget(view)
    model.set_rows([WorklistRow("itm-1", "q", "ready", time.time() + 90, False, None, None)])
    model.describe("itm-1", "weather_watch", "Tornado warning for the whole county tonight")
    model.set_current("itm-1")
    view.resize(420, 200)
    view.show()
    qtbot.waitExposed(view)
    view.fit_columns()
    view.setColumnWidth(0, 70)
    # one line high, as the window makes its rows (MainWindow._fit_rows)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().lineSpacing() + 6)
    cell = view.visualRect(model.index(0, 0))
    image = view.viewport().grab(cell).toImage()
    background = image.pixelColor(image.width() - 1, image.height() // 2)

    def inked(x: int) -> bool:
        return any(
            abs(image.pixelColor(x, y).lightness() - background.lightness()) > 60
            for y in range(image.height())
        )

    ink = [x for x in range(image.width()) if inked(x)]
    assert ink and ink[-1] > 0.6 * image.width(), (
        f"the text ends at {ink[-1] if ink else 0} of {image.width()} px: cut at a word"
    )


def test_a_score_names_its_label_in_words(qtbot) -> None:
    """A classifier's label code in words ("graphic violence"), the model by its name; a
    label that is no code stays as it came, isolated."""
    from reviewer_app.protocol import ClassifierScore
    from reviewer_app.ui.plain import isolate
    from reviewer_app.ui.scores import ScoresPanel

    panel = ScoresPanel()
    qtbot.addWidget(panel)
    panel.show_scores(
        [
            ClassifierScore(
                model="nsfw-vision",
                model_version="5.1",
                label="graphic_violence",
                score=0.9,
                threshold=0.85,
            ),
            ClassifierScore(
                model="x", model_version="1", label="\u202eevil", score=0.1, threshold=0.5
            ),
        ]
    )
    name, bar, _figure, _version = panel.rows[0]
    assert name.text() == f"graphic violence ({isolate('nsfw-vision')})"
    assert bar.accessibleName().startswith(f"graphic violence by {isolate('nsfw-vision')} ")
    assert panel.rows[1][0].text().startswith(isolate("\u202eevil"))


def test_long_titles_of_a_wide_table_go_on_two_lines(qtbot) -> None:
    """The Wellbeing table's titles on two or three lines: its columns about half as wide as
    with each title on one line (it scrolled sideways at 1280 px); a screen reader and the
    row figures still get each title on one line (``title``, which the row figures use too)."""
    from reviewer_app.ui.lead.exposure import ExposureModel
    from reviewer_app.ui.lead.stats_views import sortable, table_view
    from reviewer_app.ui.models import two_lines

    assert two_lines("Median handle") == "Median\nhandle"
    assert two_lines("Posts this shift") == "Posts\nthis shift"
    # no line over 11 characters where three lines can do it, the longest line shortest
    assert two_lines("High-harm posts this shift") == "High-harm\nposts\nthis shift"
    assert two_lines("Break minutes this shift") == "Break\nminutes\nthis shift"
    assert two_lines("Appeals upheld / reversed") == "Appeals\nupheld /\nreversed"  # not "/ r…"
    assert two_lines("Reviewer") == "Reviewer"  # short: one line
    assert two_lines("p90 handle") == "p90 handle"
    assert two_lines("Unbreakablelongtitle") == "Unbreakablelongtitle"  # no space
    # a long word breaks where its translation puts a soft hyphen, and only there
    assert two_lines("Überein\u00adstimmung") == "Überein-\nstimmung"
    assert two_lines("Aktions\u00admix") == "Aktionsmix"  # short: whole, the mark gone
    assert max(map(len, two_lines("a " * 40).split("\n"))) == 27  # never over three lines
    model = ExposureModel()
    view = table_view("exposure", "Exposure")
    qtbot.addWidget(view)
    view.setModel(sortable(model, view))
    view.resize(1200, 300)
    view.show()
    qtbot.waitExposed(view)
    header = view.horizontalHeader()
    column = ExposureModel.HEADERS.index("High-harm posts this shift")
    shown = model.headerData(column, Qt.Orientation.Horizontal)
    assert shown == "High-harm\nposts\nthis shift"
    spoken = model.headerData(column, Qt.Orientation.Horizontal, Qt.ItemDataRole.AccessibleTextRole)
    assert spoken == model.title(column) == "High-harm posts this shift"
    metrics = header.fontMetrics()
    one_line = metrics.horizontalAdvance("High-harm posts this shift")
    assert header.sectionSize(column) < one_line  # the title on two lines, narrower
    assert header.height() >= 3 * metrics.lineSpacing()  # and the header has room for all


def test_a_translated_title_breaks_at_its_soft_hyphen_and_is_read_whole(qapp) -> None:
    """The German catalogue marks where "Übereinstimmung" may break: the header shows
    "Überein-" over "stimmung"; a screen reader and the row figures get the word whole."""
    from reviewer_app.ui import i18n
    from reviewer_app.ui.lead.stats_views import ReviewerStatsModel

    installed = i18n.install_translators(qapp, "de")
    try:
        model = ReviewerStatsModel()
        column = ReviewerStatsModel.HEADERS.index("Agreement")
        horizontal = Qt.Orientation.Horizontal
        assert model.headerData(column, horizontal) == "Überein-\nstimmung"
        spoken = model.headerData(column, horizontal, Qt.ItemDataRole.AccessibleTextRole)
        assert spoken == model.title(column) == "Übereinstimmung"
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)


def test_only_the_sorted_column_keeps_room_for_the_sort_arrow(qtbot) -> None:
    """Qt sized every section of a sortable header as if the sort arrow were in it, and as a
    square of the header's height: the Reviewers table's twelve columns were about 400 px
    wider than their titles and scrolled sideways at 1280 px. Now the sorted column alone
    has the arrow's room, and a column the sort moves to widens to it."""
    from PySide6.QtWidgets import QHeaderView

    from reviewer_app.ui.lead.stats_views import ReviewerStatsModel, sortable, table_view
    from reviewer_app.ui.plain import TitleHeader, fit_columns

    model = ReviewerStatsModel()
    view = table_view("figures", "Figures")
    qtbot.addWidget(view)
    view.setModel(sortable(model, view))
    view.sortByColumn(1, Qt.SortOrder.DescendingOrder)
    view.resize(1200, 300)
    view.show()
    qtbot.waitExposed(view)
    fit_columns(view)
    header = view.horizontalHeader()
    assert isinstance(header, TitleHeader) and header.isSortIndicatorShown()
    assert view.isSortingEnabled() and header.sectionsClickable()  # what it had, kept
    metrics = header.fontMetrics()
    kappa = ReviewerStatsModel.HEADERS.index("Kappa")
    title = metrics.horizontalAdvance("Kappa")
    margin = header.style().pixelMetric(QStyle.PixelMetric.PM_HeaderMargin, None, header)
    arrow = header.arrow_room(header.height())
    assert arrow > 0
    assert title + 2 * margin <= header.sectionSize(kappa) < title + 2 * margin + arrow
    plain = QHeaderView(Qt.Orientation.Horizontal)  # Qt's own sizing, for comparison
    plain.setModel(view.model())
    plain.setSortIndicatorShown(True)
    qtbot.addWidget(plain)
    assert (
        sum(header.sectionSizeHint(c) for c in range(header.count()))
        < sum(plain.sectionSizeHint(c) for c in range(plain.count())) - 8 * arrow
    )
    header.setSortIndicator(kappa, Qt.SortOrder.AscendingOrder)  # a click on its title
    assert header.sectionSize(kappa) >= title + 2 * margin + arrow


def test_the_post_box_asks_for_the_lines_its_text_takes(qtbot) -> None:
    """A short post's box asks for its few lines (Qt's fixed 192 px left it mostly empty and
    pushed the link below the fold at 1280 x 800), a long one's for ten (it grows into the
    room its pane has to spare besides); never fewer than three."""
    from reviewer_app.ui.longtext import QtText
    from reviewer_app.ui.post_pane import POST_LINES, PostText

    box = PostText()
    qtbot.addWidget(box)
    box.resize(360, 300)
    box.show()
    qtbot.waitExposed(box)
    line = box.fontMetrics().lineSpacing()

    def asked(text: str) -> int:
        box.show_text(QtText(text), [], None)
        return box.sizeHint().height()

    least, most = POST_LINES
    one = asked("A short post.")
    assert least * line <= one < (least + 2) * line
    four = asked("\n".join(["A line of its own."] * 4))
    assert four - one == line  # a line more than the least, a line higher
    long = asked("word " * 2_000)
    assert most * line <= long < (most + 2) * line
    assert asked("A short post again.") == one


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_every_state_and_sync_word_fits_its_worklist_column(qtbot, qapp, language: str) -> None:
    """Each word the State and Sync columns show fits its column whole, in each language
    ("decided (keep)" and "waiting to send" were cut to "decide…" and "wait…"); a decided
    row names its action in words in its tooltip and to a screen reader."""
    from reviewer_app.ui import i18n
    from reviewer_app.ui.plain import isolate
    from reviewer_app.ui.window_parts import PADDING, WorklistView

    states = [("ready", None, None), ("skipped", None, None)] + [
        ("decided", status, "label_reduce")
        for status in ("pending", "accepted", "conflict", "rejected")
    ]
    installed = i18n.install_translators(qapp, language)
    try:
        model = WorklistModel(clock=time.time)
        view = WorklistView()
        view.setModel(model)
        qtbot.addWidget(view)
        model.set_rows(
            [
                WorklistRow(f"itm-{n}", "q", state, time.time() + 90, False, status, action)
                for n, (state, status, action) in enumerate(states)
            ]
        )
        view.resize(330, 300)
        view.show()
        qtbot.waitExposed(view)
        view.fit_columns()
        metrics = view.fontMetrics()
        for row in range(model.rowCount()):
            for column in (1, 2, 3):
                text = model.index(row, column).data()
                room = view.columnWidth(column) - PADDING
                assert metrics.horizontalAdvance(text) <= room, (language, text, room)
        decided = model.index(2, 1)
        assert "label reduce" in decided.data(Qt.ItemDataRole.ToolTipRole)
        assert "label reduce" in decided.data(Qt.ItemDataRole.AccessibleTextRole)
        assert "label_reduce" not in decided.data()
        # by its label on the row's queue when the queue is known (isolated: it is data)
        hostile = "Label and reduce \u202e"
        model.action_labels = lambda queue_id: (
            {"label_reduce": hostile} if queue_id == "q" else None
        )
        for role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            assert f": {isolate(hostile)}" in decided.data(role)
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
