"""The claim's path to the database: few statements in one transaction (each is a round trip
on PostgreSQL, and a claim waits for them in turn), its caller checked by that transaction
itself (a revoked session or a changed role counts at once), a lost connection survived."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

from sqlalchemy import create_engine, event, text
from sqlalchemy.engine import make_url

from reviewer_app.protocol import LeaseClaim, Role, SessionCreate, UserCreate
from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain import leasing
from reviewer_app.server.feeds.seed import LOAD_QUEUE, insert_queues, seed_load_queue
from reviewer_app.server.service import Service
from tests.support.servers import PASSWORD, LiveServer

QUEUE = LOAD_QUEUE.id
#: the caller (token, lock), held leases and skips, expired leases, the claim, the leases
#: with their log entries, the items' parts, the handles that name their authors
STATEMENTS_PER_CLAIM = 7


def _service(url: str, count: int = 40) -> tuple[Service, str]:
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    seed_load_queue(service, count)
    service.create_user(UserCreate(username="rita", password=PASSWORD))
    token = service.login(SessionCreate(username="rita", password=PASSWORD)).token
    return service, token


def test_a_claim_on_postgres_is_one_transaction_of_few_statements(pg_url: str) -> None:
    service, token = _service(pg_url)
    try:
        service.claim_reply(token, QUEUE, LeaseClaim(count=10))  # the pool and caches warm
        seen: list[str] = []
        transactions: list[int] = []

        @event.listens_for(service.db.engine, "before_cursor_execute")
        def _statement(*args: Any) -> None:
            seen.append(args[2].split("\n", 1)[0][:60])

        @event.listens_for(service.db.engine, "begin")
        def _begin(_conn: Any) -> None:
            transactions.append(1)

        reply = service.claim_reply(token, QUEUE, LeaseClaim(count=10))
        event.remove(service.db.engine, "before_cursor_execute", _statement)
        event.remove(service.db.engine, "begin", _begin)
        assert reply.served == 10
        assert len(transactions) == 1, "the token's look-up is the claim's own first statement"
        assert len(seen) <= STATEMENTS_PER_CLAIM, seen
        with service.db.read() as conn:  # the claim's commit was asynchronous, this one not
            assert conn.execute(text("SHOW synchronous_commit")).scalar() == "on"
    finally:
        service.close()


def test_a_revoked_session_or_a_changed_role_counts_from_the_next_claim(
    live_server: LiveServer,
) -> None:
    service = live_server.service
    seed_load_queue(service, 20)
    leads_only = replace(
        LOAD_QUEUE,
        id="leads-only",
        name="Leads only",
        config=LOAD_QUEUE.config.model_copy(update={"id": "leads-only", "lead_only": True}),
    )
    with service.db.write() as conn:
        insert_queues(conn, [leads_only])
    service.forget_configs()
    lead = live_server.login("lena", Role.lead)
    admin = service.authenticate(live_server.login("ada", Role.admin).token or "")
    assert admin is not None
    reviewer = live_server.login("rita")

    assert lead.post("/queues/leads-only/leases", json={"count": 1}).status_code == 200
    service.change_role("lena", Role.reviewer, admin)
    refused = lead.post("/queues/leads-only/leases", json={"count": 1})
    assert (refused.status_code, refused.json()["code"]) == (403, "lead_only_queue")

    assert reviewer.post(f"/queues/{QUEUE}/leases", json={"count": 2}).status_code == 200
    assert reviewer.request("DELETE", "/sessions/current").status_code == 204
    gone = reviewer.post(f"/queues/{QUEUE}/leases", json={"count": 2})
    assert (gone.status_code, gone.json()["code"]) == (401, "token_invalid")
    assert gone.headers["WWW-Authenticate"].startswith("Bearer")
    unknown = reviewer.post("/queues/no-such-queue/leases", json={"count": 2})
    assert unknown.status_code == 401, "no queue is named to a caller who is nobody"


def test_a_claim_survives_its_connection_being_cut(pg_url: str) -> None:
    """The database ends every session of the service (as a restart does): the claim on a
    pooled connection that is now dead is made again on a new one."""
    service, token = _service(pg_url)
    try:
        assert service.claim_reply(token, QUEUE, LeaseClaim(count=5)).served == 5
        admin = create_engine(
            make_url(service.db.url).set(database="postgres"), isolation_level="AUTOCOMMIT"
        )
        with admin.connect() as conn:
            ended = conn.execute(
                text(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                    "WHERE datname = :db AND pid <> pg_backend_pid()"
                ),
                {"db": make_url(service.db.url).database},
            ).scalar()
        admin.dispose()
        assert ended, "the service had pooled connections"
        assert service.claim_reply(token, QUEUE, LeaseClaim(count=5)).served == 5
        assert service.authenticate(token) is not None  # the pool was renewed
    finally:
        service.close()


def test_a_claims_look_for_expired_leases_reads_none_that_are_live(pg_url: str) -> None:
    """Leases come and go by the second, so the planner's statistics may have seen none:
    the look for a queue's expired leases still goes by an index that every one of its
    conditions bounds, and reads no live lease (it read them all: 3-10 ms a claim)."""
    service, _token = _service(pg_url, 3_000)
    try:
        with service.db.write() as conn:
            conn.exec_driver_sql("ANALYZE items")  # statistics of a moment with no lease
            conn.execute(
                text(
                    "UPDATE items SET state = 'leased', lease_user_id = 1, "
                    "lease_expires_at = :later, lease_token = 't' || id WHERE id IN "
                    "(SELECT id FROM items WHERE state = 'pending' LIMIT 1500)"
                ),
                {"later": time.time() + 300},
            )
        statement = leasing._EXPIRED[True]
        with service.db.read() as conn:
            compiled = statement.compile(dialect=conn.dialect)
            params = {"b_queue": QUEUE, "b_now": time.time()}
            plan = conn.exec_driver_sql(
                "EXPLAIN (ANALYZE, FORMAT JSON) " + str(compiled), {**compiled.params, **params}
            ).scalar_one()
        scans: list[dict[str, Any]] = []

        def walk(node: dict[str, Any]) -> None:
            if node.get("Relation Name") == "items":
                scans.append(node)
            for child in node.get("Plans", []):
                walk(child)

        walk(plan[0]["Plan"])
        # one scan of items, by an index that the queue, the state and the expiry bound:
        # nothing left to a filter (a filter on the expiry reads every live lease; one on
        # the queue, every live lease of every queue)
        assert [s.get("Index Name") for s in scans] == ["ix_items_lease_expiry"], plan
        assert "Filter" not in scans[0], plan
        assert all(f"{c}" in scans[0]["Index Cond"] for c in ("queue_id", "state", "lease_"))
    finally:
        service.close()
