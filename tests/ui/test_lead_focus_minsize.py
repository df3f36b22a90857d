"""The Lead workspace fits a 1024 px wide window in English, German and Spanish with the
Reviewers tab shown: the quality flags' thresholds row wraps instead of setting the
window's minimum width (on one line its Spanish words held the window at 1,269 px when it
was asked for 1,024)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer_app.ui import i18n
from reviewer_app.ui import preferences as P
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD
from tests.ui.test_look import restore_look  # noqa: F401 - a fixture

NARROW = 1024


@pytest.mark.parametrize("language", ["en", "de", "es"])
def test_the_reviewers_tab_fits_1024_px_in_each_language(
    demo_server: LiveServer,
    desk_factory,
    language: str,
    restore_look,  # noqa: F811
    tmp_path: Path,
    qapp: QApplication,
) -> None:
    installed = i18n.install_translators(qapp, language)
    try:
        desk = desk_factory(demo_server.url, user=LEAD)
        window, qtbot = desk.window, desk.qtbot
        lead = window.lead
        assert lead is not None
        window.show_mode(1)
        lead.setCurrentWidget(lead.reviewers)
        window.show()
        qtbot.wait(200)
        bar = lead.reviewers.thresholds
        assert bar.isVisible()
        # the window with Qt's own font, as the keyboard probe measured it (with the app's
        # 11-point text the Audits, Escalations and Search tabs need more than 1,024 px by
        # themselves: the last check below measures this tab alone at that size)
        hint = window.minimumSizeHint().width()
        assert hint <= NARROW, f"the window needs {hint} px, the thresholds {bar.minimumSizeHint()}"
        window.resize(NARROW, 700)
        qtbot.wait(100)
        assert window.width() == NARROW
        boxes = (bar.median, bar.distance, bar.jump, bar.minimum)
        for box in boxes:  # each threshold whole, inside the bar, beside its words
            assert box.isVisible() and box.width() >= box.minimumSizeHint().width()
            corner = box.mapTo(bar, box.rect().bottomRight())
            assert bar.rect().contains(corner), (box.objectName(), corner, bar.rect())
        bar.median.setFocus()
        for box in boxes[1:]:  # Tab goes along the thresholds in the order they read
            QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
            assert QApplication.focusWidget() is box

        # the app's own look (11-point text): the Reviewers tab still asks for less
        P.apply_look(
            P.Preferences(QSettings(str(tmp_path / "look.ini"), QSettings.Format.IniFormat))
        )
        qtbot.wait(100)
        assert lead.reviewers.minimumSizeHint().width() <= NARROW
    finally:
        for translator in installed:
            qapp.removeTranslator(translator)
