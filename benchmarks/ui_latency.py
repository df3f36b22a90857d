"""Figures of the desktop UI: keypress-to-next-post latency, demo startup and peak memory.

1. **Keypress to next post on screen**: the real review window (``open_window``: session,
   sync engine, ``MainWindow``) on a queue whose posts are 500, 5,000 or 50,000 characters
   long (100,000 is the contract's maximum). Each decision is a verdict key ("1", keep)
   delivered with ``QTest.keyClick`` to the focused widget; the clock starts just before it
   and stops when the window's repaint that painted the next item's text
   (``PostText.first_painted``) is over: every widget of that frame painted (the text's
   scroll bar, the labels and panes after it) and the window flushed. Until 2026-12-04 it
   stopped at the text's paint, before the rest of the frame; both are printed. p50/p99
   over ``--decisions`` decisions per case, with the service healthy and with ``--latency``
   (300 ms) added to every request by a TCP proxy. The doubled-key guard is set to 0;
   prefetch and the undo window keep the product's defaults unless ``--prefetch``/``--undo``
   say otherwise. Keys come at a reviewer-like but brisk pace (``--interval``, jittered), so
   the sync engine is busy refilling and delivering while the reviewer works. Targets: p99 <
   16 ms in every case; p99 with latency / p99 healthy < 1.2.
2. **Startup in demo mode**: ``python -m reviewer_app --demo`` in a fresh process with
   ``REVIEWER_APP_DATA_DIR`` (the demo database and the client store) and
   ``XDG_CONFIG_HOME`` in a temp dir, and ``REVIEWER_APP_STARTUP_PROBE=1``, which makes the
   app print the time of the first paint of a post and quit (``reviewer_app/ui/app.py``).
   Measured from just before the process is started. The first run seeds the demo
   database and writes the modules' bytecode caches (cold); the next ones find both
   (warm), as an installed app does. Target: warm < 1.5 s.
3. **Peak RSS** (VmHWM) of each UI process after its decisions.

A workstation is never idle: ``--load N`` keeps N busy-loop processes running for the
whole run (a browser, a call, a build beside the app; the targets hold with ``--load 1``
on the 2-core machine), and ``--slow-fsync MS`` adds MS milliseconds to every fsync and
fdatasync of the UI process (an ``LD_PRELOAD`` library built with ``cc``): a slow disk.
``--markdown`` keeps the run as the latest for its load and disk in
``benchmarks/results/ui_latency.json`` and rewrites the section of benchmarks/README.md.

Beside the figures it reports where the time went: the GUI thread's own CPU time per
keypress (wall time far above it is waiting for a core, the GIL or the disk) and from one
key to the next (all the key set off, after its frame too, and the app's timers), the sync
thread's CPU time meanwhile, the time in the main handlers (store reads and writes, the
post pane, scores, context tabs, worklist), Python GC pauses, and the requests the client
made. ``--trace-events`` times every Qt event between key and paint; ``--profile`` writes
a cProfile of the keypress path (both inflate the figures they explain).

Each case runs the window in its own process (this script with ``--ui-child``) so that
its memory figure is its own and nothing else shares its GIL. The service runs as its
own process (``python -m reviewer_app server``) on a SQLite file seeded beforehand; the
latency proxy (``tests/support/proxy.py``) runs in this driver process. Prints the
figures; asserts nothing.

    xvfb-run -a python benchmarks/ui_latency.py          # under X (Xvfb), ~15 minutes
    QT_QPA_PLATFORM=offscreen python benchmarks/ui_latency.py --quick
    python benchmarks/ui_latency.py --sizes 50000 --modes healthy --profile /tmp/ui-prof
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from common import (  # benchmarks/common.py
    code_version,
    filesystem_of,
    markdown_table,
    percentile,
    record_result,
    stored_results,
    write_page_section,
)

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "bench-password-not-secret"  # throwaway benchmark users
CHILD_MARK = "UI-LATENCY-RESULT "
PROBE_ENV = "REVIEWER_APP_STARTUP_PROBE"
SIZES = (500, 5_000, 50_000)
TARGET_P99_MS = 16.0
TARGET_RATIO = 1.2
TARGET_STARTUP_S = 1.5


# -- small helpers ------------------------------------------------------------------------


def memory_status() -> dict[str, float]:
    """VmRSS and VmHWM of this process in MB (Linux)."""
    out: dict[str, float] = {}
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            name, _, value = line.partition(":")
            if name in ("VmRSS", "VmHWM"):
                out[name] = round(int(value.split()[0]) / 1024, 1)
    return out


def default_folder() -> Path:
    """The system temp dir unless it lives in memory (then the current directory): the
    store's fsyncs are part of the keypress path and must cost what they cost on disk."""
    tmp = Path(tempfile.gettempdir())
    return Path.cwd() if filesystem_of(tmp) in ("tmpfs", "ramfs") else tmp


def child_env(args: argparse.Namespace, root: Path = ROOT) -> dict[str, str]:
    """The UI processes' environment; ``root``: the checkout whose app they import."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
    }
    if args.platform:
        env["QT_QPA_PLATFORM"] = args.platform
    elif (
        not env.get("QT_QPA_PLATFORM") and not env.get("DISPLAY") and not env.get("WAYLAND_DISPLAY")
    ):
        env["QT_QPA_PLATFORM"] = "offscreen"
    env.pop(PROBE_ENV, None)
    if getattr(args, "fsync_shim", None):
        env["LD_PRELOAD"] = " ".join(x for x in (str(args.fsync_shim), env.get("LD_PRELOAD")) if x)
        env["SLOW_FSYNC_US"] = str(int(args.slow_fsync * 1000))
    return env


# -- a busy machine and a slow disk ---------------------------------------------------------

BUSY_LOOP = "while True: pass"

FSYNC_SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>
/* fsync and fdatasync, each made slower by SLOW_FSYNC_US microseconds: a slow disk. */
static void wait_like_a_slow_disk(void) {
    const char *us = getenv("SLOW_FSYNC_US");
    usleep(us ? (useconds_t)atoi(us) : 20000);
}
int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    wait_like_a_slow_disk();
    return real(fd);
}
int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    wait_like_a_slow_disk();
    return real(fd);
}
"""


def build_fsync_shim(folder: Path) -> Path:
    """An ``LD_PRELOAD`` library (built with the system's C compiler) that adds
    ``SLOW_FSYNC_US`` to every fsync and fdatasync of the UI process (SQLite's and ours)."""
    source, library = folder / "slow_fsync.c", folder / "slow_fsync.so"
    source.write_text(FSYNC_SHIM)
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise SystemExit("--slow-fsync needs a C compiler (cc) to build its LD_PRELOAD shim")
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(library), str(source), "-ldl"], check=True
    )
    return library


@contextlib.contextmanager
def busy_machine(count: int) -> Iterator[None]:
    """``count`` processes that each keep a core busy (a browser, a call, a build beside the
    app), for as long as the block runs."""
    procs = [
        subprocess.Popen([sys.executable, "-c", BUSY_LOOP], stdin=subprocess.DEVNULL)
        for _ in range(count)
    ]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()


# -- the service and its data -------------------------------------------------------------

WORDS = (  # for the synthetic posts' prose
    "the a of to and in that is was for on with as it by at from this be are have not but "
    "they you we all will can more one about their which there what when up out so people "
    "time news report claim video photo share viral government health vaccine election "
    "account verified official source breaking exclusive today tomorrow yesterday "
    "absolutely definitely reportedly allegedly confirmed denied investigation "
    "misleading context statement spokesperson community guidelines café naïve façade "
    "https://example.org/story #trending @someone 2024 100% free prize winner click here"
)


def corpus(length: int, seed: int = 11) -> str:
    """Plausible prose: sentences of common words, paragraphs of a few sentences."""
    rng = random.Random(seed)
    words = WORDS.split()
    parts: list[str] = []
    size = 0
    while size < length:
        sentence = " ".join(rng.choice(words) for _ in range(rng.randint(6, 24)))
        sentence = sentence[0].upper() + sentence[1:] + rng.choice((".", ".", ".", "!", "?"))
        end = "\n\n" if rng.random() < 0.18 else " "
        parts.append(sentence + end)
        size += len(sentence) + len(end)
    return "".join(parts)


def post_text(source: str, index: int, size: int) -> str:
    """Exactly ``size`` characters, different for every item."""
    head = f"Post {index}: "
    start = (index * 7_919) % (len(source) - size - 1)
    return (head + source[start : start + size])[:size]


def queue_id(size: int) -> str:
    return f"ui-{size}"


def small_png(width: int, height: int) -> bytes:
    """A real greyscale PNG (a gradient) of this size."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = b"".join(b"\x00" + bytes((x + y) % 256 for x in range(width)) for y in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


def prepare_database(
    url: str,
    sizes: list[int],
    per_queue: int,
    usernames: list[str],
    *,
    one_paragraph: bool,
    media: int = 0,
) -> float:
    """A queue per post length (the load-test queue's decision config) with ``per_queue``
    items, and the reviewer users; written before the service starts. Returns seconds.
    With ``one_paragraph`` each post is a single paragraph (a wall of text: the text widget
    lays a paragraph out whole, so this is its worst case); ``media``: images per post (a
    file of its own each, fetched by the client's sync engine)."""
    from datetime import UTC, datetime

    from sqlalchemy import select

    from reviewer_app.protocol import UserCreate
    from reviewer_app.server.config import ServerSettings
    from reviewer_app.server.feeds.seed import (
        LOAD_QUEUE,
        insert_authors,
        insert_items,
        insert_queues,
        synthetic_items,
    )
    from reviewer_app.server.service import Service
    from reviewer_app.server.storage.tables import authors
    from reviewer_app.server.storage.tables import media as media_table

    started = time.perf_counter()
    source = corpus(2 * max(sizes) + 50_000)
    if one_paragraph:
        source = source.replace("\n\n", " ")
    service = Service(ServerSettings(database_url=url, password_hash_profile="fast"))
    service.start()
    try:
        for name in usernames:
            service.create_user(UserCreate(username=name, password=PASSWORD))
        now = datetime.fromtimestamp(service.clock(), tz=UTC)
        for size in sizes:
            queue = replace(
                LOAD_QUEUE,
                id=queue_id(size),
                name=f"UI latency: {size:,}-character posts",
                description="Synthetic items for benchmarks/ui_latency.py",
            )
            seed_authors, items = synthetic_items(per_queue, queue.id, now, seed=size)
            long_items = [
                replace(it, post=it.post.model_copy(update={"text": post_text(source, i, size)}))
                for i, it in enumerate(items)
            ]
            with service.db.write() as conn:
                insert_queues(conn, [queue])
                have = set(
                    conn.execute(
                        select(authors.c.id).where(authors.c.id.in_([a.id for a in seed_authors]))
                    ).scalars()
                )
                insert_authors(conn, [a for a in seed_authors if a.id not in have])
                insert_items(conn, long_items, {queue.id: queue.config})
                if media:
                    image = small_png(160, 120)
                    conn.execute(
                        media_table.insert(),
                        [
                            {
                                "id": f"m-{it.id}-{k}",
                                "item_id": it.id,
                                "position": k,
                                "kind": "image",
                                "mime_type": "image/png",
                                "size_bytes": len(image),
                                "width": 160,
                                "height": 120,
                                "alt_text": f"image {k + 1}",
                                "sensitive": False,
                                "content": image,
                            }
                            for it in long_items
                            for k in range(media)
                        ],
                    )
        service.forget_configs()
        service.db.analyze()
    finally:
        service.close()
    return time.perf_counter() - started


# -- 1. the UI process ----------------------------------------------------------------------


def ui_child(args: argparse.Namespace) -> int:
    """In a fresh process: log in, open the review window on ``--queue`` and decide
    ``--decisions`` posts by key, timing each keypress to the next post's first paint.
    Prints one JSON line (after ``CHILD_MARK``)."""
    report: dict[str, Any] = {"start": memory_status()}
    import cProfile
    from collections import defaultdict
    from collections.abc import Callable

    from PySide6.QtCore import (
        QEvent,
        QEventLoop,
        QObject,
        QSettings,
        Qt,
        QTimer,
    )
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from reviewer_app.core.api import normalise_server_url
    from reviewer_app.core.credentials import Credentials
    from reviewer_app.core.paths import store_path
    from reviewer_app.core.session import ReviewSession
    from reviewer_app.core.settings import PREFETCH, UNDO_WINDOW
    from reviewer_app.core.store import Store
    from reviewer_app.ui import preferences as P
    from reviewer_app.ui.app import application, close_session, open_window

    folder = Path(args.child_dir)
    folder.mkdir(parents=True, exist_ok=True)
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    events: dict[str, list[float]] = {}  # (depth, event type, receiver class) -> [ms, count]
    key_events: dict[str, list[float]] = {}  # the same, of the keypress being measured
    tracing = [False, 0]  # on, depth
    if args.trace_events:

        class TracingApplication(QApplication):
            """Times every event delivered while a keypress is being measured."""

            def notify(self, receiver: QObject, event: QEvent) -> bool:
                if not tracing[0]:
                    return super().notify(receiver, event)
                kind = type(receiver).__name__
                if kind == "QWidget" and receiver.parent() is not None:  # a viewport
                    kind = f"QWidget in {type(receiver.parent()).__name__}"
                name = f"{tracing[1]} {event.type().name} -> {kind}"
                tracing[1] += 1
                started = time.perf_counter()
                try:
                    return super().notify(receiver, event)
                finally:
                    tracing[1] -= 1
                    spent = (time.perf_counter() - started) * 1000
                    for table in (events, key_events):
                        entry = table.setdefault(name, [0.0, 0])
                        entry[0] += spent
                        entry[1] += 1

        tracing_app = TracingApplication([sys.argv[0]])
    app = application([sys.argv[0]])
    assert not args.trace_events or app is tracing_app
    prefs = P.Preferences(QSettings(str(folder / "ui.ini"), QSettings.Format.IniFormat))
    P.apply_look(prefs)
    report["imported"] = memory_status()

    def wait_until(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            QTest.qWait(10)

    credentials = Credentials(memory_only=True)
    result, token = ReviewSession.log_in(
        args.server_url, args.user, PASSWORD, credentials=credentials
    )
    path = store_path(normalise_server_url(args.server_url), result.user.username, folder)
    with Store(path) as store:
        if args.undo is not None:
            store.settings.set(UNDO_WINDOW, float(args.undo))
        if args.prefetch is not None:
            store.settings.set(PREFETCH, args.prefetch)
        prefetch = int(store.settings.get(PREFETCH))
        report["settings"] = {decl.name: value for decl, value in store.settings}
    opening = time.perf_counter()
    window = open_window(
        args.server_url, result, token, credentials=credentials, prefs=prefs, data_root=folder
    )
    window.review.guard_seconds = 0.0  # the doubled-key guard would swallow fast keys
    window.raise_()
    window.activateWindow()
    report["window_active"] = bool(QTest.qWaitForWindowActive(window, 10_000))
    report["platform"] = QGuiApplication.platformName()
    wait_until(lambda: window.queues.row_of(args.queue) >= 0, "the queue list")
    window.queue_picker.setCurrentIndex(window.queues.row_of(args.queue))
    review = window.review

    def on_queue() -> bool:
        current = review.current
        return current is not None and current.queue_id == args.queue

    wait_until(on_queue, "the first post of the queue")
    # the window's open to its first post (the engine's first pass: a claim, and whatever
    # else it waited for before the post was shown; polled every 10 ms)
    report["first_post_ms"] = round((time.perf_counter() - opening) * 1000, 1)
    wait_until(
        lambda: window.store.ready_counts().get(args.queue, 0) >= prefetch,
        f"{prefetch} posts leased ahead",
    )
    QTest.qWait(500)  # let the first paints and the engine's follow-up passes settle
    report["ready"] = memory_status()

    # --- probes: the paint, the window's update request, time in the main handlers -----
    marks: dict[str, float | None] = {
        "painted": None,
        "update": None,
        "post_paint": None,
        "cpu_painted": None,
        "frame": None,
        "cpu_frame": None,
    }
    wait_loop = QEventLoop()
    repainting = [False]  # inside the window's update request (Marker)

    def frame_over() -> None:
        marks["frame"] = time.perf_counter()
        marks["cpu_frame"] = time.thread_time()
        if wait_loop.isRunning():
            wait_loop.quit()

    def on_painted() -> None:
        marks["painted"] = time.perf_counter()
        marks["cpu_painted"] = time.thread_time()
        if not repainting[0]:  # painted outside a window repaint (never seen): no more
            frame_over()

    window.post.text.first_painted.connect(on_painted)

    class Marker(QObject):
        """Notes when the window's update request and the post's paint event begin, and
        runs the window's repaints itself to note when the one that painted the post is
        over: every widget of that frame painted and the window flushed."""

        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            kind = event.type()
            if kind == QEvent.Type.UpdateRequest and watched is window:
                if marks["update"] is None:
                    marks["update"] = time.perf_counter()
                if marks["frame"] is not None or repainting[0]:
                    return False
                repainting[0] = True
                try:
                    window.event(event)  # the repaint, here rather than after the filter
                finally:
                    repainting[0] = False
                if marks["painted"] is not None:
                    frame_over()
                return True
            if kind == QEvent.Type.Paint and marks["post_paint"] is None:
                marks["post_paint"] = time.perf_counter()
            return False

    marker = Marker()
    window.installEventFilter(marker)
    window.post.text.viewport().installEventFilter(marker)

    phases: defaultdict[str, float] = defaultdict(float)

    def timed(owner: object, name: str, label: str) -> None:
        call = getattr(owner, name)

        def wrapper(*a: Any, **kw: Any) -> Any:
            started = time.perf_counter()
            try:
                return call(*a, **kw)
            finally:
                phases[label] += time.perf_counter() - started

        setattr(owner, name, wrapper)

    for owner, name, label in (
        (window.store, "record_verdict", "store.record_verdict"),
        (window.store, "next_item", "store.next_item"),
        (window.store, "worklist", "store.worklist (query)"),
        (window.store, "counts", "store.counts"),
        (window.worklist, "set_rows", "worklist model set_rows"),
        (window.worklist, "set_current", "worklist model set_current"),
        (window.post, "show_item", "post pane show_item"),
        (window.scores, "show_scores", "scores show_scores"),
        (window.context, "show_item", "context panels show_item"),
        (window.verdicts, "reset", "verdict bar reset"),
        (window, "say", "status message"),
        (window, "_update_status", "status bar update"),
    ):
        timed(owner, name, label)

    import gc

    gc_marks: dict[str, Any] = {"started": 0.0, "ms": 0.0, "gens": []}

    def on_gc(phase: str, info: dict[str, int]) -> None:  # Python's cyclic collector pauses
        if phase == "start":
            gc_marks["started"] = time.perf_counter()
        else:
            gc_marks["ms"] += (time.perf_counter() - gc_marks["started"]) * 1000
            gc_marks["gens"].append(info["generation"])

    gc.callbacks.append(on_gc)
    report["gc_objects_at_start"] = len(gc.get_objects())
    counts = {"verdicts": 0, "events": 0}
    review.verdict_recorded.connect(
        lambda _e: counts.__setitem__("verdicts", counts["verdicts"] + 1)
    )
    bridge = window.bridge
    for signal in (
        bridge.worklist_changed,
        bridge.pending_changed,
        bridge.synced,
        bridge.verdicts_settled,
        bridge.queues_changed,
        bridge.online_changed,
    ):
        signal.connect(lambda *_: counts.__setitem__("events", counts["events"] + 1))
    offline_seen: list[str] = []
    bridge.online_changed.connect(
        lambda online, reason, _retry: offline_seen.append(reason) if not online else None
    )

    engine_thread = getattr(window.session.engine, "_thread", None)
    engine_clock = None
    with contextlib.suppress(AttributeError, OSError, TypeError):
        engine_clock = time.pthread_getcpuclockid(engine_thread.ident)  # type: ignore[union-attr]

    def engine_cpu() -> float | None:
        """CPU seconds of the sync engine's thread (it competes for the GIL and the store)."""
        if engine_clock is None:
            return None
        with contextlib.suppress(OSError):
            return time.clock_gettime(engine_clock)
        return None

    timeout = QTimer()
    timeout.setSingleShot(True)
    timeout.timeout.connect(wait_loop.quit)
    pause_loop = QEventLoop()
    profiler = cProfile.Profile() if args.profile_out else None
    rng = random.Random(args.seed)
    samples: list[dict[str, Any]] = []
    problems = {"starved_before_key": 0, "starved_after_key": 0, "not_recorded": 0, "timeouts": 0}
    total = args.warmup + args.decisions

    def ms(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else round((b - a) * 1000, 3)

    starved_at: list[list[float]] = []  # [seconds into the run, posts ready] when running dry
    started_run = time.perf_counter()
    # the sample of the key before, and the GUI thread's CPU clock at that key: from one key
    # to the next the thread runs what the key set off after its frame (the rest of a long
    # text, the worklist, the refill) and the app's timers, all of it the key's cost
    before: list[Any] = [None, 0.0]
    for n in range(total):
        QTimer.singleShot(
            max(1, int(rng.uniform(0.5, 1.5) * args.interval * 1000)), pause_loop.quit
        )
        pause_loop.exec()
        if review.current is None:
            problems["starved_before_key"] += 1
            wait_until(lambda: review.current is not None, "a post after running dry")
            QTest.qWait(50)
        shown_before = review.current.item.id if review.current else None
        ready_before = window.store.ready_counts().get(args.queue, 0)
        if ready_before <= 1:
            starved_at.append([round(time.perf_counter() - started_run, 2), ready_before])
        target = QApplication.focusWidget() or window
        decided_before = counts["verdicts"]
        marks.update(
            painted=None, update=None, post_paint=None, cpu_painted=None, frame=None, cpu_frame=None
        )
        phases.clear()
        key_events.clear()
        gc_marks.update(ms=0.0, gens=[])
        if profiler is not None:
            profiler.enable()
        tracing[0] = n >= args.warmup
        engine0 = engine_cpu()
        cpu0 = time.thread_time()
        if before[0] is not None:
            before[0]["gui_thread_cpu_to_next_key"] = ms(before[1], cpu0)
        before[:] = [None, cpu0]
        t0 = time.perf_counter()
        QTest.keyClick(target, Qt.Key.Key_1)
        t_sync = time.perf_counter()
        if marks["frame"] is None:
            timeout.start(10_000)
            wait_loop.exec()
            timeout.stop()
        tracing[0] = False
        engine1 = engine_cpu()
        if profiler is not None:
            profiler.disable()
        if counts["verdicts"] == decided_before:
            problems["not_recorded"] += 1
            continue
        if marks["painted"] is None or marks["frame"] is None:
            problems["timeouts"] += 1
            continue
        current = review.current
        if current is None or current.item.id == shown_before:
            problems["starved_after_key"] += 1
            continue
        if n < args.warmup:
            continue
        samples.append(
            {
                "gui_thread_cpu_to_next_key": None,  # filled in at the next key
                "total": ms(t0, marks["frame"]),
                "gui_thread_cpu": ms(cpu0, marks["cpu_frame"]),
                "text_painted": ms(t0, marks["painted"]),
                "gui_thread_cpu_text": ms(cpu0, marks["cpu_painted"]),
                "sync_thread_cpu": ms(engine0, engine1),
                "key_handler": ms(t0, t_sync),
                "to_update_request": ms(t_sync, marks["update"]),
                "to_post_paint": ms(t_sync, marks["post_paint"]),
                "post_paint": ms(marks["post_paint"], marks["painted"]),
                "rest_of_frame": ms(marks["painted"], marks["frame"]),
                "phases": {k: round(v * 1000, 3) for k, v in phases.items()},
                "ready_before": ready_before,
                "gc_ms": round(gc_marks["ms"], 3),
                "gc_generations": list(gc_marks["gens"]),
                "events": {k: [round(v[0], 3), v[1]] for k, v in key_events.items()},
            }
        )
        before[0] = samples[-1]
    run_seconds = time.perf_counter() - started_run
    report["end"] = memory_status()
    report["worklist_repaint"] = worklist_repaint(window.worklist_view)
    report.update(
        samples=samples,
        problems=problems,
        offline_reasons=offline_seen[:5],
        running_dry=starved_at[:20],
        bridge_events=counts["events"],
        verdicts=counts["verdicts"],
        run_seconds=round(run_seconds, 1),
        worklist_rows_at_end=window.worklist.rowCount(),
        events={
            name: [round(spent / max(1, len(samples)), 3), round(count / max(1, len(samples)), 2)]
            for name, (spent, count) in sorted(events.items(), key=lambda kv: -kv[1][0])[:40]
        },
    )
    if profiler is not None:
        profiler.dump_stats(args.profile_out)
    print(CHILD_MARK + json.dumps(report), flush=True)  # before the exit, which may fail
    close_session(window)  # as the app does on exit: send what was decided, release the rest
    window.close()
    app.processEvents()
    return 0


def worklist_repaint(view: Any, rounds: int = 200) -> dict[str, float]:
    """GUI-thread CPU of a whole repaint of the worklist as the keys left it (every row on
    screen: each cell's data from the model, its text laid out and elided by the style), as
    after a settled verdict's row leaves its top; and how many rows were on screen."""
    from PySide6.QtWidgets import QApplication

    view.release_paint()
    QApplication.processEvents()
    viewport = view.viewport()
    spent = []
    for _ in range(rounds):
        started = time.thread_time()
        viewport.repaint()
        spent.append((time.thread_time() - started) * 1000)
    spent.sort()
    first, rows = view.rowAt(0), view.model().rowCount()
    last = view.rowAt(viewport.height() - 1)
    shown = 0 if first < 0 else (last if last >= 0 else rows - 1) - first + 1
    return {
        "p50": round(spent[len(spent) // 2], 3),
        "p90": round(spent[int(len(spent) * 0.9)], 3),
        "rows_on_screen": shown,
    }


def run_case(
    args: argparse.Namespace,
    folder: Path,
    server_url: str,
    size: int,
    mode: str,
    user: str,
    root: Path = ROOT,
) -> dict[str, Any]:
    """One case in a UI process of its own, the app imported from ``root`` (this checkout,
    or the baseline's worktree; the measuring code is this script's either way)."""
    child_dir = folder / f"client-{size}-{mode}" / ("this" if root == ROOT else "baseline")
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--ui-child",
        "--server-url",
        server_url,
        "--user",
        user,
        "--queue",
        queue_id(size),
        "--decisions",
        str(args.decisions),
        "--warmup",
        str(args.warmup),
        "--interval",
        str(args.interval),
        "--child-dir",
        str(child_dir),
        "--seed",
        str(args.seed),
    ]
    if args.prefetch is not None:
        command += ["--prefetch", str(args.prefetch)]
    if args.undo is not None:
        command += ["--undo", str(args.undo)]
    if args.trace_events:
        command.append("--trace-events")
    if args.switch_interval:
        command += ["--switch-interval", str(args.switch_interval)]
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
        command += ["--profile-out", str(args.profile / f"keypress-{size}-{mode}.prof")]
    limit = 300 + (args.decisions + args.warmup) * (args.interval * 1.5 + 0.5)
    done = subprocess.run(
        command,
        env=child_env(args, root),
        capture_output=True,
        text=True,
        timeout=limit,
        cwd=root,
    )
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith(CHILD_MARK)]
    if done.returncode != 0 or not lines:
        raise RuntimeError(
            f"the UI process for {size} characters, {mode}, failed ({done.returncode}):\n"
            f"{done.stderr[-4000:]}"
        )
    out: dict[str, Any] = json.loads(lines[-1][len(CHILD_MARK) :])
    noise = "propagateSizeHints"  # the offscreen platform says so for every window
    out["stderr_tail"] = [ln for ln in done.stderr.splitlines() if noise not in ln][-5:]
    return out


def request_summary(seen: list[str]) -> dict[str, Any]:
    """Requests the UI process made through the proxy, and the longest run of verdict
    deliveries with no claim between them (the engine delivering while the prefetch runs
    down)."""
    kinds: dict[str, int] = {}
    run = longest = 0
    for line in seen:
        method, path = line.split(" ", 1)
        parts = path.split("?")[0].split("/")
        if len(parts) > 4 and parts[3] in ("queues", "items", "media"):
            parts[4] = "{id}"
        kind = f"{method} {'/'.join(parts)}"
        kinds[kind] = kinds.get(kind, 0) + 1
        if path.startswith("/api/v1/verdicts"):
            run += 1
            longest = max(longest, run)
        elif path.endswith("/leases") and method == "POST":
            run = 0
    return {"by_kind": dict(sorted(kinds.items())), "longest_verdict_run": longest}


def slowest_events(samples: list[dict[str, Any]]) -> dict[str, list[float]]:
    """With ``--trace-events``: the events of the 1 % of keypresses that took the most
    GUI-thread CPU, per keypress (ms, count), the costliest first: what the tail adds."""
    traced = sorted(
        (s for s in samples if s.get("events") and s["gui_thread_cpu"] is not None),
        key=lambda s: s["gui_thread_cpu"],
    )
    tail = traced[-max(1, len(traced) // 100) :] if traced else []
    totals: dict[str, list[float]] = {}
    for sample in tail:
        for name, (ms, count) in sample["events"].items():
            entry = totals.setdefault(name, [0.0, 0.0])
            entry[0] += ms / len(tail)
            entry[1] += count / len(tail)
    return {
        name: [round(ms, 3), round(count, 2)]
        for name, (ms, count) in sorted(totals.items(), key=lambda kv: -kv[1][0])
    }


def summarise_case(raw: dict[str, Any]) -> dict[str, Any]:
    samples = raw["samples"]

    def figures(key: str) -> dict[str, float]:
        values = [s[key] for s in samples if s[key] is not None]
        return {
            "p50": round(percentile(values, 50), 2),
            "p90": round(percentile(values, 90), 2),
            "p99": round(percentile(values, 99), 2),
            "max": round(max(values), 2) if values else math.nan,
        }

    ordered = sorted(samples, key=lambda s: s["total"])
    tail = ordered[-max(1, len(ordered) // 100) :]  # the slowest 1 %
    middle = ordered[len(ordered) // 4 : 3 * len(ordered) // 4] or ordered  # around the median

    def mean_of(group: list[dict[str, Any]], key: str) -> float:
        values = [s[key] for s in group if s[key] is not None]
        return round(statistics.fmean(values), 2) if values else math.nan

    def phase_means(group: list[dict[str, Any]]) -> dict[str, float]:
        names = sorted({k for s in group for k in s["phases"]})
        means = {k: statistics.fmean(s["phases"].get(k, 0.0) for s in group) for k in names}
        return {
            k: round(v, 2) for k, v in sorted(means.items(), key=lambda kv: -kv[1]) if v >= 0.05
        }

    parts = (
        "gui_thread_cpu",
        "gui_thread_cpu_to_next_key",
        "gui_thread_cpu_text",
        "text_painted",
        "sync_thread_cpu",
        "key_handler",
        "to_update_request",
        "to_post_paint",
        "post_paint",
        "rest_of_frame",
    )
    return {
        "decisions": len(samples),
        "total_ms": figures("total"),
        "text_painted_ms": figures("text_painted"),
        **{f"{p}_ms": figures(p) for p in parts},
        "typical": {p: mean_of(middle, p) for p in parts},
        "typical_phases": phase_means(middle),
        "slowest_1pct": {
            "totals": [s["total"] for s in tail],
            **{p: mean_of(tail, p) for p in parts},
        },
        "slowest_1pct_phases": phase_means(tail),
        "problems": raw["problems"],
        "offline_reasons": raw["offline_reasons"],
        "peak_rss_mb": raw["end"].get("VmHWM", math.nan),
        "rss_mb": {
            "start": raw["start"].get("VmRSS"),
            "imported": raw["imported"].get("VmRSS"),
            "window_ready": raw["ready"].get("VmRSS"),
            "end": raw["end"].get("VmRSS"),
        },
        "platform": raw["platform"],
        "window_active": raw["window_active"],
        "settings": raw["settings"],
        "bridge_events": raw["bridge_events"],
        "run_seconds": raw["run_seconds"],
        "worklist_rows_at_end": raw["worklist_rows_at_end"],
        "worklist_repaint": raw.get("worklist_repaint"),
        "stderr_tail": raw["stderr_tail"],
        "events": raw.get("events", {}),
        "slowest_events": slowest_events(samples),
        "gc": {
            "objects_tracked_at_start": raw.get("gc_objects_at_start"),
            "keypresses_with_a_full_collection": sum(
                1 for s in samples if 2 in s.get("gc_generations", [])
            ),
            "full_collection_ms_mean": round(
                statistics.fmean(
                    [s["gc_ms"] for s in samples if 2 in s.get("gc_generations", [])] or [0.0]
                ),
                2,
            ),
            "slowest_1pct_gc_ms": [s.get("gc_ms", 0.0) for s in tail],
        },
        "running_dry": raw.get("running_dry", []),
        "first_post_ms": raw.get("first_post_ms"),
        "ready_before_min": min((s["ready_before"] for s in samples), default=None),
    }


# -- 2. startup in demo mode -------------------------------------------------------------------


def run_startup(args: argparse.Namespace, folder: Path) -> list[dict[str, Any]]:
    """``python -m reviewer_app --demo`` once cold (seeds the demo database), then
    ``--startup-runs`` times warm, each timed from just before the process starts to the
    first paint of a post (printed by the app's startup probe). With
    ``--startup-baseline REV`` each warm run of this code alternates with one of REV's
    (a git worktree, its own demo folder): the machine's state moves this figure by a
    third from one hour to the next, so only runs taken side by side compare."""
    code = {"this code": ROOT}
    runs: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        if args.startup_baseline:
            worktree = stack.enter_context(
                baseline_tree(folder / "startup-baseline", args.startup_baseline)
            )
            code[f"baseline {args.startup_baseline}"] = worktree
        for index in range(1 + args.startup_runs):
            for label, root in code.items():
                runs.append(_start_once(args, folder, label, root, cold=index == 0))
    return runs


@contextlib.contextmanager
def baseline_tree(path: Path, revision: str) -> Iterator[Path]:
    """A git worktree of ``revision`` at ``path`` for as long as the block runs."""
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(path), revision],
        check=True,
    )
    try:
        yield path
    finally:
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(path)], check=False
        )


def _start_once(
    args: argparse.Namespace, folder: Path, label: str, root: Path, *, cold: bool
) -> dict[str, Any]:
    slug = "demo" if root == ROOT else "baseline-demo"
    env = {
        **child_env(args),
        "PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")]),
        "REVIEWER_APP_DATA_DIR": str(folder / f"{slug}-data"),
        "XDG_CONFIG_HOME": str(folder / f"{slug}-config"),  # QSettings: not the user's own
        PROBE_ENV: "1",
    }
    # as an installed app starts: with its modules' bytecode cached (a wheel's install
    # compiles it; a checkout writes it on the cold run), not compiled again at every start
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    launched = time.time()
    done = subprocess.run(
        [sys.executable, "-m", "reviewer_app", "--demo"],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=180,
    )
    exited = time.time()
    painted = [ln.split()[1] for ln in done.stdout.splitlines() if ln.startswith("first-post")]
    if done.returncode != 0 or not painted:
        raise RuntimeError(
            f"the demo app ({label}) did not report a first post ({done.returncode}):\n"
            f"{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        )
    run = {
        "run": "cold (seeds the demo database)" if cold else "warm",
        "code": label,
        "first_post_s": round(float(painted[0]) - launched, 3),
        "process_s": round(exited - launched, 3),
    }
    print(
        f"   {label}, {run['run']}: first post painted {run['first_post_s']:.3f} s after "
        f"launch (process ended after {run['process_s']:.2f} s)",
        flush=True,
    )
    return run


def warm_starts(runs: list[dict[str, Any]], label: str = "this code") -> list[float]:
    return [r["first_post_s"] for r in runs if r["run"] == "warm" and r.get("code", label) == label]


# -- the run ----------------------------------------------------------------------------------


def summarise_profile(path: Path, top: int) -> str:
    import io
    import pstats

    buffer = io.StringIO()
    stats = pstats.Stats(str(path), stream=buffer)
    stats.strip_dirs().sort_stats("cumulative").print_stats(top)
    return buffer.getvalue()


def run(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT))
    base = args.dir or default_folder()
    base.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="ui-latency-", dir=base))
    out: dict[str, Any] = {
        "code": code_version(),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "folder": str(folder),
        "filesystem": filesystem_of(folder),
        "qpa": child_env(args).get("QT_QPA_PLATFORM") or "(default: xcb on DISPLAY)",
        "load_average_before": [round(x, 2) for x in os.getloadavg()],
        "decisions": args.decisions,
        "warmup": args.warmup,
        "interval_s": args.interval,
        "one_paragraph": args.one_paragraph,
        "media_per_post": args.media,
        "latency_s": args.latency,
        "cases": {},
        "baseline_cases": {},
    }
    modes = [(m, d) for m, d in (("healthy", 0.0), ("slow", args.latency)) if m in args.modes]
    out["load_processes"] = args.load
    out["slow_fsync_ms"] = args.slow_fsync
    if args.slow_fsync:
        args.fsync_shim = build_fsync_shim(folder)
    try:
        with busy_machine(args.load):
            measure(args, folder, out, modes)
        out["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    finally:
        if args.keep:
            print(f"kept {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)
    return out


def measure(
    args: argparse.Namespace, folder: Path, out: dict[str, Any], modes: list[tuple[str, float]]
) -> None:
    from tests.support.proxy import FaultProxy
    from tests.support.servers import ServerProcess

    if not args.skip_latency:
        codes = 2 if args.baseline else 1
        per_queue = codes * len(modes) * (args.decisions + args.warmup + 200) + 100
        users = [f"ui-bench-{size}-{mode}" for size in args.sizes for mode, _ in modes]
        if args.baseline:
            users += [f"{user}-baseline" for user in users]
        db_url = f"sqlite:///{folder / 'server.db'}"
        print(
            f"seeding {len(args.sizes)} queues x {per_queue:,} posts "
            f"({', '.join(f'{s:,}' for s in args.sizes)} characters) in {folder} ...",
            flush=True,
        )
        out["seed_seconds"] = round(
            prepare_database(
                db_url,
                args.sizes,
                per_queue,
                users,
                one_paragraph=args.one_paragraph,
                media=args.media,
            ),
            1,
        )
        server = ServerProcess(db_url, log=folder / "server.log").start()
        proxy = FaultProxy(server.port).start()
        stack = contextlib.ExitStack()
        try:
            baseline = (
                stack.enter_context(baseline_tree(folder / "baseline", args.baseline))
                if args.baseline
                else None
            )
            print(f"1. keypress to next post painted; server {server.url}, proxy {proxy.url}")
            for size in args.sizes:
                for mode, delay in modes:
                    proxy.delay = delay
                    seen_before = len(proxy.seen)
                    print(
                        f"   {size:>6,} characters, {mode} (+{delay * 1000:.0f} ms a request): "
                        f"{args.warmup} + {args.decisions:,} decisions ...",
                        end="",
                        flush=True,
                    )
                    user = f"ui-bench-{size}-{mode}"
                    order: list[tuple[str, Path]] = [("this code", ROOT)]
                    if baseline is not None:  # side by side, which goes first alternating
                        order.append((f"baseline {args.baseline}", baseline))
                        if len(out["cases"]) % 2:
                            order.reverse()
                    for label, root in order:
                        raw = run_case(
                            args,
                            folder,
                            proxy.url,
                            size,
                            mode,
                            user if root == ROOT else f"{user}-baseline",
                            root,
                        )
                        case = summarise_case(raw)
                        if root == ROOT:
                            case["requests"] = request_summary(proxy.seen[seen_before:])
                            out["cases"][f"{size}/{mode}"] = case
                        else:
                            out["baseline_cases"][f"{size}/{mode}"] = case
                        t, c = case["total_ms"], case["gui_thread_cpu_ms"]
                        print(
                            (f" {label}:" if baseline is not None else "")
                            + f" p50 {t['p50']:.2f} ms, p99 {t['p99']:.2f} ms, GUI-thread CPU"
                            f" p50 {c['p50']:.2f} ms, p99 {c['p99']:.2f} ms, peak RSS "
                            f"{case['peak_rss_mb']:.0f} MB",
                            end="",
                            flush=True,
                        )
                    print(flush=True)
        finally:
            stack.close()
            proxy.stop()
            server.stop()
            if "Traceback" in (folder / "server.log").read_text(errors="replace"):
                print("the server logged errors; see server.log (--keep)", file=sys.stderr)
    if args.startup_runs >= 0 and not args.skip_startup:
        print("2. startup of `python -m reviewer_app --demo` to the first post painted")
        out["startup"] = run_startup(args, folder)


def print_report(out: dict[str, Any], args: argparse.Namespace) -> None:
    rows: list[tuple[str, str]] = [
        ("code", out["code"]),
        ("python / CPUs", f"{out['python']}, {out['cpus']} CPUs"),
        ("Qt platform", out["qpa"]),
        ("store folder", f"{out['folder']} ({out['filesystem']})"),
        (
            "load average",
            f"{out['load_average_before']} before, {out.get('load_average_after')} after",
        ),
        (
            "machine made busy",
            f"{out['load_processes']} busy-loop process(es); fsync +{out['slow_fsync_ms']:g} ms",
        ),
    ]
    cases = out["cases"]
    ok: dict[str, bool] = {}
    if cases:
        first = next(iter(cases.values()))
        settings = first["settings"]
        images = f", {out['media_per_post']} images each" if out.get("media_per_post") else ""
        rows += [
            (
                "setup",
                f"{out['decisions']:,} decisions per case after {out['warmup']} warm-up ones, a "
                f"key every {out['interval_s'] * 1000:.0f} ms on average (jittered +-50 %); "
                f"guard 0; prefetch_target {settings['prefetch_target']}, undo window "
                f"{settings['undo_window_seconds']:g} s; slow = +{out['latency_s'] * 1000:.0f} ms "
                f"on every request; posts "
                f"{'one paragraph each' if out['one_paragraph'] else 'in paragraphs'}"
                f"{images}; "
                f"window platform {first['platform']}"
                + ("" if first["window_active"] else " (WINDOW NOT ACTIVE)"),
            ),
            ("", ""),
            ("1. keypress -> next post on screen", "ms (p50 / p90 / p99 / max)"),
        ]
        worst_p99 = 0.0
        for size in args.sizes:
            healthy, slow = cases.get(f"{size}/healthy"), cases.get(f"{size}/slow")
            for mode, case in (("healthy", healthy), ("slow", slow)):
                if case is None:
                    continue
                t = case["total_ms"]
                worst_p99 = max(worst_p99, t["p99"])
                bad = {k: v for k, v in case["problems"].items() if v}
                rows.append(
                    (
                        f"   {size:>6,} chars, {mode:<7}",
                        f"{t['p50']:6.2f} / {t['p90']:6.2f} / {t['p99']:6.2f} / {t['max']:7.2f}"
                        f"  [p99 < {TARGET_P99_MS:g} ms: "
                        f"{'meets' if t['p99'] < TARGET_P99_MS else 'MISSES'}]"
                        + (f"  problems {bad}" if bad else ""),
                    )
                )
                c = case["gui_thread_cpu_ms"]
                rows.append(
                    (
                        "      of it GUI-thread CPU",
                        f"{c['p50']:6.2f} / {c['p90']:6.2f} / {c['p99']:6.2f} / {c['max']:7.2f}"
                        "  (the rest: waiting for a core, the GIL or the disk)",
                    )
                )
                w = case.get("gui_thread_cpu_to_next_key_ms")
                if w:
                    rows.append(
                        (
                            "      GUI-thread CPU, key to next key",
                            f"{w['p50']:6.2f} / {w['p90']:6.2f} / {w['p99']:6.2f} / {w['max']:7.2f}"
                            "  (all the key set off, its frame's and after, and the timers"
                            " meanwhile)",
                        )
                    )
                base = out.get("baseline_cases", {}).get(f"{size}/{mode}")
                if base:
                    bt, bc = base["total_ms"], base["gui_thread_cpu_ms"]
                    bw = base.get("worklist_repaint")
                    rows.append(
                        (
                            f"      side by side: {args.baseline}",
                            f"{bt['p50']:6.2f} / {bt['p90']:6.2f} / {bt['p99']:6.2f} / "
                            f"{bt['max']:7.2f}  (GUI-thread CPU {bc['p50']:.2f} / {bc['p90']:.2f}"
                            f" / {bc['p99']:.2f} / {bc['max']:.2f}"
                            + (f"; worklist repaint {bw['p50']:.2f}" if bw else "")
                            + ")",
                        )
                    )
                r = case.get("worklist_repaint")
                if r:
                    rows.append(
                        (
                            "      worklist, a whole repaint",
                            f"{r['p50']:6.2f} / {r['p90']:6.2f} ms GUI-thread CPU (p50 / p90),"
                            f" {r['rows_on_screen']} rows on screen",
                        )
                    )
                p, pc = case["text_painted_ms"], case["gui_thread_cpu_text_ms"]
                rows.append(
                    (
                        "      of it to the post's text painted",
                        f"{p['p50']:6.2f} / {p['p90']:6.2f} / {p['p99']:6.2f} / {p['max']:7.2f}"
                        f"  (GUI-thread CPU {pc['p50']:.2f} / {pc['p90']:.2f} / {pc['p99']:.2f}"
                        f" / {pc['max']:.2f})",
                    )
                )
                if case.get("first_post_ms") is not None:
                    rows.append(
                        (
                            "      first post after the window opens",
                            f"{case['first_post_ms']:,.0f} ms (once, before the keys)",
                        )
                    )
            if healthy and slow:
                ratio = slow["total_ms"]["p99"] / healthy["total_ms"]["p99"]
                out.setdefault("ratios", {})[str(size)] = round(ratio, 2)
                rows.append(
                    (
                        f"   {size:>6,} chars, ratio",
                        f"slow p99 / healthy p99 = {ratio:.2f}  [< {TARGET_RATIO}: "
                        f"{'meets' if ratio < TARGET_RATIO else 'MISSES'}]",
                    )
                )
        ok["p99"] = worst_p99 < TARGET_P99_MS
        ok["ratio"] = all(r < TARGET_RATIO for r in out.get("ratios", {}).values())
        rows += [("", ""), ("   where the time goes", "(means, ms)")]
        for key, case in cases.items():
            typ, tail = case["typical"], case["slowest_1pct"]
            rows.append(
                (
                    f"   {key}",
                    f"GUI thread CPU {typ['gui_thread_cpu']}, sync thread CPU meanwhile "
                    f"{typ['sync_thread_cpu']} (slowest 1 %: {tail['gui_thread_cpu']}, "
                    f"{tail['sync_thread_cpu']}) | "
                    f"middle half: key handler {typ['key_handler']}, then to update request "
                    f"{typ['to_update_request']}, to post paint {typ['to_post_paint']}, post "
                    f"paint {typ['post_paint']}, rest of the frame {typ['rest_of_frame']} | "
                    f"slowest 1 %: handler {tail['key_handler']}, "
                    f"to update {tail['to_update_request']}, to post paint "
                    f"{tail['to_post_paint']}, post paint {tail['post_paint']}, rest of the "
                    f"frame {tail['rest_of_frame']}",
                )
            )
            rows.append(("      middle half, handlers", fmt_phases(case["typical_phases"])))
            rows.append(("      slowest 1 % handlers", fmt_phases(case["slowest_1pct_phases"])))
            rows.append(("      slowest 1 % totals", ", ".join(f"{v:.1f}" for v in tail["totals"])))
            g = case["gc"]
            rows.append(
                (
                    "      Python GC",
                    f"{g['keypresses_with_a_full_collection']} keypresses had a full (gen 2) "
                    f"collection, {g['full_collection_ms_mean']:.1f} ms each on average "
                    f"({g['objects_tracked_at_start']:,} objects tracked at start); GC ms in the "
                    f"slowest 1 %: {g['slowest_1pct_gc_ms']}",
                )
            )
            if case["running_dry"]:
                rows.append(("      ran dry at (s, ready)", str(case["running_dry"])))
            if case.get("requests"):
                r = case["requests"]
                rows.append(
                    (
                        "      requests",
                        f"{r['by_kind']}; longest run of verdict posts with no claim between: "
                        f"{r['longest_verdict_run']}",
                    )
                )
            for name, (ms, count) in list(case["events"].items())[:18]:
                rows.append(("      event (depth type -> to)", f"{name}: {ms:.2f} ms, {count}x"))
            for name, (ms, count) in list(case.get("slowest_events", {}).items())[:12]:
                rows.append(("      slowest 1 %: event", f"{name}: {ms:.2f} ms, {count}x"))
        peaks = {k: c["peak_rss_mb"] for k, c in cases.items()}
        worst = max(peaks.values())
        rows += [
            ("", ""),
            (
                "3. peak RSS after the decisions",
                f"{worst:.0f} MB at most (VmHWM of each UI process: "
                + ", ".join(f"{k} {v:.0f}" for k, v in peaks.items())
                + ")",
            ),
        ]
        first_rss = first["rss_mb"]
        rows.append(
            (
                "   RSS on the way (first case)",
                f"start {first_rss['start']}, PySide6 + app imported {first_rss['imported']}, "
                f"window ready {first_rss['window_ready']}, end {first_rss['end']} MB",
            )
        )
    startup = out.get("startup")
    if startup:
        warm = warm_starts(startup)
        median = statistics.median(warm) if warm else math.nan
        ok["startup"] = median < TARGET_STARTUP_S
        rows += [
            ("", ""),
            (
                "2. demo startup, first post painted",
                f"cold {startup[0]['first_post_s']:.3f} s; warm "
                + ", ".join(f"{w:.3f}" for w in warm)
                + f" s (median {median:.3f} s)  [warm < {TARGET_STARTUP_S} s: "
                + ("meets" if ok["startup"] else "MISSES")
                + "]",
            ),
        ]
        for label in sorted({r.get("code", "this code") for r in startup} - {"this code"}):
            theirs = warm_starts(startup, label)
            rows.append(
                (
                    f"   side by side: {label}",
                    "warm "
                    + ", ".join(f"{w:.3f}" for w in theirs)
                    + f" s (median {statistics.median(theirs):.3f} s; this code "
                    + f"{median:.3f} s, runs alternating)",
                )
            )
    out["targets_met"] = ok
    width = max(len(name) for name, _ in rows)
    print()
    for name, value in rows:
        print(f"  {name:<{width}}  {value}" if name or value else "")
    if args.profile:
        for path in sorted(args.profile.glob("keypress-*.prof")):
            print(f"\ncProfile of the keypress path (GUI thread), {path.name}:")
            print(summarise_profile(path, args.profile_top))


def record_markdown(out: dict[str, Any]) -> None:
    """The run as the latest for its load and disk, and the page's section from all kept."""
    key = f"load {out['load_processes']}, fsync +{out['slow_fsync_ms']:g} ms"
    cases = {
        name: {
            "p50": c["total_ms"]["p50"],
            "p99": c["total_ms"]["p99"],
            "cpu_p99": c["gui_thread_cpu_ms"]["p99"],
            "cpu_to_next_key": [
                c["gui_thread_cpu_to_next_key_ms"]["p50"],
                c["gui_thread_cpu_to_next_key_ms"]["p99"],
            ],
            "worklist_repaint": c.get("worklist_repaint"),
        }
        for name, c in out["cases"].items()
    }
    startup = out.get("startup") or []
    warm = warm_starts(startup)
    baselines = {
        label: round(statistics.median(warm_starts(startup, label)), 3)
        for label in {r.get("code", "this code") for r in startup} - {"this code"}
    }
    record_result(
        "ui_latency",
        key,
        {
            "cases": cases,
            "warm_start_s": round(statistics.median(warm), 3) if warm else None,
            "warm_start_side_by_side": baselines,
            "load_average_before": out["load_average_before"],
            "platform": out["qpa"],
            "code": out["code"],
            "date": time.strftime("%Y-%m-%d"),
        },
    )
    rows = []
    for run_key, row in sorted(stored_results("ui_latency").items()):
        for name, c in row["cases"].items():  # type: ignore[union-attr]
            size, mode = name.split("/")
            rows.append(
                [
                    run_key,
                    f"{int(size):,}",
                    mode,
                    f"{c['p50']:.1f} / {c['p99']:.1f}",
                    f"{c['cpu_p99']:.2f}",
                    (
                        "{:.1f} / {:.1f}".format(*c["cpu_to_next_key"])
                        if c.get("cpu_to_next_key")
                        else "-"
                    ),
                    (
                        "{p50:.2f} ({rows_on_screen})".format(**c["worklist_repaint"])
                        if c.get("worklist_repaint")
                        else "-"
                    ),
                    _warm_cell(row),
                    ", ".join(f"{x:g}" for x in row["load_average_before"]),  # type: ignore[union-attr]
                    row["platform"],
                    row["code"],
                    row["date"],
                ]
            )
    text = (
        "## Keypress to next post\n\n"
        "`benchmarks/ui_latency.py`: the real review window, a verdict key, the time "
        "until the window's repaint that paints the next post is over (since 2026-12-04; "
        "until then, until the post's text was painted); healthy and with 300 ms added to "
        "every request; `--load N` keeps N busy-loop processes running, `--slow-fsync MS` "
        "slows every fsync of the UI process. Targets: keypress -> paint p99 < 16 ms, "
        "GUI-thread CPU per keypress p99 <= 3 ms, warm demo start < 1.5 s, with `--load "
        "1` on the 2-core machine. GUI CPU key to next key (since 2026-12-05): all of the "
        "GUI thread's CPU from one key to the next, a key every 100 ms on average: what the "
        "key set off after its frame (the rest of a long text, the worklist's repaint, the "
        "refill) and the app's timers meanwhile. Worklist repaint (since 2026-12-05): the GUI "
        "thread's CPU of one whole repaint of the worklist as the keys left it, p50, and "
        "its rows on screen. The latest run per load and disk; beside a "
        "warm start, "
        "the median of another revision's demo started alternately with it "
        "(`--startup-baseline REV`).\n\n"
    )
    text += markdown_table(
        [
            "load, disk",
            "characters",
            "network",
            "keypress -> paint p50 / p99 ms",
            "GUI CPU p99 ms",
            "GUI CPU key to next key p50 / p99 ms",
            "worklist repaint ms (rows)",
            "warm start s",
            "load at start",
            "platform",
            "code",
            "date",
        ],
        rows,
    )
    write_page_section("ui_latency", text)


def _warm_cell(row: dict[str, Any]) -> str:
    if row["warm_start_s"] is None:
        return "-"
    side = row.get("warm_start_side_by_side") or {}
    return f"{row['warm_start_s']:.2f}" + "".join(
        f" ({label}: {seconds:.2f})" for label, seconds in sorted(side.items())
    )


def fmt_phases(phases: dict[str, float]) -> str:
    return ", ".join(f"{k} {v:.2f}" for k, v in phases.items()) or "-"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=None, help="timed per case (1,000)")
    parser.add_argument("--warmup", type=int, default=20, help="untimed decisions first")
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(x) for x in text.split(",")],
        default=list(SIZES),
        help="post lengths in characters, comma-separated (500,5000,50000)",
    )
    parser.add_argument(
        "--interval", type=float, default=0.1, help="mean seconds between keys (0.1)"
    )
    parser.add_argument(
        "--latency", type=float, default=0.3, help="seconds added to every request (0.3)"
    )
    parser.add_argument(
        "--one-paragraph",
        action="store_true",
        help="posts without paragraph breaks (the text widget's worst case); by default "
        "they have a paragraph break every few sentences",
    )
    parser.add_argument(
        "--media",
        type=int,
        default=0,
        help="images per post (each its own file the client fetches; default 0)",
    )
    parser.add_argument(
        "--modes",
        type=lambda text: text.split(","),
        default=["healthy", "slow"],
        help="healthy,slow (both by default)",
    )
    parser.add_argument("--prefetch", type=int, default=None, help="prefetch_target (default 20)")
    parser.add_argument("--undo", type=float, default=None, help="undo window s (default 5)")
    parser.add_argument(
        "--startup-runs", type=int, default=3, help="warm demo starts after the cold one (3)"
    )
    parser.add_argument(
        "--startup-baseline",
        metavar="REV",
        default=None,
        help="also start the demo of git revision REV (a worktree), each warm run "
        "alternating with this code's, and print both medians",
    )
    parser.add_argument(
        "--baseline",
        metavar="REV",
        default=None,
        help="also run each keypress case with the app of git revision REV (a worktree), "
        "side by side with this code's (which goes first alternates), and print both; "
        "the page's table keeps this code's figures only",
    )
    parser.add_argument("--skip-latency", action="store_true", help="only the startup figure")
    parser.add_argument("--skip-startup", action="store_true", help="no demo startup figure")
    parser.add_argument(
        "--platform",
        default=None,
        help="QT_QPA_PLATFORM for the UI processes (default: "
        "as set, else xcb when DISPLAY is set, else offscreen)",
    )
    parser.add_argument("--quick", action="store_true", help="200 decisions per case")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="folder for a cProfile of each case's keypress path (figures are then inflated)",
    )
    parser.add_argument("--profile-top", type=int, default=30, help="rows per profile table")
    parser.add_argument(
        "--trace-events",
        action="store_true",
        help="time every Qt event between a key and the paint, by type and receiver "
        "(a Python QApplication.notify: figures are then inflated)",
    )
    parser.add_argument(
        "--switch-interval",
        type=float,
        default=None,
        help="diagnostic: sys.setswitchinterval in the UI process (Python's default 0.005)",
    )
    parser.add_argument(
        "--dir", type=Path, default=None, help="folder for the run's files (temp dir by default)"
    )
    parser.add_argument(
        "--load",
        type=int,
        default=0,
        help="busy-loop processes running for the whole run (a workstation is never idle)",
    )
    parser.add_argument(
        "--slow-fsync",
        type=float,
        default=0.0,
        metavar="MS",
        help="add MS milliseconds to every fsync/fdatasync of the UI process (an LD_PRELOAD "
        "shim built with cc): a slow or busy disk",
    )
    parser.add_argument(
        "--markdown",
        action="store_true",
        help="keep the run as the latest for its load and disk in benchmarks/results and "
        "rewrite the ui_latency section of benchmarks/README.md",
    )
    parser.add_argument("--seed", type=int, default=1, help="random seed of the key pace")
    parser.add_argument("--keep", action="store_true", help="keep the run's folder afterwards")
    parser.add_argument("--json", action="store_true", help="also print one JSON line")
    # the UI process
    parser.add_argument("--ui-child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--server-url", help=argparse.SUPPRESS)
    parser.add_argument("--user", help=argparse.SUPPRESS)
    parser.add_argument("--queue", help=argparse.SUPPRESS)
    parser.add_argument("--child-dir", help=argparse.SUPPRESS)
    parser.add_argument("--profile-out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.decisions is None:
        args.decisions = 200 if args.quick else 1_000
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.ui_child:
        return ui_child(args)
    out = run(args)
    print_report(out, args)
    if args.markdown:
        record_markdown(out)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
