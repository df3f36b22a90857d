"""The Decide together dialog with many posts (offscreen, no service): recording a bulk of
1,000 posts refills the choices once, not once a row (each refill rescans every row: 1,000
posts froze the window for most of a minute); more than 1,000 checked posts are said and
cannot be sent, and a request the protocol refuses is said, not lost in a Qt callback."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from reviewer_app.core.bulk import Candidate, new_request
from reviewer_app.core.store import Store
from reviewer_app.protocol import Queue, QueueFile
from reviewer_app.protocol.bulk_decisions import MAX_BULK_ITEMS, BulkDecisionResults
from reviewer_app.protocol.queues import QueueCounts
from reviewer_app.protocol.verdicts import VerdictResult, VerdictStatus
from reviewer_app.ui.lead.bulk import BulkDecisionDialog, BulkSender
from tests.support.enforcement import queue_file


def queues() -> list[Queue]:
    document = QueueFile.model_validate(queue_file())
    counts = QueueCounts(pending=0, leased=0, decided_today=0)
    return [Queue(id=q.id, name=q.name, config=q.config, counts=counts) for q in document.queues]


def dialog(qtbot: QtBot, tmp_path: Path, n: int) -> tuple[BulkDecisionDialog, Store]:
    store = Store(str(tmp_path / "desk.sqlite3"), key=os.urandom(32))
    sender = BulkSender(store, lambda: None)  # type: ignore[arg-type,return-value]
    candidates = [Candidate(f"i-{k:020d}", "misinfo", f"post {k}", "@a") for k in range(n)]
    made = BulkDecisionDialog(candidates, queues(), sender)
    qtbot.addWidget(made)
    return made, store


def test_recording_a_thousand_posts_refills_the_choices_once(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    made, store = dialog(qtbot, tmp_path, MAX_BULK_ITEMS)
    made.choose("keep", note="wave")
    request = new_request(made.checked(), "keep", at=time.time())
    made.bulk_id, made.last_request = "b1", request
    refills = []
    real = made._refill_choices
    monkeypatch.setattr(made, "_refill_choices", lambda: (refills.append(1), real())[1])
    results = BulkDecisionResults(
        results=[
            VerdictResult(
                idempotency_key=i.idempotency_key, item_id=i.item_id, status=VerdictStatus.accepted
            )
            for i in request.items
        ],
        queue_ids=["misinfo"],
    )
    made._on_sender_recorded("b1", results)
    assert len(refills) <= 1, f"{len(refills)} refills for {MAX_BULK_ITEMS} rows"
    assert made.checked() == []
    assert "1,000 decisions recorded" in made.status.text()

    refills.clear()
    made.set_checked([f"i-{k:020d}" for k in range(10)])
    assert len(refills) <= 1
    store.close()


def test_more_than_a_thousand_checked_posts_are_said_and_not_sent(
    qtbot: QtBot, tmp_path: Path
) -> None:
    made, store = dialog(qtbot, tmp_path, MAX_BULK_ITEMS + 1)
    made.choose("keep", note="wave")
    assert not made.decide.isEnabled()
    assert "At most 1,000 posts" in made.status.text()
    assert "Uncheck 1 of them" in made.status.text()
    made._decide()  # even if asked (a stale button): said, nothing held, nothing raised
    assert "Nothing was decided" in made.status.text()
    assert store.held_bulks() == []
    made.set_checked([c.item_id for c in made.candidates[:MAX_BULK_ITEMS]])
    assert made.decide.isEnabled()
    assert "At most" not in made.status.text()
    store.close()
