"""The sync engine's events as Qt signals, delivered on the GUI thread.

The engine calls ``SyncBridge.__call__`` on its own thread; each event becomes one signal
emission, which Qt queues to the bridge's (GUI) thread. Widgets connect to the signals and
never touch the engine's thread.

Failures travel as codes (``FailureKind``), which the window words in the user's language
(``reviewer_app.ui.messages``); the core's English messages are for the log.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from reviewer_app.core import events as ev
from reviewer_app.core.errors import FailureKind


class SyncBridge(QObject):
    online_changed = Signal(bool, str, float)  # online, FailureKind ("" online), retry in (s)
    pending_changed = Signal(int, int, int)  # pending, in flight, held by another reviewer
    synced = Signal(float)  # client time of the last good pass
    verdicts_settled = Signal(object)  # tuple[JournalEntry, ...]
    conflicts_changed = Signal(int)
    worklist_changed = Signal(object)  # dict queue id -> ready count
    queues_drained = Signal(object)  # tuple of queue ids with nothing for this reviewer
    leases_lost = Signal(object)  # tuple of item ids
    items_withdrawn = Signal(object)  # tuple of item ids the platform withdrew
    items_resolved = Signal(object)  # tuple of (item id, author status): account actions
    leases_expiring = Signal(object)  # tuple of (item id, expires at)
    media_saved = Signal(object)  # tuple of media ids now in the store
    queues_changed = Signal(object)  # tuple[Queue, ...]
    # task, done, total, finished, FailureKind that stopped it ("" when none)
    progress_changed = Signal(str, int, int, bool, str)
    # the core's message (English, for logs); the server is back for a session with no login
    auth_required = Signal(str, bool)
    problem_reported = Signal(object)  # the ev.Problem

    def __call__(self, event: ev.SyncEvent) -> None:
        """Called on the engine's thread: emits the matching signal (queued to the GUI)."""
        match event:
            case ev.OnlineChanged(online, _reason, retry_in, kind):
                code = "" if online else str(kind or FailureKind.unexpected)
                self.online_changed.emit(online, code, -1.0 if retry_in is None else retry_in)
            case ev.PendingChanged(pending, in_flight, held):
                self.pending_changed.emit(pending, in_flight, held)
            case ev.Synced(at):
                self.synced.emit(at)
            case ev.VerdictsSettled(entries):
                self.verdicts_settled.emit(entries)
            case ev.ConflictsChanged(open_count):
                self.conflicts_changed.emit(open_count)
            case ev.WorklistChanged(ready):
                self.worklist_changed.emit(dict(ready))
            case ev.QueuesDrained(queue_ids):
                self.queues_drained.emit(queue_ids)
            case ev.LeasesLost(item_ids):
                self.leases_lost.emit(item_ids)
            case ev.ItemsWithdrawn(item_ids):
                self.items_withdrawn.emit(item_ids)
            case ev.ItemsResolved(author_status):
                self.items_resolved.emit(author_status)
            case ev.LeasesExpiring(items):
                self.leases_expiring.emit(items)
            case ev.MediaSaved(media_ids):
                self.media_saved.emit(media_ids)
            case ev.QueuesChanged(queues):
                self.queues_changed.emit(queues)
            case ev.Progress(task, done, total, finished, _error, kind):
                self.progress_changed.emit(task, done, total, finished, str(kind or ""))
            case ev.AuthRequired(message, server_back):
                self.auth_required.emit(message, server_back)
            case ev.Problem():
                self.problem_reported.emit(event)
