"""Leases that don't hoard: the sync engine leases ahead only in the queue being worked,
gives back what it leased ahead (and the reviewer never opened) in a queue left, keeps an
item opened or decided and an offline batch, leases one item at a time in a lead-only
queue; and the service's SLA figures count an item held under a lease as still waiting.
Real service (both databases) with the demo shift, real sync engines, the lead's figures
read before and after."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from reviewer_app.core.api import ApiClient
from reviewer_app.core.sync import SyncEngine
from reviewer_app.protocol import QueueStats
from reviewer_app.server.demo import DEMO_USERS
from reviewer_app.server.feeds.seed import seed_demo
from tests.support.client import EventLog, engine_for, fast_settings
from tests.support.servers import LiveServer

PASSWORDS = {u.username: u.password for u in DEMO_USERS}


@pytest.fixture
def shift(database_url: str) -> Iterator[LiveServer]:
    srv = LiveServer(database_url).start()
    try:
        seed_demo(srv.service)
        yield srv
    finally:
        srv.stop()


def _client(server: LiveServer, username: str) -> ApiClient:
    client = ApiClient(server.url)
    client.login(username, PASSWORDS[username])
    return client


def _engine(server: LiveServer, client: ApiClient, tmp_path: Path) -> SyncEngine:
    path = tmp_path / f"{client.me().username}.sqlite3"
    fast_settings(path)
    engine = engine_for(server.url, path, client.token, EventLog())
    engine.open()
    return engine


def _figures(lead: ApiClient) -> dict[str, QueueStats]:
    now = datetime.now(UTC)
    report = lead.queue_stats(now - timedelta(hours=1), now + timedelta(minutes=1))
    return {q.queue_id: q for q in report.queues}


def _leased(client: ApiClient, queue_id: str) -> int:
    return next(q.counts.leased for q in client.queues().queues if q.id == queue_id)


def test_only_the_queue_worked_is_leased_ahead_and_sla_figures_count_held_items(
    shift: LiveServer, tmp_path: Path
) -> None:
    lead = _client(shift, "lead")
    reviewer = _client(shift, "reviewer")
    before = _figures(lead)
    misinfo, hate, esc = before["misinformation"], before["hate-harassment"], before["escalations"]
    assert misinfo.leased == hate.leased == esc.leased == 0
    assert misinfo.pending_over_sla > 0 and esc.pending_over_sla > 0

    # a lead who opens the app in the escalations queue holds one of them, not all
    lead_engine = _engine(shift, lead, tmp_path)
    engine = _engine(shift, reviewer, tmp_path)
    try:
        lead_engine.set_active_queues(["escalations"])
        lead_engine.run_once()
        assert lead_engine.store is not None
        assert lead_engine.store.ready_counts() == {"escalations": 1}
        held = _figures(lead)["escalations"]
        assert (held.leased, held.backlog) == (1, esc.backlog - 1)
        # the held escalation still counts for the SLA: nothing vanished from the figures
        assert held.oldest_pending_age_seconds is not None
        assert esc.oldest_pending_age_seconds is not None
        assert held.oldest_pending_age_seconds >= esc.oldest_pending_age_seconds
        assert held.pending_over_sla == esc.pending_over_sla
        assert held.sla_breached == esc.sla_breached
        lead_engine.run_once()  # one decided or not, the lead's engine holds no more
        assert lead_engine.store.ready_counts() == {"escalations": 1}

        # a reviewer works misinformation: 20 leased ahead there, nowhere else
        engine.set_active_queues(["misinformation"])
        engine.run_once()
        store = engine.store
        assert store is not None
        assert store.ready_counts() == {"misinformation": 20}
        during = _figures(lead)["misinformation"]
        assert (during.leased, during.backlog) == (20, misinfo.backlog - 20)
        assert during.pending_over_sla == misinfo.pending_over_sla
        assert during.oldest_pending_age_seconds is not None
        assert misinfo.oldest_pending_age_seconds is not None
        assert during.oldest_pending_age_seconds >= misinfo.oldest_pending_age_seconds

        # one decided, the next one opened (on screen, not decided), then a switch
        decided = store.next_item("misinformation")
        assert decided is not None
        store.record_verdict(decided.item.id, action="no-violation", time_spent_ms=1)
        opened = store.next_item("misinformation")
        assert opened is not None
        engine.item_opened(opened.item.id)
        engine.set_active_queues(["hate-harassment"])
        engine.run_once()
        assert store.ready_counts() == {"hate-harassment": 20, "misinformation": 1}
        assert store.stored_item(opened.item.id) is not None  # opened: kept
        assert [r.item_id for r in store.worklist("misinformation") if r.state == "ready"] == [
            opened.item.id
        ]
        assert _leased(reviewer, "misinformation") == 1  # 18 untouched given back
        assert _leased(reviewer, "hate-harassment") == 20
        assert lead.item(decided.item.id).state == "decided"  # the verdict still went out
        after = _figures(lead)["misinformation"]
        assert (after.leased, after.backlog) == (1, misinfo.backlog - 2)  # one decided, one held
        # renewals keep only what is still held: nothing given back comes back
        engine.run_once()
        assert _leased(reviewer, "misinformation") == 1
    finally:
        engine.close()
        lead_engine.close()


def test_an_offline_batch_stays_when_the_reviewer_switches_queues(
    shift: LiveServer, tmp_path: Path
) -> None:
    reviewer = _client(shift, "reviewer")
    engine = _engine(shift, reviewer, tmp_path)
    try:
        engine.set_active_queues(["spam-scams"])
        engine.work_offline("spam-scams", 30)
        engine.run_once()
        assert engine.store is not None
        # the 20 leased ahead and the batch of 30, all as long as the batch
        assert engine.store.ready_counts() == {"spam-scams": 50}
        engine.set_active_queues(["hate-harassment"])
        engine.run_once()
        # asked for to work with no network: nothing of the batch is given back
        assert engine.store.ready_counts() == {"spam-scams": 50, "hate-harassment": 20}
        assert _leased(reviewer, "spam-scams") == 50
    finally:
        engine.close()
