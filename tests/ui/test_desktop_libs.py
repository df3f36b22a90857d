"""The X11 library check before the window opens: against the real dynamic linker, with
a real copy of Qt's xcb plugin made to need a library no machine has (patchelf)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from reviewer_app.ui import desktop_libs

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the xcb platform plugin is Linux's"
)

MISSING = "libxcb-review-desk-absent.so.7"


@pytest.fixture
def plugin() -> Path:
    found = desktop_libs.xcb_plugin()
    assert found is not None, "PySide6 ships libqxcb.so on Linux"
    return found


def test_this_machine_has_what_the_xcb_plugin_needs(plugin: Path) -> None:
    # CI installs them (.ci/run); the window tests under Xvfb need them too
    assert desktop_libs.missing_libraries(plugin) == []


def test_a_library_the_linker_cannot_find_is_named(plugin: Path, tmp_path: Path) -> None:
    patchelf = shutil.which("patchelf") or str(Path(sys.executable).with_name("patchelf"))
    copy = tmp_path / plugin.name
    shutil.copy2(plugin, copy)
    subprocess.run([patchelf, "--add-needed", MISSING, str(copy)], check=True)
    # the copy sits outside Qt's folder: its $ORIGIN-relative Qt libraries resolve no more
    missing = desktop_libs.missing_libraries(copy)
    assert MISSING in missing
    words = desktop_libs.advice(missing)
    assert "libxcb-review-desk-absent7" in words  # the Debian package, by naming policy
    assert f"'{MISSING}()(64bit)'" in words  # what Fedora's dnf resolves


@pytest.mark.parametrize(
    ("soname", "package"),
    [
        ("libxcb-cursor.so.0", "libxcb-cursor0"),
        ("libxcb-icccm.so.4", "libxcb-icccm4"),
        ("libxkbcommon-x11.so.0", "libxkbcommon-x11-0"),
        ("libEGL.so.1", "libegl1"),
        ("libdbus-1.so.3", "libdbus-1-3"),
    ],
)
def test_debian_package_names_follow_the_policy(soname: str, package: str) -> None:
    assert desktop_libs.debian_package(soname) == package


@pytest.mark.parametrize(
    ("environ", "xcb"),
    [
        ({"DISPLAY": ":0"}, True),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, False),
        ({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, False),
        ({"QT_QPA_PLATFORM": "xcb"}, True),
        ({"QT_QPA_PLATFORM": "xcb:display=:1"}, True),
        ({}, False),
    ],
)
def test_only_an_x11_start_is_checked(environ: dict[str, str], xcb: bool) -> None:
    assert desktop_libs.will_use_xcb(environ) is xcb


def test_the_app_says_what_is_missing_and_starts_nothing(tmp_path: Path) -> None:
    """The real command line with a PySide6 whose xcb plugin needs a missing library: exit
    2 with the advice, before the demo seeds anything."""
    plugin = desktop_libs.xcb_plugin()
    assert plugin is not None
    fake = tmp_path / "site" / "PySide6" / "Qt" / "plugins" / "platforms"
    fake.mkdir(parents=True)
    shutil.copy2(plugin, fake / plugin.name)
    patchelf = shutil.which("patchelf") or str(Path(sys.executable).with_name("patchelf"))
    subprocess.run([patchelf, "--add-needed", MISSING, str(fake / plugin.name)], check=True)
    (tmp_path / "site" / "PySide6" / "__init__.py").write_text("")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), *sys.path]),
        "DISPLAY": ":99",
        "XDG_DATA_HOME": str(tmp_path / "data"),
    }
    env.pop("QT_QPA_PLATFORM", None)
    env.pop("WAYLAND_DISPLAY", None)
    done = subprocess.run(
        [sys.executable, "-m", "reviewer_app", "--demo"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert MISSING in done.stderr and "apt-get install" in done.stderr
    assert not (tmp_path / "data").exists()  # the demo seeded nothing


def _reviewer_app(tmp_path: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), **env}
    for name in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY", *(() if "DISPLAY" in env else ("DISPLAY",))):
        environ.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "reviewer_app", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=60,
        check=False,
    )


def test_with_no_display_the_app_says_so_and_starts_nothing(tmp_path: Path) -> None:
    """In an SSH session (no DISPLAY, no WAYLAND_DISPLAY) the demo's service started and Qt
    then aborted, blaming libxcb-cursor0, which was installed."""
    done = _reviewer_app(tmp_path, "--demo")
    assert done.returncode == 2, done.stderr
    assert "no display" in done.stderr and "xvfb-run" in done.stderr
    assert "Fatal" not in done.stderr and not (tmp_path / "data").exists()


def test_a_demo_port_in_use_is_said_before_anything_starts(tmp_path: Path) -> None:
    """``--demo --port N`` with N taken: the service's process failed to listen once
    started, the app aborted (and, offscreen, hung) with a message about another demo."""
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _reviewer_app(tmp_path, "--demo", "--port", str(port), DISPLAY=":99")
    assert done.returncode == 2, done.stderr
    assert f"port {port} on 127.0.0.1 is in use" in done.stderr and "--port 0" in done.stderr
    assert not (tmp_path / "data").exists()
