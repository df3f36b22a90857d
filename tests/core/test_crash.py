"""A client killed with SIGKILL at random points while draining 1,000 verdicts, restarted
each time: the server ends with exactly 1,000 decisions, none twice, and the outbox empty."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from reviewer_app.core.store import Store
from reviewer_app.protocol import Role
from reviewer_app.server.feeds.seed import LOAD_QUEUE, seed_load_queue
from tests.support.client import all_decisions, fast_settings, login
from tests.support.servers import LiveServer

ROOT = Path(__file__).resolve().parents[2]
TOTAL = 1_000


def test_sigkill_while_draining_1000_verdicts_loses_and_doubles_nothing(tmp_path: Path) -> None:
    server = LiveServer(
        f"sqlite:///{tmp_path / 'service.db'}", max_leased_per_reviewer=TOTAL + 100
    ).start()
    try:
        seed_load_queue(server.service, TOTAL + 50)
        server.add_user("lead", Role.lead)
        client = login(server, "crashy")
        path = tmp_path / "crashy.sqlite3"
        fast_settings(path, verdict_batch_size=10)
        with Store(path) as store:
            while sum(store.ready_counts().values()) < TOTAL:
                want = TOTAL - sum(store.ready_counts().values())
                store.add_leased(client.claim(LOAD_QUEUE.id, min(200, want), 3_600))
            for row in store.worklist(LOAD_QUEUE.id):
                store.record_verdict(row.item_id, action="keep", time_spent_ms=900)
            assert store.counts().pending == TOTAL

        rng = random.Random(20261130)
        env = {**os.environ, "REVIEWER_TEST_TOKEN": client.token or "", "PYTHONPATH": str(ROOT)}
        kills = 0
        for _attempt in range(200):
            with Store(path) as store:
                if store.counts().pending == 0:
                    break
            proc = subprocess.Popen(
                [sys.executable, "-m", "tests.support.drain", server.url, str(path)],
                cwd=ROOT,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
            )
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == b"ready", proc.stderr
            time.sleep(rng.uniform(0.0, 0.06))
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
            proc.wait(30)
            proc.stdout.close()
            proc.stderr.close()  # type: ignore[union-attr]
        assert kills >= 3, "the client was never killed mid-drain; the test proved nothing"

        with Store(path) as store:
            counts = store.counts()
            assert counts.pending == 0 and counts.in_flight == 0
            journal = store.journal(limit=TOTAL * 2)
            statuses = Counter(e.status for e in journal)
            assert sum(statuses.values()) == TOTAL
            assert set(statuses) <= {"accepted", "duplicate"}
            assert statuses["duplicate"] >= 1, "no kill landed between commit and reply"
            decided = {e.item_id for e in journal}

        decisions = all_decisions(login(server.url, "lead"), "crashy")
        per_item = Counter(d.item_id for d in decisions)
        assert len(decisions) == TOTAL
        assert set(per_item) == decided and set(per_item.values()) == {1}
    finally:
        server.stop()
