"""Hostile strings in every free-text field of every reply, through every widget of the
review window and the lead workspace: labels plain, tooltips escaped, buttons without
stolen mnemonics, chart texts escaped, window titles without raw bidi controls, nothing
fetched. The replies come from the real service and are poisoned on the wire by a proxy
(tests/ui/poison.py finds the free-text fields in the protocol's models)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
import regex
from PySide6.QtCharts import QChartView
from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QModelIndex, Qt
from PySide6.QtGui import Qt as QtGui_Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QComboBox,
    QGroupBox,
    QLabel,
    QPlainTextEdit,
    QTabBar,
    QWidget,
)

from reviewer_app.ui.plain import FSI, HIDDEN_RE, PDI, isolate
from tests.support.proxy import FaultProxy, Rule
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, Desk
from tests.ui.hostile import CANARY, bidi_strings, invisible_strings
from tests.ui.poison import Poisoner, poisoned_rules
from tests.ui.test_hostile import Listener, hostile_strings

QUEUE = "misinformation"
TOOLTIP_PREFIX = '<p style="white-space:pre-wrap">'
LONE_MNEMONIC = re.compile(r"(?<!&)&(?!&)")
RAW_AMPERSAND = re.compile(r"&(?!(amp|lt|gt|quot|#x27);)")
ROLES = (
    Qt.ItemDataRole.DisplayRole,
    Qt.ItemDataRole.ToolTipRole,
    Qt.ItemDataRole.AccessibleTextRole,
)


@pytest.fixture
def listener() -> Iterator[Listener]:
    watcher = Listener()
    yield watcher
    watcher.close()


def escaped_tooltip(tip: str) -> bool:
    """A tooltip shows its text literally: plain (Qt would not guess rich text) or made
    by plain.tooltip (escaped inside one paragraph)."""
    if tip.startswith(TOOLTIP_PREFIX) and tip.endswith("</p>"):
        return "<" not in tip[len(TOOLTIP_PREFIX) : -len("</p>")]
    return not QtGui_Qt.mightBeRichText(tip)


def model_problems(model: QAbstractItemModel, where: str) -> list[str]:
    bad = []
    rows = min(model.rowCount(QModelIndex()), 60)
    for row in range(rows):
        columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount(QModelIndex())
        for column in range(columns):
            index = model.index(row, column)
            tip = index.data(Qt.ItemDataRole.ToolTipRole)
            if isinstance(tip, str) and tip and not escaped_tooltip(tip):
                bad.append(f"{where} tooltip [{row},{column}]: {tip[:60]!r}")
            for role in ROLES:
                text = index.data(role)
                if isinstance(text, str) and _lone_surrogate(text):
                    bad.append(f"{where} [{row},{column}] role {role}: lone surrogate")
    return bad


def _lone_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in text)


def widget_problems(root: QWidget) -> list[str]:
    """Everything on screen under ``root`` that would not show hostile text literally."""
    bad: list[str] = []
    for widget in [root, *root.findChildren(QWidget)]:
        name = widget.accessibleName() or widget.objectName() or type(widget).__name__
        tip = widget.toolTip()
        if tip and not escaped_tooltip(tip):
            bad.append(f"{name}: tooltip {tip[:60]!r}")
        plain = Qt.TextFormat.PlainText
        if isinstance(widget, QLabel) and widget.text() and widget.textFormat() != plain:
            bad.append(f"{name}: label not plain text: {widget.text()[:60]!r}")
        if isinstance(widget, QAbstractButton) and LONE_MNEMONIC.search(widget.text()):
            bad.append(f"{name}: button text makes a mnemonic: {widget.text()[:60]!r}")
        if isinstance(widget, QTabBar):
            for tab in range(widget.count()):
                if LONE_MNEMONIC.search(widget.tabText(tab)):
                    bad.append(f"{name}: tab text makes a mnemonic: {widget.tabText(tab)!r}")
                tab_tip = widget.tabToolTip(tab)
                if tab_tip and not escaped_tooltip(tab_tip):
                    bad.append(f"{name}: tab tooltip {tab_tip[:60]!r}")
        if isinstance(widget, QComboBox) and widget.model() is not None:
            bad += model_problems(widget.model(), f"{name} (combo)")
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            bad += model_problems(widget.model(), name)
        if isinstance(widget, QChartView) and widget.chart() is not None:
            chart = widget.chart()
            texts = [chart.title(), *(m.label() for m in chart.legend().markers())]
            for text in texts:  # Qt Charts renders these as HTML
                if "<" in text or RAW_AMPERSAND.search(text):
                    bad.append(f"{name}: chart text not escaped: {text[:60]!r}")
    return bad


def title_problems() -> list[str]:
    bad = []
    for widget in QApplication.topLevelWidgets():
        title = widget.windowTitle()
        if HIDDEN_RE.search(title) or _lone_surrogate(title):
            bad.append(f"window title with raw bidi or invisible characters: {title[:80]!r}")
    return bad


def shown_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) for every text the app shows under ``root``: labels, buttons, tabs,
    combo and table cells, group titles, read-only text boxes, chart titles and legends."""
    for widget in [root, *root.findChildren(QWidget)]:
        name = widget.accessibleName() or widget.objectName() or type(widget).__name__
        if widget.objectName() == "postText":  # the post itself, shown alone in its own box
            continue
        if isinstance(widget, QLabel | QAbstractButton | QGroupBox):
            yield name, widget.title() if isinstance(widget, QGroupBox) else widget.text()
        if isinstance(widget, QPlainTextEdit) and widget.isReadOnly():
            yield name, widget.toPlainText()
        if isinstance(widget, QTabBar):
            for tab in range(widget.count()):
                yield f"{name} tab {tab}", widget.tabText(tab)
        views = [widget] if isinstance(widget, QAbstractItemView | QComboBox) else []
        for view in views:
            model = view.model()
            if model is None:
                continue
            for row in range(min(model.rowCount(QModelIndex()), 60)):
                columns = (
                    1 if isinstance(model, QAbstractListModel) else model.columnCount(QModelIndex())
                )
                for column in range(columns):
                    text = model.index(row, column).data(Qt.ItemDataRole.DisplayRole)
                    if isinstance(text, str):
                        yield f"{name} [{row},{column}]", text
        if isinstance(widget, QChartView) and widget.chart() is not None:
            chart = widget.chart()
            yield f"{name} chart", chart.title()
            for marker in chart.legend().markers():
                yield f"{name} legend", marker.label()


def embedding_problems(root: QWidget) -> list[str]:
    """Untrusted text (it carries CANARY) outside an FSI…PDI isolate, or a raw bidi control
    or invisible character other than the isolates' own: either can reverse or hide the
    app's own words around it."""
    bad = []
    for where, text in shown_texts(root):
        depth = 0
        for piece in regex.split(f"([{FSI}{PDI}]|{CANARY})", text):
            if piece == FSI:
                depth += 1
            elif piece == PDI:
                depth -= 1
            elif piece == CANARY and depth < 1:
                bad.append(f"{where}: untrusted text not isolated: {text[:80]!r}")
                break
            elif HIDDEN_RE.search(piece):
                bad.append(f"{where}: raw bidi or invisible character: {text[:80]!r}")
                break
            if depth < 0:
                bad.append(f"{where}: unbalanced isolates: {text[:80]!r}")
                break
    return bad


@pytest.fixture(params=["html", "bidi", "invisible"])
def poisoned(
    request: pytest.FixtureRequest, demo_server: LiveServer, listener: Listener
) -> Iterator[tuple[FaultProxy, Poisoner]]:
    """A proxy that poisons every reply (asked for before desk_factory, so it outlives the
    desks, which give their leases back through it): with the hostile list, with strings
    made of every bidi control, or of every default-ignorable code point."""
    strings = {
        "html": lambda: hostile_strings(listener.port),
        "bidi": bidi_strings,
        "invisible": invisible_strings,
    }[request.param]()
    poisoner = Poisoner(strings)
    proxy = FaultProxy(demo_server.port).start()
    for rule in poisoned_rules(poisoner):
        proxy.add(rule)
    yield proxy, poisoner
    proxy.stop()


def check(desk: Desk, where: str) -> None:
    desk.window.grab()  # painted, so every widget has laid out its text
    bad = widget_problems(desk.window) + title_problems() + embedding_problems(desk.window)
    assert bad == [], f"{where}:\n" + "\n".join(bad[:40])


def test_every_reviewer_widget_shows_hostile_replies_literally(
    poisoned: tuple[FaultProxy, Poisoner], desk_factory, listener: Listener
) -> None:
    proxy, poisoner = poisoned
    if True:
        # the reviewer's own name, as the login reply gives it, goes into the window title
        spoof = "\u202eevil.exe\u202c <b>lead</b> \u2066x\u2069 &Admin"

        def named(body: bytes) -> bytes:
            doc = json.loads(body)
            doc["user"]["display_name"] = spoof
            return json.dumps(doc).encode()

        with proxy._lock:
            proxy.rules.insert(0, Rule("POST", "/api/v1/sessions", "rewrite", rewrite=named))
        desk = desk_factory(proxy.url, prefetch=30, queue=QUEUE)
        window = desk.window
        assert window.session.user.display_name == spoof
        assert isolate(spoof, wrap=False) in window.windowTitle()
        assert not HIDDEN_RE.search(window.windowTitle())
        for step in range(12):
            desk.wait(lambda: window.review.current is not None, 20_000)
            for tab in range(window.context.count()):
                window.context.setCurrentIndex(tab)
            check(desk, f"item {step}")
            desk.qtbot.wait(40)
            desk.press(Qt.Key.Key_1)
        window.show_conflicts()
        assert window.conflicts_view is not None
        check(desk, "conflicts")
        assert widget_problems(window.conflicts_view) == []
        assert poisoner.failures == []
        poisoned = {model for model, count in poisoner.rewritten if count}
        assert {"QueueList", "LeaseGrant"} <= poisoned, poisoned
        for field in ("Post.text", "Author.display_name", "ActionConfig.label",
                      "PolicyConfig.label", "RatingConfig.label", "Queue.name",
                      "ClassifierScore.label", "FactCheck.claim", "Media.alt_text"):  # fmt: skip
            assert field in poisoner.fields, sorted(poisoner.fields)
        assert listener.connections == 0, "a widget fetched a remote resource"


def test_every_lead_widget_shows_hostile_replies_literally(
    demo_server: LiveServer, poisoned: tuple[FaultProxy, Poisoner], desk_factory, listener: Listener
) -> None:
    from tests.ui.test_lead_workspace import QUEUE as DECIDED_QUEUE
    from tests.ui.test_lead_workspace import reviewer_decides

    reviewer_decides(demo_server, 4)
    proxy, poisoner = poisoned
    if True:
        desk = desk_factory(proxy.url, user=LEAD, queue=QUEUE)
        window = desk.window
        qtbot = desk.qtbot
        assert window.lead is not None
        window.show_mode(1)
        lead = window.lead
        lead.setCurrentWidget(lead.queues_view)
        qtbot.waitUntil(lambda: lead.queues_view.model.rowCount() > 0, timeout=20_000)
        check(desk, "queues overview")
        lead.setCurrentWidget(lead.reviewers)
        qtbot.waitUntil(lambda: lead.reviewers.model.rowCount() > 0, timeout=20_000)
        check(desk, "reviewers")
        lead.setCurrentWidget(lead.exposure)
        qtbot.waitUntil(lambda: lead.exposure.model.rowCount() > 0, timeout=20_000)
        check(desk, "wellbeing")
        lead.setCurrentWidget(lead.escalations)
        qtbot.waitUntil(lambda: "waiting" in lead.escalations.summary.text(), timeout=20_000)
        check(desk, "escalations")
        lead.setCurrentWidget(lead.decisions)
        browser = lead.decisions
        qtbot.waitUntil(lambda: browser.model.rowCount() >= 4, timeout=20_000)
        browser.table.setCurrentIndex(browser.table.model().index(0, 0))
        browser.table.selectRow(0)
        qtbot.wait(300)
        check(desk, "decisions")
        lead.setCurrentWidget(lead.audits)
        audits = lead.audits
        audits.sample_size.setValue(2)
        audits.queue_picker.setCurrentIndex(audits.queue_picker.findData(DECIDED_QUEUE))
        audits.create_sample()
        qtbot.waitUntil(lambda: audits.samples.rowCount() == 1, timeout=20_000)

        audits.start_selected()
        desk_view = audits.desk
        qtbot.waitUntil(lambda: desk_view.task is not None and not desk_view.busy, timeout=20_000)
        check(desk, "blind audit")
        window.activateWindow()
        desk_view.setFocus()
        for _ in range(2):
            qtbot.waitUntil(
                lambda: desk_view.task is not None and not desk_view.busy, timeout=20_000
            )
            qtbot.wait(100)  # past the doubled-key guard (0.05 s in tests): a key, not a double
            desk.press(Qt.Key.Key_1)
            qtbot.waitUntil(lambda: not desk_view.busy, timeout=20_000)
        qtbot.waitUntil(lambda: not audits.auditing, timeout=20_000)
        qtbot.waitUntil(lambda: audits.results.rowCount() == 2, timeout=20_000)
        check(desk, "audit results")
        assert poisoner.failures == []
        poisoned = {model for model, count in poisoner.rewritten if count}
        expected = {
            "QueueStatsReport",
            "ReviewerStatsReport",
            "ExposureReport",
            "DecisionPage",
            "AuditTaskGrant",
        }
        assert expected <= poisoned, poisoned
        for field in (
            "QueueStats.name",
            "ReviewerStats.display_name",
            "ReviewerExposure.display_name",
            "Decision.note",
        ):
            assert field in poisoner.fields, sorted(poisoner.fields)
        assert listener.connections == 0, "a widget fetched a remote resource"
