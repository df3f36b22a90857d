"""Admin routes for the queue configuration (``/api/v1/admin/queue-file...``): the running
queue file as TOML and the history of configuration versions, read-only. Applying a file
stays with ``reviewer-app server queues apply`` on the service's machine."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, Response

from reviewer_app.protocol import API_PREFIX
from reviewer_app.protocol.meta import QueueFileHistory, QueueFileVersion, RunningQueueFile
from reviewer_app.server.domain.queuefile.text import export_text
from reviewer_app.server.http.auth import AdminDep, ServiceDep
from reviewer_app.server.http.common import AUTHED, json_response, problems

router = APIRouter(prefix=API_PREFIX + "/admin", tags=["admin"])


def _version(row: dict[str, Any]) -> QueueFileVersion:
    return QueueFileVersion(
        version=row["version"],
        applied_at=datetime.fromtimestamp(row["applied_at"], tz=UTC),
        applied_by=row["applied_by"],
        sha256=row["sha256"],
        queues=row["queues"],
    )


@router.get("/queue-file", response_model=RunningQueueFile, responses=problems(*AUTHED, 403))
def get_queue_file(svc: ServiceDep, _admin: AdminDep) -> Response:
    """The running queues as a TOML queue file, as ``queues export`` writes it, and the
    newest configuration version (who applied it, when)."""
    queue_file = svc.running_queue_file()
    newest = next(iter(svc.config_versions()), None)
    text = export_text(queue_file, newest) if queue_file is not None else ""
    return json_response(RunningQueueFile(version=_version(newest) if newest else None, toml=text))


@router.get(
    "/queue-file/history", response_model=QueueFileHistory, responses=problems(*AUTHED, 403)
)
def get_queue_file_history(svc: ServiceDep, _admin: AdminDep) -> Response:
    """Every configuration version, newest first: when, by whom, and its queues."""
    return json_response(QueueFileHistory(versions=[_version(v) for v in svc.config_versions()]))
