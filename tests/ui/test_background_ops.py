"""Ops on the real global QThreadPool: cancel, stale results, an owner destroyed, progress,
failure. The work waits on events the test sets, so each case is decided by the order the
test imposes, not by timing."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from PySide6.QtCore import QObject, QThreadPool
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from reviewer_app.ui.background import Op, _current, _live, run_op

WAIT = 5_000  # ms


class Seen:
    def __init__(self) -> None:
        self.successes: list[Any] = []
        self.failures: list[BaseException] = []
        self.progress: list[Any] = []


def drained(qtbot: QtBot) -> None:
    """Every op's work ended and its signals were handled on this thread."""
    assert QThreadPool.globalInstance().waitForDone(WAIT)
    qtbot.waitUntil(lambda: not _live, timeout=WAIT)


def test_a_result_reaches_the_gui_thread(qtbot: QtBot) -> None:
    owner = QWidget()
    seen = Seen()
    threads: list[threading.Thread] = []

    def work() -> int:
        threads.append(threading.current_thread())
        return 42

    def success(value: int) -> None:
        assert threading.current_thread() is threading.main_thread()
        seen.successes.append(value)

    run_op(owner, work, success, seen.failures.append)
    qtbot.waitUntil(lambda: seen.successes == [42], timeout=WAIT)
    assert threads and threads[0] is not threading.main_thread()
    drained(qtbot)
    owner.deleteLater()


def test_a_failure_goes_to_the_failure_callback(qtbot: QtBot) -> None:
    owner = QWidget()
    seen = Seen()

    def work() -> None:
        raise ValueError("refused")

    run_op(owner, work, seen.successes.append, seen.failures.append)
    qtbot.waitUntil(lambda: len(seen.failures) == 1, timeout=WAIT)
    assert isinstance(seen.failures[0], ValueError)
    assert str(seen.failures[0]) == "refused"
    assert seen.successes == []
    drained(qtbot)
    owner.deleteLater()


@pytest.mark.parametrize("outcome", ["succeeds", "fails"])
def test_a_cancelled_op_delivers_nothing(qtbot: QtBot, outcome: str) -> None:
    owner = QWidget()
    seen = Seen()
    started, go = threading.Event(), threading.Event()
    flag_seen: list[bool] = []
    op = Op(owner, success=seen.successes.append, failure=seen.failures.append)

    def work() -> str:
        started.set()
        assert go.wait(WAIT / 1000)
        flag_seen.append(op.cancelled)
        if outcome == "fails":
            raise RuntimeError("late")
        return "late"

    op.run(work)
    assert started.wait(WAIT / 1000)
    op.cancel()
    go.set()
    drained(qtbot)
    assert flag_seen == [True]  # the work could see it and stop early
    assert seen.successes == [] and seen.failures == []
    owner.deleteLater()


@pytest.fixture
def four_threads() -> Any:
    """Room on the pool for the ops one test holds at once (a 2-core machine has 2)."""
    pool = QThreadPool.globalInstance()
    before = pool.maxThreadCount()
    pool.setMaxThreadCount(max(before, 4))
    yield
    pool.setMaxThreadCount(before)


@pytest.mark.usefixtures("four_threads")
def test_only_the_newest_op_of_a_key_is_delivered(qtbot: QtBot) -> None:
    owner = QWidget()
    seen = Seen()
    gates = [threading.Event() for _ in range(3)]

    def work(n: int) -> int:
        assert gates[n].wait(WAIT / 1000)
        return n

    ops = [
        run_op(owner, lambda n=n: work(n), seen.successes.append, seen.failures.append, key="page")
        for n in range(3)
    ]
    other = run_op(owner, lambda: "other key", seen.successes.append, seen.failures.append)
    # the newest ends first, the older ones after it: none of theirs may land over it
    gates[2].set()
    qtbot.waitUntil(lambda: 2 in seen.successes, timeout=WAIT)
    gates[0].set()
    gates[1].set()
    drained(qtbot)
    assert sorted(seen.successes, key=str) == [2, "other key"]
    assert [op.cancelled for op in ops] == [True, True, False]
    assert not other.cancelled
    assert (id(owner), "page") not in _current  # nothing left behind
    owner.deleteLater()


def test_the_same_key_on_another_owner_is_not_stale(qtbot: QtBot) -> None:
    first, second = QWidget(), QWidget()
    seen = Seen()
    run_op(first, lambda: "first", seen.successes.append, seen.failures.append, key="k")
    run_op(second, lambda: "second", seen.successes.append, seen.failures.append, key="k")
    drained(qtbot)
    assert sorted(seen.successes) == ["first", "second"]
    first.deleteLater()
    second.deleteLater()


def test_an_op_whose_owner_is_destroyed_delivers_nothing(qtbot: QtBot) -> None:
    seen = Seen()
    for outcome in ("succeeds", "fails", "reports"):
        owner = QWidget()
        started, go = threading.Event(), threading.Event()
        op = Op(
            owner,
            success=seen.successes.append,
            failure=seen.failures.append,
            progress=seen.progress.append,
        )

        def work(
            outcome: str = outcome,
            op: Op = op,
            started: threading.Event = started,
            go: threading.Event = go,
        ) -> str:
            started.set()
            assert go.wait(WAIT / 1000)
            if outcome == "reports":
                op.report(1)
            if outcome == "fails":
                raise RuntimeError("gone")
            return "gone"

        op.run(work)
        assert started.wait(WAIT / 1000)
        owner.deleteLater()
        qtbot.waitUntil(lambda op=op: op.cancelled, timeout=WAIT)  # destroyed: the op knows
        go.set()
        drained(qtbot)
    assert seen.successes == [] and seen.failures == [] and seen.progress == []


def test_an_op_keeps_a_python_owned_owner_until_it_ends(qtbot: QtBot) -> None:
    """A parentless QObject owner dropped by the caller: the op holds it, then delivers."""
    seen = Seen()
    go = threading.Event()
    owner: QObject | None = QObject()
    assert owner is not None
    run_op(owner, lambda: go.wait(WAIT / 1000), seen.successes.append, seen.failures.append)
    owner = None  # the op holds the Python wrapper; the C++ object stays until then
    go.set()
    drained(qtbot)
    assert seen.successes == [True]


def test_progress_is_relayed_to_the_gui_thread_newest_last(qtbot: QtBot) -> None:
    owner = QWidget()
    seen = Seen()
    on_gui: list[bool] = []
    step = threading.Event()
    took = threading.Event()

    def progress(value: int) -> None:
        on_gui.append(threading.current_thread() is threading.main_thread())
        seen.progress.append(value)
        took.set()

    op = Op(owner, success=seen.successes.append, failure=seen.failures.append, progress=progress)

    def work() -> str:
        for n in (1, 2, 3):  # one at a time: each waits for the GUI thread to take it
            took.clear()
            op.report(n)
            assert took.wait(WAIT / 1000)
        assert step.wait(WAIT / 1000)
        for n in range(4, 2_004):  # a flood: coalesced, the newest always arrives
            op.report(n)
        return "done"

    op.run(work)
    qtbot.waitUntil(lambda: seen.progress[:3] == [1, 2, 3], timeout=WAIT)
    step.set()
    qtbot.waitUntil(lambda: seen.successes == ["done"], timeout=WAIT)
    drained(qtbot)
    assert all(on_gui)
    assert seen.progress[-1] == 2_003
    assert seen.progress == sorted(seen.progress)
    assert len(seen.progress) <= 2_003
    owner.deleteLater()


def test_no_progress_after_cancel(qtbot: QtBot) -> None:
    owner = QWidget()
    seen = Seen()
    go = threading.Event()
    op = Op(
        owner,
        success=seen.successes.append,
        failure=seen.failures.append,
        progress=seen.progress.append,
    )

    def work() -> None:
        assert go.wait(WAIT / 1000)
        op.report(7)

    op.run(work)
    op.cancel()
    go.set()
    drained(qtbot)
    assert seen.progress == [] and seen.successes == []
    owner.deleteLater()


def test_a_stopped_op_still_delivers_how_it_ended(qtbot: QtBot) -> None:
    owner = QWidget()
    seen = Seen()
    started, go = threading.Event(), threading.Event()
    op = Op(owner, success=seen.successes.append, failure=seen.failures.append)

    def work() -> None:
        started.set()
        assert go.wait(WAIT / 1000)
        if op.cancelled:
            raise InterruptedError("stopped after 3")

    op.run(work)
    assert started.wait(WAIT / 1000)
    op.stop()
    go.set()
    qtbot.waitUntil(lambda: len(seen.failures) == 1, timeout=WAIT)
    assert str(seen.failures[0]) == "stopped after 3"
    drained(qtbot)
    owner.deleteLater()
