"""The API client over real HTTP (and TLS): typed errors with clear messages for every bad
reply, retries only where repeating is harmless, the version check, and TLS verification."""

from __future__ import annotations

import json
import ssl
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import trustme

from reviewer_app.core.api import ApiClient, Timeouts, normalise_server_url, parse_retry_after
from reviewer_app.core.errors import (
    AuthenticationRequired,
    CertificateError,
    IncompatibleServer,
    NetworkError,
    ProblemError,
    ProtocolError,
    ServiceUnavailable,
)
from reviewer_app.server.feeds.seed import LOAD_QUEUE
from tests.support.client import login
from tests.support.proxy import FaultProxy, Rule, http_response
from tests.support.servers import PASSWORD, LiveServer, dead_address

QUEUES = "/api/v1/queues"


@pytest.fixture
def reviewer(server: LiveServer, proxy: FaultProxy) -> ApiClient:
    token = login(server, "rita").token
    return ApiClient(proxy.url, token=token)


def test_meta_login_and_queues_parse_into_the_contract(server: LiveServer) -> None:
    server.add_user("una")
    with ApiClient(server.url + "/") as api:
        meta = api.check_compatible()
        assert meta.api_version.startswith("1.") and meta.limits.max_claim >= 1
        info = api.login("una", PASSWORD)
        assert info.user.username == "una" and api.token == info.token
        assert api.me().username == "una"
        assert LOAD_QUEUE.id in {q.id for q in api.queues().queues}
        api.logout()
        assert api.token is None
        with pytest.raises(AuthenticationRequired):
            api.me()


def test_wrong_password_is_a_clear_401(server: LiveServer) -> None:
    server.add_user("vic")
    with ApiClient(server.url) as api, pytest.raises(AuthenticationRequired) as caught:
        api.login("vic", "not-the-password")
    assert caught.value.status == 401 and caught.value.code


def test_a_server_of_another_major_version_is_refused_with_both_versions(
    proxy: FaultProxy,
) -> None:
    def v2(body: bytes) -> bytes:
        return json.dumps({**json.loads(body), "api_version": "2.3"}).encode()

    proxy.add(Rule("GET", "/api/v1/meta", "rewrite", rewrite=v2))
    with ApiClient(proxy.url) as api, pytest.raises(IncompatibleServer) as caught:
        api.check_compatible()
    assert "2.3" in str(caught.value) and "1.x" in str(caught.value)


def test_unreachable_server_is_a_network_error_that_surely_did_not_apply() -> None:
    with dead_address() as dead, ApiClient(dead) as api:
        started = time.monotonic()
        with pytest.raises(NetworkError) as caught:
            api.meta()
    assert caught.value.maybe_applied is False
    assert "127.0.0.1" in str(caught.value)
    assert time.monotonic() - started < 10


def test_a_busy_get_is_retried_after_a_short_retry_after(
    reviewer: ApiClient, proxy: FaultProxy
) -> None:
    proxy.add(Rule("GET", QUEUES, "respond", payload=http_response(503, b"", {"Retry-After": "1"})))
    started = time.monotonic()
    assert reviewer.queues().queues
    assert proxy.count("GET", QUEUES) == 2
    assert time.monotonic() - started >= 0.9


def test_a_long_retry_after_comes_back_to_the_caller_at_once(
    reviewer: ApiClient, proxy: FaultProxy
) -> None:
    busy = http_response(503, b"<html>down</html>", {"Retry-After": "120"})
    proxy.add(Rule("GET", QUEUES, "respond", payload=busy))
    started = time.monotonic()
    with pytest.raises(ServiceUnavailable) as caught:
        reviewer.queues()
    assert time.monotonic() - started < 2
    assert caught.value.retry_after == 120 and caught.value.code == "http_503"
    assert proxy.count("GET", QUEUES) == 1


def test_a_claim_is_never_repeated_by_the_client(reviewer: ApiClient, proxy: FaultProxy) -> None:
    path = f"{QUEUES}/{LOAD_QUEUE.id}/leases"
    proxy.add(Rule("POST", path, "respond", payload=http_response(503, b"", {"Retry-After": "1"})))
    with pytest.raises(ServiceUnavailable):
        reviewer.claim(LOAD_QUEUE.id, 5, 300)
    proxy.add(Rule("POST", path, "reset_after"))
    with pytest.raises(NetworkError) as caught:
        reviewer.claim(LOAD_QUEUE.id, 5, 300)
    assert caught.value.maybe_applied is True
    assert proxy.count("POST", path) == 2


def test_a_reply_cut_off_mid_body_is_a_network_error(
    reviewer: ApiClient, proxy: FaultProxy
) -> None:
    proxy.add(Rule("GET", QUEUES, "truncate", times=5))
    with pytest.raises(NetworkError, match="cut off"):
        reviewer.queues()


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"<html>hello</html>", "is not JSON"),
        (b'{"queues": [{"id": "BAD ID"}]}', "breaks the contract"),
        (b'{"queues": "none"}', "breaks the contract"),
        (b"[]", "breaks the contract"),
        # a field this client does not know is left out, but not the fields it does know
        (b'{"extra": 1}', "breaks the contract"),
    ],
)
def test_a_reply_that_breaks_the_contract_is_a_protocol_error(
    reviewer: ApiClient, proxy: FaultProxy, body: bytes, words: str
) -> None:
    proxy.add(Rule("GET", QUEUES, "rewrite", payload=body))
    with pytest.raises(ProtocolError, match=words) as caught:
        reviewer.queues()
    assert "Nothing from it was used" in str(caught.value)


def test_verdict_results_that_do_not_match_the_batch_are_refused(
    server: LiveServer, reviewer: ApiClient, proxy: FaultProxy
) -> None:
    from reviewer_app.core.store import Store

    def drop_one(body: bytes) -> bytes:
        doc = json.loads(body)
        doc["results"] = doc["results"][:-1]
        return json.dumps(doc).encode()

    with Store(Path(server.settings.database_url[10:]).with_name("rita.sqlite3")) as store:
        store.add_leased(reviewer.claim(LOAD_QUEUE.id, 2, 300))
        for row in store.worklist():
            store.record_verdict(row.item_id, action="keep", undo_window=0)
        batch = [o.verdict for o in store.take_due(time.time() + 1, 10)]
    proxy.add(Rule("POST", "/api/v1/verdicts", "rewrite", rewrite=drop_one))
    with pytest.raises(ProtocolError, match="do not match"):
        reviewer.verdicts(batch)
    assert [r.status for r in reviewer.verdicts(batch).results] == ["duplicate", "duplicate"]


def test_an_oversized_reply_is_dropped(server: LiveServer) -> None:
    token = login(server, "wes").token
    with ApiClient(server.url, token=token, max_reply_bytes=300) as api:
        with pytest.raises(ProtocolError, match="limit"):
            api.queues()
        assert api.me().username == "wes"


def test_a_reply_that_trickles_in_is_given_up(tmp_path: Path) -> None:
    """A byte now and then, each inside the read timeout (which bounds one socket read, not
    the reply), held a call and the sync thread for as long as the server went on: now a
    reply that averages under a kilobyte a second after the read timeout is cut off."""
    import socket
    import threading

    listener = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def drip() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(65_536)
            conn.sendall(
                b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                b'Content-Length: 100000\r\n\r\n{"api_version": "1.0", '
            )
            while not stop.wait(0.3):
                conn.sendall(b" ")

    threading.Thread(target=drip, daemon=True).start()
    port = listener.getsockname()[1]
    started = time.monotonic()
    try:
        timeouts = Timeouts(connect=2, read=1)
        with (
            ApiClient(f"http://127.0.0.1:{port}", timeouts=timeouts) as api,
            pytest.raises(NetworkError, match="too slowly"),
        ):
            api.check_compatible()
        assert time.monotonic() - started < 30
    finally:
        stop.set()
        listener.close()


def test_a_problem_reply_keeps_the_server_code(reviewer: ApiClient) -> None:
    with pytest.raises(ProblemError) as caught:
        reviewer.claim("no-such-queue", 1, 300)
    assert caught.value.status == 404 and caught.value.code


@pytest.fixture
def tls_proxy(server: LiveServer, tmp_path: Path) -> Iterator[tuple[FaultProxy, Path]]:
    ca = trustme.CA()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    front = FaultProxy(server.port, tls=context).start()
    try:
        yield front, bundle
    finally:
        front.stop()


def test_tls_is_verified_and_a_custom_ca_bundle_can_be_given(
    tls_proxy: tuple[FaultProxy, Path],
) -> None:
    proxy, bundle = tls_proxy
    assert proxy.url.startswith("https://")
    with ApiClient(proxy.url) as api, pytest.raises(CertificateError, match=r"(?i)certificate"):
        api.meta()
    with ApiClient(proxy.url, ca_bundle=bundle) as api:
        assert api.check_compatible().api_version.startswith("1.")


def test_an_authority_the_system_trusts_is_trusted(
    tls_proxy: tuple[FaultProxy, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An in-house authority installed on the machine (here through ``SSL_CERT_FILE``, as
    OpenSSL reads the system's store) is trusted with no bundle given."""
    proxy, bundle = tls_proxy
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    with ApiClient(proxy.url) as api:
        assert api.check_compatible().api_version.startswith("1.")


def test_a_handshake_that_is_not_about_the_certificate_is_not_called_one(
    server: LiveServer,
) -> None:
    """HTTPS to a plain HTTP port fails in the handshake: a network failure, not a
    certificate the reviewer should ask IT about."""
    with ApiClient(f"https://127.0.0.1:{server.port}") as api, pytest.raises(NetworkError) as got:
        api.meta()
    assert not isinstance(got.value, CertificateError)


def test_server_addresses_and_retry_after_are_parsed_strictly() -> None:
    assert normalise_server_url(" HTTPS://Review.Example:8443/ ") == "https://review.example:8443"
    for bad in ("ftp://x", "review.example", "https://user:pw@x", "https://x/?q=1", "javascript:1"):
        with pytest.raises(ValueError):
            normalise_server_url(bad)
    assert parse_retry_after("7") == 7
    assert parse_retry_after("soon") is None
    assert parse_retry_after(None) is None
    assert 0 <= (parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") or 0) <= 0


def test_one_broken_item_does_not_spoil_a_claim(reviewer: ApiClient, proxy: FaultProxy) -> None:
    path = f"{QUEUES}/{LOAD_QUEUE.id}/leases"

    def spoil(body: bytes) -> bytes:
        doc = json.loads(body)
        doc["items"][1]["item"]["post"]["text"] = {"html": "<b>no</b>"}
        doc["items"][2]["item"]["post"]["text"] = "x" * 200_000  # over the contract's limit
        return json.dumps(doc).encode()

    proxy.add(Rule("POST", path, "rewrite", rewrite=spoil))
    grant = reviewer.claim(LOAD_QUEUE.id, 4, 300)
    assert len(grant.items) == 2
    assert len(reviewer.unusable) == 2
    assert all("post.text" in why for _, why in reviewer.unusable)


def test_fields_a_newer_service_adds_are_left_out_and_the_rest_still_checked(
    reviewer: ApiClient, proxy: FaultProxy
) -> None:
    """A service of the same major version only adds fields: an older client reads its
    replies without them (the claim, its items, the queues, the login's user), and a
    known field that breaks the contract is still refused."""
    path = f"{QUEUES}/{LOAD_QUEUE.id}/leases"

    def newer(body: bytes) -> bytes:
        doc = json.loads(body)
        doc["renewal_hint"] = {"seconds": 30}
        doc["items"][0]["item"]["post"]["future_field"] = [1, 2]
        doc["items"][0]["item"]["future_field"] = "x"
        doc["items"][1]["item"]["post"]["text"] = 17  # broken, whatever else is added
        doc["items"][1]["item"]["another_future_field"] = True
        return json.dumps(doc).encode()

    def newer_queues(body: bytes) -> bytes:
        doc = json.loads(body)
        for queue in doc["queues"]:
            queue["counts"]["future_count"] = 3
        return json.dumps(doc).encode()

    proxy.add(Rule("POST", path, "rewrite", rewrite=newer))
    proxy.add(Rule("GET", QUEUES, "rewrite", rewrite=newer_queues))
    grant = reviewer.claim(LOAD_QUEUE.id, 3, 300)
    assert len(grant.items) == 2 and reviewer.unusable[0][1].find("post.text") >= 0
    assert "future_field" not in grant.items[0].item.model_dump_json()
    assert [q.id for q in reviewer.queues().queues], "the queues are read"


def test_lone_surrogates_from_json_escapes_become_replacement_characters(
    reviewer: ApiClient, proxy: FaultProxy
) -> None:
    path = f"{QUEUES}/{LOAD_QUEUE.id}/leases"

    def surrogate(body: bytes) -> bytes:
        doc = json.loads(body)
        doc["items"][0]["item"]["post"]["text"] = "PLACEHOLDER"
        return json.dumps(doc).encode().replace(b"PLACEHOLDER", b"a\\ud800b\\udfffc \\ud83d\\ude00")

    proxy.add(Rule("POST", path, "rewrite", rewrite=surrogate))
    grant = reviewer.claim(LOAD_QUEUE.id, 1, 300)
    assert grant.items[0].item.post.text == "a\ufffdb\ufffdc \U0001f600"
