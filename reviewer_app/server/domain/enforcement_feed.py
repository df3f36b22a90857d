"""The enforcement feed: the sealed actions (enforcement.py) as platforms read them.

``page`` reads a platform's actions by ``seq`` (never by ``id``: see enforcement.py on
sealing); ``wire_action`` makes a stored row the wire's ``EnforcementAction`` (the webhooks
send the same). **Long polls** (``FeedWatch``): a reader with nothing new waits on the
process's view of the sealed head (the largest seq), which one task per process refreshes
every ``POLL_SECONDS`` (actions sealed by another process) and at once when this process's
sequencer seals actions. Waiting holds no thread. When the process is told to stop
(``FeedWatch.stop``), waiting readers answer at once.

**A cursor past the head** (``Feed.page``, 409 ``cursor_ahead``): no reader was ever given
a cursor past the sealed head, so one means the service's data went back (restored from a
backup) or the reader made it up. Echoing it back would skip every action numbered up to
it for good; the check reads the primary, never a replica that may be behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, event, select

from reviewer_app.protocol import AuthorAction, Statement, WithdrawalReason
from reviewer_app.protocol.enforcement import (
    EnforcementAction,
    EnforcementKind,
    EnforcementLabel,
    EnforcementPage,
)
from reviewer_app.server.domain.enforcement import (
    POLL_SECONDS,
    SEALED,
    EnforcementLog,
    sealed_head,
)
from reviewer_app.server.domain.records import to_dt
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.tables import enforcement_actions

log = logging.getLogger("server.enforcement")

_A = enforcement_actions.c


def wire_action(row: Mapping[Any, Any]) -> EnforcementAction:
    """An action row (``COLUMNS`` at least) as the feed and the webhooks carry it.

    Built without validation (``model_construct``): the row was written by ``derive``,
    ``withdrawn`` or ``account_action`` from validated values, and a catching-up reader
    reads tens of thousands a second (validating them again cost half the page's time).
    The tests validate what the feed sends against the wire model."""
    details = json.loads(row["payload"]) if row["payload"] not in (None, "{}") else {}
    label = details.get("label")
    author_action = details.get("author_action")
    reason = details.get("reason")
    return EnforcementAction.model_construct(
        id=row["id"],
        seq=row["seq"],
        kind=EnforcementKind(row["kind"]),
        post_external_id=row["post_external_id"],
        author_external_id=row["author_external_id"],
        item_id=row["item_id"],
        decision_id=row["decision_id"],
        queue_id=row["queue_id"],
        config_version=row["config_version"],
        decided_at=to_dt(row["decided_at"]),
        reverses_action_id=row["reverses_action_id"],
        policies=details.get("policies", []),
        label=EnforcementLabel.model_construct(
            rating=label["rating"],
            rating_label=label["rating_label"],
            organisation=label.get("organisation"),
            url=label.get("url"),
        )
        if label
        else None,
        author_action=AuthorAction(author_action) if author_action else None,
        reason=WithdrawalReason(reason) if reason else None,
        undo_author_action=details.get("undo_author_action"),
        appeal_id=details.get("appeal_id"),
        statement=Statement.model_validate(details["statement"])
        if "statement" in details
        else None,
    )


# The columns ``wire_action`` needs.
COLUMNS = [
    _A.id,
    _A.seq,
    _A.kind,
    _A.post_external_id,
    _A.author_external_id,
    _A.item_id,
    _A.decision_id,
    _A.queue_id,
    _A.config_version,
    _A.decided_at,
    _A.reverses_action_id,
    _A.payload,
]


def page(conn: Connection, source: str, after: int, limit: int) -> tuple[EnforcementPage, int]:
    """The platform ``source``'s sealed actions after seq ``after``, in seq order, and the
    sealed head as it was before they were read (for a long poll: nothing of this source
    up to that head is missing from the page)."""
    head = sealed_head(conn)
    rows = (
        conn.execute(
            select(*COLUMNS)
            .where(_A.source == source, _A.seq > after)
            .order_by(_A.seq)
            .limit(limit)
        )
        .mappings()
        .all()
    )
    actions = [wire_action(r) for r in rows]
    return EnforcementPage(actions=actions, next_cursor=actions[-1].seq if actions else after), head


def cursor_ahead(after: int, head: int) -> ApiError:
    """409 for a cursor past the sealed head ``head`` (read on the primary)."""
    return ApiError(
        409,
        "cursor_ahead",
        f"The feed's last action is seq {head}; cursor {after} is past it, and no page ever "
        "gave a cursor past the last action. The service's data may have been restored from "
        "a backup: read again from the last cursor you know to be good (or 0) and "
        "de-duplicate by id.",
    )


@dataclass
class FeedWatch:
    """Long-polling readers of one process wait here for the sealed head to pass the one
    they saw. One task refreshes the head while anyone waits: every ``poll`` seconds
    (actions another process sealed) and at once when ``poke`` says this process sealed
    some. Readers hold no thread while they wait. ``stop`` ends every wait at once."""

    read_head: Callable[[], int]  # blocking: run on a worker thread
    poll: float = POLL_SECONDS
    head: int = 0
    stopped: bool = False
    _waiting: int = 0
    _loop: asyncio.AbstractEventLoop | None = None
    _changed: asyncio.Event | None = None
    _poked: asyncio.Event | None = None
    _task: asyncio.Task[None] | None = None

    def poke(self) -> None:
        """This process sealed actions (any thread)."""
        loop, poked = self._loop, self._poked
        if loop is not None and poked is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(poked.set)

    def stop(self) -> None:
        """The process is stopping (any thread, or a signal handler: it only sets a flag and
        asks the loop to wake the readers): waits end now, and later ones at once."""
        self.stopped = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        changed, self._changed = self._changed, asyncio.Event()
        if changed is not None:
            changed.set()

    async def wait_beyond(self, seen: int, timeout: float) -> bool:
        """Wait until the sealed head is past ``seen`` (True), ``timeout`` runs out or the
        process is stopping (``stopped``: then False unless the head moved)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop, self._changed, self._poked, self._task = (
                loop,
                asyncio.Event(),
                asyncio.Event(),
                None,
            )
        deadline = loop.time() + timeout
        self._waiting += 1
        try:
            if self._task is None or self._task.done():
                self._task = loop.create_task(self._refresh())
            while self.head <= seen and not self.stopped:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return False
                changed = self._changed
                assert changed is not None
                try:
                    await asyncio.wait_for(changed.wait(), remaining)
                except TimeoutError:
                    return self.head > seen
            return self.head > seen
        finally:
            self._waiting -= 1

    async def _refresh(self) -> None:
        from anyio import to_thread  # the route's threads: the same pool as requests

        poked = self._poked
        assert poked is not None
        while self._waiting > 0:
            poked.clear()
            try:
                head = await to_thread.run_sync(self.read_head)
            except Exception:
                log.warning("reading the enforcement feed's head failed", exc_info=True)
                head = self.head
            if head > self.head:
                self.head = head
                changed, self._changed = self._changed, asyncio.Event()
                assert changed is not None
                changed.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(poked.wait(), self.poll)


class Feed:
    """The enforcement feed of one service: the log the sequencer seals, and the watch
    its long polls wait on."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        self.db = db
        self.log = EnforcementLog(clock)
        self.watch = FeedWatch(self.head)
        _listen(db.engine, self.watch.poke)

    def head(self) -> int:
        with self.db.read() as conn:
            return sealed_head(conn)

    def page(self, source: str, after: int, limit: int) -> tuple[EnforcementPage, int]:
        """``page`` on the primary; a cursor past its sealed head is refused (409
        ``cursor_ahead``): a replica may be behind, the primary has every cursor given out."""
        with self.db.read() as conn:
            found, head = page(conn, source, after, limit)
        if after > head:
            raise cursor_ahead(after, head)
        return found, head


def _listen(engine: Engine, poke: Callable[[], None]) -> None:
    """Poke when a connection whose transaction sealed actions goes back to the pool (after
    its commit); a rolled-back round sealed nothing."""

    def checked_in(_dbapi_connection: Any, record: Any) -> None:
        if record is not None and record.info.pop(SEALED, False):
            poke()

    def rolled_back(conn: Connection) -> None:
        if not conn.invalidated:  # a lost connection's info went with it
            conn.info.pop(SEALED, None)

    event.listen(engine, "checkin", checked_in)
    event.listen(engine, "rollback", rolled_back)
