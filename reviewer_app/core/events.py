"""What the sync engine tells its listener. Plain frozen dataclasses; the UI turns each kind
into a Qt signal (queued to the GUI thread). Listeners are called on the engine's thread and
must return quickly."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reviewer_app.protocol import Queue

from .errors import FailureKind
from .store import JournalEntry


@dataclass(frozen=True)
class OnlineChanged:
    online: bool
    #: why we are offline, in words (None when online; English, for logs)
    reason: str | None = None
    #: seconds until the next attempt, while offline
    retry_in: float | None = None
    #: why we are offline, as a code the UI words (None when online)
    kind: FailureKind | None = None


@dataclass(frozen=True)
class PendingChanged:
    #: verdicts not yet delivered (including those still in their undo window)
    pending: int
    in_flight: int
    #: of them, refused for now because another reviewer holds their item (sent again)
    held: int = 0


@dataclass(frozen=True)
class Synced:
    """A pass that reached the server ended well; ``at`` is the client's clock."""

    at: float


@dataclass(frozen=True)
class VerdictsSettled:
    """The server answered for these verdicts (accepted, duplicate, conflict, rejected)."""

    entries: tuple[JournalEntry, ...]


@dataclass(frozen=True)
class ConflictsChanged:
    open: int


@dataclass(frozen=True)
class WorklistChanged:
    #: items ready to review per queue
    ready: dict[str, int]


@dataclass(frozen=True)
class QueuesDrained:
    """Queues being worked that have nothing for this reviewer: the last claim there gave
    no item and none is held here (empty, or what is left is not for them)."""

    queue_ids: tuple[str, ...]


@dataclass(frozen=True)
class LeasesLost:
    """These items were taken from us (expired and leased to someone else, or decided)."""

    item_ids: tuple[str, ...]


@dataclass(frozen=True)
class ItemsWithdrawn:
    """The platform withdrew these posts (deleted or made private upstream): the items left
    the worklist without a verdict; a verdict already made for one is still sent, and the
    service answers it ``rejected`` with reason ``withdrawn``."""

    item_ids: tuple[str, ...]


@dataclass(frozen=True)
class ItemsResolved:
    """An account action closed these items: their author was suspended or marked
    inauthentic (``author_status``: item id -> the status it gave them). They left the
    worklist without a verdict; a verdict already made for one is still sent, and the
    service answers it ``rejected`` with reason ``author_actioned``."""

    author_status: tuple[tuple[str, str], ...]

    @property
    def item_ids(self) -> tuple[str, ...]:
        return tuple(item_id for item_id, _ in self.author_status)


@dataclass(frozen=True)
class LeasesExpiring:
    """Ready items whose lease ends soon and cannot be renewed now (offline)."""

    items: tuple[tuple[str, float], ...]


@dataclass(frozen=True)
class MediaSaved:
    """Media of items held here is now in the store: a post on screen whose tiles said
    "not downloaded yet" shows it (the worklist is reported as soon as a claim is stored,
    before its media is fetched)."""

    media_ids: tuple[str, ...]


@dataclass(frozen=True)
class QueuesChanged:
    queues: tuple[Queue, ...]


@dataclass(frozen=True)
class Progress:
    """Long work (``task`` = "offline"): ``done`` of ``total``; ``finished`` at the end,
    with ``error`` set (English, for logs) when it stopped early, and ``kind`` when it was
    stopped by a failure (not when the queue simply had fewer items)."""

    task: str
    done: int
    total: int
    finished: bool = False
    error: str | None = None
    kind: FailureKind | None = None


@dataclass(frozen=True)
class AuthRequired:
    """The server refused our token, or (``server_back``) the server can be reached again
    by a session that started with no network and no saved login: syncing is paused,
    nothing is dropped, until ``SyncEngine.set_token`` is called after a new login.
    ``message`` is English, for logs."""

    message: str
    server_back: bool = False


@dataclass(frozen=True)
class Problem:
    """Something the reviewer should know that is not a network state (a store error, an
    item the server sent in a form refused here). ``message`` is English, for logs; ``kind``
    (with ``item_id`` and ``queue_id`` for a refused item) is what the UI words."""

    message: str
    kind: FailureKind = FailureKind.unexpected
    item_id: str | None = None
    queue_id: str | None = None


SyncEvent = (
    OnlineChanged
    | PendingChanged
    | Synced
    | VerdictsSettled
    | ConflictsChanged
    | WorklistChanged
    | QueuesDrained
    | LeasesLost
    | ItemsWithdrawn
    | ItemsResolved
    | LeasesExpiring
    | MediaSaved
    | QueuesChanged
    | Progress
    | AuthRequired
    | Problem
)
Listener = Callable[[SyncEvent], None]
