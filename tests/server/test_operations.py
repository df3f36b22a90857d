"""Operating the service: liveness and readiness probes, Prometheus metrics (one process
and several), the metrics token, and structured JSON logs."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from starlette.requests import Request

from reviewer_app.__main__ import main
from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.config import ServerSettings, SettingsError
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.server.ops.logs import JsonFormatter
from reviewer_app.server.ops.metrics import (
    GAUGE_TTL_SECONDS,
    MULTIPROC_ENV,
    Metrics,
    metrics_directory,
)
from reviewer_app.server.ops.operations import check_metrics_access
from reviewer_app.server.problems import ApiError
from reviewer_app.server.service import Service
from tests.support.api import PROBLEM_JSON, ApiSession, verdict
from tests.support.servers import PASSWORD, LiveServer, ServerProcess, pg_admin_url, running

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]
GAUGE_WAIT = GAUGE_TTL_SECONDS + 0.5  # database gauges are cached this long per process


def scrape(base_url: str, **headers: str) -> Samples:
    """Every sample of ``/metrics`` by (name, sorted labels); a new connection each time."""
    response = requests.get(
        f"{base_url}/metrics", headers={"Connection": "close", **headers}, timeout=30
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    found: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def label_values(samples: Samples) -> set[str]:
    return {v for _, labels in samples for _, v in labels}


# -- health and readiness -------------------------------------------------------------


def test_healthz_and_readyz_answer_without_a_token(live_server: LiveServer) -> None:
    health = requests.get(f"{live_server.url}/healthz", timeout=10)
    assert health.status_code == 200 and health.json() == {"status": "ok"}
    ready = requests.get(f"{live_server.url}/readyz", timeout=10)
    assert ready.status_code == 200, ready.text
    body = ready.json()
    assert body["status"] == "ready"
    assert body["schema"] == live_server.service.db.head_revision()
    assert ready.headers["cache-control"] == "no-store"
    assert ready.headers["x-request-id"]


def test_probes_and_metrics_stay_out_of_the_contract(live_server: LiveServer) -> None:
    paths = requests.get(f"{live_server.url}/openapi.json", timeout=10).json()["paths"]
    assert not {"/healthz", "/readyz", "/metrics"} & set(paths)


def test_readyz_is_503_when_the_sqlite_file_is_gone(sqlite_url: str) -> None:
    path = Path(make_url(sqlite_url).database or "")
    with running(sqlite_url) as server:
        assert requests.get(f"{server.url}/readyz", timeout=10).status_code == 200
        for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            leftover.unlink(missing_ok=True)
        path.mkdir()  # nothing can open a database there any more
        server.service.db.engine.dispose()  # and no pooled connection to the old file
        ready = requests.get(f"{server.url}/readyz", timeout=30)
        assert ready.status_code == 503
        assert ready.headers["content-type"] == PROBLEM_JSON
        assert ready.json()["code"] == "database_unreachable"
        assert str(path) not in ready.text
        # liveness does not touch the database: the process is alive, just not ready
        assert requests.get(f"{server.url}/healthz", timeout=10).status_code == 200
    shutil.rmtree(path)


def test_readyz_is_503_when_the_schema_is_not_current(sqlite_url: str) -> None:
    with running(sqlite_url) as server:
        with server.service.db.engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = '0001'"))
        ready = requests.get(f"{server.url}/readyz", timeout=10)
        assert ready.status_code == 503
        assert ready.json()["code"] == "schema_not_current"


@pytest.mark.postgres
def test_readyz_is_503_when_the_postgres_database_is_gone(pg_url: str) -> None:
    admin = pg_admin_url()
    assert admin
    with running(pg_url) as server:
        assert requests.get(f"{server.url}/readyz", timeout=10).status_code == 200
        engine = create_engine(
            admin.replace("postgresql://", "postgresql+psycopg://", 1),
            isolation_level="AUTOCOMMIT",
        )
        with engine.connect() as conn:
            name = make_url(pg_url).database
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        engine.dispose()
        ready = requests.get(f"{server.url}/readyz", timeout=30)
        assert ready.status_code == 503
        assert ready.json()["code"] == "database_unreachable"
        metrics = scrape(server.url)  # still answers, and says the database is down
        assert value(metrics, "reviewdesk_database_up") == 0


def test_probes_are_never_rate_limited(sqlite_url: str) -> None:
    with running(sqlite_url, rate_limit_per_minute=1, rate_limit_burst=1) as server:
        assert requests.get(f"{server.url}/api/v1/meta", timeout=10).status_code == 200
        limited = requests.get(f"{server.url}/api/v1/meta", timeout=10)
        assert limited.status_code == 429
        for _ in range(10):
            for path in ("/healthz", "/readyz", "/metrics"):
                assert requests.get(f"{server.url}{path}", timeout=10).status_code == 200
        metrics = scrape(server.url)
    assert value(metrics, "reviewdesk_rate_limited_requests_total") == 1
    # refused before routing, yet counted under its route template
    meta = {"method": "GET", "route": "/api/v1/meta"}
    assert value(metrics, "reviewdesk_http_requests_total", **meta, status="429") == 1
    assert value(metrics, "reviewdesk_http_requests_total", **meta, status="200") == 1


# -- metrics ---------------------------------------------------------------------------


def test_metrics_count_requests_by_route_template_and_match_queue_counts(
    live_server: LiveServer,
) -> None:
    seed_load_queue(live_server.service, 30)
    reviewer = live_server.login("metrics-reviewer")
    leased = reviewer.claim(LOAD_QUEUE.id, count=10)
    assert len(leased) == 10
    decided = [verdict(x) for x in leased[:6]]
    assert {r["status"] for r in reviewer.decide(decided)} == {"accepted"}
    assert {r["status"] for r in reviewer.decide(decided[:2])} == {"duplicate"}
    item_id = leased[7]["item"]["id"]
    for _ in range(2):
        assert reviewer.get(f"/items/{item_id}").status_code == 200
    assert reviewer.get("/no/such/route").status_code == 404
    queues = {q["id"]: q["counts"] for q in reviewer.get("/queues").json()["queues"]}

    metrics = scrape(live_server.url)

    requests_total = "reviewdesk_http_requests_total"
    claim = {"method": "POST", "route": "/api/v1/queues/{queue_id}/leases", "status": "200"}
    assert value(metrics, requests_total, **claim) == 1
    item = {"method": "GET", "route": "/api/v1/items/{item_id}", "status": "200"}
    assert value(metrics, requests_total, **item) == 2
    assert value(metrics, "reviewdesk_http_request_duration_seconds_count", **item) == 2
    assert value(metrics, "reviewdesk_http_request_duration_seconds_sum", **item) > 0
    verdicts = {"method": "POST", "route": "/api/v1/verdicts", "status": "200"}
    assert value(metrics, requests_total, **verdicts) == 2
    unmatched = {"method": "GET", "route": "<unmatched>", "status": "404"}
    assert value(metrics, requests_total, **unmatched) == 1
    # templates only: no raw ids in any label
    assert item_id not in label_values(metrics)
    assert not any("/no/such" in v for v in label_values(metrics))

    assert value(metrics, "reviewdesk_verdicts_total", status="accepted") == 6
    assert value(metrics, "reviewdesk_verdicts_total", status="duplicate") == 2
    assert value(metrics, "reviewdesk_items_leased_total", queue=LOAD_QUEUE.id) == 10
    assert value(metrics, "reviewdesk_api_processes") == 1
    assert value(metrics, "reviewdesk_background_leaders") == 1  # a lone process leads
    assert value(metrics, "reviewdesk_database_up") == 1
    assert value(metrics, "reviewdesk_lease_holders") == 1

    assert queues  # the gauges say what GET /queues says, queue by queue
    for queue_id, counts in queues.items():
        pending = value(metrics, "reviewdesk_queue_items", queue=queue_id, state="pending")
        leased_now = value(metrics, "reviewdesk_queue_items", queue=queue_id, state="leased")
        assert (pending, leased_now) == (counts["pending"], counts["leased"]), queue_id
    assert queues[LOAD_QUEUE.id]["pending"] == 20 and queues[LOAD_QUEUE.id]["leased"] == 4
    assert value(metrics, "reviewdesk_leases", queue=LOAD_QUEUE.id, state="live") == 4
    assert value(metrics, "reviewdesk_leases", queue=LOAD_QUEUE.id, state="expired") == 0


def test_metrics_token_is_required_when_set(sqlite_url: str) -> None:
    secret = "metrics-scrape-secret"
    with running(sqlite_url, metrics_token=secret) as server:
        url = f"{server.url}/metrics"
        bare = requests.get(url, timeout=10)
        assert bare.status_code == 401
        assert bare.headers["content-type"] == PROBLEM_JSON
        assert bare.json()["code"] == "metrics_token_required"
        assert secret not in bare.text
        wrong = requests.get(url, headers={"Authorization": "Bearer nope"}, timeout=10)
        assert wrong.status_code == 401
        # a user's own session token is not the metrics token
        reviewer = server.login("token-reviewer")
        assert reviewer.http.get(url, timeout=10).status_code == 401
        assert scrape(server.url, Authorization=f"Bearer {secret}")


def _request_from(host: str, authorization: str | None = None) -> Request:
    headers = [(b"authorization", authorization.encode())] if authorization else []
    return Request(
        {
            "type": "http",
            "method": "GET",
            "path": "/metrics",
            "headers": headers,
            "client": (host, 40_000),
        }
    )


def test_metrics_without_a_token_are_for_this_machine_only() -> None:
    for host in ("127.0.0.1", "::1"):
        check_metrics_access(_request_from(host), "")  # allowed
    with pytest.raises(ApiError) as refused:
        check_metrics_access(_request_from("10.1.2.3"), "")
    assert (refused.value.status, refused.value.code) == (403, "metrics_local_only")
    # with a token, where the caller is does not matter: the token does
    check_metrics_access(_request_from("10.1.2.3", "Bearer t0k"), "t0k")
    for wrong in (None, "Bearer t0", "Basic t0k", "Bearer t0kk"):
        with pytest.raises(ApiError) as missing:
            check_metrics_access(_request_from("127.0.0.1", wrong), "t0k")
        assert (missing.value.status, missing.value.code) == (401, "metrics_token_required")


@pytest.mark.postgres
@pytest.mark.slow
def test_metrics_from_any_worker_count_all_workers(pg_url: str, tmp_path: Path) -> None:
    settings = ServerSettings(database_url=pg_url, password_hash_profile="fast")
    service = Service(settings)
    service.start()
    seed_load_queue(service, 20)
    service.create_user(UserCreate(username="pg-reviewer", password=PASSWORD, role=Role.reviewer))
    service.close()
    log = tmp_path / "server.log"
    server = ServerProcess(
        pg_url,
        workers=2,
        log=log,
        log_level="info",
        env={"REVIEWER_SERVER_LOG_FORMAT": "json"},
    ).start()
    try:
        reviewer = ApiSession.login(server.url, "pg-reviewer", PASSWORD)
        assert len(reviewer.claim(LOAD_QUEUE.id, count=5)) == 5
        deadline = time.monotonic() + 60
        while value(scrape(server.url), "reviewdesk_api_processes") != 2:
            assert time.monotonic() < deadline, "the second worker never reported"
            time.sleep(0.2)
        meta = {"method": "GET", "route": "/api/v1/meta", "status": "200"}
        before = value(scrape(server.url), "reviewdesk_http_requests_total", **meta)
        for _ in range(40):
            answer = requests.get(
                f"{server.url}/api/v1/meta", headers={"Connection": "close"}, timeout=10
            )
            assert answer.status_code == 200
        time.sleep(GAUGE_WAIT)  # let gauges cached before the claim expire
        for _ in range(6):  # new connections: several of these land on each worker
            metrics = scrape(server.url)
            assert value(metrics, "reviewdesk_http_requests_total", **meta) == before + 40
            assert value(metrics, "reviewdesk_api_processes") == 2
            assert value(metrics, "reviewdesk_background_leaders") == 1  # one of the two
            assert value(metrics, "reviewdesk_items_leased_total", queue=LOAD_QUEUE.id) == 5
            depth = "reviewdesk_queue_items"
            assert value(metrics, depth, queue=LOAD_QUEUE.id, state="pending") == 15
            assert value(metrics, depth, queue=LOAD_QUEUE.id, state="leased") == 5
    finally:
        server.stop()
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    access = [x for x in lines if x["logger"] == "server.access"]
    assert len({x["request_id"] for x in access}) == len(access) >= 40
    assert reviewer.token and reviewer.token not in log.read_text()


# -- structured logs -------------------------------------------------------------------


def test_json_logs_have_a_parseable_access_line_without_secrets(
    sqlite_url: str, tmp_path: Path
) -> None:
    settings = ServerSettings(database_url=sqlite_url, password_hash_profile="fast")
    service = Service(settings)
    service.start()
    service.create_user(UserCreate(username="log-reviewer", password=PASSWORD, role=Role.reviewer))
    service.close()
    log = tmp_path / "server.log"
    server = ServerProcess(
        sqlite_url, log=log, log_level="info", args=("--log-format", "json")
    ).start()
    try:
        session = ApiSession.login(server.url, "log-reviewer", PASSWORD)
        answer = session.get("/queues", headers={"X-Request-ID": "req-queues-1"})
        assert answer.status_code == 200
        assert answer.headers["x-request-id"] == "req-queues-1"
        assert session.post("/verdicts", data=b"{not json").status_code in (400, 422)
    finally:
        server.stop()
    written = log.read_text()
    lines = [json.loads(line) for line in written.splitlines() if line.strip()]  # every line
    assert all({"time", "level", "logger", "message"} <= set(x) for x in lines)
    access = [x for x in lines if x["logger"] == "server.access"]
    (queues,) = [x for x in access if x["request_id"] == "req-queues-1"]
    assert queues["method"] == "GET"
    assert queues["route"] == "/api/v1/queues"
    assert queues["status"] == 200
    assert isinstance(queues["duration_ms"], float | int) and queues["duration_ms"] >= 0
    assert queues["level"] == "INFO"
    assert any(x["route"] == "/api/v1/sessions" and x["status"] == 201 for x in access)
    assert session.token and session.token not in written
    assert PASSWORD not in written
    assert "not json" not in written


def test_json_formatter_keeps_fields_and_exceptions() -> None:
    record = logging.LogRecord("server", logging.ERROR, __file__, 1, "failed %s", ("x",), None)
    record.fields = {"route": "/api/v1/meta", "status": 500}
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record.exc_info = sys.exc_info()
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "failed x" and entry["level"] == "ERROR"
    assert entry["route"] == "/api/v1/meta" and entry["status"] == 500
    assert "RuntimeError: boom" in entry["exception"]
    assert entry["time"].endswith("+00:00")


def test_settings_from_the_environment_are_typed_and_named_when_wrong(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REVIEWER_SERVER_MAX_BODY_BYTES", "2048")
    monkeypatch.setenv("REVIEWER_SERVER_READ_MAX_STALENESS_SECONDS", "2.5")
    settings = ServerSettings.from_env()
    assert (settings.max_body_bytes, settings.read_max_staleness_seconds) == (2048, 2.5)
    # what a process gives the processes it starts (--workers) reads back the same
    monkeypatch.delenv("REVIEWER_SERVER_MAX_BODY_BYTES")
    for name, value in settings.to_env().items():
        monkeypatch.setenv(name, value)
    assert ServerSettings.from_env() == settings
    # a constructor takes what it is given, never the environment
    assert ServerSettings().max_body_bytes == 1_048_576
    monkeypatch.setenv("REVIEWER_SERVER_MAX_BODY_BYTES", "a megabyte")
    with pytest.raises(SettingsError, match=r"REVIEWER_SERVER_MAX_BODY_BYTES: .*integer"):
        ServerSettings.from_env()
    assert main(["server", "verify-log"]) == 2
    err = capsys.readouterr().err
    assert "REVIEWER_SERVER_MAX_BODY_BYTES" in err and "pydantic" not in err


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["server", "--port", "99999"], "a port is 0 to 65535"),  # was OverflowError in bind
        (["server", "--port", "http"], "is not a port"),
        (["server", "--workers", "0"], "give 1 to 64 processes"),
        (["--demo", "--port", "-1"], "a port is 0 to 65535"),
    ],
)
def test_ports_and_process_counts_are_checked_where_they_are_read(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2
    assert words in capsys.readouterr().err


def test_log_format_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVIEWER_SERVER_LOG_FORMAT", "json")
    assert ServerSettings.from_env().log_format == "json"
    assert ServerSettings.from_env(log_format="text").log_format == "text"
    assert os.environ["REVIEWER_SERVER_LOG_FORMAT"] == "json"


def test_workers_get_a_fresh_metrics_directory_removed_on_exit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(MULTIPROC_ENV, raising=False)
    with metrics_directory() as folder:
        assert os.environ[MULTIPROC_ENV] == str(folder)
        assert folder.is_dir() and not any(folder.iterdir())
        (folder / "counter_1.db").write_bytes(b"")
    assert not folder.exists()
    assert MULTIPROC_ENV not in os.environ


def test_a_killed_servers_metrics_directory_is_removed_by_the_next(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server killed with SIGKILL leaves its folder behind; the next one to start removes
    it, and only it: a running server's folder, one a running worker of a killed server
    still writes to, and folders of other names stay."""
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()  # reaped: its pid runs nothing now
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    dead = tmp_path / f"reviewer-metrics-{ended.pid}-abcd1234"
    orphaned = tmp_path / f"reviewer-metrics-{ended.pid}-qrst7890"  # its workers run on
    kept = [
        tmp_path / f"reviewer-metrics-{os.getpid()}-efgh5678",
        tmp_path / f"reviewer-metrics-{running.pid}-mnop3456",
        orphaned,
        tmp_path / "reviewer-metrics-ijkl9012",  # from before the pid was in the name
        tmp_path / "someone-elses-folder",
    ]
    for folder in (dead, *kept):
        folder.mkdir()
        (folder / f"counter_{ended.pid}.db").write_bytes(b"")  # a dead process's counts
    # a worker of the killed server still counts there (workers outlive a killed supervisor)
    (orphaned / f"counter_{running.pid}.db").write_bytes(b"")
    monkeypatch.setenv(MULTIPROC_ENV, "/where/it/was")
    try:
        with metrics_directory(tmp_path) as folder:
            assert not dead.exists()
            assert all(k.is_dir() for k in kept)
            assert folder.parent == tmp_path and folder.is_dir()
            assert folder.name.startswith(f"reviewer-metrics-{os.getpid()}-")
            assert os.environ[MULTIPROC_ENV] == str(folder)
    finally:
        running.kill()
        running.wait()
    assert not folder.exists()
    assert all(k.is_dir() for k in kept)
    assert os.environ[MULTIPROC_ENV] == "/where/it/was"


def test_metrics_count_the_statements_sent_to_the_database(sqlite_url: str) -> None:
    """The capacity model's statements per decided item (benchmarks/capacity.py) come from
    this counter: each statement sent through the service's engine moves it by one."""
    service = Service(ServerSettings(database_url=sqlite_url, password_hash_profile="fast"))
    service.start()
    try:
        metrics = Metrics(service)

        def sent(selects: int) -> float:
            before = metrics.statements._value.get()
            with service.db.read() as conn:  # a transaction's own statements, and ours
                for _ in range(selects):
                    conn.execute(text("SELECT 1"))
            return float(metrics.statements._value.get() - before)

        one, four = sent(1), sent(4)
        assert one >= 1 and four - one == 3
        total = metrics.statements._value.get()
        assert f"reviewdesk_db_statements_total {total}".encode() in metrics.exposition()
    finally:
        service.close()
