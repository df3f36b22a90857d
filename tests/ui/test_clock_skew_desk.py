"""Windows of time asked of the service are on the service's clock, end to end (real service
over HTTP, offscreen), whatever this workstation's clock says: the store knows how far it is
off from its claims.

- A reviewer's "My decisions -> This shift" on a clock 7 minutes fast: the shift's start is
  moved onto the service's clock (it was refused for 7 minutes as a window starting in the
  service's future, then left out the shift's first 7 minutes).
- A lead's figures, audit sample and escalations on a clock 7 minutes slow: the window ends
  now on the service's clock ("last 24 hours" showed 4 of the last 10 minutes' 10 decisions).
- A lead's bulk decision held before the clock was set back two hours (NTP correcting a fast
  clock) is sent once its undo window has passed, not two hours on.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from reviewer_app.core.api import ApiClient
from reviewer_app.core.bulk import Candidate, new_request
from reviewer_app.core.store import Store
from reviewer_app.protocol import Role, UserCreate
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from reviewer_app.ui.lead.bulk_sender import BulkSender
from tests.support.api import ApiSession, claim, verdict
from tests.support.clock import ManualClock
from tests.support.servers import LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

QUEUE = LOAD_QUEUE.id
SKEW = 420.0  # seven minutes


def _service(tmp_path: Path, clock: ManualClock) -> LiveServer:
    server = LiveServer(f"sqlite:///{tmp_path / 'skew.db'}", clock=clock).start()
    seed_load_queue(server.service, 30)
    for (username, password), role in ((REVIEWER, Role.reviewer), (LEAD, Role.lead)):
        server.service.create_user(UserCreate(username=username, password=password, role=role))
    return server


def _decide_a_minute_apart(server: LiveServer, clock: ManualClock, count: int) -> None:
    """The reviewer decides ``count`` posts, one a minute, on the service's clock."""
    session = ApiSession.login(server.url, *REVIEWER)
    for _ in range(count):
        leased = claim(session, QUEUE, 1)
        assert session.decide([verdict(leased[0])])[0]["status"] == "accepted"
        clock.advance(60)


@pytest.fixture
def fast_workstation(tmp_path: Path) -> Iterator[tuple[LiveServer, ManualClock]]:
    """The service 7 minutes behind this workstation, after 15 decisions of the reviewer
    a minute apart (the last one a minute ago on its clock)."""
    clock = ManualClock(time.time() - SKEW - 900)
    server = _service(tmp_path, clock)
    try:
        _decide_a_minute_apart(server, clock, 15)
        yield server, clock
    finally:
        server.stop()


def test_this_shift_is_asked_on_the_services_clock(
    fast_workstation: tuple[LiveServer, ManualClock], desk_factory: Any, qtbot: QtBot
) -> None:
    server, _clock = fast_workstation
    desk: Desk = desk_factory(server.url, queue=QUEUE)  # its claims measure the offset
    window = desk.window

    def shown(shift_minutes: float) -> int:
        window.tally.started_at = time.time() - shift_minutes * 60  # this computer's clock
        window.show_my_decisions()
        view = window.my_decisions_view
        assert view is not None
        with qtbot.waitSignal(view.loaded, timeout=15_000) as loaded:
            pass  # asked on a pool thread: answered once the event loop runs
        view.close()
        return int(loaded.args[0])

    # five and a half minutes into the shift: asked (not refused as starting in the
    # service's future), with the decisions of those minutes on its clock
    assert shown(5.5) == 5
    # the whole shift: none of its first 7 minutes left out
    assert shown(15.5) == 15
    assert window.store.server_offset == pytest.approx(SKEW, abs=30)  # kept in the store


@pytest.fixture
def slow_workstation(tmp_path: Path) -> Iterator[tuple[LiveServer, ManualClock]]:
    """The service 7 minutes ahead of this workstation, after 10 decisions of the reviewer
    a minute apart."""
    clock = ManualClock(time.time() + SKEW - 600)
    server = _service(tmp_path, clock)
    try:
        _decide_a_minute_apart(server, clock, 10)
        yield server, clock
    finally:
        server.stop()


def test_a_leads_windows_end_now_on_the_services_clock(
    slow_workstation: tuple[LiveServer, ManualClock],
    desk_factory: Any,
    qtbot: QtBot,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    server, clock = slow_workstation
    desk: Desk = desk_factory(server.url, queue=QUEUE, user=LEAD)
    window = desk.window
    lead = window.lead
    assert lead is not None

    overview = lead.queues_view
    overview.refresh()
    qtbot.waitUntil(lambda: not overview.loading and bool(overview.model.queues), timeout=20_000)
    assert next(q for q in overview.model.queues if q.queue_id == QUEUE).decided == 10

    reviewers = lead.reviewers
    reviewers.refresh()
    qtbot.waitUntil(
        lambda: not reviewers.loading and bool(reviewers.model.reviewers), timeout=20_000
    )
    mine = next(r for r in reviewers.model.reviewers if r.reviewer == REVIEWER[0])
    assert mine.decisions == 10

    audits = lead.audits
    audits.sample_size.setValue(10)
    audits.queue_picker.setCurrentIndex(audits.queue_picker.findData(QUEUE))
    audits.create_sample()
    qtbot.waitUntil(lambda: audits.samples.rowCount() == 1, timeout=20_000)
    assert "10 decisions drawn" in audits.status.text()

    client = lead.escalations.client_factory()
    asked: list[tuple[datetime, datetime]] = []
    real = client.queue_stats

    def recording(since: datetime, until: datetime, **kw: Any) -> Any:
        asked.append((since, until))
        return real(since, until, **kw)

    monkeypatch.setattr(client, "queue_stats", recording)
    lead.escalations.refresh()
    qtbot.waitUntil(lambda: bool(asked) and not lead.escalations.loading, timeout=20_000)
    since, until = asked[-1]
    assert clock.now < until.timestamp() <= clock.now + 60
    assert until.timestamp() - since.timestamp() == 86_400
    assert window.store.server_offset == pytest.approx(-SKEW, abs=30)


def test_a_bulk_held_before_the_clock_went_back_waits_only_its_window(
    tmp_path: Path, qtbot: QtBot
) -> None:
    server = LiveServer(f"sqlite:///{tmp_path / 'bulk.db'}").start()
    try:
        seed_load_queue(server.service, 3)
        server.service.create_user(UserCreate(username=LEAD[0], password=LEAD[1], role=Role.lead))
        lead = ApiSession.login(server.url, *LEAD)
        chosen = [Candidate(f"{QUEUE}-{n:07d}", QUEUE) for n in range(3)]
        path = tmp_path / "lead.sqlite3"
        fast = ManualClock(time.time() + 7_200)  # two hours fast when the lead confirmed
        with Store(path, clock=fast) as before:
            before.hold_bulk(new_request(chosen, "keep", note="held", at=fast()), undo_window=2)

        # NTP set the clock back; the next start
        with Store(path) as store:
            holder = QWidget()
            qtbot.addWidget(holder)
            sender = BulkSender(store, lambda: ApiClient(server.url, token=lead.token), holder)
            left: list[float] = []
            sender.ticked.connect(lambda _bulk, seconds: left.append(seconds))
            with qtbot.waitSignal(sender.recorded, timeout=15_000) as recorded:
                assert sender.resume() == 1
                # not sent at once: its whole undo window again, and it can still be undone
                assert left and 0 < left[0] <= 2.5
                assert 0 < store.held_bulks()[0].due_at - time.time() <= 2.5
            _bulk, results = recorded.args
            assert {r.status.value for r in results.results} == {"accepted"}
            assert store.held_bulks() == []
            sender.timer.stop()
    finally:
        server.stop()
