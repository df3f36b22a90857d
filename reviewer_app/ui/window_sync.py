"""The review window's side of the sync engine: its events (``SyncBridge`` signals) and
what they change on screen, the status bar (connection, verdicts waiting, conflicts, last
sync, the offline batch's progress) and the banner for what must not be missed."""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtWidgets import (
    QProgressBar,
    QPushButton,
    QSizePolicy,
)

from reviewer_app.core import events as ev
from reviewer_app.core.store import JournalEntry
from reviewer_app.protocol import Queue, Role, User

from .a11y import announce
from .accounts import resolved_words
from .background import run_op
from .i18n import translate
from .messages import (
    failure_sentence,
    held_until_words,
    offline_batch_ended,
    pending_words,
    sync_problem,
)
from .models import item_words
from .plain import ElidedLabel, isolate, label, named, set_text
from .queue_change import actions_change, deciding_changed, keep_draft, removed_keys
from .window_parts import WindowParts
from .words import plural

log = logging.getLogger("ui")

#: The reason code of a verdict the service refused because the platform withdrew the post.
WITHDRAWN = "withdrawn"
#: ... and because an account action closed the item (its author suspended or inauthentic)
AUTHOR_ACTIONED = "author_actioned"
#: a verdict's lease the service never issued (its data restored or reset since the claim)
UNKNOWN_LEASE = "unknown_lease"


def _author_status(entry: JournalEntry) -> str | None:
    reason = entry.result.reason if entry.result else None
    return reason.author_status.value if reason and reason.author_status else None


def _reason_code(entry: JournalEntry) -> str | None:
    reason = entry.result.reason if entry.result else None
    return reason.code if reason else None


def _refusal_reason(entry: JournalEntry) -> str:
    """Why the server refused ``entry``, in words: its own (isolated), or ours for a lease
    it does not know (its data restored from a backup, or reset, since the claim)."""
    if _reason_code(entry) == UNKNOWN_LEASE:
        return translate(
            "MainWindow",
            "the server has no record of leasing it to you (its data may have been restored "
            "from a backup or reset since), so the verdict was not recorded; the post waits "
            "in its queue to be decided again",
        )
    reason = entry.result.reason if entry.result else None
    return isolate(reason.message if reason else "")


def while_open(method: Callable[..., None]) -> Callable[..., None]:
    """A slot that does nothing once the session has ended: events queued before the end
    may still arrive after the store is closed."""

    @functools.wraps(method)
    def guarded(self: Any, *args: Any) -> None:
        if self.is_open:
            method(self, *args)

    return guarded


class SyncEvents(WindowParts):
    """The review window's sync events, status bar and banner (a part of ``MainWindow``)."""

    def _build_status_bar(self) -> None:
        """The status bar: connection, pending, conflicts, last sync, progress, message."""
        status = self.statusBar()
        self.net_label = label(translate("MainWindow", "starting…"), wrap=False, selectable=False)
        named(self.net_label, "connection", translate("MainWindow", "Connection"))
        self.pending_label = label("", wrap=False, selectable=False)
        named(self.pending_label, "pending", translate("MainWindow", "Verdicts waiting to be sent"))
        self.conflicts_button = QPushButton("")
        named(self.conflicts_button, "conflicts", translate("MainWindow", "Conflicts (Ctrl+K)"))
        self.conflicts_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.conflicts_button.setFlat(True)
        self.conflicts_button.clicked.connect(self.show_conflicts)
        self.sync_label = label("", wrap=False, selectable=False)
        named(self.sync_label, "lastSync", translate("MainWindow", "Last sync"))
        self.progress = QProgressBar()
        named(self.progress, "offlineProgress", translate("MainWindow", "Work offline progress"))
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.message = ElidedLabel()
        self._saying = None
        named(self.message, "message", translate("MainWindow", "Last message"))
        # status texts change on every keypress: not selectable (a selectable label keeps a
        # text document to lay out), and the message does not resize the bar around it; one
        # longer than the bar (a translation, a narrow window) ends in "…" and is whole in
        # its tooltip, not cut mid-word
        self.message.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        for widget in (self.net_label, self.pending_label, self.conflicts_button, self.sync_label):
            status.addPermanentWidget(widget)
        status.addPermanentWidget(self.progress)
        status.addWidget(self.message, 1)

    def _connect_sync(self) -> None:
        """The sync engine's events, each to its slot."""
        b = self.bridge
        b.online_changed.connect(self._on_sync_online_changed)
        b.pending_changed.connect(self._on_sync_pending_changed)
        b.synced.connect(self._on_sync_synced)
        b.conflicts_changed.connect(self._on_sync_conflicts_changed)
        b.worklist_changed.connect(self._on_sync_worklist_changed)
        b.queues_drained.connect(self._on_sync_queues_drained)
        b.leases_lost.connect(self._on_sync_leases_lost)
        b.media_saved.connect(self._on_sync_media_saved)
        b.items_withdrawn.connect(self._on_sync_items_withdrawn)
        b.items_resolved.connect(self._on_sync_items_resolved)
        b.queues_changed.connect(self._on_sync_queues_changed)
        b.progress_changed.connect(self._on_sync_progress_changed)
        b.auth_required.connect(self._on_sync_auth_required)
        b.problem_reported.connect(self._on_sync_problem_reported)
        b.verdicts_settled.connect(self._on_sync_verdicts_settled)

    @while_open
    def _on_sync_online_changed(self, online: bool, kind: str, retry_in: float) -> None:
        self.online = online
        self.review.online = online
        self.queues.set_live(online)  # offline, the picker says how old its counts are
        if online:
            self.say(translate("MainWindow", "Connected to the server."))
        else:
            retry = (
                " "
                + translate("MainWindow", "Next try in {seconds} s.").format(
                    seconds=f"{retry_in:.0f}"
                )
                if retry_in >= 0
                else ""
            )
            self.say(
                translate("MainWindow", "Offline.")
                + " "
                + failure_sentence(kind)
                + retry
                + " "
                + translate("MainWindow", "You can keep deciding what is here.")
            )
            self.review.refresh_if_empty()
        self._update_status()

    @while_open
    def _on_sync_pending_changed(self, _pending: int, _in_flight: int, _held: int) -> None:
        # the store is the truth: the event may be older than the last keypress
        self._later(self._count_pending)

    @while_open
    def _on_sync_synced(self, at: float) -> None:
        self.last_sync = at
        # a sync round often ends just after a keypress: its figures wait for the paint
        self._later(self._update_status)

    @while_open
    def _on_sync_conflicts_changed(self, count: int) -> None:
        if count > self.conflict_count:
            self.notify(self._conflicts_text(count), kind="conflicts")
        self.conflict_count = count
        self._conflicts_banner()
        self._update_status()

    @while_open
    def _update_conflicts(self) -> None:
        self.conflict_count = self.store.counts().conflicts_open
        self._conflicts_banner()
        self._update_status()

    def _conflicts_banner(self) -> None:
        """The banner counting conflicts follows the count: gone at none (accepting their
        decision or escalating resolves one)."""
        if self._banner_kind != "conflicts":
            return
        if self.conflict_count == 0:
            self.notify("")
            self.say(translate("MainWindow", "No open conflicts left."))
        else:
            self.notify(self._conflicts_text(self.conflict_count), kind="conflicts")

    @staticmethod
    def _conflicts_text(count: int) -> str:
        if count == 1:
            return translate(
                "MainWindow",
                "1 of your verdicts conflicts with a decision made by someone else. "
                "Open Conflicts (Ctrl+K) to see both.",
            )
        return translate(
            "MainWindow",
            "{n} of your verdicts conflict with a decision made by someone else. "
            "Open Conflicts (Ctrl+K) to see both.",
        ).format(n=count)

    @while_open
    def _on_sync_worklist_changed(self, _ready: dict[str, int]) -> None:
        self.review.refresh_if_empty()
        self._later(self._refresh_worklist)

    @while_open
    def _on_sync_queues_drained(self, queue_ids: tuple[str, ...]) -> None:
        self.drained = set(queue_ids)
        if self.review.current is None:
            self.post.clear(self._nothing_here())

    @while_open
    def _on_sync_media_saved(self, media_ids: tuple[str, ...]) -> None:
        """The post on screen may have been shown before its media was fetched."""
        self.post.media.arrived(set(media_ids), self.store.media)

    @while_open
    def _on_sync_leases_lost(self, item_ids: tuple[str, ...]) -> None:
        self._refresh_worklist()
        self.review.drop_if_current(item_ids)

    @while_open
    def _on_sync_items_withdrawn(self, item_ids: tuple[str, ...]) -> None:
        self._refresh_worklist()
        if not self.review.drop_withdrawn(item_ids):
            self.say(
                (
                    translate(
                        "MainWindow",
                        "{n} posts in your worklist were withdrawn by the platform (deleted or "
                        "made private upstream); they left it without a verdict.",
                    )
                    if len(item_ids) != 1
                    else translate(
                        "MainWindow",
                        "Post {item} was withdrawn by the platform (deleted or made private "
                        "upstream); it left your worklist without a verdict.",
                    )
                ).format(n=len(item_ids), item=item_ids[0])
            )

    @while_open
    def _on_sync_items_resolved(self, resolved: tuple[tuple[str, str], ...]) -> None:
        self._refresh_worklist()
        item_ids = tuple(item_id for item_id, _ in resolved)
        statuses = {status for _, status in resolved}
        why = resolved_words(statuses.pop() if len(statuses) == 1 else None)
        if not self.review.drop_resolved(item_ids, why):
            self.say(
                (
                    translate(
                        "MainWindow",
                        "Resolved: {why}. {n} posts in your worklist were closed by that "
                        "account action; they left it without a verdict.",
                    )
                    if len(item_ids) != 1
                    else translate(
                        "MainWindow",
                        "Resolved: {why}. Post {item} was closed by that account action; it "
                        "left your worklist without a verdict.",
                    )
                ).format(why=why, n=len(item_ids), item=item_ids[0])
            )

    @while_open
    def _on_sync_queues_changed(self, queues: tuple[Queue, ...]) -> None:
        shown = self.review.queue
        current = shown.id if shown else None
        self.queues.set_queues(queues, counted_at=time.time())  # the service's counts
        if self.tally.on_break is not None:
            return  # no queue is reviewed on a break; the one left is taken up on resume
        if shown is not None and all(q.id != shown.id for q in queues):
            self._queue_removed(shown)
            return
        if current is not None and self.review.current is None:
            self.post.clear(self._nothing_here())  # the queues with work, as counted now
        if current is None and queues:
            self._select_queue(0)
        elif current is not None:
            row = self.queues.row_of(current)
            if row >= 0 and self.queue_picker.currentIndex() != row:
                self.queue_picker.setCurrentIndex(row)
            elif row >= 0:
                self._queue_reconfigured(self.queues.queues[row])

    def _queue_removed(self, shown: Queue) -> None:
        """The queue on screen is no longer listed: the first queue is shown, and the
        reviewer is told why; the engine gives back the leases held in the removed one. A
        queue for leads gone from a lead's list was removed, or the lead's role changed
        (the list does not say which: ``/me`` does, asked off the GUI thread)."""
        row = self.queue_picker.currentIndex()
        if self.queues.rowCount():
            if self.review.queue is shown:  # the list's reset did not select a queue anew
                self.queue_picker.setCurrentIndex(-1)
                self._select_queue(row if 0 <= row < self.queues.rowCount() else 0)
        else:
            self.verdicts.set_config(None)
            self.review.set_queue(None)
            self.session.engine.set_active_queues([])
            self._refresh_worklist()
        if shown.config.lead_only and self.session.is_lead:
            self._ask_role(shown)
        else:
            self.say(self._removed_words(shown))

    def _ask_role(self, shown: Queue, first: str = "", removed: str | None = None) -> None:
        """Whether a lead-only queue left the list because this user is no longer a lead
        (the role the window knows is the login's): the right words either way (after
        ``first``; ``removed``: the words for a queue removed, when not the usual), and the
        session's profile follows the server's."""
        session = self.session
        was = session.user.role

        def work() -> User:
            with session.client() as api:
                return api.me()

        def done(user: User) -> None:
            if not self.is_open:
                return
            if user.role in (Role.lead, Role.admin):
                self.say(_joined(first, removed or self._removed_words(shown)))
                return
            session.profile_updated(user)
            self.say(_joined(first, self._role_changed_words(shown, was)))

        def failed(err: BaseException) -> None:
            log.info("who am I, after a queue left the list: %s", type(err).__name__)
            if self.is_open:
                self.say(_joined(first, removed or self._removed_words(shown)))

        run_op(self, work, done, failed, key="role")

    def _removed_words(self, shown: Queue) -> str:
        """The queue on screen was removed on the server (its posts drained into another,
        which the queue list does not say)."""
        now = self.review.queue
        return (
            translate(
                "MainWindow",
                "The queue {queue} was removed on the server and its posts moved to another "
                "queue. Now showing {other}; choose another queue in the list if you like.",
            ).format(queue=isolate(shown.name), other=isolate(now.name))
            if now is not None
            else translate(
                "MainWindow",
                "The queue {queue} was removed on the server; you have no queue left to "
                "review. Choose a queue once one is listed.",
            ).format(queue=isolate(shown.name))
        )

    def _role_changed_words(self, shown: Queue, was: Role) -> str:
        """The queue on screen is for leads, and this user is no longer one: the queue and
        its posts are where they were."""
        now = self.review.queue
        # (a person's role: reviewer, lead or admin; only a reviewer's list lacks these)
        who = (
            translate("MainWindow", "You are no longer an administrator: you are now a reviewer.")
            if was is Role.admin
            else translate("MainWindow", "You are no longer a lead: you are now a reviewer.")
        )
        queue = (
            translate(
                "MainWindow",
                "The queue {queue} is for leads only, so it is no longer listed for you; its "
                "posts stay there. Now showing {other}; choose another queue in the list if "
                "you like.",
            ).format(queue=isolate(shown.name), other=isolate(now.name))
            if now is not None
            else translate(
                "MainWindow",
                "The queue {queue} is for leads only, so it is no longer listed for you. You "
                "have no queue left to review.",
            ).format(queue=isolate(shown.name))
        )
        return who + " " + queue

    def _queue_reconfigured(self, queue: Queue) -> None:
        """A new configuration of the queue on screen (applied on the server while the
        client runs): the verdict bar and the keys follow a change to what deciding uses
        at once, keeping what is still valid of the draft verdict; the post stays."""
        shown = self.review.queue
        if shown is None or shown.config == queue.config:
            return
        self.review.update_queue(queue)
        if not deciding_changed(shown.config, queue.config):
            return  # its order, deadline or breaks: nothing on screen changes
        old_keys = {a.id: self.keymap.action_key(shown.id, a) for a in shown.config.actions}
        self.key_filter.forget(shown, queue, removed_keys(shown, queue, old_keys))
        lost = keep_draft(self.verdicts, queue.config, self.keymap.action_keys(queue))
        said = " ".join(w for w in (actions_change(queue, shown.config), lost) if w)
        if said:
            self.say(said)

    @while_open
    def _on_sync_progress_changed(
        self, task: str, done: int, total: int, finished: bool, kind: str
    ) -> None:
        if task != "offline":
            return
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)
        self.progress.setFormat(
            translate("MainWindow", "Offline batch: {done} of {total}").format(
                done=done, total=total
            )
        )
        self.progress.setVisible(not finished)
        if finished:
            self.say(offline_batch_ended(done, total, kind))
            self._refresh_worklist()
            self.review.refresh_if_empty()

    @while_open
    def _on_sync_auth_required(self, message: str, server_back: bool) -> None:
        log.info("the server asks for a login: %s", message)
        self.needs_login = True
        why = (
            translate(
                "MainWindow", "The server can be reached again: log in to send your verdicts."
            )
            if server_back
            else translate("MainWindow", "The server asks you to log in again.")
        )
        self.say(
            why
            + " "
            + translate(
                "MainWindow",
                "Your verdicts are kept and sent once you have logged in (Review ▸ Log in again…).",
            )
        )
        self._update_status()
        self.log_in_again(why)

    @while_open
    def _on_sync_problem_reported(self, problem: ev.Problem) -> None:
        log.warning("the sync engine reports: %s", problem.message)
        self.notify(sync_problem(problem.kind, problem.item_id, problem.queue_id))

    @while_open
    def _on_sync_verdicts_settled(self, entries: tuple[JournalEntry, ...]) -> None:
        self._later(self._count_pending)
        rejected = [e for e in entries if e.status == "rejected"]
        withdrawn = [e for e in rejected if _reason_code(e) == WITHDRAWN]
        if withdrawn:  # nothing for the reviewer to do: the post is gone upstream
            self.say(
                translate(
                    "MainWindow",
                    "Withdrawn by the platform: your verdict on {item} was not needed, the post "
                    "was deleted or made private upstream before it arrived.",
                ).format(item=self._posts_named(withdrawn))
            )
        actioned = [e for e in rejected if _reason_code(e) == AUTHOR_ACTIONED]
        if actioned:  # nothing for the reviewer to do: an account action closed the item
            statuses = {_author_status(e) for e in actioned}
            self.say(
                translate(
                    "MainWindow",
                    "Resolved: {why}. Your verdict on {item} was not needed: an account action "
                    "closed the post before it arrived.",
                ).format(
                    why=resolved_words(statuses.pop() if len(statuses) == 1 else None),
                    item=self._posts_named(actioned),
                )
            )
        refused = [e for e in rejected if e not in withdrawn and e not in actioned]
        if refused:  # one notice for them all (each replaced the one before)
            self.notify(self._refused_words(refused))
        self._later(self._refresh_worklist)

    def _refused_words(self, refused: list[JournalEntry]) -> str:
        """The refusals of ``refused`` verdicts, the posts named and grouped by reason."""
        by_reason: dict[str, list[JournalEntry]] = {}
        for entry in refused:
            by_reason.setdefault(_refusal_reason(entry), []).append(entry)
        if len(refused) == 1:
            [(reason, _)] = by_reason.items()
            return translate(
                "MainWindow", "The server refused your verdict on {item}: {reason}"
            ).format(item=self._posts_named(refused), reason=reason)
        return translate("MainWindow", "The server refused {n} of your verdicts: {reasons}").format(
            n=len(refused),
            reasons="; ".join(
                f"{self._posts_named(group)}: {reason}" for reason, group in by_reason.items()
            ),
        )

    def _posts_named(self, entries: list[JournalEntry]) -> str:
        """The posts of ``entries`` as the worklist names them ("@author: first words"),
        by their item id only when this computer no longer holds them."""
        ids = [e.item_id for e in entries]
        labels = self.worklist.labels
        held = self.store.item_summaries([i for i in ids if i not in labels])
        return ", ".join(
            labels.get(i) or (item_words(*held[i]) if i in held else isolate(i)) for i in ids
        )

    @while_open
    def _on_timer_tick(self) -> None:
        self.worklist.tick()
        self._check_break_due()
        self._update_status()

    def _update_status(self) -> None:
        if self.needs_login:
            state = translate("MainWindow", "● Log in to sync")
        elif self.online is None:
            state = translate("MainWindow", "Connecting…")
        elif not self.online:
            state = translate("MainWindow", "● Offline")
        elif self.pending:
            state = translate("MainWindow", "● Syncing")
        else:
            state = translate("MainWindow", "● Online")
        set_text(self.net_label, state)
        set_text(self.pending_label, pending_words(self.pending, self.held))
        until = (
            f"{datetime.fromtimestamp(self.held_until):%H:%M}"
            if self.held and self.held_until
            else None
        )
        self.pending_label.setToolTip(held_until_words(self.held, until))
        conflicts = self.conflict_count  # a name: lupdate reads no attribute as the count
        self.conflicts_button.setText(
            plural(
                QCoreApplication.translate("MainWindow", "%n conflict(s)"),
                conflicts,
            )
        )
        if self.last_sync is None:
            set_text(self.sync_label, translate("MainWindow", "never synced"))
        else:
            moment = datetime.fromtimestamp(self.last_sync)
            set_text(
                self.sync_label,
                translate("MainWindow", "last sync {time}").format(time=f"{moment:%H:%M:%S}"),
            )

    def say(self, text: str) -> None:
        self._saying = None  # a later word than a verdict's "Saved" still to come
        set_text(self.message, text)
        announce(self.message, self.message.text())  # a screen reader says it, again too

    def _say_saved(self) -> None:
        """The verdict's "Saved", said once the next post is painted (unless something was
        said meanwhile)."""
        if self._saying is not None:
            self.say(self._saying)

    def notify(self, text: str, *, kind: str = "") -> None:
        """A notice that stays until the next one (errors the reviewer must not miss);
        ``kind`` names a notice that follows a count (``"conflicts"``). A notice cleared
        ("") gives the banner back to the standing note, if the window has one (a login
        the keyring does not keep: what that means stays in sight all session)."""
        self._banner_kind = kind if text else ""
        shown = text or self._standing_note
        set_text(self.banner, shown)
        if text:
            announce(self.banner, self.banner.text(), assertive=True)  # at once, again too
        self.banner.setVisible(bool(shown))
        self._saying = None
        set_text(self.message, text)  # (said as the banner: once)

    @while_open
    def _count_pending(self) -> None:
        waiting = self.store.pending()
        self.pending, self.held, self.held_until = (
            waiting.pending,
            waiting.held,
            waiting.held_until,
        )
        self._update_status()


def _joined(first: str, then: str) -> str:
    return f"{first} {then}" if first else then
