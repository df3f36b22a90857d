"""The HTTP client of the review service: one ``requests.Session`` per server.

Every call has a connect and a read timeout. Connection attempts that never reached the
server are retried for any call; a call that may have reached the server is retried only
when repeating it is harmless (GET/PUT/DELETE, lease renew/release, and verdict batches,
which carry idempotency keys). Busy replies (429/502/503/504) are retried a couple of times
when ``Retry-After`` is short; a longer wait is handed to the caller as
``ServiceUnavailable.retry_after``. Replies are parsed with the ``protocol`` models; anything
else becomes a typed error and nothing of it is used.
"""

from __future__ import annotations

import email.utils
import io
import json
import logging
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TextIO, TypeVar
from urllib.parse import quote, urlsplit

import requests
from pydantic import BaseModel, ValidationError
from requests.adapters import HTTPAdapter
from urllib3 import BaseHTTPResponse
from urllib3.connectionpool import ConnectionPool
from urllib3.exceptions import MaxRetryError
from urllib3.util.retry import Retry

from reviewer_app.protocol import (
    API_MAJOR,
    API_PREFIX,
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
    DecisionNoteCreate,
    DecisionNoteList,
    DecisionPage,
    DecisionQuery,
    EscalationAssignment,
    EscalationEntry,
    EscalationPage,
    EventPage,
    ExposureReport,
    FeedbackNotice,
    FeedbackSeen,
    Item,
    LeaseClaim,
    LeasedItem,
    LeaseGrant,
    LeaseRelease,
    LeaseRenewal,
    LeaseResults,
    Meta,
    MyDecisionPage,
    Problem,
    QualityReport,
    QualityThresholds,
    QueueList,
    QueueStatsReport,
    ReviewerStatsReport,
    ReviewerTrend,
    SessionCreate,
    SessionInfo,
    User,
    Verdict,
    VerdictBatch,
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
from reviewer_app.protocol.intake import ApiKeyCreate, ApiKeyCreated, ApiKeyInfo, ApiKeyList
from reviewer_app.protocol.meta import (
    QueueFileHistory,
    RoleChange,
    RunningQueueFile,
    UserCreate,
    UserList,
)
from reviewer_app.protocol.search import (
    SavedView,
    SavedViewCreate,
    SavedViewList,
    SearchKind,
    SearchPage,
)
from reviewer_app.protocol.webhooks import WebhookList

from .decision_csv import ExportCancelled, copy_decision_csv
from .errors import (
    ApiError,
    AuthenticationRequired,
    Forbidden,
    IncompatibleServer,
    NetworkError,
    ProblemError,
    ProtocolError,
    ServiceUnavailable,
)

log = logging.getLogger("net")

M = TypeVar("M", bound=BaseModel)

#: The major versions of the wire contract this client speaks.
SUPPORTED_MAJORS = frozenset({API_MAJOR})
BUSY_STATUSES = frozenset({429, 502, 503, 504})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
#: a decision query with no filter: every decision
ANY_DECISION = DecisionQuery()
#: POST routes that are safe to repeat: renew/release are idempotent, verdicts and bulk
#: decisions carry keys.
REPEATABLE_POSTS = ("/leases/", "/verdicts", "/decisions/bulk")


@dataclass(frozen=True)
class Timeouts:
    connect: float = 3.05
    read: float = 20.0
    #: for claims of many items and media downloads
    long_read: float = 90.0


class _Retry(Retry):
    """urllib3's Retry, except that a ``Retry-After`` longer than ``max_wait`` ends the
    retries at once (the caller then waits, interruptibly, instead of a blocked thread)."""

    max_wait: float = 5.0

    def new(self, **kw: Any) -> Self:
        made = super().new(**kw)
        made.max_wait = self.max_wait
        return made

    def increment(
        self,
        method: str | None = None,
        url: str | None = None,
        response: BaseHTTPResponse | None = None,
        error: Exception | None = None,
        _pool: ConnectionPool | None = None,
        _stacktrace: TracebackType | None = None,
    ) -> Self:
        if response is not None:
            wait = parse_retry_after(response.headers.get("Retry-After"))
            if wait is not None and wait > self.max_wait:
                raise MaxRetryError(_pool, url or "", None)  # type: ignore[arg-type]
        return super().increment(method, url, response, error, _pool, _stacktrace)


def _retry_policy(methods: frozenset[str] | None) -> _Retry:
    return _Retry(
        total=4,
        connect=2,
        read=2,
        status=2,
        other=0,
        redirect=0,
        allowed_methods=methods,
        status_forcelist=BUSY_STATUSES,
        backoff_factor=0.1,
        backoff_max=1.0,
        backoff_jitter=0.1,
        respect_retry_after_header=True,
        raise_on_status=False,
    )


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or an HTTP date), or None."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(min(int(value), 86_400))
    parsed = email.utils.parsedate_tz(value)
    if parsed is None:
        return None
    return max(0.0, min(86_400.0, email.utils.mktime_tz(parsed) - time.time()))


def normalise_server_url(url: str) -> str:
    """``https://host:port`` (no path, no trailing slash); raises ValueError when unusable."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"{url!r} is not an http(s) server address")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError(f"{url!r}: give only the scheme, host and port")
    path = parts.path.rstrip("/")
    return f"{parts.scheme}://{parts.netloc.lower()}{path}"


class ApiClient:
    """One server, its token and its retry policy. Safe to share between threads: each
    thread that calls gets its own ``requests.Session`` (requests does not promise a
    Session is thread-safe: its cookie jar and adapters are shared state), made on its
    first call and reused after, so the lead workspace's concurrent ops share one client
    without a lock that would queue a page load behind a long export. ``token`` may be
    replaced at any time (a new login); a call reads it once."""

    def __init__(
        self,
        server_url: str,
        *,
        token: str | None = None,
        ca_bundle: str | Path | None = None,
        timeouts: Timeouts | None = None,
        max_reply_bytes: int = 64 * 1024 * 1024,
        user_agent: str = "reviewer-app",
        on_auth_required: Callable[[AuthenticationRequired], None] | None = None,
    ) -> None:
        self.server_url = normalise_server_url(server_url)
        self.base = self.server_url + API_PREFIX
        self.token = token
        self.timeouts = timeouts or Timeouts()
        self.max_reply_bytes = max_reply_bytes
        #: items the last claim left out because they break the contract: (id, why)
        self.unusable: list[tuple[str, str]] = []
        #: told of every 401 (on the calling thread) before it is raised
        self.on_auth_required = on_auth_required
        self._verify: str | bool = str(ca_bundle) if ca_bundle else True
        self._user_agent = user_agent
        #: one session per thread (by thread id: a pool thread keeps its own across jobs)
        self._sessions: dict[int, requests.Session] = {}
        self._sessions_lock = threading.Lock()

    @property
    def session(self) -> requests.Session:
        """The calling thread's session."""
        thread = threading.get_ident()
        with self._sessions_lock:
            made = self._sessions.get(thread)
            if made is None:
                made = self._sessions[thread] = self._new_session()
        return made

    def _new_session(self) -> requests.Session:
        session = requests.Session()
        session.trust_env = False  # no ~/.netrc credentials, no proxy surprises
        session.verify = self._verify
        session.headers.update({"User-Agent": self._user_agent, "Accept": "application/json"})
        session.mount("http://", HTTPAdapter(max_retries=_retry_policy(SAFE_METHODS)))
        session.mount("https://", HTTPAdapter(max_retries=_retry_policy(SAFE_METHODS)))
        for route in REPEATABLE_POSTS:
            # the longest matching prefix wins, so these routes also retry a POST
            session.mount(self.base + route, HTTPAdapter(max_retries=_retry_policy(None)))
        return session

    def close(self) -> None:
        """Close every thread's session (a later call opens a new one)."""
        with self._sessions_lock:
            sessions = list(self._sessions.values())
            self._sessions.clear()
        for session in sessions:
            session.close()

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- the calls -------------------------------------------------------------------

    def meta(self) -> Meta:
        return self._call("GET", "/meta", reply=Meta, auth=False)

    def check_compatible(self) -> Meta:
        """``GET /meta``; raises IncompatibleServer for a major version we do not speak."""
        meta = self.meta()
        major = int(meta.api_version.split(".", 1)[0])
        if major not in SUPPORTED_MAJORS:
            ours = ", ".join(f"{m}.x" for m in sorted(SUPPORTED_MAJORS))
            raise IncompatibleServer(
                f"The server at {self.server_url} speaks API version {meta.api_version}; "
                f"this client speaks {ours}. Use a client release for API "
                f"{major}.x, or a server that still offers {ours}."
            )
        return meta

    def login(self, username: str, password: str) -> SessionInfo:
        info = self._call(
            "POST",
            "/sessions",
            body=SessionCreate(username=username, password=password),
            reply=SessionInfo,
            auth=False,
        )
        self.token = info.token
        return info

    def logout(self) -> None:
        """Revokes the token on the server (an expired token is as good as revoked)."""
        try:
            self._call("DELETE", "/sessions/current", reply=None)
        except AuthenticationRequired:
            pass
        finally:
            self.token = None

    def me(self) -> User:
        return self._call("GET", "/me", reply=User)

    def queues(self) -> QueueList:
        return self._call("GET", "/queues", reply=QueueList)

    def claim(self, queue_id: str, count: int, lease_seconds: int) -> LeaseGrant:
        """Lease up to ``count`` items. An item that breaks the contract does not spoil the
        others: it is left out of the grant and listed in ``unusable`` (item id or token,
        and why), so the caller can report it."""
        what = f"POST /queues/{queue_id}/leases"
        doc = self._call(
            "POST",
            f"/queues/{quote(queue_id, safe='')}/leases",
            body=LeaseClaim(count=count, lease_seconds=lease_seconds),
            reply=None,
            parse=True,
            read_timeout=self.timeouts.long_read,
        )
        if not isinstance(doc, dict) or not isinstance(doc.get("items"), list):
            raise ProtocolError(f"The server's reply to {what} breaks the contract: no items.")
        items, self.unusable = [], []
        for raw_item in doc["items"]:
            try:
                items.append(LeasedItem.model_validate(raw_item))
            except ValidationError as err:
                name = _name_of(raw_item)
                self.unusable.append((name, _summary(err)))
                log.warning("item %s from %s left out: %s", name, what, _summary(err))
        return self._validated(LeaseGrant, {**doc, "items": []}, what).model_copy(
            update={"items": items}
        )

    def renew(self, tokens: Sequence[str], lease_seconds: int) -> LeaseResults:
        body = LeaseRenewal(tokens=list(tokens), lease_seconds=lease_seconds)
        return self._call("POST", "/leases/renew", body=body, reply=LeaseResults)

    def release(self, tokens: Sequence[str], *, skipped: bool = False) -> LeaseResults:
        """Give leases back; ``skipped``: the reviewer skipped the items (the service then
        offers them to this reviewer only when nothing else is left)."""
        body = LeaseRelease(tokens=list(tokens), skipped=skipped)
        return self._call("POST", "/leases/release", body=body, reply=LeaseResults)

    def record_break(self, record: BreakRecord) -> BreakRecord:
        """A break this reviewer takes, as it starts or ends (the same id updates it)."""
        return self._call("POST", "/breaks", body=record, reply=BreakRecord)

    def exposure(self) -> ExposureReport:
        """Per reviewer: items of each kind of harm this shift and in 7 days, and breaks."""
        return self._call("GET", "/stats/exposure", reply=ExposureReport)

    def item(self, item_id: str) -> Item:
        return self._call("GET", f"/items/{quote(item_id, safe='')}", reply=Item)

    def history(self, item_id: str, cursor: str | None = None) -> EventPage:
        params = {"cursor": cursor} if cursor else None
        return self._call(
            "GET", f"/items/{quote(item_id, safe='')}/history", reply=EventPage, params=params
        )

    def verdicts(self, verdicts: Sequence[Verdict]) -> VerdictResults:
        results = self._call(
            "POST", "/verdicts", body=VerdictBatch(verdicts=list(verdicts)), reply=VerdictResults
        )
        sent = [(v.idempotency_key, v.item_id) for v in verdicts]
        got = [(r.idempotency_key, r.item_id) for r in results.results]
        if got != sent:
            raise ProtocolError(
                f"The server answered {len(got)} verdict results that do not match the "
                f"{len(sent)} verdicts sent; none of them is taken as delivered."
            )
        return results

    def decisions(
        self,
        query: DecisionQuery = ANY_DECISION,
        *,
        order: str = "desc",
        cursor: str | None = None,
        limit: int = 500,
    ) -> DecisionPage:
        """One page of the decisions ``query`` matches (lead and admin only): ``since``
        inclusive, ``until`` exclusive; ``order`` by id, ``"desc"`` (newest first) or
        ``"asc"``. Pass the page's ``next_cursor`` back as ``cursor``."""
        if order not in ("asc", "desc"):
            raise ValueError(f"order must be 'asc' or 'desc', not {order!r}")
        params: dict[str, str | int] = {**_query_params(query), "order": order, "limit": limit}
        if cursor is not None:
            params["cursor"] = cursor
        return self._call("GET", "/decisions", reply=DecisionPage, params=params)

    def export_decisions(
        self,
        out: TextIO,
        query: DecisionQuery = ANY_DECISION,
        *,
        progress: Callable[[int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> int:
        """Stream the matching decisions as CSV (oldest first) into ``out``, a text file
        opened with ``newline=""``; returns the number of decision rows written.

        The reply is copied as it arrives, never held whole: memory stays flat for any
        number of rows, and the read timeout applies to each chunk, not to the export.
        The header is checked against ``DECISION_COLUMNS`` and every cell neutralised
        again. ``progress(rows)`` is called about every 1,000 rows; when ``cancelled()``
        turns true the copy stops with ExportCancelled. On any error ``out`` holds an
        incomplete export: write to a temporary file and rename it on success.
        """
        what = "GET /decisions/export"
        params = _query_params(query)
        response = self._send(
            "GET", "/decisions/export", None, params, True, self.timeouts.long_read, "text/csv"
        )
        try:
            if response.status_code != 200:
                raw = self._read(response, what, 1024 * 1024)
                raise self._problem(response, raw, what)
            kind = response.headers.get("Content-Type", "")
            if not kind.lower().startswith("text/csv"):
                raise ProtocolError(
                    f"The server answered {what} with {kind or 'no content type'!r}, "
                    "not CSV; nothing from it was used."
                )
            source = io.TextIOWrapper(
                io.BufferedReader(_ChunkStream(response.iter_content(256 * 1024))),
                encoding="utf-8-sig",
                newline="",
            )
            return copy_decision_csv(source, out, what=what, progress=progress, cancelled=cancelled)
        except requests.RequestException as err:
            raise NetworkError(
                f"The export from {self.server_url} was cut off ({_reason(err)}); "
                "the export is incomplete.",
                maybe_applied=True,
            ) from None
        except UnicodeDecodeError:
            raise ProtocolError(
                f"The reply to {what} is not UTF-8 text; the export is incomplete."
            ) from None
        finally:
            response.close()

    # --- feedback to reviewers -------------------------------------------------------

    def my_decisions(
        self,
        since: datetime | None = None,
        until: datetime | None = None,
        cursor: str | None = None,
        limit: int = 200,
    ) -> MyDecisionPage:
        """The caller's own decisions, newest first, with what became of each (default
        window: the last 7 days)."""
        params: dict[str, str | int] = {"limit": limit}
        if since is not None:
            params["since"] = _wire_time(since, "since")
        if until is not None:
            params["until"] = _wire_time(until, "until")
        if cursor:
            params["cursor"] = cursor
        return self._call("GET", "/me/decisions", reply=MyDecisionPage, params=params)

    def feedback_notice(self) -> FeedbackNotice:
        """Overturns and leads' notes on the caller's decisions since they last looked."""
        return self._call("GET", "/me/feedback", reply=FeedbackNotice)

    def mark_feedback_seen(self, until: datetime) -> FeedbackNotice:
        """The caller saw their feedback up to ``until`` (a notice's ``as_of``). Repeating
        it is harmless, but like every POST it is retried only when it surely never
        arrived."""
        body = FeedbackSeen(until=until)
        return self._call("POST", "/me/feedback/seen", body=body, reply=FeedbackNotice)

    def add_decision_note(self, decision_id: int, note: str) -> DecisionNote:
        """A lead's note to the decision's reviewer."""
        body = DecisionNoteCreate(note=note)
        return self._call(
            "POST", f"/decisions/{int(decision_id)}/notes", body=body, reply=DecisionNote
        )

    def decision_notes(self, decision_id: int) -> DecisionNoteList:
        return self._call("GET", f"/decisions/{int(decision_id)}/notes", reply=DecisionNoteList)

    # --- lead figures and audits ------------------------------------------------------

    def queue_stats(
        self,
        since: datetime,
        until: datetime,
        *,
        queue_id: str | None = None,
        bucket: str = "hour",
    ) -> QueueStatsReport:
        """Queue health now and throughput over ``[since, until)`` in ``bucket``s
        (``"hour"`` or ``"day"``); one queue or all."""
        params: dict[str, str | int] = {
            "since": _wire_time(since, "since"),
            "until": _wire_time(until, "until"),
            "bucket": bucket,
        }
        if queue_id is not None:
            params["queue_id"] = queue_id
        return self._call("GET", "/stats/queues", reply=QueueStatsReport, params=params)

    def reviewer_stats(self, since: datetime, until: datetime) -> ReviewerStatsReport:
        """Per-reviewer volume, handle time, audit agreement and kappa over the window."""
        params = {"since": _wire_time(since, "since"), "until": _wire_time(until, "until")}
        return self._call("GET", "/stats/reviewers", reply=ReviewerStatsReport, params=params)

    def quality(
        self, since: datetime, until: datetime, thresholds: QualityThresholds
    ) -> QualityReport:
        """Quality flags per reviewer over the window, against the window before it."""
        params: dict[str, str | int] = {
            "since": _wire_time(since, "since"),
            "until": _wire_time(until, "until"),
            **{k: str(v) for k, v in thresholds.model_dump().items()},
        }
        return self._call("GET", "/stats/quality", reply=QualityReport, params=params)

    def reviewer_trend(self, reviewer: str, since: datetime, until: datetime) -> ReviewerTrend:
        """One reviewer's decisions, median handle time and overturns per UTC day."""
        params = {"since": _wire_time(since, "since"), "until": _wire_time(until, "until")}
        path = f"/stats/reviewers/{quote(reviewer, safe='')}/trend"
        return self._call("GET", path, reply=ReviewerTrend, params=params)

    def create_sample(self, body: AuditSampleCreate) -> AuditSample:
        """Draw an audit sample. A POST that is not repeated once it may have arrived."""
        return self._call("POST", "/audits/samples", body=body, reply=AuditSample)

    def samples(self, cursor: str | None = None) -> AuditSampleList:
        """Audit samples, newest first, a page at a time."""
        params = {"cursor": cursor} if cursor else None
        return self._call("GET", "/audits/samples", reply=AuditSampleList, params=params)

    def sample(self, sample_id: int) -> AuditSample:
        return self._call("GET", f"/audits/samples/{int(sample_id)}", reply=AuditSample)

    def next_audit(self, sample_id: int) -> AuditTaskGrant:
        """The caller's next item of the sample, blind (``task`` None when none is left).
        The server hands the same item again until its result is recorded, but like the
        claim this POST is retried only when it surely never reached the server."""
        return self._call(
            "POST",
            f"/audits/samples/{int(sample_id)}/next",
            reply=AuditTaskGrant,
            read_timeout=self.timeouts.long_read,
        )

    def record_audit(
        self, audit_id: int, result: AuditAgree | AuditOverturn | AuditJudgement
    ) -> AuditResult:
        """Agree, overturn with the corrected decision, or (blind) judge the item afresh
        and let the service compare; the reply reveals the original. A second result for
        the same audit is a 409 (ProblemError). Retried only if it surely never arrived."""
        return self._call(
            "POST", f"/audits/tasks/{int(audit_id)}/result", body=result, reply=AuditResult
        )

    def audit_results(self, sample_id: int) -> AuditResults:
        return self._call("GET", f"/audits/samples/{int(sample_id)}/results", reply=AuditResults)

    def events(self, cursor: str | None = None, limit: int = 500) -> EventPage:
        params: dict[str, str | int] = {"limit": limit}
        if cursor:
            params["cursor"] = cursor
        return self._call("GET", "/events", reply=EventPage, params=params)

    def search(
        self, kind: SearchKind, q: str, *, cursor: str | None = None, limit: int = 50
    ) -> SearchPage:
        """One page of the items a lead's search finds, newest first, each with its
        decision (leads and admins). Pass the page's ``next_cursor`` back as ``cursor``."""
        params: dict[str, str | int] = {"kind": kind.value, "q": q, "limit": limit}
        if cursor is not None:
            params["cursor"] = cursor
        return self._call("GET", "/search", reply=SearchPage, params=params)

    def saved_views(self) -> SavedViewList:
        """The caller's saved views and those other leads shared."""
        return self._call("GET", "/views", reply=SavedViewList)

    def save_view(self, view: SavedViewCreate) -> SavedView:
        return self._call("POST", "/views", reply=SavedView, body=view)

    def delete_view(self, view_id: int) -> None:
        self._call("DELETE", f"/views/{int(view_id)}", reply=None)

    def escalations(self, cursor: str | None = None, limit: int = 100) -> EscalationPage:
        """A page of the open escalations, oldest first (leads and admins)."""
        params: dict[str, str | int] = {"limit": limit}
        if cursor:
            params["cursor"] = cursor
        return self._call("GET", "/escalations", reply=EscalationPage, params=params)

    def all_escalations(self, limit: int = 500) -> list[EscalationEntry]:
        """Every open escalation, page after page (a list of a few hundred at most)."""
        found: list[EscalationEntry] = []
        cursor: str | None = None
        while True:
            page = self.escalations(cursor, limit)
            found += page.escalations
            cursor = page.next_cursor
            if cursor is None:
                return found

    def assign_escalation(self, item_id: str, assignee: str | None) -> EscalationEntry:
        """Assign an open escalation to a lead (None: to nobody). Safe to repeat."""
        path = f"/escalations/{quote(item_id, safe='')}/assignee"
        body = EscalationAssignment(assignee=assignee)
        return self._call("PUT", path, body=body, reply=EscalationEntry)

    def webhooks(self) -> WebhookList:
        """Webhook endpoints and their health (leads and admins)."""
        return self._call("GET", "/webhooks", reply=WebhookList)

    def linked_accounts(self, author_id: str) -> LinkedAccounts:
        """The author and the accounts sharing account signals with them (leads)."""
        path = f"/authors/{quote(author_id, safe='')}/linked"
        return self._call("GET", path, reply=LinkedAccounts)

    def account_action(self, body: AccountActionRequest) -> AccountActionResults:
        """One account action on each named account, all or none (leads). A 409
        ``already_actioned`` or 404 ``unknown_author`` applied nothing. Like every POST
        without an idempotency key, retried only when it surely never arrived."""
        return self._call("POST", "/authors/actions", body=body, reply=AccountActionResults)

    def open_items(self, author_id: str, *, linked: bool = False) -> OpenItems:
        """The author's open items in every queue (and their linked accounts' with
        ``linked``), oldest first: what a bulk decision on the account takes (leads)."""
        path = f"/authors/{quote(author_id, safe='')}/open-items"
        params = {"linked": "true"} if linked else None
        return self._call("GET", path, reply=OpenItems, params=params)

    def bulk_decide(self, body: BulkDecisionRequest) -> BulkDecisionResults:
        """One action on each item, each its own decision, all or none (leads). A 409
        ``bulk_refused`` recorded nothing: its ``errors`` name the items (``refused_items``).
        Each item carries its own key, so the call is retried like a verdict batch; the
        same body again answers the same decisions (``duplicate``)."""
        results = self._call(
            "POST",
            "/decisions/bulk",
            body=body,
            reply=BulkDecisionResults,
            read_timeout=max(self.timeouts.read, 60.0),
        )
        sent = [(i.idempotency_key, i.item_id) for i in body.items]
        got = [(r.idempotency_key, r.item_id) for r in results.results]
        if got != sent:
            raise ProtocolError(
                f"The server answered {len(got)} results that do not match the "
                f"{len(sent)} items of the bulk decision."
            )
        return results

    # --- administration (admins only) -------------------------------------------------

    def users(self) -> UserList:
        """Every user: people and service accounts, with their roles."""
        return self._call("GET", "/users", reply=UserList)

    def create_user(self, body: UserCreate) -> User:
        """A new person with a password (409 when the username is taken)."""
        return self._call("POST", "/users", body=body, reply=User)

    def change_role(self, username: str, body: RoleChange) -> User:
        path = f"/users/{quote(username, safe='')}/role"
        return self._call("PUT", path, body=body, reply=User)

    def api_keys(self) -> ApiKeyList:
        """Service accounts' API keys, live and revoked: never the key itself."""
        return self._call("GET", "/admin/api-keys", reply=ApiKeyList)

    def create_api_key(self, body: ApiKeyCreate) -> ApiKeyCreated:
        """A new key: the answer is the only time the key itself is shown."""
        return self._call("POST", "/admin/api-keys", body=body, reply=ApiKeyCreated)

    def revoke_api_key(self, key_id: int) -> ApiKeyInfo:
        return self._call("DELETE", f"/admin/api-keys/{int(key_id)}", reply=ApiKeyInfo)

    def queue_file(self) -> RunningQueueFile:
        """The running queue file as TOML, with its configuration version."""
        return self._call("GET", "/admin/queue-file", reply=RunningQueueFile)

    def queue_file_history(self) -> QueueFileHistory:
        """Every configuration version, newest first."""
        return self._call("GET", "/admin/queue-file/history", reply=QueueFileHistory)

    def media(self, media_id: str, *, max_bytes: int = 50 * 1024 * 1024) -> tuple[bytes, str]:
        """The bytes of one media file and their content type."""
        response = self._send(
            "GET", f"/media/{quote(media_id, safe='')}", None, None, True, self.timeouts.long_read
        )
        body = self._read(response, "GET /media", min(max_bytes, self.max_reply_bytes))
        if response.status_code != 200:
            raise self._problem(response, body, "GET /media")
        kind = response.headers.get("Content-Type", "application/octet-stream")
        return body, kind.split(";", 1)[0].strip()

    # --- the machinery ---------------------------------------------------------------

    def _call(
        self,
        method: str,
        path: str,
        *,
        reply: type[M] | None,
        body: BaseModel | None = None,
        params: Mapping[str, str | int] | None = None,
        auth: bool = True,
        read_timeout: float | None = None,
        parse: bool = False,
    ) -> Any:
        what = f"{method} {path}"
        data = body.model_dump_json(exclude_none=False).encode() if body is not None else None
        response = self._send(method, path, data, params, auth, read_timeout)
        raw = self._read(response, what, self.max_reply_bytes)
        if not 200 <= response.status_code < 300:
            raise self._problem(response, raw, what)
        if parse:
            return _loads(raw, what)
        if reply is None:
            return None
        try:
            return reply.model_validate_json(raw)
        except ValidationError as err:
            if err.errors()[0].get("type") != "json_invalid":
                raise ProtocolError(_broken(what, err)) from None
        # pydantic's parser refuses lone surrogates (legal JSON escapes); Python's takes them
        return self._validated(reply, _loads(raw, what), what)

    @staticmethod
    def _validated(model: type[M], doc: Any, what: str) -> M:
        try:
            return model.model_validate(doc)
        except ValidationError as err:
            raise ProtocolError(_broken(what, err)) from None

    def _send(
        self,
        method: str,
        path: str,
        data: bytes | None,
        params: Mapping[str, str | int] | None,
        auth: bool,
        read_timeout: float | None,
        accept: str | None = None,
    ) -> requests.Response:
        headers = {"Content-Type": "application/json"} if data is not None else {}
        if accept is not None:
            headers["Accept"] = accept
        if auth:
            if not self.token:
                raise AuthenticationRequired(
                    401,
                    Problem(
                        title="Not logged in",
                        status=401,
                        code="not_logged_in",
                        detail="Log in to the review service first.",
                    ),
                )
            headers["Authorization"] = f"Bearer {self.token}"
        timeout = (self.timeouts.connect, read_timeout or self.timeouts.read)
        what = f"{method} {path}"
        try:
            return self.session.request(
                method,
                self.base + path,
                data=data,
                params=params,
                headers=headers,
                timeout=timeout,
                stream=True,
                allow_redirects=False,
            )
        except (requests.ConnectTimeout, requests.exceptions.SSLError) as err:
            raise NetworkError(
                f"Could not connect to {self.server_url} ({_reason(err)})."
            ) from None
        except requests.ConnectionError as err:
            connected = not _never_connected(err)
            raise NetworkError(
                f"The connection to {self.server_url} failed during {what} ({_reason(err)}).",
                maybe_applied=connected,
            ) from None
        except requests.Timeout:
            raise NetworkError(
                f"{self.server_url} did not answer {what} within {timeout[1]:g} s.",
                maybe_applied=True,
            ) from None
        except requests.RequestException as err:
            raise NetworkError(f"{what} failed: {_reason(err)}", maybe_applied=True) from None

    def _read(self, response: requests.Response, what: str, limit: int) -> bytes:
        try:
            declared = int(response.headers.get("Content-Length") or 0)
            if declared > limit:
                raise ProtocolError(
                    f"The reply to {what} would be {declared:,} bytes, over this client's "
                    f"limit of {limit:,}; it was not read."
                )
            chunks: list[bytes] = []
            size = 0
            for chunk in response.iter_content(256 * 1024):
                size += len(chunk)
                if size > limit:
                    raise ProtocolError(
                        f"The reply to {what} grew past this client's limit of {limit:,} bytes; "
                        "it was dropped."
                    )
                chunks.append(chunk)
            return b"".join(chunks)
        except requests.RequestException as err:
            raise NetworkError(
                f"The reply to {what} was cut off ({_reason(err)}); nothing from it was used.",
                maybe_applied=True,
            ) from None
        finally:
            response.close()

    def _problem(self, response: requests.Response, raw: bytes, what: str) -> ApiError:
        status = response.status_code
        retry_after = parse_retry_after(response.headers.get("Retry-After"))
        try:
            problem = Problem.model_validate_json(raw)
        except ValidationError:
            problem = Problem(
                title=response.reason or "HTTP error",
                status=status if 400 <= status <= 599 else 502,
                code=f"http_{status}",
                detail=f"{what} answered HTTP {status} without a problem document.",
            )
        if status == 401:
            refused = AuthenticationRequired(status, problem, retry_after)
            if self.on_auth_required is not None:
                self.on_auth_required(refused)
            return refused
        if status == 403:
            return Forbidden(status, problem, retry_after)
        if status in BUSY_STATUSES or status >= 500:
            return ServiceUnavailable(status, problem, retry_after)
        if 300 <= status < 400 or status < 200:
            return ProtocolError(f"{what} answered an unexpected HTTP {status}.")
        return ProblemError(status, problem, retry_after)


class _ChunkStream(io.RawIOBase):
    """A readable raw stream over the chunks of a streamed reply (for io.BufferedReader)."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        super().__init__()
        self._chunks = chunks
        self._left = memoryview(b"")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self._left:
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            self._left = memoryview(chunk)
        size = min(len(buffer), len(self._left))
        buffer[:size] = self._left[:size]
        self._left = self._left[size:]
        return size


def _wire_time(value: datetime, name: str) -> str:
    """A query time as RFC 3339; a time without a zone is refused (it would be a guess)."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{name} must carry a time zone (e.g. datetime.now(UTC))")
    return value.isoformat()


def _query_params(query: DecisionQuery) -> dict[str, str | int]:
    """The query string of a decision search or export (times checked as ``_wire_time``)."""
    for name in ("since", "until"):
        if (value := getattr(query, name)) is not None:
            _wire_time(value, name)
    return dict(query.params())


def _clean(value: Any) -> Any:
    """JSON data with lone surrogates in its strings replaced by U+FFFD."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return value
        except UnicodeEncodeError:
            return value.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    if isinstance(value, list):
        return [_clean(v) for v in value]
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    return value


def _loads(raw: bytes, what: str) -> Any:
    try:
        return _clean(json.loads(raw))
    except (ValueError, RecursionError) as err:
        raise ProtocolError(
            f"The server's reply to {what} is not JSON ({err}). Nothing from it was used."
        ) from None


def _summary(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or "the reply"
    return f"{err.error_count()} problem(s); first at {where}: {first.get('msg')}"


def _broken(what: str, err: ValidationError) -> str:
    return (
        f"The server's reply to {what} breaks the contract ({_summary(err)}). "
        "Nothing from it was used."
    )


def _name_of(raw_item: Any) -> str:
    if isinstance(raw_item, dict):
        item = raw_item.get("item")
        if isinstance(item, dict) and isinstance(item.get("id"), str):
            return item["id"][:100]
    return "(unknown item)"


def _reason(err: BaseException) -> str:
    """The innermost cause, in words, without the URL noise of requests' messages."""
    inner: BaseException = err
    while True:
        nxt = getattr(inner, "reason", None) or inner.__context__
        if not isinstance(nxt, BaseException) or nxt is inner:
            break
        inner = nxt
    text = str(inner) or type(inner).__name__
    return text if len(text) < 200 else text[:197] + "..."


def _never_connected(err: requests.ConnectionError) -> bool:
    """True when the request surely never reached the server (refused, no route, DNS)."""
    from urllib3.exceptions import NameResolutionError, NewConnectionError

    inner: BaseException | None = err
    seen = 0
    while inner is not None and seen < 10:
        if isinstance(inner, NewConnectionError | NameResolutionError | ConnectionRefusedError):
            return True
        inner = getattr(inner, "reason", None) or inner.__context__
        seen += 1
    return False


__all__ = [
    "SUPPORTED_MAJORS",
    "ApiClient",
    "ApiError",
    "ExportCancelled",
    "Timeouts",
    "normalise_server_url",
]
