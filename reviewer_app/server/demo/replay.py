"""The demo shift put into a service the way a platform would: queue file, then intake.

``seed_demo`` creates the demo's people, applies ``queues.toml`` (as ``server queues
apply`` does) and replays ``demo_posts.jsonl`` through the service's intake as the platform
account ``demo-platform``: media, posts and signals go through the same code as a real
platform's (intake.py, routing.py); nothing is inserted past it. Then the demo lead removes
a few posts (verdicts) and their authors appeal them through intake (``seed_demo_appeals``),
so the appeals queue has work for the demo reviewer.

The file's times are those of its generation (``generated_at`` on its first line); the
replay moves each by (now - generated_at), and runs each batch of the items' first lines
with the service's clock at the batch's ``received_at``, so the shift looks as if it had
been going on: items waited, some past their SLA. The clock is the service's again when the
replay ends.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from reviewer_app.protocol import (
    ActionKind,
    Appeal,
    IntakeStatus,
    LeaseClaim,
    Role,
    UserCreate,
    Verdict,
    VerdictStatus,
)
from reviewer_app.server.demo import DEMO_USERS
from reviewer_app.server.demo.files import POSTS_FILE, demo_file
from reviewer_app.server.demo.queues import HATE, SPAM, demo_queue_file
from reviewer_app.server.demo.records import SOURCE, WINDOW
from reviewer_app.server.domain.intake.signals import PUBLISHED_AHEAD_SECONDS
from reviewer_app.server.domain.records import Principal
from reviewer_app.server.feeds.intake_lines import (
    IntakeTarget,
    Line,
    Rejection,
    Sender,
    Tally,
    parse_object,
)
from reviewer_app.server.service import Service
from reviewer_app.server.storage.tables import users

log = logging.getLogger("server")

DEMO_BATCH = 500


class DemoFileError(RuntimeError):
    """The shipped demo file has a line intake refused (a bug of the package)."""


@dataclass(frozen=True)
class DemoSeeded:
    tally: Tally
    shift: timedelta
    """how far the file's times were moved"""


def _shift_times(value: Any, delta: timedelta) -> None:
    """Move every time of a decoded line (``*_at`` and ``at`` keys) by ``delta``, in place."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if isinstance(inner, str) and (key == "at" or key.endswith("_at")):
                moved = datetime.fromisoformat(inner) + delta
                value[key] = moved.isoformat().replace("+00:00", "Z")
            elif isinstance(inner, dict | list):
                _shift_times(inner, delta)
    elif isinstance(value, list):
        for inner in value:
            if isinstance(inner, dict | list):
                _shift_times(inner, delta)


def demo_lines(now: datetime) -> tuple[timedelta, Iterator[Line]]:
    """The demo file's lines with their times moved to ``now``, and by how much."""
    stream = demo_file(POSTS_FILE).open("rb")
    first = json.loads(stream.readline())
    if first.get("type") != "meta" or "generated_at" not in first:
        stream.close()
        raise DemoFileError(f"{POSTS_FILE} does not start with its meta line")
    delta = now - datetime.fromisoformat(first["generated_at"])

    def lines() -> Iterator[Line]:
        with stream:
            for number, raw in enumerate(stream, start=2):
                obj = json.loads(raw)
                _shift_times(obj, delta)
                parsed = parse_object(obj, number)
                if isinstance(parsed, Rejection):
                    raise DemoFileError(f"{POSTS_FILE}:{number}: {parsed.message}")
                yield parsed

    return delta, lines()


def create_demo_users(service: Service) -> None:
    """The demo's reviewer, lead and admin (their passwords hashed side by side)."""
    with ThreadPoolExecutor(len(DEMO_USERS)) as pool:
        list(
            pool.map(
                lambda u: service.create_user(
                    UserCreate(
                        username=u.username,
                        display_name=u.display_name,
                        password=u.password,
                        role=u.role,
                    )
                ),
                DEMO_USERS,
            )
        )


def apply_demo_queues(service: Service) -> None:
    """``queues.toml`` as the running configuration (as ``server queues apply`` makes it)."""
    service.apply_queue_file(demo_queue_file(), actor=None)


def replay_demo_posts(service: Service, now: datetime | None = None) -> DemoSeeded:
    """Replay ``demo_posts.jsonl`` through intake as ``demo-platform`` (see the module)."""
    now = (now or datetime.fromtimestamp(service.clock(), tz=UTC)).replace(microsecond=0)
    delta, lines = demo_lines(now)
    caller = service.service_account(SOURCE, Role.platform)
    own_clock = service.clock

    def at(received: datetime | None) -> None:
        if received is None:
            service.clock = own_clock
        else:
            moment = received.timestamp()
            service.clock = lambda: moment

    read: Callable[[str], bytes] = lambda path: demo_file(path).read_bytes()  # noqa: E731
    sender = Sender(
        IntakeTarget(service, caller),
        read_media=read,
        batch_size=DEMO_BATCH,
        # a call's clock is its first line's time: the calls span no more than a
        # fact-check may be published ahead of the service's clock (their lines are on time)
        window=min(WINDOW.total_seconds(), PUBLISHED_AHEAD_SECONDS),
        at=at,
    )
    problems: list[Rejection] = []
    try:
        for line in lines:
            problems += sender.add(line)
        problems += sender.flush()
    finally:
        service.clock = own_clock
    if problems:
        first = problems[0]
        raise DemoFileError(
            f"intake refused {len(problems)} demo lines, first {POSTS_FILE}:{first.number}: "
            f"{first.code}: {first.message}"
        )
    return DemoSeeded(sender.tally, delta)


#: (queue, action, what its user wrote): posts the lead removed earlier in the shift whose
#: authors appeal, so the appeals queue has work (the demo reviewer decides them: the lead,
#: who made the decisions, never gets them)
DEMO_APPEALS = (
    (
        SPAM,
        "I was sharing a giveaway my friend really runs. Nothing was for sale and no one "
        "was asked for money.",
    ),
    (
        HATE,
        "I was quoting what someone shouted at me to show what I deal with every day. "
        "Read the whole thread before removing it.",
    ),
    (
        SPAM,
        "This is my own small shop. I posted the link once; I am not a bot.",
    ),
)


def seed_demo_appeals(service: Service) -> int:
    """A few appeals, the way they happen: the demo lead removes posts (verdicts), then
    their authors appeal through intake as the platform ``demo-platform``. The number of
    appeals queued."""
    lead_user = next(u for u in DEMO_USERS if u.role is Role.lead)
    with service.db.read() as conn:
        row = conn.execute(select(users).where(users.c.username == lead_user.username)).one()
    lead = Principal(row.id, row.username, row.display_name, Role(row.role))
    platform = service.service_account(SOURCE, Role.platform)
    configs = service.configs()
    appeals: list[Appeal] = []
    for n, (queue_id, statement) in enumerate(DEMO_APPEALS):
        config = configs[queue_id]
        remove = next(a for a in config.actions if a.kind is ActionKind.remove)
        grant = service.claim(lead, queue_id, LeaseClaim(count=1, lease_seconds=60))
        if not grant.items:
            continue
        leased = grant.items[0]
        result = service.verdicts(
            lead,
            [
                Verdict(
                    idempotency_key=uuid.uuid5(uuid.NAMESPACE_URL, f"demo-appeal-{n}"),
                    item_id=leased.item.id,
                    lease_token=leased.lease_token,
                    action=remove.id,
                    policies=[config.policies[0].code] if config.policies else [],
                    note="Removed early in the shift." if remove.requires_note else None,
                    time_spent_ms=9_000,
                    decided_at=datetime.fromtimestamp(service.clock(), tz=UTC),
                )
            ],
        ).results[0]
        if result.status is VerdictStatus.accepted:
            appeals.append(
                Appeal(
                    id=f"demo-appeal-{n + 1}",
                    post_external_id=leased.item.post.id,
                    statement=statement,
                    submitted_at=datetime.fromtimestamp(service.clock(), tz=UTC),
                )
            )
    if not appeals:
        return 0
    results = service.intake_appeals(platform, appeals).results
    return sum(1 for r in results if r.status is IntakeStatus.created)


def seed_demo(service: Service, now: datetime | None = None) -> DemoSeeded:
    """The demo shift in an empty service: people, queue file, posts and signals, and a
    few appeals of decisions made earlier."""
    create_demo_users(service)
    apply_demo_queues(service)
    seeded = replay_demo_posts(service, now)
    seed_demo_appeals(service)
    service.db.analyze()
    log.info("seeded the demo through intake: %s", seeded.tally.as_json())
    return seeded


__all__ = [
    "DEMO_BATCH",
    "DemoFileError",
    "DemoSeeded",
    "apply_demo_queues",
    "create_demo_users",
    "demo_lines",
    "replay_demo_posts",
    "seed_demo",
    "seed_demo_appeals",
]
