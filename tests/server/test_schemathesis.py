"""Property-based conformance of the running service to its own OpenAPI document.

Schemathesis reads ``/openapi.json`` from the service on a real socket and fuzzes every
operation over real HTTP, with every default check: no server errors, only documented
status codes, content types and headers, responses that match their schemas, schema-valid
requests accepted and schema-invalid ones refused.

It runs twice per database backend: as an admin (so role checks hide nothing) and as a
plain reviewer; and the intake routes once more with the API key of a platform (posts,
signals, withdrawals, media) and of a fact-checker (fact-checks). Real ids (items, media,
lease tokens, the queue, users, posts) are mixed into the generated values through
schemathesis dictionaries, so the fuzzer reaches the code behind the 404s (and the
per-element rejections) as well as the 404s.
"""

from __future__ import annotations

import contextlib
import sqlite3
from dataclasses import dataclass, field
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from sqlalchemy import insert

from reviewer_app.protocol import IntakePost, QueueFile, Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from reviewer_app.server.storage.tables import media
from tests.support.api import ApiSession, verdict
from tests.support.intake import QUEUES as INTAKE_QUEUES
from tests.support.intake import post as intake_post
from tests.support.servers import PASSWORD, LiveServer

pytestmark = pytest.mark.slow

API = "/api/v1"
LOGOUT = f"{API}/sessions/current"
MAX_EXAMPLES = 50
SEED = 20_240_611

# A real 1x1 greyscale PNG, so GET /media has bytes to serve.
PNG_1PX = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108000000003a7e9b55"
    "0000000a49444154789c636800000082008177cd72b60000000049454e44ae426082"
)

# Refusals of schema-valid requests that depend on server state no schema can express.
# For these (and only these) the positive_data_acceptance check does not apply; every
# other check still runs on the response.
STATE_DEPENDENT_REFUSALS = {
    # Cursors are opaque: the document can only say "a string", so any string is
    # schema-valid, but only cursors the service issued mean anything.
    (400, "invalid_cursor"),
    # Actions, policy codes, ratings and author actions are valid per queue (its
    # decision config from GET /queues), not per schema.
    (422, "verdict_invalid"),
    # A lead's account action cites policy codes of the queue configuration.
    (422, "unknown_policy"),
    # The same idempotency key with another body is a 422 by design, and the generator
    # reuses UUIDs (it shrinks towards the same few) once a verdict has been stored.
    (422, "idempotency_key_reused"),
    # Windows (stats, audit samples) must end after they start, and a throughput series
    # has at most so many buckets: constraints between two fields that no schema states.
    (422, "invalid_window"),
    (422, "window_too_long"),
    # A time zone is any short string to the schema; the service knows the IANA names.
    (422, "unknown_time_zone"),
    # An audit sample needs decisions in its window that are not audited yet.
    (422, "empty_sample"),
    # A corrected decision is valid per queue (its decision config), not per schema.
    (422, "overturn_invalid"),
    (422, "overturn_cannot_escalate"),
    # An overturn must differ from the audited decision, which is still the item's decision
    # of record and not under appeal: the decision and the item's state, not the schema.
    (422, "overturn_unchanged"),
    (409, "not_decision_of_record"),
    # An audit task's result is recorded by the lead it was handed to: who drew it, not the
    # schema.
    (409, "audit_not_assigned"),
    # An API key's account defaults to the key's name, which must then be an account name
    # (a constraint between two fields).
    (422, "invalid_account"),
    # An account's display name needs a visible character: a Unicode property (default
    # ignorable code points, white space) that no schema pattern states.
    (422, "invalid_display_name"),
    # A media upload is any bytes to the schema; the service takes only the image and
    # video formats it can read from the bytes, and only when the Content-Type agrees.
    (415, "unsupported_media"),
    (415, "media_type_mismatch"),
    # A role change is refused by who the account is now: a person does not become a
    # service account (platform, fact_checker) nor the other way round.
    (422, "role_change_refused"),
    # A password is set or taken away for a person only: a service account has API keys.
    (422, "service_account"),
    # The service's last admin stays one: refused by how many admins there are now.
    (409, "last_admin"),
    (422, "media_empty"),
    # A bulk decision names each item and each key once: a constraint across the list's
    # elements (objects) that no schema states.
    (422, "duplicate_items"),
    # A search's text is judged by its kind (three characters or more for author and text,
    # a domain name for domain, at most so long for a post id): constraints between two
    # parameters that no schema states.
    (422, "invalid_search"),
}
# Field errors inside a 422 that are constraints between two fields (no schema states
# them): a 422 made of these alone is a refusal of the same kind.
# The second also comes of the dictionaries above: a real policy code mixed into a list
# more than once breaks the list's uniqueItems after the schema's generator kept it. The
# last: a break rule with neither of its two limits.
CROSS_FIELD_ERRORS = {"span_order", "break_order", "policy_cited_twice", "break_without_limit"}

FUZZ_SETTINGS = settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,  # every example is a real HTTP round trip
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,  # the live server is shared by all examples
    ],
)


@dataclass
class Caller:
    username: str
    token: str
    lease_tokens: list[str] = field(default_factory=list)
    leased_ids: list[str] = field(default_factory=list)  # the items of lease_tokens


@dataclass
class World:
    """A seeded service and what the fuzzer should know about it."""

    server: LiveServer
    admin: Caller
    reviewer: Caller
    item_ids: list[str]
    media_ids: list[str]
    platform: Caller  # API keys: the intake routes
    fact_checker: Caller
    post_ids: list[str]  # posts the platform sent
    uploads: list[str]  # media the platform uploaded

    def fresh_token(self, username: str) -> str:
        token = ApiSession.login(self.server.url, username, PASSWORD).token
        assert token
        return token


@pytest.fixture
def world(live_server: LiveServer) -> World:
    service = live_server.service
    seed_load_queue(service, 60)
    item_ids = [f"{LOAD_QUEUE.id}-{i:07d}" for i in range(60)]
    media_ids = [f"{item_ids[0]}-m0", f"{item_ids[1]}-m0"]
    with service.db.write() as conn:
        conn.execute(
            insert(media),
            [
                {
                    "id": media_id,
                    "item_id": item_id,
                    "position": 0,
                    "kind": "image",
                    "mime_type": "image/png",
                    "size_bytes": len(PNG_1PX),
                    "width": 1,
                    "height": 1,
                    "alt_text": "one grey pixel",
                    "sensitive": item_id == item_ids[1],
                    "content": PNG_1PX,
                }
                for media_id, item_id in zip(media_ids, item_ids, strict=False)
            ],
        )
    live_server.add_user("fuzz-target")  # the only user whose role the fuzzer may change
    callers = {}
    for name, role in (("fuzz-admin", Role.admin), ("fuzz-reviewer", Role.reviewer)):
        session = live_server.login(name, role)
        assert session.token
        leased = session.claim(LOAD_QUEUE.id, count=10, lease_seconds=3_600)
        # Two decided items per caller, so decisions, history and conflicts have data.
        results = session.decide(
            [
                verdict(leased[0], "keep"),
                verdict(leased[1], "remove", policies=["SPAM.SCAM"]),
            ]
        )
        assert [r["status"] for r in results] == ["accepted", "accepted"]
        callers[name] = Caller(
            name,
            session.token,
            [x["lease_token"] for x in leased],
            [x["item"]["id"] for x in leased],
        )
    # Intake: queues with routing rules and a rating scale, a platform that has sent a few
    # posts and uploaded a picture, and a fact-checker.
    intake_queues = QueueFile.model_validate(INTAKE_QUEUES).queues
    with service.db.write() as conn:
        insert_queues(
            conn, [SeedQueue(q.id, q.name, q.description, q.config) for q in intake_queues]
        )
    service.forget_configs()
    feed = service.create_api_key(Role.platform, "fuzz-platform")
    checker = service.create_api_key(Role.fact_checker, "fuzz-fact-checker")
    account = service.service_account("fuzz-platform", Role.platform)
    post_ids = [f"fuzz-post-{i}" for i in range(5)]
    upload = service.intake_media(account, PNG_1PX, "image/png")
    service.intake_posts(account, [IntakePost.model_validate(intake_post(p)) for p in post_ids])
    return World(
        server=live_server,
        admin=callers["fuzz-admin"],
        reviewer=callers["fuzz-reviewer"],
        item_ids=item_ids,
        media_ids=[*media_ids, upload.media_id],
        platform=Caller("fuzz-platform", feed.key),
        fact_checker=Caller("fuzz-fact-checker", checker.key),
        post_ids=post_ids,
        uploads=[upload.media_id],
    )


def _schema(world: World, caller: Caller) -> schemathesis.BaseSchema:
    def known(name: str, probability: float = 0.5) -> dict[str, Any]:
        return {"dictionary": name, "probability": probability}

    config = schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "base-url": world.server.url,
            "headers": {"Authorization": f"Bearer {caller.token}"},
            "generation": {"deterministic": True, "database": "none"},
            "dictionaries": {
                "item-ids": {"values": world.item_ids},
                "media-ids": {"values": world.media_ids},
                "queue-ids": {"values": [LOAD_QUEUE.id]},
                # (a key leases nothing: it gets the admin's, for routes it is refused)
                "lease-tokens": {"values": caller.lease_tokens or world.admin.lease_tokens},
                "leased-ids": {"values": caller.leased_ids or world.admin.leased_ids},
                "target-users": {"values": ["fuzz-target"]},
                "reviewers": {"values": ["fuzz-reviewer", "fuzz-admin"]},
                "actions": {"values": [a.id for a in LOAD_QUEUE.config.actions]},
                "policies": {"values": [p.code for p in LOAD_QUEUE.config.policies]},
                "post-ids": {"values": world.post_ids},
                "uploads": {"values": world.uploads},
                "ratings": {"values": ["false", "partly_false", "satire"]},
            },
            "parameters": {
                "path.item_id": known("item-ids"),
                "path.media_id": known("media-ids"),
                "path.queue_id": known("queue-ids"),
                "query.queue_id": known("queue-ids"),
                "path.username": known("target-users"),
                "query.reviewer": known("reviewers"),
                "body.tokens[*]": known("lease-tokens"),
                # Verdicts reach the lease checks and conflicts only when item, token
                # and action all fit, so these lean on real values more.
                "body.verdicts[*].lease_token": known("lease-tokens", 0.9),
                "body.verdicts[*].item_id": known("leased-ids", 0.9),
                "body.verdicts[*].action": known("actions", 0.9),
                "body.verdicts[*].policies[*]": known("policies"),
                # Intake reaches posts, items and routing only with ids the service has.
                "body.signals[*].post_external_id": known("post-ids", 0.8),
                "body.signals[*].rating": known("ratings", 0.8),
                "body.withdrawals[*].post_external_id": known("post-ids"),
                "body.posts[*].media[*].media_id": known("uploads", 0.8),
                "body.ratings[*].post_external_ids[*]": known("post-ids", 0.8),
                "body.ratings[*].rating": known("ratings", 0.8),
            },
        }
    )
    return schemathesis.openapi.from_url(world.server.url + "/openapi.json", config=config)


@pytest.fixture
def admin_schema(world: World) -> schemathesis.BaseSchema:
    return _schema(world, world.admin)


@pytest.fixture
def reviewer_schema(world: World) -> schemathesis.BaseSchema:
    return _schema(world, world.reviewer)


@pytest.fixture(autouse=True)
def _schemathesis_nodeid_shim(request: pytest.FixtureRequest) -> None:
    # schemathesis 4.x's `from_fixture` reads and rewrites `item._nodeid` to name its
    # subtests; pytest 9.2 no longer has that attribute. Give it one to read.
    if not hasattr(request.node, "_nodeid"):
        request.node._nodeid = request.node.nodeid


def _call_and_validate(case: schemathesis.Case, world: World, caller: Caller) -> None:
    headers = None
    if case.method.upper() == "DELETE" and case.path == LOGOUT:
        # Logging out must not log the fuzzer out: each logout gets a token of its own.
        headers = {"Authorization": f"Bearer {world.fresh_token(caller.username)}"}
    response = case.call(headers=headers)
    excluded = []
    status = response.status_code
    if (status, _problem_code(response)) in STATE_DEPENDENT_REFUSALS or _cross_field(response):
        excluded.append(schemathesis.checks.positive_data_acceptance)
    case.validate_response(response, headers=headers, excluded_checks=excluded)


def _cross_field(response: Any) -> bool:
    if response.status_code != 422:
        return False
    try:
        errors = response.json().get("errors") or []
    except ValueError:
        return False
    return bool(errors) and all(e.get("code") in CROSS_FIELD_ERRORS for e in errors)


def _problem_code(response: Any) -> str | None:
    try:
        body = response.json()
    except ValueError:
        return None
    return body.get("code") if isinstance(body, dict) else None


@pytest.fixture
def platform_schema(world: World) -> schemathesis.BaseSchema:
    """A platform's key on the routes it may call (elsewhere it gets 403, as the admin and
    the reviewer get on these)."""
    return _schema(world, world.platform)


@pytest.fixture
def fact_checker_schema(world: World) -> schemathesis.BaseSchema:
    return _schema(world, world.fact_checker)


admin_api = schemathesis.pytest.from_fixture("admin_schema")
reviewer_api = schemathesis.pytest.from_fixture("reviewer_schema")
platform_api = schemathesis.pytest.from_fixture("platform_schema").include(
    path_regex=r"/intake/(posts|signals|withdrawals|media)$"
)
fact_checker_api = schemathesis.pytest.from_fixture("fact_checker_schema").include(
    path_regex=r"/intake/fact-checks$"
)


@admin_api.parametrize()
@FUZZ_SETTINGS
@pytest.mark.timeout(1_200)  # every operation of the API, fuzzed: grows with it
def test_api_conforms_as_admin(case: schemathesis.Case, world: World) -> None:
    _call_and_validate(case, world, world.admin)


@reviewer_api.parametrize()
@FUZZ_SETTINGS
@pytest.mark.timeout(1_200)  # every operation of the API, fuzzed: grows with it
def test_api_conforms_as_reviewer(case: schemathesis.Case, world: World) -> None:
    _call_and_validate(case, world, world.reviewer)


@platform_api.parametrize()
@FUZZ_SETTINGS
def test_intake_conforms_as_platform(case: schemathesis.Case, world: World) -> None:
    _call_and_validate(case, world, world.platform)


@fact_checker_api.parametrize()
@FUZZ_SETTINGS
def test_intake_conforms_as_fact_checker(case: schemathesis.Case, world: World) -> None:
    _call_and_validate(case, world, world.fact_checker)


STATEFUL_SETTINGS = settings(
    FUZZ_SETTINGS,
    max_examples=25,
    stateful_step_count=6,
)


def test_api_links_hold_statefully_as_admin(world: World) -> None:
    """Stateful: schemathesis follows the document's OpenAPI links (a claim to its items and
    their history, a new audit sample to its tasks and results, a task to its result) with
    the ids the service just answered, and every response along the way passes the checks."""
    schema = _schema(world, world.admin)
    reached: list[tuple[str, str, int]] = []
    claims: list[int] = []  # items in each successful claim, for the failure message

    url = world.server.settings.database_url
    if not url.startswith("sqlite:///"):
        pytest.skip("each scenario starts from a copy of the database: SQLite's backup API")
    live_db = url.removeprefix("sqlite:///")
    snapshot = sqlite3.connect(":memory:")
    with contextlib.closing(sqlite3.connect(live_db)) as source:
        source.backup(snapshot)

    class Workflow(schema.as_state_machine()):  # type: ignore[misc]
        """Each scenario starts from the same database (Hypothesis insists that a replay of
        a scenario draws the same way, so the service must answer it the same way)."""

        def setup(self) -> None:
            with contextlib.closing(sqlite3.connect(live_db)) as target:
                snapshot.backup(target)

        def get_call_kwargs(self, case: schemathesis.Case) -> dict[str, Any]:
            if case.method.upper() == "DELETE" and case.path == LOGOUT:
                token = world.fresh_token(world.admin.username)
                return {"headers": {"Authorization": f"Bearer {token}"}}
            return {}

        def validate_response(
            self,
            response: Any,
            case: schemathesis.Case,
            additional_checks: Any = None,
            **kwargs: Any,
        ) -> None:
            reached.append((case.method.upper(), case.path, response.status_code))
            if case.path.endswith("/leases") and response.status_code < 300:
                claims.append(len(response.json().get("items", [])))
            excluded = []
            status = response.status_code
            if (
                (status, _problem_code(response)) in STATE_DEPENDENT_REFUSALS
                or _cross_field(response)
                or (status == 422 and "/None/" in case.formatted_path)
            ):
                # (the last: a link whose value the response left null, which schemathesis
                # writes into the path as Python's "None": no value the schema allows)
                excluded.append(schemathesis.checks.positive_data_acceptance)
            case.validate_response(response, excluded_checks=excluded, **kwargs)

    def linked() -> set[tuple[str, str]]:
        return {
            (method, path)
            for method, path, status in reached
            if status < 300 and "{" in path and method in ("GET", "POST")
        }

    def followed() -> bool:
        # a claimed item read by its id: the item, its history or its statements (the
        # claim's links to all three)
        return any(
            method == "GET" and path.startswith(f"{API}/items/{{item_id}}")
            for method, path in linked()
        )

    # Whether a scenario draws the claim-then-item path is Hypothesis's draw (it did not in
    # 25 scenarios of one loaded CI run): then a longer run, still derandomized (random seeds
    # found other paths in CI, so a failure could not be replayed). Never following a link
    # at all still fails.
    Workflow.run(settings=STATEFUL_SETTINGS)
    if not followed():
        Workflow.run(settings=settings(STATEFUL_SETTINGS, max_examples=75))
    # ids from one answer reached the next operation (its path parameter came from a link)
    assert followed(), (sorted(linked()), claims)
