"""Enforcement actions: each decision of record becomes one thing the platform is to do.

**Deriving** (in the decision's own transaction, so an action exists exactly when its
decision does):

- a verdict (``verdicts.VerdictRecorder``), a lead's decision on an escalation included
  (a verdict in the escalations queue): ``derive``. An escalation is no decision of record:
  no action until the lead decides.
- an audit overturn (``audits``): ``derive`` with ``overturns``; the action names the
  overturned decision's action in ``reverses_action_id``. The platform undoes that action
  and applies this one; an overturn to ``keep`` of anything else is a ``restore``.
- a withdrawal that closed review (``intake``): ``withdrawn`` (informational).
- an account decision (account actions, issue 15): ``account_action``, one ``author:*``
  action for the account, not one per post.
- an appeal's outcome (appeals.py, a verdict in the appeals queue): ``derive``. Upheld: an
  informational ``appeal_upheld``; reversed: a ``keep`` that overturns the contested decision,
  so a ``restore`` reversing its action. Both carry the platform's ``appeal_id``.

**One action per decision.** A verdict's action kind gives the action's kind (``keep``,
``label``, ``reduce``, ``label_and_reduce``, ``remove``); an action of kind ``author``
becomes ``author:<its author action>``. A post action that also acts on the author
(*remove and restrict author*) stays one action: kind ``remove`` with ``author_action``
``restrict``, so that undoing it (a ``restore`` reversing it) undoes both. The database
holds one action per decision id (a unique index).

**Statements of reasons**: a restrictive action (every kind but ``keep``, ``restore`` and
``withdrawn``) gets its statement (protocol/statements.py words, stored by statements.py)
in the same transaction; the action's payload carries it, so the feed and the webhooks
send it without another read.

**Sealing**: actions are inserted unsealed (``seq`` NULL) and the sequencer (sequencer.py,
the same thread that seals the event log) gives committed actions their ``seq`` a round at
a time. The feed pages by ``seq``, never by ``id``: an action whose transaction took id 7
and committed after ids 8 and 9 were read would be skipped for ever by ``id > cursor``;
its ``seq`` is given after 8's and 9's, so a reader past them still gets it (the outbox
trap; see sequencer.py). Seq numbers are one space for the table (every platform's actions
share it): a platform's own actions have increasing, not consecutive, numbers.

**Long polls** (``FeedWatch``): a reader with nothing new waits on the process's view of
the sealed head (the largest seq), which one task per process refreshes every
``POLL_SECONDS`` (actions sealed by another process) and at once when this process's
sequencer seals actions. Waiting holds no thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, event, func, insert, select
from sqlalchemy.engine import RowMapping

from reviewer_app.protocol import (
    UPHELD,
    ActionKind,
    AuthorAction,
    PolicyConfig,
    QueueConfig,
    Statement,
    WithdrawalReason,
    draft_statement,
    lift,
    restate,
)
from reviewer_app.protocol.enforcement import (
    AUTHOR_KINDS,
    EnforcementAction,
    EnforcementKind,
    EnforcementLabel,
    EnforcementPage,
)
from reviewer_app.server.domain import statements
from reviewer_app.server.domain.records import dumps, to_dt
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.sequencer import Head, SequencedLog, mark_appended
from reviewer_app.server.storage.tables import authors, enforcement_actions, posts

log = logging.getLogger("server.enforcement")

LOG_NAME = "enforcement"
# PostgreSQL advisory lock of the actions' sealer (the event log's is 7_304_212).
LOCK_KEY = 7_304_213
# How often a process with long-polling readers looks for actions another process sealed.
POLL_SECONDS = 0.1
_SEALED = "reviewer_app.enforcement.sealed"

# Kinds that change nothing on the platform: overturning one of them restores nothing.
_NOTHING_DONE = frozenset({EnforcementKind.keep.value, EnforcementKind.withdrawn.value})
# Kinds that restrict nothing, so carry no statement of reasons.
_NO_STATEMENT = frozenset(
    {EnforcementKind.keep, EnforcementKind.restore, EnforcementKind.withdrawn}
)

_INSERT = insert(enforcement_actions)
_A = enforcement_actions.c


# -- deriving -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decided:
    """A decision of record, as its action needs it."""

    decision_id: int
    item_id: str
    post_id: str | None  # None: an item from before intake
    author_id: str
    queue_id: str
    config_version: int
    decided_at: float
    kind: ActionKind  # the kind of the queue's action it took
    config: QueueConfig  # the queue's configuration it was decided under (rating labels)
    item_payload: str | Mapping[str, Any]  # the item's document (its fact-checks)
    policies: Sequence[str] = ()
    rating: str | None = None
    author_action: AuthorAction | None = None
    overturns: int | None = None  # an overturn: the decision it replaces
    appeal_id: str | None = None  # an appeal's outcome: the platform's id of the appeal
    note: str | None = None  # the reviewer's note (in the statement where the queue shares it)
    contests: int | None = None  # an appeal's outcome: the contested decision


def kind_of(kind: ActionKind, author_action: AuthorAction | None) -> EnforcementKind | None:
    """The action a decision of this kind makes (None: an escalation, no action)."""
    if kind is ActionKind.escalate:
        return None
    if kind is ActionKind.uphold:
        return EnforcementKind.appeal_upheld
    if kind is ActionKind.reverse:  # derived as a keep that overturns (appeals.py)
        return EnforcementKind.keep
    if kind is ActionKind.author:
        return AUTHOR_KINDS[author_action] if author_action is not None else EnforcementKind.keep
    return EnforcementKind(kind.value)


@dataclass(frozen=True)
class _Ids:
    source: str | None
    post_external_id: str | None
    author_external_id: str | None


def _external_ids(
    conn: Connection, post_ids: Iterable[str | None], author_ids: Iterable[str]
) -> tuple[dict[str, tuple[str, str]], dict[str, tuple[str | None, str | None]]]:
    """The platform's ids: post id -> (source, external id), author id -> (source, ext id)."""
    wanted_posts = sorted({p for p in post_ids if p})
    wanted_authors = sorted(set(author_ids))
    found_posts: dict[str, tuple[str, str]] = {}
    if wanted_posts:
        found_posts = {
            r.id: (r.source, r.external_id)
            for r in conn.execute(
                select(posts.c.id, posts.c.source, posts.c.external_id).where(
                    posts.c.id.in_(wanted_posts)
                )
            )
        }
    found_authors: dict[str, tuple[str | None, str | None]] = {}
    if wanted_authors:
        found_authors = {
            r.id: (r.source, r.external_id)
            for r in conn.execute(
                select(authors.c.id, authors.c.source, authors.c.external_id).where(
                    authors.c.id.in_(wanted_authors)
                )
            )
        }
    return found_posts, found_authors


def _ids_of(
    post_id: str | None,
    author_id: str | None,
    found: tuple[dict[str, tuple[str, str]], dict[str, tuple[str | None, str | None]]],
) -> _Ids:
    by_post, by_author = found
    author_source, author_external = by_author.get(author_id or "", (None, None))
    if post_id and post_id in by_post:
        source, external = by_post[post_id]
        return _Ids(source, external, author_external)
    return _Ids(author_source, None, author_external)


def _label(decided: Decided) -> dict[str, Any] | None:
    """The label a label action shows: its rating, that rating's name on the queue's scale,
    and the fact-check that gave the rating (the first on the item; none when the reviewer
    overrode the fact-checkers with a note)."""
    if decided.kind not in (ActionKind.label, ActionKind.label_and_reduce) or not decided.rating:
        return None
    rating = decided.rating
    names = {r.id: r.label for r in decided.config.ratings}
    document = (
        json.loads(decided.item_payload)
        if isinstance(decided.item_payload, str)
        else decided.item_payload
    )
    checks = [f for f in document.get("fact_checks") or () if f.get("rating") == rating]
    label: dict[str, Any] = {"rating": rating, "rating_label": names.get(rating, rating)}
    if checks:
        label["rating_label"] = names.get(rating) or checks[0].get("rating_label") or rating
        label["organisation"] = checks[0].get("organisation")
        label["url"] = checks[0].get("url")
    return label


def derive(conn: Connection, decided: Sequence[Decided], now: float) -> None:
    """Insert the action of each decision of record (escalations make none), in this
    transaction, in the order given (their ids follow it)."""
    made = [(d, k) for d in decided if (k := kind_of(d.kind, d.author_action)) is not None]
    if not made:
        return
    found = _external_ids(conn, (d.post_id for d, _ in made), (d.author_id for d, _ in made))
    overturned = sorted({d.overturns for d, _ in made if d.overturns is not None})
    earlier: dict[int, tuple[int, str]] = {}
    if overturned:
        earlier = {
            r.decision_id: (r.id, r.kind)
            for r in conn.execute(
                select(_A.decision_id, _A.id, _A.kind).where(_A.decision_id.in_(overturned))
            )
        }
    # an appeal's outcome restates the contested decision's statement: an upheld one says
    # the restriction stands, a reversed one (a restore) that it is lifted
    contested = statements.by_decision(
        conn,
        {d.contests for d, _k in made if d.contests},
    )
    rows: list[dict[str, Any]] = []
    drafts: list[statements.Draft] = []
    owners: list[int] = []  # the row each draft belongs to
    for d, kind in made:
        reverses = earlier.get(d.overturns) if d.overturns is not None else None
        if (
            reverses is not None
            and kind is EnforcementKind.keep
            and reverses[1] not in _NOTHING_DONE
        ):
            kind = EnforcementKind.restore
        details: dict[str, Any] = {}
        if d.policies:
            details["policies"] = list(d.policies)
        label = _label(d)
        if label is not None:
            details["label"] = label
        if d.author_action is not None and not kind.value.startswith("author:"):
            details["author_action"] = d.author_action.value
        if d.appeal_id is not None:
            details["appeal_id"] = d.appeal_id
        ids = _ids_of(d.post_id, d.author_id, found)
        draft = (
            draft_statement(
                d.config,
                d.kind,
                policies=d.policies,
                note=d.note,
                author_action=d.author_action,
                automated_detection=statements.automated_detection(d.item_payload),
            )
            if kind not in _NO_STATEMENT
            else None
        )
        standing = contested.get(d.contests) if d.contests is not None else None
        if kind is EnforcementKind.appeal_upheld and standing is not None:
            shared = d.note if d.config.notes_shareable else None
            owners.append(len(rows))
            drafts.append(
                standing.draft(
                    restate(standing.statement, UPHELD, shared), d.decision_id, d.decided_at
                )
            )
        elif kind is EnforcementKind.restore and standing is not None:
            shared = d.note if d.config.notes_shareable else None
            owners.append(len(rows))
            drafts.append(
                standing.draft(lift(standing.statement, shared), d.decision_id, d.decided_at)
            )
        elif draft is not None:
            owners.append(len(rows))
            drafts.append(
                statements.Draft(
                    statement=draft,
                    created_at=d.decided_at,
                    decision_id=d.decision_id,
                    item_id=d.item_id,
                    post_id=d.post_id,
                    author_id=d.author_id,
                    source=ids.source,
                    queue_id=d.queue_id,
                    content_date=statements.content_date(d.item_payload),
                    context=statements.context_of(d.item_payload),
                )
            )
        rows.append(
            {
                "created_at": now,
                "kind": kind.value,
                "source": ids.source,
                "post_id": d.post_id,
                "post_external_id": ids.post_external_id,
                "author_id": d.author_id,
                "author_external_id": ids.author_external_id,
                "item_id": d.item_id,
                "decision_id": d.decision_id,
                "queue_id": d.queue_id,
                "config_version": d.config_version,
                "decided_at": d.decided_at,
                "reverses_action_id": reverses[0] if reverses is not None else None,
                "details": details,
            }
        )
    for index, stored in zip(owners, statements.record(conn, drafts), strict=True):
        rows[index]["details"]["statement"] = stored.model_dump(mode="json")
    for row in rows:
        row["payload"] = dumps(row.pop("details"))
    conn.execute(_INSERT, rows)
    mark_appended(conn)


@dataclass(frozen=True)
class Withdrawn:
    """An open item a withdrawal closed."""

    item_id: str
    post_id: str
    author_id: str
    queue_id: str
    reason: str  # protocol WithdrawalReason


def withdrawn(conn: Connection, closed: Sequence[Withdrawn], now: float) -> None:
    """One ``withdrawn`` action per item whose review a withdrawal ended (informational:
    the platform did it; nothing for it to do)."""
    if not closed:
        return
    found = _external_ids(conn, (w.post_id for w in closed), (w.author_id for w in closed))
    rows = []
    for w in closed:
        ids = _ids_of(w.post_id, w.author_id, found)
        rows.append(
            {
                "created_at": now,
                "kind": EnforcementKind.withdrawn.value,
                "source": ids.source,
                "post_id": w.post_id,
                "post_external_id": ids.post_external_id,
                "author_id": w.author_id,
                "author_external_id": ids.author_external_id,
                "item_id": w.item_id,
                "decision_id": None,
                "queue_id": w.queue_id,
                "config_version": 0,
                "decided_at": now,
                "reverses_action_id": None,
                "payload": dumps({"reason": w.reason}),
            }
        )
    conn.execute(_INSERT, rows)
    mark_appended(conn)


def account_action(
    conn: Connection,
    *,
    author_id: str,
    action: AuthorAction,
    decided_at: float,
    now: float,
    decision_id: int | None = None,
    item_id: str | None = None,
    post_id: str | None = None,
    queue_id: str | None = None,
    config_version: int = 0,
    policies: Sequence[str] = (),
    reverses_action_id: int | None = None,
    note: str | None = None,
    known_policies: Sequence[PolicyConfig] = (),
) -> int:
    """Insert the one ``author:<action>`` action of an account decision (in the caller's
    transaction); its id. ``author_id`` is the service's author id; the platform and its id
    of the author come from the ``authors`` row. ``decision_id``: the decision of record
    it comes from, if there is one (one action per decision: a decision that already has
    an action, a verdict's say, is refused by the database). ``item_id``/``post_id``: the
    post the decision was made on, when there is one. Its statement of reasons cites
    ``policies`` as ``known_policies`` (every queue's) describe them; the note of a decision
    outside any queue stays internal."""
    found = _external_ids(conn, [post_id], [author_id])
    ids = _ids_of(post_id, author_id, found)
    details: dict[str, Any] = {"policies": list(policies)} if policies else {}
    draft = draft_statement(
        None,
        ActionKind.author,
        policies=policies,
        note=note,
        author_action=action,
        known_policies=known_policies,
    )
    assert draft is not None  # every account action restricts
    [stored] = statements.record(
        conn,
        [
            statements.Draft(
                statement=draft,
                created_at=decided_at,
                decision_id=decision_id,
                item_id=item_id,
                post_id=post_id,
                author_id=author_id,
                source=ids.source,
                queue_id=queue_id,
                content_date=None,
            )
        ],
    )
    details["statement"] = stored.model_dump(mode="json")
    action_id = conn.execute(
        _INSERT.returning(_A.id),
        {
            "created_at": now,
            "kind": AUTHOR_KINDS[action].value,
            "source": ids.source,
            "post_id": post_id,
            "post_external_id": ids.post_external_id,
            "author_id": author_id,
            "author_external_id": ids.author_external_id,
            "item_id": item_id,
            "decision_id": decision_id,
            "queue_id": queue_id,
            "config_version": config_version,
            "decided_at": decided_at,
            "reverses_action_id": reverses_action_id,
            "payload": dumps(details),
        },
    ).scalar_one()
    mark_appended(conn)
    return int(action_id)


def action_of_decision(conn: Connection, decision_id: int) -> int | None:
    """The id of the action a decision made (None: none, an escalation say)."""
    found = conn.execute(select(_A.id).where(_A.decision_id == decision_id)).scalar()
    return int(found) if found is not None else None


# -- sealing ------------------------------------------------------------------------------------


class EnforcementLog(SequencedLog):
    """The actions as the sequencer seals them: seq and the time it was sealed, no chain."""

    name = LOG_NAME
    lock_key = LOCK_KEY
    table = enforcement_actions
    time_column = "created_at"

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock

    def head(self, conn: Connection) -> Head:
        last = conn.execute(select(func.max(_A.seq))).scalar()
        return Head(int(last or 0), None, self.clock())  # state: this round's sealing time

    def seal(self, row: RowMapping, seq: int, state: Any) -> tuple[dict[str, Any], Any]:
        return {"sealed_at": state}, state

    def store(self, conn: Connection, before: Head, after: Head, now: float, force: bool) -> None:
        if after.seq != before.seq:
            conn.info[_SEALED] = True  # readers are woken once this round commits


def sealed_head(conn: Connection) -> int:
    """The largest seq sealed so far (0: none)."""
    return int(conn.execute(select(func.max(_A.seq))).scalar() or 0)


# -- the feed -----------------------------------------------------------------------------------


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


@dataclass
class FeedWatch:
    """Long-polling readers of one process wait here for the sealed head to pass the one
    they saw. One task refreshes the head while anyone waits: every ``poll`` seconds
    (actions another process sealed) and at once when ``poke`` says this process sealed
    some. Readers hold no thread while they wait."""

    read_head: Callable[[], int]  # blocking: run on a worker thread
    poll: float = POLL_SECONDS
    head: int = 0
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

    async def wait_beyond(self, seen: int, timeout: float) -> bool:
        """Wait until the sealed head is past ``seen`` (True) or ``timeout`` runs out."""
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
            while self.head <= seen:
                remaining = deadline - loop.time()
                if remaining <= 0:
                    return False
                changed = self._changed
                assert changed is not None
                try:
                    await asyncio.wait_for(changed.wait(), remaining)
                except TimeoutError:
                    return self.head > seen
            return True
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
        with self.db.read() as conn:
            return page(conn, source, after, limit)


def _listen(engine: Engine, poke: Callable[[], None]) -> None:
    """Poke when a connection whose transaction sealed actions goes back to the pool (after
    its commit); a rolled-back round sealed nothing."""

    def checked_in(_dbapi_connection: Any, record: Any) -> None:
        if record is not None and record.info.pop(_SEALED, False):
            poke()

    def rolled_back(conn: Connection) -> None:
        if not conn.invalidated:  # a lost connection's info went with it
            conn.info.pop(_SEALED, None)

    event.listen(engine, "checkin", checked_in)
    event.listen(engine, "rollback", rolled_back)
