"""The desktop's own settings, declared once and stored with QSettings; the core's
(prefetch, undo window) live in the local store and are edited through the same dialog."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import QApplication


@dataclass(frozen=True)
class Preference:
    name: str
    type: type
    default: Any
    description: str


SERVER = Preference("server", str, "", "Server address used at login")
USERNAME = Preference("username", str, "", "User name used at login")
BLUR = Preference("media/blur", bool, True, "Blur media until revealed")
GREY = Preference("media/greyscale", bool, True, "Show media in greyscale until revealed")
THEME = Preference("theme", str, "system", "Colour theme: light, dark or system")
TEXT_SIZE = Preference("text_size", int, 11, "Text size in points")
LANGUAGE = Preference(
    "language", str, "system", "Language of the app: system, en, de or es (at the next start)"
)
#: the group of the user's own keys
SHORTCUTS = "shortcuts"
PREFERENCES = (SERVER, USERNAME, BLUR, GREY, THEME, TEXT_SIZE, LANGUAGE)
THEMES = ("system", "light", "dark")
LANGUAGES = ("system", "en", "de", "es")


class Preferences:
    def __init__(self, settings: QSettings | None = None) -> None:
        self.qsettings = settings or QSettings("reviewer-app", "reviewer-app")

    def get(self, pref: Preference) -> Any:
        value = self.qsettings.value(pref.name, pref.default)
        if pref.type is bool:
            return value in (True, "true", "1", 1)
        try:
            return pref.type(value)
        except (TypeError, ValueError):
            return pref.default

    def set(self, pref: Preference, value: Any) -> None:
        self.qsettings.setValue(pref.name, pref.type(value))
        self.qsettings.sync()

    # The user's own keys (``ui.keys``): ``shortcuts/<command>`` and, for a queue's action,
    # ``shortcuts/queue/<queue id>/<action id>``; a key in Qt's portable text, "" for none.

    def shortcut(self, name: str) -> str | None:
        """The user's key for ``name``; None when the default holds."""
        value = self.qsettings.value(f"{SHORTCUTS}/{name}")
        return None if value is None else str(value)

    def set_shortcut(self, name: str, key: str | None) -> None:
        """Keep ``key`` for ``name``; None goes back to the default."""
        if key is None:
            self.qsettings.remove(f"{SHORTCUTS}/{name}")
        else:
            self.qsettings.setValue(f"{SHORTCUTS}/{name}", key)
        self.qsettings.sync()

    def clear_shortcuts(self) -> None:
        """Every key back to its default."""
        self.qsettings.remove(SHORTCUTS)
        self.qsettings.sync()


def apply_look(prefs: Preferences) -> None:
    """Theme and text size for the whole application."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    scheme = {
        "light": Qt.ColorScheme.Light,
        "dark": Qt.ColorScheme.Dark,
    }.get(prefs.get(THEME), Qt.ColorScheme.Unknown)
    QGuiApplication.styleHints().setColorScheme(scheme)
    font = QFont(app.font())
    font.setPointSize(max(7, min(32, prefs.get(TEXT_SIZE))))
    app.setFont(font)
