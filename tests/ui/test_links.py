"""Links out of the app, against the real service (intake posts over HTTP, offscreen): "Open
link in browser…" shows where a link really goes before anything opens it — the Unicode host
and its xn-- form, a host that mixes scripts, a host other than the preview's — defaults to
Copy link, opens only on "Open in browser", and says so in the dialog when no browser could
open it."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Qt, QUrl, Slot
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from reviewer_app.protocol import Role, UserCreate
from reviewer_app.ui.links import LinkDialog, examine, scripts_mixed
from reviewer_app.ui.plain import FSI, PDI, isolate
from tests.support.intake import MISINFO, apply_queues, classifier, key_session, post, send
from tests.support.servers import LiveServer
from tests.ui.conftest import REVIEWER, Desk

HOMOGRAPH = "https://p\u0430ypal.com/signin?next=%2Fwallet"  # a Cyrillic a (U+0430)
ELSEWHERE = "https://account-verify.example/login"


def plain_words(text: str) -> str:
    """``text`` without the isolates (FSI…PDI) the app puts around names from the wire."""
    return text.replace(FSI, "").replace(PDI, "")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'links.db'}").start()
    apply_queues(server)
    server.service.create_user(
        UserCreate(username=REVIEWER[0], password=REVIEWER[1], role=Role.reviewer)
    )
    try:
        yield server
    finally:
        server.stop()


def push_link_post(server: LiveServer, external_id: str, url: str, domain: str) -> None:
    """A post carrying a link preview, as a platform's backend sends it."""
    platform = key_session(server, f"feed-{external_id}")
    preview = {"url": url, "domain": domain, "title": "Log in to your account"}
    body = post(external_id, "Your account is locked, sign in here", link_preview=preview)
    assert send(platform, "posts", [body])[0]["status"] == "created"
    assert send(platform, "signals", [classifier(external_id, 0.95)])[0]["status"] == "created"


class Browser(QObject):
    """Stands in for the system's browser (Qt's own hook for a scheme's handler): records
    what it was asked to open, so no test ever starts a real browser."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.opened.append(QUrl(url))


@pytest.fixture
def browser() -> Iterator[Browser]:
    recorder = Browser()
    for scheme in ("http", "https"):
        QDesktopServices.setUrlHandler(scheme, recorder, "open")
    try:
        yield recorder
    finally:
        for scheme in ("http", "https"):
            QDesktopServices.unsetUrlHandler(scheme)


def open_dialog(desk: Desk) -> LinkDialog:
    pane = desk.window.post
    assert pane.open_link.isVisible()
    pane.open_link.setFocus()
    QTest.keyClick(pane.open_link, Qt.Key.Key_Space)  # the keyboard, as a reviewer would
    desk.wait(lambda: pane.link_dialog is not None and pane.link_dialog.isVisible(), 5_000)
    assert pane.link_dialog is not None
    dialog = pane.link_dialog
    desk.wait(lambda: QApplication.focusWidget() is dialog.copy, 5_000)  # Copy link first
    return dialog


def test_a_homograph_link_shows_its_real_host_and_copies_by_default(
    server: LiveServer, desk_factory: Callable[..., Desk], browser: Browser
) -> None:
    push_link_post(server, "homograph", HOMOGRAPH, "paypal.com")
    desk = desk_factory(server.url, queue=MISINFO)
    assert "paypal.com" in desk.window.post.preview.text()
    dialog = open_dialog(desk)
    grab = dialog.grab()
    assert not grab.isNull()
    host = dialog.findChild(QObject, "linkHost")
    real = isolate("p\u0430ypal.com")  # a host from the wire, isolated in the app's words
    assert host is not None and host.text() == f"Host: {real}"  # type: ignore[attr-defined]
    assert dialog.ascii_host.isVisible()
    assert dialog.ascii_host.text() == "As the browser sends it: xn--pypal-4ve.com"
    assert FSI in dialog.warnings.text()  # the hosts are isolated inside the app's words
    warnings = plain_words(dialog.warnings.text())
    assert dialog.warnings.isVisible()
    assert (
        "The preview says paypal.com, but the link goes to p\u0430ypal.com (xn--pypal-4ve.com)."
        in warnings
    )
    assert "Not plain Latin: \u0430 U+0430 CYRILLIC SMALL LETTER A." in warnings
    assert "different scripts (Cyrillic, Latin)" in warnings
    assert dialog.warnings.textFormat() == Qt.TextFormat.PlainText
    assert dialog.address.toPlainText() == "https://xn--pypal-4ve.com/signin?next=%2Fwallet"
    # the default is Copy link: Enter copies, nothing opens
    assert dialog.copy.isDefault() and QApplication.focusWidget() is dialog.copy
    QGuiApplication.clipboard().clear()
    QTest.keyClick(dialog.copy, Qt.Key.Key_Return)
    assert QGuiApplication.clipboard().text() == "https://xn--pypal-4ve.com/signin?next=%2Fwallet"
    assert dialog.outcome == "copied" and dialog.isVisible()
    assert browser.opened == []
    # only "Open in browser" opens it, with the host the dialog showed in its xn-- form
    dialog.open_button.click()
    assert [u.toString(QUrl.ComponentFormattingOption.FullyEncoded) for u in browser.opened] == [
        "https://xn--pypal-4ve.com/signin?next=%2Fwallet"
    ]
    assert dialog.outcome == "opened"
    desk.wait(lambda: not dialog.isVisible(), 5_000)


def test_a_link_whose_preview_names_another_host_is_called_out(
    server: LiveServer, desk_factory: Callable[..., Desk], browser: Browser
) -> None:
    push_link_post(server, "elsewhere", ELSEWHERE, "www.mybank.example")
    desk = desk_factory(server.url, queue=MISINFO)
    dialog = open_dialog(desk)
    assert (
        dialog.findChild(QObject, "linkHost").text() == f"Host: {isolate('account-verify.example')}"
    )  # type: ignore[union-attr]
    assert not dialog.ascii_host.isVisible()  # nothing to decode: one form
    assert plain_words(dialog.warnings.text()) == (
        "⚠ The preview says www.mybank.example, but the link goes to account-verify.example."
    )
    QTest.keyClick(dialog, Qt.Key.Key_Escape)
    desk.wait(lambda: not dialog.isVisible(), 5_000)
    assert browser.opened == []


def test_when_no_browser_can_open_the_link_the_dialog_says_so(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    """A real failure: the offscreen platform has no browser to hand a link to
    (QDesktopServices.openUrl returns False there)."""
    if QGuiApplication.platformName() != "offscreen":
        pytest.skip("only where no real browser can start: the offscreen platform")
    push_link_post(server, "nobrowser", "https://news.example/story", "news.example")
    desk = desk_factory(server.url, queue=MISINFO)
    dialog = open_dialog(desk)
    assert not dialog.warnings.isVisible()  # an honest link: nothing to warn about
    dialog.open_button.click()
    assert dialog.outcome == "failed"
    assert dialog.isVisible()  # the reviewer can still copy it
    assert dialog.problem.isVisible()
    assert dialog.problem.text() == (
        "No browser could open this link on this computer. Copy it and open it where you can."
    )
    assert QApplication.focusWidget() is dialog.copy


@pytest.mark.parametrize(
    ("url", "preview", "host", "ascii_host", "mixed", "warned"),
    [
        (HOMOGRAPH, "paypal.com", "p\u0430ypal.com", "xn--pypal-4ve.com", True, 2),
        # the xn-- form in the post: the Unicode form is shown, and the mix called out
        (
            "https://xn--80ak6aa92e.com/",
            "apple.com",
            "\u0430\u0440\u0440\u04cf\u0435.com",
            None,
            1,
            2,
        ),
        ("https://b\u00fccher.de/", "www.bücher.de", "b\u00fccher.de", "xn--bcher-kva.de", 0, 0),
        ("https://例え.jp/", "例え.jp", "例え.jp", "xn--r8jz45g.jp", 0, 0),  # Japanese: one system
        ("https://news.example.org/a", "example.org", "news.example.org", None, 0, 0),
        ("https://paypal.com@evil.example/", "paypal.com", "evil.example", None, 0, 2),
        ("https://i\u2764.ws/", None, "xn--i-7iq.ws", None, 0, 1),  # not IDNA 2008
    ],
)
def test_what_a_link_is_checked_for(
    url: str, preview: str | None, host: str, ascii_host: str | None, mixed: int, warned: int
) -> None:
    facts = examine(QUrl(url, QUrl.ParsingMode.StrictMode), preview)
    assert facts.host_unicode == host
    if ascii_host is not None:
        assert facts.host_ascii == ascii_host
    assert bool(facts.mixed_scripts) == bool(mixed)
    assert len(facts.warnings) == warned, facts.warnings


def test_scripts_are_read_from_unicode_properties() -> None:
    assert scripts_mixed("p\u0430ypal.com") == ("Cyrillic", "Latin")
    assert scripts_mixed("\u03b1pple.com") == ("Greek", "Latin")
    assert scripts_mixed("пример.рф") == ()
    assert scripts_mixed("ラーメン.jp") == ()  # U+30FC belongs to Hiragana and Katakana
    assert scripts_mixed("123-456.com") == ()


def test_a_browser_started_from_the_bundle_gets_the_systems_libraries_not_the_bundles(
    qtbot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """In the desktop bundle (``sys.frozen``) PyInstaller points the library path and Qt's
    plugin path at the bundle; the browser the link opens (here an ``xdg-open`` that writes
    down its environment) must not load them, and the app's own stay as they were."""
    if not sys.platform.startswith("linux"):
        pytest.skip("xdg-open: Linux")
    seen = tmp_path / "env.txt"
    fake = tmp_path / "bin" / "xdg-open"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\nenv > "{seen}.part" && mv "{seen}.part" "{seen}"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr("sys.frozen", True, raising=False)
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/bundle/_internal")
    monkeypatch.setenv("LD_LIBRARY_PATH_ORIG", "/usr/local/lib")
    monkeypatch.setenv("QT_PLUGIN_PATH", "/opt/bundle/_internal/PySide6/Qt/plugins")
    dialog = LinkDialog(examine(QUrl("https://news.example/story")))
    qtbot.addWidget(dialog)
    dialog.open_button.click()
    assert dialog.outcome == "opened"
    qtbot.waitUntil(seen.exists, timeout=10_000)
    started = dict(line.split("=", 1) for line in seen.read_text().splitlines() if "=" in line)
    assert started["LD_LIBRARY_PATH"] == "/usr/local/lib"
    assert "QT_PLUGIN_PATH" not in started
    assert os.environ["LD_LIBRARY_PATH"] == "/opt/bundle/_internal", "the app's own is as it was"
