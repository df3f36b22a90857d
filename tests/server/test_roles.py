"""Roles are enforced on the server for every route.

The test reads the OpenAPI document from the running service and walks every operation
in it with each kind of caller: no token, a bogus token, a reviewer, a lead, an admin, and
the API keys of a platform and of a fact-checker account. ``ROUTES`` below is the
expectation: the minimum role of each operation and the status an allowed caller gets for
the request this test sends. An operation in the document that is missing from the table
(or the other way round) fails the test, so a new route cannot ship without someone
deciding who may call it. The intake routes (``/intake/...``) are the exception: they are
read from the document as they are, and each is the platform's, or the fact-checker's
when it is about fact-checks (see ``intake_role``).

People's routes refuse service accounts (403 ``service_account_forbidden``); intake
routes refuse people and the other kind of service account (403 ``platform_only`` or
``fact_checker_only``).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
import requests

from reviewer_app.protocol import API_PREFIX, Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.feeds.seed_types import SeedQueue
from tests.support.api import ApiSession, expect_problem, verdict
from tests.support.servers import PASSWORD, LiveServer

PROBLEM_JSON = "application/problem+json"

RANK = {"public": 0, "reviewer": 1, "lead": 2, "admin": 3}
KEY_ROLES = ("platform", "fact_checker")
INTAKE = "/intake/"

# (method, path under /api/v1) -> (minimum role, status for an allowed caller).
# The status is the one the request built in `_request` gets: e.g. the media id
# does not exist, so an allowed caller gets 404 (after the role check, never before).
ROUTES: dict[tuple[str, str], tuple[str, int]] = {
    ("GET", "/meta"): ("public", 200),
    ("POST", "/sessions"): ("public", 201),
    ("DELETE", "/sessions/current"): ("reviewer", 204),
    ("GET", "/me"): ("reviewer", 200),
    ("GET", "/queues"): ("reviewer", 200),
    ("POST", "/queues/{queue_id}/leases"): ("reviewer", 200),
    ("POST", "/leases/renew"): ("reviewer", 200),
    ("POST", "/leases/release"): ("reviewer", 200),
    ("GET", "/items/{item_id}"): ("reviewer", 200),
    ("GET", "/items/{item_id}/history"): ("reviewer", 200),
    ("GET", "/items/{item_id}/statements"): ("reviewer", 200),
    ("GET", "/media/{media_id}"): ("reviewer", 404),
    ("POST", "/verdicts"): ("reviewer", 200),
    ("GET", "/events"): ("lead", 200),
    ("GET", "/webhooks"): ("lead", 200),
    ("GET", "/decisions"): ("lead", 200),
    ("GET", "/decisions/export"): ("lead", 200),
    ("GET", "/me/decisions"): ("reviewer", 200),
    ("GET", "/me/feedback"): ("reviewer", 200),
    ("POST", "/me/feedback/seen"): ("reviewer", 200),
    ("POST", "/decisions/{decision_id}/notes"): ("lead", 201),
    # the reviewer's own decision: a reviewer reads its notes (another's: 403, test_feedback)
    ("GET", "/decisions/{decision_id}/notes"): ("reviewer", 200),
    ("GET", "/search"): ("lead", 422),  # no kind or q: the matrix sends no query string
    ("GET", "/views"): ("lead", 200),
    ("POST", "/views"): ("lead", 201),
    ("DELETE", "/views/{view_id}"): ("lead", 404),  # none of the caller's (the search tests')
    ("GET", "/escalations"): ("lead", 200),
    # the matrix's item is in the load queue, not an open escalation: 409 once allowed
    ("PUT", "/escalations/{item_id}/assignee"): ("lead", 409),
    ("PUT", "/queues/{queue_id}/breaks"): ("lead", 200),
    ("GET", "/stats/queues"): ("lead", 200),
    ("GET", "/stats/reviewers"): ("lead", 200),
    ("GET", "/stats/exposure"): ("lead", 200),
    ("POST", "/breaks"): ("reviewer", 200),
    ("GET", "/stats/reviewers/{username}/trend"): ("lead", 200),
    ("GET", "/stats/quality"): ("lead", 200),
    ("POST", "/audits/samples"): ("lead", 201),
    ("GET", "/audits/samples"): ("lead", 200),
    ("GET", "/audits/samples/{sample_id}"): ("lead", 200),
    ("POST", "/audits/samples/{sample_id}/next"): ("lead", 200),
    ("GET", "/audits/samples/{sample_id}/results"): ("lead", 200),
    ("POST", "/audits/tasks/{audit_id}/result"): ("lead", 201),
    ("GET", "/users"): ("admin", 200),
    ("POST", "/users"): ("admin", 201),
    ("PUT", "/users/{username}/role"): ("admin", 200),
    ("PUT", "/users/{username}/password"): ("admin", 204),
    ("DELETE", "/users/{username}/password"): ("admin", 204),
    ("GET", "/admin/api-keys"): ("admin", 200),
    ("POST", "/admin/api-keys"): ("admin", 201),
    ("DELETE", "/admin/api-keys/{key_id}"): ("admin", 200),
    ("GET", "/admin/queue-file"): ("admin", 200),
    ("GET", "/admin/queue-file/history"): ("admin", 200),
    ("GET", "/enforcement"): ("platform", 200),
    ("GET", "/authors/{author_id}/linked"): ("lead", 200),
    ("POST", "/authors/actions"): ("lead", 200),
    ("GET", "/authors/{author_id}/open-items"): ("lead", 200),
    ("POST", "/decisions/bulk"): ("lead", 200),
}


def intake_role(template: str) -> str:
    """Who may call an intake route: fact-checkers their fact-checks, platforms the rest."""
    return "fact_checker" if "fact-check" in template else "platform"


def role_allows(role: str, minimum: str) -> bool:
    if minimum == "public":
        return True
    if minimum in KEY_ROLES or role in KEY_ROLES:
        return role == minimum  # people and service accounts never share a route
    return RANK[role] >= RANK[minimum]


def refusal_code(role: str, minimum: str) -> str | None:
    """The code a caller with ``role`` gets on a route for ``minimum`` (None: any)."""
    if minimum in KEY_ROLES:
        return f"{minimum}_only"
    if role in KEY_ROLES:
        return "service_account_forbidden"
    return None  # a person below the route's role: lead_only, admin_only, ...


HTTP_METHODS = {"get", "put", "post", "delete", "patch", "head", "options", "trace"}


@dataclass
class Caller:
    name: str  # "anonymous", "bogus", or the role
    role: str | None  # the caller's role, None without a valid token
    username: str | None = None
    token: str | None = None

    def headers(self, token: str | None = None) -> dict[str, str]:
        token = token or self.token
        return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class World:
    server: LiveServer
    callers: list[Caller]
    item_id: str  # an item in the load queue, leased to the reviewer
    renew_token: str  # the reviewer's lease on another item
    release_token: str  # and on a third
    verdict_lease: dict[str, Any]  # and a fourth, as the claim returned it
    sample_id: int  # an audit sample of two decisions
    audit_ids: dict[str, int]  # one of its audits for each caller allowed to record one
    key_id: int  # an API key the admin route may revoke (none the callers use)
    author_ids: dict[str, str]  # an author for each caller allowed an account action
    decision_id: int  # one of the reviewer's decisions (for the notes routes)
    bulk_item_ids: dict[str, str]  # an item each caller allowed a bulk decision holds


def _world(live_server: LiveServer) -> World:
    seed_load_queue(live_server.service, 40)
    reviewer = live_server.login("matrix-reviewer", Role.reviewer)
    lead = live_server.login("matrix-lead", Role.lead)
    admin = live_server.login("matrix-admin", Role.admin)
    live_server.add_user("matrix-target")  # whose role the admin route changes
    service = live_server.service
    platform_key = service.create_api_key(Role.platform, "matrix-platform").key
    fact_checker_key = service.create_api_key(Role.fact_checker, "matrix-fact-checker").key
    spare = service.create_api_key(Role.platform, "matrix-spare", account="matrix-platform")
    leased = reviewer.claim(LOAD_QUEUE.id, count=8)
    assert len(leased) >= 8  # how many exactly is the leasing tests' business
    # Four decisions: two for the sample made here, two for the samples the walk makes.
    decided = reviewer.decide([verdict(x) for x in leased[4:8]])
    assert [r["status"] for r in decided] == ["accepted"] * 4
    made = lead.post("/audits/samples", json={**SAMPLE, "size": 2})
    assert made.status_code == 201, made.text
    sample_id = made.json()["id"]
    audit_ids = {}
    for name, session in (("lead", lead), ("admin", admin)):
        grant = session.post(f"/audits/samples/{sample_id}/next").json()
        audit_ids[name] = grant["task"]["audit_id"]
    assert len(set(audit_ids.values())) == 2
    # each caller allowed a bulk decision holds the item it decides (no one else's claim
    # in the walk can take it)
    bulk_item_ids = {
        name: session.claim(LOAD_QUEUE.id, count=1)[0]["item"]["id"]
        for name, session in (("lead", lead), ("admin", admin))
    }
    callers = [
        Caller("anonymous", None),
        Caller("bogus", None, token="rd1_" + "x" * 43),  # well-formed, never issued
        Caller("reviewer", "reviewer", "matrix-reviewer", reviewer.token),
        Caller("lead", "lead", "matrix-lead", lead.token),
        Caller("admin", "admin", "matrix-admin", admin.token),
        Caller("platform", "platform", "matrix-platform", platform_key),
        Caller("fact_checker", "fact_checker", "matrix-fact-checker", fact_checker_key),
    ]
    return World(
        server=live_server,
        callers=callers,
        item_id=leased[0]["item"]["id"],
        renew_token=leased[1]["lease_token"],
        release_token=leased[2]["lease_token"],
        verdict_lease=leased[3],
        sample_id=sample_id,
        audit_ids=audit_ids,
        key_id=spare.info.id,
        author_ids={
            "lead": leased[4]["item"]["author"]["id"],
            "admin": leased[5]["item"]["author"]["id"],
        },
        decision_id=decided[0]["decision"]["id"],
        bulk_item_ids=bulk_item_ids,
    )


BodyMaker = Callable[[World, Caller], Any]

SAMPLE = {"size": 1, "since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}

BODIES: dict[tuple[str, str], BodyMaker] = {
    ("POST", "/sessions"): lambda w, c: {"username": "matrix-reviewer", "password": PASSWORD},
    ("POST", "/queues/{queue_id}/leases"): lambda w, c: {"count": 1, "lease_seconds": 60},
    ("POST", "/leases/renew"): lambda w, c: {"tokens": [w.renew_token], "lease_seconds": 120},
    ("POST", "/leases/release"): lambda w, c: {"tokens": [w.release_token]},
    ("POST", "/verdicts"): lambda w, c: {"verdicts": [verdict(w.verdict_lease, "keep")]},
    ("POST", "/users"): lambda w, c: {
        "username": f"made-by-{c.name}-{uuid.uuid4().hex[:8]}",
        "password": "a long enough password",
        "role": "reviewer",
    },
    ("PUT", "/users/{username}/role"): lambda w, c: {"role": "lead"},
    ("PUT", "/users/{username}/password"): lambda w, c: {"password": "a new password, long"},
    ("POST", "/admin/api-keys"): lambda w, c: {
        "role": "platform",
        "name": f"made-by-{c.name.replace('_', '-')}-{uuid.uuid4().hex[:8]}",
    },
    ("POST", "/audits/samples"): lambda w, c: SAMPLE,
    ("POST", "/breaks"): lambda w, c: {
        "id": str(uuid.uuid4()),
        "started_at": "2026-01-01T00:00:00Z",
    },
    ("POST", "/me/feedback/seen"): lambda w, c: {"until": "2026-01-01T00:00:00Z"},
    ("POST", "/decisions/{decision_id}/notes"): lambda w, c: {"note": f"from {c.name}"},
    ("POST", "/views"): lambda w, c: {
        "name": f"made by {c.name} {uuid.uuid4().hex[:8]}",
        "view": {"kind": "search", "search": {"kind": "reason", "q": "spam"}},
    },
    ("PUT", "/escalations/{item_id}/assignee"): lambda w, c: {"assignee": None},
    ("PUT", "/queues/{queue_id}/breaks"): lambda w, c: {"breaks": {"after_minutes": 90}},
    ("POST", "/audits/tasks/{audit_id}/result"): lambda w, c: {"result": "agree"},
    ("POST", "/authors/actions"): lambda w, c: {
        "author_ids": [w.author_ids.get(c.name, w.author_ids["lead"])],
        "action": "warn",
    },
    ("POST", "/decisions/bulk"): lambda w, c: {
        "items": [
            {
                "item_id": w.bulk_item_ids.get(c.name, w.bulk_item_ids["lead"]),
                "idempotency_key": str(uuid.uuid4()),
            }
        ],
        "action": "keep",
        "decided_at": "2026-01-01T00:00:00Z",
    },
}


def _request(
    world: World, caller: Caller, method: str, template: str, *, missing: bool = False
) -> requests.Response:
    """The route's request; with ``missing``, every path id names nothing that exists."""
    if missing:
        path = template.format(
            queue_id="no-such-queue",
            item_id="no-such-item",
            media_id="no-such-media",
            username="no-such-user",
            sample_id=999_999,
            audit_id=999_999,
            key_id=999_999,
            author_id="no-such-author",
            decision_id=999_999,
            view_id=999_999,
        )
    else:
        path = template.format(
            queue_id=LOAD_QUEUE.id,
            item_id=world.item_id,
            media_id="no-such-media",
            username="matrix-target",
            sample_id=world.sample_id,
            audit_id=world.audit_ids.get(caller.name, min(world.audit_ids.values())),
            key_id=world.key_id,
            author_id=world.author_ids["lead"],
            decision_id=world.decision_id,
            view_id=999_998,
        )
    headers = caller.headers()
    person = caller.role is not None and caller.role not in KEY_ROLES
    if (method, template) == ("DELETE", "/sessions/current") and person and caller.username:
        # Logging out must not revoke the token the rest of the walk uses.
        throwaway = ApiSession.login(world.server.url, caller.username, PASSWORD).token
        headers = caller.headers(throwaway)
    body = BODIES.get((method, template))
    return requests.request(
        method,
        f"{world.server.url}{API_PREFIX}{path}",
        headers=headers,
        json=body(world, caller) if body else None,
        timeout=30,
    )


def _operations(document: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method not in HTTP_METHODS:
                continue
            assert path.startswith(API_PREFIX + "/"), f"{method.upper()} {path} is outside /api/v1"
            found[(method.upper(), path.removeprefix(API_PREFIX))] = operation
    return found


def _problem_error(response: requests.Response) -> str | None:
    """Why this response is not an RFC 9457 problem with a ``code`` (None when it is)."""
    media_type = response.headers.get("content-type", "").split(";")[0].strip()
    if media_type != PROBLEM_JSON:
        return f"content-type {media_type!r}, not {PROBLEM_JSON}"
    body = response.json()
    if not isinstance(body, dict) or not body.get("code"):
        return "no code in the problem"
    if body.get("status") != response.status_code:
        return f"problem status {body.get('status')} differs from the HTTP status"
    return None


def _problem(response: requests.Response) -> dict[str, Any]:
    error = _problem_error(response)
    assert error is None, f"{error}: {response.text[:300]}"
    body: dict[str, Any] = response.json()
    return body


def _check_call(
    world: World,
    caller: Caller,
    method: str,
    template: str,
    minimum: str,
    ok: int | None,
    *,
    missing: bool = False,
) -> str | None:
    """What is wrong with this caller's answer on this route (None when it is right).

    With ``missing`` the path ids name nothing: a caller whose role is enough gets 404,
    and any other caller the same 401 or 403 as with real ids (roles before existence).
    ``ok`` None: any answer but 401, 403 or a server error will do for an allowed caller
    (the intake routes, whose bodies this test does not make).
    """
    response = _request(world, caller, method, template, missing=missing)
    ok = 404 if missing and ok is not None else ok
    status = response.status_code
    error: str | None = None
    if minimum == "public" or (caller.role and role_allows(caller.role, minimum)):
        if status in (401, 403):
            error = "refused a caller whose role is enough"
        elif ok is None and status >= 500:
            error = "server error"
        elif ok is not None and status != ok:
            error = f"expected {ok}"
    elif caller.role is None:
        expected_code = "not_authenticated" if caller.token is None else "token_invalid"
        if status != 401:
            error = "expected 401 without a valid token"
        elif error := _problem_error(response):
            pass
        elif (code := response.json()["code"]) != expected_code:
            error = f"expected code {expected_code!r}, got {code!r}"
        elif not response.headers.get("www-authenticate", "").startswith("Bearer"):
            error = "no WWW-Authenticate: Bearer header"
    elif status != 403:
        error = f"expected 403: {caller.role} may not call a route for {minimum}"
    elif error := _problem_error(response):
        pass
    elif (expected := refusal_code(caller.role, minimum)) and (
        code := response.json()["code"]
    ) != expected:
        error = f"expected code {expected!r}, got {code!r}"
    if error is None:
        return None
    ids = " (ids that do not exist)" if missing else ""
    return f"{caller.name:>9} {method} {template}{ids} -> {status}: {error}; {response.text[:200]}"


def test_role_matrix_covers_every_operation(live_server: LiveServer) -> None:
    world = _world(live_server)
    document = requests.get(f"{live_server.url}/openapi.json", timeout=30).json()
    operations = _operations(document)

    intake = {op for op in operations if op[1].startswith(INTAKE)}
    assert intake, "no intake routes (/intake/...) in the document"
    expected: dict[tuple[str, str], tuple[str, int | None]] = {
        **ROUTES,
        **{op: (intake_role(op[1]), None) for op in intake},
    }
    unclassified = sorted(set(operations) - set(expected))
    stale = sorted(set(expected) - set(operations))
    assert not unclassified, f"routes missing from ROUTES (decide their role): {unclassified}"
    assert not stale, f"ROUTES names operations the document does not have: {stale}"
    for role in KEY_ROLES:
        assert any(minimum == role for minimum, _ in expected.values()), f"no route for {role}"

    # The document tells clients the same thing the table does.
    for (method, template), operation in operations.items():
        minimum = expected[(method, template)][0]
        declared = {name for req in operation.get("security", []) for name in req}
        responses = set(operation.get("responses", {}))
        if minimum == "public":
            assert not declared, f"{method} {template} is public but declares {declared}"
        else:
            assert declared, f"{method} {template} needs a token but declares no security"
            assert "401" in responses, f"{method} {template} does not document 401"
            # every route with a token refuses someone: a role below, a service account
            # on a person's route, a person on an intake route
            assert "403" in responses, f"{method} {template} does not document 403"

    wrong = []
    for method, template in operations:
        minimum, ok = expected[(method, template)]
        for caller in world.callers:
            for missing in (False, True) if "{" in template else (False,):
                problem = _check_call(world, caller, method, template, minimum, ok, missing=missing)
                if problem:
                    wrong.append(problem)
    assert not wrong, "role matrix failures:\n" + "\n".join(wrong)


LEAD_QUEUE = SeedQueue(
    id="lead-desk",
    name="Lead desk",
    description="Only leads and admins work this queue",
    config=LOAD_QUEUE.config.model_copy(update={"lead_only": True}),
)


def test_lead_only_queue_is_closed_to_reviewers(live_server: LiveServer) -> None:
    service = live_server.service
    seed_load_queue(service, 5)
    with service.db.write() as conn:
        insert_queues(conn, [LEAD_QUEUE])
    service.forget_configs()
    seed_load_queue(service, 5, queue=LEAD_QUEUE)  # items for the queue made above
    reviewer = live_server.login("desk-reviewer", Role.reviewer)
    lead = live_server.login("desk-lead", Role.lead)
    admin = live_server.login("desk-admin", Role.admin)
    claim = {"count": 2, "lease_seconds": 60}

    refused = reviewer.post(f"/queues/{LEAD_QUEUE.id}/leases", json=claim)
    assert refused.status_code == 403, refused.text
    assert _problem(refused)["code"] == "lead_only_queue"
    assert reviewer.post("/queues/no-such-queue/leases", json=claim).status_code == 404
    assert reviewer.claim(LOAD_QUEUE.id, count=1), "the reviewer's other queues still work"

    def queue_ids(session: ApiSession) -> set[str]:
        response = session.get("/queues")
        assert response.status_code == 200, response.text
        return {q["id"] for q in response.json()["queues"]}

    assert LEAD_QUEUE.id not in queue_ids(reviewer)
    assert LEAD_QUEUE.id in queue_ids(lead)
    assert LEAD_QUEUE.id in queue_ids(admin)

    leased = lead.claim(LEAD_QUEUE.id, count=2)
    assert len(leased) == 2
    assert len(admin.claim(LEAD_QUEUE.id, count=2)) == 2
    item_id = leased[0]["item"]["id"]

    for path in (f"/items/{item_id}", f"/items/{item_id}/history", f"/items/{item_id}/statements"):
        hidden = reviewer.get(path)
        assert hidden.status_code == 403, f"{path}: {hidden.status_code} {hidden.text}"
        assert _problem(hidden)["code"] == "lead_only_queue"
        assert lead.get(path).status_code == 200
        assert admin.get(path).status_code == 200

    # a lead made a reviewer gives back what they held there: no renewal, no verdict counts
    demoted = admin.request("PUT", "/users/desk-lead/role", json={"role": "reviewer"})
    assert demoted.status_code == 200, demoted.text
    renewed = lead.post(
        "/leases/renew", json={"tokens": [x["lease_token"] for x in leased], "lease_seconds": 600}
    )
    assert [r["status"] for r in renewed.json()["results"]] == ["lost", "lost"], renewed.text
    [late] = lead.decide([verdict(leased[1], "keep")])
    assert late["status"] == "rejected", late
    again = admin.claim(LEAD_QUEUE.id, count=5)
    assert {x["item"]["id"] for x in leased} <= {x["item"]["id"] for x in again}, "back in it"


def test_an_admin_sets_a_password_or_ends_a_persons_access_at_once(
    live_server: LiveServer,
) -> None:
    """There was no way to take access away: a leaked password worked for ever, a stolen
    token until it expired, and someone who left kept reviewing."""
    seed_load_queue(live_server.service, 6)
    admin = live_server.login("boss", Role.admin)
    rita = live_server.login("rita")
    held = rita.claim(LOAD_QUEUE.id, count=3)
    assert len(held) == 3

    def login(password: str) -> int:
        body = {"username": "rita", "password": password}
        return requests.post(
            f"{live_server.url}{API_PREFIX}/sessions", json=body, timeout=30
        ).status_code

    # a new password: every session of hers ends, the old password opens nothing
    done = admin.request("PUT", "/users/rita/password", json={"password": "a new password, long"})
    assert done.status_code == 204, done.text
    expect_problem(rita.get("/me"), 401, "token_invalid")
    assert login(PASSWORD) == 401
    assert login("a new password, long") == 201

    # her access ended: no password opens it, no session lasts, her leases go back
    again = ApiSession.login(live_server.url, "rita", "a new password, long")
    assert again.get("/me").status_code == 200
    ended = admin.request("DELETE", "/users/rita/password")
    assert ended.status_code == 204, ended.text
    expect_problem(again.get("/me"), 401, "token_invalid")
    assert login("a new password, long") == 401
    taken = {x["item"]["id"] for x in admin.claim(LOAD_QUEUE.id, count=6)}
    assert {x["item"]["id"] for x in held} <= taken, "what she held is back in the queue"
    # and back: a password set again opens it
    admin.request("PUT", "/users/rita/password", json={"password": "back again, long one"})
    assert login("back again, long one") == 201

    live_server.service.seal_now()
    events = live_server.service.events(None, 500, None).events
    kinds = [(e.kind.value, e.actor, e.data.get("username")) for e in events]
    assert ("password_set", "boss", "rita") in kinds and ("access_ended", "boss", "rita") in kinds
    assert not any("long" in str(e.data) for e in events), "never the password"

    # refused: a service account (it has keys), the last admin who can log in, a lead
    live_server.service.create_api_key(Role.platform, "bridge")
    expect_problem(admin.request("DELETE", "/users/bridge/password"), 422, "service_account")
    expect_problem(admin.request("DELETE", "/users/boss/password"), 409, "last_admin")
    lead = live_server.login("lena", Role.lead)
    expect_problem(lead.request("DELETE", "/users/rita/password"), 403, "admin_only")


def test_the_last_admin_cannot_stop_being_one(live_server: LiveServer) -> None:
    admin = live_server.login("only-admin", Role.admin)
    refused = admin.request("PUT", "/users/only-admin/role", json={"role": "reviewer"})
    assert refused.status_code == 409 and _problem(refused)["code"] == "last_admin", refused.text
    live_server.login("second-admin", Role.admin)
    # an admin whose access ended cannot log in: they do not count as another admin
    assert admin.request("DELETE", "/users/second-admin/password").status_code == 204
    expect_problem(
        admin.request("PUT", "/users/only-admin/role", json={"role": "reviewer"}), 409, "last_admin"
    )
    admin.request("PUT", "/users/second-admin/password", json={"password": "back again, long"})
    assert admin.request("PUT", "/users/only-admin/role", json={"role": "lead"}).status_code == 200


def test_two_admins_demoting_each_other_at_once_leave_one(live_server: LiveServer) -> None:
    """Each saw the other as an admin, so both passed the check and nobody was left to
    manage users (PostgreSQL, read committed)."""
    for round_ in range(6):
        a, b = f"ada-{round_}", f"bea-{round_}"
        sessions = {a: live_server.login(a, Role.admin), b: live_server.login(b, Role.admin)}
        if round_:  # only the two of this round are admins
            for name in (f"ada-{round_ - 1}", f"bea-{round_ - 1}"):
                sessions[a].request("PUT", f"/users/{name}/role", json={"role": "lead"})
        start = threading.Barrier(2)

        def demote(actor: str, whom: str, start: Any = start, sessions: Any = sessions) -> int:
            start.wait()
            path = f"/users/{whom}/role"
            return sessions[actor].request("PUT", path, json={"role": "reviewer"}).status_code

        with ThreadPoolExecutor(2) as pool:
            codes = sorted(pool.map(demote, (a, b), (b, a)))
        assert codes in ([200, 403], [200, 409]), codes
        roles = {u.username: u.role for u in live_server.service.list_users().users}
        assert [roles[a], roles[b]].count(Role.admin) == 1, roles


@pytest.mark.parametrize("token", ["", "rd1_" + "y" * 43, "z" * 300])
def test_bad_bearer_tokens_are_401_problems(live_server: LiveServer, token: str) -> None:
    response = requests.get(
        f"{live_server.url}{API_PREFIX}/me",
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert response.status_code == 401, response.text
    assert _problem(response)["code"] in ("not_authenticated", "token_invalid")
