"""A long shift: decide many posts through the real review window, with sync running.

Run as its own process (``python -m tests.soak.soak_run --decisions 30000``) so that a
crash (such as PySide6's reference-count crash, STYLE.md) is a failed exit, not a dead test
session. The service runs as another process on a SQLite file seeded here first; the window
(offscreen unless a display is given) is the product's own: ``open_window`` with a session,
its sync engine and ``MainWindow``. Each decision is the verdict key "1" sent to the focused
widget the moment the previous post is painted; the time from the key to the first paint of
the next post is recorded (only when a post was ready, so a queue momentarily empty is not
counted as latency), with the GUI thread's CPU time over the same span and over the key's
own handling, and the CPU time of a fixed reference work run after each paint (what the
machine made of this thread's time then). Prints one JSON line: p50/p99 of each of the
four in the first window, the baseline window (after the warm-up, whose keypresses are
cheaper) and the last one; the GUI thread's CPU per keypress for every window; RSS at
decision 1,000 and at the end; and the count of decisions the server holds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

MARK = "SOAK-RESULT "
PASSWORD = "soak-password-not-secret"
USER = "soak-reviewer"


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


#: the fixed work ``reference`` does: about what a keypress does in Python (a post's worth of
#: JSON parsed and written, a dict and a list built), with no state that grows
REFERENCE_PAYLOAD = json.dumps(
    {"items": [{"id": f"item-{n}", "text": "word " * 60, "scores": [0.5] * 8} for n in range(6)]}
)


def reference() -> float:
    """The GUI thread's CPU time, in ms, of the same fixed work every time: measured beside
    every keypress, so that a window in which the machine runs this thread slower (another
    job on the core's sibling, a lower clock) is told from work per keypress that grew."""
    started = time.thread_time()
    for _ in range(3):
        parsed = json.loads(REFERENCE_PAYLOAD)
        json.dumps({item["id"]: sorted(item["scores"]) for item in parsed["items"]})
    return (time.thread_time() - started) * 1000


def seed(url: str, count: int) -> None:
    from reviewer_app.protocol import UserCreate
    from reviewer_app.server.config import ServerSettings
    from reviewer_app.server.feeds.seed import seed_load_queue
    from reviewer_app.server.service import Service

    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        service.create_user(UserCreate(username=USER, password=PASSWORD))
        seed_load_queue(service, count)
    finally:
        service.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=30_000)
    parser.add_argument("--window", type=int, default=1_000, help="decisions per window")
    parser.add_argument(
        "--warm-up",
        type=int,
        default=500,
        help="decisions before the baseline window (the first few hundred are cheaper)",
    )
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

    from PySide6.QtCore import QSettings, Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from reviewer_app.core.api import ApiClient
    from reviewer_app.core.credentials import Credentials
    from reviewer_app.core.paths import store_path
    from reviewer_app.core.session import ReviewSession
    from reviewer_app.core.store import Store
    from reviewer_app.server.feeds.seed import LOAD_QUEUE
    from reviewer_app.ui import preferences as P
    from reviewer_app.ui.app import application, close_session, open_window
    from tests.support.keyring_memory import MemoryKeyring
    from tests.support.servers import ServerProcess

    folder = args.dir or Path(tempfile.mkdtemp(prefix="soak-"))
    url = f"sqlite:///{folder / 'server.db'}"
    seed(url, args.decisions + 500)
    server = ServerProcess(url, log=folder / "server.log").start()
    app = application()
    assert isinstance(app, QApplication)
    latencies: list[float] = []
    cpu: list[float] = []  # the GUI thread's own CPU time over the same span
    key_cpu: list[float] = []  # and over the key's own handling, without the paint
    ref_cpu: list[float] = []  # and the fixed reference work's, run after each paint
    rss_at: dict[int, float] = {}
    painted: list[tuple[float, float]] = []
    try:
        credentials = Credentials(MemoryKeyring())
        result, token = ReviewSession.log_in(server.url, USER, PASSWORD, credentials=credentials)
        with Store(store_path(server.url, USER, folder / "client")) as store:
            store.settings.set("undo_window_seconds", 1.0)
        prefs = P.Preferences(QSettings(str(folder / "ui.ini"), QSettings.Format.IniFormat))
        window = open_window(
            server.url,
            result,
            token,
            credentials=credentials,
            prefs=prefs,
            data_root=folder / "client",
        )
        window.review.guard_seconds = 0.0
        window.post.text.first_painted.connect(
            lambda: painted.append((time.perf_counter(), time.thread_time()))
        )
        window.show()
        window.activateWindow()

        def pump_until(condition: object, timeout: float) -> bool:
            deadline = time.monotonic() + timeout
            while not condition():  # type: ignore[operator]
                if time.monotonic() > deadline:
                    return False
                app.processEvents()
                time.sleep(0.0005)
            return True

        row = window.queues.row_of(LOAD_QUEUE.id)
        pump_until(lambda: window.queues.row_of(LOAD_QUEUE.id) >= 0, 30)
        window.queue_picker.setCurrentIndex(window.queues.row_of(LOAD_QUEUE.id))
        del row
        started = time.monotonic()
        for n in range(args.decisions):
            if not pump_until(lambda: window.review.current is not None, 60):
                raise RuntimeError(f"no post to review after {n} decisions")
            current = window.review.current
            assert current is not None
            before = len(painted)
            target = QApplication.focusWidget() or window
            pressed, pressed_cpu = time.perf_counter(), time.thread_time()
            QTest.keyClick(target, Qt.Key.Key_1)
            handled_cpu = time.thread_time()
            if window.review.current is current:
                raise RuntimeError(f"decision {n} was not recorded")
            if window.review.current is not None:
                if not pump_until(lambda b=before: len(painted) > b, 10):
                    raise RuntimeError(f"the post after decision {n} was never painted")
                latencies.append((painted[-1][0] - pressed) * 1000)
                cpu.append((painted[-1][1] - pressed_cpu) * 1000)
                key_cpu.append((handled_cpu - pressed_cpu) * 1000)
                ref_cpu.append(reference())
            if n + 1 == args.window:
                rss_at[n + 1] = rss_mb()
        rss_at[args.decisions] = rss_mb()
        pump_until(lambda: window.store.pending_count() == 0, 120)
        elapsed = time.monotonic() - started
        close_session(window)
        window.close()
        with ApiClient(server.url) as api:
            api.login(USER, PASSWORD)
            queue = next(q for q in api.queues().queues if q.id == LOAD_QUEUE.id)
        w = args.window
        out = {
            "decisions": args.decisions,
            "measured": len(latencies),
            "seconds": round(elapsed, 1),
            "load_average": os.getloadavg(),
            **{
                window + suffix: {
                    "p50": statistics.median(values[span]),
                    "p99": percentile(values[span], 99),
                }
                for window, span in (
                    ("first", slice(0, w)),
                    ("baseline", slice(args.warm_up, args.warm_up + w)),
                    ("last", slice(-w, None)),
                )
                for suffix, values in (
                    ("", latencies),
                    ("_cpu", cpu),
                    ("_key_cpu", key_cpu),
                    ("_ref_cpu", ref_cpu),
                )
            },
            "windows_cpu": [
                {"p50": round(statistics.median(part), 2), "p99": round(percentile(part, 99), 2)}
                for part in (cpu[i : i + w] for i in range(0, len(cpu), w))
            ],
            "rss_mb": {str(k): round(v, 1) for k, v in rss_at.items()},
            "decided_today_on_server": queue.counts.decided_today,
        }
        print(MARK + json.dumps(out), flush=True)
        return 0
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
