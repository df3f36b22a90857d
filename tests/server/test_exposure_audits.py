"""A lead who blind-audits posts saw each of them: every audited post counts in the
auditor's exposure (by when the judgement was recorded, with the audited decision's queue
and policies), an agreement as much as an overturn, and an overturn once (it is a decision
of its own)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer_app.server.domain.wellbeing import audited_query
from reviewer_app.server.storage.db import Database
from tests.server.test_exposure import _decide, _exposure, exposure_server
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer


@pytest.fixture
def server(database_url: str) -> Iterator[tuple[LiveServer, ManualClock]]:
    yield from exposure_server(database_url)


def test_every_audited_post_counts_for_its_auditor(
    server: tuple[LiveServer, ManualClock],
) -> None:
    srv, clock = server
    for _ in range(4):
        _decide(srv, "ana", "gore")
    clock.advance(60)
    lea = srv.login("lea", create=False)
    sample = lea.post(
        "/audits/samples",
        json={"since": "2000-01-01T00:00:00Z", "until": "2100-01-01T00:00:00Z", "size": 4},
    ).json()
    assert sample["size"] == 4, sample
    for n in range(4):
        task = lea.post(f"/audits/samples/{sample['id']}/next").json()["task"]
        body: dict[str, object] = (
            {"result": "agree"}
            if n < 3
            else {"result": "overturn", "action": "remove", "policies": ["SELF.HARM"], "note": "x"}
        )
        recorded = lea.post(f"/audits/tasks/{task['audit_id']}/result", json=body)
        assert recorded.status_code in (200, 201), recorded.text
    clock.advance(60)
    figures = _exposure(srv)
    lead = figures["lea"]
    assert (lead["shift_items"], lead["week_items"], lead["high_harm_shift"]) == (4, 4, 4)
    assert {h["kind"]: (h["shift"], h["week"]) for h in lead["harm"]} == {
        "graphic_violence": (4, 4),
        "self_harm": (1, 1),  # the overturn's own policy
    }
    assert lead["shift_started_at"] is not None
    ana = figures["ana"]
    assert (ana["shift_items"], ana["week_items"]) == (4, 4)  # the reviewer's, unchanged


def test_a_weeks_audits_are_read_by_their_index(tmp_path: Path) -> None:
    """The exposure report's read of the week's audits (every 30 s while a lead's Wellbeing
    page is shown) goes by audit_items' index on recorded_at, not through the whole table."""
    db = Database(f"sqlite:///{tmp_path / 'plan.db'}")
    try:
        db.migrate()
        statement = audited_query(1_000.0, 2_000.0)
        compiled = str(
            statement.compile(dialect=db.engine.dialect, compile_kwargs={"literal_binds": True})
        )
        with db.read() as conn:
            plan = " | ".join(r[-1] for r in conn.exec_driver_sql("EXPLAIN QUERY PLAN " + compiled))
        assert "ix_audit_items_recorded_at" in plan, plan
    finally:
        db.dispose()
