"""Webhooks through a proxy that asks for a password (SQLite and PostgreSQL): the user and
password of ``REVIEWER_SERVER_WEBHOOK_PROXY`` (``http://user:password@host:port``,
percent-encoded) go to the proxy as ``Proxy-Authorization`` (Basic), never to the receiver,
and never into the log. The proxy is a real one on 127.0.0.1 that forwards what it lets
through to the receiver."""

from __future__ import annotations

import base64
import http.client
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import quote, urlsplit

import pytest
from standardwebhooks.webhooks import Webhook

from reviewer_app.protocol import QueueFile
from reviewer_app.server.domain.webhooks.messages import proxy_parts
from tests.server.test_webhooks import FAST, PLATFORM, decide, endpoint, has, platform, wait_until
from tests.support.enforcement import queue_file
from tests.support.servers import running
from tests.support.webhook_receiver import Receiver

USER = "ops"
PASSWORD = "p@ss:w/rd%€"  # every character a URL makes special, and one not ASCII


class Proxy:
    """A forwarding HTTP proxy (absolute-form requests) that lets through only requests
    with ``Proxy-Authorization: Basic`` of ``user:password``, and answers 407 to others."""

    def __init__(self, user: str, password: str) -> None:
        self.expected = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
        self.seen: list[str | None] = []  # the Proxy-Authorization of each request
        self.lock = threading.Lock()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                given = self.headers.get("proxy-authorization")
                with proxy.lock:
                    proxy.seen.append(given)
                if given != proxy.expected:
                    self.send_response(407)
                    self.send_header("proxy-authenticate", 'Basic realm="webhooks"')
                    self.send_header("content-length", "0")
                    self.end_headers()
                    return
                target = urlsplit(self.path)
                headers = {
                    k: v for k, v in self.headers.items() if not k.lower().startswith("proxy-")
                }
                upstream = http.client.HTTPConnection(
                    target.hostname or "", target.port, timeout=10
                )
                try:
                    upstream.request("POST", target.path or "/", body=body, headers=headers)
                    answer = upstream.getresponse()
                    content = answer.read()
                finally:
                    upstream.close()
                self.send_response(answer.status, answer.reason)
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def port(self) -> int:
        return int(self.server.server_address[1])


@contextmanager
def proxying(user: str, password: str) -> Iterator[Proxy]:
    proxy = Proxy(user, password)
    proxy.thread.start()
    try:
        yield proxy
    finally:
        proxy.server.shutdown()
        proxy.server.server_close()


def test_the_proxy_url_loses_its_user_information_to_a_header() -> None:
    assert proxy_parts("http://proxy.internal:3128") == ("http://proxy.internal:3128", {})
    address, headers = proxy_parts(f"http://{USER}:{quote(PASSWORD, safe='')}@proxy.internal:3128")
    assert address == "http://proxy.internal:3128"
    [(name, value)] = headers.items()
    assert name.lower() == "proxy-authorization" and value.startswith("Basic ")
    assert base64.b64decode(value.removeprefix("Basic ")).decode() == f"{USER}:{PASSWORD}"


def test_messages_go_through_a_proxy_that_asks_for_a_password(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    encoded = quote(PASSWORD, safe="")
    with (
        proxying(USER, PASSWORD) as proxy,
        Receiver() as receiver,
        running(
            database_url,
            webhook_proxy=f"http://{USER}:{encoded}@127.0.0.1:{proxy.port}",
            **FAST,  # type: ignore[arg-type]
        ) as server,
    ):
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, _key = platform(server)
        added, secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        decide(server, session, ["p-1", "p-2"])
        got = receiver.wait_for(has(2))
        wait_until(lambda: endpoint(server, added.id).backlog == 0)
        health = endpoint(server, added.id)
    assert health.consecutive_failures == 0 and health.delivered_total == 2
    assert proxy.seen and set(proxy.seen) == {proxy.expected}, "every request authenticated"
    for message in got:
        Webhook(secret).verify(message.body, message.headers)
        assert "proxy-authorization" not in message.headers
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    for secret_form in (PASSWORD, encoded, proxy.expected.removeprefix("Basic ")):
        assert secret_form not in logged
