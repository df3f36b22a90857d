"""The desktop's own settings, declared once and stored with QSettings; the core's
(prefetch, undo window) live in the local store and are edited through the same dialog.
A reviewer's own keys (``ReviewerKeys``) are kept here too, but per server and user: two
reviewers who share this computer's account each have theirs."""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from PySide6.QtCore import QByteArray, QSettings, Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from reviewer_app.core.paths import FOLDER_MODE, POSIX_MODES, narrow_file

from .style import FlatScrollBars, make_style, style_name
from .theme import refresh as refresh_look

log = logging.getLogger("ui")


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
#: the group of every reviewer's own keys: ``<group>/<server>/<user>/keys/...``
REVIEWER_SHORTCUTS = "reviewer_shortcuts"
#: the group of the own keys of releases that kept one set for the whole account (read once,
#: as the first keys of each reviewer who has none of their own yet; never written)
SHARED_SHORTCUTS = "shortcuts"
#: the review window's size and place (not in the Settings dialog: the window is the control)
WINDOW_GEOMETRY = "window/geometry"
PREFERENCES = (SERVER, USERNAME, BLUR, GREY, THEME, TEXT_SIZE, LANGUAGE)
THEMES = ("system", "light", "dark")
LANGUAGES = ("system", "en", "de", "es")


def save(qsettings: QSettings) -> None:
    """Write ``qsettings`` to its file now, and keep that file the user's own (0600, in a
    0700 folder of the app's): it names the server and the user name. Only on a change
    (the dialog, a key set, the window closed): never on a keypress's path."""
    qsettings.sync()
    if not POSIX_MODES:  # Windows: the registry, or the profile's ACLs
        return
    written = Path(qsettings.fileName())
    try:
        if not written.is_file():
            return
        narrow_file(written)
        # the folder QSettings made for the app (~/.config/reviewer-app), never a shared one
        folder = written.parent
        if folder.name == qsettings.organizationName() and folder.stat().st_mode & 0o077:
            folder.chmod(FOLDER_MODE)
    except OSError as err:
        log.warning("the settings file could not be made private: %s", type(err).__name__)


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
        save(self.qsettings)

    def window_geometry(self) -> QByteArray | None:
        """The review window's size and place when it was last closed (Qt's own form)."""
        value = self.qsettings.value(WINDOW_GEOMETRY)
        return value if isinstance(value, QByteArray) and not value.isEmpty() else None

    def set_window_geometry(self, geometry: QByteArray) -> None:
        self.qsettings.setValue(WINDOW_GEOMETRY, geometry)
        save(self.qsettings)


def _segment(text: str) -> str:
    """``text`` as one part of a QSettings key: readable, with no separator in it; the
    hash keeps apart what only the case tells apart (Windows and macOS ignore it in keys)."""
    return f"{quote(text, safe='')}-{hashlib.sha256(text.encode()).hexdigest()[:8]}"


class ReviewerKeys:
    """One reviewer's own keys on one server (``ui.keys``): ``<command>`` and, for a queue's
    action, ``queue/<queue id>/<action id>``; a key in Qt's portable text, "" for none.

    Read once, when made, and kept in memory: the key filter asks on every key press. The
    first time a reviewer's keys are read here, the account's shared keys of an earlier
    release (``SHARED_SHORTCUTS``) become theirs, once: a "reset all" is not undone later."""

    def __init__(self, prefs: Preferences, server: str, username: str) -> None:
        self.qsettings = prefs.qsettings
        self.group = f"{REVIEWER_SHORTCUTS}/{_segment(server)}/{_segment(username)}"
        self._keys = self._load()

    def _read(self, group: str) -> dict[str, str]:
        self.qsettings.beginGroup(group)
        try:
            return {
                name: str(value)
                for name in self.qsettings.allKeys()
                if (value := self.qsettings.value(name)) is not None
            }
        finally:
            self.qsettings.endGroup()

    def _load(self) -> dict[str, str]:
        adopted = f"{self.group}/adopted_shared"
        if self.qsettings.contains(adopted):
            return self._read(f"{self.group}/keys")
        keys = self._read(SHARED_SHORTCUTS)
        for name, key in keys.items():
            self.qsettings.setValue(f"{self.group}/keys/{name}", key)
        self.qsettings.setValue(adopted, True)
        save(self.qsettings)
        return keys

    def get(self, name: str) -> str | None:
        """The reviewer's key for ``name``; None when the default holds."""
        return self._keys.get(name)

    def set(self, name: str, key: str | None) -> None:
        """Keep ``key`` for ``name``; None goes back to the default."""
        if key is None:
            self._keys.pop(name, None)
            self.qsettings.remove(f"{self.group}/keys/{name}")
        else:
            self._keys[name] = key
            self.qsettings.setValue(f"{self.group}/keys/{name}", key)
        save(self.qsettings)

    def clear(self) -> None:
        """Every key back to its default."""
        self._keys.clear()
        self.qsettings.remove(f"{self.group}/keys")
        save(self.qsettings)


def dark_palette() -> QPalette:
    """A dark palette for the Fusion style (which draws any palette on every platform; the
    native Linux styles ignore the colour scheme hint)."""
    palette = QPalette()
    base, window, text = QColor("#1e1f22"), QColor("#2b2d31"), QColor("#e6e6e6")
    disabled = QColor("#7f8388")
    roles = QPalette.ColorRole
    for role, colour in (
        (roles.Window, window),
        (roles.WindowText, text),
        (roles.Base, base),
        (roles.AlternateBase, QColor("#34363b")),
        (roles.ToolTipBase, window),
        (roles.ToolTipText, text),
        (roles.PlaceholderText, disabled),
        (roles.Text, text),
        (roles.Button, QColor("#383a40")),
        (roles.ButtonText, text),
        (roles.BrightText, QColor("#ff6b6b")),
        (roles.Highlight, QColor("#3d6fb4")),
        (roles.HighlightedText, QColor("#ffffff")),
        (roles.Link, QColor("#8ab4f8")),
        (roles.LinkVisited, QColor("#c58af9")),
        (roles.Light, QColor("#4a4d55")),
        (roles.Midlight, QColor("#40434a")),
        (roles.Mid, QColor("#2f3136")),
        (roles.Dark, QColor("#18191c")),
        (roles.Shadow, QColor("#000000")),
    ):
        palette.setColor(role, colour)
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return palette


def wants_dark(theme: str) -> bool:
    """The dark theme chosen, or "system" on a desktop whose colour scheme is dark."""
    if theme == "dark":
        return True
    return theme == "system" and (QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark)


#: the style the application started with (put back when the dark theme is left)
_started_style: list[str] = []


def apply_look(prefs: Preferences) -> None:
    """Theme and text size for the whole application. Dark is Fusion with a dark palette
    (the colour scheme hint alone changed nothing on Linux); widgets that keep their own font
    (bold names, figures) follow the size, as every font is the application's, resolved."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        return
    theme = prefs.get(THEME)
    scheme = {
        "light": Qt.ColorScheme.Light,
        "dark": Qt.ColorScheme.Dark,
    }.get(theme, Qt.ColorScheme.Unknown)
    QGuiApplication.styleHints().setColorScheme(scheme)
    if not _started_style:
        _started_style.append(style_name(app.style()))
    if wants_dark(theme):
        app.setStyle(make_style("Fusion") or "Fusion")
        app.setPalette(dark_palette())
    elif app.property("darkLook"):
        app.setStyle(make_style(_started_style[0]) or _started_style[0])
        app.setPalette(app.style().standardPalette())
    elif not isinstance(app.style(), FlatScrollBars):
        flat = make_style(_started_style[0])
        if isinstance(flat, FlatScrollBars):  # the platform's palette stays
            app.setStyle(flat)
    app.setProperty("darkLook", wants_dark(theme))
    font = QFont(app.font())
    font.setPointSize(max(7, min(32, prefs.get(TEXT_SIZE))))
    app.setFont(font)
    # a widget with a style sheet took its font when it was polished: polished again, it
    # takes the new size (the banner, the figures over a threshold stayed small)
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if sheet:
            widget.setStyleSheet(sheet)
    refresh_look()  # tones for the palette, type roles for the size
