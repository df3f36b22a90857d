"""The intake desk: each batch in its write transaction (in parts on SQLite while claims are
served), reporter keys, media uploads."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Mapping, Sequence
from functools import partial

from sqlalchemy import Connection, select

from reviewer_app.protocol import (
    MAX_MEDIA_BYTES,
    FactCheckPage,
    FactCheckRating,
    IntakePost,
    IntakeResult,
    IntakeResults,
    MediaUploaded,
    QueueConfig,
    ReportSignal,
    Signal,
    Withdrawal,
)
from reviewer_app.server.domain.intake.fact_checks import fact_check_page, intake_fact_checks
from reviewer_app.server.domain.intake.items import Context
from reviewer_app.server.domain.intake.posts import intake_posts, post_document
from reviewer_app.server.domain.intake.rows import (
    CLAIMS_WITHIN_SECONDS,
    INSERT_MEDIA,
    INSERT_SECRET,
    REPORTER_SECRET,
    SQLITE_PART,
    R,
    Writer,
    media_id_for,
)
from reviewer_app.server.domain.intake.signals import (
    intake_signals,
    intake_withdrawals,
    prepare_signals,
)
from reviewer_app.server.domain.mediasniff import normalise_declared, sniff
from reviewer_app.server.domain.queueapply import current_version, lock_versions
from reviewer_app.server.domain.queues import running_configs
from reviewer_app.server.domain.records import Principal, append_events
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.tables import media, server_secrets


class IntakeDesk:
    """The intake of one service: each call one write transaction (retried if it lost a
    race on PostgreSQL), the event log appended last."""

    def __init__(
        self,
        db: Database,
        clock: Callable[[], float],
        configs: Callable[[], tuple[int, Mapping[str, QueueConfig]]],
        # ^ a cache of the configuration version and its running queues' configs, in
        # queue order (the order routing tries them)
        write: Writer,
    ) -> None:
        self.db = db
        self.clock = clock
        self.configs = configs
        self.write = write
        self.postgres = not db.is_sqlite
        self._reporter_key: bytes | None = None

    def run(self, caller: Principal, work: Callable[[Context], R]) -> R:
        """``work`` in one write transaction of this desk (appeals.py uses it)."""
        return self._run(caller, work)

    def _run(self, caller: Principal, work: Callable[[Context], R]) -> R:
        cached_version, cached = self.configs()

        def transaction(conn: Connection) -> R:
            # routing by the running configuration, not a cache another process's apply
            # has not reached yet (a post routed into a queue just removed stayed there)
            lock_versions(conn, shared=True)  # an apply waits for this batch, or it for it
            configs = cached
            if current_version(conn)[0] != cached_version:
                configs = running_configs(conn)[1]
            ctx = Context(
                conn=conn,
                actor=caller.username,
                now=self.clock(),
                postgres=self.postgres,
                configs=configs,
                order=list(configs),  # the running queues in their order
            )
            results = work(ctx)
            append_events(conn, ctx.events)  # last: it holds the log's head until commit
            return results

        return self.write(transaction)

    def _parts(self, keys: Sequence[tuple[str, ...]]) -> list[list[int]]:
        """The places of a batch's elements split into the write transactions that apply
        them. One transaction, except on SQLite while claims are served (in the last
        ``CLAIMS_WITHIN_SECONDS``, by this process or another on the file): then parts of
        up to ``SQLITE_PART`` elements, so a
        claim (an urgent writer, db.WriterTurns, served before waiting batches) waits for
        a short part at most, not for a whole batch, for the one writer. (Parts cost
        throughput: each commit writes the pages it shares with the next again.) Elements
        that share any key (a post, a signal's id) go in the same part, in their order;
        parts follow the batch's order of their first elements.

        Still all or nothing where it matters: each element is applied whole in one
        transaction, and a batch is refused as a whole (shape, size, caller) before any
        part is written. A part that fails (the database gone, say) leaves the parts before
        it applied and the call answers an error; the platform sends the batch again, and
        what was applied answers ``unchanged`` (every element is idempotent)."""
        if (
            self.postgres
            or len(keys) <= SQLITE_PART
            or not self.db.urgent_writers_within(CLAIMS_WITHIN_SECONDS)
        ):
            return [list(range(len(keys)))]
        group: dict[tuple[int, str], int] = {}  # (key position, key) -> first element
        parent = list(range(len(keys)))

        def root(i: int) -> int:
            while parent[i] != i:
                parent[i] = parent[parent[i]]
                i = parent[i]
            return i

        for i, element_keys in enumerate(keys):
            for position, key in enumerate(element_keys):
                j = group.setdefault((position, key), i)
                a, b = root(i), root(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
        groups: dict[int, list[int]] = {}
        for i in range(len(keys)):
            groups.setdefault(root(i), []).append(i)
        parts: list[list[int]] = []
        for members in groups.values():  # in order of their first elements
            if parts and len(parts[-1]) + len(members) <= SQLITE_PART:
                parts[-1] += members
            else:
                parts.append(list(members))
        return [sorted(part) for part in parts]

    def posts(self, caller: Principal, batch: Sequence[IntakePost]) -> IntakeResults:
        documents = [post_document(p) for p in batch]
        results: dict[int, IntakeResult] = {}
        for part in self._parts([(p.external_id,) for p in batch]):
            posts = [batch[i] for i in part]
            docs = [documents[i] for i in part]
            done = self._run(caller, partial(intake_posts, batch=posts, documents=docs))
            results.update(zip(part, done, strict=True))
        return IntakeResults(results=[results[i] for i in range(len(batch))])

    def signals(self, caller: Principal, batch: Sequence[Signal]) -> IntakeResults:
        key = None
        if any(isinstance(s, ReportSignal) and s.reporter_id is not None for s in batch):
            key = self.reporter_key()
        prepared = prepare_signals(batch, caller.username, key)
        results: dict[int, IntakeResult] = {}
        for part in self._parts([(s.post_id, s.external_id) for s in prepared]):
            chunk = [prepared[i] for i in part]
            results.update(self._run(caller, partial(intake_signals, prepared=chunk)))
        return IntakeResults(results=[results[i] for i in range(len(batch))])

    def withdrawals(self, caller: Principal, batch: Sequence[Withdrawal]) -> IntakeResults:
        return IntakeResults(results=self._run(caller, lambda ctx: intake_withdrawals(ctx, batch)))

    def fact_checks(self, caller: Principal, batch: Sequence[FactCheckRating]) -> IntakeResults:
        return IntakeResults(
            results=self._run(caller, lambda ctx: intake_fact_checks(ctx, caller, batch))
        )

    def fact_check_page(self, caller: Principal, cursor: str | None, limit: int) -> FactCheckPage:
        with self.db.read() as conn:
            return fact_check_page(conn, caller, cursor, limit)

    def reporter_key(self) -> bytes:
        """The secret that reporter ids are hashed with: made once, in its own transaction
        (so a batch that rolls back cannot leave this process with a key never stored)."""
        if self._reporter_key is None:
            found = select(server_secrets.c.value).where(server_secrets.c.name == REPORTER_SECRET)
            with self.db.write() as conn:
                value = conn.execute(found).scalar()
                if value is None:
                    conn.execute(
                        INSERT_SECRET[self.postgres].values(
                            name=REPORTER_SECRET, value=secrets.token_hex(32)
                        )
                    )
                    value = conn.execute(found).scalar_one()
            self._reporter_key = bytes.fromhex(value)
        return self._reporter_key

    def media(
        self, caller: Principal, content: bytes, declared_type: str | None
    ) -> tuple[MediaUploaded, bool]:
        """Store an upload (by its bytes: the same bytes from the same account are the same
        media); True when it is new."""
        if len(content) > MAX_MEDIA_BYTES:
            raise ApiError(
                413, "media_too_large", f"Media uploads are capped at {MAX_MEDIA_BYTES} bytes."
            )
        if not content:
            raise ApiError(422, "media_empty", "The upload has no bytes.")
        found = sniff(content)
        if found is None:
            raise ApiError(
                415,
                "unsupported_media",
                "The bytes are not PNG, JPEG, GIF, WebP, MP4 or WebM (read from the content, "
                "whatever the Content-Type says).",
            )
        declared = normalise_declared(declared_type)
        if declared and declared.startswith(("image/", "video/")) and declared != found.mime_type:
            raise ApiError(
                415,
                "media_type_mismatch",
                f"The bytes are {found.mime_type}, not {declared} as the Content-Type says.",
            )
        digest = hashlib.sha256(content).hexdigest()
        media_id = media_id_for(caller.username, digest)
        uploaded = MediaUploaded(
            media_id=media_id, mime_type=found.mime_type, size_bytes=len(content), sha256=digest
        )
        with self.db.read() as conn:
            if conn.execute(select(media.c.id).where(media.c.id == media_id)).first():
                return uploaded, False
        with self.db.write() as conn:
            new = conn.execute(
                INSERT_MEDIA[self.postgres].values(
                    id=media_id,
                    item_id=None,
                    position=0,
                    kind=found.kind.value,
                    mime_type=found.mime_type,
                    size_bytes=len(content),
                    width=found.width,
                    height=found.height,
                    alt_text="",
                    sensitive=False,
                    content=content,
                    source=caller.username,
                    sha256=digest,
                )
            ).scalar()
        return uploaded, new is not None
