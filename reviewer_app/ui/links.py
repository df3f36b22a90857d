"""Links out of the app: where a link really goes, shown before anything is opened.

A post's link is hostile until the reviewer has seen where it goes. "Open link in browser…"
opens a dialog that shows the host as it reads (Unicode) and as the browser sends it (the
IDNA ``xn--`` form) when the two differ, and calls out a host that mixes writing systems
(a Cyrillic U+0430 for the "a" of "paypal.com"), a host other than the one the link
preview names, and user information before the host ("paypal.com@evil.example"). Its
default button copies the link; the browser is asked only when the reviewer confirms, and
a browser that cannot be found is said in the dialog, not only in a log.

IDNA is the ``idna`` package (IDNA 2008 with the UTS #46 mapping browsers use); the script
of each letter is Unicode's Script_Extensions property as ``fontTools.unicodedata`` reads it.
"""

from __future__ import annotations

import logging
import os
import shutil
import sys
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import idna
from fontTools.unicodedata import script_extension, script_name
from PySide6.QtCore import QProcess, QProcessEnvironment, QUrl
from PySide6.QtGui import QDesktopServices, QGuiApplication, QTextOption
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from .i18n import translate
from .plain import clean, isolate, label, named, set_text
from .theme import Tone, TypeRole, set_tone, set_type

log = logging.getLogger("ui")

# Scripts that are not a writing system of their own (digits, punctuation, marks).
_NEUTRAL = frozenset({"Zyyy", "Zinh"})
# Sets of scripts one name may mix and still be one writing system (UTS #39, "highly
# restrictive"): Japanese, Chinese with Bopomofo, Korean, each with Latin.
_ALLOWED_MIXES = (
    frozenset({"Latn", "Hani", "Hira", "Kana"}),
    frozenset({"Latn", "Hani", "Bopo"}),
    frozenset({"Latn", "Hani", "Hang"}),
)


def to_ascii(host: str) -> str | None:
    """The host as a browser sends it (IDNA, ``xn--`` labels), or None when it is not a
    valid internationalised name."""
    try:
        return idna.encode(host, uts46=True).decode("ascii")
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


def to_unicode(ascii_host: str) -> str | None:
    """The host's Unicode form, or None when its ``xn--`` labels do not decode."""
    try:
        return str(idna.decode(ascii_host))
    except (idna.IDNAError, UnicodeError, ValueError):
        return None


def scripts_mixed(host: str) -> tuple[str, ...]:
    """The scripts a host mixes (their English names, sorted), or () when its letters are
    of one writing system. A letter used by several scripts (a Japanese long-vowel mark)
    counts for any of them."""
    letters = [
        scx - _NEUTRAL for scx in (set(script_extension(ch)) for ch in host) if scx - _NEUTRAL
    ]
    if not letters:
        return ()
    candidates = [frozenset({s}) for s in set().union(*letters)] + list(_ALLOWED_MIXES)
    if any(all(scx & allowed for scx in letters) for allowed in candidates):
        return ()
    names: set[str] = set()
    for scx in letters:
        if len(scx) == 1:
            names.add(script_name(next(iter(scx))))
    return tuple(sorted(names))


def _comparable(host: str) -> str:
    host = host.strip().rstrip(".").lower()
    ascii_form = to_ascii(host) or host
    return ascii_form.removeprefix("www.")


def host_in_text(text: str) -> str | None:
    """The host a preview's visible domain names ("paypal.com", "https://www.paypal.com/x"),
    or None when the text does not name one."""
    text = clean(text).strip()
    if not text or any(ch.isspace() for ch in text):
        return None
    candidate = urlsplit(text if "//" in text else f"//{text}").hostname or ""
    return candidate if "." in candidate.strip(".") else None


def same_site(link_host: str, shown_host: str) -> bool:
    """True when the link goes to the host the text names or to a name under it (or the
    text names a name under the link's host)."""
    a, b = _comparable(link_host), _comparable(shown_host)
    return a == b or a.endswith("." + b) or b.endswith("." + a)


def _letters(host: str, limit: int = 6) -> str:
    """The host's letters outside ASCII, each with its Unicode name (the letter, then
    "U+0430 CYRILLIC SMALL LETTER A")."""
    seen = list(dict.fromkeys(ch for ch in host if ord(ch) > 0x7F))
    named_letters = [
        f"{isolate(ch)} U+{ord(ch):04X} {unicodedata.name(ch, '?')}" for ch in seen[:limit]
    ]
    return "; ".join(named_letters) + ("; …" if len(seen) > limit else "")


@dataclass(frozen=True)
class LinkFacts:
    """What a link really points to."""

    url: QUrl
    # the whole address as the browser would get it (host in ``xn--`` form, percent-encoded)
    address: str
    host_unicode: str
    host_ascii: str
    # the scripts the host mixes (empty when one writing system)
    mixed_scripts: tuple[str, ...] = ()
    # the host the preview's text names, when it is not where the link goes
    shown_host: str | None = None
    # user information written before the host ("paypal.com@"), which browsers ignore
    userinfo: str = ""
    # the host is not a valid internationalised domain name (IDNA 2008)
    invalid_idna: bool = False
    warnings: list[str] = field(default_factory=list)


def examine(url: QUrl, preview_domain: str | None = None) -> LinkFacts:
    """The facts of ``url`` (an http(s) link the post carries, parsed strictly), and what
    to warn about. ``preview_domain`` is the text the link preview shows as its site."""
    ascii_from_qt = url.host(QUrl.ComponentFormattingOption.FullyEncoded)
    ascii_host = to_ascii(url.host())
    invalid = ascii_host is None or to_unicode(ascii_host) is None
    if ascii_host is None:  # Qt's own conversion: the address it would hand the browser
        ascii_host = ascii_from_qt
    unicode_host = to_unicode(ascii_host) or to_unicode(ascii_from_qt) or url.host()
    target = QUrl(url)
    target.setHost(ascii_host)
    address = target.toString(QUrl.ComponentFormattingOption.FullyEncoded)
    mixed = scripts_mixed(unicode_host)
    shown = host_in_text(preview_domain or "")
    differs = shown if shown is not None and not same_site(unicode_host, shown) else None
    userinfo = url.userInfo()
    warnings: list[str] = []
    goes_to = isolate(unicode_host)
    if ascii_host != unicode_host:
        goes_to = f"{goes_to} ({ascii_host})"
    if differs is not None:
        warnings.append(
            translate(
                "Links",
                "The preview says {shown}, but the link goes to {host}.",
            ).format(shown=isolate(differs), host=goes_to)
        )
    if mixed:
        warnings.append(
            translate(
                "Links",
                "The host mixes letters of different scripts ({scripts}): look-alike "
                "letters can imitate a well-known site. Not plain Latin: {letters}.",
            ).format(scripts=", ".join(mixed), letters=_letters(unicode_host))
        )
    if userinfo:
        warnings.append(
            translate(
                "Links",
                "The address starts with {userinfo}@, which is not where it goes: the "
                "browser ignores what comes before the @.",
            ).format(userinfo=isolate(userinfo))
        )
    if invalid:
        warnings.append(
            translate(
                "Links",
                "The host is not a valid international domain name; browsers may read it "
                "differently.",
            )
        )
    return LinkFacts(
        url=target,
        address=address,
        host_unicode=unicode_host,
        host_ascii=ascii_host,
        mixed_scripts=mixed,
        shown_host=differs,
        userinfo=userinfo,
        invalid_idna=invalid,
        warnings=warnings,
    )


# Opens a URL in the system's browser; False when none could (QDesktopServices.openUrl).
Opener = Callable[[QUrl], bool]

#: what a bundle (PyInstaller) sets for its own Qt, which a browser it starts must not load
_BUNDLE_QT = ("QT_PLUGIN_PATH", "QML2_IMPORT_PATH", "QT_QPA_PLATFORM_PLUGIN_PATH")
#: the library paths a bundle sets for itself; PyInstaller keeps the system's in ``*_ORIG``
_LIBRARY_PATHS = ("LD_LIBRARY_PATH", "DYLD_LIBRARY_PATH")


def system_environment(environ: Mapping[str, str]) -> dict[str, str]:
    """``environ`` as the system gave it, for a program of the system (the browser) started
    from the desktop bundle, which would otherwise load the bundle's Qt plugins and
    libraries."""
    system = {k: v for k, v in environ.items() if k not in _BUNDLE_QT + _LIBRARY_PATHS}
    for name in _LIBRARY_PATHS:
        if name + "_ORIG" in environ:
            system[name] = environ[name + "_ORIG"]
    return system


def open_in_browser(url: QUrl) -> bool:
    """Open ``url`` in the system's browser; False when none could. From the bundle on
    Linux, ``xdg-open`` is started with the system's environment (a new process's own: the
    app's, which its other threads read, is left as it is)."""
    opener = shutil.which("xdg-open")
    if not (getattr(sys, "frozen", False) and sys.platform.startswith("linux") and opener):
        return QDesktopServices.openUrl(url)
    process = QProcess()
    process.setProgram(opener)
    process.setArguments([url.toString(QUrl.ComponentFormattingOption.FullyEncoded)])
    environment = QProcessEnvironment()
    for name, value in system_environment(os.environ).items():
        environment.insert(name, value)
    process.setProcessEnvironment(environment)
    started = process.startDetached()  # (PySide6 gives the bool alone, or with the pid)
    return bool(started[0] if isinstance(started, tuple) else started)


class LinkDialog(QDialog):
    """Where a link goes, before it is opened: Copy link (the default), Open in browser,
    Close. A browser that cannot be found is said here."""

    def __init__(
        self,
        facts: LinkFacts,
        parent: QWidget | None = None,
        *,
        opener: Opener = open_in_browser,
    ) -> None:
        super().__init__(parent)
        self.facts = facts
        self._opener = opener
        # what happened: "copied", "opened", "failed" (the last thing the reviewer did)
        self.outcome = ""
        named(self, "linkDialog", translate("Links", "Open link"))
        self.setWindowTitle(translate("Links", "Open link in browser?"))
        layout = QVBoxLayout(self)
        layout.addWidget(
            label(translate("Links", "Check where this link goes before you open it."))
        )
        host = label(translate("Links", "Host: {host}").format(host=isolate(facts.host_unicode)))
        named(host, "linkHost", translate("Links", "Host"))
        set_type(host, TypeRole.figure)
        layout.addWidget(host)
        self.ascii_host = label(
            translate("Links", "As the browser sends it: {host}").format(host=facts.host_ascii)
        )
        named(self.ascii_host, "linkHostAscii", translate("Links", "Host as the browser sends it"))
        self.ascii_host.setVisible(facts.host_ascii != facts.host_unicode)
        layout.addWidget(self.ascii_host)
        self.warnings = label("\n".join(f"⚠ {w}" for w in facts.warnings))
        named(self.warnings, "linkWarnings", translate("Links", "Warnings about this link"))
        set_tone(self.warnings, Tone.alarm)
        self.warnings.setVisible(bool(facts.warnings))
        layout.addWidget(self.warnings)
        layout.addWidget(label(translate("Links", "The whole address:")))
        self.address = QPlainTextEdit()
        named(self.address, "linkAddress", translate("Links", "The whole address"))
        self.address.setReadOnly(True)
        self.address.setWordWrapMode(QTextOption.WrapMode.WrapAnywhere)
        self.address.setPlainText(facts.address)
        line = self.address.fontMetrics().lineSpacing()
        self.address.setFixedHeight(line * 4 + 12)
        layout.addWidget(self.address)
        self.problem = label()
        named(self.problem, "linkProblem", translate("Links", "What went wrong"))
        set_tone(self.problem, Tone.error)
        self.problem.hide()
        layout.addWidget(self.problem)
        buttons = QDialogButtonBox()
        self.copy = QPushButton(translate("Links", "Copy link"))
        named(self.copy, "copyLink", translate("Links", "Copy the link"))
        self.open_button = QPushButton(translate("Links", "Open in browser"))
        named(self.open_button, "openInBrowser", translate("Links", "Open the link in the browser"))
        self.close_button = QPushButton(translate("Links", "Close"))
        named(self.close_button, "closeLinkDialog", translate("Links", "Close"))
        buttons.addButton(self.copy, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.open_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.close_button, QDialogButtonBox.ButtonRole.RejectRole)
        for button in (self.open_button, self.close_button):
            button.setAutoDefault(False)
        self.copy.setDefault(True)
        self.copy.clicked.connect(self._copy)
        self.open_button.clicked.connect(self._open)
        self.close_button.clicked.connect(self.reject)
        layout.addWidget(buttons)
        self.copy.setFocus()
        self.resize(560, self.sizeHint().height())

    def _copy(self) -> None:
        clipboard = QGuiApplication.clipboard()
        clipboard.setText(self.facts.address)
        self.outcome = "copied"
        set_text(self.problem, translate("Links", "Copied. Paste it where you can check it."))
        set_tone(self.problem, None)
        self.problem.show()

    def _open(self) -> None:
        if self._opener(self.facts.url):
            self.outcome = "opened"
            self.accept()
            return
        self.outcome = "failed"
        log.warning("no browser opened a link the reviewer asked to open")
        set_text(
            self.problem,
            translate(
                "Links",
                "No browser could open this link on this computer. Copy it and open it "
                "where you can.",
            ),
        )
        set_tone(self.problem, Tone.error)
        self.problem.show()
        self.copy.setFocus()
