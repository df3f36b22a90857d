"""Credentials: tokens in the OS keyring keyed by server and user, in memory when there is
no usable keyring, and never in a file or a log line.

The normal path uses ``MemoryKeyring`` (a real ``KeyringBackend`` that keeps a dict); one
test goes through a real Secret Service: gnome-keyring-daemon in a private D-Bus session
with a throwaway HOME, so the developer's own keyring is never touched.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import keyring.errors
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail, null

from reviewer_app.core.credentials import Credentials, Saved
from tests.support.keyring_memory import MemoryKeyring, RefusingKeyring, installed

ROOT = Path(__file__).resolve().parents[2]
SERVER = "https://queue.example.org"
OTHER_SERVER = "https://queue.example.org:8443"


@pytest.fixture
def token() -> str:
    return "tok-" + secrets.token_urlsafe(24)


# -- nothing goes to disk ------------------------------------------------------------------

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
_WRITE_EVENTS = {"os.rename", "os.truncate", "os.mkdir", "os.link", "os.symlink"}
_WRITE_EVENTS |= {"shutil.copyfile", "sqlite3.connect", "sqlite3.connect/handle"}
_recorder: tuple[int, list[str]] | None = None  # (thread id, what it saw) while recording
_hook_installed = False


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _recorder is None or _recorder[0] != threading.get_ident():
        return
    if event == "open":
        path, mode, flags = args
        writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
            isinstance(flags, int) and flags & _WRITE_FLAGS
        )
        if writes and "__pycache__" not in str(path):
            _recorder[1].append(f"open {path!r} mode={mode!r} flags={flags!r}")
    elif event in _WRITE_EVENTS:
        _recorder[1].append(f"{event} {args!r}")


@pytest.fixture
def no_disk_writes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Records every file this thread opens for writing (and renames, sqlite connects ...)
    during the test, with HOME, the XDG dirs and the working directory in ``tmp_path``.
    The test asserts the list stays empty; afterwards nothing in ``tmp_path`` may exist."""
    global _recorder, _hook_installed
    if not _hook_installed:  # audit hooks cannot be removed: install one, switch it on/off
        sys.addaudithook(_audit)
        _hook_installed = True
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var, sub in [
        ("XDG_DATA_HOME", ".local/share"),
        ("XDG_CONFIG_HOME", ".config"),
        ("XDG_CACHE_HOME", ".cache"),
        ("XDG_STATE_HOME", ".local/state"),
    ]:
        monkeypatch.setenv(var, str(home / sub))
    monkeypatch.chdir(tmp_path)
    seen: list[str] = []
    _recorder = (threading.get_ident(), seen)
    try:
        yield seen
    finally:
        _recorder = None
    left = [str(p.relative_to(tmp_path)) for p in home.rglob("*")]
    assert not left, f"files appeared under the temporary HOME: {left}"


def test_the_write_recorder_sees_writes(no_disk_writes: list[str], tmp_path: Path) -> None:
    """The recorder itself can fail: a plain file write shows up in it."""
    (tmp_path / "written.txt").write_text("x")
    assert any("written.txt" in entry for entry in no_disk_writes)
    no_disk_writes.clear()


# -- the normal path: a keyring backend ------------------------------------------------------


def test_round_trip_through_the_keyring(token: str, no_disk_writes: list[str]) -> None:
    backend = MemoryKeyring()
    credentials = Credentials(backend=backend)

    saved = credentials.save(SERVER, "rita", token)

    assert saved.persistent is True
    assert saved.reason is None and credentials.reason is None
    assert backend.secrets == {(Credentials.service_name(SERVER), "rita"): token}
    assert credentials.load(SERVER, "rita") == token
    # a second instance (the next start of the app) finds it in the keyring, not in memory
    assert Credentials(backend=backend).load(SERVER, "rita") == token

    credentials.delete(SERVER, "rita")

    assert backend.secrets == {}
    assert credentials.load(SERVER, "rita") is None
    assert Credentials(backend=backend).load(SERVER, "rita") is None
    assert no_disk_writes == []


def test_without_a_backend_it_uses_the_keyring_default(token: str) -> None:
    backend = MemoryKeyring()
    with installed(backend):
        saved = Credentials().save(SERVER, "rita", token)
        assert saved.persistent is True
        assert Credentials().load(SERVER, "rita") == token
    assert backend.secrets == {(Credentials.service_name(SERVER), "rita"): token}


def test_servers_and_users_do_not_collide() -> None:
    backend = MemoryKeyring()
    credentials = Credentials(backend=backend)
    keys = [(server, user) for server in (SERVER, OTHER_SERVER) for user in ("rita", "sam")]
    tokens = {key: f"token-{n}-{secrets.token_hex(8)}" for n, key in enumerate(keys)}

    for (server, user), value in tokens.items():
        assert credentials.save(server, user, value).persistent

    assert len(backend.secrets) == 4
    fresh = Credentials(backend=backend)
    for (server, user), value in tokens.items():
        assert fresh.load(server, user) == value

    fresh.delete(SERVER, "rita")

    assert fresh.load(SERVER, "rita") is None
    for server, user in keys[1:]:
        assert fresh.load(server, user) == tokens[(server, user)]


def test_saving_again_replaces_the_token() -> None:
    backend = MemoryKeyring()
    Credentials(backend=backend).save(SERVER, "rita", "old-token")
    Credentials(backend=backend).save(SERVER, "rita", "new-token")
    assert Credentials(backend=backend).load(SERVER, "rita") == "new-token"
    assert len(backend.secrets) == 1


def test_unknown_logins_load_nothing_and_delete_quietly(caplog: pytest.LogCaptureFixture) -> None:
    credentials = Credentials(backend=MemoryKeyring())
    with caplog.at_level(logging.DEBUG):
        assert credentials.load(SERVER, "nobody") is None
        credentials.delete(SERVER, "nobody")  # PasswordDeleteError is not a problem
    assert credentials.reason is None
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


# -- the fallback: no usable keyring ---------------------------------------------------------

NO_KEYRING: dict[str, Callable[[], KeyringBackend]] = {
    "fail backend": fail.Keyring,
    "null backend": null.Keyring,
    "locked collection": lambda: RefusingKeyring(
        keyring.errors.PasswordSetError("Cannot create an item in a locked collection")
    ),
    "prompt dismissed": lambda: RefusingKeyring(
        keyring.errors.KeyringLocked("Failed to unlock the collection!")
    ),
    "keyring error": lambda: RefusingKeyring(keyring.errors.KeyringError("backend gave up")),
    "d-bus error": lambda: RefusingKeyring(RuntimeError("org.freedesktop.DBus.Error.NoReply")),
}


@pytest.mark.parametrize("make_backend", NO_KEYRING.values(), ids=NO_KEYRING.keys())
def test_without_a_usable_keyring_the_token_lives_in_memory(
    make_backend: Callable[[], KeyringBackend], token: str, no_disk_writes: list[str]
) -> None:
    backend = make_backend()
    credentials = Credentials(backend=backend)

    saved = credentials.save(SERVER, "rita", token)

    assert saved.persistent is False
    assert isinstance(saved.reason, str) and saved.reason.strip()
    assert credentials.reason == saved.reason
    assert token not in saved.reason
    if isinstance(backend, RefusingKeyring):
        assert backend.set_attempts == 1  # it was tried, not skipped
        assert type(backend.error).__name__ in saved.reason
    else:
        assert saved.reason == "no keyring service is available on this system"
    # this session still has the token; the next one (a new instance) does not
    assert credentials.load(SERVER, "rita") == token
    assert credentials.load(OTHER_SERVER, "rita") is None
    assert credentials.load(SERVER, "sam") is None
    assert Credentials(backend=backend).load(SERVER, "rita") is None

    credentials.delete(SERVER, "rita")  # logging out forgets it

    assert credentials.load(SERVER, "rita") is None
    assert no_disk_writes == []


def test_a_keyring_that_works_again_takes_over_from_memory(token: str) -> None:
    backend = RefusingKeyring(keyring.errors.PasswordSetError("locked"))
    credentials = Credentials(backend=backend)
    assert credentials.save(SERVER, "rita", "first-token").persistent is False

    backend.error = None  # unlocked now
    saved = credentials.save(SERVER, "rita", token)

    assert saved == Saved(persistent=True, reason=None)
    assert backend.secrets == {(Credentials.service_name(SERVER), "rita"): token}
    assert credentials.load(SERVER, "rita") == token


# -- the token in logs -----------------------------------------------------------------------


@pytest.mark.parametrize("make_backend", NO_KEYRING.values(), ids=NO_KEYRING.keys())
def test_the_token_is_not_logged_when_saving_fails(
    make_backend: Callable[[], KeyringBackend], token: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):  # every logger, keyring's own included
        saved = Credentials(backend=make_backend()).save(SERVER, "rita", token)

    assert saved.persistent is False
    assert caplog.records, "saving in memory only should be logged"
    assert any(r.levelno >= logging.WARNING for r in caplog.records)
    assert token not in caplog.text
    for record in caplog.records:
        assert token not in record.getMessage()
        assert token not in repr(record.args)


def test_the_token_is_not_logged_even_when_the_keyring_error_quotes_it(
    token: str, caplog: pytest.LogCaptureFixture
) -> None:
    backend = RefusingKeyring(keyring.errors.PasswordSetError(f"cannot store {token!r}"))
    with caplog.at_level(logging.DEBUG):
        saved = Credentials(backend=backend).save(SERVER, "rita", token)
    assert saved.persistent is False
    assert token not in (saved.reason or "")
    assert token not in caplog.text


# -- a real Secret Service: gnome-keyring-daemon in a private D-Bus session ------------------

# Runs inside `dbus-run-session`: starts gnome-keyring-daemon with its login keyring
# unlocked by a password on stdin (created on first use, in the temporary HOME), saves
# the token, restarts the daemon (--replace) so the next step can only find the token if
# it was written to the keyring file, loads it, deletes it.
SESSION_SCRIPT = """
set -e
unlock() {
    printf '%s' "$RK_KEYRING_PASSWORD" |
        gnome-keyring-daemon "$@" --unlock --components=secrets >/dev/null
}
unlock
"$RK_PYTHON" -m tests.support.secret_service_child save
unlock --replace
"$RK_PYTHON" -m tests.support.secret_service_child load
"$RK_PYTHON" -m tests.support.secret_service_child delete
"""
SESSION_TIMEOUT = 60.0


def _need(what: str) -> None:
    """Missing tools skip a developer's run but fail in CI, where they are installed."""
    message = f"{what} (apt-get install gnome-keyring dbus-x11)"
    if os.environ.get("CI"):
        pytest.fail(f"{message}; CI must run the Secret Service test")
    pytest.skip(message)


def test_round_trip_through_a_real_secret_service(tmp_path: Path, token: str) -> None:
    if sys.platform != "linux":
        pytest.skip("the Secret Service (gnome-keyring) is the freedesktop keyring, Linux only")
    missing = [t for t in ("dbus-run-session", "gnome-keyring-daemon") if not shutil.which(t)]
    if missing:
        _need(f"the Secret Service test needs {' and '.join(missing)}")
    try:
        import secretstorage  # noqa: F401  (keyring's Secret Service backend needs it)
    except ImportError:
        _need("the Secret Service test needs the secretstorage package")

    home = tmp_path / "home"
    data = home / ".local" / "share"
    runtime = tmp_path / "run"  # the daemon's control socket goes here: keep the path short
    for d in (home, data, runtime):
        d.mkdir(parents=True, exist_ok=True)
    runtime.chmod(0o700)
    env = {
        # nothing of the developer's session: no bus address, no keyring control socket,
        # no display (so a locked keyring cannot pop up a prompt)
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "HOME": str(home),
        "XDG_DATA_HOME": str(data),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_RUNTIME_DIR": str(runtime),
        "PYTHONPATH": str(ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        "RK_PYTHON": sys.executable,
        "RK_KEYRING_PASSWORD": secrets.token_hex(16),
        "RK_SERVER": SERVER,
        "RK_USER": "rita",
        "RK_TOKEN": token,
        "RK_SCAN_DIR": str(tmp_path),
    }
    started = time.monotonic()
    proc = subprocess.Popen(
        ["dbus-run-session", "--", "sh", "-c", SESSION_SCRIPT],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, to kill it whole if it hangs
    )
    try:
        out, err = proc.communicate(timeout=SESSION_TIMEOUT)
    except subprocess.TimeoutExpired:
        # not reaped yet, so the group is still ours: the bus, the daemons, the steps
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        pytest.fail(f"the keyring session hung for {SESSION_TIMEOUT}s\n{out}\n{err}")
    elapsed = time.monotonic() - started

    detail = f"exit {proc.returncode} after {elapsed:.1f}s\nstdout:\n{out}\nstderr:\n{err}"
    steps = {}
    for line in out.splitlines():
        if line.startswith("{"):
            result = json.loads(line)
            steps[result["step"]] = result
    assert proc.returncode == 0, detail
    assert set(steps) == {"save", "load", "delete"}, detail
    assert "error" not in steps["save"], detail
    assert steps["save"]["persistent"] is True, detail
    assert steps["save"]["reason"] is None, detail
    assert steps["load"]["token"] == token, detail  # by a new process, from a new daemon
    # gnome-keyring kept the keyring in the temporary HOME (so not in the developer's),
    # encrypted: while it held the token, no file showed it in plain text
    assert steps["load"]["keyring_files"] == ["home/.local/share/keyrings/login.keyring"], detail
    assert steps["load"]["plain_text_in"] == [], detail
    assert steps["delete"]["token_after"] is None, detail


# -- the local store's key ------------------------------------------------------------------


def test_the_store_key_is_made_once_kept_apart_from_the_token_and_deleted_alone(
    token: str, no_disk_writes: list[str]
) -> None:
    backend = MemoryKeyring()
    credentials = Credentials(backend=backend)
    credentials.save(SERVER, "rita", token)
    key = credentials.store_key(SERVER, "rita")
    assert key is not None and len(key) == 32
    entry = (Credentials.store_key_service_name(SERVER), "rita")
    assert entry[0] == Credentials.service_name(SERVER) + ":store-key"
    assert set(backend.secrets) == {(Credentials.service_name(SERVER), "rita"), entry}
    # the next start finds the same key; another user or server gets its own
    assert Credentials(backend=backend).store_key(SERVER, "rita") == key
    assert credentials.store_key(SERVER, "rosa") not in (None, key)
    assert credentials.store_key(OTHER_SERVER, "rita") not in (None, key)

    credentials.delete_store_key(SERVER, "rita")
    assert entry not in backend.secrets
    assert credentials.load(SERVER, "rita") == token, "the token is another entry"
    assert credentials.store_key(SERVER, "rita") != key, "a new key after a wipe"
    assert no_disk_writes == []


def test_no_usable_keyring_means_no_store_key() -> None:
    assert Credentials(memory_only=True).store_key(SERVER, "rita") is None
    assert Credentials(backend=fail.Keyring()).store_key(SERVER, "rita") is None
    refusing = RefusingKeyring(keyring.errors.PasswordSetError("locked"))
    credentials = Credentials(backend=refusing)
    assert credentials.store_key(SERVER, "rita") is None
    assert credentials.reason and "PasswordSetError" in credentials.reason
    assert refusing.secrets == {}


def test_a_keyring_that_fails_to_answer_never_makes_a_new_key(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A new key would orphan the store encrypted under the old one: none is made."""
    backend = MemoryKeyring()
    key = Credentials(backend=backend).store_key(SERVER, "rita")

    class Unreachable(MemoryKeyring):
        def get_password(self, service: str, username: str) -> str | None:
            raise keyring.errors.KeyringLocked("locked")

        def set_password(self, service: str, username: str, password: str) -> None:
            raise AssertionError("no key may be written when the old one could not be read")

    assert Credentials(backend=Unreachable()).store_key(SERVER, "rita") is None
    assert Credentials(backend=backend).store_key(SERVER, "rita") == key
    assert key is not None and key.hex() not in caplog.text


def test_a_damaged_store_key_is_replaced() -> None:
    backend = MemoryKeyring()
    backend.set_password(Credentials.store_key_service_name(SERVER), "rita", "not base64!")
    key = Credentials(backend=backend).store_key(SERVER, "rita")
    assert key is not None and len(key) == 32
