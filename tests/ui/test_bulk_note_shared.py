"""The Decide together dialog in a queue that shares notes (offscreen, no service): the
note of a restrictive action goes into every author's statement of reasons and the public
DSA export, so the dialog says so and shows what the author will read (as the verdict bar
does), and asks with it; in a queue that keeps notes internal, or for an action that
restricts nothing, it does not."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from reviewer_app.core.bulk import Candidate
from reviewer_app.core.store import Store
from reviewer_app.protocol import Queue
from reviewer_app.ui.lead.bulk import BulkDecisionDialog, BulkSender
from tests.ui.test_bulk_dialog_limits import queues

NOTE = "Ring run by Jane Doe, see ticket SEC-4411"


def sharing(queue_id: str) -> list[Queue]:
    return [
        q.model_copy(
            update={"config": q.config.model_copy(update={"notes_shareable": q.id == queue_id})}
        )
        for q in queues()
    ]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store(str(tmp_path / "desk.sqlite3"), key=os.urandom(32)) as opened:
        yield opened


def dialog(qtbot: QtBot, store: Store, listed: list[Queue]) -> BulkDecisionDialog:
    sender = BulkSender(store, lambda: None)  # type: ignore[arg-type,return-value]
    candidates = [Candidate(f"i-{k:020d}", "misinfo", f"post {k}", "@a") for k in range(3)]
    made = BulkDecisionDialog(candidates, listed, sender)
    qtbot.addWidget(made)
    made.show()
    return made


def test_a_shared_note_is_said_published_with_what_the_author_reads(
    qtbot: QtBot, store: Store
) -> None:
    made = dialog(qtbot, store, sharing("misinfo"))
    made.choose("remove", policies=["MISINFO.CIVIC"], note=NOTE)
    assert made.shared.isVisible() and made.statement.isVisible()
    said = made.shared.text()
    assert "Transparency Database" in said and "every post" in said, said
    preview = made.statement.toPlainText()
    assert NOTE in preview, preview
    assert "removed your post" in preview, preview
    made.note.setText("another reason")  # follows the note as it is typed
    assert "another reason" in made.statement.toPlainText()
    made._on_decide_clicked()
    assert made.confirmation is not None
    assert "Transparency Database" in made.confirmation.informativeText()
    made.confirmation.reject()

    made.choose("keep", note=NOTE)  # restricts nothing: no statement, nothing published
    assert not made.shared.isVisible() and not made.statement.isVisible()


def test_a_note_kept_internal_shows_no_warning(qtbot: QtBot, store: Store) -> None:
    made = dialog(qtbot, store, sharing("nothing"))
    made.choose("remove", policies=["MISINFO.CIVIC"], note=NOTE)
    assert not made.shared.isVisible() and not made.statement.isVisible()
