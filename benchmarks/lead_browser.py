"""The Lead workspace's decisions browser scrolling through a million decisions: does the
GUI thread ever stall?

Loads ``--decisions`` decisions with lead_stats' bulk loader (a fresh SQLite database in a
temp dir), starts ``reviewer-app server`` as its own process, opens the DecisionsBrowser
(real widgets: run it under ``xvfb-run``, or with ``QT_QPA_PLATFORM=offscreen``) and
scrolls the table from the top, driven by a 16 ms QTimer (a 60 Hz "frame"):

1. page-down steps: one screen per frame, through ``--rows`` rows;
2. scroll bar drags: ``--drag-screens`` screens per frame, through ``--rows`` more rows
   (this outruns the network, so it also shows how long the view waits at the end).

Meanwhile it measures the GUI thread:

- a 1 ms heartbeat QTimer: the gaps between its ticks (p50 / p99 / max);
- each paint of the table (``paintEvent``: every visible cell's ``data()`` and the text);
- each ``fetchMore`` call and each page insertion (``beginInsertRows`` … ``endInsertRows``).

Prints the figures; asserts nothing. Target: no stall over 16 ms.

    xvfb-run -a python benchmarks/lead_browser.py
    QT_QPA_PLATFORM=offscreen python benchmarks/lead_browser.py --decisions 100000
"""

from __future__ import annotations

import argparse
import gc
import itertools
import multiprocessing
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from common import code_version, filesystem_of, percentile  # benchmarks/common.py
from lead_stats import PASSWORD, bench_database, load, server  # the same fast loader
from PySide6.QtCore import QEventLoop, Qt, QThreadPool, QTimer
from PySide6.QtWidgets import QApplication

from reviewer_app.core.api import ApiClient
from reviewer_app.ui.app import application
from reviewer_app.ui.lead.decisions import DecisionsBrowser

FRAME_MS = 16


@dataclass
class Probe:
    """What the GUI thread did, in milliseconds."""

    beats: list[float] = field(default_factory=list)  # heartbeat tick times (s)
    paints: list[float] = field(default_factory=list)  # the table's paintEvent (data() too)
    fetch_calls: list[float] = field(default_factory=list)
    insertions: list[float] = field(default_factory=list)
    collections: list[tuple[int, float]] = field(default_factory=list)  # (generation, ms)
    _gc_began: float = 0.0

    def gaps(self) -> list[float]:
        return [(b - a) * 1000 for a, b in itertools.pairwise(self.beats)]

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        """gc.callbacks: the cyclic collector stops every thread while it runs (any thread
        can trigger it, and the GUI thread waits for the GIL meanwhile)."""
        if phase == "start":
            self._gc_began = time.perf_counter()
        else:
            spent = (time.perf_counter() - self._gc_began) * 1000
            self.collections.append((info["generation"], spent))

    def reset(self) -> None:
        self.beats.clear()
        self.paints.clear()
        self.fetch_calls.clear()
        self.insertions.clear()
        self.collections.clear()


def timed(spent: list[float], fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any) -> Any:
        began = time.perf_counter()
        try:
            return fn(*args)
        finally:
            spent.append((time.perf_counter() - began) * 1000)

    return wrapper


def wait_until(app: QApplication, condition: Callable[[], bool], timeout: float) -> None:
    """Run the event loop (a real one: it blocks between events) until ``condition``."""
    loop = QEventLoop()
    deadline = time.monotonic() + timeout
    failed = False

    def check() -> None:
        nonlocal failed
        if condition():
            loop.quit()
        elif time.monotonic() > deadline:
            failed = True
            loop.quit()

    poll = QTimer()
    poll.setInterval(5)
    poll.timeout.connect(check)
    poll.start()
    if not condition():
        loop.exec()
    poll.stop()
    if failed:
        raise TimeoutError("the browser did not get there in time")


@dataclass
class Phase:
    name: str
    rows: int
    seconds: float
    frames: int
    waiting_frames: int
    gaps: list[float]
    paints: list[float]
    fetch_calls: list[float]
    insertions: list[float]
    collections: list[tuple[int, float]]


def scroll(
    app: QApplication,
    browser: DecisionsBrowser,
    probe: Probe,
    *,
    name: str,
    rows: int,
    screens: int,
    timeout: float,
) -> Phase:
    """Scroll ``screens`` screens a frame until the top visible row has moved ``rows``."""
    table, bar = browser.table, browser.table.verticalScrollBar()
    start_row = max(0, table.rowAt(0))
    goal = start_row + rows
    frames = waiting = 0
    done = False

    def frame() -> None:
        nonlocal frames, waiting, done
        frames += 1
        if max(0, table.rowAt(0)) >= goal:
            done = True
            return
        if bar.value() >= bar.maximum():
            waiting += 1  # at the end of what has arrived: the next page is on its way
        bar.setValue(min(bar.maximum(), bar.value() + bar.pageStep() * screens))

    driver = QTimer()
    driver.setTimerType(Qt.TimerType.PreciseTimer)
    driver.setInterval(FRAME_MS)
    driver.timeout.connect(frame)
    probe.reset()
    began = time.perf_counter()
    driver.start()
    wait_until(app, lambda: done, timeout)
    seconds = time.perf_counter() - began
    driver.stop()
    moved = max(0, table.rowAt(0)) - start_row
    return Phase(
        name,
        moved,
        seconds,
        frames,
        waiting,
        probe.gaps(),
        list(probe.paints),
        list(probe.fetch_calls),
        list(probe.insertions),
        list(probe.collections),
    )


def stats(values: list[float]) -> str:
    if not values:
        return f"{'-':>8} {'-':>8} {'-':>8} {0:>6}"
    return (
        f"{percentile(values, 50):>8.2f} {percentile(values, 99):>8.2f} "
        f"{max(values):>8.2f} {len(values):>6}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=1_000_000)
    parser.add_argument("--reviewers", type=int, default=60)
    parser.add_argument("--days", type=float, default=30.0)
    parser.add_argument("--rows", type=int, default=20_000, help="rows scrolled per phase")
    parser.add_argument("--drag-screens", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() once the browser is open (what an app can do after start-up)",
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="sys.setswitchinterval for this process (default: the app's own choice)",
    )
    args = parser.parse_args()

    app = application()  # the app's own settings (GIL switch interval, image limit)
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval)
    now = time.time()
    with bench_database(None, keep=False) as url:
        # loaded in a child process: this one should hold what the app holds, not the
        # loader's objects (they would make every full garbage collection here longer)
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            timings = pool.apply(load, (url, args.decisions, args.reviewers, args.days, now))
        with server(url) as base:
            with ApiClient(base) as login:
                token = login.login("bench-lead", PASSWORD).token

            shared = ApiClient(base, token=token)  # the workspace's one client

            def factory() -> ApiClient:
                return shared

            probe = Probe()
            gc.callbacks.append(probe.on_gc)
            heartbeat = QTimer()
            heartbeat.setTimerType(Qt.TimerType.PreciseTimer)
            heartbeat.setInterval(1)
            heartbeat.timeout.connect(lambda: probe.beats.append(time.perf_counter()))

            browser = DecisionsBrowser(factory)
            model = browser.model
            model.fetchMore = timed(probe.fetch_calls, model.fetchMore)  # type: ignore[method-assign]
            model._on_page_arrived = timed(probe.insertions, model._on_page_arrived)  # type: ignore[method-assign]
            # the view's paint: every visible cell's data() for seven roles, and the text
            browser.table.paintEvent = timed(probe.paints, browser.table.paintEvent)  # type: ignore[method-assign]
            browser.resize(1280, 800)
            browser.show()
            opened = time.perf_counter()
            wait_until(app, lambda: model.rowCount() > 0 and not model.loading, 60)
            first_page = time.perf_counter() - opened
            settled = time.monotonic() + 0.5  # let the first layout and paint settle
            wait_until(app, lambda: time.monotonic() > settled, 5)
            if args.gc_freeze:
                gc.collect()
                gc.freeze()
            heartbeat.start()
            phases = [
                scroll(
                    app,
                    browser,
                    probe,
                    name="page-down, 1 screen a frame",
                    rows=args.rows,
                    screens=1,
                    timeout=args.timeout,
                ),
                scroll(
                    app,
                    browser,
                    probe,
                    name=f"drag, {args.drag_screens} screens a frame",
                    rows=args.rows,
                    screens=args.drag_screens,
                    timeout=args.timeout,
                ),
            ]
            heartbeat.stop()
            visible = browser.table.rowAt(browser.table.viewport().height() - 1) - max(
                0, browser.table.rowAt(0)
            )
            loaded = model.rowCount()
            browser.shutdown()
            browser.close()
            QThreadPool.globalInstance().waitForDone(30_000)

    print()
    print(
        f"lead_browser benchmark, code {code_version()}, sqlite "
        f"({filesystem_of(Path(tempfile.gettempdir()))} temp dir), "
        f"Qt platform {app.platformName()}"
    )
    print(f"{args.decisions:,} decisions over {args.days:g} days, {args.reviewers} reviewers")
    for name, seconds in timings.items():
        print(f"  load: {name:<28} {seconds:8.1f} s")
    print(
        f"first page on screen {first_page * 1000:.0f} ms after the browser opened; "
        f"{visible + 1} rows visible; {loaded:,} rows loaded at the end"
    )
    for phase in phases:
        rate = phase.rows / phase.seconds if phase.seconds else 0.0
        print()
        print(
            f"{phase.name}: {phase.rows:,} rows in {phase.seconds:.1f} s = {rate:,.0f} rows/s; "
            f"{phase.frames} frames, {phase.waiting_frames} at the end of the loaded rows"
        )
        print(f"  {'GUI thread, ms':<34} {'p50':>8} {'p99':>8} {'max':>8} {'count':>6}")
        print(f"  {'1 ms heartbeat gap':<34} {stats(phase.gaps)}")
        print(f"  {'table paint (data() included)':<34} {stats(phase.paints)}")
        print(f"  {'fetchMore call':<34} {stats(phase.fetch_calls)}")
        insertion = f"page insertion ({model.page_size} rows)"
        print(f"  {insertion:<34} {stats(phase.insertions)}")
        for generation in (0, 1, 2):
            spent = [ms for g, ms in phase.collections if g == generation]
            print(f"  {f'gc collection, generation {generation}':<34} {stats(spent)}")
        over = sum(1 for g in phase.gaps if g > 16.0)
        print(f"  heartbeat gaps over 16 ms: {over}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
