"""Webhooks from real service processes, on SQLite and PostgreSQL: with two services of two
API processes each, one process at a time delivers to an endpoint (the lease on its state
row), every action arrives in order; the command line adds endpoints (the secret on stdout,
once), lists them without secrets and replays from a cursor; no secret ever reaches the
server's log, the command's other output or the event log."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import select
from standardwebhooks.webhooks import Webhook

from reviewer_app.protocol import QueueFile, Role, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import enforcement_actions, events, webhook_state
from tests.support.api import ApiSession, claim, verdict
from tests.support.enforcement import queue_file
from tests.support.intake import MISINFO, classifier, post, send
from tests.support.servers import PASSWORD, ServerProcess
from tests.support.webhook_receiver import OK, Answer, Received, Receiver

PLATFORM = "feed-bridge"
SERVER = [sys.executable, "-m", "reviewer_app", "server"]
FAST_ENV = {
    "REVIEWER_SERVER_WEBHOOK_BACKOFF_BASE_SECONDS": "0.05",
    "REVIEWER_SERVER_WEBHOOK_BACKOFF_MAX_SECONDS": "0.2",
    "REVIEWER_SERVER_WEBHOOK_POLL_SECONDS": "0.05",
    "REVIEWER_SERVER_WEBHOOK_TIMEOUT_SECONDS": "1",
    "REVIEWER_SERVER_WEBHOOK_LEASE_SECONDS": "5",
}


@contextmanager
def service(url: str) -> Iterator[Service]:
    """The service's facade on the test's side (no threads: the processes deliver)."""
    svc = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    svc.start()
    try:
        yield svc
    finally:
        svc.close()


def prepare(url: str) -> str:
    """Queues, a platform account and a reviewer; the platform's key."""
    with service(url) as svc:
        svc.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        svc.create_user(UserCreate(username="rita", password=PASSWORD, role=Role.reviewer))
        return svc.create_api_key(Role.platform, PLATFORM).key


def decide(base_url: str, key: str, names: list[str]) -> None:
    platform = ApiSession(base_url, key)
    send(platform, "posts", [post(n) for n in names])
    send(platform, "signals", [classifier(n, 0.9) for n in names])
    rita = ApiSession.login(base_url, "rita", PASSWORD)
    leased = claim(rita, MISINFO, len(names))
    results = rita.decide([verdict(x, "remove", policies=["MISINFO.CIVIC"]) for x in leased])
    assert {r["status"] for r in results} == {"accepted"}


def action_ids(url: str) -> list[str]:
    """The platform's actions' webhook ids, in seq order (everything committed is sealed
    first: the service processes' sequencers may not have come to it yet)."""
    with service(url) as svc:
        svc.seal_now()
        with svc.db.read() as conn:
            rows = conn.execute(
                select(enforcement_actions.c.id)
                .where(
                    enforcement_actions.c.source == PLATFORM,
                    enforcement_actions.c.seq.is_not(None),
                )
                .order_by(enforcement_actions.c.seq)
            ).all()
    return [f"act_{r.id}" for r in rows]


def first_arrivals(received: list[Received]) -> list[str]:
    seen: dict[str, None] = {}
    for r in received:
        seen.setdefault(r.webhook_id, None)
    return list(seen)


def wait_until(condition: Callable[[], bool], timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.1)


def cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", "server", "--database-url", url, "webhook", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_one_process_at_a_time_delivers_to_an_endpoint(database_url: str) -> None:
    key = prepare(database_url)

    def slowly(_path: str, _headers: dict[str, str], _body: bytes) -> Answer:
        time.sleep(0.01)  # a moment in flight, so two senders would overlap
        return OK

    paths = ["/a", "/b", "/c"]
    with Receiver(slowly) as receiver:
        with service(database_url) as svc:
            secrets = {p: svc.add_webhook(receiver.url(p), PLATFORM, None, "ops")[1] for p in paths}
        servers = [ServerProcess(database_url, workers=2, env=FAST_ENV).start() for _ in range(2)]
        try:
            for n in range(4):  # decisions through both services while they deliver
                decide(servers[n % 2].url, key, [f"p-{n}-{i}" for i in range(10)])
            wanted = action_ids(database_url)
            assert len(wanted) == 40
            wait_until(
                lambda: all(
                    set(first_arrivals([r for r in receiver.snapshot() if r.path == p]))
                    >= set(wanted)
                    for p in paths
                )
            )
        finally:
            for server in servers:
                server.stop()
        for path in paths:
            got = [r for r in receiver.snapshot() if r.path == path]
            assert first_arrivals(got) == wanted, "each endpoint's actions in seq order"
            for message in got:
                Webhook(secrets[path]).verify(message.body, message.headers)
        assert receiver.max_in_flight == {p: 1 for p in paths}, (
            "two processes delivered to one endpoint at once"
        )


def test_the_command_line_and_secrets_kept_out_of_logs(database_url: str, tmp_path: Path) -> None:
    key = prepare(database_url)
    failures = iter([Answer(500), Answer(429, {"Retry-After": "0"}), Answer(reset=True)])

    def answer(_path: str, _headers: dict[str, str], _body: bytes) -> Answer:
        return next(failures, OK)

    log = tmp_path / "server.log"
    with Receiver(answer) as receiver:
        added = cli(database_url, "add", receiver.url(), "--account", PLATFORM, "--by", "ops")
        assert added.returncode == 0, added.stderr
        secret = added.stdout.strip()
        assert secret.startswith("whsec_") and added.stdout == secret + "\n"
        assert secret not in added.stderr
        assert "Added webhook 1" in added.stderr
        rotated = cli(database_url, "rotate-secret", "1", "--grace", "3600")
        assert rotated.returncode == 0, rotated.stderr
        new = rotated.stdout.strip()
        assert new.startswith("whsec_") and new != secret and new not in rotated.stderr

        env = {**FAST_ENV, "REVIEWER_SERVER_WEBHOOK_FAILING_AFTER": "2"}
        server = ServerProcess(database_url, log=log, log_level="debug", env=env).start()
        try:
            decide(server.url, key, [f"p-{i}" for i in range(5)])
            wanted = action_ids(database_url)
            assert len(wanted) == 5
            wait_until(lambda: set(first_arrivals(receiver.snapshot())) >= set(wanted))
            for message in receiver.snapshot():  # both secrets sign during the rotation
                Webhook(secret).verify(message.body, message.headers)
                Webhook(new).verify(message.body, message.headers)

            listed = cli(database_url, "list")
            assert listed.returncode == 0, listed.stderr
            [header, row] = listed.stdout.splitlines()[:2]
            assert "backlog" in header and receiver.url() in row and PLATFORM in row

            before = len(receiver.snapshot())
            replayed = cli(database_url, "replay", "1", "--from", "0")
            assert replayed.returncode == 0, replayed.stderr
            assert "5 actions to deliver" in replayed.stderr
            wait_until(lambda: len(receiver.snapshot()) >= before + 5)
            again = [r.webhook_id for r in receiver.snapshot()[before:]]
            assert again == wanted, "sent again, in order"

            disabled = cli(database_url, "disable", "1")
            assert disabled.returncode == 0 and "is disabled" in disabled.stdout
            unknown = cli(database_url, "disable", "7")
            assert unknown.returncode == 1 and "no webhook endpoint 7" in unknown.stderr
            bad = cli(database_url, "add", "http://x/", "--account", PLATFORM, "--events", "ban")
            assert bad.returncode == 1 and "'ban' is not an action kind" in bad.stderr
        finally:
            server.stop()

        outputs = [added.stderr, rotated.stderr, listed.stdout, listed.stderr, replayed.stderr]
        with service(database_url) as svc, svc.db.read() as conn:
            logged = [r.data for r in conn.execute(select(events.c.data))]
        server_log = log.read_text(encoding="utf-8", errors="replace")
        assert "webhook 1 (" in server_log and "is failing" in server_log, "it did log"
        for value in (secret, new):
            raw = value.removeprefix("whsec_")
            for where, text in [
                ("server log", server_log),
                ("command output", "\n".join(outputs)),
                ("event log", "\n".join(logged)),
            ]:
                assert value not in text and raw not in text, f"a secret in the {where}"
        assert any('"url":' in d and receiver.url() in d for d in logged)


def test_a_process_of_its_own_delivers_for_api_processes_that_do_not(
    database_url: str, tmp_path: Path
) -> None:
    key = prepare(database_url)
    env = {**FAST_ENV, "REVIEWER_SERVER_WEBHOOK_WORKERS": "0"}
    with Receiver() as receiver:
        with service(database_url) as svc:
            svc.add_webhook(receiver.url(), PLATFORM, None, "ops")
        server = ServerProcess(database_url, env=env).start()
        log = tmp_path / "dispatcher.log"
        try:
            decide(server.url, key, [f"p-{i}" for i in range(5)])
            wanted = action_ids(database_url)
            assert len(wanted) == 5
            with log.open("wb") as out:
                dispatcher = subprocess.Popen(
                    [*SERVER, "--database-url", database_url, "webhook", "run"],
                    env={**os.environ, **env},
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            try:
                wait_until(lambda: first_arrivals(receiver.snapshot()) == wanted)
            finally:
                dispatcher.terminate()
                assert dispatcher.wait(60) == 0
        finally:
            server.stop()
        with service(database_url) as svc, svc.db.read() as conn:
            owner = conn.execute(select(webhook_state.c.lease_owner)).scalar()
        assert owner is None, "a stopped dispatcher gives its leases back"
        assert "delivering webhooks (8 endpoints at a time)" in log.read_text()


@pytest.mark.parametrize(
    "args",
    [
        ("disable", "99999999999999999999"),
        ("enable", "-1"),
        ("replay", "1", "--from", "2147483648"),
        ("rotate-secret", "1", "--grace", "1e20"),
        ("rotate-secret", "1", "--grace", "inf"),
        ("rotate-secret", "1", "--grace", "-5"),
    ],
)
def test_numbers_no_row_can_hold_are_usage_errors(
    sqlite_url: str, capsys: pytest.CaptureFixture[str], args: tuple[str, ...]
) -> None:
    """Ids, cursors and grace periods past what the database holds are refused where the
    command line is read (they were an OverflowError out of the command)."""
    from reviewer_app.__main__ import main

    with pytest.raises(SystemExit) as exited:
        main(["server", "--database-url", sqlite_url, "webhook", *args])
    assert exited.value.code == 2
    assert f"{args[-1]!r}: " in capsys.readouterr().err


def test_a_grace_beside_finish_is_refused(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--finish`` ends a rotation now: a ``--grace`` beside it was silently ignored."""
    from reviewer_app.__main__ import main

    with pytest.raises(SystemExit) as exited:
        main(
            [
                "server",
                "--database-url",
                sqlite_url,
                "webhook",
                "rotate-secret",
                "1",
                "--finish",
                "--grace",
                "60",
            ]
        )
    assert exited.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err
