"""The event log is append-only, sealed into one hash chain, and checkpointed.

**Writing** (``append``): a request inserts its entries in its own transaction, and that is
all: no hash, no place in the chain, no shared row touched (``seq``, ``prev_hash``,
``hash`` and ``logged_at`` stay NULL). Until the migration to 0009 every logged write locked
the chain's head row, so on PostgreSQL every claim and verdict of every process queued
behind that one row.

**Sealing** (``EventChain``, run by sequencer.py): one sealer at a time takes the committed,
unsealed entries in id order, gives them the next ``seq`` numbers and chains them: each
entry's ``prev_hash`` is the hash of the entry before it in seq order (64 zeros for the
first), and its ``hash`` is sha256 over a canonical serialisation of the entry (id, time,
kind, actor, item, queue, data) and ``prev_hash``. The head (last seq, id, hash and time)
lives in the one-row ``event_chain``, which only the sealer writes. An entry whose
transaction commits late is sealed in a later round, after the entries sealed before it:
never lost, never placed before something already sealed. The database refuses every
change of an entry except that one sealing update (see migration 0009's triggers).

**Times**: ``at`` is when the request wrote the entry (its clock, read before its commit,
so entries of concurrent requests can commit, and be sealed, out of ``at`` order). The log's
time of an entry, ``logged_at``, is ``at`` raised to the previous entry's ``logged_at`` when
that is later: ``logged_at = max(at, previous logged_at)``. So the times shown
(``Event.at`` is ``logged_at`` for a sealed entry) never go backwards in log order, each is
as close to the request's own time as that allows (raised by the few milliseconds a
transaction can take, not by the sealing lag), and ``verify`` recomputes every one of them
from the hashed ``at`` values, so they are as tamper-evident as the hashes.

**Checkpoints**: the sealer publishes (size = last seq, head hash, time) into
``log_checkpoints`` every ``CHECKPOINT_SECONDS`` while the log grows, signed with Ed25519
when the service has a key (checkpoints.py).

**Verifying** (``verify``): walk the sealed entries in seq order from genesis; name the
first entry whose link, hash, place or time does not hold; check the head; check every
checkpoint against the chain (and, given a public key, its signature).

The serialisation must never change: ``verify`` recomputes every hash with it, and
migration 0002 used it to chain the entries written before the chain existed (those have
``seq = id``, migration 0009).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from sqlalchemy import Connection, Float, Table, func, insert, select, type_coerce, update
from sqlalchemy.engine import RowMapping
from sqlalchemy.types import NullType

from reviewer_app.server.config import ENV_PREFIX
from reviewer_app.server.storage.bulk import InsertMany
from reviewer_app.server.storage.checkpoints import Checkpoint, Signer, key_id, signature_holds
from reviewer_app.server.storage.sequencer import Head, SequencedLog, mark_appended
from reviewer_app.server.storage.tables import event_chain, events, log_checkpoints

log = logging.getLogger(__name__)

GENESIS = "0" * 64
HEAD_ID = 1
VERIFY_CHUNK = 5_000
LOG_NAME = "events"
# PostgreSQL advisory lock of the event log's sealer (migrations use 7_304_211).
LOCK_KEY = 7_304_212
# A checkpoint at least this often while the log grows.
CHECKPOINT_SECONDS = 2.0


def entry_hash(entry: Mapping[Any, Any], prev_hash: str) -> str:
    """The hash of one entry (id, time, kind, actor, item, queue, data) after ``prev_hash``."""
    canonical = json.dumps(
        [
            int(entry["id"]),
            float(entry["at"]),
            entry["kind"],
            entry["actor"],
            entry["item_id"],
            entry["queue_id"],
            entry["data"],
            prev_hash,
        ],
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# one statement per append on PostgreSQL too (bulk.py), not one per entry
_INSERT = InsertMany(
    events, ("at", "kind", "actor", "item_id", "queue_id", "data"), ignore_conflicts=False
)


def append(conn: Connection, rows: list[dict[str, Any]]) -> None:
    """Append entries (dicts of at, kind, actor, item_id, queue_id, data): inserted only;
    the sequencer seals them once this transaction has committed."""
    if not rows:
        return
    _INSERT(conn, rows, conn.dialect.name == "postgresql")
    mark_appended(conn, LOG_NAME)


# -- sealing ------------------------------------------------------------------------------

_HEAD = select(
    event_chain.c.last_seq, event_chain.c.last_id, event_chain.c.last_hash, event_chain.c.last_at
).where(event_chain.c.id == HEAD_ID)
_MOVE_HEAD = update(event_chain).where(event_chain.c.id == HEAD_ID)
_LAST_CHECKPOINT = (
    select(log_checkpoints.c.size, log_checkpoints.c.at, log_checkpoints.c.key_id)
    .where(log_checkpoints.c.log == LOG_NAME)
    .order_by(log_checkpoints.c.size.desc())
    .limit(1)
)


class EventChain(SequencedLog):
    """The event log as the sequencer seals it."""

    name = LOG_NAME
    lock_key = LOCK_KEY
    table = events

    def __init__(
        self, signer: Signer | None = None, checkpoint_seconds: float = CHECKPOINT_SECONDS
    ) -> None:
        self.signer = signer
        self.checkpoint_seconds = checkpoint_seconds
        # No checkpoint can be due before this (this process's view): spares the sequencer's
        # idle ticks two queries each.
        self._not_due_before = -float("inf")

    def head(self, conn: Connection) -> Head:
        row = conn.execute(_HEAD).first()
        if row is None:  # a database made before the chain's migration seeded the head
            raise RuntimeError("the event log has no chain head; run the migrations")
        return Head(int(row.last_seq), int(row.last_id), (str(row.last_hash), float(row.last_at)))

    def seal(self, row: RowMapping, seq: int, state: Any) -> tuple[dict[str, Any], Any]:
        prev_hash, prev_at = state
        digest = entry_hash(row, prev_hash)
        logged_at = max(float(row["at"]), prev_at)
        return {"prev_hash": prev_hash, "hash": digest, "logged_at": logged_at}, (
            digest,
            logged_at,
        )

    def store(self, conn: Connection, before: Head, after: Head, now: float, force: bool) -> None:
        last_hash, last_at = after.state
        if after.seq != before.seq:
            conn.execute(
                _MOVE_HEAD,
                {
                    "last_seq": after.seq,
                    "last_id": after.id,
                    "last_hash": last_hash,
                    "last_at": last_at,
                },
            )
        if after.seq == 0 or (not force and now < self._not_due_before):
            return
        last = conn.execute(_LAST_CHECKPOINT).first()
        if last is not None and last.size >= after.seq:
            return
        if last is not None and not force and now - last.at < self.checkpoint_seconds:
            self._not_due_before = last.at + self.checkpoint_seconds  # another process's
            return
        if last is not None and last.key_id and self.signer is None:
            # an unsigned checkpoint after signed ones reads as a signature removed, for
            # good (checkpoints are append-only): none until the service has its key again
            # (``serve`` refuses to start without it; this is a process started otherwise)
            log.error(
                "event log checkpoint not published: the last was signed (key id %s) and "
                "this process has no signing key (%sLOG_SIGNING_KEY)",
                last.key_id,
                ENV_PREFIX,
            )
            self._not_due_before = now + self.checkpoint_seconds
            return
        # never earlier than the entries it covers or the checkpoint before it
        at = max(now, last_at, float(last.at) if last is not None else 0.0)
        checkpoint = (
            self.signer.sign(after.seq, last_hash, at)
            if self.signer is not None
            else Checkpoint(after.seq, last_hash, at)
        )
        conn.execute(
            insert(log_checkpoints).values(
                log=LOG_NAME,
                size=checkpoint.size,
                head_hash=checkpoint.head_hash,
                at=checkpoint.at,
                key_id=checkpoint.key_id,
                signature=checkpoint.signature,
            )
        )
        self._not_due_before = now + self.checkpoint_seconds

    def due(self, conn: Connection, now: float) -> bool:
        """A checkpoint is due: the log grew since the last one, which is old enough."""
        if now < self._not_due_before:
            return False
        head = conn.execute(select(event_chain.c.last_seq).where(event_chain.c.id == HEAD_ID))
        size = head.scalar()
        last = conn.execute(_LAST_CHECKPOINT).first()
        if not size or (last is not None and last.size >= size):
            self._not_due_before = now + self.checkpoint_seconds  # look again later
            return False
        if last is not None and now - last.at < self.checkpoint_seconds:
            self._not_due_before = last.at + self.checkpoint_seconds
            return False
        return True


def latest_checkpoint(conn: Connection) -> Checkpoint | None:
    row = (
        conn.execute(
            select(log_checkpoints)
            .where(log_checkpoints.c.log == LOG_NAME)
            .order_by(log_checkpoints.c.size.desc())
            .limit(1)
        )
        .mappings()
        .first()
    )
    return _checkpoint(row) if row is not None else None


class MalformedCheckpoint(ValueError):
    """A checkpoint row whose size or time is not a number (edited in the database)."""


def _checkpoint(row: Mapping[Any, Any]) -> Checkpoint:
    try:
        size, at = int(row["size"]), float(row["at"])
    except (TypeError, ValueError):
        raise MalformedCheckpoint(
            f"a checkpoint's size {row['size']!r} or time {row['at']!r} is not a number (edited?)"
        ) from None
    return Checkpoint(size, row["head_hash"], at, row["key_id"], row["signature"])


# -- verifying ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Verification:
    """What ``verify`` found: the log is intact, or the first thing that does not hold.

    ``seq`` is the place in the log of the entry (or checkpoint size) named, ``entry_id``
    that entry's row id (equal for entries sealed before migration 0009).
    """

    checked: int
    intact: bool
    seq: int | None = None
    problem: str | None = None
    detail: str | None = None
    entry_id: int | None = None
    checkpoints: int = 0
    signatures: int = 0
    unsealed: int = 0

    def describe(self) -> str:
        if self.intact:
            text = f"The event log is intact: {self.checked} entries, every link holds"
            if self.checkpoints:
                text += f"; {self.checkpoints} checkpoints hold"
            if self.signatures:
                text += f" ({self.signatures} signatures verified)"
            text += "."
            if self.unsealed:
                text += f" {self.unsealed} newer entries are not sealed yet."
            return text
        if self.seq is None:  # not an entry's problem: the log as a whole
            return (
                f"The event log does not verify ({self.problem}): {self.detail} "
                f"({self.checked} entries hold)."
            )
        row = (
            f" [row id {self.entry_id}]"
            if self.entry_id is not None and self.entry_id != self.seq
            else ""
        )
        return (
            f"The event log is broken at entry {self.seq} ({self.problem}): {self.detail}{row} "
            f"({self.checked} entries before it hold)."
        )


class _Checkpoints:
    """The published checkpoints in size order, read a chunk at a time, checked as the
    walk reaches their size."""

    def __init__(self, conn: Connection, public_keys: Sequence[Ed25519PublicKey]) -> None:
        self.conn = conn
        self.keys = {key_id(k): k for k in public_keys}
        self.wanted_key = " or ".join(self.keys) or None
        self.rows = self._read(0)
        self.held = 0
        self.signed = 0
        self.last_at = -float("inf")
        self.last_size = 0
        self.key_seen = False

    def _read(self, after: int) -> Iterator[Checkpoint]:
        while True:
            chunk = (
                self.conn.execute(
                    select(*_as_stored(log_checkpoints))
                    .where(log_checkpoints.c.log == LOG_NAME, log_checkpoints.c.size > after)
                    .order_by(log_checkpoints.c.size)
                    .limit(VERIFY_CHUNK)
                )
                .mappings()
                .all()
            )
            if not chunk:
                return
            for row in chunk:
                yield _checkpoint(row)
            after = _checkpoint(chunk[-1]).size

    def next(self) -> Checkpoint | None:
        return next(self.rows, None)

    def check(self, cp: Checkpoint, entry: Mapping[Any, Any] | None) -> tuple[str, str] | None:
        """The problem with checkpoint ``cp`` against the log's entry of seq ``cp.size``."""
        if entry is None:
            return (
                "checkpoint_beyond_log",
                f"checkpoint {cp.size} (published {_when(cp.at)}) covers entries the log "
                "no longer has (entries at the end were deleted, or the checkpoint is forged)",
            )
        if entry["hash"] != cp.head_hash:
            return (
                "checkpoint_mismatch",
                f"checkpoint {cp.size} (published {_when(cp.at)}) names head hash "
                f"{cp.head_hash[:16]}..., the log's entry {cp.size} hashes to "
                f"{str(entry['hash'])[:16]}...: entries up to {cp.size} were changed after "
                "it was published (or the checkpoint was edited)",
            )
        if cp.at < (_number(entry["logged_at"]) or float("inf")):
            return (
                "checkpoint_time",
                f"checkpoint {cp.size} is dated {_when(cp.at)}, before the entries it covers",
            )
        if cp.at < self.last_at:
            return (
                "checkpoint_time",
                f"checkpoint {cp.size} is dated {_when(cp.at)}, before the checkpoint before "
                f"it ({self.last_size}, dated {_when(self.last_at)}): one of the two dates "
                "was changed",
            )
        self.last_at, self.last_size = cp.at, cp.size
        if self.keys:
            key = self.keys.get(cp.key_id or "")
            if key is not None:
                self.key_seen = True
                if not signature_holds(cp, key):
                    return (
                        "bad_signature",
                        f"checkpoint {cp.size}'s signature does not verify with the given "
                        f"public key (key id {cp.key_id})",
                    )
                self.signed += 1
            elif self.key_seen:
                signed_by = f"by key {cp.key_id}" if cp.key_id else "unsigned"
                return (
                    "unsigned_checkpoint",
                    f"checkpoint {cp.size} is {signed_by}, after checkpoints signed by the "
                    f"given key {self.wanted_key} (a signature removed or replaced? after a "
                    "rotation of the service's key, give every public key it signed with)",
                )
        self.held += 1
        return None


def last_key_id(conn: Connection) -> str | None:
    """The key id of the newest checkpoint's signature (None: unsigned, or none yet)."""
    last = conn.execute(_LAST_CHECKPOINT).first()
    return str(last.key_id) if last is not None and last.key_id else None


def _when(epoch: float) -> str:
    return datetime.fromtimestamp(epoch, tz=UTC).isoformat().replace("+00:00", "Z")


def _entries(conn: Connection) -> Iterator[RowMapping]:
    """Every sealed entry in seq order, read in chunks (never the whole log at once)."""
    after = None
    while True:
        query = select(*_as_stored(events)).where(events.c.seq.is_not(None))
        if after is not None:
            query = query.where(events.c.seq > after)
        chunk = conn.execute(query.order_by(events.c.seq).limit(VERIFY_CHUNK)).mappings().all()
        if not chunk:
            return
        yield from chunk
        after = chunk[-1]["seq"]


def _entry_problem(
    row: Any, seq: int, prev_hash: str, prev_seq: int, logged_at: float
) -> tuple[str, str] | None:
    """What does not hold about one entry after the one before (problem, detail), if any."""
    if row["prev_hash"] != prev_hash:
        where = f"entry {prev_seq}" if prev_seq else "the start of the log"
        if seq > prev_seq + 1:
            gone = (
                f"entry {prev_seq + 1} is"
                if seq == prev_seq + 2
                else f"entries {prev_seq + 1}..{seq - 1} are"
            )
            return (
                "missing_entries",
                f"{gone} missing (deleted?): the prev_hash of entry {seq} does not match {where}",
            )
        if prev_seq:  # which of the two changed, the chain cannot tell
            return (
                "broken_link",
                f"entry {seq}'s prev_hash does not match this entry's hash: this entry was "
                f"edited (and its hash made again), or entry {seq} was (its link edited, or it "
                "was moved or reordered), or an entry was deleted",
            )
        return (
            "broken_link",
            f"its prev_hash does not match {where} (an entry was deleted, moved or reordered)",
        )
    if seq != prev_seq + 1:
        return (
            "renumbered",
            f"it follows entry {prev_seq} in the chain but is numbered {seq}",
        )
    if row["hash"] != entry_hash(row, prev_hash):
        return (
            "hash_mismatch",
            "its content does not match its hash (edited, or moved from another id)",
        )
    if _number(row["logged_at"]) != logged_at:
        return (
            "time_mismatch",
            f"its log time is {row['logged_at']}, the log's times make it {logged_at} "
            "(the later of its own time and the entry before's)",
        )
    return None


def _as_stored(table: Table) -> list[Any]:
    """The table's columns as the database holds them: a time edited into text is read as
    that text (and reported), not converted on the way (a traceback)."""
    return [
        type_coerce(c, NullType()).label(c.name) if isinstance(c.type, Float) else c
        for c in table.c
    ]


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def verify(
    conn: Connection, public_key: Ed25519PublicKey | Sequence[Ed25519PublicKey] | None = None
) -> Verification:
    """Walk the chain from the first entry in seq order and then the published checkpoints;
    stop at the first thing that does not hold. With ``public_key`` (one, or every key the
    service signed with: its key rotated), checkpoints signed by one of them must verify,
    and once one is, every later one must be signed by one of them too. ``conn`` should
    see one snapshot (``Database.snapshot``): on PostgreSQL a commit between the walk and
    the head's read would look like entries deleted."""
    keys = [public_key] if isinstance(public_key, Ed25519PublicKey) else list(public_key or [])
    prev_hash, prev_seq, prev_at, checked = GENESIS, 0, -float("inf"), 0
    cps = _Checkpoints(conn, keys)

    def broken(seq: int | None, entry_id: int | None, problem: str, detail: str) -> Verification:
        return Verification(checked, False, seq, problem, detail, entry_id, cps.held, cps.signed)

    try:
        pending = cps.next()
        for row in _entries(conn):
            number, at = _number(row["seq"]), _number(row["at"])
            if number is None or at is None or number != int(number):
                return broken(
                    prev_seq + 1,
                    int(row["id"]),
                    "malformed_entry",
                    f"the entry after {f'entry {prev_seq}' if prev_seq else 'the start'} has "
                    f"seq {row['seq']!r} and time {row['at']!r}, not numbers (edited?)",
                )
            seq, entry_id = int(number), int(row["id"])
            logged_at = max(at, prev_at)
            problem = _entry_problem(row, seq, prev_hash, prev_seq, logged_at)
            if problem is not None and problem[0] == "broken_link" and prev_seq:
                checked -= 1  # the entry before may be the one edited
                return broken(prev_seq, None, *problem)
            if problem is not None:
                return broken(seq, entry_id, *problem)
            while pending is not None and pending.size <= seq:
                problem = cps.check(pending, row if pending.size == seq else None)
                if problem is not None:
                    return broken(pending.size, entry_id, *problem)
                pending = cps.next()
            prev_hash, prev_seq, prev_at = row["hash"], seq, logged_at
            checked += 1
    except MalformedCheckpoint as exc:
        return broken(None, None, "malformed_checkpoint", str(exc))
    head = conn.execute(_HEAD).first()
    if head is None:
        return broken(None, None, "no_head", "the chain head row is missing")
    if (int(head.last_seq), head.last_hash) != (prev_seq, prev_hash):
        return broken(
            int(head.last_seq),
            int(head.last_id),
            "head_mismatch",
            f"the chain head names entry {head.last_seq} but the log ends at entry {prev_seq} "
            "(entries at the end were deleted, or the head was changed)",
        )
    if pending is not None:
        problem = cps.check(pending, None)
        assert problem is not None
        return broken(pending.size, None, *problem)
    if keys and not cps.signed:
        return broken(
            None,
            None,
            "no_signed_checkpoint",
            (
                f"no checkpoint signed by the given key (key id {cps.wanted_key}) exists yet: "
                f"the {cps.held} published are unsigned or signed by another key"
            )
            if cps.held
            else f"no signed checkpoint exists yet (none is published; key id {cps.wanted_key})",
        )
    unsealed = conn.execute(
        select(func.count()).select_from(events).where(events.c.seq.is_(None))
    ).scalar_one()
    return Verification(
        checked, True, checkpoints=cps.held, signatures=cps.signed, unsealed=int(unsealed)
    )
