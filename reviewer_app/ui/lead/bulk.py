"""Decide together: a lead's bulk decision on many posts (a spam wave, a network's posts).

``BulkDecisionDialog`` takes a list of posts (ids, queues, excerpts), lets the lead pick one
action (those every post's queue has), policies and a note, and asks for a confirmation
that says how many posts in which queues. The request is then held in the local store for
the undo window, with a countdown and Undo (as a verdict is), and sent by ``BulkSender``
off the GUI thread (bulk_sender.py). The service records every decision or none: a
refusal names the posts decided (or taken) meanwhile, which the dialog marks and unchecks,
or the posts whose queue refuses the request itself, which it marks and leaves checked.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from pydantic import ValidationError
from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.bulk import Candidate, Refusal, new_request
from reviewer_app.core.settings import UNDO_WINDOW
from reviewer_app.protocol import ActionKind, Queue, draft_statement, restrictive
from reviewer_app.protocol.bulk_decisions import (
    MAX_BULK_ITEMS,
    BulkDecisionRequest,
    BulkDecisionResults,
)

from ..confirm import ask_first
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..plain import bounded, clean, isolate, label, named, read_only_table, set_text, whole
from ..words import plural, shortest
from .bulk_sender import (
    RETRY_SECONDS,
    BulkSender,
    load_author_posts,
    refusal_words,
    refused_box,
)

log = logging.getLogger("ui")

#: actions a bulk decision does not offer: appeals are decided one by one
NOT_IN_BULK = frozenset({ActionKind.uphold, ActionKind.reverse})


COLUMNS = (
    QT_TRANSLATE_NOOP("Bulk", "Post"),
    QT_TRANSLATE_NOOP("Bulk", "Author"),
    QT_TRANSLATE_NOOP("Bulk", "Queue"),
    QT_TRANSLATE_NOOP("Bulk", "Not decided because"),
)


def common_actions(queues: Sequence[Queue]) -> list[tuple[str, str]]:
    """(action id, label) of the actions every queue has (the first queue's labels and
    order) that a bulk decision can take: not an appeal's uphold or reverse, not one that
    needs a fact-check rating (a label rests on each post's own fact-checks), and one that
    needs a policy only when the queues share one."""
    if not queues:
        return []
    first, *others = queues
    shared_policy = bool(common_policies(queues))
    found = []
    for action in first.config.actions:
        if action.kind in NOT_IN_BULK or action.requires_rating:
            continue
        if action.requires_policy and not shared_policy:
            continue
        if all(q.config.action(action.id) is not None for q in others):
            found.append((action.id, action.label))
    return found


def common_policies(queues: Sequence[Queue]) -> list[tuple[str, str]]:
    if not queues:
        return []
    first, *others = queues
    return [
        (p.code, p.label)
        for p in first.config.policies
        if all(any(o.code == p.code for o in q.config.policies) for q in others)
    ]


def offered_while_selected(button: QPushButton, view: QAbstractItemView) -> None:
    """``button`` (Decide these together…) enabled only while rows of ``view`` are selected;
    new rows too (a model's reset clears the selection without a word)."""

    def offer(*_args: object) -> None:
        button.setEnabled(view.selectionModel().hasSelection())

    view.selectionModel().selectionChanged.connect(offer)
    view.model().modelReset.connect(offer)
    offer()


class BulkDecisionDialog(QDialog):
    """Decide together: one action on the checked posts, each its own decision."""

    def __init__(
        self,
        candidates: Sequence[Candidate],
        queues: Sequence[Queue],
        sender: BulkSender,
        parent: QWidget | None = None,
        *,
        title: str = "",
    ) -> None:
        super().__init__(parent)
        named(self, "bulkDecision", translate("Bulk", "Decide together"))
        self.setWindowTitle(translate("Bulk", "Decide together"))
        self.resize(900, 600)
        self.candidates = list(candidates)
        self.queues = {q.id: q for q in queues}
        self.bulk_sender = sender
        self.confirmation: QMessageBox | None = None
        self.bulk_id: str | None = None
        self.last_request: BulkDecisionRequest | None = None
        self.refused_ids: set[str] = set()
        self._said_too_many = ""

        self.intro = label(title)
        named(self.intro, "bulkIntro", translate("Bulk", "What this list is"))
        self._build_table()

        self.action = bounded(QComboBox())
        named(self.action, "bulkAction", translate("Bulk", "Action for every checked post"))
        self.policies = QListWidget()
        named(self.policies, "bulkPolicies", translate("Bulk", "Policies"))
        self.policies.setMaximumHeight(90)
        self.policies.itemChanged.connect(lambda _item: self._update_buttons())
        self.action.currentIndexChanged.connect(lambda _index: self._update_buttons())
        self.note = QLineEdit()
        named(self.note, "bulkNote", translate("Bulk", "Note on every decision"))
        self.note.setPlaceholderText(translate("Bulk", "Note (why these posts go together)"))
        self.note.setMaxLength(2_000)
        self.note.textChanged.connect(lambda _text: self._update_buttons())
        self._build_statement()
        self.decide = QPushButton(translate("Bulk", "Decide…"))
        named(self.decide, "bulkDecide", translate("Bulk", "Decide the checked posts"))
        self.decide.clicked.connect(self._on_decide_clicked)
        self.undo_button = QPushButton(translate("Bulk", "Undo"))
        named(self.undo_button, "bulkUndo", translate("Bulk", "Undo the bulk decision"))
        self.undo_button.clicked.connect(self._on_undo_clicked)  # (hidden until one is held)
        self.status = label("")
        named(self.status, "bulkStatus", translate("Bulk", "Bulk decision status"))
        close = QPushButton(translate("Bulk", "Close"))
        close.clicked.connect(self.close)

        controls = QHBoxLayout()
        controls.addWidget(label(translate("Bulk", "Action"), wrap=False))
        controls.addWidget(self.action)
        controls.addWidget(self.note, 1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        for button in (self.undo_button, self.decide, close):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addWidget(self.table, 1)
        layout.addLayout(controls)
        layout.addWidget(label(translate("Bulk", "Policies (those every queue has)")))
        layout.addWidget(self.policies)
        layout.addWidget(self.shared)
        layout.addWidget(self.statement)
        layout.addLayout(buttons)

        self._follow(sender)
        self._refill_choices()

    def _build_table(self) -> None:
        """The posts, each checked, with its author and queue (the last column: outcome)."""
        self.table = read_only_table(
            QTableWidget(len(self.candidates), len(COLUMNS), self),
            "bulkItems",
            translate("Bulk", "Posts to decide together"),
            rows=False,
        )
        self.table.setHorizontalHeaderLabels([translate("Bulk", c) for c in COLUMNS])
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # fixed sizes
        for column, width in enumerate((420, 130, 120, 200)):
            header.resizeSection(column, width)
        self.table.blockSignals(True)
        for row, c in enumerate(self.candidates):
            post = QTableWidgetItem(isolate(c.excerpt or c.item_id))
            post.setData(Qt.ItemDataRole.UserRole, c.item_id)
            post.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            post.setCheckState(Qt.CheckState.Checked)
            queue = self.queues.get(c.queue_id)
            cells = [
                post,
                QTableWidgetItem("@" + isolate(c.handle.lstrip("@")) if c.handle else ""),
                QTableWidgetItem(isolate(queue.name if queue else c.queue_id)),
                QTableWidgetItem(""),
            ]
            for column, cell in enumerate(cells):
                if column:
                    cell.setFlags(Qt.ItemFlag.ItemIsEnabled)
                self.table.setItem(row, column, cell)
        self.table.blockSignals(False)
        self.table.itemChanged.connect(lambda _item: self._refill_choices())

    def _build_statement(self) -> None:
        """Where the chosen queue shares notes: that the note is published, and what the
        author will read (shown by ``_show_statement``)."""
        self.shared = label("")
        named(self.shared, "bulkNoteShared", translate("Bulk", "Who reads the note"))
        self.statement = QPlainTextEdit()
        named(
            self.statement,
            "bulkStatementPreview",
            translate("Bulk", "What the author will read (statement of reasons)"),
        )
        self.statement.setReadOnly(True)
        lines = self.statement.fontMetrics().lineSpacing() * 5
        self.statement.setMaximumHeight(lines + 2 * self.statement.frameWidth() + 8)
        self.shared.hide()
        self.statement.hide()

    def _show_statement(self) -> None:
        """In a queue with ``notes_shareable`` the note of a restrictive action goes into
        every author's statement of reasons and the public DSA export: said, with the
        statement (the first such queue's) as protocol.draft_statement makes it."""
        action_id = self.action.currentData()
        sharing = [q for q in self.checked_queues() if q.config.notes_shareable]
        action = sharing[0].config.action(action_id) if sharing and action_id else None
        shown = action is not None and restrictive(action.kind, action.author_action)
        self.shared.setVisible(shown)
        self.statement.setVisible(shown)
        if action is None or not shown:
            return
        set_text(self.shared, self.shared_words(sharing))
        made = draft_statement(
            sharing[0].config,
            action.kind,
            policies=self.chosen_policies(),
            note=self.note.text().strip() or None,
            author_action=action.author_action,
        )
        text = clean(made.text) if made is not None else ""
        if self.statement.toPlainText() != text:
            self.statement.setPlainText(text)

    def shared_words(self, sharing: Sequence[Queue]) -> str:
        return translate(
            "Bulk",
            "The note is shared in {queues}: it is sent to the author of every post in the "
            "statement of reasons, and published in the DSA Transparency Database. What "
            "each author will read:",
        ).format(queues=", ".join(isolate(q.name) for q in sharing))

    def _follow(self, sender: BulkSender) -> None:
        """What the sender says of a bulk (this dialog's, see ``_mine``)."""
        sender.ticked.connect(self._on_sender_ticked)
        sender.held.connect(self._on_sender_ticked)
        sender.undone.connect(self._on_sender_undone)
        sender.sending.connect(self._on_sender_sending)
        sender.recorded.connect(self._on_sender_recorded)
        sender.refused.connect(self._on_sender_refused)
        sender.failed.connect(self._on_sender_failed)

    # --- what is checked, and what it may be decided as ------------------------------------

    def _cell(self, row: int, column: int) -> QTableWidgetItem:
        cell = self.table.item(row, column)
        assert cell is not None  # every cell is made with the table
        return cell

    def _policy(self, row: int) -> QListWidgetItem:
        item = self.policies.item(row)
        assert item is not None
        return item

    def set_checked(self, item_ids: Sequence[str]) -> None:
        """Check exactly these posts (what a lead's clicks do; for tests and tools)."""
        wanted = set(item_ids)
        self.table.blockSignals(True)  # one refill for them all, not one a row
        for row in range(self.table.rowCount()):
            cell = self._cell(row, 0)
            cell.setCheckState(
                Qt.CheckState.Checked
                if cell.data(Qt.ItemDataRole.UserRole) in wanted
                else Qt.CheckState.Unchecked
            )
        self.table.blockSignals(False)
        self._refill_choices()

    def checked(self) -> list[Candidate]:
        return [
            c
            for row, c in enumerate(self.candidates)
            if self._cell(row, 0).checkState() == Qt.CheckState.Checked
        ]

    def checked_queues(self) -> list[Queue]:
        ids = sorted({c.queue_id for c in self.checked()})
        return [self.queues[q] for q in ids if q in self.queues]

    def choose(self, action: str, policies: Sequence[str] = (), note: str = "") -> None:
        """Pick the action, policies and note (what a lead's clicks do; for tests)."""
        self.action.setCurrentIndex(self.action.findData(action))
        wanted = set(policies)
        for row in range(self.policies.count()):
            item = self._policy(row)
            item.setCheckState(
                Qt.CheckState.Checked
                if item.data(Qt.ItemDataRole.UserRole) in wanted
                else Qt.CheckState.Unchecked
            )
        self.note.setText(note)

    def chosen_policies(self) -> list[str]:
        return [
            str(self._policy(row).data(Qt.ItemDataRole.UserRole))
            for row in range(self.policies.count())
            if self._policy(row).checkState() == Qt.CheckState.Checked
        ]

    def _refill_choices(self) -> None:
        queues = self.checked_queues()
        current = self.action.currentData()
        checked = set(self.chosen_policies())
        self.action.clear()
        for action_id, words in common_actions(queues):
            self.action.addItem(words, action_id)
        index = self.action.findData(current)
        if index >= 0:
            self.action.setCurrentIndex(index)
        self.policies.clear()
        for code, words in common_policies(queues):
            item = QListWidgetItem(f"{code}: {isolate(words)}")
            item.setData(Qt.ItemDataRole.UserRole, code)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(
                Qt.CheckState.Checked if code in checked else Qt.CheckState.Unchecked
            )
            self.policies.addItem(item)
        self._update_buttons()

    def missing(self) -> str:
        """What the chosen action still needs ('' when nothing): fewer posts, a policy, a
        note."""
        count = len(self.checked())
        if count > MAX_BULK_ITEMS:
            return translate(
                "Bulk",
                "At most {max} posts can be decided together: {n} are checked. Uncheck "
                "{over} of them, or decide them in parts.",
            ).format(max=whole(MAX_BULK_ITEMS), n=whole(count), over=whole(count - MAX_BULK_ITEMS))
        queues = self.checked_queues()
        action_id = self.action.currentData()
        actions = [q.config.action(action_id) for q in queues]
        if any(a is not None and a.requires_policy for a in actions) and not (
            self.chosen_policies()
        ):
            return translate("Bulk", "Check at least one policy for this action.")
        if any(a is not None and a.requires_note for a in actions) and not self.note.text().strip():
            return translate("Bulk", "Write a note: this action needs one.")
        return ""

    def _update_buttons(self) -> None:
        idle = self.bulk_id is None
        # Undo shown before Decide is disabled (focus moves on to it, not Close); Enter undoes
        self.undo_button.setVisible(not idle)
        self.undo_button.setDefault(not idle)
        missing = self.missing()
        ready = idle and bool(self.checked()) and self.action.count() > 0
        self.decide.setEnabled(ready and not missing)
        self.decide.setToolTip(missing)
        too_many = missing if idle and len(self.checked()) > MAX_BULK_ITEMS else ""
        if too_many:  # said where the lead looks, not only in a tooltip
            set_text(self.status, too_many)
        elif self._said_too_many and self.status.text() == self._said_too_many:
            set_text(self.status, "")
        self._said_too_many = too_many
        for widget in (self.table, self.action, self.policies, self.note):
            widget.setEnabled(idle)
        self._show_statement()

    # --- confirming and holding --------------------------------------------------------

    def confirmation_text(self) -> str:
        """'Remove 12 posts in 3 queues (Spam, Hate, Misinformation)?'"""
        chosen = self.checked()
        queues = self.checked_queues()
        names = ", ".join(isolate(q.name) for q in queues)
        n, q = len(chosen), len(queues)  # names: lupdate reads no expression as the count
        posts = plural(QCoreApplication.translate("Bulk", "%Ln post(s)"), n)
        where = plural(QCoreApplication.translate("Bulk", "%Ln queue(s)"), q)
        return translate("Bulk", "{action}: {posts} in {queues} ({names})?").format(
            action=isolate(self.action.currentText()), posts=posts, queues=where, names=names
        )

    def _on_decide_clicked(self) -> None:
        if not self.checked() or self.bulk_id is not None or self.action.count() == 0:
            return
        window = self.bulk_sender.store.settings.get(UNDO_WINDOW)
        ask_first(
            self,
            self,
            name="confirmBulkDecision",
            title=translate("Bulk", "Decide together"),
            text=self.confirmation_text(),
            more=translate(
                "Bulk",
                "Each post becomes its own decision, with its own action sent to the platform. "
                "They are sent in {seconds} s; until then you can undo. If any of them was "
                "decided or taken by someone else meanwhile, none is decided.",
            ).format(seconds=shortest(window))
            + ("\n\n" + self.shared.text() if not self.shared.isHidden() else ""),
            yes=translate("Bulk", "Decide"),
            cancel=translate("Bulk", "Cancel"),
            on_yes=self._decide,
        )

    def _decide(self) -> None:
        try:
            request = new_request(
                self.checked(),
                str(self.action.currentData()),
                policies=self.chosen_policies(),
                note=self.note.text().strip() or None,
                at=time.time(),
            )
        except ValidationError as err:  # said, never lost in a Qt callback
            log.info("bulk decision not made: %s", err)
            first = err.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            what = f"{where}: {first.get('msg', '')}" if where else str(first.get("msg", ""))
            words = translate("Bulk", "Nothing was decided: the request is not valid ({what}).")
            set_text(self.status, words.format(what=isolate(what)))
            return
        self.last_request = request
        held = self.bulk_sender.hold(request)
        self.bulk_id = held.id
        self._update_buttons()
        self.undo_button.setFocus()  # (the dialog's focus once the confirmation closes)

    def _on_undo_clicked(self) -> None:
        if self.bulk_id is not None and not self.bulk_sender.undo(self.bulk_id):
            set_text(
                self.status,
                translate("Bulk", "Too late to undo: the decisions are being sent."),
            )

    # --- what the sender says ------------------------------------------------------------

    def _mine(self, bulk_id: str) -> bool:
        return bulk_id == self.bulk_id

    def _on_sender_ticked(self, bulk_id: str, left: float) -> None:
        if self._mine(bulk_id):
            n = len(self.last_request.items) if self.last_request else 0
            set_text(
                self.status,
                plural(
                    QCoreApplication.translate(
                        "Bulk", "Sending %Ln decision(s) in {s} s… (Undo takes them back)"
                    ),
                    n,
                ).format(s=max(1, int(left + 0.999))),
            )

    def _on_sender_undone(self, bulk_id: str) -> None:
        if self._mine(bulk_id):
            self.bulk_id = None
            set_text(self.status, translate("Bulk", "Undone: nothing was sent."))
            undoing = self.focusWidget() is self.undo_button
            self._update_buttons()
            if undoing:  # back on Decide (not on Close, where the hidden Undo left it)
                self.decide.setFocus()

    def _on_sender_sending(self, bulk_id: str) -> None:
        if self._mine(bulk_id):
            self.undo_button.setEnabled(False)
            set_text(self.status, translate("Bulk", "Sending the decisions…"))

    def _on_sender_recorded(self, bulk_id: str, results: BulkDecisionResults) -> None:
        if not self._mine(bulk_id):
            return
        self.bulk_id = None
        self.undo_button.setEnabled(True)
        done = {r.item_id for r in results.results}
        decided_now = translate("Bulk", "decided now")
        # without signals: each row's change would refill the choices, rescanning every
        # row (1,000 posts froze the window for most of a minute); one refill after
        self.table.blockSignals(True)
        for row, c in enumerate(self.candidates):
            if c.item_id in done:
                cell = self._cell(row, 0)
                cell.setCheckState(Qt.CheckState.Unchecked)
                cell.setFlags(Qt.ItemFlag.ItemIsEnabled)
                self._cell(row, 3).setText(decided_now)
        self.table.blockSignals(False)
        self._refill_choices()
        names = ", ".join(
            isolate(self.queues[q].name if q in self.queues else q) for q in results.queue_ids
        )
        count = len(results.results)  # a name: lupdate reads no expression as the count
        set_text(
            self.status,
            plural(
                QCoreApplication.translate("Bulk", "Done: %Ln decision(s) recorded ({names})."),
                count,
            ).format(names=names),
        )
        self._update_buttons()
        self.decide.setEnabled(False)

    def _on_sender_refused(self, bulk_id: str, said: Refusal) -> None:
        if not self._mine(bulk_id):
            return
        self.bulk_id = None
        self.undo_button.setEnabled(True)
        self.show_refusal(said)

    def show_refusal(self, said: Refusal) -> None:
        """Mark each post the service named with its words; uncheck those decided or taken
        by someone else meanwhile, and leave checked those that refused the request itself
        (a note now required, an action or policy gone: the lead changes the request)."""
        why = {r.item_id: r.message or r.code for r in said.items}
        taken = {r.item_id for r in said.taken}
        self.refused_ids = taken
        self.table.blockSignals(True)
        for row, c in enumerate(self.candidates):
            if c.item_id in taken:
                self._cell(row, 0).setCheckState(Qt.CheckState.Unchecked)
            self._cell(row, 3).setText(isolate(why[c.item_id]) if c.item_id in why else "")
        self.table.blockSignals(False)
        words = [refusal_words(said)]
        if taken:
            words.append(translate("Bulk", "Those posts are marked below and unchecked."))
        if said.not_fitting:
            words.append(
                translate(
                    "Bulk",
                    "The posts it names are marked below and stay checked: change the action, "
                    "policies or note as it says (or uncheck them), and decide again.",
                )
            )
        elif taken:
            words.append(translate("Bulk", "Decide again to decide the rest."))
        set_text(self.status, " ".join(words))
        self._refill_choices()
        if marked := [r for r, c in enumerate(self.candidates) if c.item_id in why]:
            self.table.scrollToItem(self._cell(marked[0], 0))

    def redo(self, said: Refusal) -> None:
        """A refused bulk opened again: its action, policies and note chosen, the refusal
        marked (the posts taken meanwhile unchecked)."""
        if (request := said.request) is not None:
            self.choose(request.action, request.policies, request.note or "")
        self.show_refusal(said)

    def _on_sender_failed(self, bulk_id: str, why: str) -> None:
        if self._mine(bulk_id):
            set_text(
                self.status,
                translate(
                    "Bulk",
                    "Not sent yet: {why} The decisions are kept here and sent again in {s} s.",
                ).format(why=why, s=int(RETRY_SECONDS)),
            )

    @property
    def holding(self) -> bool:
        return self.bulk_id is not None


__all__ = [
    "RETRY_SECONDS",
    "BulkDecisionDialog",
    "BulkSender",
    "common_actions",
    "common_policies",
    "load_author_posts",
    "offered_while_selected",
    "refused_box",
]
