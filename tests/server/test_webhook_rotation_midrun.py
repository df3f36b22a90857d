"""A secret rotation reaches a run of messages already going out (SQLite and PostgreSQL):
after ``rotate-secret --grace 0`` (a leaked secret), after ``--finish``, and once the grace
period runs out mid-run, the messages sent next are signed with the new secret only.

A receiver on 127.0.0.1 holds one message of the run (its third) while the secret changes,
past the moment the dispatcher next writes its cursor; every message that arrives after it
was sent after the change, and must carry the new signature alone."""

from __future__ import annotations

import threading
import time

import pytest
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from reviewer_app.protocol import QueueFile
from reviewer_app.server.domain.webhooks.messages import COMMIT_EVERY_SECONDS
from tests.server.test_webhooks import FAST, PLATFORM, decide, endpoint, has, platform, wait_until
from tests.support.enforcement import queue_file
from tests.support.servers import running
from tests.support.webhook_receiver import OK, Answer, Receiver

HELD = 3  # the message of the run held at the receiver while the secret changes
POSTS = 8
GRACE = 3.0  # seconds: the grace period that runs out while the held message waits
SETTINGS = {**FAST, "webhook_timeout_seconds": 30.0}  # the held message is no timeout


class Holder:
    """Answers at once, but for the first arrival of the ``HELD``-th message, which waits
    until ``release``."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.seen: list[str] = []
        self.arrived = threading.Event()
        self.release = threading.Event()

    def __call__(self, _path: str, headers: dict[str, str], _body: bytes) -> Answer:
        with self.lock:
            first = headers["webhook-id"] not in self.seen
            if first:
                self.seen.append(headers["webhook-id"])
            nth = len(self.seen)
        if first and nth == HELD:
            self.arrived.set()
            self.release.wait(60)
        return OK


def signatures(headers: dict[str, str]) -> list[str]:
    return headers["webhook-signature"].split(" ")


@pytest.mark.parametrize("how", ["no grace", "finish", "grace runs out"])
def test_a_secret_change_reaches_the_messages_of_a_run_going_out(
    database_url: str, how: str
) -> None:
    holder = Holder()
    with Receiver(holder) as receiver, running(database_url, **SETTINGS) as server:
        server.service.apply_queue_file(QueueFile.model_validate(queue_file()), actor=None)
        session, _key = platform(server)
        added, old = server.service.add_webhook(receiver.url(), PLATFORM, None, "ops")
        # the run: every action read in one round once the endpoint is enabled again
        server.service.disable_webhook(added.id, "ops")
        decide(server, session, [f"p-{i}" for i in range(POSTS)])
        if how == "finish":
            _rotated, new = server.service.rotate_webhook_secret(added.id, "ops", 3600)
        elif how == "grace runs out":
            _rotated, new = server.service.rotate_webhook_secret(added.id, "ops", GRACE)
            grace_until = time.time() + GRACE
        server.service.enable_webhook(added.id, "ops")
        assert holder.arrived.wait(60), "the held message never came"

        if how == "no grace":
            _rotated, new = server.service.rotate_webhook_secret(added.id, "ops", 0)
        elif how == "finish":
            server.service.finish_webhook_rotation(added.id, "ops")
        else:
            while time.time() < grace_until + 0.1:
                time.sleep(0.05)
        # held past the dispatcher's next write of its cursor (at most this far apart)
        time.sleep(COMMIT_EVERY_SECONDS + 0.3)
        holder.release.set()
        got = receiver.wait_for(has(POSTS))
        wait_until(lambda: endpoint(server, added.id).backlog == 0)
        got = receiver.snapshot()

    held_id = holder.seen[HELD - 1]
    at = next(i for i, r in enumerate(got) if r.webhook_id == held_id)
    held = got[at]
    if how == "no grace":  # signed before the rotation: the old secret alone
        Webhook(old).verify(held.body, held.headers)
    else:  # signed during the grace period: both
        assert len(signatures(held.headers)) == 2, "the run began after the grace period"
    later = got[at + 1 :]  # sent after the held one was answered: after the change
    assert later
    for message in later:
        assert len(signatures(message.headers)) == 1, message.webhook_id
        Webhook(new).verify(message.body, message.headers)
        with pytest.raises(WebhookVerificationError):
            Webhook(old).verify(message.body, message.headers)
