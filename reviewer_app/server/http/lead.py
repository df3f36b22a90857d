"""HTTP routes for leads (v1): escalations, webhooks, the event log, decision search, saved
views and the export, queue and reviewer figures, exposure, quality."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query, Response
from fastapi.responses import StreamingResponse
from pydantic import ValidationError

from reviewer_app.protocol import (
    API_PREFIX,
    QUERY_YEARS,
    BreakRuleChange,
    BreakRuleChanged,
    DecisionPage,
    EscalationAssignment,
    EscalationEntry,
    EscalationPage,
    EventKind,
    EventPage,
    ExposureReport,
    QualityReport,
    QualityThresholds,
    QueueStatsReport,
    ReviewerStatsReport,
    ReviewerTrend,
    StatsBucket,
    describe_errors,
)
from reviewer_app.protocol.common import ItemId, Slug, Username
from reviewer_app.protocol.csvsafe import MEDIA_TYPE as CSV_MEDIA_TYPE
from reviewer_app.protocol.search import (
    MAX_QUERY,
    SavedView,
    SavedViewCreate,
    SavedViewList,
    SearchKind,
    SearchPage,
)
from reviewer_app.protocol.webhooks import WebhookList
from reviewer_app.server.domain.search import Order
from reviewer_app.server.http.auth import LeadDep, ServiceDep
from reviewer_app.server.http.common import (
    AUTHED,
    Cursor,
    FilterDep,
    Limit,
    Since,
    TimeZone,
    Until,
    ViewId,
    _QualityParams,
    _time,
    json_response,
    problems,
)
from reviewer_app.server.problems import ApiError

router = APIRouter(prefix=API_PREFIX)


@router.get(
    "/escalations", response_model=EscalationPage, tags=["lead"], responses=problems(*AUTHED, 403)
)
def get_escalations(
    svc: ServiceDep,
    _lead: LeadDep,
    cursor: Cursor = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> Response:
    """The open escalations, oldest first: the post's excerpt, the queue it came from, who
    escalated it, when and why, how long it waits against the SLA, who holds it and to
    whom it is assigned (leads and admins)."""
    return json_response(svc.escalations(cursor, limit))


@router.put(
    "/escalations/{item_id}/assignee",
    response_model=EscalationEntry,
    tags=["lead"],
    responses=problems(*AUTHED, 403, 404, 409, 422),
)
def assign_escalation(
    item_id: Annotated[ItemId, Path()], body: EscalationAssignment, svc: ServiceDep, lead: LeadDep
) -> Response:
    """Assign an open escalation to a lead, or to nobody (``assignee`` null): only that
    lead's claims in the escalation queue take it, before the rest. A lease someone holds
    on it is not taken away. With ``expected`` (the assignment the lead saw), an escalation
    assigned otherwise now is refused (409 ``assigned_to_other`` naming who has it, or
    ``assignment_changed``: nobody); a lead whose access was ended is refused (422
    ``assignee_access_ended``)."""
    entry = svc.assign_escalation_expecting(lead, item_id, body.assignee, body.expected)
    return json_response(entry)


@router.put(
    "/queues/{queue_id}/breaks",
    response_model=BreakRuleChanged,
    tags=["lead"],
    responses=problems(*AUTHED, 403, 404, 409, 422),
)
def put_breaks(
    queue_id: Annotated[Slug, Path()], body: BreakRuleChange, svc: ServiceDep, lead: LeadDep
) -> Response:
    """The break reminders of one queue (leads and admins): after how many minutes of work,
    or how many high-harm items, the review window reminds its reviewers to take a break;
    ``breaks`` null for none. A new configuration version, by this lead, which the
    reviewers' windows pick up without a restart; each reviewer may still turn reminders
    off for themselves. ``based_on``: the rule the change was made from (another now: 409
    ``breaks_changed``, nothing saved); ``keep_high_harm``: the queue's kinds stay."""
    version, rule = svc.set_breaks(
        queue_id,
        body.breaks,
        lead,
        based_on=body.based_on,
        keep_high_harm=body.keep_high_harm,
    )
    return json_response(BreakRuleChanged(queue_id=queue_id, breaks=rule, config_version=version))


@router.get(
    "/webhooks", response_model=WebhookList, tags=["lead"], responses=problems(*AUTHED, 403)
)
def get_webhooks(svc: ServiceDep, _lead: LeadDep) -> WebhookList:
    """Webhook endpoints and their health: status, last success, backlog, failures (leads
    and admins; never a secret)."""
    return svc.webhooks()


@router.get("/events", response_model=EventPage, tags=["lead"], responses=problems(*AUTHED, 403))
def get_events(
    svc: ServiceDep,
    _lead: LeadDep,
    cursor: Cursor = None,
    limit: Limit = 100,
    kind: EventKind | None = None,
) -> EventPage:
    """The append-only event log, oldest first (leads and admins)."""
    return svc.events(cursor, limit, kind)


@router.get(
    "/decisions", response_model=DecisionPage, tags=["lead"], responses=problems(*AUTHED, 403)
)
def get_decisions(
    svc: ServiceDep,
    _lead: LeadDep,
    found: FilterDep,
    cursor: Cursor = None,
    limit: Limit = 100,
    order: Annotated[Order, Query(description="by id: oldest (asc) or newest (desc) first")] = (
        Order.asc
    ),
) -> Response:
    """Decisions matching every filter given, a page at a time (leads and admins)."""
    return json_response(svc.decisions(cursor, limit, found, order))


@router.get("/search", response_model=SearchPage, tags=["lead"], responses=problems(*AUTHED, 403))
def search_items(
    svc: ServiceDep,
    _lead: LeadDep,
    kind: Annotated[SearchKind, Query(description="what to look in (see SearchKind)")],
    q: Annotated[
        str,
        Query(
            min_length=1, max_length=MAX_QUERY, pattern=r"^[^\x00]*$", description="what to find"
        ),
    ],
    cursor: Cursor = None,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> Response:
    """Items (open or decided) matching a search, each with its decision, newest first
    (leads and admins). ``author`` and ``text`` find the query anywhere (three characters
    or more, any case); ``post``, ``domain`` and ``reason`` are exact (any case)."""
    if "\x00" in q:
        raise ApiError(422, "invalid_search", "A search holds no NUL character.")
    return json_response(svc.search_items(kind, q, cursor, limit))


@router.get("/views", response_model=SavedViewList, tags=["lead"], responses=problems(*AUTHED, 403))
def get_views(svc: ServiceDep, lead: LeadDep) -> Response:
    """The caller's saved views and the views other leads shared."""
    return json_response(svc.saved_views(lead))


@router.post(
    "/views",
    response_model=SavedView,
    status_code=201,
    tags=["lead"],
    responses=problems(*AUTHED, 403, 409),
)
def create_view(body: SavedViewCreate, svc: ServiceDep, lead: LeadDep) -> Response:
    """Save a search or a decisions filter under a name of the caller's (409
    ``view_name_taken`` when they already have one), private or shared with every lead."""
    return json_response(svc.save_view(lead, body), status=201)


@router.delete(
    "/views/{view_id}", status_code=204, tags=["lead"], responses=problems(*AUTHED, 403, 404)
)
def delete_view(view_id: ViewId, svc: ServiceDep, lead: LeadDep) -> Response:
    """Delete one of the caller's views (admins: any)."""
    svc.delete_view(lead, view_id)
    return Response(status_code=204)


@router.get(
    "/decisions/export",
    tags=["lead"],
    response_class=StreamingResponse,
    responses={
        200: {
            "description": "The matching decisions as CSV (columns: see protocol/csvsafe.py), "
            "oldest first; cells a spreadsheet would run are neutralised",
            "content": {"text/csv": {"schema": {"type": "string"}}},
        },
        **problems(*AUTHED, 403),
    },
)
def export_decisions(svc: ServiceDep, _lead: LeadDep, found: FilterDep) -> StreamingResponse:
    """The decision search as a streamed CSV file (leads and admins)."""
    return StreamingResponse(
        svc.export_decisions(found),
        media_type=CSV_MEDIA_TYPE,
        headers={"Content-Disposition": 'attachment; filename="decisions.csv"'},
    )


@router.get(
    "/stats/queues",
    response_model=QueueStatsReport,
    tags=["lead"],
    responses=problems(*AUTHED, 403, 404),
)
def get_queue_stats(
    svc: ServiceDep,
    _lead: LeadDep,
    since: Since = None,
    until: Until = None,
    bucket: Annotated[StatsBucket, Query(description="throughput series buckets")] = (
        StatsBucket.hour
    ),
    queue_id: Annotated[Slug | None, Query()] = None,
    tz: TimeZone = None,
) -> Response:
    """Queue health now (backlog, leases, oldest item against the SLA, open escalations) and
    over the window (decisions per hour, or per day of the time zone ``tz``: UTC days
    without; action mix)."""
    start, end = _time(since, "since"), _time(until, "until")
    return json_response(svc.queue_stats(start, end, bucket, queue_id, tz))


@router.get(
    "/stats/reviewers",
    response_model=ReviewerStatsReport,
    tags=["lead"],
    responses=problems(*AUTHED, 403, 404),
)
def get_reviewer_stats(
    svc: ServiceDep,
    _lead: LeadDep,
    since: Since = None,
    until: Until = None,
    reviewer: Annotated[Username | None, Query()] = None,
) -> Response:
    """Per reviewer over the window: volume, handle time, action mix, audit agreement,
    overturn rate, Cohen's kappa against auditors and conflicts."""
    start, end = _time(since, "since"), _time(until, "until")
    return json_response(svc.reviewer_stats(start, end, reviewer))


@router.get(
    "/stats/exposure",
    response_model=ExposureReport,
    tags=["lead"],
    responses=problems(*AUTHED, 403),
)
def get_exposure(svc: ServiceDep, _lead: LeadDep) -> Response:
    """Per reviewer: how many items of each kind of harm they decided this shift and in the
    last 7 days, and the breaks they took (figures only, never content)."""
    return json_response(svc.exposure())


@router.get(
    "/stats/quality", response_model=QualityReport, tags=["lead"], responses=problems(*AUTHED, 403)
)
def get_quality(
    svc: ServiceDep,
    _lead: LeadDep,
    thresholds: Annotated[_QualityParams, Query()],
    since: Since = None,
    until: Until = None,
) -> Response:
    """Quality signals per reviewer over the window, against the window before it: a
    median handle time under ``min_median_ms``, an action mix far from the other reviewers'
    in a queue (total variation distance over ``max_mix_distance``), an overturn rate
    ``overturn_jump`` higher than before; each judged only with ``min_decisions`` behind it.
    The thresholds are the lead's (kept in their settings) and sent with each request."""
    start, end = _time(since, "since"), _time(until, "until")
    try:
        chosen = QualityThresholds.model_validate(thresholds.model_dump())
    except ValidationError as exc:
        raise ApiError(422, "invalid_thresholds", describe_errors(exc)) from exc
    return json_response(svc.quality(start, end, chosen))


@router.get(
    "/stats/reviewers/{username}/trend",
    response_model=ReviewerTrend,
    tags=["lead"],
    responses=problems(*AUTHED, 403, 404),
)
def get_reviewer_trend(
    username: Annotated[Username, Path()],
    svc: ServiceDep,
    _lead: LeadDep,
    since: Annotated[
        datetime | None,
        Query(
            description="start of the window; default: 7 days before until (at most 92)",
            json_schema_extra=QUERY_YEARS,
        ),
    ] = None,
    until: Until = None,
    tz: TimeZone = None,
) -> Response:
    """One reviewer's decisions, exact median handle time and overturns per day of the
    time zone ``tz`` (UTC days without; default: the last 7 days; at most 92)."""
    start, end = _time(since, "since"), _time(until, "until")
    return json_response(svc.reviewer_trend(username, start, end, tz))
