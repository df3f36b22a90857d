"""What the desktop bundle ships beside the code: the window's icon, and the notices of the
third-party software it holds (Qt and FFmpeg, whose libraries it ships as replaceable
files, with the texts of the GNU licences they name)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from PySide6.QtGui import QIcon

from reviewer_app.ui.app import icon_file

ROOT = Path(__file__).resolve().parents[2]


def test_the_app_finds_its_icon() -> None:
    found = icon_file()
    assert found is not None and not QIcon(str(found)).isNull()


def test_the_notices_name_qt_ffmpeg_and_every_bundled_distribution(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("notices", ROOT / "packaging/notices.py")
    assert spec is not None and spec.loader is not None
    notices = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(notices)
    written = notices.write_notices(
        tmp_path / "THIRD-PARTY-NOTICES.txt", ["reviewer_app", "PySide6", "av", "certifi"]
    ).read_text()
    assert "Qt 6." in written and "LGPL-3.0-only" in written
    assert "FFmpeg" in written and "libx264" in written
    for name in ("PySide6", "av", "certifi", "reviewer-app"):
        assert f"\n  {name} " in written, name
    assert "GNU LESSER GENERAL PUBLIC LICENSE" in written and "Version 3" in written
    assert "Mozilla Public License" in written  # certifi's own licence file
