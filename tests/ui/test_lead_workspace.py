"""The Lead workspace against the real service: absent for reviewers (and refused by the
server whatever the client is told), queue health with charts and SLA breaches, reviewer
figures with a drill-down, a blind audit with the reviewers' keys, and escalations."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from PySide6.QtCharts import QChartView, QLineSeries
from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QLabel,
    QPlainTextEdit,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.ui.lead.audits import decision_words
from reviewer_app.ui.lead.charts import COLUMN_ROWS, fit_legend, new_chart
from reviewer_app.ui.lead.stats_views import QueuesOverview
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession, claim, verdict
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

K = Qt.Key
QUEUE = "spam-scams"
MARKER = "ORIGINAL-DECISION-NOTE-51c2"
RECORDING = "Recording your judgement…"


def reviewer_decides(server: LiveServer, count: int) -> list[dict[str, Any]]:
    """Decisions by the demo reviewer, each a removal with a note only it carries."""
    session = ApiSession.login(server.url, *REVIEWER)
    config = next(q for q in session.get("/queues").json()["queues"] if q["id"] == QUEUE)
    policies = [p["code"] for p in config["config"]["policies"]]
    leased = claim(session, QUEUE, count)
    results = session.decide(  # each with another policy, so their words differ
        [
            verdict(x, "remove", policies=[policies[n % len(policies)]], note=f"{MARKER} {n}")
            for n, x in enumerate(leased)
        ]
    )
    assert {r["status"] for r in results} == {"accepted"}
    return [r["decision"] for r in results]


def model_texts(model: QAbstractItemModel) -> Iterator[str]:
    columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount()
    for row in range(model.rowCount()):
        for column in range(columns):
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                value = model.index(row, column).data(role)
                if value is not None:
                    yield str(value)


def every_text(root: QWidget) -> str:
    """Everything any widget under ``root`` shows or would show (tooltips, titles, items)."""
    parts = [root.windowTitle()]
    for widget in [root, *root.findChildren(QWidget)]:
        parts += [widget.toolTip(), widget.accessibleName(), widget.accessibleDescription()]
        if isinstance(widget, QLabel | QAbstractButton):
            parts.append(widget.text())
        if isinstance(widget, QPlainTextEdit):
            parts.append(widget.toPlainText())
        if isinstance(widget, QComboBox):
            parts += [widget.itemText(i) for i in range(widget.count())]
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            parts += list(model_texts(widget.model()))
    return "\n".join(parts)


def test_a_reviewer_has_no_lead_workspace_and_the_server_refuses_its_calls(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    desk = desk_factory(demo_server.url, queue=QUEUE)
    assert desk.window.lead is None and desk.window.modes is None
    assert "Lead workspace" not in [
        a.text() for a in desk.window.menuBar().actions()[0].menu().actions()
    ]

    # A client told otherwise (a workspace built with a reviewer's token) gets nothing.
    def reviewer_client() -> ApiClient:
        return desk.window.session.client()

    overview = QueuesOverview(reviewer_client)
    qtbot.addWidget(overview)
    overview.show()
    qtbot.waitUntil(lambda: not overview.loading and overview.status.text() != "Loading…")
    assert "may not do this" in overview.status.text()
    assert overview.model.rowCount() == 0


def test_queue_health_reviewer_figures_and_drill_down(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    reviewer_decides(demo_server, 6)
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    assert window.lead is not None and window.modes is not None
    window.show_mode(1)
    lead = window.lead
    lead.setCurrentWidget(lead.queues_view)
    overview = lead.queues_view
    qtbot.waitUntil(lambda: overview.model.rowCount() > 0, timeout=20_000)
    names = [overview.model.index(r, 0).data() for r in range(overview.model.rowCount())]
    assert "Spam and scams" in " ".join(names) or len(names) >= 4
    row = next(
        r for r in range(overview.model.rowCount()) if overview.model.queues[r].queue_id == QUEUE
    )
    assert overview.model.queues[row].decided >= 6
    # the action mix says each action by its label in the queue ("remove" was a code)
    label = demo_server.service.configs()[QUEUE].action_labels()["remove"]
    mixed = overview.model.index(row, len(overview.model.HEADERS) - 1).data()
    assert mixed.startswith(isolate(label) + " "), mixed
    assert sum(len(s.points()) for s in overview.throughput.series()) > 0
    assert len(overview.backlog_chart.series()) == overview.model.rowCount()
    assert overview.findChildren(QChartView)
    for chart in (overview.throughput, overview.backlog_chart):  # a colour a queue, the same
        colours = [s.color().name() for s in chart.series()]  # in both charts
        assert len(colours) >= 6 and len(set(colours)) == len(colours), colours
    assert [s.color() for s in overview.throughput.series()] == [
        s.color() for s in overview.backlog_chart.series()
    ]
    breached = [
        r for r in range(overview.model.rowCount()) if overview.model.queues[r].sla_breached
    ]
    for r in breached:  # highlighted, in the table and in words
        assert overview.model.index(r, 0).data(Qt.ItemDataRole.BackgroundRole) is not None
        assert "over SLA" in overview.model.index(r, 3).data()
    assert ("Over SLA" in overview.breaches.text()) == bool(breached)

    lead.setCurrentWidget(lead.reviewers)
    reviewers = lead.reviewers
    qtbot.waitUntil(lambda: reviewers.model.rowCount() > 0, timeout=20_000)
    mine = next(r for r in reviewers.model.reviewers if r.reviewer == REVIEWER[0])
    assert mine.decisions >= 6
    # sorted by the Decisions column, most first
    view = reviewers.view
    firsts = [
        view.model().index(r, 1).data(Qt.ItemDataRole.UserRole + 1)
        for r in range(view.model().rowCount())
    ]
    assert firsts == sorted(firsts, reverse=True)
    row = next(
        r
        for r in range(view.model().rowCount())
        if view.model().index(r, 0).data(Qt.ItemDataRole.UserRole) == REVIEWER[0]
    )
    reviewers.view.setCurrentIndex(view.model().index(row, 0))
    reviewers.open_button.click()
    assert lead.currentWidget() is lead.decisions
    browser = lead.decisions
    qtbot.waitUntil(lambda: browser.model.rowCount() >= 6, timeout=20_000)
    texts = list(model_texts(browser.model))
    assert sum(MARKER in t for t in texts) >= 6


def test_a_blind_audit_hides_the_original_until_the_auditor_decides(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    originals = reviewer_decides(demo_server, 2)
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    assert window.lead is not None
    window.show_mode(1)
    lead = window.lead
    lead.setCurrentWidget(lead.audits)
    audits = lead.audits
    audits.sample_size.setValue(2)
    audits.queue_picker.setCurrentIndex(audits.queue_picker.findData(QUEUE))
    audits.create_sample()
    qtbot.waitUntil(lambda: audits.samples.rowCount() == 1, timeout=20_000)
    assert "2 decisions drawn" in audits.status.text()
    audits.start_selected()
    desk_view = audits.desk
    judged: dict[str, str] = {}
    for _ in range(2):
        qtbot.waitUntil(lambda: desk_view.task is not None and not desk_view.busy, timeout=20_000)
        item_id = desk_view.task.item.id
        assert item_id in {d["item_id"] for d in originals}
        # Nothing anywhere in the window tells the original decision before the judgement.
        shown = every_text(window)
        assert MARKER not in shown
        original = next(d for d in originals if d["item_id"] == item_id)
        words = decision_words(original["action"], original["policies"], original["reviewer"])
        assert words not in shown  # (the previous item's result may show: it is decided)
        outcome_before = desk_view.outcome.text()
        # The same keys as reviewing: 1 is this queue's "no violation" (an overturn here).
        window.activateWindow()
        desk_view.setFocus()
        qtbot.wait(100)  # past the doubled-key guard (0.05 s in tests): a key, not a double
        desk.press(K.Key_1)
        qtbot.waitUntil(
            lambda before=outcome_before: desk_view.outcome.text() not in (before, RECORDING),
            timeout=20_000,
        )
        judged[item_id] = desk_view.outcome.text()
        qtbot.waitUntil(lambda: desk_view.busy is False, timeout=20_000)
    for item_id, words in judged.items():
        assert words.startswith(f"Overturned on {item_id}: the original was remove")
        assert f"by {isolate('reviewer')}" in words  # a user's name, isolated
    qtbot.waitUntil(lambda: not audits.auditing, timeout=20_000)
    qtbot.waitUntil(lambda: audits.results.rowCount() == 2, timeout=20_000)
    assert {r.result.value for r in audits.results.rows} == {"overturn"}
    assert audits.agreement.rowCount() == 1
    assert audits.agreement.index(0, 3).data() == "2"
    # The overturn is the decision of record on the server.
    api = desk.lead()
    for item_id in judged:
        assert api.item(item_id).decision.action != "remove"
    # ... it shows in the item's timeline (the original kept) and in the reviewer's figures
    item_id = next(iter(judged))
    lead.setCurrentWidget(lead.decisions)
    lead.decisions.show_history(item_id)
    qtbot.waitUntil(
        lambda: f"overturned by {isolate('lead')}" in lead.decisions.history.toPlainText(),
        timeout=20_000,
    )
    timeline = lead.decisions.history.toPlainText()
    assert (
        f"decided by {isolate('reviewer')}" in timeline
        and "audited" not in timeline.split("overturned")[1]
    )
    lead.setCurrentWidget(lead.reviewers)
    lead.reviewers.refresh()
    qtbot.waitUntil(lambda: any(r.reviewer == REVIEWER[0] for r in lead.reviewers.model.reviewers))
    mine = next(r for r in lead.reviewers.model.reviewers if r.reviewer == REVIEWER[0])
    assert mine.audit_overturned == 2 and mine.overturn_rate and mine.overturn_rate > 0


def test_escalations_are_reviewed_in_the_review_flow(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    window.show_mode(1)
    lead = window.lead
    assert lead is not None
    lead.setCurrentWidget(lead.escalations)
    qtbot.waitUntil(lambda: "waiting" in lead.escalations.summary.text(), timeout=20_000)
    lead.escalations.review_button.click()
    assert window.modes.currentIndex() == 0
    assert window.review.queue is not None and window.review.queue.id == "escalations"


def test_an_audited_post_shows_its_media(demo_server: LiveServer, desk_factory, qtbot) -> None:
    """An audited item is not in the auditor's local store: its media comes with the task."""
    session = ApiSession.login(demo_server.url, *REVIEWER)
    leased = claim(session, "misinformation", 12)
    assert any(x["item"]["post"]["media"] for x in leased)
    session.decide([verdict(x, "no-violation") for x in leased])
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    assert window.lead is not None
    window.show_mode(1)
    audits = window.lead.audits
    window.lead.setCurrentWidget(audits)
    audits.sample_size.setValue(12)
    audits.queue_picker.setCurrentIndex(audits.queue_picker.findData("misinformation"))
    audits.create_sample()
    qtbot.waitUntil(lambda: audits.samples.rowCount() == 1, timeout=20_000)
    audits.start_selected()
    view = audits.desk
    for _ in range(12):
        qtbot.waitUntil(lambda: view.task is not None and not view.busy, timeout=20_000)
        assert view.task is not None
        if view.task.item.post.media:
            break
        judged = view.task.audit_id
        qtbot.wait(100)  # past the doubled-key guard (0.05 s in tests): a key, not a double
        view.choose("no-violation")
        qtbot.waitUntil(
            lambda judged=judged: view.task is None or view.task.audit_id != judged,
            timeout=20_000,
        )
    media = view.task.item.post.media
    assert media, "no audited post with media"
    tiles = view.post.media.tiles
    assert len(tiles) == len(media)
    assert all(t.problem is None and not t.original.isNull() for t in tiles)


def test_a_chart_legend_never_makes_the_window_taller_with_more_queues(qtbot) -> None:
    """Up to six queues the legend is a column beside the plot, the view tall enough for
    it; with more, rows under the plot at the least height: the window's least height does
    not grow with the number of queues."""
    heights = {}
    for queues in (3, 6, 7, 40):
        chart, view = new_chart(f"chart{queues}", "Decided per hour")
        qtbot.addWidget(view)
        for n in range(queues):
            series = QLineSeries()
            series.setName(f"queue {n}")
            chart.addSeries(series)
        fit_legend(chart)
        heights[queues] = view.minimumHeight()
        beside = chart.legend().alignment() == Qt.AlignmentFlag.AlignRight
        assert beside == (queues <= COLUMN_ROWS), queues
    assert heights[3] <= heights[6] and heights[7] == heights[40] <= heights[6], heights


def test_the_results_follow_the_sample_moved_to_with_the_arrow_keys(
    demo_server: LiveServer, desk_factory, qtbot
) -> None:
    """Only a click showed a sample's results: the arrow keys moved the current row and the
    results below stayed the other sample's."""
    from datetime import UTC, datetime, timedelta

    from PySide6.QtTest import QTest

    from reviewer_app.protocol import AuditSampleCreate

    started = datetime.now(UTC) - timedelta(seconds=1)
    reviewer_decides(demo_server, 6)  # a decision is in one sample only: 1 + 2 + 3
    until = datetime.now(UTC) + timedelta(seconds=1)
    with ApiClient(demo_server.url) as lead:
        lead.login(*LEAD)
        made = [
            lead.create_sample(
                AuditSampleCreate(size=size, since=started, until=until, queue_id=QUEUE)
            )
            for size in (1, 2, 3)
        ]
    desk: Desk = desk_factory(demo_server.url, user=LEAD)
    window = desk.window
    assert window.lead is not None
    window.show_mode(1)
    audits = window.lead.audits
    window.lead.setCurrentWidget(audits)
    qtbot.waitUntil(lambda: audits.samples.rowCount() == 3, timeout=20_000)
    # the sample's queue by its name, as everywhere, not its id
    name = next(q.name for q in window.store.queues() if q.id == QUEUE)
    assert audits.samples.index(0, 6).data() == isolate(name) != isolate(QUEUE)
    view = audits.samples_view
    view.setFocus()

    def shown_after(key: Qt.Key) -> str:
        QTest.keyClick(view, key)
        sample_id = audits.selected_sample()
        sample = next(s for s in made if s.id == sample_id)
        qtbot.waitUntil(
            lambda: f"sample #{sample_id}:" in audits.results_status.text(), timeout=20_000
        )
        assert f"0 of {sample.size} judged" in audits.results_status.text()
        return audits.results_status.text()

    first = audits.selected_sample()
    qtbot.waitUntil(lambda: f"sample #{first}:" in audits.results_status.text(), timeout=20_000)
    seen = {audits.results_status.text(), shown_after(K.Key_Down), shown_after(K.Key_Down)}
    assert len(seen) == 3  # each sample's own results
    shown_after(K.Key_Up)
