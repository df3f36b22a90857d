"""What the sync engine leases, as the store keeps it: the queues, the items with their
leases, and their media."""

from __future__ import annotations

import contextlib
import json
import math
import sqlite3
import time
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from reviewer_app.protocol import Item, LeaseGrant, LeaseStatus, Queue
from reviewer_app.protocol.common import MIN_LEASE_SECONDS

from .documents import read_document
from .file import StoreFile
from .records import CLOCK_SLACK, AlreadyDecided, Renewal, StoredItem, WorklistRow
from .schema import PURGED, SERVER_CLOCK

#: parsed items kept by ``_item_of`` (the one on screen, the next, a few opened from the
#: worklist; the worklist's own descriptions are read without parsing: ``item_summaries``)
PARSED_KEPT = 8


class ItemStore(StoreFile):
    """Queues, leased items and media."""

    #: item id -> (its stored document, the item parsed from it): see ``_item_of``
    _parsed: dict[str, tuple[object, Item]]

    # --- the service's clock ---------------------------------------------------------------

    @property
    def server_offset(self) -> float:
        """How far this computer's clock is ahead of the service's (seconds), as the last
        claim that gave items or renewal of a known length showed; kept in the store, so a
        restart (and the GUI thread's connection) knows it. 0.0 before any was measured."""
        return _ServerClock.parse(self._meta(SERVER_CLOCK)).offset

    def service_time(self) -> float:
        """Now on the service's clock, as far as this store knows it: what a window of time
        asked of the service (a lead's figures, "this shift") is measured by."""
        return self.clock() - self.server_offset

    # --- queues ------------------------------------------------------------------------

    def save_queues(self, queues: Sequence[Queue]) -> None:
        now = self.clock()
        with self.transaction() as conn:
            conn.execute("DELETE FROM queues")
            conn.executemany(
                "INSERT INTO queues (id, position, document, fetched_at) VALUES (?, ?, ?, ?)",
                [(q.id, i, q.model_dump_json(), now) for i, q in enumerate(queues)],
            )

    def queues(self) -> list[Queue]:
        rows = self._read("SELECT document FROM queues ORDER BY position")
        return [read_document(Queue, r["document"]) for r in rows]

    def queue(self, queue_id: str) -> Queue | None:
        rows = self._read("SELECT document FROM queues WHERE id = ?", (queue_id,))
        return read_document(Queue, rows[0]["document"]) if rows else None

    # --- items: what the sync engine leases ------------------------------------------

    def add_leased(
        self, grant: LeaseGrant, *, asked: int | None = None, offline: bool = False
    ) -> int:
        """Keep the items of a claim (replacing older copies of the same items). ``asked``:
        the lease length the claim asked for (a grant of less says the service's cap);
        ``offline``: a "work offline" batch's (kept on a quit and when its queue is left)."""
        now = self.clock()
        # serialised before the write lock is taken: the GUI thread's verdicts wait for it
        # (and sealed there too: the cipher is quick, but the lock is shared)
        documents = [
            self._seal_text(f"items.document:{leased.item.id}", leased.item.model_dump_json())
            for leased in grant.items
        ]
        with self.transaction() as conn:
            known = _ServerClock.load(conn)
            skew = known.offset
            if grant.items and grant.lease_seconds > 0:  # renewals' times are placed with it
                ends = [x.lease_expires_at.timestamp() for x in grant.items]
                skew = _clock_offset(now, ends, grant)
            known.granted(grant.lease_seconds, asked)._replace(
                offset=skew, anchor=_wall_anchor(now)
            ).save(conn, known)
            seq = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM items").fetchone()[0]
            rows = [
                (
                    leased.item.id,
                    grant.queue_id,
                    seq + offset,
                    leased.lease_token,
                    now,
                    leased.lease_expires_at.timestamp() + skew,
                    grant.lease_seconds,
                    1 if leased.item.post.media else 0,
                    document,
                    now,
                    int(offline),
                )
                for offset, (leased, document) in enumerate(
                    zip(grant.items, documents, strict=True), start=1
                )
            ]
            # an item we still hold a verdict for keeps its row (and its decided state)
            conn.executemany(
                "INSERT INTO items (id, queue_id, seq, state, lease_token, lease_granted_at, "
                "lease_expires_at, lease_seconds, media_wanted, document, cached_at, offline) "
                "VALUES (?, ?, ?, 'ready', ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET queue_id = excluded.queue_id, "
                "lease_token = excluded.lease_token, lease_lost = 0, "
                "lease_granted_at = excluded.lease_granted_at, "
                "lease_expires_at = excluded.lease_expires_at, "
                "lease_seconds = excluded.lease_seconds, document = excluded.document, "
                "cached_at = excluded.cached_at, offline = excluded.offline, "
                "state = CASE WHEN items.state = 'decided' THEN 'decided' ELSE 'ready' END",
                rows,
            )
        return len(rows)

    def next_item(
        self, queue_id: str, *, include_expired: bool = False, first: str | None = None
    ) -> StoredItem | None:
        """The item to show next: the oldest ready one whose lease still runs (or, offline,
        any ready one: its verdict is still sent and the server decides whether it counts);
        item ``first`` before the others when it is one of them."""
        query = (
            "SELECT * FROM items WHERE queue_id = ? AND state = 'ready' AND lease_lost = 0 "
            "AND lease_expires_at > ? ORDER BY "
        )
        after = -math.inf if include_expired else self.clock()
        if first is None:  # the keypress's path: the order the index gives
            rows = self._read(query + "seq LIMIT 1", (queue_id, after))
        else:
            rows = self._read(query + "id = ? DESC, seq LIMIT 1", (queue_id, after, first))
        return self._stored(rows[0]) if rows else None

    def stored_item(self, item_id: str) -> StoredItem | None:
        """The item as cached here; None when it is not (or its content was purged)."""
        rows = self._read("SELECT * FROM items WHERE id = ?", (item_id,))
        return self._stored(rows[0]) if rows and rows[0]["document"] != PURGED else None

    def item_summaries(self, item_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """Of the items held here among ``item_ids``: each one's author handle and post text
        (what the worklist describes it by), read from its stored document without making
        an ``Item`` of it and without keeping it among the parsed items: describing a
        refill of the worklist used to push out the parsed next post, whose display had
        been prepared for its keypress (``next_after``), so that keypress did it again."""
        found: dict[str, tuple[str, str]] = {}
        wanted = list(dict.fromkeys(item_ids))
        for start in range(0, len(wanted), 500):  # within SQLite's limit of parameters
            chunk = wanted[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            rows = self._read(
                f"SELECT id, document FROM items WHERE id IN ({marks})",  # noqa: S608
                chunk,
            )
            for row in rows:
                if row["document"] == PURGED:
                    continue
                document = json.loads(
                    self._open_text(f"items.document:{row['id']}", row["document"])
                )
                found[row["id"]] = (
                    str(document["author"]["handle"]),
                    str(document["post"]["text"]),
                )
        return found

    def next_after(
        self, queue_id: str, item_id: str, *, include_expired: bool = False
    ) -> StoredItem | None:
        """The item ``next_item`` would give once ``item_id`` is decided (the post to
        prepare while ``item_id`` is on screen). Reading it parses it, so the keypress that
        then asks ``next_item`` for it finds it parsed (``_parsed``)."""
        after = -math.inf if include_expired else self.clock()
        rows = self._read(
            "SELECT * FROM items WHERE queue_id = ? AND state = 'ready' AND lease_lost = 0 "
            "AND lease_expires_at > ? AND id != ? ORDER BY seq LIMIT 1",
            (queue_id, after, item_id),
        )
        return self._stored(rows[0]) if rows else None

    def _item_of(self, item_id: str, stored: object) -> Item:
        """The item of a row's ``stored`` document, parsed (and opened) once: the last few
        are kept by id with the stored value they came from, so a row that changed (a new
        lease of the item, a purge) is parsed afresh. Items are frozen models."""
        parsed = getattr(self, "_parsed", None)
        if parsed is None:
            parsed = self._parsed = {}
        kept = parsed.get(item_id)
        if kept is not None and kept[0] == stored:
            return kept[1]
        item = read_document(Item, self._open_text(f"items.document:{item_id}", stored))
        if len(parsed) >= PARSED_KEPT:  # the oldest goes (the sync thread reads too)
            with contextlib.suppress(KeyError, StopIteration, RuntimeError):
                parsed.pop(next(iter(parsed)))
        parsed[item_id] = (stored, item)
        return item

    def _stored(self, row: sqlite3.Row) -> StoredItem:
        return StoredItem(
            item=self._item_of(row["id"], row["document"]),
            queue_id=row["queue_id"],
            lease_token=row["lease_token"],
            lease_expires_at=row["lease_expires_at"],
            state=row["state"],
            lease_lost=bool(row["lease_lost"]),
        )

    def worklist(self, queue_id: str | None = None) -> list[WorklistRow]:
        """Items held locally, in review order, with the state of their verdict if any."""
        rows = self._read(
            "SELECT i.id, i.queue_id, i.state, i.lease_expires_at, i.lease_lost, "
            "j.status, j.action FROM items i LEFT JOIN journal j ON j.key = ("
            "  SELECT key FROM journal WHERE item_id = i.id AND status != 'undone' "
            "  ORDER BY recorded_at DESC LIMIT 1) "
            "WHERE ? IS NULL OR i.queue_id = ? ORDER BY i.seq",
            (queue_id, queue_id),
        )
        return [WorklistRow(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6]) for r in rows]

    def ready_counts(self, now: float | None = None) -> dict[str, int]:
        now = self.clock() if now is None else now
        rows = self._read(
            "SELECT queue_id, COUNT(*) FROM items WHERE state = 'ready' AND lease_lost = 0 "
            "AND lease_expires_at > ? GROUP BY queue_id",
            (now,),
        )
        return {r[0]: r[1] for r in rows}

    def leases_to_renew(self, now: float, limit: int = 500) -> list[Renewal]:
        """Held leases past a third of their life, with the length each was leased for;
        decided items count until their verdict is delivered. A lease granted after ``now``
        or running out further ahead than its length was set down before this computer's
        clock was set back (NTP correcting a fast clock): renewed now, and the renewal puts
        its times on the clock as it is now (else it waited the hours the clock went back,
        and the lease went to another reviewer)."""
        rows = self._read(
            "SELECT i.id, i.lease_token, i.lease_seconds FROM items i WHERE i.lease_lost = 0 "
            "AND i.state IN ('ready', 'decided') "
            "AND (i.lease_granted_at + (i.lease_expires_at - i.lease_granted_at) / 3.0 <= :now "
            "     OR i.lease_granted_at > :ahead "
            "     OR i.lease_expires_at > :ahead + MAX(i.lease_seconds, :least)) "
            "AND (i.state = 'ready' OR EXISTS (SELECT 1 FROM journal j WHERE j.item_id = i.id "
            "     AND j.status = 'pending')) "
            "ORDER BY i.lease_expires_at LIMIT :limit",
            {"now": now, "ahead": now + CLOCK_SLACK, "least": MIN_LEASE_SECONDS, "limit": limit},
        )
        return [Renewal(r[0], r[1], int(r[2])) for r in rows]

    def lengthen_leases(self, queue_id: str, seconds: int) -> list[Renewal]:
        """Items of ``queue_id`` held here (ready, or decided with the verdict not yet
        delivered) join the offline batch just leased there: kept with it on a quit, and
        those leased for less than ``seconds`` now have that length. Returns those, to
        renew now."""
        held = (
            "FROM items i WHERE i.queue_id = ? AND i.lease_lost = 0 "
            "AND (i.state = 'ready' OR (i.state = 'decided' AND EXISTS (SELECT 1 FROM "
            "     journal j WHERE j.item_id = i.id AND j.status = 'pending')))"
        )
        with self.transaction() as conn:
            rows = conn.execute(
                f"SELECT i.id, i.lease_token, i.lease_seconds < ? {held}",
                (seconds, queue_id),
            ).fetchall()
            conn.executemany(
                "UPDATE items SET lease_seconds = MAX(lease_seconds, ?), offline = 1 WHERE id = ?",
                [(seconds, r[0]) for r in rows],
            )
        return [Renewal(r[0], r[1], seconds) for r in rows if r[2]]

    def next_renewal_at(self) -> float | None:
        """When ``leases_to_renew`` next has a lease to renew (now for one set down before
        the clock went back)."""
        now = self.clock()
        rows = self._read(
            "SELECT MIN(CASE WHEN i.lease_granted_at > :ahead "
            "  OR i.lease_expires_at > :ahead + MAX(i.lease_seconds, :least) THEN :now "
            "ELSE i.lease_granted_at + (i.lease_expires_at - i.lease_granted_at) / 3.0 END) "
            "FROM items i WHERE i.lease_lost = 0 AND i.state IN ('ready', 'decided') "
            "AND (i.state = 'ready' OR EXISTS (SELECT 1 FROM journal j WHERE j.item_id = i.id "
            "     AND j.status = 'pending'))",
            {"now": now, "ahead": now + CLOCK_SLACK, "least": MIN_LEASE_SECONDS},
        )
        return rows[0][0]

    def expiring(self, now: float, within: float) -> list[tuple[str, float]]:
        rows = self._read(
            "SELECT id, lease_expires_at FROM items WHERE state = 'ready' AND lease_lost = 0 "
            "AND lease_expires_at <= ? ORDER BY lease_expires_at",
            (now + within,),
        )
        return [(r[0], r[1]) for r in rows]

    def apply_lease_results(
        self, results: Iterable[LeaseStatus], *, asked: int | None = None
    ) -> list[str]:
        """Record renewals (asked for ``asked`` seconds) with their times on this computer's
        clock: by the offset they show when the length granted is known (the service caps
        it: ``_ServerClock.granted_for``), else by the one kept, and never further ahead
        than ``asked``; items whose lease is lost (or whose post the platform withdrew, or
        that an account action resolved) leave the worklist. Returns their ids."""
        results = list(results)
        now = self.clock()
        ends = [
            r.expires_at.timestamp()
            for r in results
            if r.status == "renewed" and r.expires_at is not None
        ]
        lost: list[str] = []
        with self.transaction() as conn:
            known = _ServerClock.load(conn)
            skew = known.offset
            granted = known.granted_for(asked)
            if ends and granted is not None:  # the latest began about now on its clock
                # only a lower measure is taken: a clock set back reads lower; a renewal the
                # service cut short (its cap lowered since) reads as a clock further ahead,
                # and an offset too high would keep a lease past its end (too low renews
                # early). A higher one is taken when this computer's clock moved forward by
                # as much meanwhile (``stepped``): else every lease looked run out and was
                # renewed at every pass until the next claim.
                measured = now - (max(ends) - granted)
                if measured <= skew or known.stepped(now, measured - skew):
                    skew = measured
                known._replace(offset=skew, anchor=_wall_anchor(now)).save(conn, known)
            latest = math.inf if asked is None else now + asked
            for result in results:
                if result.status == "renewed" and result.expires_at is not None:
                    conn.execute(
                        "UPDATE items SET lease_granted_at = ?, lease_expires_at = ? "
                        "WHERE lease_token = ?",
                        (now, min(result.expires_at.timestamp() + skew, latest), result.token),
                    )
                elif result.status in ("lost", "unknown", "withdrawn", "author_actioned"):
                    row = conn.execute(
                        "SELECT id, state FROM items WHERE lease_token = ?", (result.token,)
                    ).fetchone()
                    if row is None:
                        continue
                    lost.append(row["id"])
                    if row["state"] == "decided":
                        # the verdict is still sent; the server decides whether it counts
                        conn.execute("UPDATE items SET lease_lost = 1 WHERE id = ?", (row["id"],))
                    else:
                        self._forget(conn, [row["id"]])
        return lost

    def skip(self, item_id: str) -> None:
        """Give the item back: it leaves the worklist and the sync engine releases it."""
        with self.transaction() as conn:
            changed = conn.execute(
                "UPDATE items SET state = 'skipped' WHERE id = ? AND state = 'ready'", (item_id,)
            ).rowcount
        if not changed:
            raise AlreadyDecided(f"Item {item_id} is not waiting for a decision here.")

    def to_release(self, limit: int = 500) -> list[tuple[str, str]]:
        rows = self._read(
            "SELECT id, lease_token FROM items WHERE state = 'skipped' LIMIT ?", (limit,)
        )
        return [(r[0], r[1]) for r in rows]

    def mark_opened(self, item_ids: Sequence[str]) -> None:
        """The reviewer opened these items (the sync engine writes it, not the GUI thread)."""
        if not item_ids:
            return
        with self.transaction() as conn:
            conn.executemany(
                "UPDATE items SET opened = 1 WHERE id = ? AND opened = 0",
                [(i,) for i in item_ids],
            )

    def untouched_leases(
        self, keep_queues: Sequence[str], limit: int = 500
    ) -> list[tuple[str, str]]:
        """(item id, lease token) of items leased ahead in queues other than
        ``keep_queues`` that the reviewer never opened nor decided: the prefetch of a queue
        left, to give back. An offline batch's items stay: they were asked for to work
        with no network."""
        rows = self._read(
            "SELECT id, lease_token, queue_id FROM items WHERE state = 'ready' "
            "AND lease_lost = 0 AND opened = 0 AND offline = 0 ORDER BY seq"
        )
        keep = set(keep_queues)
        return [(r[0], r[1]) for r in rows if r[2] not in keep][:limit]

    def leases_outside(self, listed: Sequence[str], limit: int = 500) -> list[tuple[str, str]]:
        """(item id, lease token) of items held here and not decided in queues other than
        ``listed`` (those the service lists): a queue removed on the server (its items
        drained into another) or no longer the reviewer's. Opened or not, leased for an
        offline batch or not, no one can decide them here: to give back, not to renew."""
        rows = self._read(
            "SELECT id, lease_token, queue_id FROM items WHERE state = 'ready' "
            "AND lease_lost = 0 ORDER BY seq"
        )
        keep = set(listed)
        return [(r[0], r[1]) for r in rows if r[2] not in keep][:limit]

    def any_ran_out(self, tokens: Sequence[str]) -> bool:
        """Whether any item of these leases waits here (ready) with its lease run out on
        this computer's clock: renewing it puts it back in the worklist."""
        marks = ", ".join("?" * len(tokens))
        rows = self._read(
            f"SELECT 1 FROM items WHERE lease_token IN ({marks}) AND state = 'ready' "  # noqa: S608
            "AND lease_lost = 0 AND lease_expires_at <= ? LIMIT 1",
            (*tokens, self.clock()),
        )
        return bool(rows)

    def ready_leases(self, *, keep_offline: bool = False) -> list[tuple[str, str]]:
        """(item id, lease token) of every item held here and not decided; with
        ``keep_offline``, an offline batch's items are left out: a clean quit keeps them."""
        rows = self._read(
            "SELECT id, lease_token FROM items WHERE state = 'ready' AND lease_lost = 0 "
            "AND (:keep = 0 OR offline = 0)",
            {"keep": int(keep_offline)},
        )
        return [(r[0], r[1]) for r in rows]

    def forget_items(self, item_ids: Sequence[str]) -> None:
        with self.transaction() as conn:
            self._forget(conn, item_ids)

    # --- media ---------------------------------------------------------------------------

    def media_wanted(self, limit: int = 20) -> list[tuple[str, str]]:
        """(item id, media id) of media not yet fetched, for items still to review."""
        rows = self._read(
            "SELECT id, document FROM items WHERE media_wanted = 1 AND state = 'ready' "
            "ORDER BY seq LIMIT ?",
            (limit,),
        )
        wanted: list[tuple[str, str]] = []
        for row in rows:
            document = self._open_text(f"items.document:{row['id']}", row["document"])
            media_ids = [m["id"] for m in json.loads(document)["post"]["media"]]
            have = {
                r[0] for r in self._read("SELECT id FROM media WHERE item_id = ?", (row["id"],))
            }
            missing = [(row["id"], m) for m in media_ids if m not in have]
            if not missing:
                with self.transaction() as conn:
                    conn.execute("UPDATE items SET media_wanted = 0 WHERE id = ?", (row["id"],))
            wanted += missing
        return wanted

    def save_media(self, item_id: str, media_id: str, content_type: str, data: bytes) -> None:
        """A media file fetched for ``item_id`` (kept once, whichever items show it)."""
        sealed = self._seal_bytes(f"media.data:{media_id}", data)
        with self.transaction() as conn:
            if self._link_media(conn, item_id, media_id):
                conn.execute(
                    "INSERT OR REPLACE INTO media_files (id, content_type, data) VALUES (?, ?, ?)",
                    (media_id, content_type, sealed),
                )

    def link_media(self, item_id: str, media_id: str) -> bool:
        """``item_id`` shows a media file already kept (another item's fetch): no copy is
        made. False when the file is not kept (fetch it)."""
        with self.transaction() as conn:
            if not conn.execute("SELECT 1 FROM media_files WHERE id = ?", (media_id,)).fetchone():
                return False
            self._link_media(conn, item_id, media_id)
            return True

    @staticmethod
    def _link_media(conn: sqlite3.Connection, item_id: str, media_id: str) -> bool:
        """Whether the item is still here (not purged), linked to the file if so."""
        if not conn.execute(
            "SELECT 1 FROM items WHERE id = ? AND document != ?", (item_id, PURGED)
        ).fetchone():
            return False
        conn.execute("INSERT OR IGNORE INTO media (id, item_id) VALUES (?, ?)", (media_id, item_id))
        return True

    def media(self, media_id: str) -> tuple[bytes, str] | None:
        rows = self._read("SELECT data, content_type FROM media_files WHERE id = ?", (media_id,))
        if not rows:
            return None
        return self._open_bytes(f"media.data:{media_id}", rows[0][0]), rows[0][1]


#: seconds: how far a measured offset and a step of the clock may differ (a request's
#: round trip, the time between a lease's grant and its reading here)
STEP_SLACK = 5.0


def _since_boot() -> float:
    """Time that a setting of the clock does not move and that a suspend does (Linux's
    CLOCK_BOOTTIME); elsewhere ``time.monotonic``, which on Linux stops while suspended."""
    return time.clock_gettime(_BOOTTIME) if _BOOTTIME is not None else time.monotonic()


_BOOTTIME: int | None = getattr(time, "CLOCK_BOOTTIME", None)


def _wall_anchor(now: float) -> float:
    """This computer's clock less the time counted since boot (``_since_boot``): it changes
    by as much as the clock is set, not by a suspend (then the clock and the count move
    alike; with ``time.monotonic`` a suspend and a setting of the clock at once read as a
    step that no renewal's offset matched, and the step was never taken)."""
    return now - _since_boot()


def _clock_offset(now: float, expiries: list[float], lease: LeaseGrant) -> float:
    """How far this computer's clock is ahead of the server's, from leases just granted
    for ``lease`` seconds (the latest of them began about now on the server's clock). Its
    lease times are kept on this computer's clock, with which they are compared: a clock
    700 s ahead saw every lease as run out, showed no post and claimed on and on."""
    if not expiries or lease.lease_seconds <= 0:
        return 0.0
    return now - (max(expiries) - lease.lease_seconds)


class _ServerClock(NamedTuple):
    """What the store knows of the service's clock (the ``meta`` row ``SERVER_CLOCK``):
    ``offset``, how far this computer's clock is ahead of it; ``longest``, the longest lease
    the service granted in full; ``cap``, its cap on a lease's length when a claim was
    granted less than it asked (None: not seen)."""

    offset: float = 0.0
    longest: int = 0
    cap: int | None = None
    #: ``_wall_anchor`` when the offset was last measured (None: not kept)
    anchor: float | None = None

    @classmethod
    def load(cls, conn: sqlite3.Connection) -> _ServerClock:
        row = conn.execute("SELECT value FROM meta WHERE name = ?", (SERVER_CLOCK,)).fetchone()
        return cls.parse(None if row is None else row[0])

    @classmethod
    def parse(cls, value: object) -> _ServerClock:
        try:
            kept = json.loads(value) if isinstance(value, str | bytes) else {}
            cap, anchor = kept.get("cap"), kept.get("anchor")
            return cls(
                float(kept.get("offset", 0.0)),
                int(kept.get("longest", 0)),
                None if cap is None else int(cap),
                None if anchor is None else float(anchor),
            )
        except (TypeError, ValueError, AttributeError):  # not ours to trust: measured again
            return cls()

    def stepped(self, now: float, rise: float) -> bool:
        """Whether this computer's clock was set forward by about ``rise`` seconds since
        the offset was measured: its time moved that much further than the time since
        boot (``_since_boot``), which no clock setting moves."""
        if self.anchor is None or rise <= STEP_SLACK:
            return False
        return abs(_wall_anchor(now) - self.anchor - rise) <= STEP_SLACK

    def save(self, conn: sqlite3.Connection, before: _ServerClock) -> None:
        if self._replace(anchor=None) != before._replace(anchor=None) or (
            self.anchor is not None
            and (before.anchor is None or abs(self.anchor - before.anchor) > STEP_SLACK)
        ):
            conn.execute(
                "INSERT INTO meta (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (SERVER_CLOCK, json.dumps(self._asdict())),
            )

    def granted(self, seconds: int, asked: int | None) -> _ServerClock:
        """After a claim granted ``seconds`` of ``asked``: less says the cap; a cap lower
        than a length granted since is forgotten (the service's setting changed)."""
        if seconds <= 0:
            return self
        cap = self.cap
        if asked is not None and seconds < asked:
            cap = seconds
        elif cap is not None and seconds > cap:
            cap = None
        return self._replace(longest=max(self.longest, seconds), cap=cap)

    def granted_for(self, asked: int | None) -> int | None:
        """The length a renewal asking ``asked`` seconds was granted, when it is known: the
        cap's, or all of it when a lease as long was granted in full; None when it may have
        been capped (an offset measured by it would be off by what was cut)."""
        if asked is None or asked <= 0:
            return None
        if self.cap is not None:
            return min(asked, self.cap)
        return asked if asked <= self.longest else None
