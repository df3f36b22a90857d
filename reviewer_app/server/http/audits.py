"""HTTP routes of audits (v1), for leads: samples, blind tasks, results."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Response

from reviewer_app.protocol import (
    API_PREFIX,
    AuditResult,
    AuditResultCreate,
    AuditResults,
    AuditSample,
    AuditSampleCreate,
    AuditSampleList,
    AuditTaskGrant,
)
from reviewer_app.server.http.auth import LeadDep, ServiceDep
from reviewer_app.server.http.common import (
    _SAMPLE_ID,
    AUTHED,
    AuditId,
    Cursor,
    Limit,
    SampleId,
    json_response,
    links,
    problems,
)

router = APIRouter(prefix=API_PREFIX)


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
    audit_id: AuditId, body: Annotated[AuditResultCreate, Body()], svc: ServiceDep, lead: LeadDep
) -> Response:
    """Record agree, or overturn with the corrected decision (it becomes the decision of
    record); the answer reveals the original decision. An overturn that decides what the
    reviewer did is refused (422 ``overturn_unchanged``: agree instead), and so is one of
    a decision no longer of record, under appeal, appealed since it was sampled or whose
    post is back in review (409 ``not_decision_of_record``). Only the lead the task was
    handed to (``/next``) records its result (409 ``audit_not_assigned``)."""
    return json_response(svc.record_audit(lead, audit_id, body), status=201)
