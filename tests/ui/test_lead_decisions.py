"""The Lead workspace's decisions browser against the real service over HTTP, offscreen:
paging as the view scrolls, filters, the item history, Export CSV (hostile notes, cancel)
and failures shown in plain words while the GUI keeps running."""

from __future__ import annotations

import csv
import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt, QThreadPool, QTimer
from pytestqt.qtbot import QtBot
from sqlalchemy import insert, select

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Decision, DecisionQuery
from reviewer_app.protocol.csvsafe import DECISION_COLUMNS, FORMULA_PREFIXES, decision_row
from reviewer_app.server.demo.replay import DEMO_APPEALS
from reviewer_app.server.storage.tables import decisions, users
from reviewer_app.ui.lead.decisions import DecisionsBrowser
from reviewer_app.ui.lead.decisions_model import COLUMNS, DecisionsModel
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession, claim, verdict
from tests.support.proxy import FaultProxy
from tests.support.servers import LiveServer

from .conftest import LEAD, REVIEWER

SPAM = "spam-scams"
NOTE = COLUMNS.index("Note")
ACTION = COLUMNS.index("Action")
HOSTILE_NOTES = (
    "=cmd|' /C calc'!A0",
    "+1+1",
    "-2-2",
    "@SUM(A1:A9)",
    "\tindented",
    "\rcarriage return first",
    'quote " and, comma',
    "<b>bold?</b> <img src=http://evil.example/x.png>\nsecond line",
    "\u202ebidi override\u202c \U0001f600",
    "",
)


def insert_decisions(
    server: LiveServer, count: int, *, reviewer: str = "bulk", queue_id: str = SPAM
) -> None:
    """``count`` decisions by ``reviewer`` straight into the database, one a second up to
    an hour ago, every fourth a keep, with hostile notes in turn."""
    server.add_user(reviewer)
    start = time.time() - 3_600 - count
    with server.service.db.write() as conn:
        user_id = conn.execute(select(users.c.id).where(users.c.username == reviewer)).scalar_one()
        conn.execute(
            insert(decisions),
            [
                {
                    "item_id": f"{reviewer}-{i}",
                    "epoch": 0,
                    "queue_id": queue_id,
                    "user_id": user_id,
                    "author_id": f"author-{i % 7}",
                    "action": "keep" if i % 4 == 0 else "remove",
                    "policies": "[]" if i % 4 == 0 else '["SPAM.SCAM"]',
                    "note": HOSTILE_NOTES[i % len(HOSTILE_NOTES)] or None,
                    "time_spent_ms": 1_000 + i,
                    "decided_at": start + i,
                    "client_decided_at": start + i,
                }
                for i in range(count)
            ],
        )


def lead_factory(url: str) -> Callable[[], ApiClient]:
    """The lead's one client, as the workspace shares it (no caller closes it)."""
    with ApiClient(url) as client:
        token = client.login(*LEAD).token
    shared = ApiClient(url, token=token)
    return lambda: shared


def server_decisions(url: str, order: str = "desc", **filters: Any) -> list[Decision]:
    found: list[Decision] = []
    cursor = None
    with lead_factory(url)() as client:
        while True:
            page = client.decisions(DecisionQuery(**filters), order=order, cursor=cursor, limit=500)
            found += page.decisions
            if (cursor := page.next_cursor) is None:
                return found


def settle() -> None:
    """Let every background job end (before the server or the widgets go away)."""
    QThreadPool.globalInstance().waitForDone(30_000)


@pytest.fixture
def open_browser(qtbot: QtBot) -> Iterator[Callable[[str], DecisionsBrowser]]:
    opened: list[DecisionsBrowser] = []

    def make(url: str) -> DecisionsBrowser:
        browser = DecisionsBrowser(lead_factory(url))
        qtbot.addWidget(browser)
        browser.resize(1200, 700)
        browser.show()
        qtbot.waitUntil(lambda: not browser.model.loading, timeout=20_000)
        opened.append(browser)
        return browser

    yield make
    for browser in opened:
        browser.shutdown()
    settle()


def loaded_ids(model: DecisionsModel) -> list[int]:
    ids = [model.decision_id(row) for row in range(model.rowCount())]
    return [i for i in ids if i is not None]


def scroll_to_end(qtbot: QtBot, browser: DecisionsBrowser) -> list[int]:
    """Scroll down a screen at a time until every decision is in; the row counts seen."""
    model, bar = browser.model, browser.table.verticalScrollBar()
    counts = [model.rowCount()]
    while not model.exhausted:
        bar.setValue(bar.maximum())
        qtbot.waitUntil(lambda: not model.loading, timeout=20_000)
        assert model.rowCount() >= counts[-1]
        counts.append(model.rowCount())
    return counts


def test_model_pages_in_as_the_view_scrolls_and_filters_narrow(
    demo_server: LiveServer, open_browser: Callable[[str], DecisionsBrowser], qtbot: QtBot
) -> None:
    insert_decisions(demo_server, 1_000)
    browser = open_browser(demo_server.url)
    model = browser.model
    first = model.rowCount()
    assert 0 < first < 1_000, "the whole search must not load before anyone scrolls"
    qtbot.wait(200)
    assert model.rowCount() == first, "nothing more loads while the view stays at the top"

    counts = scroll_to_end(qtbot, browser)
    assert len(set(counts)) > 3, f"rows arrive a page at a time as the view scrolls: {counts}"
    expected = server_decisions(demo_server.url)
    ids = loaded_ids(model)
    assert ids == [d.id for d in expected], "every decision once, newest first"
    assert len(ids) == len(set(ids)) == 1_000 + len(DEMO_APPEALS)  # the demo's own, appealed
    assert "all shown" in browser.status.text()

    browser.reviewer.setText("bulk")
    browser.action.setText("keep")
    browser.apply_button.click()
    qtbot.waitUntil(lambda: not model.loading and model.rowCount() > 0, timeout=20_000)
    scroll_to_end(qtbot, browser)
    keeps = server_decisions(demo_server.url, reviewer="bulk", action="keep")
    assert len(keeps) == 250
    assert loaded_ids(model) == [d.id for d in keeps]
    assert {model.index(r, ACTION).data() for r in range(model.rowCount())} == {"keep"}

    browser.audited.setCurrentIndex(browser.audited.findData(True))  # nothing audited yet
    browser.apply_button.click()
    qtbot.waitUntil(lambda: not model.loading, timeout=20_000)
    assert model.rowCount() == 0
    assert browser.status.text() == "No decisions match these filters."

    # a filter no decision can match as written is said here, and nothing is asked
    rows_before, filters_before = model.rowCount(), model.filters
    browser.policy.setText("hate speech")
    browser.apply_button.click()
    assert "“Policy” cannot match any decision as written" in browser.status.text()
    assert model.filters == filters_before and model.rowCount() == rows_before
    browser.policy.clear()

    browser.show_reviewer("nobody-at-all")  # the drill-down from the reviewer figures
    qtbot.waitUntil(lambda: not model.loading, timeout=20_000)
    assert model.rowCount() == 0 and browser.reviewer.text() == "nobody-at-all"
    assert browser.audited.currentData() is None and browser.action.text() == ""


def test_time_filters_and_hostile_cells_shown_as_plain_text(
    demo_server: LiveServer, open_browser: Callable[[str], DecisionsBrowser], qtbot: QtBot
) -> None:
    insert_decisions(demo_server, 300)
    everything = server_decisions(demo_server.url, order="asc")
    middle = everything[100].decided_at
    end = everything[199].decided_at
    browser = open_browser(demo_server.url)
    browser.set_filters(DecisionQuery(since=middle, until=end))
    model = browser.model
    qtbot.waitUntil(lambda: not model.loading and model.exhausted, timeout=20_000)
    # the widgets hold minutes: the window is cut to whole minutes around [middle, end)
    ids = loaded_ids(model)
    window = server_decisions(
        demo_server.url,
        since=browser.since.dateTime().toPython().astimezone(),
        until=browser.until.dateTime().toPython().astimezone(),
    )
    assert ids == [d.id for d in window] and 0 < len(ids) < 300

    browser.clear_filters()
    qtbot.waitUntil(lambda: not model.loading and model.rowCount() > 0, timeout=20_000)
    notes = {
        model.index(r, NOTE).data(): model.index(r, NOTE).data(Qt.ItemDataRole.ToolTipRole)
        for r in range(model.rowCount())
    }
    cell = isolate("<b>bold?</b> <img src=http://evil.example/x.png>") + " …"  # isolated
    assert cell in notes
    tip = notes[cell]
    assert "&lt;b&gt;" in tip and "<b>" not in tip.replace('<p style="white-space:pre-wrap">', "")
    assert isolate("\u202ebidi override\u202c \U0001f600") in notes, "bidi controls made visible"
    assert "⟦U+202E⟧bidi override⟦U+202C⟧ \U0001f600" in isolate(
        "\u202ebidi override\u202c \U0001f600"
    )
    assert browser.since.isEnabled() is False and browser.until_on.isChecked() is False

    browser.since_on.setChecked(True)
    browser.until_on.setChecked(True)
    browser.until.setDateTime(browser.since.dateTime().addSecs(-60))
    before = model.rowCount()
    browser.apply_button.click()
    assert "later than" in browser.status.text() and model.rowCount() == before


def test_decisions_model_passes_qtmodeltester(
    demo_server: LiveServer, qtmodeltester: Any, qtbot: QtBot
) -> None:
    insert_decisions(demo_server, 450)
    model = DecisionsModel(lead_factory(demo_server.url), page_size=100)
    try:
        model.set_filters(DecisionQuery(reviewer="bulk"))
        qtbot.waitUntil(lambda: model.rowCount() == 100 and not model.loading, timeout=20_000)
        qtmodeltester.check(model)  # it also calls fetchMore: rows arrive while it watches
        while not model.exhausted:
            qtbot.waitUntil(lambda: not model.loading, timeout=20_000)
            model.fetchMore(QModelIndex())
            qtbot.waitUntil(lambda: not model.loading, timeout=20_000)
        assert model.rowCount() == 450 and not model.canFetchMore(QModelIndex())
        qtmodeltester.check(model)
    finally:
        model.close()
        settle()


def test_history_panel_shows_the_selected_items_events(
    demo_server: LiveServer, open_browser: Callable[[str], DecisionsBrowser], qtbot: QtBot
) -> None:
    reviewer = ApiSession.login(demo_server.url, *REVIEWER)
    leased = claim(reviewer, SPAM, 2)
    results = reviewer.decide(
        [
            verdict(leased[0], "remove", policies=["SPAM.SCAM"], note="=HYPERLINK(1)\nmore"),
            verdict(leased[1], "not-spam"),
        ]
    )
    assert [r["status"] for r in results] == ["accepted", "accepted"]
    item_id = leased[0]["item"]["id"]
    insert_decisions(demo_server, 20)

    browser = open_browser(demo_server.url)
    browser.item.setText(item_id)
    browser.item.returnPressed.emit()
    model = browser.model
    qtbot.waitUntil(lambda: model.rowCount() == 1 and not model.loading, timeout=20_000)
    assert model.index(0, NOTE).data() == isolate("=HYPERLINK(1)") + " …"
    qtbot.waitUntil(lambda: bool(model.queues), timeout=20_000)  # the queues' words
    with qtbot.waitSignal(browser.history_shown, timeout=20_000) as shown:
        browser.table.selectRow(0)
    assert shown.args == [item_id]
    lines = browser.history.toPlainText().splitlines()
    # the demo's posts come in through intake: the platform account queued it, by a rule
    entered = lines[0].split("  ", 1)[1]
    # names and values from the wire are isolated inside the app's words; the queue is
    # named by its name and the action by its label there, as in the table ("in
    # spam-scams", "action: remove" before)
    by_platform = f"entered the queue by {isolate('demo-platform')}"
    assert entered.startswith(f"{by_platform} in {isolate('Spam and scams')}"), entered
    assert "routing rule: " in entered
    assert any(f"  claimed by {isolate('reviewer')}" in line for line in lines)
    decided = [line for line in lines if f"  decided by {isolate('reviewer')}" in line]
    assert len(decided) == 1 and f"action: {isolate('Remove')}" in decided[0], decided
    assert f"policies: {isolate('SPAM.SCAM')}" in decided[0]
    assert item_id in browser.history_title.text()

    # a decision whose item the service does not hold: the panel says so in words
    browser.clear_filters()
    # the reviewer's 2, the 20 inserted, and the demo's decisions its users appealed
    every = 22 + len(DEMO_APPEALS)
    qtbot.waitUntil(lambda: not model.loading and model.rowCount() == every, timeout=20_000)
    row = next(r for r in range(model.rowCount()) if model.item_id(r) == "bulk-3")
    browser.table.selectRow(row)
    qtbot.waitUntil(lambda: "refused" in browser.history.toPlainText(), timeout=20_000)
    assert "Something went wrong" not in browser.history.toPlainText()


def read_csv(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8-sig") as handle:
        return list(csv.reader(handle))


def test_export_writes_the_servers_decisions_with_hostile_cells_neutralised(
    demo_server: LiveServer,
    open_browser: Callable[[str], DecisionsBrowser],
    qtbot: QtBot,
    tmp_path: Path,
) -> None:
    insert_decisions(demo_server, 2_500)
    insert_decisions(demo_server, 40, reviewer="other")
    browser = open_browser(demo_server.url)
    browser.reviewer.setText("bulk")
    browser.apply_button.click()
    qtbot.waitUntil(lambda: not browser.model.loading, timeout=20_000)

    target = tmp_path / "out" / "decisions.csv"
    target.parent.mkdir()
    with qtbot.waitSignal(browser.export_finished, timeout=60_000) as done:
        assert browser.export_to(target)
        assert browser.export_progress.isVisible() and browser.export_cancel_button.isVisible()
        assert not browser.export_button.isEnabled()
    assert done.args == [2_500, str(target)]
    assert browser.export_status.text() == f"Exported 2,500 decisions to {target}."
    assert not browser.export_progress.isVisible() and browser.export_button.isEnabled()

    # a byte-order mark first (Excel reads a CSV without one in the ANSI code page: a
    # note in Hebrew came out garbled), then every cell quoted (Excel splitting on ";"
    # reads each whole, and a ";=" inside a note starts no cell)
    raw = target.read_bytes()
    assert raw.startswith(b'\xef\xbb\xbf"decision_id","item_id",')
    rows = read_csv(target)
    assert tuple(rows[0]) == DECISION_COLUMNS
    expected = server_decisions(demo_server.url, order="asc", reviewer="bulk")
    assert rows[1:] == [decision_row(d) for d in expected]
    for row in rows[1:]:
        assert not any(cell.startswith(FORMULA_PREFIXES) for cell in row)
    notes = {row[DECISION_COLUMNS.index("note")] for row in rows[1:]}
    assert "'=cmd|' /C calc'!A0" in notes and "'\rcarriage return first" in notes
    assert 'quote " and, comma' in notes  # everything else round-trips unchanged
    assert list(target.parent.iterdir()) == [target], "no temporary file is left behind"


def test_cancelled_export_leaves_no_file(
    demo_server: LiveServer,
    open_browser: Callable[[str], DecisionsBrowser],
    qtbot: QtBot,
    tmp_path: Path,
) -> None:
    insert_decisions(demo_server, 5_000)
    browser = open_browser(demo_server.url)
    folder = tmp_path / "exports"
    folder.mkdir()
    target = folder / "cancelled.csv"
    with qtbot.waitSignal(browser.export_failed, timeout=60_000) as failed:
        assert browser.export_to(target)
        assert not browser.export_to(folder / "second.csv"), "one export at a time"
        browser.export_cancel_button.click()
    assert failed.args[0].startswith("Export cancelled after")
    assert "no file was written" in browser.export_status.text()
    assert list(folder.iterdir()) == []
    assert browser.export_button.isEnabled() and not browser.export_cancel_button.isVisible()


def heartbeat(qtbot: QtBot) -> tuple[QTimer, list[float]]:
    """A 10 ms timer noting when it ran: gaps show whether the GUI thread was blocked."""
    ticks: list[float] = [time.monotonic()]
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start()
    return timer, ticks


def longest_gap(ticks: list[float]) -> float:
    return max((b - a for a, b in itertools.pairwise(ticks)), default=0.0)


def test_a_refusing_network_shows_a_plain_message_and_recovers(
    demo_server: LiveServer,
    open_browser: Callable[[str], DecisionsBrowser],
    qtbot: QtBot,
    tmp_path: Path,
) -> None:
    insert_decisions(demo_server, 800)
    proxy = FaultProxy(demo_server.port).start()
    try:
        browser = open_browser(proxy.url)
        model = browser.model
        before = model.rowCount()
        assert 0 < before < 800
        proxy.offline()  # connects are refused from now on
        timer, ticks = heartbeat(qtbot)
        with qtbot.waitSignal(model.load_failed, timeout=60_000) as failed:
            bar = browser.table.verticalScrollBar()
            bar.setValue(bar.maximum())
        timer.stop()
        message = failed.args[0]
        assert message.startswith("The server cannot be reached while loading decisions.")
        assert "Traceback" not in message and "Exception" not in message
        assert browser.status.text() == message and browser.retry_button.isVisible()
        assert len(ticks) > 3 and longest_gap(ticks) < 1.0, "the GUI kept running meanwhile"
        assert model.rowCount() == before and not model.canFetchMore(QModelIndex())

        folder = tmp_path / "exports"
        folder.mkdir()
        with qtbot.waitSignal(browser.export_failed, timeout=60_000) as export_failed:
            browser.export_to(folder / "never.csv")
        assert "cannot be reached" in export_failed.args[0]
        assert list(folder.iterdir()) == []

        proxy.online()
        browser.retry_button.click()
        qtbot.waitUntil(lambda: model.rowCount() > before and not model.loading, timeout=30_000)
        assert not browser.retry_button.isVisible()
        ids = loaded_ids(model)
        assert len(ids) == len(set(ids))
    finally:
        settle()
        proxy.stop()


def test_a_stopped_server_shows_a_plain_message(
    demo_server: LiveServer, open_browser: Callable[[str], DecisionsBrowser], qtbot: QtBot
) -> None:
    insert_decisions(demo_server, 10)
    browser = open_browser(demo_server.url)
    demo_server.stop()
    timer, ticks = heartbeat(qtbot)
    with qtbot.waitSignal(browser.model.load_failed, timeout=60_000) as failed:
        browser.apply_button.click()
    timer.stop()
    assert "cannot be reached" in failed.args[0]
    assert browser.model.rowCount() == 0 and browser.retry_button.isVisible()
    assert longest_gap(ticks) < 1.0


def test_the_table_names_queues_and_actions_in_words(
    demo_server: LiveServer, open_browser: Callable[[str], DecisionsBrowser], qtbot: QtBot
) -> None:
    """The queue by its name and the action by its label in that queue (the table showed
    "misinformation" and "reduce"), and the time whole in its column."""
    session = ApiSession.login(demo_server.url, *REVIEWER)
    [leased] = claim(session, "misinformation", 1)
    [result] = session.decide([verdict(leased, "reduce")])
    assert result["status"] == "accepted"
    browser = open_browser(demo_server.url)
    model = browser.model
    qtbot.waitUntil(lambda: bool(model.queues) and not model.loading, timeout=20_000)
    row = next(r for r in range(model.rowCount()) if model.item_id(r) == leased["item"]["id"])
    cells = {name: model.index(row, c).data() for c, name in enumerate(COLUMNS)}
    assert cells["Queue"] == isolate("Misinformation")
    assert cells["Action"] == isolate("Reduce distribution")
    stamp = browser.table.fontMetrics().horizontalAdvance(cells["Decided at"])
    assert browser.table.columnWidth(0) > stamp, "the time is not cut"
