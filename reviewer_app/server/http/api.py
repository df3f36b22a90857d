"""HTTP routes of the wire contract (v1). Every route checks the caller's role."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import anyio
from fastapi import APIRouter, Body, Depends, Path, Query, Request, Response
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from reviewer_app.protocol import (
    API_PREFIX,
    QUERY_YEARS,
    ApiKeyCreate,
    ApiKeyCreated,
    ApiKeyInfo,
    ApiKeyList,
    AuditResult,
    AuditResultCreate,
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
    EventKind,
    EventPage,
    ExposureReport,
    FeedbackNotice,
    FeedbackSeen,
    Item,
    LeaseClaim,
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
    RoleChange,
    SessionCreate,
    SessionInfo,
    StatementList,
    StatsBucket,
    User,
    UserCreate,
    UserList,
    VerdictBatch,
    VerdictResults,
    describe_errors,
)
from reviewer_app.protocol.common import (
    MAX_PAGE,
    MAX_YEAR,
    MIN_YEAR,
    ItemId,
    MediaId,
    Slug,
    Timestamp,
    Username,
)
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
from reviewer_app.server.domain.claims import ClaimReply
from reviewer_app.server.domain.records import to_epoch
from reviewer_app.server.domain.search import DecisionFilter, Order
from reviewer_app.server.domain.security import is_api_key
from reviewer_app.server.http.auth import (
    MAX_TOKEN_LENGTH,
    AdminDep,
    LeadDep,
    ServiceDep,
    TokenDep,
    UserDep,
    authenticated_person,
    bearer_token,
)
from reviewer_app.server.ops.metrics import Metrics
from reviewer_app.server.problems import ApiError

_TIMESTAMP: TypeAdapter[datetime] = TypeAdapter(Timestamp)

MEDIA_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp", "video/mp4", "video/webm")

_DESCRIPTIONS = {
    400: "Malformed JSON, or an invalid cursor",
    401: "Missing, expired or revoked token, or wrong credentials",
    403: "The caller's role may not do this",
    404: "No such resource",
    409: "The request conflicts with the current state",
    413: "The request body is over the size cap",
    422: "The request does not match the contract or the queue's decision config",
    429: "Too many requests from this caller, or too many failed logins; see Retry-After",
    503: "The service could not complete the request now; try again",
}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"model": Problem, "description": _DESCRIPTIONS[s]} for s in statuses}


def links(status: int, **targets: tuple[str, str, dict[str, str]]) -> dict[int | str, Any]:
    """OpenAPI links from a response to the operations its ids lead to (for stateful
    fuzzing and readers): ``Name=(method, path, {parameter: runtime expression})``."""
    found = {}
    for name, (method, path, parameters) in targets.items():
        pointer = (API_PREFIX + path).replace("~", "~0").replace("/", "~1")
        found[name] = {"operationRef": f"#/paths/{pointer}/{method}", "parameters": parameters}
    return {status: {"links": found}}


PUBLIC = (400, 413, 422, 429)
# Every route with a token may answer 403: a service account's key on a person's route, a
# person's token on an intake route, or a role below the route's.
AUTHED = (*PUBLIC, 401, 403)


def json_response(model: BaseModel, status: int = 200) -> Response:
    """The model as JSON, without FastAPI validating it a second time (hot routes)."""
    return Response(model.model_dump_json(), media_type="application/json", status_code=status)


async def app_metrics(request: Request) -> Metrics:
    found: Metrics = request.app.state.metrics
    return found


MetricsDep = Annotated[Metrics, Depends(app_metrics)]


# Claims have worker threads of their own: a reviewer waits for a claim, while verdict
# batches, renewals and the lead's reads come from clients' background work. Under load
# a claim must not queue behind them for a thread (nor, on SQLite, for the writer: see
# ``Database.write(urgent=True)``). How many: ``Database.claim_threads``.
async def claim_lane(request: Request) -> anyio.CapacityLimiter:
    lane: anyio.CapacityLimiter | None = getattr(request.app.state, "claim_lane", None)
    if lane is None:
        threads = request.app.state.service.db.claim_threads
        lane = request.app.state.claim_lane = anyio.CapacityLimiter(threads)
    return lane


Cursor = Annotated[str | None, Query(max_length=512, description="next_cursor of the page before")]
Limit = Annotated[int, Query(ge=1, le=MAX_PAGE)]

router = APIRouter(prefix=API_PREFIX)


@router.get("/meta", response_model=Meta, tags=["meta"], responses=problems(400, 429))
def get_meta(svc: ServiceDep) -> Meta:
    """API version, server version, features and limits. Needs no token."""
    return svc.meta()


@router.post(
    "/sessions",
    response_model=SessionInfo,
    status_code=201,
    tags=["sessions"],
    responses=problems(*PUBLIC, 401, 429, 503),
)
def create_session(body: SessionCreate, svc: ServiceDep) -> SessionInfo:
    """Log in with user name and password for a bearer token."""
    return svc.login(body)


@router.delete(
    "/sessions/current",
    status_code=204,
    tags=["sessions"],
    responses=problems(*AUTHED),
    response_class=Response,
)
def delete_session(
    svc: ServiceDep, token: Annotated[str, Depends(bearer_token)], _user: UserDep
) -> Response:
    """Log out: the token is revoked at once."""
    svc.logout(token)
    return Response(status_code=204)


@router.get("/me", response_model=User, tags=["sessions"], responses=problems(*AUTHED))
def get_me(user: UserDep) -> User:
    return user.as_user()


@router.get("/queues", response_model=QueueList, tags=["queues"], responses=problems(*AUTHED))
def get_queues(svc: ServiceDep, user: UserDep) -> QueueList:
    """The queues this user may work, with live counts and decision config."""
    return svc.list_queues(user)


@router.post(
    "/queues/{queue_id}/leases",
    response_model=LeaseGrant,
    tags=["leases"],
    responses={
        **problems(*AUTHED, 403, 404, 409),
        **links(
            200,
            GetClaimedItem=(
                "get",
                "/items/{item_id}",
                {"item_id": "$response.body#/items/0/item/id"},
            ),
            GetClaimedItemHistory=(
                "get",
                "/items/{item_id}/history",
                {"item_id": "$response.body#/items/0/item/id"},
            ),
        ),
    },
)
async def claim_items(
    queue_id: Annotated[Slug, Path()],
    body: LeaseClaim,
    svc: ServiceDep,
    token: TokenDep,
    lane: Annotated[anyio.CapacityLimiter, Depends(claim_lane)],
    metrics: MetricsDep,
) -> Response:
    """Claim up to ``count`` items for this reviewer, each whole with its lease token."""

    def claim() -> ClaimReply:
        if is_api_key(token) or len(token) > MAX_TOKEN_LENGTH:  # refused as on any route
            return svc.claim_reply(authenticated_person(svc, token), queue_id, body)
        # a login token: the claim's own transaction looks it up (claims.Caller)
        return svc.claim_reply(token, queue_id, body)

    # Sent as built (inside the claim's transaction): every stored part was validated when
    # it was enqueued.
    reply = await anyio.to_thread.run_sync(claim, limiter=lane)
    metrics.items_leased(queue_id, reply.served)
    return Response(reply.body, media_type="application/json")


@router.post(
    "/leases/renew", response_model=LeaseResults, tags=["leases"], responses=problems(*AUTHED)
)
def renew_leases(body: LeaseRenewal, svc: ServiceDep, user: UserDep) -> LeaseResults:
    return svc.renew(user, list(body.tokens), body.lease_seconds)


@router.post(
    "/leases/release", response_model=LeaseResults, tags=["leases"], responses=problems(*AUTHED)
)
def release_leases(body: LeaseRelease, svc: ServiceDep, user: UserDep) -> LeaseResults:
    return svc.release(user, list(body.tokens), skipped=body.skipped)


@router.get(
    "/items/{item_id}", response_model=Item, tags=["items"], responses=problems(*AUTHED, 403, 404)
)
def get_item(item_id: Annotated[ItemId, Path()], svc: ServiceDep, user: UserDep) -> Response:
    return json_response(svc.item(user, item_id))


@router.get(
    "/items/{item_id}/history",
    response_model=EventPage,
    tags=["items"],
    responses=problems(*AUTHED, 403, 404),
)
def get_item_history(
    item_id: Annotated[ItemId, Path()],
    svc: ServiceDep,
    user: UserDep,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> EventPage:
    """Every event on an item, oldest first."""
    return svc.history(user, item_id, cursor, limit)


@router.get(
    "/items/{item_id}/statements",
    response_model=StatementList,
    tags=["items"],
    responses=problems(*AUTHED, 403, 404),
)
def get_item_statements(
    item_id: Annotated[ItemId, Path()], svc: ServiceDep, user: UserDep
) -> StatementList:
    """The statements of reasons the item's restrictive decisions gave the affected user,
    oldest first (none for keep)."""
    return svc.item_statements(user, item_id)


@router.get(
    "/media/{media_id}",
    tags=["items"],
    response_class=Response,
    responses={
        200: {
            "description": "The media bytes",
            "content": {t: {"schema": {"type": "string", "format": "binary"}} for t in MEDIA_TYPES},
        },
        **problems(*AUTHED, 403, 404),
    },
)
def get_media(media_id: Annotated[MediaId, Path()], svc: ServiceDep, user: UserDep) -> Response:
    content, mime_type = svc.media(user, media_id)
    return Response(
        content,
        media_type=mime_type,
        headers={"Content-Disposition": "inline", "X-Content-Type-Options": "nosniff"},
    )


@router.post(
    "/verdicts", response_model=VerdictResults, tags=["verdicts"], responses=problems(*AUTHED)
)
def post_verdicts(
    body: VerdictBatch, svc: ServiceDep, user: UserDep, metrics: MetricsDep
) -> Response:
    """Record a batch of verdicts; each has its own idempotency key and its own result."""
    results = svc.verdicts(user, list(body.verdicts))
    metrics.verdict_results(r.status.value for r in results.results)
    return json_response(results)


@router.get(
    "/escalations",
    response_model=EscalationPage,
    tags=["lead"],
    responses=problems(*AUTHED, 403),
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
    responses=problems(*AUTHED, 403, 404, 409),
)
def assign_escalation(
    item_id: Annotated[ItemId, Path()],
    body: EscalationAssignment,
    svc: ServiceDep,
    lead: LeadDep,
) -> Response:
    """Assign an open escalation to a lead, or to nobody (``assignee`` null): only that
    lead's claims in the escalation queue take it, before the rest. A lease someone holds
    on it is not taken away."""
    return json_response(svc.assign_escalation(lead, item_id, body.assignee))


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


# Times in queries are held to the wire's years, as Timestamp is in bodies.
Since = Annotated[
    datetime | None,
    Query(
        description="start of the window (RFC 3339); default: 24 hours before until",
        json_schema_extra=QUERY_YEARS,
    ),
]
Until = Annotated[
    datetime | None,
    Query(description="end of the window; default: now", json_schema_extra=QUERY_YEARS),
]


def _time(value: datetime | None, name: str) -> float | None:
    """A query time as epoch seconds; it must carry a zone and lie inside the wire's years."""
    if value is None:
        return None
    try:
        return to_epoch(_TIMESTAMP.validate_python(value))
    except ValidationError as exc:
        raise ApiError(
            422,
            "invalid_request",
            f"{name} must be an RFC 3339 date-time with a time zone, "
            f"between the years {MIN_YEAR} and {MAX_YEAR}.",
        ) from exc


class _DecisionParams(DecisionQuery):
    """``DecisionQuery`` as query parameters: the route's own (cursor, limit, order)
    arrive in the same query string and are not the model's to refuse."""

    model_config = ConfigDict(extra="ignore")


def decision_filter(query: Annotated[_DecisionParams, Query()]) -> DecisionFilter:
    """The decision search's filters (``DecisionQuery``, declared in the protocol), with
    its times checked as every query time is and turned into epoch seconds."""
    return DecisionFilter(
        **query.model_dump(exclude={"since", "until"}),
        since=_time(query.since, "since"),
        until=_time(query.until, "until"),
    )


FilterDep = Annotated[DecisionFilter, Depends(decision_filter)]


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


DecisionId = Annotated[int, Path(ge=1, le=2**31 - 1)]  # the column is a 32-bit integer


@router.get(
    "/me/decisions",
    response_model=MyDecisionPage,
    tags=["feedback"],
    responses=problems(*AUTHED),
)
def get_my_decisions(
    svc: ServiceDep,
    user: UserDep,
    since: Annotated[
        datetime | None,
        Query(
            description="start of the window; default: 7 days before until (at most 31)",
            json_schema_extra=QUERY_YEARS,
        ),
    ] = None,
    until: Until = None,
    cursor: Cursor = None,
    limit: Limit = 100,
) -> Response:
    """The caller's own decisions, newest first, each with what became of it: accepted,
    confirmed or overturned in an audit (with the auditor's note), appealed, upheld or
    reversed on appeal, and leads' notes on it. Only the caller's own, whatever the role."""
    start, end = _time(since, "since"), _time(until, "until")
    return json_response(svc.my_decisions(user, start, end, cursor, limit))


@router.get(
    "/me/feedback",
    response_model=FeedbackNotice,
    tags=["feedback"],
    responses=problems(*AUTHED),
)
def get_my_feedback(svc: ServiceDep, user: UserDep) -> FeedbackNotice:
    """How many of the caller's decisions were overturned (audit or appeal) and how many
    leads' notes reached them since the caller last marked their feedback seen."""
    return svc.feedback_notice(user)


@router.post(
    "/me/feedback/seen",
    response_model=FeedbackNotice,
    tags=["feedback"],
    responses=problems(*AUTHED),
)
def post_my_feedback_seen(body: FeedbackSeen, svc: ServiceDep, user: UserDep) -> FeedbackNotice:
    """The caller saw their feedback up to ``until`` (the notice's ``as_of``)."""
    return svc.mark_feedback_seen(user, to_epoch(body.until))


@router.post(
    "/decisions/{decision_id}/notes",
    response_model=DecisionNote,
    status_code=201,
    tags=["feedback"],
    responses=problems(*AUTHED, 403, 404),
)
def post_decision_note(
    decision_id: DecisionId, body: DecisionNoteCreate, svc: ServiceDep, lead: LeadDep
) -> DecisionNote:
    """A lead's note to the reviewer of a decision (shown in their My decisions and in the
    notice at their next login)."""
    return svc.add_decision_note(lead, decision_id, body.note)


@router.get(
    "/decisions/{decision_id}/notes",
    response_model=DecisionNoteList,
    tags=["feedback"],
    responses=problems(*AUTHED, 403, 404),
)
def get_decision_notes(decision_id: DecisionId, svc: ServiceDep, user: UserDep) -> DecisionNoteList:
    """A decision's notes, for leads and for the decision's own reviewer."""
    return svc.decision_notes(user, decision_id)


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


ViewId = Annotated[int, Path(ge=1, le=2**31 - 1)]


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
) -> Response:
    """Queue health now (backlog, leases, oldest item against the SLA, open escalations) and
    over the window (decisions per hour or day, action mix)."""
    start, end = _time(since, "since"), _time(until, "until")
    return json_response(svc.queue_stats(start, end, bucket, queue_id))


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


@router.post(
    "/breaks", response_model=BreakRecord, tags=["sessions"], responses=problems(*AUTHED, 409)
)
def record_break(body: BreakRecord, svc: ServiceDep, user: UserDep) -> BreakRecord:
    """A break the caller takes: sent as it starts, and again with ``ended_at`` as it ends
    (the same ``id`` updates it; retries are safe)."""
    return svc.record_break(user, body)


_DEFAULT_THRESHOLDS = QualityThresholds()


class _QualityParams(BaseModel):
    """``QualityThresholds`` as query parameters (numbers arrive as text there; the
    protocol model checks them), beside the window's."""

    model_config = ConfigDict(extra="ignore")

    # the protocol model's bounds, so the document says what is accepted
    min_median_ms: int = Field(default=_DEFAULT_THRESHOLDS.min_median_ms, ge=0, le=3_600_000)
    max_mix_distance: float = Field(default=_DEFAULT_THRESHOLDS.max_mix_distance, ge=0, le=1)
    min_decisions: int = Field(default=_DEFAULT_THRESHOLDS.min_decisions, ge=1, le=1_000_000)
    overturn_jump: float = Field(default=_DEFAULT_THRESHOLDS.overturn_jump, ge=0, le=1)


@router.get(
    "/stats/quality",
    response_model=QualityReport,
    tags=["lead"],
    responses=problems(*AUTHED, 403),
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
) -> Response:
    """One reviewer's decisions, exact median handle time and overturns per UTC day
    (default: the last 7 days; at most 92)."""
    start, end = _time(since, "since"), _time(until, "until")
    return json_response(svc.reviewer_trend(username, start, end))


SampleId = Annotated[int, Path(ge=1, le=2**31 - 1)]
_SAMPLE_ID = {"sample_id": "$response.body#/id"}
AuditId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.post(
    "/audits/samples",
    response_model=AuditSample,
    status_code=201,
    tags=["audits"],
    responses={
        **problems(*AUTHED, 403, 404),
        **links(
            201,
            GetAuditSample=("get", "/audits/samples/{sample_id}", _SAMPLE_ID),
            NextAuditTask=("post", "/audits/samples/{sample_id}/next", _SAMPLE_ID),
            GetAuditResults=("get", "/audits/samples/{sample_id}/results", _SAMPLE_ID),
        ),
    },
)
def create_audit_sample(body: AuditSampleCreate, svc: ServiceDep, lead: LeadDep) -> AuditSample:
    """Draw a sample of decisions to audit: at random, or the same number per reviewer or
    per action, from a window (and a queue)."""
    return svc.create_audit_sample(lead, body)


@router.get(
    "/audits/samples",
    response_model=AuditSampleList,
    tags=["audits"],
    responses=problems(*AUTHED, 403),
)
def get_audit_samples(
    svc: ServiceDep, _lead: LeadDep, cursor: Cursor = None, limit: Limit = 100
) -> AuditSampleList:
    """Audit samples, newest first."""
    return svc.audit_samples(cursor, limit)


@router.get(
    "/audits/samples/{sample_id}",
    response_model=AuditSample,
    tags=["audits"],
    responses=problems(*AUTHED, 403, 404),
)
def get_audit_sample(sample_id: SampleId, svc: ServiceDep, _lead: LeadDep) -> AuditSample:
    return svc.audit_sample(sample_id)


@router.post(
    "/audits/samples/{sample_id}/next",
    response_model=AuditTaskGrant,
    tags=["audits"],
    responses={
        **problems(*AUTHED, 403, 404),
        **links(
            200,
            RecordAuditResult=(
                "post",
                "/audits/tasks/{audit_id}/result",
                {"audit_id": "$response.body#/task/audit_id"},
            ),
            GetAuditResults=(
                "get",
                "/audits/samples/{sample_id}/results",
                {"sample_id": "$response.body#/sample_id"},
            ),
        ),
    },
)
def next_audit_task(sample_id: SampleId, svc: ServiceDep, lead: LeadDep) -> Response:
    """The caller's next item of the sample, blind: without its decision (the same item
    again until a result is recorded)."""
    return json_response(svc.next_audit_task(lead, sample_id))


@router.get(
    "/audits/samples/{sample_id}/results",
    response_model=AuditResults,
    tags=["audits"],
    responses=problems(*AUTHED, 403, 404),
)
def get_audit_results(sample_id: SampleId, svc: ServiceDep, _lead: LeadDep) -> Response:
    """The results recorded so far, each with the original decision, and per-reviewer
    agreement."""
    return json_response(svc.audit_results(sample_id))


@router.post(
    "/audits/tasks/{audit_id}/result",
    response_model=AuditResult,
    status_code=201,
    tags=["audits"],
    responses=problems(*AUTHED, 403, 404, 409),
)
def record_audit_result(
    audit_id: AuditId,
    body: Annotated[AuditResultCreate, Body()],
    svc: ServiceDep,
    lead: LeadDep,
) -> Response:
    """Record agree, or overturn with the corrected decision (it becomes the decision of
    record); the answer reveals the original decision."""
    return json_response(svc.record_audit(lead, audit_id, body), status=201)


@router.get("/users", response_model=UserList, tags=["admin"], responses=problems(*AUTHED, 403))
def get_users(svc: ServiceDep, _admin: AdminDep) -> UserList:
    return svc.list_users()


@router.post(
    "/users",
    response_model=User,
    status_code=201,
    tags=["admin"],
    responses=problems(*AUTHED, 403, 409),
)
def create_user(body: UserCreate, svc: ServiceDep, admin: AdminDep) -> User:
    return svc.create_user(body, admin)


@router.put(
    "/users/{username}/role",
    response_model=User,
    tags=["admin"],
    responses=problems(*AUTHED, 403, 404),
)
def change_role(
    username: Annotated[Username, Path()], body: RoleChange, svc: ServiceDep, admin: AdminDep
) -> User:
    """Change a user's role (logged in the event log)."""
    return svc.change_role(username, body.role, admin)


KeyId = Annotated[int, Path(ge=1, le=2**31 - 1)]


@router.get(
    "/admin/api-keys",
    response_model=ApiKeyList,
    tags=["admin"],
    responses=problems(*AUTHED, 403),
)
def get_api_keys(svc: ServiceDep, _admin: AdminDep) -> ApiKeyList:
    """Service accounts' API keys, live and revoked: never the key itself."""
    return ApiKeyList(keys=svc.api_keys())


@router.post(
    "/admin/api-keys",
    response_model=ApiKeyCreated,
    status_code=201,
    tags=["admin"],
    responses={
        **problems(*AUTHED, 403, 409),
        **links(
            201,
            RevokeApiKey=(
                "delete",
                "/admin/api-keys/{key_id}",
                {"key_id": "$response.body#/info/id"},
            ),
        ),
    },
)
def create_api_key(body: ApiKeyCreate, svc: ServiceDep, admin: AdminDep) -> Response:
    """A new API key for a platform or fact-checker account (made if missing). The answer
    is the only time the key is shown. A second key for the same account rotates: both
    are live until the old one is revoked."""
    made = svc.create_api_key(body.role, body.name, body.account, admin.username)
    return json_response(made, status=201)  # never cached: see app.NoStore


@router.delete(
    "/admin/api-keys/{key_id}",
    response_model=ApiKeyInfo,
    tags=["admin"],
    responses=problems(*AUTHED, 403, 404),
)
def revoke_api_key(key_id: KeyId, svc: ServiceDep, admin: AdminDep) -> ApiKeyInfo:
    """Revoke a key: refused from the next request on, in every process (again: no change)."""
    return svc.revoke_api_key(key_id, admin.username)
