"""What the Decide together dialog says of a refused bulk (offscreen, no service): posts
decided or taken by someone else meanwhile are marked and unchecked; a refusal of the
request itself (a note the queue now requires, a retired queue, ...) is said in the
service's words and leaves the posts checked."""

from __future__ import annotations

import os
from pathlib import Path

from pytestqt.qtbot import QtBot

from reviewer_app.core.bulk import Candidate, Refusal, RefusedItem
from reviewer_app.core.store import Store
from reviewer_app.ui.lead.bulk import BulkDecisionDialog, BulkSender
from tests.ui.test_bulk_dialog_limits import queues

INVALID = "The action does not fit the decision config of 3 item(s); nothing was recorded."
REFUSED = "3 of 3 items cannot be decided now; nothing was recorded."


def refused_dialog(
    qtbot: QtBot, tmp_path: Path, said: Refusal
) -> tuple[BulkDecisionDialog, list[str]]:
    store = Store(str(tmp_path / "desk.sqlite3"), key=os.urandom(32))
    sender = BulkSender(store, lambda: None)  # type: ignore[arg-type,return-value]
    candidates = [Candidate(f"i-{k:020d}", "misinfo", f"post {k}", "@a") for k in range(3)]
    made = BulkDecisionDialog(candidates, queues(), sender)
    qtbot.addWidget(made)
    made.choose("keep")
    made.bulk_id = "b1"
    made._on_sender_refused("b1", said)
    reasons = [made._cell(row, 3).text() for row in range(3)]
    store.close()
    return made, reasons


def test_a_request_the_queue_no_longer_takes_is_said_so_and_keeps_the_checks(
    qtbot: QtBot, tmp_path: Path
) -> None:
    ids = [f"i-{k:020d}" for k in range(3)]
    said = Refusal(
        "verdict_invalid",
        INVALID,
        tuple(RefusedItem(i, "note_required", "This action needs a note.") for i in ids),
    )
    made, reasons = refused_dialog(qtbot, tmp_path, said)
    status = made.status.text()
    assert "someone else" not in status, status
    assert INVALID in status and "This action needs a note." in status, status
    assert [c.item_id for c in made.checked()] == ids
    assert all("This action needs a note." in r for r in reasons)
    assert made.refused_ids == set()
    assert made.decide.isEnabled()


def test_only_posts_taken_meanwhile_are_unchecked(qtbot: QtBot, tmp_path: Path) -> None:
    ids = [f"i-{k:020d}" for k in range(3)]
    said = Refusal(
        "bulk_refused",
        REFUSED,
        (
            RefusedItem(ids[0], "already_decided", "Decided meanwhile by rita: keep."),
            RefusedItem(ids[1], "leased_to_other", "Someone else holds it until 12:00."),
            RefusedItem(ids[2], "queue_closed", "Its queue is no longer open."),
        ),
    )
    made, reasons = refused_dialog(qtbot, tmp_path, said)
    status = made.status.text()
    assert [c.item_id for c in made.checked()] == [ids[2]]
    assert made.refused_ids == {ids[0], ids[1]}
    assert "Decided or taken by someone else meanwhile: 2 posts." in status, status
    assert "Its queue is no longer open." in status, status
    assert "Decided meanwhile by rita" in reasons[0] and "no longer open" in reasons[2]


def test_posts_taken_meanwhile_leave_the_rest_to_decide_again(qtbot: QtBot, tmp_path: Path) -> None:
    ids = [f"i-{k:020d}" for k in range(3)]
    said = Refusal(
        "bulk_refused",
        REFUSED,
        (RefusedItem(ids[1], "withdrawn", "Withdrawn by the platform."),),
    )
    made, _reasons = refused_dialog(qtbot, tmp_path, said)
    status = made.status.text()
    assert [c.item_id for c in made.checked()] == [ids[0], ids[2]]
    assert "someone else meanwhile: 1 post." in status and "decide the rest" in status, status
    assert "refused the request itself" not in status, status
