"""Sending a lead's bulk decision: ``BulkSender`` holds it in the local store for the undo
window, then sends it off the GUI thread.

It lives as long as the window: a bulk held when the dialog closes is still sent when its
window passes, and one still held when the app was closed or killed is sent at the next
start (``resume``). A network failure keeps it held and tries again later; the same keys
make a second send safe. A due time further ahead than its wait can be (its undo window, or
a retry's) was set before this computer's clock was set back: it is re-based
(``HeldBulkStore.rebase_bulk``), not waited out for the hours the clock went back.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QAbstractButton, QMessageBox, QWidget

from reviewer_app.core.api import ApiClient
from reviewer_app.core.bulk import Candidate, Refusal, answered, refusal
from reviewer_app.core.store import HeldBulk, NothingToUndo, Store
from reviewer_app.core.store.records import CLOCK_SLACK
from reviewer_app.protocol.bulk_decisions import BulkDecisionRequest, BulkDecisionResults

from ..background import run_op
from ..i18n import translate
from ..messages import describe
from ..plain import isolate
from ..words import plural

log = logging.getLogger("ui")

ClientFactory = Callable[[], ApiClient]
#: seconds before a bulk that could not be sent (network, busy service) is tried again
RETRY_SECONDS = 30.0
TICK_MS = 200


class BulkSender(QObject):
    """Holds a lead's bulk decisions for the undo window, then sends each (off the GUI
    thread) and says what the service answered."""

    held = Signal(str, float)  # bulk id, seconds left
    ticked = Signal(str, float)  # bulk id, seconds left
    undone = Signal(str)
    sending = Signal(str)
    recorded = Signal(str, object)  # bulk id, BulkDecisionResults
    refused = Signal(str, object)  # bulk id, Refusal (nothing of it was recorded)
    failed = Signal(str, str)  # bulk id, why it was not sent yet (it stays held)
    #: bulk id, its posts, why: its first failure in a row (said once, not every retry)
    stuck = Signal(str, int, str)

    def __init__(
        self,
        store: Store,
        client_factory: ClientFactory,
        parent: QObject | None = None,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.client_factory = client_factory
        self.clock = clock
        self._due: dict[str, float] = {}  # held bulks: id -> when they are sent
        #: held bulks: id -> the furthest ahead its due time can be (its window, a retry's)
        self._longest: dict[str, float] = {}
        self._sending: set[str] = set()
        self._stuck: set[str] = set()  # bulks whose last attempt failed (said once)
        self.timer = QTimer(self)
        self.timer.setInterval(TICK_MS)
        self.timer.timeout.connect(self._on_timer_timeout)

    def resume(self) -> int:
        """Bulks held before this start (the app was closed or killed in their window):
        each sent once its undo window has passed (at once when it already has), as a
        verdict left in its window is. Returns how many there were."""
        found = self.store.held_bulks()
        for bulk in found:
            self._keep(bulk)
        if found:
            log.info("%d bulk decision(s) held from before this start are sent", len(found))
            self._on_timer_timeout()
            self.timer.start()
        return len(found)

    def hold(self, request: BulkDecisionRequest) -> HeldBulk:
        held = self.store.hold_bulk(request)
        self._keep(held)
        self.held.emit(held.id, max(0.0, held.due_at - self.clock()))
        self.timer.start()
        self._on_timer_timeout()
        return held

    def undo(self, bulk_id: str) -> bool:
        """Take the bulk back (False: its window has passed, it is being sent)."""
        try:
            self.store.undo_bulk(bulk_id)
        except NothingToUndo:
            return False
        self._forget(bulk_id)
        self.undone.emit(bulk_id)
        return True

    def _keep(self, bulk: HeldBulk) -> None:
        self._due[bulk.id] = bulk.due_at
        self._longest[bulk.id] = max(bulk.due_at - bulk.held_at, RETRY_SECONDS) + CLOCK_SLACK

    def _forget(self, bulk_id: str) -> None:
        self._due.pop(bulk_id, None)
        self._longest.pop(bulk_id, None)

    @property
    def waiting(self) -> int:
        return len(self._due)

    def _on_timer_timeout(self) -> None:
        now = self.clock()
        for bulk_id, due in list(self._due.items()):
            if bulk_id in self._sending:
                continue
            if due - now > self._longest.get(bulk_id, RETRY_SECONDS + CLOCK_SLACK):
                rebased = self.store.rebase_bulk(bulk_id)  # the clock was set back
                if rebased is None:  # undone (another window), or answered
                    self._forget(bulk_id)
                    continue
                due = self._due[bulk_id] = rebased
            if due > now:
                self.ticked.emit(bulk_id, due - now)
            else:
                self._send(bulk_id)
        if not self._due:
            self.timer.stop()

    def _send(self, bulk_id: str) -> None:
        taken = self.store.take_bulk(bulk_id)
        if taken is None:  # undone, or answered already
            self._forget(bulk_id)
            return
        self._sending.add(bulk_id)
        self.sending.emit(bulk_id)
        factory = self.client_factory
        request = taken.request

        def send() -> BulkDecisionResults:
            with factory() as api:
                return api.bulk_decide(request)

        def done(results: BulkDecisionResults) -> None:
            self._settle(bulk_id)
            self.recorded.emit(bulk_id, results)

        def failed(err: BaseException) -> None:
            self._sending.discard(bulk_id)
            if answered(err):
                self._settle(bulk_id)
                said = refusal(err)
                assert said is not None
                # what was refused goes with it: the store forgets it, the lead may redo it
                self.refused.emit(bulk_id, dataclasses.replace(said, request=request))
                return
            self._due[bulk_id] = self.clock() + RETRY_SECONDS
            self.timer.start()
            why = describe(err, during=translate("Bulk", "sending the bulk decision")).line()
            if bulk_id not in self._stuck:
                self._stuck.add(bulk_id)
                self.stuck.emit(bulk_id, len(request.items), why)
            self.failed.emit(bulk_id, why)

        run_op(self, send, done, failed)

    @property
    def stuck_count(self) -> int:
        """Bulks whose last attempt to be sent failed (each said once by ``stuck``)."""
        return len(self._stuck)

    def _settle(self, bulk_id: str) -> None:
        self._sending.discard(bulk_id)
        self._stuck.discard(bulk_id)
        self._forget(bulk_id)
        self.store.settle_bulk(bulk_id)


def refusal_words(said: Refusal) -> str:
    """Why nothing of a refused bulk decision was decided: how many posts were decided or
    taken by someone else meanwhile, and the service's own words when it refused the
    request itself (a note now required, an action or policy no longer there, ...)."""
    words = [translate("Bulk", "Nothing was decided.")]
    taken, other = len(said.taken), said.not_fitting
    if taken:
        words.append(
            plural(
                QCoreApplication.translate(
                    "Bulk", "Decided or taken by someone else meanwhile: %Ln post(s)."
                ),
                taken,
            )
        )
    if other or not said.items:
        reasons = list(dict.fromkeys(i.message or i.code for i in other))[:3]
        why = " ".join(r.strip() for r in (said.detail, *reasons) if r.strip())
        words.append(
            translate("Bulk", "The service refused the request itself: {why}").format(
                why=isolate(why)
            )
        )
    return " ".join(words)


def load_author_posts(
    parent: QObject,
    client_factory: ClientFactory,
    author_id: str,
    *,
    linked: bool,
    on_loaded: Callable[[list[Candidate], int], None],
    on_failed: Callable[[BaseException], None],
) -> None:
    """The author's open posts in every queue (and their linked accounts' with ``linked``),
    fetched off the GUI thread: ``on_loaded(candidates, left_out)``."""

    def fetch() -> tuple[list[Candidate], int]:
        with client_factory() as api:
            found = api.open_items(author_id, linked=linked)
        return (
            [Candidate(i.item_id, i.queue_id, i.excerpt, i.handle) for i in found.items],
            found.more,
        )

    run_op(parent, fetch, lambda got: on_loaded(*got), on_failed)


def refused_box(parent: QWidget, said: Refusal, on_redo: Callable[[], None]) -> QMessageBox:
    """A refused bulk said where no dialog shows it (sent after a restart, or after its
    dialog closed): why, how many posts and which (the details), and **Open them again**
    (``on_redo``: the Decide together dialog on them). Opened, never ``exec``."""
    request = said.request
    n = len(request.items) if request is not None else len(said.items)
    box = QMessageBox(parent)
    box.setObjectName("bulkRefused")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(translate("Bulk", "Bulk decision refused"))
    box.setTextFormat(Qt.TextFormat.PlainText)
    words = QCoreApplication.translate("Bulk", "A bulk decision on %Ln post(s) was refused.")
    box.setText(plural(words, n) + " " + refusal_words(said))
    why = {r.item_id: r.message or r.code for r in said.items}
    posts = [(i.item_id, i.queue_id or "") for i in request.items] if request else []
    posts = posts or [(i, "") for i in why]
    box.setDetailedText(
        "\n".join(
            " ".join(p for p in (item, f"({queue})" if queue else "", why.get(item, "")) if p)
            for item, queue in posts
        )
    )
    redo = None
    if request is not None:
        box.setInformativeText(
            translate(
                "Bulk",
                "Open them again to decide together with the same action, policies and "
                "note: the posts taken meanwhile are unchecked, the rest can be decided.",
            )
        )
        redo = box.addButton(
            translate("Bulk", "Open them again…"), QMessageBox.ButtonRole.AcceptRole
        )
    box.addButton(translate("Bulk", "Close"), QMessageBox.ButtonRole.RejectRole)

    def clicked(button: QAbstractButton) -> None:
        if redo is not None and button is redo:
            on_redo()

    box.buttonClicked.connect(clicked)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    box.open()
    return box
