"""THIRD-PARTY-NOTICES.txt of the desktop bundle: every distribution the bundle holds code
of (its name, version, licence and licence files), Qt and FFmpeg (whose libraries the
bundle ships as separate shared files, so they can be replaced, as the LGPL asks), and the
texts of the GNU licences they name (packaging/licenses/).

Used by reviewer-app.spec with the modules PyInstaller collected; run alone it lists what
the current environment would give: ``python packaging/notices.py out.txt reviewer_app``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

HERE = Path(__file__).resolve().parent
GNU_TEXTS = sorted((HERE / "licenses").glob("*.txt"))
RULE = "=" * 78

QT = """Qt {qt} (The Qt Company Ltd and other contributors), through PySide6 and Shiboken6 {pyside}
  Licence: LGPL-3.0-only (also offered under GPL-2.0 / GPL-3.0 and commercially).
  The Qt libraries are the separate files _internal/PySide6/Qt/lib/libQt6*.so* (or the
  platform's equivalent) and may be replaced by compatible builds of your own.
  Source: https://download.qt.io/official_releases/qt/ and
  https://code.qt.io/cgit/pyside/pyside-setup.git/ (tag v{pyside})."""

FFMPEG = """FFmpeg, libavcodec {version} (the FFmpeg developers), through PyAV {av}
  Licence as the library reports it: {licence}.
  Built with: {configuration}
  The libraries (libavcodec, libavformat, libavutil, libswscale, ... and the codec
  libraries they use, such as libx264 and libx265, which are GPL-2.0-or-later) are the
  separate files in _internal/av.libs/ (or the platform's equivalent) and may be replaced.
  Source: https://ffmpeg.org/download.html; the build recipe:
  https://github.com/PyAV-Org/pyav-ffmpeg."""


def distributions_of(top_level_modules: Iterable[str]) -> list[metadata.Distribution]:
    """The installed distributions that provide these top-level modules, by name."""
    provides = metadata.packages_distributions()
    names = {dist for module in top_level_modules for dist in provides.get(module, [])}
    found: dict[str, metadata.Distribution] = {}
    for name in names:
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        found[dist.metadata["Name"].lower()] = dist
    return [found[key] for key in sorted(found)]


def _licence(dist: metadata.Distribution) -> str:
    meta = dist.metadata
    said = meta.get("License-Expression") or meta.get("License") or ""
    said = said.strip().splitlines()[0] if said.strip() else ""
    if not said or len(said) > 120:
        classifiers = [c.rsplit(" :: ", 1)[-1] for c in meta.get_all("Classifier") or []]
        said = "; ".join(c for c in classifiers if "License" in c) or said[:120] or "see below"
    return said


def _licence_files(dist: metadata.Distribution) -> list[tuple[str, str]]:
    texts = []
    for file in dist.files or []:
        name = file.name.upper()
        if file.suffix == ".py" or not (
            name.startswith(("LICENSE", "LICENCE", "COPYING", "NOTICE"))
            or "/licenses/" in str(file).replace("\\", "/")
        ):
            continue
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        texts.append((str(file), text.strip()))
    return texts


def _qt_and_ffmpeg() -> list[str]:
    parts = []
    try:
        import PySide6
        from PySide6 import QtCore

        parts.append(QT.format(qt=QtCore.qVersion(), pyside=PySide6.__version__))
    except ImportError:
        pass
    try:
        import av
        from av import _core

        codec = _core.library_meta["libavcodec"]
        parts.append(
            FFMPEG.format(
                version=".".join(str(n) for n in codec["version"]),
                av=av.__version__,
                licence=codec["license"],
                configuration=codec["configuration"],
            )
        )
    except (ImportError, KeyError, AttributeError):
        pass
    return parts


def write_notices(path: Path, top_level_modules: Iterable[str]) -> Path:
    """Write the notices of the bundle whose code comes from these top-level modules."""
    dists = distributions_of(top_level_modules)
    out = [
        "Third-party software in the review desk's desktop bundle",
        RULE,
        "The bundle holds the software below, each under its own licence. Python itself:",
        f"  Python {sys.version.split()[0]}, Python Software Foundation License Version 2.",
        "",
        *_qt_and_ffmpeg(),
        "",
        "Python distributions (name, version, licence):",
        *(f"  {d.metadata['Name']} {d.version}: {_licence(d)}" for d in dists),
    ]
    for dist in dists:
        for name, text in _licence_files(dist):
            out += ["", RULE, f"{dist.metadata['Name']} {dist.version}: {name}", RULE, text]
    for text_file in GNU_TEXTS:
        out += ["", RULE, f"The text of the {text_file.stem}", RULE]
        out.append(text_file.read_text(encoding="utf-8").strip())
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    return path


if __name__ == "__main__":
    print(write_notices(Path(sys.argv[1]), sys.argv[2:]))
