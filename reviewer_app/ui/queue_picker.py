"""The queue picker's rows and the empty post pane's words, in what is waiting *for you*.

An appeals queue never gives a reviewer the appeal of a decision they took part in (four
eyes), and the escalation queue never gives a lead what is assigned to another lead: the
service counts those per caller (``QueueCounts.not_for_you``). The picker shows the rest as
waiting, says how many wait for someone else, and the empty pane says why nothing came."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QCoreApplication

from reviewer_app.protocol import ESCALATION_QUEUE, Queue

from .i18n import translate
from .models import for_you
from .plain import isolate
from .words import plural


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
