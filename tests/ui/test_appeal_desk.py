"""An appeal in the reviewer's window (real service over HTTP, offscreen): above the post,
the contested decision (action, policies, who and when, their note) and what the user
wrote, as plain text; the post and its context are the item the original reviewer saw; one
key reverses the decision and the platform is told to restore the post."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QPlainTextEdit

from reviewer_app.protocol import ReviewerStatsReport, Role
from reviewer_app.ui.lead.stats_views import ReviewerStatsModel, share
from reviewer_app.ui.plain import isolate
from tests.support.api import ApiSession, claim, verdict
from tests.support.appeals import APPEALS, appeal, appeals_server
from tests.support.enforcement import read_all
from tests.support.intake import MISINFO, classifier, key_session, post, send
from tests.support.servers import PASSWORD, LiveServer
from tests.ui.conftest import LEAD, REVIEWER, Desk

ALL_TIME = {"since": "2000-01-01T00:00:00Z", "until": "2999-01-01T00:00:00Z"}
STATEMENT = (
    "<b>Not bold</b> &amp; <a href='https://evil.example'>not a link</a>\nSecond line.\n"
    "\u202eThis is reversed\u202c"
)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    people = [(*REVIEWER, Role.reviewer), (*LEAD, Role.lead), ("rita", PASSWORD, Role.reviewer)]
    server = appeals_server(f"sqlite:///{tmp_path / 'appeals.db'}", people=people)
    try:
        yield server
    finally:
        server.stop()


def test_the_reviewer_reads_the_appeal_above_the_post_and_reverses_it(
    server: LiveServer, desk_factory: Callable[..., Desk]
) -> None:
    platform = key_session(server, "feed-bridge")
    send(platform, "posts", [post("p-appealed", "Polls close at noon on Thursday.")])
    send(platform, "signals", [classifier("p-appealed", 0.95)])
    rita = ApiSession.login(server.url, "rita", PASSWORD)
    [leased] = claim(rita, MISINFO, 1)
    [removed] = rita.decide(
        [verdict(leased, "remove", policies=["MISINFO.CIVIC"], note="Wrong polling date.")]
    )
    assert removed["status"] == "accepted"
    [sent] = send(platform, "appeals", [appeal("p-appealed", statement=STATEMENT, appeal_id="a-1")])
    assert sent["status"] == "created"

    desk = desk_factory(server.url, queue=APPEALS)
    window = desk.window
    assert desk.current_id() == leased["item"]["id"], "the same item the original reviewer saw"
    box = window.post.findChild(QPlainTextEdit, "appealBox")
    assert box is not None and box.isVisible()
    shown = box.toPlainText()
    # names and notes from the wire are isolated (FSI…PDI) inside the app's words
    assert f"Appeal {isolate('a-1')} of the decision on this post" in shown
    assert f"Contested: remove MISINFO.CIVIC by {isolate('rita')}" in shown
    assert f"Reviewer's note: {isolate('Wrong polling date.')}" in shown
    assert "<b>Not bold</b> &amp; <a href='https://evil.example'>not a link</a>" in shown
    assert "Second line." in shown
    # a direction override in the user's words is a marker, not a line reversed unseen
    assert "⟦U+202E⟧This is reversed⟦U+202C⟧" in shown and "\u202e" not in shown
    assert "Polls close at noon" in window.post.text.toPlainText()
    # the statement of reasons rita's removal gave the user, as the platform received it
    [given] = [
        st
        for st in window.review.current.item.statements
        if st.decision_id == removed["decision"]["id"]
    ]
    assert "The statement of reasons the user was given:" in shown
    assert given.text.strip() and given.text.strip().splitlines()[0] in shown
    # the statement is text: no rich text or link was made of it
    assert box.document().toRawText().count("<b>") == 1
    assert not box.document().toHtml().count("<a href")
    history = window.context.text_of("History")
    assert "appealed by the user" in history

    # what the user will read if the appeal is reversed: the restriction lifted
    bar = window.verdicts
    bar.marked = "reverse"
    preview = bar.statement_text()
    assert "the decision is reversed and the restriction described below is lifted" in preview
    assert "Nothing more is needed from you" in preview
    bar.marked = None

    desk.press(Qt.Key.Key_2)  # reverse
    window.session.engine.nudge()
    lead = ApiSession.login(server.url, *LEAD)

    def outcome() -> str | None:
        item = lead.get(f"/items/{leased['item']['id']}").json()
        return item["appeal"]["outcome"] if item.get("appeal") else None

    desk.wait(lambda: outcome() == "reversed")
    server.service.seal_now()
    assert platform.token is not None
    kinds = [a["kind"] for a in read_all(server.url, platform.token)]
    assert kinds == ["remove", "restore"]

    # the lead's reviewer figures: rita's decision was reversed on appeal
    figures = lead.get("/stats/reviewers", params=ALL_TIME).json()
    model = ReviewerStatsModel()
    model.set_report(ReviewerStatsReport.model_validate(figures))
    row = next(r for r in range(model.rowCount()) if model.reviewers[r].reviewer == "rita")
    assert model.title(9) == "Appeals upheld / reversed"
    assert model.index(row, 9).data() == "0 / 1"
    assert model.index(row, 6).data() == share(1.0), "the reversal is an overturn"
