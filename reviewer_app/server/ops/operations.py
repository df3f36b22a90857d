"""Routes for operators and their machines, outside ``/api/v1`` and outside the wire
contract's OpenAPI document: liveness, readiness and Prometheus metrics.

- ``GET /healthz``: the process answers (no database call). For restarts.
- ``GET /readyz``: one cheap database round trip that also checks the schema is at the
  newest migration, and one that checks the event log's sealing keeps up; 503
  problem+json (``database_unreachable``, ``schema_not_current``, ``log_sealing_behind``)
  otherwise. For load balancers: send traffic only to ready processes.
- ``GET /metrics``: Prometheus text format (see ``metrics.py``). With ``metrics_token``
  set, it needs ``Authorization: Bearer <token>``; without, only clients on this machine
  may read it.

None of them needs a user's token, and the rate limit never applies to them.
"""

from __future__ import annotations

import hmac
import logging

from fastapi import APIRouter, Request, Response

from reviewer_app.server.ops.metrics import CONTENT_TYPE_LATEST, Metrics
from reviewer_app.server.problems import ApiError
from reviewer_app.server.service import Service

log = logging.getLogger("server")

router = APIRouter(include_in_schema=False)

LOOPBACK = frozenset({"127.0.0.1", "::1", "localhost"})


# GET and HEAD: a load balancer's check often asks with HEAD (HAProxy's ``option httpchk``)
@router.api_route("/healthz", methods=["GET", "HEAD"])
async def healthz() -> dict[str, str]:
    """Liveness: the process is up and its event loop answers."""
    return {"status": "ok"}


@router.api_route("/readyz", methods=["GET", "HEAD"])
def readyz(request: Request) -> dict[str, str]:
    """Readiness: the database answers and its schema is the one this code expects."""
    svc: Service = request.app.state.service
    try:
        revision = svc.db.schema_revision()
    except Exception as exc:
        log.warning("not ready: the database did not answer (%s)", type(exc).__name__)
        raise ApiError(
            503, "database_unreachable", "The database did not answer; not ready."
        ) from exc
    head = svc.db.head_revision()
    if revision != head:
        raise ApiError(
            503,
            "schema_not_current",
            f"The database schema is at {revision}, this service needs {head}; not ready.",
        )
    try:
        lag = svc.log_lag()
    except Exception as exc:
        raise ApiError(
            503, "database_unreachable", "The database did not answer; not ready."
        ) from exc
    limit = svc.settings.log_lag_limit_seconds
    if lag.oldest_seconds > limit:
        log.warning(
            "not ready: %d events unsealed, the oldest %.1f s old", lag.unsealed, lag.oldest_seconds
        )
        raise ApiError(
            503,
            "log_sealing_behind",
            f"The event log's sequencer is behind: {lag.unsealed} committed events are not "
            f"sealed, the oldest for {lag.oldest_seconds:.1f} s (limit {limit} s); not ready.",
        )
    return {"status": "ready", "database": svc.db.dialect, "schema": str(revision)}


@router.api_route("/metrics", methods=["GET", "HEAD"])
def metrics(request: Request) -> Response:
    """Every metric, in the Prometheus text format."""
    svc: Service = request.app.state.service
    check_metrics_access(request, svc.settings.metrics_token)
    found: Metrics = request.app.state.metrics
    return Response(found.exposition(), media_type=CONTENT_TYPE_LATEST)


def check_metrics_access(request: Request, token: str) -> None:
    if token:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            given.strip().encode(), token.encode()
        ):
            raise ApiError(
                401,
                "metrics_token_required",
                "Send the metrics token as 'Authorization: Bearer <token>'.",
                headers={"WWW-Authenticate": "Bearer"},
            )
        return
    host = request.client.host if request.client else ""
    if host not in LOOPBACK:
        raise ApiError(
            403,
            "metrics_local_only",
            "Metrics are readable only from this machine until the service has a metrics "
            "token (REVIEWER_SERVER_METRICS_TOKEN).",
        )
