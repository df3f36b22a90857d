"""Accounts in the review window: an author's status in words, the accounts linked to them
(shared account signals) in the Author tab, and, for leads, one account action on a
selection of those accounts after a confirmation that says what it will close.

Reviewers see the linked accounts as the item brought them (a snapshot from when it was
leased). A lead's panel asks the service for them afresh when the Author tab is shown, on
a pool thread; the action runs there too and the list is asked for again afterwards.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.protocol import Author, AuthorAction
from reviewer_app.protocol.accounts import (
    AccountActionRequest,
    AccountActionResults,
    LinkedAccount,
    LinkedAccounts,
    closes_items,
    status_after,
)
from reviewer_app.protocol.accounts import AuthorStatus as Status

from .background import Op, run_op
from .confirm import ask_first
from .i18n import QT_TRANSLATE_NOOP, translate
from .messages import describe
from .plain import isolate, label, named, read_only_table, set_text, tooltip
from .words import code_words, plural

log = logging.getLogger("ui")

ClientFactory = Callable[[], ApiClient]

STATUS_WORDS = {
    "active": QT_TRANSLATE_NOOP("Accounts", "active"),
    "warned": QT_TRANSLATE_NOOP("Accounts", "warned"),
    "restricted": QT_TRANSLATE_NOOP("Accounts", "restricted"),
    "suspended": QT_TRANSLATE_NOOP("Accounts", "suspended"),
    "inauthentic": QT_TRANSLATE_NOOP("Accounts", "marked inauthentic"),
}
#: the lead's account actions, in the order the menu offers them
ACTION_WORDS = {
    AuthorAction.suspend: QT_TRANSLATE_NOOP("Accounts", "Suspend"),
    AuthorAction.mark_inauthentic: QT_TRANSLATE_NOOP("Accounts", "Mark inauthentic"),
    AuthorAction.restrict: QT_TRANSLATE_NOOP("Accounts", "Restrict"),
    AuthorAction.warn: QT_TRANSLATE_NOOP("Accounts", "Warn"),
}


def status_words(status: str | Status) -> str:
    """An author status in words (the value itself when it is new to us)."""
    value = str(status.value if isinstance(status, Status) else status)
    words = STATUS_WORDS.get(value)
    return translate("Accounts", words) if words else value.replace("_", " ")


def banner_words(status: str | Status) -> str:
    """What the post header says of an actioned author ('' for an active one)."""
    value = str(status.value if isinstance(status, Status) else status)
    return {
        "warned": translate("Accounts", "⚠ Author warned"),
        "restricted": translate("Accounts", "⚠ Author restricted"),
        "suspended": translate("Accounts", "⛔ Author suspended"),
        "inauthentic": translate("Accounts", "⛔ Author marked inauthentic"),
    }.get(value, "")


def resolved_words(status: str | None) -> str:
    """Why an item closed without a verdict: 'the author was suspended', ..."""
    if status == "inauthentic":
        return translate("Accounts", "the author was marked inauthentic")
    if status == "suspended":
        return translate("Accounts", "the author was suspended")
    return translate("Accounts", "the author was suspended or marked inauthentic")


@dataclass(frozen=True)
class Selection:
    """The accounts a lead picked, and what acting on them will touch."""

    author_ids: tuple[str, ...]
    open_items: int
    queues: int


def confirmation_question(action: AuthorAction, chosen: Selection) -> str:
    """'Suspend 4 accounts (12 open items in 3 queues)?'"""
    n, items, queues = len(chosen.author_ids), chosen.open_items, chosen.queues
    accounts = plural(QCoreApplication.translate("Accounts", "%Ln account(s)"), n)
    open_items = plural(QCoreApplication.translate("Accounts", "%Ln open item(s)"), items)
    in_queues = plural(QCoreApplication.translate("Accounts", "%Ln queue(s)"), queues)
    questions = {
        AuthorAction.suspend: translate("Accounts", "Suspend {accounts} ({items} in {queues})?"),
        AuthorAction.mark_inauthentic: translate(
            "Accounts", "Mark {accounts} inauthentic ({items} in {queues})?"
        ),
        AuthorAction.restrict: translate("Accounts", "Restrict {accounts}?"),
        AuthorAction.warn: translate("Accounts", "Warn {accounts}?"),
    }
    return questions[action].format(accounts=accounts, items=open_items, queues=in_queues)


def consequence(action: AuthorAction) -> str:
    if closes_items(action):
        return translate(
            "Accounts",
            "Each account is one account-level decision and one action sent to the platform. "
            "Their open items close in every queue without a verdict; reviewers holding one "
            "are told why. Their new posts will not be queued.",
        )
    return translate(
        "Accounts",
        "Each account is one account-level decision and one action sent to the platform. "
        "Their open items stay in review.",
    )


def done_words(action: AuthorAction, results: AccountActionResults) -> str:
    closed = sum(max(r.closed_items, len(r.closed_item_ids)) for r in results.results)
    n = len(results.results)
    accounts = plural(QCoreApplication.translate("Accounts", "%Ln account(s)"), n)
    items = plural(QCoreApplication.translate("Accounts", "%Ln open item(s)"), closed)
    return translate("Accounts", "{action}: {accounts} done; {items} closed.").format(
        action=translate("Accounts", ACTION_WORDS[action]), accounts=accounts, items=items
    )


COLUMNS = (
    QT_TRANSLATE_NOOP("Accounts", "Account"),
    QT_TRANSLATE_NOOP("Accounts", "Status"),
    QT_TRANSLATE_NOOP("Accounts", "Open items"),
    QT_TRANSLATE_NOOP("Accounts", "Queues"),
)


class LinkedAccountsPanel(QWidget):
    """The accounts linked to the item's author; for leads, checkable, with an action."""

    accounts_actioned = Signal(object)  # AccountActionResults
    #: the lead asked for the author's open posts to decide together (author id, and
    #: whether the linked accounts' posts come too)
    bulk_requested = Signal(str, bool)

    def __init__(self, client_factory: ClientFactory | None, parent: QWidget | None = None):
        super().__init__(parent)
        named(self, "linkedAccounts", translate("Accounts", "Linked accounts"))
        self.client_factory = client_factory  # None: a reviewer (no lead calls)
        self.author: Author | None = None
        self.accounts: list[LinkedAccount] = []
        self.confirmation: QMessageBox | None = None
        #: the linked accounts being fetched (for the author shown): dropped when it changes
        self._linked_op: Op | None = None
        self._busy = False

        self.title = label(translate("Accounts", "Accounts sharing signals with this author"))
        named(self.title, "linkedAccountsTitle", translate("Accounts", "Linked accounts"))
        self.table = read_only_table(
            QTableWidget(0, len(COLUMNS), self),
            "linkedAccountsTable",
            translate("Accounts", "Linked accounts"),
            rows=False,
        )
        self.table.setHorizontalHeaderLabels([translate("Accounts", c) for c in COLUMNS])
        # a lead reaches it by Tab and ticks an account with Space (the arrows move): it had
        # no focus, and only a mouse could check an account
        lead = client_factory is not None
        self.table.setFocusPolicy(Qt.FocusPolicy.StrongFocus if lead else Qt.FocusPolicy.NoFocus)
        self.table.verticalHeader().hide()
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)  # few rows, fixed sizes
        for column, width in enumerate((150, 110, 70, 160)):
            header.resizeSection(column, width)
        self.table.itemChanged.connect(self._on_table_item_changed)
        self.empty = label(translate("Accounts", "No linked accounts."))
        named(self.empty, "linkedAccountsEmpty", translate("Accounts", "Linked accounts"))

        self.action = QComboBox()
        named(self.action, "accountAction", translate("Accounts", "Account action"))
        for action, words in ACTION_WORDS.items():
            self.action.addItem(translate("Accounts", words), action.value)
        self.note = QLineEdit()
        named(self.note, "accountActionNote", translate("Accounts", "Note on the account action"))
        self.note.setPlaceholderText(translate("Accounts", "Note (why these accounts)"))
        self.note.setMaxLength(2_000)
        self.apply = QPushButton(translate("Accounts", "Apply to the checked accounts…"))
        named(self.apply, "applyAccountAction", translate("Accounts", "Apply the account action"))
        self.apply.clicked.connect(self._on_apply_clicked)
        self.status = label("")
        named(self.status, "accountActionStatus", translate("Accounts", "Account action result"))
        self.author_posts = QPushButton(translate("Accounts", "All open posts by this author…"))
        named(
            self.author_posts,
            "authorOpenPosts",
            translate("Accounts", "Decide this author's open posts together"),
        )
        self.author_posts.clicked.connect(lambda: self._on_bulk_clicked(linked=False))
        self.network_posts = QPushButton(translate("Accounts", "…and the linked accounts'"))
        named(
            self.network_posts,
            "networkOpenPosts",
            translate("Accounts", "Decide the open posts of this author and the linked accounts"),
        )
        self.network_posts.clicked.connect(lambda: self._on_bulk_clicked(linked=True))
        self._lay_out()
        for widget in (self.action, self.note, self.apply, self.author_posts, self.network_posts):
            widget.setVisible(lead)
        self._fill([])

    def _lay_out(self) -> None:
        bulk = QVBoxLayout()  # one above the other: side by side they widened the pane
        bulk.addWidget(self.author_posts, 0, Qt.AlignmentFlag.AlignLeft)
        bulk.addWidget(self.network_posts, 0, Qt.AlignmentFlag.AlignLeft)
        # the action, the note and the button each on their own line: side by side in the
        # context pane at 1280 px the note had 30 px to write in
        chosen = QHBoxLayout()
        chosen.addWidget(self.action)
        chosen.addStretch(1)
        applying = QHBoxLayout()
        applying.addWidget(self.apply)
        applying.addStretch(1)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.empty)
        layout.addLayout(chosen)
        layout.addWidget(self.note)
        layout.addLayout(applying)
        layout.addWidget(self.status)
        layout.addLayout(bulk)

    @property
    def lead(self) -> bool:
        return self.client_factory is not None

    # --- showing ----------------------------------------------------------------------

    def show_author(self, author: Author | None) -> None:
        """The item's author changed (or the tab was opened): the snapshot at once, and a
        lead's fresh list when it arrives."""
        changed = (author.id if author else None) != (self.author.id if self.author else None)
        self.author = author
        if changed:
            set_text(self.status, "")
            if self._linked_op is not None:  # another author's list: not wanted now
                self._linked_op.cancel()
                self._linked_op = None
        self._fill(list(author.linked) if author is not None else [])
        if author is not None and self.lead:
            self.refresh()

    def refresh(self) -> None:
        """Ask the service for the author's linked accounts now (leads)."""
        if self.author is None or self.client_factory is None:
            return
        author_id = self.author.id
        factory = self.client_factory

        def fetch() -> LinkedAccounts:
            with factory() as api:
                return api.linked_accounts(author_id)

        def arrived(found: LinkedAccounts) -> None:
            self._linked_op = None
            self._fill(list(found.linked))

        def failed(err: BaseException) -> None:
            self._linked_op = None
            set_text(
                self.status,
                describe(err, during=translate("Accounts", "loading the linked accounts")).line(),
            )

        # a newer refresh (the same author after an action) supersedes this one
        self._linked_op = run_op(self, fetch, arrived, failed, key="linked")

    @property
    def loading(self) -> bool:
        return self._linked_op is not None

    def _fill(self, accounts: Sequence[LinkedAccount]) -> None:
        self.accounts = list(accounts)
        self.table.blockSignals(True)
        try:
            self.table.setRowCount(len(self.accounts))
            for row, account in enumerate(self.accounts):
                name = QTableWidgetItem("@" + isolate(account.handle.lstrip("@")))
                name.setData(Qt.ItemDataRole.UserRole, account.author_id)
                name.setToolTip(tooltip("@" + account.handle.lstrip("@")))  # whole, if cut
                flags = Qt.ItemFlag.ItemIsEnabled
                if self.lead:
                    flags |= Qt.ItemFlag.ItemIsUserCheckable
                    name.setCheckState(Qt.CheckState.Unchecked)
                name.setFlags(flags)
                cells = [
                    name,
                    QTableWidgetItem(status_words(account.status)),
                    QTableWidgetItem(str(account.open_items)),
                    QTableWidgetItem(", ".join(code_words(q) for q in account.queue_ids)),
                ]
                cells[3].setToolTip(tooltip(cells[3].text()))
                for column, cell in enumerate(cells):
                    if column:
                        cell.setFlags(Qt.ItemFlag.ItemIsEnabled)
                    self.table.setItem(row, column, cell)
            if self.lead and self.accounts:
                self.table.setCurrentCell(0, 0)  # where the arrows and Space start
        finally:
            self.table.blockSignals(False)
        self.table.setVisible(bool(self.accounts))
        self.empty.setVisible(not self.accounts)
        self._update_apply()

    # --- a lead's account action -------------------------------------------------------

    def set_checked(self, author_ids: Sequence[str]) -> None:
        """Check exactly these accounts (what a lead's clicks do; for tests and tools)."""
        wanted = set(author_ids)
        for row, account in enumerate(self.accounts):
            item = self.table.item(row, 0)
            if item is not None and item.flags() & Qt.ItemFlag.ItemIsUserCheckable:
                checked = account.author_id in wanted
                item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        self._update_apply()

    def checked(self) -> list[LinkedAccount]:
        found = []
        for row, account in enumerate(self.accounts):
            item = self.table.item(row, 0)
            if item is not None and item.checkState() == Qt.CheckState.Checked:
                found.append(account)
        return found

    def chosen_action(self) -> AuthorAction:
        return AuthorAction(self.action.currentData())

    def selection(self) -> Selection:
        chosen = self.checked()
        return Selection(
            tuple(a.author_id for a in chosen),
            sum(a.open_items for a in chosen),
            len({q for a in chosen for q in a.queue_ids}),
        )

    def _on_table_item_changed(self, _item: QTableWidgetItem) -> None:
        self._update_apply()

    def _update_apply(self) -> None:
        self.apply.setEnabled(self.lead and bool(self.checked()) and not self._busy)

    def _on_apply_clicked(self) -> None:
        chosen = self.selection()
        if not chosen.author_ids or self._busy:
            return
        action = self.chosen_action()
        unchanged = [
            a for a in self.checked() if status_after(a.status, action) is None
        ]  # the service would refuse them all: say so before asking
        if unchanged:
            set_text(
                self.status,
                translate(
                    "Accounts",
                    "Nothing was applied: {accounts} already {status} or beyond. Uncheck them "
                    "and try again.",
                ).format(
                    accounts=", ".join("@" + isolate(a.handle.lstrip("@")) for a in unchanged),
                    status=status_words(status_after(Status.active, action) or Status.active),
                ),
            )
            return
        ask_first(
            self,
            self,
            name="confirmAccountAction",
            title=translate("Accounts", "Account action"),
            text=confirmation_question(action, chosen),
            more=consequence(action),
            yes=translate("Accounts", ACTION_WORDS[action]),
            cancel=translate("Accounts", "Cancel"),
            on_yes=lambda: self._apply(action, chosen),
        )

    def _apply(self, action: AuthorAction, chosen: Selection) -> None:
        if self.client_factory is None:
            return
        note = self.note.text().strip() or None
        request = AccountActionRequest(author_ids=list(chosen.author_ids), action=action, note=note)
        factory = self.client_factory
        self._busy = True
        self._update_apply()
        set_text(self.status, translate("Accounts", "Applying the account action…"))

        def send() -> AccountActionResults:
            with factory() as api:
                return api.account_action(request)

        def done(results: AccountActionResults) -> None:
            self._busy = False
            self.note.clear()
            set_text(self.status, done_words(action, results))
            self.accounts_actioned.emit(results)
            self.refresh()

        def failed(err: BaseException) -> None:
            self._busy = False
            self._update_apply()
            set_text(
                self.status,
                translate("Accounts", "Nothing was applied.")
                + " "
                + describe(err, during=translate("Accounts", "applying the account action")).line(),
            )

        run_op(self, send, done, failed)

    def _on_bulk_clicked(self, *, linked: bool) -> None:
        if self.author is not None and self.lead:
            self.bulk_requested.emit(self.author.id, linked)

    @property
    def busy(self) -> bool:
        return self._busy


def account_line(author: Author) -> str:
    """The Author tab's first line about the account's standing."""
    return translate("Accounts", "Account status: {status}").format(
        status=status_words(author.status).upper()
        if author.status in (Status.suspended, Status.inauthentic)
        else status_words(author.status)
    )


__all__ = [
    "LinkedAccountsPanel",
    "account_line",
    "banner_words",
    "confirmation_question",
    "resolved_words",
    "status_words",
]
