"""The Service's review path: queues, leases, items and their media and history, verdicts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError

from reviewer_app.protocol import (
    ESCALATION_QUEUE,
    AssigneeNow,
    BreakRule,
    BreakRuleSeen,
    EscalationEntry,
    EventPage,
    Item,
    LeaseClaim,
    LeaseGrant,
    LeaseResults,
    QueueConfig,
    QueueFile,
    QueueList,
    StatementList,
    Verdict,
    VerdictResults,
)
from reviewer_app.server.domain import (
    claims,
    escalations,
    history,
    leasing,
    media,
    queueapply,
    queues,
    statements,
)
from reviewer_app.server.domain.assembly import load_items
from reviewer_app.server.domain.claims import ClaimReply
from reviewer_app.server.domain.queuefile.parse import check_queue_file
from reviewer_app.server.domain.records import Principal, decode_cursor
from reviewer_app.server.domain.users import leased_tokens, principal
from reviewer_app.server.domain.verdicts import VerdictRecorder
from reviewer_app.server.facade.base import CLAIM_ATTEMPTS, ServiceBase, log
from reviewer_app.server.problems import ApiError


class ReviewFacade(ServiceBase):
    """What reviewers do (each call its own transaction)."""

    def apply_queue_file(
        self,
        queue_file: QueueFile,
        actor: str | None,
        drain_to: str | None = None,
        dry_run: bool = False,
    ) -> queueapply.ApplyResult:
        """Make ``queue_file`` the running configuration in one write transaction: a new
        configuration version, unless the file is the current one (see queueapply.py).
        Raises ``QueueFileError`` for a file that breaks the rules, ``ApiError`` for one
        that cannot be applied now (open items in a removed queue); nothing is changed then,
        nor by a ``dry_run``."""
        check_queue_file(queue_file)
        try:
            with self.db.write() as conn:
                result = queueapply.apply(
                    conn,
                    queue_file,
                    actor=actor,
                    now=self.clock(),
                    drain_to=drain_to,
                    dry_run=dry_run,
                )
        except queueapply.DryRun as run:
            return run.result
        self.forget_configs()
        if result.applied:
            log.info(
                "queue configuration version %d applied by %s: %s",
                result.version,
                actor or "the service",
                result.summary(),
            )
        return result

    def set_breaks(
        self,
        queue_id: str,
        breaks: BreakRule | None,
        lead: Principal,
        *,
        based_on: BreakRuleSeen | None = None,
        keep_high_harm: bool = False,
    ) -> tuple[int, BreakRule | None]:
        """A lead's break reminders for one queue: the running configuration with that
        queue's rule changed, applied as a new version by the lead (read and applied in one
        write transaction, holding the configuration lock from before the read: a change
        made meanwhile, another lead's or an admin's file, is not undone). ``based_on``:
        the rule the lead's change was made from; when the queue's rule is another now, 409
        ``breaks_changed`` and nothing saved. ``keep_high_harm``: the queue's own high-harm
        kinds stay (see ``_kept_kinds``). The version in force after it (the same when the
        rule was already this one) and the rule saved."""
        now = self.clock()

        def change(conn: Connection) -> tuple[int, BreakRule | None]:
            queueapply.lock_versions(conn)  # before reading: another change waits for this
            running = queueapply.running_file(conn)
            found = [q for q in running.queues if q.id == queue_id] if running else []
            if running is None or not found:
                raise ApiError(404, "unknown_queue", f"No queue {queue_id!r}.")
            current = found[0].config.breaks
            rule = breaks
            if rule is not None and keep_high_harm:
                kinds = _kept_kinds(conn, queue_id, current)
                rule = rule.model_copy(
                    update={"high_harm": kinds if kinds is not None else rule.high_harm}
                )
            # the rule in force already this one is no conflict: the same save again (a
            # retry whose first reply was lost) succeeds
            if based_on is not None and based_on.breaks != current and rule != current:
                raise _breaks_changed(queue_id, current)
            queues = [
                q.model_copy(update={"config": q.config.model_copy(update={"breaks": rule})})
                if q.id == queue_id
                else q
                for q in running.queues
            ]
            # only the rule changes (a model that checks itself): the file's other rules
            # are the running configuration's own, checked when it was applied
            changed = QueueFile.model_validate({"queues": [q.model_dump() for q in queues]})
            result = queueapply.apply(conn, changed, actor=lead.username, now=now)
            return result.version, rule

        version, rule = self._write_retrying(change)
        self.forget_configs()
        log.info("break reminders of %s set by %s (version %d)", queue_id, lead.username, version)
        return version, rule

    def assign_escalation_expecting(
        self, lead: Principal, item_id: str, assignee: str | None, expected: AssigneeNow | None
    ) -> EscalationEntry:
        """Assign an open escalation (the route's call): with ``expected``, only when it is
        assigned as the lead last saw it (409 otherwise, see escalations.assign). It sits
        here beside the break rules, the other lead change that must not undo another's."""
        configs = self.configs()
        return self._write_retrying(
            lambda conn: escalations.assign(
                conn,
                lead,
                item_id,
                assignee,
                configs,
                self.clock(),
                postgres=self.postgres,
                expected=expected,
            )
        )

    def running_queue_file(self) -> QueueFile | None:
        """The running configuration as a queue file (``queues export``)."""
        with self.db.read() as conn:
            return queueapply.running_file(conn)

    def config_versions(self) -> list[dict[str, Any]]:
        """Every configuration version, newest first (``queues versions``)."""
        with self.db.read() as conn:
            return queueapply.versions(conn)

    def queue_for(self, user: Principal, queue_id: str) -> QueueConfig:
        config = self.configs().get(queue_id)
        if config is None:
            raise ApiError(404, "unknown_queue", f"No queue {queue_id!r}.")
        if config.lead_only and not user.is_lead:
            raise ApiError(403, "lead_only_queue", "Only leads may work this queue.")
        return config

    def list_queues(self, user: Principal, day_start: float | None = None) -> QueueList:
        """The queues ``user`` may work; decided today since ``day_start`` (their local
        midnight; UTC midnight without)."""
        with self.db.read() as conn:
            return queues.listing(conn, user, self.clock(), day_start)

    def claim(self, user: Principal, queue_id: str, request: LeaseClaim) -> LeaseGrant:
        """Lease up to ``request.count`` items of the queue to ``user``, each whole."""
        return LeaseGrant.model_validate_json(self.claim_reply(user, queue_id, request).body)

    def claim_reply(
        self, caller: Principal | str, queue_id: str, request: LeaseClaim
    ) -> ClaimReply:
        """The claim as the JSON body of a ``LeaseGrant`` (the busiest route), built inside
        the claim's transaction: no lease is committed without the reply that holds it. An
        item that cannot be served is parked and the claim made again without it
        (claims.py). ``caller``: the user, or their login token, looked up by the claim's
        own transaction (claims.Caller). A claim whose database connection turned out dead
        (the database restarted) is made again once on a fresh one."""
        found = claims.Caller(caller)
        reconnected = False
        for _ in range(CLAIM_ATTEMPTS):
            try:
                return self._claim_once(found, queue_id, request)
            except claims.Unservable as unservable:
                assert found.user is not None  # resolved before any item was read
                parked = self._park_unservable(found.user, unservable.reasons)
                log.warning("claim in %s: %d item(s) parked as unservable", queue_id, len(parked))
            except DBAPIError as exc:
                if not exc.connection_invalidated or reconnected:
                    raise
                reconnected = True
                log.warning("claim in %s made again: its database connection was lost", queue_id)
        raise ApiError(
            503,
            "unavailable",
            "Items of this queue cannot be served; try again.",
            headers={"Retry-After": "1"},
        )

    def _park_unservable(self, user: Principal, reasons: dict[str, str]) -> list[str]:
        return self._write_retrying(
            lambda conn: claims.park_unservable(conn, user, reasons, self.clock())
        )

    def _claim_once(self, caller: claims.Caller, queue_id: str, request: LeaseClaim) -> ClaimReply:
        lease_seconds = min(request.lease_seconds, self.settings.max_lease_seconds)
        now = self.clock()
        with self.db.write(urgent=True) as conn:
            user = caller.resolve(conn, now, postgres=self.postgres)
            config = self.queue_for(user, queue_id)
            held, skipped = leasing.held_and_skipped(
                conn, user.id, queue_id, now, postgres=self.postgres
            )
            room = self.settings.max_leased_per_reviewer - held
            if room <= 0:
                raise ApiError(
                    409,
                    "too_many_leases",
                    f"You already hold {held} items; decide or release some first.",
                )
            claimed = leasing.claim(
                conn,
                user,
                queue_id,
                min(request.count, room),
                lease_seconds,
                now,
                postgres=self.postgres,
                recuse=config.appeals,  # an appeals queue: four eyes (appeals.py)
                # the escalation queue: its assignments (escalations.py)
                assigned=queue_id == ESCALATION_QUEUE,
                skipped=skipped,
            )
            # The reply is built before the commit (see claims.py).
            return claims.reply(conn, queue_id, lease_seconds, held, claimed)

    def renew(self, user: Principal, tokens: list[str], lease_seconds: int) -> LeaseResults:
        seconds = min(lease_seconds, self.settings.max_lease_seconds)
        return self._write_retrying(
            lambda conn: LeaseResults(
                results=leasing.renew(
                    conn, user, tokens, seconds, self.clock(), postgres=self.postgres
                )
            )
        )

    def release(self, user: Principal, tokens: list[str], *, skipped: bool = False) -> LeaseResults:
        """Give leases back; ``skipped``: the reviewer skipped these items (remembered for
        ``skip_memory_seconds``: their claims prefer other items, leasing.py)."""
        memory = float(self.settings.skip_memory_seconds) if skipped else 0.0
        return self._write_retrying(
            lambda conn: LeaseResults(
                results=leasing.release(
                    conn, user, tokens, self.clock(), postgres=self.postgres, skipped_for=memory
                )
            )
        )

    def release_everything_held(self, username: str) -> int:
        """Give back every lease ``username`` holds (the demo's start: a demo that was
        killed left its prefetched items leased to its own account, shown as "being
        reviewed" by nobody). Returns how many were released."""
        with self.db.read() as conn:
            holder = principal(conn, username)
            tokens = leased_tokens(conn, holder.id) if holder is not None else []
        if holder is None or not tokens:
            return 0
        answers = self.release(holder, tokens).results
        return sum(1 for a in answers if a.status == "released")

    def item(self, user: Principal, item_id: str) -> Item:
        with self.db.read() as conn:
            found = load_items(conn, [item_id]).get(item_id)
        if found is None:
            raise ApiError(404, "unknown_item", f"No item {item_id!r}.")
        self._may_see(user, found.queue_id, found.origin_queue_id)
        return found

    def media(self, user: Principal, media_id: str) -> tuple[bytes, str]:
        with self.db.read() as conn:
            row = media.of_item(conn, media_id)
        if row is not None:
            self._may_see(user, row.queue_id, row.origin_queue_id)
            return bytes(row.content), row.mime_type
        # An intake upload: anyone who may see an item of a post that names it.
        with self.db.read() as conn:
            upload, seen_in = media.upload(conn, media_id)
        if not user.is_lead:
            configs = self.configs()
            visible = [q for r in seen_in for q in (r.queue_id, r.origin_queue_id) if q in configs]
            if visible and all(configs[q].lead_only for q in visible):
                raise ApiError(403, "lead_only_queue", "Only leads may see this item.")
        return bytes(upload.content), upload.mime_type

    def history(self, user: Principal, item_id: str, cursor: str | None, limit: int) -> EventPage:
        after = decode_cursor(cursor)
        # one snapshot: the sealed entries, then those not sealed yet; read committed, an
        # entry the sequencer sealed between the two reads would be in neither
        with self.db.snapshot() as conn:
            self._may_see_item(conn, user, item_id)
            return history.item_page(conn, item_id, after, limit)

    def item_statements(self, user: Principal, item_id: str) -> StatementList:
        """The item's statements of reasons, oldest first (who may see its history may
        see them)."""
        with self.db.read() as conn:
            self._may_see_item(conn, user, item_id)
            return StatementList(statements=statements.for_item(conn, item_id))

    def verdicts(self, user: Principal, batch: list[Verdict]) -> VerdictResults:
        version, configs = self._config_snapshot()

        def record(conn: Connection) -> VerdictResults:
            recorder = VerdictRecorder(
                conn,
                user,
                configs,
                self.clock(),
                postgres=self.postgres,
                config_version=version,
                configs_at=self.configs_at,
            )
            return VerdictResults(results=recorder.record(batch))

        return self._write_retrying(record)


#: how many earlier configuration versions ``_kept_kinds`` reads back, at most
KINDS_LOOKBACK = 200


def _kept_kinds(conn: Connection, queue_id: str, current: BreakRule | None) -> list[Any] | None:
    """The high-harm kinds a queue keeps when a lead sets only its numbers: those of its
    rule now, else (reminders turned off) those of the newest earlier version in which it
    had a rule; None when it never had one (the kinds sent, the defaults, stand)."""
    if current is not None:
        return list(current.high_harm)
    newest, _ = queueapply.current_version(conn)
    for version in range(newest, max(0, newest - KINDS_LOOKBACK), -1):
        earlier = queueapply.version_file(conn, version)
        if earlier is None:
            continue
        rule = next((q.config.breaks for q in earlier.queues if q.id == queue_id), None)
        if rule is not None:
            return list(rule.high_harm)
    return None


def _breaks_changed(queue_id: str, now: BreakRule | None) -> ApiError:
    """The refusal of a change made from a rule the queue no longer has."""
    if now is None:
        said = "no reminders"
    else:
        limits = [
            f"{now.after_minutes} minutes" if now.after_minutes else "",
            f"{now.after_high_harm} high-harm posts" if now.after_high_harm else "",
        ]
        kinds = ", ".join(k.value for k in now.high_harm) or "no kind"
        said = " or ".join(x for x in limits if x) + f" (high harm: {kinds})"
    return ApiError(
        409,
        "breaks_changed",
        f"Someone changed the break reminders of {queue_id} meanwhile (now: {said}). "
        "Nothing was saved: look at them again and make your change anew.",
    )
