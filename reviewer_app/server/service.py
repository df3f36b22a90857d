"""The queue service's operations, each in its own transaction. HTTP lives in ``api``."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from functools import partial
from typing import Any, TypeVar

from sqlalchemy import Connection, bindparam, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError

from reviewer_app import __version__
from reviewer_app.protocol import (
    API_VERSION,
    KEY_ROLES,
    MAX_CLAIM,
    MAX_TREND_DAYS,
    MAX_VERDICTS_PER_BATCH,
    MY_DECISIONS_MAX_DAYS,
    ApiKeyCreated,
    ApiKeyInfo,
    AuditAgree,
    AuditJudgement,
    AuditOverturn,
    AuditResult,
    AuditResults,
    AuditSample,
    AuditSampleCreate,
    AuditSampleList,
    AuditTaskGrant,
    BreakRecord,
    DecisionNote,
    DecisionNoteList,
    DecisionPage,
    EscalationEntry,
    EscalationPage,
    Event,
    EventKind,
    EventPage,
    ExposureReport,
    FeedbackNotice,
    Item,
    LeaseClaim,
    LeaseGrant,
    LeaseResults,
    Limits,
    Meta,
    MyDecisionPage,
    QualityReport,
    QualityThresholds,
    Queue,
    QueueConfig,
    QueueCounts,
    QueueFile,
    QueueList,
    QueueStatsReport,
    ReviewerStatsReport,
    ReviewerTrend,
    Role,
    SessionCreate,
    SessionInfo,
    StatementList,
    StatsBucket,
    User,
    UserCreate,
    UserList,
    Verdict,
    VerdictResults,
)
from reviewer_app.protocol.accounts import (
    AccountActionRequest,
    AccountActionResults,
    LinkedAccounts,
)
from reviewer_app.protocol.bulk_decisions import (
    BulkDecisionRequest,
    BulkDecisionResults,
    OpenItems,
)
from reviewer_app.protocol.enforcement import EnforcementPage
from reviewer_app.protocol.intake import (
    Appeal,
    FactCheckPage,
    FactCheckRating,
    IntakePost,
    IntakeResults,
    MediaUploaded,
    Signal,
    Withdrawal,
)
from reviewer_app.protocol.search import (
    SavedView,
    SavedViewCreate,
    SavedViewList,
    SearchKind,
    SearchPage,
)
from reviewer_app.protocol.webhooks import WebhookEndpoint, WebhookList
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import (
    accounts,
    apikeys,
    appeals,
    audits,
    bulk_decisions,
    claims,
    enforcement_feed,
    escalations,
    feedback,
    leasing,
    quality,
    queueapply,
    rollups,
    search,
    search_index,
    statements,
    stats,
    views,
    webhook_endpoints,
    wellbeing,
)
from reviewer_app.server.domain.assembly import load_items
from reviewer_app.server.domain.claims import ClaimReply
from reviewer_app.server.domain.intake import IntakeDesk
from reviewer_app.server.domain.queuefile import check_queue_file
from reviewer_app.server.domain.records import (
    Principal,
    append_events,
    decode_cursor,
    encode_cursor,
    event_documents,
    event_row,
    to_dt,
)
from reviewer_app.server.domain.search import DecisionFilter, Order
from reviewer_app.server.domain.security import (
    is_api_key,
    lock_seconds,
    new_token,
    password_hasher,
    token_hash,
    verify_password,
)
from reviewer_app.server.domain.verdicts import VerdictRecorder
from reviewer_app.server.domain.webhooks import Dispatcher
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.checkpoints import Signer
from reviewer_app.server.storage.db import Database
from reviewer_app.server.storage.eventlog import EventChain
from reviewer_app.server.storage.replica import Reads
from reviewer_app.server.storage.sequencer import Lag, Sequencer
from reviewer_app.server.storage.tables import (
    api_keys,
    decisions,
    events,
    items,
    login_attempts,
    media,
    post_media,
    queues,
    sessions,
    users,
)

log = logging.getLogger("server")

FEATURES = [
    "leases",
    "verdict-batches",
    "idempotency-keys",
    "media",
    "event-log",
    "problem-json",
    "hash-chained-event-log",
    "lead-stats",
    "decision-search",
    "csv-export",
    "audits",
    "escalation-reasons",
    "escalation-worklist",
]
Clock = Callable[[], float]
T = TypeVar("T")
CONFIG_TTL_SECONDS = 10.0
# A claim that met items it cannot serve parks them and claims again, this often at most.
CLAIM_ATTEMPTS = 5
DEFAULT_WINDOW_SECONDS = 24 * 3600
DAY_SECONDS = 24 * 3600

# Built once: every request runs it (see assembly.py on why).
_TOKEN_USER = (
    select(users.c.id, users.c.username, users.c.display_name, users.c.role)
    .join(sessions, sessions.c.user_id == users.c.id)
    .where(
        sessions.c.token_hash == bindparam("hash"),
        sessions.c.revoked_at.is_(None),
        sessions.c.expires_at > bindparam("now"),
    )
)
# The same for an API key: revoked keys are refused at once, in every process (no cache).
_KEY_USER = (
    select(
        users.c.id,
        users.c.username,
        users.c.display_name,
        users.c.role,
        api_keys.c.id.label("key_id"),
        api_keys.c.last_used_at,
    )
    .join(api_keys, api_keys.c.user_id == users.c.id)
    .where(api_keys.c.key_hash == bindparam("hash"), api_keys.c.revoked_at.is_(None))
)


class Service:
    def __init__(self, settings: ServerSettings, *, clock: Clock = time.time) -> None:
        self.settings = settings
        self.clock = clock
        self.db = Database(settings.database_url, sqlite_synchronous=settings.sqlite_synchronous)
        self.postgres = not self.db.is_sqlite
        self.hasher = password_hasher(settings.password_hash_profile)
        self._configs: tuple[int, dict[str, QueueConfig]] | None = None
        self._versions: dict[int, dict[str, QueueConfig]] = {}
        self._configs_read = 0.0
        self._started = False
        self.intake = IntakeDesk(self.db, lambda: self.clock(), self.configs, self._write_retrying)
        # The event log's sealer (sequencer.py; its thread runs while the app does, app.py).
        signer = Signer.from_file(settings.log_signing_key) if settings.log_signing_key else None
        self.event_chain = EventChain(signer)
        # The enforcement feed's actions are sealed by the same sequencer (enforcement.py).
        self.feed = enforcement_feed.Feed(self.db, lambda: self.clock())
        self.sequencer = Sequencer(self.db, [self.event_chain, self.feed.log], lambda: self.clock())
        # The lead figures' rollups, counted from the sealed log off the request path
        # (rollups.py; its thread runs while the app does, app.py).
        self.roller = rollups.Roller(self.db, lambda: self.clock())
        # Reads that may be a little behind go to a replica when one is configured.
        self.reads = Reads(self.db, settings.read_database_url, settings.read_max_staleness_seconds)
        # Webhooks (webhooks.py): a dispatcher per process, its thread run by the app.
        self.dispatcher = Dispatcher(self.db, settings, lambda: self.clock())

    def start(self) -> None:
        """Bring the schema up to date (once per Service, however often it is called)."""
        if not self._started:
            self.db.migrate()
            self._started = True

    def close(self) -> None:
        self.dispatcher.stop()  # gives its leases back
        self.roller.stop()
        self.reads.close()
        self.sequencer.stop()  # a running sequencer seals what is left first
        self.db.dispose()

    # -- the event log's sealing --------------------------------------------------

    def seal_now(self, *, publish: bool = False) -> int:
        """Seal every event committed before this call into the log (and with ``publish``
        publish a checkpoint of it now); the entries sealed. For read barriers and tests."""
        return self.sequencer.seal_now(publish=publish)

    def roll_now(self) -> int:
        """Count every decision sealed into the log so far into the rollups (tests, tools;
        figures never wait for it); the decisions counted."""
        self.seal_now()
        return self.roller.roll_now()

    def log_lag(self) -> Lag:
        """Events committed and not sealed yet, and the oldest one's age."""
        with self.db.read() as conn:
            return self.sequencer.lag(conn, self.clock())[self.event_chain.name]

    # -- meta ---------------------------------------------------------------

    def meta(self) -> Meta:
        s = self.settings
        return Meta(
            api_version=API_VERSION,
            server_version=__version__,
            features=FEATURES,
            limits=Limits(
                max_body_bytes=s.max_body_bytes,
                max_claim=MAX_CLAIM,
                max_lease_seconds=s.max_lease_seconds,
                max_leased_per_reviewer=s.max_leased_per_reviewer,
                max_verdicts_per_batch=MAX_VERDICTS_PER_BATCH,
            ),
        )

    # -- users and sessions ---------------------------------------------------

    def create_user(self, new: UserCreate, actor: Principal | None = None) -> User:
        if new.role in KEY_ROLES:
            raise ApiError(
                422,
                "service_account_password",
                f"A {new.role.value} account has no password: it calls with API keys. "
                f"Make one with `reviewer-app server api-key create --role {new.role.value} "
                "--name NAME` (or POST /admin/api-keys).",
            )
        password_hash = self.hasher.hash(new.password)
        now = self.clock()
        try:
            with self.db.write() as conn:
                user_id = conn.execute(
                    insert(users)
                    .values(
                        username=new.username,
                        display_name=new.display_name or new.username,
                        password_hash=password_hash,
                        role=new.role.value,
                        created_at=now,
                    )
                    .returning(users.c.id)
                ).scalar_one()
                append_events(
                    conn,
                    [
                        event_row(
                            now,
                            EventKind.user_created,
                            actor.username if actor else None,
                            username=new.username,
                            role=new.role.value,
                        )
                    ],
                )
        except IntegrityError as exc:
            raise ApiError(409, "user_exists", f"User {new.username!r} already exists.") from exc
        return User(
            id=user_id,
            username=new.username,
            display_name=new.display_name or new.username,
            role=new.role,
        )

    def list_users(self) -> UserList:
        with self.db.read() as conn:
            rows = conn.execute(select(users).order_by(users.c.id)).mappings().all()
        return UserList(
            users=[
                User(
                    id=r["id"],
                    username=r["username"],
                    display_name=r["display_name"],
                    role=Role(r["role"]),
                )
                for r in rows
            ]
        )

    def change_role(self, username: str, role: Role, actor: Principal) -> User:
        now = self.clock()
        with self.db.write() as conn:
            row: Any = (
                conn.execute(select(users).where(users.c.username == username)).mappings().first()
            )
            if row is None:
                raise ApiError(404, "unknown_user", f"No user {username!r}.")
            if (Role(row["role"]) in KEY_ROLES) != (role in KEY_ROLES) or (
                role in KEY_ROLES and row["role"] != role.value
            ):
                raise ApiError(
                    422,
                    "role_change_refused",
                    f"{username!r} is a {row['role']} account; people and service accounts "
                    "(platform, fact_checker) do not change into each other: a service "
                    "account has API keys and no password, a person the other way round.",
                )
            conn.execute(update(users).where(users.c.id == row["id"]).values(role=role.value))
            append_events(
                conn,
                [
                    event_row(
                        now,
                        EventKind.role_changed,
                        actor.username,
                        username=username,
                        old_role=row["role"],
                        new_role=role.value,
                    )
                ],
            )
        return User(id=row["id"], username=username, display_name=row["display_name"], role=role)

    def login(self, request: SessionCreate) -> SessionInfo:
        now = self.clock()
        s = self.settings
        with self.db.read() as conn:
            attempt = (
                conn.execute(
                    select(login_attempts).where(login_attempts.c.username == request.username)
                )
                .mappings()
                .first()
            )
            row = (
                conn.execute(select(users).where(users.c.username == request.username))
                .mappings()
                .first()
            )
        if attempt and attempt["locked_until"] and attempt["locked_until"] > now:
            wait = int(attempt["locked_until"] - now) + 1
            raise ApiError(
                429,
                "login_locked",
                f"Too many failed logins for this name; try again in {wait} s.",
                headers={"Retry-After": str(wait)},
            )
        if not verify_password(
            self.hasher, row["password_hash"] if row else None, request.password
        ):
            failures = self._count_failed_login(request.username, now)
            log.info("failed login for a user name (%d in a row)", failures)
            raise ApiError(401, "bad_credentials", "Wrong user name or password.")
        assert row is not None
        token = new_token()
        expires = now + s.token_ttl_seconds
        with self.db.write() as conn:
            conn.execute(
                insert(sessions).values(
                    token_hash=token_hash(token),
                    user_id=row["id"],
                    created_at=now,
                    expires_at=expires,
                )
            )
            if attempt:
                conn.execute(
                    update(login_attempts)
                    .where(login_attempts.c.username == request.username)
                    .values(failures=0, locked_until=None)
                )
        user = User(
            id=row["id"],
            username=row["username"],
            display_name=row["display_name"],
            role=Role(row["role"]),
        )
        return SessionInfo(token=token, expires_at=to_dt(expires), user=user)

    def _count_failed_login(self, username: str, now: float) -> int:
        """One more failed login for the name, counted in the database (so parallel guesses
        are all counted); locks the name once there are too many."""
        s = self.settings
        for _ in range(3):
            try:
                with self.db.write() as conn:
                    failures = conn.execute(
                        update(login_attempts)
                        .where(login_attempts.c.username == username)
                        .values(failures=login_attempts.c.failures + 1)
                        .returning(login_attempts.c.failures)
                    ).scalar()
                    if failures is None:
                        conn.execute(insert(login_attempts).values(username=username, failures=1))
                        failures = 1
                    lock = lock_seconds(failures, s.login_max_failures, s.login_lock_seconds)
                    if lock:
                        conn.execute(
                            update(login_attempts)
                            .where(login_attempts.c.username == username)
                            .values(locked_until=now + lock)
                        )
                    return int(failures)
            except IntegrityError:
                continue  # a parallel first failure made the row: count on it
        raise ApiError(503, "unavailable", "Could not record the failed login; try again.")

    def authenticate(self, token: str) -> Principal | None:
        """The caller a login token or an API key (``rdk_...``) stands for, if live."""
        now = self.clock()
        if is_api_key(token):
            return self._authenticate_key(token, now)
        with self.db.read() as conn:
            row = conn.execute(_TOKEN_USER, {"hash": token_hash(token), "now": now}).first()
        if row is None:
            return None
        return Principal(row.id, row.username, row.display_name, Role(row.role))

    def _authenticate_key(self, key: str, now: float) -> Principal | None:
        with self.db.read() as conn:
            row = conn.execute(_KEY_USER, {"hash": token_hash(key)}).first()
        if row is None:
            return None
        if apikeys.is_stale(row.last_used_at, now):
            # At most once a minute per key (the update is conditional, so processes racing
            # here write it once); a failure costs the figure, never the request.
            try:
                with self.db.write() as conn:
                    apikeys.note_used(conn, row.key_id, now)
            except OperationalError as exc:
                log.info("last use of API key %d not recorded: %s", row.key_id, type(exc).__name__)
        return Principal(row.id, row.username, row.display_name, Role(row.role))

    # -- service accounts and API keys ------------------------------------------------

    def service_account(self, name: str, role: Role, actor: str | None = None) -> Principal:
        """The service account (platform or fact_checker) ``name``, made if missing."""
        with self.db.read() as conn:
            row = conn.execute(
                select(users.c.id, users.c.username, users.c.display_name, users.c.role).where(
                    users.c.username == name
                )
            ).first()
        if row is not None and row.role == role.value:
            return Principal(row.id, row.username, row.display_name, role)
        return self._write_retrying(
            lambda conn: apikeys.service_account(conn, name, role, self.clock(), actor)
        )

    def create_api_key(
        self, role: Role, name: str, account: str | None = None, actor: str | None = None
    ) -> ApiKeyCreated:
        """A new key for the service account ``account`` (default: ``name``), made if
        missing. The answer is the only place the key ever is."""
        return self._write_retrying(
            lambda conn: apikeys.create(conn, role, name, account, self.clock(), actor)
        )

    def rotate_api_key(self, name: str, actor: str | None = None) -> ApiKeyCreated:
        """A second live key for the account of the live key ``name`` (see apikeys.rotate)."""
        with self.db.write() as conn:
            return apikeys.rotate(conn, name, self.clock(), actor)

    def revoke_api_key(self, key_id: int, actor: str | None = None) -> ApiKeyInfo:
        with self.db.write() as conn:
            return apikeys.revoke(conn, key_id, self.clock(), actor)

    def api_keys(self, *, include_revoked: bool = True) -> list[ApiKeyInfo]:
        with self.db.read() as conn:
            return apikeys.listing(conn, include_revoked=include_revoked)

    def logout(self, token: str) -> None:
        with self.db.write() as conn:
            conn.execute(
                update(sessions)
                .where(sessions.c.token_hash == token_hash(token))
                .values(revoked_at=self.clock())
            )

    # -- queues ---------------------------------------------------------------

    def configs(self) -> dict[str, QueueConfig]:
        """The running queues' configs, in their order (routing tries them so), re-read at
        most every ``CONFIG_TTL_SECONDS``: another process's apply shows here that late,
        this process's at once (``apply_queue_file`` forgets them)."""
        return self._config_snapshot()[1]

    def config_version(self) -> int:
        """The configuration version ``configs()`` belongs to (0 before the first)."""
        return self._config_snapshot()[0]

    def _config_snapshot(self) -> tuple[int, dict[str, QueueConfig]]:
        snapshot = self._configs
        if snapshot is None or time.monotonic() - self._configs_read > CONFIG_TTL_SECONDS:
            with self.db.read() as conn:
                version = queueapply.current_version(conn)[0]
                rows = conn.execute(
                    select(queues.c.id, queues.c.config)
                    .where(queues.c.retired_at.is_(None))
                    .order_by(queues.c.position, queues.c.id)
                ).all()
            snapshot = (version, {r.id: QueueConfig.model_validate_json(r.config) for r in rows})
            self._configs = snapshot
            self._configs_read = time.monotonic()
        return snapshot

    def forget_configs(self) -> None:
        self._configs = None

    def configs_at(self, version: int) -> dict[str, QueueConfig]:
        """The queue configs of an applied version (versions never change: kept once read);
        empty for version 0 or one never applied."""
        found = self._versions.get(version)
        if found is None:
            with self.db.read() as conn:
                queue_file = queueapply.version_file(conn, version)
            found = queueapply.configs_of(queue_file)
            if queue_file is not None:
                self._versions[version] = found
        return found

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

    def list_queues(self, user: Principal) -> QueueList:
        now = self.clock()
        midnight = (
            datetime.fromtimestamp(now, tz=UTC)
            .replace(hour=0, minute=0, second=0, microsecond=0)
            .timestamp()
        )
        with self.db.read() as conn:
            rows = (
                conn.execute(
                    select(queues)
                    .where(queues.c.retired_at.is_(None))
                    .order_by(queues.c.position, queues.c.id)
                )
                .mappings()
                .all()
            )
            by_state: dict[tuple[str, str], int] = {}
            for (queue_id, state), n in open_item_counts(conn, now).items():
                state = "pending" if state == "expired" else state  # as good as pending
                by_state[(queue_id, state)] = by_state.get((queue_id, state), 0) + n
            decided: dict[str, int] = dict(
                conn.execute(
                    select(decisions.c.queue_id, func.count())
                    .where(decisions.c.decided_at >= midnight)
                    .group_by(decisions.c.queue_id)
                ).all()
            )
            # the oldest undecided item, leased or not: the SLA runs until a decision
            oldest = dict(
                conn.execute(
                    select(items.c.queue_id, func.min(items.c.enqueued_at))
                    .where(items.c.state.in_(("pending", "leased")))
                    .group_by(items.c.queue_id)
                ).all()
            )
        result = []
        for r in rows:
            config = QueueConfig.model_validate_json(r["config"])
            if config.lead_only and not user.is_lead:
                continue
            first = oldest.get(r["id"])
            result.append(
                Queue(
                    id=r["id"],
                    name=r["name"],
                    description=r["description"],
                    config=config,
                    config_version=r["config_version"],
                    counts=QueueCounts(
                        pending=by_state.get((r["id"], "pending"), 0),
                        leased=by_state.get((r["id"], "leased"), 0),
                        decided_today=decided.get(r["id"], 0),
                        oldest_pending_age_seconds=max(0, int(now - first)) if first else None,
                    ),
                )
            )
        return QueueList(queues=result)

    # -- leases -----------------------------------------------------------------

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
                assigned=queue_id == escalations.ESCALATION_QUEUE,
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
            row = conn.execute(
                select(users.c.id, users.c.username, users.c.display_name, users.c.role).where(
                    users.c.username == username
                )
            ).first()
            if row is None:
                return 0
            tokens = [
                t
                for (t,) in conn.execute(
                    select(items.c.lease_token).where(
                        items.c.lease_user_id == row.id, items.c.state == "leased"
                    )
                )
            ]
        if not tokens:
            return 0
        holder = Principal(row.id, row.username, row.display_name, Role(row.role))
        answers = self.release(holder, tokens).results
        return sum(1 for a in answers if a.status == "released")

    # -- items and media ----------------------------------------------------------

    def item(self, user: Principal, item_id: str) -> Item:
        with self.db.read() as conn:
            found = load_items(conn, [item_id]).get(item_id)
        if found is None:
            raise ApiError(404, "unknown_item", f"No item {item_id!r}.")
        self._may_see(user, found.queue_id, found.origin_queue_id)
        return found

    def _may_see(self, user: Principal, *queue_ids: str) -> None:
        configs = self.configs()
        if not user.is_lead and all(configs[q].lead_only for q in queue_ids if q in configs):
            raise ApiError(403, "lead_only_queue", "Only leads may see this item.")

    def _may_see_item(self, conn: Connection, user: Principal, item_id: str) -> None:
        """404 for an unknown item, 403 for a lead-only one a reviewer asks for."""
        item = conn.execute(
            select(items.c.queue_id, items.c.origin_queue_id).where(items.c.id == item_id)
        ).first()
        if item is None:
            raise ApiError(404, "unknown_item", f"No item {item_id!r}.")
        self._may_see(user, item.queue_id, item.origin_queue_id)

    def media(self, user: Principal, media_id: str) -> tuple[bytes, str]:
        with self.db.read() as conn:
            row = conn.execute(
                select(
                    media.c.content, media.c.mime_type, items.c.queue_id, items.c.origin_queue_id
                )
                .join(items, items.c.id == media.c.item_id)
                .where(media.c.id == media_id)
            ).first()
        if row is not None:
            self._may_see(user, row.queue_id, row.origin_queue_id)
            return bytes(row.content), row.mime_type
        # An intake upload: anyone who may see an item of a post that names it.
        with self.db.read() as conn:
            upload = conn.execute(
                select(media.c.content, media.c.mime_type).where(
                    media.c.id == media_id, media.c.item_id.is_(None)
                )
            ).first()
            seen_in = (
                conn.execute(
                    select(items.c.queue_id, items.c.origin_queue_id)
                    .join(post_media, post_media.c.post_id == items.c.post_id)
                    .where(post_media.c.media_id == media_id)
                ).all()
                if upload is not None
                else []
            )
        if upload is None or not seen_in:
            raise ApiError(404, "unknown_media", f"No media {media_id!r}.")
        if not user.is_lead:
            configs = self.configs()
            visible = [q for r in seen_in for q in (r.queue_id, r.origin_queue_id) if q in configs]
            if visible and all(configs[q].lead_only for q in visible):
                raise ApiError(403, "lead_only_queue", "Only leads may see this item.")
        return bytes(upload.content), upload.mime_type

    def history(self, user: Principal, item_id: str, cursor: str | None, limit: int) -> EventPage:
        after = decode_cursor(cursor)
        with self.db.read() as conn:
            self._may_see_item(conn, user, item_id)
            # The item's sealed entries in log order, then (on the last page) those not
            # sealed yet: a decision just made shows at once, without a hash or seq.
            sealed = self._sealed_rows(conn, events.c.item_id == item_id, after, limit + 1)
            if len(sealed) > limit:
                return _event_page(sealed[:limit], sealed[limit - 1]["seq"])
            room = limit - len(sealed)
            tail = (
                conn.execute(
                    select(events)
                    .where(events.c.item_id == item_id, events.c.seq.is_(None))
                    .order_by(events.c.id)
                    .limit(room + 1)
                )
                .mappings()
                .all()
            )
        if len(tail) > room:  # more unsealed than fit: read on once they are sealed
            last = sealed[-1]["seq"] if sealed else (after or 0)
            return _event_page([*sealed, *tail[:room]], last)
        return _event_page([*sealed, *tail], None)

    def item_statements(self, user: Principal, item_id: str) -> StatementList:
        """The item's statements of reasons, oldest first (who may see its history may
        see them)."""
        with self.db.read() as conn:
            self._may_see_item(conn, user, item_id)
            return StatementList(statements=statements.for_item(conn, item_id))

    def events(self, cursor: str | None, limit: int, kind: EventKind | None) -> EventPage:
        """The sealed log in seq order. A read barrier first: everything committed before
        this request is sealed into the log (so a lead sees what just happened, and a
        cursor once passed is never passed by a late entry)."""
        after = decode_cursor(cursor)
        try:
            self.seal_now()
        except Exception as exc:  # the log as sealed so far is still the log
            log.warning("read barrier of the event log failed: %s", type(exc).__name__)
        condition = events.c.kind == kind.value if kind is not None else None
        with self.db.read() as conn:
            rows = self._sealed_rows(conn, condition, after, limit + 1)
        if len(rows) > limit:
            return _event_page(rows[:limit], rows[limit - 1]["seq"])
        return _event_page(rows, None)

    @staticmethod
    def _sealed_rows(conn: Any, condition: Any, after: int | None, limit: int) -> list[Any]:
        query = select(events).where(events.c.seq.is_not(None))
        if condition is not None:
            query = query.where(condition)
        if after is not None:
            query = query.where(events.c.seq > after)
        return list(conn.execute(query.order_by(events.c.seq).limit(limit)).mappings().all())

    def decisions(
        self,
        cursor: str | None,
        limit: int,
        found: DecisionFilter | None = None,
        order: Order = Order.asc,
    ) -> DecisionPage:
        """Decisions matching the filter, by id (oldest or newest first), a page at a time."""
        after = decode_cursor(cursor)
        with self.reads.snapshot() as (conn, _source):  # the replica when there is one
            return search.page(conn, found or DecisionFilter(), after, limit, order)

    def export_decisions(self, found: DecisionFilter) -> Iterator[str]:
        """The matching decisions as CSV chunks (see search.export_csv; from the replica
        when there is one)."""
        return search.export_csv(self.reads.choose()[0], found)

    def search_items(self, kind: SearchKind, q: str, cursor: str | None, limit: int) -> SearchPage:
        """Items matching a lead's search with their decisions, newest first (see
        search_index.py; from the replica when there is one)."""
        after = decode_cursor(cursor)
        with self.reads.snapshot() as (conn, _source):
            return search_index.search(conn, kind, q, after, limit, self.postgres)

    def saved_views(self, user: Principal) -> SavedViewList:
        with self.db.read() as conn:
            return views.listing(conn, user)

    def save_view(self, user: Principal, body: SavedViewCreate) -> SavedView:
        with self.db.write() as conn:
            return views.create(conn, user, body, self.clock())

    def delete_view(self, user: Principal, view_id: int) -> None:
        with self.db.write() as conn:
            views.remove(conn, user, view_id)

    # -- lead figures -------------------------------------------------------------------

    def window(self, since: float | None, until: float | None) -> tuple[float, float]:
        """A stats window (epoch seconds): the last 24 hours unless told otherwise."""
        end = until if until is not None else self.clock()
        start = since if since is not None else end - DEFAULT_WINDOW_SECONDS
        return start, end

    def queue_stats(
        self,
        since: float | None,
        until: float | None,
        bucket: StatsBucket,
        queue_id: str | None = None,
    ) -> QueueStatsReport:
        start, end = self.window(since, until)
        stats.check_window(start, end, stats.SPANS[bucket])
        now = self.clock()
        with self.reads.snapshot() as (conn, source):
            rows = conn.execute(
                select(queues.c.id, queues.c.name, queues.c.config, queues.c.retired_at).order_by(
                    queues.c.position, queues.c.id
                )
            ).all()
            # every running queue, or the one asked for (a retired queue by its name only)
            chosen = [
                stats.QueueInfo(r.id, r.name, QueueConfig.model_validate_json(r.config))
                for r in rows
                if (r.id == queue_id if queue_id is not None else r.retired_at is None)
            ]
            if queue_id is not None and not chosen:
                raise ApiError(404, "unknown_queue", f"No queue {queue_id!r}.")
            found = stats.queue_stats(conn, chosen, start, end, bucket, now)
            held_back = accounts.held_back(conn, start, end)
        return QueueStatsReport(
            since=to_dt(start),
            until=to_dt(end),
            bucket=bucket,
            generated_at=to_dt(now),
            queues=found,
            held_back=held_back,
            staleness_seconds=round(source.staleness, 3),
            from_replica=source.replica,
        )

    def reviewer_stats(
        self, since: float | None, until: float | None, reviewer: str | None = None
    ) -> ReviewerStatsReport:
        start, end = self.window(since, until)
        stats.check_window(start, end)
        with self.reads.snapshot() as (conn, source):
            user_id = None
            if reviewer is not None:
                user_id = conn.execute(
                    select(users.c.id).where(users.c.username == reviewer)
                ).scalar()
                if user_id is None:
                    raise ApiError(404, "unknown_user", f"No user {reviewer!r}.")
            found = stats.reviewer_stats(conn, start, end, user_id)
        return ReviewerStatsReport(
            since=to_dt(start),
            until=to_dt(end),
            generated_at=to_dt(self.clock()),
            reviewers=found,
            staleness_seconds=round(source.staleness, 3),
            from_replica=source.replica,
        )

    def quality(
        self, since: float | None, until: float | None, thresholds: QualityThresholds
    ) -> QualityReport:
        """Quality signals over the window against the one before it (quality.py)."""
        start, end = self.window(since, until)
        stats.check_window(start, end)
        with self.reads.snapshot() as (conn, _source):
            found = quality.quality(conn, start, end, thresholds)
        return QualityReport(
            since=to_dt(start),
            until=to_dt(end),
            previous_since=to_dt(start - (end - start)),
            thresholds=thresholds,
            generated_at=to_dt(self.clock()),
            reviewers=found,
        )

    def reviewer_trend(
        self, username: str, since: float | None, until: float | None
    ) -> ReviewerTrend:
        """One reviewer's decisions, median handle time and overturns per UTC day
        (default: the last 7 days)."""
        end = until if until is not None else self.clock()
        start = since if since is not None else end - 7 * DAY_SECONDS
        stats.check_window(start, end)
        if end - start > MAX_TREND_DAYS * DAY_SECONDS:
            raise ApiError(422, "window_too_long", f"A trend spans at most {MAX_TREND_DAYS} days.")
        with self.reads.snapshot() as (conn, _source):
            user_id = conn.execute(select(users.c.id).where(users.c.username == username)).scalar()
            if user_id is None:
                raise ApiError(404, "unknown_user", f"No user {username!r}.")
            days = quality.trend(conn, int(user_id), start, end)
        return ReviewerTrend(reviewer=username, since=to_dt(start), until=to_dt(end), days=days)

    # -- feedback to reviewers (feedback.py) -----------------------------------------------

    def my_decisions(
        self,
        user: Principal,
        since: float | None,
        until: float | None,
        cursor: str | None,
        limit: int,
    ) -> MyDecisionPage:
        """The caller's own decisions in the window (default: the last 7 days), newest
        first, each with what became of it."""
        end = until if until is not None else self.clock()
        start = since if since is not None else end - 7 * DAY_SECONDS
        if end <= start:
            raise ApiError(422, "invalid_window", "The window must end after it starts.")
        if end - start > MY_DECISIONS_MAX_DAYS * DAY_SECONDS:
            raise ApiError(
                422,
                "window_too_long",
                f"My decisions reach back at most {MY_DECISIONS_MAX_DAYS} days.",
            )
        before = decode_cursor(cursor)
        with self.db.read() as conn:
            return feedback.my_decisions(conn, user, start, end, before, limit)

    def add_decision_note(self, lead: Principal, decision_id: int, note: str) -> DecisionNote:
        now = self.clock()
        return self._write_retrying(
            lambda conn: feedback.add_note(conn, lead, decision_id, note, now)
        )

    def decision_notes(self, user: Principal, decision_id: int) -> DecisionNoteList:
        with self.db.read() as conn:
            return DecisionNoteList(notes=feedback.notes(conn, user, decision_id))

    def feedback_notice(self, user: Principal) -> FeedbackNotice:
        with self.db.read() as conn:
            return feedback.notice(conn, user, self.clock())

    def mark_feedback_seen(self, user: Principal, until: float) -> FeedbackNotice:
        now = self.clock()
        return self._write_retrying(lambda conn: feedback.mark_seen(conn, user, until, now))

    def exposure(self) -> ExposureReport:
        """Each reviewer's exposure to harm this shift and in the last 7 days (wellbeing.py)."""
        now = self.clock()
        with self.reads.snapshot() as (conn, _source):
            found = wellbeing.exposure(conn, now)
        return ExposureReport(
            generated_at=to_dt(now),
            shift_gap_hours=wellbeing.SHIFT_GAP_SECONDS / 3600,
            reviewers=found,
        )

    def record_break(self, user: Principal, record: BreakRecord) -> BreakRecord:
        """A reviewer's break, as it starts or ends (the same id updates it)."""
        return self._write_retrying(lambda conn: wellbeing.record_break(conn, user, record))

    # -- audits ---------------------------------------------------------------------------

    def create_audit_sample(self, lead: Principal, request: AuditSampleCreate) -> AuditSample:
        configs = self.configs()
        sample_id = self._write_retrying(
            lambda conn: audits.create_sample(conn, lead, request, configs, self.clock())
        )
        return self.audit_sample(sample_id)

    def audit_sample(self, sample_id: int) -> AuditSample:
        with self.db.read() as conn:
            return audits.sample(conn, sample_id)

    def audit_samples(self, cursor: str | None, limit: int) -> AuditSampleList:
        before = decode_cursor(cursor)
        with self.db.read() as conn:
            ids, more = audits.sample_ids_page(conn, before, limit)
            page = audits.samples(conn, ids)
        return AuditSampleList(
            samples=page, next_cursor=encode_cursor(ids[-1]) if more and ids else None
        )

    def next_audit_task(self, lead: Principal, sample_id: int) -> AuditTaskGrant:
        return self._write_retrying(
            lambda conn: audits.next_task(conn, lead, sample_id, self.clock())
        )

    def record_audit(
        self, lead: Principal, audit_id: int, body: AuditAgree | AuditOverturn | AuditJudgement
    ) -> AuditResult:
        version, configs = self._config_snapshot()
        with self.db.write() as conn:
            return audits.record_result(
                conn, lead, audit_id, body, configs, self.clock(), config_version=version
            )

    def audit_results(self, sample_id: int) -> AuditResults:
        with self.db.read() as conn:
            return audits.results(conn, sample_id)

    # -- escalations (escalations.py; the routes check the caller is a lead) -------------

    def escalations(self, cursor: str | None, limit: int) -> EscalationPage:
        """The open escalations, oldest first, a page at a time."""
        offset = decode_cursor(cursor) or 0
        with self.db.read() as conn:
            found, more = escalations.page(conn, self.configs(), offset, limit, self.clock())
        if more:
            found = found.model_copy(update={"next_cursor": encode_cursor(offset + limit)})
        return found

    def assign_escalation(
        self, lead: Principal, item_id: str, assignee: str | None
    ) -> EscalationEntry:
        configs = self.configs()
        return self._write_retrying(
            lambda conn: escalations.assign(
                conn, lead, item_id, assignee, configs, self.clock(), postgres=self.postgres
            )
        )

    # -- verdicts -------------------------------------------------------------------

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

    # -- bulk decisions (bulk_decisions.py; the routes check the caller is a lead) -----------

    def bulk_decide(self, lead: Principal, request: BulkDecisionRequest) -> BulkDecisionResults:
        """One action on each item, each its own decision: all in one transaction or none."""
        version, configs = self._config_snapshot()

        def work(conn: Connection) -> BulkDecisionResults:
            return bulk_decisions.decide(
                conn,
                lead,
                request,
                configs,
                self.clock(),
                postgres=self.postgres,
                config_version=version,
                configs_at=self.configs_at,
            )

        return self._write_retrying(work)

    def open_items(self, lead: Principal, author_id: str, *, linked: bool) -> OpenItems:
        """The open items of the author (and of their linked accounts), oldest first."""
        configs = self.configs()
        with self.db.read() as conn:
            return bulk_decisions.open_items(
                conn, lead, author_id, linked=linked, configs=configs, now=self.clock()
            )

    # -- the enforcement feed (enforcement.py; the route checks the caller is a platform) ---

    def enforcement_page(
        self, caller: Principal, after: int, limit: int
    ) -> tuple[EnforcementPage, int]:
        """The platform's own sealed actions after seq ``after``, and the sealed head read
        before them (what a long poll waits to see pass). A reader catching up (more than
        a page behind the sealed head) reads the replica when there is one: sealed actions
        never change, so a replica behind only gives a shorter page and an older head."""
        if self.reads.replica is not None and after + limit < self.feed.head():
            db, source = self.reads.choose()
            if source.replica:
                with db.read() as conn:
                    return enforcement_feed.page(conn, caller.username, after, limit)
        return self.feed.page(caller.username, after, limit)

    # -- webhooks (webhook_endpoints.py; the dispatcher in webhooks.py) ---------------------

    def webhooks(self) -> WebhookList:
        """Every endpoint and its health (no secrets)."""
        with self.db.read() as conn:
            return webhook_endpoints.listing(conn)

    def webhook(self, endpoint_id: int) -> WebhookEndpoint:
        with self.db.read() as conn:
            return webhook_endpoints.one(conn, endpoint_id)

    def add_webhook(
        self, url: str, account: str, kinds: list[str] | None, actor: str | None
    ) -> tuple[WebhookEndpoint, str]:
        """A new endpoint of the platform account ``account``, and its secret (shown once)."""
        with self.db.write() as conn:
            return webhook_endpoints.add(conn, url, account, kinds, self.clock(), actor)

    def disable_webhook(self, endpoint_id: int, actor: str | None) -> WebhookEndpoint:
        with self.db.write() as conn:
            return webhook_endpoints.disable(
                conn, endpoint_id, "disabled by an operator", self.clock(), actor
            )

    def enable_webhook(self, endpoint_id: int, actor: str | None) -> WebhookEndpoint:
        with self.db.write() as conn:
            found = webhook_endpoints.enable(conn, endpoint_id, self.clock(), actor)
        self.dispatcher.poke()
        return found

    def rotate_webhook_secret(
        self, endpoint_id: int, actor: str | None, grace_seconds: float | None = None
    ) -> tuple[WebhookEndpoint, str]:
        """A new secret; the previous one signs too for ``grace_seconds`` (the setting's
        when None)."""
        grace = (
            self.settings.webhook_rotation_grace_seconds if grace_seconds is None else grace_seconds
        )
        with self.db.write() as conn:
            return webhook_endpoints.rotate_secret(conn, endpoint_id, self.clock(), actor, grace)

    def finish_webhook_rotation(self, endpoint_id: int, actor: str | None) -> WebhookEndpoint:
        with self.db.write() as conn:
            return webhook_endpoints.finish_rotation(conn, endpoint_id, self.clock(), actor)

    def replay_webhook(self, endpoint_id: int, from_seq: int, actor: str | None) -> WebhookEndpoint:
        with self.db.write() as conn:
            found = webhook_endpoints.replay(conn, endpoint_id, from_seq, self.clock(), actor)
        self.dispatcher.poke()
        return found

    # -- account actions (see accounts.py) ---------------------------------------------------

    def linked_accounts(self, author_id: str) -> LinkedAccounts:
        """The author and the accounts linked to them (shared account signals)."""
        with self.db.read() as conn:
            return accounts.linked_accounts(conn, author_id)

    def account_action(
        self, lead: Principal, request: AccountActionRequest
    ) -> AccountActionResults:
        """One account action on each of the accounts, all in one transaction or none."""

        # the policies the statements of reasons cite: a lead names codes of any queue
        known = [p for config in self.configs().values() for p in config.policies]

        def work(conn: Connection) -> AccountActionResults:
            results, events = accounts.lead_action(
                conn, lead, request, self.clock(), postgres=self.postgres, known_policies=known
            )
            append_events(conn, events)
            return AccountActionResults(results=results)

        return self._write_retrying(work)

    # -- intake (see intake.py; the HTTP routes check the caller's role) ---------------------

    def intake_posts(self, caller: Principal, posts: list[IntakePost]) -> IntakeResults:
        """Posts from the platform account ``caller`` (the source of their ids)."""
        return self.intake.posts(caller, posts)

    def intake_signals(self, caller: Principal, signals: list[Signal]) -> IntakeResults:
        return self.intake.signals(caller, signals)

    def intake_withdrawals(self, caller: Principal, withdrawals: list[Withdrawal]) -> IntakeResults:
        return self.intake.withdrawals(caller, withdrawals)

    def intake_appeals(self, caller: Principal, batch: list[Appeal]) -> IntakeResults:
        """Appeals of decisions (appeals.py), one transaction; a result per appeal."""
        return IntakeResults(
            results=self.intake.run(caller, partial(appeals.intake_appeals, batch=batch))
        )

    def intake_media(
        self, caller: Principal, content: bytes, declared_type: str | None
    ) -> MediaUploaded:
        return self.intake.media(caller, content, declared_type)[0]

    def submit_fact_checks(
        self, caller: Principal, ratings: list[FactCheckRating]
    ) -> IntakeResults:
        """Ratings from the fact-checker account ``caller`` (its display name is the
        organisation)."""
        return self.intake.fact_checks(caller, ratings)

    def fact_checks(self, caller: Principal, cursor: str | None, limit: int) -> FactCheckPage:
        """The fact-checker's own ratings, oldest first."""
        return self.intake.fact_check_page(caller, cursor, limit)

    def _write_retrying(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` in a write transaction, again if it lost a race.

        Two batches on the same idempotency key, a deadlock or a serialisation failure
        roll the transaction back whole, so running it again is safe.
        """
        for attempt in range(5):
            try:
                with self.db.write() as conn:
                    return work(conn)
            except (IntegrityError, OperationalError) as exc:
                if attempt == 4:
                    raise
                log.info("write transaction retried after %s", type(exc).__name__)
        raise AssertionError("unreachable")

    def count_items(self) -> dict[str, Any]:
        with self.db.read() as conn:
            return dict(
                conn.execute(select(items.c.state, func.count()).group_by(items.c.state)).all()
            )


def _event_page(rows: list[Any], next_after: int | None) -> EventPage:
    return EventPage(
        events=[Event.model_validate(doc) for doc in event_documents(rows)],
        next_cursor=encode_cursor(next_after) if next_after is not None else None,
    )


def open_item_counts(conn: Connection, now: float) -> dict[tuple[str, str], int]:
    """Undecided items by queue and state: ``pending``, ``leased`` (a live lease) and
    ``expired`` (leased, but the lease has run out: claimable again)."""
    expired = (items.c.lease_expires_at < now).label("expired")
    rows = conn.execute(
        select(items.c.queue_id, items.c.state, expired, func.count().label("n"))
        .where(items.c.state != "decided")
        .group_by(items.c.queue_id, items.c.state, expired)
    )
    counts: dict[tuple[str, str], int] = {}
    for r in rows:
        state = "expired" if r.state == "leased" and r.expired else r.state
        counts[(r.queue_id, state)] = counts.get((r.queue_id, state), 0) + r.n
    return counts
