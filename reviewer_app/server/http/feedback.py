"""HTTP routes of feedback to reviewers (v1): their own decisions, the login notice, leads'
notes on decisions."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query, Response

from reviewer_app.protocol import (
    API_PREFIX,
    QUERY_YEARS,
    DecisionNote,
    DecisionNoteCreate,
    DecisionNoteList,
    FeedbackNotice,
    FeedbackSeen,
    MyDecisionPage,
)
from reviewer_app.server.domain.records import to_epoch
from reviewer_app.server.http.auth import LeadDep, ServiceDep, UserDep
from reviewer_app.server.http.common import (
    AUTHED,
    Cursor,
    DecisionId,
    Limit,
    Until,
    _time,
    json_response,
    problems,
)

router = APIRouter(prefix=API_PREFIX)


@router.get(
    "/me/decisions", response_model=MyDecisionPage, tags=["feedback"], responses=problems(*AUTHED)
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
    "/me/feedback", response_model=FeedbackNotice, tags=["feedback"], responses=problems(*AUTHED)
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
    """The caller saw their feedback up to ``until`` (the notice's ``as_of``); with
    ``shown_since``, only what is on decisions received from then on (feedback on earlier
    ones stays unseen: it is marked up to just before the first of it)."""
    since = None if body.shown_since is None else to_epoch(body.shown_since)
    return svc.mark_feedback_seen(user, to_epoch(body.until), since)


@router.post(
    "/decisions/{decision_id}/notes",
    response_model=DecisionNote,
    status_code=201,
    tags=["feedback"],
    responses=problems(*AUTHED, 403, 404, 409),
)
def post_decision_note(
    decision_id: DecisionId, body: DecisionNoteCreate, svc: ServiceDep, lead: LeadDep
) -> DecisionNote:
    """A lead's note to the reviewer of a decision (shown in their My decisions and in the
    notice at their next login). 409 ``too_many_notes`` past NOTES_PER_DECISION."""
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
