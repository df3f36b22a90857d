"""The Search tab: a lead finds items (open or decided) by author, post text, the post's
platform id or URL, a link's domain or a report reason, and keeps searches and decisions
filters as saved views (private, or shared with every lead), opened from the picker or
with Ctrl+Shift+1 … 9. Every call runs on a pool thread; every string from the wire is
plain text, with bidi controls shown and isolated."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.core.api import ApiClient
from reviewer_app.core.bulk import Candidate
from reviewer_app.protocol import (
    DecisionQuery,
    DecisionsView,
    Role,
    SavedView,
    SavedViewCreate,
    SavedViewList,
    SearchHit,
    SearchKind,
    SearchPage,
    SearchQuery,
    SearchView,
    User,
)
from reviewer_app.protocol.bulk_decisions import MAX_BULK_ITEMS
from reviewer_app.protocol.search import MAX_QUERY, MAX_VIEW_NAME

from ..background import run_op
from ..confirm import ask_first
from ..i18n import QT_TRANSLATE_NOOP, translate
from ..messages import describe
from ..models import DISPLAY, _Table
from ..plain import (
    LABEL_WIDTH,
    bounded,
    clean,
    fit_headers,
    isolate,
    label,
    named,
    set_text,
    stretch_column,
    tooltip,
)
from ..words import decimal, plural
from .bulk import offered_while_selected
from .decisions_model import QueueWords, coded
from .stats_views import Index, table_view

TIME_FORMAT = "%Y-%m-%d %H:%M"
PAGE = 100
#: Saved views a key opens: Ctrl+Shift+1 … Ctrl+Shift+9, in the picker's order.
VIEW_KEYS = 9

KIND_WORDS: dict[SearchKind, str] = {
    SearchKind.author: QT_TRANSLATE_NOOP("LeadSearch", "Author (handle, platform id, name)"),
    SearchKind.text: QT_TRANSLATE_NOOP("LeadSearch", "Post text"),
    SearchKind.post: QT_TRANSLATE_NOOP("LeadSearch", "Post platform id or URL"),
    SearchKind.domain: QT_TRANSLATE_NOOP("LeadSearch", "Link domain"),
    SearchKind.reason: QT_TRANSLATE_NOOP("LeadSearch", "Report reason"),
}


#: an item's state in words (the wire's code, "pending", was shown in every language)
STATE_WORDS = {
    "pending": QT_TRANSLATE_NOOP("LeadSearch", "waiting"),
    "leased": QT_TRANSLATE_NOOP("LeadSearch", "being reviewed"),
    "decided": QT_TRANSLATE_NOOP("LeadSearch", "decided"),
    "withdrawn": QT_TRANSLATE_NOOP("LeadSearch", "withdrawn"),
    "resolved": QT_TRANSLATE_NOOP("LeadSearch", "resolved by an account action"),
    "unservable": QT_TRANSLATE_NOOP("LeadSearch", "cannot be shown"),
}


class SearchResultsModel(_Table):
    HEADERS = (
        QT_TRANSLATE_NOOP("LeadSearch", "Item"),
        QT_TRANSLATE_NOOP("LeadSearch", "Queue"),
        QT_TRANSLATE_NOOP("LeadSearch", "State"),
        QT_TRANSLATE_NOOP("LeadSearch", "Author"),
        QT_TRANSLATE_NOOP("LeadSearch", "Post"),
        QT_TRANSLATE_NOOP("LeadSearch", "Decision"),
        QT_TRANSLATE_NOOP("LeadSearch", "Reviewer"),
        QT_TRANSLATE_NOOP("LeadSearch", "Decided"),
    )
    TR_CONTEXT = "LeadSearch"

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[SearchHit] = []
        self._cells: list[tuple[str, ...]] = []

    def _rows(self) -> Sequence[object]:
        return self.hits

    def clear(self) -> None:
        self.beginResetModel()
        self.hits, self._cells = [], []
        self.endResetModel()

    def add(self, hits: Sequence[SearchHit], queues: dict[str, QueueWords] | None = None) -> None:
        """More rows; ``queues``: the queues' names and labels (their codes in words
        without)."""
        if not hits:
            return
        start = len(self.hits)
        self.beginInsertRows(QModelIndex(), start, start + len(hits) - 1)
        self.hits += hits
        self._cells += [self._texts(h, queues) for h in hits]
        self.endInsertRows()

    @staticmethod
    def _texts(h: SearchHit, queues: dict[str, QueueWords] | None) -> tuple[str, ...]:
        author = isolate(h.author_handle)
        if h.author_name:
            author += " (" + isolate(h.author_name) + ")"
        post = " ".join(clean(h.excerpt).split())
        queue, action, _rating = coded(h.queue_id, h.action or "", None, queues)
        return (
            isolate(h.item_id),
            queue,
            translate("LeadSearch", STATE_WORDS.get(h.state, h.state)),
            author,
            isolate(post),
            action,
            isolate(h.reviewer) if h.reviewer else "",
            h.decided_at.astimezone().strftime(TIME_FORMAT) if h.decided_at else "",
        )

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.hits):
            return None
        column = index.column()
        if role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole):
            return self._cells[index.row()][column]
        if role == Qt.ItemDataRole.ToolTipRole:
            h = self.hits[index.row()]
            if column == 4:
                return tooltip(h.excerpt)
            if column == 3:
                parts = (h.author_handle, h.author_name, h.author_id)
                return tooltip("\n".join(isolate(part) for part in parts if part))
            text = self._cells[index.row()][column]
            return tooltip(text) if text else None
        if role == Qt.ItemDataRole.UserRole:
            return self.hits[index.row()].item_id
        return None


class SaveViewDialog(QDialog):
    """A name for the view and whether the team sees it."""

    def __init__(self, what: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(translate("LeadSearch", "Save view"))
        self.name = QLineEdit()
        self.name.setMaxLength(MAX_VIEW_NAME)
        named(self.name, "viewName", translate("LeadSearch", "View name"))
        self.shared = QCheckBox(translate("LeadSearch", "Share with the team (every lead)"))
        named(self.shared, "viewShared", translate("LeadSearch", "Share the view"))
        form = QFormLayout(self)
        form.addRow(label(what))
        form.addRow(translate("LeadSearch", "Name"), self.name)
        form.addRow(self.shared)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)


class SearchPane(QWidget):
    """Search field and kind, results (paged: More), and the saved views picker."""

    item_requested = Signal(str)  # item id: show it (the Decisions tab does)
    decisions_view_requested = Signal(object)  # a DecisionQuery: the Decisions tab shows it
    views_loaded = Signal(int)
    bulk_requested = Signal(object)  # list[Candidate]: the selected open posts, to decide
    results_loaded = Signal(int)  # rows now shown

    def __init__(
        self,
        client_factory: Callable[[], ApiClient],
        decision_filters: Callable[[], DecisionQuery | None],
        parent: QWidget | None = None,
        *,
        queue_words: Callable[[], dict[str, QueueWords]] | None = None,
    ) -> None:
        """``queue_words``: the queues' names and labels (the Decisions tab's), by id."""
        super().__init__(parent)
        named(self, "searchPane", translate("LeadWorkspace", "Search"))
        self.client_factory = client_factory
        self.queue_words = queue_words
        self.decision_filters = decision_filters
        self.searching: SearchQuery | None = None
        self.next_cursor: str | None = None
        self.loading = False
        self.views: list[SavedView] = []
        self.me: User | None = None  # who asked for the views (read with them): may delete
        self.views_loading = False
        self.confirmation: QMessageBox | None = None

        layout = QVBoxLayout(self)
        layout.addLayout(self._build_query_row())
        layout.addLayout(self._build_views_row())
        bottom = self._build_results()  # (and the table)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)
        self._views_loaded_once = False
        self._show_views()

    def _build_query_row(self) -> QHBoxLayout:
        """What to search in, what for, and Search."""
        self.kind = QComboBox()  # the app's own words: as wide as the longest
        self.kind.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        named(self.kind, "searchKind", translate("LeadSearch", "Search in"))
        for kind, words in KIND_WORDS.items():
            self.kind.addItem(translate("LeadSearch", words), kind)
        self.query = QLineEdit()
        self.query.setMaxLength(MAX_QUERY)
        self.query.setPlaceholderText(
            translate("LeadSearch", "what to find (author and text: 3 characters or more)")
        )
        named(self.query, "searchQuery", translate("LeadSearch", "Search for"))
        self.query.returnPressed.connect(self.search)
        go = QPushButton(translate("LeadSearch", "Search"))
        named(go, "searchButton", translate("LeadSearch", "Search"))
        go.clicked.connect(self.search)
        row = QHBoxLayout()
        row.addWidget(self.kind)
        row.addWidget(self.query, 1)
        row.addWidget(go)
        return row

    def _build_views_row(self) -> QHBoxLayout:
        """The saved views: pick, open, save this search or the Decisions filter, delete."""
        self.picker = bounded(QComboBox())
        named(self.picker, "savedViews", translate("LeadSearch", "Saved views"))
        self.picker.currentIndexChanged.connect(lambda _i: self._may_delete())
        self.open_button = QPushButton(translate("LeadSearch", "Open"))
        named(self.open_button, "openView", translate("LeadSearch", "Open the saved view"))
        self.open_button.clicked.connect(lambda: self.open_view(self.picker.currentIndex()))
        save_search = QPushButton(translate("LeadSearch", "Save search…"))
        named(save_search, "saveSearch", translate("LeadSearch", "Save this search as a view"))
        save_search.clicked.connect(self._on_save_search_clicked)
        save_filter = QPushButton(translate("LeadSearch", "Save Decisions filter…"))
        named(
            save_filter,
            "saveDecisionsFilter",
            translate("LeadSearch", "Save the Decisions tab's filter as a view"),
        )
        save_filter.clicked.connect(self._on_save_filter_clicked)
        self.delete_button = QPushButton(translate("LeadSearch", "Delete"))
        named(self.delete_button, "deleteView", translate("LeadSearch", "Delete the saved view"))
        self.delete_button.clicked.connect(self._on_delete_clicked)
        views_row = QHBoxLayout()
        views_row.addWidget(label(translate("LeadSearch", "Saved views:"), wrap=False))
        views_row.addWidget(self.picker, 1)
        for button in (self.open_button, save_search, save_filter, self.delete_button):
            views_row.addWidget(button)
        return views_row

    def _build_results(self) -> QHBoxLayout:
        """The results table (made here); returns the row under it: status, bulk, more."""
        self.model = SearchResultsModel()
        self.table = table_view("searchResults", translate("LeadSearch", "Search results"))
        self.table.setSortingEnabled(False)  # the service's order: newest first
        self.table.setModel(self.model)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        # the queue, the decision and the time as wide as their usual words in the font
        metrics = self.table.fontMetrics()
        padding = 2 * metrics.averageCharWidth()
        queue, action, stamp = (
            metrics.horizontalAdvance(text) + padding
            for text in ("Hate and harassment", "Reduce distribution", "2026-12-31 23:59")
        )
        for column, width in enumerate((120, queue, 80, 200, LABEL_WIDTH, action, 100, stamp)):
            self.table.setColumnWidth(column, width)
        fit_headers(self.table)  # never narrower than a title
        stretch_column(self.table, SearchResultsModel.HEADERS.index("Post"))
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.activated.connect(self._on_row_activated)
        self.table.doubleClicked.connect(self._on_row_activated)
        self.status = label("", wrap=True)
        named(self.status, "searchStatus", translate("LeadSearch", "Search status"))
        self.more = QPushButton(translate("LeadSearch", "More results"))
        named(self.more, "moreResults", translate("LeadSearch", "Load more results"))
        self.more.clicked.connect(self.load_more)
        self.more.hide()
        self.bulk_button = QPushButton(translate("LeadSearch", "Decide these together…"))
        named(
            self.bulk_button,
            "decideTogether",
            translate("LeadSearch", "Decide the selected open posts together"),
        )
        self.bulk_button.clicked.connect(self._on_bulk_clicked)
        offered_while_selected(self.bulk_button, self.table)
        bottom = QHBoxLayout()
        bottom.addWidget(self.status, 1)
        bottom.addWidget(self.bulk_button)
        bottom.addWidget(self.more)
        return bottom

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if not self.views_loading:  # each time shown: a colleague may have shared one since
            self._views_loaded_once = True
            self.refresh_views()

    def load_views_once(self) -> None:
        if not self._views_loaded_once:
            self._views_loaded_once = True
            self.refresh_views()

    # --- searching ---------------------------------------------------------------------

    def _say(self, text: str) -> None:
        set_text(self.status, text)

    def current_query(self) -> SearchQuery | None:
        text = self.query.text().strip()
        return SearchQuery(kind=self.kind.currentData(), q=text) if text else None

    def search(self) -> None:
        query = self.current_query()
        if query is None:
            self._say(translate("LeadSearch", "Type something to search for."))
            return
        self.run(query)

    def run(self, query: SearchQuery) -> None:
        """Show the first page of ``query``'s hits (the field and kind show it too)."""
        self.kind.setCurrentIndex(self.kind.findData(query.kind))
        self.query.setText(query.q)
        self.searching = query
        self.next_cursor = None
        self.model.clear()
        self.more.hide()
        self.loading = False
        self._fetch(None)

    def load_more(self) -> None:
        if self.searching is not None and self.next_cursor and not self.loading:
            self._fetch(self.next_cursor)

    def _fetch(self, cursor: str | None) -> None:
        query = self.searching
        assert query is not None
        self.loading = True
        self._say(translate("LeadSearch", "Searching…"))
        factory = self.client_factory

        def work() -> SearchPage:
            api = factory()
            return api.search(query.kind, query.q, cursor=cursor, limit=PAGE)

        def arrived(page: SearchPage) -> None:
            self.loading = False
            self.model.add(page.hits, self.queue_words() if self.queue_words else None)
            self.next_cursor = page.next_cursor
            self.more.setVisible(page.next_cursor is not None)
            shown = len(self.model.hits)
            counted = (
                QCoreApplication.translate(
                    "LeadSearch", "%Ln item(s) shown, newest first; more below."
                )
                if page.next_cursor
                else QCoreApplication.translate("LeadSearch", "%Ln item(s) found, newest first.")
            )
            self._say(
                plural(counted, shown) if shown else translate("LeadSearch", "Nothing found.")
            )
            self.results_loaded.emit(shown)

        def failed(err: BaseException) -> None:
            self.loading = False
            self._say(describe(err, during=translate("LeadSearch", "searching")).line())

        # a newer search (or page) drops this one's result: one key for both
        run_op(self, work, arrived, failed, key="search")

    def _on_row_activated(self, index: QModelIndex) -> None:
        if index.isValid():
            self.item_requested.emit(self.model.hits[index.row()].item_id)

    def selected_candidates(self) -> tuple[list[Candidate], int]:
        """The selected results that are still open (waiting or leased), in the table's
        order, and how many selected ones are not (decided, withdrawn...)."""
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()})
        hits = [self.model.hits[r] for r in rows if 0 <= r < len(self.model.hits)]
        open_hits = [h for h in hits if h.state in ("pending", "leased")]
        found = [Candidate(h.item_id, h.queue_id, h.excerpt, h.author_handle) for h in open_hits]
        return found, len(hits) - len(open_hits)

    def _on_bulk_clicked(self) -> None:
        found, closed = self.selected_candidates()
        if not found:
            self._say(
                translate(
                    "LeadSearch",
                    "Select open posts first (Ctrl or Shift and click): decided posts are "
                    "changed by an audit, not decided again.",
                )
            )
            return
        if len(found) > MAX_BULK_ITEMS:
            self._say(
                translate(
                    "LeadSearch",
                    "At most {max} posts can be decided together: {n} open posts are "
                    "selected. Select fewer (narrow the search, or select a part of the "
                    "results) and decide the rest afterwards.",
                ).format(max=decimal(MAX_BULK_ITEMS, 0), n=decimal(len(found), 0))
            )
            return
        if closed:
            self._say(
                plural(
                    QCoreApplication.translate(
                        "LeadSearch",
                        "%Ln selected post(s) decided already: left out.",
                    ),
                    closed,
                )
            )
        self.bulk_requested.emit(found)

    # --- saved views -------------------------------------------------------------------

    def refresh_views(self) -> None:
        """The views again, and who asks (their own views, or an admin: Delete)."""
        factory = self.client_factory
        self.views_loading = True

        def work() -> tuple[User, SavedViewList]:
            api = factory()
            return api.me(), api.saved_views()

        def failed(err: BaseException) -> None:
            self.views_loading = False
            self._say(
                describe(err, during=translate("LeadSearch", "loading the saved views")).line()
            )

        run_op(self, work, self._on_views_arrived, failed, key="views")

    def _on_views_arrived(self, found: tuple[User, SavedViewList]) -> None:
        self.views_loading = False
        self.me, self.views = found[0], list(found[1].views)
        self._show_views()
        self.views_loaded.emit(len(self.views))

    def _show_views(self) -> None:
        kept = self.picker.currentData()  # still picked after a reload
        self.picker.clear()
        for n, view in enumerate(self.views, start=1):
            key = f"Ctrl+Shift+{n}: " if n <= VIEW_KEYS else ""
            what = (
                translate("LeadSearch", "search")
                if view.view.kind == "search"
                else translate("LeadSearch", "decisions")
            )
            whose = (
                translate("LeadSearch", "shared by {owner}").format(owner=isolate(view.owner))
                if view.shared
                else translate("LeadSearch", "private")
            )
            self.picker.addItem(f"{key}{isolate(view.name)} ({what}, {whose})", view.id)
            self.picker.setItemData(n - 1, tooltip(view.name), Qt.ItemDataRole.ToolTipRole)
        if not self.views:
            self.picker.addItem(translate("LeadSearch", "No saved views yet"), None)
        self.picker.setCurrentIndex(max(0, self.picker.findData(kept)))
        self.open_button.setEnabled(bool(self.views))
        self._may_delete()

    def deletable(self) -> SavedView | None:
        """The picked view if the service lets this lead delete it: theirs (an admin: any)."""
        view = next((v for v in self.views if v.id == self.picker.currentData()), None)
        if view is None or self.me is None:
            return None
        return view if self.me.role is Role.admin or view.owner == self.me.username else None

    def _may_delete(self) -> None:
        self.delete_button.setEnabled(self.deletable() is not None)

    def open_view(self, position: int) -> None:
        """Open the saved view at ``position`` in the picker (a search here; a decisions
        filter on the Decisions tab)."""
        if not 0 <= position < len(self.views):
            self._say(translate("LeadSearch", "No saved view {n}.").format(n=position + 1))
            return
        self.picker.setCurrentIndex(position)
        view = self.views[position].view
        if isinstance(view, SearchView):
            self.run(view.search)
        elif isinstance(view, DecisionsView):
            self.decisions_view_requested.emit(view.filter)

    def save_view(self, name: str, shared: bool, view: SearchView | DecisionsView) -> None:
        """Save ``view`` under ``name`` on the service; the picker shows it when saved."""
        factory = self.client_factory
        try:
            body = SavedViewCreate(name=name, shared=shared, view=view)
        except ValueError:
            self._say(
                translate(
                    "LeadSearch",
                    "A view's name is one line of up to {n} characters, with no control "
                    "characters. Nothing was saved.",
                ).format(n=MAX_VIEW_NAME)
            )
            return

        def saved(made: SavedView) -> None:
            self._say(
                translate("LeadSearch", "Saved the view {name}.").format(name=isolate(made.name))
            )
            self.refresh_views()

        def failed(err: BaseException) -> None:
            self._say(describe(err, during=translate("LeadSearch", "saving the view")).line())

        run_op(self, lambda: factory().save_view(body), saved, failed)

    def delete_view(self, view_id: int) -> None:
        factory = self.client_factory

        def failed(err: BaseException) -> None:
            self._say(describe(err, during=translate("LeadSearch", "deleting the view")).line())
            self.refresh_views()  # (gone already, or not this lead's: the list says so)

        run_op(self, lambda: factory().delete_view(view_id), lambda _: self.refresh_views(), failed)

    def _ask_and_save(self, what: str, view: SearchView | DecisionsView) -> None:
        dialog = SaveViewDialog(what, self)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.save_view(dialog.name.text(), dialog.shared.isChecked(), view)

    def _on_save_search_clicked(self) -> None:
        query = self.current_query()
        if query is None:
            self._say(translate("LeadSearch", "Type a search to save first."))
            return
        what = translate("LeadSearch", "Save the search for {q} as a view.").format(
            q=isolate(query.q)
        )
        self._ask_and_save(what, SearchView(search=query))

    def _on_save_filter_clicked(self) -> None:
        filters = self.decision_filters()
        if filters is None:
            self._say(translate("LeadSearch", "The Decisions tab's filter is not valid."))
            return
        what = translate("LeadSearch", "Save the Decisions tab's current filter as a view.")
        self._ask_and_save(what, DecisionsView(filter=filters))

    def _on_delete_clicked(self) -> None:
        """Delete the picked view; one shared with the team asked first (every lead has it)."""
        view = self.deletable()
        if view is not None and not view.shared:
            self.delete_view(view.id)
        elif view is not None:
            ask_first(
                self,
                self,
                name="confirmDeleteView",
                title=translate("LeadSearch", "Delete saved view"),
                text=translate(
                    "LeadSearch",
                    "Delete the view {name}, shared by {owner} with every lead? It is gone for "
                    "all of them; this cannot be undone.",
                ).format(name=isolate(view.name), owner=isolate(view.owner)),
                yes=translate("LeadSearch", "Delete"),
                cancel=translate("LeadSearch", "Cancel"),
                on_yes=lambda: self.delete_view(view.id),
            )


__all__ = ["KIND_WORDS", "SaveViewDialog", "SearchPane", "SearchResultsModel"]
