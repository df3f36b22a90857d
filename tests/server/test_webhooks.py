"""Webhooks over real HTTP on SQLite and PostgreSQL: a receiver on 127.0.0.1 gets each
enforcement action of its platform as a Standard Webhooks message, signed (checked with the
``standardwebhooks`` reference library, also during a secret rotation), in seq order; 5xx,
429 (Retry-After), resets and timeouts are retried in order, 410 disables, other 4xx mark
the endpoint failing; endpoint health on GET /webhooks and /metrics; replay; kinds."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from reviewer_app.protocol import QueueFile, Role
from reviewer_app.protocol.enforcement import EnforcementAction
from reviewer_app.protocol.webhooks import WebhookEndpoint, WebhookStatus
from reviewer_app.server.problems import ApiError
from tests.support.api import ApiSession, claim, expect_problem, verdict
from tests.support.enforcement import queue_file, queue_posts, read_all
from tests.support.intake import MISINFO, author
from tests.support.servers import LiveServer, running
from tests.support.webhook_receiver import OK, Answer, Received, Receiver

#: quick retries, so failures resolve in a test's time (the defaults wait seconds to hours)
FAST = {
    "webhook_backoff_base_seconds": 0.05,
    "webhook_backoff_max_seconds": 0.2,
    "webhook_poll_seconds": 0.05,
    "webhook_timeout_seconds": 1.0,
}
PLATFORM = "feed-bridge"


@pytest.fixture
def server(database_url: str) -> Iterator[LiveServer]:
    live = LiveServer(database_url, **FAST).start()  # type: ignore[arg-type]
    try:
        live.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        yield live
    finally:
        live.stop()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with Receiver() as found:
        yield found


def test_the_receiver_takes_no_message_from_a_sender_that_died_inside_its_body(
    receiver: Receiver,
) -> None:
    """The chaos test SIGKILLs the service; urllib3 sends a request's head and its body
    apart, so a kill between them leaves a head and a short body: that is no message (an
    HTTP server drops it), and the receiver must not record it as one."""
    head = b"POST /hook HTTP/1.1\r\nhost: t\r\nwebhook-id: msg_1\r\ncontent-length: 40\r\n\r\n"
    with socket.create_connection(("127.0.0.1", receiver.port)) as cut:
        cut.sendall(head + b'{"type": "enforcement')
        cut.shutdown(socket.SHUT_WR)  # what a killed process's socket does
        cut.recv(1)  # the receiver closes its side once it gave up on the body
    whole = b'{"type": "enforcement.action.created"}'
    with socket.create_connection(("127.0.0.1", receiver.port)) as ok:
        ok.sendall(head.replace(b"40", str(len(whole)).encode()) + whole)
        assert ok.recv(100).startswith(b"HTTP/1.1 204")
    assert receiver.cut == 1
    assert [r.body for r in receiver.snapshot()] == [whole]


def platform(server: LiveServer, name: str = PLATFORM) -> tuple[ApiSession, str]:
    key = server.service.create_api_key(Role.platform, name).key
    return ApiSession(server.url, key), key


def decide(
    server: LiveServer, session: ApiSession, names: list[str], action: str = "remove"
) -> None:
    """Posts queued through intake and decided by a reviewer, one verdict each."""
    queue_posts(session, names)
    rita = server.login(f"rita-{names[0]}")
    fields = {"policies": ["MISINFO.CIVIC"]} if action == "remove" else {}
    leased = claim(rita, MISINFO, len(names))
    results = rita.decide([verdict(x, action, **fields) for x in leased])
    assert [r["status"] for r in results] == ["accepted"] * len(names), results
    server.service.seal_now()  # in the feed now (the sequencer would in a moment)


def feed(server: LiveServer, key: str) -> list[dict[str, Any]]:
    server.service.seal_now()
    return read_all(server.url, key)


def ids(received: list[Received]) -> list[str]:
    return [r.webhook_id for r in received]


def first_arrivals(received: list[Received]) -> list[str]:
    seen: dict[str, None] = {}
    for r in received:
        seen.setdefault(r.webhook_id, None)
    return list(seen)


def has(count: int) -> Callable[[list[Received]], bool]:
    return lambda found: len(set(ids(found))) >= count


def endpoint(server: LiveServer, endpoint_id: int) -> WebhookEndpoint:
    return server.service.webhook(endpoint_id)


def wait_until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    """A bound on waiting for something the service does in the background."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


def test_each_action_arrives_signed_in_seq_order(server: LiveServer, receiver: Receiver) -> None:
    session, key = platform(server)
    added, secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
    assert secret.startswith("whsec_") and added.status is WebhookStatus.active
    decide(server, session, ["p-1", "p-2", "p-3"])
    decide(server, session, ["p-4", "p-5"], action="keep")
    actions = feed(server, key)
    assert len(actions) == 5

    got = receiver.wait_for(has(5))
    assert ids(got) == [f"act_{a['id']}" for a in actions], "one message each, in seq order"
    verifier = Webhook(secret)
    for message, action in zip(got, actions, strict=True):
        assert message.headers["content-type"] == "application/json"
        # the reference library checks the signature and the timestamp's tolerance
        document = verifier.verify(message.body, message.headers)
        assert document["type"] == "enforcement.action"
        assert document["data"] == action, "the action as the feed gives it"
        EnforcementAction.model_validate(document["data"])
        assert document["timestamp"] == action["decided_at"]
    wait_until(lambda: endpoint(server, added.id).backlog == 0)
    health = endpoint(server, added.id)
    assert health.delivered_seq == actions[-1]["seq"]
    assert health.delivered_total == 5 and health.last_success_at is not None
    assert health.consecutive_failures == 0 and health.status is WebhookStatus.active


def test_an_endpoint_gets_no_action_decided_before_it_was_added(
    server: LiveServer, receiver: Receiver
) -> None:
    """An action decided before the endpoint existed but not sealed yet (the sequencer
    behind, as on a busy machine) is not sent to it: seen in CI, where such an endpoint
    got the demo seed's removals as well as the ones decided after it."""
    session, key = platform(server)
    server.service.sequencer.stop()  # behind: what is decided now stays unsealed
    queue_posts(session, ["before"])
    rita = server.login("rita")
    [item] = claim(rita, MISINFO, 1)
    [result] = rita.decide([verdict(item, "remove", policies=["MISINFO.CIVIC"])])
    assert result["status"] == "accepted"
    added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
    server.service.sequencer.start()
    decide(server, session, ["after"])
    actions = feed(server, key)
    assert [a["post_external_id"] for a in actions] == ["before", "after"]
    [got] = receiver.wait_for(has(1))
    assert got.webhook_id == f"act_{actions[1]['id']}"
    wait_until(lambda: endpoint(server, added.id).backlog == 0)
    assert endpoint(server, added.id).delivered_total == 1


def test_both_secrets_sign_during_a_rotation(server: LiveServer, receiver: Receiver) -> None:
    session, _key = platform(server)
    added, old = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
    _rotated, new = server.service.rotate_webhook_secret(added.id, "ops", 3600)
    assert new != old and new.startswith("whsec_")
    decide(server, session, ["p-1"])
    [during] = receiver.wait_for(has(1))
    assert len(during.headers["webhook-signature"].split(" ")) == 2
    for secret in (old, new):  # a receiver on either secret accepts it
        Webhook(secret).verify(during.body, during.headers)

    finished = server.service.finish_webhook_rotation(added.id, "ops")
    assert finished.previous_secret_until is None
    decide(server, session, ["p-2"])
    after = receiver.wait_for(has(2))[-1]
    assert len(after.headers["webhook-signature"].split(" ")) == 1
    Webhook(new).verify(after.body, after.headers)
    with pytest.raises(WebhookVerificationError):
        Webhook(old).verify(after.body, after.headers)


def test_failures_are_retried_in_order(database_url: str) -> None:
    """Each of the first messages fails once in another way (500, 429 with Retry-After, a
    reset, no answer within the timeout): every one arrives again until acknowledged, and
    nothing overtakes a message being retried."""
    failures = iter(
        [
            Answer(500),
            Answer(429, {"Retry-After": "1"}),
            Answer(reset=True),
            Answer(delay=1.5),  # past the 1 s timeout
            Answer(503, {"Retry-After": "Wed, 21 Oct 2015 07:28:00 GMT"}),  # a date gone by
        ]
    )
    tried: set[str] = set()

    def answer(_path: str, headers: dict[str, str], _body: bytes) -> Answer:
        first = headers["webhook-id"] not in tried
        tried.add(headers["webhook-id"])
        return next(failures, OK) if first else OK

    with (
        Receiver(answer) as receiver,
        running(database_url, **FAST) as server,
    ):
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, key = platform(server)
        added, secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        names = [f"p-{i}" for i in range(7)]
        decide(server, session, names)
        actions = feed(server, key)
        wanted = [f"act_{a['id']}" for a in actions]
        wait_until(lambda: endpoint(server, added.id).backlog == 0)
        got = receiver.snapshot()
        # the first five came twice each (failed, then acknowledged), the others once
        assert ids(got) == [w for w in wanted[:5] for _ in (1, 2)] + wanted[5:]
        assert first_arrivals(got) == wanted
        for message in got:
            Webhook(secret).verify(message.body, message.headers)
        health = endpoint(server, added.id)
        assert health.status is WebhookStatus.active and health.consecutive_failures == 0
        assert health.delivered_total == 7 and health.attempts == 0
        assert health.last_error == f"{wanted[4]}: HTTP 503 Service Unavailable", "kept"
        metrics = requests.get(server.url + "/metrics", timeout=30).text
        attempts = f'reviewdesk_webhook_attempts_total{{endpoint="{added.id}",'
        assert attempts + 'outcome="delivered"} 7.0' in metrics
        assert attempts + 'outcome="failed"} 5.0' in metrics


def test_what_a_receiver_says_is_kept_printable_and_an_odd_retry_after_backs_off(
    database_url: str,
) -> None:
    """A receiver's reason phrase with escape sequences (shown to operators by ``webhook
    list`` and the log) is kept with its control characters as code points; a Retry-After
    of "²" (a digit to ``str.isdigit``, not to ``float``) is no Retry-After. It raised out
    of the attempt: no failure was recorded and the endpoint was tried again at full speed
    for as long as the receiver answered so."""
    hostile = "Busy\x1b[31mRED\x1b]0;owned\x07"
    answer = Answer(503, {"Retry-After": "\u00b2"}, reason=hostile)
    with (
        Receiver(lambda _p, _h, _b: answer) as receiver,
        running(database_url, **FAST) as server,
    ):
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, _key = platform(server)
        added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        decide(server, session, ["p-1"])
        wait_until(lambda: endpoint(server, added.id).consecutive_failures >= 2)
        health = endpoint(server, added.id)
        assert health.last_error is not None and "\x1b" not in health.last_error
        assert "\x07" not in health.last_error
        assert health.last_error.endswith("HTTP 503 Busy\\u001b[31mRED\\u001b]0;owned\\u0007")


def test_a_fault_in_the_sender_itself_backs_off_and_is_said(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anything that fails inside an attempt (not at the receiver) puts the next attempt
    off as a failed one does, and says so in the endpoint's health; it was retried in a
    loop at full speed with nothing recorded."""
    from reviewer_app.server.domain.webhooks import dispatcher

    real = dispatcher.message_body
    faults = {"left": 3}

    def failing(row: Any) -> bytes:
        if faults["left"] > 0:
            faults["left"] -= 1
            raise RuntimeError("a bug")
        return real(row)

    monkeypatch.setattr(dispatcher, "message_body", failing)
    with Receiver(lambda _p, _h, _b: OK) as receiver, running(database_url, **FAST) as server:
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, _key = platform(server)
        added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        decide(server, session, ["p-1"])
        wait_until(lambda: endpoint(server, added.id).backlog == 0)
        health = endpoint(server, added.id)
        assert health.last_error == "the service failed delivering (RuntimeError)"
        assert health.consecutive_failures == 0, "the success after it counts"
        assert len(receiver.snapshot()) == 1


def test_a_fault_in_the_sender_that_keeps_coming_marks_the_endpoint_failing(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fault inside every attempt (an action the service cannot turn into a message)
    delivers nothing, as a receiver that keeps failing does: after ``failing_after`` in a
    row the endpoint reads ``failing`` (it stayed ``active`` for ever), and a delivery
    that goes through again makes it ``active``."""
    from reviewer_app.server.domain.webhooks import dispatcher

    real = dispatcher.message_body
    broken = {"on": True}

    def failing(row: Any) -> bytes:
        if broken["on"]:
            raise RuntimeError("a bug")
        return real(row)

    monkeypatch.setattr(dispatcher, "message_body", failing)
    with (
        Receiver(lambda _p, _h, _b: OK) as receiver,
        running(database_url, webhook_failing_after=3, **FAST) as server,
    ):
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, _key = platform(server)
        added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        decide(server, session, ["p-1"])
        wait_until(lambda: endpoint(server, added.id).status is WebhookStatus.failing, 20)
        health = endpoint(server, added.id)
        assert health.consecutive_failures >= 3 and health.backlog == 1
        assert health.last_error == "the service failed delivering (RuntimeError)"
        assert receiver.snapshot() == []
        broken["on"] = False
        wait_until(lambda: endpoint(server, added.id).backlog == 0)
        wait_until(lambda: endpoint(server, added.id).status is WebhookStatus.active)
        assert len(receiver.snapshot()) == 1


def test_an_action_sealed_while_an_endpoint_looks_is_not_passed_over(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An endpoint of some kinds passes the actions of other kinds by the account's newest
    seq. A removal sealed just before that seq is read, after the endpoint read which of
    its kinds wait (on PostgreSQL each statement reads its own snapshot), was passed with
    them and never sent. Here it is sealed from inside that read."""
    from reviewer_app.server.domain.webhooks import dispatcher

    real = dispatcher.newest
    injected: list[bool] = []
    holder: dict[str, Any] = {}

    def newest_after_a_removal(conn: Any, source: str) -> int:
        if holder.pop("armed", False):  # once (a dict's pop is atomic)
            decide(holder["server"], holder["session"], ["p-1"])  # sealed before it returns
            injected.append(True)
        return real(conn, source)

    monkeypatch.setattr(dispatcher, "newest", newest_after_a_removal)
    with Receiver(lambda _p, _h, _b: OK) as receiver, running(database_url, **FAST) as server:
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, key = platform(server)
        holder.update(server=server, session=session)
        added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, ["remove"], "ops")
        holder["armed"] = True
        decide(server, session, ["p-0"], action="keep")  # wakes the endpoint: not its kind
        wait_until(lambda: bool(injected))
        [_kept, removal] = feed(server, key)
        wait_until(lambda: endpoint(server, added.id).backlog == 0)
        assert ids(receiver.snapshot()) == [f"act_{removal['id']}"]


def events_of(server: LiveServer, kind: str) -> list[dict[str, Any]]:
    server.service.seal_now()
    page = server.service.events(None, 500, None)
    return [e.model_dump(mode="json") for e in page.events if e.kind.value == kind]


def test_410_gone_disables_the_endpoint_until_enabled(database_url: str) -> None:
    gone = {"now": True}

    def answer(_path: str, _headers: dict[str, str], _body: bytes) -> Answer:
        return Answer(410) if gone["now"] else OK

    with Receiver(answer) as receiver, running(database_url, **FAST) as server:
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, key = platform(server)
        added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        decide(server, session, ["p-1", "p-2"])
        wait_until(lambda: endpoint(server, added.id).status is WebhookStatus.disabled)
        health = endpoint(server, added.id)
        assert health.disabled_reason is not None and "410 Gone" in health.disabled_reason
        assert health.backlog == 2 and health.delivered_total == 0
        [disabled] = events_of(server, "webhook_disabled")
        assert disabled["actor"] is None and disabled["data"]["endpoint"] == added.id
        assert "410" in disabled["data"]["reason"]
        tried = len(receiver.snapshot())
        assert tried == 1, "nothing more is sent to a disabled endpoint"

        gone["now"] = False
        server.service.enable_webhook(added.id, "ops")
        wait_until(lambda: endpoint(server, added.id).backlog == 0)
        actions = feed(server, key)
        assert first_arrivals(receiver.snapshot()) == [f"act_{a['id']}" for a in actions]
        assert endpoint(server, added.id).status is WebhookStatus.active
        assert [e["actor"] for e in events_of(server, "webhook_enabled")] == ["ops"]


def test_a_run_of_failures_marks_the_endpoint_failing_and_a_success_active(
    database_url: str,
) -> None:
    """Three 500s in a row (webhook_failing_after=3) make it failing; a 400 makes it failing
    at once; the next success makes it active again."""
    script = iter([Answer(500), Answer(500), Answer(500), OK, Answer(400), OK])
    statuses: list[str] = []
    holder: dict[str, Any] = {}

    def answer(_path: str, _headers: dict[str, str], _body: bytes) -> Answer:
        # the status the endpoint had when this attempt was made
        statuses.append(holder["server"].service.webhook(holder["id"]).status.value)
        return next(script, OK)

    with (
        Receiver(answer) as receiver,
        running(database_url, webhook_failing_after=3, **FAST) as server,
    ):
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, _key = platform(server)
        added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        holder.update(server=server, id=added.id)
        decide(server, session, ["p-1", "p-2"])
        wait_until(lambda: endpoint(server, added.id).backlog == 0)
        assert len(receiver.snapshot()) == 6
        # before attempt: 1 active, 2 active (1 failure), 3 active (2), 4 failing (3),
        # 5 active (the success before), 6 failing (the 400 at once)
        assert statuses == ["active", "active", "active", "failing", "active", "failing"]
        assert endpoint(server, added.id).status is WebhookStatus.active


def test_a_message_failing_for_the_whole_retry_window_disables_the_endpoint(
    database_url: str,
) -> None:
    with (
        Receiver(lambda _p, _h, _b: Answer(500)) as receiver,
        running(database_url, webhook_retry_window_seconds=0.5, **FAST) as server,
    ):
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, _key = platform(server)
        added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        decide(server, session, ["p-1", "p-2"])
        wait_until(lambda: endpoint(server, added.id).status is WebhookStatus.disabled)
        health = endpoint(server, added.id)
        first = receiver.snapshot()[0].webhook_id
        assert health.disabled_reason is not None
        assert health.disabled_reason.startswith(f"{first} failed for"), health.disabled_reason
        assert set(ids(receiver.snapshot())) == {first}, "nothing after it was sent"
        assert health.backlog == 2


def test_replay_sends_again_from_a_cursor(
    server: LiveServer, receiver: Receiver, tmp_path: Any
) -> None:
    session, key = platform(server)
    added, _secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
    decide(server, session, ["p-1", "p-2", "p-3"])
    receiver.wait_for(has(3))
    actions = feed(server, key)
    replayed = server.service.replay_webhook(added.id, actions[0]["seq"], "ops")
    assert replayed.delivered_seq == actions[0]["seq"] and replayed.backlog == 2
    got = receiver.wait_for(lambda found: len(found) >= 5)
    wanted = [f"act_{a['id']}" for a in actions]
    assert ids(got) == wanted + wanted[1:]
    [event] = events_of(server, "webhook_replayed")
    assert event["data"]["from_seq"] == actions[0]["seq"]
    assert event["data"]["previous_seq"] == actions[-1]["seq"]

    # never ahead of what was sent: that skipped actions not sent yet without a word (a
    # cursor past the log's end skipped every action to come up to it)
    receiver.wait_for(lambda found: len(found) >= 5)
    wait_until(lambda: endpoint(server, added.id).backlog == 0)
    head = actions[-1]["seq"]
    for ahead in (head + 1, head + 1040):
        with pytest.raises(ApiError) as refused:
            server.service.replay_webhook(added.id, ahead, "ops")
        assert (refused.value.status, refused.value.code) == (409, "cursor_ahead")
    assert endpoint(server, added.id).delivered_seq == head


def test_an_endpoint_gets_its_platforms_actions_of_its_kinds(
    server: LiveServer, receiver: Receiver
) -> None:
    session, key = platform(server)
    other, _other_key = platform(server, "other-platform")
    removals, _secret = server.service.add_webhook(
        receiver.url("/removals"), PLATFORM, ["remove", "restore"], "ops"
    )
    everything, _secret = server.service.add_webhook(receiver.url("/all"), PLATFORM, None, "ops")
    assert removals.event_kinds is not None
    assert [k.value for k in removals.event_kinds] == ["remove", "restore"]
    decide(server, session, ["p-1"], action="keep")
    decide(server, session, ["p-2"], action="remove")
    decide(server, other, ["q-1"], action="remove")  # another platform's post
    decide(server, session, ["p-3"], action="keep")
    actions = feed(server, key)
    receiver.wait_for(lambda found: len(found) >= 4)
    wait_until(lambda: endpoint(server, everything.id).backlog == 0)
    # the cursor passes the kinds it does not take (nothing left to look at for them)
    wait_until(lambda: endpoint(server, removals.id).delivered_seq == actions[-1]["seq"])
    assert endpoint(server, removals.id).backlog == 0
    by_path = {
        path: [
            r.document()["data"]["post_external_id"] for r in receiver.snapshot() if r.path == path
        ]
        for path in ("/removals", "/all")
    }
    assert by_path == {"/removals": ["p-2"], "/all": ["p-1", "p-2", "p-3"]}
    assert [a["post_external_id"] for a in actions] == ["p-1", "p-2", "p-3"]
    assert endpoint(server, removals.id).delivered_total == 1


def test_bad_endpoints_are_refused(server: LiveServer) -> None:
    from reviewer_app.server.problems import ApiError

    platform(server)
    server.login("lead", Role.lead)
    for url, account, kinds, code in [
        ("ftp://example.com/x", PLATFORM, None, "invalid_webhook_url"),
        ("https://example.com/a b", PLATFORM, None, "invalid_webhook_url"),
        ("http://[::1", PLATFORM, None, "invalid_webhook_url"),  # was a ValueError
        ("https://example.com:99999/x", PLATFORM, None, "invalid_webhook_url"),
        ("https://example.com/x\x00y", PLATFORM, None, "invalid_webhook_url"),
        ("https://example.com/x", "nobody", None, "not_a_platform_account"),
        ("https://example.com/x", "lead", None, "not_a_platform_account"),
        ("https://example.com/x", PLATFORM, ["delete"], "invalid_event_kind"),
    ]:
        with pytest.raises(ApiError) as refused:
            server.service.add_webhook(url, account, kinds, "ops")
        assert refused.value.code == code
    with pytest.raises(ApiError) as unknown:
        server.service.disable_webhook(99, "ops")
    assert unknown.value.code == "unknown_webhook"


def test_health_on_the_lead_route_and_metrics_without_secrets(
    server: LiveServer, receiver: Receiver
) -> None:
    session, _key = platform(server)
    added, secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
    server.service.disable_webhook(added.id, "ops")
    decide(server, session, ["p-1", "p-2"])
    server.service.seal_now()

    lead = server.login("lead", Role.lead)
    response = lead.get("/webhooks")
    assert response.status_code == 200, response.text
    [shown] = response.json()["endpoints"]
    assert shown["id"] == added.id and shown["account"] == PLATFORM
    assert (shown["status"], shown["backlog"], shown["consecutive_failures"]) == ("disabled", 2, 0)
    assert shown["disabled_reason"] == "disabled by an operator"
    assert secret not in response.text and "whsec_" not in response.text
    expect_problem(server.login("rita").get("/webhooks"), 403)
    expect_problem(session.get("/webhooks"), 403)

    metrics = lead.http.get(server.url + "/metrics", timeout=30).text
    labels = f'{{account="{PLATFORM}",endpoint="{added.id}"}}'
    assert f"reviewdesk_webhook_backlog{labels} 2.0" in metrics
    assert f"reviewdesk_webhook_consecutive_failures{labels} 0.0" in metrics
    assert f"reviewdesk_webhook_seconds_since_success{labels}" in metrics
    status = f'reviewdesk_webhook_status{{account="{PLATFORM}",endpoint="{added.id}",'
    assert status + 'status="disabled"} 1.0' in metrics
    assert status + 'status="active"} 0.0' in metrics
    assert "whsec_" not in metrics and receiver.url() not in metrics


def test_the_event_log_names_endpoints_never_secrets(
    server: LiveServer, receiver: Receiver
) -> None:
    platform(server)
    added, secret = server.service.add_webhook(receiver.url(), PLATFORM, ["remove"], "ops")
    _rotated, new = server.service.rotate_webhook_secret(added.id, "ops", 60)
    server.service.finish_webhook_rotation(added.id, "ops")
    server.service.disable_webhook(added.id, "ops")
    server.service.enable_webhook(added.id, "ops")
    server.service.replay_webhook(added.id, 0, "ops")
    server.service.seal_now()
    logged = [e for e in server.service.events(None, 500, None).events if "webhook" in e.kind]
    assert [e.kind.value for e in logged] == [
        "webhook_added",
        "webhook_secret_rotated",
        "webhook_secret_rotated",
        "webhook_disabled",
        "webhook_enabled",
        "webhook_replayed",
    ]
    for e in logged:
        assert e.actor == "ops"
        assert (e.data["endpoint"], e.data["url"], e.data["account"]) == (
            added.id,
            receiver.url(),
            PLATFORM,
        )
    text = json.dumps([e.model_dump(mode="json") for e in logged])
    for value in (secret, new, secret[6:], new[6:]):
        assert value not in text


def test_lanes_send_authors_at_once_each_in_order(database_url: str) -> None:
    """``webhook_lanes`` > 1: several authors' actions go out at once, each author's in seq
    order (the next after the one before was acknowledged), across failures and retries;
    every action arrives, and the cursor ends past the last one."""
    tried: list[str] = []
    lock = threading.Lock()

    def answer(_path: str, headers: dict[str, str], _body: bytes) -> Answer:
        with lock:
            first = headers["webhook-id"] not in tried
            if first:
                tried.append(headers["webhook-id"])
            nth = len(tried)
        if first and nth in (1, 8, 20):  # three messages fail once
            return Answer(500, delay=0.02)
        return Answer(delay=0.02)  # a receiver some way off: 20 ms a message

    with (
        Receiver(answer) as receiver,
        running(database_url, webhook_lanes=4, **FAST) as server,  # type: ignore[arg-type]
    ):
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, key = platform(server)
        added, secret = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        for n in range(6):  # six authors, four posts each
            queue_posts(session, [f"a{n}-p{i}" for i in range(4)], author=author(f"auth-{n}"))
        rita = server.login("rita")
        leased = claim(rita, MISINFO, 24)
        for part, action, fields in (
            (leased[:12], "remove", {"policies": ["MISINFO.CIVIC"]}),
            (leased[12:], "keep", {}),
        ):
            results = rita.decide([verdict(x, action, **fields) for x in part])
            assert {r["status"] for r in results} == {"accepted"}
            server.service.seal_now()
        actions = feed(server, key)
        assert len(actions) == 24
        wait_until(lambda: endpoint(server, added.id).backlog == 0)
        got = sorted(receiver.snapshot(), key=lambda r: r.at)
        assert endpoint(server, added.id).delivered_seq == actions[-1]["seq"]
    assert {r.webhook_id for r in got} == {f"act_{a['id']}" for a in actions}
    assert len(got) >= 24 + 3, "the three failed messages came again"
    for message in got:
        Webhook(secret).verify(message.body, message.headers)
    first_at: dict[str, float] = {}
    for r in got:
        if 200 <= r.answer.status < 300:
            first_at.setdefault(r.webhook_id, r.at)
    by_author: dict[str, list[dict[str, Any]]] = {}
    for a in actions:
        by_author.setdefault(a["author_external_id"], []).append(a)
    assert len(by_author) == 6
    for author_id, own in by_author.items():
        arrivals = [first_at[f"act_{a['id']}"] for a in own]  # own is in seq order
        assert arrivals == sorted(arrivals), f"{author_id}'s actions were taken out of order"
    assert receiver.max_in_flight["/hook"] > 1, "the lanes never sent at once"
