"""The long shift's short form (3,000 decisions; ``make soak`` runs 30,000): the real review
window decides through sync without a crash, memory stays flat and keypress latency does
not creep up. The shift runs as its own process so a crash fails the test, not the run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.soak.soak_run import MARK

ROOT = Path(__file__).resolve().parents[2]
DECISIONS = int(os.environ.get("REVIEWER_APP_SOAK_DECISIONS", "3000"))
#: the issue's bound on growth from decision 1,000 to the end of the shift
RSS_GROWTH_MB = 50.0
#: p99 keypress-to-paint of the last 1,000 decisions against the baseline's 1,000 (decisions
#: 500 to 1,500: the first few hundred keypresses are cheaper, so measuring from decision 1
#: read that warm-up as creep), on a quiet machine (`make soak`)
P99_RATIO = 1.2
#: the same bound for the GUI thread's CPU in the suite, on a shared two-core CI machine: there
#: one window's CPU per keypress differs from another's by up to a quarter with no change in
#: the work (the service and the sync thread share the cores), while a per-keypress cost that
#: grows with the shift (a scan of the journal, a list that is never trimmed) grows far more
SUITE_RATIO = 1.5
#: the median CPU of the key's own handling (verdict recorded, next post set, no paint and no
#: other event), as a share of a fixed reference work's measured beside it: steady on a
#: shared machine, so it keeps the tight bound everywhere
KEY_RATIO = 1.2


@pytest.mark.slow
@pytest.mark.timeout(1_800 + DECISIONS // 10)
def test_a_long_shift_stays_fast_and_flat(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [
            *(sys.executable, "-m", "tests.soak.soak_run"),
            *("--decisions", str(DECISIONS), "--dir", str(tmp_path)),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=1_700 + DECISIONS // 10,
        check=False,
    )
    assert done.returncode == 0, f"the shift ended with {done.returncode}:\n{done.stderr[-4000:]}"
    line = next(x for x in done.stdout.splitlines() if x.startswith(MARK))
    figures = json.loads(line[len(MARK) :])
    print(json.dumps(figures, indent=2))
    assert figures["decided_today_on_server"] >= DECISIONS
    assert figures["measured"] >= DECISIONS * 0.9
    rss = figures["rss_mb"]
    assert rss[str(DECISIONS)] - rss["1000"] < RSS_GROWTH_MB
    # The work a keypress costs must not grow over the shift: the GUI thread's own CPU time
    # per keypress, which other jobs on the machine inflate far less than the wall time.
    ratio = P99_RATIO if os.environ.get("REVIEWER_APP_SOAK_STRICT") else SUITE_RATIO
    for stat in ("p50", "p99"):
        assert figures["last_cpu"][stat] <= ratio * figures["baseline_cpu"][stat], figures
    # the key's own handling against the same fixed work measured beside each key: a window in
    # which the machine ran the GUI thread slower (a neighbour on the core's sibling, a lower
    # clock) slows both; work per keypress that grew with the shift slows the key alone
    key = figures["last_key_cpu"]["p50"] / figures["baseline_key_cpu"]["p50"]
    machine = figures["last_ref_cpu"]["p50"] / figures["baseline_ref_cpu"]["p50"]
    assert key / machine <= KEY_RATIO, figures
    if os.environ.get("REVIEWER_APP_SOAK_STRICT"):  # `make soak`, on a quiet machine
        # and the wall time from key to paint, which also counts waiting for a core
        assert figures["last"]["p99"] <= P99_RATIO * figures["baseline"]["p99"], figures
