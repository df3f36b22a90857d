"""Hostile content renders literally in every widget and tooltip, fetches nothing, crashes
nothing: served by the real service, altered on the wire by a proxy (so JSON escapes such as
lone surrogates arrive as a real reply would carry them)."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from reviewer_app.protocol import Item
from reviewer_app.ui.longtext import CHUNK
from reviewer_app.ui.plain import clean, isolate
from reviewer_app.ui.post_pane import DISPLAY_LIMIT, PostPane
from tests.support.proxy import FaultProxy, Rule
from tests.support.servers import LiveServer
from tests.ui.hostile import HOSTILE

QUEUE = "misinformation"


class Listener:
    """A TCP listener that counts every connection made to it."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    watcher = Listener()
    yield watcher
    watcher.close()


def as_qt(text: str) -> str:
    """Text as a Qt document gives it back: every line break becomes a newline and a
    no-break space a space (QTextDocument.toPlainText does both)."""
    for brk in ("\r\n", "\r", "\u2028", "\u2029"):
        text = text.replace(brk, "\n")
    return text.replace("\u00a0", " ")


def hostile_strings(port: int) -> list[str]:
    return [s.replace("{port}", str(port)) for s in HOSTILE]


def poison(strings: list[str]):
    counter = iter(range(10**6))

    def rewrite(body: bytes) -> bytes:
        doc = json.loads(body)
        for leased in doc["items"]:
            text = strings[next(counter) % len(strings)]
            item = leased["item"]
            item["post"]["text"] = text
            item["author"]["display_name"] = text[:200]
            item["author"]["handle"] = text[:200] or "x"
            item["author"]["bio"] = text[:200]
            item["reports"]["notes"] = [
                {"reason": "spam", "note": text[:2000], "created_at": item["enqueued_at"]}
            ]
            item["fact_checks"] = [
                {
                    "rating": "false",
                    "rating_label": "False",
                    "organisation": text[:200] or "org",
                    "url": "https://factcheck.example/item",
                    "claim": text[:200],
                    "published_at": item["enqueued_at"],
                }
            ]
            item["reasons"][0]["detail"] = text[:200]
            if item["post"].get("link_preview"):
                item["post"]["link_preview"]["title"] = text[:200]
        # json.dumps escapes non-ASCII, so lone surrogates travel as \\ud800 escapes
        return json.dumps(doc).encode()

    return rewrite


def labels_are_plain(root: QWidget) -> list[str]:
    return [
        w.accessibleName() or w.objectName() or repr(w)
        for w in root.findChildren(QLabel)
        if w.textFormat() != Qt.TextFormat.PlainText and w.text()
    ]


def tooltips_are_escaped(root: QWidget) -> list[str]:
    bad = []
    for widget in [root, *root.findChildren(QWidget)]:
        tip = widget.toolTip()
        if tip and ("<img" in tip or "<script" in tip or "<a href" in tip):
            bad.append(tip[:80])
    return bad


def test_hostile_content_renders_literally_and_fetches_nothing(
    demo_server: LiveServer, desk_factory, listener: Listener
) -> None:
    strings = hostile_strings(listener.port)
    assert len(strings) >= 50
    proxy = FaultProxy(demo_server.port).start()
    proxy.add(
        Rule(
            "POST",
            f"/api/v1/queues/{QUEUE}/leases",
            "rewrite",
            times=10**6,
            rewrite=poison(strings),
        )
    )
    try:
        desk = desk_factory(proxy.url, prefetch=60, queue=QUEUE)
        window = desk.window
        seen = 0
        while seen < len(strings):
            desk.wait(lambda: window.review.current is not None, 20_000)
            item = window.review.current.item
            text = item.post.text
            assert "\ud800" not in text and "\udfff" not in text
            desk.wait(lambda: not window.post.text.filling, 10_000)  # the rest after a paint
            assert window.post.text.toPlainText() == as_qt(clean(text)[:DISPLAY_LIMIT])
            assert isolate(item.author.display_name) in window.post.byline.text()
            context = window.context
            # untrusted text inside the tabs' lines is isolated (FSI…PDI, visible markers)
            assert as_qt(isolate(item.reports.notes[0].note)) in context.text_of("Reports")
            assert as_qt(isolate(item.fact_checks[0].claim)) in context.text_of("Fact-checks")
            assert as_qt(isolate(item.author.bio)) in context.text_of("Author")
            for tab in range(context.count()):  # each tab filled and painted as it is opened
                context.setCurrentIndex(tab)
                assert context.boxes[context.TABS[tab][0]].toPlainText()
                context.grab()
            context.setCurrentIndex(0)
            assert labels_are_plain(window) == []
            assert tooltips_are_escaped(window) == []
            window.grab()  # paint everything, tooltips' owners included
            seen += 1
            desk.qtbot.wait(60)
            desk.press(Qt.Key.Key_1)
        window.show_conflicts()
        window.show_help  # noqa: B018 - the dialogs are built from fixed text only
        assert labels_are_plain(window.conflicts_view) == []
        assert listener.connections == 0, "a widget fetched a remote resource"
        assert proxy.count("POST", f"/api/v1/queues/{QUEUE}/leases") >= 1
    finally:
        proxy.stop()


def test_a_megabyte_without_a_line_break_is_refused_at_the_border_and_survivable_inside(
    demo_server: LiveServer, desk_factory, qtbot, listener: Listener
) -> None:
    desk = desk_factory(demo_server.url, queue=QUEUE)
    item = desk.window.review.current.item
    huge = f"<img src=http://127.0.0.1:{listener.port}/x>" + "A" * 1_000_000
    # the contract refuses it: a claim with such an item leaves it out and says so
    with pytest.raises(ValueError, match="at most 100000"):
        Item.model_validate({**item.model_dump(), "post": {**item.post.model_dump(), "text": huge}})
    # a widget given it anyway shows it literally, in parts, and does not fall over
    pane = PostPane()
    qtbot.addWidget(pane)
    forced = item.model_copy(update={"post": item.post.model_copy(update={"text": huge})})
    pane.show_item(forced, lambda _id: None)
    pane.resize(800, 600)
    pane.show()
    pane.grab()
    qtbot.waitUntil(lambda: not pane.text.filling, timeout=10_000)  # the rest after a paint
    assert pane.text.toPlainText() == huge[:DISPLAY_LIMIT]
    assert pane.more.isVisible() and f"{len(huge) - DISPLAY_LIMIT:,}" in pane.more.text()
    # the whole of a long (contract-sized) text comes on request
    longest = "B" * 60_000
    pane.show_item(
        item.model_copy(update={"post": item.post.model_copy(update={"text": longest})}),
        lambda _id: None,
    )
    pane.more.click()  # laid out in lines of bounded length, added a batch at a time
    qtbot.waitUntil(lambda: not pane.text.filling, timeout=10_000)
    shown = pane.text.toPlainText()
    assert shown.replace("\n", "") == longest and not pane.more.isVisible()
    assert max(len(line) for line in shown.split("\n")) <= CHUNK
    assert listener.connections == 0
