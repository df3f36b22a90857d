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

**The feed** (reading the sealed actions, long polls): enforcement_feed.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select
from sqlalchemy.engine import RowMapping

from reviewer_app.protocol import (
    UPHELD,
    ActionKind,
    AuthorAction,
    PolicyConfig,
    QueueConfig,
    Statement,
    draft_statement,
    lift,
    restate,
)
from reviewer_app.protocol.enforcement import (
    AUTHOR_KINDS,
    EnforcementKind,
)
from reviewer_app.server.domain import statements
from reviewer_app.server.domain.records import dumps
from reviewer_app.server.storage.bulk import InsertMany
from reviewer_app.server.storage.sequencer import Head, SequencedLog, mark_appended
from reviewer_app.server.storage.tables import authors, enforcement_actions, posts

LOG_NAME = "enforcement"
# PostgreSQL advisory lock of the actions' sealer (the event log's is 7_304_212).
LOCK_KEY = 7_304_213
# How often a process with long-polling readers looks for actions another process sealed.
POLL_SECONDS = 0.1
# set on a connection whose transaction sealed actions (the feed wakes its readers)
SEALED = "reviewer_app.enforcement.sealed"

# A reversal of an action that acted on the account (an ``author:*`` kind, or a post action
# with ``author_action``) says in its payload whether the platform undoes that account part:
# true when the service put the author's status back, false when the status stays (it
# changed since, or another standing decision of record imposes it): then undo the post
# part only.
UNDO_AUTHOR_ACTION = "undo_author_action"
_AUTHOR_KIND_VALUES = frozenset(k.value for k in AUTHOR_KINDS.values())
# Kinds that change nothing on the platform: overturning one of them restores nothing.
_NOTHING_DONE = frozenset({EnforcementKind.keep.value, EnforcementKind.withdrawn.value})
# Kinds that restrict nothing, so carry no statement of reasons.
_NO_STATEMENT = frozenset(
    {EnforcementKind.keep, EnforcementKind.restore, EnforcementKind.withdrawn}
)

_INSERT = insert(enforcement_actions)
_A = enforcement_actions.c
# derive's: one statement per batch (bulk.py)
_INSERT_MANY = InsertMany(
    enforcement_actions,
    (
        "created_at",
        "kind",
        "source",
        "post_id",
        "post_external_id",
        "author_id",
        "author_external_id",
        "item_id",
        "decision_id",
        "queue_id",
        "config_version",
        "decided_at",
        "reverses_action_id",
        "payload",
    ),
    ignore_conflicts=False,
)


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


def _label(decided: Decided, document: Mapping[str, Any]) -> dict[str, Any] | None:
    """The label a label action shows: its rating, that rating's name on the queue's scale,
    and the fact-check that gave the rating (the first on the item, ``document``; none when
    the reviewer overrode the fact-checkers with a note)."""
    if decided.kind not in (ActionKind.label, ActionKind.label_and_reduce) or not decided.rating:
        return None
    rating = decided.rating
    names = decided.config.rating_labels()
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
    earlier = _earlier_actions(conn, {d.overturns for d, _ in made if d.overturns is not None})
    # an appeal's outcome restates the contested decision's statement: an upheld one says
    # the restriction stands, a reversed one (a restore) that it is lifted
    drafter = _Drafter(statements.by_decision(conn, {d.contests for d, _k in made if d.contests}))
    rows: list[dict[str, Any]] = []
    drafts: list[statements.Draft] = []
    owners: list[int] = []  # the row each draft belongs to
    for d, made_kind in made:
        reverses = earlier.get(d.overturns) if d.overturns is not None else None
        kind = made_kind
        if (
            reverses is not None
            and kind is EnforcementKind.keep
            and reverses[1] not in _NOTHING_DONE
        ):
            kind = EnforcementKind.restore
        document = statements.document_of(d.item_payload)  # parsed once for all that read it
        ids = _ids_of(d.post_id, d.author_id, found)
        # whether a reversal puts the account back (None: the reversed action did nothing
        # to it); a reversed appeal's statement says so too
        undo, left = (
            _undoes_account_part(conn, d) if reverses is not None and reverses[2] else (None, None)
        )
        kept = "" if undo is False else (left if left not in (None, "active") else None)
        draft = drafter.draft(d, kind, document, ids, account_stays=kept)
        if draft is not None:
            owners.append(len(rows))
            drafts.append(draft)
        details = _details(d, kind, document)
        if undo is not None:
            details[UNDO_AUTHOR_ACTION] = undo
        rows.append(_action_row(d, kind, ids, reverses, now, details))
    for index, stored in zip(owners, statements.record_documents(conn, drafts), strict=True):
        rows[index]["details"]["statement"] = stored
    for row in rows:
        row["payload"] = dumps(row.pop("details"))
    _INSERT_MANY(conn, rows, conn.dialect.name == "postgresql")
    mark_appended(conn)


def _earlier_actions(conn: Connection, overturned: set[int]) -> dict[int, tuple[int, str, bool]]:
    """The actions of the decisions overturned: decision id -> (action id, kind, whether
    it acted on the account: an ``author:*`` kind or a post action's ``author_action``)."""
    if not overturned:
        return {}
    return {
        r.decision_id: (
            r.id,
            r.kind,
            r.kind in _AUTHOR_KIND_VALUES
            or bool(json.loads(r.payload or "{}").get("author_action")),
        )
        for r in conn.execute(
            select(_A.decision_id, _A.id, _A.kind, _A.payload).where(
                _A.decision_id.in_(sorted(overturned))
            )
        )
    }


def _undoes_account_part(conn: Connection, d: Decided) -> tuple[bool, str | None]:
    """Whether the reversal ``d`` makes puts the author's account back, as the service does
    (accounts.reinstatement: not when the status changed since or another standing decision
    of record still imposes it), and the status it leaves the account with (None when it
    does not put it back). Asked before the overturn reverses the account (audit overturns)
    or after it did (reversed appeals): either way the same answer."""
    from reviewer_app.server.domain import accounts  # accounts imports this module

    if accounts.reinstated_by(conn, d.decision_id):
        now = conn.execute(select(authors.c.status).where(authors.c.id == d.author_id))
        return True, now.scalar()
    assert d.overturns is not None
    postgres = conn.dialect.name == "postgresql"
    back = accounts.reinstatement(conn, d.overturns, postgres=postgres)
    return (False, None) if back is None else (True, back.status.value)


def _details(d: Decided, kind: EnforcementKind, document: Mapping[str, Any]) -> dict[str, Any]:
    """What an action's payload says besides its statement."""
    details: dict[str, Any] = {}
    if d.policies:
        details["policies"] = list(d.policies)
    label = _label(d, document)
    if label is not None:
        details["label"] = label
    if d.author_action is not None and not kind.value.startswith("author:"):
        details["author_action"] = d.author_action.value
    if d.appeal_id is not None:
        details["appeal_id"] = d.appeal_id
    return details


def _action_row(
    d: Decided,
    kind: EnforcementKind,
    ids: _Ids,
    reverses: tuple[int, str, bool] | None,
    now: float,
    details: dict[str, Any],
) -> dict[str, Any]:
    return {
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


class _Drafter:
    """The statements of one ``derive``: a decision's words depend only on its queue's
    config, its kind, policies, note, author action and the detection flag, so decisions
    that share them (a bulk decision's) share one drafted statement."""

    def __init__(self, contested: Mapping[int, statements.Stored]) -> None:
        self.contested = contested
        self._drafted: dict[tuple[Any, ...], Statement | None] = {}

    def draft(
        self,
        d: Decided,
        kind: EnforcementKind,
        document: Mapping[str, Any],
        ids: _Ids,
        *,
        account_stays: str | None = None,
    ) -> statements.Draft | None:
        """The statement the action of ``d`` gives (None: it restricts nothing);
        ``account_stays``: a reversal that leaves the account restricted (``lift``)."""
        standing = self.contested.get(d.contests) if d.contests is not None else None
        shared = d.note if d.config.notes_shareable else None
        if kind is EnforcementKind.appeal_upheld and standing is not None:
            restated = restate(standing.statement, UPHELD, shared)
            return standing.draft(restated, d.decision_id, d.decided_at)
        if kind is EnforcementKind.restore and standing is not None:
            lifted = lift(standing.statement, shared, account_stays=account_stays)
            return standing.draft(lifted, d.decision_id, d.decided_at)
        if kind in _NO_STATEMENT:
            return None
        statement = self._words(d, statements.automated_detection(document))
        if statement is None:
            return None
        return statements.Draft(
            statement=statement,
            created_at=d.decided_at,
            decision_id=d.decision_id,
            item_id=d.item_id,
            post_id=d.post_id,
            author_id=d.author_id,
            source=ids.source,
            queue_id=d.queue_id,
            content_date=statements.content_date(document),
            context=statements.context_of(document),
        )

    def _words(self, d: Decided, automated: bool) -> Statement | None:
        # the config by identity: the Decided hold it, so its id is not reused meanwhile
        key = (id(d.config), d.kind, tuple(d.policies), d.note, d.author_action, automated)
        if key not in self._drafted:
            self._drafted[key] = draft_statement(
                d.config,
                d.kind,
                policies=d.policies,
                note=d.note,
                author_action=d.author_action,
                automated_detection=automated,
            )
        return self._drafted[key]


@dataclass(frozen=True)
class Withdrawn:
    """An open item a withdrawal closed."""

    item_id: str
    post_id: str
    author_id: str
    queue_id: str
    reason: str  # protocol WithdrawalReason
    appeal_id: str | None = None  # the platform's id of the waiting appeal it ended


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
                "payload": dumps(
                    {"reason": w.reason}
                    if w.appeal_id is None
                    else {"reason": w.reason, "appeal_id": w.appeal_id}
                ),
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
            conn.info[SEALED] = True  # readers are woken once this round commits


def sealed_head(conn: Connection) -> int:
    """The largest seq sealed so far (0: none)."""
    return int(conn.execute(select(func.max(_A.seq))).scalar() or 0)
