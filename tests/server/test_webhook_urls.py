"""Webhook URLs and what they must not leak: a URL with a user name or password is refused
(it would be printed, listed and kept for good in the event log), and the dispatcher's log
lines show an endpoint's URL without its query string (where a token often is)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import pytest

from reviewer_app.__main__ import main
from reviewer_app.protocol import QueueFile, Role
from reviewer_app.protocol.webhooks import WebhookStatus
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.webhook_endpoints import shown_url
from reviewer_app.server.service import Service
from tests.support.api import ApiSession, claim, verdict
from tests.support.enforcement import queue_file, queue_posts
from tests.support.intake import MISINFO
from tests.support.servers import running
from tests.support.webhook_receiver import Answer, Receiver

PASSWORD = "s3cretpw"  # what the operator typed into the URL, in a test
TOKEN = "t0ken-in-the-query"


def server_cli(capsys: pytest.CaptureFixture[str], url: str, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["server", "--database-url", url, *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_a_url_with_a_password_is_refused_and_kept_nowhere(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = server_cli(
        capsys,
        sqlite_url,
        "api-key",
        "create",
        "--role",
        "platform",
        "--name",
        "demo-platform",
    )
    assert code == 0, err
    for url in (
        f"https://user:{PASSWORD}@hooks.example/x",
        f"https://:{PASSWORD}@hooks.example/x",
        f"https://{PASSWORD}@hooks.example/x",  # a token as the user name
    ):
        code, out, err = server_cli(
            capsys, sqlite_url, "webhook", "add", "--account", "demo-platform", url
        )
        assert code == 1, out
        assert "user name or password" in err
        assert PASSWORD not in out + err, "the refusal does not print the password"
    code, out, err = server_cli(capsys, sqlite_url, "webhook", "list", "--json")
    assert code == 0, err
    assert out.strip() == "[]", "no endpoint was added"

    service = Service(ServerSettings(database_url=sqlite_url, password_hash_profile="fast"))
    service.start()
    try:
        service.seal_now()
        events = service.events(None, 500, None).events
        assert not [e for e in events if e.kind.value == "webhook_added"]
        assert PASSWORD not in "".join(e.model_dump_json() for e in events)
    finally:
        service.close()


def test_a_url_with_a_token_in_its_path_or_query_is_still_taken(sqlite_url: str) -> None:
    service = Service(ServerSettings(database_url=sqlite_url, password_hash_profile="fast"))
    service.start()
    try:
        service.create_api_key(Role.platform, "demo-platform")
        for url in (
            "https://hooks.example/x?token=abc",
            "https://hooks.example/x/abc@def",  # an @ in the path is no user info
        ):
            added, _ = service.add_webhook(url, "demo-platform", None, "ops")
            assert added.url == url
    finally:
        service.close()


def test_shown_url_drops_the_query_fragment_and_user_info() -> None:
    assert shown_url(f"https://h.example:8443/a/b?token={TOKEN}#f") == "https://h.example:8443/a/b"
    assert shown_url(f"https://u:{PASSWORD}@h.example/x?t=1") == "https://h.example/x"
    assert shown_url("http://127.0.0.1:9/hook") == "http://127.0.0.1:9/hook"


def wait_until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


def test_the_dispatchers_log_lines_show_no_query_string(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    """410 Gone disables the endpoint, and the dispatcher says so in the server's log: with
    the URL's host and path, never the token in its query string."""
    caplog.set_level(logging.INFO, logger="server.webhooks")
    fast = {
        "webhook_backoff_base_seconds": 0.05,
        "webhook_backoff_max_seconds": 0.2,
        "webhook_poll_seconds": 0.05,
        "webhook_timeout_seconds": 1.0,
    }
    with (
        Receiver(lambda _path, _headers, _body: Answer(410)) as receiver,
        running(sqlite_url, **fast) as server,  # type: ignore[arg-type]
    ):
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        key = server.service.create_api_key(Role.platform, "feed-bridge").key
        url = receiver.url(f"/hook?token={TOKEN}")
        added, _ = server.service.add_webhook(url, "feed-bridge", None, "ops")
        queue_posts(ApiSession(server.url, key), ["p-1"])
        rita = server.login("rita")
        rita.decide(
            [verdict(x, "remove", policies=["MISINFO.CIVIC"]) for x in claim(rita, MISINFO, 1)]
        )
        server.service.seal_now()
        wait_until(lambda: server.service.webhook(added.id).status is WebhookStatus.disabled)
        wait_until(lambda: "disabled" in caplog.text)
    said = [r.getMessage() for r in caplog.records if r.name == "server.webhooks"]
    [disabled] = [m for m in said if "disabled" in m]
    assert receiver.url("/hook") in disabled
    assert TOKEN not in caplog.text
