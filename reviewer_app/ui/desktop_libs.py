"""Before the window opens on X11: are the system libraries Qt's xcb platform plugin needs
there? Without them Qt aborts the process after the demo has seeded, started its service
and logged in, with a hint about one of them (``xcb-cursor0``) whatever is missing. Asking
the dynamic linker (``ldd`` on the plugin) names exactly what this installation of Qt
needs and this machine lacks, so the app can say it and how to install it, and exit.

Nothing here imports Qt: it runs before the first Qt library is loaded."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

#: ``ldd`` lines for a library the linker cannot find: ``\tlibxcb-cursor.so.0 => not found``
_NOT_FOUND = re.compile(r"^\s*(\S+\.so[.\d]*)\s*=>\s*not found\s*$", re.MULTILINE)
#: a soname's name and major version: ``libxcb-cursor.so.0`` -> (``libxcb-cursor``, ``0``)
_SONAME = re.compile(r"^(lib.+?)\.so\.?(\d*)")


def xcb_plugin() -> Path | None:
    """The xcb platform plugin of the PySide6 this process would load, if there is one."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        plugin = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.is_file():
            return plugin
    return None


def will_use_xcb(environ: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """Whether Qt will open its windows through X11 (xcb) here: Linux, a display, and no
    other platform asked for (``QT_QPA_PLATFORM``) or offered (a Wayland session)."""
    if not sys.platform.startswith("linux"):
        return False
    asked = environ.get("QT_QPA_PLATFORM", "")
    if asked:
        return asked.split(";")[0].split(":")[0] == "xcb"
    return bool(environ.get("DISPLAY")) and not environ.get("WAYLAND_DISPLAY")


def missing_libraries(binary: Path) -> list[str]:
    """The sonames ``binary`` (and what it loads) needs that the linker cannot find here;
    empty when all are found, or when ``ldd`` is not there to ask."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return []
    try:
        # the system's linker on Qt's own plugin: no input from anyone
        done = subprocess.run(  # noqa: S603
            [ldd, str(binary)],
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return []
    return sorted(set(_NOT_FOUND.findall(done.stdout)))


def debian_package(soname: str) -> str:
    """The Debian package that ships a library, by Debian's naming policy: the soname's
    name with its major version appended (``libxcb-cursor.so.0`` -> ``libxcb-cursor0``),
    after a hyphen when the name ends in a digit (``libxkbcommon-x11.so.0`` ->
    ``libxkbcommon-x11-0``); lowercase, as package names are."""
    found = _SONAME.match(soname)
    if found is None:
        return soname
    name, major = found.groups()
    joint = "-" if name[-1].isdigit() and major else ""
    return f"{name}{joint}{major}".lower()


def advice(missing: list[str]) -> str:
    """What to tell the person starting the app: the missing libraries and the commands
    that install them (Debian/Ubuntu by package, Fedora by the soname each provides)."""
    apt = " ".join(sorted({debian_package(name) for name in missing}))
    dnf = " ".join(f"'{name}()(64bit)'" for name in missing)
    listed = "\n".join(f"  {name}" for name in missing)
    return (
        "The review window cannot open on this X11 desktop: Qt needs system libraries "
        f"that are not installed:\n{listed}\n"
        f"Debian or Ubuntu:  sudo apt-get install {apt}\n"
        f"Fedora:            sudo dnf install {dnf}\n"
        "(README, 'What a desktop needs'.) Nothing was started."
    )


def check() -> str | None:
    """``None`` when the window can open here (or it will not use X11); otherwise the
    words that say what is missing and how to install it."""
    if not will_use_xcb():
        return None
    plugin = xcb_plugin()
    if plugin is None:
        return None
    missing = missing_libraries(plugin)
    return advice(missing) if missing else None
