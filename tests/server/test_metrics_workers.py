"""Workers that die: a killed API worker's live gauges stop counting once it is gone
(``reviewdesk_api_processes``, ``reviewdesk_background_leaders``), and a webhook worker
thread whose HTTP pool cannot be made (a bad proxy) logs it and goes on."""

from __future__ import annotations

import logging
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import requests

from reviewer_app.server.config import ServerSettings
from reviewer_app.server.domain.webhooks.dispatcher import Dispatcher
from reviewer_app.server.storage.db import Database
from tests.support.servers import ServerProcess


def _children(pid: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and b"resource_tracker" not in cmdline and fields[0] != "Z":
            found.add(int(entry.name))
    return found


def _gauge(text: str, name: str) -> float:
    match = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    assert match, text[:2000]
    return float(match.group(1))


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="finds the workers in /proc")
def test_a_killed_worker_stops_counting(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'w.db'}", workers=2).start()
    try:
        assert server.proc is not None
        deadline = time.monotonic() + 60
        while len(_children(server.proc.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        workers = _children(server.proc.pid)
        assert len(workers) == 2, workers
        os.kill(min(workers), signal.SIGKILL)
        seen: tuple[float, float] = (0.0, 0.0)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            now = _children(server.proc.pid)
            if len(now) == 2 and now != workers:  # the replacement runs
                try:
                    text = requests.get(server.url + "/metrics", timeout=5).text
                except requests.RequestException:
                    text = ""
                if "reviewdesk_api_processes " in text:
                    seen = (
                        _gauge(text, "reviewdesk_api_processes"),
                        _gauge(text, "reviewdesk_background_leaders"),
                    )
                    if seen[0] == 2 and seen[1] <= 1:
                        break
            time.sleep(0.2)
        assert seen[0] == 2 and seen[1] <= 1, seen
    finally:
        server.kill()


_CHILD = """
import os, sys
from prometheus_client import CollectorRegistry, Gauge
g = Gauge("reviewdesk_api_processes", "x", registry=CollectorRegistry(),
          multiprocess_mode="livesum")
g.set(1)
sys.stdout.write(str(os.getpid()) + "\\n"); sys.stdout.flush()
os.kill(os.getpid(), 9)
"""


def test_drop_dead_processes_drops_only_the_dead(tmp_path: Path) -> None:
    from reviewer_app.server.ops.metrics import drop_dead_processes

    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, timeout=60)
    dead = int(done.stdout.decode().strip())
    alive = subprocess.Popen(
        [sys.executable, "-c", _CHILD.replace("os.kill(os.getpid(), 9)", "input()")],
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert alive.stdout is not None
        live = int(alive.stdout.readline().decode().strip())
        assert drop_dead_processes(str(tmp_path)) == [dead]
        assert sorted(p.name for p in tmp_path.iterdir()) == [f"gauge_livesum_{live}.db"]
    finally:
        alive.kill()
        alive.wait(10)


def test_a_webhook_worker_survives_a_pool_it_cannot_make(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = Database(f"sqlite:///{tmp_path / 'h.db'}")
    db.migrate()
    try:
        dispatcher = Dispatcher(db, ServerSettings(database_url=db.url), time.time)
        dispatcher.proxy = "http://[bad"  # urllib3 cannot parse it
        caplog.set_level(logging.INFO, logger="server")
        failures: list[type[BaseException]] = []
        previous = threading.excepthook
        threading.excepthook = lambda args: failures.append(args.exc_type)
        try:
            dispatcher._busy.update({1, 2})
            for job in (1, 2, None):
                dispatcher._jobs.put(job)
            worker = threading.Thread(target=dispatcher._work_loop, name="webhook-worker-1")
            worker.start()
            worker.join(30)
        finally:
            threading.excepthook = previous
        assert failures == []
        assert dispatcher._busy == set()
        said = [r.getMessage() for r in caplog.records]
        assert "delivering to webhook 1 failed" in said and "delivering to webhook 2 failed" in said
    finally:
        db.dispose()
