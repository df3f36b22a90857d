"""What a demo keeps between starts: its port, one per role, and its account's store there.

The client keeps its store per server address (``core.paths.store_path``), so the same
port each time is what lets a demo pick up where the last one of its role stopped (its
cached posts, leases and any verdicts it had not sent yet). When that port is taken by
another program, the demo starts on another one and carries the account's store there
(the service on the new port serves the same database: its leases and its outbox go on);
only an account whose store could not be carried gets back what it held. A demo of a role
whose store a running demo holds starts nothing: the login says that copy has it.

Part of ``reviewer_app.demo`` (it imports this): Qt-free, and nothing else imports it.
"""

from __future__ import annotations

import logging
import os
import socket
import sqlite3
import sys
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from reviewer_app.core.errors import CoreError
from reviewer_app.core.paths import store_path

log = logging.getLogger("demo")

DEMO_ACCOUNTS = {"reviewer": ("reviewer", "review-desk-demo"), "lead": ("lead", "review-desk-lead")}
#: the file each role's last port is kept in; the reviewer's is the one every role used
#: before (so an existing install keeps its store)
PORT_FILES = {"reviewer": "demo-port", "lead": "demo-port-lead"}


def demo_url(port: int) -> str:
    return f"http://127.0.0.1:{port}"


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as sock:
        if sys.platform != "win32":
            # as the server will: connections of a demo that just ended, still in
            # TIME_WAIT, do not make the port busy (on Windows the option means more)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def remembered_port(folder: Path, role: str) -> int:
    """The port the last demo of ``role`` used; 0 when none is known."""
    try:
        return int((folder / PORT_FILES[role]).read_text(encoding="ascii").strip())
    except (OSError, ValueError):
        return 0


def remember_port(folder: Path, role: str, port: int) -> None:
    """Kept for the next start; a folder that cannot be written only means the next demo
    may start on another port (and carry its store there)."""
    try:
        (folder / PORT_FILES[role]).write_text(f"{port}\n", encoding="ascii")
    except OSError as err:
        log.warning("the demo's port cannot be kept for the next start: %s", err)


def _new_port(folder: Path, role: str) -> int:
    """A free port, not one another role's demo will look for at its next start."""
    others = {remembered_port(folder, r) for r in PORT_FILES if r != role}
    port = free_port()
    for _ in range(20):
        if port not in others:
            break
        port = free_port()
    return port


def demo_port(folder: Path, asked: int = 0, role: str = "reviewer") -> tuple[int, bool]:
    """The port of ``role``'s demo and whether it is the one its last demo used (kept for
    the next start). ``asked``: the port given with ``--port``."""
    last = remembered_port(folder, role)
    port = asked or (last if last and port_is_free(last) else _new_port(folder, role))
    if port != last:
        remember_port(folder, role, port)
    return port, port == last


def _held(path: Path) -> bool:
    """A running copy of the app holds the store at ``path`` (a demo of its role)."""
    if not path.is_file():
        return False
    from reviewer_app.core.store.hold import check_free

    try:
        check_free(path)
    except CoreError:  # StoreInUse
        return True
    return False


@dataclass(frozen=True)
class DemoStart:
    """How a demo of one role starts. ``running``: a demo of that role runs on ``port`` (its
    store is held): no service is started, and the login says the other copy has it.
    ``release``: its account's leases are given back (its store could not be carried)."""

    port: int
    running: bool = False
    release: bool = False
    carried: bool = False


def plan_start(
    folder: Path, role: str, asked: int = 0, client_root: Path | None = None
) -> DemoStart:
    """The port a demo of ``role`` starts on, its store carried there from the last one's
    address when the port changes. ``folder``: the demo's folder; ``client_root``: its
    client's (by default ``folder / "client"``)."""
    user, password = DEMO_ACCOUNTS[role]
    root = client_root or folder / "client"
    last = remembered_port(folder, role)
    # before ports per role every role's demo ran on the reviewer's port: a role with no
    # port of its own yet finds its store there
    source = last or remembered_port(folder, "reviewer")
    if source and _held(store_path(demo_url(source), user, root)):
        return DemoStart(source, running=True)
    port = asked or (last if last and port_is_free(last) else _new_port(folder, role))
    if port != last:
        remember_port(folder, role, port)
    if port == source:
        return DemoStart(port)
    if source and carry_store(demo_url(source), demo_url(port), user, password, root):
        return DemoStart(port, carried=True)
    return DemoStart(port, release=True)


def carry_store(old_url: str, new_url: str, username: str, password: str, root: Path) -> bool:
    """Move ``username``'s store (``root``'s) from the address ``old_url`` to ``new_url``,
    its key wrapped again under the new address (the key file binds it; the demo's password
    is published, so the demo may do this). Only when no running copy holds it and nothing
    is at the new address; False (nothing moved) otherwise or when a step fails."""
    from reviewer_app.core import keyfile
    from reviewer_app.core.store.hold import hold

    old = store_path(old_url, username, root)
    new = store_path(new_url, username, root)
    if not old.is_file() or new.exists():
        return False
    try:
        old_lock = hold(old)
        try:
            new_lock = hold(new)
            try:
                key = keyfile.unlock(keyfile.key_file_path(old), password, old_url, username)
                _empty_wal(old)
                keyfile.create(
                    keyfile.key_file_path(new),
                    password,
                    new_url,
                    username,
                    params=keyfile.PUBLISHED_PASSWORD_PARAMS,
                    key=key,
                )
                for suffix in ("-wal", "-shm"):  # left by a store once there: not this one's
                    Path(f"{new}{suffix}").unlink(missing_ok=True)
                os.replace(old, new)
                for suffix in ("-wal", "-shm"):
                    Path(f"{old}{suffix}").unlink(missing_ok=True)
                keyfile.key_file_path(old).unlink(missing_ok=True)
            finally:
                if new_lock is not None:
                    new_lock.release()
        finally:
            if old_lock is not None:
                old_lock.release()
    except (CoreError, OSError, sqlite3.Error) as err:  # StoreInUse, a key file, the disk
        log.warning("the demo's store at %s was not carried to %s: %s", old_url, new_url, err)
        return False
    log.info("the demo's store for %s was carried from %s to %s", username, old_url, new_url)
    return True


class _WalNotEmpty(OSError):
    pass


def _empty_wal(path: Path) -> None:
    """Everything in the store's WAL written into its file, so the file alone is the store
    (the last connection's close checkpoints and removes the WAL)."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    wal = Path(f"{path}-wal")
    with suppress(FileNotFoundError):
        if wal.stat().st_size:
            raise _WalNotEmpty(f"its WAL {wal} could not be emptied")


class PortTaken(OSError):
    """The demo's port is taken (by another program, or another demo starting on it)."""


def listening_socket(port: int) -> socket.socket:
    """127.0.0.1:``port`` (0: any free one) bound for the service, as uvicorn binds it;
    ``PortTaken`` when another program has it."""
    sock = socket.socket()
    try:
        if sys.platform != "win32":  # as port_is_free
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", port))
    except OSError as err:
        sock.close()
        raise PortTaken(
            f"port {port} on 127.0.0.1 is in use by another program ({err.strerror}); "
            "another demo may be starting on it"
        ) from err
    return sock


def failure_reason(err: BaseException) -> str:
    """A failure in one line, in the words of what failed (the database's own for an error
    SQLAlchemy wraps: "database or disk is full"; the system's for a file)."""
    found = getattr(err, "orig", None)
    if isinstance(found, BaseException):
        err = found
    if isinstance(err, OSError) and err.strerror:
        return f"{err.strerror}: {err.filename}" if err.filename else err.strerror
    lines = str(err).strip().splitlines()
    return lines[0] if lines else type(err).__name__
