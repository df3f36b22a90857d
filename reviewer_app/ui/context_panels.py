"""Everything needed to decide, beside the post: why it is here, the author, the thread,
the reports, the fact-checks and the item's history. All plain text."""

from __future__ import annotations

from PySide6.QtWidgets import QPlainTextEdit, QTabWidget, QWidget

from reviewer_app.protocol import Item

from .plain import ago, clean, count


def _box(name: str) -> QPlainTextEdit:
    box = QPlainTextEdit()
    box.setReadOnly(True)
    box.setAccessibleName(name)
    box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    box.setMaximumBlockCount(2_000)
    return box


def why_text(item: Item) -> str:
    lines = [f"Queue: {item.queue_id} (came from {item.origin_queue_id})"]
    lines += [f"• {r.kind.value.replace('_', ' ')}: {clean(r.detail)}" for r in item.reasons]
    return "\n".join(lines)


def author_text(item: Item) -> str:
    a = item.author
    lines = [
        f"{clean(a.display_name)} (@{clean(a.handle)}){' — verified' if a.verified else ''}",
        f"Account created {a.account_created_at:%Y-%m-%d} ({ago(a.account_created_at)})",
        f"{count(a.followers)} followers · follows {count(a.following)}",
    ]
    if a.bio:
        lines.append(f"Bio: {clean(a.bio)}")
    if a.strikes:
        lines.append("Prior strikes:")
        lines += [f"  {s.policy}: {s.count} (last {s.last_at:%Y-%m-%d})" for s in a.strikes]
    else:
        lines.append("No prior strikes.")
    if a.recent_decisions:
        lines.append("Recent decisions on this author's posts:")
        lines += [
            f"  {d.decided_at:%Y-%m-%d} {d.action} {', '.join(d.policies)}".rstrip()
            for d in a.recent_decisions
        ]
    s = a.signals
    lines.append(
        f"Account signals: {s.posts_per_day:g} posts a day · inauthenticity score "
        f"{s.inauthenticity_score:.2f}"
    )
    lines += [f"  signal: {clean(x)}" for x in s.signals]
    if s.shared_signal_accounts:
        shared = ", ".join(clean(x) for x in s.shared_signal_accounts)
        lines.append(f"  shares signals with: {shared}")
    return "\n".join(lines)


def thread_text(item: Item) -> str:
    t = item.thread
    if not t.parents and not t.replies:
        return "Not part of a thread."
    lines = []
    for depth, post in enumerate(t.parents):
        lines.append(f"{'  ' * depth}↳ @{clean(post.author_handle)} ({ago(post.created_at)}):")
        lines.append(f"{'  ' * depth}  {clean(post.text)}")
    lines.append(f"{'  ' * len(t.parents)}▶ this post")
    if t.replies:
        lines.append(f"Replies ({t.reply_count} in all):")
        for post in t.replies:
            lines.append(
                f"  @{clean(post.author_handle)} ({ago(post.created_at)}): {clean(post.text)}"
            )
    return "\n".join(lines)


def reports_text(item: Item) -> str:
    r = item.reports
    if not r.total and not r.notes:
        return "No user reports."
    lines = [f"{r.total} reports"]
    lines += [f"  {x.reason.replace('-', ' ')}: {x.count}" for x in r.by_reason]
    if r.notes:
        lines.append("What reporters wrote:")
        lines += [f"  [{n.reason}] {clean(n.note)}" for n in r.notes]
    return "\n".join(lines)


def fact_checks_text(item: Item) -> str:
    if not item.fact_checks:
        return "No fact-checks."
    return "\n\n".join(
        f"{f.rating_label} — {clean(f.organisation)} ({f.published_at:%Y-%m-%d})\n"
        f"Claim: {clean(f.claim)}\n{clean(f.url)}"
        for f in item.fact_checks
    )


def history_text(item: Item) -> str:
    if not item.history:
        return "No history."
    return "\n".join(
        f"{e.at:%Y-%m-%d %H:%M} {e.kind.value}" + (f" by {e.actor}" if e.actor else "")
        for e in item.history
    )


class ContextPanels(QTabWidget):
    TABS = (
        ("Why queued", why_text),
        ("Author", author_text),
        ("Thread", thread_text),
        ("Reports", reports_text),
        ("Fact-checks", fact_checks_text),
        ("History", history_text),
    )

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Context")
        self.boxes: dict[str, QPlainTextEdit] = {}
        for title, _ in self.TABS:
            box = _box(title)
            self.boxes[title] = box
            self.addTab(box, title)
        self.item: Item | None = None
        self._stale: set[int] = set()
        self.currentChanged.connect(self._render)

    def show_item(self, item: Item | None) -> None:
        """Show ``item``'s context. Only the open tab is filled now (on every keypress);
        the others when they are opened. Their titles carry counts at once."""
        self.item = item
        self._stale = set(range(len(self.TABS)))
        for index, (title, _render) in enumerate(self.TABS):
            extra = ""
            if item is not None:
                extra = {
                    "Reports": f" ({item.reports.total})",
                    "Fact-checks": f" ({len(item.fact_checks)})",
                    "Thread": f" ({len(item.thread.parents) + len(item.thread.replies)})",
                }.get(title, "")
            if self.tabText(index) != title + extra:
                self.setTabText(index, title + extra)
        self._render(self.currentIndex())

    def text_of(self, title: str) -> str:
        """The text of one tab, filled in if it was not yet."""
        self._render(next(i for i, (t, _r) in enumerate(self.TABS) if t == title))
        return self.boxes[title].toPlainText()

    def _render(self, index: int) -> None:
        if index not in self._stale:
            return
        self._stale.discard(index)
        title, render = self.TABS[index]
        self.boxes[title].setPlainText(render(self.item) if self.item is not None else "")
