"""The store's folder and its lock: a data folder that cannot be written is a ``StoreError``
naming it (what the app says as "The local store cannot be written"), not an unexpected
OSError; the lock file ``<store>.lock`` is 0600 like every file the app writes (SECURITY.md),
one an older release left wider narrowed."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from reviewer_app.core.store import Store

ROOT = Path(__file__).resolve().parents[2]

_OPEN = """
import sys
from pathlib import Path
from reviewer_app.core.errors import StoreError
from reviewer_app.core.store import Store

path = Path(sys.argv[1])
for exclusive in (False, True):  # the sync thread's connection, the session's (locked)
    try:
        Store(path, exclusive=exclusive).close()
        print("opened", exclusive)
    except StoreError as err:
        print("StoreError", exclusive, err)
"""


def _as_a_user(command: list[str]) -> list[str]:
    """``command`` run so that file modes apply (root ignores them): as it is for a user,
    in a user namespace for root (its files' modes then hold for it too)."""
    if os.geteuid() != 0:
        return command
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "-U", "true"], check=False).returncode:
        pytest.skip("running as root, with no user namespace to make file modes apply")
    return [unshare, "-U", *command]


@pytest.mark.parametrize("folder", ["to make", "not the user's"])
def test_a_data_folder_that_cannot_be_written_is_a_store_error_naming_it(
    tmp_path: Path, folder: str
) -> None:
    data = tmp_path / "data"
    path = data / "stores" / "127.0.0.1_8000-abc" / "rita.sqlite3"
    if folder == "to make":
        data.mkdir(mode=0o500)  # read-only: the stores folder cannot be made in it
    else:  # as the app left it, then owned by someone else (a home restored as root…)
        if os.geteuid() != 0:
            pytest.skip("only root can give a folder to another user")
        Store(path, exclusive=True).close()
        os.chown(path.parent, 65534, 65534)
    try:
        out = subprocess.run(
            _as_a_user([sys.executable, "-c", textwrap.dedent(_OPEN), str(path)]),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        if folder == "to make":
            data.chmod(0o700)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("StoreError") for line in lines), out.stdout
    for line in lines:
        assert "The app's data folder" in line and "cannot be written" in line, line
        assert "127.0.0.1_8000-abc" in line and "Permission denied" in line, line
    assert folder != "to make" or not (data / "stores").exists()


@pytest.fixture
def umask_022() -> Iterator[None]:
    """The usual umask: a file made with the default mode is 0644."""
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.skipif(os.name != "posix", reason="POSIX file modes")
@pytest.mark.usefixtures("umask_022")
def test_the_store_lock_file_is_0600(tmp_path: Path) -> None:
    path = tmp_path / "stores" / "srv" / "rita.sqlite3"
    store = Store(path, exclusive=True)
    try:
        lock = Path(f"{path}.lock")
        assert lock.exists() and _mode(lock) == 0o600, oct(_mode(lock))
        assert _mode(path) == 0o600 and _mode(path.parent) == 0o700
    finally:
        store.close()
    # one an older release left with the umask's mode is narrowed at the next open
    lock.chmod(0o644)
    with Store(path, exclusive=True):
        assert _mode(lock) == 0o600, oct(_mode(lock))
