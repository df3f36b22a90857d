"""The Service's lead operations: the event log, search and saved views, figures, feedback,
wellbeing, audits, escalations and bulk decisions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlalchemy import Connection

from reviewer_app.protocol import (
    MAX_TREND_DAYS,
    MY_DECISIONS_MAX_DAYS,
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
    EventKind,
    EventPage,
    ExposureReport,
    FeedbackNotice,
    MyDecisionPage,
    QualityReport,
    QualityThresholds,
    QueueStatsReport,
    ReviewerStatsReport,
    ReviewerTrend,
    StatsBucket,
)
from reviewer_app.protocol.bulk_decisions import BulkDecisionRequest, BulkDecisionResults, OpenItems
from reviewer_app.protocol.search import (
    SavedView,
    SavedViewCreate,
    SavedViewList,
    SearchKind,
    SearchPage,
)
from reviewer_app.server.domain import (
    audits,
    bulk_decisions,
    escalations,
    feedback,
    history,
    local_days,
    quality,
    queues,
    search,
    search_index,
    stats,
    users,
    views,
    wellbeing,
)
from reviewer_app.server.domain import held_back as held_back_posts
from reviewer_app.server.domain.records import Principal, decode_cursor, encode_cursor, to_dt
from reviewer_app.server.domain.search import DecisionFilter, Order
from reviewer_app.server.facade.base import DAY_SECONDS, DEFAULT_WINDOW_SECONDS, ServiceBase, log
from reviewer_app.server.problems import ApiError
from reviewer_app.server.storage.replica import ReadSource


class LeadFacade(ServiceBase):
    """What leads read and do (each call its own transaction)."""

    def events(self, cursor: str | None, limit: int, kind: EventKind | None) -> EventPage:
        """The sealed log in seq order. A read barrier first: everything committed before
        this request is sealed into the log (so a lead sees what just happened, and a
        cursor once passed is never passed by a late entry)."""
        after = decode_cursor(cursor)
        try:
            self.seal_now()
        except Exception as exc:  # the log as sealed so far is still the log
            log.warning("read barrier of the event log failed: %s", type(exc).__name__)
        with self.db.read() as conn:
            return history.log_page(conn, kind, after, limit)

    def decisions(
        self,
        cursor: str | None,
        limit: int,
        found: DecisionFilter | None = None,
        order: Order = Order.asc,
    ) -> DecisionPage:
        """Decisions matching the filter, by id (oldest or newest first), a page at a time."""
        after = decode_cursor(cursor)
        return self.reads.run(  # the replica when there is one
            lambda conn, _source: search.page(conn, found or DecisionFilter(), after, limit, order)
        )

    def export_decisions(self, found: DecisionFilter) -> Iterator[str]:
        """The matching decisions as CSV chunks (see search.export_csv; from the replica
        when there is one). The first chunk is read here, before the response starts; a
        replica lost midway hands the rest of the export to the primary (Reads.pages),
        which goes on from the last row sent."""
        return search.export_csv(self.reads.pages(), found)

    def search_items(self, kind: SearchKind, q: str, cursor: str | None, limit: int) -> SearchPage:
        """Items matching a lead's search with their decisions, newest first (see
        search_index.py; from the replica when there is one)."""
        after = decode_cursor(cursor)
        return self.reads.run(
            lambda conn, _source: search_index.search(conn, kind, q, after, limit, self.postgres)
        )

    def saved_views(self, user: Principal) -> SavedViewList:
        with self.db.read() as conn:
            return views.listing(conn, user)

    def save_view(self, user: Principal, body: SavedViewCreate) -> SavedView:
        with self.db.write() as conn:
            return views.create(conn, user, body, self.clock())

    def delete_view(self, user: Principal, view_id: int) -> None:
        with self.db.write() as conn:
            views.remove(conn, user, view_id)

    def window(self, since: float | None, until: float | None) -> tuple[float, float]:
        """A stats window (epoch seconds): the last 24 hours unless told otherwise."""
        end = until if until is not None else self.clock()
        start = since if since is not None else max(end - DEFAULT_WINDOW_SECONDS, quality.EARLIEST)
        return start, end

    def queue_stats(
        self,
        since: float | None,
        until: float | None,
        bucket: StatsBucket,
        queue_id: str | None = None,
        tz: str | None = None,
    ) -> QueueStatsReport:
        """Queue health now and over the window; day buckets are the days of ``tz``."""
        start, end = self.window(since, until)
        stats.check_window(start, end, stats.SPANS[bucket])
        zone = local_days.zone(tz)
        now = self.clock()

        def read(conn: Connection, source: ReadSource) -> tuple[Any, Any, ReadSource]:
            chosen = queues.for_stats(conn, queue_id)
            found = stats.queue_stats(conn, chosen, start, end, bucket, now, zone)
            return found, held_back_posts.held_back(conn, start, end), source

        found, held_back, source = self.reads.run(read)
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

        def read(conn: Connection, source: ReadSource) -> tuple[Any, ReadSource]:
            user_id = users.user_id(conn, reviewer) if reviewer is not None else None
            return stats.reviewer_stats(conn, start, end, user_id), source

        found, source = self.reads.run(read)
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
        found, source = self.reads.run(
            lambda conn, source: (quality.quality(conn, start, end, thresholds), source)
        )
        return QualityReport(
            since=to_dt(start),
            until=to_dt(end),
            previous_since=to_dt(quality.previous_since(start, end)),
            thresholds=thresholds,
            generated_at=to_dt(self.clock()),
            reviewers=found,
            staleness_seconds=round(source.staleness, 3),
            from_replica=source.replica,
        )

    def reviewer_trend(
        self, username: str, since: float | None, until: float | None, tz: str | None = None
    ) -> ReviewerTrend:
        """One reviewer's decisions, median handle time and overturns per day of ``tz``
        (UTC days without; default: the last 7 days)."""
        end = until if until is not None else self.clock()
        start = since if since is not None else max(end - 7 * DAY_SECONDS, quality.EARLIEST)
        stats.check_window(start, end)
        if end - start > MAX_TREND_DAYS * DAY_SECONDS:
            raise ApiError(422, "window_too_long", f"A trend spans at most {MAX_TREND_DAYS} days.")
        zone = local_days.zone(tz)
        days, source = self.reads.run(
            lambda conn, source: (
                quality.trend(conn, users.user_id(conn, username), start, end, zone),
                source,
            )
        )
        return ReviewerTrend(
            reviewer=username,
            since=to_dt(start),
            until=to_dt(end),
            days=days,
            time_zone=tz if tz is not None else "UTC",
            staleness_seconds=round(source.staleness, 3),
            from_replica=source.replica,
        )

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
        return self._write_retrying(
            lambda conn: feedback.add_note(conn, lead, decision_id, note, self.clock)
        )

    def decision_notes(self, user: Principal, decision_id: int) -> DecisionNoteList:
        with self.db.read() as conn:
            return DecisionNoteList(notes=feedback.notes(conn, user, decision_id))

    def feedback_notice(self, user: Principal) -> FeedbackNotice:
        """What came since the caller last looked, ``as_of`` taken once feedback to them
        under way has committed (feedback.py: on SQLite a write transaction waits for it)."""
        with self.db.read() if self.postgres else self.db.write() as conn:
            feedback.wait_for_writers(conn, user.id)
            return feedback.notice(conn, user, self.clock())

    def mark_feedback_seen(
        self, user: Principal, until: float, shown_since: float | None = None
    ) -> FeedbackNotice:
        return self._write_retrying(
            lambda conn: feedback.mark_seen(conn, user, until, self.clock, shown_since)
        )

    def exposure(self) -> ExposureReport:
        """Each reviewer's exposure to harm this shift and in the last 7 days (wellbeing.py)."""
        now = self.clock()
        found, source = self.reads.run(lambda conn, source: (wellbeing.exposure(conn, now), source))
        return ExposureReport(
            generated_at=to_dt(now),
            shift_gap_hours=wellbeing.SHIFT_GAP_SECONDS / 3600,
            reviewers=found,
            staleness_seconds=round(source.staleness, 3),
            from_replica=source.replica,
        )

    def record_break(self, user: Principal, record: BreakRecord) -> BreakRecord:
        """A reviewer's break, as it starts or ends (the same id updates it)."""
        return self._write_retrying(
            lambda conn: wellbeing.record_break(conn, user, record, self.clock())
        )

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
            feedback.hold_audit(conn, audit_id)  # the time after the locks (feedback.py)
            now = self.clock()
            return audits.record_result(
                conn, lead, audit_id, body, configs, now, config_version=version
            )

    def audit_results(self, sample_id: int) -> AuditResults:
        with self.db.read() as conn:
            return audits.results(conn, sample_id)

    def escalations(self, cursor: str | None, limit: int) -> EscalationPage:
        """The open escalations, oldest first, a page at a time."""
        with self.db.read() as conn:
            return escalations.page(conn, self.configs(), cursor, limit, self.clock())

    def assign_escalation(
        self, lead: Principal, item_id: str, assignee: str | None
    ) -> EscalationEntry:
        configs = self.configs()
        return self._write_retrying(
            lambda conn: escalations.assign(
                conn, lead, item_id, assignee, configs, self.clock(), postgres=self.postgres
            )
        )

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
