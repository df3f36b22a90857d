"""The queue picker's rows and the empty post pane's words, in what is waiting *for you*.

An appeals queue never gives a reviewer the appeal of a decision they took part in (four
eyes), and the escalation queue never gives a lead what is assigned to another lead: the
service counts those per caller (``QueueCounts.not_for_you``). The picker shows the rest as
waiting, says how many wait for someone else, and the empty pane says why nothing came."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt

from reviewer_app.protocol import ESCALATION_QUEUE, Queue, QueueCounts

from .i18n import translate
from .models import DISPLAY, Index, QueueListModel
from .plain import isolate
from .words import decimal, plural


def for_you(counts: QueueCounts) -> int:
    """The pending items the reviewer's claim may take."""
    return max(0, counts.pending - counts.not_for_you)


def _oldest(counts: QueueCounts) -> str:
    age = counts.oldest_pending_age_seconds
    if age is None:
        return ""
    if age >= 3600:
        return translate("Models", ", oldest {n} h").format(n=decimal(age / 3600))
    return translate("Models", ", oldest {n} min").format(n=age // 60)


def picker_row(queue: Queue) -> str:
    """A queue's row: name, what waits for the reviewer, for someone else (when any), being
    reviewed, decided today, the oldest's age."""
    c = queue.counts
    if c.not_for_you:
        counts = translate(
            "QueuePicker",
            "{pending} waiting, {others} waiting for someone else, {leased} being reviewed, "
            "{decided} decided today",
        ).format(pending=for_you(c), others=c.not_for_you, leased=c.leased, decided=c.decided_today)
    else:
        counts = translate(
            "Models", "{pending} waiting, {leased} being reviewed, {decided} decided today"
        ).format(pending=c.pending, leased=c.leased, decided=c.decided_today)
    return f"{isolate(queue.name)} — {counts}{_oldest(c)}"


class QueuePickerModel(QueueListModel):
    """The queue list with each row in what waits for the reviewer."""

    def data(self, index: Index, role: int = DISPLAY) -> Any:
        shown = role in (DISPLAY, Qt.ItemDataRole.AccessibleTextRole)
        if shown and index.isValid() and 0 <= index.row() < len(self.queues):
            return picker_row(self.queues[index.row()])
        return super().data(index, role)


def someone_else(queue: Queue) -> str:
    """Why the posts of ``queue`` that wait for someone else are not the reviewer's ("" when
    there are none)."""
    n = queue.counts.not_for_you
    if not n:
        return ""
    if queue.config.appeals:
        said = QCoreApplication.translate(
            "QueuePicker",
            "Waiting in {queue} for someone else: %Ln post(s). An appeal never goes to whoever "
            "decided or escalated the post before.",
        )
    elif queue.id == ESCALATION_QUEUE:
        said = QCoreApplication.translate(
            "QueuePicker",
            "Waiting in {queue} for someone else: %Ln post(s), assigned to another lead.",
        )
    else:
        said = QCoreApplication.translate(
            "QueuePicker", "Waiting in {queue} for someone else: %Ln post(s)."
        )
    return plural(said, n).format(queue=isolate(queue.name))


def nothing_here(queue: Queue, queues: Sequence[Queue]) -> str:
    """What the post pane says when ``queue`` has nothing more for the reviewer: why, when
    what waits there is someone else's, and the queues with posts for them, with the keys
    that switch to them (Alt+1 … Alt+9)."""
    said = translate("MainWindow", "Nothing in {queue} is waiting for you.").format(
        queue=isolate(queue.name)
    )
    current = next((q for q in queues if q.id == queue.id), queue)  # the newest counts
    why = someone_else(current)
    if why:
        said += " " + why
    others = [
        (row, q) for row, q in enumerate(queues) if q.id != queue.id and for_you(q.counts) > 0
    ]
    if not others:
        return (
            said
            + " "
            + translate(
                "MainWindow",
                "No other queue has posts waiting either; new posts appear here as they arrive.",
            )
        )
    lines = [said, translate("MainWindow", "Queues with posts waiting:")]
    for row, q in others:
        entry = translate("MainWindow", "{queue}: {n} waiting").format(
            queue=isolate(q.name), n=for_you(q.counts)
        )
        if row < 9:
            entry = translate("MainWindow", "Alt+{key}").format(key=row + 1) + "  " + entry
        lines.append(entry)
    return "\n".join(lines)
