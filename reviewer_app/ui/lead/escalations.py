"""The Escalations tab: every open escalation as a worklist.

Each row: how long it waits against the escalation queue's SLA, the post's excerpt, the
queue it came from, who escalated it, when and why, who holds it and to whom it is
assigned. A lead reviews one now (it is assigned to them, and their review flow takes it
first), assigns one to themselves or to another lead, or gives it back to nobody. The list
and every assignment go through the service off the GUI thread; the strings from the wire
are plain text, isolated, elided in their cells with the whole text in the tooltip.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.core.errors import Forbidden, ProblemError
from reviewer_app.protocol import ESCALATION_QUEUE, AssigneeNow, EscalationEntry, QueueStatsReport

from ..background import run_op
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import Message, describe, server_words
from ..plain import (
    bounded,
    fit_columns,
    isolate,
    label,
    named,
    read_only_table,
    set_text,
    stretch_column,
    tooltip,
)
from ..words import plural
from .stats_views import duration

COLUMNS = (
    QT_TRANSLATE_NOOP("LeadEscalations", "Waiting"),
    QT_TRANSLATE_NOOP("LeadEscalations", "Post"),
    QT_TRANSLATE_NOOP("LeadEscalations", "From"),
    QT_TRANSLATE_NOOP("LeadEscalations", "Escalated by"),
    QT_TRANSLATE_NOOP("LeadEscalations", "When"),
    QT_TRANSLATE_NOOP("LeadEscalations", "Why"),
    QT_TRANSLATE_NOOP("LeadEscalations", "Held by"),
    QT_TRANSLATE_NOOP("LeadEscalations", "Assigned to"),
)
Index = QModelIndex | QPersistentModelIndex


def _why(entry: EscalationEntry) -> tuple[str, str]:
    """The reason as the cell shows it, and its whole text (with the note) for the tip."""
    e = entry.escalation
    if e.escalated_by is None:
        routed = translate("LeadEscalations", "routed by triage")
        return routed, routed + (f": {entry.triage}" if entry.triage else "")
    reason = (
        (e.reason_label or e.reason)
        if e.reason
        else translate("LeadEscalations", "no reason given")
    )
    whole = reason + (f"\n{isolate(e.note)}" if e.note else "")
    return reason, whole


def queue_name(names: dict[str, str], queue_id: str) -> tuple[str, str]:
    """A from-queue as a cell or a line shows it (isolated), and its whole name: a queue
    the service no longer has (removed from the queue file) by its id, said to be gone."""
    name = names.get(queue_id)
    if name is not None:
        return isolate(name), name
    shown = translate("LeadEscalations", "{queue} (a queue since removed)").format(
        queue=isolate(queue_id)
    )
    return shown, queue_id


def assign_refused(err: BaseException) -> str:
    """Why an assignment failed, in a line: another lead deciding it first (the server's
    words name them, when one did) said as that, not as a refusal to change something;
    another lead assigning it meanwhile said with who has it now."""
    if isinstance(err, ProblemError) and err.code in ("assigned_to_other", "assignment_changed"):
        found = [e.message for e in err.problem.errors or [] if e.loc == ["assignee"]]
        holder = found[0] if found else ""
        return Message(
            translate("LeadEscalations", "Not changed: {lead} has this escalation now.").format(
                lead=isolate(holder)
            )
            if holder
            else translate(
                "LeadEscalations", "Not changed: this escalation is assigned to nobody now."
            ),
            translate(
                "LeadEscalations",
                "Another lead changed its assignment after your list was read.",
            ),
            translate(
                "LeadEscalations",
                "The list was read again: assign it anew if it should still move.",
            ),
            server_words(err),
        ).line()
    if isinstance(err, ProblemError) and err.code == "escalation_decided":
        return Message(  # (the server's words name who: another lead, or this one elsewhere)
            translate("LeadEscalations", "This escalation was decided already."),
            translate(
                "LeadEscalations", "It no longer waits in the escalation queue: nothing to assign."
            ),
            translate("LeadEscalations", "Pick another one from the list."),
            server_words(err),
        ).line()
    return describe(err, during=translate("LeadEscalations", "assigning the escalation")).line()


class EscalationsModel(QAbstractTableModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.entries: list[EscalationEntry] = []
        self.queue_names: dict[str, str] = {}

    def set_entries(self, entries: list[EscalationEntry], names: dict[str, str]) -> None:
        self.beginResetModel()
        self.entries = entries
        self.queue_names = names
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return translate("LeadEscalations", COLUMNS[section])
        return None

    def cell(self, entry: EscalationEntry, column: int) -> tuple[str, str | None]:
        """A cell's text (untrusted parts isolated) and its whole untrusted text, if any."""
        e = entry.escalation
        if column == 0:
            text = duration(entry.waiting_seconds)
            if entry.over_sla:
                text = translate("LeadEscalations", "{wait} (over SLA)").format(wait=text)
            return text, None
        if column == 1:
            return isolate(entry.excerpt), entry.excerpt
        if column == 2:
            queue = entry.from_queue_id
            if queue is None:
                return "—", None
            return queue_name(self.queue_names, queue)
        if column == 3:
            if e.escalated_by is None:
                return translate("LeadEscalations", "triage"), None
            return isolate(e.escalated_by), e.escalated_by
        if column == 4:
            at = e.escalated_at or entry.enqueued_at
            return f"{at.astimezone():%Y-%m-%d %H:%M}", None
        if column == 5:
            shown, whole = _why(entry)
            return isolate(shown), whole
        if column == 6:
            return (isolate(entry.held_by), entry.held_by) if entry.held_by else ("—", None)
        if e.assigned_to:
            return isolate(e.assigned_to), e.assigned_to
        return "—", None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        entry = self.entries[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(entry, index.column())[0]
        if role == Qt.ItemDataRole.ToolTipRole:
            whole = self.cell(entry, index.column())[1]
            return tooltip(whole) if whole else None
        if role == Qt.ItemDataRole.UserRole:
            return entry.item_id
        return None


class EscalationsView(QWidget):
    """The open escalations as a worklist: review one now, assign, see who holds what."""

    review_requested = Signal(str)  # queue id ("Review escalations now")
    item_requested = Signal(str, str)  # queue id, item id ("Review this one now")
    message_posted = Signal(str)

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        parent: QWidget | None = None,
        *,
        me: str = "",
        service_clock: Callable[[], float] = time.time,
    ) -> None:
        """``service_clock``: now on the service's clock (the session's store knows how far
        this computer's is off), which the day of figures asked for ends at."""
        super().__init__(parent)
        named(self, "escalationsView", translate("LeadWorkspace", "Escalations"))
        self.client_factory = client_factory
        self.me = me
        self.service_clock = service_clock
        self.loading = False
        self.summary = label("")
        named(self.summary, "escalationsWaiting", translate("LeadWorkspace", "Escalations waiting"))
        self.per_queue = label("")
        named(
            self.per_queue,
            "escalationsPerQueue",
            translate("LeadWorkspace", "Escalations by queue they came from"),
        )
        self.holders = label("")
        named(self.holders, "escalationsHeld", translate("LeadEscalations", "Who holds what"))
        self._build_table()
        self.review_button = QPushButton(
            translate("LeadWorkspace", "Review escalations now (same keys as reviewing)")
        )
        self.review_button.clicked.connect(lambda: self.review_requested.emit(ESCALATION_QUEUE))
        actions = self._build_actions()
        layout = QVBoxLayout(self)
        layout.addWidget(
            label(
                translate(
                    "LeadWorkspace",
                    "Posts that reviewers escalated wait here for a lead. They are decided in "
                    "the review flow, with the same keys, and only leads can lease them.",
                )
            )
        )
        layout.addWidget(self.summary)
        layout.addWidget(self.per_queue)
        layout.addWidget(self.holders)
        layout.addWidget(self.table, 1)
        layout.addLayout(actions)
        layout.addWidget(self.status)
        layout.addWidget(self.review_button)
        chain: tuple[QWidget, ...] = (self.table, self.pick_button, self.mine_button)
        chain += (self.lead_picker, self.assign_button, self.unassign_button, self.refresh_button)
        for before, after in zip(chain, (*chain[1:], self.review_button), strict=True):
            QWidget.setTabOrder(before, after)  # as laid out (else: as each got its parent)
        self._enable()

    def _build_table(self) -> None:
        self.model = EscalationsModel(self)
        self.table = read_only_table(
            QTableView(self),
            "escalationsTable",
            translate("LeadEscalations", "Open escalations"),
        )
        self.table.setModel(self.model)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setWordWrap(False)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        stretch_column(self.table, COLUMNS.index("Post"))  # the excerpt takes the spare width
        self.table.activated.connect(lambda _index: self.review_selected())
        self.table.selectionModel().selectionChanged.connect(self._on_selection_changed)

    def _build_actions(self) -> QHBoxLayout:
        """Review this one, assign it (to me, to a lead, to nobody), refresh."""
        self.pick_button = QPushButton(translate("LeadEscalations", "Review this one now"))
        named(self.pick_button, "reviewEscalation", self.pick_button.text())
        self.pick_button.clicked.connect(self.review_selected)
        self.mine_button = QPushButton(translate("LeadEscalations", "Assign to me"))
        named(self.mine_button, "assignToMe", self.mine_button.text())
        self.mine_button.clicked.connect(lambda: self.assign_selected(self.me))
        self.lead_picker = bounded(QComboBox(self))
        self.lead_picker.setEditable(True)
        self.lead_picker.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)  # a typo never listed
        named(self.lead_picker, "assignee", translate("LeadEscalations", "Lead to assign to"))
        self.assign_button = QPushButton(translate("LeadEscalations", "Assign to this lead"))
        named(self.assign_button, "assignToLead", self.assign_button.text())
        self.assign_button.clicked.connect(
            lambda: self.assign_selected(self.lead_picker.currentText().strip())
        )
        if (line := self.lead_picker.lineEdit()) is not None:  # Enter assigns, as the button
            line.returnPressed.connect(self.assign_button.click)
        self.unassign_button = QPushButton(translate("LeadEscalations", "Assign to nobody"))
        named(self.unassign_button, "unassign", self.unassign_button.text())
        self.unassign_button.clicked.connect(lambda: self.assign_selected(None))
        self.refresh_button = QPushButton(translate("LeadWorkspace", "Refresh"))
        self.refresh_button.clicked.connect(self.refresh)
        self.status = label("")
        named(self.status, "escalationsStatus", translate("LeadEscalations", "What happened"))
        actions = QHBoxLayout()
        for widget in (self.pick_button, self.mine_button, self.lead_picker, self.assign_button):
            actions.addWidget(widget)
        actions.addWidget(self.unassign_button)
        actions.addStretch(1)
        actions.addWidget(self.refresh_button)
        return actions

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.refresh()

    # --- loading ---------------------------------------------------------------------------

    def refresh(self) -> None:
        factory = self.client_factory
        until = datetime.fromtimestamp(int(self.service_clock()) + 1, UTC)
        self.loading = True

        def work() -> tuple[QueueStatsReport, list[EscalationEntry]]:
            api = factory()
            report = api.queue_stats(until - timedelta(days=1), until)
            return report, api.all_escalations()

        run_op(self, work, self._show, self._failed, key="load")

    def _show(self, found: tuple[QueueStatsReport, list[EscalationEntry]]) -> None:
        self.loading = False
        report, entries = found
        own = next((q for q in report.queues if q.queue_id == ESCALATION_QUEUE), None)
        names = {q.queue_id: q.name for q in report.queues}
        selected = self.selected_id()
        self.model.set_entries(entries, names)
        fit_columns(self.table)
        self._select(selected)
        if own is None:
            set_text(
                self.summary, translate("LeadWorkspace", "This service has no escalation queue.")
            )
            self.review_button.setEnabled(False)
        else:
            self.review_button.setEnabled(True)
            set_text(
                self.summary,
                plural(
                    translate(
                        "LeadWorkspace",
                        "%Ln escalated post(s) waiting, {leased} being decided by leads; "
                        "oldest waiting {oldest} (SLA {sla}).",
                    ),
                    own.backlog,
                ).format(
                    leased=own.leased,
                    oldest=duration(own.oldest_pending_age_seconds),
                    sla=duration(own.sla_seconds),
                ),
            )
        self._show_per_queue(entries, report)
        self._show_holders(entries)
        leads = sorted(
            {self.me}
            | {e.held_by for e in entries if e.held_by}
            | {e.escalation.assigned_to for e in entries if e.escalation.assigned_to}
            | {e.escalation.assigned_by for e in entries if e.escalation.assigned_by} - {""}
        )
        typed = self.lead_picker.currentText()
        self.lead_picker.clear()
        self.lead_picker.addItems(leads)  # combo items are plain text
        self.lead_picker.setCurrentText(typed)
        self._enable()

    def _show_per_queue(self, entries: list[EscalationEntry], report: QueueStatsReport) -> None:
        """How many of the listed escalations came from each queue, counted from the list
        itself (the figures know only the queues the service has now): the service's
        queues in their order, then those since removed, then those triage routed here."""
        counts = Counter(e.from_queue_id for e in entries)
        order = {q.queue_id: i for i, q in enumerate(report.queues)}
        names = self.model.queue_names
        froms = sorted(
            (q for q in counts if q is not None),
            key=lambda q: (q not in order, order.get(q, 0), q),
        )
        lines = [
            translate("LeadWorkspace", "{queue}: {n} open").format(
                queue=queue_name(names, queue)[0], n=counts[queue]
            )
            for queue in froms
        ]
        if counts[None]:
            lines.append(
                translate("LeadEscalations", "Routed here by triage: {n} open").format(
                    n=counts[None]
                )
            )
        set_text(
            self.per_queue,
            "\n".join(lines)
            or translate("LeadWorkspace", "No open escalations from other queues."),
        )

    def _show_holders(self, entries: list[EscalationEntry]) -> None:
        held = Counter(e.held_by for e in entries if e.held_by)
        assigned = Counter(e.escalation.assigned_to for e in entries if e.escalation.assigned_to)

        def listed(counts: Counter[str]) -> str:
            return ", ".join(
                translate("LeadEscalations", "{lead} ({n})").format(lead=isolate(k), n=n)
                for k, n in sorted(counts.items())
            )

        set_text(
            self.holders,
            translate("LeadEscalations", "Held by: {held}. Assigned to: {assigned}.").format(
                held=listed(held) or translate("LeadEscalations", "nobody"),
                assigned=listed(assigned) or translate("LeadEscalations", "nobody"),
            ),
        )

    def _failed(self, err: BaseException) -> None:
        self.loading = False
        message = describe(err, during=translate("LeadWorkspace", "loading the escalations"))
        if isinstance(err, Forbidden):  # no longer a lead: what was listed is not theirs
            self.model.set_entries([], {})
            for shown in (self.per_queue, self.holders):
                set_text(shown, "")
            self.review_button.setEnabled(False)
            self._enable()
            set_text(
                self.summary,
                translate(
                    "LeadEscalations",
                    "The service no longer lets this account see the escalations (it may no "
                    "longer be a lead's), so the list was cleared.",
                )
                + " "
                + message.line(),
            )
            return
        set_text(self.summary, message.line())

    # --- selection and actions ---------------------------------------------------------------

    def selected_id(self) -> str | None:
        rows = self.table.selectionModel().selectedRows()
        return str(rows[0].data(Qt.ItemDataRole.UserRole)) if rows else None

    def selected(self) -> EscalationEntry | None:
        item_id = self.selected_id()
        return next((e for e in self.model.entries if e.item_id == item_id), None)

    def select_item(self, item_id: str) -> bool:
        """Select the row of this escalation (True when it is listed)."""
        return self._select(item_id)

    def _select(self, item_id: str | None) -> bool:
        for row, entry in enumerate(self.model.entries):
            if entry.item_id == item_id:
                self.table.selectRow(row)
                return True
        return False

    def _enable(self) -> None:
        self._on_selection_changed()

    def _on_selection_changed(self, *_args: object) -> None:
        chosen = self.selected_id() is not None
        for button in (self.pick_button, self.assign_button, self.unassign_button):
            button.setEnabled(chosen)
        self.mine_button.setEnabled(chosen and bool(self.me))

    def review_selected(self) -> None:
        """Review the selected escalation now: it is assigned to me first (so no other
        lead's claim takes it), then the review flow opens on it."""
        entry = self.selected()
        if entry is None or not self.me:
            return
        self._assign(entry, self.me, then_review=True)

    def assign_selected(self, assignee: str | None) -> None:
        entry = self.selected()
        if entry is None:
            return
        if assignee == "":
            self._say(translate("LeadEscalations", "Type or pick the lead to assign it to."))
            return
        self._assign(entry, assignee)

    def _assign(
        self, entry: EscalationEntry, assignee: str | None, *, then_review: bool = False
    ) -> None:
        """Assign it (``then_review``: to me, then review it now, unless the reply says
        another lead holds it: then it waits for them to let it go), replacing the
        assignment the list shows: another lead's change since is refused, not undone."""
        factory, item_id = self.client_factory, entry.item_id
        seen = AssigneeNow(assignee=entry.escalation.assigned_to)

        def work() -> EscalationEntry:
            api = factory()
            return api.assign_escalation(item_id, assignee, expected=seen)

        def done(entry: EscalationEntry) -> None:
            lead = entry.escalation.assigned_to
            said = (
                translate("LeadEscalations", "Assigned to {lead}.").format(lead=isolate(lead))
                if lead
                else translate("LeadEscalations", "Assigned to nobody: any lead may take it.")
            )
            holder = entry.held_by  # as the service has it now, not as the list showed it
            if then_review and holder and holder != self.me:
                said += " " + translate(
                    "LeadEscalations",
                    "{lead} is deciding this escalation now; it comes to you if they let it go.",
                ).format(lead=isolate(holder))
            self._say(said)
            if then_review and holder in (None, self.me):
                self.item_requested.emit(ESCALATION_QUEUE, item_id)
            self.refresh()

        def failed(err: BaseException) -> None:
            self._say(assign_refused(err))
            self.refresh()

        run_op(self, work, done, failed)

    def _say(self, text: str) -> None:
        set_text(self.status, text)
        self.message_posted.emit(text)
