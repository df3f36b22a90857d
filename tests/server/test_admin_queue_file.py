"""The running queue file and its versions for admins over HTTP (``GET /admin/queue-file``
and ``/admin/queue-file/history``): the TOML reads back as the running configuration, and
each version says who applied it and when. Real services over SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from reviewer_app.protocol import QueueFileHistory, Role, RunningQueueFile
from reviewer_app.server.domain.queuefile.parse import parse_queue_file
from tests.server.test_queue_file import base, spam_with_quarantine
from tests.support.servers import LiveServer


def test_admins_read_the_running_queue_file_and_who_applied_each_version(
    live_server: LiveServer,
) -> None:
    admin = live_server.login("cfg-admin", Role.admin)
    lead = live_server.login("cfg-lead", Role.lead)
    empty = RunningQueueFile.model_validate_json(admin.get("/admin/queue-file").content)
    assert (empty.version, empty.toml) == (None, "")
    assert admin.get("/admin/queue-file/history").json() == {"versions": []}

    svc = live_server.service
    before = datetime.now(UTC) - timedelta(seconds=1)
    first = svc.apply_queue_file(base(), "ann")
    second = svc.apply_queue_file(spam_with_quarantine(base()), "bob")

    answer = admin.get("/admin/queue-file")
    assert answer.status_code == 200, answer.text
    running = RunningQueueFile.model_validate_json(answer.content)
    assert running.version is not None
    assert (running.version.version, running.version.applied_by) == (2, "bob")
    assert running.version.sha256 == second.sha256
    assert running.version.applied_at >= before.replace(microsecond=0)
    assert running.toml.startswith("# Queue configuration of the review desk: version 2,")
    assert " by bob.\n" in running.toml.splitlines(keepends=True)[0]
    # the text is the running configuration: it reads back as the same queue file
    assert parse_queue_file(running.toml) == svc.running_queue_file()
    assert 'id = "quarantine"' in running.toml

    history = QueueFileHistory.model_validate_json(admin.get("/admin/queue-file/history").content)
    assert [(v.version, v.applied_by, v.sha256) for v in history.versions] == [
        (2, "bob", second.sha256),
        (1, "ann", first.sha256),
    ]
    assert history.versions[1].queues == [q.id for q in base().queues]
    assert history.versions[0].applied_at >= history.versions[1].applied_at

    for path in ("/admin/queue-file", "/admin/queue-file/history"):
        refused = lead.get(path)
        assert refused.status_code == 403
        assert refused.json()["code"] == "admin_only"
