"""The review flow as a small state machine, so a held or doubled key never decides twice.

States: ``empty`` (nothing to review), ``reviewing`` (an item is shown and keys decide it),
``input`` (the chosen action needs a policy, a rating or a note, asked for inline). The
verdict bar pushes what it holds for the chosen action (a ``Selection``); a verdict goes to
a ``VerdictSink`` and the next item is shown; verdict keys are then ignored for
``guard_seconds``, so a key pressed twice in a row cannot decide the next post unseen.
Auto-repeat is filtered out before keys get here.

One controller serves both desks; where the verdict goes is the one difference: the
reviewer's window saves it in the local store and its outbox (``StoreSink``), the blind
audit desk sends the judgement to the server (``lead.audits.AuditSink``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from reviewer_app.core.errors import StoreError
from reviewer_app.core.store import AlreadyDecided, JournalEntry, NothingToUndo, Store, StoredItem
from reviewer_app.protocol import ActionConfig, ActionKind, Queue

from .i18n import translate
from .messages import describe

log = logging.getLogger("ui")

NEEDS = ("policy", "rating", "note")


def need_word(need: str) -> str:
    """What a verdict still needs, in words ("a policy code")."""
    return {
        "policy": translate("Review", "a policy code"),
        "rating": translate("Review", "a fact-check rating"),
        "note": translate("Review", "a note"),
    }[need]


def need_how(need: str) -> str:
    """How to give what a verdict still needs."""
    return {
        "policy": translate("Review", "press P, move with the arrows and tick with Space"),
        "rating": translate("Review", "press R and pick one with the arrows"),
        "note": translate("Review", "press N and write it"),
    }[need]


def needs_prompt(
    name: str, needs: list[str], *, cancel: bool = True, reasons: list[str] | None = None
) -> str:
    """The prompt for an action that needs more before it is recorded; ``reasons`` (plain
    sentences) say why, when it is more than the action's own needs."""
    words = translate("Review", " and ").join(need_word(n) for n in needs)
    how = "; ".join(need_how(n) for n in needs)
    text = (
        translate("Review", "{action} needs {words}: {how}. Then Ctrl+Enter. Esc cancels.")
        if cancel
        else translate("Review", "{action} needs {words}: {how}. Then Ctrl+Enter.")
    )
    return " ".join([*(reasons or []), text.format(action=name, words=words, how=how)])


@dataclass(frozen=True)
class Selection:
    """The draft verdict the verdict bar holds for one action (``action``, an id), pushed to
    the controller when the action is chosen: the verdict's parts, what it still needs
    (``NEEDS``), and why the action cannot be used on this item at all (``refusal``)."""

    action: str
    needs: list[str]
    policies: list[str]
    rating: str | None
    note: str
    refusal: str | None = None
    reasons: list[str] = field(default_factory=list)


class NotRecorded(Exception):
    """A sink did not take the verdict (or could not skip, undo, find an item): ``message``
    says why to the reviewer; ``move_on``: the item needs no verdict any more."""

    def __init__(self, message: str = "", *, move_on: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.move_on = move_on


class VerdictSink(Protocol):
    """Where the items come from and the verdicts go. Each call raises ``NotRecorded``
    with a sentence for the reviewer when it cannot do what is asked."""

    #: why this desk cannot escalate (None: it can)
    escalation_refusal: str | None

    def next_item(
        self, queue_id: str, *, include_expired: bool, first: str | None
    ) -> StoredItem | None:
        """The next item to show in ``queue_id`` (``first`` before the others if here)."""
        ...

    def stored_item(self, item_id: str) -> StoredItem | None:
        """One item by id (a post chosen in the worklist)."""
        ...

    def record(
        self,
        shown: StoredItem,
        action: ActionConfig,
        chosen: Selection,
        *,
        note: str | None,
        time_spent_ms: int,
        escalation_reason: str | None,
    ) -> object:
        """Take the verdict; returns what ``verdict_recorded`` carries."""
        ...

    def skip(self, item_id: str) -> None: ...

    def undo(self) -> JournalEntry: ...


class StoreSink:
    """The reviewer's window: verdicts are saved in the local store with their outbox row
    (one transaction), then ``nudge`` wakes the sync engine."""

    escalation_refusal: str | None = None

    def __init__(self, store: Store, nudge: Callable[[], None]) -> None:
        self.store = store
        self.nudge = nudge

    def next_item(
        self, queue_id: str, *, include_expired: bool, first: str | None
    ) -> StoredItem | None:
        try:
            return self.store.next_item(queue_id, include_expired=include_expired, first=first)
        except StoreError as err:
            raise NotRecorded(describe(err).line()) from err

    def stored_item(self, item_id: str) -> StoredItem | None:
        try:
            return self.store.stored_item(item_id)
        except StoreError as err:
            raise NotRecorded(describe(err).line()) from err

    def record(
        self,
        shown: StoredItem,
        action: ActionConfig,
        chosen: Selection,
        *,
        note: str | None,
        time_spent_ms: int,
        escalation_reason: str | None,
    ) -> JournalEntry:
        try:
            entry = self.store.record_verdict(
                shown.item.id,
                action=action.id,
                policies=chosen.policies,
                rating=chosen.rating,
                note=note or None,
                author_action=action.author_action.value if action.author_action else None,
                time_spent_ms=time_spent_ms,
                escalation_reason=escalation_reason,
            )
        except AlreadyDecided as err:
            raise NotRecorded(move_on=True) from err
        except StoreError as err:
            raise NotRecorded(
                translate("Review", "The verdict could not be saved.") + " " + describe(err).line()
            ) from err
        except ValueError as err:  # the verdict breaks the wire contract (a note too long)
            log.warning("a verdict on %s was refused here: %s", shown.item.id, err)
            raise NotRecorded(
                translate(
                    "Review",
                    "The verdict could not be saved: it breaks the rules for verdicts (a note "
                    "may be too long, or hold characters that are not allowed).",
                )
            ) from err
        self.nudge()
        return entry

    def next_after(
        self, queue_id: str, item_id: str, *, include_expired: bool
    ) -> StoredItem | None:
        """The item to show once ``item_id`` is decided (to prepare while it is shown)."""
        try:
            return self.store.next_after(queue_id, item_id, include_expired=include_expired)
        except StoreError as err:
            raise NotRecorded(describe(err).line()) from err

    def skip(self, item_id: str) -> None:
        try:
            self.store.skip(item_id)
        except (AlreadyDecided, StoreError) as err:
            raise NotRecorded(describe(err).line()) from err
        self.nudge()

    def undo(self) -> JournalEntry:
        try:
            return self.store.undo()
        except (NothingToUndo, StoreError) as err:
            raise NotRecorded(describe(err).line()) from err


class ReviewController(QObject):
    item_changed = Signal(object)  # StoredItem | None
    input_needed = Signal(str, list)  # action id, needs ("policy", "rating", "note")
    verdict_recorded = Signal(object)  # what the sink recorded (a JournalEntry in the store)
    verdict_undone = Signal(object)  # JournalEntry
    item_skipped = Signal(str)
    message_posted = Signal(str)  # a plain sentence for the reviewer
    state_changed = Signal(str)
    #: E (or the escalate button): the window asks for a reason (ActionConfig, reasons)
    escalation_requested = Signal(object, list)

    def __init__(
        self,
        sink: VerdictSink,
        *,
        guard_seconds: float = 0.25,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        #: where the items come from and the verdicts go
        self.sink = sink
        self.guard_seconds = guard_seconds
        self.clock = clock
        self.queue: Queue | None = None
        self.current: StoredItem | None = None
        self.state = "empty"
        self.pending_action: ActionConfig | None = None
        self.online = True
        self._shown_at = 0.0
        self._guard_until = 0.0
        #: an item to show before the others once it is here (a lead's picked escalation)
        self.preferred: str | None = None

    # --- what is shown ---------------------------------------------------------------------

    def set_queue(self, queue: Queue | None) -> None:
        self.queue = queue
        self.show_next()

    def update_queue(self, queue: Queue) -> None:
        """The queue on screen, configured anew on the server: the post on screen stays; an
        action waiting for input stays if the queue still has it as it was, else it is
        dropped, as what it waited for may be gone (the verdict bar keeps the draft)."""
        self.queue = queue
        pending = self.pending_action
        if pending is not None and queue.config.action(pending.id) == pending:
            return
        self.cancel()

    def show_next(self) -> None:
        """The next item (at once: the sink has it already); the preferred one first when
        it is here."""
        item = None
        if self.queue is not None:
            try:
                item = self.sink.next_item(
                    self.queue.id, include_expired=not self.online, first=self.preferred
                )
            except NotRecorded as err:
                self.message_posted.emit(err.message)
        if item is not None and item.item.id == self.preferred:
            self.preferred = None
        self._show(item)

    def peek_next(self) -> StoredItem | None:
        """The item likely shown after the one on screen is decided, for the pane to
        prepare while the reviewer reads (None: not known; a sink without ``next_after``,
        a preferred item waiting). Only a guess: the keypress asks the sink afresh, and the
        pane uses what it prepared only for that very item."""
        peek = getattr(self.sink, "next_after", None)
        if peek is None or self.queue is None or self.current is None or self.preferred:
            return None
        try:
            found = peek(self.queue.id, self.current.item.id, include_expired=not self.online)
        except NotRecorded:
            return None
        return found if isinstance(found, StoredItem) else None

    def prefer(self, item_id: str | None) -> None:
        """Show this item before the others once it is in the store."""
        self.preferred = item_id

    def show_preferred(self) -> None:
        """Show the preferred item now if it is here and no verdict is being made."""
        if self.preferred is None or self.state == "input":
            return
        current = self.current.item.id if self.current is not None else None
        if current != self.preferred:
            self.show_next()

    def refresh_if_empty(self) -> None:
        """New items arrived: show one if nothing is on screen (or the preferred one, if it
        arrived and the post on screen is not being decided)."""
        if self.state == "empty":
            self.show_next()
        elif self.preferred is not None and self.state == "reviewing":
            self.show_preferred()

    def drop_if_current(self, item_ids: tuple[str, ...]) -> None:
        """Leases were lost: if the item on screen is one, move on."""
        if self.current is not None and self.current.item.id in item_ids and self.state != "empty":
            self.message_posted.emit(
                translate(
                    "Review",
                    "The post you were looking at was taken back by the server (its lease "
                    "ended and someone else has it now). Here is the next one.",
                )
            )
            self.show_next()

    def drop_withdrawn(self, item_ids: tuple[str, ...]) -> bool:
        """The platform withdrew these posts: if the one on screen is one, say so and move
        on. Returns True when it was on screen."""
        if self.current is None or self.current.item.id not in item_ids or self.state == "empty":
            return False
        self.message_posted.emit(
            translate(
                "Review",
                "Withdrawn by the platform: the post you were looking at was deleted or made "
                "private upstream, so it needs no verdict. Here is the next one.",
            )
        )
        self.show_next()
        return True

    def drop_resolved(self, item_ids: tuple[str, ...], why: str) -> bool:
        """An account action closed these items (``why``: 'the author was suspended'): if
        the one on screen is one, say so and move on. Returns True when it was on screen."""
        if self.current is None or self.current.item.id not in item_ids or self.state == "empty":
            return False
        self.message_posted.emit(
            translate(
                "Review",
                "Resolved: {why}. The post you were looking at was closed by that account "
                "action, so it needs no verdict. Here is the next one.",
            ).format(why=why)
        )
        self.show_next()
        return True

    def _show(self, item: StoredItem | None) -> None:
        self.current = item
        self.pending_action = None
        self._shown_at = self.clock()
        self._set_state("reviewing" if item is not None else "empty")
        self.item_changed.emit(item)

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.state_changed.emit(state)

    # --- what the reviewer does --------------------------------------------------------------

    def decide(self, chosen: Selection) -> bool:
        """A verdict key or button: the verdict bar's draft for the chosen action. Returns
        True when a verdict was recorded."""
        if self.state not in ("reviewing", "input") or self.queue is None:
            return False
        if self.clock() < self._guard_until:
            return False  # a doubled key: the new post has not been seen yet
        action = self.queue.config.action(chosen.action)
        if action is None:
            return False
        if action.kind is ActionKind.escalate:  # a reason first (escalate_with records it)
            if self.sink.escalation_refusal:
                self.message_posted.emit(self.sink.escalation_refusal)
            else:
                self.escalation_requested.emit(action, self.queue.config.reasons_for_escalation())
            return False
        if chosen.refusal:  # not for this item (a label with no fact-check): say why
            self.message_posted.emit(chosen.refusal)
            return False
        if chosen.needs:
            self.pending_action = action
            self._set_state("input")
            self.input_needed.emit(action.id, chosen.needs)
            return False
        return self._record(action, chosen)

    def open(self, item_id: str) -> bool:
        """Show a post chosen in the worklist instead of the next one in order (a post of
        this queue still waiting for a verdict). Returns True when it is shown."""
        if self.queue is None or (self.current is not None and self.current.item.id == item_id):
            return False
        try:
            stored = self.sink.stored_item(item_id)
        except NotRecorded as err:
            self.message_posted.emit(err.message)
            return False
        if stored is None or stored.queue_id != self.queue.id:
            return False
        if stored.state != "ready" or stored.lease_lost:
            self.message_posted.emit(
                translate(
                    "Review",
                    "Post {item} needs no verdict from you now (decided, skipped or taken "
                    "back); the post on screen stays.",
                ).format(item=item_id)
            )
            return False
        self._show(stored)
        return True

    def escalation_action(self) -> ActionConfig | None:
        """The queue's escalation action (E), if it has one; says so when it has none."""
        if self.queue is None:
            return None
        for action in self.queue.config.actions:
            if action.kind is ActionKind.escalate:
                return action
        self.message_posted.emit(translate("Review", "This queue has no escalation action."))
        return None

    def escalate_with(self, chosen: Selection, reason: str) -> bool:
        """Record the escalation with the reason the reviewer gave and the bar's draft (its
        note the picker's, which ``escalation_requested`` opened). Returns True when it was
        recorded."""
        if self.state not in ("reviewing", "input") or self.queue is None or self.current is None:
            return False
        action = self.queue.config.action(chosen.action)
        if action is None or action.kind is not ActionKind.escalate:
            return False
        return self._record(action, chosen, escalation_reason=reason)

    def cancel(self) -> None:
        if self.state == "input":
            self.pending_action = None
            self._set_state("reviewing")
            self.input_needed.emit("", [])

    def skip(self) -> None:
        if self.state not in ("reviewing", "input") or self.current is None:
            return
        if self.clock() < self._guard_until:
            return
        item_id = self.current.item.id
        try:
            self.sink.skip(item_id)
        except NotRecorded as err:
            self.message_posted.emit(err.message)
        else:
            self.item_skipped.emit(item_id)
        self._guard_until = self.clock() + self.guard_seconds
        self.show_next()

    def undo(self) -> JournalEntry | None:
        try:
            entry = self.sink.undo()
        except NotRecorded as err:
            self.message_posted.emit(err.message)
            return None
        self.verdict_undone.emit(entry)
        self.show_next()  # the undone item comes back first
        return entry

    def _record(
        self, action: ActionConfig, chosen: Selection, *, escalation_reason: str | None = None
    ) -> bool:
        """Hand the verdict to the sink, then show the next item."""
        assert self.current is not None
        spent = int((self.clock() - self._shown_at) * 1000)
        try:
            recorded = self.sink.record(
                self.current,
                action,
                chosen,
                note=chosen.note or None,
                time_spent_ms=spent,
                escalation_reason=escalation_reason,
            )
        except NotRecorded as err:
            if err.message:
                self.message_posted.emit(err.message)
            if err.move_on:
                self.show_next()
            return False
        self._guard_until = self.clock() + self.guard_seconds
        self.verdict_recorded.emit(recorded)
        self.show_next()
        return True
