"""Everything needed to decide, beside the post: why it is here, the author, the thread,
the reports, the fact-checks and the item's history. All plain text."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QSize, Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTabBar,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from reviewer_app.protocol import Event, EventKind, Item, ItemEscalation, QueueReason
from reviewer_app.protocol.accounts import AuthorStatus

from .accounts import ClientFactory, LinkedAccountsPanel, account_line, status_words
from .escalation import escalation_lines
from .i18n import QT_TRANSLATE_NOOP, translate
from .longtext import QtText, cut, fill
from .plain import ReadingBox, ago, clean, count, isolate, named, scrolled
from .words import code_words, decimal, local_time, plural, shortest

#: a post, note, bio or claim in a tab shows this much; the rest on request (a
#: 100,000-character thread reply held the window for over a second as one paragraph)
FIELD_LIMIT = 2_000

#: ``limit`` and ``cuts`` of a tab's render: how long a text may be (None: whole), and a
#: list that gets how many characters each cut left out
Cuts = list[int]


def _box(key: str) -> QPlainTextEdit:
    """A tab's text box; ``key`` is the tab's English name (its object name)."""
    box = named(ReadingBox(), f"context:{key}", tab_title(key))
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    box.setMaximumBlockCount(2_000)
    return box


#: why a post is queued, in words (``QueueReasonKind``)
REASON_WORDS = {
    "classifier": QT_TRANSLATE_NOOP("ContextPanels", "classifier"),
    "user_reports": QT_TRANSLATE_NOOP("ContextPanels", "user reports"),
    "fact_check": QT_TRANSLATE_NOOP("ContextPanels", "fact-check"),
    "appeal": QT_TRANSLATE_NOOP("ContextPanels", "appeal"),
    "escalation": QT_TRANSLATE_NOOP("ContextPanels", "escalation"),
}
#: what happened to an item, in words (``EventKind``)
EVENT_WORDS = {
    "enqueued": QT_TRANSLATE_NOOP("ContextPanels", "entered the queue"),
    "claimed": QT_TRANSLATE_NOOP("ContextPanels", "claimed"),
    "renewed": QT_TRANSLATE_NOOP("ContextPanels", "lease renewed"),
    "released": QT_TRANSLATE_NOOP("ContextPanels", "given back"),
    "expired": QT_TRANSLATE_NOOP("ContextPanels", "lease expired"),
    "decided": QT_TRANSLATE_NOOP("ContextPanels", "decided"),
    "escalated": QT_TRANSLATE_NOOP("ContextPanels", "escalated"),
    "escalation_assigned": QT_TRANSLATE_NOOP("ContextPanels", "escalation assigned"),
    "user_created": QT_TRANSLATE_NOOP("ContextPanels", "user created"),
    "role_changed": QT_TRANSLATE_NOOP("ContextPanels", "role changed"),
    "password_set": QT_TRANSLATE_NOOP("ContextPanels", "password set"),
    "access_ended": QT_TRANSLATE_NOOP("ContextPanels", "access ended"),
    "audit_sampled": QT_TRANSLATE_NOOP("ContextPanels", "picked for an audit"),
    "audited": QT_TRANSLATE_NOOP("ContextPanels", "audited"),
    "overturned": QT_TRANSLATE_NOOP("ContextPanels", "overturned"),
    "post_updated": QT_TRANSLATE_NOOP("ContextPanels", "new version of the post from the platform"),
    "signal_added": QT_TRANSLATE_NOOP("ContextPanels", "new signal"),
    "withdrawn": QT_TRANSLATE_NOOP("ContextPanels", "withdrawn by the platform"),
    "rereview": QT_TRANSLATE_NOOP("ContextPanels", "back for review"),
    "config_applied": QT_TRANSLATE_NOOP("ContextPanels", "queue configuration applied"),
    "moved": QT_TRANSLATE_NOOP("ContextPanels", "moved to another queue"),
    "api_key_created": QT_TRANSLATE_NOOP("ContextPanels", "API key created"),
    "api_key_revoked": QT_TRANSLATE_NOOP("ContextPanels", "API key revoked"),
    "account_actioned": QT_TRANSLATE_NOOP("ContextPanels", "account action on the author"),
    "resolved": QT_TRANSLATE_NOOP("ContextPanels", "resolved by an account action"),
    "held_back": QT_TRANSLATE_NOOP("ContextPanels", "held back: the author is actioned"),
    "webhook_added": QT_TRANSLATE_NOOP("ContextPanels", "webhook endpoint added"),
    "webhook_disabled": QT_TRANSLATE_NOOP("ContextPanels", "webhook endpoint disabled"),
    "webhook_enabled": QT_TRANSLATE_NOOP("ContextPanels", "webhook endpoint enabled"),
    "webhook_secret_rotated": QT_TRANSLATE_NOOP("ContextPanels", "webhook signing secret changed"),
    "webhook_replayed": QT_TRANSLATE_NOOP("ContextPanels", "webhook actions sent again"),
    "unservable": QT_TRANSLATE_NOOP("ContextPanels", "could not be shown to reviewers: set aside"),
    "appealed": QT_TRANSLATE_NOOP("ContextPanels", "appealed by the user"),
}


def words_for(table: dict[str, str], value: str) -> str:
    """A protocol value in words, translated (the value itself when it is new to us)."""
    words = table.get(value)
    return translate("ContextPanels", words) if words else value.replace("_", " ")


def long(text: str, limit: int | None, cuts: Cuts | None) -> str:
    """A long untrusted text inside a tab's lines: cut to ``limit``, isolated."""
    shown, rest = cut(text, limit) if limit is not None else (text, 0)
    if not rest:
        return isolate(shown)
    if cuts is not None:
        cuts.append(rest)
    more = translate("ContextPanels", "… (%Ln more character(s): Show the whole text)")
    return isolate(shown) + plural(more, rest)


def why_text(
    item: Item,
    limit: int | None = FIELD_LIMIT,
    cuts: Cuts | None = None,
    name_of: Callable[[str], str | None] | None = None,
) -> str:
    """The queue by its name (``name_of``: the queue list's; its id where it has none), and
    the queue it came from when that is another ("Queue: misinformation (came from
    misinformation)" said the id twice)."""

    def named_queue(queue_id: str) -> str:
        name = name_of(queue_id) if name_of is not None else None
        return isolate(name) if name else code_words(queue_id)

    queue = named_queue(item.queue_id)
    origin = item.origin_queue_id
    lines = [
        translate("ContextPanels", "Queue: {queue}").format(queue=queue)
        if origin is None or origin == item.queue_id
        else translate("ContextPanels", "Queue: {queue} (came from {origin})").format(
            queue=queue, origin=named_queue(origin)
        )
    ]
    lines += [
        f"• {words_for(REASON_WORDS, r.kind.value)}: {reason_words(r, limit, cuts)}"
        for r in item.reasons
    ]
    lines += [f"• {line}" for line in escalation_lines(item.escalation, name_of)]
    return "\n".join(lines)


def reason_words(
    reason: QueueReason, limit: int | None = FIELD_LIMIT, cuts: Cuts | None = None
) -> str:
    """A reason in the user's language where the service gave its parts (a score against
    its rule, a count of reports), its ``detail`` as it came otherwise; what came from the
    service isolated once (``long``), the desk's own words not."""
    if reason.score is not None and reason.threshold is not None:
        figures = {"score": decimal(reason.score, 2), "rule": decimal(reason.threshold, 2)}
        if reason.subject is None:
            return translate(
                "ContextPanels", "account inauthenticity {score} (rule: {rule})"
            ).format(**figures)
        return translate("ContextPanels", "{subject} {score} (rule: {rule})").format(
            subject=long(reason.subject, limit, cuts), **figures
        )
    if reason.since_kept and reason.count is not None:
        return plural(
            translate("ContextPanels", "%Ln new report(s) since it was kept"), reason.count
        )
    if reason.since_kept and reason.subject is not None:
        return translate("ContextPanels", "new rating {rating} since it was kept").format(
            rating=long(reason.subject, limit, cuts)
        )
    if reason.count is not None:
        if reason.subject is None:
            return plural(translate("ContextPanels", "%Ln report(s)"), reason.count)
        return plural(translate("ContextPanels", "%Ln report(s) of {reason}"), reason.count).format(
            reason=long(reason.subject, limit, cuts)
        )
    return long(reason.detail, limit, cuts)


def author_text(item: Item, limit: int | None = FIELD_LIMIT, cuts: Cuts | None = None) -> str:
    a = item.author
    lines = [
        account_line(a),
        f"{isolate(a.display_name)} (@{isolate(a.handle)})"
        + (" — " + translate("ContextPanels", "verified") if a.verified else ""),
        translate("ContextPanels", "Account created {date} ({ago})").format(
            date=f"{a.account_created_at:%Y-%m-%d}", ago=ago(a.account_created_at)
        ),
        plural(
            translate("ContextPanels", "{followers} follower(s) · follows {following}"),
            a.followers,
        ).format(followers=count(a.followers), following=count(a.following)),
    ]
    if a.bio:
        lines.append(translate("ContextPanels", "Bio: {bio}").format(bio=long(a.bio, limit, cuts)))
    if a.strikes:
        lines.append(translate("ContextPanels", "Prior strikes:"))
        last = translate("ContextPanels", "last {date}")
        lines += [
            f"  {s.policy}: {s.count} ({last.format(date=f'{s.last_at:%Y-%m-%d}')})"
            for s in a.strikes
        ]
    else:
        lines.append(translate("ContextPanels", "No prior strikes."))
    if a.recent_decisions:
        lines.append(translate("ContextPanels", "Recent decisions on this author's posts:"))
        lines += [
            f"  {local_time(d.decided_at)} {code_words(d.action)} {', '.join(d.policies)}".rstrip()
            for d in a.recent_decisions
        ]
    s = a.signals
    lines.append(
        plural(
            translate(
                "ContextPanels",
                "Account signals: {posts} post(s) a day · inauthenticity score {score}",
            ),
            1 if s.posts_per_day == 1 else 0,
        ).format(posts=shortest(s.posts_per_day), score=decimal(s.inauthenticity_score, 2))
    )
    signal = translate("ContextPanels", "signal: {signal}")
    lines += ["  " + signal.format(signal=isolate(x)) for x in s.signals]
    if s.shared_signal_accounts:
        shared = ", ".join(isolate(x) for x in s.shared_signal_accounts)
        lines.append(
            "  "
            + translate("ContextPanels", "shares signals with: {accounts}").format(accounts=shared)
        )
    return "\n".join(lines)


def thread_text(item: Item, limit: int | None = FIELD_LIMIT, cuts: Cuts | None = None) -> str:
    t = item.thread
    if not t.parents and not t.replies:
        return translate("ContextPanels", "Not part of a thread.")
    lines = []
    for depth, post in enumerate(t.parents):
        lines.append(f"{'  ' * depth}↳ @{isolate(post.author_handle)} ({ago(post.created_at)}):")
        lines.append(f"{'  ' * depth}  {long(post.text, limit, cuts)}")
    lines.append(f"{'  ' * len(t.parents)}▶ " + translate("ContextPanels", "this post"))
    if t.replies:
        lines.append(translate("ContextPanels", "Replies ({n} in all):").format(n=t.reply_count))
        for post in t.replies:
            lines.append(
                f"  @{isolate(post.author_handle)} ({ago(post.created_at)}): "
                + long(post.text, limit, cuts)
            )
    return "\n".join(lines)


def reports_text(item: Item, limit: int | None = FIELD_LIMIT, cuts: Cuts | None = None) -> str:
    r = item.reports
    if not r.total and not r.notes:
        return translate("ContextPanels", "No user reports.")
    n = r.total  # a name: lupdate reads no attribute as the count
    lines = [plural(QCoreApplication.translate("ContextPanels", "%Ln report(s)"), n)]
    lines += [f"  {code_words(x.reason)}: {x.count}" for x in r.by_reason]
    if r.notes:
        lines.append(translate("ContextPanels", "What reporters wrote:"))
        lines += [f"  [{code_words(n.reason)}] {long(n.note, limit, cuts)}" for n in r.notes]
    return "\n".join(lines)


def fact_checks_text(item: Item, limit: int | None = FIELD_LIMIT, cuts: Cuts | None = None) -> str:
    if not item.fact_checks:
        return translate("ContextPanels", "No fact-checks.")
    claim = translate("ContextPanels", "Claim: {claim}")
    return "\n\n".join(
        f"{isolate(f.rating_label)} — {isolate(f.organisation)} ({f.published_at:%Y-%m-%d})\n"
        + claim.format(claim=long(f.claim, limit, cuts))
        + f"\n{isolate(f.url)}"
        for f in item.fact_checks
    )


def event_detail(
    event: Event,
    limit: int | None = FIELD_LIMIT,
    cuts: Cuts | None = None,
    escalation: ItemEscalation | None = None,
) -> str:
    """What an entry adds to its line: a decision's action and policies, an escalation's
    reason and the escalating reviewer's note (from the entry, else from ``escalation``
    when it is the same one: an entry logged before entries carried it), an assignment's
    lead."""
    data = event.data
    if event.kind is EventKind.decided and data.get("action"):
        policies = data.get("policies")
        cited = ", ".join(isolate(str(p)) for p in policies) if isinstance(policies, list) else ""
        return " — " + code_words(str(data["action"])) + (f" ({cited})" if cited else "")
    if event.kind is EventKind.escalated:
        said = ""
        if data.get("reason"):
            why = str(data.get("reason_label") or data["reason"])
            said = " — " + translate("ContextPanels", "why: {reason}").format(reason=isolate(why))
        note = data.get("note")
        earlier = escalation.decision_id if escalation is not None else None
        if not note and escalation is not None and earlier == data.get("decision_id"):
            note = escalation.note
        if note:
            said += "\n    " + translate("ContextPanels", "their note: {note}").format(
                note=long(str(note), limit, cuts)
            )
        return said
    if event.kind is EventKind.escalation_assigned:
        lead = data.get("assignee")
        if lead:
            return " — " + translate("ContextPanels", "to {lead}").format(lead=isolate(str(lead)))
        return " — " + translate("ContextPanels", "to nobody")
    return ""


def history_text(item: Item, limit: int | None = FIELD_LIMIT, cuts: Cuts | None = None) -> str:
    if not item.history and not item.statements:
        return translate("ContextPanels", "No history.")
    lines = [
        f"{local_time(e.at)} {words_for(EVENT_WORDS, e.kind.value)}"
        + (
            " " + translate("ContextPanels", "by {actor}").format(actor=isolate(e.actor))
            if e.actor
            else ""
        )
        + event_detail(e, limit, cuts, item.escalation)
        for e in item.history
    ]
    for statement in item.statements:
        heading = translate(
            "ContextPanels",
            "Statement of reasons {puid} (decision {decision}), as the author read it:",
        ).format(puid=statement.puid or "-", decision=statement.decision_id or "-")
        lines += ["", heading, clean(statement.text)]
    return "\n".join(lines)


def tab_title(key: str) -> str:
    """A tab's title in the user's language (``key`` is its English name)."""
    return {
        "Why queued": translate("ContextPanels", "Why queued"),
        "Author": translate("ContextPanels", "Author"),
        "Thread": translate("ContextPanels", "Thread"),
        "Reports": translate("ContextPanels", "Reports"),
        "Fact-checks": translate("ContextPanels", "Fact-checks"),
        "History": translate("ContextPanels", "History"),
    }.get(key, key)


def share_cap(widths: list[int], room: int) -> int:
    """The most any one of ``widths`` may keep for all to fit in ``room``: the longest are
    cut first, each no shorter than the next longest needs, and the short ones stay whole."""
    low, high = 0, max(widths, default=0)
    while low < high:
        cap = (low + high + 1) // 2
        if sum(min(w, cap) for w in widths) <= room:
            low = cap
        else:
            high = cap - 1
    return low


class FittingTabBar(QTabBar):
    """Tabs that share a bar too narrow for their titles by cutting the longest first.

    Qt cut every title alike: at 1280 px in English the six context tabs read "Why…ued",
    "A…r", "Thr…(2)", "Rep…52)", "Fact-…s (0)", "H…y". Now "Author" and "History" stay
    whole, and only as much is cut from the longest as the bar lacks (each cut title whole
    in its tooltip)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        #: the width the tabs have to share (their tab widget's; None: as wide as they ask)
        self.room: int | None = None

    def natural_width(self) -> int:
        """The bar's width with every title whole."""
        return sum(QTabBar.tabSizeHint(self, i).width() for i in range(self.count()))

    def fit(self, room: int) -> None:
        """Share ``room`` from now on (the tab widget's width changed)."""
        if room != self.room:
            self.room = room
            self.setElideMode(self.elideMode())  # the tabs are laid out again

    def tabSizeHint(self, index: int) -> QSize:
        hint = super().tabSizeHint(index)
        if self.room is None:
            return hint
        widths = [QTabBar.tabSizeHint(self, i).width() for i in range(self.count())]
        if sum(widths) <= self.room:
            return hint
        return QSize(min(hint.width(), share_cap(widths, self.room)), hint.height())


class ContextPanels(QTabWidget):
    #: the tabs' whole titles are wider than ever before (their counts came)
    titles_widened = Signal()
    TABS = (
        ("Why queued", why_text),
        ("Author", author_text),
        ("Thread", thread_text),
        ("Reports", reports_text),
        ("Fact-checks", fact_checks_text),
        ("History", history_text),
    )

    def __init__(
        self, parent: QWidget | None = None, *, client_factory: ClientFactory | None = None
    ) -> None:
        """``client_factory``: a lead's (their Author tab asks the service for the linked
        accounts and may act on them); None for a reviewer."""
        super().__init__(parent)
        self.setTabBar(FittingTabBar(self))
        named(self, "contextPanels", translate("ContextPanels", "Context"))
        # every tab on screen, never behind scroll arrows; where the panel is narrower than
        # its tabs (1280 px) the longest titles are cut (FittingTabBar), each whole in its
        # tooltip, so that the post beside it keeps the room to be read
        self.setUsesScrollButtons(False)
        self.tabBar().setElideMode(Qt.TextElideMode.ElideMiddle)
        self.tabBar().setExpanding(False)
        self.boxes: dict[str, QPlainTextEdit] = {}
        #: each tab's "Show the whole text" button (shown when a text in it was cut)
        self.more: dict[str, QPushButton] = {}
        self.linked = LinkedAccountsPanel(client_factory)
        for title, _ in self.TABS:
            box = _box(title)
            self.boxes[title] = box
            more = QPushButton(translate("ContextPanels", "Show the whole text"))
            named(more, f"context:{title}:whole", translate("ContextPanels", "Show the whole text"))
            more.hide()
            more.clicked.connect(lambda _checked=False, t=title: self.show_whole(t))
            self.more[title] = more
            page = QWidget()
            column = QVBoxLayout(page)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(box, 1)
            column.addWidget(more)
            if title == "Author":  # the author, then the accounts linked to them
                split = QSplitter(Qt.Orientation.Vertical)
                named(split, "authorPage", tab_title(title))
                split.addWidget(page)
                # scrolled: a lead's table and buttons made the whole window taller than a
                # 768 px screen allows (the tabs' pages all set the panel's least height)
                split.addWidget(scrolled(self.linked, "linkedScroll"))
                split.setChildrenCollapsible(False)
                split.setSizes([300, 200])
                page = split
            self.setTabToolTip(self.addTab(page, tab_title(title)), tab_title(title))
        self.item: Item | None = None
        #: a queue's name by its id ("Why queued"): the window's queue list, when it has one
        self.queue_name: Callable[[str], str | None] | None = None
        self._stale: set[int] = set()
        #: ``prepare``'s work: (item, tab index, its text as the box takes it, its cuts)
        self._prepared: tuple[Item, int, str, Cuts] | None = None
        self._stop_filling: Callable[[], None] = _nothing
        #: the tab whose whole text is being added to its box, batch by batch
        self.filling: str | None = None
        #: runs work once the post is painted and returns what cancels it (the review
        #: pane's ``PostText.after_paint``); None: at once
        self.later: Callable[[Callable[[], None]], Callable[[], None]] | None = None
        self._stop_titles: Callable[[], None] = _nothing
        self._widest = 0
        self.currentChanged.connect(self._render)

    def resizeEvent(self, event: QResizeEvent) -> None:
        self.fitting_bar().fit(event.size().width() - 4)  # a little for the frame's corner
        super().resizeEvent(event)

    def fitting_bar(self) -> FittingTabBar:
        bar = self.tabBar()
        assert isinstance(bar, FittingTabBar)
        return bar

    def show_item(self, item: Item | None) -> None:
        """Show ``item``'s context. Only the open tab is filled now (on every keypress);
        the others when they are opened. Their titles carry counts: set at once, or once
        the post is painted when ``later`` is set (a title that changes width lays out and
        repaints the whole panel, about as long as showing the post itself)."""
        self._stop_filling()
        self.filling = None
        self.item = item
        self._stale = set(range(len(self.TABS)))
        self._stop_titles()
        if self.later is None:
            self._title(item)
        else:
            self._stop_titles = self.later(lambda: self._title(item))
        self._render(self.currentIndex())

    def _title(self, item: Item | None) -> None:
        """Each tab's title with its count for ``item``."""
        self._stop_titles = _nothing
        if item is not self.item:
            return
        width = self.fitting_bar().natural_width()
        for index, (title, _render) in enumerate(self.TABS):
            extra = ""
            if item is not None:
                extra = {
                    "Reports": f" ({item.reports.total})",
                    "Fact-checks": f" ({len(item.fact_checks)})",
                    "Thread": f" ({len(item.thread.parents) + len(item.thread.replies)})",
                    # the status in words in the tab's tooltip (and the post's banner)
                    "Author": " ⚠" if item.author.status is not AuthorStatus.active else "",
                }.get(title, "")
            shown = tab_title(title) + extra
            if self.tabText(index) != shown:
                self.setTabText(index, shown)
                self.setTabToolTip(
                    index,
                    shown
                    + "\n"
                    + translate("ContextPanels", "Author: {status}").format(
                        status=status_words(item.author.status)
                    )
                    if extra and title == "Author" and item is not None
                    else shown,
                )
        natural = self.fitting_bar().natural_width()
        if natural != width:
            self.updateGeometry()  # its minimum width is its tabs
        if natural > self._widest:  # counts in the titles: the column may want more room
            self._widest = natural
            self.titles_widened.emit()

    def prepare(self, item: Item) -> None:
        """Render the open tab's text for ``item`` now (while the reviewer reads the post
        before it): ``show_item`` of this very item (the same parsed object) then only sets
        it. Any other item drops it."""
        index = self.currentIndex()
        render = self._renderer(index)
        cuts: Cuts = []
        self._prepared = (item, index, QtText(render(item, FIELD_LIMIT, cuts)).text, cuts)

    def text_of(self, title: str) -> str:
        """The text of one tab, filled in if it was not yet."""
        self._render(next(i for i, (t, _r) in enumerate(self.TABS) if t == title))
        return self.boxes[title].toPlainText()

    def show_whole(self, title: str) -> None:
        """The tab's texts uncut: laid out in lines of bounded length and added to the box
        a batch per turn of the event loop, so the window keeps answering."""
        if self.item is None:
            return
        self._stop_filling()
        render = self._renderer(next(i for i, (t, _r) in enumerate(self.TABS) if t == title))
        whole = QtText(render(self.item, None, None), chunked=True)
        self.more[title].hide()
        self.filling = title
        self._stop_filling = fill(self.boxes[title], whole.text, self._filled)

    def _renderer(self, index: int) -> Callable[[Item, int | None, Cuts | None], str]:
        """The tab's text for an item (the queue's name in "Why queued" from the window)."""
        title, render = self.TABS[index]
        if title == "Why queued" and self.queue_name is not None:
            name_of = self.queue_name
            return lambda item, limit, cuts: why_text(item, limit, cuts, name_of)
        return render

    def _filled(self) -> None:
        self.filling = None
        self._stop_filling = _nothing

    def _render(self, index: int) -> None:
        if index not in self._stale:
            return
        self._stale.discard(index)
        title, render = self.TABS[index][0], self._renderer(index)
        prepared, self._prepared = self._prepared, None
        if prepared is not None and prepared[0] is self.item and prepared[1] == index:
            _item, _index, text, cuts = prepared
        else:
            cuts = []
            text = render(self.item, FIELD_LIMIT, cuts) if self.item is not None else ""
            text = QtText(text).text
        self.boxes[title].setPlainText(text)
        self.more[title].setVisible(bool(cuts))
        if cuts:
            more = translate("ContextPanels", "Show the whole text (%Ln more character(s))")
            self.more[title].setText(plural(more, sum(cuts)))
        if title == "Author":
            self.linked.show_author(self.item.author if self.item is not None else None)


def _nothing() -> None:
    pass
