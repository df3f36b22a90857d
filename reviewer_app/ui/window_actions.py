"""The review window's menu and what it opens: log in again, work offline, settings, the
keys, conflicts, my decisions, clearing local data and logging out; the escalation reason
picker, a lead's bulk decisions, and breaks."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import (
    QMessageBox,
)

from reviewer_app.core import settings as core_settings
from reviewer_app.core.bulk import Candidate, Refusal
from reviewer_app.core.errors import StoreError
from reviewer_app.protocol import (
    ActionConfig,
    EscalationReason,
    Queue,
    QueueConfig,
    counts_origin_harm,
)

from .background import run_op
from .confirm import unsent_at_quit
from .dialogs import ConflictsView, LoginDialog, SettingsDialog, ShortcutsDialog
from .escalation import EscalationDialog
from .i18n import translate
from .keys import Command, shortcut_rows
from .lead.bulk import RETRY_SECONDS, BulkDecisionDialog, load_author_posts, refused_box
from .messages import (
    describe,
)
from .my_decisions import MyDecisionsView
from .plain import isolate
from .window_parts import WindowParts
from .window_sync import while_open
from .words import plural

log = logging.getLogger("ui")


def posts_in_queues(posts: int, queues: int) -> dict[str, str]:
    """'3 posts' and '1 queue', each count in its own form."""
    return {
        "posts": plural(QCoreApplication.translate("MainWindow", "%Ln post(s)"), posts),
        "queues": plural(QCoreApplication.translate("MainWindow", "%Ln queue(s)"), queues),
    }


class WindowActions(WindowParts):
    """The review window's menu, dialogs and breaks (a part of ``MainWindow``)."""

    def _build_menu(self) -> None:
        """The Review menu, each entry with its keys (``keymap``)."""
        menu = self.menuBar()
        review_menu = menu.addMenu(translate("MainWindow", "&Review"))
        entries: list[tuple[str, Command | None, Callable[[], object]]] = [
            (translate("MainWindow", "Work offline…"), Command.WORK_OFFLINE, self.work_offline),
            (translate("MainWindow", "Conflicts…"), Command.CONFLICTS, self.show_conflicts),
            (
                translate("MainWindow", "My decisions…"),
                Command.MY_DECISIONS,
                lambda: self.show_my_decisions(),
            ),
            (translate("MainWindow", "Settings…"), Command.SETTINGS, self.show_settings),
            (translate("MainWindow", "Keyboard shortcuts"), None, self.show_help),
            (translate("MainWindow", "Log in again…"), None, self.log_in_again),
            (translate("MainWindow", "Clear local data…"), None, self.clear_local_data),
            (translate("MainWindow", "Log out"), None, self.log_out),
        ]
        if self.modes is not None:
            entries += [
                (translate("MainWindow", "Review"), Command.SHOW_REVIEW, lambda: self.show_mode(0)),
                (
                    translate("MainWindow", "Lead workspace"),
                    Command.SHOW_LEAD,
                    lambda: self.show_mode(1),
                ),
            ]
        entries.append((translate("MainWindow", "Quit"), Command.QUIT, self.close))
        for text, command, slot in entries:
            action = QAction(text, self)
            action.triggered.connect(slot)
            review_menu.addAction(action)
            if command is not None:
                self.menu_actions[command] = action
        self._apply_menu_keys()

    def _apply_menu_keys(self) -> None:
        for command, action in self.menu_actions.items():
            action.setShortcuts(list(self.keymap.keys(command)))

    def log_in_again(self, intro: str = "") -> None:
        """Ask for the password again (a 401, or the server back for a session that started
        offline with no saved login): the session's verdicts go once it is given. The
        login runs in the background; "Later" keeps working without one."""
        if self.relogin is not None:
            self.relogin.raise_()
            self.relogin.activateWindow()
            return
        session = self.session

        def attempt(_server: str, _user: str, password: str) -> None:
            dialog = self.relogin
            assert dialog is not None

            def work() -> tuple[object, str]:
                return session.log_in_again(password)

            def done(value: tuple[Any, str]) -> None:
                result, token = value
                if not self.is_open:
                    return
                session.relogged_in(token)
                session.profile_updated(result.user)
                self.needs_login = False
                dialog.succeeded()
                self.say(translate("MainWindow", "Logged in again: your verdicts are being sent."))
                self._update_status()

            def failed(err: BaseException) -> None:
                during = translate("MainWindow", "logging in")
                dialog.show_error(describe(err, during=during).line())

            run_op(dialog, work, done, failed)

        dialog = LoginDialog(
            self.prefs,
            attempt,
            self,
            locked=(session.server_url, session.user.username),
            intro=intro,
        )
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(self._on_relogin_finished)
        self.relogin = dialog
        dialog.show()

    def _on_relogin_finished(self, _result: int) -> None:
        self.relogin = None
        if self.is_open:
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def work_offline(self) -> None:
        if self.session.memory_only:
            self.notify(
                translate(
                    "MainWindow",
                    "Work offline is unavailable in this session: with no keyring to protect "
                    "it, nothing you review is kept on this computer.",
                )
            )
            return
        if self.tally.on_break is not None:  # a break holds no posts: none leased ahead
            self.say(translate("MainWindow", "On a break: resume first, then work offline."))
            return
        queue = self.review.queue
        if queue is None:
            self.say(translate("MainWindow", "Choose a queue first."))
            return
        self.session.engine.work_offline(queue.id)
        self.progress.setRange(0, 0)
        self.progress.setFormat(translate("MainWindow", "Leasing for offline work…"))
        self.progress.show()

    def show_help(self) -> None:
        rows = shortcut_rows(self.keymap, self.keyed_queue(), lead=self.modes is not None)
        ShortcutsDialog(self, rows=rows).exec()
        self.activateWindow()  # the keys work again at once

    def show_settings(self) -> None:
        dialog = SettingsDialog(
            self.prefs, self.store, self, keymap=self.keymap, queues=self.queues.queues
        )
        if dialog.exec():
            self.media_defaults()
            self.break_reminders = self.store.settings.get(core_settings.BREAK_REMINDERS)
            if not self.break_reminders:
                self.break_reminder.setVisible(False)
            self.session.engine.nudge()
        self.activateWindow()  # the keys work again at once

    def show_conflicts(self) -> None:
        if self.conflicts_view is None:
            self.conflicts_view = ConflictsView(self.store, self)
            self.conflicts_view.resolved.connect(lambda *_: self._update_conflicts())
        self.conflicts_view.reload()
        self.conflicts_view.show()
        self.conflicts_view.raise_()

    def show_my_decisions(self, *, week: bool = False) -> None:
        """The reviewer's own decisions and what became of each (Ctrl+Shift+D): this
        shift's, or with ``week`` the last 7 days'; opened while the notice is up, a
        window that reaches the feedback it counts. One view, loaded afresh each time."""
        bar = self.feedback_bar
        reach = bar.notice.oldest if bar.isVisible() and bar.notice is not None else None
        bar.hide()
        # the shift the break reminders count (kept across restarts), else this window's
        started = self.tally.started_at
        shift = datetime.fromtimestamp(started, UTC) if started is not None else self.shift_start
        store = self.store
        if self.my_decisions_view is None:
            self.my_decisions_view = MyDecisionsView(
                self.session.client,
                store.queues(),
                lambda: store.conflicts(open_only=False),
                shift,
                self,
                # its windows are asked on the service's clock
                server_offset=lambda: store.server_offset,
                journal=lambda: store.journal(status="pending") + store.journal(status="rejected"),
                load=False,  # reopen loads it
            )
        self.my_decisions_view.reopen(shift, "week" if week else None, reach)

    def log_out(self, *, keep_unsent: bool = True) -> None:
        """Send what was decided and revoke the token off the GUI thread (a server that
        hangs held the window frozen for a minute), then wipe the profile here and close."""
        self.is_open = False
        self._timer.stop()
        self.bridge.blockSignals(True)
        self.setEnabled(False)
        self.say(translate("MainWindow", "Logging out: sending what you decided…"))

        def finish(_result: object = None) -> None:
            self.session.forget_here(keep_unsent=keep_unsent)
            self.close()

        run_op(self, self.session.end_online, finish, finish)

    def clear_local_data(self) -> None:
        """Delete the profile's cache and key, then log out: asked first, saying how many
        unsent verdicts would be lost."""
        unsent = self.session.unsent_count()
        text = translate(
            "MainWindow",
            "This deletes everything the app keeps on this computer for you on this server "
            "(cached posts and media, your recent decisions, conflicts, and the key that "
            "encrypts them) and logs you out.",
        )
        if unsent:
            unsent_text = (
                translate("MainWindow", "{n} verdicts have not been sent yet.")
                if unsent != 1
                else translate("MainWindow", "1 verdict has not been sent yet.")
            )
            text += "\n\n" + unsent_text.format(n=unsent) + " "
            text += translate(
                "MainWindow", "The app tries to send them first; any it cannot send are lost."
            )
        if self.session.moved_aside():
            text += "\n\n" + translate(
                "MainWindow",
                "A store the app could not use earlier is kept aside on this computer with its "
                "key: it may hold verdicts never sent. Clearing leaves it; ask support before "
                "deleting it.",
            )
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            translate("MainWindow", "Clear local data"),
            text,
            QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        confirm = box.addButton(
            translate("MainWindow", "Delete unsent verdicts and clear")
            if unsent
            else translate("MainWindow", "Clear and log out"),
            QMessageBox.ButtonRole.DestructiveRole,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.exec()
        if box.clickedButton() is not confirm:
            return
        self.log_out(keep_unsent=False)

    def _on_review_escalation_requested(
        self, action: ActionConfig, reasons: list[EscalationReason]
    ) -> None:
        """E: ask why, then escalate the post that was on screen when E was pressed."""
        current = self.review.current
        if self.escalation_dialog is not None or current is None:
            return
        item_id = current.item.id
        dialog = EscalationDialog(action, reasons, self, note=self.verdicts.note_text())
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def chosen() -> None:
            reason = dialog.reason()
            shown = self.review.current
            if reason is None or shown is None or shown.item.id != item_id:
                self.say(
                    translate(
                        "MainWindow",
                        "Nothing was escalated: the post changed while the reasons were open.",
                    )
                )
                return
            chosen = replace(self.verdicts.selection(action), note=dialog.note_text())
            self.review.escalate_with(chosen, reason.id)

        dialog.accepted.connect(chosen)
        dialog.finished.connect(self._on_escalation_dialog_finished)
        self.escalation_dialog = dialog
        dialog.open()

    def _on_escalation_dialog_finished(self, _result: int) -> None:
        self.escalation_dialog = None
        if self.is_open:
            self.activateWindow()  # the keys work again at once (as after ? and Settings)
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    @while_open
    def _on_linked_bulk_requested(self, author_id: str, linked: bool) -> None:
        """ "All open posts by this author…": list them (off the GUI thread), then the
        Decide together dialog."""
        if self.bulk_sender is None:
            return
        self.say(translate("MainWindow", "Looking up the author's open posts…"))

        def loaded(found: list[Candidate], left_out: int) -> None:
            if not found:
                self.say(translate("MainWindow", "The author has no open posts."))
                return
            queues = len({c.queue_id for c in found})
            title = (
                translate(
                    "MainWindow",
                    "Open posts by the author and the linked accounts: {posts} in {queues}.",
                )
                if linked
                else translate("MainWindow", "Open posts by the author: {posts} in {queues}.")
            ).format(**posts_in_queues(len(found), queues))
            if left_out:
                title += " " + plural(
                    QCoreApplication.translate(
                        "MainWindow",
                        "%Ln more not listed (the oldest come first).",
                    ),
                    left_out,
                )
            self.open_bulk_dialog(found, title)

        def failed(err: BaseException) -> None:
            self.say(
                describe(
                    err, during=translate("MainWindow", "looking up the author's open posts")
                ).line()
            )

        load_author_posts(
            self, self.session.client, author_id, linked=linked, on_loaded=loaded, on_failed=failed
        )

    def _on_lead_bulk_requested(self, candidates: list[Candidate]) -> None:
        """Posts a lead selected in the search results: the Decide together dialog."""
        queues = len({c.queue_id for c in candidates})
        title = translate(
            "MainWindow", "Posts selected in the search: {posts} in {queues}."
        ).format(**posts_in_queues(len(candidates), queues))
        self.open_bulk_dialog(candidates, title)

    def open_bulk_dialog(self, candidates: Sequence[Candidate], title: str = "") -> None:
        """The Decide together dialog on these posts (leads): from an author's open posts,
        or a list a lead selected."""
        if self.bulk_sender is None:
            return
        if self.bulk_dialog is not None and not self.bulk_dialog.holding:
            self.bulk_dialog.close()
            self.bulk_dialog.deleteLater()
        dialog = BulkDecisionDialog(
            candidates, self.store.queues(), self.bulk_sender, self, title=title
        )
        self.bulk_dialog = dialog
        dialog.show()

    def _resume_bulk_decisions(self) -> None:
        if self.bulk_sender is not None:  # (recorded and refused: connected with it)
            self.bulk_sender.stuck.connect(self._on_bulk_sender_stuck)
        if self.bulk_sender is not None and self.is_open and (found := self.bulk_sender.resume()):
            self.say(
                plural(
                    translate(
                        "MainWindow", "Sending %Ln bulk decision(s) held when the app last closed."
                    ),
                    found,
                )
            )

    def _on_bulk_sender_recorded(self, _bulk_id: str, results: object) -> None:
        """A bulk decision went through: items held here may be among them, so the engine
        renews every lease now (as after an account action)."""
        self.session.engine.renew_now()
        if self._banner_kind == "bulk_unsent" and not self._bulks_stuck():
            self.notify("")
            self.say(translate("MainWindow", "The bulk decision not sent before is recorded now."))

    def _bulks_stuck(self) -> int:
        """Bulks held here that could not be sent (the banner stays while there is one)."""
        return self.bulk_sender.stuck_count if self.bulk_sender is not None else 0

    @while_open
    def _on_bulk_sender_stuck(self, _bulk_id: str, posts: int, why: str) -> None:
        """A bulk that could not be sent: said once (it is tried again every 30 s)."""
        words = QCoreApplication.translate(
            "MainWindow",
            "A bulk decision on %Ln post(s) is not sent yet: {why} It is kept on this computer "
            "and tried again every {s} s.",
        )
        self.notify(plural(words, posts).format(why=why, s=int(RETRY_SECONDS)), kind="bulk_unsent")

    @while_open
    def _on_bulk_sender_refused(self, bulk_id: str, said: Refusal) -> None:
        """Said here, with the posts and Open them again, unless the dialog that holds it
        is open (it says it there)."""
        if self._banner_kind == "bulk_unsent" and not self._bulks_stuck():
            self.notify("")
        dialogs = self.findChildren(BulkDecisionDialog)
        if any(d.isVisible() and d.bulk_id == bulk_id for d in dialogs):
            return
        box = refused_box(self, said, lambda: self._redo_bulk(said))
        self.say(box.text())

    def _redo_bulk(self, said: Refusal) -> None:
        """A refused bulk's posts in the Decide together dialog, as they were chosen."""
        if said.request is None:
            return
        posts = [Candidate(i.item_id, i.queue_id or "") for i in said.request.items]
        queues = len({c.queue_id for c in posts})
        title = translate("MainWindow", "A refused bulk decision: {posts} in {queues}.").format(
            **posts_in_queues(len(posts), queues)
        )
        self.open_bulk_dialog(posts, title)
        if self.bulk_dialog is not None:
            self.bulk_dialog.redo(said)

    def _on_accounts_actioned(self, _results: object) -> None:
        """A lead's account action went through: items of those accounts held here may have
        closed, so the engine renews every lease now."""
        self.session.engine.renew_now()

    def take_break(self, *, prompted: bool = False) -> None:
        """The break key: the post leaves the screen, every post held here and not decided
        goes back to the queue (the engine's release), nothing is leased ahead or renewed
        until the reviewer resumes, and the service records the break."""
        if self.tally.on_break is not None:
            return
        self.review.cancel()
        record = self.tally.start_break(prompted=prompted)
        self._break_queue = self.review.queue
        self.break_reminder.setVisible(False)
        self.review.set_queue(None)
        self.session.engine.set_active_queues([])
        self.session.engine.take_break(record)
        self.pane.setVisible(False)
        self.break_screen.show_since(record.started_at)
        self.say(translate("MainWindow", "On a break: your posts were given back."))

    def end_break(self) -> None:
        ended = self.tally.end_break()
        if ended is None:
            return
        self.session.engine.end_break(ended)
        self.break_screen.setVisible(False)
        self.pane.setVisible(True)
        left, self._break_queue = self._break_queue, None
        if left is not None:  # its actions may have changed meanwhile (not followed on a
            self.keymap.forget(left.id)  # break): its keys are looked up afresh
        row = self.queues.row_of(left.id) if left is not None else 0
        if self.queues.rowCount():
            self.queue_picker.setCurrentIndex(-1)  # the same row again selects it anew
            self._select_queue(max(0, row))
        if left is None or row >= 0:
            self.say(translate("MainWindow", "Welcome back."))
            return
        now = self.review.queue  # the queue left was removed on the server meanwhile
        removed = (
            translate(
                "MainWindow",
                "Welcome back. The queue {queue} was removed on the server during your "
                "break. Now showing {other}; choose another queue in the list if you like.",
            ).format(queue=isolate(left.name), other=isolate(now.name))
            if now is not None
            else translate(
                "MainWindow",
                "Welcome back. The queue {queue} was removed on the server during your "
                "break; you have no queue left to review.",
            ).format(queue=isolate(left.name))
        )
        if left.config.lead_only and self.session.is_lead:  # or no longer a lead: /me says
            self._ask_role(left, translate("MainWindow", "Welcome back."), removed)
        else:
            self.say(removed)

    def _put_off_break(self) -> None:
        self.tally.put_off()
        self.break_reminder.setVisible(False)

    def _check_break_due(self) -> None:
        """Shows the reminder when the queue's break rule says a break is due (unless the
        reviewer turned reminders off in Settings)."""
        queue = self.review.queue
        if queue is None or self.break_reminder.isVisible():
            return
        if not self.break_reminders:
            return
        due = self.tally.due(queue.config.breaks)
        if due is not None:
            minutes = self.tally.minutes_worked()
            self.break_reminder.remind(due, minutes, self.tally.high_since_break)

    def _shown_handle(self, item_id: str) -> str | None:
        """The author's handle of ``item_id`` when the worklist has not read it yet: the
        post on screen, else the store's copy (a verdict given or undone before the
        worklist's first read named the post by its item's id)."""
        current = self.review.current
        if current is not None and current.item.id == item_id:
            return current.item.author.handle
        stored = self.store.stored_item(item_id)  # rare: once, before the first read
        return stored.item.author.handle if stored is not None else None

    def _harm_origin(self, queue: Queue) -> QueueConfig | None:
        """The config of the queue the post being decided came from, when ``queue`` counts
        its harm too (the escalation and appeals queues: ``counts_origin_harm``)."""
        current = self.review.current
        if current is None or not counts_origin_harm(queue.id, queue.config):
            return None
        origin = current.item.origin_queue_id
        return next((q.config for q in self.queues.queues if q.id == origin), None)

    def _tally_changed(self) -> None:
        """The shift tally changed (a verdict, an undo, a break): kept in the store within
        a second, not in the keypress's frame (a snapshot and a commit each key)."""
        if not self._tally_timer.isActive():
            self._tally_timer.start()

    def _save_tally(self) -> None:
        self._tally_timer.stop()
        try:
            self.store.save_shift_tally(self.tally.snapshot())
        except StoreError as err:  # kept at the next change; the count goes on here
            log.warning("the shift tally was not kept: %s", err)

    def shutdown(self) -> None:
        """The end of the session: no more events or ticks, then a clean exit of the
        engine (send what was decided, give back the rest) and the store closed."""
        self.is_open = False
        self._timer.stop()
        self.bridge.blockSignals(True)
        ended = self.tally.end_break()  # closing the app ends a break (sent on the way out)
        if ended is not None:
            self.session.engine.end_break(ended)
        if self._tally_timer.isActive():
            self._save_tally()
        self.key_filter.detach()
        self.session.close(release=True)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._timer.stop()
        self.key_filter.detach()
        at_risk = unsent_at_quit(
            self.pending, self.held, online=self.online, memory_only=self.session.memory_only
        )
        if self.is_open and at_risk is not None:
            answer = QMessageBox.question(
                self,
                translate("MainWindow", "Verdicts not sent yet"),
                at_risk,
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                QMessageBox.StandardButton.No,  # Enter keeps the window (and the verdicts)
            )
            if answer != QMessageBox.StandardButton.Yes:
                event.ignore()
                self._timer.start()
                self.key_filter.attach()
                return
        if self.is_open:  # quitting, not logging out: the clean exit keeps an offline batch
            self.session.engine.keep_offline_batch()
        self.prefs.set_window_geometry(self.saveGeometry())  # opens there next time
        super().closeEvent(event)
