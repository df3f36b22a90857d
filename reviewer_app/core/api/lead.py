"""The calls of a lead's workspace: decisions (search, export, notes), figures, audits,
the event log, search and saved views, escalations, webhooks, account actions and bulk
decisions."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from datetime import datetime
from typing import TextIO
from urllib.parse import quote
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import requests

from reviewer_app.protocol import (
    AssigneeNow,
    AuditAgree,
    AuditJudgement,
    AuditOverturn,
    AuditResult,
    AuditResults,
    AuditSample,
    AuditSampleCreate,
    AuditSampleList,
    AuditTaskGrant,
    BreakRule,
    BreakRuleChange,
    BreakRuleChanged,
    BreakRuleSeen,
    DecisionNote,
    DecisionNoteCreate,
    DecisionNoteList,
    DecisionPage,
    DecisionQuery,
    EscalationAssignment,
    EscalationEntry,
    EscalationPage,
    EventPage,
    QualityReport,
    QualityThresholds,
    QueueStatsReport,
    ReviewerStatsReport,
    ReviewerTrend,
)
from reviewer_app.protocol.accounts import (
    AccountActionRequest,
    AccountActionResults,
    LinkedAccounts,
)
from reviewer_app.protocol.bulk_decisions import BulkDecisionRequest, BulkDecisionResults, OpenItems
from reviewer_app.protocol.search import (
    SavedView,
    SavedViewCreate,
    SavedViewList,
    SearchKind,
    SearchPage,
)
from reviewer_app.protocol.webhooks import WebhookList

from ..decision_csv import copy_decision_csv
from ..errors import NetworkError, ProtocolError
from .transport import ANY_DECISION, HttpClient, _ChunkStream, _query_params, _reason, _wire_time


def local_zone() -> str | None:
    """This machine's IANA time zone (``TZ``, or where ``/etc/localtime`` points), when it
    can be told and agrees with the clock's offset now; None otherwise (then days are
    UTC's, as before). The lead's views pass Qt's own instead (any platform)."""
    found = os.environ.get("TZ", "").removeprefix(":")
    if not found:
        try:
            found = os.path.realpath("/etc/localtime")
        except OSError:
            return None
    name = found.split("/zoneinfo/", 1)[-1]
    try:
        zone = ZoneInfo(name)
    except (ValueError, OSError, ZoneInfoNotFoundError):
        return None
    now = datetime.now().astimezone()
    return name if now.astimezone(zone).utcoffset() == now.utcoffset() else None


class LeadCalls(HttpClient):
    """What the Lead workspace calls (leads and admins)."""

    # --- decisions --------------------------------------------------------------------

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
        tz: str | None = None,
    ) -> QueueStatsReport:
        """Queue health now and throughput over ``[since, until)`` in ``bucket``s
        (``"hour"`` or ``"day"``: the days of the IANA time zone ``tz``, default this
        machine's: ``local_zone``); one queue or all."""
        params: dict[str, str | int] = {
            "since": _wire_time(since, "since"),
            "until": _wire_time(until, "until"),
            "bucket": bucket,
        }
        if queue_id is not None:
            params["queue_id"] = queue_id
        if (zone := tz if tz is not None else local_zone()) is not None:
            params["tz"] = zone
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

    def reviewer_trend(
        self, reviewer: str, since: datetime, until: datetime, *, tz: str | None = None
    ) -> ReviewerTrend:
        """One reviewer's decisions, median handle time and overturns per day of the IANA
        time zone ``tz`` (default this machine's: ``local_zone``; the reply names the zone
        its days are of)."""
        params = {"since": _wire_time(since, "since"), "until": _wire_time(until, "until")}
        if (zone := tz if tz is not None else local_zone()) is not None:
            params["tz"] = zone
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

    def assign_escalation(
        self, item_id: str, assignee: str | None, *, expected: AssigneeNow | None = None
    ) -> EscalationEntry:
        """Assign an open escalation to a lead (None: to nobody). Safe to repeat. With
        ``expected`` (its assignment as last seen), refused (409) when it is another now."""
        path = f"/escalations/{quote(item_id, safe='')}/assignee"
        body = EscalationAssignment(assignee=assignee, expected=expected)
        return self._call("PUT", path, body=body, reply=EscalationEntry)

    def set_breaks(
        self,
        queue_id: str,
        breaks: BreakRule | None,
        *,
        based_on: BreakRuleSeen | None = None,
        keep_high_harm: bool = False,
    ) -> BreakRuleChanged:
        """A queue's break reminders (None: none), as a new configuration version (leads).
        Safe to repeat. ``based_on``: the rule as read (another now: 409 ``breaks_changed``);
        ``keep_high_harm``: the queue's own high-harm kinds stay."""
        path = f"/queues/{quote(queue_id, safe='')}/breaks"
        body = BreakRuleChange(breaks=breaks, based_on=based_on, keep_high_harm=keep_high_harm)
        return self._call("PUT", path, body=body, reply=BreakRuleChanged)

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
