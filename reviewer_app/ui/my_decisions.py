"""My decisions: a reviewer's own decisions of the shift or the last 7 or 30 days with what
became of each (accepted, confirmed or overturned in an audit with the auditor's note,
appealed, a conflict, a lead's note), and the notice at login of what came since they last
looked.

Notes are untrusted text: shown as plain text, each isolated (FSI…PDI, bidi controls as
markers) where it sits inside the app's own sentences. The service is asked on a pool
thread; only the finished rows reach the GUI thread.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import StoreError
from reviewer_app.core.store import Conflict, JournalEntry
from reviewer_app.protocol import (
    ESCALATION_QUEUE,
    EXCERPT_CHARS,
    ActionKind,
    DecisionOutcome,
    Feedback,
    FeedbackKind,
    FeedbackNotice,
    MyDecision,
    Queue,
)
from reviewer_app.protocol.feedback import FEEDBACK_REACH_DAYS

from .background import run_op
from .i18n import QT_TRANSLATE_NOOP, translate
from .messages import describe
from .models import RowsTable
from .plain import clean, isolate, label, local_day, named, read_only_table, set_text
from .theme import Tone, set_tone, space

log = logging.getLogger("ui")
ClientFactory = Callable[[], ApiClient]

#: pages of 500 asked for at most (a shift's or a week's decisions of one reviewer)
MAX_PAGES = 8
SHIFT, WEEK, MONTH = "shift", "week", "month"
#: the periods, narrowest first, and how many days back the wider ones reach
SPANS = {WEEK: 7, MONTH: FEEDBACK_REACH_DAYS}
#: made this much earlier than it reached the service: offline work, said so
LATE = timedelta(minutes=5)


def when(moment: datetime, now: datetime | None = None) -> str:
    """A time from the wire in the reviewer's local time, in words near today."""
    local = moment.astimezone()
    today = (now or datetime.now(UTC)).astimezone().date()
    clock = local.strftime("%H:%M")
    if local.date() == today:
        return translate("MyDecisions", "today {time}").format(time=clock)
    if local.date() == today - timedelta(days=1):
        return translate("MyDecisions", "yesterday {time}").format(time=clock)
    return local_day(local, "ddd dd MMM HH:mm")


def outcome_words(outcome: DecisionOutcome) -> str:
    return {
        DecisionOutcome.accepted: translate("MyDecisions", "Accepted"),
        DecisionOutcome.confirmed: translate("MyDecisions", "Confirmed in an audit"),
        DecisionOutcome.overturned: translate("MyDecisions", "Overturned in an audit"),
        DecisionOutcome.appealed: translate("MyDecisions", "Appealed, waiting for a decision"),
        DecisionOutcome.appeal_upheld: translate("MyDecisions", "Appealed and upheld"),
        DecisionOutcome.appeal_reversed: translate("MyDecisions", "Reversed on appeal"),
    }[outcome]


class Names:
    """Queue and action names from the queues' configurations (ids as a fallback)."""

    def __init__(self, queues: Sequence[Queue]) -> None:
        self.queues = {q.id: q.name for q in queues}
        self.actions = {(q.id, a.id): a.label for q in queues for a in q.config.actions}
        self.any_action = {a.id: a.label for q in queues for a in q.config.actions}
        self.kinds = {(q.id, a.id): a.kind for q in queues for a in q.config.actions}

    def escalates(self, queue_id: str, action: str) -> bool:
        return self.kinds.get((queue_id, action)) is ActionKind.escalate

    def queue(self, queue_id: str) -> str:
        return isolate(self.queues.get(queue_id, queue_id))

    def action(self, queue_id: str, action: str | None) -> str:
        if action is None:
            return ""
        return isolate(
            self.actions.get((queue_id, action)) or self.any_action.get(action) or action
        )


def feedback_line(f: Feedback, queue_id: str, names: Names) -> str:
    """One piece of feedback as a sentence of the app's, every untrusted part isolated."""
    who = isolate(f.by_display_name or f.by or translate("MyDecisions", "someone"))
    at = when(f.at)
    if f.kind is FeedbackKind.audit and f.outcome is DecisionOutcome.overturned:
        line = translate("MyDecisions", "{at}: {who} overturned it in an audit to {action}.")
        line = line.format(at=at, who=who, action=names.action(queue_id, f.action))
    elif f.kind is FeedbackKind.audit:
        line = translate("MyDecisions", "{at}: {who} agreed with it in an audit.").format(
            at=at, who=who
        )
    elif f.kind is FeedbackKind.appeal and f.outcome is DecisionOutcome.appeal_reversed:
        line = translate("MyDecisions", "{at}: reversed on appeal to {action}.").format(
            at=at, action=names.action(queue_id, f.action)
        )
    elif f.kind is FeedbackKind.appeal and f.outcome is DecisionOutcome.appeal_upheld:
        line = translate("MyDecisions", "{at}: the appeal was decided and it stands.").format(at=at)
    elif f.kind is FeedbackKind.appeal:
        line = translate("MyDecisions", "{at}: the user appealed it.").format(at=at)
    else:
        line = translate("MyDecisions", "{at}: a note from {who}.").format(at=at, who=who)
    if f.note:
        line += "\n    " + translate("MyDecisions", "Note: {note}").format(note=isolate(f.note))
    return line


@dataclass(frozen=True)
class Row:
    """What one row shows, built off the GUI thread."""

    decided: str
    queue: str
    action: str
    outcome: str
    feedback: str  # the latest note, one line
    detail: str  # everything, for the pane below
    attention: bool  # overturned or reversed, or a lead's note
    post: str = ""  # the post's first words, one line


def post_words(text: str) -> str:
    """A post's text as one line of a row (or an empty string): the post is untrusted."""
    return isolate(" ".join(clean(text).split())[:EXCERPT_CHARS]) if text.strip() else ""


def _post_line(post: str) -> list[str]:
    return [translate("MyDecisions", "The post: {text}").format(text=post)] if post else []


def _one_line(text: str, limit: int = 80) -> str:
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first[:limit] + ("…" if len(first) > limit or "\n" in text.strip() else "")


def _outcome(d: MyDecision, names: Names) -> str:
    """What became of it in words; an escalation says what the lead then decided."""
    if d.lead_action is not None:
        lead = translate("MyDecisions", "Escalated — the lead decided: {action}")
        return lead.format(action=names.action(ESCALATION_QUEUE, d.lead_action))
    if d.outcome is DecisionOutcome.accepted and names.escalates(d.queue_id, d.action):
        return translate("MyDecisions", "Escalated, waiting for a lead")
    return outcome_words(d.outcome)


def decision_row(d: MyDecision, names: Names) -> Row:
    action = names.action(d.queue_id, d.action)
    if d.policies:
        action += " (" + ", ".join(d.policies) + ")"
    notes = [f for f in d.feedback if f.note]
    latest = isolate(_one_line(notes[-1].note or "")) if notes else ""
    made = d.made_at or d.decided_at  # when the reviewer made it, not when it was sent
    head = translate("MyDecisions", "{time}, {queue}: you decided {action}.").format(
        time=when(made), queue=names.queue(d.queue_id), action=action
    )
    post = post_words(d.excerpt)
    outcome = _outcome(d, names)
    lines = [head, *_post_line(post), outcome + "."]
    late = translate("MyDecisions", "Sent later: it reached the service {time}.")
    lines[1:1] = [late.format(time=when(d.decided_at))] if d.decided_at - made > LATE else []
    lines += [feedback_line(f, d.queue_id, names) for f in d.feedback]
    return Row(
        post=post,
        decided=when(made),
        queue=names.queue(d.queue_id),
        action=action,
        outcome=outcome,
        feedback=latest,
        detail="\n".join(lines),
        attention=d.outcome in (DecisionOutcome.overturned, DecisionOutcome.appeal_reversed)
        or any(f.kind is FeedbackKind.note for f in d.feedback),
    )


def conflict_row(c: Conflict, names: Names) -> Row:
    at = datetime.fromtimestamp(c.found_at, tz=UTC)
    queue_id = c.theirs.queue_id
    mine = names.action(queue_id, c.mine.action)
    theirs = names.action(queue_id, c.theirs.action)
    outcome = translate("MyDecisions", "Conflict: another decision counts")
    detail = translate(
        "MyDecisions",
        "{time}, {queue}: you decided {mine}, but {who} had decided {theirs} first; theirs counts.",
    ).format(
        time=when(at),
        queue=names.queue(queue_id),
        mine=mine,
        who=isolate(c.theirs.reviewer),
        theirs=theirs,
    )
    post = post_words(c.item.post.text) if c.item is not None else ""
    detail = "\n".join([detail, *_post_line(post)])
    return Row(when(at), names.queue(queue_id), mine, outcome, "", detail, False, post)


def local_row(entry: JournalEntry, names: Names) -> Row:
    """A verdict here the service has not taken: not sent yet, or refused (its reason)."""
    at = datetime.fromtimestamp(entry.recorded_at, tz=UTC)
    action = names.action(entry.queue_id, entry.action)
    outcome = translate("MyDecisions", "Not sent yet")
    if entry.status != "pending":
        reason = entry.result.reason if entry.result is not None else None
        why = isolate(reason.message) if reason is not None else ""
        outcome = translate("MyDecisions", "Refused: {why}").format(why=why)
    detail = translate("MyDecisions", "{time}, {queue}: you decided {action}.").format(
        time=when(at), queue=names.queue(entry.queue_id), action=action
    )
    detail += "\n" + outcome + "."
    return Row(when(at), names.queue(entry.queue_id), action, outcome, "", detail, True)


@dataclass(frozen=True)
class Loaded:
    """The service's rows, newest first; whether more were left out; the notice before
    the load, and whether the rows hold every decision its feedback is on."""

    rows: list[tuple[datetime, Row]]
    more: bool
    notice: FeedbackNotice
    covers: bool
    item_ids: frozenset[str]
    covered: datetime  # every decision received from here on is in ``rows``


def fetch_rows(factory: ClientFactory, since: datetime, names: Names) -> Loaded:
    """The notice, then the caller's decisions since ``since`` as rows (a pool thread)."""
    found: list[tuple[datetime, Row]] = []
    ids: set[str] = set()
    cursor: str | None = None
    with factory() as api:
        notice = api.feedback_notice()
        for _ in range(MAX_PAGES):
            page = api.my_decisions(since=since, cursor=cursor, limit=500)
            found += [(d.decided_at, decision_row(d, names)) for d in page.decisions]
            ids |= {d.item_id for d in page.decisions}
            cursor = page.next_cursor
            if cursor is None:
                break
    # cut short: only decisions after the oldest listed are surely all there
    covered = found[-1][0] + timedelta(microseconds=1) if cursor and found else since
    covers = notice.oldest is None or notice.oldest >= covered
    return Loaded(found, cursor is not None, notice, covers, frozenset(ids), covered)


class MyDecisionsModel(RowsTable):
    TR_CONTEXT = "MyDecisions"
    HEADERS = (
        QT_TRANSLATE_NOOP("MyDecisions", "Decided"),
        QT_TRANSLATE_NOOP("MyDecisions", "Post"),
        QT_TRANSLATE_NOOP("MyDecisions", "Queue"),
        QT_TRANSLATE_NOOP("MyDecisions", "Your decision"),
        QT_TRANSLATE_NOOP("MyDecisions", "What became of it"),
        QT_TRANSLATE_NOOP("MyDecisions", "Note"),
    )

    def cells(self, row: Row) -> tuple[object, ...]:
        return (row.decided, row.post, row.queue, row.action, row.outcome, row.feedback)

    def key(self, row: Row) -> Any:
        return row.detail

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # type: ignore[override]
        if role == Qt.ItemDataRole.FontRole and index.isValid():
            row = self.rows[index.row()]
            if row.attention:
                font = QFont()
                font.setBold(True)
                return font
        return super().data(index, role)


Conflicts = Sequence[Conflict] | Callable[[], Sequence[Conflict]]  # read at each load


def _table(model: MyDecisionsModel) -> QTableView:
    name = translate("MyDecisions", "My decisions")
    table = read_only_table(QTableView(), "myDecisionsTable", name)
    table.setModel(model)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    for column, width in enumerate((110, 0, 130, 160, 170, 150)):
        header.resizeSection(column, width)
    header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the post: the rest
    return table


class MyDecisionsView(QDialog):
    """The reviewer's own decisions, with this computer's verdicts the service has not
    taken; opening it marks seen the feedback it showed."""

    loaded = Signal(int)  # rows shown
    seen = Signal()

    def __init__(
        self,
        client_factory: ClientFactory,
        queues: Sequence[Queue],
        conflicts: Conflicts,
        shift_start: datetime,
        parent: QWidget | None = None,
        *,
        period: str = SHIFT,
        server_offset: Callable[[], float] = lambda: 0.0,
        journal: Callable[[], Sequence[JournalEntry]] = lambda: (),
        load: bool = True,
    ) -> None:
        """``shift_start``: on this computer's clock; ``server_offset``: how far that clock is
        ahead of the service's (the store's), the windows' measure. ``journal``: verdicts
        here not sent yet or refused, read at each load. ``load``: now (else at reopen)."""
        super().__init__(parent)
        self.setWindowTitle(translate("MyDecisions", "My decisions"))
        named(self, "myDecisions", translate("MyDecisions", "My decisions"))
        self.resize(1000, 600)
        self.factory = client_factory
        self.names = Names(queues)
        self.conflicts = conflicts if callable(conflicts) else (lambda: list(conflicts))
        self.journal = journal
        self.shift_start = shift_start
        self.server_offset = server_offset
        self.busy = False
        self.period = QComboBox()
        named(self.period, "myDecisionsPeriod", translate("MyDecisions", "Which decisions"))
        self.period.addItem("", SHIFT)  # its words: _shift_label
        for data, n in SPANS.items():
            self.period.addItem(translate("MyDecisions", "The last {n} days").format(n=n), data)
        self._shift_label()
        self.period.setCurrentIndex(max(0, self.period.findData(period)))
        self.period.currentIndexChanged.connect(lambda _i: self.reload())
        refresh = QPushButton(translate("MyDecisions", "Refresh"))
        refresh.clicked.connect(self.reload)
        self.model = MyDecisionsModel()
        self.table = _table(self.model)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        named(self.detail, "myDecisionDetail", translate("MyDecisions", "What became of it"))
        self.detail.setPlaceholderText(
            translate("MyDecisions", "Select a decision to read what became of it.")
        )
        self.status = label("")
        named(self.status, "myDecisionsStatus", translate("MyDecisions", "My decisions status"))
        top = QHBoxLayout()
        top.addWidget(self.period, 1)
        top.addWidget(refresh)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(
            label(
                translate(
                    "MyDecisions",
                    "Your own decisions and what became of each: audits, appeals, conflicts "
                    "and notes from your leads. Bold rows were overturned or carry a note.",
                )
            )
        )
        layout.addLayout(top)
        layout.addWidget(split, 1)
        layout.addWidget(self.status)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_row_changed)
        if load:
            self.reload()

    def _shift_label(self) -> None:
        shift = translate("MyDecisions", "This shift (since {time})")
        self.period.setItemText(0, shift.format(time=when(self.shift_start)))

    def reopen(
        self, shift_start: datetime, period: str | None = None, reach: datetime | None = None
    ) -> None:
        """Shown again, loaded afresh: the shift as it is now, the period asked for (else the
        one shown) widened to reach ``reach`` (the notice's oldest, the service's clock)."""
        self.shift_start = shift_start
        self._shift_label()
        wanted = period or str(self.period.currentData())
        if reach is not None:
            wanted = self.period_reaching(reach, wanted)
        self.period.blockSignals(True)
        self.period.setCurrentIndex(max(0, self.period.findData(wanted)))
        self.period.blockSignals(False)
        self.reload()
        for step in (self.show, self.raise_, self.activateWindow):
            step()

    def period_reaching(self, reach: datetime, at_least: str = SHIFT) -> str:
        """The narrowest period from ``at_least`` on that reaches back to ``reach``."""
        order = [SHIFT, WEEK, MONTH]
        fits = [p for p in order[order.index(at_least) :] if self.since(p) <= reach]
        return fits[0] if fits else MONTH

    def since(self, period: str | None = None) -> datetime:
        """The window's start on the service's clock (it compares it with its own decision
        times), never in its future: a shift's start on a clock 7 minutes fast was refused
        for 7 minutes, then left out the shift's first 7 minutes."""
        offset = timedelta(seconds=self.server_offset())
        now = datetime.now(UTC) - offset
        days = SPANS.get(period or str(self.period.currentData()))
        if days is not None:
            return now - timedelta(days=days)
        return min(self.shift_start - offset, now)

    def _local(self, since: datetime, offset: float) -> Callable[[frozenset[str]], list[Any]]:
        """This computer's rows of the window: conflicts, verdicts refused or not sent (less
        those the service's rows name: sent meanwhile). Indexed reads of this thread's store."""
        start = since.timestamp() + offset
        try:
            conflicts, entries = list(self.conflicts()), list(self.journal())
        except StoreError as err:  # closed with the window: the service's rows only
            log.info("My decisions without this computer's rows: %s", type(err).__name__)
            conflicts, entries = [], []
        found = [
            (datetime.fromtimestamp(c.found_at, tz=UTC), conflict_row(c, self.names))
            for c in conflicts
            if c.found_at >= start
        ]
        return lambda sent: (
            found
            + [
                (datetime.fromtimestamp(e.recorded_at, tz=UTC), local_row(e, self.names))
                for e in entries
                if e.recorded_at >= start and not (e.status == "pending" and e.item_id in sent)
            ]
        )

    def reload(self) -> None:
        """Load the period shown; a load under way is dropped (the newest asked wins)."""
        self.busy = True
        set_text(self.status, translate("MyDecisions", "Loading your decisions…"))
        since, names, factory = self.since(), self.names, self.factory
        local = self._local(since, self.server_offset())

        def done(result: Loaded) -> None:
            self.busy = False
            self._show(result.rows + local(result.item_ids), result)
            # feedback on decisions before those listed stays unseen (``covered``)
            self._mark_seen(result.notice.as_of, None if result.covers else result.covered)

        def failed(err: BaseException) -> None:
            self.busy = False
            self._show(local(frozenset()), None)
            words = describe(err, during=translate("MyDecisions", "loading your decisions"))
            set_text(
                self.status,
                translate(
                    "MyDecisions",
                    "Your decisions on the service could not be read: {why} Shown: what this "
                    "computer holds (conflicts, verdicts not sent yet or refused).",
                ).format(why=words.text()),
            )

        run_op(self, lambda: fetch_rows(factory, since, names), done, failed, key="load")

    def _show(self, rows: list[tuple[datetime, Row]], result: Loaded | None) -> None:
        merged = sorted(rows, key=lambda pair: pair[0], reverse=True)
        self.model.set_rows([row for _, row in merged])
        n = len(merged)
        words = translate("MyDecisions", "{n} decisions.").format(n=n)
        if n == 1:
            words = translate("MyDecisions", "1 decision.")
        if result is not None and result.more:
            words += " " + translate("MyDecisions", "Only the newest are shown.")
        if result is not None and not result.covers:
            words += " " + translate(
                "MyDecisions",
                "Feedback on earlier decisions is not in this list: choose a longer period "
                "to read it.",
            )
        set_text(self.status, words)
        if merged:
            self.table.selectRow(0)
        self.loaded.emit(len(merged))

    def _mark_seen(self, until: datetime, shown_since: datetime | None) -> None:
        """Seen up to the notice's ``as_of``, on decisions from ``shown_since`` (None: all)."""
        factory = self.factory

        def work() -> FeedbackNotice:
            with factory() as api:
                return api.mark_feedback_seen(until, shown_since=shown_since)

        def failed(err: BaseException) -> None:
            log.info("could not mark the feedback seen: %s", type(err).__name__)

        run_op(self, work, lambda _n: self.seen.emit(), failed)

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid():  # the row's whole story in the pane below
            self.detail.setPlainText(self.model.data(current, Qt.ItemDataRole.UserRole) or "")


def notice_words(notice: FeedbackNotice, keys: str = "Ctrl+Shift+D") -> str:
    """'2 of your decisions were overturned and 1 note from a lead came since …'."""
    parts = []
    n, m = notice.overturned, notice.notes
    if n == 1:
        parts.append(translate("MyDecisions", "1 of your decisions was overturned"))
    elif n:
        parts.append(translate("MyDecisions", "{n} of your decisions were overturned").format(n=n))
    if m == 1:
        parts.append(translate("MyDecisions", "1 note from a lead came"))
    elif m:
        parts.append(translate("MyDecisions", "{n} notes from a lead came").format(n=m))
    text = translate("MyDecisions", " and ").join(parts)
    if notice.seen_at is not None:
        text += " " + translate("MyDecisions", "since {time}").format(time=when(notice.seen_at))
    return (
        text
        + ". "
        + translate("MyDecisions", "Open My decisions ({keys}) to read them.").format(keys=keys)
    )


class FeedbackBar(QWidget):
    """The notice at login: what reached the reviewer's decisions since they last looked,
    with a button that opens My decisions. Hidden when there is nothing."""

    open_requested = Signal()

    def __init__(
        self, keys: Callable[[], str] = lambda: "Ctrl+Shift+D", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        #: the key that opens My decisions now (the reviewer may have changed it)
        self.keys = keys
        self.notice: FeedbackNotice | None = None
        named(self, "feedbackNotice", translate("MyDecisions", "Feedback on your decisions"))
        self.text = label("")
        named(self.text, "feedbackNoticeText", translate("MyDecisions", "Feedback notice"))
        self.open_button = QPushButton(translate("MyDecisions", "Open My decisions"))
        named(self.open_button, "openMyDecisions", translate("MyDecisions", "Open My decisions"))
        self.open_button.clicked.connect(self.open_requested.emit)
        dismiss = QPushButton(translate("MyDecisions", "Later"))
        dismiss.clicked.connect(self.hide)
        for button in (self.open_button, dismiss):
            # not on a click (the keys go on deciding posts), but Tab reaches them
            button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        row = QHBoxLayout(self)
        row.setContentsMargins(space(2), space(1) // 2, space(2), space(1) // 2)
        row.addWidget(self.text, 1)
        row.addWidget(self.open_button)
        row.addWidget(dismiss)
        set_tone(self, Tone.info)
        self.hide()

    def show_notice(self, notice: FeedbackNotice) -> None:
        self.notice = notice  # its oldest: how far back the view opened from it reaches
        if not notice.overturned and not notice.notes:
            self.hide()
            return
        set_text(self.text, notice_words(notice, self.keys()))
        self.show()

    def check(self, factory: ClientFactory) -> None:
        """Ask the service (on a pool thread) what came since the reviewer last looked."""

        def work() -> FeedbackNotice:
            with factory() as api:
                return api.feedback_notice()

        def failed(err: BaseException) -> None:
            log.info("no feedback notice: %s", type(err).__name__)

        run_op(self, work, self.show_notice, failed, key="notice")
