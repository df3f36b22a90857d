"""The desktop's settings file names the server and the user name: it is the user's own
(0600, in the app's 0700 folder), whatever the umask. QSettings wrote it 0644."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, QStandardPaths

from reviewer_app.ui import preferences as P

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")


@pytest.fixture
def config(tmp_path: Path) -> Iterator[Path]:
    """Where QSettings keeps the user's native settings, for this test only."""
    folder = tmp_path / "config"
    folder.mkdir()
    native, user = QSettings.Format.NativeFormat, QSettings.Scope.UserScope
    QSettings.setPath(native, user, str(folder))
    umask = os.umask(0o022)
    try:
        yield folder
    finally:
        os.umask(umask)
        default = QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.GenericConfigLocation
        )
        QSettings.setPath(native, user, default)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_settings_file_is_private_after_every_write(config: Path) -> None:
    qsettings = QSettings(
        QSettings.Format.NativeFormat,
        QSettings.Scope.UserScope,
        "reviewer-app",
        "reviewer-app",
    )
    prefs = P.Preferences(qsettings)
    prefs.set(P.SERVER, "https://review.example")
    prefs.set(P.USERNAME, "ana")
    written = Path(qsettings.fileName())
    assert written.parent == config / "reviewer-app" and written.is_file()
    assert _mode(written) == 0o600
    assert _mode(written.parent) == 0o700
    assert _mode(config) == 0o755, "a folder that is not the app's own is left as it is"

    written.chmod(0o644)  # widened by something else: the next write narrows it again
    keys = P.ReviewerKeys(prefs, "https://review.example", "ana")
    keys.set("keep", "K")
    assert _mode(written) == 0o600
