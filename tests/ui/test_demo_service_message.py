"""The demo's service that stopped on a failure: the window names the cause in the
service's own words (it said only the exit code, and that the words were in a terminal)."""

from __future__ import annotations

from reviewer_app.core.errors import LocalServiceFailed
from reviewer_app.ui import messages as M
from reviewer_app.ui.plain import isolate


def test_the_reason_the_demos_service_gave_is_shown() -> None:
    failed = LocalServiceFailed(exit_code=1, reason="database or disk is full")
    text = M.describe(failed).text()
    # in its own words, isolated as every string from outside the app (a path in it may
    # hold direction controls)
    assert f"The demo's service stopped: {isolate('database or disk is full')}" in text
    assert "exit code" not in text


def test_without_a_reason_the_exit_code_is_shown_as_before() -> None:
    text = M.describe(LocalServiceFailed(exit_code=-6)).text()
    assert "exit code -6" in text
