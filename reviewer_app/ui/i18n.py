"""Qt's translation system for the desktop app.

Every user-visible string is written as ``translate("Context", "Source text")`` with both
arguments literal, so ``pyside6-lupdate`` (``make translations``) finds it. A string with
values is translated as a template, then formatted: ``translate("Ctx", "{n} posts").format(
n=n)``. Data from the server or the user (post text, names, notes) is never translated.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

log = logging.getLogger("ui")

#: where the compiled catalogues live (package data: reviewer_app/ui/translations)
TRANSLATIONS_DIR = Path(__file__).with_name("translations")
#: languages with a catalogue; English is the source language
LANGUAGES = ("en", "de", "es")


def translate(context: str, text: str) -> str:
    """``text`` in the user's language (the source text when there is no translation)."""
    return QCoreApplication.translate(context, text)


def language_for(choice: str, system: QLocale | None = None) -> str:
    """The language to load for a preference value (``system``, ``en``, ``de``, ``es``)."""
    if choice in LANGUAGES:
        return choice
    locale = system or QLocale.system()
    for name in locale.uiLanguages():
        code = name.replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def install_translators(app: QCoreApplication, language: str) -> list[QTranslator]:
    """Load the app's catalogue and Qt's own (qtbase) for ``language``; English loads none.
    The translators are parented to ``app`` so they live as long as it does."""
    installed: list[QTranslator] = []
    if language == "en":
        return installed
    ours = QTranslator(app)
    if ours.load(f"reviewer_app_{language}", str(TRANSLATIONS_DIR)):
        app.installTranslator(ours)
        installed.append(ours)
    else:
        log.warning("no translation catalogue for %s in %s", language, TRANSLATIONS_DIR)
    qt = QTranslator(app)
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt.load(f"qtbase_{language}", qt_dir):
        app.installTranslator(qt)
        installed.append(qt)
    return installed


def QT_TRANSLATE_NOOP(context: str, text: str) -> str:  # the name lupdate looks for
    """Marks ``text`` for translation in ``context`` without translating it (for tables of
    words declared once and translated where they are shown, with ``translate``)."""
    return text
