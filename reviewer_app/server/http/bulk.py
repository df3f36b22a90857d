"""HTTP route of bulk decisions (``POST /api/v1/decisions/bulk``), for leads: one action on
many items, each its own decision, all in one transaction or none (bulk_decisions.py)."""

from __future__ import annotations

from fastapi import APIRouter, Response

from reviewer_app.protocol import API_PREFIX
from reviewer_app.protocol.bulk_decisions import BulkDecisionRequest, BulkDecisionResults
from reviewer_app.server.http.auth import LeadDep, ServiceDep
from reviewer_app.server.http.common import AUTHED, MetricsDep, json_response, problems

router = APIRouter(prefix=API_PREFIX, tags=["lead"])


@router.post(
    "/decisions/bulk",
    response_model=BulkDecisionResults,
    responses=problems(*AUTHED, 409),
)
def post_bulk_decision(
    body: BulkDecisionRequest, svc: ServiceDep, lead: LeadDep, metrics: MetricsDep
) -> Response:
    """One action (with its policies, rating and note) on each item: each item its own
    decision, with its own idempotency key, event, statement and enforcement action, as a
    verdict makes them; all in one transaction or none. An item decided meanwhile, leased
    to someone else, withdrawn, closed by an account action or moved to another queue
    refuses the whole request (409 ``bulk_refused``; ``errors`` name each item: ``loc`` is
    ``items, index, item id``, ``code`` says why); an action that does not fit an item's
    queue config is a 422 ``verdict_invalid`` naming the items the same way. The same
    request again returns the same decisions, each ``duplicate``."""
    results = svc.bulk_decide(lead, body)
    metrics.verdict_results(r.status.value for r in results.results)
    return json_response(results)
