"""``REVIEWER_SERVER_*`` settings and the service's log, as an operator starting
``reviewer-app server`` gets them wrong (each found by starting the real command):

- a value outside a setting's range, not one of its words, ``nan``, or a proxy URL urllib3
  cannot use stops the service at start: exit 2, one line naming the variable, no
  traceback; the documented special values (``0 turns it off``) still start it;
- a ``REVIEWER_SERVER_*`` variable that names no setting is a warning naming it;
- ``--log-level trace`` (offered by ``--help``) starts the service;
- at DEBUG, a webhook URL's query string (where a receiver's token often is) is in no log
  line (urllib3 logs each request's path with it);
- in JSON log mode every line is JSON, the warnings given as it starts among them;
- docs/operations.md lists every setting.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer_app.server.config import ENV_PREFIX, ServerSettings
from reviewer_app.server.storage.checkpoints import create_key_file
from tests.server.test_webhooks_processes import FAST_ENV, PLATFORM, cli, decide, prepare
from tests.support.servers import ServerProcess
from tests.support.webhook_receiver import Answer, Receiver

ROOT = Path(__file__).resolve().parents[2]
SERVER = [sys.executable, "-m", "reviewer_app", "server"]


@pytest.fixture
def busy_port() -> Iterator[int]:
    """A port something else listens on: a service that gets as far as binding it exits
    (so a test of a value it should have refused does not hang)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


def start(url: str, port: int, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``reviewer-app server`` (serving) in its own process, with ``env`` on top of ours
    (no other ``REVIEWER_SERVER_*``)."""
    base = {k: v for k, v in os.environ.items() if not k.upper().startswith(ENV_PREFIX)}
    return subprocess.run(
        [*SERVER, "--database-url", url, "--port", str(port), *args],
        env={**base, f"{ENV_PREFIX}PASSWORD_HASH_PROFILE": "fast", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


# -- 1 and 2. values the service cannot use stop it at start ---------------------------------


@pytest.mark.parametrize(
    ("name", "value", "words"),
    [
        ("MAX_BODY_BYTES", "-5", "greater than or equal to 1"),
        ("TOKEN_TTL_SECONDS", "-10", "greater than or equal to 60"),
        ("MAX_LEASE_SECONDS", "-5", "greater than or equal to 30"),
        ("LOG_LAG_LIMIT_SECONDS", "-1", "greater than or equal to 1"),
        ("RATE_LIMIT_PER_MINUTE", "-1", "greater than or equal to 0"),
        ("RATE_LIMIT_BURST", "0", "greater than or equal to 1"),  # was: 1 request, then 429
        ("WEBHOOK_POLL_SECONDS", "0", "greater than or equal to 0.01"),
        ("READ_MAX_STALENESS_SECONDS", "nan", "finite number"),
        ("READ_MAX_STALENESS_SECONDS", "-1", "greater than or equal to 0"),
        ("WEBHOOK_TIMEOUT_SECONDS", "inf", "finite number"),
        ("PASSWORD_HASH_PROFILE", "bogus", "'default' or 'fast'"),
        ("SQLITE_SYNCHRONOUS", "bogus", "'OFF', 'NORMAL', 'FULL' or 'EXTRA'"),
        ("LOG_FORMAT", "xml", "'text' or 'json'"),
        ("WEBHOOK_PROXY", "notaurl", "http://host:port or https://host:port"),
        ("WEBHOOK_PROXY", "ftp://proxy.internal:21", "http://host:port or https://host:port"),
        ("WEBHOOK_PROXY", "http://proxy.internal:port", "not a proxy URL"),
    ],
)
def test_a_value_out_of_bounds_stops_the_service_with_one_line_naming_it(
    tmp_path: Path, busy_port: int, name: str, value: str, words: str
) -> None:
    url = f"sqlite:///{tmp_path / 'desk.db'}"
    done = start(url, busy_port, {f"{ENV_PREFIX}{name}": value})
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1, done.stderr
    assert f"{ENV_PREFIX}{name}: " in done.stderr and words in done.stderr, done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "desk.db").exists(), "refused before the database was touched"


def test_the_documented_special_values_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    special = {
        "RATE_LIMIT_PER_MINUTE": "0",  # the limit off
        "SKIP_MEMORY_SECONDS": "0",  # skips not remembered
        "WEBHOOK_WORKERS": "0",  # this process delivers none
        "WEBHOOK_ROTATION_GRACE_SECONDS": "0",
        "READ_MAX_STALENESS_SECONDS": "0",
        "SQLITE_SYNCHRONOUS": "full",
        "LOG_FORMAT": "JSON",
        "WEBHOOK_PROXY": "http://user:pw@proxy.internal:3128",
    }
    for name, value in special.items():
        monkeypatch.setenv(f"{ENV_PREFIX}{name}", value)
    settings = ServerSettings.from_env()
    assert settings.rate_limit_per_minute == settings.skip_memory_seconds == 0
    assert settings.webhook_workers == settings.read_max_staleness_seconds == 0
    assert (settings.sqlite_synchronous, settings.log_format) == ("FULL", "json")
    assert ServerSettings(webhook_proxy="https://proxy.internal").webhook_proxy


def test_a_variable_that_names_no_setting_is_a_warning_naming_it(tmp_path: Path) -> None:
    base = {k: v for k, v in os.environ.items() if not k.upper().startswith(ENV_PREFIX)}
    env = {**base, f"{ENV_PREFIX}NOPE": "1", f"{ENV_PREFIX}MAX_BODY_BYTE": "2048"}
    done = subprocess.run(
        [*SERVER, "openapi", "-o", str(tmp_path / "openapi.json")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert f"{ENV_PREFIX}NOPE is not a setting of the service" in done.stderr
    assert (
        f"{ENV_PREFIX}MAX_BODY_BYTE is not a setting of the service and is ignored (did you "
        f"mean {ENV_PREFIX}MAX_BODY_BYTES?)"
    ) in done.stderr


# -- 3. --log-level trace -----------------------------------------------------------------------


def test_the_service_starts_at_log_level_trace(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    server = ServerProcess(f"sqlite:///{tmp_path / 'desk.db'}", log=log, log_level="trace")
    try:
        server.start()  # answers /api/v1/meta, or raises
    finally:
        server.stop()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "Unable to configure root logger" not in text and " TRACE " in text, text[-2000:]


# -- 4. a webhook URL's query string never in the log -----------------------------------------


def test_a_debug_log_holds_no_query_string_of_a_webhook_url(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'desk.db'}"
    key = prepare(url)
    log = tmp_path / "server.log"
    with Receiver(lambda _p, _h, _b: Answer(500)) as receiver:
        added = cli(url, "add", receiver.url("/hook?token=UrlTokLeak"), "--account", PLATFORM)
        assert added.returncode == 0, added.stderr
        server = ServerProcess(url, log=log, log_level="debug", env=FAST_ENV).start()
        try:
            decide(server.url, key, ["p-1"])
            receiver.wait_for(lambda got: len(got) >= 2)  # an attempt, and a retry
            assert "token=UrlTokLeak" in receiver.snapshot()[0].path
            time.sleep(0.5)
        finally:
            server.stop()
    text = log.read_text(encoding="utf-8", errors="replace")
    assert " DEBUG " in text, "it did log at DEBUG"
    assert "UrlTokLeak" not in text and "?token" not in text, [
        line for line in text.splitlines() if "UrlTokLeak" in line
    ]


# -- 5. JSON mode: every line JSON --------------------------------------------------------------


def test_in_json_mode_the_warnings_at_start_are_json_too(tmp_path: Path) -> None:
    key_file = tmp_path / "log.key"
    create_key_file(key_file)
    key_file.chmod(0o644)  # readable by others: a warning as the service starts
    log = tmp_path / "server.log"
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'desk.db'}",
        log=log,
        log_level="info",
        args=("--log-format", "json"),
        env={f"{ENV_PREFIX}LOG_SIGNING_KEY": str(key_file), f"{ENV_PREFIX}NOPE": "1"},
    )
    try:
        server.start()
    finally:
        server.stop()
    lines = [line for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    messages = []
    for line in lines:
        try:
            messages.append(json.loads(line)["message"])
        except ValueError:
            pytest.fail(f"not a JSON line: {line!r}")
    assert any("readable by group or others" in m for m in messages), messages
    assert any(f"{ENV_PREFIX}NOPE is not a setting" in m for m in messages), messages


# -- 6. every setting documented ----------------------------------------------------------------


def test_every_setting_is_in_the_operations_guide_with_its_bounds() -> None:
    text = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    section = text[text.index("## Settings for a deployment") :]
    section = section[: section.index("\n## ", 1)]
    rows = {
        line.split("|")[1].strip().strip("`"): line
        for line in section.splitlines()
        if line.startswith(f"| `{ENV_PREFIX}")
    }
    assert set(rows) == {f"{ENV_PREFIX}{name.upper()}" for name in ServerSettings.model_fields}
    assert "0 turns the limit off" in rows[f"{ENV_PREFIX}RATE_LIMIT_PER_MINUTE"]
    assert "0 turns" not in rows[f"{ENV_PREFIX}RATE_LIMIT_BURST"]
    for name in ("SKIP_MEMORY_SECONDS", "LOGIN_MAX_FAILURES", "WEBHOOK_LANES"):
        assert " to " in rows[f"{ENV_PREFIX}{name}"].split("|")[3], name
