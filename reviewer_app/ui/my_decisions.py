"""My decisions: a reviewer's own decisions of the shift or the last 7 days with what became
of each (accepted, confirmed or overturned in an audit with the auditor's note, appealed,
a conflict, a lead's note), and the notice at login of what came since they last looked.

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
from reviewer_app.core.store import Conflict
from reviewer_app.protocol import (
    EXCERPT_CHARS,
    DecisionOutcome,
    Feedback,
    FeedbackKind,
    FeedbackNotice,
    MyDecision,
    Queue,
)

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

SHIFT, WEEK = "shift", "week"


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


def decision_row(d: MyDecision, names: Names) -> Row:
    action = names.action(d.queue_id, d.action)
    if d.policies:
        action += " (" + ", ".join(d.policies) + ")"
    notes = [f for f in d.feedback if f.note]
    latest = isolate(_one_line(notes[-1].note or "")) if notes else ""
    head = translate("MyDecisions", "{time}, {queue}: you decided {action}.").format(
        time=when(d.decided_at), queue=names.queue(d.queue_id), action=action
    )
    post = post_words(d.excerpt)
    lines = [head, *_post_line(post), outcome_words(d.outcome) + "."]
    lines += [feedback_line(f, d.queue_id, names) for f in d.feedback]
    return Row(
        post=post,
        decided=when(d.decided_at),
        queue=names.queue(d.queue_id),
        action=action,
        outcome=outcome_words(d.outcome),
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


def fetch_rows(
    factory: ClientFactory, since: datetime, names: Names
) -> tuple[list[tuple[datetime, Row]], bool]:
    """The caller's decisions since ``since`` as rows, newest first (on a pool thread);
    and whether there were more than MAX_PAGES pages."""
    found: list[tuple[datetime, Row]] = []
    cursor: str | None = None
    with factory() as api:
        for _ in range(MAX_PAGES):
            page = api.my_decisions(since=since, cursor=cursor, limit=500)
            found += [(d.decided_at, decision_row(d, names)) for d in page.decisions]
            cursor = page.next_cursor
            if cursor is None:
                return found, False
    return found, True


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
                from PySide6.QtGui import QFont

                font = QFont()
                font.setBold(True)
                return font
        return super().data(index, role)


class MyDecisionsView(QDialog):
    """The reviewer's own decisions; opening it marks their feedback seen."""

    loaded = Signal(int)  # rows shown
    seen = Signal()

    def __init__(
        self,
        client_factory: ClientFactory,
        queues: Sequence[Queue],
        conflicts: Sequence[Conflict],
        shift_start: datetime,
        parent: QWidget | None = None,
        *,
        period: str = SHIFT,
        server_offset: Callable[[], float] = lambda: 0.0,
    ) -> None:
        """``shift_start``: a time on this computer's clock; ``server_offset``: how far that
        clock is ahead of the service's (the store's), which the windows asked for are
        measured by."""
        super().__init__(parent)
        self.setWindowTitle(translate("MyDecisions", "My decisions"))
        named(self, "myDecisions", translate("MyDecisions", "My decisions"))
        self.resize(1000, 600)
        self.factory = client_factory
        self.names = Names(queues)
        self.conflicts = list(conflicts)
        self.shift_start = shift_start
        self.server_offset = server_offset
        self.busy = False
        self.period = QComboBox()
        named(self.period, "myDecisionsPeriod", translate("MyDecisions", "Which decisions"))
        self.period.addItem(
            translate("MyDecisions", "This shift (since {time})").format(time=when(shift_start)),
            SHIFT,
        )
        self.period.addItem(translate("MyDecisions", "The last 7 days"), WEEK)
        self.period.setCurrentIndex(max(0, self.period.findData(period)))
        self.period.currentIndexChanged.connect(lambda _i: self.reload())
        refresh = QPushButton(translate("MyDecisions", "Refresh"))
        refresh.clicked.connect(self.reload)
        self.model = MyDecisionsModel()
        self.table = read_only_table(
            QTableView(), "myDecisionsTable", translate("MyDecisions", "My decisions")
        )
        self.table.setModel(self.model)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        for column, width in enumerate((110, 0, 130, 160, 170, 150)):
            header.resizeSection(column, width)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the post: the rest
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
        self.reload()

    def since(self) -> datetime:
        """The window's start on the service's clock (it compares it with its own decision
        times), never in its future: a shift's start on a clock 7 minutes fast was refused
        for 7 minutes, then left out the shift's first 7 minutes."""
        offset = timedelta(seconds=self.server_offset())
        now = datetime.now(UTC) - offset
        if self.period.currentData() == WEEK:
            return now - timedelta(days=7)
        return min(self.shift_start - offset, now)

    def reload(self) -> None:
        if self.busy:
            return
        self.busy = True
        set_text(self.status, translate("MyDecisions", "Loading your decisions…"))
        since, names, factory = self.since(), self.names, self.factory
        offset = self.server_offset()
        asked_at = datetime.now(UTC) - timedelta(seconds=offset)  # on the service's clock
        conflicts = [  # found on this computer's clock
            (datetime.fromtimestamp(c.found_at, tz=UTC), conflict_row(c, names))
            for c in self.conflicts
            if c.found_at >= since.timestamp() + offset
        ]

        def work() -> tuple[list[tuple[datetime, Row]], bool]:
            return fetch_rows(factory, since, names)

        def done(result: tuple[list[tuple[datetime, Row]], bool]) -> None:
            self.busy = False
            rows, more = result
            merged = sorted(rows + conflicts, key=lambda pair: pair[0], reverse=True)
            self.model.set_rows([row for _, row in merged])
            words = (
                translate("MyDecisions", "1 decision.")
                if len(merged) == 1
                else translate("MyDecisions", "{n} decisions.").format(n=len(merged))
            )
            if more:
                words += " " + translate("MyDecisions", "Only the newest are shown.")
            set_text(self.status, words)
            if merged:
                self.table.selectRow(0)
            self.loaded.emit(len(merged))
            self._mark_seen(asked_at)

        def failed(err: BaseException) -> None:
            self.busy = False
            set_text(
                self.status,
                describe(err, during=translate("MyDecisions", "loading your decisions")).text(),
            )

        run_op(self, work, done, failed, key="load")

    def _mark_seen(self, until: datetime) -> None:
        factory = self.factory

        def work() -> FeedbackNotice:
            with factory() as api:
                return api.mark_feedback_seen(until)

        def failed(err: BaseException) -> None:
            log.info("could not mark the feedback seen: %s", type(err).__name__)

        run_op(self, work, lambda _n: self.seen.emit(), failed)

    def _on_current_row_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if not current.isValid():
            return
        detail = self.model.data(current, Qt.ItemDataRole.UserRole)
        self.detail.setPlainText(detail or "")


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
