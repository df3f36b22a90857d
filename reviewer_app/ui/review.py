"""The review flow as a small state machine, so a held or doubled key never decides twice.

States: ``empty`` (nothing to review), ``reviewing`` (an item is shown and keys decide it),
``input`` (the chosen action needs a policy, a rating or a note, asked for inline). A verdict
is saved in the local store (one transaction) and the next item is shown at once; verdict
keys are then ignored for ``guard_seconds``, so a key pressed twice in a row cannot decide
the next post unseen. Auto-repeat is filtered out before keys get here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

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
    """What the verdict bar holds for one action: the verdict's parts, what it still needs
    (``NEEDS``), and why the action cannot be used on this item at all (``refusal``)."""

    needs: list[str]
    policies: list[str]
    rating: str | None
    note: str
    refusal: str | None = None
    reasons: list[str] = field(default_factory=list)


class ReviewController(QObject):
    item_changed = Signal(object)  # StoredItem | None
    input_needed = Signal(str, list)  # action id, needs ("policy", "rating", "note")
    verdict_recorded = Signal(object)  # JournalEntry
    verdict_undone = Signal(object)  # JournalEntry
    item_skipped = Signal(str)
    message_posted = Signal(str)  # a plain sentence for the reviewer
    state_changed = Signal(str)
    #: E (or the escalate button): the window asks for a reason (ActionConfig, reasons)
    escalation_requested = Signal(object, list)

    def __init__(
        self,
        store: Store,
        *,
        nudge: Callable[[], None],
        selection: Callable[[ActionConfig], Selection],
        guard_seconds: float = 0.25,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.store = store
        self.nudge = nudge
        #: what the verdict bar holds for an action
        self.selection = selection
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
        """The queue on screen, configured anew on the server (its actions, policies or
        ratings changed): the post on screen stays; an action waiting for input is dropped,
        as what it waited for may be gone."""
        self.queue = queue
        self.cancel()

    def show_next(self) -> None:
        """The next local item (at once: it is in the store already); the preferred one
        first when it is here."""
        item = None
        if self.queue is not None:
            try:
                item = self.store.next_item(
                    self.queue.id, include_expired=not self.online, first=self.preferred
                )
            except StoreError as err:
                self.message_posted.emit(describe(err).line())
        if item is not None and item.item.id == self.preferred:
            self.preferred = None
        self._show(item)

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

    def action(self, action_id: str) -> bool:
        """A verdict key or button. Returns True when a verdict was recorded."""
        if self.state not in ("reviewing", "input") or self.queue is None:
            return False
        if self.clock() < self._guard_until:
            return False  # a doubled key: the new post has not been seen yet
        action = self.queue.config.action(action_id)
        if action is None:
            return False
        if action.kind is ActionKind.escalate:  # a reason first (escalate_with records it)
            self.escalation_requested.emit(action, self.queue.config.reasons_for_escalation())
            return False
        chosen = self.selection(action)
        if chosen.refusal:  # not for this item (a label with no fact-check): say why
            self.message_posted.emit(chosen.refusal)
            return False
        needs = chosen.needs
        if needs:
            self.pending_action = action
            self._set_state("input")
            self.input_needed.emit(action.id, needs)
            return False
        return self._record(action)

    def open(self, item_id: str) -> bool:
        """Show a post chosen in the worklist instead of the next one in order (a post of
        this queue still waiting for a verdict). Returns True when it is shown."""
        if self.queue is None or (self.current is not None and self.current.item.id == item_id):
            return False
        try:
            stored = self.store.stored_item(item_id)
        except StoreError as err:
            self.message_posted.emit(describe(err).line())
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

    def escalate(self) -> bool:
        if self.queue is None:
            return False
        for action in self.queue.config.actions:
            if action.kind is ActionKind.escalate:
                return self.action(action.id)
        self.message_posted.emit(translate("Review", "This queue has no escalation action."))
        return False

    def escalate_with(self, action_id: str, reason: str, note: str) -> bool:
        """Record the escalation with the reason and note the reviewer gave (the picker that
        ``escalation_requested`` opened). Returns True when it was recorded."""
        if self.state not in ("reviewing", "input") or self.queue is None or self.current is None:
            return False
        action = self.queue.config.action(action_id)
        if action is None or action.kind is not ActionKind.escalate:
            return False
        return self._record(action, escalation_reason=reason, note=note)

    def submit(self) -> bool:
        """Ctrl+Enter: record the pending action once it has what it needs."""
        if self.state == "input" and self.pending_action is not None:
            return self.action(self.pending_action.id)
        return False

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
            self.store.skip(item_id)
        except (AlreadyDecided, StoreError) as err:
            self.message_posted.emit(describe(err).line())
        else:
            self.item_skipped.emit(item_id)
            self.nudge()
        self._guard_until = self.clock() + self.guard_seconds
        self.show_next()

    def undo(self) -> JournalEntry | None:
        try:
            entry = self.store.undo()
        except (NothingToUndo, StoreError) as err:
            self.message_posted.emit(describe(err).line())
            return None
        self.verdict_undone.emit(entry)
        self.show_next()  # the undone item comes back first
        return entry

    def _record(
        self,
        action: ActionConfig,
        *,
        escalation_reason: str | None = None,
        note: str | None = None,
    ) -> bool:
        """Save the verdict (``note``: the escalation picker's, instead of the bar's)."""
        assert self.current is not None
        chosen = self.selection(action)
        policies, rating = chosen.policies, chosen.rating
        note = chosen.note if note is None else note
        spent = int((self.clock() - self._shown_at) * 1000)
        try:
            entry = self.store.record_verdict(
                self.current.item.id,
                action=action.id,
                policies=policies,
                rating=rating,
                note=note or None,
                author_action=action.author_action.value if action.author_action else None,
                time_spent_ms=spent,
                escalation_reason=escalation_reason,
            )
        except AlreadyDecided:
            self.show_next()
            return False
        except StoreError as err:
            self.message_posted.emit(
                translate("Review", "The verdict could not be saved.") + " " + describe(err).line()
            )
            return False
        except ValueError as err:  # the verdict breaks the wire contract (a note too long)
            log.warning("a verdict on %s was refused here: %s", self.current.item.id, err)
            self.message_posted.emit(
                translate(
                    "Review",
                    "The verdict could not be saved: it breaks the rules for verdicts (a note "
                    "may be too long, or hold characters that are not allowed).",
                )
            )
            return False
        self._guard_until = self.clock() + self.guard_seconds
        self.verdict_recorded.emit(entry)
        self.nudge()
        self.show_next()
        return True
