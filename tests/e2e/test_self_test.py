"""``reviewer-app --self-test`` as its own process: the window (offscreen) on a temporary
demo service decides one post, the verdict reaches the service, and the process exits 0.
The same command runs inside the PyInstaller bundle (``make package-check``)."""

from __future__ import annotations

import os
import subprocess
import sys


def test_self_test_decides_one_post_and_exits_0() -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-m", "reviewer_app", "--self-test"],
        env=env,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert "reviewer-app self-test OK" in done.stdout


def test_version_and_help_need_no_display() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.pop("QT_QPA_PLATFORM", None)
    for flag in ("--version", "--help"):
        done = subprocess.run(
            [sys.executable, "-m", "reviewer_app", flag],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr[-4000:]
        assert "reviewer-app" in done.stdout
    assert "--self-test" in done.stdout
